//! `mcp_lang_rmcp::reqwest_client::LanguageHttpClient` under rmcp's
//! `StreamableHttpClientTransport`, on loopback, against the reference server
//! behind the SEP-2792 layer: JSON responses when stateless, event streams with
//! sessions. (Its behaviour against a server that contradicts itself is tested in
//! `mcp-lang-rmcp`.)

use std::collections::HashMap;
use std::net::SocketAddr;

use http::header;
use mcp_lang_reference::{
    ReferenceServer,
    serve::{HttpMode, spawn_http},
};
use mcp_lang_rmcp::{
    client::{SendError, content_language, send_with_preference},
    reqwest_client::LanguageHttpClient,
};
use rmcp::{
    RoleClient, ServiceExt,
    model::{ClientRequest, ListToolsRequest, ServerResult},
    service::RunningService,
    transport::streamable_http_client::{
        StreamableHttpClientTransport, StreamableHttpClientTransportConfig,
    },
};
use serde_json::json;

/// A transport through `LanguageHttpClient`, configured with a stale
/// `Accept-Language: en` that must never reach the server beside another
/// `_meta` value (the layer would answer 400/-32020).
async fn connect(url: String) -> RunningService<RoleClient, ()> {
    let mut stale = HashMap::new();
    stale.insert(
        http::header::ACCEPT_LANGUAGE,
        http::HeaderValue::from_static("en"),
    );
    let config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(stale);
    let transport = StreamableHttpClientTransport::with_client(
        LanguageHttpClient::new(reqwest::Client::new()),
        config,
    );
    ().serve(transport).await.unwrap()
}

fn list() -> ClientRequest {
    ClientRequest::ListToolsRequest(ListToolsRequest::default())
}

fn weather_title(result: &ServerResult) -> String {
    let ServerResult::ListToolsResult(tools) = result else {
        panic!("{result:?}")
    };
    let weather = tools
        .tools
        .iter()
        .find(|t| t.name == "weather_current")
        .unwrap();
    weather.title.clone().unwrap_or_default()
}

/// The media type the server answers a raw `initialize` with: what the
/// client's responses will be in this mode.
async fn initialize_media_type(url: &str) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"}}});
    let response = reqwest::Client::new()
        .post(url)
        .header(header::ACCEPT, "application/json, text/event-stream")
        .header(header::CONTENT_TYPE, "application/json")
        .body(initialize.to_string())
        .send()
        .await
        .unwrap();
    let media_type = response.headers()[header::CONTENT_TYPE].to_str().unwrap();
    media_type.to_owned()
}

async fn localized_round_trips(mode: HttpMode, media_type: &str) {
    let http = spawn_http(
        ReferenceServer::new().unwrap(),
        SocketAddr::from(([127, 0, 0, 1], 0)),
        mode,
    )
    .await
    .unwrap();
    assert!(
        initialize_media_type(&http.url())
            .await
            .starts_with(media_type)
    );
    let client = connect(http.url()).await;
    for (preference, tag, title) in [
        ("fr-CA,fr;q=0.9,en;q=0.5", "fr-CA", "Météo actuelle"),
        ("de", "de", "Aktuelles Wetter"),
        ("ja, en;q=0.5", "ja", "現在の天気"),
        ("tlh", "en", "Current weather"),
    ] {
        let result = send_with_preference(client.peer(), list(), Some(preference))
            .await
            .unwrap_or_else(|e| panic!("{preference}: {e}"));
        assert_eq!(content_language(&result), Some(tag), "{preference}");
        assert_eq!(weather_title(&result), title, "{preference}");
    }
    // No preference: the stale custom header is dropped, no bare header.
    let result = send_with_preference(client.peer(), list(), None)
        .await
        .unwrap();
    assert_eq!(content_language(&result), Some("en"));
    // D8: refused before anything is sent, and the connection stays usable.
    let refused = send_with_preference(client.peer(), list(), Some("de\u{0}")).await;
    assert!(
        matches!(refused, Err(SendError::Preference(_))),
        "{refused:?}"
    );
    let result = send_with_preference(client.peer(), list(), Some("ga"))
        .await
        .unwrap();
    assert_eq!(content_language(&result), Some("ga"));
    client.cancel().await.unwrap();
    http.shutdown().await;
}

#[tokio::test(flavor = "current_thread")]
async fn reference_server_json_responses_are_mirrored_and_verified() {
    localized_round_trips(HttpMode::Stateless, "application/json").await;
}

#[tokio::test(flavor = "current_thread")]
async fn reference_server_event_streams_with_sessions() {
    localized_round_trips(HttpMode::Sessions, "text/event-stream").await;
}
