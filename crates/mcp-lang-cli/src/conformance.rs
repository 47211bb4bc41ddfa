//! `mcp-lang conformance`: the SEP-2792 conformance suite against a server.
//!
//! With `--url` it tests a Streamable HTTP endpoint, with `--stdio` a command
//! that serves MCP on stdin/stdout, and with neither the embedded reference
//! server over both transports (optionally with `--fault NAME` injected).
//! The target's languages come from `--supported`/`--default`, from
//! `--profile FILE` (TOML), or from a probe. The report is a table, JSON
//! (`--format json`) or JUnit XML (`--format junit`); the exit status is 1 when
//! any scenario fails and 2 when the target cannot be tested at all (it cannot
//! be reached, or the `--profile` file cannot be read or is not a profile).
//!
//! `--list` prints every scenario with the SEP sentence it checks, and the
//! faults. `--self-test` instead injects every fault into the reference server in turn
//! and checks that the scenario for the rule it breaks fails, printing
//! `faults caught: N/M`.
//!
//! ```
//! use clap::Parser;
//! let cli = mcp_lang_cli::Cli::try_parse_from([
//!     "mcp-lang", "conformance", "--only", "match.weights", "--no-client",
//! ]).unwrap();
//! assert_eq!(mcp_lang_cli::run(cli), std::process::ExitCode::SUCCESS);
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use mcp_lang_conformance::faults;
use mcp_lang_conformance::profile::Profile;
use mcp_lang_conformance::report::Format;
use mcp_lang_conformance::run::{Config, Target, run as run_suite};
use mcp_lang_conformance::wire::PROTOCOL_STATELESS;
use mcp_lang_reference::fault::Fault;

/// Arguments of `mcp-lang conformance`.
#[derive(Debug, Args)]
pub struct ConformanceArgs {
    /// Test the Streamable HTTP endpoint at this URL (http://host:port/path).
    #[arg(long, value_name = "URL", conflicts_with = "stdio")]
    pub url: Option<String>,
    /// Test the stdio server started by this command ("program args…").
    #[arg(long, value_name = "COMMAND")]
    pub stdio: Option<String>,
    /// Embedded reference server only: inject this fault (see `mcp-lang serve --fault`).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["url", "stdio"])]
    pub fault: Option<Fault>,
    /// A TOML profile: `supported = [...]`, `default = "..."`, optional tool names.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["supported", "default"])]
    pub profile: Option<PathBuf>,
    /// The target's supported languages, comma-separated (with --default).
    #[arg(long, value_name = "TAGS", value_delimiter = ',', requires = "default")]
    pub supported: Vec<String>,
    /// The target's default language.
    #[arg(long, value_name = "TAG")]
    pub default: Option<String>,
    /// The protocol version to speak; a version before 2026-07-28 uses the
    /// initialize handshake.
    #[arg(long, value_name = "VERSION", default_value = PROTOCOL_STATELESS)]
    pub protocol: String,
    /// Run only scenarios whose id starts with this (repeatable).
    #[arg(long, value_name = "PREFIX")]
    pub only: Vec<String>,
    /// Skip the client-side scenarios (this project's client against scripted servers).
    #[arg(long)]
    pub no_client: bool,
    /// Report format: table, json or junit.
    #[arg(long, value_name = "FORMAT", default_value = "table")]
    pub format: Format,
    /// Check the suite itself: inject every fault into the reference server
    /// and require the scenario for its rule to fail.
    #[arg(long, conflicts_with_all = ["url", "stdio", "fault"])]
    pub self_test: bool,
    /// List the scenarios (id, SEP item, transport needs, rule, the SEP
    /// sentence) and the injectable faults, then exit.
    #[arg(long)]
    pub list: bool,
}

fn list() -> ExitCode {
    for scenario in mcp_lang_conformance::scenarios::all() {
        let needs = match scenario.needs {
            mcp_lang_conformance::scenario::Needs::Any => "any",
            mcp_lang_conformance::scenario::Needs::Http => "http",
            mcp_lang_conformance::scenario::Needs::Client => "client",
        };
        println!(
            "{:<38} item {:>2}  {:<6}  {}\n{:<38}             SEP: \"{}\"",
            scenario.id, scenario.item, needs, scenario.rule, "", scenario.sep
        );
    }
    println!("\nfaults (mcp-lang serve --fault NAME):");
    for fault in Fault::ALL {
        println!("  {:<36} {}", fault.name(), fault.description());
    }
    ExitCode::SUCCESS
}

fn profile(args: &ConformanceArgs) -> Result<Option<Profile>, String> {
    if let Some(path) = &args.profile {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        // Name the file: the parse errors alone do not say which one.
        return Profile::from_toml(&text)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display()));
    }
    match &args.default {
        Some(default) => {
            let supported = if args.supported.is_empty() {
                vec![default.clone()]
            } else {
                args.supported.clone()
            };
            Profile::new(supported, default.clone()).map(Some)
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

fn self_test() -> ExitCode {
    let score = match runtime().and_then(|rt| rt.block_on(faults::check_all())) {
        Ok(score) => score,
        Err(error) => {
            eprintln!("mcp-lang conformance: {error}");
            return ExitCode::from(2);
        }
    };
    for check in &score.checks {
        let mark = if check.caught { "caught" } else { "MISSED" };
        let by: Vec<String> = check
            .details
            .iter()
            .map(|(id, transport, outcome, _)| format!("{transport}:{id}={outcome}"))
            .collect();
        println!("{mark:<6}  {:<36} {}", check.fault.name(), by.join(" "));
    }
    println!("faults caught: {}/{}", score.caught(), score.checks.len());
    if score.missed().is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs `mcp-lang conformance`.
pub fn run(args: &ConformanceArgs) -> ExitCode {
    if args.list {
        return list();
    }
    if args.self_test {
        return self_test();
    }
    let target = match (&args.url, &args.stdio) {
        (Some(url), _) => Target::Url(url.clone()),
        (None, Some(command)) => Target::Stdio(command.clone()),
        (None, None) => Target::Embedded,
    };
    let mut config = Config::new(target);
    config.protocol = args.protocol.clone();
    config.only = args.only.clone();
    config.client_side = !args.no_client;
    config.fault = args.fault;
    config.profile = match profile(args) {
        Ok(p) => p,
        Err(error) => {
            eprintln!("mcp-lang conformance: {error}");
            return ExitCode::from(2);
        }
    };
    let report = match runtime().and_then(|rt| rt.block_on(run_suite(&config))) {
        Ok(report) => report,
        Err(error) => {
            eprintln!("mcp-lang conformance: {error}");
            return ExitCode::from(2);
        }
    };
    print!("{}", report.render(args.format));
    if args.format == Format::Json {
        println!();
    }
    if report.failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
