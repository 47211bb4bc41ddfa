//! Streamable HTTP: one POST per JSON-RPC request.
//!
//! Ordinary requests go through hyper's HTTP/1.1 client on one kept-alive
//! connection (so "consecutive requests over one connection" is literally one
//! TCP connection). Requests whose `Accept-Language` field lines must be
//! controlled byte for byte — surrounding whitespace, two lines — are written
//! by hand on a fresh TCP socket ([`HeaderPlan::Lines`]), because an HTTP
//! client library may merge, trim or refuse them.
//!
//! Responses are recorded with every field line in received order (hyper's
//! `HeaderMap` keeps repeated lines as separate values), and an
//! `text/event-stream` body is split into its `data:` messages.
//!
//! A server-to-client request on a POST's event stream (an
//! `elicitation/create` before protocol 2026-07-28) is answered while the
//! stream is read, as the Streamable HTTP transport prescribes: the JSON-RPC
//! response is POSTed to the endpoint with the same `Mcp-Session-Id`, and the
//! original stream is read on until the final response. The answer is the
//! one stdio gives ([`crate::wire::answer_server_request`]).

use bytes::Bytes;
use http::{Request, Uri};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use mcp_lang_wire as wire;
use serde_json::{Map, Value};
use tokio::net::TcpStream;

use crate::stdio::{MAX_MESSAGE_BYTES, REQUEST_TIMEOUT};
use crate::wire::{
    Call, Exchange, HeaderPlan, Preference, WireError, answer_server_request, initialize_call,
    is_server_request, protocol_meta,
};

/// One Streamable HTTP client of an MCP endpoint.
#[derive(Debug)]
pub(crate) struct HttpConnection {
    uri: Uri,
    authority: String,
    path: String,
    protocol: String,
    meta: Map<String, Value>,
    next_id: i64,
    sender: Option<SendRequest<Full<Bytes>>>,
    /// The `Mcp-Session-Id` the server gave at `initialize`, if any.
    session: Option<String>,
}

impl HttpConnection {
    /// A client of `url` (`http://host:port/path`).
    ///
    /// # Errors
    ///
    /// The URL is not an `http://` URL with a host.
    pub(crate) fn new(url: &str, protocol: &str) -> Result<Self, WireError> {
        let uri: Uri = url
            .parse()
            .map_err(|e| WireError(format!("bad --url {url}: {e}")))?;
        if uri.scheme_str() != Some("http") {
            return Err(WireError(format!(
                "--url must be an http:// URL (TLS is not supported): {url}"
            )));
        }
        let authority = uri
            .authority()
            .ok_or_else(|| WireError(format!("--url has no host: {url}")))?
            .to_string();
        let path = uri
            .path_and_query()
            .map_or_else(|| "/".to_owned(), |p| p.to_string());
        Ok(Self {
            uri,
            authority,
            path,
            protocol: protocol.to_owned(),
            meta: protocol_meta(protocol),
            next_id: 1,
            sender: None,
            session: None,
        })
    }

    /// The protocol version this client speaks.
    pub(crate) fn protocol(&self) -> &str {
        &self.protocol
    }

    /// The `Mcp-Session-Id` the server assigned at [`Self::open`], if it
    /// keeps sessions.
    pub(crate) fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    fn socket_addr(&self) -> String {
        let host = self.uri.host().unwrap_or("127.0.0.1");
        let port = self.uri.port_u16().unwrap_or(80);
        format!("{host}:{port}")
    }

    async fn connect(&mut self) -> Result<&mut SendRequest<Full<Bytes>>, WireError> {
        let alive = self.sender.as_ref().is_some_and(|s| !s.is_closed());
        if !alive {
            let stream = TcpStream::connect(self.socket_addr()).await?;
            let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                .await
                .map_err(|e| WireError(format!("HTTP handshake failed: {e}")))?;
            tokio::spawn(async move {
                let _ = connection.await;
            });
            self.sender = Some(sender);
        }
        self.sender
            .as_mut()
            .ok_or_else(|| WireError("no HTTP connection".into()))
    }

    /// The request headers every POST carries, except `Accept-Language`.
    fn base_headers(&self, call: &Call) -> Vec<(String, String)> {
        let mut headers = vec![
            ("Host".to_owned(), self.authority.clone()),
            ("Content-Type".to_owned(), "application/json".to_owned()),
            (
                "Accept".to_owned(),
                "application/json, text/event-stream".to_owned(),
            ),
            ("MCP-Protocol-Version".to_owned(), self.protocol.clone()),
            ("Mcp-Method".to_owned(), call.method.clone()),
        ];
        if let Some(name) = call.mcp_name() {
            headers.push(("Mcp-Name".to_owned(), name.to_owned()));
        }
        if let Some(session) = self.session.as_ref().filter(|_| !call.outside_session) {
            headers.push(("Mcp-Session-Id".to_owned(), session.clone()));
        }
        headers
    }

    /// Speaks `protocol` from now on (its `MCP-Protocol-Version` header, and
    /// its `_meta` when it is stateless).
    pub(crate) fn set_protocol(&mut self, protocol: &str) {
        protocol.clone_into(&mut self.protocol);
        self.meta = protocol_meta(protocol);
    }

    /// The `initialize` handshake of protocols before 2026-07-28, proposing
    /// this connection's protocol: the exchange (the server's answer names
    /// the version it chose). When it succeeded, the `Mcp-Session-Id` the
    /// server assigned is kept (sent on every later request) and
    /// `notifications/initialized` is sent.
    ///
    /// # Errors
    ///
    /// The request failed on the wire, or the server refused
    /// `notifications/initialized`.
    pub(crate) async fn initialize(&mut self) -> Result<Exchange, WireError> {
        let exchange = self.send(&initialize_call(&self.protocol.clone())).await?;
        if exchange.result().is_none() {
            return Ok(exchange);
        }
        self.session = exchange
            .header_lines("mcp-session-id")
            .first()
            .map(|s| (*s).to_owned());
        let notification = Call::new("notifications/initialized");
        let headers = self.base_headers(&notification);
        let body = serde_json::json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        let (status, _, _) = self.post(&headers, body.to_string()).await?;
        if !(200..300).contains(&status) {
            return Err(WireError(format!(
                "notifications/initialized was refused with HTTP {status}"
            )));
        }
        Ok(exchange)
    }

    /// Opens a session of its own with an `initialize` carrying
    /// `preference` (and `notifications/initialized`), sends `call` in it,
    /// and returns both exchanges; the connection's own session is kept
    /// for later requests. A server that assigns no session answers `call`
    /// without one.
    ///
    /// # Errors
    ///
    /// The connection failed or timed out, or the server refused
    /// `notifications/initialized`.
    pub(crate) async fn in_new_session(
        &mut self,
        preference: &str,
        call: &Call,
    ) -> Result<(Exchange, Option<Exchange>), WireError> {
        let initialize = Call::new("initialize")
            .param("protocolVersion", serde_json::json!(self.protocol))
            .param("capabilities", serde_json::json!({}))
            .param(
                "clientInfo",
                serde_json::json!({ "name": "mcp-lang-conformance", "version": env!("CARGO_PKG_VERSION") }),
            )
            .preference(preference)
            .outside_session();
        let opened = self.send(&initialize).await?;
        if opened.result().is_none() {
            return Ok((opened, None));
        }
        let session = opened
            .header_lines("mcp-session-id")
            .first()
            .map(|s| (*s).to_owned());
        let saved = std::mem::replace(&mut self.session, session);
        let notification = Call::new("notifications/initialized");
        let headers = self.base_headers(&notification);
        let body = serde_json::json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        let answer = match self.post(&headers, body.to_string()).await {
            Ok((status, _, _)) if (200..300).contains(&status) => self.send(call).await,
            Ok((status, _, _)) => Err(WireError(format!(
                "notifications/initialized was refused with HTTP {status}"
            ))),
            Err(e) => Err(e),
        };
        self.session = saved;
        Ok((opened, Some(answer?)))
    }

    /// Sends one request and reads the whole response.
    ///
    /// # Errors
    ///
    /// The connection failed or timed out.
    pub(crate) async fn send(&mut self, call: &Call) -> Result<Exchange, WireError> {
        tokio::time::timeout(REQUEST_TIMEOUT, self.send_inner(call))
            .await
            .map_err(|_| {
                WireError(format!(
                    "no HTTP response to {} within {} s",
                    call.method,
                    REQUEST_TIMEOUT.as_secs()
                ))
            })?
    }

    async fn send_inner(&mut self, call: &Call) -> Result<Exchange, WireError> {
        let id = self.next_id;
        self.next_id += 1;
        let message = call.to_message(id, &self.meta);
        let body = message.to_string();
        let mut headers = self.base_headers(call);
        let lines = match (&call.header, &call.preference) {
            (HeaderPlan::Mirror, Preference::Value(Value::String(s))) => vec![s.clone()],
            (HeaderPlan::Mirror | HeaderPlan::Omit, _) => Vec::new(),
            (HeaderPlan::Lines(lines), _) => {
                return raw_post(
                    &self.socket_addr(),
                    &self.path,
                    headers,
                    lines,
                    message,
                    body,
                )
                .await;
            }
        };
        for line in lines {
            headers.push(("Accept-Language".to_owned(), line));
        }
        let (status, header_lines, bytes) = self.post(&headers, body).await?;
        Ok(finish(message, status, header_lines, &bytes))
    }

    /// Answers a server-to-client request that arrived on a POST's event
    /// stream: the Streamable HTTP transport has the client POST the JSON-RPC
    /// response to the endpoint, in the same session. The kept-alive
    /// connection is still reading that stream, so the answer goes on a
    /// connection of its own. A response carries no `_meta` preference.
    async fn answer(&self, response: &Value) -> Result<(), WireError> {
        let mut builder = Request::post(self.path.as_str())
            .header("Host", self.authority.as_str())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", self.protocol.as_str());
        if let Some(session) = &self.session {
            builder = builder.header("Mcp-Session-Id", session.as_str());
        }
        let request = builder
            .body(Full::new(Bytes::from(response.to_string())))
            .map_err(|e| WireError(format!("cannot build the answer: {e}")))?;
        let stream = TcpStream::connect(self.socket_addr()).await?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| WireError(format!("HTTP handshake failed: {e}")))?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        let reply = sender
            .send_request(request)
            .await
            .map_err(|e| WireError(format!("answering the server's request failed: {e}")))?;
        let status = reply.status();
        let _ = http_body_util::Limited::new(reply.into_body(), MAX_MESSAGE_BYTES as usize)
            .collect()
            .await;
        if !status.is_success() {
            return Err(WireError(format!(
                "the server refused the answer to its request with HTTP {status}"
            )));
        }
        Ok(())
    }

    /// One POST on the kept-alive connection: status, field lines, body.
    /// While an event-stream body is read, each server-to-client request in
    /// it is answered ([`answer_server_request`], as on stdio).
    async fn post(
        &mut self,
        headers: &[(String, String)],
        body: String,
    ) -> Result<(u16, Vec<(String, String)>, Bytes), WireError> {
        let mut builder = Request::post(self.path.as_str());
        for (name, value) in headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        let request = builder
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| WireError(format!("cannot build the request: {e}")))?;
        let sender = self.connect().await?;
        sender
            .ready()
            .await
            .map_err(|e| WireError(format!("HTTP connection not ready: {e}")))?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| WireError(format!("HTTP request failed: {e}")))?;
        let status = response.status().as_u16();
        let header_lines: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let is_sse = is_event_stream(&header_lines);
        let mut body = response.into_body();
        let mut bytes = Vec::new();
        // Where the next unread event starts, and where the search for its
        // end resumes (so a long event split over many frames is scanned once).
        let (mut event_start, mut scanned) = (0, 0);
        while let Some(frame) = body.frame().await {
            let frame =
                frame.map_err(|e| WireError(format!("reading the response body failed: {e}")))?;
            let Ok(data) = frame.into_data() else {
                continue; // trailers
            };
            if (bytes.len() + data.len()) as u64 > MAX_MESSAGE_BYTES {
                return Err(WireError(format!(
                    "the response body exceeds {MAX_MESSAGE_BYTES} bytes"
                )));
            }
            bytes.extend_from_slice(&data);
            if !is_sse {
                continue;
            }
            // Answer each server-to-client request as soon as its event is
            // complete: the server holds the final response until it has
            // the answer.
            let (end, resume) = complete_events(&bytes, event_start, scanned);
            scanned = resume;
            if end > event_start {
                let events = bytes.get(event_start..end).unwrap_or_default();
                for message in wire::event_messages(events) {
                    if is_server_request(&message) {
                        self.answer(&answer_server_request(&message)).await?;
                    }
                }
                event_start = end;
            }
        }
        let bytes = Bytes::from(bytes);
        Ok((status, header_lines, bytes))
    }
}

/// Whether the response's `Content-Type` is `text/event-stream`.
fn is_event_stream(headers: &[(String, String)]) -> bool {
    headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("content-type")
            && v.to_ascii_lowercase().starts_with("text/event-stream")
    })
}

/// Where the complete events of an event stream read so far end: scanning
/// `body` from `scanned` (a line start at or after `event_start`), returns
/// the end of the last blank line (the end of an event) or `event_start` if
/// none, and the line start to resume scanning from.
fn complete_events(body: &[u8], event_start: usize, scanned: usize) -> (usize, usize) {
    let mut end = event_start;
    let mut line_start = scanned;
    let rest = body.get(scanned..).unwrap_or_default();
    for (offset, byte) in rest.iter().enumerate() {
        if *byte != b'\n' {
            continue;
        }
        let line_end = scanned + offset;
        let line = body.get(line_start..line_end).unwrap_or_default();
        if line.is_empty() || line == b"\r" {
            end = line_end + 1;
        }
        line_start = line_end + 1;
    }
    (end, line_start)
}

/// Builds the exchange from a response.
fn finish(request: Value, status: u16, headers: Vec<(String, String)>, body: &[u8]) -> Exchange {
    let messages = if is_event_stream(&headers) {
        wire::event_messages(body)
    } else {
        serde_json::from_slice::<Value>(body)
            .ok()
            .map(|v| match v {
                Value::Array(batch) => batch,
                other => vec![other],
            })
            .unwrap_or_default()
    };
    Exchange {
        request,
        status: Some(status),
        headers,
        messages,
    }
}

/// Writes one POST by hand on a new TCP connection ([`wire::send`]), with
/// the given `Accept-Language` lines exactly as given, and reads the response
/// until the server closes.
async fn raw_post(
    addr: &str,
    path: &str,
    headers: Vec<(String, String)>,
    accept_language: &[String],
    message: Value,
    body: String,
) -> Result<Exchange, WireError> {
    let lines: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .chain(
            accept_language
                .iter()
                .map(|l| ("Accept-Language", l.as_str())),
        )
        .collect();
    let answer = wire::send(addr, &wire::request("POST", path, &lines, body.as_bytes())).await?;
    Ok(finish(message, answer.status, answer.headers, &answer.body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_end_of_complete_events_as_frames_arrive() {
        // A priming event, then a request event split mid-line over two frames.
        let first = b"id: 0\ndata:\n\ndata: {\"id\":0,";
        assert_eq!(complete_events(first, 0, 0), (13, 13));
        let mut body = first.to_vec();
        body.extend_from_slice(b"\"method\":\"ping\"}\r\n\r\ndata: {}");
        let (end, resume) = complete_events(&body, 13, 13);
        assert_eq!(body.get(end..), Some(&b"data: {}"[..]));
        assert_eq!(resume, end);
        let events = wire::event_messages(body.get(13..end).unwrap());
        assert_eq!(events, vec![serde_json::json!({"id": 0, "method": "ping"})]);
        // Nothing complete yet: the start stays where it was.
        assert_eq!(complete_events(b"data: {", 0, 0), (0, 0));
    }
}
