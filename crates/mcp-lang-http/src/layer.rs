//! The tower [`Layer`] that does the whole server side around any inner MCP service.
//!
//! For each `POST` (one JSON-RPC message):
//!
//! 1. the body is read once, up to [`LanguageLayer::body_limit`] bytes; a larger body is
//!    answered `413 Payload Too Large` with a JSON-RPC error saying so (never forwarded
//!    unchecked); a body whose read times out (an `std::io::Error` of kind `TimedOut` in
//!    the error's sources, as a deadline on the body reports) is answered
//!    `408 Request Timeout` with `Connection: close`, any other failed read `400`;
//! 2. `params._meta["io.modelcontextprotocol/acceptLanguage"]` and the id are read from
//!    the bytes, and every `Accept-Language` field line is checked against the value;
//!    a present header that disagrees is answered `400 Bad Request` with HeaderMismatch
//!    (-32020) echoing the id as written and quoting at most
//!    [`HeaderMismatch::QUOTE_LIMIT`](crate::HeaderMismatch::QUOTE_LIMIT) bytes of each
//!    value;
//! 3. otherwise a [`LanguagePreference`](crate::LanguagePreference) goes into the request extensions and the inner
//!    service gets the request with the same body bytes;
//! 4. on the response: `Vary: Accept-Language` is merged in; `Cache-Control: private` is
//!    added when the request had the preference in `_meta` but no header; a JSON body
//!    (read up to [`LanguageLayer::response_limit`] bytes) has its `contentLanguage`
//!    mirrored into exactly one `Content-Language` line; an event stream passes through
//!    untouched except that a handler-set `Content-Language` is removed (see the crate's
//!    SSE rule) unless [`LanguageLayer::keep_event_stream_content_language`] is set.
//!
//! Other methods (`GET` for the server's event stream, `DELETE`) pass through with
//! `Vary: Accept-Language` added to the response.

use std::fmt;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{Request, Response};
use http_body::Body;
use http_body_util::{Either, Full};
use tower_layer::Layer;
use tower_service::Service;

use crate::future::LanguageFuture;
use mcp_lang_match::{Negotiator, SupportedTag};
use mcp_lang_meta::RequestLanguage;

/// The body of a response that went through [`LanguageService`]: either bytes the layer
/// holds (a JSON body it read to mirror `contentLanguage`, or its own error response) or
/// the inner service's body, untouched (event streams, other methods).
///
/// ```
/// use axum::{Router, body::Body, routing::post};
/// use http::{Request, header::CONTENT_TYPE};
/// use http_body_util::Either;
/// use mcp_lang_http::LanguageService;
/// use tower_service::Service;
///
/// let json = Router::new().route("/mcp", post(|| async { ([(CONTENT_TYPE, "application/json")], "{}") }));
/// let request = Request::post("/mcp").body(Body::from("{}")).unwrap();
/// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
/// let response = runtime.block_on(LanguageService::new(json).call(request)).unwrap();
/// // The layer read the JSON body to mirror it: its own bytes.
/// assert!(matches!(response.body(), Either::Left(_)));
/// ```
pub type LanguageBody<B> = Either<Full<Bytes>, B>;

/// The tower [`Layer`] of the SEP-2792 Streamable HTTP binding, for servers.
///
/// ```
/// use mcp_lang_http::LanguageLayer;
///
/// let layer = LanguageLayer::new()
///     .body_limit(1 << 20)
///     .response_limit(8 << 20);
/// assert_eq!(layer.get_body_limit(), 1 << 20);
/// ```
#[derive(Clone, Debug)]
pub struct LanguageLayer {
    config: Config,
}

/// What a [`LanguageLayer`] was configured with; every request's future holds a copy.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    pub(crate) body_limit: usize,
    pub(crate) response_limit: usize,
    pub(crate) keep_event_stream_content_language: bool,
    pub(crate) negotiator: Option<Arc<dyn NegotiateRequest>>,
}

/// A [`Negotiator`] of any tag type, so that the layer need not be generic over it.
pub(crate) trait NegotiateRequest: fmt::Debug + Send + Sync {
    /// The request's language for its raw preference (`None`: absent).
    fn request_language(&self, raw: Option<&str>) -> RequestLanguage;
}

impl<T: SupportedTag + Send + Sync> NegotiateRequest for Negotiator<T> {
    fn request_language(&self, raw: Option<&str>) -> RequestLanguage {
        RequestLanguage::negotiate(raw, self)
    }
}

impl Default for LanguageLayer {
    fn default() -> Self {
        Self::new()
    }
}

impl LanguageLayer {
    /// The default request body limit: 4 MiB.
    ///
    /// ```
    /// use mcp_lang_http::LanguageLayer;
    ///
    /// assert_eq!(LanguageLayer::new().get_body_limit(), LanguageLayer::DEFAULT_BODY_LIMIT);
    /// ```
    pub const DEFAULT_BODY_LIMIT: usize = 4 << 20;
    /// The default limit on a JSON response body the layer reads to find
    /// `contentLanguage`: 16 MiB.
    ///
    /// ```
    /// use mcp_lang_http::LanguageLayer;
    ///
    /// assert_eq!(LanguageLayer::new().get_response_limit(), LanguageLayer::DEFAULT_RESPONSE_LIMIT);
    /// ```
    pub const DEFAULT_RESPONSE_LIMIT: usize = 16 << 20;

    /// A layer with the default limits.
    ///
    /// ```
    /// use mcp_lang_http::LanguageLayer;
    ///
    /// // `const`: a layer can be a `static`.
    /// static LAYER: LanguageLayer = LanguageLayer::new();
    /// assert_eq!(LAYER.get_body_limit(), 4 << 20);
    /// ```
    pub const fn new() -> Self {
        LanguageLayer {
            config: Config {
                body_limit: Self::DEFAULT_BODY_LIMIT,
                response_limit: Self::DEFAULT_RESPONSE_LIMIT,
                keep_event_stream_content_language: false,
                negotiator: None,
            },
        }
    }

    /// The largest request body, in bytes, the layer reads. A `POST` with a larger body
    /// (by `Content-Length` or by what arrives) is answered `413 Payload Too Large`: the
    /// agreement check needs the whole message, and the layer never skips it.
    ///
    /// ```
    /// use axum::{Router, body::Body, routing::post};
    /// use http::{Request, StatusCode};
    /// use mcp_lang_http::LanguageLayer;
    /// use tower_service::Service;
    ///
    /// let mut app = Router::new()
    ///     .route("/mcp", post(|| async { "{}" }))
    ///     .layer(LanguageLayer::new().body_limit(16));
    /// let request = Request::post("/mcp")
    ///     .body(Body::from(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#))
    ///     .unwrap();
    /// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    /// let response = runtime.block_on(app.call(request)).unwrap();
    /// assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    /// ```
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.config.body_limit = bytes;
        self
    }

    /// The current request body limit.
    ///
    /// ```
    /// use mcp_lang_http::LanguageLayer;
    ///
    /// assert_eq!(LanguageLayer::new().body_limit(64 << 10).get_body_limit(), 64 << 10);
    /// ```
    pub fn get_body_limit(&self) -> usize {
        self.config.body_limit
    }

    /// The largest JSON response body, in bytes, the layer reads to mirror its
    /// `contentLanguage`. A larger one is replaced by a `500 Internal Server Error` with a
    /// JSON-RPC error (-32603) saying so, because it cannot be mirrored as the SEP
    /// requires.
    ///
    /// ```
    /// use axum::{Router, body::Body, routing::post};
    /// use http::{Request, StatusCode, header::CONTENT_TYPE};
    /// use mcp_lang_http::LanguageLayer;
    /// use tower_service::Service;
    ///
    /// let answer = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    /// let mut app = Router::new()
    ///     .route("/mcp", post(move || async move { ([(CONTENT_TYPE, "application/json")], answer) }))
    ///     .layer(LanguageLayer::new().response_limit(8));
    /// let request = Request::post("/mcp").body(Body::from("{}")).unwrap();
    /// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    /// let response = runtime.block_on(app.call(request)).unwrap();
    /// assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    /// ```
    pub fn response_limit(mut self, bytes: usize) -> Self {
        self.config.response_limit = bytes;
        self
    }

    /// The current response body limit.
    ///
    /// ```
    /// use mcp_lang_http::LanguageLayer;
    ///
    /// assert_eq!(LanguageLayer::new().response_limit(1 << 20).get_response_limit(), 1 << 20);
    /// ```
    pub fn get_response_limit(&self) -> usize {
        self.config.response_limit
    }

    /// Keeps a `Content-Language` that the inner service set on a `text/event-stream`
    /// response. Set it only when the handler knows one value holds for every message on
    /// the stream; by default the layer removes it, since omission is always conforming
    /// and the layer cannot check messages that do not exist yet.
    ///
    /// ```
    /// use axum::{Router, body::Body, routing::post};
    /// use http::{Request, header::{CONTENT_LANGUAGE, CONTENT_TYPE}};
    /// use mcp_lang_http::LanguageLayer;
    /// use tower_service::Service;
    ///
    /// let sse = || async { ([(CONTENT_TYPE, "text/event-stream"), (CONTENT_LANGUAGE, "fr")], "data: {}\n\n") };
    /// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    /// for keep in [false, true] {
    ///     let layer = LanguageLayer::new().keep_event_stream_content_language(keep);
    ///     let mut app = Router::new().route("/mcp", post(sse)).layer(layer);
    ///     let request = Request::post("/mcp").body(Body::from("{}")).unwrap();
    ///     let response = runtime.block_on(app.call(request)).unwrap();
    ///     assert_eq!(response.headers().contains_key(CONTENT_LANGUAGE), keep);
    /// }
    /// ```
    pub fn keep_event_stream_content_language(mut self, keep: bool) -> Self {
        self.config.keep_event_stream_content_language = keep;
        self
    }

    /// Negotiates every request's preference against `negotiator` and puts the
    /// resulting `mcp_lang_meta::RequestLanguage` (raw value, well-formed or not, selected
    /// tag) in the request extensions, beside the [`LanguagePreference`](crate::LanguagePreference). A malformed or
    /// absent preference selects the negotiator's default, never an error.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_lang_http::LanguageLayer;
    /// use mcp_lang_match::Negotiator;
    ///
    /// let negotiator = Negotiator::new(["en", "fr", "de"], "en").unwrap();
    /// let layer = LanguageLayer::new().negotiator(Arc::new(negotiator));
    /// # let _ = layer;
    /// ```
    pub fn negotiator<T>(mut self, negotiator: Arc<Negotiator<T>>) -> Self
    where
        T: SupportedTag + Send + Sync + 'static,
    {
        self.config.negotiator = Some(negotiator);
        self
    }
}

impl<S> Layer<S> for LanguageLayer {
    type Service = LanguageService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        LanguageService {
            inner,
            config: self.config.clone(),
        }
    }
}

/// The [`Service`] that [`LanguageLayer`] wraps around an inner MCP service.
///
/// The inner service receives `Request<B>` with the body rebuilt from the bytes read
/// (`B: From<Bytes>`, as axum's `Body` and `http_body_util::Full<Bytes>` are) and a
/// [`LanguagePreference`](crate::LanguagePreference) in its extensions (and a `mcp_lang_meta::RequestLanguage` when
/// the layer has a negotiator).
///
/// With hyper alone, whose `Incoming` body cannot be rebuilt from bytes, convert the body
/// first, for example with `request.map(axum::body::Body::new)` in a `map_request`
/// layer outside this one.
///
/// ```
/// use std::convert::Infallible;
/// use bytes::Bytes;
/// use http::{Request, Response, StatusCode};
/// use http_body_util::{BodyExt, Full};
/// use mcp_lang_http::{LanguagePreference, LanguageService};
/// use tower_service::Service;
///
/// # async fn demo() -> Result<(), Infallible> {
/// // Any service will do; this one reports the preference it was given.
/// #[derive(Clone)]
/// struct Echo;
/// impl Service<Request<Full<Bytes>>> for Echo {
///     type Response = Response<Full<Bytes>>;
///     type Error = Infallible;
///     type Future = std::future::Ready<Result<Self::Response, Infallible>>;
///     fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Infallible>> {
///         std::task::Poll::Ready(Ok(()))
///     }
///     fn call(&mut self, request: Request<Full<Bytes>>) -> Self::Future {
///         let raw = request.extensions().get::<LanguagePreference>().and_then(|p| p.raw());
///         std::future::ready(Ok(Response::new(Full::from(format!("{raw:?}")))))
///     }
/// }
///
/// let mut service = LanguageService::new(Echo);
/// let request = Request::post("/mcp")
///     .header("accept-language", "de")
///     .body(Full::from(r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#))
///     .unwrap();
/// let response = service.call(request).await?;
/// assert_eq!(response.status(), StatusCode::OK);
/// assert_eq!(response.headers()["vary"], "Accept-Language");
/// let body = response.into_body().collect().await.unwrap().to_bytes();
/// assert_eq!(body, r#"Some("de")"#);
/// # Ok(())
/// # }
/// # let mut future = std::pin::pin!(demo());
/// # let waker = std::task::Waker::noop();
/// # assert!(future.as_mut().poll(&mut std::task::Context::from_waker(waker)).is_ready());
/// ```
#[derive(Clone, Debug)]
pub struct LanguageService<S> {
    inner: S,
    config: Config,
}

impl<S> LanguageService<S> {
    /// Wraps `inner` with the default configuration.
    ///
    /// ```
    /// use mcp_lang_http::LanguageService;
    ///
    /// let service = LanguageService::new("the MCP service");
    /// assert_eq!(*service.get_ref(), "the MCP service");
    /// ```
    pub fn new(inner: S) -> Self {
        LanguageLayer::new().layer(inner)
    }

    /// The inner service.
    ///
    /// ```
    /// use mcp_lang_http::{LanguageLayer, LanguageService};
    /// use tower_layer::Layer;
    ///
    /// let service: LanguageService<u32> = LanguageLayer::new().layer(7);
    /// assert_eq!(service.get_ref(), &7);
    /// ```
    pub fn get_ref(&self) -> &S {
        &self.inner
    }
}

/// The error type bodies are read with.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<S, B, ResBody> Service<Request<B>> for LanguageService<S>
where
    S: Service<Request<B>, Response = Response<ResBody>> + Clone,
    B: Body + From<Bytes>,
    B::Error: Into<BoxError>,
    ResBody: Body<Data = Bytes>,
    ResBody::Error: Into<BoxError>,
{
    type Response = Response<LanguageBody<ResBody>>;
    type Error = S::Error;
    type Future = LanguageFuture<S, B, ResBody>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The clone takes the place of the service that was driven to readiness.
        let clone = self.inner.clone();
        let inner = std::mem::replace(&mut self.inner, clone);
        LanguageFuture::new(inner, self.config.clone(), request)
    }
}
