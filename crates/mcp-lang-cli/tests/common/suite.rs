//! Runs of the `mcp-lang conformance` binary against an interop server on an
//! official SDK (`python_server`, `typescript_server`), and the checks both
//! tests make of them:
//!
//! - [`check_conformant`]: the conformant server fails no scenario, every run
//!   passes some and exits 0, and the fullest run skips nothing but what the
//!   test expects;
//! - [`check_faults`]: each fault of the server ([`Fault`]) fails every
//!   scenario that must catch it, on every transport it acts on, and those
//!   scenarios pass against the conformant server, so the fault is what fails
//!   them;
//! - [`check_matcher`]: the server's matcher answers the shared cases under
//!   `testdata/` as the Rust crates do.
//!
//! The suite runs [`PARALLEL_RUNS`] at a time, one server process per run; a
//! server over Streamable HTTP says `listening URL` on its first line, and a
//! fault is switched on by `SEP2792_FAULT=NAME`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::listen::start_listening;
use crate::process::KillOnDrop;

/// Suite runs at once: each has its own server process.
pub(crate) const PARALLEL_RUNS: usize = 3;

/// The transports a run speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Transport {
    Stdio,
    Http,
}

impl Transport {
    /// The `transport` of the report's rows.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::Http => "http",
        }
    }
}

/// A fault acting on both transports.
pub(crate) const BOTH: &[Transport] = &[Transport::Stdio, Transport::Http];
/// A fault acting on Streamable HTTP only.
pub(crate) const HTTP_ONLY: &[Transport] = &[Transport::Http];

/// One fault of the interop server (its `FAULTS`), the transports it acts on,
/// and the scenarios that must catch it on each of them. Each run of a fault
/// selects exactly these scenarios (`--only`), so the list is also what the
/// run costs.
pub(crate) struct Fault {
    pub(crate) name: &'static str,
    pub(crate) acts_on: &'static [Transport],
    pub(crate) caught_by: &'static [&'static str],
}

/// How to start the interop server.
pub(crate) struct Server {
    /// Its name in messages, as in "the Python server did not start".
    pub(crate) name: &'static str,
    /// The interpreter that runs its script.
    pub(crate) program: PathBuf,
    /// The script, which takes `stdio` or the Streamable HTTP arguments.
    pub(crate) script: PathBuf,
    /// The script's arguments for Streamable HTTP on a free port.
    pub(crate) http_args: &'static [&'static str],
    /// Where the server runs over Streamable HTTP, when it matters.
    pub(crate) current_dir: Option<PathBuf>,
    /// Its profile, for `--profile`.
    pub(crate) profile: PathBuf,
    /// How long it may take to print that it listens.
    pub(crate) listen_timeout: Duration,
}

/// One `mcp-lang conformance` run against the server.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub(crate) transport: Transport,
    /// `--protocol`, when not the suite's default.
    pub(crate) protocol: Option<&'static str>,
    /// With the server's profile file, or by discovery.
    pub(crate) profile: bool,
    pub(crate) fault: Option<&'static str>,
    pub(crate) only: Vec<&'static str>,
}

impl Run {
    /// A run of the whole suite against the conformant server.
    pub(crate) fn conformant(
        transport: Transport,
        protocol: Option<&'static str>,
        profile: bool,
    ) -> Self {
        Self {
            transport,
            protocol,
            profile,
            fault: None,
            only: Vec::new(),
        }
    }

    fn label(&self) -> String {
        format!(
            "{} {} {}{}",
            self.transport.as_str(),
            self.protocol.unwrap_or("default protocol"),
            if self.profile { "profile" } else { "discovery" },
            self.fault
                .map(|f| format!(" fault {f}"))
                .unwrap_or_default()
        )
    }
}

/// What a run produced.
pub(crate) struct Ran {
    pub(crate) run: Run,
    status: Option<i32>,
    /// The JSON report, or a string saying why there is none.
    pub(crate) report: Value,
    seconds: f64,
}

impl Ran {
    /// The report's rows: (id, transport, outcome, reason).
    fn rows(&self) -> Vec<(&str, &str, &str, &str)> {
        fn text<'a>(row: &'a Value, key: &str) -> &'a str {
            row.get(key).and_then(Value::as_str).unwrap_or("")
        }
        self.report["results"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .map(|r| {
                        (
                            text(r, "id"),
                            text(r, "transport"),
                            text(r, "outcome"),
                            text(r, "reason"),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn with_outcome(&self, outcome: &str) -> Vec<(&str, &str)> {
        self.rows()
            .into_iter()
            .filter(|r| r.2 == outcome)
            .map(|r| (r.0, r.3))
            .collect()
    }

    /// The run's label, for messages.
    pub(crate) fn label(&self) -> String {
        self.run.label()
    }
}

/// A path as one word of the suite's `--stdio` command (single-quoted).
fn shell_word(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// Sets or clears the fault a server process starts with.
fn set_fault(command: &mut Command, fault: Option<&str>) {
    match fault {
        Some(f) => command.env("SEP2792_FAULT", f),
        None => command.env_remove("SEP2792_FAULT"),
    };
}

/// Starts the server over Streamable HTTP on a free port and returns it with
/// its URL, once it accepts connections.
fn start_http_server(server: &Server, fault: Option<&str>) -> (KillOnDrop, String) {
    let mut command = Command::new(&server.program);
    command.arg(&server.script).args(server.http_args);
    if let Some(dir) = &server.current_dir {
        command.current_dir(dir);
    }
    set_fault(&mut command, fault);
    start_listening(command, server.name, server.listen_timeout)
}

/// Runs the suite once, as a user would: the `mcp-lang` binary, JSON report.
fn run_suite(server: &Server, run: &Run) -> Ran {
    let started = Instant::now();
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-lang"));
    command.args(["conformance", "--format", "json"]);
    if run.profile {
        command.arg("--profile").arg(&server.profile);
    }
    if let Some(protocol) = run.protocol {
        command.args(["--protocol", protocol]);
    }
    for id in &run.only {
        command.args(["--only", id]);
    }
    let _server = match run.transport {
        Transport::Stdio => {
            let stdio = format!(
                "{} {} stdio",
                shell_word(&server.program),
                shell_word(&server.script)
            );
            command.arg("--stdio").arg(stdio);
            // The suite starts the server: it inherits the fault.
            set_fault(&mut command, run.fault);
            None
        }
        Transport::Http => {
            let (child, url) = start_http_server(server, run.fault);
            command.args(["--url", &url]);
            Some(child)
        }
    };
    let output = command.output().expect("mcp-lang did not start");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        // A run that ends before any report (a usage error, exit 2) is a
        // finding of the test, not a reason to stop the other runs.
        Value::String(format!(
            "the report is not JSON ({e}); stdout: {stdout}; stderr: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    });
    Ran {
        run: run.clone(),
        status: output.status.code(),
        report,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Runs every run, [`PARALLEL_RUNS`] at a time, in order of the input.
fn run_all(server: &Server, runs: &[Run]) -> Vec<Ran> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Ran)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..PARALLEL_RUNS)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(run) = runs.get(i) else { break };
                        mine.push((i, run_suite(server, run)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a suite run panicked"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, ran)| ran).collect()
}

/// Runs the suite against the conformant server once per run and fails the
/// test unless every run wrote a report, failed no scenario, passed some and
/// exited 0, and the run that is `fullest` skipped nothing but
/// `expected_skips` (id, why). `also` adds the problems a test checks beyond
/// these in each run with a report.
pub(crate) fn check_conformant(
    server: &Server,
    runs: &[Run],
    fullest: impl Fn(&Run) -> bool,
    expected_skips: &[(&str, &str)],
    also: impl Fn(&Ran, &mut Vec<String>),
) {
    let started = Instant::now();
    let mut problems = Vec::new();
    for ran in run_all(server, runs) {
        if let Value::String(why) = &ran.report {
            problems.push(format!(
                "{}: exit status {:?}: {why}",
                ran.label(),
                ran.status
            ));
            continue;
        }
        let (passed, skipped, failed) = (
            ran.with_outcome("pass"),
            ran.with_outcome("skip"),
            ran.with_outcome("fail"),
        );
        println!(
            "{}: {} passed, {} skipped, {} failed, exit {:?} ({:.1} s)",
            ran.label(),
            passed.len(),
            skipped.len(),
            failed.len(),
            ran.status,
            ran.seconds
        );
        let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
        for (id, reason) in &skipped {
            match reasons.iter_mut().find(|(r, _)| r == reason) {
                Some((_, ids)) => ids.push(id),
                None => reasons.push((reason, vec![id])),
            }
        }
        for (reason, ids) in reasons {
            println!("    skipped {}: {reason}", ids.join(", "));
        }
        for (id, reason) in &failed {
            problems.push(format!("{}: {id} failed: {reason}", ran.label()));
        }
        if passed.is_empty() {
            problems.push(format!("{}: no scenario passed", ran.label()));
        }
        if ran.status != Some(0) {
            problems.push(format!(
                "{}: exit status {:?}, not 0",
                ran.label(),
                ran.status
            ));
        }
        also(&ran, &mut problems);
        // The fullest run: every scenario applies to this server but the
        // ones it has a reason to skip.
        let unexpected: Vec<_> = skipped
            .iter()
            .filter(|(id, _)| !expected_skips.iter().any(|(skip, _)| skip == id))
            .collect();
        if fullest(&ran.run) && !unexpected.is_empty() {
            problems.push(format!(
                "{}: skipped {unexpected:?}; the server implements everything else the suite checks",
                ran.label()
            ));
        }
    }
    println!(
        "conformant runs: {:.1} s in all",
        started.elapsed().as_secs_f64()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Runs each fault on each transport it acts on, with the profile and
/// `protocol`, selecting the scenarios that must catch it, and the same
/// scenarios once per transport against the conformant server; fails the test
/// unless each of them fails with the fault (the run exiting 1) and passes
/// without it.
pub(crate) fn check_faults(server: &Server, faults: &[Fault], protocol: Option<&'static str>) {
    let started = Instant::now();
    let mut runs: Vec<Run> = faults
        .iter()
        .flat_map(|fault| {
            fault.acts_on.iter().map(|&transport| Run {
                transport,
                protocol,
                profile: true,
                fault: Some(fault.name),
                only: fault.caught_by.to_vec(),
            })
        })
        .collect();
    // The same scenarios against the conformant server, once per transport:
    // each must pass there, so that the fault is what fails it.
    for transport in [Transport::Stdio, Transport::Http] {
        let mut only: Vec<&'static str> = faults
            .iter()
            .filter(|f| f.acts_on.contains(&transport))
            .flat_map(|f| f.caught_by.iter().copied())
            .collect();
        only.sort_unstable();
        only.dedup();
        runs.push(Run {
            transport,
            protocol,
            profile: true,
            fault: None,
            only,
        });
    }
    let results = run_all(server, &runs);
    let mut missed = Vec::new();
    for ran in &results {
        let Some(fault) = faults.iter().find(|f| Some(f.name) == ran.run.fault) else {
            continue;
        };
        let transport = ran.run.transport.as_str();
        let rows = ran.rows();
        let baseline = results
            .iter()
            .find(|b| b.run.fault.is_none() && b.run.transport == ran.run.transport)
            .expect("a conformant run of each transport");
        let baseline_rows = baseline.rows();
        for id in fault.caught_by {
            match baseline_rows.iter().find(|r| r.0 == *id && r.1 == transport) {
                Some((_, _, "pass", _)) => {}
                Some((_, _, outcome, reason)) => missed.push(format!(
                    "{} over {transport}: {id} is {outcome} against the conformant server too, so the fault is not what it catches: {reason}",
                    fault.name
                )),
                None => missed.push(format!(
                    "{} over {transport}: the conformant run has no row {id} ({})",
                    fault.name, baseline.report
                )),
            }
            match rows.iter().find(|r| r.0 == *id && r.1 == transport) {
                Some((_, _, "fail", reason)) => {
                    println!("caught  {} over {transport} by {id}: {reason}", fault.name);
                }
                Some((_, _, outcome, reason)) => missed.push(format!(
                    "{} over {transport}: {id} was {outcome}, not fail {reason}",
                    fault.name
                )),
                None => missed.push(format!(
                    "{} over {transport}: the report has no row {id} ({})",
                    fault.name, ran.report
                )),
            }
        }
        if ran.status != Some(1) {
            missed.push(format!(
                "{}: exit status {:?}, not 1 (failed)",
                ran.label(),
                ran.status
            ));
        }
    }
    println!(
        "{} fault runs: {:.1} s in all",
        runs.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// The ops of the shared cases an interop matcher answers.
const MATCHER_OPS: [&str; 4] = ["parse", "negotiate", "lookup", "agree"];

/// The `testdata/` files with cases of the ops an interop matcher answers.
fn shared_cases(root: &Path) -> Vec<(PathBuf, Value)> {
    let mut files = Vec::new();
    for area in ["grammar", "match", "agree"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(area))
            .expect("testdata is missing")
            .map(|e| e.expect("unreadable testdata entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        files.extend(paths);
    }
    let mut cases = Vec::new();
    for path in files {
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for case in file["cases"].as_array().into_iter().flatten() {
            if MATCHER_OPS.contains(&case["request"]["op"].as_str().unwrap_or("")) {
                cases.push((path.clone(), case.clone()));
            }
        }
    }
    cases
}

/// Feeds the shared cases under `testdata/` to the matcher `command` starts
/// (one JSON request a line on its stdin, one answer a line on its stdout)
/// and fails the test unless it answers each as the case expects, with more
/// than ten cases of each op. `language` names the matcher in messages.
pub(crate) fn check_matcher(mut command: Command, language: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let cases = shared_cases(&root);
    let mut child = KillOnDrop(
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("the {language} matcher did not start: {e}")),
    );
    let mut stdin = child.0.stdin.take().expect("no stdin");
    let requests: Vec<String> = cases
        .iter()
        .map(|(_, c)| c["request"].to_string())
        .collect();
    let stopped = format!("the {language} matcher stopped reading");
    let writer = std::thread::spawn(move || {
        for request in requests {
            writeln!(stdin, "{request}").expect(&stopped);
        }
    });
    let answers: Vec<String> = BufReader::new(child.0.stdout.take().expect("no stdout"))
        .lines()
        .map(|l| l.expect("unreadable answer"))
        .collect();
    writer.join().expect("the writer panicked");
    assert_eq!(answers.len(), cases.len(), "one answer per case");
    let mut wrong = Vec::new();
    let mut per_op = std::collections::BTreeMap::<String, usize>::new();
    for ((path, case), answer) in cases.iter().zip(&answers) {
        *per_op
            .entry(case["request"]["op"].as_str().unwrap_or("").to_owned())
            .or_default() += 1;
        let got: Value = serde_json::from_str(answer).unwrap_or(Value::String(answer.clone()));
        if got != case["response"] {
            wrong.push(format!(
                "{} {}: {} gave {got}, expected {}",
                path.strip_prefix(&root).unwrap_or(path).display(),
                case["name"],
                case["request"],
                case["response"]
            ));
        }
    }
    println!("shared cases answered by the {language} matcher: {per_op:?}");
    assert!(
        MATCHER_OPS
            .iter()
            .all(|op| per_op.get(*op).is_some_and(|&n| n > 10)),
        "too few cases per op: {per_op:?}"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
