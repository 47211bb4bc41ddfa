//! `cargo xtask callgrind`: the instruction counts of the hot paths, compared with the
//! baselines committed in `benches/callgrind-baseline.json`; a count more than
//! [`THRESHOLD_PERCENT`] above its baseline fails.
//!
//! Two [`BUDGETS`] hold the HTTP layer's cost per request on this run's counts alone,
//! whatever the baseline: the layer's own work (its whole cost less its two JSON reads,
//! each counted inside the layer) at most 3,500 instructions, and each of those reads at
//! most 55% of serde_json's typed, borrowed reading of the same body, counted in the same
//! run. Both are checked in the `bench` profile, the one the gate counts in.
//!
//! The bench executables are built once in the `bench` profile and each gated id runs
//! under `valgrind --tool=callgrind` through its `--callgrind ID N` hook
//! (`benches/src/callgrind.rs`), with the functions `cargo xtask bench` uses
//! ([`bench::count_one`]). An instruction count does not depend on the machine's load, so
//! the same build counts the same on every run; it does depend on the compiler, which is
//! why the baseline records the `rustc` it was taken with and the gate refuses to compare
//! counts of another (see [`toolchain_mismatch`]). `--bless` writes the counts of this run
//! as the new baseline.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::args::Args;
use crate::bench::{self, PACKAGE};
use crate::process::Cmd;
use crate::workspace::{self, Metadata};
use crate::{Result, bail};

pub(crate) const USAGE: &str = "  callgrind [--bless]
      Counts the instructions of the hot paths (parse, negotiate, agreement, reading the
      `_meta` preference, the HTTP layer's own cost per request) under valgrind's callgrind,
      in the `bench` profile, and compares them with benches/callgrind-baseline.json: fails
      when a count is more than 5% above its baseline (25% on another CPU model), when the
      baseline was taken with another rustc, or when the HTTP layer is over one of its two
      budgets (its own work at most 3,500 instructions per request; each JSON read at most
      55% of serde_json's typed reading of the same body). --bless writes this run's counts as the new baseline. Installs
      valgrind with apt-get when it is missing (as root or through sudo).";

/// How far above its baseline a count may go, in percent, before the gate fails.
pub(crate) const THRESHOLD_PERCENT: f64 = 5.0;

/// The rise that fails the gate on a CPU other than the baseline's: the C library
/// picks its `memcpy` and `memcmp` variants by CPU, and callgrind counts them too, so
/// counts taken on two CPU models are compared more coarsely (a real regression of the
/// size the gate exists for still fails).
pub(crate) const OTHER_CPU_THRESHOLD_PERCENT: f64 = 25.0;

/// The profile the counts are taken in: the workspace's own optimized build.
const PROFILE: &str = "bench";

/// The baseline file, relative to the workspace root.
const BASELINE: &str = "benches/callgrind-baseline.json";

/// The counted ids (`group/input/function`, as `BENCH --callgrind list` prints them), and
/// whether a rise fails the gate. The two whole requests of the HTTP layer are counted
/// for their difference (below) and shown, not gated: the request without the layer is
/// the `http` crate's and the test service's work.
const COUNTED: &[(&str, bool)] = &[
    ("parse/typical/mcp-lang", true),
    ("parse/browser-12/mcp-lang", true),
    ("parse/hostile-64k/mcp-lang", true),
    ("negotiate/typical-5/mcp-lang", true),
    ("negotiate/typical-20/mcp-lang", true),
    ("negotiate/typical-100/mcp-lang", true),
    ("negotiate/hostile-400k-100/mcp-lang", true),
    ("agree/one-line/mcp-lang", true),
    ("agree/three-lines/mcp-lang", true),
    ("meta-extract/tools-call-1k/mcp-lang", true),
    ("meta-extract/tools-call-64k/mcp-lang", true),
    ("meta-extract/response-1k/mcp-lang", true),
    ("meta-extract/layer-request-1k/mcp-lang", true),
    ("meta-extract/layer-response/mcp-lang", true),
    ("meta-extract/layer-request-1k/serde_json-typed", false),
    ("meta-extract/layer-response/serde_json-typed", false),
    ("http-layer/1k-body/mcp-lang", false),
    ("http-layer/1k-body/no-layer", false),
    ("rmcp-server/http-tools-call/mcp-lang", false),
    ("rmcp-server/http-tools-call/rmcp", false),
    ("rmcp-server/stdio-tools-call/mcp-lang", false),
    ("rmcp-server/stdio-tools-call/rmcp", false),
];

/// Counts that are one counted id less others: (id, minuend, subtrahends, gated against
/// the baseline).
const DIFFERENCES: &[(&str, &str, &[&str], bool)] = &[
    (
        "http-layer/1k-body/own",
        "http-layer/1k-body/mcp-lang",
        &["http-layer/1k-body/no-layer"],
        true,
    ),
    // The layer's own work: its cost less its two JSON reads. Held by its budget.
    (
        "http-layer/1k-body/own-work",
        "http-layer/1k-body/mcp-lang",
        &[
            "http-layer/1k-body/no-layer",
            "meta-extract/layer-request-1k/mcp-lang",
            "meta-extract/layer-response/mcp-lang",
        ],
        false,
    ),
    // What SEP-2792 adds to one request of an rmcp server: the same server and request
    // with `mcp-lang` (`Localized`, and on HTTP the layer) less without it.
    (
        "rmcp-server/http-tools-call/sep",
        "rmcp-server/http-tools-call/mcp-lang",
        &["rmcp-server/http-tools-call/rmcp"],
        true,
    ),
    (
        "rmcp-server/stdio-tools-call/sep",
        "rmcp-server/stdio-tools-call/mcp-lang",
        &["rmcp-server/stdio-tools-call/rmcp"],
        true,
    ),
];

/// A limit on this run's counts, whatever the baseline says.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Limit {
    /// The count at most this many instructions.
    Instructions(f64),
    /// The count at most this fraction of another count of the same run.
    ShareOf(&'static str, f64),
}

/// The HTTP layer's two budgets per request (decision X10): its own work, and each of its
/// two JSON reads beside serde_json's typed, borrowed reading of the same body.
const BUDGETS: &[(&str, Limit)] = &[
    ("http-layer/1k-body/own-work", Limit::Instructions(3500.0)),
    (
        "meta-extract/layer-request-1k/mcp-lang",
        Limit::ShareOf("meta-extract/layer-request-1k/serde_json-typed", 0.55),
    ),
    (
        "meta-extract/layer-response/mcp-lang",
        Limit::ShareOf("meta-extract/layer-response/serde_json-typed", 0.55),
    ),
];

pub(crate) fn run(mut args: Args) -> Result<()> {
    let bless = args.flag("--bless");
    args.finish()?;
    if bless { self::bless() } else { gate() }
}

/// The CI step: count, compare, fail on a rise.
pub(crate) fn gate() -> Result<()> {
    let baseline = Baseline::load()?;
    let run = Run::measure()?;
    let mut comparison = compare(&baseline.counts, &run.counts);
    if baseline.cpu != run.cpu {
        comparison.threshold = OTHER_CPU_THRESHOLD_PERCENT;
    }
    println!("\n{}", comparison.table());
    // The budgets hold on this run's counts alone, whatever compiler took the baseline.
    let (budgets, within_budgets) = budgets_verdict(&check_budgets(&run.counts));
    println!("{budgets}");
    if let Some(note) = machine_note(&baseline, &run) {
        println!("{note}");
    }
    within_budgets?;
    if let Some(message) = toolchain_mismatch(&baseline, &run) {
        bail!("{message}");
    }
    comparison.verdict()
}

/// `--bless`: count and write the baseline.
fn bless() -> Result<()> {
    let previous = Baseline::load().ok();
    let run = Run::measure()?;
    if let Some(previous) = &previous {
        println!("\n{}", compare(&previous.counts, &run.counts).table());
    }
    let path = workspace::root().join(BASELINE);
    fs::write(&path, run.to_json())?;
    println!(
        "wrote {BASELINE}: {} counts, {}; commit it with the change that moved them",
        run.counts.len(),
        run.rustc
    );
    Ok(())
}

/// The committed baseline.
struct Baseline {
    rustc: String,
    cpu: String,
    counts: BTreeMap<String, f64>,
}

impl Baseline {
    fn load() -> Result<Baseline> {
        let path = workspace::root().join(BASELINE);
        let text = fs::read_to_string(&path).map_err(|e| {
            format!("{BASELINE}: {e}; take a baseline with `cargo xtask callgrind --bless`")
        })?;
        Baseline::from_json(&text).map_err(|e| format!("{BASELINE}: {e}").into())
    }

    fn from_json(text: &str) -> std::result::Result<Baseline, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let field = |name: &str| {
            v[name]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("no `{name}`"))
        };
        let counts = v["counts"]
            .as_object()
            .ok_or("no `counts` object")?
            .iter()
            .map(|(id, n)| {
                n.as_f64()
                    .map(|n| (id.clone(), n))
                    .ok_or_else(|| format!("count of {id} is not a number"))
            })
            .collect::<std::result::Result<_, _>>()?;
        Ok(Baseline {
            rustc: field("rustc")?,
            cpu: field("cpu")?,
            counts,
        })
    }
}

/// This run's counts and what they were taken with.
struct Run {
    rustc: String,
    valgrind: String,
    cpu: String,
    counts: BTreeMap<String, f64>,
}

impl Run {
    /// Builds the benches once in the `bench` profile and counts every id of [`COUNTED`],
    /// then the [`DIFFERENCES`].
    fn measure() -> Result<Run> {
        let valgrind = ensure_valgrind()?;
        let Some(rustc) = bench::tool_version("rustc") else {
            bail!("cannot run `rustc --version`");
        };
        let metadata = Metadata::load()?;
        let Some(package) = metadata.packages.iter().find(|p| p.name == PACKAGE) else {
            bail!("no package {PACKAGE} in the workspace");
        };
        let scratch = metadata.target_dir.join("xtask-callgrind");
        fs::create_dir_all(&scratch)?;
        let mut counts = BTreeMap::new();
        for exe in bench::bench_executables(PROFILE, &package.benches)? {
            for (id, bytes) in bench::list_ids(&exe)? {
                if !COUNTED.iter().any(|(counted, _)| *counted == id) {
                    continue;
                }
                let per_call = bench::count_one(&exe, &id, bench::iterations_for(bytes), &scratch)?;
                eprintln!("callgrind {id}: {per_call:.1} instructions per call");
                counts.insert(id, round(per_call));
            }
        }
        let missing: Vec<&str> = COUNTED
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| !counts.contains_key(*id))
            .collect();
        if !missing.is_empty() {
            bail!(
                "no bench executable offers {} (`BENCH --callgrind list`)",
                missing.join(", ")
            );
        }
        insert_differences(&mut counts);
        Ok(Run {
            rustc,
            valgrind,
            cpu: bench::cpu_model(),
            counts,
        })
    }

    fn to_json(&self) -> String {
        let unix = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let doc = json!({
            "about": "Instructions per call of the hot paths under valgrind's callgrind, in the `bench` profile: the baseline of `cargo xtask callgrind`, written by `cargo xtask callgrind --bless`. Counts depend on rustc; the gate compares only counts of the same rustc.",
            "taken": bench::utc(unix),
            "rustc": self.rustc,
            "valgrind": self.valgrind,
            "cpu": self.cpu,
            "profile": PROFILE,
            "threshold_percent": THRESHOLD_PERCENT,
            "counts": self.counts,
        });
        let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// Adds each of [`DIFFERENCES`] whose counts are all there.
fn insert_differences(counts: &mut BTreeMap<String, f64>) {
    for (id, minuend, subtrahends, _) in DIFFERENCES {
        let Some(mut difference) = counts.get(*minuend).copied() else {
            continue;
        };
        for subtrahend in *subtrahends {
            match counts.get(*subtrahend) {
                Some(n) => difference -= n,
                None => return,
            }
        }
        counts.insert((*id).to_owned(), round(difference));
    }
}

/// One budget, checked on one run's counts.
#[derive(Debug, PartialEq)]
struct BudgetCheck {
    id: &'static str,
    limit: Limit,
    /// The count, when counted.
    now: Option<f64>,
    /// For a share: the other count, when counted.
    of: Option<f64>,
}

impl BudgetCheck {
    /// Whether the budget holds; a count that is missing fails it.
    fn holds(&self) -> bool {
        match (self.limit, self.now, self.of) {
            (Limit::Instructions(max), Some(n), _) => n <= max,
            (Limit::ShareOf(_, share), Some(n), Some(of)) => of > 0.0 && n <= share * of,
            _ => false,
        }
    }

    fn row(&self) -> String {
        let count = |n: Option<f64>| n.map_or("—".to_owned(), bench::format_count);
        let verdict = if self.holds() {
            "ok"
        } else {
            "FAIL: over budget"
        };
        match self.limit {
            Limit::Instructions(max) => format!(
                "| {} | {} | at most {} | {verdict} |",
                self.id,
                count(self.now),
                bench::format_count(max)
            ),
            Limit::ShareOf(of, share) => {
                let percent = match (self.now, self.of) {
                    (Some(n), Some(o)) if o > 0.0 => format!(" ({:.1}%)", n / o * 100.0),
                    _ => String::new(),
                };
                format!(
                    "| {} | {}{percent} | at most {:.0}% of {of} ({}) | {verdict} |",
                    self.id,
                    count(self.now),
                    share * 100.0,
                    count(self.of)
                )
            }
        }
    }
}

/// Every budget of [`BUDGETS`] on `counts`.
fn check_budgets(counts: &BTreeMap<String, f64>) -> Vec<BudgetCheck> {
    BUDGETS
        .iter()
        .map(|&(id, limit)| BudgetCheck {
            id,
            limit,
            now: counts.get(id).copied(),
            of: match limit {
                Limit::ShareOf(of, _) => counts.get(of).copied(),
                Limit::Instructions(_) => None,
            },
        })
        .collect()
}

/// The budgets on the counts of one `cargo xtask bench` run (ids as `group/function`, the
/// `bench` profile's), as the table the README's benchmark block shows beside the others.
pub(crate) fn budgets_table(counts: &BTreeMap<String, f64>) -> String {
    let mut counts = counts.clone();
    insert_differences(&mut counts);
    budgets_verdict(&check_budgets(&counts)).0
}

/// The budgets as a table, and their verdict.
fn budgets_verdict(checks: &[BudgetCheck]) -> (String, Result<()>) {
    let mut table = String::from("| budget | now | limit | |\n|---|---:|---|---|\n");
    for check in checks {
        table.push_str(&check.row());
        table.push('\n');
    }
    let over: Vec<&str> = checks.iter().filter(|c| !c.holds()).map(|c| c.id).collect();
    let verdict = if over.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "over budget: {} (the HTTP layer's own work at most 3,500 instructions per request, each JSON read at most 55% of serde_json's typed reading of the same body; decision X10)",
            over.join(", ")
        )
        .into())
    };
    (table, verdict)
}

/// A count to one decimal: what the baseline keeps.
fn round(count: f64) -> f64 {
    (count * 10.0).round() / 10.0
}

/// valgrind's version, installing it with apt-get first when it is missing: as root (a
/// fresh machine), or through `sudo` when it needs no password (a hosted runner).
fn ensure_valgrind() -> Result<String> {
    if let Some(version) = bench::tool_version("valgrind") {
        return Ok(version);
    }
    let root = Cmd::new("id")
        .arg("-u")
        .read_stdout()
        .is_ok_and(|uid| uid.trim() == "0");
    let sudo = !root && Cmd::new("sudo").args(["-n", "true"]).read_stdout().is_ok();
    if !root && !sudo {
        bail!(
            "valgrind is not installed; install it (Debian and Ubuntu: `apt-get install valgrind`) or skip this step"
        );
    }
    let apt_get = |args: &[&str]| {
        let cmd = if sudo {
            Cmd::new("sudo").args(["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get"])
        } else {
            Cmd::new("apt-get").env("DEBIAN_FRONTEND", "noninteractive")
        };
        cmd.args(args.iter().copied()).run()
    };
    apt_get(&["update", "-q"])?;
    apt_get(&["install", "-y", "-q", "--no-install-recommends", "valgrind"])?;
    bench::tool_version("valgrind").ok_or_else(|| "valgrind still does not run".into())
}

/// Why the counts cannot be compared, when the baseline was taken with another rustc.
fn toolchain_mismatch(baseline: &Baseline, run: &Run) -> Option<String> {
    if baseline.rustc == run.rustc {
        return None;
    }
    let release = baseline
        .rustc
        .split_whitespace()
        .nth(1)
        .unwrap_or("VERSION");
    Some(format!(
        "the baseline was taken with {} and this is {}: a compiler changes the counts, so they cannot be compared (the table above is for information). Either run the gate with the baseline's compiler (`rustup toolchain install {release}`, then `cargo +{release} xtask callgrind`), or move the baseline to this compiler: look at the table for a change that is not the compiler's, run `cargo xtask callgrind --bless`, and commit {BASELINE}.",
        baseline.rustc, run.rustc
    ))
}

/// A note when the CPU differs: the counts of our code do not depend on it, but the C
/// library picks `memcpy` and `memcmp` variants by CPU, and those are counted too.
fn machine_note(baseline: &Baseline, run: &Run) -> Option<String> {
    (baseline.cpu != run.cpu).then(|| {
        format!(
            "note: the baseline was taken on {}, this run is on {}; the C library's memcpy and memcmp differ by CPU, so a count that calls them may move a little, and a rise fails only above {OTHER_CPU_THRESHOLD_PERCENT}% here (run `cargo xtask callgrind --bless` on this machine to gate at {THRESHOLD_PERCENT}%).",
            baseline.cpu, run.cpu
        )
    })
}

/// One row of the comparison.
#[derive(Debug, PartialEq)]
struct Row {
    id: String,
    baseline: Option<f64>,
    now: Option<f64>,
    gated: bool,
}

impl Row {
    /// The change in percent, when both counts exist.
    fn change(&self) -> Option<f64> {
        match (self.baseline, self.now) {
            (Some(b), Some(n)) if b > 0.0 => Some((n - b) / b * 100.0),
            _ => None,
        }
    }

    fn failed(&self, threshold: f64) -> bool {
        self.gated
            && (self.now.is_none()
                || self.baseline.is_none()
                || self.change().is_some_and(|c| c > threshold))
    }
}

/// Every counted or baselined id, compared.
struct Comparison {
    rows: Vec<Row>,
    /// The rise, in percent, that fails a gated count.
    threshold: f64,
}

fn is_gated(id: &str) -> bool {
    COUNTED
        .iter()
        .any(|(counted, gated)| *counted == id && *gated)
        || DIFFERENCES
            .iter()
            .any(|(difference, _, _, gated)| *difference == id && *gated)
}

fn compare(baseline: &BTreeMap<String, f64>, now: &BTreeMap<String, f64>) -> Comparison {
    let mut ids: Vec<&String> = baseline.keys().chain(now.keys()).collect();
    ids.sort();
    ids.dedup();
    Comparison {
        rows: ids
            .into_iter()
            .map(|id| Row {
                id: id.clone(),
                baseline: baseline.get(id).copied(),
                now: now.get(id).copied(),
                // An id that is no longer counted is shown, and fails nothing.
                gated: is_gated(id) && now.contains_key(id),
            })
            .collect(),
        threshold: THRESHOLD_PERCENT,
    }
}

impl Comparison {
    /// A markdown table: baseline, now and change per id, with a verdict.
    fn table(&self) -> String {
        let mut out = String::from(
            "| instructions per call | baseline | now | change | |\n|---|---:|---:|---:|---|\n",
        );
        let count = |n: Option<f64>| n.map_or("—".to_owned(), bench::format_count);
        for row in &self.rows {
            let change = row.change().map_or("—".to_owned(), |c| format!("{c:+.1}%"));
            let verdict = if row.failed(self.threshold) {
                match (row.baseline, row.now) {
                    (None, _) => "FAIL: no baseline",
                    (_, None) => "FAIL: not counted",
                    _ => "FAIL: rose",
                }
            } else if !row.gated {
                if row.now.is_none() {
                    "not counted any more"
                } else {
                    "shown, not gated"
                }
            } else if row.change().is_some_and(|c| c < -self.threshold) {
                "fell: --bless to keep the gain"
            } else {
                "ok"
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {change} | {verdict} |",
                row.id,
                count(row.baseline),
                count(row.now)
            );
        }
        out
    }

    fn verdict(&self) -> Result<()> {
        let failed: Vec<&str> = self
            .rows
            .iter()
            .filter(|r| r.failed(self.threshold))
            .map(|r| r.id.as_str())
            .collect();
        let threshold = self.threshold;
        if failed.is_empty() {
            println!("callgrind: every gated count within {threshold}% of its baseline");
            return Ok(());
        }
        bail!(
            "{} rose more than {threshold}% above the baseline, or has none: {}. Find the cause with callgrind_annotate (benches/README.md); if the rise is meant, run `cargo xtask callgrind --bless` and commit {BASELINE} with the change.",
            if failed.len() == 1 {
                "one count"
            } else {
                "counts"
            },
            failed.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
        pairs.iter().map(|(id, n)| ((*id).to_owned(), *n)).collect()
    }

    #[test]
    fn on_another_cpu_only_a_larger_rise_fails() {
        let baseline = counts(&[("parse/typical/mcp-lang", 400.0)]);
        let now = counts(&[("parse/typical/mcp-lang", 440.0)]);
        let mut comparison = compare(&baseline, &now);
        assert!(comparison.verdict().is_err(), "10% over on the same CPU");
        comparison.threshold = OTHER_CPU_THRESHOLD_PERCENT;
        assert!(comparison.verdict().is_ok(), "10% over on another CPU");
        let far = counts(&[("parse/typical/mcp-lang", 520.0)]);
        let mut comparison = compare(&baseline, &far);
        comparison.threshold = OTHER_CPU_THRESHOLD_PERCENT;
        assert!(comparison.verdict().is_err(), "30% over on another CPU");
    }

    #[test]
    fn a_rise_above_the_threshold_fails_and_the_table_says_so() {
        let baseline = counts(&[
            ("parse/typical/mcp-lang", 400.0),
            ("agree/one-line/mcp-lang", 100.0),
            ("http-layer/1k-body/own", 5000.0),
            ("http-layer/1k-body/no-layer", 3000.0),
        ]);
        let now = counts(&[
            ("parse/typical/mcp-lang", 420.0),
            ("agree/one-line/mcp-lang", 105.1),
            ("http-layer/1k-body/own", 4000.0),
            ("http-layer/1k-body/no-layer", 9000.0),
        ]);
        let comparison = compare(&baseline, &now);
        let table = comparison.table();
        assert!(
            table.contains("| agree/one-line/mcp-lang | 100 | 105 | +5.1% | FAIL: rose |"),
            "{table}"
        );
        assert!(
            table.contains("| parse/typical/mcp-lang | 400 | 420 | +5.0% | ok |"),
            "{table}"
        );
        assert!(
            table.contains("| http-layer/1k-body/own | 5,000 | 4,000 | -20.0% | fell: --bless to keep the gain |"),
            "{table}"
        );
        assert!(
            table.contains(
                "| http-layer/1k-body/no-layer | 3,000 | 9,000 | +200.0% | shown, not gated |"
            ),
            "{table}"
        );
        let err = comparison.verdict().unwrap_err().to_string();
        assert!(
            err.contains("agree/one-line/mcp-lang") && !err.contains("parse/"),
            "{err}"
        );
    }

    #[test]
    fn a_gated_id_without_baseline_fails_and_a_dropped_one_does_not() {
        let baseline = counts(&[("parse/old/mcp-lang", 10.0)]);
        let now = counts(&[("parse/typical/mcp-lang", 400.0)]);
        let comparison = compare(&baseline, &now);
        let table = comparison.table();
        assert!(
            table.contains("| parse/typical/mcp-lang | — | 400 | — | FAIL: no baseline |"),
            "{table}"
        );
        assert!(
            table.contains("| parse/old/mcp-lang | 10 | — | — | not counted any more |"),
            "{table}"
        );
        assert!(comparison.verdict().is_err());
        assert!(compare(&now, &now).verdict().is_ok());
    }

    fn run_with(rustc: &str, cpu: &str) -> Run {
        Run {
            rustc: rustc.to_owned(),
            valgrind: "valgrind-3.19.0".to_owned(),
            cpu: cpu.to_owned(),
            counts: counts(&[("agree/one-line/mcp-lang", 101.04)]),
        }
    }

    #[test]
    fn the_baseline_round_trips_and_another_compiler_is_refused() {
        let run = run_with("rustc 1.95.0 (59807616e 2026-04-14)", "CPU A");
        let baseline = Baseline::from_json(&run.to_json()).unwrap();
        assert_eq!(baseline.counts, run.counts);
        assert!(toolchain_mismatch(&baseline, &run).is_none());
        assert!(machine_note(&baseline, &run).is_none());
        let newer = run_with("rustc 1.96.0 (0123456789 2026-05-28)", "CPU B");
        let message = toolchain_mismatch(&baseline, &newer).unwrap();
        assert!(
            message.contains("cargo +1.95.0 xtask callgrind"),
            "{message}"
        );
        assert!(message.contains("--bless"), "{message}");
        assert!(machine_note(&baseline, &newer).unwrap().contains("CPU A"));
        assert!(Baseline::from_json("{}").is_err());
        assert_eq!(round(101.04), 101.0);
    }

    #[test]
    fn every_difference_is_of_counted_ids() {
        for (id, a, subtrahends, _) in DIFFERENCES {
            assert!(!COUNTED.iter().any(|(c, _)| c == id));
            assert!(COUNTED.iter().any(|(c, _)| c == a));
            for b in *subtrahends {
                assert!(COUNTED.iter().any(|(c, _)| c == b), "{b}");
            }
        }
    }

    #[test]
    fn every_budget_is_of_counted_ids() {
        let known = |id: &str| {
            COUNTED.iter().any(|(c, _)| *c == id) || DIFFERENCES.iter().any(|(d, _, _, _)| *d == id)
        };
        for (id, limit) in BUDGETS {
            assert!(known(id), "{id}");
            if let Limit::ShareOf(of, _) = limit {
                assert!(known(of), "{of}");
            }
        }
    }

    /// The counts of the run that took the budgets' figures (bench profile).
    fn layer_counts(
        own_total: f64,
        request_read: f64,
        typed_request: f64,
    ) -> BTreeMap<String, f64> {
        let mut counts = counts(&[
            ("http-layer/1k-body/mcp-lang", own_total + 2978.0),
            ("http-layer/1k-body/no-layer", 2978.0),
            ("meta-extract/layer-request-1k/mcp-lang", request_read),
            (
                "meta-extract/layer-request-1k/serde_json-typed",
                typed_request,
            ),
            ("meta-extract/layer-response/mcp-lang", 1612.0),
            ("meta-extract/layer-response/serde_json-typed", 3270.0),
        ]);
        insert_differences(&mut counts);
        counts
    }

    #[test]
    fn the_layer_is_held_by_its_two_budgets() {
        // Within both: own work 8,209 - 3,542 - 1,612 = 3,055; the request read 52.7%.
        let counts = layer_counts(8209.0, 3542.0, 6721.0);
        assert_eq!(counts["http-layer/1k-body/own"], 8209.0);
        assert_eq!(counts["http-layer/1k-body/own-work"], 3055.0);
        let (table, verdict) = budgets_verdict(&check_budgets(&counts));
        assert!(verdict.is_ok(), "{table}");
        assert!(
            table.contains("| http-layer/1k-body/own-work | 3,055 | at most 3,500 | ok |"),
            "{table}"
        );
        assert!(table.contains("3,542 (52.7%) | at most 55%"), "{table}");
        // Own work over 3,500, though the whole is what it was: the reads got cheaper
        // and the rest dearer.
        let counts = layer_counts(8209.0, 2500.0, 6721.0);
        let (table, verdict) = budgets_verdict(&check_budgets(&counts));
        let err = verdict.unwrap_err().to_string();
        assert!(
            err.contains("own-work") && !err.contains("layer-request"),
            "{err}"
        );
        assert!(table.contains("FAIL: over budget"), "{table}");
        // A read over 55% of serde_json's typed reading of the same body.
        let counts = layer_counts(8209.0, 3542.0, 6000.0);
        let err = budgets_verdict(&check_budgets(&counts))
            .1
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("meta-extract/layer-request-1k/mcp-lang"),
            "{err}"
        );
        // A count that is missing fails its budget.
        let mut counts = layer_counts(8209.0, 3542.0, 6721.0);
        counts.remove("meta-extract/layer-response/serde_json-typed");
        assert!(budgets_verdict(&check_budgets(&counts)).1.is_err());
    }
}
