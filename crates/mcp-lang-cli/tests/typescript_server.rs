//! The conformance suite against a server on the official TypeScript MCP SDK:
//! `tests/interop/sep2792_server.mjs`, a SEP-2792 server on
//! `@modelcontextprotocol/sdk` 1.32.2 and its high-level `McpServer` API, run
//! by Node as a separate process over stdio and over Streamable HTTP, with the
//! `mcp-lang conformance` binary reading its JSON report.
//!
//! - The conformant server passes: no scenario fails, over stdio and over HTTP,
//!   run as a user first would, with no flag at all (discovery, the suite's
//!   default protocol, which the suite negotiates down to what the SDK
//!   speaks), with its profile (`tests/interop/sep2792_server_ts.toml`), and
//!   both again on the SDK's own protocol, 2025-11-25. Over HTTP with the
//!   profile nothing is skipped but what [`FULLEST_RUN_SKIPS`] names, each
//!   with its reason.
//! - Every fault the server can switch on (`SEP2792_FAULT=NAME`) is caught:
//!   each scenario [`FAULTS`] names fails, on every transport the fault acts
//!   on (with the profile, on 2025-11-25, the only modern protocol the SDK
//!   speaks). The same scenarios pass against the conformant server, so the
//!   fault is what fails them.
//! - The server's matcher (`tests/interop/sep2792_lang.mjs`) gives the answers
//!   of the shared cases under `testdata/` (ops `parse`, `negotiate`,
//!   `lookup`, `agree`), as the Rust crates do.
//!
//! The server's progress tool, `count`, requires its argument `n`, as tools
//! written on the SDK commonly do: a suite that calls it without arguments
//! gets the SDK's validation error and no progress.
//!
//! The suite runs in parallel (a few at a time), one server process per run.
//! The test installs the SDK itself (`tests/common/node.rs`, `npm ci` of
//! `tests/interop/node/package-lock.json` under target/), is `#[ignore]`d in a
//! plain `cargo test`, and runs in the `interop` step of `cargo xtask ci`:
//!
//! ```text
//! cargo test -p mcp-lang-cli --test typescript_server -- --ignored --nocapture
//! ```

#[path = "common/node.rs"]
mod node;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use node::{KillOnDrop, interop_file, node_dir};
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

/// The newest protocol the SDK speaks (its `LATEST_PROTOCOL_VERSION`).
const SDK_PROTOCOL: &str = "2025-11-25";

/// The server's profile, for `--profile`.
const PROFILE: &str = "sep2792_server_ts.toml";

/// What the fullest run (Streamable HTTP, with the profile, on the SDK's
/// protocol) skips, and why: the server takes a latitude there, or the
/// protocol has no such thing.
const FULLEST_RUN_SKIPS: &[(&str, &str)] = &[
    (
        "sse.header-agrees",
        "the SDK answers every request with an event stream, sent before its messages are known: no Content-Language on it, which the SEP allows",
    ),
    (
        "http.response-mirror",
        "the SDK answers tools/list with an event stream, never a JSON response",
    ),
    (
        "http.response-one-line",
        "the SDK answers tools/list with an event stream, never a JSON response",
    ),
    (
        "http.error-mirror",
        "the SDK answers with an event stream, never a JSON response",
    ),
    (
        "cache.ttl-scope",
        "ttlMs and cacheScope do not exist before protocol 2026-07-28",
    ),
    (
        "scope.retry",
        "input_required results and their retries do not exist before protocol 2026-07-28",
    ),
];

const BOTH: &[Transport] = &[Transport::Stdio, Transport::Http];
const HTTP_ONLY: &[Transport] = &[Transport::Http];

/// One fault of `sep2792_server.mjs` (its `FAULTS`), the transports it acts
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
        caught_by: &["cache.vary", "sse.vary"],
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
        caught_by: &["cache.stripped-header", "sse.stripped-header"],
    },
];

/// Suite runs at once: each has its own server process.
const PARALLEL_RUNS: usize = 3;

/// How long a server may take to print that it listens.
const LISTEN_TIMEOUT: Duration = Duration::from_secs(60);

/// One `mcp-lang conformance` run against the TypeScript server.
#[derive(Clone, Debug)]
struct Run {
    transport: Transport,
    /// `--protocol`, when not the suite's default.
    protocol: Option<&'static str>,
    /// With the server's profile file, or by discovery.
    profile: bool,
    fault: Option<&'static str>,
    only: Vec<&'static str>,
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
fn start_http_server(dir: &Path, fault: Option<&str>) -> (KillOnDrop, String) {
    let mut command = Command::new("node");
    command
        .arg(dir.join("sep2792_server.mjs"))
        .args(["http", "0"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped());
    match fault {
        Some(f) => command.env("SEP2792_FAULT", f),
        None => command.env_remove("SEP2792_FAULT"),
    };
    let mut server = KillOnDrop(
        command
            .spawn()
            .expect("the TypeScript server did not start"),
    );
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
            panic!(
                "the TypeScript server did not say where it listens (got {line:?}; exit {exit:?})"
            )
        })
        .to_owned();
    (server, url)
}

/// Runs the suite once, as a user would: the `mcp-lang` binary, JSON report.
fn run_suite(dir: &Path, run: &Run) -> Ran {
    let started = Instant::now();
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-lang"));
    command.args(["conformance", "--format", "json"]);
    if run.profile {
        command.arg("--profile").arg(interop_file(PROFILE));
    }
    if let Some(protocol) = run.protocol {
        command.args(["--protocol", protocol]);
    }
    for id in &run.only {
        command.args(["--only", id]);
    }
    let _server = match run.transport {
        Transport::Stdio => {
            let server = format!("node {} stdio", shell_word(&dir.join("sep2792_server.mjs")));
            command.arg("--stdio").arg(server);
            // The suite starts the server: it inherits the fault.
            match run.fault {
                Some(f) => command.env("SEP2792_FAULT", f),
                None => command.env_remove("SEP2792_FAULT"),
            };
            None
        }
        Transport::Http => {
            let (server, url) = start_http_server(dir, run.fault);
            command.args(["--url", &url]);
            Some(server)
        }
    };
    let output = command.output().expect("mcp-lang did not start");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        // A run that ends before any report (a usage error, exit 2) is a
        // finding of the conformant test, not a reason to stop the others.
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
fn run_all(dir: &Path, runs: &[Run]) -> Vec<Ran> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Ran)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..PARALLEL_RUNS)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(run) = runs.get(i) else { break };
                        mine.push((i, run_suite(dir, run)));
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
#[ignore = "needs node, npm and the npm registry; run by `cargo xtask ci` with --ignored"]
fn conformant_typescript_server_passes() {
    let Some(dir) = node_dir() else { return };
    let started = Instant::now();
    let mut runs = Vec::new();
    for transport in [Transport::Stdio, Transport::Http] {
        for protocol in [None, Some(SDK_PROTOCOL)] {
            for profile in [false, true] {
                runs.push(Run {
                    transport,
                    protocol,
                    profile,
                    fault: None,
                    only: Vec::new(),
                });
            }
        }
    }
    let mut problems = Vec::new();
    for ran in run_all(&dir, &runs) {
        if let Value::String(why) = &ran.report {
            problems.push(format!(
                "{}: exit status {:?}: {why}",
                ran.run.label(),
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
        // Without --protocol the suite offers its newest version, which the
        // SDK does not speak, and continues on the SDK's; with it, on that.
        let notes = ran.report["protocol"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if notes.is_empty() {
            problems.push(format!("{}: the report names no protocol", ran.run.label()));
        }
        for note in &notes {
            let negotiated = ran.run.protocol.is_none();
            if note["version"] != SDK_PROTOCOL || note["fell_back"] != negotiated {
                problems.push(format!(
                    "{}: expected {SDK_PROTOCOL}{}; the report says {}",
                    ran.run.label(),
                    if negotiated {
                        ", negotiated down"
                    } else {
                        ", as asked"
                    },
                    note["how"]
                ));
            }
        }
        // The fullest run: every scenario applies to this server but the
        // ones it has a reason to skip.
        let fullest = ran.run.transport == Transport::Http
            && ran.run.protocol == Some(SDK_PROTOCOL)
            && ran.run.profile;
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
#[ignore = "needs node, npm and the npm registry; run by `cargo xtask ci` with --ignored"]
fn every_typescript_server_fault_is_caught() {
    let Some(dir) = node_dir() else { return };
    let started = Instant::now();
    let mut runs: Vec<Run> = FAULTS
        .iter()
        .flat_map(|fault| {
            fault.acts_on.iter().map(|&transport| Run {
                transport,
                protocol: Some(SDK_PROTOCOL),
                profile: true,
                fault: Some(fault.name),
                only: fault.caught_by.to_vec(),
            })
        })
        .collect();
    // The same scenarios against the conformant server, once per transport:
    // each must pass there, so that the fault is what fails it.
    for transport in [Transport::Stdio, Transport::Http] {
        let mut only: Vec<&'static str> = FAULTS
            .iter()
            .filter(|f| f.acts_on.contains(&transport))
            .flat_map(|f| f.caught_by.iter().copied())
            .collect();
        only.sort_unstable();
        only.dedup();
        runs.push(Run {
            transport,
            protocol: Some(SDK_PROTOCOL),
            profile: true,
            fault: None,
            only,
        });
    }
    let results = run_all(&dir, &runs);
    let mut missed = Vec::new();
    for ran in &results {
        let Some(fault) = FAULTS.iter().find(|f| Some(f.name) == ran.run.fault) else {
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

/// The `testdata/` files with cases of the ops the JavaScript matcher answers.
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
#[ignore = "needs node, npm and the npm registry; run by `cargo xtask ci` with --ignored"]
fn typescript_matcher_answers_the_shared_testdata() {
    // The matcher needs no package, but runs where the server does.
    let Some(dir) = node_dir() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let cases = shared_cases(&root);
    let mut child = KillOnDrop(
        Command::new("node")
            .arg(dir.join("sep2792_lang.mjs"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the JavaScript matcher did not start"),
    );
    let mut stdin = child.0.stdin.take().expect("no stdin");
    let requests: Vec<String> = cases
        .iter()
        .map(|(_, c)| c["request"].to_string())
        .collect();
    let writer = std::thread::spawn(move || {
        for request in requests {
            writeln!(stdin, "{request}").expect("the JavaScript matcher stopped reading");
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
    println!("shared cases answered by the JavaScript matcher: {per_op:?}");
    assert!(
        ["parse", "negotiate", "lookup", "agree"]
            .iter()
            .all(|op| per_op.get(*op).is_some_and(|&n| n > 10)),
        "too few cases per op: {per_op:?}"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
