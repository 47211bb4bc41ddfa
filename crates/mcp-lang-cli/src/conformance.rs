//! `mcp-lang conformance`: the SEP-2792 conformance suite against a server.
//!
//! With `--url` it tests a Streamable HTTP endpoint, with `--stdio` a command
//! that serves MCP on stdin/stdout, with both the one server over both
//! transports (one report), and with neither the reference server over both
//! transports (stdio through this binary's `serve --stdio`, Streamable HTTP
//! in this process). The target's languages come from
//! `--supported`/`--default`, from `--profile FILE` (TOML), or from
//! discovery, which prints what it found. The report is a table, JSON
//! (`--format json`) or JUnit XML (`--format junit`).
//!
//! Without `--protocol` the suite negotiates the protocol version: it offers
//! 2026-07-28 and, when the server does not speak it, continues on the newest
//! version both speak (2025-11-25, with the `initialize` handshake), saying
//! so in the report. `--protocol VERSION` speaks that version without
//! negotiating. `--strict` makes a warning (a SHOULD not followed) fail the
//! run.
//!
//! The exit status is the verdict's ([`EXIT_STATUSES`], also in `--help`):
//! 0 passed, 1 failed, 3 inconclusive (discovery found no language besides
//! the default: pass a profile), 4 the server does not take part in
//! SEP-2792; and 2 when the target cannot be tested at all (unreachable, not
//! MCP, no protocol version in common, a stdio server that exits, a bad
//! profile), with one message saying why. Every exit status writes its
//! report: with `--format json` or `--format junit`, exit status 2 too (the
//! error, the target, and what was tried).
//!
//! `--list` prints every scenario with the SEP sentence it checks;
//! `--requirements` prints the traceability of every normative sentence of
//! the SEP to the scenarios that check it. (The suite's own self-test, every
//! fault caught and every latitude passed, is the workspace's fault bench,
//! which is not part of this binary.)
//!
//! ```no_run
//! use clap::Parser;
//! // No --url or --stdio: the reference server over both transports
//! // (`tests/conformance_cli.rs` runs it).
//! let cli = mcp_lang_cli::Cli::try_parse_from([
//!     "mcp-lang", "conformance", "--only", "match.weights",
//! ]).unwrap();
//! assert_eq!(mcp_lang_cli::run(cli), std::process::ExitCode::SUCCESS);
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use mcp_lang_conformance::report::{Report, RunError};
use mcp_lang_conformance::{Config, Format, Needs, Profile, Target, run as run_suite};
use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::{HttpMode, spawn_http};

/// The exit statuses' text, as a literal for `concat!`.
macro_rules! exit_statuses {
    () => {
        "\
Exit statuses:
  0  passed: every scenario that could run passed (each skip says why)
  1  failed: a scenario failed (or, with --strict, warned); each row names the rule, what was seen and the SEP sentence
  2  could not test: unreachable, not MCP, no protocol version in common, the stdio server exited, or a bad profile; the report says why and what was tried
  3  inconclusive: discovery found no supported language besides the default; pass --profile FILE or --supported TAGS --default TAG
  4  not participating: no answer carried contentLanguage and the display text never changed (the server ignores SEP-2792, which it may)"
    };
}

/// What each exit status of `mcp-lang conformance` means (printed by
/// `--help`).
///
/// ```
/// use mcp_lang_cli::conformance::EXIT_STATUSES;
///
/// for status in 0..=4 {
///     assert!(EXIT_STATUSES.contains(&format!("  {status}  ")));
/// }
/// ```
pub const EXIT_STATUSES: &str = exit_statuses!();

/// What `mcp-lang conformance --help` ends with: examples, then [`EXIT_STATUSES`].
pub(crate) const AFTER_HELP: &str = concat!(
    "\
Examples:
  mcp-lang conformance                                   the reference server, both transports
  mcp-lang conformance --url http://127.0.0.1:8080/mcp   a Streamable HTTP server
  mcp-lang conformance --stdio 'node server.js' --supported 'en, fr' --default en
  mcp-lang conformance --stdio 'node server.js' --url http://127.0.0.1:3000/mcp   both, one report
  mcp-lang conformance --url http://127.0.0.1:8080/mcp --format junit --strict
  mcp-lang conformance --list                            every scenario and the SEP sentence it checks

",
    exit_statuses!()
);

/// Splits comma lists that [`ConformanceArgs`] took apart at commas: each
/// piece trimmed of the spaces around it, empty pieces dropped (`'en, fr'`
/// is `en` and `fr`).
fn trimmed(values: &[String]) -> Vec<String> {
    values
        .iter()
        .map(|v| v.trim())
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Arguments of `mcp-lang conformance`.
#[derive(Debug, Args)]
pub struct ConformanceArgs {
    /// Test the Streamable HTTP endpoint at this URL (http://host:port/path);
    /// with --stdio too, the same server over both transports, one report.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Test the stdio server started by this command ("program args…", quoted as in a shell).
    #[arg(long, value_name = "COMMAND")]
    pub stdio: Option<String>,
    /// A TOML profile: `supported = [...]`, `default = "..."`, optional tool names.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["supported", "default"])]
    pub profile: Option<PathBuf>,
    /// The target's supported languages, comma-separated (spaces around the
    /// commas allowed; with --default).
    #[arg(long, value_name = "TAGS", value_delimiter = ',', requires = "default")]
    pub supported: Vec<String>,
    /// The target's default language.
    #[arg(long, value_name = "TAG")]
    pub default: Option<String>,
    /// Speak this protocol version, without negotiating (a version before
    /// 2026-07-28 uses the initialize handshake). By default the suite offers
    /// 2026-07-28 and, when the server does not speak it, continues on the
    /// newest version both speak (2025-11-25), saying so in the report.
    #[arg(long, value_name = "VERSION")]
    pub protocol: Option<String>,
    /// Fail the run on a warning (a SHOULD or SHOULD NOT the server does not
    /// follow) as on a failure.
    #[arg(long)]
    pub strict: bool,
    /// Run only scenarios whose id starts with this (repeatable).
    #[arg(long, value_name = "PREFIX")]
    pub only: Vec<String>,
    /// Report format: table, json or junit.
    #[arg(long, value_name = "FORMAT", default_value = "table")]
    pub format: Format,
    /// List the scenarios (id, SEP item, transport needs, rule, the SEP
    /// sentence), then exit.
    #[arg(long)]
    pub list: bool,
    /// Print the traceability of every normative sentence of SEP-2792 to the
    /// scenarios that check it (YAML), then exit.
    #[arg(long)]
    pub requirements: bool,
}

fn list() -> ExitCode {
    for scenario in mcp_lang_conformance::scenarios::all() {
        let needs = match scenario.needs {
            Needs::Any => "any",
            Needs::Http => "http",
        };
        println!(
            "{:<38} item {:>2}  {:<6}  {}\n{:<38}             SEP: \"{}\"",
            scenario.id, scenario.item, needs, scenario.rule, "", scenario.sep
        );
    }
    let requirements = mcp_lang_conformance::requirements::YAML;
    let count = |prefix: &str| {
        requirements
            .lines()
            .filter(|l| l.trim_start().starts_with(prefix))
            .count()
    };
    println!(
        "\ntraceability: {} normative sentences of SEP-2792, {} checked by scenarios, {} excluded with a reason (--requirements prints them)",
        count("- text:"),
        count("check:"),
        count("excluded:")
    );
    ExitCode::SUCCESS
}

fn profile(args: &ConformanceArgs) -> Result<Option<Profile>, String> {
    if let Some(path) = &args.profile {
        return Profile::from_file(path).map(Some);
    }
    match &args.default {
        Some(default) => {
            let default = default.trim().to_owned();
            let mut supported = trimmed(&args.supported);
            if supported.is_empty() {
                supported.push(default.clone());
            }
            Profile::new(supported, default).map(Some)
        }
        None => Ok(None),
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
}

/// The reference server over both transports: stdio through this binary
/// (`serve --stdio`), Streamable HTTP in this process on a loopback port.
async fn run_reference(mut config: Config) -> Result<Report, RunError> {
    let cannot = |message: String| {
        let report = Report {
            target: "the reference server".into(),
            ..Report::default()
        };
        RunError::new(report, message)
    };
    let binary =
        std::env::current_exe().map_err(|e| cannot(format!("cannot find this binary: {e}")))?;
    let quoted = shlex::try_quote(&binary.to_string_lossy())
        .map_err(|e| cannot(format!("cannot quote {}: {e}", binary.display())))?
        .into_owned();
    let server = ReferenceServer::new()
        .map_err(|e| cannot(format!("the reference server failed to start: {e}")))?;
    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let http = spawn_http(server, loopback, HttpMode::Stateless)
        .await
        .map_err(|e| cannot(format!("cannot bind a loopback port: {e}")))?;
    config.target = Target::Both {
        stdio: format!("{quoted} serve --stdio"),
        url: http.url(),
    };
    let outcome = run_suite(&config).await;
    http.shutdown().await;
    let mut report = outcome?;
    report.target = format!("the reference server: {}", report.target);
    Ok(report)
}

/// Runs `mcp-lang conformance`.
pub fn run(args: &ConformanceArgs) -> ExitCode {
    if args.list {
        return list();
    }
    if args.requirements {
        print!("{}", mcp_lang_conformance::requirements::YAML);
        return ExitCode::SUCCESS;
    }
    let (target, reference) = match (&args.url, &args.stdio) {
        (Some(url), Some(command)) => (
            Target::Both {
                stdio: command.clone(),
                url: url.clone(),
            },
            false,
        ),
        (Some(url), None) => (Target::Url(url.clone()), false),
        (None, Some(command)) => (Target::Stdio(command.clone()), false),
        // Replaced by the reference server's two endpoints once they run.
        (None, None) => (Target::Stdio("mcp-lang serve --stdio".into()), true),
    };
    let mut config = Config::new(target);
    config.protocol = args.protocol.as_ref().map(|p| p.trim().to_owned());
    config.only = args.only.clone();
    // A run that cannot start still writes its report (exit status 2).
    let cannot_start = |config: &Config, message: String| {
        let mut report = Report {
            target: match &config.target {
                _ if reference => "the reference server".to_owned(),
                Target::Url(url) => format!("Streamable HTTP {url}"),
                Target::Stdio(command) => format!("stdio `{command}`"),
                Target::Both { stdio, url } => {
                    format!("stdio `{stdio}` and Streamable HTTP {url}")
                }
            },
            ..Report::default()
        };
        report.strict = args.strict;
        RunError::new(report, message)
    };
    let outcome = match profile(args) {
        Ok(profile) => {
            config.profile = profile;
            runtime()
                .map_err(|e| cannot_start(&config, e))
                .and_then(|rt| {
                    rt.block_on(async {
                        if reference {
                            run_reference(config.clone()).await
                        } else {
                            run_suite(&config).await
                        }
                    })
                })
        }
        Err(error) => Err(cannot_start(&config, error)),
    };
    let mut report = match outcome {
        Ok(report) => report,
        Err(error) => {
            if args.format != Format::Table {
                eprintln!("mcp-lang conformance: {error}");
            }
            *error.report
        }
    };
    report.strict = args.strict;
    let mut text = report.render(args.format);
    if args.format == Format::Json {
        text.push('\n');
    }
    // A closed stdout (a pager quit early) is not worth a panic.
    let _ = if report.error.is_some() && args.format == Format::Table {
        // The table of a run that could not test is its error message:
        // stderr, with what was known and tried.
        std::io::stderr().write_all(text.as_bytes())
    } else {
        std::io::stdout().write_all(text.as_bytes())
    };
    ExitCode::from(report.verdict().exit_status())
}
