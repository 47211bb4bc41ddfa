//! The workspace's own build tasks, run as `cargo xtask <task>` (the alias lives in
//! `.cargo/config.toml`).
//!
//! This is the [xtask pattern]: build automation written in Rust inside the workspace, so a
//! fresh machine needs nothing but cargo to run the same gates as CI. Tasks:
//!
//! - `ci`: every gate in order (format, workflows, MSRV, lints, tests, the conformance
//!   suites, interop, docs, benchmarks build, instruction counts, features, packages,
//!   semver, licences, install, a fuzz smoke run), each timed, stopping at the first
//!   failure. `.ci/run` calls it.
//! - `fuzz`: long fuzz runs of every (or the named) fuzz target, reporting CPU time and
//!   outcome per target.
//! - `bench`: runs the criterion benchmarks in the `bench` and `bench-lto` profiles, counts
//!   instructions under callgrind, and prints one markdown table of ours beside each peer,
//!   in both profiles, in time and in instructions, then the performance targets;
//!   `--write` also puts it into the workspace README, the source of every figure quoted.
//! - `callgrind`: the instruction counts of the hot paths against their committed
//!   baselines (`--bless` moves them); a CI step.
//! - `seed-corpus`: writes the fuzz seed corpora from the shared cases in `testdata/`.
//! - `msrv`: the declared minimum Rust version, checked as far as this toolchain can;
//!   `--test` runs the published crates' tests with the toolchain cargo runs on.
//! - `semver`: `cargo-semver-checks` of every published crate against the last release
//!   (`.ci/semver-baseline`); `--set-baseline TAG` makes a release the baseline.
//! - `conformance --sep2792`: the SEP-2792 suite against the reference server, then its
//!   self-test matrix against the fault server (`mcp-lang-faults`) as a separate process.
//! - `conformance --official`: the official MCP conformance suite (the pinned copy of its
//!   repository) against `mcp-lang serve --http`, checked against the reference server's
//!   baseline.
//! - `conformance --official-faults`: the contribution's official SEP-2792 server scenario
//!   against the fault server with each fault and latitude of the self-test, compared with
//!   this suite's verdicts (`contrib/conformance/fault-agreement.md`; `--write` updates it);
//!   the `official-sep` step of `ci` runs the same comparison.
//! - `docs`: records the specification chapter's example exchanges (`--check`: stale?).
//!
//! Nothing here is hard-coded to today's crates: packages, benchmark targets and fuzz
//! targets are discovered (`cargo metadata`, `fuzz/Cargo.toml`), so a new crate, bench or
//! fuzz target is picked up without touching this package. A new task is one module with a
//! `run(Args)` function and one line in [`TASKS`].
//!
//! [xtask pattern]: https://github.com/matklad/cargo-xtask

mod actionlint;
mod args;
mod bench;
mod callgrind;
mod ci;
mod conformance;
mod corpus;
mod deny;
mod docs;
mod features;
mod fuzz;
mod install;
mod msrv;
mod package;
mod process;
mod semver;
mod tools;
mod workspace;

use std::fmt;
use std::process::ExitCode;

use args::Args;

/// A task's failure: a message for the person at the terminal.
#[derive(Debug)]
struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error(e.to_string())
    }
}

impl From<String> for Error {
    fn from(message: String) -> Error {
        Error(message)
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Error {
        Error(message.to_owned())
    }
}

type Result<T, E = Error> = std::result::Result<T, E>;

/// Returns early with an [`Error`] built from a format string.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::Error(format!($($arg)*)))
    };
}
pub(crate) use bail;

/// One `cargo xtask` subcommand.
struct Task {
    name: &'static str,
    usage: &'static str,
    run: fn(Args) -> Result<()>,
}

/// Every task, in the order `cargo xtask help` lists them.
const TASKS: &[Task] = &[
    Task {
        name: "ci",
        usage: ci::USAGE,
        run: ci::run,
    },
    Task {
        name: "fuzz",
        usage: fuzz::USAGE,
        run: fuzz::run,
    },
    Task {
        name: "bench",
        usage: bench::USAGE,
        run: bench::run,
    },
    Task {
        name: "callgrind",
        usage: callgrind::USAGE,
        run: callgrind::run,
    },
    Task {
        name: "conformance",
        usage: conformance::USAGE,
        run: conformance::run,
    },
    Task {
        name: "docs",
        usage: docs::USAGE,
        run: docs::run,
    },
    Task {
        name: "msrv",
        usage: msrv::USAGE,
        run: msrv::run,
    },
    Task {
        name: "semver",
        usage: semver::USAGE,
        run: semver::run,
    },
    Task {
        name: "seed-corpus",
        usage: corpus::USAGE,
        run: corpus::run,
    },
];

fn help() -> String {
    let mut out = String::from("usage: cargo xtask <task> [options]\n\ntasks:\n");
    for task in TASKS {
        out.push_str(task.usage);
        out.push('\n');
    }
    out
}

fn main() -> ExitCode {
    let mut args = Args::from_env();
    let Some(name) = args.next_positional() else {
        eprint!("{}", help());
        return ExitCode::FAILURE;
    };
    if matches!(name.as_str(), "help" | "-h" | "--help") {
        print!("{}", help());
        return ExitCode::SUCCESS;
    }
    let Some(task) = TASKS.iter().find(|t| t.name == name) else {
        eprintln!("xtask: unknown task `{name}`\n");
        eprint!("{}", help());
        return ExitCode::FAILURE;
    };
    match (task.run)(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask {}: error: {e}", task.name);
            ExitCode::FAILURE
        }
    }
}
