//! The client side over rmcp's stdio framing, against a scripted server that
//! records the `acceptLanguage` of every request it receives: the per-request
//! preference of `send_with_preference`, its refusals, and `CachingClient`
//! (entries keyed by the raw preference, results without `ttlMs` never
//! stored, `ttlMs` bounding freshness). The reference server's crate runs the
//! same clients against the real server.

use std::sync::{Arc, Mutex};

use mcp_lang_rmcp::{
    ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY,
    cache::{CacheStats, CachingClient},
    client::{SendError, check_preference, preference_meta, send_with_preference},
    mcp_lang_meta::ManualClock,
};
use rmcp::{
    RoleClient, ServiceExt,
    model::{ClientRequest, ListResourceTemplatesResult, ListResourcesResult, ListToolsRequest},
    service::RunningService,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

/// What the scripted server received: each request's method and its
/// `_meta` preference (`None` when the key is absent), in order.
type Seen = Arc<Mutex<Vec<(String, Option<Value>)>>>;

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

/// A newline-delimited JSON-RPC server. It answers `resources/list` without
/// `ttlMs`, `resources/templates/list` with `ttlMs: 1000, cacheScope:
/// "private"` (both titled and reported in the preference, `en` without
/// one), and `tools/list` with a public, cacheable result in `fr-CA`
/// whatever the preference (a server on which every preference selects the
/// same language). It records every request but `initialize`.
async fn scripted_server(io: DuplexStream, seen: Seen) {
    let (read, mut write) = tokio::io::split(io);
    let mut lines = BufReader::new(read).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = message.get("id").cloned() else {
            continue; // a notification
        };
        let method = message["method"].as_str().unwrap_or_default().to_owned();
        let preference = message
            .pointer("/params/_meta")
            .and_then(|m| m.get(ACCEPT_LANGUAGE_KEY))
            .cloned();
        let language = preference
            .as_ref()
            .and_then(Value::as_str)
            .unwrap_or("en")
            .to_owned();
        let meta = json!({ CONTENT_LANGUAGE_KEY: language });
        let answer = match method.as_str() {
            "initialize" => json!({"protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"resources": {}, "tools": {}},
                "serverInfo": {"name": "scripted", "version": "0"}}),
            "resources/list" => {
                json!({"resources": [{"uri": "x:a", "name": "a", "title": language}],
                "_meta": meta})
            }
            "resources/templates/list" => json!({
                "resourceTemplates": [{"uriTemplate": "x:{id}", "name": "t", "title": language}],
                "ttlMs": 1000, "cacheScope": "private", "_meta": meta}),
            "tools/list" => json!({"tools": [], "ttlMs": 60000, "cacheScope": "public",
                "_meta": {CONTENT_LANGUAGE_KEY: "fr-CA"}}),
            _ => json!(null),
        };
        if method != "initialize" {
            seen.lock().unwrap().push((method, preference));
        }
        let response = if answer.is_null() {
            json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32601, "message": "method not found"}})
        } else {
            json!({"jsonrpc": "2.0", "id": id, "result": answer})
        };
        if write
            .write_all(format!("{response}\n").as_bytes())
            .await
            .is_err()
        {
            break;
        }
    }
}

/// An rmcp client connected in process to a fresh [`scripted_server`].
async fn connect() -> (RunningService<RoleClient, ()>, Seen) {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let seen = Seen::default();
    tokio::spawn(scripted_server(server_io, seen.clone()));
    (().serve(client_io).await.unwrap(), seen)
}

/// The preferences the server received for `method`, as JSON values.
fn received(seen: &Seen, method: &str) -> Vec<Option<Value>> {
    seen.lock()
        .unwrap()
        .iter()
        .filter(|(m, _)| m == method)
        .map(|(_, p)| p.clone())
        .collect()
}

fn as_json(preferences: &[Option<&str>]) -> Vec<Option<Value>> {
    preferences.iter().map(|p| p.map(Value::from)).collect()
}

fn list_tools() -> ClientRequest {
    ClientRequest::ListToolsRequest(ListToolsRequest::default())
}

/// "A server MUST NOT reuse a preference from an earlier request when
/// processing a later request that omits or changes the field." The client
/// side of it: each request carries exactly the preference it was sent
/// with, and none when asked for none.
#[tokio::test(flavor = "current_thread")]
async fn each_request_carries_exactly_its_own_preference() {
    let (client, seen) = connect().await;
    let sent = [
        Some("fr-CA,fr;q=0.9"),
        None,
        Some("de"),
        Some("en-US, en;q=0.9"),
    ];
    for preference in sent {
        send_with_preference(client.peer(), list_tools(), preference)
            .await
            .unwrap_or_else(|e| panic!("{preference:?}: {e}"));
    }
    client.cancel().await.unwrap();
    assert_eq!(received(&seen, "tools/list"), as_json(&sent));
}

/// "The value MUST conform to the HTTP Accept-Language field-value grammar
/// in RFC 9110 §12.5.4." A preference that is not a field value, or not
/// `Accept-Language`, is refused before anything is sent.
#[tokio::test(flavor = "current_thread")]
async fn an_unsendable_preference_is_refused_and_never_sent() {
    for value in [
        "fr\r\nX-Injected: 1",
        " fr",
        "fr ",
        "fr\u{0}",
        "français",
        "fr;q=2",
        "fr,,;q",
    ] {
        assert!(preference_meta(value).is_err(), "{value:?}");
        assert!(check_preference(value).is_err(), "{value:?}");
    }
    let (client, seen) = connect().await;
    for value in ["fr\r\nX-Injected: 1", " fr", "français", "fr;q=2"] {
        let sent = send_with_preference(client.peer(), list_tools(), Some(value)).await;
        assert!(
            matches!(sent, Err(SendError::Preference(_))),
            "{value:?}: {sent:?}"
        );
    }
    client.cancel().await.unwrap();
    assert_eq!(*seen.lock().unwrap(), []);
}

/// "A cached response for one preference MUST NOT be served for a different
/// preference. This applies even when both preferences happen to select the
/// same language." The server reports `fr-CA` for every preference: a
/// repeated preference is served from the cache, every other one reaches the
/// server.
#[tokio::test(flavor = "current_thread")]
async fn a_cached_result_is_never_served_for_another_preference_of_the_same_language() {
    let (client, seen) = connect().await;
    let caching = CachingClient::new(client.peer().clone()).auth_context("alice");
    for preference in [
        Some("fr-CA"),
        Some("fr-CA"),
        Some("fr-CA, fr;q=0.9"),
        Some("fr-ca"),
        None,
        Some("fr-CA,*;q=0.1"),
        Some("fr-CA, fr;q=0.9"),
    ] {
        caching
            .list_tools(None, preference)
            .await
            .unwrap_or_else(|e| panic!("{preference:?}: {e}"));
    }
    client.cancel().await.unwrap();
    assert_eq!(
        received(&seen, "tools/list"),
        as_json(&[
            Some("fr-CA"),
            Some("fr-CA, fr;q=0.9"),
            Some("fr-ca"),
            None,
            Some("fr-CA,*;q=0.1"),
        ])
    );
    assert_eq!(caching.stats(), stats(2, 5));
}

/// "Language-dependent responses remain cacheable. Existing ttlMs and
/// cacheScope freshness and sharing semantics are unchanged."
#[tokio::test(flavor = "current_thread")]
async fn results_without_ttl_are_never_stored() {
    let (running, seen) = connect().await;
    let clock = ManualClock::new();
    let client = CachingClient::with_clock(running.peer().clone(), clock.clone());
    let lists = || seen.lock().unwrap().len();

    // No ttlMs: every request goes to the server.
    for _ in 0..3 {
        let result = client.list_resources(None, Some("de")).await.unwrap();
        assert_eq!(resource_title(&result), "de");
    }
    assert_eq!(lists(), 3);
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
    assert_eq!(lists(), 5);
    clock.advance_ms(1);
    client
        .list_resource_templates(None, Some("ga"))
        .await
        .unwrap();
    assert_eq!(lists(), 6);
    assert_eq!(client.stats(), stats(1, 6));
    running.cancel().await.unwrap();
}
