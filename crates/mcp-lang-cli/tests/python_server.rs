//! The conformance suite against a server nobody here wrote in Rust:
//! `tests/interop/sep2792_server.py`, a SEP-2792 server on the official
//! Python MCP SDK (`mcp` 2.3.0, its low-level `Server` API), run as a separate
//! process over stdio and over Streamable HTTP, with the `mcp-lang conformance`
//! binary reading its JSON report.
//!
//! - The conformant server passes: no scenario fails, over stdio and over HTTP,
//!   on protocol 2026-07-28 and with the `initialize` handshake (2025-11-25),
//!   with its profile (`tests/interop/sep2792_server.toml`) and by discovery.
//!   Over HTTP on 2026-07-28 with the profile nothing is skipped but what
//!   [`FULLEST_RUN_SKIPS`] names, each with its reason.
//! - Every fault the server can switch on (`SEP2792_FAULT=NAME`) is caught:
//!   each scenario [`FAULTS`] names fails, on every transport the fault acts
//!   on. The same scenarios pass against the conformant server (the test
//!   above), so the fault is what fails them.
//! - The server's matcher (`tests/interop/sep2792_lang.py`) gives the answers
//!   of the shared cases under `testdata/` (ops `parse`, `negotiate`,
//!   `lookup`, `agree`), as the Rust crates do.
//!
//! The suite runs in parallel (a few at a time), one server process per run.
//! Like `python_interop`, the test provisions the Python environment itself
//! (`tests/common/python.rs`), is `#[ignore]`d in a plain `cargo test`, and
//! runs in the `interop` step of `cargo xtask ci`:
//!
//! ```text
//! cargo test -p mcp-lang-cli --test python_server -- --ignored --nocapture
//! ```

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::python::{KillOnDrop, interop_file, venv};
use serde_json::Value;

/// The transports a run speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Transport {
    Stdio,
    Http,
}

impl Transport {
    /// The `transport` of the report's rows.
    fn as_str(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::Http => "http",
        }
    }
}

/// What the fullest run (Streamable HTTP, 2026-07-28, with the profile) skips,
/// and why: the server takes a latitude there, or the SDK answers itself.
const FULLEST_RUN_SKIPS: &[(&str, &str)] = &[
    (
        "sse.header-agrees",
        "the server sends no Content-Language on event streams, which the SEP allows",
    ),
    (
        "reporting.initialize",
        "the SDK answers server/discover itself, ignoring the preference (allowed) with an English title",
    ),
];

const BOTH: &[Transport] = &[Transport::Stdio, Transport::Http];
const HTTP_ONLY: &[Transport] = &[Transport::Http];

/// One fault of `sep2792_server.py` (its `FAULTS`), the transports it acts
/// on, and the scenarios that must catch it on each of them.
struct Fault {
    name: &'static str,
    acts_on: &'static [Transport],
    caught_by: &'static [&'static str],
}

/// Which scenarios catch which fault: the one table to adjust when scenario
/// ids change. Each run of a fault selects exactly these scenarios
/// (`--only`), so the list is also what the run costs.
const FAULTS: &[Fault] = &[
    Fault {
        name: "ignore-weights",
        acts_on: BOTH,
        caught_by: &["match.weights", "match.exclusion", "match.wildcard"],
    },
    Fault {
        name: "sticky-preference",
        acts_on: BOTH,
        caught_by: &["scope.change", "scope.omission"],
    },
    Fault {
        name: "unstamped-notifications",
        acts_on: BOTH,
        caught_by: &["progress.localized", "notification.per-message-meta"],
    },
    Fault {
        name: "unreported-error-language",
        acts_on: BOTH,
        caught_by: &["error.localized-meta"],
    },
    Fault {
        name: "drop-vary",
        acts_on: HTTP_ONLY,
        caught_by: &["cache.vary", "cache.stripped-header"],
    },
    Fault {
        name: "skip-agreement",
        acts_on: HTTP_ONLY,
        caught_by: &[
            "http.mismatch",
            "agree.case",
            "agree.list-whitespace",
            "agree.q-spelling",
            "agree.meta-untrimmed",
            "agree.every-line",
            "agree.before-grammar",
        ],
    },
    Fault {
        name: "first-line-only",
        acts_on: HTTP_ONLY,
        caught_by: &["agree.two-lines", "agree.every-line"],
    },
    Fault {
        name: "public-when-stripped",
        acts_on: HTTP_ONLY,
        caught_by: &["cache.stripped-header"],
    },
    Fault {
        name: "no-content-language",
        acts_on: HTTP_ONLY,
        caught_by: &[
            "http.response-mirror",
            "http.response-one-line",
            "http.error-mirror",
        ],
    },
];

/// Suite runs at once: each has its own server process.
const PARALLEL_RUNS: usize = 3;

/// How long a server may take to print that it listens (the first start
/// compiles the SDK's bytecode).
const LISTEN_TIMEOUT: Duration = Duration::from_secs(90);

/// One `mcp-lang conformance` run against the Python server.
#[derive(Clone, Debug)]
struct Run {
    transport: Transport,
    /// `--protocol`, when not the suite's default.
    protocol: Option<&'static str>,
    /// With the server's profile file, or by discovery.
    profile: bool,
    fault: Option<&'static str>,
    only: &'static [&'static str],
}

impl Run {
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
struct Ran {
    run: Run,
    status: Option<i32>,
    report: Value,
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
}

/// A path as one word of the suite's `--stdio` command (single-quoted).
fn shell_word(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// Starts the server over Streamable HTTP on a free port and returns it with
/// its URL, once it accepts connections.
fn start_http_server(python: &Path, fault: Option<&str>) -> (KillOnDrop, String) {
    let mut command = Command::new(python);
    command
        .arg(interop_file("sep2792_server.py"))
        .arg("http")
        .stdin(Stdio::null())
        .stdout(Stdio::piped());
    match fault {
        Some(f) => command.env("SEP2792_FAULT", f),
        None => command.env_remove("SEP2792_FAULT"),
    };
    let mut server = KillOnDrop(command.spawn().expect("the Python server did not start"));
    let stdout = server.0.stdout.take().expect("no stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(LISTEN_TIMEOUT).unwrap_or_default();
    let url = line
        .trim()
        .strip_prefix("listening ")
        .unwrap_or_else(|| {
            let exit = server.0.try_wait().ok().flatten();
            panic!("the Python server did not say where it listens (got {line:?}; exit {exit:?})")
        })
        .to_owned();
    (server, url)
}

/// Runs the suite once, as a user would: the `mcp-lang` binary, JSON report.
fn run_suite(python: &Path, run: &Run) -> Ran {
    let started = Instant::now();
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-lang"));
    command.args(["conformance", "--format", "json"]);
    if run.profile {
        command
            .arg("--profile")
            .arg(interop_file("sep2792_server.toml"));
    }
    if let Some(protocol) = run.protocol {
        command.args(["--protocol", protocol]);
    }
    for id in run.only {
        command.args(["--only", id]);
    }
    let _server = match run.transport {
        Transport::Stdio => {
            let server = format!(
                "{} {} stdio",
                shell_word(python),
                shell_word(&interop_file("sep2792_server.py"))
            );
            command.arg("--stdio").arg(server);
            // The suite starts the server: it inherits the fault.
            match run.fault {
                Some(f) => command.env("SEP2792_FAULT", f),
                None => command.env_remove("SEP2792_FAULT"),
            };
            None
        }
        Transport::Http => {
            let (server, url) = start_http_server(python, run.fault);
            command.args(["--url", &url]);
            Some(server)
        }
    };
    let output = command.output().expect("mcp-lang did not start");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{}: the report is not JSON ({e}), exit {:?}\nstdout: {stdout}\nstderr: {}",
            run.label(),
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    Ran {
        run: run.clone(),
        status: output.status.code(),
        report,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Runs every run, [`PARALLEL_RUNS`] at a time, in order of the input.
fn run_all(python: &Path, runs: &[Run]) -> Vec<Ran> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Ran)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..PARALLEL_RUNS)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(run) = runs.get(i) else { break };
                        mine.push((i, run_suite(python, run)));
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

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn conformant_python_server_passes() {
    let Some(python) = venv() else { return };
    let started = Instant::now();
    let mut runs = Vec::new();
    for transport in [Transport::Stdio, Transport::Http] {
        for protocol in [None, Some("2025-11-25")] {
            runs.push(Run {
                transport,
                protocol,
                profile: true,
                fault: None,
                only: &[],
            });
        }
        runs.push(Run {
            transport,
            protocol: None,
            profile: false,
            fault: None,
            only: &[],
        });
    }
    let mut problems = Vec::new();
    for ran in run_all(&python, &runs) {
        let (passed, skipped, failed) = (
            ran.with_outcome("pass"),
            ran.with_outcome("skip"),
            ran.with_outcome("fail"),
        );
        println!(
            "{}: {} passed, {} skipped, {} failed, exit {:?} ({:.1} s)",
            ran.run.label(),
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
            problems.push(format!("{}: {id} failed: {reason}", ran.run.label()));
        }
        if passed.is_empty() {
            problems.push(format!("{}: no scenario passed", ran.run.label()));
        }
        if ran.status != Some(0) {
            problems.push(format!(
                "{}: exit status {:?}, not 0",
                ran.run.label(),
                ran.status
            ));
        }
        // The fullest run: every scenario applies to this server but the
        // ones it has a reason to skip.
        let fullest =
            ran.run.transport == Transport::Http && ran.run.protocol.is_none() && ran.run.profile;
        let unexpected: Vec<_> = skipped
            .iter()
            .filter(|(id, _)| !FULLEST_RUN_SKIPS.iter().any(|(skip, _)| skip == id))
            .collect();
        if fullest && !unexpected.is_empty() {
            problems.push(format!(
                "{}: skipped {unexpected:?}; the server implements everything else the suite checks",
                ran.run.label()
            ));
        }
    }
    println!(
        "conformant runs: {:.1} s in all",
        started.elapsed().as_secs_f64()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn every_python_server_fault_is_caught() {
    let Some(python) = venv() else { return };
    let started = Instant::now();
    let runs: Vec<Run> = FAULTS
        .iter()
        .flat_map(|fault| {
            fault.acts_on.iter().map(|&transport| Run {
                transport,
                protocol: None,
                profile: true,
                fault: Some(fault.name),
                only: fault.caught_by,
            })
        })
        .collect();
    let mut missed = Vec::new();
    for ran in run_all(&python, &runs) {
        let fault = FAULTS
            .iter()
            .find(|f| Some(f.name) == ran.run.fault)
            .expect("a run of a listed fault");
        let transport = ran.run.transport.as_str();
        let rows = ran.rows();
        for id in fault.caught_by {
            match rows.iter().find(|r| r.0 == *id && r.1 == transport) {
                Some((_, _, "fail", reason)) => {
                    println!("caught  {} over {transport} by {id}: {reason}", fault.name);
                }
                Some((_, _, outcome, reason)) => missed.push(format!(
                    "{} over {transport}: {id} was {outcome}, not fail {reason}",
                    fault.name
                )),
                None => missed.push(format!(
                    "{} over {transport}: the report has no row {id}",
                    fault.name
                )),
            }
        }
        if ran.status != Some(1) {
            missed.push(format!(
                "{}: exit status {:?}, not 1 (failed)",
                ran.run.label(),
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

/// The `testdata/` files with cases of the ops the Python matcher answers.
fn shared_cases(root: &Path) -> Vec<(PathBuf, Value)> {
    const OPS: [&str; 4] = ["parse", "negotiate", "lookup", "agree"];
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
            if OPS.contains(&case["request"]["op"].as_str().unwrap_or("")) {
                cases.push((path.clone(), case.clone()));
            }
        }
    }
    cases
}

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn python_matcher_answers_the_shared_testdata() {
    let Some(python) = venv() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let cases = shared_cases(&root);
    let mut child = KillOnDrop(
        Command::new(&python)
            .arg(interop_file("sep2792_lang.py"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the Python matcher did not start"),
    );
    let mut stdin = child.0.stdin.take().expect("no stdin");
    let requests: Vec<String> = cases
        .iter()
        .map(|(_, c)| c["request"].to_string())
        .collect();
    let writer = std::thread::spawn(move || {
        for request in requests {
            writeln!(stdin, "{request}").expect("the Python matcher stopped reading");
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
    println!("shared cases answered by the Python matcher: {per_op:?}");
    assert!(
        ["parse", "negotiate", "lookup", "agree"]
            .iter()
            .all(|op| per_op.get(*op).is_some_and(|&n| n > 10)),
        "too few cases per op: {per_op:?}"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
