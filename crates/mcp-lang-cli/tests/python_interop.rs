//! Interop with a client nobody here wrote: the official Python MCP SDK
//! (`mcp` on PyPI) drives `mcp-lang serve` over stdio and over Streamable
//! HTTP and checks SEP-2792 (script: `tests/interop/sep2792_client.py`).
//!
//! The test provisions itself (`tests/common/python.rs`): `python3 -m venv`
//! under `target/tmp/py-interop` and `pip install mcp==2.3.0` (pinned) the
//! first time. It needs python3 and PyPI, so it is `#[ignore]`d in a plain
//! `cargo test`; `cargo xtask ci` runs it in its `interop` step:
//!
//! ```text
//! cargo test -p mcp-lang-cli --test python_interop -- --ignored --nocapture
//! ```
//!
//! Without python3 the tests fail when `CI` is set (a CI machine must have it:
//! a silent skip there would hide the interop check) and otherwise skip with
//! the reason printed on stderr.

#[path = "common/process.rs"]
mod process;
#[path = "common/python.rs"]
mod python;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use process::{KillOnDrop, interop_file};
use python::venv;

fn run_client(python: &Path, transport: &str, target: &str) {
    let output = Command::new(python)
        .arg(interop_file("sep2792_client.py"))
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

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn python_sdk_client_over_stdio() {
    let Some(python) = venv() else { return };
    run_client(&python, "stdio", env!("CARGO_BIN_EXE_mcp-lang"));
}

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn python_sdk_client_over_streamable_http() {
    let Some(python) = venv() else { return };
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("no free port")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let _server = KillOnDrop(
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
