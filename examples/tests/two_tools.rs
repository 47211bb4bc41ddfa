//! The proof of the two-tool rmcp example (`examples/two_tools.rs`): it takes part in
//! SEP-2792 with at most twelve lines more and four fewer than the same server without
//! it (`examples/two_tools_plain.rs`), besides its translated strings, both keeping
//! rmcp's extractors, and the
//! `mcp-lang conformance` command, run as a separate process with a profile file, finds
//! no failure against it over stdio and over Streamable HTTP.
//!
//! `cargo test -p mcp-lang-examples` builds the examples first, among them `mcp-lang`,
//! which is the command's own `main` (see `Cargo.toml`).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{Running, example, example_from, post, start_server};
use mcp_lang_meta::CONTENT_LANGUAGE_KEY;
use serde_json::Value;

/// The most lines the SEP may add to the two-tool server.
const MOST_ADDED_LINES: usize = 12;
/// The most lines of the plain server the SEP may change or remove.
const MOST_REMOVED_LINES: usize = 4;

/// An example's source as rustfmt writes it, so that the count does not depend on how
/// a line was wrapped by hand.
fn source(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rustfmt = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rustfmt, which comes with the Rust toolchain");
    rustfmt
        .stdin
        .take()
        .expect("rustfmt's stdin")
        .write_all(&text)
        .expect("source to rustfmt");
    let output = rustfmt.wait_with_output().expect("rustfmt ran");
    assert!(
        output.status.success(),
        "rustfmt failed on {}",
        path.display()
    );
    String::from_utf8(output.stdout).expect("UTF-8 source")
}

#[test]
fn the_sep_adds_at_most_twelve_lines_and_removes_at_most_four() {
    let (plain, sep) = (source("two_tools_plain.rs"), source("two_tools.rs"));
    let diff = similar::TextDiff::from_lines(&plain, &sep);
    let changes: Vec<_> = diff.iter_all_changes().collect();
    let added: Vec<&str> = changes
        .iter()
        .filter(|c| c.tag() == similar::ChangeTag::Insert)
        .filter_map(|c| c.as_str())
        .collect();
    let removed = changes
        .iter()
        .filter(|c| c.tag() == similar::ChangeTag::Delete)
        .count();
    let unified = diff
        .unified_diff()
        .header("two_tools_plain.rs", "two_tools.rs")
        .to_string();
    assert!(
        added.len() <= MOST_ADDED_LINES && removed <= MOST_REMOVED_LINES,
        "{} lines added, {removed} removed:\n{unified}",
        added.len()
    );
    // Both keep rmcp's extractors: the token from `RequestMetaObject`, sent through
    // `Peer<RoleServer>`.
    for source in [&plain, &sep] {
        assert!(source.contains("meta: RequestMetaObject,"), "{source}");
        assert!(source.contains("client: Peer<RoleServer>,"), "{source}");
    }
    // Not vacuous: the SEP variant does wrap the server, localize and mirror.
    for needle in [
        "Localized::new(",
        "language.error(",
        "language.localize_progress(",
        "LanguageService::new(",
    ] {
        assert!(
            added.iter().any(|line| line.contains(needle)),
            "{needle}:\n{unified}"
        );
    }
}

/// The profile the suite checks the example against, as a file, written once
/// (the tests run in parallel: each must read a whole file).
fn profile() -> PathBuf {
    static PATH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("two_tools");
        std::fs::create_dir_all(&dir).expect("profile folder");
        let path = dir.join("profile.toml");
        let text = "supported = [\"en\", \"fr\", \"de\"]\ndefault = \"en\"\nprogress_tool = \"countdown\"\nerror_call = { name = \"divide\", arguments = { a = 1, b = 0 } }\n";
        std::fs::write(&path, text).expect("profile file");
        path
    })
    .clone()
}

/// `mcp-lang conformance --profile FILE --format json TARGET…`: the JSON
/// report, after checking that the command found no failure.
fn conformance(target: &[&str]) -> Value {
    let output = Command::new(example_from(
        "mcp-lang",
        "../crates/mcp-lang-cli/src/main.rs",
    ))
    .arg("conformance")
    .arg("--profile")
    .arg(profile())
    .args(["--format", "json"])
    .args(target)
    .output()
    .expect("run mcp-lang conformance");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert!(
        output.status.success(),
        "exit {:?}: {report:#}",
        output.status
    );
    assert_eq!(report["summary"]["failed"], 0, "{report:#}");
    report
}

/// Asserts that scenario `id` ran and passed (was not skipped).
fn assert_passed(report: &Value, id: &str) {
    let outcomes: Vec<&Value> = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["id"] == id)
        .map(|r| &r["outcome"])
        .collect();
    assert!(
        !outcomes.is_empty() && outcomes.iter().all(|o| *o == "pass"),
        "{id}: {outcomes:?}"
    );
}

/// The scenarios the example must pass rather than skip: what it has.
const MUST_PASS: &[&str] = &[
    "match.weights",
    "match.fallback",
    "scope.change",
    "discovery.titles-localized",
    "discovery.names-stable",
    "discovery.content-language",
    "progress.localized",
    "progress.stable-tokens",
    "notification.per-message-meta",
    "identifiers.guard",
    "error.localized-meta",
];

#[test]
fn mcp_lang_conformance_passes_over_stdio() {
    let command = format!("{} --stdio", example("two_tools").display());
    let report = conformance(&["--stdio", &command]);
    for id in MUST_PASS {
        assert_passed(&report, id);
    }
}

#[test]
fn mcp_lang_conformance_passes_over_streamable_http() {
    let (_server, url) = start_server("two_tools", &["--http", "127.0.0.1:0"]);
    let report = conformance(&["--url", &url]);
    for id in MUST_PASS.iter().chain(&[
        "http.request-mirror",
        "http.mismatch",
        "http.error-mirror",
        "cache.vary",
    ]) {
        assert_passed(&report, id);
    }
}

fn call(id: u32, tool: &str, arguments: &str, preference: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},"_meta":{{"io.modelcontextprotocol/acceptLanguage":"{preference}"}}}}}}"#
    )
}

#[test]
fn the_localized_error_over_stdio() {
    let mut child = Command::new(example("two_tools"))
        .arg("--stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the example");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let _running = Running(child);
    let mut lines = BufReader::new(stdout).lines();
    let mut answer = |line: &str| -> Value {
        writeln!(stdin, "{line}").expect("send");
        if line.contains("\"id\"") {
            let line = lines.next().expect("an answer").expect("a line");
            serde_json::from_str(&line).expect("JSON")
        } else {
            Value::Null // a notification: no answer
        }
    };
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"},"_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#;
    let initialized = answer(initialize);
    assert_eq!(initialized["result"]["serverInfo"]["title"], "Rechner");
    answer(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let error = answer(&call(2, "divide", r#"{"a":1,"b":0}"#, "fr-CH, de;q=0.5"));
    assert_eq!(error["error"]["code"], -32602, "{error}");
    assert_eq!(
        error["error"]["message"],
        "La division par zéro n'est pas définie."
    );
    assert_eq!(error["error"]["data"]["_meta"][CONTENT_LANGUAGE_KEY], "fr");
    // A number is in no language: the result reports the default, English.
    let quotient = answer(&call(3, "divide", r#"{"a":1,"b":4}"#, "de"));
    assert_eq!(quotient["result"]["content"][0]["text"], "0.25");
    assert_eq!(quotient["result"]["_meta"][CONTENT_LANGUAGE_KEY], "en");
}

#[test]
fn progress_counts_down_in_the_plural_forms_of_the_request_language() {
    let mut child = Command::new(example("two_tools"))
        .arg("--stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the example");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let _running = Running(child);
    let mut lines = BufReader::new(stdout).lines();
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;
    writeln!(stdin, "{initialize}").expect("send");
    lines.next().expect("an answer").expect("a line");
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .expect("send");
    let countdown = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"countdown","arguments":{"from":3},"_meta":{"progressToken":"t","io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    writeln!(stdin, "{countdown}").expect("send");
    let mut messages = Vec::new();
    for line in lines.by_ref() {
        let message: Value = serde_json::from_str(&line.expect("a line")).expect("JSON");
        if message["id"] == 2 {
            break;
        }
        assert_eq!(message["method"], "notifications/progress", "{message}");
        assert_eq!(message["params"]["progressToken"], "t", "{message}");
        assert_eq!(
            message["params"]["_meta"][CONTENT_LANGUAGE_KEY], "fr",
            "{message}"
        );
        messages.push(
            message["params"]["message"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        );
    }
    // 2, 1 and 0 steps to go: French's `other` and `one` forms, and the zero case.
    assert_eq!(
        messages,
        ["Plus que 2 étapes", "Plus qu'une étape", "Terminé"]
    );
}

#[test]
fn the_localized_error_over_http_is_mirrored() {
    let (_server, url) = start_server("two_tools", &["--http", "127.0.0.1:0"]);
    let body = call(1, "divide", r#"{"a":1,"b":0}"#, "de-AT");
    let reply = post(
        &url,
        &[
            ("Accept-Language", "de-AT"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "divide"),
        ],
        &body,
    );
    assert!(
        reply.contains("Die Division durch null ist nicht definiert."),
        "{reply}"
    );
    assert!(
        reply
            .to_ascii_lowercase()
            .contains("content-language: de\r\n"),
        "{reply}"
    );
    // A header that disagrees with `_meta` is refused before rmcp sees the request.
    let reply = post(&url, &[("Accept-Language", "de-at")], &body);
    assert!(
        reply.starts_with("HTTP/1.1 400") && reply.contains("-32020"),
        "{reply}"
    );
}
