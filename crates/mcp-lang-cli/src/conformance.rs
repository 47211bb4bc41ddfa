//! `mcp-lang conformance`: the SEP-2792 conformance suite against a server.
//!
//! With `--url` it tests a Streamable HTTP endpoint, with `--stdio` a command
//! that serves MCP on stdin/stdout, and with neither the embedded reference
//! server over both transports (optionally with `--fault NAME` injected or
//! `--latitude NAME` taken). The target's languages come from
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
//! `--list` prints every scenario with the SEP sentence it checks, the faults
//! and the latitudes; `--requirements` prints the traceability of every
//! normative sentence of the SEP to the scenarios that check it.
//! `--self-test` runs the suite against `mcp-lang serve` with every fault
//! (each must be caught) and every latitude (each must pass), as a separate
//! process, over stdio and Streamable HTTP (stateless and with sessions),
//! with and without a profile; `--embedded` runs it in process instead.
//!
//! ```no_run
//! use clap::Parser;
//! // No --url or --stdio: the reference server, in this process
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
use mcp_lang_conformance::faults::self_test::{
    self, Mode, Server, Setup, cases, every_alteration, run_matrix,
};
use mcp_lang_conformance::faults::{Alteration, Fault, Latitude};
use mcp_lang_conformance::report::{Report, RunError};
use mcp_lang_conformance::{Config, Format, Needs, Profile, Target, run as run_suite};

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
  mcp-lang conformance                                   the embedded reference server
  mcp-lang conformance --url http://127.0.0.1:8080/mcp   a Streamable HTTP server
  mcp-lang conformance --stdio 'node server.js' --supported 'en, fr' --default en
  mcp-lang conformance --url http://127.0.0.1:8080/mcp --format junit --strict
  mcp-lang conformance --list                            every scenario and the SEP sentence it checks
  mcp-lang conformance --self-test --embedded            check the suite catches every fault

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
    /// Test the Streamable HTTP endpoint at this URL (http://host:port/path).
    #[arg(long, value_name = "URL", conflicts_with = "stdio")]
    pub url: Option<String>,
    /// Test the stdio server started by this command ("program args…", quoted as in a shell).
    #[arg(long, value_name = "COMMAND")]
    pub stdio: Option<String>,
    /// Embedded reference server only: inject this fault (see `mcp-lang serve --fault`).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["url", "stdio", "latitude"])]
    pub fault: Option<Fault>,
    /// Embedded reference server only: take this latitude (see `mcp-lang serve --latitude`).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["url", "stdio"])]
    pub latitude: Option<Latitude>,
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
    /// Check the suite itself: every fault must be caught and every latitude
    /// pass, against `mcp-lang serve` as a separate process.
    #[arg(long, conflicts_with_all = ["url", "stdio", "fault", "latitude", "profile", "supported", "default"])]
    pub self_test: bool,
    /// With --self-test: run the servers in this process (faster, both
    /// transports at once) instead of as separate processes.
    #[arg(long, requires = "self_test")]
    pub embedded: bool,
    /// With --self-test: only these faults or latitudes (comma-separated names).
    #[arg(
        long,
        value_name = "NAMES",
        value_delimiter = ',',
        requires = "self_test"
    )]
    pub alterations: Vec<String>,
    /// With --self-test: print the matrix as the Markdown table the crate docs
    /// publish.
    #[arg(long, requires = "self_test")]
    pub markdown: bool,
    /// List the scenarios (id, SEP item, transport needs, rule, the SEP
    /// sentence), the faults and the latitudes, then exit.
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
    println!("\nfaults (mcp-lang serve --fault NAME), each caught by one of the scenarios named:");
    for fault in Fault::ALL {
        println!(
            "  {:<36} {} [{}]",
            fault.name(),
            fault.description(),
            fault.caught_by().join(", ")
        );
    }
    println!("\nlatitudes (mcp-lang serve --latitude NAME), each of which must pass:");
    for latitude in Latitude::ALL {
        println!("  {:<36} {}", latitude.name(), latitude.description());
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

fn alterations(names: &[String]) -> Result<Vec<Alteration>, String> {
    if names.is_empty() {
        return Ok(every_alteration());
    }
    trimmed(names)
        .iter()
        .map(|name| {
            name.parse::<Fault>()
                .map(Alteration::from)
                .or_else(|_| name.parse::<Latitude>().map(Alteration::from))
                .map_err(|e| e.to_string())
        })
        .collect()
}

fn self_test(args: &ConformanceArgs) -> ExitCode {
    let (server, setups) = if args.embedded {
        (Server::Embedded, &[Setup::Embedded][..])
    } else {
        match std::env::current_exe() {
            Ok(binary) => (Server::Binary(binary), Setup::PROCESS),
            Err(error) => {
                eprintln!("mcp-lang conformance: cannot find this binary: {error}");
                return ExitCode::from(2);
            }
        }
    };
    let alterations = match alterations(&args.alterations) {
        Ok(a) => a,
        Err(error) => {
            eprintln!("mcp-lang conformance: {error}");
            return ExitCode::from(2);
        }
    };
    let cases = cases(&alterations, setups, Mode::ALL);
    let quiet = args.markdown;
    // Progress on stderr: a bar redrawn in place on a terminal, otherwise a
    // line every few seconds; a case that goes wrong is printed at once.
    let bar = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let started = std::time::Instant::now();
    let total = cases.len();
    let ran: std::cell::RefCell<Vec<self_test::CaseResult>> = std::cell::RefCell::default();
    let last_line = std::cell::Cell::new(started);
    let progress = |r: &self_test::CaseResult| {
        let mut ran = ran.borrow_mut();
        ran.push(r.clone());
        let wrong = ran.iter().filter(|r| !r.ok).count();
        let elapsed = started.elapsed().as_secs();
        if bar {
            eprint!("\r\x1b[2K");
        }
        if !quiet && !r.ok {
            eprintln!(
                "WRONG {} {} {}: {}",
                r.case.name(),
                r.case.setup.as_str(),
                r.case.mode.as_str(),
                r.detail
            );
        }
        let done = ran.len();
        if bar {
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
        } else if done == total || last_line.get().elapsed().as_secs() >= 5 {
            last_line.set(std::time::Instant::now());
            eprintln!("self-test: {done}/{total} cases done, {wrong} wrong, {elapsed} s");
        }
    };
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(error) => {
            eprintln!("mcp-lang conformance: {error}");
            return ExitCode::from(2);
        }
    };
    if !bar {
        eprintln!("self-test: {total} cases, 3 at a time (a few minutes; Ctrl-C prints what ran)");
    }
    let finished = rt.block_on(async {
        tokio::select! {
            matrix = run_matrix(&server, &cases, 3, progress) => Some(matrix),
            _ = tokio::signal::ctrl_c() => None,
        }
    });
    let Some(matrix) = finished else {
        // Interrupted: stop the cases still running (their servers are
        // killed as their tasks are dropped), then say what ran, so the
        // minutes spent are not lost.
        rt.shutdown_timeout(std::time::Duration::from_secs(5));
        let ran = ran.take();
        let wrong: Vec<&self_test::CaseResult> = ran.iter().filter(|r| !r.ok).collect();
        if bar {
            eprint!("\r\x1b[2K");
        }
        eprintln!(
            "self-test interrupted after {} s: {} of {total} cases ran, {} as they must, {} wrong",
            started.elapsed().as_secs(),
            ran.len(),
            ran.len() - wrong.len(),
            wrong.len()
        );
        let table = self_test::Matrix { results: ran }.table();
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

/// Runs `mcp-lang conformance`.
pub fn run(args: &ConformanceArgs) -> ExitCode {
    if args.list {
        return list();
    }
    if args.requirements {
        print!("{}", mcp_lang_conformance::requirements::YAML);
        return ExitCode::SUCCESS;
    }
    if args.self_test {
        return self_test(args);
    }
    let target = match (&args.url, &args.stdio) {
        (Some(url), _) => Target::Url(url.clone()),
        (None, Some(command)) => Target::Stdio(command.clone()),
        (None, None) => Target::Embedded,
    };
    let mut config = Config::new(target);
    config.protocol = args.protocol.as_ref().map(|p| p.trim().to_owned());
    config.only = args.only.clone();
    config.alteration = args
        .fault
        .map(Alteration::from)
        .or(args.latitude.map(Alteration::from));
    // A run that cannot start still writes its report (exit status 2).
    let cannot_start = |config: &Config, message: String| {
        let mut report = Report {
            target: match &config.target {
                Target::Url(url) => format!("Streamable HTTP {url}"),
                Target::Stdio(command) => format!("stdio `{command}`"),
                Target::Embedded => "embedded reference server".to_owned(),
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
                .and_then(|rt| rt.block_on(run_suite(&config)))
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
