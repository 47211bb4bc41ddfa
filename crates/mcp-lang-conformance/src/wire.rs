//! What goes over the wire: the requests the suite sends and the exchanges it
//! records.
//!
//! The suite is a raw JSON-RPC client on purpose. It must see the exact `_meta`
//! of every message (results, errors, notifications and server-to-client
//! requests) and, on HTTP, every field line of the response in received order.
//! A high-level SDK client (rmcp's included) decodes messages into typed
//! structures, merges `_meta` with its own keys, may cache list results, and
//! does not expose response headers — each of which would hide exactly what a
//! conformance check has to look at. So requests are built here as JSON values
//! and answers are kept as JSON values; [`Exchange`] is everything one request
//! produced.

use serde_json::{Map, Value, json};

use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};

/// The newest protocol version the suite speaks: stateless, every request
/// carries its protocol version and client capabilities in `_meta` (SEP-2575),
/// and elicitation comes back as an `input_required` result.
pub(crate) const PROTOCOL_STATELESS: &str = "2026-07-28";
/// The newest protocol version with the `initialize` handshake, for servers
/// that do not speak [`PROTOCOL_STATELESS`] (`--protocol 2025-11-25`).
pub(crate) const PROTOCOL_HANDSHAKE: &str = "2025-11-25";

/// Every protocol version the suite speaks, newest first: what it offers
/// when it negotiates, in this order.
pub(crate) const PROTOCOLS_SPOKEN: &[&str] = &[PROTOCOL_STATELESS, PROTOCOL_HANDSHAKE];

/// The newest version of [`PROTOCOLS_SPOKEN`] that `theirs` names.
pub(crate) fn newest_in_common<S: AsRef<str>>(theirs: &[S]) -> Option<&'static str> {
    PROTOCOLS_SPOKEN
        .iter()
        .copied()
        .find(|ours| theirs.iter().any(|t| t.as_ref() == *ours))
}

/// The protocol versions (`YYYY-MM-DD`) a text names, in order: how a server
/// that refuses a version in prose ("Unsupported protocol version: 2026-07-28
/// (supported versions: 2025-11-25, 2025-06-18)") says which it speaks.
pub(crate) fn versions_named(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut found: Vec<String> = Vec::new();
    let shape = |w: &[u8]| {
        w.len() == 10
            && w.iter().enumerate().all(|(i, b)| match i {
                4 | 7 => *b == b'-',
                _ => b.is_ascii_digit(),
            })
    };
    let mut i = 0;
    while i + 10 <= bytes.len() {
        let window = &bytes[i..i + 10];
        let before = i.checked_sub(1).and_then(|j| bytes.get(j));
        let after = bytes.get(i + 10);
        let bounded = |b: Option<&u8>| b.is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'-');
        if shape(window) && bounded(before) && bounded(after) {
            let version = String::from_utf8_lossy(window).into_owned();
            if !found.contains(&version) {
                found.push(version);
            }
            i += 10;
        } else {
            i += 1;
        }
    }
    found
}

/// What a request carries as `io.modelcontextprotocol/acceptLanguage`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Preference {
    /// No `acceptLanguage` key at all.
    Absent,
    /// Any JSON value under the key (normally a string; other types test the
    /// receiver's robustness).
    Value(Value),
}

impl std::fmt::Display for Preference {
    /// The value as the wire carries it (JSON), or `absent`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Absent => f.write_str("absent"),
            Self::Value(value) => write!(f, "{value}"),
        }
    }
}

impl From<&str> for Preference {
    fn from(value: &str) -> Self {
        Self::Value(Value::String(value.to_owned()))
    }
}

/// How the `Accept-Language` request field is sent on HTTP (ignored on stdio).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) enum HeaderPlan {
    /// One field line equal to the `_meta` string, as a conforming client
    /// sends it; no line when there is no string preference.
    #[default]
    Mirror,
    /// No `Accept-Language` line (an intermediary stripped it).
    Omit,
    /// Exactly these field lines, written byte for byte on a raw TCP
    /// connection (surrounding whitespace and repeated lines survive).
    Lines(Vec<String>),
}

/// One JSON-RPC request to send.
#[derive(Clone, Debug)]
pub(crate) struct Call {
    /// The JSON-RPC method.
    pub(crate) method: String,
    /// The params object, without `_meta` (the connection adds it).
    pub(crate) params: Map<String, Value>,
    /// The language preference.
    pub(crate) preference: Preference,
    /// Ask for progress notifications (adds a `progressToken`).
    pub(crate) progress: bool,
    /// The `Accept-Language` plan on HTTP.
    pub(crate) header: HeaderPlan,
    /// On HTTP: send it without the connection's `Mcp-Session-Id` (a second
    /// `initialize`, which opens a session of its own).
    pub(crate) outside_session: bool,
}

impl Call {
    /// A request with empty params, no preference and a mirrored header.
    pub(crate) fn new(method: &str) -> Self {
        Self {
            method: method.to_owned(),
            params: Map::new(),
            preference: Preference::Absent,
            progress: false,
            outside_session: false,
            header: HeaderPlan::Mirror,
        }
    }

    /// `tools/call` of `name` with `arguments`.
    pub(crate) fn tool(name: &str, arguments: Value) -> Self {
        let mut call = Self::new("tools/call");
        call.params
            .insert("name".into(), Value::String(name.into()));
        call.params.insert("arguments".into(), arguments);
        call
    }

    /// Sets a params member.
    pub(crate) fn param(mut self, key: &str, value: Value) -> Self {
        self.params.insert(key.to_owned(), value);
        self
    }

    /// Sets the preference.
    pub(crate) fn preference(mut self, preference: impl Into<Preference>) -> Self {
        self.preference = preference.into();
        self
    }

    /// Sets the `Accept-Language` plan (HTTP).
    pub(crate) fn header(mut self, header: HeaderPlan) -> Self {
        self.header = header;
        self
    }

    /// Asks for progress notifications.
    pub(crate) fn with_progress(mut self) -> Self {
        self.progress = true;
        self
    }

    /// Sends it outside the connection's session (see [`Call::outside_session`]).
    pub(crate) fn outside_session(mut self) -> Self {
        self.outside_session = true;
        self
    }

    /// The JSON-RPC request object with `id`, adding `extra_meta` (protocol
    /// keys of the connection) to `_meta`.
    pub(crate) fn to_message(&self, id: i64, extra_meta: &Map<String, Value>) -> Value {
        let mut meta = extra_meta.clone();
        if let Preference::Value(value) = &self.preference {
            meta.insert(ACCEPT_LANGUAGE_KEY.to_owned(), value.clone());
        }
        if self.progress {
            meta.insert("progressToken".to_owned(), json!(format!("progress-{id}")));
        }
        let mut params = self.params.clone();
        if !meta.is_empty() {
            params.insert("_meta".to_owned(), Value::Object(meta));
        }
        json!({ "jsonrpc": "2.0", "id": id, "method": self.method, "params": params })
    }

    /// The value of the SEP-2243 `Mcp-Name` header for this request, if the
    /// method has one.
    pub(crate) fn mcp_name(&self) -> Option<&str> {
        let key = match self.method.as_str() {
            "tools/call" | "prompts/get" => "name",
            "resources/read" => "uri",
            _ => return None,
        };
        self.params.get(key).and_then(Value::as_str)
    }
}

impl From<String> for Preference {
    fn from(value: String) -> Self {
        Self::Value(Value::String(value))
    }
}

/// Everything one request produced.
#[derive(Clone, Debug, Default)]
pub(crate) struct Exchange {
    /// The request as sent.
    pub(crate) request: Value,
    /// The HTTP status (HTTP only).
    pub(crate) status: Option<u16>,
    /// The response field lines in received order, names lower-cased (HTTP only).
    pub(crate) headers: Vec<(String, String)>,
    /// Every JSON-RPC message received while the request was open, in order:
    /// notifications, server-to-client requests, and the response last.
    pub(crate) messages: Vec<Value>,
}

impl Exchange {
    /// The response to the request (the message with its id and a `result`
    /// or an `error`).
    pub(crate) fn response(&self) -> Option<&Value> {
        let id = self.request.get("id")?;
        self.messages.iter().rev().find(|m| {
            m.get("id") == Some(id) && (m.get("result").is_some() || m.get("error").is_some())
        })
    }

    /// The `result` member of the response.
    pub(crate) fn result(&self) -> Option<&Value> {
        self.response()?.get("result")
    }

    /// The array `key` of the result (`tools`, `prompts`, `resources`),
    /// empty when there is none.
    pub(crate) fn items(&self, key: &str) -> Vec<Value> {
        self.result()
            .and_then(|r| r.get(key))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    /// The `error` member of the response.
    pub(crate) fn error(&self) -> Option<&Value> {
        self.response()?.get("error")
    }

    /// The `contentLanguage` of the response: `result._meta` or
    /// `error.data._meta`. `None` when absent; the value as found otherwise.
    pub(crate) fn content_language(&self) -> Option<&Value> {
        let response = self.response()?;
        response
            .pointer("/result/_meta")
            .or_else(|| response.pointer("/error/data/_meta"))
            .and_then(|meta| meta.get(CONTENT_LANGUAGE_KEY))
    }

    /// [`Self::content_language`] when it is a string.
    pub(crate) fn content_language_str(&self) -> Option<&str> {
        self.content_language().and_then(Value::as_str)
    }

    /// Notifications received for this request.
    pub(crate) fn notifications(&self) -> impl Iterator<Item = &Value> {
        self.messages
            .iter()
            .filter(|m| m.get("method").is_some() && m.get("id").is_none())
    }

    /// Server-to-client requests received while this request was open.
    pub(crate) fn server_requests(&self) -> impl Iterator<Item = &Value> {
        self.messages.iter().filter(|m| is_server_request(m))
    }

    /// The values of every response field line named `name` (ASCII
    /// case-insensitive), in received order.
    pub(crate) fn header_lines(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The response's media type, lower-cased, without parameters.
    pub(crate) fn media_type(&self) -> Option<String> {
        self.header_lines("content-type").first().map(|v| {
            v.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        })
    }

    /// A one-line summary of the response for failure messages.
    pub(crate) fn summary(&self) -> String {
        let mut out = String::new();
        if let Some(status) = self.status {
            out.push_str(&format!("HTTP {status}; "));
        }
        // A refusal sent before the request was read has no id (`"id": null`).
        let refusal = || {
            self.messages
                .iter()
                .find(|m| m.get("error").is_some() && m.get("id").is_none_or(Value::is_null))
        };
        match self.response().or_else(refusal) {
            Some(r) => {
                let text = r.to_string();
                let cut: String = text.chars().take(300).collect();
                out.push_str(&cut);
                if cut.len() < text.len() {
                    out.push('…');
                }
            }
            None => out.push_str("no JSON-RPC response"),
        }
        out
    }
}

/// Why an exchange could not be completed.
#[derive(Debug)]
pub(crate) struct WireError(pub String);

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WireError {}

impl From<std::io::Error> for WireError {
    fn from(e: std::io::Error) -> Self {
        Self(format!("I/O error: {e}"))
    }
}

/// The `_meta` keys a stateless (2026-07-28) request carries besides the
/// preference.
pub(crate) fn stateless_meta(protocol: &str) -> Map<String, Value> {
    let mut meta = Map::new();
    meta.insert(
        "io.modelcontextprotocol/protocolVersion".into(),
        json!(protocol),
    );
    meta.insert(
        "io.modelcontextprotocol/clientInfo".into(),
        json!({ "name": "mcp-lang-conformance", "version": env!("CARGO_PKG_VERSION") }),
    );
    meta.insert(
        "io.modelcontextprotocol/clientCapabilities".into(),
        json!({ "elicitation": { "form": {} } }),
    );
    meta
}

/// The `_meta` a request of `protocol` carries besides the preference:
/// [`stateless_meta`] for a stateless protocol, nothing for a handshake one.
pub(crate) fn protocol_meta(protocol: &str) -> Map<String, Value> {
    if is_stateless(protocol) {
        stateless_meta(protocol)
    } else {
        Map::new()
    }
}

/// The `initialize` request of a handshake protocol, proposing `protocol`.
pub(crate) fn initialize_call(protocol: &str) -> Call {
    Call::new("initialize")
        .param("protocolVersion", json!(protocol))
        .param("capabilities", json!({ "elicitation": { "form": {} } }))
        .param(
            "clientInfo",
            json!({ "name": "mcp-lang-conformance", "version": env!("CARGO_PKG_VERSION") }),
        )
}

/// Whether `protocol` is stateless (no `initialize` handshake).
pub(crate) fn is_stateless(protocol: &str) -> bool {
    protocol >= PROTOCOL_STATELESS
}

/// Whether `message` is a server-to-client request (a method and an id),
/// which the client must answer with [`answer_server_request`] — on stdio as
/// a line, on Streamable HTTP as a POST to the endpoint — while it keeps
/// waiting for the response to its own request.
pub(crate) fn is_server_request(message: &Value) -> bool {
    message.get("method").is_some() && message.get("id").is_some()
}

/// The suite's answer to a server-to-client request: it accepts an
/// elicitation with a fixed address, answers `ping`, refuses the rest.
pub(crate) fn answer_server_request(request: &Value) -> Value {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    match request.get("method").and_then(Value::as_str) {
        Some("elicitation/create") => json!({
            "jsonrpc": "2.0", "id": id,
            "result": { "action": "accept", "content": { "email": "ada@example.org" } }
        }),
        Some("ping") => json!({ "jsonrpc": "2.0", "id": id, "result": {} }),
        _ => json!({
            "jsonrpc": "2.0", "id": id,
            "error": { "code": -32601, "message": "the conformance client does not handle this method" }
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_versions_a_refusal_names() {
        let message = "Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26)";
        assert_eq!(
            versions_named(message),
            ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]
        );
        assert!(versions_named("no version here; 12025-11-250 is none").is_empty());
        assert_eq!(
            newest_in_common(&versions_named(message)),
            Some(PROTOCOL_STATELESS)
        );
        assert_eq!(
            newest_in_common(&["2025-06-18", "2025-11-25"]),
            Some(PROTOCOL_HANDSHAKE)
        );
        assert_eq!(newest_in_common(&["2024-11-05"]), None);
    }

    #[test]
    fn a_preference_reads_as_the_wire_has_it() {
        assert_eq!(Preference::from("fr").to_string(), "\"fr\"");
        assert_eq!(Preference::Value(json!(3)).to_string(), "3");
        assert_eq!(Preference::Absent.to_string(), "absent");
    }
}
