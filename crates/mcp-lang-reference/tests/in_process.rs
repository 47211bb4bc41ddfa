//! The reference server and an rmcp client in one process, over an in-memory
//! duplex pipe (the stdio framing without the process): every SEP-2792
//! behaviour the server shows, checked on the messages the client receives.

mod common;

use common::RecordingClient;
use mcp_lang_reference::{ReferenceServer, catalog::ReferenceCatalog};
use mcp_lang_rmcp::client::{content_language, send_with_preference};
use mcp_lang_rmcp::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use rmcp::{
    RoleClient, ServiceExt,
    model::{
        CallToolRequest, CallToolRequestParams, ClientRequest, ListToolsRequest, ProtocolVersion,
        ServerResult,
    },
    service::{ClientLifecycleMode, RunningService},
};
use serde_json::{Value, json};

async fn connect(
    client: RecordingClient,
    lifecycle: ClientLifecycleMode,
) -> RunningService<RoleClient, RecordingClient> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = ReferenceServer::new().unwrap();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    rmcp::service::serve_client_with_lifecycle(client, client_io, lifecycle)
        .await
        .unwrap()
}

async fn legacy() -> (RunningService<RoleClient, RecordingClient>, RecordingClient) {
    let client = RecordingClient::default();
    (
        connect(client.clone(), ClientLifecycleMode::Initialize).await,
        client,
    )
}

fn list_tools() -> ClientRequest {
    ClientRequest::ListToolsRequest(ListToolsRequest::default())
}

fn call(name: &'static str, arguments: Value) -> ClientRequest {
    let params = CallToolRequestParams::new(name)
        .with_arguments(arguments.as_object().cloned().unwrap_or_default());
    ClientRequest::CallToolRequest(CallToolRequest::new(params))
}

/// Sends `value` as the raw `acceptLanguage`, bypassing the client-side checks
/// (a conforming client refuses to send a malformed value; a server must still
/// cope with one).
async fn send_raw(
    peer: &rmcp::Peer<RoleClient>,
    request: ClientRequest,
    value: Option<Value>,
) -> ServerResult {
    let mut options = rmcp::service::PeerRequestOptions::no_options();
    if let Some(value) = value {
        let mut meta = rmcp::model::RequestMetaObject::new();
        meta.insert(ACCEPT_LANGUAGE_KEY.to_owned(), value);
        options.meta = Some(meta);
    }
    peer.send_request_with_option(request, options)
        .await
        .unwrap()
        .await_response()
        .await
        .unwrap()
}

fn wire(result: &ServerResult) -> Value {
    serde_json::to_value(result).unwrap()
}

fn titles(result: &ServerResult) -> Vec<(String, String)> {
    let ServerResult::ListToolsResult(list) = result else {
        panic!("not a tools/list result: {result:?}");
    };
    list.tools
        .iter()
        .map(|t| (t.name.to_string(), t.title.clone().unwrap_or_default()))
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn tools_list_titles_follow_each_request_and_names_stay() {
    let (client, _) = legacy().await;
    let peer = client.peer();
    let catalog = ReferenceCatalog::load().unwrap();
    let cases = [
        ("fr-CA,fr;q=0.9,en;q=0.5", "fr-CA"),
        ("de", "de"),
        ("ja-JP", "ja"),
        ("ga, en;q=0.1", "ga"),
        ("en-GB", "en"),
        ("fr-BE", "fr"),
        // Truncation past the script reaches the bare language (decision D4).
        ("ja-Jpan-JP", "ja"),
    ];
    let mut names = None;
    for (preference, expected) in cases {
        let result = send_with_preference(peer, list_tools(), Some(preference))
            .await
            .unwrap();
        assert_eq!(content_language(&result), Some(expected), "{preference}");
        let listed = titles(&result);
        let weather = listed.iter().find(|(n, _)| n == "weather_current").unwrap();
        assert_eq!(weather.1, catalog.text(expected, "tool-weather_current"));
        let these: Vec<String> = listed.iter().map(|(n, _)| n.clone()).collect();
        assert_eq!(names.get_or_insert_with(|| these.clone()), &these);
        let value = wire(&result);
        assert_eq!(value["ttlMs"], 300_000);
        assert_eq!(value["cacheScope"], "public");
    }
    assert_eq!(
        names.unwrap(),
        [
            "weather_current",
            "get_official_document",
            "send_confirmation",
            "prepare_report"
        ]
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn the_sep_example_title_and_fallbacks_without_error() {
    let (client, _) = legacy().await;
    let peer = client.peer();
    let result = send_with_preference(peer, list_tools(), Some("fr-CA,fr;q=0.9,en;q=0.5"))
        .await
        .unwrap();
    assert!(titles(&result).contains(&("weather_current".into(), "Météo actuelle".into())));
    // Unmatched, excluded, malformed, absent: all the default, never an error.
    for preference in [Some("tlh, x-klingon"), Some("*;q=0"), Some("fr;;q=2"), None] {
        let result = send_raw(peer, list_tools(), preference.map(Value::from)).await;
        assert_eq!(content_language(&result), Some("en"), "{preference:?}");
        assert!(titles(&result).contains(&("weather_current".into(), "Current weather".into())));
    }
    // A value that is not a string counts as absent too.
    let result = send_raw(peer, list_tools(), Some(json!(["fr"]))).await;
    assert_eq!(content_language(&result), Some("en"));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn a_changed_or_omitted_preference_is_never_reused() {
    let (client, _) = legacy().await;
    let peer = client.peer();
    let sequence = [Some("de"), None, Some("ja"), Some("de"), None];
    let expected = ["de", "en", "ja", "de", "en"];
    for (preference, expected) in sequence.into_iter().zip(expected) {
        let result = send_with_preference(peer, list_tools(), preference)
            .await
            .unwrap();
        assert_eq!(content_language(&result), Some(expected));
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn server_info_title_is_localized_by_the_initialize_request() {
    for (preference, title) in [
        (Some("ga"), "Freastalaí tagartha do rogha teanga"),
        (
            Some("fr-CA"),
            "Serveur de référence des préférences linguistiques",
        ),
        (None, "Language Preference Reference Server"),
    ] {
        let client = RecordingClient {
            initialize_preference: preference,
            ..RecordingClient::default()
        };
        let running = connect(client, ClientLifecycleMode::Initialize).await;
        let info = running.peer().peer_info().unwrap();
        let server_info = info.server_info.clone().unwrap();
        assert_eq!(
            server_info.name, "mcp-lang-reference",
            "the name never changes"
        );
        assert_eq!(server_info.title.as_deref(), Some(title));
        running.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "current_thread")]
async fn explicit_language_argument_wins_for_the_document() {
    let (client, _) = legacy().await;
    let peer = client.peer();
    let catalog = ReferenceCatalog::load().unwrap();
    let result = send_with_preference(
        peer,
        call(
            "get_official_document",
            json!({"document": "udhr-article-1", "language": "ga"}),
        ),
        Some("en"),
    )
    .await
    .unwrap();
    let value = wire(&result);
    assert_eq!(value["_meta"][CONTENT_LANGUAGE_KEY], "ga");
    assert_eq!(
        value["content"][0]["text"],
        catalog.text("ga", "udhr-article-1")
    );
    // Without the argument, the negotiated language chooses the edition.
    let result = send_with_preference(
        peer,
        call(
            "get_official_document",
            json!({"document": "udhr-article-1"}),
        ),
        Some("de-CH, en;q=0.5"),
    )
    .await
    .unwrap();
    assert_eq!(wire(&result)["_meta"][CONTENT_LANGUAGE_KEY], "de");
    // An edition that does not exist: a localized error, code unchanged.
    let error = send_with_preference(
        peer,
        call(
            "get_official_document",
            json!({"document": "udhr-article-1", "language": "tlh"}),
        ),
        Some("fr"),
    )
    .await
    .unwrap_err();
    let text = error.to_string();
    assert!(text.contains("Il n'existe pas d'édition tlh"), "{text}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn progress_messages_are_in_the_request_language_with_stable_tokens() {
    let (client, recorder) = legacy().await;
    let peer = client.peer();
    let result = send_with_preference(peer, call("prepare_report", json!({})), Some("ja"))
        .await
        .unwrap();
    assert_eq!(
        content_language(&result),
        Some("en"),
        "tool output stays English (D9)"
    );
    let progress = recorder.progress.lock().unwrap().clone();
    assert_eq!(progress.len(), 4);
    let token = &progress[0].0.progress_token;
    for (i, (note, meta)) in progress.iter().enumerate() {
        assert_eq!(&note.progress_token, token, "the token is never altered");
        assert_eq!(meta[CONTENT_LANGUAGE_KEY], "ja");
        assert_eq!(note.progress, (i + 1) as f64);
    }
    assert_eq!(
        progress[0].0.message.as_deref(),
        Some("データを収集しています（1/4）…")
    );
    assert_eq!(
        progress[3].0.message.as_deref(),
        Some("レポートが完成しました。")
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn elicitation_request_is_localized_with_a_stable_key() {
    let (client, recorder) = legacy().await;
    let peer = client.peer();
    let result = send_with_preference(peer, call("send_confirmation", json!({})), Some("de"))
        .await
        .unwrap();
    assert_eq!(
        wire(&result)["structuredContent"]["email"],
        "ada@example.org"
    );
    let elicitations = recorder.elicitations.lock().unwrap().clone();
    let shown = serde_json::to_value(&elicitations[0].0).unwrap();
    assert_eq!(shown["message"], "Bitte geben Sie Ihre E-Mail-Adresse ein.");
    let email = &shown["requestedSchema"]["properties"]["email"];
    assert_eq!(email["title"], "E-Mail-Adresse");
    assert_eq!(email["description"], "Adresse für die Bestätigung");
    assert_eq!(email["type"], "string");
    assert_eq!(email["format"], "email");
    assert_eq!(shown["requestedSchema"]["required"], json!(["email"]));
    assert_eq!(elicitations[0].1[CONTENT_LANGUAGE_KEY], "de");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn input_required_elicitation_has_the_seps_shape_on_2026_07_28() {
    let client = RecordingClient::default();
    let running = connect(
        client.clone(),
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await;
    let peer = running.peer();
    let result = send_with_preference(peer, call("send_confirmation", json!({})), Some("de"))
        .await
        .unwrap();
    let value = wire(&result);
    assert_eq!(value["resultType"], "input_required");
    let params = &value["inputRequests"]["contact"]["params"];
    assert_eq!(
        value["inputRequests"]["contact"]["method"],
        "elicitation/create"
    );
    assert_eq!(
        params["message"],
        "Bitte geben Sie Ihre E-Mail-Adresse ein."
    );
    assert_eq!(
        params["requestedSchema"]["properties"]["email"]["title"],
        "E-Mail-Adresse"
    );
    assert_eq!(value["_meta"][CONTENT_LANGUAGE_KEY], "de");
    // The retry carries the answer (and, being a new request, its own preference).
    let mut responses = std::collections::BTreeMap::new();
    responses.insert(
        "contact".to_owned(),
        json!({"action": "accept", "content": {"email": "ada@example.org"}}),
    );
    let params = CallToolRequestParams::new("send_confirmation").with_input_responses(responses);
    let result = send_with_preference(
        peer,
        ClientRequest::CallToolRequest(CallToolRequest::new(params)),
        Some("ja"),
    )
    .await
    .unwrap();
    assert_eq!(
        wire(&result)["structuredContent"]["email"],
        "ada@example.org"
    );
    running.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn errors_are_localized_in_error_data_meta_with_stable_codes() {
    let (client, _) = legacy().await;
    let peer = client.peer();
    let error = send_with_preference(peer, call("no_such_tool", json!({})), Some("ga"))
        .await
        .unwrap_err();
    let mcp_lang_rmcp::client::SendError::Service(rmcp::service::ServiceError::McpError(data)) =
        error
    else {
        panic!("expected a JSON-RPC error, got {error:?}");
    };
    assert_eq!(data.code.0, -32602);
    assert_eq!(data.message, "Uirlis anaithnid: no_such_tool");
    assert_eq!(data.data.unwrap()["_meta"][CONTENT_LANGUAGE_KEY], "ga");
    client.cancel().await.unwrap();
}
