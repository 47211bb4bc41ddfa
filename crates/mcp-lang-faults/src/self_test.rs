//! The suite's self-test, as users run the suite: every [`Fault`] is caught
//! and every [`Latitude`] passes, against the fault server started as a
//! separate process, over stdio and Streamable HTTP (stateless and with
//! sessions), with and without a profile.
//!
//! A [`Case`] is one alteration (or none: the unaltered server, which must
//! pass) on one [`Setup`] in one [`Mode`]. [`run_matrix`] runs the cases a
//! few at a time and gives a [`Matrix`]: for a fault, which of the
//! scenarios in [`Fault::caught_by`] failed; for a latitude or the unaltered
//! server, that nothing failed and the verdict is "passed".
//!
//! The server runs as a separate process of the fault server binary
//! (`mcp-lang-faults serve --stdio`, or `serve --http 127.0.0.1:0` whose
//! address the suite reads from its log), which is what `mcp-lang-faults
//! self-test` and the CI gate do; [`Setup::Both`] serves Streamable HTTP in
//! this process instead and tests both transports in one run, the fast path
//! for tests.
//!
//! ```no_run
//! use std::path::Path;
//! use mcp_lang_faults::{Fault, self_test::{Case, Mode, Setup, run_case}};
//!
//! # async fn example() {
//! let binary = Path::new("target/debug/mcp-lang-faults");
//! let case = Case { alteration: Some(Fault::IgnoreWeights.into()), setup: Setup::Both, mode: Mode::Profile };
//! let result = run_case(binary, &case).await;
//! assert!(result.ok, "{}", result.detail);
//! assert_eq!(result.caught_by, ["match.weights"]);
//! # }
//! ```

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use mcp_lang_reference::ReferenceServer;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::{Alteration, Bench, Fault, FaultLayer, Latitude};
use mcp_lang_conformance::profile::{Profile, ToolRole};
use mcp_lang_conformance::report::{Report, Verdict};
use mcp_lang_conformance::run::{Config, HANDSHAKE_PROTOCOL, Target, run};

/// How the suite reaches the altered server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Setup {
    /// `mcp-lang-faults serve --stdio`.
    Stdio,
    /// `mcp-lang-faults serve --http`: stateless, JSON responses.
    HttpStateless,
    /// `mcp-lang-faults serve --http --sessions`: sessions and event
    /// streams, with the handshake protocol (elicitation as a
    /// server-to-client request).
    HttpSessions,
    /// Both transports in one run ([`crate::Bench`]): stdio through a
    /// process, stateless HTTP in this process.
    Both,
}

impl Setup {
    /// The three setups of a separate process.
    pub const PROCESS: &'static [Setup] =
        &[Setup::Stdio, Setup::HttpStateless, Setup::HttpSessions];

    /// A short name for tables.
    ///
    /// ```
    /// use mcp_lang_faults::self_test::Setup;
    ///
    /// assert_eq!(Setup::HttpSessions.as_str(), "http+sessions");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::HttpStateless => "http",
            Self::HttpSessions => "http+sessions",
            Self::Both => "both",
        }
    }

    /// The transports of the report rows this setup produces.
    fn transports(self) -> &'static [&'static str] {
        match self {
            Self::Stdio => &["stdio"],
            Self::HttpStateless | Self::HttpSessions => &["http"],
            Self::Both => &["stdio", "http"],
        }
    }
}

/// Whether the suite is given the server's languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// No profile: the suite discovers the languages, as most users run it.
    Discovery,
    /// A profile file naming the reference server's languages and tools.
    Profile,
}

impl Mode {
    /// Both modes.
    pub const ALL: &'static [Mode] = &[Mode::Discovery, Mode::Profile];

    /// A short name for tables.
    ///
    /// ```
    /// use mcp_lang_faults::self_test::Mode;
    ///
    /// assert_eq!(Mode::Discovery.as_str(), "discovery");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Discovery => "discovery",
            Self::Profile => "profile",
        }
    }
}

/// One run of the suite against one altered server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Case {
    /// The fault, the latitude, or `None` for the unaltered server.
    pub alteration: Option<Alteration>,
    /// How the server is reached.
    pub setup: Setup,
    /// With or without a profile.
    pub mode: Mode,
}

impl Case {
    /// The alteration's name, or `none`.
    ///
    /// ```
    /// use mcp_lang_faults::{Fault, self_test::{Case, Mode, Setup}};
    ///
    /// let case = Case { alteration: None, setup: Setup::Stdio, mode: Mode::Profile };
    /// assert_eq!(case.name(), "none");
    /// ```
    pub fn name(&self) -> &'static str {
        self.alteration.map_or("none", Alteration::name)
    }
}

/// Every case for `alterations` (and the unaltered server) on `setups` in
/// `modes`, leaving out a setup an alteration has nothing to act on: stdio
/// for an HTTP one, a server with sessions (every answer an event stream)
/// for one that acts on JSON responses, and discovery (no profile) for a
/// fault that acts only in a tool the suite calls only when a profile names
/// it ([`Fault::needs_profile`]).
///
/// ```
/// use mcp_lang_faults::{Fault, self_test::{Mode, Setup, cases}};
///
/// let all = cases(&[Fault::DropVary.into()], Setup::PROCESS, Mode::ALL);
/// // drop-vary: two HTTP setups × two modes; the unaltered server: three setups × two modes.
/// assert_eq!(all.len(), 4 + 6);
/// ```
pub fn cases(alterations: &[Alteration], setups: &[Setup], modes: &[Mode]) -> Vec<Case> {
    let mut out = Vec::new();
    for alteration in std::iter::once(None).chain(alterations.iter().copied().map(Some)) {
        for &setup in setups {
            let acts = alteration.is_none_or(|a| match a.layer() {
                FaultLayer::Http | FaultLayer::Wire => setup != Setup::Stdio,
                FaultLayer::HttpJson => !matches!(setup, Setup::Stdio | Setup::HttpSessions),
                FaultLayer::Handler | FaultLayer::Message => true,
                FaultLayer::HandlerSessionless => setup != Setup::HttpSessions,
            });
            if !acts {
                continue;
            }
            for &mode in modes {
                let needs_profile =
                    matches!(alteration, Some(Alteration::Fault(f)) if f.needs_profile());
                if needs_profile && mode == Mode::Discovery {
                    continue;
                }
                out.push(Case {
                    alteration,
                    setup,
                    mode,
                });
            }
        }
    }
    out
}

/// Every fault and every latitude.
///
/// ```
/// use mcp_lang_faults::{Fault, Latitude, self_test::every_alteration};
///
/// assert_eq!(every_alteration().len(), Fault::ALL.len() + Latitude::ALL.len());
/// ```
pub fn every_alteration() -> Vec<Alteration> {
    Fault::ALL
        .iter()
        .map(|f| Alteration::Fault(*f))
        .chain(Latitude::ALL.iter().map(|l| Alteration::Latitude(*l)))
        .collect()
}

/// What one case showed.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The case.
    pub case: Case,
    /// Whether the suite did what it must: caught the fault, or passed the
    /// latitude or the unaltered server.
    pub ok: bool,
    /// The run's verdict, or `None` when the run itself failed.
    pub verdict: Option<Verdict>,
    /// For a fault: the scenarios of [`Fault::caught_by`] that failed (or
    /// warned, for a rule the SEP states as a SHOULD).
    pub caught_by: Vec<&'static str>,
    /// Those of [`caught_by`](Self::caught_by) that only warned: the fault
    /// breaks a SHOULD.
    pub warned_by: Vec<&'static str>,
    /// What went wrong, when not `ok`: the scenarios that failed or should
    /// have, or the error.
    pub detail: String,
}

/// The results of many cases.
#[derive(Clone, Debug, Default)]
pub struct Matrix {
    /// One result per case, in case order.
    pub results: Vec<CaseResult>,
}

impl Matrix {
    /// Whether every case did what it must.
    ///
    /// ```
    /// use mcp_lang_faults::self_test::Matrix;
    ///
    /// assert!(Matrix::default().ok());
    /// ```
    pub fn ok(&self) -> bool {
        self.results.iter().all(|r| r.ok) && self.unproven().is_empty()
    }

    /// The cases that did not.
    ///
    /// ```
    /// use mcp_lang_faults::self_test::Matrix;
    ///
    /// assert!(Matrix::default().failures().is_empty());
    /// ```
    pub fn failures(&self) -> Vec<&CaseResult> {
        self.results.iter().filter(|r| !r.ok).collect()
    }

    /// The scenarios some fault names in [`Fault::caught_by`] that failed in
    /// none of these cases: not yet proven able to fail. Empty after a full
    /// run.
    ///
    /// ```
    /// use mcp_lang_faults::self_test::Matrix;
    ///
    /// assert!(Matrix::default().unproven().is_empty()); // nothing named, nothing unproven
    /// ```
    pub fn unproven(&self) -> Vec<&'static str> {
        let mut named: Vec<&'static str> = Vec::new();
        for r in &self.results {
            if let Some(Alteration::Fault(f)) = r.case.alteration {
                for id in f.caught_by() {
                    if !named.contains(id) {
                        named.push(id);
                    }
                }
            }
        }
        named
            .into_iter()
            .filter(|id| !self.results.iter().any(|r| r.caught_by.contains(id)))
            .collect()
    }

    /// A line per case: mark, alteration, setup, mode, and what caught it
    /// (or what went wrong).
    ///
    /// ```
    /// use mcp_lang_faults::self_test::Matrix;
    ///
    /// assert!(Matrix::default().table().ends_with("0/0 cases as expected\n"));
    /// ```
    pub fn table(&self) -> String {
        let mut out = String::new();
        for r in &self.results {
            let what = match (r.case.alteration, r.ok) {
                (Some(Alteration::Fault(_)), true) => {
                    format!("caught by {}", r.caught_by.join(", "))
                }
                (_, true) => "passed".to_owned(),
                (_, false) => r.detail.clone(),
            };
            out.push_str(&format!(
                "{:<6} {:<36} {:<14} {:<9} {}\n",
                if r.ok { "ok" } else { "WRONG" },
                r.case.name(),
                r.case.setup.as_str(),
                r.case.mode.as_str(),
                what
            ));
        }
        let unproven = self.unproven();
        if !unproven.is_empty() {
            out.push_str(&format!(
                "scenarios named by a fault that never failed: {}\n",
                unproven.join(", ")
            ));
        }
        let ok = self.results.iter().filter(|r| r.ok).count();
        out.push_str(&format!("{ok}/{} cases as expected\n", self.results.len()));
        out
    }

    /// The matrix as a Markdown table: one row per alteration, one column per
    /// setup and mode, each cell the scenarios that caught the fault (marked
    /// "(warning)" when one only warned: the fault declines a SHOULD), or
    /// "passes" for a latitude, "—" where the alteration does not act.
    ///
    /// ```
    /// use mcp_lang_faults::self_test::Matrix;
    ///
    /// assert!(Matrix::default().markdown().starts_with("| alteration |"));
    /// ```
    pub fn markdown(&self) -> String {
        let columns: BTreeSet<(Setup, Mode)> = self
            .results
            .iter()
            .map(|r| (r.case.setup, r.case.mode))
            .collect();
        let mut rows: Vec<Option<Alteration>> = Vec::new();
        for r in &self.results {
            if !rows.contains(&r.case.alteration) {
                rows.push(r.case.alteration);
            }
        }
        let mut out = String::from("| alteration | kind |");
        for (setup, mode) in &columns {
            out.push_str(&format!(" {} ({}) |", setup.as_str(), mode.as_str()));
        }
        out.push_str("\n|---|---|");
        out.push_str(&"---|".repeat(columns.len()));
        out.push('\n');
        for alteration in rows {
            let (name, kind) = match alteration {
                None => ("none".to_owned(), "reference"),
                Some(Alteration::Fault(f)) => (format!("`{f}`"), "fault"),
                Some(Alteration::Latitude(l)) => (format!("`{l}`"), "latitude"),
            };
            out.push_str(&format!("| {name} | {kind} |"));
            for column in &columns {
                let cell = self
                    .results
                    .iter()
                    .find(|r| {
                        r.case.alteration == alteration && (r.case.setup, r.case.mode) == *column
                    })
                    .map_or("—".to_owned(), |r| match (alteration, r.ok) {
                        (Some(Alteration::Fault(_)), true) => r
                            .caught_by
                            .iter()
                            .map(|id| {
                                if r.warned_by.contains(id) {
                                    format!("{id} (warning)")
                                } else {
                                    (*id).to_owned()
                                }
                            })
                            .collect::<Vec<_>>()
                            .join(", "),
                        (_, true) => "passes".to_owned(),
                        (_, false) => "**WRONG**".to_owned(),
                    });
                out.push_str(&format!(" {cell} |"));
            }
            out.push('\n');
        }
        out
    }
}

/// The profile file the [`Mode::Profile`] cases read: the reference
/// server's languages and tools, written once per process.
fn profile_file() -> Result<PathBuf, String> {
    static FILE: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let server = ReferenceServer::new().map_err(|e| e.to_string())?;
        let mut profile = Profile::new(
            server.languages().supported().map(str::to_owned).collect(),
            server.languages().default_tag().to_owned(),
        )?;
        // Its tools, named: the suite calls a named tool whatever its
        // annotations say (`send_confirmation` is not read-only).
        for role in ToolRole::ALL {
            let name = profile.tool(role).to_owned();
            profile.name_tool(role, &name, None);
        }
        let path =
            std::env::temp_dir().join(format!("mcp-lang-self-test-{}.toml", std::process::id()));
        std::fs::write(&path, profile.to_toml())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    })
    .clone()
}

/// A fault server process, killed when dropped.
struct ServeProcess {
    _child: Child,
    url: String,
}

/// The `serve` arguments for `case`.
fn serve_args(case: &Case) -> Vec<String> {
    let mut args = vec!["serve".to_owned()];
    match case.setup {
        Setup::Stdio | Setup::Both => args.push("--stdio".into()),
        Setup::HttpStateless => args.extend(["--http".into(), "127.0.0.1:0".into()]),
        Setup::HttpSessions => {
            args.extend(["--http".into(), "127.0.0.1:0".into(), "--sessions".into()]);
        }
    }
    match case.alteration {
        Some(Alteration::Fault(f)) => args.extend(["--fault".into(), f.name().into()]),
        Some(Alteration::Latitude(l)) => args.extend(["--latitude".into(), l.name().into()]),
        None => {}
    }
    args
}

/// Starts `mcp-lang-faults serve --http` and reads its address from its log.
async fn start_http(binary: &Path, case: &Case) -> Result<ServeProcess, String> {
    let mut child = Command::new(binary)
        .args(serve_args(case))
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let stderr = child.stderr.take().ok_or("no stderr")?;
    let mut lines = BufReader::new(stderr).lines();
    let url = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(start) = line.find("http://") {
                let url: String = line[start..]
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '"')
                    .collect();
                return Some(url);
            }
        }
        None
    })
    .await
    .ok()
    .flatten()
    .ok_or_else(|| {
        format!(
            "{} {} printed no address",
            binary.display(),
            serve_args(case).join(" ")
        )
    })?;
    // Keep draining the log so the server never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok(ServeProcess { _child: child, url })
}

/// Runs one case.
///
/// `binary` is the fault server (`mcp-lang-faults`), started for every
/// setup but [`Setup::Both`]'s HTTP half.
pub async fn run_case(binary: &Path, case: &Case) -> CaseResult {
    let outcome = run_case_report(binary, case).await;
    judge(case, outcome)
}

async fn run_case_report(binary: &Path, case: &Case) -> Result<Report, String> {
    // A fault runs the scenarios that must catch it (and discovery, whose
    // findings fail whichever scenario they concern); the unaltered server
    // and a latitude run every scenario, which must all pass.
    let only: Vec<String> = match case.alteration {
        Some(Alteration::Fault(fault)) => {
            fault.caught_by().iter().map(|s| (*s).to_owned()).collect()
        }
        _ => Vec::new(),
    };
    let profile = match case.mode {
        Mode::Profile => Some(Profile::from_file(&profile_file()?)?),
        Mode::Discovery => None,
    };
    let mut config = Config::new(Target::Url(String::new()));
    config.only = only;
    config.profile = profile;
    match case.setup {
        Setup::Both => {
            let mut bench = Bench::new(binary);
            if let Some(alteration) = case.alteration {
                bench = bench.alteration(alteration);
            }
            bench.run(config).await.map_err(String::from)
        }
        Setup::Stdio => {
            let quoted = shlex::try_quote(&binary.to_string_lossy())
                .map_err(|e| e.to_string())?
                .into_owned();
            config.target = Target::Stdio(format!("{quoted} {}", serve_args(case).join(" ")));
            run(&config).await.map_err(String::from)
        }
        Setup::HttpStateless | Setup::HttpSessions => {
            let process = start_http(binary, case).await?;
            config.target = Target::Url(process.url.clone());
            if case.setup == Setup::HttpSessions {
                config.protocol = Some(HANDSHAKE_PROTOCOL.to_owned());
            }
            let report = run(&config).await;
            drop(process);
            report.map_err(String::from)
        }
    }
}

/// Whether the report shows what the case requires.
fn judge(case: &Case, outcome: Result<Report, String>) -> CaseResult {
    let mut result = CaseResult {
        case: *case,
        ok: false,
        verdict: None,
        caught_by: Vec::new(),
        warned_by: Vec::new(),
        detail: String::new(),
    };
    let report = match outcome {
        Ok(report) => report,
        Err(error) => {
            result.detail = format!("the run failed: {error}");
            return result;
        }
    };
    let verdict = report.verdict();
    result.verdict = Some(verdict.clone());
    let failed: Vec<String> = report
        .rows
        .iter()
        .filter(|r| r.outcome.is_fail())
        .map(|r| format!("{}:{}", r.transport, r.scenario.id))
        .collect();
    match case.alteration {
        Some(Alteration::Fault(fault)) => {
            let transports: Vec<&str> = case
                .setup
                .transports()
                .iter()
                .copied()
                .filter(|t| *t != "stdio" || fault.layer().acts_on_stdio())
                .collect();
            let mut missed = Vec::new();
            for transport in &transports {
                let caught: Vec<&'static str> = fault
                    .caught_by()
                    .iter()
                    .copied()
                    .filter(|id| {
                        // A broken MUST fails; a declined SHOULD warns.
                        report.rows.iter().any(|r| {
                            r.transport == *transport
                                && r.scenario.id == *id
                                && (r.outcome.is_fail() || r.outcome.is_warn())
                        })
                    })
                    .collect();
                if caught.is_empty() {
                    missed.push(*transport);
                }
                for id in caught {
                    if !result.caught_by.contains(&id) {
                        result.caught_by.push(id);
                    }
                }
            }
            // A fault caught by warnings only (a SHOULD) leaves a passing
            // verdict, which a strict run turns into a failure.
            let only_warned = failed.is_empty();
            result.ok = missed.is_empty()
                && (verdict == Verdict::Failed || (only_warned && verdict == Verdict::Passed));
            result.warned_by = result
                .caught_by
                .iter()
                .copied()
                .filter(|id| {
                    !report
                        .rows
                        .iter()
                        .any(|r| r.scenario.id == *id && r.outcome.is_fail())
                })
                .collect();
            if !result.ok {
                result.detail = format!(
                    "not caught on {} by any of {} (verdict {}; failed: {})",
                    missed.join(", "),
                    fault.caught_by().join(", "),
                    verdict.as_str(),
                    if failed.is_empty() {
                        "nothing".to_owned()
                    } else {
                        failed.join(" ")
                    }
                );
            }
        }
        _ => {
            result.ok = verdict == Verdict::Passed;
            if !result.ok {
                let why = report
                    .rows
                    .iter()
                    .filter(|r| r.outcome.is_fail())
                    .map(|r| format!("{}:{}: {}", r.transport, r.scenario.id, r.outcome.reason()))
                    .collect::<Vec<_>>();
                result.detail = format!(
                    "verdict {} {}{}",
                    verdict.as_str(),
                    verdict.reason(),
                    if why.is_empty() {
                        String::new()
                    } else {
                        format!("; failed: {}", why.join(" | "))
                    }
                );
            }
        }
    }
    result
}

/// Runs `cases`, `parallel` at a time, reporting each result to `progress`
/// as it comes.
pub async fn run_matrix(
    binary: &Path,
    cases: &[Case],
    parallel: usize,
    progress: impl Fn(&CaseResult),
) -> Matrix {
    let limit = Arc::new(tokio::sync::Semaphore::new(parallel.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for (index, case) in cases.iter().enumerate() {
        let limit = Arc::clone(&limit);
        let binary = binary.to_owned();
        let case = *case;
        tasks.spawn(async move {
            let _permit = limit.acquire_owned().await;
            (index, run_case(&binary, &case).await)
        });
    }
    let mut results: Vec<Option<CaseResult>> = vec![None; cases.len()];
    while let Some(joined) = tasks.join_next().await {
        if let Ok((index, result)) = joined {
            progress(&result);
            results[index] = Some(result);
        }
    }
    Matrix {
        results: results
            .into_iter()
            .zip(cases)
            .map(|(r, case)| {
                r.unwrap_or_else(|| CaseResult {
                    case: *case,
                    ok: false,
                    verdict: None,
                    caught_by: Vec::new(),
                    warned_by: Vec::new(),
                    detail: "the case's task panicked".into(),
                })
            })
            .collect(),
    }
}
