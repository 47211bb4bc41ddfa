//! One HTTP/1.1 exchange on a raw TCP socket, for what an HTTP client
//! library would hide: the request's field lines are written exactly as given
//! (two `Accept-Language` lines stay two lines, whitespace around a value
//! stays), and every field line of the response comes back in received order.
//!
//! Use it to test an HTTP server's handling of field lines, the way SEP-2792's
//! agreement rule needs (`mcp-lang demo` shows the rule with it, the
//! conformance suite sends its field-line cases with it, and the
//! specification chapter's exchanges are recorded with it). To talk to a
//! server, use an HTTP client (`hyper`, `reqwest`); this crate is for the
//! bytes a client would normalize away.
//!
//! A request is written with `Connection: close` and the answer read to the
//! end of the connection (at most [`MAX_RESPONSE`] bytes), so one exchange is
//! one connection; the response head is parsed by `httparse` and a chunked
//! body decoded. It is not a general HTTP client: no keep-alive, no
//! redirects, no TLS.
//!
//! ```
//! use mcp_lang_wire::{Exchange, request};
//!
//! // Two Accept-Language field lines, as written on the wire.
//! let bytes = request("POST", "/mcp", &[("Host", "example"), ("Accept-Language", "de"), ("Accept-Language", "en;q=0.5")], b"{}");
//! let text = String::from_utf8(bytes).unwrap();
//! assert!(text.contains("Accept-Language: de\r\nAccept-Language: en;q=0.5\r\n"));
//!
//! // A response as read from the socket: repeated lines stay separate.
//! let raw = b"HTTP/1.1 200 OK\r\nVary: Origin\r\nvary: Accept-Language\r\nContent-Length: 2\r\n\r\n{}";
//! let exchange = Exchange::parse(raw).unwrap();
//! assert_eq!(exchange.header_values("vary"), ["Origin", "Accept-Language"]);
//! ```

use std::io;
use std::net::SocketAddr;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, ToSocketAddrs};

/// The most bytes of a response one exchange reads.
///
/// ```
/// assert_eq!(mcp_lang_wire::MAX_RESPONSE, 16 << 20);
/// ```
pub const MAX_RESPONSE: u64 = 16 << 20;

/// The most field lines a response head may have.
const MAX_FIELD_LINES: usize = 256;

/// One HTTP response as received.
///
/// ```
/// use mcp_lang_wire::Exchange;
///
/// let raw = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32020}}";
/// let exchange = Exchange::parse(raw).unwrap();
/// assert_eq!((exchange.status, exchange.reason.as_str()), (400, "Bad Request"));
/// assert_eq!(exchange.json().unwrap()["error"]["code"], -32020);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// The status code.
    pub status: u16,
    /// The reason phrase of the status line.
    pub reason: String,
    /// Every field line in received order: the name lower-cased, the value
    /// without the SP and HTAB around it (RFC 9110 §5.5).
    pub headers: Vec<(String, String)>,
    /// The body, a chunked one decoded.
    pub body: Vec<u8>,
}

impl Exchange {
    /// Parses a response read to the end of its connection.
    ///
    /// # Errors
    ///
    /// [`io::ErrorKind::InvalidData`]: not an HTTP/1.x response, a head that
    /// does not end, or a chunked body that is cut short or malformed.
    ///
    /// ```
    /// use mcp_lang_wire::Exchange;
    ///
    /// let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n";
    /// assert_eq!(Exchange::parse(chunked).unwrap().body, b"abcde");
    /// assert!(Exchange::parse(b"HTTP/1.1 200").is_err());
    /// assert!(Exchange::parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab").is_err());
    /// ```
    pub fn parse(raw: &[u8]) -> io::Result<Self> {
        let mut slots = [httparse::EMPTY_HEADER; MAX_FIELD_LINES];
        let mut response = httparse::Response::new(&mut slots);
        let head_len = match response.parse(raw) {
            Ok(httparse::Status::Complete(len)) => len,
            Ok(httparse::Status::Partial) => return Err(invalid("the response head does not end")),
            Err(e) => return Err(invalid(format!("not an HTTP/1.x response: {e}"))),
        };
        let headers: Vec<(String, String)> = response
            .headers
            .iter()
            .map(|h| {
                let value = String::from_utf8_lossy(h.value);
                (
                    h.name.to_ascii_lowercase(),
                    value.trim_matches([' ', '\t']).to_owned(),
                )
            })
            .collect();
        let rest = raw.get(head_len..).unwrap_or_default();
        let chunked = headers
            .iter()
            .any(|(n, v)| n == "transfer-encoding" && v.to_ascii_lowercase().ends_with("chunked"));
        Ok(Self {
            status: response.code.unwrap_or_default(),
            reason: response.reason.unwrap_or_default().to_owned(),
            body: if chunked {
                dechunk(rest)?
            } else {
                rest.to_vec()
            },
            headers,
        })
    }

    /// Every value of the field `name` (lower case), in received order.
    ///
    /// ```
    /// use mcp_lang_wire::Exchange;
    ///
    /// let raw = b"HTTP/1.1 200 OK\r\nContent-Language:  de \r\n\r\n";
    /// assert_eq!(Exchange::parse(raw).unwrap().header_values("content-language"), ["de"]);
    /// ```
    pub fn header_values(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Whether the body is an event stream (`Content-Type: text/event-stream`).
    ///
    /// ```
    /// use mcp_lang_wire::Exchange;
    ///
    /// let raw = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: {}\n\n";
    /// assert!(Exchange::parse(raw).unwrap().is_event_stream());
    /// ```
    pub fn is_event_stream(&self) -> bool {
        self.header_values("content-type")
            .iter()
            .any(|v| v.to_ascii_lowercase().starts_with("text/event-stream"))
    }

    /// The body as JSON: the body itself, or for an event stream its last
    /// message (the response).
    ///
    /// ```
    /// use mcp_lang_wire::Exchange;
    ///
    /// let raw = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: {\"method\":\"notifications/progress\"}\n\ndata: {\"id\":3,\"result\":{}}\n\n";
    /// assert_eq!(Exchange::parse(raw).unwrap().json().unwrap()["id"], 3);
    /// ```
    pub fn json(&self) -> Option<Value> {
        if self.is_event_stream() {
            event_messages(&self.body).pop()
        } else {
            serde_json::from_slice(&self.body).ok()
        }
    }

    /// Every JSON message of an event-stream body, in order
    /// ([`event_messages`]).
    ///
    /// ```
    /// use mcp_lang_wire::Exchange;
    ///
    /// let raw = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: {\"a\":1}\n\n: keep-alive\n\ndata: {\"b\":2}\n\n";
    /// assert_eq!(Exchange::parse(raw).unwrap().events(), [serde_json::json!({"a": 1}), serde_json::json!({"b": 2})]);
    /// ```
    pub fn events(&self) -> Vec<Value> {
        event_messages(&self.body)
    }
}

/// The JSON messages of an event stream: each event's `data:` lines joined
/// with `\n` (WHATWG Server-Sent Events); events without data (a priming
/// event, a comment) and data that is not JSON are skipped.
///
/// ```
/// use mcp_lang_wire::event_messages;
/// use serde_json::json;
///
/// let body = b"id: 0\nretry: 3000\ndata:\n\ndata: {\"a\":1}\r\n\r\ndata: {\"b\":\ndata: 2}\n\n";
/// assert_eq!(event_messages(body), [json!({"a": 1}), json!({"b": 2})]);
/// ```
pub fn event_messages(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    let mut messages = Vec::new();
    let mut data = String::new();
    // A final blank line ends an event that the stream did not end itself.
    for line in text.split('\n').chain(std::iter::once("")) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            if let Ok(message) = serde_json::from_str(&data) {
                messages.push(message);
            }
            data.clear();
        } else if let Some(rest) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
        }
    }
    messages
}

/// The bytes of one request: the request line, each of `lines` as
/// `name: value` exactly as given, then `Content-Length` and
/// `Connection: close`, and the body.
///
/// ```
/// use mcp_lang_wire::request;
///
/// let bytes = request("POST", "/mcp", &[("Host", "h"), ("Accept-Language", "  en ")], b"{}");
/// assert_eq!(
///     bytes,
///     b"POST /mcp HTTP/1.1\r\nHost: h\r\nAccept-Language:   en \r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
/// );
/// ```
pub fn request(method: &str, path: &str, lines: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    for (name, value) in lines {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Writes `request` (all of it, as given) on a new connection to `addr` while
/// reading the answer until the server closes the connection: a server that
/// answers before it has read the whole request (a body over its limit) is
/// heard, and a reset after its answer ends the read like the end of the
/// stream. Returns the bytes read, at most [`MAX_RESPONSE`].
///
/// # Errors
///
/// The connection could not be made, or failed before anything was read.
///
/// ```no_run
/// use mcp_lang_wire::{Exchange, request, round_trip};
///
/// # async fn example() -> std::io::Result<()> {
/// // A body of 1 MiB to a server that answers 413 after reading its head.
/// let big = request("POST", "/mcp", &[("Host", "127.0.0.1:8080")], &[b' '; 1 << 20]);
/// let raw = round_trip("127.0.0.1:8080", &big).await?;
/// assert_eq!(Exchange::parse(&raw)?.status, 413);
/// # Ok(()) }
/// ```
pub async fn round_trip(addr: impl ToSocketAddrs, request: &[u8]) -> io::Result<Vec<u8>> {
    let mut stream = TcpStream::connect(addr).await?;
    let (read, mut write) = stream.split();
    let mut read = read.take(MAX_RESPONSE);
    let mut answer = Vec::new();
    let (_, read_result) = tokio::join!(
        async {
            // The server may close before taking everything: not an error here.
            let _ = write.write_all(request).await;
            let _ = write.flush().await;
        },
        read.read_to_end(&mut answer)
    );
    match read_result {
        Err(e) if answer.is_empty() => Err(e),
        _ => Ok(answer),
    }
}

/// Sends `request` ([`round_trip`]) and parses the answer.
///
/// # Errors
///
/// The connection failed before anything was read, or the answer is not an
/// HTTP/1.x response ([`Exchange::parse`]).
///
/// ```no_run
/// use mcp_lang_wire::{request, send};
///
/// # async fn example() -> std::io::Result<()> {
/// // A Content-Type the server does not accept.
/// let text = request("POST", "/mcp", &[("Host", "127.0.0.1:8080"), ("Content-Type", "text/plain")], b"hi");
/// assert_eq!(send("127.0.0.1:8080", &text).await?.status, 415);
/// # Ok(()) }
/// ```
pub async fn send(addr: impl ToSocketAddrs, request: &[u8]) -> io::Result<Exchange> {
    Exchange::parse(&round_trip(addr, request).await?)
}

/// The bytes of a POST of the JSON `body` to `path` on `host`: `Host`,
/// `Content-Type` and `Accept` as an MCP client sends them, then the `extra`
/// field lines, each written as one line ([`request`]).
///
/// ```
/// use mcp_lang_wire::post_request;
///
/// let bytes = post_request("127.0.0.1:8080", "/mcp", &[("Accept-Language", "de")], b"{}");
/// let text = String::from_utf8(bytes).unwrap();
/// assert!(text.starts_with("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n"));
/// assert!(text.contains("\r\nAccept-Language: de\r\n"));
/// ```
pub fn post_request(host: &str, path: &str, extra: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut lines = vec![
        ("Host", host),
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    lines.extend_from_slice(extra);
    request("POST", path, &lines, body)
}

/// POSTs the JSON `body` to `path` on `addr` ([`post_request`]) and reads
/// the answer.
///
/// # Errors
///
/// Connection or I/O failure, or a response that is not HTTP/1.x.
///
/// `Accept-Language` written as two field lines, which the server's exact
/// agreement check joins to `de, en;q=0.5`:
///
/// ```no_run
/// use mcp_lang_wire::post;
/// const MCP_PATH: &str = "/mcp";
///
/// # async fn example(addr: std::net::SocketAddr) -> std::io::Result<()> {
/// let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de, en;q=0.5"}}}"#;
/// let lines = [("Accept-Language", "de"), ("Accept-Language", "en;q=0.5")];
/// let exchange = post(addr, MCP_PATH, &lines, list).await?;
/// assert_eq!((exchange.status, exchange.header_values("content-language")), (200, vec!["de"]));
/// # Ok(()) }
/// ```
pub async fn post(
    addr: SocketAddr,
    path: &str,
    extra: &[(&str, &str)],
    body: &str,
) -> io::Result<Exchange> {
    let request = post_request(&addr.to_string(), path, extra, body.as_bytes());
    send(addr, &request).await
}

/// Decodes a chunked body (extensions and trailers ignored).
fn dechunk(mut rest: &[u8]) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let (line_len, size) = match httparse::parse_chunk_size(rest) {
            Ok(httparse::Status::Complete(found)) => found,
            _ => return Err(invalid("a chunked body is cut short or malformed")),
        };
        if size == 0 {
            return Ok(body);
        }
        let start = line_len;
        let end = usize::try_from(size)
            .ok()
            .and_then(|size| start.checked_add(size))
            .filter(|end| *end <= rest.len())
            .ok_or_else(|| invalid("a chunk is shorter than its size"))?;
        body.extend_from_slice(rest.get(start..end).unwrap_or_default());
        rest = rest.get(end..).unwrap_or_default();
        rest = rest.strip_prefix(b"\r\n").unwrap_or(rest);
    }
}

fn invalid(message: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server that answers 413 after reading only the request head, and
    /// closes: the answer is heard although the body was never taken.
    #[tokio::test]
    async fn an_answer_before_the_whole_request_is_heard() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut head = [0u8; 64];
            let _ = socket.read(&mut head).await;
            let _ = socket
                .write_all(b"HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n")
                .await;
        });
        let big = request("POST", "/mcp", &[("Host", "h")], &vec![b' '; 8 << 20]);
        let exchange = send(addr, &big).await.unwrap();
        assert_eq!(
            (exchange.status, exchange.reason.as_str()),
            (413, "Payload Too Large")
        );
    }

    #[test]
    fn an_oversized_chunk_size_is_an_error_not_a_panic() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nab";
        assert!(Exchange::parse(raw).is_err());
    }
}
