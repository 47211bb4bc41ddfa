//! `CachingClient` against a scripted server whose results have no `ttlMs`
//! (never stored) or a short one. (The reference server's crate runs it against
//! the real server: entries keyed by the raw preference, `ttlMs` bounding
//! freshness.)

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_lang_rmcp::{
    CONTENT_LANGUAGE_KEY,
    cache::{CacheStats, CachingClient},
    mcp_lang_meta::ManualClock,
};
use rmcp::{
    ServiceExt,
    model::{ListResourceTemplatesResult, ListResourcesResult},
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

fn stats(hits: u64, misses: u64) -> CacheStats {
    let mut s = CacheStats::default();
    s.hits = hits;
    s.misses = misses;
    s
}

fn resource_title(result: &ListResourcesResult) -> String {
    result.resources[0].title.clone().unwrap_or_default()
}

fn template_title(result: &ListResourceTemplatesResult) -> String {
    result.resource_templates[0]
        .title
        .clone()
        .unwrap_or_default()
}

/// A newline-delimited JSON-RPC server that answers `resources/list` without
/// `ttlMs` and `resources/templates/list` with `ttlMs: 1000, cacheScope:
/// "private"`, counting the list requests it answers.
async fn scripted_server(io: DuplexStream, lists: Arc<AtomicUsize>) {
    let (read, mut write) = tokio::io::split(io);
    let mut lines = BufReader::new(read).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = message.get("id").cloned() else {
            continue; // a notification
        };
        let language = message["params"]["_meta"]["io.modelcontextprotocol/acceptLanguage"]
            .as_str()
            .unwrap_or("en")
            .to_owned();
        let meta = json!({ CONTENT_LANGUAGE_KEY: language });
        let answer = match message["method"].as_str() {
            Some("initialize") => json!({"protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"resources": {}},
                "serverInfo": {"name": "scripted", "version": "0"}}),
            Some("resources/list") => {
                lists.fetch_add(1, Ordering::SeqCst);
                json!({"resources": [{"uri": "x:a", "name": "a", "title": language}],
                       "_meta": meta})
            }
            Some("resources/templates/list") => {
                lists.fetch_add(1, Ordering::SeqCst);
                json!({"resourceTemplates": [{"uriTemplate": "x:{id}", "name": "t", "title": language}],
                       "ttlMs": 1000, "cacheScope": "private", "_meta": meta})
            }
            _ => {
                let error = json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32601, "message": "method not found"}});
                let _ = write.write_all(format!("{error}\n").as_bytes()).await;
                continue;
            }
        };
        let response = json!({"jsonrpc": "2.0", "id": id, "result": answer});
        if write
            .write_all(format!("{response}\n").as_bytes())
            .await
            .is_err()
        {
            break;
        }
    }
}

#[tokio::test(flavor = "current_thread")]
async fn results_without_ttl_are_never_stored() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let lists = Arc::new(AtomicUsize::new(0));
    tokio::spawn(scripted_server(server_io, lists.clone()));
    let running = ().serve(client_io).await.unwrap();
    let clock = ManualClock::new();
    let client = CachingClient::with_clock(running.peer().clone(), clock.clone());

    // No ttlMs: every request goes to the server.
    for _ in 0..3 {
        let result = client.list_resources(None, Some("de")).await.unwrap();
        assert_eq!(resource_title(&result), "de");
    }
    assert_eq!(lists.load(Ordering::SeqCst), 3);
    assert_eq!(client.stats(), stats(0, 3));

    // A private entry with ttlMs 1000: kept for this client's (single)
    // authorization context, per raw preference, for exactly 1000 ms.
    let ga = client
        .list_resource_templates(None, Some("ga"))
        .await
        .unwrap();
    assert_eq!(template_title(&ga), "ga");
    clock.advance_ms(999);
    let again = client
        .list_resource_templates(None, Some("ga"))
        .await
        .unwrap();
    assert_eq!(again, ga);
    let de = client
        .list_resource_templates(None, Some("de"))
        .await
        .unwrap();
    assert_eq!(template_title(&de), "de");
    assert_eq!(lists.load(Ordering::SeqCst), 5);
    clock.advance_ms(1);
    client
        .list_resource_templates(None, Some("ga"))
        .await
        .unwrap();
    assert_eq!(lists.load(Ordering::SeqCst), 6);
    assert_eq!(client.stats(), stats(1, 6));
    running.cancel().await.unwrap();
}
