//! `mcp-lang serve`: run the SEP-2792 reference server.
//!
//! `--stdio` serves one client on stdin/stdout (logs go to stderr, never to
//! stdout, which carries the protocol). `--http ADDR` serves Streamable HTTP at
//! `http://ADDR/mcp`, with `mcp-lang-http`'s tower layer in front of rmcp's
//! service: exact agreement (400/-32020), `Content-Language`, `Vary`,
//! `Cache-Control: private`. Logs use `tracing`; set `RUST_LOG` (default
//! `info`) to change the level.
//!
//! ```no_run
//! use clap::Parser;
//! let cli = mcp_lang_cli::Cli::try_parse_from(["mcp-lang", "serve", "--http", "127.0.0.1:8080"]).unwrap();
//! mcp_lang_cli::run(cli);
//! ```

use std::{net::SocketAddr, process::ExitCode};

use clap::Args;
use mcp_lang_conformance::faults::{self as fault, Alteration, Fault, FaultLayer, Latitude};
use mcp_lang_reference::{
    ReferenceServer,
    serve::{HttpMode, serve_stdio, spawn_http},
};

/// Arguments of `mcp-lang serve`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("transport").required(true))]
pub struct ServeArgs {
    /// Serve one client on stdin/stdout.
    #[arg(long, group = "transport")]
    pub stdio: bool,
    /// Serve Streamable HTTP on this address (the endpoint is /mcp), e.g. 127.0.0.1:8080.
    #[arg(long, value_name = "ADDR", group = "transport")]
    pub http: Option<SocketAddr>,
    /// HTTP only: keep rmcp's legacy sessions (Mcp-Session-Id, SSE responses)
    /// instead of stateless JSON responses.
    #[arg(long, requires = "http")]
    pub sessions: bool,
    /// Add the fixtures of the official MCP conformance suite (its `test_*`
    /// tools and prompts, `test://` resources, logging, completions and
    /// resource subscriptions; `mcp_lang_reference::fixtures`). Not SEP-2792;
    /// off by default.
    #[arg(long)]
    pub conformance_fixtures: bool,
    /// Break one SEP-2792 rule on purpose, for testing the conformance suite
    /// (`mcp_lang_conformance::faults`; an unknown name lists the known ones).
    /// With `--stdio`, an HTTP-only fault is refused (exit status 1).
    #[arg(long, value_name = "NAME", conflicts_with = "latitude")]
    pub fault: Option<Fault>,
    /// Take one liberty the SEP gives, for testing that the conformance suite
    /// passes it (`mcp_lang_conformance::faults::Latitude`).
    #[arg(long, value_name = "NAME")]
    pub latitude: Option<Latitude>,
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colours only for a terminal: a log piped to a file or a test stays plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .try_init();
}

/// Runs `mcp-lang serve`.
pub fn run(args: &ServeArgs) -> ExitCode {
    init_logging();
    let server = match ReferenceServer::new() {
        Ok(server) if args.conformance_fixtures => server.with_conformance_fixtures(),
        Ok(server) => server,
        Err(error) => {
            eprintln!("mcp-lang serve: {error}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("mcp-lang serve: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let alteration: Option<Alteration> = args
        .fault
        .map(Alteration::from)
        .or(args.latitude.map(Alteration::from));
    let outcome = runtime.block_on(async {
        match args.http {
            Some(addr) => {
                let mode = if args.sessions {
                    HttpMode::Sessions
                } else {
                    HttpMode::Stateless
                };
                // The same server, one rule broken or one latitude taken.
                if let Some(alteration) = alteration {
                    let http = fault::spawn_http(server, addr, mode, Some(alteration)).await?;
                    tracing::warn!(url = %http.url(), %alteration, "serving Streamable HTTP altered");
                    http.wait().await?;
                    return Ok(());
                }
                let http = spawn_http(server, addr, mode).await?;
                tracing::info!(url = %http.url(), ?mode, "serving Streamable HTTP");
                http.wait().await?;
                Ok(())
            }
            None => {
                if let Some(alteration) = alteration {
                    // An HTTP alteration has nothing to act on over stdio:
                    // `fault::serve_stdio` refuses it with an error naming it
                    // (printed below, exit 1), so only what is really served
                    // is logged as served.
                    if alteration.layer() != FaultLayer::Http {
                        tracing::warn!(%alteration, "serving stdio altered");
                    }
                    return fault::serve_stdio(server, Some(alteration)).await;
                }
                tracing::info!("serving stdio");
                serve_stdio(server).await
            }
        }
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-lang serve: {error}");
            ExitCode::FAILURE
        }
    }
}
