//! `CachingClient` on `resources/list` and `resources/templates/list`: the
//! reference server over an in-memory pipe (entries keyed by the raw
//! preference, `ttlMs` bounding freshness), and a scripted server whose
//! results have no `ttlMs` (never stored) or a short one.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_lang_reference::{ReferenceServer, catalog::Catalog, server::LIST_TTL_MS};
use mcp_lang_rmcp::{
    CONTENT_LANGUAGE,
    cache::{CacheStats, CachingClient},
    client::SendError,
    mcp_lang_meta::ManualClock,
};
use rmcp::{
    ServiceExt,
    model::{ListResourceTemplatesResult, ListResourcesResult, MetaObject},
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

fn stats(hits: u64, misses: u64) -> CacheStats {
    let mut s = CacheStats::default();
    s.hits = hits;
    s.misses = misses;
    s
}

fn reported(meta: &Option<MetaObject>) -> Option<&str> {
    meta.as_ref()
        .and_then(|m| m.get(CONTENT_LANGUAGE))
        .and_then(Value::as_str)
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

#[tokio::test(flavor = "current_thread")]
async fn resource_lists_are_keyed_by_the_raw_preference() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = ReferenceServer::new().unwrap();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let running = ().serve(client_io).await.unwrap();
    let catalog = Catalog::load().unwrap();
    let clock = ManualClock::new();
    let client =
        CachingClient::with_clock(running.peer().clone(), clock.clone()).auth_context("alice");

    let fr = "fr-CA,fr;q=0.9";
    let first = client.list_resources(None, Some(fr)).await.unwrap();
    assert_eq!(reported(&first.meta), Some("fr-CA"));
    assert_eq!(
        resource_title(&first),
        catalog.text("fr-CA", "resource-languages-title")
    );
    assert_eq!(client.stats(), stats(0, 1));
    let again = client.list_resources(None, Some(fr)).await.unwrap();
    assert_eq!(again, first);
    assert_eq!(client.stats(), stats(1, 1));

    let de = client.list_resources(None, Some("de")).await.unwrap();
    assert_eq!(reported(&de.meta), Some("de"));
    assert_eq!(
        resource_title(&de),
        catalog.text("de", "resource-languages-title")
    );
    // Same language, different raw preference: its own entry (D10).
    client.list_resources(None, Some("fr-CA")).await.unwrap();
    assert_eq!(client.stats(), stats(1, 3));

    // Templates are another method: their own entries, same rules.
    let templates = client
        .list_resource_templates(None, Some(fr))
        .await
        .unwrap();
    assert_eq!(reported(&templates.meta), Some("fr-CA"));
    assert_eq!(
        template_title(&templates),
        catalog.text("fr-CA", "template-document-title")
    );
    assert_eq!(client.stats(), stats(1, 4));
    let ja = client
        .list_resource_templates(None, Some("ja"))
        .await
        .unwrap();
    assert_eq!(
        template_title(&ja),
        catalog.text("ja", "template-document-title")
    );
    let ja_again = client
        .list_resource_templates(None, Some("ja"))
        .await
        .unwrap();
    assert_eq!(ja_again, ja);
    assert_eq!(client.stats(), stats(2, 5));
    // The German resource entry kept its variant.
    let de_again = client.list_resources(None, Some("de")).await.unwrap();
    assert_eq!(de_again, de);
    assert_eq!(client.stats(), stats(3, 5));

    // The server's ttlMs bounds freshness.
    clock.advance_ms(LIST_TTL_MS - 1);
    client
        .list_resource_templates(None, Some(fr))
        .await
        .unwrap();
    assert_eq!(client.stats(), stats(4, 5));
    clock.advance_ms(1);
    client
        .list_resource_templates(None, Some(fr))
        .await
        .unwrap();
    client.list_resources(None, Some(fr)).await.unwrap();
    assert_eq!(client.stats(), stats(4, 7));

    // Refused before any lookup.
    let refused = client.list_resources(None, Some("fr\u{7f}")).await;
    assert!(matches!(refused, Err(SendError::Preference(_))));
    assert_eq!(client.stats(), stats(4, 7));
    running.cancel().await.unwrap();
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
        let meta = json!({ CONTENT_LANGUAGE: language });
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
