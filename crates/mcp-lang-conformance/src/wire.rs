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
//!
//! ```
//! use mcp_lang_conformance::wire::{Call, HeaderPlan};
//!
//! // What `agree.case` sends: `_meta` and a header that differ only in case.
//! let call = Call::new("tools/list").preference("en-US").header(HeaderPlan::Lines(vec!["en-us".into()]));
//! let message = call.to_message(1, &Default::default());
//! assert_eq!(message["params"]["_meta"]["io.modelcontextprotocol/acceptLanguage"], "en-US");
//! ```

use serde_json::{Map, Value, json};

/// The request `_meta` key of the preference.
///
/// ```
/// use mcp_lang_conformance::wire::{ACCEPT_LANGUAGE, Call};
///
/// let message = Call::new("tools/list").preference("ja").to_message(1, &Default::default());
/// assert_eq!(message["params"]["_meta"][ACCEPT_LANGUAGE], "ja");
/// ```
pub const ACCEPT_LANGUAGE: &str = "io.modelcontextprotocol/acceptLanguage";
/// The response `_meta` key of the language used.
///
/// ```
/// use mcp_lang_conformance::wire::{CONTENT_LANGUAGE, Exchange};
/// use serde_json::json;
///
/// let exchange = Exchange {
///     request: json!({"id": 1}),
///     messages: vec![json!({"id": 1, "result": {"_meta": {CONTENT_LANGUAGE: "ga"}}})],
///     ..Exchange::default()
/// };
/// assert_eq!(exchange.content_language_str(), Some("ga"));
/// ```
pub const CONTENT_LANGUAGE: &str = "io.modelcontextprotocol/contentLanguage";

/// The newest protocol version the suite speaks: stateless, every request
/// carries its protocol version and client capabilities in `_meta` (SEP-2575),
/// and elicitation comes back as an `input_required` result.
///
/// ```
/// use mcp_lang_conformance::wire::{PROTOCOL_STATELESS, is_stateless};
///
/// assert!(is_stateless(PROTOCOL_STATELESS));
/// ```
pub const PROTOCOL_STATELESS: &str = "2026-07-28";
/// The newest protocol version with the `initialize` handshake, for servers
/// that do not speak [`PROTOCOL_STATELESS`] (`--protocol 2025-11-25`).
///
/// ```
/// use mcp_lang_conformance::wire::{PROTOCOL_HANDSHAKE, is_stateless};
///
/// assert!(!is_stateless(PROTOCOL_HANDSHAKE)); // `initialize` first
/// ```
pub const PROTOCOL_HANDSHAKE: &str = "2025-11-25";

/// What a request carries as `io.modelcontextprotocol/acceptLanguage`.
///
/// ```
/// use mcp_lang_conformance::wire::Preference;
/// assert_eq!(Preference::from("fr").as_str(), Some("fr"));
/// assert_eq!(Preference::Absent.as_str(), None);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Preference {
    /// No `acceptLanguage` key at all.
    Absent,
    /// Any JSON value under the key (normally a string; other types test the
    /// receiver's robustness).
    Value(Value),
}

impl Preference {
    /// The preference as a string, when it is one.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Preference;
    /// use serde_json::json;
    ///
    /// assert_eq!(Preference::from("de-CH").as_str(), Some("de-CH"));
    /// // A non-string value, to test a receiver's robustness: not a string.
    /// assert_eq!(Preference::Value(json!(["de"])).as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::Value(Value::String(s)) => Some(s),
            _ => None,
        }
    }
}

impl From<&str> for Preference {
    fn from(value: &str) -> Self {
        Self::Value(Value::String(value.to_owned()))
    }
}

/// How the `Accept-Language` request field is sent on HTTP (ignored on stdio).
///
/// ```
/// use mcp_lang_conformance::wire::{Call, HeaderPlan};
///
/// // Two field lines that a conforming server joins to "en, de".
/// let call = Call::new("tools/list").preference("en, de")
///     .header(HeaderPlan::Lines(vec!["en".into(), "de".into()]));
/// assert_eq!(call.header, HeaderPlan::Lines(vec!["en".into(), "de".into()]));
/// assert_eq!(HeaderPlan::default(), HeaderPlan::Mirror);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum HeaderPlan {
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
///
/// ```
/// use mcp_lang_conformance::wire::{Call, Preference};
/// let call = Call::new("tools/list").preference("de");
/// assert_eq!(call.method, "tools/list");
/// assert_eq!(call.preference, Preference::from("de"));
/// ```
#[derive(Clone, Debug)]
pub struct Call {
    /// The JSON-RPC method.
    pub method: String,
    /// The params object, without `_meta` (the connection adds it).
    pub params: Map<String, Value>,
    /// The language preference.
    pub preference: Preference,
    /// Ask for progress notifications (adds a `progressToken`).
    pub progress: bool,
    /// The `Accept-Language` plan on HTTP.
    pub header: HeaderPlan,
}

impl Call {
    /// A request with empty params, no preference and a mirrored header.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::{Call, HeaderPlan, Preference};
    ///
    /// let call = Call::new("prompts/list");
    /// assert_eq!((call.preference, call.header, call.progress), (Preference::Absent, HeaderPlan::Mirror, false));
    /// assert!(call.params.is_empty());
    /// ```
    pub fn new(method: &str) -> Self {
        Self {
            method: method.to_owned(),
            params: Map::new(),
            preference: Preference::Absent,
            progress: false,
            header: HeaderPlan::Mirror,
        }
    }

    /// `tools/call` of `name` with `arguments`.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Call;
    /// use serde_json::json;
    ///
    /// let call = Call::tool("weather_current", json!({"city": "Dublin"}));
    /// assert_eq!(call.method, "tools/call");
    /// assert_eq!(call.params["arguments"]["city"], "Dublin");
    /// ```
    pub fn tool(name: &str, arguments: Value) -> Self {
        let mut call = Self::new("tools/call");
        call.params
            .insert("name".into(), Value::String(name.into()));
        call.params.insert("arguments".into(), arguments);
        call
    }

    /// Sets a params member.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Call;
    /// use serde_json::json;
    ///
    /// let call = Call::new("tools/list").param("cursor", json!("page-2"));
    /// assert_eq!(call.params["cursor"], "page-2");
    /// ```
    pub fn param(mut self, key: &str, value: Value) -> Self {
        self.params.insert(key.to_owned(), value);
        self
    }

    /// Sets the preference.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::{Call, Preference};
    /// use serde_json::json;
    ///
    /// let call = Call::new("tools/list").preference(Preference::Value(json!(42)));
    /// let message = call.to_message(1, &Default::default());
    /// assert_eq!(message["params"]["_meta"]["io.modelcontextprotocol/acceptLanguage"], 42);
    /// ```
    pub fn preference(mut self, preference: impl Into<Preference>) -> Self {
        self.preference = preference.into();
        self
    }

    /// Sets the `Accept-Language` plan (HTTP).
    ///
    /// ```
    /// use mcp_lang_conformance::wire::{Call, HeaderPlan};
    ///
    /// // `_meta` carries the preference; the HTTP mirror is stripped.
    /// let call = Call::new("tools/list").preference("fr").header(HeaderPlan::Omit);
    /// assert_eq!(call.header, HeaderPlan::Omit);
    /// ```
    pub fn header(mut self, header: HeaderPlan) -> Self {
        self.header = header;
        self
    }

    /// Asks for progress notifications.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Call;
    ///
    /// let message = Call::tool("prepare_report", serde_json::json!({})).with_progress().to_message(7, &Default::default());
    /// assert_eq!(message["params"]["_meta"]["progressToken"], "progress-7");
    /// ```
    pub fn with_progress(mut self) -> Self {
        self.progress = true;
        self
    }

    /// The JSON-RPC request object with `id`, adding `extra_meta` (protocol
    /// keys of the connection) to `_meta`.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::{Call, stateless_meta};
    ///
    /// let message = Call::new("tools/list").preference("fr").to_message(3, &stateless_meta("2026-07-28"));
    /// assert_eq!(message["id"], 3);
    /// assert_eq!(message["params"]["_meta"]["io.modelcontextprotocol/acceptLanguage"], "fr");
    /// assert_eq!(message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    /// // No preference, no extra keys: no `_meta` at all.
    /// assert!(Call::new("ping").to_message(4, &Default::default())["params"].get("_meta").is_none());
    /// ```
    pub fn to_message(&self, id: i64, extra_meta: &Map<String, Value>) -> Value {
        let mut meta = extra_meta.clone();
        if let Preference::Value(value) = &self.preference {
            meta.insert(ACCEPT_LANGUAGE.to_owned(), value.clone());
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
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Call;
    /// use serde_json::json;
    ///
    /// assert_eq!(Call::tool("weather_current", json!({})).mcp_name(), Some("weather_current"));
    /// assert_eq!(Call::new("resources/read").param("uri", json!("mcp-lang://languages")).mcp_name(), Some("mcp-lang://languages"));
    /// assert_eq!(Call::new("tools/list").mcp_name(), None);
    /// ```
    pub fn mcp_name(&self) -> Option<&str> {
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
///
/// ```
/// use mcp_lang_conformance::wire::Exchange;
/// use serde_json::json;
///
/// let exchange = Exchange {
///     request: json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list"}),
///     status: Some(200),
///     headers: vec![("content-language".into(), "de".into())],
///     messages: vec![json!({"jsonrpc": "2.0", "id": 5, "result": {"tools": [],
///         "_meta": {"io.modelcontextprotocol/contentLanguage": "de"}}})],
/// };
/// assert_eq!(exchange.header_lines("Content-Language"), exchange.content_language_str().into_iter().collect::<Vec<_>>());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Exchange {
    /// The request as sent.
    pub request: Value,
    /// The HTTP status (HTTP only).
    pub status: Option<u16>,
    /// The response field lines in received order, names lower-cased (HTTP only).
    pub headers: Vec<(String, String)>,
    /// Every JSON-RPC message received while the request was open, in order:
    /// notifications, server-to-client requests, and the response last.
    pub messages: Vec<Value>,
}

impl Exchange {
    /// The response to the request (the message with its id and a `result`
    /// or an `error`).
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    /// use serde_json::json;
    ///
    /// let exchange = Exchange {
    ///     request: json!({"id": 2}),
    ///     messages: vec![json!({"method": "notifications/progress", "params": {}}),
    ///                    json!({"id": 2, "result": {}})],
    ///     ..Exchange::default()
    /// };
    /// assert_eq!(exchange.response(), Some(&json!({"id": 2, "result": {}})));
    /// ```
    pub fn response(&self) -> Option<&Value> {
        let id = self.request.get("id")?;
        self.messages.iter().rev().find(|m| {
            m.get("id") == Some(id) && (m.get("result").is_some() || m.get("error").is_some())
        })
    }

    /// The `result` member of the response.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    /// use serde_json::json;
    ///
    /// let exchange = Exchange { request: json!({"id": 1}), messages: vec![json!({"id": 1, "result": {"tools": []}})], ..Exchange::default() };
    /// assert_eq!(exchange.result(), Some(&json!({"tools": []})));
    /// assert_eq!(exchange.error(), None);
    /// ```
    pub fn result(&self) -> Option<&Value> {
        self.response()?.get("result")
    }

    /// The `error` member of the response.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    /// use serde_json::json;
    ///
    /// let exchange = Exchange { request: json!({"id": 1}),
    ///     messages: vec![json!({"id": 1, "error": {"code": -32020, "message": "HeaderMismatch"}})], ..Exchange::default() };
    /// assert_eq!(exchange.error().unwrap()["code"], -32020);
    /// ```
    pub fn error(&self) -> Option<&Value> {
        self.response()?.get("error")
    }

    /// The `contentLanguage` of the response: `result._meta` or
    /// `error.data._meta`. `None` when absent; the value as found otherwise.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    /// use serde_json::json;
    ///
    /// let exchange = Exchange { request: json!({"id": 1}), messages: vec![json!({"id": 1,
    ///     "error": {"code": -32602, "message": "Ville inconnue", "data": {"_meta": {"io.modelcontextprotocol/contentLanguage": "fr"}}}})],
    ///     ..Exchange::default() };
    /// assert_eq!(exchange.content_language(), Some(&json!("fr")));
    /// ```
    pub fn content_language(&self) -> Option<&Value> {
        let response = self.response()?;
        response
            .pointer("/result/_meta")
            .or_else(|| response.pointer("/error/data/_meta"))
            .and_then(|meta| meta.get(CONTENT_LANGUAGE))
    }

    /// [`Self::content_language`] when it is a string.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    /// use serde_json::json;
    ///
    /// let exchange = Exchange { request: json!({"id": 1}),
    ///     messages: vec![json!({"id": 1, "result": {"_meta": {"io.modelcontextprotocol/contentLanguage": ["en"]}}})],
    ///     ..Exchange::default() };
    /// assert!(exchange.content_language().is_some());
    /// assert_eq!(exchange.content_language_str(), None); // present, but not a string
    /// ```
    pub fn content_language_str(&self) -> Option<&str> {
        self.content_language().and_then(Value::as_str)
    }

    /// Notifications received for this request.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    /// use serde_json::json;
    ///
    /// let exchange = Exchange { request: json!({"id": 1}), messages: vec![
    ///     json!({"method": "notifications/progress", "params": {"message": "Fertig"}}),
    ///     json!({"id": 1, "result": {}})], ..Exchange::default() };
    /// assert_eq!(exchange.notifications().count(), 1);
    /// ```
    pub fn notifications(&self) -> impl Iterator<Item = &Value> {
        self.messages
            .iter()
            .filter(|m| m.get("method").is_some() && m.get("id").is_none())
    }

    /// Server-to-client requests received while this request was open.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    /// use serde_json::json;
    ///
    /// let exchange = Exchange { request: json!({"id": 1}), messages: vec![
    ///     json!({"id": 0, "method": "elicitation/create", "params": {}}),
    ///     json!({"id": 1, "result": {}})], ..Exchange::default() };
    /// assert_eq!(exchange.server_requests().next().unwrap()["method"], "elicitation/create");
    /// ```
    pub fn server_requests(&self) -> impl Iterator<Item = &Value> {
        self.messages.iter().filter(|m| is_server_request(m))
    }

    /// The values of every response field line named `name` (ASCII
    /// case-insensitive), in received order.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    ///
    /// let exchange = Exchange { headers: vec![("vary".into(), "Origin".into()), ("vary".into(), "Accept-Language".into())],
    ///     ..Exchange::default() };
    /// assert_eq!(exchange.header_lines("Vary"), ["Origin", "Accept-Language"]);
    /// ```
    pub fn header_lines(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The response's media type, lower-cased, without parameters.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    ///
    /// let exchange = Exchange { headers: vec![("content-type".into(), "Text/Event-Stream; charset=utf-8".into())],
    ///     ..Exchange::default() };
    /// assert_eq!(exchange.media_type().as_deref(), Some("text/event-stream"));
    /// ```
    pub fn media_type(&self) -> Option<String> {
        self.header_lines("content-type").first().map(|v| {
            v.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        })
    }

    /// A one-line summary of the response for failure messages.
    ///
    /// ```
    /// use mcp_lang_conformance::wire::Exchange;
    /// use serde_json::json;
    ///
    /// let exchange = Exchange { request: json!({"id": 1}), status: Some(400), ..Exchange::default() };
    /// assert_eq!(exchange.summary(), "HTTP 400; no JSON-RPC response");
    /// ```
    pub fn summary(&self) -> String {
        let mut out = String::new();
        if let Some(status) = self.status {
            out.push_str(&format!("HTTP {status}; "));
        }
        match self.response() {
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
///
/// ```
/// use mcp_lang_conformance::wire::WireError;
///
/// let err = WireError::from(std::io::Error::other("connection reset"));
/// assert_eq!(err.to_string(), "I/O error: connection reset");
/// ```
#[derive(Debug)]
pub struct WireError(pub String);

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
///
/// ```
/// use mcp_lang_conformance::wire::stateless_meta;
///
/// let meta = stateless_meta("2026-07-28");
/// assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
/// assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "mcp-lang-conformance");
/// ```
pub fn stateless_meta(protocol: &str) -> Map<String, Value> {
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

/// Whether `protocol` is stateless (no `initialize` handshake).
///
/// ```
/// use mcp_lang_conformance::wire::is_stateless;
///
/// assert!(is_stateless("2026-07-28"));
/// assert!(!is_stateless("2025-06-18"));
/// ```
pub fn is_stateless(protocol: &str) -> bool {
    protocol >= PROTOCOL_STATELESS
}

/// Whether `message` is a server-to-client request (a method and an id),
/// which the client must answer with [`answer_server_request`] — on stdio as
/// a line, on Streamable HTTP as a POST to the endpoint — while it keeps
/// waiting for the response to its own request.
///
/// ```
/// use mcp_lang_conformance::wire::is_server_request;
/// use serde_json::json;
///
/// assert!(is_server_request(&json!({"jsonrpc": "2.0", "id": 0, "method": "elicitation/create"})));
/// assert!(!is_server_request(&json!({"jsonrpc": "2.0", "method": "notifications/progress"})));
/// assert!(!is_server_request(&json!({"jsonrpc": "2.0", "id": 0, "result": {}})));
/// ```
pub fn is_server_request(message: &Value) -> bool {
    message.get("method").is_some() && message.get("id").is_some()
}

/// The suite's answer to a server-to-client request: it accepts an
/// elicitation with a fixed address, answers `ping`, refuses the rest.
///
/// ```
/// use mcp_lang_conformance::wire::answer_server_request;
/// use serde_json::json;
///
/// let answer = answer_server_request(&json!({"jsonrpc": "2.0", "id": 9, "method": "elicitation/create", "params": {}}));
/// assert_eq!((&answer["id"], &answer["result"]["action"]), (&json!(9), &json!("accept")));
/// let refused = answer_server_request(&json!({"jsonrpc": "2.0", "id": 10, "method": "sampling/createMessage"}));
/// assert_eq!(refused["error"]["code"], -32601);
/// ```
pub fn answer_server_request(request: &Value) -> Value {
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
