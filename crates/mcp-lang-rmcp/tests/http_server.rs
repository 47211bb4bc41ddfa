//! rmcp's `StreamableHttpService` behind the language layer (`mcp_lang_rmcp::http`),
//! with rmcp's default settings and with `json_response`: which answers get
//! `Content-Language`, and that every one gets `Vary` and the agreement check.

use std::sync::Arc;

use axum::body::Body;
use http::Request;
use http::header::{CONTENT_LANGUAGE, CONTENT_TYPE, VARY};
use http_body_util::BodyExt;
use mcp_lang_rmcp::http::{LanguageLayer, SharedStreamableHttpService};
use mcp_lang_rmcp::server::{Arg, Language, Localized, ServerLanguages, catalog_fn};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use tower_layer::Layer;
use tower_service::Service;

#[derive(Clone)]
struct Greeter;

#[tool_router]
impl Greeter {
    #[tool(title = "Greet")]
    fn greet(&self, language: Language) -> Result<String, ErrorData> {
        Ok(language.text("greeting"))
    }
}

#[tool_handler]
impl ServerHandler for Greeter {}

/// The reference handler of these tests: `Greeter` with a French catalog.
fn server() -> Localized<Greeter> {
    let catalog =
        catalog_fn(
            |language: &str, id: &str, _: &[(&str, Arg<'_>)]| match (language, id) {
                ("fr", "greeting") => Some("Bonjour".to_owned()),
                ("fr", "tool-greet") => Some("Saluer".to_owned()),
                ("en", "greeting") => Some("Hello".to_owned()),
                _ => None,
            },
        );
    let languages = ServerLanguages::new(["en", "fr"], "en").unwrap();
    Localized::new(Greeter, languages).with_catalog(catalog)
}

fn service(json_response: bool) -> StreamableHttpService<Localized<Greeter>, LocalSessionManager> {
    let server = server();
    let mut config = StreamableHttpServerConfig::default();
    config.json_response = json_response;
    let sessions = Arc::new(LocalSessionManager::default());
    StreamableHttpService::new(move || Ok(server.clone()), sessions, config)
}

fn app(json_response: bool) -> axum::Router {
    axum::Router::new().nest_service("/mcp", LanguageLayer::new().layer(service(json_response)))
}

/// A service that replaces `Accept-Language` with `header` before calling `inner`.
#[derive(Clone)]
struct ReplaceHeader<S> {
    inner: S,
    header: &'static str,
}

impl<S: Service<Request<Body>>> Service<Request<Body>> for ReplaceHeader<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<Body>) -> Self::Future {
        request.headers_mut().insert(
            "accept-language",
            http::HeaderValue::from_static(self.header),
        );
        self.inner.call(request)
    }
}

/// A `tools/list` of protocol 2026-07-28 (no session), its preference `fr` in `_meta`
/// and in `Accept-Language` (`header`).
fn list(header: &str) -> Request<Body> {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"0"}}}}"#;
    Request::post("/mcp")
        .header(CONTENT_TYPE, "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("host", "localhost")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/list")
        .header("accept-language", header)
        .body(Body::from(body))
        .unwrap()
}

/// The `initialize` of an older protocol, which rmcp's defaults serve with a session.
fn initialize() -> Request<Body> {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"},"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    Request::post("/mcp")
        .header(CONTENT_TYPE, "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("host", "localhost")
        .header("accept-language", "fr")
        .body(Body::from(body))
        .unwrap()
}

async fn send(app: &mut axum::Router, request: Request<Body>) -> (http::response::Parts, String) {
    let response = app.call(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (parts, String::from_utf8_lossy(&bytes).into_owned())
}

fn header_lines(parts: &http::response::Parts, name: http::HeaderName) -> Vec<String> {
    parts
        .headers
        .get_all(name)
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn json_response_gives_content_language_on_json_answers() {
    let mut app = app(true);
    let (parts, body) = send(&mut app, list("fr")).await;
    assert_eq!(parts.status, 200, "{body}");
    assert_eq!(
        header_lines(&parts, CONTENT_TYPE),
        ["application/json"],
        "{body}"
    );
    assert_eq!(header_lines(&parts, CONTENT_LANGUAGE), ["fr"], "{body}");
    assert!(
        header_lines(&parts, VARY)
            .iter()
            .any(|v| v.contains("Accept-Language"))
    );
    assert!(body.contains(r#""title":"Saluer""#), "{body}");
}

#[tokio::test(flavor = "current_thread")]
async fn rmcp_defaults_answer_with_streams_whose_messages_carry_the_language() {
    let mut app = app(false);
    let (parts, body) = send(&mut app, list("fr")).await;
    assert_eq!(parts.status, 200, "{body}");
    assert_eq!(
        header_lines(&parts, CONTENT_TYPE),
        ["text/event-stream"],
        "{body}"
    );
    // No Content-Language on a stream (the SEP lets a server omit it); the message
    // inside reports its language, and the answer still varies by it.
    assert!(
        header_lines(&parts, CONTENT_LANGUAGE).is_empty(),
        "{parts:?}"
    );
    assert!(
        body.contains(r#""io.modelcontextprotocol/contentLanguage":"fr""#),
        "{body}"
    );
    assert!(
        header_lines(&parts, VARY)
            .iter()
            .any(|v| v.contains("Accept-Language"))
    );
    // The older protocols' sessions: a stream too.
    // Nothing in this answer is translated (the catalog has no server title): it
    // reports the default.
    let (parts, body) = send(&mut app, initialize()).await;
    assert_eq!(parts.status, 200, "{body}");
    assert_eq!(
        header_lines(&parts, CONTENT_TYPE),
        ["text/event-stream"],
        "{body}"
    );
    assert!(
        header_lines(&parts, CONTENT_LANGUAGE).is_empty(),
        "{parts:?}"
    );
    assert!(
        body.contains(r#""io.modelcontextprotocol/contentLanguage":"en""#),
        "{body}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_disagreeing_header_is_refused_whatever_the_settings() {
    for json_response in [true, false] {
        let mut app = app(json_response);
        let (parts, body) = send(&mut app, list("FR")).await;
        assert_eq!(parts.status, 400, "{body}");
        assert!(
            body.contains("-32020") && body.contains("Accept-Language"),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn behind_the_layer_the_handler_uses_its_verdict_and_checks_nothing_again() {
    // The header is changed after the layer has checked it: a handler that read the
    // preference or checked agreement a second time would answer -32020 or German.
    let tampered = ReplaceHeader {
        inner: service(true),
        header: "de",
    };
    let mut app = axum::Router::new().nest_service("/mcp", LanguageLayer::new().layer(tampered));
    let (parts, body) = send(&mut app, list("fr")).await;
    assert_eq!(parts.status, 200, "{body}");
    assert!(!body.contains("-32020"), "{body}");
    assert!(body.contains(r#""title":"Saluer""#), "{body}");
    assert_eq!(header_lines(&parts, CONTENT_LANGUAGE), ["fr"], "{body}");
}

#[tokio::test(flavor = "current_thread")]
async fn without_the_layer_the_handler_checks_agreement_itself() {
    // rmcp alone: the handler finds the disagreement and answers HeaderMismatch. rmcp
    // gives it the SEP's 400 on a request of protocol 2026-07-28 ...
    let mut app = axum::Router::new().nest_service("/mcp", service(true));
    let (parts, body) = send(&mut app, list("FR")).await;
    assert_eq!(parts.status, 400, "{body}");
    assert!(body.contains("-32020"), "{body}");
    assert!(header_lines(&parts, VARY).is_empty(), "{parts:?}");
    let (parts, body) = send(&mut app, list("fr")).await;
    assert_eq!(parts.status, 200, "{body}");
    assert!(body.contains(r#""title":"Saluer""#), "{body}");
    // ... and 200 on the older protocols' requests, which only the layer answers 400.
    let mut legacy = initialize();
    legacy
        .headers_mut()
        .insert("accept-language", http::HeaderValue::from_static("FR"));
    let (parts, body) = send(&mut app, legacy).await;
    assert_eq!(parts.status, 200, "{body}");
    assert!(body.contains("-32020"), "{body}");
}

#[tokio::test(flavor = "current_thread")]
async fn the_shared_service_answers_what_rmcp_s_own_answers() {
    // The requests of the other tests, through both: the same status, the same headers
    // the SEP names, the same body, on JSON answers, on streams and on refusals.
    for json_response in [true, false] {
        let mut own = app(json_response);
        let shared = SharedStreamableHttpService::new(service(json_response));
        let mut shared =
            axum::Router::new().nest_service("/mcp", LanguageLayer::new().layer(shared));
        for make in [|| list("fr"), || list("FR"), || list(""), initialize] {
            let (own_parts, own_body) = send(&mut own, make()).await;
            let (parts, body) = send(&mut shared, make()).await;
            assert_eq!(parts.status, own_parts.status, "{body}");
            for name in [CONTENT_TYPE, CONTENT_LANGUAGE, VARY] {
                assert_eq!(
                    header_lines(&parts, name.clone()),
                    header_lines(&own_parts, name),
                    "{body}"
                );
            }
            // A session's id differs between two services; that there is one does not.
            assert_eq!(
                parts.headers.contains_key("mcp-session-id"),
                own_parts.headers.contains_key("mcp-session-id")
            );
            assert_eq!(body, own_body);
        }
    }
}
