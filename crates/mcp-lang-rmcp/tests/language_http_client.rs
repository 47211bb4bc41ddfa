//! `LanguageHttpClient` under rmcp's `StreamableHttpClientTransport`, on
//! loopback, against a small axum server that contradicts itself: the request
//! must fail with the typed conflict. (The reference server's crate runs it
//! against the real server behind the SEP-2792 layer.)

use mcp_lang_rmcp::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use std::net::SocketAddr;

use axum::{
    Router,
    body::Bytes,
    extract::Path,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::post,
};
use mcp_lang_rmcp::{
    client::{SendError, content_language, send_with_preference},
    reqwest_client::{ContentLanguageConflict, LanguageHttpClient, MALFORMED_RESPONSE_CODE},
};
use rmcp::{
    RoleClient, ServiceExt,
    model::{ClientRequest, ListToolsRequest, ServerResult},
    service::{RunningService, ServiceError},
    transport::streamable_http_client::{
        StreamableHttpClientTransport, StreamableHttpClientTransportConfig,
    },
};
use serde_json::{Value, json};

/// An rmcp client whose HTTP exchanges go through `LanguageHttpClient`.
async fn connect(url: String) -> RunningService<RoleClient, ()> {
    let config = StreamableHttpClientTransportConfig::with_uri(url);
    let client = LanguageHttpClient::new(reqwest::Client::new());
    let transport = StreamableHttpClientTransport::with_client(client, config);
    ().serve(transport).await.unwrap()
}

fn list() -> ClientRequest {
    ClientRequest::ListToolsRequest(ListToolsRequest::default())
}

/// What the contradicting server answers `tools/list` with.
fn tools_result(id: &Value, language: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": {
        "tools": [],
        "_meta": {CONTENT_LANGUAGE_KEY: language},
    }})
    .to_string()
}

fn json_response(lines: &[&'static str], body: String) -> Response {
    let mut response = (
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response();
    for line in lines {
        response
            .headers_mut()
            .append(header::CONTENT_LANGUAGE, HeaderValue::from_static(line));
    }
    response
}

fn event_stream(lines: &[&'static str], events: &[String]) -> Response {
    let body: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    let mut response = (
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream"),
        )],
        body,
    )
        .into_response();
    for line in lines {
        response
            .headers_mut()
            .append(header::CONTENT_LANGUAGE, HeaderValue::from_static(line));
    }
    response
}

/// A server whose `tools/list` answer always reports `contentLanguage` "fr"
/// in its body, with the `Content-Language` that `scenario` says. It also
/// checks what the client sent: exactly one `Accept-Language`, equal to
/// `_meta`.
async fn contradicting(Path(scenario): Path<String>, headers: HeaderMap, body: Bytes) -> Response {
    let Ok(message) = serde_json::from_slice::<Value>(&body) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let id = message["id"].clone();
    let accept: Vec<_> = headers.get_all(header::ACCEPT_LANGUAGE).iter().collect();
    let meta = message["params"]["_meta"][ACCEPT_LANGUAGE_KEY].as_str();
    let mirrored = match meta {
        Some(preference) => accept.len() == 1 && accept[0] == preference,
        None => accept.is_empty(),
    };
    if !mirrored {
        return (
            StatusCode::BAD_REQUEST,
            "Accept-Language does not mirror _meta",
        )
            .into_response();
    }
    match message["method"].as_str() {
        Some("initialize") => json_response(
            &[],
            json!({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "contradicting", "version": "0"},
            }})
            .to_string(),
        ),
        Some("tools/list") => {
            let result = tools_result(&id, "fr");
            match scenario.as_str() {
                "json-agree" => json_response(&["fr"], result),
                "json-conflict" => json_response(&["de"], result),
                "json-repeated" => json_response(&["fr", "fr"], result),
                "sse-agree" => event_stream(&["fr"], &[result]),
                "sse-no-header" => event_stream(&[], &[tools_result(&id, "ja")]),
                "sse-conflict" => event_stream(&["de"], &[result]),
                "sse-notification-conflict" => {
                    let progress = json!({"jsonrpc": "2.0", "method": "notifications/message",
                        "params": {"level": "info", "data": "Bonjour",
                                   "_meta": {CONTENT_LANGUAGE_KEY: "en"}}})
                    .to_string();
                    event_stream(&["fr"], &[progress, result])
                }
                _ => StatusCode::NOT_FOUND.into_response(),
            }
        }
        // Notifications (and anything else) need no answer.
        _ if message.get("id").is_none() => StatusCode::ACCEPTED.into_response(),
        // `server/discover` and the like: a legacy server does not know it.
        _ => (StatusCode::BAD_REQUEST, "unknown method").into_response(),
    }
}

async fn spawn_contradicting() -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let app = Router::new().route("/{scenario}", post(contradicting));
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (addr, task)
}

async fn list_on(addr: SocketAddr, scenario: &str) -> Result<ServerResult, SendError> {
    let client = connect(format!("http://{addr}/{scenario}")).await;
    let result = send_with_preference(client.peer(), list(), Some("fr-CA, fr;q=0.9")).await;
    let _ = client.cancel().await;
    result
}

fn conflict(result: Result<ServerResult, SendError>) -> (ServiceError, ContentLanguageConflict) {
    let error = match result {
        Err(SendError::Service(error)) => error,
        other => panic!("expected a failed request, got {other:?}"),
    };
    let conflict = ContentLanguageConflict::from_service_error(&error)
        .unwrap_or_else(|| panic!("not a Content-Language conflict: {error}"));
    (error, conflict)
}

#[tokio::test(flavor = "current_thread")]
async fn agreeing_responses_are_accepted() {
    let (addr, server) = spawn_contradicting().await;
    for scenario in ["json-agree", "sse-agree"] {
        let result = list_on(addr, scenario)
            .await
            .unwrap_or_else(|e| panic!("{scenario}: {e}"));
        assert_eq!(content_language(&result), Some("fr"), "{scenario}");
    }
    // An event stream without the header has nothing to contradict.
    let result = list_on(addr, "sse-no-header").await.unwrap();
    assert_eq!(content_language(&result), Some("ja"));
    server.abort();
}

#[tokio::test(flavor = "current_thread")]
async fn json_conflict_fails_the_request_with_the_typed_error() {
    let (addr, server) = spawn_contradicting().await;
    let (error, found) = conflict(list_on(addr, "json-conflict").await);
    assert!(matches!(error, ServiceError::TransportSend(_)), "{error}");
    assert!(error.to_string().contains("malformed response"), "{error}");
    assert_eq!(found.content_language(), Some("fr"));
    assert_eq!(found.header(), "de");
    assert_eq!(found.line_count(), 1);

    // Repeated lines combine to "fr, fr", which is not "fr".
    let (_, found) = conflict(list_on(addr, "json-repeated").await);
    assert_eq!((found.header(), found.line_count()), ("fr, fr", 2));
    server.abort();
}

#[tokio::test(flavor = "current_thread")]
async fn event_stream_conflict_fails_the_request_in_band() {
    let (addr, server) = spawn_contradicting().await;
    let (error, found) = conflict(list_on(addr, "sse-conflict").await);
    let ServiceError::McpError(data) = &error else {
        panic!("{error}")
    };
    assert_eq!(data.code, MALFORMED_RESPONSE_CODE);
    assert!(
        data.message.contains("malformed response"),
        "{}",
        data.message
    );
    assert_eq!(
        (found.content_language(), found.header()),
        (Some("fr"), "de")
    );

    // A notification that contradicts the stream's header fails the request
    // too, although the final result would have agreed.
    let (_, found) = conflict(list_on(addr, "sse-notification-conflict").await);
    assert_eq!(
        (found.content_language(), found.header()),
        (Some("en"), "fr")
    );
    server.abort();
}
