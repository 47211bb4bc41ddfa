//! The exchanges shown in `docs/specification-chapter.md`, recorded from the reference
//! server rather than typed by hand.
//!
//! Every example in the chapter is a real conversation with `mcp-lang-reference`: the
//! generator starts the server in this process (Streamable HTTP behind the tower layer of
//! `mcp-lang-http`, on a loopback port; and stdio framing over an in-memory pipe), sends
//! each request as bytes, and writes down what came back. The chapter marks the place of
//! each exchange with a pair of HTML comments,
//!
//! ```text
//! <!-- exchange: discovery -->
//! …generated text, replaced on every run…
//! <!-- /exchange -->
//! ```
//!
//! and [`splice`] replaces what lies between them. A test (`tests/chapter_current.rs`)
//! regenerates the chapter and fails when the checked-in copy differs, so the examples
//! cannot drift from what the server does.
//!
//! What the rendering leaves out, so that the text is stable from run to run: the `Date`
//! header, the transport's framing headers (`Content-Length`, `Transfer-Encoding`,
//! `Connection`) and the `Host` the request was sent to. JSON bodies are re-indented
//! for reading, keeping the key order the server wrote; event-stream bodies are shown as
//! sent.

use std::collections::BTreeSet;
use std::error::Error;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::{HttpMode, MCP_PATH, spawn_http};
use mcp_lang_wire::{self as wire, Exchange};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A boxed error: the generator reports, it does not recover.
pub type BoxError = Box<dyn Error + Send + Sync>;

/// How long one exchange may take before the generator gives up.
const EXCHANGE_TIMEOUT: Duration = Duration::from_secs(20);

/// The `_meta` keys a 2026-07-28 (stateless) request carries about its client.
const CLIENT_CONTEXT: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"docs-client","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}"#;

/// One HTTP request of an exchange: extra header lines (in order, repeats allowed) and
/// the JSON body as written (compacted before sending).
struct HttpRequest {
    headers: Vec<(&'static str, &'static str)>,
    body: String,
}

impl HttpRequest {
    /// A request of `method` whose `params` hold only a `_meta` preference, sent with
    /// `headers`.
    fn with_preference(
        id: u32,
        method: &str,
        preference: &str,
        headers: Vec<(&'static str, &'static str)>,
    ) -> HttpRequest {
        HttpRequest {
            headers,
            body: request_with_preference(id, method, preference),
        }
    }

    /// A 2026-07-28 (stateless) `tools/call` of `tool` with `arguments` (JSON text): the
    /// routing headers, one `Accept-Language` line equal to `preference`, and the client
    /// context in `_meta` followed by `extra_meta` (members, each after a comma) and the
    /// preference.
    fn stateless_call(
        id: u32,
        tool: &'static str,
        arguments: &str,
        preference: &'static str,
        extra_meta: &str,
    ) -> HttpRequest {
        HttpRequest {
            headers: vec![
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", tool),
                ("Accept-Language", preference),
            ],
            body: format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},"_meta":{{{CLIENT_CONTEXT}{extra_meta},"io.modelcontextprotocol/acceptLanguage":"{preference}"}}}}}}"#
            ),
        }
    }
}

/// A request of `method` whose `params` hold only a `_meta` preference (JSON text).
fn request_with_preference(id: u32, method: &str, preference: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{}}}}}"#,
        meta(preference)
    )
}

/// A `_meta` member holding `preference` (JSON text, without the braces around it).
fn meta(preference: &str) -> String {
    format!(r#""_meta":{{"io.modelcontextprotocol/acceptLanguage":"{preference}"}}"#)
}

/// One exchange as the chapter shows it.
enum Script {
    /// One or more HTTP requests, each on its own connection.
    Http(Vec<HttpRequest>),
    /// JSON-RPC messages written one per line to a fresh stdio session, in order; the
    /// server's lines are recorded as they arrive. A message with an `id` waits for its
    /// response before the next is sent.
    Stdio(Vec<String>),
}

/// The name of each exchange, in the order the chapter uses them, and its script.
fn scripts() -> Vec<(&'static str, Script)> {
    vec![
        (
            "discovery",
            Script::Http(vec![HttpRequest::with_preference(
                1,
                "tools/list",
                "fr-CA,fr;q=0.9,en;q=0.5",
                vec![("Accept-Language", "fr-CA,fr;q=0.9,en;q=0.5")],
            )]),
        ),
        (
            "request-scope",
            Script::Stdio(vec![
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"docs-client","version":"1.0.0"}},{}}}}}"#,
                    meta("ga, en;q=0.5")
                ),
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
                request_with_preference(2, "resources/templates/list", "de-AT, en;q=0.5"),
                r#"{"jsonrpc":"2.0","id":3,"method":"resources/templates/list","params":{}}"#
                    .to_owned(),
                request_with_preference(4, "resources/templates/list", "ja"),
            ]),
        ),
        (
            "weights",
            Script::Http(vec![
                HttpRequest::with_preference(
                    15,
                    "resources/templates/list",
                    "ja;q=0.8, *;q=0.5, en;q=0",
                    vec![("Accept-Language", "ja;q=0.8, *;q=0.5, en;q=0")],
                ),
                HttpRequest::with_preference(
                    16,
                    "resources/templates/list",
                    "pt-BR, *;q=0.1, en;q=0",
                    vec![("Accept-Language", "pt-BR, *;q=0.1, en;q=0")],
                ),
            ]),
        ),
        (
            "fallback",
            Script::Http(vec![HttpRequest::with_preference(
                5,
                "resources/templates/list",
                "pt-BR, es;q=0.8",
                vec![("Accept-Language", "pt-BR, es;q=0.8")],
            )]),
        ),
        (
            "malformed",
            Script::Http(vec![HttpRequest::with_preference(
                6,
                "resources/templates/list",
                "fr;q=2",
                vec![("Accept-Language", "fr;q=2")],
            )]),
        ),
        (
            "elicitation",
            Script::Http(vec![HttpRequest::stateless_call(
                2,
                "send_confirmation",
                "{}",
                "de",
                "",
            )]),
        ),
        (
            "progress",
            Script::Http(vec![HttpRequest::stateless_call(
                7,
                "prepare_report",
                r#"{"topic":"SEP-2792"}"#,
                "ja",
                r#","progressToken":"report-1""#,
            )]),
        ),
        (
            "explicit-language",
            Script::Http(vec![HttpRequest::stateless_call(
                8,
                "get_official_document",
                r#"{"document":"udhr-article-1","language":"ga"}"#,
                "en",
                "",
            )]),
        ),
        (
            "localized-error",
            Script::Http(vec![HttpRequest::stateless_call(
                9,
                "get_official_document",
                r#"{"document":"magna-carta"}"#,
                "fr",
                "",
            )]),
        ),
        (
            "two-field-lines",
            Script::Http(vec![HttpRequest::with_preference(
                10,
                "prompts/list",
                "en-US, en;q=0.9",
                vec![
                    ("Accept-Language", "en-US"),
                    ("Accept-Language", "  en;q=0.9"),
                ],
            )]),
        ),
        (
            "mismatch",
            Script::Http(vec![
                HttpRequest::with_preference(
                    11,
                    "prompts/list",
                    "en-US",
                    vec![("Accept-Language", "en-us")],
                ),
                HttpRequest::with_preference(
                    12,
                    "prompts/list",
                    "en-US, en;q=0.9",
                    vec![("Accept-Language", "en-US,en;q=0.9")],
                ),
            ]),
        ),
        (
            "stripped-header",
            Script::Http(vec![HttpRequest::with_preference(
                13,
                "prompts/list",
                "fr-CA",
                vec![],
            )]),
        ),
        (
            "bare-header",
            Script::Http(vec![HttpRequest {
                headers: vec![("Accept-Language", "fr-CA")],
                body: r#"{"jsonrpc":"2.0","id":14,"method":"prompts/list","params":{}}"#.to_owned(),
            }]),
        ),
    ]
}

/// Records every exchange against a fresh reference server and renders each one as the
/// markdown the chapter shows: `(name, text)` pairs in chapter order.
///
/// # Errors
///
/// The server could not start, a request failed or timed out, or a reply was not what
/// the transport promises (not HTTP/1.1, not JSON where JSON was announced).
pub fn generate() -> Result<Vec<(&'static str, String)>, BoxError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = ReferenceServer::new()?;
        let addr: SocketAddr = ([127, 0, 0, 1], 0).into();
        let http = spawn_http(server.clone(), addr, HttpMode::Stateless).await?;
        let mut rendered = Vec::new();
        for (name, script) in scripts() {
            let text = match script {
                Script::Http(requests) => {
                    let mut text = String::new();
                    for (index, request) in requests.iter().enumerate() {
                        if index > 0 {
                            text.push('\n');
                        }
                        let reply = tokio::time::timeout(
                            EXCHANGE_TIMEOUT,
                            send_http(http.local_addr(), request),
                        )
                        .await
                        .map_err(|_| format!("exchange `{name}` timed out"))??;
                        text.push_str(&render_http(request, &reply)?);
                    }
                    text
                }
                Script::Stdio(messages) => {
                    tokio::time::timeout(EXCHANGE_TIMEOUT, run_stdio(server.clone(), &messages))
                        .await
                        .map_err(|_| format!("exchange `{name}` timed out"))??
                }
            };
            rendered.push((name, text));
        }
        http.shutdown().await;
        Ok(rendered)
    })
}

async fn send_http(addr: SocketAddr, request: &HttpRequest) -> Result<Exchange, BoxError> {
    let body = json_text(&request.body, Layout::Compact)?;
    Ok(wire::post(addr, MCP_PATH, &request.headers, &body).await?)
}

/// Headers the rendering leaves out (see the module docs).
const UNSHOWN: &[&str] = &["date", "content-length", "transfer-encoding", "connection"];

fn render_http(request: &HttpRequest, reply: &Exchange) -> Result<String, BoxError> {
    let mut out = String::from("```http\n");
    let _ = writeln!(out, "POST {MCP_PATH} HTTP/1.1");
    out.push_str("Content-Type: application/json\nAccept: application/json, text/event-stream\n");
    for (name, value) in &request.headers {
        let _ = writeln!(out, "{name}: {value}");
    }
    out.push('\n');
    out.push_str(&json_text(&request.body, Layout::Pretty)?);
    out.push_str("\n```\n\n```http\n");
    let _ = writeln!(out, "HTTP/1.1 {} {}", reply.status, reply.reason);
    for (name, value) in &reply.headers {
        if !UNSHOWN.iter().any(|u| name.eq_ignore_ascii_case(u)) {
            let _ = writeln!(out, "{name}: {value}");
        }
    }
    out.push('\n');
    let body = std::str::from_utf8(&reply.body)?;
    let is_json = reply
        .header_values("content-type")
        .iter()
        .any(|v| v.starts_with("application/json"));
    if is_json {
        out.push_str(&json_text(body, Layout::Pretty)?);
        out.push('\n');
    } else {
        // An event stream: shown as sent, one `data:` line per message.
        out.push_str(body.trim_end());
        out.push('\n');
    }
    out.push_str("```\n");
    Ok(out)
}

/// Runs the reference server on an in-memory pipe with stdio's framing (one JSON-RPC
/// message per line) and records the session.
async fn run_stdio(server: ReferenceServer, messages: &[String]) -> Result<String, BoxError> {
    use rmcp::ServiceExt;
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let task = tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(client_io);
    let mut lines = BufReader::new(read).lines();
    let mut out = String::new();
    for message in messages {
        let compact = json_text(message, Layout::Compact)?;
        write.write_all(compact.as_bytes()).await?;
        write.write_all(b"\n").await?;
        out.push_str("Client → server:\n\n```json\n");
        out.push_str(&json_text(message, Layout::Pretty)?);
        out.push_str("\n```\n\n");
        let value: serde_json::Value = serde_json::from_str(message)?;
        if value.get("id").is_none() {
            continue;
        }
        let line = lines
            .next_line()
            .await?
            .ok_or("the server closed the session")?;
        out.push_str("Server → client:\n\n```json\n");
        out.push_str(&json_text(&line, Layout::Pretty)?);
        out.push_str("\n```\n\n");
    }
    drop(write);
    task.abort();
    out.truncate(out.trim_end().len());
    out.push('\n');
    Ok(out)
}

/// How [`json_text`] lays a JSON text out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// No whitespace between tokens: what goes on the wire.
    Compact,
    /// Two-space indentation, one member per line; empty containers stay `{}` / `[]`.
    Pretty,
}

/// Re-lays a JSON text without parsing it into a map, so that member order is the
/// order the writer chose (the workspace's `serde_json` sorts the keys of a `Value`).
/// The text is validated first.
fn json_text(text: &str, layout: Layout) -> Result<String, BoxError> {
    serde_json::from_str::<serde_json::Value>(text)?;
    let mut out = String::with_capacity(text.len() * 2);
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push('"');
                while let Some(c) = chars.next() {
                    out.push(c);
                    match c {
                        '\\' => {
                            if let Some(escaped) = chars.next() {
                                out.push(escaped);
                            }
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '{' | '[' => {
                out.push(c);
                // Skip whitespace to see whether the container is empty.
                while chars.peek().is_some_and(|c| c.is_ascii_whitespace()) {
                    chars.next();
                }
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    chars.next();
                    out.push(close);
                } else {
                    depth += 1;
                    if layout == Layout::Pretty {
                        newline(&mut out, depth);
                    }
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                if layout == Layout::Pretty {
                    newline(&mut out, depth);
                }
                out.push(c);
            }
            ',' => {
                out.push(',');
                if layout == Layout::Pretty {
                    newline(&mut out, depth);
                }
            }
            ':' => {
                out.push(':');
                if layout == Layout::Pretty {
                    out.push(' ');
                }
            }
            c if c.is_ascii_whitespace() => {}
            c => out.push(c),
        }
    }
    Ok(out)
}

/// Why [`splice`] refused a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpliceError {
    /// An `<!-- exchange: NAME -->` marker has no `<!-- /exchange -->` after it.
    Unclosed(String),
    /// The document has a marker for an exchange the generator does not produce.
    Unknown(String),
    /// The generator produced an exchange the document has no marker for.
    Unplaced(String),
    /// The same exchange is marked twice.
    Repeated(String),
}

impl std::fmt::Display for SpliceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unclosed(n) => write!(f, "exchange `{n}` has no closing `{END}`"),
            Self::Unknown(n) => write!(
                f,
                "the document marks exchange `{n}`, which is not generated"
            ),
            Self::Unplaced(n) => write!(
                f,
                "exchange `{n}` is generated but not marked in the document"
            ),
            Self::Repeated(n) => write!(f, "exchange `{n}` is marked twice"),
        }
    }
}

impl Error for SpliceError {}

const BEGIN: &str = "<!-- exchange: ";
const END: &str = "<!-- /exchange -->";

/// Replaces the text between each `<!-- exchange: NAME -->` line and the next
/// `<!-- /exchange -->` line of `document` by the generated text of `NAME`.
///
/// ```
/// use mcp_lang_examples::exchanges::splice;
///
/// let doc = "Intro\n<!-- exchange: a -->\nold\n<!-- /exchange -->\nEnd\n";
/// let new = splice(doc, &[("a", "new\n".to_owned())]).unwrap();
/// assert_eq!(new, "Intro\n<!-- exchange: a -->\nnew\n<!-- /exchange -->\nEnd\n");
/// ```
///
/// # Errors
///
/// A marker without its end, a marker for an unknown exchange, an exchange without a
/// marker, or one marked twice ([`SpliceError`]).
pub fn splice(document: &str, generated: &[(&str, String)]) -> Result<String, SpliceError> {
    let mut out = String::with_capacity(document.len());
    let mut placed = BTreeSet::new();
    let mut rest = document;
    while let Some(start) = rest.find(BEGIN) {
        let after_begin = &rest[start + BEGIN.len()..];
        let name_end = after_begin.find(" -->").ok_or_else(|| {
            SpliceError::Unclosed(after_begin.lines().next().unwrap_or("").to_owned())
        })?;
        let name = &after_begin[..name_end];
        let marker_line_end = after_begin[name_end..]
            .find('\n')
            .map_or(after_begin.len(), |i| name_end + i + 1);
        let body_and_rest = &after_begin[marker_line_end..];
        let end = body_and_rest
            .find(END)
            .ok_or_else(|| SpliceError::Unclosed(name.to_owned()))?;
        let text = generated
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t)
            .ok_or_else(|| SpliceError::Unknown(name.to_owned()))?;
        if !placed.insert(name.to_owned()) {
            return Err(SpliceError::Repeated(name.to_owned()));
        }
        out.push_str(&rest[..start + BEGIN.len() + marker_line_end]);
        out.push_str(text);
        out.push_str(END);
        rest = &body_and_rest[end + END.len()..];
    }
    out.push_str(rest);
    if let Some((name, _)) = generated.iter().find(|(n, _)| !placed.contains(*n)) {
        return Err(SpliceError::Unplaced((*name).to_owned()));
    }
    Ok(out)
}

/// Where the chapter lives: `docs/specification-chapter.md` at the workspace root.
pub fn chapter_path() -> std::path::PathBuf {
    let package = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    package
        .parent()
        .unwrap_or(package)
        .join("docs")
        .join("specification-chapter.md")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_layout_keeps_member_order_and_strings() {
        let text = r#"{ "z": [1, {}], "a": "x, {y}: \"q\"", "e": [] }"#;
        assert_eq!(
            json_text(text, Layout::Compact).unwrap(),
            r#"{"z":[1,{}],"a":"x, {y}: \"q\"","e":[]}"#
        );
        assert_eq!(
            json_text(text, Layout::Pretty).unwrap(),
            "{\n  \"z\": [\n    1,\n    {}\n  ],\n  \"a\": \"x, {y}: \\\"q\\\"\",\n  \"e\": []\n}"
        );
        assert!(json_text("{", Layout::Compact).is_err());
    }

    #[test]
    fn splice_refuses_what_it_cannot_place() {
        let one = [("a", "x\n".to_owned())];
        assert_eq!(
            splice("<!-- exchange: a -->\n", &one),
            Err(SpliceError::Unclosed("a".into()))
        );
        assert_eq!(
            splice("<!-- exchange: b -->\n<!-- /exchange -->\n", &one),
            Err(SpliceError::Unknown("b".into()))
        );
        assert_eq!(
            splice("no markers\n", &one),
            Err(SpliceError::Unplaced("a".into()))
        );
        let twice =
            "<!-- exchange: a -->\n<!-- /exchange -->\n<!-- exchange: a -->\n<!-- /exchange -->\n";
        assert_eq!(splice(twice, &one), Err(SpliceError::Repeated("a".into())));
    }
}
