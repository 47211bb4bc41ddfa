//! `cargo xtask bench`: one run of the criterion benchmarks, then one markdown table of ours
//! beside every peer.
//!
//! The benchmarks follow one naming convention (see `benches/src/lib.rs`): the criterion
//! *group* is the operation and its input (`parse/typical`), the *function* is the
//! implementation: `mcp-lang` for ours, the peer crate's name otherwise. A parameterised
//! benchmark's value (`BenchmarkId::new("mcp-lang", 20)`) joins the operation
//! (`negotiate/20`).
//!
//! The figures are read back from criterion's own files (`target/criterion/**/new/`):
//! `benchmark.json` names the benchmark, `estimates.json` holds the estimates. The time
//! shown is the one criterion prints in the middle of its `time: [… … …]` line: the slope
//! of the linear regression when criterion sampled linearly, else the mean. Only files
//! written by this run are read, so a benchmark removed from the code, or filtered out on
//! the command line, never shows a stale figure.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::args::Args;
use crate::process::Cmd;
use crate::workspace::Metadata;
use crate::{Result, bail};

pub(crate) const USAGE: &str = "  bench [-- CRITERION_ARGS…]
      Runs the benchmarks of mcp-lang-benches once (criterion arguments after `--`, default
      `--noplot`; a filter such as `-- parse` runs a subset), then prints one markdown table:
      operation, ours (`mcp-lang`), each peer, and the ratio peer/ours.";

/// The benchmarks package.
const PACKAGE: &str = "mcp-lang-benches";

/// The criterion function id of our implementation.
const OURS: &str = "mcp-lang";

pub(crate) fn run(args: Args) -> Result<()> {
    let mut criterion_args = args.passthrough().to_vec();
    args.finish()?;
    if !criterion_args.iter().any(|a| a == "--noplot") {
        criterion_args.push("--noplot".to_owned());
    }
    let metadata = Metadata::load()?;
    // File times have coarse resolution on some file systems: allow a little slack.
    let since = SystemTime::now() - Duration::from_secs(2);
    let Some(package) = metadata.packages.iter().find(|p| p.name == PACKAGE) else {
        bail!("no package {PACKAGE} in the workspace");
    };
    // Only the [[bench]] targets: the package's library would run as a libtest harness,
    // which rejects criterion's arguments.
    let mut cmd = Cmd::cargo().args(["bench", "-p", PACKAGE]);
    for bench in &package.benches {
        cmd = cmd.args(["--bench", bench]);
    }
    cmd.arg("--").args(&criterion_args).run()?;
    let results = read_criterion_dir(&metadata.target_dir.join("criterion"), Some(since))?;
    if results.is_empty() {
        bail!("the run wrote no criterion results (is a filter excluding everything?)");
    }
    println!("\n{}", markdown_table(&results));
    Ok(())
}

/// One benchmark's result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Measurement {
    /// Group, plus `/value` for a parameterised benchmark: the table's row.
    pub(crate) operation: String,
    /// Function id: the table's column.
    pub(crate) implementation: String,
    /// Time per iteration, in nanoseconds.
    pub(crate) nanos: f64,
}

/// Reads every `new/benchmark.json` + `new/estimates.json` pair under `dir` whose estimates
/// were written at or after `since` (all of them when `since` is `None`).
pub(crate) fn read_criterion_dir(
    dir: &Path,
    since: Option<SystemTime>,
) -> Result<Vec<Measurement>> {
    let mut found = Vec::new();
    if dir.is_dir() {
        walk(dir, since, &mut found)?;
    }
    found.sort_by(|a, b| (&a.operation, &a.implementation).cmp(&(&b.operation, &b.implementation)));
    Ok(found)
}

fn walk(dir: &Path, since: Option<SystemTime>, found: &mut Vec<Measurement>) -> Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            if let Some(m) = read_measurement(&path, since)? {
                found.push(m);
            }
        } else {
            walk(&path, since, found)?;
        }
    }
    Ok(())
}

fn read_measurement(new_dir: &Path, since: Option<SystemTime>) -> Result<Option<Measurement>> {
    let estimates_path = new_dir.join("estimates.json");
    let benchmark_path = new_dir.join("benchmark.json");
    if !estimates_path.is_file() || !benchmark_path.is_file() {
        return Ok(None);
    }
    if let Some(since) = since {
        let written = fs::metadata(&estimates_path)?.modified()?;
        if written < since {
            return Ok(None);
        }
    }
    let benchmark = read_json(&benchmark_path)?;
    let estimates = read_json(&estimates_path)?;
    let Some(group) = benchmark["group_id"].as_str() else {
        bail!("{}: no group_id", benchmark_path.display());
    };
    let implementation = benchmark["function_id"].as_str().unwrap_or(group);
    let operation = match benchmark["value_str"].as_str() {
        Some(value) => format!("{group}/{value}"),
        None => group.to_owned(),
    };
    let typical = estimates["slope"]["point_estimate"]
        .as_f64()
        .or_else(|| estimates["mean"]["point_estimate"].as_f64());
    let Some(nanos) = typical else {
        bail!("{}: no slope or mean estimate", estimates_path.display());
    };
    Ok(Some(Measurement {
        operation,
        implementation: implementation.to_owned(),
        nanos,
    }))
}

fn read_json(path: &Path) -> Result<Value> {
    let text = fs::read_to_string(path)?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// The table: one row per operation, our time, then each peer's time with the ratio
/// peer/ours (above 1 means ours is faster). Peers are the other function ids, in name
/// order; a missing figure is a dash.
pub(crate) fn markdown_table(results: &[Measurement]) -> String {
    let mut rows: BTreeMap<&str, BTreeMap<&str, f64>> = BTreeMap::new();
    let mut peers: BTreeSet<&str> = BTreeSet::new();
    for m in results {
        rows.entry(&m.operation)
            .or_default()
            .insert(&m.implementation, m.nanos);
        if m.implementation != OURS {
            peers.insert(&m.implementation);
        }
    }
    let mut out = String::new();
    let _ = write!(out, "| operation | ours ({OURS}) |");
    for peer in &peers {
        let _ = write!(out, " {peer} | {peer} / ours |");
    }
    out.push_str("\n|---|---:|");
    for _ in &peers {
        out.push_str("---:|---:|");
    }
    out.push('\n');
    for (operation, times) in &rows {
        let ours = times.get(OURS).copied();
        let _ = write!(
            out,
            "| {operation} | {} |",
            ours.map_or("—".into(), format_time)
        );
        for peer in &peers {
            match times.get(peer) {
                Some(&t) => {
                    let ratio = match ours {
                        Some(o) if o > 0.0 => format!("{:.1}×", t / o),
                        _ => "—".to_owned(),
                    };
                    let _ = write!(out, " {} | {ratio} |", format_time(t));
                }
                None => out.push_str(" — | — |"),
            }
        }
        out.push('\n');
    }
    out
}

/// A time in the largest unit that keeps it at or above 1, with three significant digits.
fn format_time(nanos: f64) -> String {
    let (value, unit) = if nanos < 1e3 {
        (nanos, "ns")
    } else if nanos < 1e6 {
        (nanos / 1e3, "µs")
    } else if nanos < 1e9 {
        (nanos / 1e6, "ms")
    } else {
        (nanos / 1e9, "s")
    };
    let decimals = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{value:.decimals$} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A scratch directory under the system temp dir, removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    /// Writes one fake criterion result as criterion lays it out.
    fn fake(
        root: &Path,
        group: &str,
        function: &str,
        value: Option<&str>,
        slope: Option<f64>,
        mean: f64,
    ) {
        let mut dir = root.join(group.replace('/', "_")).join(function);
        if let Some(v) = value {
            dir = dir.join(v);
        }
        let new = dir.join("new");
        fs::create_dir_all(&new).unwrap();
        let benchmark = serde_json::json!({
            "group_id": group, "function_id": function, "value_str": value,
            "throughput": null, "full_id": "", "directory_name": "", "title": ""
        });
        let estimate = |x: f64| {
            serde_json::json!({
                "confidence_interval": {"confidence_level": 0.95, "lower_bound": x * 0.9, "upper_bound": x * 1.1},
                "point_estimate": x, "standard_error": 1.0
            })
        };
        let estimates = serde_json::json!({
            "mean": estimate(mean), "median": estimate(mean * 0.98),
            "median_abs_dev": estimate(1.0), "std_dev": estimate(2.0),
            "slope": slope.map(estimate),
        });
        fs::write(new.join("benchmark.json"), benchmark.to_string()).unwrap();
        fs::write(new.join("estimates.json"), estimates.to_string()).unwrap();
        // criterion also keeps the previous run and a report; neither may be read.
        fs::create_dir_all(dir.join("base")).unwrap();
        fs::write(dir.join("base").join("estimates.json"), "{}").unwrap();
        fs::create_dir_all(dir.join("report")).unwrap();
    }

    #[test]
    fn builds_one_table_with_ratios_from_a_criterion_dir() {
        let scratch = Scratch::new("bench-table");
        let root = &scratch.0;
        fake(root, "parse/typical", "mcp-lang", None, Some(50.0), 52.0);
        fake(
            root,
            "parse/typical",
            "accept-language",
            None,
            Some(400.0),
            410.0,
        );
        fake(root, "parse/typical", "fluent-langneg", None, None, 1234.5);
        fake(root, "parse/64KiB", "mcp-lang", None, None, 2.5e6);
        fake(root, "parse/64KiB", "accept-language", None, None, 3.0e7);
        fake(root, "negotiate", "mcp-lang", Some("20"), Some(80.0), 81.0);
        fake(
            root,
            "negotiate",
            "fluent-langneg",
            Some("20"),
            Some(1200.0),
            1210.0,
        );
        fs::create_dir_all(root.join("report")).unwrap();

        let results = read_criterion_dir(root, None).unwrap();
        assert_eq!(results.len(), 7);
        let table = markdown_table(&results);
        let expected = "\
| operation | ours (mcp-lang) | accept-language | accept-language / ours | fluent-langneg | fluent-langneg / ours |
|---|---:|---:|---:|---:|---:|
| negotiate/20 | 80.0 ns | — | — | 1.20 µs | 15.0× |
| parse/64KiB | 2.50 ms | 30.0 ms | 12.0× | — | — |
| parse/typical | 50.0 ns | 400 ns | 8.0× | 1.23 µs | 24.7× |
";
        assert_eq!(table, expected);
    }

    #[test]
    fn only_results_of_this_run_are_read() {
        let scratch = Scratch::new("bench-since");
        fake(&scratch.0, "parse/typical", "mcp-lang", None, None, 10.0);
        let later = SystemTime::now() + Duration::from_secs(3600);
        assert!(
            read_criterion_dir(&scratch.0, Some(later))
                .unwrap()
                .is_empty()
        );
        assert_eq!(read_criterion_dir(&scratch.0, None).unwrap().len(), 1);
    }

    #[test]
    fn a_row_without_ours_has_no_ratio() {
        let results = [Measurement {
            operation: "alloc".into(),
            implementation: "peer".into(),
            nanos: 5.0,
        }];
        assert_eq!(
            markdown_table(&results),
            "| operation | ours (mcp-lang) | peer | peer / ours |\n|---|---:|---:|---:|\n| alloc | — | 5.00 ns | — |\n"
        );
    }

    #[test]
    fn times_use_three_significant_digits() {
        assert_eq!(format_time(0.5), "0.50 ns");
        assert_eq!(format_time(999.0), "999 ns");
        assert_eq!(format_time(1_000.0), "1.00 µs");
        assert_eq!(format_time(45_678.0), "45.7 µs");
        assert_eq!(format_time(2.5e9), "2.50 s");
    }

    #[test]
    fn a_missing_dir_reads_as_no_results() {
        let missing = std::env::temp_dir().join("xtask-no-such-criterion-dir");
        assert!(read_criterion_dir(&missing, None).unwrap().is_empty());
    }
}
