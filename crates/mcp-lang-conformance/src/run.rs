//! Running the suite against a target.
//!
//! A [`Target`] is a Streamable HTTP URL, a stdio command, or — with neither —
//! the embedded reference server, which is tested over both transports (an
//! in-process stdio pipe and Streamable HTTP on a loopback port), optionally
//! with one injected [`Fault`]. Each transport gets one connection that every
//! scenario shares, so a server that keeps state between requests shows it.
//!
//! ```
//! use mcp_lang_conformance::run::{Config, Target, run};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let mut config = Config::new(Target::Embedded);
//! config.only = vec!["scope.".into()]; // every request-scope scenario
//! config.client_side = false;
//! let report = run(&config).await.unwrap();
//! assert_eq!(report.summary().failed, 0, "{}", report.table());
//! # });
//! ```

use std::time::Duration;

use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::fault::{self, Fault};
use mcp_lang_reference::serve::HttpMode;

use crate::http::HttpConnection;
use crate::profile::{Profile, probe};
use crate::report::{Report, Row};
use crate::scenario::{Connection, Ctx, Needs, Outcome, Scenario, Transport};
use crate::scenarios;
use crate::stdio::StdioConnection;
use crate::wire::PROTOCOL_STATELESS;

/// The longest a single scenario may run.
///
/// ```
/// use std::time::Duration;
/// use mcp_lang_conformance::run::SCENARIO_TIMEOUT;
///
/// assert_eq!(SCENARIO_TIMEOUT, Duration::from_secs(90));
/// ```
pub const SCENARIO_TIMEOUT: Duration = Duration::from_secs(90);

/// What to test.
///
/// ```
/// use mcp_lang_conformance::run::{Config, Target};
///
/// let config = Config::new(Target::Url("http://127.0.0.1:3000/mcp".into()));
/// assert_eq!(config.target, Target::Url("http://127.0.0.1:3000/mcp".into()));
/// assert!(config.profile.is_none()); // probed when the run starts
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A Streamable HTTP endpoint, `http://host:port/path`.
    Url(String),
    /// A command that serves MCP on its stdin/stdout (`"mcp-lang serve --stdio"`).
    Stdio(String),
    /// The reference server, in this process, over both transports.
    Embedded,
}

/// How to run the suite.
///
/// ```
/// use mcp_lang_conformance::run::{Config, Target};
/// let config = Config::new(Target::Embedded);
/// assert!(config.client_side);
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    /// What to test.
    pub target: Target,
    /// The target's languages; probed when `None` (the embedded server's are
    /// known).
    pub profile: Option<Profile>,
    /// The protocol version to speak (default 2026-07-28, stateless; a
    /// handshake version such as 2025-11-25 runs `initialize` first).
    pub protocol: String,
    /// Run only scenarios whose id starts with one of these (all when empty).
    pub only: Vec<String>,
    /// Also run the client-side scenarios.
    pub client_side: bool,
    /// A fault to inject into the embedded server (ignored for other targets).
    pub fault: Option<Fault>,
}

impl Config {
    /// Every scenario against `target`, profile probed, stateless protocol.
    ///
    /// ```
    /// use mcp_lang_conformance::run::{Config, Target};
    ///
    /// let config = Config::new(Target::Stdio("mcp-lang serve --stdio".into()));
    /// assert_eq!(config.protocol, "2026-07-28");
    /// assert!(config.only.is_empty() && config.fault.is_none());
    /// ```
    pub fn new(target: Target) -> Self {
        Self {
            target,
            profile: None,
            protocol: PROTOCOL_STATELESS.to_owned(),
            only: Vec::new(),
            client_side: true,
            fault: None,
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
/// The target cannot be reached or started, or its profile cannot be probed.
///
/// ```
/// use mcp_lang_conformance::run::{Config, Target, run};
/// use mcp_lang_reference::fault::Fault;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let mut config = Config::new(Target::Embedded);
/// config.only = vec!["cache.vary".into()];
/// config.client_side = false;
/// config.fault = Some(Fault::DropVary);
/// let report = run(&config).await.unwrap();
/// assert!(report.failed()); // the injected fault is caught
/// assert_eq!(report.rows_of("cache.vary").map(|r| r.outcome.as_str()).collect::<Vec<_>>(), ["skip", "fail"]);
/// # });
/// ```
pub async fn run(config: &Config) -> Result<Report, String> {
    let scenarios = config.selected();
    let mut report = Report::default();
    match &config.target {
        Target::Url(url) => {
            report.target = format!("Streamable HTTP {url}");
            let mut connection =
                HttpConnection::new(url, &config.protocol).map_err(|e| e.to_string())?;
            connection.open().await.map_err(|e| e.to_string())?;
            let connection = Connection::Http(connection);
            run_transport(
                &mut report,
                Transport::Http,
                connection,
                config.profile.clone(),
                &scenarios,
            )
            .await?;
        }
        Target::Stdio(command) => {
            report.target = format!("stdio `{command}`");
            let mut connection =
                StdioConnection::spawn(command, &config.protocol).map_err(|e| e.to_string())?;
            connection.open().await.map_err(|e| e.to_string())?;
            run_transport(
                &mut report,
                Transport::Stdio,
                Connection::Stdio(connection),
                config.profile.clone(),
                &scenarios,
            )
            .await?;
        }
        Target::Embedded => {
            report.target = match config.fault {
                Some(f) => format!("embedded reference server with fault `{f}`"),
                None => "embedded reference server".to_owned(),
            };
            let server = ReferenceServer::new()
                .map_err(|e| format!("the reference server failed to start: {e}"))?;
            let profile = match &config.profile {
                Some(p) => p.clone(),
                None => Profile::new(
                    server.languages().supported().map(str::to_owned).collect(),
                    server.languages().default_tag().to_owned(),
                )?,
            };
            // stdio: the server on one end of an in-process pipe.
            let (server_io, client_io) = tokio::io::duplex(1 << 20);
            let stdio_task =
                tokio::spawn(fault::serve_stream(server.clone(), server_io, config.fault));
            let (read, write) = tokio::io::split(client_io);
            let mut connection = StdioConnection::new(read, write, &config.protocol);
            connection.open().await.map_err(|e| e.to_string())?;
            run_transport(
                &mut report,
                Transport::Stdio,
                Connection::Stdio(connection),
                Some(profile.clone()),
                &scenarios,
            )
            .await?;
            stdio_task.abort();
            // Streamable HTTP on a loopback port.
            let http = fault::spawn_http(
                server,
                ([127, 0, 0, 1], 0).into(),
                HttpMode::Stateless,
                config.fault,
            )
            .await
            .map_err(|e| format!("the reference server could not bind a loopback port: {e}"))?;
            let mut connection =
                HttpConnection::new(&http.url(), &config.protocol).map_err(|e| e.to_string())?;
            if let Err(e) = connection.open().await {
                http.shutdown().await;
                return Err(e.to_string());
            }
            let connection = Connection::Http(connection);
            let result = run_transport(
                &mut report,
                Transport::Http,
                connection,
                Some(profile),
                &scenarios,
            )
            .await;
            http.shutdown().await;
            result?;
        }
    }
    if config.client_side {
        for scenario in scenarios.iter().filter(|s| s.needs == Needs::Client) {
            let mut ctx = Ctx {
                connection: None,
                profile: Profile::new(vec!["en".into()], "en".into())?,
            };
            let outcome = run_one(scenario, &mut ctx).await;
            report.rows.push(Row {
                scenario: *scenario,
                transport: "client",
                outcome,
            });
        }
    }
    Ok(report)
}

async fn run_one(scenario: &Scenario, ctx: &mut Ctx) -> Outcome {
    match tokio::time::timeout(SCENARIO_TIMEOUT, (scenario.run)(ctx)).await {
        Ok(outcome) => outcome,
        Err(_) => Outcome::Fail(format!(
            "the scenario did not finish within {SCENARIO_TIMEOUT:?}"
        )),
    }
}

async fn run_transport(
    report: &mut Report,
    transport: Transport,
    connection: Connection,
    profile: Option<Profile>,
    scenarios: &[Scenario],
) -> Result<(), String> {
    let (profile, connection) = match profile {
        Some(p) => (p, connection),
        None => probe(connection).await?,
    };
    let mut ctx = Ctx {
        connection: Some(connection),
        profile,
    };
    for scenario in scenarios {
        let outcome = match (scenario.needs, transport) {
            (Needs::Client, _) => continue,
            (Needs::Http, Transport::Stdio) => Outcome::Skip(
                "needs Streamable HTTP: field lines, status codes and caching headers do not exist on stdio".into(),
            ),
            _ => run_one(scenario, &mut ctx).await,
        };
        report.rows.push(Row {
            scenario: *scenario,
            transport: transport.as_str(),
            outcome,
        });
    }
    if let Some(Connection::Stdio(connection)) = ctx.connection.take() {
        connection.close().await;
    }
    Ok(())
}
