//! `mcp_lang_rmcp::cache::CachingClient` against the reference server over an
//! in-memory pipe: entries are keyed by the raw preference, so two preferences
//! never share one (not even two that select the same language), and `ttlMs`
//! bounds how long an entry is served.

use mcp_lang_reference::{ReferenceServer, catalog::ReferenceCatalog, server::LIST_TTL_MS};
use mcp_lang_rmcp::{
    CONTENT_LANGUAGE_KEY,
    cache::{CacheStats, CachingClient},
    client::SendError,
    mcp_lang_meta::ManualClock,
};
use rmcp::{
    RoleClient, ServiceExt,
    model::{ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, MetaObject},
    service::RunningService,
};
use serde_json::Value;

/// The reference server on one end of an in-memory pipe, and on the other an rmcp client
/// (kept, to cancel at the end) with a `CachingClient` for user "alice" on a manual clock.
async fn connect() -> (
    RunningService<RoleClient, ()>,
    CachingClient<ManualClock>,
    ManualClock,
) {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = ReferenceServer::new().unwrap();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let running = ().serve(client_io).await.unwrap();
    let clock = ManualClock::new();
    let client =
        CachingClient::with_clock(running.peer().clone(), clock.clone()).auth_context("alice");
    (running, client, clock)
}

fn weather_title(result: &ListToolsResult) -> String {
    let tool = result
        .tools
        .iter()
        .find(|t| t.name == "weather_current")
        .expect("weather_current is listed");
    tool.title.clone().unwrap_or_default()
}

fn reported(result: &ListToolsResult) -> Option<&str> {
    result
        .meta
        .as_ref()
        .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
        .and_then(|v| v.as_str())
}

fn stats(hits: u64, misses: u64) -> CacheStats {
    let mut s = CacheStats::default();
    s.hits = hits;
    s.misses = misses;
    s
}

#[tokio::test(flavor = "current_thread")]
async fn two_preferences_never_share_an_entry() {
    let (running, client, clock) = connect().await;
    let catalog = ReferenceCatalog::load().unwrap();

    let fr = "fr-CA,fr;q=0.9";
    let first = client.list_tools(None, Some(fr)).await.unwrap();
    assert_eq!(reported(&first), Some("fr-CA"));
    assert_eq!(
        weather_title(&first),
        catalog.text("fr-CA", "tool-weather_current")
    );
    assert_eq!(client.stats(), stats(0, 1));

    // The same raw preference: served from the cache, identical.
    let again = client.list_tools(None, Some(fr)).await.unwrap();
    assert_eq!(again, first);
    assert_eq!(client.stats(), stats(1, 1));

    // Another preference: the server answers, in German.
    let de = client.list_tools(None, Some("de")).await.unwrap();
    assert_eq!(reported(&de), Some("de"));
    assert_eq!(
        weather_title(&de),
        catalog.text("de", "tool-weather_current")
    );
    assert_eq!(client.stats(), stats(1, 2));

    // A different raw preference that selects the same language: still its own
    // entry (keying by the negotiated language is what the SEP forbids).
    let fr_only = client.list_tools(None, Some("fr-CA")).await.unwrap();
    assert_eq!(reported(&fr_only), Some("fr-CA"));
    assert_eq!(client.stats(), stats(1, 3));

    // No preference: its own entry, the default language.
    let none = client.list_tools(None, None).await.unwrap();
    assert_eq!(reported(&none), Some("en"));
    assert_eq!(
        weather_title(&none),
        catalog.text("en", "tool-weather_current")
    );
    assert_eq!(client.stats(), stats(1, 4));

    // Each entry kept its own variant.
    let de_again = client.list_tools(None, Some("de")).await.unwrap();
    assert_eq!(
        weather_title(&de_again),
        catalog.text("de", "tool-weather_current")
    );
    let fr_again = client.list_tools(None, Some(fr)).await.unwrap();
    assert_eq!(
        weather_title(&fr_again),
        catalog.text("fr-CA", "tool-weather_current")
    );
    assert_eq!(client.stats(), stats(3, 4));

    // Another method with the same preference is another entry.
    client.list_prompts(None, Some(fr)).await.unwrap();
    assert_eq!(client.stats(), stats(3, 5));

    // ttlMs (300000 on the reference server) elapsed: fetched again.
    clock.advance_ms(LIST_TTL_MS - 1);
    client.list_tools(None, Some(fr)).await.unwrap();
    assert_eq!(client.stats(), stats(4, 5));
    clock.advance_ms(1);
    client.list_tools(None, Some(fr)).await.unwrap();
    assert_eq!(client.stats(), stats(4, 6));

    // A preference that cannot be sent is refused before any lookup.
    let refused = client.list_tools(None, Some("fr\r\nX: y")).await;
    assert!(matches!(refused, Err(SendError::Preference(_))));
    assert_eq!(client.stats(), stats(4, 6));

    running.cancel().await.unwrap();
}

fn reported_meta(meta: &Option<MetaObject>) -> Option<&str> {
    meta.as_ref()
        .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
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
    let (running, client, clock) = connect().await;
    let catalog = ReferenceCatalog::load().unwrap();

    let fr = "fr-CA,fr;q=0.9";
    let first = client.list_resources(None, Some(fr)).await.unwrap();
    assert_eq!(reported_meta(&first.meta), Some("fr-CA"));
    assert_eq!(
        resource_title(&first),
        catalog.text("fr-CA", "resource-languages")
    );
    assert_eq!(client.stats(), stats(0, 1));
    let again = client.list_resources(None, Some(fr)).await.unwrap();
    assert_eq!(again, first);
    assert_eq!(client.stats(), stats(1, 1));

    let de = client.list_resources(None, Some("de")).await.unwrap();
    assert_eq!(reported_meta(&de.meta), Some("de"));
    assert_eq!(
        resource_title(&de),
        catalog.text("de", "resource-languages")
    );
    // Same language, different raw preference: its own entry (D10).
    client.list_resources(None, Some("fr-CA")).await.unwrap();
    assert_eq!(client.stats(), stats(1, 3));

    // Templates are another method: their own entries, same rules.
    let templates = client
        .list_resource_templates(None, Some(fr))
        .await
        .unwrap();
    assert_eq!(reported_meta(&templates.meta), Some("fr-CA"));
    assert_eq!(
        template_title(&templates),
        catalog.text("fr-CA", "template-official_document")
    );
    assert_eq!(client.stats(), stats(1, 4));
    let ja = client
        .list_resource_templates(None, Some("ja"))
        .await
        .unwrap();
    assert_eq!(
        template_title(&ja),
        catalog.text("ja", "template-official_document")
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
