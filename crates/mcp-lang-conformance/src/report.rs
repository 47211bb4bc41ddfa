//! The results of a run, as a readable table, JSON, or JUnit XML, and its
//! [`Verdict`] (which the command turns into its exit status).
//!
//! ```
//! use mcp_lang_conformance::{Format, Outcome, Report, Row, Verdict, scenarios::find};
//!
//! let mut report = Report::default();
//! report.target = "example".into();
//! report.rows.push(Row { scenario: find("match.weights").unwrap(), transport: "stdio", outcome: Outcome::Pass });
//! assert!(report.render(Format::Table).contains("1 passed"));
//! assert_eq!(report.verdict(), Verdict::Passed);
//! ```

use serde_json::{Value, json};

use crate::profile::Profile;
use crate::scenario::{Outcome, Scenario};

/// The version of the suite, recorded in every report.
pub(crate) const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The protocol version one transport's connection speaks, and how it came
/// to speak it.
///
/// ```
/// use mcp_lang_conformance::report::ProtocolNote;
///
/// let note = ProtocolNote {
///     transport: "stdio",
///     offered: "2026-07-28".into(),
///     version: Some("2025-11-25".into()),
///     forced: false,
///     tried: vec!["server/discover under 2026-07-28: -32601 \"Method not found\"".into()],
/// };
/// assert!(note.fell_back());
/// assert!(note.line().starts_with("2025-11-25, negotiated: the server does not speak 2026-07-28"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProtocolNote {
    /// `"stdio"` or `"http"`.
    pub transport: &'static str,
    /// The version offered first: the newest the suite speaks, or the one
    /// `--protocol` names.
    pub offered: String,
    /// The version the run speaks; `None` when none could be established.
    pub version: Option<String>,
    /// Whether `--protocol` named the version (no negotiation).
    pub forced: bool,
    /// Each request of the negotiation and what it got, a line each.
    pub tried: Vec<String>,
}

impl ProtocolNote {
    /// Whether the run continues on an older version than the one offered,
    /// because the server does not speak it.
    ///
    /// ```
    /// use mcp_lang_conformance::report::ProtocolNote;
    ///
    /// let note = ProtocolNote { offered: "2026-07-28".into(), version: Some("2026-07-28".into()), ..ProtocolNote::default() };
    /// assert!(!note.fell_back());
    /// ```
    pub fn fell_back(&self) -> bool {
        !self.forced && self.version.as_ref().is_some_and(|v| *v != self.offered)
    }

    /// The version and how it was chosen, in a line.
    ///
    /// ```
    /// use mcp_lang_conformance::report::ProtocolNote;
    ///
    /// let note = ProtocolNote { offered: "2025-11-25".into(), version: Some("2025-11-25".into()), forced: true, ..ProtocolNote::default() };
    /// assert_eq!(note.line(), "2025-11-25, as --protocol asks");
    /// ```
    pub fn line(&self) -> String {
        match (&self.version, self.forced) {
            (None, _) => format!("none established (offered {})", self.offered),
            (Some(v), true) => format!("{v}, as --protocol asks"),
            (Some(v), false) if self.fell_back() => format!(
                "{v}, negotiated: the server does not speak {}, the newest version the suite offers; the run continues on the newest version both speak",
                self.offered
            ),
            (Some(v), false) => format!("{v}, negotiated (the newest version the suite offers)"),
        }
    }
}

/// The profile one transport ran with: given (flags or a file) or
/// discovered.
///
/// ```
/// use mcp_lang_conformance::{Profile, report::ProfileNote};
///
/// let note = ProfileNote {
///     transport: "http",
///     discovered: false,
///     profile: Profile::new(vec!["en".into(), "fr".into()], "en".into()).unwrap(),
/// };
/// assert_eq!(note.line(), "given: supported en, fr; default en");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileNote {
    /// `"stdio"` or `"http"`.
    pub transport: &'static str,
    /// Whether discovery found it (otherwise it was given).
    pub discovered: bool,
    /// The profile.
    pub profile: Profile,
}

impl ProfileNote {
    /// `"given"` or `"discovered"`.
    ///
    /// ```
    /// use mcp_lang_conformance::{Profile, report::ProfileNote};
    ///
    /// let profile = Profile::new(vec!["en".into()], "en".into()).unwrap();
    /// assert_eq!(ProfileNote { transport: "stdio", discovered: true, profile }.source(), "discovered");
    /// ```
    pub fn source(&self) -> &'static str {
        if self.discovered {
            "discovered"
        } else {
            "given"
        }
    }

    /// Where it comes from and its languages, in a line.
    ///
    /// ```
    /// use mcp_lang_conformance::{Profile, report::ProfileNote};
    ///
    /// let profile = Profile::new(vec!["de".into()], "en".into()).unwrap();
    /// let note = ProfileNote { transport: "stdio", discovered: true, profile };
    /// assert_eq!(note.line(), "discovered: supported en, de; default en");
    /// ```
    pub fn line(&self) -> String {
        format!(
            "{}: supported {}; default {}",
            self.source(),
            self.profile.supported.join(", "),
            self.profile.default
        )
    }

    /// Every value of the profile, as JSON.
    fn json(&self) -> Value {
        let call =
            |c: &crate::profile::ToolCall| json!({ "name": c.name, "arguments": c.arguments });
        let p = &self.profile;
        json!({
            "transport": self.transport,
            "source": self.source(),
            "supported": p.supported,
            "default": p.default,
            "elicitation_tool": p.elicitation_tool,
            "progress_tool": p.progress_tool,
            "explicit_language_tool": p.explicit_language_tool,
            "tool_error": call(&p.tool_error),
            "error_call": p.error_call.as_ref().map(call),
        })
    }
}

/// A run that could not test its target (exit status 2): the report of what
/// was known and tried when it stopped, [`Report::error`] saying why.
///
/// ```
/// use mcp_lang_conformance::{Format, Verdict, report::{Report, RunError}};
///
/// let error = RunError::new(Report { target: "Streamable HTTP http://127.0.0.1:9/mcp".into(), ..Report::default() },
///     "connection refused".into());
/// assert_eq!(error.to_string(), "connection refused");
/// assert_eq!(error.report.verdict(), Verdict::CouldNotTest("connection refused".into()));
/// let json: serde_json::Value = serde_json::from_str(&error.report.render(Format::Json)).unwrap();
/// assert_eq!(json["exit_status"], 2);
/// assert_eq!(json["error"], "connection refused");
/// ```
#[derive(Clone, Debug)]
pub struct RunError {
    /// What was known when the run stopped; its `error` is set.
    pub report: Box<Report>,
}

impl RunError {
    /// `report` with `message` as its error.
    ///
    /// ```
    /// use mcp_lang_conformance::report::{Report, RunError};
    ///
    /// let error = RunError::new(Report::default(), "bad profile".into());
    /// assert_eq!(error.report.error.as_deref(), Some("bad profile"));
    /// ```
    pub fn new(mut report: Report, message: String) -> Self {
        report.error = Some(message);
        Self {
            report: Box::new(report),
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.report.error.as_deref().unwrap_or_default())
    }
}

impl std::error::Error for RunError {}

impl From<RunError> for String {
    fn from(error: RunError) -> Self {
        error.to_string()
    }
}

/// One scenario's result on one transport.
///
/// ```
/// use mcp_lang_conformance::{Outcome, Row, scenarios::find};
///
/// let row = Row { scenario: find("agree.case").unwrap(), transport: "http", outcome: Outcome::Pass };
/// assert_eq!(row.scenario.item, 7);
/// ```
#[derive(Clone, Debug)]
pub struct Row {
    /// The scenario.
    pub scenario: Scenario,
    /// `"stdio"` or `"http"`.
    pub transport: &'static str,
    /// How it ended.
    pub outcome: Outcome,
}

/// Everything a run found.
///
/// ```
/// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
///
/// let weights = find("match.weights").unwrap();
/// let report = Report { target: "example".into(), rows: vec![
///     Row { scenario: weights, transport: "stdio", outcome: Outcome::Pass },
///     Row { scenario: weights, transport: "http", outcome: Outcome::Fail("picked fr".into()) },
/// ], ..Report::default() };
/// assert!(report.failed());
/// assert!(report.table().contains("FAIL"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// What was tested, for the header (a URL, a command, or both).
    pub target: String,
    /// One row per scenario and transport, in run order.
    pub rows: Vec<Row>,
    /// What discovery found on each transport it ran on (empty when the
    /// profile was given).
    pub discovery: Vec<DiscoveryNote>,
    /// Whether a warning (a SHOULD or SHOULD NOT not followed) fails the run
    /// as a failure does (`mcp-lang conformance --strict`).
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, Verdict, scenarios::find};
    ///
    /// let mut report = Report::default();
    /// report.rows.push(Row {
    ///     scenario: find("discovery.titles-localized").unwrap(),
    ///     transport: "stdio",
    ///     outcome: Outcome::Warn("the titles under fr are the en ones".into()),
    /// });
    /// assert_eq!(report.verdict(), Verdict::Passed); // a declined SHOULD
    /// report.strict = true;
    /// assert_eq!(report.verdict(), Verdict::Failed);
    /// ```
    pub strict: bool,
    /// The protocol version of each transport's connection, and how it was
    /// chosen.
    pub protocols: Vec<ProtocolNote>,
    /// The profile each transport ran with (none where discovery could not
    /// establish one).
    pub profiles: Vec<ProfileNote>,
    /// Set when the target could not be tested at all (exit status 2):
    /// why. The rest of the report is what was known and tried until then.
    pub error: Option<String>,
}

/// What discovery found on one transport.
///
/// ```
/// use mcp_lang_conformance::{DiscoveryNote, Report, Verdict};
///
/// let mut report = Report::default();
/// report.discovery.push(DiscoveryNote {
///     transport: "stdio",
///     lines: vec!["12 tools/list requests: default en".into()],
///     undecided: Some(Verdict::Inconclusive("only the default".into())),
/// });
/// let verdict = report.verdict();
/// assert_eq!(verdict.exit_status(), 3);
/// // An inconclusive verdict says what was missing and what to pass.
/// assert!(verdict.reason().starts_with("only the default"));
/// assert!(verdict.reason().contains("--profile FILE or --supported TAGS --default TAG"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscoveryNote {
    /// `"stdio"` or `"http"`.
    pub transport: &'static str,
    /// How the languages were found, a line each.
    pub lines: Vec<String>,
    /// `Some` when discovery could not establish a profile: the verdict it
    /// leads to (inconclusive, or not taking part); `None` when it did.
    pub undecided: Option<Verdict>,
}

/// What a run concludes.
///
/// | verdict | exit status | meaning |
/// |---|---|---|
/// | `Passed` | 0 | every scenario that could run passed |
/// | `Failed` | 1 | at least one scenario failed |
/// | (no verdict) | 2 | the target could not be tested: unreachable, not MCP, exited, or a bad profile |
/// | `Inconclusive` | 3 | discovery established no supported language besides the default: pass a profile |
/// | `NotParticipating` | 4 | no answer carried `contentLanguage` and the display text never changed |
/// | `CouldNotTest` | 2 | the target could not be tested at all (as the row "(no verdict)" above) |
///
/// ```
/// use mcp_lang_conformance::Verdict;
///
/// assert_eq!(Verdict::Passed.exit_status(), 0);
/// assert_eq!(Verdict::Failed.exit_status(), 1);
/// assert_eq!(Verdict::NotParticipating("no contentLanguage".into()).exit_status(), 4);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every scenario that could run passed.
    Passed,
    /// At least one scenario failed.
    Failed,
    /// Discovery could not establish a language besides the default; the
    /// text says what was tried and what to pass.
    Inconclusive(String),
    /// The server does not take part in SEP-2792; the text says what showed it.
    NotParticipating(String),
    /// The target could not be tested at all (exit status 2); the text says
    /// why. Only a report with an [`error`](Report::error) has it.
    CouldNotTest(String),
}

impl Verdict {
    /// The exit status of `mcp-lang conformance` for this verdict (2 is for
    /// a target that could not be tested at all, which has no verdict).
    ///
    /// ```
    /// use mcp_lang_conformance::Verdict;
    ///
    /// assert_eq!(Verdict::Inconclusive(String::new()).exit_status(), 3);
    /// ```
    pub fn exit_status(&self) -> u8 {
        match self {
            Self::Passed => 0,
            Self::Failed => 1,
            Self::Inconclusive(_) => 3,
            Self::NotParticipating(_) => 4,
            Self::CouldNotTest(_) => 2,
        }
    }

    /// `"passed"`, `"failed"`, `"inconclusive"`, `"not participating"` or
    /// `"could not test"`.
    ///
    /// ```
    /// use mcp_lang_conformance::Verdict;
    ///
    /// assert_eq!(Verdict::Failed.as_str(), "failed");
    /// ```
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Passed => "passed",
            Self::Failed => "failed",
            Self::Inconclusive(_) => "inconclusive",
            Self::NotParticipating(_) => "not participating",
            Self::CouldNotTest(_) => "could not test",
        }
    }

    /// Why, for the verdicts that carry a reason. An inconclusive verdict
    /// always says what to pass.
    ///
    /// ```
    /// use mcp_lang_conformance::Verdict;
    ///
    /// assert_eq!(Verdict::Passed.reason(), "");
    /// ```
    pub fn reason(&self) -> &str {
        match self {
            Self::Inconclusive(r) | Self::NotParticipating(r) | Self::CouldNotTest(r) => r,
            _ => "",
        }
    }
}

/// Counts of a report.
///
/// ```
/// use mcp_lang_conformance::{Outcome, Report, Row, Summary, scenarios::find};
///
/// let sse = find("sse.header-agrees").unwrap();
/// let report = Report { target: "stdio `server`".into(), rows: vec![
///     Row { scenario: sse, transport: "stdio", outcome: Outcome::Skip("needs HTTP".into()) },
/// ], ..Report::default() };
/// assert_eq!(report.summary(), Summary { passed: 0, failed: 0, same_cause: 0, warned: 0, skipped: 1 });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Scenarios that passed.
    pub passed: usize,
    /// Scenarios that failed, each cause once: a failure with the same cause
    /// as another ([`Report::same_cause_as`]) is counted in `same_cause`.
    pub failed: usize,
    /// Failures whose cause is another row's failure.
    pub same_cause: usize,
    /// Scenarios that found a SHOULD or SHOULD NOT not followed.
    pub warned: usize,
    /// Scenarios skipped.
    pub skipped: usize,
}

/// Failures one cause explains. When `root` fails on a transport with a
/// reason that shows `symptom`, a failure of one of `also` on the same
/// transport whose reason shows the same symptom has that cause: the report
/// shows it under the root's failure ("also fails") and counts it once.
///
/// ```
/// use mcp_lang_conformance::report::SAME_CAUSES;
///
/// let mismatch = SAME_CAUSES.iter().find(|c| c.root == "http.mismatch").unwrap();
/// assert!(mismatch.also.contains(&"agree.case"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SameCause {
    /// The scenario whose rule the cause breaks first.
    pub root: &'static str,
    /// What the failures' reasons show when they have this cause.
    pub symptom: &'static str,
    /// The scenarios that fail with it.
    pub also: &'static [&'static str],
}

/// Every cause known to fail several scenarios.
///
/// - A server that answers a mismatching `Accept-Language` with a result
///   (HTTP 200) does not check agreement at all: every agreement scenario
///   fails with it, each on its own mismatch.
/// - A server that sends no `Vary: Accept-Language` fails the stripped-header
///   rule (which accepts `Vary` or `private`) and the event-stream rule with
///   the same missing field.
///
/// ```
/// use mcp_lang_conformance::report::SAME_CAUSES;
///
/// assert!(SAME_CAUSES.iter().all(|c| !c.also.contains(&c.root)));
/// ```
pub const SAME_CAUSES: &[SameCause] = &[
    SameCause {
        root: "http.mismatch",
        symptom: "expected HTTP 400 HeaderMismatch, got HTTP 200",
        also: &[
            "agree.case",
            "agree.list-whitespace",
            "agree.q-spelling",
            "agree.every-line",
            "agree.two-lines",
            "agree.before-grammar",
            "agree.meta-untrimmed",
        ],
    },
    SameCause {
        root: "cache.vary",
        symptom: "no Vary: Accept-Language",
        also: &["cache.stripped-header", "sse.vary"],
    },
];

/// An output format.
///
/// ```
/// use mcp_lang_conformance::Format;
///
/// assert_eq!("junit".parse::<Format>(), Ok(Format::Junit));
/// assert!("yaml".parse::<Format>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A readable table.
    Table,
    /// One JSON document.
    Json,
    /// JUnit XML, for CI systems.
    Junit,
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "table" => Ok(Self::Table),
            "json" => Ok(Self::Json),
            "junit" => Ok(Self::Junit),
            other => Err(format!("unknown format `{other}` (table, json or junit)")),
        }
    }
}

impl Report {
    /// The counts.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let weights = find("match.weights").unwrap();
    /// let report = Report { target: "t".into(), rows: vec![
    ///     Row { scenario: weights, transport: "stdio", outcome: Outcome::Pass },
    ///     Row { scenario: weights, transport: "http", outcome: Outcome::Pass },
    /// ], ..Report::default() };
    /// assert_eq!(report.summary().passed, 2);
    /// ```
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for row in &self.rows {
            match row.outcome {
                Outcome::Pass => s.passed += 1,
                Outcome::Fail(_) if self.same_cause_as(row).is_some() => s.same_cause += 1,
                Outcome::Fail(_) => s.failed += 1,
                Outcome::Warn(_) => s.warned += 1,
                Outcome::Skip(_) => s.skipped += 1,
            }
        }
        s
    }

    /// The scenario whose failure on the same transport is the cause of
    /// `row`'s failure ([`SAME_CAUSES`]); `None` when `row` did not fail or
    /// its failure has a cause of its own.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let fail = |id, why: &str| Row { scenario: find(id).unwrap(), transport: "http", outcome: Outcome::Fail(why.into()) };
    /// let report = Report { rows: vec![
    ///     fail("http.mismatch", "expected HTTP 400 HeaderMismatch, got HTTP 200; {}"),
    ///     fail("agree.case", "lines [\"en-us\"]: expected HTTP 400 HeaderMismatch, got HTTP 200; {}"),
    ///     fail("agree.q-spelling", "HTTP 400 with code -32600"), // a cause of its own
    /// ], ..Report::default() };
    /// assert_eq!(report.same_cause_as(&report.rows[1]), Some("http.mismatch"));
    /// assert_eq!(report.same_cause_as(&report.rows[2]), None);
    /// let summary = report.summary();
    /// assert_eq!((summary.failed, summary.same_cause), (2, 1));
    /// ```
    pub fn same_cause_as(&self, row: &Row) -> Option<&'static str> {
        let Outcome::Fail(reason) = &row.outcome else {
            return None;
        };
        SAME_CAUSES
            .iter()
            .filter(|c| c.also.contains(&row.scenario.id) && reason.contains(c.symptom))
            .find(|c| {
                self.rows.iter().any(|root| {
                    root.transport == row.transport
                        && root.scenario.id == c.root
                        && matches!(&root.outcome, Outcome::Fail(r) if r.contains(c.symptom))
                })
            })
            .map(|c| c.root)
    }

    /// Whether any scenario failed, or, in a [strict](Self::strict) report,
    /// warned.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let row = |outcome| Row { scenario: find("cache.vary").unwrap(), transport: "http", outcome };
    /// let skipped = Report { target: "t".into(), rows: vec![row(Outcome::Skip("stdio".into()))], ..Report::default() };
    /// assert!(!skipped.failed()); // a skip is not a failure
    /// let broken = Report { target: "t".into(), rows: vec![row(Outcome::Fail("no Vary".into()))], ..Report::default() };
    /// assert!(broken.failed());
    /// ```
    pub fn failed(&self) -> bool {
        self.rows
            .iter()
            .any(|r| r.outcome.is_fail() || (self.strict && r.outcome.is_warn()))
    }

    /// The run's verdict: failed when any scenario failed; otherwise what
    /// discovery could not decide (not taking part before inconclusive);
    /// otherwise passed.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, Verdict, scenarios::find};
    ///
    /// let mut report = Report::default();
    /// report.rows.push(Row { scenario: find("cache.vary").unwrap(), transport: "http", outcome: Outcome::Fail("no Vary".into()) });
    /// assert_eq!(report.verdict(), Verdict::Failed);
    /// ```
    pub fn verdict(&self) -> Verdict {
        if let Some(error) = &self.error {
            return Verdict::CouldNotTest(error.clone());
        }
        if self.failed() {
            return Verdict::Failed;
        }
        let undecided = |want: fn(&Verdict) -> bool| {
            self.discovery
                .iter()
                .filter_map(|d| d.undecided.clone())
                .find(&want)
        };
        undecided(|v| matches!(v, Verdict::NotParticipating(_)))
            .or_else(|| {
                undecided(|v| matches!(v, Verdict::Inconclusive(_))).map(|v| match v {
                    Verdict::Inconclusive(reason) => Verdict::Inconclusive(what_to_pass(reason)),
                    other => other,
                })
            })
            .unwrap_or(Verdict::Passed)
    }

    /// The rows of scenario `id` (one per transport it ran on).
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let row = |id, transport| Row { scenario: find(id).unwrap(), transport, outcome: Outcome::Pass };
    /// let report = Report { target: "t".into(), rows: vec![
    ///     row("match.weights", "stdio"), row("match.weights", "http"), row("cache.vary", "http")], ..Report::default() };
    /// let transports: Vec<_> = report.rows_of("match.weights").map(|r| r.transport).collect();
    /// assert_eq!(transports, ["stdio", "http"]);
    /// ```
    pub fn rows_of<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows.iter().filter(move |r| r.scenario.id == id)
    }

    /// Renders the report in `format`.
    ///
    /// ```
    /// use mcp_lang_conformance::{Format, Report};
    ///
    /// let empty = Report { target: "nothing".into(), rows: Vec::new(), ..Report::default() };
    /// assert!(empty.render(Format::Table).starts_with("SEP-2792 conformance: nothing"));
    /// assert!(empty.render(Format::Junit).starts_with("<?xml"));
    /// let json: serde_json::Value = serde_json::from_str(&empty.render(Format::Json)).unwrap();
    /// assert_eq!(json["summary"]["passed"], 0);
    /// ```
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Table => self.table(),
            Format::Json => serde_json::to_string_pretty(&self.json()).unwrap_or_default(),
            Format::Junit => self.junit(),
        }
    }

    /// The readable table: transport, scenario, SEP item, result, why.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let report = Report { target: "t".into(), rows: vec![
    ///     Row { scenario: find("match.weights").unwrap(), transport: "http", outcome: Outcome::Pass }], ..Report::default() };
    /// let table = report.table();
    /// assert!(table.contains("match.weights"));
    /// assert!(table.ends_with("1 passed, 0 failed, 0 skipped, 0 warned\nverdict: PASSED (exit status 0)\n"));
    /// ```
    pub fn table(&self) -> String {
        let id_width = self
            .rows
            .iter()
            .map(|r| r.scenario.id.len())
            .max()
            .unwrap_or(8)
            .max(8);
        let mut out = format!("SEP-2792 conformance: {}\n", self.target);
        out.push_str(&format!(
            "suite: mcp-lang-conformance {SUITE_VERSION}; strict: {}\n",
            if self.strict {
                "yes (a warning fails the run)"
            } else {
                "no (a warning does not fail the run; --strict makes it)"
            }
        ));
        for note in &self.protocols {
            out.push_str(&format!(
                "protocol over {}: {}\n",
                note.transport,
                note.line()
            ));
            if note.fell_back() || note.version.is_none() {
                for line in &note.tried {
                    out.push_str(&format!("  {line}\n"));
                }
            }
        }
        for note in &self.profiles {
            out.push_str(&format!(
                "profile over {}: {}\n",
                note.transport,
                note.line()
            ));
        }
        out.push('\n');
        for note in &self.discovery {
            out.push_str(&format!("discovery over {}:\n", note.transport));
            for line in &note.lines {
                out.push_str(&format!("  {line}\n"));
            }
            if let Some(verdict) = &note.undecided {
                out.push_str(&format!("  {}: {}\n", verdict.as_str(), verdict.reason()));
            }
            out.push('\n');
        }
        if self.error.is_none() || !self.rows.is_empty() {
            out.push_str(&format!(
                "{:<9} {:<id_width$} {:>4}  {:<4}  {}\n",
                "transport", "scenario", "item", "res", "rule / why"
            ));
            out.push_str(&format!("{}\n", "-".repeat(id_width + 60)));
        }
        for row in &self.rows {
            // A failure with another row's cause is listed under that row.
            if self.same_cause_as(row).is_some() {
                continue;
            }
            let item = if row.scenario.item == 0 {
                "sec".to_owned()
            } else {
                row.scenario.item.to_string()
            };
            let why = match &row.outcome {
                Outcome::Pass => row.scenario.rule.to_owned(),
                Outcome::Fail(r) | Outcome::Warn(r) => format!("{}: {r}", row.scenario.rule),
                Outcome::Skip(r) => r.clone(),
            };
            out.push_str(&format!(
                "{:<9} {:<id_width$} {:>4}  {:<4}  {}\n",
                row.transport,
                row.scenario.id,
                item,
                row.outcome.as_str().to_uppercase(),
                why
            ));
            if row.outcome.is_fail() || row.outcome.is_warn() {
                out.push_str(&format!(
                    "{:<9} {:<id_width$} {:>4}  {:<4}  SEP: \"{}\"\n",
                    "", "", "", "", row.scenario.sep
                ));
            }
            let also: Vec<&str> = self
                .rows
                .iter()
                .filter(|r| r.transport == row.transport)
                .filter(|r| self.same_cause_as(r) == Some(row.scenario.id))
                .map(|r| r.scenario.id)
                .collect();
            if !also.is_empty() {
                out.push_str(&format!(
                    "{:<9} {:<id_width$} {:>4}  {:<4}  also fails, same cause: {}\n",
                    "",
                    "",
                    "",
                    "",
                    also.join(", ")
                ));
            }
        }
        let s = self.summary();
        if self.error.is_none() || !self.rows.is_empty() {
            let same = if s.same_cause > 0 {
                format!(" ({} more with the same cause)", s.same_cause)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "\n{} passed, {} failed{same}, {} skipped, {} warned\n",
                s.passed, s.failed, s.skipped, s.warned
            ));
        }
        let verdict = self.verdict();
        out.push_str(&format!(
            "verdict: {} (exit status {})",
            verdict.as_str().to_uppercase(),
            verdict.exit_status()
        ));
        if !verdict.reason().is_empty() {
            out.push_str(&format!("\n  {}", verdict.reason()));
        }
        out.push('\n');
        out
    }

    /// The JSON document.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let report = Report { target: "t".into(), rows: vec![
    ///     Row { scenario: find("http.mismatch").unwrap(), transport: "http", outcome: Outcome::Fail("HTTP 200".into()) }], ..Report::default() };
    /// let json = report.json();
    /// assert_eq!(json["results"][0]["outcome"], "fail");
    /// assert_eq!(json["results"][0]["reason"], "HTTP 200");
    /// ```
    pub fn json(&self) -> Value {
        let s = self.summary();
        let verdict = self.verdict();
        json!({
            "suite": { "name": "mcp-lang-conformance", "version": SUITE_VERSION },
            "target": self.target,
            "transports": self.transports(),
            "protocol": self.protocols.iter().map(|p| json!({
                "transport": p.transport,
                "version": p.version,
                "offered": p.offered,
                "forced": p.forced,
                "fell_back": p.fell_back(),
                "how": p.line(),
                "tried": p.tried,
            })).collect::<Vec<_>>(),
            "profile": self.profiles.iter().map(ProfileNote::json).collect::<Vec<_>>(),
            "strict": self.strict,
            "verdict": verdict.as_str(),
            "exit_status": verdict.exit_status(),
            "verdict_reason": verdict.reason(),
            "error": self.error,
            "discovery": self.discovery.iter().map(|d| json!({
                "transport": d.transport,
                "lines": d.lines,
                "undecided": d.undecided.as_ref().map(Verdict::as_str),
            })).collect::<Vec<_>>(),
            "summary": { "passed": s.passed, "failed": s.failed, "same_cause": s.same_cause, "warned": s.warned, "skipped": s.skipped },
            "results": self.rows.iter().map(|r| json!({
                "id": r.scenario.id,
                "item": r.scenario.item,
                "rule": r.scenario.rule,
                "sep": r.scenario.sep,
                "transport": r.transport,
                "outcome": r.outcome.as_str(),
                "reason": r.outcome.reason(),
                "same_cause_as": self.same_cause_as(r),
            })).collect::<Vec<_>>(),
        })
    }

    /// The transports the run reached or tried, in order.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let row = |transport| Row { scenario: find("match.weights").unwrap(), transport, outcome: Outcome::Pass };
    /// let report = Report { rows: vec![row("stdio"), row("http"), row("stdio")], ..Report::default() };
    /// assert_eq!(report.transports(), ["stdio", "http"]);
    /// ```
    pub fn transports(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        let all = self
            .protocols
            .iter()
            .map(|p| p.transport)
            .chain(self.rows.iter().map(|r| r.transport));
        for transport in all {
            if !out.contains(&transport) {
                out.push(transport);
            }
        }
        out
    }

    /// JUnit XML: one test suite per transport, one test case per scenario.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let report = Report { target: "t".into(), rows: vec![
    ///     Row { scenario: find("cache.vary").unwrap(), transport: "http", outcome: Outcome::Fail("no <Vary>".into()) }], ..Report::default() };
    /// let xml = report.junit();
    /// assert!(xml.contains("<testsuite name=\"sep-2792.http\" tests=\"1\" failures=\"1\""));
    /// assert!(xml.contains("no &lt;Vary&gt;"));
    /// ```
    pub fn junit(&self) -> String {
        let s = self.summary();
        let errors = usize::from(self.error.is_some());
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.push_str(&format!(
            "<testsuites name=\"mcp-lang-conformance\" tests=\"{}\" failures=\"{}\" errors=\"{errors}\" skipped=\"{}\">\n",
            self.rows.len() + errors,
            s.failed + if self.strict { s.warned } else { 0 },
            s.skipped
        ));
        if let Some(error) = &self.error {
            // The target could not be tested: one case that errs, saying why
            // and what was tried.
            out.push_str(
                "  <testsuite name=\"sep-2792.run\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n",
            );
            out.push_str(&self.junit_properties(None));
            let tried: Vec<String> = self
                .protocols
                .iter()
                .flat_map(|p| p.tried.iter().map(move |t| format!("{}: {t}", p.transport)))
                .collect();
            out.push_str(&format!(
                "    <testcase classname=\"sep-2792.run\" name=\"reach the target\"><error message=\"could not test: {}\">{}{}</error></testcase>\n",
                escape(error),
                escape(&self.target),
                escape(&if tried.is_empty() {
                    String::new()
                } else {
                    format!("\ntried:\n{}", tried.join("\n"))
                }),
            ));
            out.push_str("  </testsuite>\n");
        }
        for transport in self.transports() {
            let rows: Vec<&Row> = self
                .rows
                .iter()
                .filter(|r| r.transport == transport)
                .collect();
            let failures = rows
                .iter()
                .filter(|r| r.outcome.is_fail() || (self.strict && r.outcome.is_warn()))
                .count();
            let skipped = rows
                .iter()
                .filter(|r| matches!(r.outcome, Outcome::Skip(_)))
                .count();
            if rows.is_empty() {
                continue;
            }
            out.push_str(&format!(
                "  <testsuite name=\"sep-2792.{transport}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">\n",
                rows.len()
            ));
            out.push_str(&self.junit_properties(Some(transport)));
            for row in rows {
                out.push_str(&format!(
                    "    <testcase classname=\"sep-2792.{transport}\" name=\"{}\">",
                    escape(row.scenario.id)
                ));
                match &row.outcome {
                    Outcome::Pass => {}
                    Outcome::Fail(reason) => {
                        let message = match self.same_cause_as(row) {
                            Some(root) => format!("{} (same cause as {root})", row.scenario.rule),
                            None => row.scenario.rule.to_owned(),
                        };
                        out.push_str(&format!(
                            "<failure message=\"{}\">{}\nSEP: {}</failure>",
                            escape(&message),
                            escape(reason),
                            escape(row.scenario.sep)
                        ));
                    }
                    Outcome::Warn(reason) if self.strict => out.push_str(&format!(
                        "<failure message=\"{}\" type=\"warning\">{}\nSEP: {}</failure>",
                        escape(row.scenario.rule),
                        escape(reason),
                        escape(row.scenario.sep)
                    )),
                    // A warning does not fail the run: the case passes, with
                    // what was seen on its standard error.
                    Outcome::Warn(reason) => out.push_str(&format!(
                        "<system-err>warning: {}\nSEP: {}</system-err>",
                        escape(reason),
                        escape(row.scenario.sep)
                    )),
                    Outcome::Skip(reason) => {
                        out.push_str(&format!("<skipped message=\"{}\"/>", escape(reason)));
                    }
                }
                out.push_str("</testcase>\n");
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
}

impl Report {
    /// The `<properties>` of a JUnit test suite: the suite's version, the
    /// target, strictness, and the protocol and profile of `transport` (of
    /// every transport when `None`).
    fn junit_properties(&self, transport: Option<&str>) -> String {
        let mut properties = vec![
            ("suite.version".to_owned(), SUITE_VERSION.to_owned()),
            ("target".to_owned(), self.target.clone()),
            ("strict".to_owned(), self.strict.to_string()),
        ];
        let mine = |t: &str| transport.is_none_or(|want| want == t);
        for note in self.protocols.iter().filter(|p| mine(p.transport)) {
            properties.push((format!("protocol.{}", note.transport), note.line()));
        }
        for note in self.profiles.iter().filter(|p| mine(p.transport)) {
            properties.push((format!("profile.{}", note.transport), note.line()));
        }
        let mut out = String::from("    <properties>\n");
        for (name, value) in properties {
            out.push_str(&format!(
                "      <property name=\"{}\" value=\"{}\"/>\n",
                escape(&name),
                escape(&value)
            ));
        }
        out.push_str("    </properties>\n");
        out
    }
}

/// An inconclusive verdict's reason, with what to pass when it does not say.
fn what_to_pass(reason: String) -> String {
    if reason.contains("--profile") || reason.contains("--supported") {
        reason
    } else {
        format!(
            "{reason}; name the server's languages with --profile FILE or --supported TAGS --default TAG"
        )
    }
}

/// Escapes text for XML attributes and content; drops characters XML 1.0
/// cannot carry.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_xml() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
    }
}
