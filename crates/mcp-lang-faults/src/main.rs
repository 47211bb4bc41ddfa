//! `mcp-lang-faults`: the fault server and the conformance suite's
//! self-test.
//!
//! ```text
//! mcp-lang-faults serve --stdio --fault ignore-weights      one rule broken, on stdin/stdout
//! mcp-lang-faults serve --http 8080 --latitude wildcard-lookup
//! mcp-lang-faults self-test                                 every fault caught, every latitude passed
//! mcp-lang-faults self-test --only drop-vary,handshake-only --markdown
//! mcp-lang-faults list                                      the faults and latitudes
//! mcp-lang-faults proxy --fault ignore-weights --profile server.toml -- python server.py
//! mcp-lang-faults proxy --fault drop-vary --profile server.toml --http 9000 --upstream http://127.0.0.1:8000/mcp
//! ```
//!
//! `proxy` applies a fault to any stdio server from outside it, by rewriting
//! the messages between the client and the server (see the crate's `proxy`
//! module for which faults it can apply).
//!
//! `self-test` exits 0 when every case is as it must be, 1 otherwise, 2 when
//! it cannot run, 130 when interrupted (after printing what ran).

use std::cell::{Cell, RefCell};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use mcp_lang_conformance::Profile;
use mcp_lang_faults::proxy::{Proxy, proxy_http, proxy_stdio};
use mcp_lang_faults::self_test::{self, CaseResult, Matrix, Mode, Setup, cases, run_matrix};
use mcp_lang_faults::{Alteration, Fault, Latitude, serve_stdio, spawn_http};
use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::HttpMode;

/// The SEP-2792 reference server with one rule broken or one latitude
/// taken, and the conformance suite's self-test against every one of them.
#[derive(Debug, Parser)]
#[command(name = "mcp-lang-faults", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the reference server with one fault or one latitude.
    Serve(ServeArgs),
    /// Run the suite against every fault (each must be caught) and every
    /// latitude (each must pass), each served by this binary as a separate
    /// process, over stdio and Streamable HTTP (stateless and with
    /// sessions), with and without a profile.
    SelfTest(SelfTestArgs),
    /// List the faults (with the scenarios that must catch each) and the
    /// latitudes.
    List,
    /// Run a stdio server behind the fault proxy, which makes it break one
    /// rule by rewriting the messages it reads and writes.
    Proxy(ProxyArgs),
}

#[derive(Debug, Args)]
struct ProxyArgs {
    /// The fault to apply (`list` marks those the proxy can apply).
    #[arg(long, value_name = "NAME")]
    fault: Fault,
    /// The server's profile (TOML, as for `mcp-lang conformance --profile`):
    /// its languages and tools.
    #[arg(long, value_name = "FILE")]
    profile: std::path::PathBuf,
    /// When the server exits, write to this file how many messages the fault
    /// changed or answered (0: it found nothing to act on).
    #[arg(long, value_name = "FILE")]
    applied: Option<std::path::PathBuf>,
    /// Streamable HTTP instead of stdio: listen on this address (the
    /// endpoint is /mcp; a bare port listens on 127.0.0.1), in front of
    /// `--upstream`. Its URL is logged on stderr.
    #[arg(long, value_name = "ADDR", value_parser = address, requires = "upstream", conflicts_with_all = ["command", "applied"])]
    http: Option<SocketAddr>,
    /// With --http: the MCP endpoint of the server behind the proxy.
    #[arg(long, value_name = "URL", requires = "http")]
    upstream: Option<String>,
    /// The stdio server's command and arguments, after `--`.
    #[arg(last = true, required_unless_present = "http", value_name = "COMMAND")]
    command: Vec<String>,
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("transport").required(true))]
struct ServeArgs {
    /// Serve one client on stdin/stdout.
    #[arg(long, group = "transport")]
    stdio: bool,
    /// Serve Streamable HTTP on this address (the endpoint is /mcp); a bare
    /// port listens on 127.0.0.1. Its URL is logged on stderr.
    #[arg(long, value_name = "ADDR", group = "transport", value_parser = address)]
    http: Option<SocketAddr>,
    /// HTTP only: rmcp's sessions and event streams instead of stateless
    /// JSON responses.
    #[arg(long, requires = "http")]
    sessions: bool,
    /// Break this rule (`list` names them). An HTTP-only fault with
    /// `--stdio` is refused (exit status 1).
    #[arg(long, value_name = "NAME", conflicts_with = "latitude")]
    fault: Option<Fault>,
    /// Take this liberty the SEP gives (`list` names them).
    #[arg(long, value_name = "NAME")]
    latitude: Option<Latitude>,
    /// Add the fixtures of the official MCP conformance suite, as
    /// `mcp-lang serve --conformance-fixtures` does (its SEP-2792 scenario's
    /// tools among them), so that suite can be run against the fault.
    #[arg(long)]
    conformance_fixtures: bool,
}

#[derive(Debug, Args)]
struct SelfTestArgs {
    /// Only these faults or latitudes (comma-separated names); the
    /// unaltered server always runs.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    only: Vec<String>,
    /// Print the matrix as the Markdown table the conformance crate's docs
    /// publish.
    #[arg(long)]
    markdown: bool,
    /// How many cases run at once.
    #[arg(long, value_name = "N", default_value = "3", value_parser = clap::value_parser!(u16).range(1..))]
    parallel: u16,
}

/// A port (on 127.0.0.1) or `HOST:PORT`.
fn address(text: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    text.parse()
        .map_err(|_| format!("`{text}` is not a port or an IP:PORT to listen on"))
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
}

/// Logs on stderr, `info,rmcp=warn` unless `RUST_LOG` says otherwise.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rmcp=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

fn serve(args: &ServeArgs) -> ExitCode {
    init_logging();
    let alteration: Option<Alteration> = args
        .fault
        .map(Alteration::from)
        .or(args.latitude.map(Alteration::from));
    let outcome = runtime().map_err(Into::into).and_then(|rt| {
        rt.block_on(async {
            let server = ReferenceServer::new()?;
            let server = if args.conformance_fixtures {
                server.with_conformance_fixtures()
            } else {
                server
            };
            match args.http {
                Some(addr) => {
                    let mode = if args.sessions {
                        HttpMode::Sessions
                    } else {
                        HttpMode::Stateless
                    };
                    let http = spawn_http(server, addr, mode, alteration).await?;
                    let altered =
                        alteration.map_or_else(|| "unaltered".to_owned(), |a| a.to_string());
                    tracing::info!(url = %http.url(), ?mode, %altered, "serving Streamable HTTP");
                    Ok(http.wait().await?)
                }
                None => {
                    if let Some(alteration) = alteration.filter(|a| a.layer().acts_on_stdio()) {
                        tracing::info!(%alteration, "serving stdio");
                    }
                    serve_stdio(server, alteration).await
                }
            }
        })
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-lang-faults serve: {error}");
            ExitCode::FAILURE
        }
    }
}

fn list() -> ExitCode {
    println!(
        "faults (serve --fault NAME; `proxy` marks those `proxy --fault NAME` applies to any stdio server), each caught by one of the scenarios named:"
    );
    for fault in Fault::ALL {
        println!(
            "  {:<36} {:<6} {} [{}]",
            fault.name(),
            if Proxy::proxies(*fault) { "proxy" } else { "" },
            fault.description(),
            fault.caught_by().join(", ")
        );
    }
    println!("\nlatitudes (serve --latitude NAME), each of which must pass:");
    for latitude in Latitude::ALL {
        println!("  {:<36} {}", latitude.name(), latitude.description());
    }
    ExitCode::SUCCESS
}

fn alterations(names: &[String]) -> Result<Vec<Alteration>, String> {
    let names: Vec<&str> = names
        .iter()
        .map(|n| n.trim())
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        return Ok(self_test::every_alteration());
    }
    names
        .iter()
        .map(|name| {
            name.parse::<Fault>()
                .map(Alteration::from)
                .or_else(|_| name.parse::<Latitude>().map(Alteration::from))
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// Progress on stderr: a bar redrawn in place on a terminal, otherwise a
/// line every few seconds; a case that goes wrong is printed at once.
struct Progress {
    bar: bool,
    quiet: bool,
    started: Instant,
    total: usize,
    ran: RefCell<Vec<CaseResult>>,
    last_line: Cell<Instant>,
}

impl Progress {
    fn record(&self, r: &CaseResult) {
        let mut ran = self.ran.borrow_mut();
        ran.push(r.clone());
        let wrong = ran.iter().filter(|r| !r.ok).count();
        let elapsed = self.started.elapsed().as_secs();
        let (done, total) = (ran.len(), self.total);
        if self.bar {
            eprint!("\r\x1b[2K");
        }
        if !self.quiet && !r.ok {
            eprintln!(
                "WRONG {} {} {}: {}",
                r.case.name(),
                r.case.setup.as_str(),
                r.case.mode.as_str(),
                r.detail
            );
        }
        if self.bar {
            let width = 30;
            let filled = done * width / total.max(1);
            eprint!(
                "self-test [{}{}] {done}/{total} cases, {wrong} wrong, {elapsed} s",
                "#".repeat(filled),
                ".".repeat(width - filled)
            );
            if done == total {
                eprint!("\r\x1b[2K");
            }
        } else if done == total || self.last_line.get().elapsed().as_secs() >= 5 {
            self.last_line.set(Instant::now());
            eprintln!("self-test: {done}/{total} cases done, {wrong} wrong, {elapsed} s");
        }
    }
}

fn run_self_test(args: &SelfTestArgs) -> ExitCode {
    let fail = |error: String| {
        eprintln!("mcp-lang-faults self-test: {error}");
        ExitCode::from(2)
    };
    let binary = match std::env::current_exe() {
        Ok(binary) => binary,
        Err(error) => return fail(format!("cannot find this binary: {error}")),
    };
    let alterations = match alterations(&args.only) {
        Ok(a) => a,
        Err(error) => return fail(error),
    };
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(error) => return fail(error),
    };
    let cases = cases(&alterations, Setup::PROCESS, Mode::ALL);
    let started = Instant::now();
    let progress = Progress {
        bar: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        quiet: args.markdown,
        started,
        total: cases.len(),
        ran: RefCell::default(),
        last_line: Cell::new(started),
    };
    if !progress.bar {
        eprintln!(
            "self-test: {} cases, {} at a time (a few minutes; Ctrl-C prints what ran)",
            cases.len(),
            args.parallel
        );
    }
    let finished = rt.block_on(async {
        tokio::select! {
            matrix = run_matrix(&binary, &cases, usize::from(args.parallel), |r| progress.record(r)) => Some(matrix),
            _ = tokio::signal::ctrl_c() => None,
        }
    });
    let Some(matrix) = finished else {
        // Interrupted: stop the cases still running (their servers are
        // killed as their tasks are dropped), then say what ran, so the
        // minutes spent are not lost.
        rt.shutdown_timeout(Duration::from_secs(5));
        let ran = progress.ran.take();
        let wrong = ran.iter().filter(|r| !r.ok).count();
        if progress.bar {
            eprint!("\r\x1b[2K");
        }
        eprintln!(
            "self-test interrupted after {} s: {} of {} cases ran, {} as they must, {wrong} wrong",
            started.elapsed().as_secs(),
            ran.len(),
            progress.total,
            ran.len() - wrong,
        );
        let table = Matrix { results: ran }.table();
        for row in table
            .lines()
            .filter(|l| l.starts_with("ok ") || l.starts_with("WRONG "))
        {
            eprintln!("{row}");
        }
        return ExitCode::from(130);
    };
    if args.markdown {
        print!("{}", matrix.markdown());
    } else {
        print!("{}", matrix.table());
    }
    if matrix.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn run_proxy(args: &ProxyArgs) -> ExitCode {
    if let (Some(listen), Some(upstream)) = (args.http, &args.upstream) {
        init_logging();
        let outcome = Profile::from_file(&args.profile).and_then(|profile| {
            runtime()?.block_on(async {
                let http = proxy_http(args.fault, &profile, listen, upstream).await?.http;
                tracing::info!(url = %http.url(), fault = %args.fault, %upstream, "proxying Streamable HTTP");
                http.wait().await.map_err(|e| e.to_string())
            })
        });
        return match outcome {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("mcp-lang-faults proxy: {error}");
                ExitCode::from(2)
            }
        };
    }
    let proxy = Profile::from_file(&args.profile).and_then(|p| Proxy::new(args.fault, &p));
    let outcome = proxy.and_then(|proxy| {
        runtime()?
            .block_on(proxy_stdio(proxy, &args.command, args.applied.as_deref()))
            .map_err(|e| format!("cannot run `{}`: {e}", args.command.join(" ")))
    });
    match outcome {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(error) => {
            eprintln!("mcp-lang-faults proxy: {error}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Command::Serve(args) => serve(args),
        Command::SelfTest(args) => run_self_test(args),
        Command::List => list(),
        Command::Proxy(args) => run_proxy(args),
    }
}
