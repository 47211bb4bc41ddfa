//! The fault server binary as the self-test starts it: `serve --stdio` and
//! `serve --http` with a fault or a latitude, judged by the suite.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_lang_conformance::{Config, Format, Profile, Target, Verdict, run};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-lang-faults");

/// `mcp-lang-faults serve --http` on a free loopback port, killed on drop.
struct HttpServer(Child, String);

impl HttpServer {
    fn start(extra: &[&str]) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
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
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < deadline, "the fault server did not listen");
            std::thread::sleep(Duration::from_millis(20));
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_injected_fault_fails_its_scenario_with_exit_status_1() {
    let server = HttpServer::start(&["--fault", "skip-agreement-check"]);
    let mut config = Config::new(Target::Url(server.1.clone()));
    config.only = vec!["http.mismatch".into()];
    let report = run(&config).await.unwrap();
    assert_eq!(report.verdict().exit_status(), 1, "{}", report.table());
    let junit = report.render(Format::Junit);
    assert!(junit.contains("<failure"), "{junit}");
    assert!(junit.contains("HeaderMismatch"), "{junit}");

    let mut config = Config::new(Target::Stdio(format!(
        "{BIN} serve --stdio --fault ignore-weights"
    )));
    config.only = vec!["match.weights".into()];
    config.profile =
        Some(Profile::new(vec!["en".into(), "fr".into(), "de".into()], "en".into()).unwrap());
    let report = run(&config).await.unwrap();
    assert_eq!(report.verdict().exit_status(), 1, "{}", report.table());
    assert!(report.table().contains("FAIL"), "{}", report.table());
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

/// `serve --stdio --fault NAME` with stdin closed: the exit code and what it
/// logged.
fn serve_stdio_with_fault(name: &str) -> (i32, String) {
    let output = Command::new(BIN)
        .args(["serve", "--stdio", "--fault", name])
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
    assert!(!stderr.contains("serving stdio"), "{stderr}");
    // A fault that does act on stdio is logged as served: the absence above
    // is the refusal's doing, not a silenced log.
    let (_, stderr) = serve_stdio_with_fault("ignore-weights");
    assert!(stderr.contains("serving stdio"), "{stderr}");
    assert!(stderr.contains("ignore-weights"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

/// A server that speaks only the handshake versions (as one on the
/// TypeScript SDK 1.x does) passes with no flags, over stdio and over
/// Streamable HTTP: the run negotiates 2025-11-25 and says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handshake_only_server_passes_with_no_flags_on_both_transports() {
    let server = HttpServer::start(&["--latitude", "handshake-only"]);
    let command = format!("{BIN} serve --stdio --latitude handshake-only");
    for (target, transport) in [
        (Target::Stdio(command.clone()), "stdio"),
        (Target::Url(server.1.clone()), "http"),
    ] {
        let report = run(&Config::new(target)).await.unwrap();
        let json: Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
        assert_eq!(report.verdict(), Verdict::Passed, "{}", report.table());
        assert_eq!(json["transports"], serde_json::json!([transport]));
        let protocol = &json["protocol"][0];
        assert_eq!(protocol["version"], "2025-11-25", "{json}");
        assert_eq!(protocol["offered"], "2026-07-28", "{json}");
        assert_eq!(protocol["fell_back"], true, "{json}");
        assert_eq!(json["profile"][0]["source"], "discovered", "{json}");
    }
    // The table says it in its header.
    let mut config = Config::new(Target::Stdio(command));
    config.only = vec!["match.weights".into()];
    let table = run(&config).await.unwrap().table();
    assert!(
        table.contains(
            "protocol over stdio: 2025-11-25, negotiated: the server does not speak 2026-07-28"
        ),
        "{table}"
    );
}
