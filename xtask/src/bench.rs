//! `cargo xtask bench`: ours beside every peer, in two build profiles, in time and in
//! instructions, then one markdown table.
//!
//! The benchmarks follow one naming convention (see `benches/src/lib.rs`): the criterion
//! *group* is the operation and its input (`parse/typical`), the *function* is the
//! implementation: `mcp-lang` for ours, `mcp-lang-SOMETHING` for another way of ours to do
//! the same (it gets a row of its own), the peer crate's name otherwise. A parameterised
//! benchmark's value (`BenchmarkId::new("mcp-lang", 20)`) joins the operation
//! (`negotiate/20`).
//!
//! Each profile (`bench`, the workspace's, and `bench-lto`, one codegen unit and fat LTO,
//! the release build many users make) is measured in turn:
//!
//! - **time**: one criterion run; the figures are read back from criterion's own files
//!   (`target/criterion/**/new/`): `benchmark.json` names the benchmark, `estimates.json`
//!   holds the estimates. The time shown is the one criterion prints in the middle of its
//!   `time: [… … …]` line: the slope of the linear regression when criterion sampled
//!   linearly, else the mean. Only files written by this run are read, so a benchmark
//!   removed from the code, or filtered out on the command line, never shows a stale
//!   figure.
//! - **instructions**: every bench executable lists its ids and input sizes with
//!   `--callgrind list` (`benches/src/callgrind.rs`); each id runs `N` times under
//!   `valgrind --tool=callgrind`, collecting only inside `callgrind_loop`, and the total
//!   `Ir` over `N` is the count per call. Unlike time on a shared machine, the count does
//!   not move with the load. `cargo xtask callgrind` uses the same functions for its gate.
//!
//! The table has one row per operation, way of ours and profile; each peer's cell holds its
//! time and count with the ratio peer/ours (above 1 means ours is faster). Above it: the
//! date, the machine and its load; below it: the project's targets, met or not, in both
//! measures.
//!
//! With `--write`, the same block also replaces what the workspace README holds between
//! [`START_MARKER`] and [`END_MARKER`]: that block is the one source of every performance
//! figure the documents quote (`xtask/tests/figures.rs` fails on any other).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::args::Args;
use crate::process::Cmd;
use crate::workspace::Metadata;
use crate::{Result, bail};

pub(crate) const USAGE: &str =
    "  bench [--profile NAME]… [--no-callgrind] [--write] [-- CRITERION_ARGS…]
      Runs the benchmarks of mcp-lang-benches, ours beside the peers, in the `bench` and
      `bench-lto` profiles (or those given with --profile), counts the instructions of every
      operation under valgrind's callgrind (skipped with --no-callgrind), and prints one
      markdown table: per operation and profile, our time and instruction count (per byte
      where the input size is known) and each peer's with the ratio peer/ours, then the
      targets. --write also puts the same block into README.md between
      `<!-- bench:start -->` and `<!-- bench:end -->`, the figures every document quotes.
      Criterion arguments go after `--` (default `--noplot`); a filter such as `-- parse`
      also limits the instruction counts to the ids containing it.";

/// The line of the workspace README after which the generated block starts.
pub(crate) const START_MARKER: &str = "<!-- bench:start -->";

/// The line of the workspace README before which the generated block ends.
pub(crate) const END_MARKER: &str = "<!-- bench:end -->";

/// The benchmarks package.
pub(crate) const PACKAGE: &str = "mcp-lang-benches";

/// The criterion function id of our implementation; `OURS-…` are other ways of ours.
const OURS: &str = "mcp-lang";

/// The profiles measured unless `--profile` says otherwise.
const PROFILES: [&str; 2] = ["bench", "bench-lto"];

/// The project's performance targets: ours at least `factor` times faster than `peer`
/// (`None`: the fastest peer of the row) on `operation`, in every profile, in time and in
/// instructions.
const TARGETS: [(&str, Option<&str>, f64); 3] = [
    ("parse/typical", None, 5.0),
    ("parse/browser-12", None, 5.0),
    (
        "negotiate/typical-20",
        Some("fluent-langneg-filtering"),
        10.0,
    ),
];

/// Criterion options that take a value (so that the value is not taken for a filter).
const VALUED_OPTIONS: [&str; 14] = [
    "--warm-up-time",
    "--measurement-time",
    "--sample-size",
    "--save-baseline",
    "--baseline",
    "--load-baseline",
    "--significance-level",
    "--noise-threshold",
    "--confidence-level",
    "--nresamples",
    "--output-format",
    "--color",
    "--profile-time",
    "--plotting-backend",
];

pub(crate) fn run(mut args: Args) -> Result<()> {
    let mut profiles = args.values("--profile")?;
    let callgrind = !args.flag("--no-callgrind");
    let write = args.flag("--write");
    let mut criterion_args = args.passthrough().to_vec();
    args.finish()?;
    // The README's block is the one source of the documents' figures: only a whole run
    // (every benchmark, both profiles, with instruction counts) may replace it.
    if write
        && (!profiles.is_empty() || !callgrind || !criterion_filters(&criterion_args).is_empty())
    {
        bail!("--write writes the whole table: no --profile, --no-callgrind or filter with it");
    }
    if profiles.is_empty() {
        profiles = PROFILES.iter().map(|p| (*p).to_owned()).collect();
    }
    if !criterion_args.iter().any(|a| a == "--noplot") {
        criterion_args.push("--noplot".to_owned());
    }
    let filters = criterion_filters(&criterion_args);
    let metadata = Metadata::load()?;
    let Some(package) = metadata.packages.iter().find(|p| p.name == PACKAGE) else {
        bail!("no package {PACKAGE} in the workspace");
    };
    let valgrind = callgrind && valgrind_available();
    if callgrind && !valgrind {
        if write {
            bail!("--write needs valgrind: the table written must have its instruction counts");
        }
        eprintln!("xtask bench: valgrind not found; the table has no instruction counts");
    }
    let started = Machine::now();
    let mut results = Vec::new();
    for profile in &profiles {
        // File times have coarse resolution on some file systems: allow a little slack.
        let since = SystemTime::now() - Duration::from_secs(2);
        // Only the [[bench]] targets: the package's library would run as a libtest
        // harness, which rejects criterion's arguments.
        let mut cmd = Cmd::cargo().args(["bench", "-p", PACKAGE, "--profile", profile]);
        for bench in &package.benches {
            cmd = cmd.args(["--bench", bench]);
        }
        cmd.arg("--").args(&criterion_args).run()?;
        let timed = read_criterion_dir(&metadata.target_dir.join("criterion"), Some(since))?;
        results.extend(timed.into_iter().map(|m| Measurement {
            profile: profile.clone(),
            ..m
        }));
        if valgrind {
            let scratch = metadata.target_dir.join("xtask-callgrind");
            fs::create_dir_all(&scratch)?;
            for exe in bench_executables(profile, &package.benches)? {
                results.extend(count_instructions(&exe, profile, &filters, &scratch)?);
            }
        }
    }
    if results.is_empty() {
        bail!("the run measured nothing (is a filter excluding everything?)");
    }
    let ended = Machine::now();
    let block = format!(
        "{}\n\n{}\n{}{}",
        started.describe(&ended, &profiles),
        markdown_table(&results, &profiles),
        targets_report(&results, &profiles),
        budgets_report(&results)
    );
    println!("\n{block}");
    if write {
        let readme = crate::workspace::root().join("README.md");
        let text = fs::read_to_string(&readme)?;
        let spliced = splice(&text, &block).map_err(|e| format!("{}: {e}", readme.display()))?;
        fs::write(&readme, spliced)?;
        eprintln!(
            "xtask bench: the table is written into {}",
            readme.display()
        );
    }
    Ok(())
}

/// The HTTP layer's budgets (decision X10) on this run's `bench` counts, the table that
/// `cargo xtask callgrind` checks; empty when the run counted no instructions there.
fn budgets_report(results: &[Measurement]) -> String {
    let counts: std::collections::BTreeMap<String, f64> = results
        .iter()
        .filter(|m| m.profile == "bench")
        .filter_map(|m| {
            let id = format!("{}/{}", m.operation, m.implementation);
            Some((id, m.instructions?))
        })
        .collect();
    if counts.is_empty() {
        return String::new();
    }
    format!(
        "\nBudgets of the HTTP layer per request, instructions in the `bench` profile (decision X10; `cargo xtask callgrind` fails over them):\n\n{}",
        crate::callgrind::budgets_table(&counts)
    )
}

/// `document` with what lies between the [`START_MARKER`] line and the [`END_MARKER`]
/// line replaced by `block` (the markers kept, each on its own line). An error when a
/// marker is missing, appears twice, or the end comes before the start.
pub(crate) fn splice(document: &str, block: &str) -> Result<String, String> {
    let find = |marker: &str| -> Result<usize, String> {
        let mut found = document.match_indices(marker).map(|(at, _)| at);
        match (found.next(), found.next()) {
            (Some(at), None) => Ok(at),
            (None, _) => Err(format!("no `{marker}` marker")),
            (Some(_), Some(_)) => Err(format!("the `{marker}` marker appears twice")),
        }
    };
    let start = find(START_MARKER)? + START_MARKER.len();
    let end = find(END_MARKER)?;
    if end < start {
        return Err(format!("`{END_MARKER}` comes before `{START_MARKER}`"));
    }
    let mut out = String::with_capacity(document.len() + block.len());
    out.push_str(&document[..start]);
    out.push('\n');
    out.push_str(block);
    if !block.is_empty() && !block.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&document[end..]);
    Ok(out)
}

/// One figure of one benchmark in one profile: a time, an instruction count, or both.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Measurement {
    /// Group, plus `/value` for a parameterised benchmark: the table's row.
    pub(crate) operation: String,
    /// Function id: ours, another way of ours, or a peer.
    pub(crate) implementation: String,
    /// The cargo profile it was built with.
    pub(crate) profile: String,
    /// Time per iteration, in nanoseconds.
    pub(crate) nanos: Option<f64>,
    /// Instructions per call.
    pub(crate) instructions: Option<f64>,
    /// The size of the input in bytes, when the benchmark says.
    pub(crate) bytes: Option<u64>,
}

/// Reads every `new/benchmark.json` + `new/estimates.json` pair under `dir` whose estimates
/// were written at or after `since` (all of them when `since` is `None`). The profile is
/// left empty for the caller to fill in.
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
    let bytes = benchmark["throughput"]["Bytes"].as_u64();
    Ok(Some(Measurement {
        operation,
        implementation: implementation.to_owned(),
        profile: String::new(),
        nanos: Some(nanos),
        instructions: None,
        bytes,
    }))
}

fn read_json(path: &Path) -> Result<Value> {
    let text = fs::read_to_string(path)?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// The filters among criterion's arguments: the arguments that are neither options nor
/// the value of one, nor numbers.
pub(crate) fn criterion_filters(args: &[String]) -> Vec<String> {
    let mut filters = Vec::new();
    let mut valued = false;
    for arg in args {
        if valued {
            valued = false;
        } else if arg.starts_with('-') {
            valued = VALUED_OPTIONS.contains(&arg.as_str());
        } else if arg.parse::<f64>().is_err() {
            filters.push(arg.clone());
        }
    }
    filters
}

fn valgrind_available() -> bool {
    tool_version("valgrind").is_some()
}

/// A bench executable of a profile.
pub(crate) struct Executable {
    pub(crate) path: PathBuf,
}

/// The executables of `benches` built with `profile` (building them if needed), from
/// cargo's JSON messages.
pub(crate) fn bench_executables(profile: &str, benches: &[String]) -> Result<Vec<Executable>> {
    let mut cmd = Cmd::cargo().args([
        "bench",
        "-p",
        PACKAGE,
        "--profile",
        profile,
        "--no-run",
        "--message-format=json",
    ]);
    for bench in benches {
        cmd = cmd.args(["--bench", bench]);
    }
    Ok(executables_from_messages(&cmd.read_stdout()?))
}

/// The bench executables named in cargo's `--message-format=json` output.
fn executables_from_messages(messages: &str) -> Vec<Executable> {
    messages
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .filter(|m| {
            m["target"]["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "bench"))
        })
        .filter_map(|m| {
            Some(Executable {
                path: PathBuf::from(m["executable"].as_str()?),
            })
        })
        .collect()
}

/// How many calls to count for an input of `bytes`: enough that the loop's own
/// instructions vanish, few for the large inputs that valgrind runs slowly.
pub(crate) fn iterations_for(bytes: Option<u64>) -> u64 {
    match bytes {
        Some(b) if b > 0 => (2_000_000 / b).clamp(2, 1000),
        _ => 1000,
    }
}

/// Counts the instructions of every id of `exe` that the filters keep.
fn count_instructions(
    exe: &Executable,
    profile: &str,
    filters: &[String],
    scratch: &Path,
) -> Result<Vec<Measurement>> {
    let mut found = Vec::new();
    for (id, bytes) in list_ids(exe)? {
        if !filters.is_empty() && !filters.iter().any(|f| id.contains(f.as_str())) {
            continue;
        }
        let per_call = count_one(exe, &id, iterations_for(bytes), scratch)?;
        let (operation, implementation) = split_id(&id);
        eprintln!("callgrind {profile} {id}: {per_call:.0} instructions per call");
        found.push(Measurement {
            operation: operation.to_owned(),
            implementation: implementation.to_owned(),
            profile: profile.to_owned(),
            nanos: None,
            instructions: Some(per_call),
            bytes,
        });
    }
    Ok(found)
}

/// The ids `exe` offers, each with the size of its input (`--callgrind list`; every
/// bench executable of the package answers it, see `benches/src/callgrind.rs`).
pub(crate) fn list_ids(exe: &Executable) -> Result<Vec<(String, Option<u64>)>> {
    let listed = Cmd::new(&exe.path)
        .args(["--callgrind", "list"])
        .read_stdout()?;
    Ok(parse_id_list(&listed))
}

/// Runs one id of `exe` `iterations` times under `valgrind --tool=callgrind`, collecting
/// only inside `callgrind_loop`, and returns the instructions per call (the total `Ir`
/// over `iterations`).
pub(crate) fn count_one(
    exe: &Executable,
    id: &str,
    iterations: u64,
    scratch: &Path,
) -> Result<f64> {
    let out = scratch.join("callgrind.out");
    let _ = fs::remove_file(&out);
    let status = Command::new("valgrind")
        .args(["--tool=callgrind", "--toggle-collect=*callgrind_loop*"])
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&exe.path)
        .args(["--callgrind", id, &iterations.to_string()])
        .output()
        .map_err(|e| format!("cannot start valgrind: {e}"))?;
    if !status.status.success() {
        bail!(
            "valgrind on {} {id} failed ({}): {}",
            exe.path.display(),
            status.status,
            String::from_utf8_lossy(&status.stderr).trim()
        );
    }
    let Some(total) = callgrind_total(&fs::read_to_string(&out)?) else {
        bail!("{}: no `summary:` or `totals:` line", out.display());
    };
    Ok(total as f64 / iterations as f64)
}

/// The lines of `--callgrind list`: an id, then (after a tab) the input size in bytes.
pub(crate) fn parse_id_list(listed: &str) -> Vec<(String, Option<u64>)> {
    listed
        .lines()
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let id = fields.next()?.trim();
            (!id.is_empty()).then(|| {
                let bytes = fields.next().and_then(|b| b.trim().parse().ok());
                (id.to_owned(), bytes)
            })
        })
        .collect()
}

/// The total `Ir` of a callgrind output file.
pub(crate) fn callgrind_total(out: &str) -> Option<u64> {
    out.lines()
        .find_map(|l| {
            l.strip_prefix("summary:")
                .or_else(|| l.strip_prefix("totals:"))
        })
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// `group/…/function` into the operation (`group/…`) and the implementation.
pub(crate) fn split_id(id: &str) -> (&str, &str) {
    id.rsplit_once('/').unwrap_or((id, ""))
}

/// Whether an implementation is ours: `mcp-lang`, or another way of ours (`mcp-lang-…`).
fn is_ours(implementation: &str) -> bool {
    implementation == OURS
        || implementation
            .strip_prefix(OURS)
            .is_some_and(|rest| rest.starts_with('-'))
}

/// Time and instructions of one implementation on one row.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
struct Figures {
    nanos: Option<f64>,
    instructions: Option<f64>,
}

/// The measurements by (operation, profile) then implementation, and the input sizes by
/// operation.
type Grid<'a> = BTreeMap<(&'a str, &'a str), BTreeMap<&'a str, Figures>>;

fn grid(results: &[Measurement]) -> (Grid<'_>, BTreeMap<&str, u64>) {
    let mut rows: Grid<'_> = BTreeMap::new();
    let mut sizes = BTreeMap::new();
    for m in results {
        let cell = rows
            .entry((&m.operation, &m.profile))
            .or_default()
            .entry(&m.implementation)
            .or_default();
        cell.nanos = m.nanos.or(cell.nanos);
        cell.instructions = m.instructions.or(cell.instructions);
        if let Some(b) = m.bytes {
            sizes.insert(m.operation.as_str(), b);
        }
    }
    (rows, sizes)
}

/// The table: per operation, way of ours and profile (in `profiles` order), our time,
/// instructions and instructions per byte, then each peer's time and instructions with the
/// ratio peer/ours. Peers are the other implementations, in name order; a missing figure
/// is a dash.
pub(crate) fn markdown_table(results: &[Measurement], profiles: &[String]) -> String {
    let (rows, sizes) = grid(results);
    let peers: BTreeSet<&str> = results
        .iter()
        .map(|m| m.implementation.as_str())
        .filter(|i| !is_ours(i))
        .collect();
    let operations: BTreeSet<&str> = results.iter().map(|m| m.operation.as_str()).collect();
    let mut out = String::from("| operation | profile | ours | instructions | per byte |");
    for peer in &peers {
        let _ = write!(out, " {peer} |");
    }
    out.push_str("\n|---|---|---:|---:|---:|");
    for _ in &peers {
        out.push_str("---:|");
    }
    out.push('\n');
    for operation in operations {
        let ways: BTreeSet<&str> = rows
            .iter()
            .filter(|((op, _), _)| *op == operation)
            .flat_map(|(_, cells)| cells.keys().copied().filter(|i| is_ours(i)))
            .collect();
        // Ours first, then the other ways of ours; a row of peers alone if there is none.
        let mut ways: Vec<Option<&str>> = ways.into_iter().map(Some).collect();
        ways.sort_by_key(|w| w.is_some_and(|w| w != OURS));
        if ways.is_empty() {
            ways.push(None);
        }
        for way in ways {
            for profile in profiles {
                let Some(cells) = rows.get(&(operation, profile.as_str())) else {
                    continue;
                };
                // A way of ours not measured in this profile gets no row.
                let ours = match way {
                    Some(w) => match cells.get(w) {
                        Some(figures) => *figures,
                        None => continue,
                    },
                    None => Figures::default(),
                };
                let label = match way {
                    Some(w) if w != OURS => format!("{operation} ({w})"),
                    _ => operation.to_owned(),
                };
                let per_byte = match (ours.instructions, sizes.get(operation)) {
                    (Some(ir), Some(&b)) if b > 0 => format!("{:.1}", ir / b as f64),
                    _ => "—".to_owned(),
                };
                let _ = write!(
                    out,
                    "| {label} | {profile} | {} | {} | {per_byte} |",
                    ours.nanos.map_or("—".into(), format_time),
                    ours.instructions.map_or("—".into(), format_count),
                );
                // A way of ours that is only counted, never timed, measures a part of the
                // job (`…-negotiate-only`): no peer does the same, so no ratio.
                let partial = way.is_some_and(|w| w != OURS) && ours.nanos.is_none();
                for peer in &peers {
                    let theirs = cells.get(peer).copied().unwrap_or_default();
                    let cell = if partial {
                        "—".to_owned()
                    } else {
                        peer_cell(ours, theirs)
                    };
                    let _ = write!(out, " {cell} |");
                }
                out.push('\n');
            }
        }
    }
    out
}

/// A peer's time and instructions, each with the ratio peer/ours.
fn peer_cell(ours: Figures, theirs: Figures) -> String {
    let part =
        |theirs: Option<f64>, ours: Option<f64>, show: fn(f64) -> String| match (theirs, ours) {
            (Some(t), Some(o)) if o > 0.0 => Some(format!("{} ({:.1}×)", show(t), t / o)),
            (Some(t), _) => Some(show(t)),
            _ => None,
        };
    let parts: Vec<String> = [
        part(theirs.nanos, ours.nanos, format_time),
        part(theirs.instructions, ours.instructions, format_count),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        "—".to_owned()
    } else {
        parts.join(" · ")
    }
}

/// Whether each target is met in each profile, in time and in instructions.
pub(crate) fn targets_report(results: &[Measurement], profiles: &[String]) -> String {
    let (rows, _) = grid(results);
    let mut out = String::from("Targets (ours = `mcp-lang`; a ratio is peer / ours):\n");
    for (operation, peer, factor) in TARGETS {
        for profile in profiles {
            let Some(cells) = rows.get(&(operation, profile.as_str())) else {
                continue;
            };
            let ours = cells.get(OURS).copied().unwrap_or_default();
            let against = |pick: fn(&Figures) -> Option<f64>| -> Option<(String, f64)> {
                let theirs = cells
                    .iter()
                    .filter(|(i, _)| !is_ours(i) && peer.is_none_or(|p| p == **i))
                    .filter_map(|(i, f)| Some((*i, pick(f)?)))
                    .min_by(|a, b| a.1.total_cmp(&b.1))?;
                let o = pick(&ours)?;
                (o > 0.0).then(|| (theirs.0.to_owned(), theirs.1 / o))
            };
            let verdict = |name: &str, r: Option<(String, f64)>| match r {
                Some((p, ratio)) => format!(
                    "{name} {ratio:.1}× ({p}) {}",
                    if ratio >= factor { "met" } else { "NOT MET" }
                ),
                None => format!("{name} not measured"),
            };
            let _ = writeln!(
                out,
                "- {operation}, {profile}, at least {factor}× {}: {}; {}",
                peer.unwrap_or("the fastest peer"),
                verdict("time", against(|f| f.nanos)),
                verdict("instructions", against(|f| f.instructions)),
            );
        }
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

/// An instruction count, rounded, with thousands separated by commas.
pub(crate) fn format_count(count: f64) -> String {
    let digits = format!("{:.0}", count.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The date, the machine and its load, for the record above the table.
struct Machine {
    unix: u64,
    load: String,
}

impl Machine {
    fn now() -> Machine {
        let unix = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let load = fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().map(str::to_owned))
            .unwrap_or_else(|| "unknown".to_owned());
        Machine { unix, load }
    }

    /// One paragraph: when, on what, how loaded, with which compiler and profiles.
    fn describe(&self, end: &Machine, profiles: &[String]) -> String {
        let cpu = cpu_model();
        let cores = std::thread::available_parallelism().map_or(0, usize::from);
        let rustc = tool_version("rustc").unwrap_or_else(|| "rustc".to_owned());
        format!(
            "Measured {} to {} UTC on {cores} cores of {cpu}, load average {} at the start and \
             {} at the end, {rustc}, profiles {}.",
            utc(self.unix),
            utc(end.unix).split(' ').nth(1).unwrap_or_default(),
            self.load,
            end.load,
            profiles
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(" and "),
        )
    }
}

/// The first line of `PROGRAM --version` (`rustc 1.95.0 (59807616e 2026-04-14)`), run
/// from the workspace root so that a `rust-toolchain` file or `cargo +TOOLCHAIN` (through
/// `RUSTUP_TOOLCHAIN`) applies as it does to cargo.
pub(crate) fn tool_version(program: &str) -> Option<String> {
    Command::new(program)
        .arg("--version")
        .current_dir(crate::workspace::root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|v| v.lines().next().map(|l| l.trim().to_owned()))
}

/// The CPU's model name, from `/proc/cpuinfo`.
pub(crate) fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

/// `YYYY-MM-DD HH:MM` for seconds since the Unix epoch (UTC; the civil-from-days
/// algorithm of the proleptic Gregorian calendar).
pub(crate) fn utc(unix: u64) -> String {
    let days = i64::try_from(unix / 86_400).unwrap_or(0);
    let secs = unix % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        secs / 3_600,
        secs % 3_600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn in_profile(results: Vec<Measurement>, profile: &str) -> Vec<Measurement> {
        results
            .into_iter()
            .map(|m| Measurement {
                profile: profile.to_owned(),
                ..m
            })
            .collect()
    }

    fn counted(id: &str, profile: &str, instructions: f64, bytes: Option<u64>) -> Measurement {
        let (operation, implementation) = split_id(id);
        Measurement {
            operation: operation.to_owned(),
            implementation: implementation.to_owned(),
            profile: profile.to_owned(),
            nanos: None,
            instructions: Some(instructions),
            bytes,
        }
    }

    fn profiles() -> Vec<String> {
        vec!["bench".to_owned(), "bench-lto".to_owned()]
    }

    #[test]
    fn builds_one_table_of_both_profiles_with_ratios() {
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
        fake(root, "parse/64KiB", "mcp-lang-two-pass", None, None, 5.0e6);
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

        let timed = read_criterion_dir(root, None).unwrap();
        assert_eq!(timed.len(), 8);
        let mut results = in_profile(timed.clone(), "bench");
        results.extend(in_profile(timed, "bench-lto"));
        results.push(counted("parse/typical/mcp-lang", "bench", 300.0, Some(23)));
        results.push(counted(
            "parse/typical/fluent-langneg",
            "bench",
            2100.0,
            Some(23),
        ));
        results.push(counted(
            "parse/64KiB/mcp-lang",
            "bench",
            524_288.0,
            Some(65_536),
        ));
        results.push(counted(
            "parse/typical/mcp-lang-scan-only",
            "bench",
            200.0,
            Some(23),
        ));
        let table = markdown_table(&results, &profiles());
        let expected = "\
| operation | profile | ours | instructions | per byte | accept-language | fluent-langneg |
|---|---|---:|---:|---:|---:|---:|
| negotiate/20 | bench | 80.0 ns | — | — | — | 1.20 µs (15.0×) |
| negotiate/20 | bench-lto | 80.0 ns | — | — | — | 1.20 µs (15.0×) |
| parse/64KiB | bench | 2.50 ms | 524,288 | 8.0 | 30.0 ms (12.0×) | — |
| parse/64KiB | bench-lto | 2.50 ms | — | — | 30.0 ms (12.0×) | — |
| parse/64KiB (mcp-lang-two-pass) | bench | 5.00 ms | — | — | 30.0 ms (6.0×) | — |
| parse/64KiB (mcp-lang-two-pass) | bench-lto | 5.00 ms | — | — | 30.0 ms (6.0×) | — |
| parse/typical | bench | 50.0 ns | 300 | 13.0 | 400 ns (8.0×) | 1.23 µs (24.7×) · 2,100 (7.0×) |
| parse/typical | bench-lto | 50.0 ns | — | — | 400 ns (8.0×) | 1.23 µs (24.7×) |
| parse/typical (mcp-lang-scan-only) | bench | — | 200 | 8.7 | — | — |
";
        assert_eq!(table, expected);
    }

    #[test]
    fn the_targets_are_judged_per_profile_in_time_and_instructions() {
        let mut results = Vec::new();
        for (profile, ours, peer) in [("bench", 300.0, 2100.0), ("bench-lto", 450.0, 1800.0)] {
            results.push(counted("parse/typical/mcp-lang", profile, ours, Some(23)));
            results.push(counted(
                "parse/typical/fluent-langneg",
                profile,
                peer,
                Some(23),
            ));
            results.push(counted(
                "parse/typical/accept-language",
                profile,
                5000.0,
                Some(23),
            ));
        }
        let report = targets_report(&results, &profiles());
        assert!(
            report.contains("parse/typical, bench, at least 5× the fastest peer: time not measured; instructions 7.0× (fluent-langneg) met"),
            "{report}"
        );
        assert!(
            report.contains("parse/typical, bench-lto, at least 5× the fastest peer: time not measured; instructions 4.0× (fluent-langneg) NOT MET"),
            "{report}"
        );
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
            profile: "bench".into(),
            nanos: Some(5.0),
            instructions: None,
            bytes: None,
        }];
        assert_eq!(
            markdown_table(&results, &["bench".to_owned()]),
            "| operation | profile | ours | instructions | per byte | peer |\n|---|---|---:|---:|---:|---:|\n| alloc | bench | — | — | — | 5.00 ns |\n"
        );
    }

    #[test]
    fn numbers_are_readable() {
        assert_eq!(format_time(0.5), "0.50 ns");
        assert_eq!(format_time(999.0), "999 ns");
        assert_eq!(format_time(1_000.0), "1.00 µs");
        assert_eq!(format_time(45_678.0), "45.7 µs");
        assert_eq!(format_time(2.5e9), "2.50 s");
        assert_eq!(format_count(0.4), "0");
        assert_eq!(format_count(999.6), "1,000");
        assert_eq!(format_count(1_551_736.2), "1,551,736");
    }

    #[test]
    fn criterion_filters_are_told_from_options_and_their_values() {
        let args: Vec<String> = "--warm-up-time 1 parse --noplot --sample-size 10 negotiate 3"
            .split(' ')
            .map(str::to_owned)
            .collect();
        assert_eq!(criterion_filters(&args), ["parse", "negotiate"]);
    }

    #[test]
    fn ids_sizes_and_counts_are_read() {
        assert_eq!(
            parse_id_list("parse/typical/mcp-lang\t23\nnegotiate/x/mcp-lang\n\n"),
            [
                ("parse/typical/mcp-lang".to_owned(), Some(23)),
                ("negotiate/x/mcp-lang".to_owned(), None)
            ]
        );
        let out = "events: Ir\nfn=(1) x\n0x1 5\nsummary: 123456\ntotals: 123456\n";
        assert_eq!(callgrind_total(out), Some(123_456));
        assert_eq!(callgrind_total("events: Ir\n"), None);
        assert_eq!(iterations_for(Some(23)), 1000);
        assert_eq!(iterations_for(Some(65_536)), 30);
        assert_eq!(iterations_for(Some(4 << 20)), 2);
        assert_eq!(iterations_for(None), 1000);
        assert!(is_ours("mcp-lang") && is_ours("mcp-lang-two-pass"));
        assert!(!is_ours("mcp-language") && !is_ours("fluent-langneg"));
    }

    #[test]
    fn cargo_messages_name_the_bench_executables() {
        let messages = r#"{"reason":"compiler-artifact","target":{"kind":["lib"],"name":"x","src_path":"/s/lib.rs"},"executable":null}
{"reason":"compiler-artifact","target":{"kind":["bench"],"name":"grammar","src_path":"/s/benches/grammar.rs"},"executable":"/t/deps/grammar-1"}
{"reason":"build-finished","success":true}"#;
        let found = executables_from_messages(messages);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, PathBuf::from("/t/deps/grammar-1"));
    }

    #[test]
    fn the_block_is_spliced_between_the_markers() {
        let document = "# R\n\nText.\n\n<!-- bench:start -->\nMeasured then.\n\n| old |\n<!-- bench:end -->\n\nAfter.\n";
        let spliced = splice(document, "Measured now.\n\n| new |\n").unwrap();
        assert_eq!(
            spliced,
            "# R\n\nText.\n\n<!-- bench:start -->\nMeasured now.\n\n| new |\n<!-- bench:end -->\n\nAfter.\n"
        );
        assert_eq!(
            splice(&spliced, "Measured now.\n\n| new |").unwrap(),
            spliced,
            "a block without its last newline gets one; splicing again changes nothing"
        );
        let empty = splice("<!-- bench:start --><!-- bench:end -->", "").unwrap();
        assert_eq!(empty, "<!-- bench:start -->\n<!-- bench:end -->");
    }

    #[test]
    fn missing_repeated_or_reversed_markers_are_errors() {
        let block = "| new |\n";
        assert_eq!(
            splice("text\n<!-- bench:end -->\n", block).unwrap_err(),
            "no `<!-- bench:start -->` marker"
        );
        assert_eq!(
            splice("<!-- bench:start -->\ntext\n", block).unwrap_err(),
            "no `<!-- bench:end -->` marker"
        );
        assert_eq!(
            splice("<!-- bench:end -->\nold\n<!-- bench:start -->\n", block).unwrap_err(),
            "`<!-- bench:end -->` comes before `<!-- bench:start -->`"
        );
        assert_eq!(
            splice(
                "<!-- bench:start -->\n<!-- bench:end -->\n<!-- bench:start -->\n",
                block
            )
            .unwrap_err(),
            "the `<!-- bench:start -->` marker appears twice"
        );
    }

    #[test]
    fn dates_are_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00");
        assert_eq!(utc(1_798_761_599), "2026-12-31 23:59");
    }

    #[test]
    fn the_block_shows_the_budgets_on_the_bench_profiles_counts() {
        let results = [
            counted("http-layer/1k-body/mcp-lang", "bench", 11187.0, None),
            counted("http-layer/1k-body/no-layer", "bench", 2978.0, None),
            counted(
                "meta-extract/layer-request-1k/mcp-lang",
                "bench",
                3542.0,
                None,
            ),
            counted(
                "meta-extract/layer-request-1k/serde_json-typed",
                "bench",
                6721.0,
                None,
            ),
            counted(
                "meta-extract/layer-response/mcp-lang",
                "bench",
                1612.0,
                None,
            ),
            counted(
                "meta-extract/layer-response/serde_json-typed",
                "bench",
                3270.0,
                None,
            ),
            // Another profile's count is not the budgets' business.
            counted("http-layer/1k-body/mcp-lang", "bench-lto", 99999.0, None),
        ];
        let report = budgets_report(&results);
        assert!(
            report.contains("| http-layer/1k-body/own-work | 3,055 | at most 3,500 | ok |"),
            "{report}"
        );
        assert!(report.contains("3,542 (52.7%) | at most 55%"), "{report}");
        // Counted nothing in `bench`: no budgets shown.
        assert_eq!(budgets_report(&results[6..]), "");
    }
}
