//! The examples do what their docs say. `cargo test -p mcp-lang-examples` builds every
//! example of the package before running the tests, next to the test binaries
//! (`target/<profile>/examples/`); each test starts one, talks to it, and stops it. Two of
//! them run the SEP-2792 conformance suite against the server examples.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A spawned example, killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn example(name: &str) -> PathBuf {
    // target/<profile>/deps/examples_run-HASH → target/<profile>/examples/NAME
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    let path = profile_dir.join("examples").join(name);
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(format!("{name}.rs"));
    let modified = |p: &std::path::Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    // `cargo test -p mcp-lang-examples` builds the examples; `--test examples_run` alone
    // does not, and would run stale binaries.
    assert!(
        modified(&path) >= modified(&source),
        "{} is missing or older than its source: run `cargo test -p mcp-lang-examples` \
         (which builds the examples) rather than `--test examples_run` alone",
        path.display()
    );
    path
}

/// Starts a server example and returns it with the URL it printed on its first line.
fn start_server(name: &str, args: &[&str]) -> (Running, String) {
    let mut child = Command::new(example(name))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the example");
    let stdout = child.stdout.take().expect("piped stdout");
    let running = Running(child);
    let mut reader = BufReader::new(stdout);
    let mut first = String::new();
    reader.read_line(&mut first).expect("read the first line");
    // Keep draining: the example prints more, and a closed pipe would make it panic.
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {first:?}"))
        .trim_end_matches(';')
        .to_owned();
    (running, url)
}

/// One raw HTTP/1.1 POST; returns the whole reply as text.
fn post(url: &str, headers: &[(&str, &str)], body: &str) -> String {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (authority, path) = rest.split_once('/').expect("a path");
    let mut stream = TcpStream::connect(authority).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut request = format!(
        "POST /{path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).expect("send");
    let mut reply = String::new();
    stream.read_to_string(&mut reply).expect("read");
    reply
}

fn tools_list(preference: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/acceptLanguage":"{preference}"}}}}}}"#
    )
}

#[test]
fn client_sends_preferences_over_stdio_and_http() {
    let output = Command::new(example("client"))
        .env("LANG", "C")
        .env_remove("LANGUAGE")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .expect("run the client example");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Both transports, each request answered in its own preference.
    assert!(
        stdout.contains("== stdio") && stdout.contains("== Streamable HTTP"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("Météo actuelle").count(), 2, "{stdout}");
    assert_eq!(stdout.matches("現在の天気").count(), 2, "{stdout}");
    assert!(stdout.contains("Content-Language fr-CA"), "{stdout}");
    assert!(stdout.contains("refused before sending"), "{stdout}");
    assert!(stdout.contains("400 Bad Request, error -32020"), "{stdout}");
}

#[test]
fn axum_server_localizes_titles_and_rejects_mismatches() {
    let (_server, url) = start_server("axum_server", &["0"]);
    let reply = post(
        &url,
        &[("Accept-Language", "de-AT, en;q=0.5")],
        &tools_list("de-AT, en;q=0.5"),
    );
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(
        reply
            .to_ascii_lowercase()
            .contains("content-language: de\r\n"),
        "{reply}"
    );
    assert!(
        reply.contains("\"title\":\"Begrüßen\"") && reply.contains("\"name\":\"greet\""),
        "{reply}"
    );
    let reply = post(&url, &[("Accept-Language", "FR")], &tools_list("fr"));
    assert!(reply.starts_with("HTTP/1.1 400"), "{reply}");
    assert!(reply.contains("-32020"), "{reply}");
    // An explicit language argument wins for the greeting; a missing tool is a localized error.
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada","language":"ja"},"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    let reply = post(&url, &[], call);
    assert!(reply.contains("こんにちは, Ada!"), "{reply}");
    assert!(
        reply
            .to_ascii_lowercase()
            .contains("content-language: ja\r\n"),
        "{reply}"
    );
    let call = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    let reply = post(&url, &[("Accept-Language", "fr")], call);
    assert!(reply.contains("Cet outil n'existe pas."), "{reply}");
    assert!(
        reply.contains(r#""data":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}"#),
        "{reply}"
    );
}

#[test]
fn rmcp_server_localizes_titles_over_http() {
    let (_server, url) = start_server("rmcp_server", &["--http", "127.0.0.1:0"]);
    let reply = post(
        &url,
        &[("Accept-Language", "fr-CH, de;q=0.5")],
        &tools_list("fr-CH, de;q=0.5"),
    );
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(
        reply
            .to_ascii_lowercase()
            .contains("content-language: fr\r\n"),
        "{reply}"
    );
    assert!(
        reply.contains("\"title\":\"Compte à rebours\"")
            && reply.contains("\"name\":\"countdown\""),
        "{reply}"
    );
    let reply = post(
        &url,
        &[("Accept-Language", "fr-ch, de;q=0.5")],
        &tools_list("fr-CH, de;q=0.5"),
    );
    assert!(
        reply.starts_with("HTTP/1.1 400") && reply.contains("-32020"),
        "{reply}"
    );
}

#[test]
fn rmcp_server_answers_over_stdio() {
    let mut child = Command::new(example("rmcp_server"))
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
    writeln!(stdin, "{initialize}").expect("send initialize");
    let answer = lines.next().expect("an answer").expect("a line");
    assert!(answer.contains("\"id\":1"), "{answer}");
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .expect("send");
    writeln!(
        stdin,
        "{}",
        tools_list("de").replace("\"id\":1", "\"id\":2")
    )
    .expect("send tools/list");
    let answer = lines.next().expect("an answer").expect("a line");
    assert!(
        answer.contains(r#""io.modelcontextprotocol/contentLanguage":"de""#),
        "{answer}"
    );
    assert!(answer.contains("\"name\":\"countdown\""), "{answer}");
}

/// Runs the SEP-2792 conformance suite against a server example over HTTP and returns the
/// report; nothing may fail, and what the example does not offer is skipped.
fn conformance(url: String, profile: &str, protocol: &str) -> mcp_lang_conformance::report::Report {
    use mcp_lang_conformance::profile::Profile;
    use mcp_lang_conformance::run::{Config, Target, run};
    let mut config = Config::new(Target::Url(url));
    config.profile = Some(Profile::from_toml(profile).expect("profile"));
    config.protocol = protocol.to_owned();
    config.client_side = false;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let report = runtime.block_on(run(&config)).expect("the suite runs");
    assert!(!report.failed(), "{}", report.table());
    report
}

/// Asserts that scenario `id` ran and passed (not skipped) in `report`.
fn assert_passed(report: &mcp_lang_conformance::report::Report, id: &str) {
    use mcp_lang_conformance::scenario::Outcome;
    let outcomes: Vec<&Outcome> = report.rows_of(id).map(|row| &row.outcome).collect();
    assert!(
        !outcomes.is_empty() && outcomes.iter().all(|o| matches!(o, Outcome::Pass)),
        "{id}: {outcomes:?}\n{}",
        report.table()
    );
}

#[test]
fn axum_server_passes_the_conformance_suite() {
    let (_server, url) = start_server("axum_server", &["0"]);
    // `greet` has an explicit `language` argument.
    let profile = "supported = [\"en\", \"fr\", \"de\", \"ja\"]\ndefault = \"en\"\nexplicit_language_tool = \"greet\"";
    let report = conformance(url, profile, "2025-06-18");
    assert_passed(&report, "explicit.argument-wins");
    assert_passed(&report, "error.localized-meta");
    // Skipped: elicitation, progress and cache-field scenarios, which need tools and fields
    // this small example does not have.
    let summary = report.summary();
    assert!(summary.passed >= 30, "{summary:?}");
}

#[test]
fn rmcp_server_passes_the_conformance_suite() {
    let (_server, url) = start_server("rmcp_server", &["--http", "127.0.0.1:0"]);
    // `countdown` reports progress.
    let profile =
        "supported = [\"en\", \"fr\", \"de\"]\ndefault = \"en\"\nprogress_tool = \"countdown\"";
    let report = conformance(url, profile, "2026-07-28");
    for id in [
        "progress.localized",
        "progress.stable-tokens",
        "notification.per-message-meta",
        "error.localized-meta",
    ] {
        assert_passed(&report, id);
    }
    // Skipped: the elicitation and explicit-argument scenarios, which need tools this
    // example does not have.
    let summary = report.summary();
    assert!(summary.passed >= 34, "{summary:?}");
}
