//! A minimal HTTP/1.1 exchange on a raw TCP socket, for the demo and the
//! loopback tests: it writes header lines exactly as given (so two
//! `Accept-Language` lines stay two lines on the wire, which HTTP clients
//! would merge) and returns every response field line as received.
//!
//! It sends `Connection: close` and reads to the end of the stream, decoding a
//! chunked body; it is not a general HTTP client.
//!
//! ```
//! use mcp_lang_reference::wire::Exchange;
//!
//! let exchange = Exchange { status: 200, headers: Vec::new(), body: "{\"id\":1,\"result\":{}}".into() };
//! assert_eq!(exchange.json().unwrap()["id"], 1);
//! assert!(exchange.events().is_empty()); // a JSON body, not an event stream
//! ```

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The largest response the helper reads (the demo's responses are a few KiB).
const MAX_RESPONSE: u64 = 4 << 20;

/// One HTTP response as received.
///
/// ```
/// use mcp_lang_reference::wire::Exchange;
///
/// let exchange = Exchange {
///     status: 400,
///     headers: vec![("content-type".into(), "application/json".into())],
///     body: r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"HeaderMismatch"}}"#.into(),
/// };
/// assert_eq!(exchange.json().unwrap()["error"]["code"], -32020);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// The status code.
    pub status: u16,
    /// Every field line, in received order, name lower-cased, value trimmed.
    pub headers: Vec<(String, String)>,
    /// The decoded body.
    pub body: String,
}

impl Exchange {
    /// Every value of the field `name` (lower case), in order.
    ///
    /// ```
    /// use mcp_lang_reference::wire::Exchange;
    ///
    /// let exchange = Exchange {
    ///     status: 200,
    ///     headers: vec![("vary".into(), "Origin".into()), ("content-language".into(), "de".into()),
    ///                   ("vary".into(), "Accept-Language".into())],
    ///     body: String::new(),
    /// };
    /// // Repeated lines stay separate, in received order.
    /// assert_eq!(exchange.header_values("vary"), ["Origin", "Accept-Language"]);
    /// ```
    pub fn header_values(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The body as JSON: the body itself, or for an event stream the last
    /// `data:` line that is JSON (the response).
    ///
    /// ```
    /// use mcp_lang_reference::wire::Exchange;
    ///
    /// let stream = Exchange {
    ///     status: 200,
    ///     headers: vec![("content-type".into(), "text/event-stream".into())],
    ///     body: "data: {\"method\":\"notifications/progress\"}\n\ndata: {\"id\":3,\"result\":{}}\n\n".into(),
    /// };
    /// assert_eq!(stream.json().unwrap()["id"], 3); // the last message: the response
    /// ```
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_str(&self.body)
            .ok()
            .or_else(|| self.events().into_iter().last())
    }

    /// Every JSON `data:` payload of an event-stream body, in order.
    ///
    /// ```
    /// use mcp_lang_reference::wire::Exchange;
    ///
    /// let stream = Exchange {
    ///     status: 200,
    ///     headers: Vec::new(),
    ///     body: "event: message\ndata: {\"a\":1}\n\n: keep-alive\ndata: {\"b\":2}\n\n".into(),
    /// };
    /// assert_eq!(stream.events(), [serde_json::json!({"a": 1}), serde_json::json!({"b": 2})]);
    /// ```
    pub fn events(&self) -> Vec<serde_json::Value> {
        self.body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str(data.trim()).ok())
            .collect()
    }
}

/// POSTs `body` to `path` on `addr` with the MCP headers plus `extra` field
/// lines, each written as one line.
///
/// # Errors
///
/// Connection or I/O failure, or a response that is not HTTP/1.1.
///
/// `Accept-Language` written as two field lines, which the server's exact
/// agreement check joins to `de, en;q=0.5`:
///
/// ```
/// use std::net::SocketAddr;
/// use mcp_lang_reference::{ReferenceServer, serve::{HttpMode, MCP_PATH, spawn_http}, wire::post};
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let http = spawn_http(ReferenceServer::new().unwrap(), SocketAddr::from(([127, 0, 0, 1], 0)), HttpMode::Stateless).await.unwrap();
/// let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de, en;q=0.5"}}}"#;
/// let lines = [("MCP-Protocol-Version", "2025-11-25"), ("Accept-Language", "de"), ("Accept-Language", "en;q=0.5")];
/// let exchange = post(http.local_addr(), MCP_PATH, &lines, list).await.unwrap();
/// assert_eq!((exchange.status, exchange.header_values("content-language")), (200, vec!["de"]));
/// http.shutdown().await;
/// # });
/// ```
pub async fn post(
    addr: SocketAddr,
    path: &str,
    extra: &[(&str, &str)],
    body: &str,
) -> std::io::Result<Exchange> {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in extra {
        request.push_str(name);
        request.push_str(": ");
        request.push_str(value);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    request.push_str(body);
    let mut stream = TcpStream::connect(addr).await?;
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.take(MAX_RESPONSE).read_to_end(&mut raw).await?;
    parse(&raw).ok_or_else(|| std::io::Error::other("malformed HTTP response"))
}

fn parse(raw: &[u8]) -> Option<Exchange> {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(raw.get(..split)?).ok()?;
    let rest = raw.get(split + 4..)?;
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        dechunk(rest)?
    } else {
        rest.to_vec()
    };
    Some(Exchange {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn dechunk(mut rest: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let end = rest.windows(2).position(|w| w == b"\r\n")?;
        let size_line = std::str::from_utf8(rest.get(..end)?).ok()?;
        let size = usize::from_str_radix(size_line.split(';').next()?.trim(), 16).ok()?;
        rest = rest.get(end + 2..)?;
        if size == 0 {
            return Some(body);
        }
        body.extend_from_slice(rest.get(..size)?);
        rest = rest.get(size + 2..).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_chunked_and_keeps_repeated_lines() {
        let raw = b"HTTP/1.1 200 OK\r\nVary: Origin\r\nVary: Accept-Language\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        let exchange = parse(raw).unwrap();
        assert_eq!(exchange.status, 200);
        assert_eq!(
            exchange.header_values("vary"),
            ["Origin", "Accept-Language"]
        );
        assert_eq!(exchange.body, "abcde");
    }

    #[test]
    fn truncated_input_is_none_not_a_panic() {
        assert_eq!(parse(b"HTTP/1.1 200"), None);
        assert_eq!(
            parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
            None
        );
        assert_eq!(
            parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"),
            None
        );
    }
}
