//! The Streamable HTTP binding of MCP SEP-2792 ("Per-Request User Language
//! Preference"), on the [`http`] crate's types, with a tower layer behind the `tower`
//! feature.
//!
//! An MCP request carries the user's language preference canonically in
//! `params._meta["io.modelcontextprotocol/acceptLanguage"]`. Over Streamable HTTP the
//! value is mirrored into `Accept-Language`, and a response's `contentLanguage` into
//! `Content-Language`. Proxies, CDNs and caches see only the HTTP side, so the two must
//! say exactly the same thing. This crate holds both ends to that:
//!
//! | side | rule (SEP-2792) | here |
//! |------|-----------------|------|
//! | server | a present `Accept-Language` that does not agree exactly with `_meta` is rejected: `400 Bad Request`, JSON-RPC error HeaderMismatch (-32020) | [`check_request`], [`validate_request`], [`HeaderMismatch`] |
//! | server | a missing (stripped) header is tolerated; a bare header without `_meta` creates no preference | [`RequestAgreement`] |
//! | server | a JSON response's `contentLanguage` is mirrored into exactly one `Content-Language` line | [`mirror_json_response`], [`set_content_language`] |
//! | server | `Vary: Accept-Language`, merged with any `Vary` | [`add_vary_accept_language`] |
//! | server | `Cache-Control: private` when the preference is only in `_meta` | [`make_private`] |
//! | client | exactly one `Accept-Language` line equal to `_meta`; an unsendable value is refused (D8) | [`set_accept_language`], [`FieldValueError`] |
//! | client | a `Content-Language` that disagrees with `contentLanguage` is a malformed response | [`check_json_response`], [`EventStreamLanguage`], [`MalformedResponse`] |
//! | both | everything above around any tower service | `LanguageLayer` (feature `tower`) |
//!
//! # Agreement is exact, and comes first
//!
//! "Agree" means the SEP's exact field-value agreement (decision D5, implemented by
//! [`mcp_lang_agree`]): each field line trimmed of SP/HTAB, lines joined with `", "`,
//! compared byte for byte with the `_meta` string. `en-US` and `en-us` do not agree, nor
//! `en-US,en` and `en-US, en`. Every field line is read (`HeaderMap::get_all`), so a
//! conflicting second line cannot hide. The check runs *before* any grammar validation:
//! a malformed value that agrees is accepted here (and later ignored as an absent
//! preference); a well-formed value that disagrees is rejected.
//!
//! # Server-Sent Events
//!
//! The header of an event stream is sent before its messages exist. The server side of
//! this crate never sets `Content-Language` on `text/event-stream`, and the layer removes
//! one a handler set unless told to keep it; each message carries its own
//! `contentLanguage` in `_meta`. A client checks every message of a stream that does
//! declare one with [`EventStreamLanguage`]. See the `response` functions' docs.
//!
//! # Example: the layer in an axum server
//!
//! With the `tower` feature, `LanguageLayer` does the whole server side in front of any
//! MCP service: it reads the body (bounded), checks agreement, hands the handler a
//! [`LanguagePreference`] in the request extensions, and fixes up the response headers.
//! Its service returns a named future, `LanguageFuture`: no allocation of the layer's own
//! per request, and no `Send` or `'static` bounds beyond what the inner service has.
//!
//! ```
//! # #[cfg(feature = "tower")]
//! # {
//! use axum::{Router, extract::Request, routing::post};
//! use mcp_lang_http::{LanguageLayer, LanguagePreference};
//!
//! async fn mcp(request: Request) -> String {
//!     let preference = request.extensions().get::<LanguagePreference>();
//!     // The raw _meta value (for cache keys), after the agreement check.
//!     format!("{:?}", preference.and_then(|p| p.raw()))
//! }
//!
//! let app: Router = Router::new()
//!     .route("/mcp", post(mcp))
//!     .layer(LanguageLayer::new().body_limit(1 << 20));
//! # let _ = app;
//! # }
//! ```
//!
//! A complete server is in `examples/localized_tools.rs`
//! (`cargo run -p mcp-lang-http --features tower --example localized_tools`).
//!
//! # Example: without tower
//!
//! The same checks as plain functions, for any HTTP stack that exposes an
//! [`http::HeaderMap`] and the body bytes:
//!
//! ```
//! use http::{HeaderMap, HeaderValue, StatusCode, header::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE, VARY}};
//! use mcp_lang_http::{add_vary_accept_language, mirror_json_response, validate_request};
//!
//! let mut request_headers = HeaderMap::new();
//! request_headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("fr-CA"));
//! request_headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("fr;q=0.9"));
//! let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list",
//!   "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CA, fr;q=0.9"}}}"#;
//!
//! let preference = match validate_request(&request_headers, body) {
//!     Ok(preference) => preference,
//!     Err(rejected) => {
//!         let response = rejected.to_response(); // 400, -32020, the id echoed
//!         assert_eq!(response.status(), StatusCode::BAD_REQUEST);
//!         return;
//!     }
//! };
//! assert_eq!(preference.raw(), Some("fr-CA, fr;q=0.9"));
//!
//! // ... the MCP server answers in fr-CA ...
//! let answer = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[],
//!   "_meta":{"io.modelcontextprotocol/contentLanguage":"fr-CA"}}}"#;
//! let mut response_headers = HeaderMap::new();
//! mirror_json_response(&mut response_headers, answer);
//! add_vary_accept_language(&mut response_headers);
//! assert_eq!(response_headers[CONTENT_LANGUAGE], "fr-CA");
//! assert_eq!(response_headers[VARY], "Accept-Language");
//! ```
//!
//! # When not to use it
//!
//! Over stdio there are no headers: `mcp-lang-meta` is all a stdio server needs. To pick
//! the language to answer in, use `mcp-lang-match` (or give the layer a `Negotiator`);
//! this crate only decides whether the two carriers of the preference agree and keeps
//! the HTTP side honest.
//!
//! # Decisions this crate makes where the SEP leaves room
//!
//! - **The -32020 body.** `{"jsonrpc":"2.0","id":<the request id, or null>,"error":{"code":-32020,
//!   "message":…,"data":{"header":"Accept-Language","headerValue":…,"headerLength":…,
//!   "fieldLines":…,"metaKey":…,"metaValue":…|null,"metaLength":…|null,"metaIsString":…,
//!   "offset":…|null}}}`. `headerValue` is the start of the combined value that was
//!   compared and `metaValue` the start of the `_meta` string, each at most
//!   [`HeaderMismatch::QUOTE_LIMIT`] (256) bytes, beside their full lengths and the offset
//!   of the first difference: the answer stays under a few KiB however large the request
//!   (a `_meta` value can fill most of a 4 MiB body).
//! - **The id, as written.** Every error the layer writes echoes the request's `id`
//!   exactly as the client wrote it when it is a JSON string or number (`1e2`, `1.50` and
//!   `18446744073709551616` included: the raw text, not a number parsed and printed
//!   again), and `null` otherwise (no id, `null`, an object, a body it could not read).
//!   The layer's own error responses carry `Vary: Accept-Language` and
//!   `Cache-Control: no-store`.
//! - **Bodies that are not one JSON object** (malformed JSON, a batch array) carry no
//!   preference the layer can see: the header counts as bare and the request goes on to the
//!   MCP server, which answers with its own parse error.
//! - **`Cache-Control: private`** (stripped-header case) keeps the directives already there
//!   except `public`, `s-maxage` and a field-qualified `private="…"`; nothing changes when
//!   the response is already `private` or `no-store`. It is added only when `_meta` holds a
//!   string: a non-string value is no preference, so the response does not vary by it.
//! - **`Vary`** is rewritten as one line listing the existing members followed by
//!   `Accept-Language`, unless a member already is `Accept-Language` (any case) or `*`.
//! - **Event streams:** the server side never sets `Content-Language` on
//!   `text/event-stream`; the layer removes a handler-set one unless configured to keep it.
//! - **D8, made precise:** a value is sendable when it is ASCII, has no control characters
//!   other than HTAB, and does not start or end with SP/HTAB (which a receiver would trim
//!   away). The empty string is sendable. The same rule guards `Content-Language`: a
//!   `contentLanguage` that breaks it is not mirrored, and any `Content-Language` line is
//!   removed so that no header contradicts the body.
//! - **Repeated `Content-Language` lines** are joined before the comparison, so two
//!   identical lines `de` / `de` (combined `de, de`) disagree with `contentLanguage: "de"`
//!   and make a malformed response, as the SEP's one-line rule implies.
//! - **Limits:** an oversized request is `413` with a JSON-RPC error (-32600) naming the
//!   limit; an oversized JSON response is replaced by a `500` with -32603, since it cannot
//!   be mirrored.
//! - **A request body that times out** (its read fails with an [`std::io::Error`] of kind
//!   `TimedOut` anywhere in the error's chain of sources) is `408 Request Timeout` with a
//!   JSON-RPC error (-32600) and `Connection: close`, since the rest of the body may still
//!   be on its way (RFC 9110 §15.5.9); any other failed read is a `400`.
//!
//! # Limits
//!
//! The layer reads at most `LanguageLayer::body_limit` bytes of a request (default
//! 4 MiB; more is `413 Payload Too Large`, never a skipped check) and
//! `LanguageLayer::response_limit` bytes of a JSON response (default 16 MiB; more is a
//! `500` saying so, since it cannot be mirrored). Agreement is linear in the header and
//! `_meta` sizes and allocates nothing.
//!
//! # Timeouts and a connection limit, with hyper and tower-http
//!
//! The layer bounds what it reads, not how long a client takes to send it: it waits for
//! the whole body before it can check agreement. Time is the server's to limit, at the
//! connection, around the layer. Three limits keep a slow or idle client from holding a
//! connection for ever (`mcp-lang serve --http` ships all three; see
//! `mcp_lang_reference::serve::HttpLimits`):
//!
//! - **The request head:** hyper's `http1::Builder::header_read_timeout`, which acts only
//!   once the builder has a timer (`hyper_util::rt::TokioTimer`); `axum::serve` sets none,
//!   so behind it the timeout never fires. The clock starts when the connection opens and
//!   again after each answer, so it also closes an idle keep-alive connection; past it,
//!   hyper closes the connection without an answer.
//! - **The request body:** a timeout on the body the layer reads, failing with an
//!   [`std::io::Error`] of kind `TimedOut`, which the layer answers `408`. tower-http's
//!   `TimeoutBody` (or `RequestBodyTimeoutLayer`) bounds the wait for *each* frame, which
//!   cuts off a stalled body but not one that trickles in a byte at a time; for that, a
//!   body wrapper with one deadline for the whole body (the reference server has one).
//!   Either way the timeout is on *reading the request*: an answer that takes minutes, or
//!   an event stream that stays open, is not touched. A timeout on the whole exchange
//!   (tower-http's `TimeoutLayer`) would cut those off.
//! - **Connections:** a semaphore permit taken before each `accept` and released when the
//!   connection ends: over the limit, a new connection waits in the kernel's accept queue
//!   until one closes. (tower's `ConcurrencyLimit` counts requests in a service, not
//!   connections.)
//!
//! ```no_run
//! # #[cfg(feature = "tower")]
//! # async fn serve() -> std::io::Result<()> {
//! use std::{io, sync::Arc, time::Duration};
//!
//! use axum::{Router, routing::post};
//! use http::Request;
//! use http_body_util::BodyExt;
//! use hyper::{body::Incoming, server::conn::http1};
//! use hyper_util::rt::{TokioIo, TokioTimer};
//! use mcp_lang_http::LanguageLayer;
//! use tokio::{net::TcpListener, sync::Semaphore};
//! use tower_http::timeout::{TimeoutBody, TimeoutError};
//! use tower_service::Service;
//!
//! // The MCP service behind the layer (here a stand-in).
//! let app = Router::new()
//!     .route("/mcp", post(|| async { "{}" }))
//!     .layer(LanguageLayer::new());
//!
//! let listener = TcpListener::bind("127.0.0.1:8080").await?;
//! let slots = Arc::new(Semaphore::new(256));
//! let mut connections = http1::Builder::new();
//! connections
//!     .timer(TokioTimer::new())
//!     .header_read_timeout(Duration::from_secs(10));
//! loop {
//!     let slot = Arc::clone(&slots).acquire_owned().await.expect("never closed");
//!     let Ok((stream, _)) = listener.accept().await else { continue };
//!     let app = app.clone();
//!     let service = hyper::service::service_fn(move |request: Request<Incoming>| {
//!         // Each frame of the body within 30 s; a timeout becomes `TimedOut`, which
//!         // the layer answers `408 Request Timeout`.
//!         let request = request.map(|body| {
//!             TimeoutBody::new(Duration::from_secs(30), body).map_err(|e| {
//!                 let kind = if e.is::<TimeoutError>() {
//!                     io::ErrorKind::TimedOut
//!                 } else {
//!                     io::ErrorKind::Other
//!                 };
//!                 io::Error::new(kind, e)
//!             })
//!         });
//!         app.clone().call(request)
//!     });
//!     let connection = connections.serve_connection(TokioIo::new(stream), service);
//!     tokio::spawn(async move {
//!         let _ = connection.await;
//!         drop(slot);
//!     });
//! }
//! # }
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]

mod client;
#[cfg(feature = "tower")]
#[cfg_attr(docsrs, doc(cfg(feature = "tower")))]
mod future;
#[cfg(feature = "tower")]
#[cfg_attr(docsrs, doc(cfg(feature = "tower")))]
mod layer;
mod response;
mod server;

pub use client::{
    EventStreamLanguage, FieldValueError, FieldValueErrorKind, MalformedResponse,
    check_json_response, set_accept_language, verify_content_language,
};
#[cfg(feature = "tower")]
pub use future::LanguageFuture;
#[cfg(feature = "tower")]
pub use layer::{LanguageBody, LanguageLayer, LanguageService};
pub use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY, RawPreference};
pub use response::{
    Mirrored, add_vary_accept_language, is_event_stream, is_json, make_private,
    mirror_json_response, set_content_language,
};
pub use server::{
    HEADER_MISMATCH, HeaderMismatch, LanguagePreference, RejectedRequest, RequestAgreement,
    check_request, validate_request,
};
