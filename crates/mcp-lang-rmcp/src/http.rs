//! Streamable HTTP for an rmcp server: `mcp-lang-http`'s language layer in front of
//! rmcp's `StreamableHttpService` (feature `http-server`).
//!
//! The layer checks that `Accept-Language` agrees exactly with `_meta` (a request
//! where it does not is refused with `400` and HeaderMismatch, -32020, before rmcp
//! sees it), mirrors a JSON answer's `contentLanguage` into one `Content-Language`
//! line, and adds `Vary: Accept-Language` to every answer. What rmcp answers with
//! decides which headers the SEP asks for:
//!
//! | rmcp answers with | `Content-Language` | what carries the language |
//! |---|---|---|
//! | `application/json` | the answer's `contentLanguage`, mirrored | the header and `result._meta` or `error.data._meta` |
//! | `text/event-stream` | none (the SEP lets a server omit it on a stream) | each message's own `_meta` |
//!
//! rmcp answers with JSON when `StreamableHttpServerConfig::json_response` is set and
//! the request is served without a session: every request of protocol 2026-07-28, which
//! has no sessions, and every request when `legacy_session_mode` is off; and only when
//! the handler sends nothing before its result (a tool that reports progress answers
//! with a stream, whose messages each carry their language). With rmcp's defaults
//! otherwise (sessions for the older protocols), those requests are answered with
//! streams. So the one setting to change is `json_response = true`:
//!
//! ```no_run
//! use std::sync::Arc;
//! use mcp_lang_rmcp::http::LanguageService;
//! use rmcp::ServerHandler;
//! use rmcp::transport::streamable_http_server::{
//!     StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
//! };
//!
//! /// Serves `server` (a `Localized` handler) at http://127.0.0.1:8080/mcp.
//! async fn serve<S: ServerHandler + Clone>(server: S) -> std::io::Result<()> {
//!     let mut config = StreamableHttpServerConfig::default();
//!     config.json_response = true; // JSON, with Content-Language, wherever rmcp can
//!     let sessions = Arc::new(LocalSessionManager::default());
//!     let service = StreamableHttpService::new(move || Ok(server.clone()), sessions, config);
//!     let app = axum::Router::new().nest_service("/mcp", LanguageService::new(service));
//!     let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//!     axum::serve(listener, app).await
//! }
//! ```
//!
//! `LanguageLayer::new().layer(service)` is the same as a tower `Layer`. `tests/http_server.rs` serves rmcp's defaults and `json_response` through
//! the layer and shows each row of the table above.

pub use mcp_lang_http::{LanguageLayer, LanguageService};
