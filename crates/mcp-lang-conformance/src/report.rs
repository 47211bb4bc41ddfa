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

use crate::scenario::{Outcome, Scenario};

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
/// ], discovery: Vec::new(), strict: false };
/// assert!(report.failed());
/// assert!(report.table().contains("FAIL"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// What was tested, for the header (`embedded reference server`, a URL, a command).
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
/// assert_eq!(report.verdict(), Verdict::Inconclusive("only the default".into()));
/// assert_eq!(report.verdict().exit_status(), 3);
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
        }
    }

    /// `"passed"`, `"failed"`, `"inconclusive"` or `"not participating"`.
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
        }
    }

    /// Why, for the two verdicts that carry a reason.
    ///
    /// ```
    /// use mcp_lang_conformance::Verdict;
    ///
    /// assert_eq!(Verdict::Passed.reason(), "");
    /// ```
    pub fn reason(&self) -> &str {
        match self {
            Self::Inconclusive(r) | Self::NotParticipating(r) => r,
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
/// ], discovery: Vec::new(), strict: false };
/// assert_eq!(report.summary(), Summary { passed: 0, failed: 0, warned: 0, skipped: 1 });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Scenarios that passed.
    pub passed: usize,
    /// Scenarios that failed.
    pub failed: usize,
    /// Scenarios that found a SHOULD or SHOULD NOT not followed.
    pub warned: usize,
    /// Scenarios skipped.
    pub skipped: usize,
}

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
            other => Err(format!("unknown format {other:?} (table, json or junit)")),
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
    /// ], discovery: Vec::new(), strict: false };
    /// assert_eq!(report.summary().passed, 2);
    /// ```
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for row in &self.rows {
            match row.outcome {
                Outcome::Pass => s.passed += 1,
                Outcome::Fail(_) => s.failed += 1,
                Outcome::Warn(_) => s.warned += 1,
                Outcome::Skip(_) => s.skipped += 1,
            }
        }
        s
    }

    /// Whether any scenario failed, or, in a [strict](Self::strict) report,
    /// warned.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let row = |outcome| Row { scenario: find("cache.vary").unwrap(), transport: "http", outcome };
    /// let skipped = Report { target: "t".into(), rows: vec![row(Outcome::Skip("stdio".into()))], discovery: Vec::new(), strict: false };
    /// assert!(!skipped.failed()); // a skip is not a failure
    /// let broken = Report { target: "t".into(), rows: vec![row(Outcome::Fail("no Vary".into()))], discovery: Vec::new(), strict: false };
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
            .or_else(|| undecided(|v| matches!(v, Verdict::Inconclusive(_))))
            .unwrap_or(Verdict::Passed)
    }

    /// The rows of scenario `id` (one per transport it ran on).
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let row = |id, transport| Row { scenario: find(id).unwrap(), transport, outcome: Outcome::Pass };
    /// let report = Report { target: "t".into(), rows: vec![
    ///     row("match.weights", "stdio"), row("match.weights", "http"), row("cache.vary", "http")], discovery: Vec::new(), strict: false };
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
    /// let empty = Report { target: "nothing".into(), rows: Vec::new(), discovery: Vec::new(), strict: false };
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
    ///     Row { scenario: find("match.weights").unwrap(), transport: "http", outcome: Outcome::Pass }], discovery: Vec::new(), strict: false };
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
        let mut out = format!("SEP-2792 conformance: {}\n\n", self.target);
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
        out.push_str(&format!(
            "{:<9} {:<id_width$} {:>4}  {:<4}  {}\n",
            "transport", "scenario", "item", "res", "rule / why"
        ));
        out.push_str(&format!("{}\n", "-".repeat(id_width + 60)));
        for row in &self.rows {
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
        }
        let s = self.summary();
        out.push_str(&format!(
            "\n{} passed, {} failed, {} skipped, {} warned\n",
            s.passed, s.failed, s.skipped, s.warned
        ));
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
    ///     Row { scenario: find("http.mismatch").unwrap(), transport: "http", outcome: Outcome::Fail("HTTP 200".into()) }], discovery: Vec::new(), strict: false };
    /// let json = report.json();
    /// assert_eq!(json["results"][0]["outcome"], "fail");
    /// assert_eq!(json["results"][0]["reason"], "HTTP 200");
    /// ```
    pub fn json(&self) -> Value {
        let s = self.summary();
        let verdict = self.verdict();
        json!({
            "target": self.target,
            "verdict": verdict.as_str(),
            "exit_status": verdict.exit_status(),
            "verdict_reason": verdict.reason(),
            "discovery": self.discovery.iter().map(|d| json!({
                "transport": d.transport,
                "lines": d.lines,
                "undecided": d.undecided.as_ref().map(Verdict::as_str),
            })).collect::<Vec<_>>(),
            "strict": self.strict,
            "summary": { "passed": s.passed, "failed": s.failed, "warned": s.warned, "skipped": s.skipped },
            "results": self.rows.iter().map(|r| json!({
                "id": r.scenario.id,
                "item": r.scenario.item,
                "rule": r.scenario.rule,
                "sep": r.scenario.sep,
                "transport": r.transport,
                "outcome": r.outcome.as_str(),
                "reason": r.outcome.reason(),
            })).collect::<Vec<_>>(),
        })
    }

    /// JUnit XML: one test suite per transport, one test case per scenario.
    ///
    /// ```
    /// use mcp_lang_conformance::{Outcome, Report, Row, scenarios::find};
    ///
    /// let report = Report { target: "t".into(), rows: vec![
    ///     Row { scenario: find("cache.vary").unwrap(), transport: "http", outcome: Outcome::Fail("no <Vary>".into()) }], discovery: Vec::new(), strict: false };
    /// let xml = report.junit();
    /// assert!(xml.contains("<testsuite name=\"sep-2792.http\" tests=\"1\" failures=\"1\""));
    /// assert!(xml.contains("no &lt;Vary&gt;"));
    /// ```
    pub fn junit(&self) -> String {
        let s = self.summary();
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.push_str(&format!(
            "<testsuites name=\"mcp-lang-conformance\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
            self.rows.len(),
            s.failed + if self.strict { s.warned } else { 0 },
            s.skipped
        ));
        let mut transports: Vec<&str> = Vec::new();
        for row in &self.rows {
            if !transports.contains(&row.transport) {
                transports.push(row.transport);
            }
        }
        for transport in transports {
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
            out.push_str(&format!(
                "  <testsuite name=\"sep-2792.{transport}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">\n",
                rows.len()
            ));
            for row in rows {
                out.push_str(&format!(
                    "    <testcase classname=\"sep-2792.{transport}\" name=\"{}\">",
                    escape(row.scenario.id)
                ));
                match &row.outcome {
                    Outcome::Pass => {}
                    Outcome::Fail(reason) => out.push_str(&format!(
                        "<failure message=\"{}\">{}\nSEP: {}</failure>",
                        escape(row.scenario.rule),
                        escape(reason),
                        escape(row.scenario.sep)
                    )),
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
