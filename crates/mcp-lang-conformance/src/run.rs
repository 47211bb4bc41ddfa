//! Running the suite against a target.
//!
//! A [`Target`] is a Streamable HTTP URL, a stdio command, or both (one
//! server reached over each transport, one report). Each transport gets one
//! connection that every scenario shares, so a server that keeps state
//! between requests shows it.
//!
//! Without a profile, [discovery](crate#discovery) finds the target's
//! languages first. A target that cannot be asked anything (unreachable, not
//! MCP, a stdio server that exits) is an error ([`run`] returns `Err`, the
//! command exits 2), never a list of failures.
//!
//! ```no_run
//! use mcp_lang_conformance::{Config, Target, Verdict, run};
//!
//! # async fn example() -> Result<(), String> {
//! let mut config = Config::new(Target::Url("http://127.0.0.1:8080/mcp".into()));
//! config.only = vec!["scope.".into()]; // every request-scope scenario
//! let report = run(&config).await?;
//! assert_eq!(report.verdict(), Verdict::Passed, "{}", report.table());
//! # Ok(()) }
//! ```

use std::time::Duration;

use crate::discovery::{Conclusion, discover, recognize_tools};
use crate::http::HttpConnection;
use crate::negotiate;
use crate::profile::Profile;
use crate::report::{DiscoveryNote, ProfileNote, ProtocolNote, Report, Row, RunError, Verdict};
use crate::scenario::{Connection, Ctx, Needs, Outcome, Scenario, Transport};
use crate::scenarios;
use crate::stdio::StdioConnection;
use crate::wire::{Call, PROTOCOL_HANDSHAKE, PROTOCOL_STATELESS};

/// The longest a single scenario may run.
pub(crate) const SCENARIO_TIMEOUT: Duration = Duration::from_secs(90);

/// The newest protocol version the suite speaks, the one it offers first when
/// it negotiates: stateless requests that carry their protocol in `_meta`.
///
/// ```
/// use mcp_lang_conformance::run::{DEFAULT_PROTOCOL, HANDSHAKE_PROTOCOL};
///
/// assert_eq!(DEFAULT_PROTOCOL, "2026-07-28");
/// assert!(HANDSHAKE_PROTOCOL < DEFAULT_PROTOCOL);
/// ```
pub const DEFAULT_PROTOCOL: &str = PROTOCOL_STATELESS;

/// The protocol version with the `initialize` handshake the suite speaks to
/// servers that do not speak [`DEFAULT_PROTOCOL`]: negotiated when the server
/// does not speak [`DEFAULT_PROTOCOL`], or named (`--protocol 2025-11-25`).
///
/// ```
/// use mcp_lang_conformance::run::HANDSHAKE_PROTOCOL;
///
/// assert_eq!(HANDSHAKE_PROTOCOL, "2025-11-25");
/// ```
pub const HANDSHAKE_PROTOCOL: &str = PROTOCOL_HANDSHAKE;

/// What to test.
///
/// ```
/// use mcp_lang_conformance::{Config, Target};
///
/// let config = Config::new(Target::Url("http://127.0.0.1:3000/mcp".into()));
/// assert_eq!(config.target, Target::Url("http://127.0.0.1:3000/mcp".into()));
/// assert!(config.profile.is_none()); // discovered when the run starts
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A Streamable HTTP endpoint, `http://host:port/path`.
    Url(String),
    /// A command that serves MCP on its stdin/stdout (`"mcp-lang serve --stdio"`),
    /// split into words as a POSIX shell would.
    Stdio(String),
    /// One server over both transports: the stdio server this command starts
    /// (run first), then the Streamable HTTP endpoint at this URL; one
    /// report with a row per scenario and transport.
    Both {
        /// The command, as in [`Target::Stdio`].
        stdio: String,
        /// The endpoint, as in [`Target::Url`].
        url: String,
    },
}

/// How to run the suite.
///
/// ```
/// use mcp_lang_conformance::{Config, Target};
///
/// let mut config = Config::new(Target::Both {
///     stdio: "mcp-lang serve --stdio".into(),
///     url: "http://127.0.0.1:8080/mcp".into(),
/// });
/// config.only = vec!["http.".into()]; // the HTTP binding's scenarios only
/// assert!(config.profile.is_none()); // discovered when the run starts
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    /// What to test.
    pub target: Target,
    /// The target's languages; discovered when `None`.
    pub profile: Option<Profile>,
    /// The protocol version to speak, without negotiating (`--protocol`): a
    /// stateless one such as [`DEFAULT_PROTOCOL`] sends no handshake, a
    /// handshake one such as [`HANDSHAKE_PROTOCOL`] runs `initialize` first.
    /// `None` negotiates: [`DEFAULT_PROTOCOL`] is offered, and the run
    /// continues on the newest version the server also speaks.
    pub protocol: Option<String>,
    /// Run only scenarios whose id starts with one of these (all when empty).
    pub only: Vec<String>,
}

impl Config {
    /// Every scenario against `target`, profile discovered, protocol
    /// negotiated.
    ///
    /// ```
    /// use mcp_lang_conformance::{Config, Target};
    ///
    /// let config = Config::new(Target::Stdio("mcp-lang serve --stdio".into()));
    /// assert_eq!(config.protocol, None);
    /// assert!(config.only.is_empty() && config.profile.is_none());
    /// ```
    pub fn new(target: Target) -> Self {
        Self {
            target,
            profile: None,
            protocol: None,
            only: Vec::new(),
        }
    }

    fn selected(&self) -> Vec<Scenario> {
        scenarios::all()
            .into_iter()
            .filter(|s| {
                self.only.is_empty() || self.only.iter().any(|p| s.id.starts_with(p.as_str()))
            })
            .collect()
    }
}

/// Runs the suite.
///
/// # Errors
///
/// The target cannot be tested at all: it cannot be reached or started, it
/// does not answer MCP, it speaks no protocol version the suite speaks, or a
/// stdio server exits before discovery is done (the error says with which
/// status, and what it last wrote on stderr). The error carries the report
/// of what was known and tried until then ([`RunError::report`]), which
/// renders in every format.
///
/// ```no_run
/// use mcp_lang_conformance::{Config, Target, Verdict, run};
///
/// # async fn example() -> Result<(), mcp_lang_conformance::report::RunError> {
/// let mut config = Config::new(Target::Stdio("python -m my_server".into()));
/// config.only = vec!["cache.".into(), "match.".into()];
/// let report = run(&config).await?;
/// if report.verdict() != Verdict::Passed {
///     eprintln!("{}", report.table()); // each failure quotes the SEP sentence it breaks
/// }
/// # Ok(()) }
/// ```
pub async fn run(config: &Config) -> Result<Report, RunError> {
    let mut report = Report {
        target: describe_target(config),
        ..Report::default()
    };
    match run_into(config, &mut report).await {
        Ok(()) => Ok(report),
        Err(message) => Err(RunError::new(report, message)),
    }
}

/// What the report's header calls the target.
fn describe_target(config: &Config) -> String {
    match &config.target {
        Target::Url(url) => format!("Streamable HTTP {url}"),
        Target::Stdio(command) => format!("stdio `{command}`"),
        Target::Both { stdio, url } => format!("stdio `{stdio}` and Streamable HTTP {url}"),
    }
}

/// Opens `connection` on its protocol version, recorded in the report.
async fn open(
    report: &mut Report,
    connection: &mut Connection,
    transport: Transport,
    config: &Config,
) -> Result<(), String> {
    let mut note = ProtocolNote {
        transport: transport.as_str(),
        ..ProtocolNote::default()
    };
    let opened = negotiate::open(connection, config.protocol.as_deref(), &mut note).await;
    report.protocols.push(note);
    opened
}

async fn run_into(config: &Config, report: &mut Report) -> Result<(), String> {
    let scenarios = config.selected();
    match &config.target {
        Target::Url(url) => run_url(config, report, url, &scenarios).await,
        Target::Stdio(command) => run_stdio(config, report, command, &scenarios).await,
        Target::Both { stdio, url } => {
            run_stdio(config, report, stdio, &scenarios).await?;
            run_url(config, report, url, &scenarios).await
        }
    }
}

/// The scenarios over Streamable HTTP at `url`.
async fn run_url(
    config: &Config,
    report: &mut Report,
    url: &str,
    scenarios: &[Scenario],
) -> Result<(), String> {
    let mut connection =
        Connection::Http(HttpConnection::new(url, DEFAULT_PROTOCOL).map_err(|e| e.to_string())?);
    open(report, &mut connection, Transport::Http, config)
        .await
        .map_err(|e| format!("cannot open an MCP session at {url}: {e}"))?;
    run_transport(report, connection, config.profile.clone(), scenarios).await
}

/// The scenarios over stdio with the server `command` starts.
async fn run_stdio(
    config: &Config,
    report: &mut Report,
    command: &str,
    scenarios: &[Scenario],
) -> Result<(), String> {
    let mut connection = Connection::Stdio(
        StdioConnection::spawn(command, DEFAULT_PROTOCOL).map_err(|e| e.to_string())?,
    );
    if let Err(e) = open(report, &mut connection, Transport::Stdio, config).await {
        let exited = match &mut connection {
            Connection::Stdio(c) => c.exited().await,
            Connection::Http(_) => None,
        };
        let why = exited.unwrap_or(e);
        if let Connection::Stdio(c) = connection {
            c.close().await;
        }
        return Err(format!(
            "cannot open an MCP session with `{command}`: {why}"
        ));
    }
    run_transport(report, connection, config.profile.clone(), scenarios).await
}

async fn run_one(scenario: &Scenario, ctx: &mut Ctx) -> Outcome {
    match tokio::time::timeout(SCENARIO_TIMEOUT, (scenario.run)(ctx)).await {
        Ok(outcome) => outcome,
        Err(_) => Outcome::Fail(format!(
            "the scenario did not finish within {} s",
            SCENARIO_TIMEOUT.as_secs()
        )),
    }
}

/// Makes sure the target answers at all: one `tools/list` without a
/// preference (any JSON-RPC answer will do, an error included).
async fn reach(ctx: &mut Ctx) -> Result<(), String> {
    let exchange = ctx
        .send(Call::new("tools/list"))
        .await
        .map_err(|o| o.reason().to_owned())?;
    if exchange.response().is_none() {
        return Err(format!(
            "the target does not answer MCP: tools/list got {}",
            exchange.summary()
        ));
    }
    Ok(())
}

async fn run_transport(
    report: &mut Report,
    connection: Connection,
    profile: Option<Profile>,
    scenarios: &[Scenario],
) -> Result<(), String> {
    let transport = match connection {
        Connection::Stdio(_) => Transport::Stdio,
        Connection::Http(_) => Transport::Http,
    };
    let given = profile.is_some();
    let placeholder = match profile {
        Some(p) => p,
        None => Profile::new(vec!["en".into()], "en".into())?,
    };
    let mut ctx = Ctx::new(connection, placeholder);
    ctx.protocol_forced = report.protocols.last().is_some_and(|note| note.forced);
    let mut findings = Vec::new();
    // Why the scenarios cannot run, when discovery could not decide.
    let mut not_run: Option<String> = None;
    if given {
        reach(&mut ctx).await?;
        report.profiles.push(ProfileNote {
            transport: transport.as_str(),
            discovered: false,
            profile: ctx.profile.clone(),
        });
    } else {
        let discovery = discover(&mut ctx).await?;
        findings = discovery.findings;
        let mut notes = discovery.notes;
        let undecided = match discovery.conclusion {
            Conclusion::Profile(profile) => {
                ctx.profile = profile;
                recognize_tools(&mut ctx, &mut notes).await;
                report.profiles.push(ProfileNote {
                    transport: transport.as_str(),
                    discovered: true,
                    profile: ctx.profile.clone(),
                });
                None
            }
            Conclusion::Inconclusive(reason) => {
                not_run = Some(format!("not run: discovery was inconclusive ({reason})"));
                Some(Verdict::Inconclusive(reason))
            }
            Conclusion::NotParticipating(reason) => {
                not_run = Some(format!("not run: {reason}"));
                Some(Verdict::NotParticipating(reason))
            }
            Conclusion::Failed => {
                not_run = Some(
                    "not run: discovery could not establish the server's languages (see the failures it found)"
                        .into(),
                );
                None
            }
        };
        report.discovery.push(DiscoveryNote {
            transport: transport.as_str(),
            lines: notes,
            undecided,
        });
    }
    let first_row = report.rows.len();
    for scenario in scenarios {
        let outcome = match (scenario.needs, transport, &not_run, &ctx.gone) {
            (Needs::Http, Transport::Stdio, _, _) => Outcome::Skip(
                "needs Streamable HTTP: field lines, status codes and caching headers do not exist on stdio".into(),
            ),
            (_, _, Some(why), _) => Outcome::Skip(why.clone()),
            (_, _, _, Some(gone)) => Outcome::Skip(format!("not run: {gone}")),
            _ => run_one(scenario, &mut ctx).await,
        };
        report.rows.push(Row {
            scenario: *scenario,
            transport: transport.as_str(),
            outcome,
        });
    }
    // What discovery saw fails the scenario whose rule it breaks.
    for (id, seen) in findings {
        let message = format!("seen during discovery: {seen}");
        match report.rows[first_row..]
            .iter_mut()
            .find(|r| r.scenario.id == id)
        {
            Some(row) if row.outcome.is_fail() => {}
            Some(row) => row.outcome = Outcome::Fail(message),
            None => {
                if let Some(scenario) = scenarios::find(id) {
                    report.rows.push(Row {
                        scenario,
                        transport: transport.as_str(),
                        outcome: Outcome::Fail(message),
                    });
                }
            }
        }
    }
    if let Connection::Stdio(connection) = ctx.connection {
        connection.close().await;
    }
    Ok(())
}
