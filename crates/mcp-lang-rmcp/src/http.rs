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
//! use mcp_lang_rmcp::http::{LanguageService, SharedStreamableHttpService};
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
//!     let service = LanguageService::new(SharedStreamableHttpService::new(service));
//!     let app = axum::Router::new().nest_service("/mcp", service);
//!     let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//!     axum::serve(listener, app).await
//! }
//! ```
//!
//! `LanguageLayer::new().layer(service)` is the same as a tower `Layer`. The layer takes
//! any tower service; [`SharedStreamableHttpService`] is rmcp's, made cheap to hand to
//! each request (see there). `tests/http_server.rs` serves rmcp's defaults and
//! `json_response` through the layer and shows each row of the table above.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{Request, Response};
use http_body::Body;
use http_body_util::combinators::BoxBody;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::{SessionManager, StreamableHttpService};

pub use mcp_lang_http::{LanguageLayer, LanguageService};

/// rmcp's [`StreamableHttpService`], shared by every request instead of copied for each.
///
/// A tower service that reads the request before calling the service it wraps, as the
/// language layer does (it must read the body to check `Accept-Language`), keeps its
/// own copy of that service for each request; and rmcp's service copies itself again
/// in every call. Each copy of rmcp's service copies its configuration (the allowed
/// hosts are strings), four allocations a copy. This wrapper holds the service behind
/// an [`Arc`] and calls [`StreamableHttpService::handle`], which needs only a
/// reference: handing it to a request costs a reference count, and rmcp's own copy is
/// not made either. It answers exactly what the service answers.
///
/// ```
/// use std::sync::Arc;
/// use mcp_lang_rmcp::http::{LanguageService, SharedStreamableHttpService};
/// use mcp_lang_rmcp::server::{Localized, ServerLanguages};
/// use rmcp::transport::streamable_http_server::{
///     StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
/// };
///
/// #[derive(Clone)]
/// struct Server;
/// impl rmcp::ServerHandler for Server {}
///
/// let server = Localized::new(Server, ServerLanguages::new(["en", "fr"], "en").unwrap());
/// let sessions = Arc::new(LocalSessionManager::default());
/// let config = StreamableHttpServerConfig::default();
/// let rmcp = StreamableHttpService::new(move || Ok(server.clone()), sessions, config);
/// let shared = SharedStreamableHttpService::new(rmcp);
/// assert!(!shared.get_ref().config.json_response); // rmcp's defaults, as given
/// let _service = LanguageService::new(shared);
/// ```
pub struct SharedStreamableHttpService<S, M> {
    service: Arc<StreamableHttpService<S, M>>,
}

impl<S, M> SharedStreamableHttpService<S, M> {
    /// Shares `service`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_lang_rmcp::http::SharedStreamableHttpService;
    /// use rmcp::transport::streamable_http_server::{
    ///     StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    /// };
    ///
    /// #[derive(Clone)]
    /// struct Server;
    /// impl rmcp::ServerHandler for Server {}
    ///
    /// let sessions = Arc::new(LocalSessionManager::default());
    /// let config = StreamableHttpServerConfig::default();
    /// let service = StreamableHttpService::new(|| Ok(Server), sessions, config);
    /// let shared = SharedStreamableHttpService::new(service);
    /// let copy = shared.clone(); // a reference count, not a copy of the configuration
    /// # let _ = copy;
    /// ```
    pub fn new(service: StreamableHttpService<S, M>) -> Self {
        SharedStreamableHttpService {
            service: Arc::new(service),
        }
    }

    /// The shared service.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_lang_rmcp::http::SharedStreamableHttpService;
    /// use rmcp::transport::streamable_http_server::{
    ///     StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    /// };
    ///
    /// #[derive(Clone)]
    /// struct Server;
    /// impl rmcp::ServerHandler for Server {}
    ///
    /// let mut config = StreamableHttpServerConfig::default();
    /// config.json_response = true;
    /// let sessions = Arc::new(LocalSessionManager::default());
    /// let service = StreamableHttpService::new(|| Ok(Server), sessions, config);
    /// assert!(SharedStreamableHttpService::new(service).get_ref().config.json_response);
    /// ```
    pub fn get_ref(&self) -> &StreamableHttpService<S, M> {
        &self.service
    }
}

impl<S, M> Clone for SharedStreamableHttpService<S, M> {
    fn clone(&self) -> Self {
        SharedStreamableHttpService {
            service: Arc::clone(&self.service),
        }
    }
}

impl<S, M> fmt::Debug for SharedStreamableHttpService<S, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedStreamableHttpService")
            .field("config", &self.service.config)
            .finish_non_exhaustive()
    }
}

/// The answer of rmcp's service, as its own `tower` service gives it.
type RmcpResponse = Response<BoxBody<Bytes, Infallible>>;

impl<B, S, M> tower_service::Service<Request<B>> for SharedStreamableHttpService<S, M>
where
    B: Body + Send + 'static,
    B::Error: fmt::Display,
    B::Data: Send + 'static,
    S: ServerHandler + Send + 'static,
    M: SessionManager,
{
    type Response = RmcpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<RmcpResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let service = Arc::clone(&self.service);
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}
