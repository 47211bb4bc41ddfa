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
//! It is written for a person: a few screens, at most [`WIDTH`] columns,
//! tables where several requests are compared, and a closing section that
//! says what to run next.
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
use mcp_lang_wire as wire;

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

/// The widest line the demo prints, in terminal columns.
pub const WIDTH: usize = 100;

/// How many terminal columns `text` takes: two for East Asian wide and
/// fullwidth characters, none for combining marks and controls, one for the
/// rest (enough for the languages of the reference server's catalogs).
///
/// ```
/// use mcp_lang_reference::demo::display_width;
/// assert_eq!(display_width("Météo"), 5);
/// assert_eq!(display_width("現在の天気"), 10);
/// ```
pub fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| match u32::from(c) {
            0..0x20 | 0x7f..0xa0 | 0x300..0x370 | 0x200b..0x2010 => 0,
            0x1100..0x1160
            | 0x2e80..0xa4d0
            | 0xac00..0xd7a4
            | 0xf900..0xfb00
            | 0xfe30..0xfe50
            | 0xff00..0xff61
            | 0xffe0..0xffe7
            | 0x1f300..0x1fb00
            | 0x20000..0x3fffe => 2,
            _ => 1,
        })
        .sum()
}

/// `text` cut to at most `width` columns, with `…` where it was cut.
fn fit(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = display_width(c.encode_utf8(&mut [0; 4]));
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// `text` in lines of at most `width` columns, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let Some(line) = lines.last_mut() else { break };
        if !line.is_empty() && display_width(line) + 1 + display_width(word) > width {
            lines.push(word.to_owned());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

/// A JSON string value as the wire has it (quoted), or `-`.
fn quoted(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| "-".to_owned(), |s| format!("\"{s}\""))
}

fn reported(response: &Value) -> String {
    quoted(
        response["result"]["_meta"]
            .get(CONTENT_LANGUAGE_KEY)
            .or_else(|| response["error"]["data"]["_meta"].get(CONTENT_LANGUAGE_KEY))
            .unwrap_or(&Value::Null),
    )
}

fn show(preference: Option<&str>) -> String {
    preference.map_or_else(|| "(omitted)".to_owned(), |p| format!("\"{p}\""))
}

fn title_of(response: &Value, name: &str) -> String {
    response["result"]["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == name))
        .and_then(|t| t["title"].as_str())
        .unwrap_or("-")
        .to_owned()
}

fn names(response: &Value) -> Vec<Value> {
    response["result"]["tools"]
        .as_array()
        .map(|t| t.iter().map(|t| t["name"].clone()).collect())
        .unwrap_or_default()
}

struct Story<'w> {
    out: &'w mut dyn Write,
}

impl Story<'_> {
    /// One line, cut to [`WIDTH`] columns.
    fn line(&mut self, text: impl AsRef<str>) -> DemoResult {
        writeln!(self.out, "{}", fit(text.as_ref(), WIDTH))?;
        Ok(())
    }

    fn chapter(&mut self, number: u32, title: &str) -> DemoResult {
        self.line("")?;
        let head = format!("── {number}. {title} ");
        let rule = 84usize.saturating_sub(display_width(&head)).max(3);
        self.line(format!("{head}{}", "─".repeat(rule)))
    }

    /// Rows as columns padded to their widest cell (the first row is the
    /// header); the last column is cut if the table would be too wide.
    fn table(&mut self, rows: &[Vec<String>]) -> DemoResult {
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut widths: Vec<usize> = (0..columns)
            .map(|i| {
                rows.iter()
                    .filter_map(|r| r.get(i))
                    .map(|c| display_width(c))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let indent = 3;
        let total: usize = indent + widths.iter().sum::<usize>() + 2 * columns.saturating_sub(1);
        if let Some(last) = widths.last_mut() {
            *last = last.saturating_sub(total.saturating_sub(WIDTH));
        }
        for row in rows {
            let mut line = " ".repeat(indent);
            for (i, cell) in row.iter().enumerate() {
                let cell = fit(cell, widths[i]);
                line.push_str(&cell);
                if i + 1 < row.len() {
                    line.push_str(&" ".repeat(widths[i] - display_width(&cell) + 2));
                }
            }
            self.line(line.trim_end())?;
        }
        Ok(())
    }
}

fn cells<const N: usize>(cells: [&str; N]) -> Vec<String> {
    cells.iter().map(|c| (*c).to_owned()).collect()
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
    story.line(
        "SEP-2792, per-request user language preference, shown by the mcp-lang reference server",
    )?;
    story.line(format!(
        "It speaks {} (default {}). A client sends its preference (an Accept-Language",
        server
            .languages()
            .supported()
            .collect::<Vec<_>>()
            .join(", "),
        server.languages().default_tag()
    ))?;
    story.line(format!(
        "value) in params._meta[\"{ACCEPT_LANGUAGE_KEY}\"] of each request;"
    ))?;
    story.line(format!(
        "the server says which language it used in _meta[\"{CONTENT_LANGUAGE_KEY}\"]."
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

    discovery(&mut story, &mut stdio, &init.response).await?;
    per_request(&mut story, &mut stdio).await?;
    elicitation_and_progress(&mut story, &mut stdio).await?;
    arguments_and_errors(&mut story, &mut stdio).await?;
    http_part(&mut story, server).await?;

    story.chapter(8, "What to run next")?;
    story.table(&[
        cells([
            "mcp-lang serve --http 8080",
            "this server, for your own client",
        ]),
        cells([
            "mcp-lang conformance --url URL",
            "test a server (or --stdio CMD) against SEP-2792",
        ]),
        cells([
            "mcp-lang negotiate --supported 'en, fr' 'fr-CA'",
            "which language a server picks, and why",
        ]),
        cells(["mcp-lang --help", "every command, each with examples"]),
    ])?;
    story
        .line("Every message above was produced by the reference server; nothing was scripted.")?;
    Ok(())
}

/// Chapter 1: the same list in three languages, as one table.
async fn discovery(story: &mut Story<'_>, stdio: &mut LineClient, init: &Value) -> DemoResult {
    story.chapter(
        1,
        "Discovery over stdio: titles follow the language, names do not",
    )?;
    let preferences = ["fr-CA,fr;q=0.9,en;q=0.5", "de", "ja"];
    let mut lists = Vec::new();
    for preference in preferences {
        let outcome = stdio
            .request("tools/list", json!({"_meta": meta(Some(preference))}), "")
            .await?;
        lists.push(outcome.response);
    }
    let first = names(&lists[0]);
    if first.is_empty() || lists.iter().any(|l| names(l) != first) {
        return Err(failure("tool names changed with the language"));
    }
    story.line(
        "   tools/list, three times on one connection; the columns are the languages reported:",
    )?;
    let mut header = vec!["acceptLanguage →".to_owned()];
    header.extend(preferences.iter().map(|p| format!("\"{p}\"")));
    let mut reported_row = vec!["contentLanguage ←".to_owned()];
    reported_row.extend(lists.iter().map(reported));
    let mut rows = vec![header, reported_row];
    for name in &first {
        let name = name.as_str().unwrap_or("-");
        let mut row = vec![name.to_owned()];
        row.extend(lists.iter().map(|l| title_of(l, name)));
        rows.push(row);
    }
    story.table(&rows)?;
    story.line(format!(
        "   \"fr-CA,fr;q=0.9,en;q=0.5\" puts Canadian French first: contentLanguage {}.",
        reported(&lists[0])
    ))?;
    let result = &lists[0]["result"];
    story.line(format!(
        "   Each list has ttlMs {} and cacheScope {}: a client may reuse it, per language.",
        result["ttlMs"],
        quoted(&result["cacheScope"])
    ))?;
    story.line(format!(
        "   initialize in \"ga\" → contentLanguage {}, serverInfo title {}",
        reported(init),
        quoted(&init["result"]["serverInfo"]["title"]),
    ))?;
    story.line(format!(
        "     (its name, {}, is the same in every language)",
        quoted(&init["result"]["serverInfo"]["name"]),
    ))
}

/// Chapter 2: the preference is per request, and falls back without error.
async fn per_request(story: &mut Story<'_>, stdio: &mut LineClient) -> DemoResult {
    story.chapter(2, "Per request on one connection, and never an error")?;
    let cases: [(Option<&str>, &str); 6] = [
        (Some("de"), ""),
        (None, "no preference: the default"),
        (Some("ja"), ""),
        (
            Some("tlh, x-klingon;q=0.5"),
            "nothing supported: the default",
        ),
        (Some("*;q=0"), "everything refused: still the default"),
        (Some("fr;;q=2"), "malformed: ignored, the default"),
    ];
    let mut rows = vec![cells([
        "acceptLanguage",
        "contentLanguage",
        "weather_current",
        "",
    ])];
    for (preference, why) in cases {
        let outcome = stdio
            .request("tools/list", json!({"_meta": meta(preference)}), "")
            .await?;
        if outcome.response.get("error").is_some() {
            return Err(failure("an unmatched preference produced an error"));
        }
        rows.push(vec![
            show(preference),
            reported(&outcome.response),
            title_of(&outcome.response, "weather_current"),
            why.to_owned(),
        ]);
    }
    story.table(&rows)
}

/// Chapter 3: server-to-client messages in the request's language.
async fn elicitation_and_progress(story: &mut Story<'_>, stdio: &mut LineClient) -> DemoResult {
    story.chapter(3, "Elicitation and progress speak the request's language")?;
    let outcome = stdio
        .request(
            "tools/call",
            json!({"name": "send_confirmation", "arguments": {}, "_meta": meta(Some("de"))}),
            "ada@example.org",
        )
        .await?;
    story.line("   tools/call send_confirmation, acceptLanguage \"de\":")?;
    let Some(elicit) = outcome
        .during
        .iter()
        .find(|m| m["method"] == "elicitation/create")
    else {
        return Err(failure("send_confirmation asked nothing"));
    };
    let params = &elicit["params"];
    let email = &params["requestedSchema"]["properties"]["email"];
    story.line(format!(
        "   ← elicitation/create {} (contentLanguage {})",
        quoted(&params["message"]),
        quoted(&params["_meta"][CONTENT_LANGUAGE_KEY])
    ))?;
    story.line(format!(
        "     field \"email\" titled {}: the key stays, the label is translated",
        quoted(&email["title"])
    ))?;
    story.line(format!(
        "   → {{\"email\": \"ada@example.org\"}}   ← {} (contentLanguage {})",
        quoted(&outcome.response["result"]["content"][0]["text"]),
        reported(&outcome.response)
    ))?;
    story.line("     (a tool's output is for the model: the server leaves it in English)")?;

    let outcome = stdio
        .request(
            "tools/call",
            json!({"name": "prepare_report", "arguments": {}, "_meta": {ACCEPT_LANGUAGE_KEY: "ja", "progressToken": "report-1"}}),
            "",
        )
        .await?;
    story
        .line("   tools/call prepare_report, acceptLanguage \"ja\", progressToken \"report-1\":")?;
    let mut rows = vec![cells(["progress", "message", "contentLanguage"])];
    for message in outcome
        .during
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
    {
        let params = &message["params"];
        rows.push(vec![
            format!(
                "{}/{}",
                params["progress"].as_f64().unwrap_or(0.0),
                params["total"].as_f64().unwrap_or(0.0)
            ),
            params["message"].as_str().unwrap_or("-").to_owned(),
            quoted(&params["_meta"][CONTENT_LANGUAGE_KEY]),
        ]);
    }
    if rows.len() < 2 {
        return Err(failure("prepare_report reported no progress"));
    }
    story.table(&rows)
}

/// Chapter 4: an explicit argument wins; errors are localized.
async fn arguments_and_errors(story: &mut Story<'_>, stdio: &mut LineClient) -> DemoResult {
    story.chapter(4, "An explicit argument wins; errors are localized too")?;
    let outcome = stdio
        .request(
            "tools/call",
            json!({"name": "get_official_document", "arguments": {"document": "udhr-article-1", "language": "ga"}, "_meta": meta(Some("en"))}),
            "",
        )
        .await?;
    story.line(
        "   get_official_document with the argument language \"ga\", acceptLanguage \"en\":",
    )?;
    story.line(format!(
        "   ← contentLanguage {}, the document in Irish:",
        reported(&outcome.response)
    ))?;
    let text = quoted(&outcome.response["result"]["content"][0]["text"]);
    for line in wrap(&text, WIDTH - 5) {
        story.line(format!("     {line}"))?;
    }
    let outcome = stdio
        .request(
            "tools/call",
            json!({"name": "weather_current", "arguments": {"city": "Atlantis"}, "_meta": meta(Some("fr"))}),
            "",
        )
        .await?;
    story.line("   weather_current {\"city\": \"Atlantis\"}, acceptLanguage \"fr\":")?;
    story.line(format!(
        "   ← tool error {} (contentLanguage {})",
        quoted(&outcome.response["result"]["content"][0]["text"]),
        reported(&outcome.response)
    ))?;
    let outcome = stdio
        .request(
            "tools/call",
            json!({"name": "no_such_tool", "arguments": {}, "_meta": meta(Some("de"))}),
            "",
        )
        .await?;
    let error = &outcome.response["error"];
    if error.is_null() {
        return Err(failure("an unknown tool was not an error"));
    }
    story.line("   tools/call no_such_tool, acceptLanguage \"de\":")?;
    story.line(format!(
        "   ← JSON-RPC error {} {} (contentLanguage {})",
        error["code"],
        quoted(&error["message"]),
        reported(&outcome.response)
    ))
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
        5,
        &format!(
            "Streamable HTTP ({}): headers mirror _meta, caches split",
            http.url()
        ),
    )?;
    let version = ("MCP-Protocol-Version", LEGACY);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "mcp-lang-demo", "version": env!("CARGO_PKG_VERSION")}}});
    wire::post(addr, MCP_PATH, &[], &init.to_string()).await?;
    story
        .line("   The same tools/list (HTTP 200 each time) in two languages, then with the header stripped:")?;
    let mut rows = vec![cells([
        "Accept-Language",
        "_meta",
        "Content-Language",
        "Vary",
        "Cache-Control",
        "ttlMs",
    ])];
    let mut languages = Vec::new();
    for (header, preference) in [(Some("fr"), "fr"), (Some("de"), "de"), (None, "de")] {
        let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta(Some(preference))}});
        let mut headers = vec![version];
        headers.extend(header.map(|h| ("Accept-Language", h)));
        let exchange = wire::post(addr, MCP_PATH, &headers, &body.to_string()).await?;
        let response = exchange.json().unwrap_or(Value::Null);
        let vary = exchange.header_values("vary").join(", ");
        if !vary.to_ascii_lowercase().contains("accept-language") {
            return Err(failure("a localized answer has no Vary: Accept-Language"));
        }
        let language = exchange.header_values("content-language").join(", ");
        languages.push(language.clone());
        if exchange.status != 200 {
            return Err(failure(format!(
                "tools/list over HTTP: {}",
                exchange.status
            )));
        }
        let cache = exchange.header_values("cache-control").join(", ");
        rows.push(vec![
            header.map_or_else(|| "(stripped)".to_owned(), str::to_owned),
            format!("\"{preference}\""),
            language,
            vary,
            if cache.is_empty() {
                "-".to_owned()
            } else {
                cache
            },
            response["result"]["ttlMs"].to_string(),
        ]);
    }
    if languages[0] == languages[1] {
        return Err(failure("two languages got the same Content-Language"));
    }
    story.table(&rows)?;
    story.line(
        "   Vary: Accept-Language makes a shared cache keep one copy per language, so a German",
    )?;
    story.line(
        "   request never gets the French list; ttlMs says how long a client may reuse each.",
    )?;
    story.line(
        "   With the header stripped a cache cannot see the language, so that answer is private.",
    )?;

    story.chapter(6, "_meta and Accept-Language must agree exactly")?;
    let cases: [(&str, &[&str], &str); 4] = [
        ("en-US", &["en-us"], "case differs"),
        ("en;q=0.9", &["en;q=0.900"], "q spelled differently"),
        ("en", &["  en "], "spaces around a line are trimmed"),
        (
            "en-US, en;q=0.9",
            &["en-US", "en;q=0.9"],
            "two lines join with \", \"",
        ),
    ];
    let mut rows = vec![cells(["_meta", "header lines", "answer", "why"])];
    for (meta_value, lines, why) in cases {
        let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": {ACCEPT_LANGUAGE_KEY: meta_value}}});
        let mut headers = vec![version];
        headers.extend(lines.iter().map(|l| ("Accept-Language", *l)));
        let exchange = wire::post(addr, MCP_PATH, &headers, &body.to_string()).await?;
        let response = exchange.json().unwrap_or(Value::Null);
        let answer = match response["error"]["code"].as_i64() {
            Some(code) => format!("{} error {code}", exchange.status),
            None => format!("{} {}", exchange.status, reported(&response)),
        };
        let expect_mismatch = why.contains("differ");
        if expect_mismatch != (exchange.status == 400) {
            return Err(failure(format!(
                "agreement of {meta_value:?} and {lines:?}: HTTP {}",
                exchange.status
            )));
        }
        rows.push(vec![
            format!("\"{meta_value}\""),
            lines
                .iter()
                .map(|l| format!("\"{l}\""))
                .collect::<Vec<_>>()
                .join(" + "),
            answer,
            why.to_owned(),
        ]);
    }
    story.table(&rows)?;
    story.line("   Error -32020 is HeaderMismatch: the client sent two different preferences.")?;

    story.chapter(
        7,
        "Protocol 2026-07-28: elicitation as an input_required result",
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
    let result = &response["result"];
    let Some((key, request)) = result["inputRequests"]
        .as_object()
        .and_then(|requests| requests.iter().next())
    else {
        return Err(failure("send_confirmation returned no input request"));
    };
    let params = &request["params"];
    story.line(format!(
        "   tools/call send_confirmation, Accept-Language: de → HTTP {}, Content-Language: {}",
        exchange.status,
        exchange.header_values("content-language").join(", ")
    ))?;
    story.line(format!(
        "   result {} with inputRequests.{key}: {} (contentLanguage {})",
        quoted(&result["resultType"]),
        request["method"].as_str().unwrap_or("-"),
        quoted(&params["_meta"][CONTENT_LANGUAGE_KEY])
    ))?;
    story.line(format!(
        "     message {}; field \"email\" titled {}",
        quoted(&params["message"]),
        quoted(&params["requestedSchema"]["properties"]["email"]["title"])
    ))?;
    http.shutdown().await;
    Ok(())
}
