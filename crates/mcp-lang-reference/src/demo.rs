//! `mcp-lang demo`: SEP-2792 as a terminal story, against the reference
//! server started in this process.
//!
//! Every exchange shown is real: the stdio part writes newline-delimited
//! JSON-RPC into the server's stdio transport (an in-memory pipe instead of a
//! child process's stdin/stdout, same framing) and prints what comes back; the
//! HTTP part sends requests on a TCP socket to the server listening on
//! loopback behind the SEP-2792 tower layer and prints the status and the
//! language headers. Nothing is scripted on the server side.
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! mcp_lang_reference::demo::run(&mut std::io::stdout()).await?;
//! # Ok(()) }
//! ```
//!
//! (`tests/demo.rs` runs it and checks the story.)

use mcp_lang_rmcp::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use std::io::Write;
use std::net::SocketAddr;

use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

use crate::ReferenceServer;
use crate::serve::{HttpMode, MCP_PATH, spawn_http};
use crate::wire;

const LEGACY: &str = "2025-11-25";

type DemoResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn failure(message: impl Into<String>) -> Box<dyn std::error::Error + Send + Sync> {
    message.into().into()
}

/// A JSON-RPC client speaking the stdio framing (one JSON message per line).
struct LineClient {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    writer: WriteHalf<DuplexStream>,
    next_id: u64,
}

/// What one request produced: the response and the messages the server sent
/// while processing it (notifications, server-to-client requests).
struct Outcome {
    response: Value,
    during: Vec<Value>,
}

impl LineClient {
    async fn send(&mut self, message: &Value) -> DemoResult {
        let mut line = serde_json::to_vec(message)?;
        line.push(b'\n');
        self.writer.write_all(&line).await?;
        Ok(())
    }

    /// Sends a request and reads until its response, answering an
    /// `elicitation/create` request with `email`.
    async fn request(&mut self, method: &str, params: Value, email: &str) -> DemoResult<Outcome> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        let mut during = Vec::new();
        while let Some(line) = self.lines.next_line().await? {
            let message: Value = serde_json::from_str(&line)?;
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return Ok(Outcome {
                    response: message,
                    during,
                });
            }
            if message["method"] == "elicitation/create" {
                let answer = json!({
                    "jsonrpc": "2.0", "id": message["id"].clone(),
                    "result": {"action": "accept", "content": {"email": email}}
                });
                self.send(&answer).await?;
            }
            during.push(message);
        }
        Err(failure("the server closed the stream"))
    }
}

fn meta(preference: Option<&str>) -> Value {
    match preference {
        Some(p) => json!({ ACCEPT_LANGUAGE_KEY: p }),
        None => json!({}),
    }
}

fn reported(response: &Value) -> String {
    let value = response["result"]["_meta"][CONTENT_LANGUAGE_KEY]
        .as_str()
        .or_else(|| response["error"]["data"]["_meta"][CONTENT_LANGUAGE_KEY].as_str());
    value.map_or_else(|| "(none)".to_owned(), |v| format!("{v:?}"))
}

fn show(preference: Option<&str>) -> String {
    preference.map_or_else(|| "(omitted)".to_owned(), |p| format!("{p:?}"))
}

struct Story<'w> {
    out: &'w mut dyn Write,
}

impl Story<'_> {
    fn line(&mut self, text: impl AsRef<str>) -> DemoResult {
        writeln!(self.out, "{}", text.as_ref())?;
        Ok(())
    }

    fn chapter(&mut self, number: u32, title: &str) -> DemoResult {
        self.line("")?;
        self.line(format!(
            "── {number}. {title} ─────────────────────────────"
        ))
    }

    fn tools(&mut self, response: &Value) -> DemoResult {
        if let Some(tools) = response["result"]["tools"].as_array() {
            for tool in tools {
                self.line(format!(
                    "       {:<24} title: {}",
                    tool["name"].as_str().unwrap_or("?"),
                    tool["title"].as_str().unwrap_or("?")
                ))?;
            }
        }
        Ok(())
    }
}

/// Runs the whole story, writing it to `out`.
///
/// # Errors
///
/// The server could not start, an exchange failed, or a SEP behaviour did not
/// hold (the demo checks what it shows and stops at the first surprise).
///
/// ```no_run
/// # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// let mut out = Vec::new();
/// mcp_lang_reference::demo::run(&mut out).await?;
/// assert!(String::from_utf8(out)?.contains("Météo actuelle"));
/// # Ok(()) }
/// ```
pub async fn run(out: &mut dyn Write) -> DemoResult {
    let mut story = Story { out };
    let server = ReferenceServer::new()?;
    story.line("SEP-2792 per-request user language preference: the mcp-lang reference server")?;
    story.line(format!(
        "Supported languages: {} (default {}); the preference travels in _meta {ACCEPT_LANGUAGE_KEY:?}.",
        server
            .languages()
            .supported()
            .collect::<Vec<_>>()
            .join(", "),
        server.languages().default_tag()
    ))?;

    // stdio: the server's own transport over an in-memory pipe.
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let stdio_server = server.clone();
    tokio::spawn(async move {
        if let Ok(running) = stdio_server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (read, writer) = tokio::io::split(client_io);
    let mut stdio = LineClient {
        lines: BufReader::new(read).lines(),
        writer,
        next_id: 0,
    };
    let init = stdio
        .request(
            "initialize",
            json!({
                "protocolVersion": LEGACY,
                "capabilities": {"elicitation": {}},
                "clientInfo": {"name": "mcp-lang-demo", "version": env!("CARGO_PKG_VERSION")},
                "_meta": { ACCEPT_LANGUAGE_KEY: "ga" }
            }),
            "",
        )
        .await?;
    stdio
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await?;

    story.chapter(
        1,
        "Localized discovery over stdio: titles change, names do not",
    )?;
    story.line(format!(
        "   initialize with acceptLanguage \"ga\" → serverInfo name {} title {} (contentLanguage {})",
        init.response["result"]["serverInfo"]["name"],
        init.response["result"]["serverInfo"]["title"],
        reported(&init.response)
    ))?;
    let mut names: Option<Vec<Value>> = None;
    for preference in ["fr-CA,fr;q=0.9,en;q=0.5", "de", "ja"] {
        let outcome = stdio
            .request("tools/list", json!({"_meta": meta(Some(preference))}), "")
            .await?;
        let result = &outcome.response["result"];
        story.line(format!(
            "   → tools/list  acceptLanguage {preference:?}\n   ← contentLanguage {}  ttlMs {}  cacheScope {}",
            reported(&outcome.response),
            result["ttlMs"],
            result["cacheScope"]
        ))?;
        story.tools(&outcome.response)?;
        let these: Vec<Value> = result["tools"]
            .as_array()
            .map(|t| t.iter().map(|t| t["name"].clone()).collect())
            .unwrap_or_default();
        if names.get_or_insert_with(|| these.clone()) != &these {
            return Err(failure("tool names changed with the language"));
        }
    }

    story.chapter(
        2,
        "An unmatched preference falls back to the default, without error",
    )?;
    for preference in ["tlh, x-klingon;q=0.5", "*;q=0", "fr;;q=2 (malformed)"] {
        let raw = preference.trim_end_matches(" (malformed)");
        let outcome = stdio
            .request("tools/list", json!({"_meta": meta(Some(raw))}), "")
            .await?;
        if outcome.response.get("error").is_some() {
            return Err(failure("an unmatched preference produced an error"));
        }
        story.line(format!(
            "   acceptLanguage {preference:?} → contentLanguage {} (a result, not an error)",
            reported(&outcome.response)
        ))?;
    }

    story.chapter(
        3,
        "The preference is per request: change it or omit it on one connection",
    )?;
    for preference in [Some("de"), None, Some("ja"), None] {
        let outcome = stdio
            .request("tools/list", json!({"_meta": meta(preference)}), "")
            .await?;
        story.line(format!(
            "   acceptLanguage {:<12} → contentLanguage {:<7} weather_current title {}",
            show(preference),
            reported(&outcome.response),
            outcome.response["result"]["tools"][0]["title"]
        ))?;
    }

    story.chapter(
        4,
        "Elicitation in the request's language, with a stable property key",
    )?;
    let outcome = stdio
        .request(
            "tools/call",
            json!({"name": "send_confirmation", "arguments": {}, "_meta": meta(Some("de"))}),
            "ada@example.org",
        )
        .await?;
    for message in &outcome.during {
        if message["method"] == "elicitation/create" {
            let params = &message["params"];
            let email = &params["requestedSchema"]["properties"]["email"];
            story.line(format!(
                "   ← elicitation/create (params._meta contentLanguage {})\n       message: {}\n       property key \"email\" (type {}, format {}): title {}, description {}",
                params["_meta"][CONTENT_LANGUAGE_KEY], params["message"], email["type"], email["format"], email["title"], email["description"]
            ))?;
        }
    }
    story.line(format!(
        "   → answered {{\"email\": \"ada@example.org\"}}; ← tool result {} (contentLanguage {})",
        outcome.response["result"]["content"][0]["text"],
        reported(&outcome.response)
    ))?;
    story.line("   (protocol 2026-07-28 peers get the SEP's input_required result instead: see the HTTP part)")?;

    story.chapter(
        5,
        "Progress messages in the request's language, tokens untouched",
    )?;
    let outcome = stdio
        .request(
            "tools/call",
            json!({"name": "prepare_report", "arguments": {}, "_meta": {ACCEPT_LANGUAGE_KEY: "ja", "progressToken": "report-1"}}),
            "",
        )
        .await?;
    for message in outcome
        .during
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
    {
        let params = &message["params"];
        story.line(format!(
            "   ← progress token {} {}/{}: {}  (contentLanguage {})",
            params["progressToken"],
            params["progress"],
            params["total"],
            params["message"],
            params["_meta"][CONTENT_LANGUAGE_KEY]
        ))?;
    }
    story.line(format!(
        "   ← result: {} (contentLanguage {}: tool output is model-facing, left in English)",
        outcome.response["result"]["content"][0]["text"],
        reported(&outcome.response)
    ))?;

    story.chapter(
        6,
        "An explicit language argument wins for the content it controls",
    )?;
    let outcome = stdio
        .request(
            "tools/call",
            json!({"name": "get_official_document", "arguments": {"document": "udhr-article-1", "language": "ga"}, "_meta": meta(Some("en"))}),
            "",
        )
        .await?;
    story.line(format!(
        "   acceptLanguage \"en\", argument language \"ga\" → contentLanguage {}\n       {}",
        reported(&outcome.response),
        outcome.response["result"]["content"][0]["text"]
    ))?;

    http_part(&mut story, server).await?;
    story.line("")?;
    story
        .line("Every message above was produced by the reference server; nothing was scripted.")?;
    Ok(())
}

async fn http_part(story: &mut Story<'_>, server: ReferenceServer) -> DemoResult {
    let http = spawn_http(
        server,
        SocketAddr::from(([127, 0, 0, 1], 0)),
        HttpMode::Stateless,
    )
    .await?;
    let addr = http.local_addr();
    story.chapter(
        7,
        &format!(
            "Streamable HTTP: {} behind the SEP-2792 tower layer",
            http.url()
        ),
    )?;
    let version = [("MCP-Protocol-Version", LEGACY)];
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "mcp-lang-demo", "version": env!("CARGO_PKG_VERSION")}}});
    wire::post(addr, MCP_PATH, &[], &init.to_string()).await?;
    for preference in ["fr-CA,fr;q=0.9,en;q=0.5", "de", "ja"] {
        let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta(Some(preference))}});
        let exchange = wire::post(
            addr,
            MCP_PATH,
            &[version[0], ("Accept-Language", preference)],
            &body.to_string(),
        )
        .await?;
        let response = exchange.json().unwrap_or(Value::Null);
        story.line(format!(
            "   POST Accept-Language: {preference}\n   ← HTTP {}  Content-Language: {}  Vary: {}  (contentLanguage {})",
            exchange.status,
            exchange.header_values("content-language").join(" | "),
            exchange.header_values("vary").join(", "),
            reported(&response)
        ))?;
        story.tools(&response)?;
    }

    story.chapter(8, "Exact agreement between _meta and Accept-Language")?;
    let cases: [(&str, &[&str], &str); 5] = [
        ("en-US", &["en-us"], "case differs"),
        ("en;q=0.9", &["en;q=0.900"], "q spelling differs"),
        (
            "en",
            &["  en "],
            "surrounding whitespace is not part of the value",
        ),
        (
            "en-US, en;q=0.9",
            &["en-US", "en;q=0.9"],
            "two field lines join with \", \"",
        ),
        ("de", &[], "header stripped by an intermediary: tolerated"),
    ];
    for (meta_value, lines, why) in cases {
        let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": {ACCEPT_LANGUAGE_KEY: meta_value}}});
        let mut headers = vec![version[0]];
        headers.extend(lines.iter().map(|l| ("Accept-Language", *l)));
        let exchange = wire::post(addr, MCP_PATH, &headers, &body.to_string()).await?;
        let response = exchange.json().unwrap_or(Value::Null);
        let outcome = match response["error"]["code"].as_i64() {
            Some(code) => format!("error {code}: {}", response["error"]["message"]),
            None => format!("contentLanguage {}", reported(&response)),
        };
        let cache = exchange.header_values("cache-control").join(", ");
        story.line(format!(
            "   _meta {meta_value:?} + header lines {lines:?} ({why})\n   ← HTTP {} {outcome}{}",
            exchange.status,
            if cache.is_empty() {
                String::new()
            } else {
                format!("  Cache-Control: {cache}")
            }
        ))?;
    }

    story.chapter(
        9,
        "The SEP's input_required elicitation (protocol 2026-07-28)",
    )?;
    let body = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
    "name": "send_confirmation", "arguments": {},
    "_meta": {
        ACCEPT_LANGUAGE_KEY: "de",
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "mcp-lang-demo", "version": env!("CARGO_PKG_VERSION")}
    }}});
    let exchange = wire::post(
        addr,
        MCP_PATH,
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "send_confirmation"),
            ("Accept-Language", "de"),
        ],
        &body.to_string(),
    )
    .await?;
    let response = exchange.json().unwrap_or(Value::Null);
    let shown = serde_json::to_string_pretty(&response).unwrap_or_default();
    story.line(format!(
        "   ← HTTP {}  Content-Language: {}",
        exchange.status,
        exchange.header_values("content-language").join(" | ")
    ))?;
    for line in shown.lines() {
        story.line(format!("     {line}"))?;
    }
    http.shutdown().await;
    Ok(())
}
