//! What the example tests share: the built examples (next to the test binaries), a
//! running example that stops when dropped, and one HTTP/1.1 POST (the request written
//! by `mcp_lang_wire`, on a blocking socket), its reply as text.

#![allow(dead_code)] // each test binary uses its own part

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use mcp_lang_wire as wire;

/// A spawned example, killed when dropped.
pub(crate) struct Running(pub(crate) Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The built example `name`, from the source `examples/SOURCE.rs` (the example's own
/// name unless given).
pub(crate) fn example_from(name: &str, source: &str) -> PathBuf {
    // target/<profile>/deps/TEST-HASH → target/<profile>/examples/NAME
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    let path = profile_dir.join("examples").join(name);
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(source);
    let modified = |p: &std::path::Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    // `cargo test -p mcp-lang-examples` builds the examples; `--test NAME` alone
    // does not, and would run stale binaries.
    assert!(
        modified(&path) >= modified(&source),
        "{} is missing or older than its source: run `cargo test -p mcp-lang-examples` \
         (which builds the examples) rather than `--test` alone",
        path.display()
    );
    path
}

/// The built example `name` (source `examples/NAME.rs`).
pub(crate) fn example(name: &str) -> PathBuf {
    example_from(name, &format!("examples/{name}.rs"))
}

/// Starts a server example and returns it with the URL it printed on its first line.
pub(crate) fn start_server(name: &str, args: &[&str]) -> (Running, String) {
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
pub(crate) fn post(url: &str, headers: &[(&str, &str)], body: &str) -> String {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (authority, path) = rest.split_once('/').expect("a path");
    let mut stream = TcpStream::connect(authority).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let request = wire::post_request(authority, &format!("/{path}"), headers, body.as_bytes());
    stream.write_all(&request).expect("send");
    let mut reply = String::new();
    stream.read_to_string(&mut reply).expect("read");
    reply
}
