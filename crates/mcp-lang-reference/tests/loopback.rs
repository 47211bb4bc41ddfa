//! The reference server over Streamable HTTP on loopback, behind the SEP-2792
//! tower layer, driven by raw HTTP/1.1 on a TCP socket (so repeated field lines
//! reach the server as separate lines).

use mcp_lang_rmcp::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use std::net::SocketAddr;

use mcp_lang_reference::{
    ReferenceServer,
    serve::{HttpMode, HttpServer, MCP_PATH, spawn_http},
};
use mcp_lang_wire::{Exchange, post};
use serde_json::{Value, json};

const VERSION: (&str, &str) = ("MCP-Protocol-Version", "2025-11-25");

async fn start() -> HttpServer {
    let server = ReferenceServer::new().unwrap();
    let http = spawn_http(
        server,
        SocketAddr::from(([127, 0, 0, 1], 0)),
        HttpMode::Stateless,
    )
    .await
    .unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "loopback-test", "version": "0"}}});
    let exchange = post(http.local_addr(), MCP_PATH, &[], &init.to_string())
        .await
        .unwrap();
    assert_eq!(exchange.status, 200, "{exchange:?}");
    http
}

fn tools_list(meta: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"_meta": meta}})
        .to_string()
}

async fn list(http: &HttpServer, meta: Value, lines: &[&str]) -> Exchange {
    let mut headers = vec![VERSION];
    headers.extend(lines.iter().map(|l| ("Accept-Language", *l)));
    post(http.local_addr(), MCP_PATH, &headers, &tools_list(meta))
        .await
        .unwrap()
}

fn weather_title(exchange: &Exchange) -> String {
    let body = exchange.json().unwrap();
    body["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "weather_current")
        .unwrap()["title"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "current_thread")]
async fn json_responses_mirror_content_language_and_vary() {
    let http = start().await;
    for (preference, tag, title) in [
        ("fr-CA,fr;q=0.9,en;q=0.5", "fr-CA", "Météo actuelle"),
        ("de", "de", "Aktuelles Wetter"),
        ("ja", "ja", "現在の天気"),
        ("tlh", "en", "Current weather"),
    ] {
        let exchange = list(
            &http,
            json!({ACCEPT_LANGUAGE_KEY: preference}),
            &[preference],
        )
        .await;
        assert_eq!(exchange.status, 200);
        assert_eq!(exchange.header_values("content-language"), [tag]);
        assert!(
            exchange
                .header_values("vary")
                .iter()
                .any(|v| v.to_ascii_lowercase().contains("accept-language"))
        );
        let body = exchange.json().unwrap();
        assert_eq!(body["result"]["_meta"][CONTENT_LANGUAGE_KEY], tag);
        assert_eq!(body["result"]["ttlMs"], 300_000);
        assert_eq!(body["result"]["cacheScope"], "public");
        assert_eq!(weather_title(&exchange), title);
    }
    http.shutdown().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_present_mismatch_is_400_header_mismatch_echoing_the_id() {
    let http = start().await;
    for (meta, lines) in [
        ("en-US", &["en-us"][..]),
        ("en-US,en;q=0.9", &["en-US, en;q=0.9"][..]),
        ("en;q=0.9", &["en;q=0.900"][..]),
        ("en-US, en;q=0.9", &["en-US", "en;q=0.8"][..]),
    ] {
        let exchange = list(&http, json!({ACCEPT_LANGUAGE_KEY: meta}), lines).await;
        assert_eq!(exchange.status, 400, "{meta:?} vs {lines:?}");
        let body = exchange.json().unwrap();
        assert_eq!(body["error"]["code"], -32020);
        assert_eq!(body["id"], 7);
    }
    // A `_meta` value that is not a string beside a header never agrees (D5).
    let exchange = list(&http, json!({ACCEPT_LANGUAGE_KEY: 5}), &["5"]).await;
    assert_eq!(exchange.status, 400);
    http.shutdown().await;
}

#[tokio::test(flavor = "current_thread")]
async fn agreement_edge_cases_that_must_agree() {
    let http = start().await;
    let exchange = list(&http, json!({ACCEPT_LANGUAGE_KEY: "en"}), &["  en "]).await;
    assert_eq!(exchange.status, 200);
    let exchange = list(
        &http,
        json!({ACCEPT_LANGUAGE_KEY: "de, en;q=0.9"}),
        &["de", "en;q=0.9"],
    )
    .await;
    assert_eq!(exchange.status, 200);
    assert_eq!(exchange.header_values("content-language"), ["de"]);
    // Agreement before grammar: a malformed value that agrees is accepted and
    // ignored as an absent preference.
    let exchange = list(&http, json!({ACCEPT_LANGUAGE_KEY: "de;;q=2"}), &["de;;q=2"]).await;
    assert_eq!(exchange.status, 200);
    assert_eq!(exchange.header_values("content-language"), ["en"]);
    http.shutdown().await;
}

#[tokio::test(flavor = "current_thread")]
async fn stripped_header_is_tolerated_but_private_and_bare_header_is_ignored() {
    let http = start().await;
    let exchange = list(&http, json!({ACCEPT_LANGUAGE_KEY: "ga"}), &[]).await;
    assert_eq!(exchange.status, 200);
    assert_eq!(exchange.header_values("content-language"), ["ga"]);
    assert!(
        exchange
            .header_values("cache-control")
            .iter()
            .any(|v| v.contains("private"))
    );
    // A header without `_meta` creates no preference.
    let exchange = list(&http, json!({}), &["de"]).await;
    assert_eq!(exchange.status, 200);
    assert_eq!(weather_title(&exchange), "Current weather");
    assert_eq!(exchange.header_values("content-language"), ["en"]);
    http.shutdown().await;
}

#[tokio::test(flavor = "current_thread")]
async fn progress_over_sse_carries_the_language_per_message() {
    let http = start().await;
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "prepare_report", "arguments": {},
        "_meta": {ACCEPT_LANGUAGE_KEY: "ga", "progressToken": 42}}});
    let exchange = post(
        http.local_addr(),
        MCP_PATH,
        &[VERSION, ("Accept-Language", "ga")],
        &body.to_string(),
    )
    .await
    .unwrap();
    assert_eq!(exchange.status, 200);
    let events = exchange.events();
    let progress: Vec<&Value> = events
        .iter()
        .filter(|e| e["method"] == "notifications/progress")
        .collect();
    assert_eq!(
        progress.len(),
        4,
        "{}",
        String::from_utf8_lossy(&exchange.body)
    );
    for note in &progress {
        assert_eq!(note["params"]["progressToken"], 42);
        assert_eq!(note["params"]["_meta"][CONTENT_LANGUAGE_KEY], "ga");
    }
    assert_eq!(progress[3]["params"]["message"], "Tá an tuarascáil réidh.");
    // The stream mixes Irish notifications and an English result: no single
    // Content-Language describes it, so none is sent (SEP: MAY omit on SSE).
    let content_type = exchange.header_values("content-type").join(",");
    if content_type.contains("text/event-stream") {
        assert!(exchange.header_values("content-language").is_empty());
    }
    let response = events.iter().find(|e| e["id"] == 9).unwrap();
    assert_eq!(response["result"]["_meta"][CONTENT_LANGUAGE_KEY], "en");
    http.shutdown().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_localized_error_is_mirrored_too() {
    let http = start().await;
    let body = json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {
        "name": "no_such_tool", "arguments": {}, "_meta": {ACCEPT_LANGUAGE_KEY: "de"}}});
    let exchange = post(
        http.local_addr(),
        MCP_PATH,
        &[VERSION, ("Accept-Language", "de")],
        &body.to_string(),
    )
    .await
    .unwrap();
    let json = exchange.json().unwrap();
    assert_eq!(
        json["error"]["message"],
        "Unbekanntes Werkzeug: no_such_tool"
    );
    assert_eq!(json["error"]["data"]["_meta"][CONTENT_LANGUAGE_KEY], "de");
    assert_eq!(exchange.header_values("content-language"), ["de"]);
    http.shutdown().await;
}
