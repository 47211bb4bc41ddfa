//! The legacy (pre-2026-07-28) protocol over Streamable HTTP with sessions
//! (`mcp-lang serve --http --sessions`): the server sends its own requests
//! (`elicitation/create`) and notifications (progress) on the POST's event
//! stream. An rmcp client on `mcp-lang-rmcp`'s `LanguageHttpClient` (which
//! mirrors `Accept-Language` and verifies every event against the stream's
//! `Content-Language`) sees them in the language of the request that caused
//! them, with stable keys and tokens, across preference changes on one session.

mod common;

use mcp_lang_rmcp::CONTENT_LANGUAGE_KEY;
use std::net::SocketAddr;

use common::RecordingClient;

use mcp_lang_reference::{
    ReferenceServer,
    serve::{HttpMode, spawn_http},
};
use mcp_lang_rmcp::{
    client::{content_language, send_with_preference},
    reqwest_client::LanguageHttpClient,
};
use rmcp::{
    ServiceExt,
    model::{
        CallToolRequest, CallToolRequestParams, ClientRequest, ListToolsRequest, ServerResult,
    },
    transport::streamable_http_client::{
        StreamableHttpClientTransport, StreamableHttpClientTransportConfig,
    },
};
use serde_json::{Value, json};

/// The `n`th elicitation the client was shown, as JSON, and its `_meta`.
fn elicitation(recorder: &RecordingClient, n: usize) -> (Value, Value) {
    let (params, meta) = recorder.elicitations.lock().unwrap()[n].clone();
    (serde_json::to_value(&params).unwrap(), meta)
}

fn call(name: &'static str) -> ClientRequest {
    ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new(name)))
}

fn weather_title(result: &ServerResult) -> String {
    let ServerResult::ListToolsResult(list) = result else {
        panic!("not a tools/list result: {result:?}");
    };
    list.tools
        .iter()
        .find(|t| t.name == "weather_current")
        .and_then(|t| t.title.clone())
        .unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn server_requests_and_notifications_follow_each_request_on_one_session() {
    let http = spawn_http(
        ReferenceServer::new().unwrap(),
        SocketAddr::from(([127, 0, 0, 1], 0)),
        HttpMode::Sessions,
    )
    .await
    .unwrap();
    let recorder = RecordingClient::default();
    let transport = StreamableHttpClientTransport::with_client(
        LanguageHttpClient::new(reqwest::Client::new()),
        StreamableHttpClientTransportConfig::with_uri(http.url()),
    );
    let client = recorder.clone().serve(transport).await.unwrap();
    let peer = client.peer();

    // Elicitation in German: localized message and property, stable key `email`.
    let result = send_with_preference(peer, call("send_confirmation"), Some("de"))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&result).unwrap()["structuredContent"]["email"],
        "ada@example.org"
    );
    let (shown, meta) = elicitation(&recorder, 0);
    assert_eq!(shown["message"], "Bitte geben Sie Ihre E-Mail-Adresse ein.");
    let email = &shown["requestedSchema"]["properties"]["email"];
    assert_eq!(email["title"], "E-Mail-Adresse");
    assert_eq!(shown["requestedSchema"]["required"], json!(["email"]));
    assert_eq!(meta[CONTENT_LANGUAGE_KEY], "de");

    // The same session, another preference: the next elicitation is Japanese.
    send_with_preference(peer, call("send_confirmation"), Some("ja"))
        .await
        .unwrap();
    let (shown, meta) = elicitation(&recorder, 1);
    assert_eq!(meta[CONTENT_LANGUAGE_KEY], "ja");
    assert_eq!(shown["message"], "メールアドレスを入力してください。");
    assert!(
        shown["requestedSchema"]["properties"]
            .as_object()
            .unwrap()
            .contains_key("email")
    );

    // Progress on the event stream, in Canadian French, every message reporting `fr-CA`, one
    // stable token.
    let result = send_with_preference(peer, call("prepare_report"), Some("fr-CA"))
        .await
        .unwrap();
    assert_eq!(
        content_language(&result),
        Some("en"),
        "tool output is English (R4)"
    );
    let progress = recorder.progress.lock().unwrap().clone();
    assert_eq!(progress.len(), 4);
    for (i, (note, meta)) in progress.iter().enumerate() {
        assert_eq!(note.progress_token, progress[0].0.progress_token);
        assert_eq!(note.progress, (i + 1) as f64);
        assert_eq!(meta[CONTENT_LANGUAGE_KEY], "fr-CA");
    }
    let first = progress[0].0.message.clone().unwrap();
    assert!(first.starts_with("Collecte des données"), "{first}");

    // Lists on the session follow each request; no preference is the default.
    for (preference, expected) in [(Some("ja"), "ja"), (None, "en"), (Some("de-AT"), "de")] {
        let result = send_with_preference(
            peer,
            ClientRequest::ListToolsRequest(ListToolsRequest::default()),
            preference,
        )
        .await
        .unwrap();
        assert_eq!(content_language(&result), Some(expected));
        assert!(!weather_title(&result).is_empty());
    }
    client.cancel().await.unwrap();
}
