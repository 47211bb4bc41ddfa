//! Fuzzing with cargo-fuzz: the short smoke run of `cargo xtask ci` and the long runs of
//! `cargo xtask fuzz`.
//!
//! - Targets are the `[[bin]]` targets of `fuzz/Cargo.toml`, as `cargo metadata` reads them;
//!   a `fuzz/fuzz_targets/*.rs` file that none declares is an error (cargo-fuzz would
//!   silently never build it).
//! - cargo-fuzz is a pinned [`Tool`], installed when missing or another version.
//! - Toolchain: `cargo +nightly fuzz` when a nightly toolchain answers, else the stable
//!   toolchain with `RUSTC_BOOTSTRAP=1` (cargo-fuzz passes `-Z` flags to rustc). Both work
//!   with and without AddressSanitizer here (stable ships the sanitizer runtimes too).
//! - Sanitizer: none for the smoke run, AddressSanitizer for long runs. Our crates forbid
//!   `unsafe`, so ASan's memory checks only guard the dependencies' unsafe code; it roughly
//!   halves the executions per second, which a 20-second smoke run cannot spare. Long runs
//!   pay for it because ASan's allocator also turns a single oversized allocation into a
//!   reported crash (`-malloc_limit_mb`), which matters for "no unbounded allocation".
//!   Every build has debug assertions and overflow checks on (`-a`).
//! - Corpora: each run writes new inputs to a scratch corpus under `fuzz/target/xtask/`
//!   (first directory given to libFuzzer), seeded with the current `testdata/` cases, and
//!   reads `fuzz/corpus/<target>/` as a second, read-only directory. What git holds
//!   there (no seeds: they are generated, see `corpus.rs`) only changes through
//!   `cargo xtask fuzz --merge`, which adds just the inputs that reach coverage beyond the
//!   seeds and the corpus.
//! - CPU time per target is measured around each run (see [`Cmd::run_measured`]); runs go
//!   in parallel, one per core, with each target's output in its own log.
//! - `--time` is wall time (libFuzzer's `-max_total_time`). On a shared machine a target
//!   then gets less CPU than that, so `--cpu SECS` instead repeats the run on the same
//!   scratch corpus, each round given the CPU time still owed as its wall-time limit,
//!   until the target has used SECS of CPU (rounds stop at the first failure). The table
//!   sums CPU time, wall time and executions over the rounds.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::args::Args;
use crate::corpus;

use crate::process::{Cmd, Measured, secs};
use crate::tools::Tool;
use crate::{Result, bail, workspace};

pub(crate) const USAGE: &str =
    "  fuzz [--time SECS | --cpu SECS] [--jobs N] [--sanitizer address|none]
       [--toolchain nightly|stable] [--merge] [TARGET…]
  fuzz --list [--json]
      The fuzz targets, one per line (or a JSON array, for a CI matrix).
      Long fuzz runs (default 600 s per target, every target in fuzz/Cargo.toml), one per
      core, then a table of CPU time, executions, coverage and outcome per target.
      --cpu runs each target until it has used SECS of CPU time (successive runs on the
      same scratch corpus), so a busy machine still gives every target its full budget.
      --merge adds the inputs that reach new coverage to the checked-in fuzz/corpus/.";

/// cargo-fuzz, pinned (installed when `cargo fuzz` is missing or another version, so that
/// CI on a fresh machine builds what was tested here).
pub(crate) const CARGO_FUZZ: Tool = Tool {
    krate: "cargo-fuzz",
    subcommand: "fuzz",
    version: "0.13.2",
};

/// Seconds one input may take before libFuzzer reports it as a hang.
const INPUT_TIMEOUT_SECS: u64 = 10;

/// A fuzz target declared in `fuzz/Cargo.toml`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FuzzTarget {
    /// The `[[bin]]` name (`cargo fuzz run NAME`).
    pub(crate) name: String,
}

/// The fuzz targets: the `[[bin]]` targets `cargo metadata` reads from `fuzz/Cargo.toml`.
pub(crate) fn targets(root: &Path) -> Result<Vec<FuzzTarget>> {
    let fuzz_dir = root.join("fuzz");
    let metadata = workspace::metadata_json(Some(&fuzz_dir.join("Cargo.toml")))?;
    let mut bins = Vec::new();
    let targets = workspace::packages(&metadata).flat_map(|p| workspace::targets_of_kind(p, "bin"));
    for target in targets {
        let (Some(name), Some(path)) = (target["name"].as_str(), target["src_path"].as_str())
        else {
            bail!("cargo metadata: a fuzz target without name or src_path");
        };
        let path =
            fs::canonicalize(path).map_err(|e| format!("fuzz target {name}: {path}: {e}"))?;
        bins.push((name.to_owned(), path));
    }
    let mut undeclared = Vec::new();
    for entry in fs::read_dir(fuzz_dir.join("fuzz_targets"))? {
        let path = fs::canonicalize(entry?.path())?;
        if path.extension().is_some_and(|e| e == "rs") && !bins.iter().any(|(_, p)| *p == path) {
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            undeclared.push(format!("fuzz_targets/{file}"));
        }
    }
    if !undeclared.is_empty() {
        undeclared.sort();
        bail!(
            "fuzz/Cargo.toml has no [[bin]] block for {} (add `[[bin]] name = …, path = …, test = false, doc = false, bench = false`)",
            undeclared.join(", ")
        );
    }
    Ok(bins
        .into_iter()
        .map(|(name, _)| FuzzTarget { name })
        .collect())
}

/// The checked-in corpus of a target.
pub(crate) fn corpus_dir(root: &Path, target: &str) -> PathBuf {
    root.join("fuzz").join("corpus").join(target)
}

/// How the fuzz targets are built and run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Toolchain {
    /// `cargo +nightly fuzz`.
    Nightly,
    /// `RUSTC_BOOTSTRAP=1 cargo fuzz` on the default (stable) toolchain.
    StableBootstrap,
}

impl Toolchain {
    /// Nightly when it is installed and answers, else stable.
    fn detect() -> Toolchain {
        let nightly_works = Cmd::cargo()
            .args(["+nightly", "--version"])
            .succeeds_quietly()
            && Cmd::new("rustc")
                .args(["+nightly", "--version"])
                .succeeds_quietly();
        if nightly_works {
            Toolchain::Nightly
        } else {
            Toolchain::StableBootstrap
        }
    }

    fn from_flag(flag: Option<String>) -> Result<Toolchain> {
        match flag.as_deref() {
            None => Ok(Toolchain::detect()),
            Some("nightly") => Ok(Toolchain::Nightly),
            Some("stable") => Ok(Toolchain::StableBootstrap),
            Some(other) => bail!("--toolchain is `nightly` or `stable`, not `{other}`"),
        }
    }

    /// `cargo [+nightly] fuzz SUBCOMMAND`, with the environment that toolchain needs.
    fn cargo_fuzz(self, subcommand: &str) -> Cmd {
        // A toolchain chosen for xtask itself must not leak into the fuzz build.
        let cmd = Cmd::cargo()
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("CARGO")
            .env_remove("RUSTC");
        let cmd = match self {
            Toolchain::Nightly => cmd.arg("+nightly"),
            Toolchain::StableBootstrap => cmd.env("RUSTC_BOOTSTRAP", "1"),
        };
        cmd.args(["fuzz", subcommand])
    }

    fn describe(self) -> &'static str {
        match self {
            Toolchain::Nightly => "nightly (`cargo +nightly fuzz`)",
            Toolchain::StableBootstrap => "stable with RUSTC_BOOTSTRAP=1",
        }
    }
}

/// Settings of one fuzz session (smoke or long).
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// Wall-time limit of one libFuzzer run, per target.
    pub(crate) seconds: u64,
    /// With `Some`, rerun each target until it has used this much CPU time.
    pub(crate) cpu_budget: Option<Duration>,
    pub(crate) jobs: usize,
    pub(crate) sanitizer: String,
    pub(crate) toolchain: Option<String>,
    /// Keep (and grow) the scratch corpus between sessions instead of starting afresh.
    pub(crate) keep_work_corpus: bool,
    pub(crate) merge: bool,
    /// Target names to run; empty means all.
    pub(crate) only: Vec<String>,
    /// Label for the scratch directories (`smoke`, `long`).
    pub(crate) label: &'static str,
}

impl Plan {
    /// The smoke run of `cargo xtask ci`.
    pub(crate) fn smoke(seconds: u64) -> Plan {
        Plan {
            seconds,
            cpu_budget: None,
            jobs: default_jobs(),
            sanitizer: "none".to_owned(),
            toolchain: None,
            keep_work_corpus: false,
            merge: false,
            only: Vec::new(),
            label: "smoke",
        }
    }
}

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub(crate) fn run(mut args: Args) -> Result<()> {
    if args.flag("--list") {
        let json = args.flag("--json");
        args.finish()?;
        let names: Vec<String> = targets(workspace::root())?
            .into_iter()
            .map(|t| t.name)
            .collect();
        if json {
            println!("{}", serde_json::Value::from(names));
        } else {
            for name in names {
                println!("{name}");
            }
        }
        return Ok(());
    }
    let time = args.number("--time")?;
    let cpu = args.number("--cpu")?;
    if time.is_some() && cpu.is_some() {
        bail!("--time and --cpu exclude each other");
    }
    let plan = Plan {
        seconds: cpu.or(time).unwrap_or(600),
        cpu_budget: cpu.map(Duration::from_secs),
        jobs: args
            .number("--jobs")?
            .map_or_else(default_jobs, |n| n.max(1) as usize),
        sanitizer: args
            .value("--sanitizer")?
            .unwrap_or_else(|| "address".to_owned()),
        toolchain: args.value("--toolchain")?,
        keep_work_corpus: true,
        merge: args.flag("--merge"),
        only: Vec::new(),
        label: "long",
    };
    let plan = Plan {
        only: args.positionals(),
        ..plan
    };
    args.finish()?;
    run_and_report(&plan, "fuzzing")
}

/// Runs `plan`, prints the outcome table, and fails naming every target that failed.
pub(crate) fn run_and_report(plan: &Plan, what: &str) -> Result<()> {
    let outcomes = run_plan(plan)?;
    println!("\n{}", outcome_table(&outcomes));
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.ok())
        .map(|o| o.target.as_str())
        .collect();
    if !failed.is_empty() {
        bail!("{what} failed for {}", failed.join(", "));
    }
    Ok(())
}

/// Installs cargo-fuzz if needed, builds every target once, then runs them; returns one
/// outcome per target (an `Err` only when nothing could run).
pub(crate) fn run_plan(plan: &Plan) -> Result<Vec<Outcome>> {
    let root = workspace::root();
    let mut targets = targets(root)?;
    if !plan.only.is_empty() {
        for name in &plan.only {
            if !targets.iter().any(|t| &t.name == name) {
                bail!("no fuzz target `{name}` in fuzz/Cargo.toml");
            }
        }
        targets.retain(|t| plan.only.contains(&t.name));
    }
    if targets.is_empty() {
        println!("fuzz/Cargo.toml declares no fuzz target yet: nothing to run");
        return Ok(Vec::new());
    }
    CARGO_FUZZ.ensure()?;
    let toolchain = Toolchain::from_flag(plan.toolchain.clone())?;
    let sanitizer = match plan.sanitizer.as_str() {
        s @ ("none" | "address") => s,
        other => bail!("--sanitizer is `address` or `none`, not `{other}`"),
    };
    println!(
        "fuzz: {} target(s), {} s {} each, {} at a time, sanitizer {sanitizer}, toolchain {}",
        targets.len(),
        plan.seconds,
        if plan.cpu_budget.is_some() {
            "of CPU"
        } else {
            "wall"
        },
        plan.jobs.min(targets.len()),
        toolchain.describe()
    );
    // One build of every target, with cargo's output on the terminal.
    toolchain
        .cargo_fuzz("build")
        .args(["--sanitizer", sanitizer, "--debug-assertions"])
        .run()?;

    let scratch = root
        .join("fuzz")
        .join("target")
        .join("xtask")
        .join(plan.label);
    let mut runs = VecDeque::new();
    for target in &targets {
        let work = scratch.join("corpus").join(&target.name);
        if !plan.keep_work_corpus && work.exists() {
            fs::remove_dir_all(&work)?;
        }
        corpus::write_seeds(&work, &corpus::seeds_from_testdata(target)?)?;
        let checked_in = corpus_dir(root, &target.name);
        let name = target.name.clone();
        let sanitizer = sanitizer.to_owned();
        let command = move |seconds: u64| {
            let mut cmd = toolchain
                .cargo_fuzz("run")
                .args(["--sanitizer", &sanitizer, "--debug-assertions", &name])
                .arg(&work);
            if checked_in.is_dir() {
                cmd = cmd.arg(&checked_in);
            }
            cmd.args([
                "--".to_owned(),
                format!("-max_total_time={seconds}"),
                format!("-timeout={INPUT_TIMEOUT_SECS}"),
                "-print_final_stats=1".to_owned(),
            ])
        };
        let log = scratch.join("logs").join(format!("{}.log", target.name));
        runs.push_back(Run {
            target: target.name.clone(),
            command: Box::new(command),
            log,
        });
    }
    fs::create_dir_all(scratch.join("logs"))?;
    let budget = match plan.cpu_budget {
        Some(cpu) => Budget::Cpu(cpu),
        None => Budget::Wall(plan.seconds),
    };
    let outcomes = run_parallel(runs, plan.jobs, budget)?;

    if plan.merge {
        for target in &targets {
            let work = scratch.join("corpus").join(&target.name);
            let checked_in = corpus_dir(root, &target.name);
            // The seeds first (not tracked by git), so that only inputs reaching
            // coverage beyond them are added.
            corpus::write_seeds(&checked_in, &corpus::seeds_from_testdata(target)?)?;
            let before = count_files(&checked_in);
            toolchain
                .cargo_fuzz("run")
                .args(["--sanitizer", sanitizer, "--debug-assertions", &target.name])
                .arg(&checked_in)
                .arg(&work)
                .args(["--", "-set_cover_merge=1"])
                .run()?;
            println!(
                "{}: merged {} new input(s) into {}",
                target.name,
                count_files(&checked_in).saturating_sub(before),
                checked_in.display()
            );
        }
    }
    Ok(outcomes)
}

fn count_files(dir: &Path) -> usize {
    fs::read_dir(dir).map_or(0, |d| d.count())
}

/// One target's fuzzing: the command for a given wall-time limit, and where its log goes.
struct Run {
    target: String,
    command: Box<dyn Fn(u64) -> Cmd + Send>,
    log: PathBuf,
}

/// How long each target is fuzzed.
#[derive(Debug, Clone, Copy)]
enum Budget {
    /// One run of this many wall-clock seconds.
    Wall(u64),
    /// Runs until this much CPU time is used.
    Cpu(Duration),
}

/// A round never gets less wall time than this, so that libFuzzer's start-up (loading the
/// corpus) does not dominate the last round.
const MIN_ROUND_SECS: u64 = 30;

impl Run {
    /// Runs the target within `budget`, one or more rounds, and sums the rounds.
    fn execute(&self, budget: Budget) -> Result<Outcome> {
        let (first_secs, cpu_goal) = match budget {
            Budget::Wall(secs) => (secs, None),
            Budget::Cpu(cpu) => (cpu.as_secs().max(MIN_ROUND_SECS), Some(cpu)),
        };
        let mut total: Option<Outcome> = None;
        let mut seconds = first_secs;
        for round in 1.. {
            let log = if round == 1 {
                self.log.clone()
            } else {
                self.log.with_extension(format!("round{round}.log"))
            };
            let measured = (self.command)(seconds).run_measured(&log)?;
            let text = fs::read_to_string(&log).unwrap_or_default();
            let outcome = Outcome::from_run(self.target.clone(), &measured, &text, &log);
            let total = match &mut total {
                None => total.insert(outcome),
                Some(sum) => {
                    sum.add_round(outcome);
                    sum
                }
            };
            let (Some(goal), true) = (cpu_goal, total.ok()) else {
                break;
            };
            // Without a CPU reading there is no way to know what is owed: stop.
            let Some(used) = total.cpu else { break };
            if used >= goal {
                break;
            }
            println!(
                "{}: {} of {} CPU so far, round {} for the rest",
                self.target,
                secs(used),
                secs(goal),
                round + 1
            );
            seconds = (goal - used).as_secs().max(MIN_ROUND_SECS);
        }
        total.ok_or_else(|| "a fuzz target ran no round".into())
    }
}

/// Runs the queued targets `jobs` at a time within `budget`, printing a line as each
/// finishes.
fn run_parallel(runs: VecDeque<Run>, jobs: usize, budget: Budget) -> Result<Vec<Outcome>> {
    for run in &runs {
        let first = match budget {
            Budget::Wall(secs) => secs,
            Budget::Cpu(cpu) => cpu.as_secs().max(MIN_ROUND_SECS),
        };
        println!(
            "{}: $ {}  (log: {})",
            run.target,
            (run.command)(first).shown(),
            run.log.display()
        );
    }
    let total = runs.len();
    let queue = Arc::new(Mutex::new(runs));
    let outcomes = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..jobs.min(total))
        .map(|_| {
            let queue = Arc::clone(&queue);
            let outcomes = Arc::clone(&outcomes);
            std::thread::spawn(move || -> Result<()> {
                loop {
                    let next = queue.lock().map_err(|_| "queue poisoned")?.pop_front();
                    let Some(run) = next else {
                        return Ok(());
                    };
                    let outcome = run.execute(budget)?;
                    println!("{}", outcome.one_line());
                    if !outcome.ok() {
                        let log = outcome.log.clone();
                        let text = fs::read_to_string(&log).unwrap_or_default();
                        println!("---- last lines of {} ----", log.display());
                        println!("{}", tail(&text, 60));
                        println!("---- end of {} ----", outcome.target);
                    }
                    outcomes
                        .lock()
                        .map_err(|_| "outcomes poisoned")?
                        .push(outcome);
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().map_err(|_| "a fuzz worker panicked")??;
    }
    let mut outcomes = Arc::try_unwrap(outcomes)
        .map_err(|_| "outcomes still shared")?
        .into_inner()
        .map_err(|_| "outcomes poisoned")?;
    outcomes.sort_by(|a, b| a.target.cmp(&b.target));
    Ok(outcomes)
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// What one target's run came to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) target: String,
    /// `None` when libFuzzer exited 0, else its `SUMMARY:` line or the exit status.
    pub(crate) failure: Option<String>,
    /// The crash, leak or timeout input libFuzzer saved, if any.
    pub(crate) artifact: Option<String>,
    pub(crate) cpu: Option<Duration>,
    pub(crate) wall: Duration,
    pub(crate) runs: Option<u64>,
    pub(crate) coverage: Option<u64>,
    pub(crate) corpus: Option<String>,
    /// How many libFuzzer runs (rounds) this outcome sums.
    pub(crate) rounds: u32,
    /// The log of the last round.
    pub(crate) log: PathBuf,
}

impl Outcome {
    /// Adds a later round on the same corpus: times and executions add up, coverage and
    /// corpus are the later round's (it started from everything the earlier ones found).
    fn add_round(&mut self, later: Outcome) {
        self.cpu = match (self.cpu, later.cpu) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        self.wall += later.wall;
        self.runs = match (self.runs, later.runs) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        self.coverage = later.coverage.max(self.coverage);
        self.corpus = later.corpus.or(self.corpus.take());
        self.failure = later.failure;
        self.artifact = later.artifact;
        self.rounds += later.rounds;
        self.log = later.log;
    }

    fn from_run(target: String, measured: &Measured, log: &str, log_path: &Path) -> Outcome {
        let stats = LibFuzzerStats::parse(log);
        let failure = if measured.status.success() {
            None
        } else {
            Some(stats.summary.clone().unwrap_or_else(|| {
                format!("exit {} (see {})", measured.status, log_path.display())
            }))
        };
        Outcome {
            target,
            failure,
            artifact: stats.artifact,
            cpu: measured.cpu,
            wall: measured.wall,
            runs: stats.runs,
            coverage: stats.coverage,
            corpus: stats.corpus,
            rounds: 1,
            log: log_path.to_owned(),
        }
    }

    pub(crate) fn ok(&self) -> bool {
        self.failure.is_none()
    }

    fn one_line(&self) -> String {
        let mut line = format!(
            "{}: {} after {} CPU ({} wall)",
            self.target,
            self.verdict(),
            self.cpu.map_or("?".into(), secs),
            secs(self.wall)
        );
        if let Some(runs) = self.runs {
            let _ = write!(line, ", {runs} runs");
        }
        if let Some(cov) = self.coverage {
            let _ = write!(line, ", cov {cov}");
        }
        if self.rounds > 1 {
            let _ = write!(line, ", {} rounds", self.rounds);
        }
        if let Some(artifact) = &self.artifact {
            let _ = write!(line, ", input saved to {artifact}");
        }
        line
    }

    fn verdict(&self) -> String {
        match &self.failure {
            None => "ok".to_owned(),
            Some(why) => format!("FAILED ({why})"),
        }
    }
}

/// Per-target results as a markdown table (for `docs/reliability.md`).
pub(crate) fn outcome_table(outcomes: &[Outcome]) -> String {
    let mut out = String::from(
        "| target | CPU time | wall time | runs | coverage | corpus | outcome |\n|---|---:|---:|---:|---:|---:|---|\n",
    );
    for o in outcomes {
        let dash = || "—".to_owned();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            o.target,
            o.cpu
                .map_or_else(dash, |d| format!("{:.1} min", d.as_secs_f64() / 60.0)),
            format_args!("{:.1} min", o.wall.as_secs_f64() / 60.0),
            o.runs.map_or_else(dash, |r| r.to_string()),
            o.coverage.map_or_else(dash, |c| c.to_string()),
            o.corpus.clone().unwrap_or_else(dash),
            o.verdict(),
        );
    }
    out
}

/// What libFuzzer's output says about a run.
#[derive(Debug, Default, PartialEq)]
struct LibFuzzerStats {
    runs: Option<u64>,
    coverage: Option<u64>,
    corpus: Option<String>,
    summary: Option<String>,
    artifact: Option<String>,
}

impl LibFuzzerStats {
    fn parse(log: &str) -> LibFuzzerStats {
        let mut stats = LibFuzzerStats::default();
        for line in log.lines() {
            // Status lines: `#1234\tNEW    cov: 81 ft: 120 corp: 12/340b …`.
            if line.starts_with('#') {
                let fields: Vec<&str> = line.split_whitespace().collect();
                for pair in fields.windows(2) {
                    match pair[0] {
                        "cov:" => stats.coverage = pair[1].parse().ok(),
                        "corp:" => stats.corpus = Some(pair[1].to_owned()),
                        _ => {}
                    }
                }
            }
            if let Some(n) = line.strip_prefix("stat::number_of_executed_units:") {
                stats.runs = n.trim().parse().ok();
            }
            if line.starts_with("SUMMARY:") && stats.summary.is_none() {
                stats.summary = Some(line.trim_start_matches("SUMMARY:").trim().to_owned());
            }
            if let Some((_, path)) = line.split_once("Test unit written to ") {
                stats.artifact = Some(path.trim().to_owned());
            }
        }
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_libfuzzer_stats_of_a_clean_run() {
        let log = "\
INFO: Seed: 1
#2\tINITED cov: 24 ft: 24 corp: 4/20b exec/s: 0 rss: 33Mb
#24006\tNEW    cov: 28 ft: 28 corp: 7/33b lim: 8 exec/s: 0 rss: 42Mb L: 4/8 MS: 1 EraseBytes-
#901234\tDONE   cov: 31 ft: 40 corp: 9/51b lim: 240 exec/s: 45061 rss: 50Mb
Done 901234 runs in 20 second(s)
stat::number_of_executed_units: 901234
stat::average_exec_per_sec:     45061
";
        let stats = LibFuzzerStats::parse(log);
        assert_eq!(
            stats,
            LibFuzzerStats {
                runs: Some(901234),
                coverage: Some(31),
                corpus: Some("9/51b".into()),
                summary: None,
                artifact: None,
            }
        );
    }

    #[test]
    fn reads_the_summary_and_artifact_of_a_crash() {
        let log = "\
#24006\tNEW    cov: 28 ft: 28 corp: 7/33b lim: 8 exec/s: 0 rss: 42Mb
thread '<unnamed>' panicked at fuzz_targets/t1.rs:4:101:
==11871== ERROR: libFuzzer: deadly signal
SUMMARY: libFuzzer: deadly signal
MS: 2 ChangeByte-; base unit: 0000
artifact_prefix='/w/fuzz/artifacts/t1/'; Test unit written to /w/fuzz/artifacts/t1/crash-c632d2f7
";
        let stats = LibFuzzerStats::parse(log);
        assert_eq!(stats.summary.as_deref(), Some("libFuzzer: deadly signal"));
        assert_eq!(
            stats.artifact.as_deref(),
            Some("/w/fuzz/artifacts/t1/crash-c632d2f7")
        );
        assert_eq!(stats.coverage, Some(28));
    }

    #[test]
    fn outcome_table_has_one_row_per_target() {
        let outcome = Outcome {
            target: "grammar_tag".into(),
            failure: None,
            artifact: None,
            cpu: Some(Duration::from_secs(630)),
            wall: Duration::from_secs(600),
            runs: Some(12),
            coverage: Some(300),
            corpus: Some("80/2Kb".into()),
            rounds: 1,
            log: PathBuf::from("grammar_tag.log"),
        };
        let table = outcome_table(&[outcome]);
        assert!(
            table.ends_with("| grammar_tag | 10.5 min | 10.0 min | 12 | 300 | 80/2Kb | ok |\n")
        );
    }

    #[test]
    fn rounds_on_one_corpus_add_up() {
        let round = |cpu: u64, runs: u64, cov: u64, failure: Option<&str>| Outcome {
            target: "agree_lines".into(),
            failure: failure.map(str::to_owned),
            artifact: failure.map(|_| "crash-1".to_owned()),
            cpu: Some(Duration::from_secs(cpu)),
            wall: Duration::from_secs(100),
            runs: Some(runs),
            coverage: Some(cov),
            corpus: Some(format!("{cov}/1Kb")),
            rounds: 1,
            log: PathBuf::from(format!("round-{cpu}.log")),
        };
        let mut sum = round(400, 1000, 90, None);
        sum.add_round(round(250, 700, 95, None));
        assert!(sum.ok());
        assert_eq!(sum.cpu, Some(Duration::from_secs(650)));
        assert_eq!(sum.wall, Duration::from_secs(200));
        assert_eq!(
            (sum.runs, sum.coverage, sum.rounds),
            (Some(1700), Some(95), 2)
        );
        assert_eq!(sum.corpus.as_deref(), Some("95/1Kb"));
        // A failing later round makes the whole target fail, with that round's artifact.
        sum.add_round(round(10, 5, 95, Some("deadly signal")));
        assert!(!sum.ok());
        assert_eq!(sum.artifact.as_deref(), Some("crash-1"));
        assert_eq!(sum.log, PathBuf::from("round-10.log"));
    }
}
