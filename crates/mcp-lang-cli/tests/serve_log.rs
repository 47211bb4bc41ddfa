//! `mcp-lang serve --http` logs for operators, captured from the process's
//! stderr at the default level: one line per request (method, status,
//! language), a HeaderMismatch with both values, and none of rmcp's chatter.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// The server process, stopped when the test ends (by its own handle).
struct Server {
    child: Child,
    lines: Receiver<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start() -> (Server, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
            .args(["serve", "--http", "127.0.0.1:0"])
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        let server = Server { child, lines };
        let started = server.next_line();
        let addr = started
            .split("url=http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no url in {started:?}"))
            .to_owned();
        (server, addr)
    }

    fn next_line(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(20))
            .expect("a log line within 20 s")
    }
}

/// One POST to /mcp; the status line.
fn post(addr: &str, headers: &[(&str, &str)], body: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         Connection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.lines().next().unwrap_or_default().to_owned()
}

fn tools_list(preference: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/acceptLanguage":"{preference}"}}}}}}"#
    )
}

#[test]
fn a_request_is_one_line_and_a_mismatch_quotes_both_values() {
    let (server, addr) = Server::start();

    let status = post(&addr, &[("Accept-Language", "fr")], &tools_list("fr"));
    assert!(status.contains(" 200 "), "{status}");
    let line = server.next_line();
    assert!(line.contains(" INFO "), "{line}");
    for field in [
        "method=tools/list",
        "status=200",
        "language=fr",
        "http=POST",
    ] {
        assert!(line.contains(field), "{field} missing in {line:?}");
    }

    let status = post(&addr, &[("Accept-Language", "dé")], &tools_list("fr"));
    assert!(status.contains(" 400 "), "{status}");
    let line = server.next_line();
    assert!(line.contains(" WARN "), "{line}");
    assert!(line.contains("HeaderMismatch: Accept-Language"), "{line}");
    assert_eq!(line.matches("HeaderMismatch").count(), 1, "{line}");
    assert!(line.contains("status=400"), "{line}");
    assert!(
        line.contains(r#""fr""#),
        "the _meta value is quoted: {line}"
    );
    assert!(
        line.contains(r#"Accept-Language "d\"#),
        "the header is quoted, escaped: {line}"
    );
    assert!(!line.contains('é'), "{line}");

    // Nothing else was logged for those two requests (no rmcp chatter, no
    // second line per request at the default level).
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.lines.try_recv().ok(), None);
}
