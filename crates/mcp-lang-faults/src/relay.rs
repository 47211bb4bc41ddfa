//! Wire alterations: faults of a server that reads the request's bytes
//! itself rather than through an HTTP library, so that what every library
//! strips (the whitespace around a field value) reaches its comparison.
//!
//! A [`Served`] endpoint is an HTTP server with, for such a fault, a relay in
//! front of it: the relay reads the first request of each connection, and
//! either answers it as the faulty server would or passes its bytes, and the
//! rest of the connection, to the server behind it.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use mcp_lang_meta::ACCEPT_LANGUAGE_KEY;
use mcp_lang_reference::serve::HttpServer;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

use crate::{Alteration, Fault, FaultLayer};

/// The most bytes of a request (head and body) the relay reads before it
/// passes the connection on unexamined.
const READ_LIMIT: usize = 1 << 20;

/// How long the relay waits for a request to arrive whole.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// An HTTP endpoint of the fault bench: the server, and the relay in front
/// of it when the alteration acts on the wire.
///
/// ```no_run
/// use std::net::SocketAddr;
/// use mcp_lang_faults::{Fault, spawn_http};
/// use mcp_lang_reference::{ReferenceServer, serve::HttpMode};
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// let any = SocketAddr::from(([127, 0, 0, 1], 0));
/// let served = spawn_http(ReferenceServer::new()?, any, HttpMode::Stateless, Some(Fault::RawFieldValue.into())).await?;
/// println!("{}", served.url());
/// served.shutdown().await;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Served {
    http: HttpServer,
    relay: Option<Relay>,
}

#[derive(Debug)]
struct Relay {
    addr: SocketAddr,
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl Served {
    /// `http`, with a relay on `listen` in front of it when `alteration` is
    /// a wire fault (it is then bound to `listen`'s loopback twin at any
    /// port, and `listen` is the endpoint).
    ///
    /// # Errors
    ///
    /// `listen` cannot be bound.
    pub async fn new(
        http: HttpServer,
        listen: SocketAddr,
        alteration: Option<Alteration>,
    ) -> io::Result<Self> {
        let Some(Alteration::Fault(fault)) = alteration.filter(|a| a.layer() == FaultLayer::Wire)
        else {
            return Ok(Self { http, relay: None });
        };
        let listener = TcpListener::bind(listen).await?;
        let addr = listener.local_addr()?;
        let upstream = http.local_addr();
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        let task = tokio::spawn(async move {
            loop {
                let accepted = tokio::select! {
                    () = stop.cancelled() => return,
                    accepted = listener.accept() => accepted,
                };
                let Ok((client, _)) = accepted else {
                    continue;
                };
                let stop = stop.clone();
                tokio::spawn(async move {
                    tokio::select! {
                        () = stop.cancelled() => {}
                        _ = relay(client, upstream, fault) => {}
                    }
                });
            }
        });
        Ok(Self {
            http,
            relay: Some(Relay { addr, cancel, task }),
        })
    }

    /// The endpoint's address.
    ///
    /// ```no_run
    /// # async fn example(served: mcp_lang_faults::Served) {
    /// let port = served.local_addr().port();
    /// # let _ = port; }
    /// ```
    pub fn local_addr(&self) -> SocketAddr {
        self.relay
            .as_ref()
            .map_or_else(|| self.http.local_addr(), |r| r.addr)
    }

    /// The endpoint's URL, `http://ADDR/mcp`.
    ///
    /// ```no_run
    /// # async fn example(served: mcp_lang_faults::Served) {
    /// assert!(served.url().ends_with("/mcp"));
    /// # }
    /// ```
    pub fn url(&self) -> String {
        format!(
            "http://{}{}",
            self.local_addr(),
            mcp_lang_reference::serve::MCP_PATH
        )
    }

    /// Stops the relay and the server.
    ///
    /// ```no_run
    /// # async fn example(served: mcp_lang_faults::Served) {
    /// served.shutdown().await;
    /// # }
    /// ```
    pub async fn shutdown(self) {
        if let Some(relay) = self.relay {
            relay.cancel.cancel();
            let _ = relay.task.await;
        }
        self.http.shutdown().await;
    }

    /// Waits until the server stops.
    ///
    /// # Errors
    ///
    /// The server's accept loop failed.
    ///
    /// ```no_run
    /// # async fn example(served: mcp_lang_faults::Served) -> std::io::Result<()> {
    /// served.wait().await?;
    /// # Ok(()) }
    /// ```
    pub async fn wait(self) -> io::Result<()> {
        self.http.wait().await
    }
}

/// One connection: its first request read whole, answered as `fault` reads
/// it or passed on with everything after it.
async fn relay(mut client: TcpStream, upstream: SocketAddr, fault: Fault) -> io::Result<()> {
    let read = tokio::time::timeout(READ_TIMEOUT, read_request(&mut client)).await;
    let Ok(Ok(bytes)) = read else {
        return Ok(());
    };
    if let Some(answer) = answer(fault, &bytes) {
        client.write_all(&answer).await?;
        return client.shutdown().await;
    }
    let mut server = TcpStream::connect(upstream).await?;
    server.write_all(&bytes).await?;
    tokio::io::copy_bidirectional(&mut client, &mut server).await?;
    Ok(())
}

/// The bytes of the first request: its head and as much body as its
/// `Content-Length` gives (or what arrived when the limit or the end of the
/// stream comes first).
async fn read_request(stream: &mut TcpStream) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = find(&bytes, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&bytes[..end]);
            let length = field_values(&head, "content-length")
                .next()
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if bytes.len() >= end + 4 + length.min(READ_LIMIT) {
                return Ok(bytes);
            }
        }
        if bytes.len() >= READ_LIMIT {
            return Ok(bytes);
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(bytes);
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The raw values of the field lines named `name` (case-insensitively): all
/// that follows the colon, whitespace included.
fn field_values<'a>(head: &'a str, name: &'a str) -> impl Iterator<Item = &'a str> {
    head.split("\r\n").skip(1).filter_map(move |line| {
        let (field, value) = line.split_once(':')?;
        field.eq_ignore_ascii_case(name).then_some(value)
    })
}

/// What `fault` answers to `request`, when it answers it itself: a
/// HeaderMismatch when its reading of the `Accept-Language` lines differs
/// from `_meta`, where the right reading (whitespace around each value
/// removed) agrees.
fn answer(fault: Fault, request: &[u8]) -> Option<Vec<u8>> {
    let end = find(request, b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&request[..end]);
    let values: Vec<&str> = field_values(&head, "accept-language").collect();
    if values.is_empty() {
        return None;
    }
    let misread: Vec<&str> = values
        .iter()
        .map(|v| match fault {
            // Everything after `: `, as a `split_once(": ")` reads it.
            Fault::RawFieldValue => v.strip_prefix(' ').unwrap_or(v),
            // Leading whitespace removed, trailing kept.
            Fault::TrailingOwsKept => v.trim_start_matches([' ', '\t']),
            _ => v,
        })
        .collect();
    let right: Vec<&str> = values.iter().map(|v| v.trim_matches([' ', '\t'])).collect();
    let body: Value = serde_json::from_slice(&request[end + 4..]).ok()?;
    let meta = body
        .pointer("/params/_meta")
        .and_then(|m| m.get(ACCEPT_LANGUAGE_KEY))
        .and_then(Value::as_str)?;
    let (misread, right) = (misread.join(", "), right.join(", "));
    if misread == meta || right != meta {
        return None;
    }
    let id = body.get("id").cloned().unwrap_or(Value::Null);
    let json = json!({ "jsonrpc": "2.0", "id": id, "error": {
        "code": -32020, "message": "Accept-Language does not agree with _meta" } })
    .to_string();
    Some(
        format!(
            "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{json}",
            json.len()
        )
        .into_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(lines: &[&str], meta: &str) -> Vec<u8> {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
            "params": {"_meta": {ACCEPT_LANGUAGE_KEY: meta}}})
        .to_string();
        let mut head = String::from("POST /mcp HTTP/1.1\r\nhost: x\r\n");
        for line in lines {
            head.push_str(&format!("Accept-Language:{line}\r\n"));
        }
        head.push_str(&format!("content-length: {}\r\n\r\n{body}", body.len()));
        head.into_bytes()
    }

    #[test]
    fn whitespace_around_the_value_is_a_mismatch_only_to_the_faults() {
        let padded = request(&["  en "], "en");
        assert!(answer(Fault::RawFieldValue, &padded).is_some());
        assert!(answer(Fault::TrailingOwsKept, &padded).is_some());
        let leading = request(&["  en"], "en");
        assert!(answer(Fault::RawFieldValue, &leading).is_some());
        assert!(answer(Fault::TrailingOwsKept, &leading).is_none());
        // The usual single space is read right by both.
        let plain = request(&[" en"], "en");
        assert!(answer(Fault::RawFieldValue, &plain).is_none());
        assert!(answer(Fault::TrailingOwsKept, &plain).is_none());
        // A real mismatch is left to the server behind.
        let other = request(&[" de"], "en");
        assert!(answer(Fault::RawFieldValue, &other).is_none());
    }
}
