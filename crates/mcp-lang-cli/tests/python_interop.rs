//! Interop with a client nobody here wrote: the official Python MCP SDK
//! (`mcp` on PyPI) drives `mcp-lang serve` over stdio and over Streamable
//! HTTP and checks SEP-2792 (script: `tests/interop/sep2792_client.py`).
//!
//! The test builds its own virtual environment under `target/tmp/` (python3
//! and network access to PyPI needed the first time), so it is `#[ignore]`d
//! in a plain `cargo test`; `cargo xtask ci` runs it with
//! `cargo test -p mcp-lang-cli --test python_interop -- --ignored`.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The SDK version the script was written against.
const MCP_PYPI: &str = "mcp==2.3.0";

/// Both tests need the environment; the first one to get here builds it.
static VENV: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn venv() -> PathBuf {
    let _guard = VENV.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("py-interop");
    let python = dir.join("bin").join("python");
    if !python.exists() {
        let status = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&dir)
            .status()
            .expect("python3 is needed for the interop test");
        assert!(status.success(), "python3 -m venv failed");
        let status = Command::new(dir.join("bin").join("pip"))
            .args(["install", "--quiet", MCP_PYPI])
            .status()
            .expect("pip did not run");
        assert!(status.success(), "pip install {MCP_PYPI} failed");
    }
    python
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/sep2792_client.py")
}

fn run_client(python: &Path, transport: &str, target: &str) {
    let output = Command::new(python)
        .arg(script())
        .args([transport, target])
        .output()
        .expect("the interop client did not start");
    let stdout = String::from_utf8_lossy(&output.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "{transport}: the Python client reported a failure"
    );
    assert!(
        stdout.contains(r#""result": "pass""#),
        "{transport}: no pass line"
    );
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn python_sdk_client_over_stdio() {
    let python = venv();
    run_client(&python, "stdio", env!("CARGO_BIN_EXE_mcp-lang"));
}

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn python_sdk_client_over_streamable_http() {
    let python = venv();
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("no free port")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let _server = Server(
        Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
            .args(["serve", "--http", &addr])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .spawn()
            .expect("mcp-lang serve did not start"),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(&addr).is_err() {
        assert!(
            Instant::now() < deadline,
            "the server did not listen on {addr}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    run_client(&python, "http", &format!("http://{addr}/mcp"));
}
