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
