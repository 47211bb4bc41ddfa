//! `mcp-lang conformance` against real processes: the reference server
//! started as `mcp-lang serve --stdio` and `mcp-lang serve --http`, with and
//! without an injected fault.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-lang");

fn conformance(args: &[&str]) -> (i32, String) {
    let output = Command::new(BIN)
        .arg("conformance")
        .args(args)
        .output()
        .expect("mcp-lang runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    (output.status.code().unwrap_or(-1), stdout)
}

/// `mcp-lang serve --http` on a free loopback port, killed on drop.
struct HttpServer(Child, String);

impl HttpServer {
    fn start(extra: &[&str]) -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(BIN)
            .args(["serve", "--http", &addr])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(
                Instant::now() < deadline,
                "mcp-lang serve --http did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self(child, format!("http://{addr}/mcp"))
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Without `--url` or `--stdio`, the target is the reference server in the
/// same process, over both transports.
#[test]
fn without_a_target_the_embedded_reference_server_passes() {
    let (code, stdout) = conformance(&["--only", "match.weights", "--format", "json"]);
    assert_eq!(code, 0, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        report["target"]
            .as_str()
            .is_some_and(|t| t.starts_with("embedded")),
        "{report}"
    );
    assert_eq!(report["summary"]["passed"], 2, "{report}"); // stdio and HTTP
}

#[test]
fn the_stdio_process_passes_with_a_probed_profile() {
    let command = format!("{BIN} serve --stdio");
    let (code, stdout) = conformance(&["--stdio", &command, "--format", "json"]);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(report["summary"]["failed"], 0);
    let results = report["results"].as_array().unwrap();
    assert!(results.iter().all(|r| r["transport"] == "stdio"));
    // HTTP scenarios are skipped on stdio, with the reason.
    let skipped = results.iter().find(|r| r["id"] == "http.mismatch").unwrap();
    assert_eq!(skipped["outcome"], "skip");
    assert!(
        skipped["reason"]
            .as_str()
            .unwrap()
            .contains("Streamable HTTP")
    );
}

#[test]
fn the_http_process_passes_with_a_given_profile() {
    let server = HttpServer::start(&[]);
    let (code, stdout) = conformance(&[
        "--url",
        &server.1,
        "--supported",
        "en,fr,fr-CA,de,ja,ga",
        "--default",
        "en",
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("0 failed"), "{stdout}");
}

#[test]
fn an_injected_fault_fails_its_scenario_with_exit_status_1() {
    let server = HttpServer::start(&["--fault", "skip-agreement-check"]);
    let (code, stdout) = conformance(&[
        "--url",
        &server.1,
        "--only",
        "http.mismatch",
        "--format",
        "junit",
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("<failure"), "{stdout}");
    assert!(stdout.contains("HeaderMismatch"), "{stdout}");

    let command = format!("{BIN} serve --stdio --fault ignore-weights");
    let (code, stdout) = conformance(&[
        "--stdio",
        &command,
        "--only",
        "match.weights",
        "--default",
        "en",
        "--supported",
        "en,fr,de",
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("FAIL"), "{stdout}");
}

#[test]
fn an_unknown_fault_is_refused_with_the_list() {
    let output = Command::new(BIN)
        .args(["serve", "--stdio", "--fault", "nope"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("drop-vary"), "{stderr}");
}

/// `mcp-lang serve --stdio --fault NAME` with stdin closed: the exit code and
/// what it logged (`RUST_LOG=info`, so the fault's warning is shown).
fn serve_stdio_with_fault(name: &str) -> (i32, String) {
    let output = Command::new(BIN)
        .args(["serve", "--stdio", "--fault", name])
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code().unwrap_or(-1), stderr)
}

#[test]
fn an_http_fault_on_stdio_is_refused_and_never_logged_as_served() {
    let (code, stderr) = serve_stdio_with_fault("drop-vary");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("fault drop-vary acts only on Streamable HTTP"),
        "{stderr}"
    );
    assert!(!stderr.contains("serving stdio altered"), "{stderr}");
    // A fault that does act on stdio is logged as served: the absence above
    // is the refusal's doing, not a silenced log.
    let (_, stderr) = serve_stdio_with_fault("ignore-weights");
    assert!(stderr.contains("serving stdio altered"), "{stderr}");
    assert!(stderr.contains("ignore-weights"), "{stderr}");
    // The log goes to a pipe here: plain text, no terminal colour codes.
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

/// A server that speaks only the handshake versions (as one on the
/// TypeScript SDK 1.x does) passes with no flags, over stdio and over
/// Streamable HTTP: the run negotiates 2025-11-25 and says so.
#[test]
fn a_handshake_only_server_passes_with_no_flags_on_both_transports() {
    let server = HttpServer::start(&["--latitude", "handshake-only"]);
    let command = format!("{BIN} serve --stdio --latitude handshake-only");
    for (flag, target, transport) in [
        ("--stdio", command.as_str(), "stdio"),
        ("--url", server.1.as_str(), "http"),
    ] {
        let (code, stdout) = conformance(&[flag, target, "--format", "json"]);
        let report: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(code, 0, "{report}");
        assert_eq!(report["summary"]["failed"], 0, "{report}");
        assert_eq!(report["transports"], serde_json::json!([transport]));
        let protocol = &report["protocol"][0];
        assert_eq!(protocol["version"], "2025-11-25", "{report}");
        assert_eq!(protocol["offered"], "2026-07-28", "{report}");
        assert_eq!(protocol["fell_back"], true, "{report}");
        assert_eq!(report["profile"][0]["source"], "discovered", "{report}");
    }
    // The table says it in its header.
    let (code, stdout) = conformance(&["--stdio", &command, "--only", "match.weights"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains(
            "protocol over stdio: 2025-11-25, negotiated: the server does not speak 2026-07-28"
        ),
        "{stdout}"
    );
}

/// Exit status 2 writes its document too: the error, the target and what
/// was tried, as JSON and as JUnit XML.
#[test]
fn a_run_that_could_not_test_writes_its_report_in_every_format() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let (code, stdout) = conformance(&["--url", &url, "--format", "json"]);
    assert_eq!(code, 2, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["exit_status"], 2, "{report}");
    assert_eq!(report["verdict"], "could not test", "{report}");
    assert!(
        report["error"].as_str().unwrap().contains("refused"),
        "{report}"
    );
    assert_eq!(report["target"], format!("Streamable HTTP {url}"));
    assert!(report["protocol"][0]["tried"][0].is_string(), "{report}");

    let (code, stdout) = conformance(&["--url", &url, "--format", "junit"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(stdout.starts_with("<?xml"), "{stdout}");
    assert!(
        stdout.contains("<error message=\"could not test: "),
        "{stdout}"
    );

    // A bad profile is exit status 2 as well, with its document.
    let (code, stdout) = conformance(&[
        "--supported",
        "en, fr_CA",
        "--default",
        "en",
        "--format",
        "json",
    ]);
    assert_eq!(code, 2, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        report["error"].as_str().unwrap().contains("fr_CA"),
        "{report}"
    );
}

/// `--supported` takes spaces around its commas, the report records the
/// profile given and `--strict`.
#[test]
fn flags_are_recorded_in_the_report() {
    let (code, stdout) = conformance(&[
        "--only",
        "match.weights",
        "--supported",
        "en, fr , de",
        "--default",
        " en",
        "--strict",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["strict"], true, "{report}");
    assert_eq!(report["profile"][0]["source"], "given", "{report}");
    assert_eq!(
        report["profile"][0]["supported"],
        serde_json::json!(["en", "fr", "de"]),
        "{report}"
    );
    assert_eq!(report["suite"]["name"], "mcp-lang-conformance", "{report}");
}

/// `--help` says what every exit status means.
#[test]
fn help_lists_every_exit_status() {
    let output = Command::new(BIN)
        .args(["conformance", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    for status in [
        "0  passed",
        "1  failed",
        "2  could not test",
        "3  inconclusive",
        "4  not participating",
    ] {
        assert!(help.contains(status), "{status} missing from:\n{help}");
    }
    assert!(help.contains("--strict"), "{help}");
}

/// A stdio server gets end of file on its stdin when the run is done, and
/// one that exits then is not kept waiting (the run used to wait 2 s).
#[test]
fn a_stdio_run_ends_as_soon_as_the_server_exits() {
    let command = format!("{BIN} serve --stdio");
    let started = Instant::now();
    let (code, stdout) = conformance(&[
        "--stdio",
        &command,
        "--only",
        "match.weights",
        "--supported",
        "en,fr,de",
        "--default",
        "en",
    ]);
    let took = started.elapsed();
    assert_eq!(code, 0, "{stdout}");
    assert!(took < Duration::from_millis(1500), "{took:?}");
}
