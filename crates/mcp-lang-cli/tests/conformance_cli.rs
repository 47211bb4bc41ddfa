//! `mcp-lang conformance` against real processes: the reference server
//! started as `mcp-lang serve --stdio` and `mcp-lang serve --http`. (Runs
//! against servers with an injected fault are the fault bench's tests.)

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

/// Without `--url` or `--stdio`, the target is the reference server over
/// both transports.
#[test]
fn without_a_target_the_reference_server_passes_over_both_transports() {
    let (code, stdout) = conformance(&["--only", "match.weights", "--format", "json"]);
    assert_eq!(code, 0, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        report["target"]
            .as_str()
            .is_some_and(|t| t.starts_with("the reference server: stdio")),
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

/// Exit status 2 writes its document too: the error, the target and what
/// was tried, as JSON and as JUnit XML.
/// `--stdio` and `--url` together: one server over both transports, one
/// report.
#[test]
fn stdio_and_url_together_test_both_transports_in_one_report() {
    let server = HttpServer::start(&[]);
    let command = format!("{BIN} serve --stdio");
    let (code, stdout) = conformance(&[
        "--stdio",
        &command,
        "--url",
        &server.1,
        "--only",
        "match.weights",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        report["transports"],
        serde_json::json!(["stdio", "http"]),
        "{report}"
    );
    assert_eq!(report["summary"]["passed"], 2, "{report}");
    assert_eq!(
        report["target"],
        format!("stdio `{command}` and Streamable HTTP {}", server.1)
    );
}

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
