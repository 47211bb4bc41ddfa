//! SEP-2792 "Per-Request User Language Preference" for [rmcp], the official
//! Rust MCP SDK.
//!
//! This crate is what an rmcp server or client adds to take part in SEP-2792:
//!
//! - **Server** ([`server`]): read each request's
//!   `io.modelcontextprotocol/acceptLanguage` from rmcp's request context,
//!   negotiate it against the server's supported languages (RFC 4647, with
//!   weights and the wildcard, through `mcp-lang-match`), and report the
//!   language used as `io.modelcontextprotocol/contentLanguage` on results,
//!   errors, progress notifications and elicitations.
//! - **Client** ([`client`]): put a preference on any request, check that it can
//!   be mirrored into HTTP (decision D8), and read `contentLanguage` back. On
//!   Streamable HTTP, `reqwest_client::LanguageHttpClient` (feature
//!   `http-client-reqwest`, on by default) sends each preference as exactly one
//!   agreeing `Accept-Language` line and refuses a response whose
//!   `Content-Language` contradicts its `contentLanguage`;
//!   `http_client::MirroringClient` (feature `http-client`) does the first half
//!   around any other rmcp HTTP client. [`cache::CachingClient`] caches list
//!   results per raw preference.
//!
//! Use it when your MCP server or client is built on rmcp. Without rmcp, use
//! `mcp-lang-meta` (any JSON-RPC stack) and `mcp-lang-http` (any tower/hyper
//! stack) directly: this crate only maps rmcp's types onto them.
//!
//! ```
//! use mcp_lang_rmcp::server::{ServerLanguages, stamp};
//! use rmcp::model::ListToolsResult;
//!
//! // Once, at start-up: the supported tags in the server's order, and the default.
//! let languages = ServerLanguages::new(["en", "fr", "fr-CA", "de", "ja", "ga"], "en").unwrap();
//!
//! // Per request (in a handler: `languages.for_request(&context)?`).
//! let request_meta = serde_json::json!({
//!     "io.modelcontextprotocol/acceptLanguage": "de-AT, en;q=0.5"
//! });
//! let language = languages.negotiate_meta(request_meta.as_object());
//! assert_eq!(language.tag(), "de");
//!
//! let mut result = ListToolsResult::default();
//! stamp(&mut result.meta, language.tag());
//! assert_eq!(
//!     serde_json::to_value(&result).unwrap()["_meta"]["io.modelcontextprotocol/contentLanguage"],
//!     "de"
//! );
//! ```
//!
//! # How rmcp carries what SEP-2792 needs (rmcp 3.11)
//!
//! What follows was checked against rmcp 3.11's source; where rmcp has no hook,
//! it says so.
//!
//! - **Reading the preference.** rmcp strips the wire `params._meta` of every
//!   request into the request's extensions and hands it to the handler as
//!   [`RequestContext::meta`](rmcp::service::RequestContext) (a
//!   `RequestMetaObject`, a JSON map). Typed params' `meta` fields stay empty on
//!   the server side, so `context.meta` is the only place to read it.
//!   [`ServerLanguages::for_request`](server::ServerLanguages::for_request) does.
//! - **HTTP request parts.** rmcp's `StreamableHttpService` puts the request's
//!   `http::request::Parts` (headers and the HTTP extensions, where a tower
//!   layer's state lives) into `RequestContext::extensions`. `for_request` uses
//!   them to check exact agreement (D5) as a second line of defence. rmcp
//!   answers every JSON-RPC error with HTTP 200, so a handler **cannot** produce
//!   the SEP's HTTP 400 for `HeaderMismatch`: that needs the tower layer of
//!   `mcp-lang-http` in front of rmcp's service (which is a plain
//!   `tower_service::Service<http::Request<B>>` and mounts in axum with
//!   `Router::nest_service`). rmcp does not read or write `Accept-Language` or
//!   `Content-Language` itself.
//! - **`_meta` on results.** Every rmcp result type with a `_meta` slot exposes
//!   it as a public `meta: Option<MetaObject>` field;
//!   [`stamp_result`](server::stamp_result) covers all of them. `EmptyResult`
//!   (e.g. `ping`) has no slot; `CustomResult` is raw JSON.
//! - **`_meta` on errors.** `ErrorData::data` is free JSON;
//!   [`localized_error`](server::localized_error) makes it an object with
//!   `_meta.contentLanguage`, as the SEP requires.
//! - **Progress.** `ProgressNotificationParam` has a public `meta` that rmcp
//!   serializes as `params._meta`; `context.meta.get_progress_token()` gives the
//!   token. On Streamable HTTP rmcp routes a progress notification to the SSE
//!   stream of the request that owns its token, so the localized message reaches
//!   the right response stream. [`notify_progress`](server::notify_progress).
//!   **Receiving side (rmcp 3.11 bug):** when an rmcp *client* receives a
//!   notification, the service loop moves the notification's extensions into
//!   `NotificationContext::extensions` *before* taking `_meta` out of them, so
//!   `NotificationContext::meta` is always empty and the received
//!   `params._meta` (with `contentLanguage`) is found as a
//!   `NotificationMetaObject` in `NotificationContext::extensions` instead.
//!   Requests are not affected (`RequestContext::meta` is filled).
//! - **Elicitation.** rmcp supports both shapes. For peers that negotiated
//!   protocol `2026-07-28` (SEP-2322), a handler returns an
//!   `InputRequiredResult` (`CallToolResponse::InputRequired`), whose
//!   `inputRequests` hold `elicitation/create` params and whose `result._meta`
//!   carries `contentLanguage` exactly as in the SEP's example
//!   ([`input_required`](server::input_required)); the client retries the call
//!   with `inputResponses`. rmcp refuses that result for older peers, which get
//!   a server-to-client `elicitation/create` request through
//!   `context.peer.create_elicitation(...)` instead. The SEP names no `_meta`
//!   slot for a server-to-client *request*; this crate puts `contentLanguage`
//!   in that request's `params._meta` too, where a client can read it the same
//!   way as on a notification ([`form_elicitation`](server::form_elicitation)).
//! - **`ttlMs` / `cacheScope`.** rmcp 3.11 models SEP-2549's `ttlMs` and
//!   `cacheScope` as typed fields of every list result and of
//!   `ReadResourceResult`, and fills defaults for `2026-07-28` peers. They are
//!   result fields, not `_meta`.
//! - **Stdio.** `rmcp::transport::stdio()` (feature `transport-io`): only `_meta`
//!   travels, which is all SEP-2792 needs on stdio.
//! - **Client, per-request `_meta`.** `PeerRequestOptions::meta` (with
//!   `Peer::send_request_with_option`) or the request's own `_meta` through
//!   `GetMeta::get_meta_mut` both reach the wire, merged with rmcp's own keys
//!   (`progressToken`, SEP-2575 client context). [`client`] wraps this.
//! - **Client, HTTP mirroring.** `StreamableHttpClient::post_message` receives
//!   the whole outgoing message and a `custom_headers` map, so a wrapper can set
//!   one `Accept-Language` line equal to `_meta` (`accept-language` is not one
//!   of rmcp's reserved header names): `http_client::MirroringClient`
//!   (feature `http-client`).
//! - **Client, `Content-Language` verification: no hook in the trait, so a
//!   client that owns the exchange.** `StreamableHttpClient::post_message`
//!   returns a decoded `StreamableHttpPostResponse` (`Accepted`,
//!   `Json(ServerJsonRpcMessage, session id)` or `Sse(stream, session id)`)
//!   without the response headers, so no *wrapper* of another
//!   `StreamableHttpClient` can see `Content-Language`.
//!   `reqwest_client::LanguageHttpClient` (feature `http-client-reqwest`)
//!   implements the trait itself on a `reqwest::Client`: it mirrors
//!   `Accept-Language` like `MirroringClient`, checks a JSON body's
//!   `Content-Language` with `mcp_lang_http::check_json_response` before
//!   decoding it, and wraps event streams so that every message is checked
//!   with `mcp_lang_http::EventStreamLanguage`. A conflict on a JSON response
//!   is `StreamableHttpError::Client(LanguageHttpError::MalformedResponse)`,
//!   which rmcp hands to the caller as `ServiceError::TransportSend`.
//!   Owning the exchange meant writing what rmcp's reqwest client does besides
//!   the body, because rmcp keeps those helpers `pub(crate)` (body limits, the
//!   bounded SSE parser, media-type test, reserved-header check, `scope`
//!   extraction, the legacy `server/discover` fallback, its redirect policy);
//!   the module docs list them. Three more gaps, and what is done about them:
//!   - rmcp only **logs** the error of a request's response stream and then
//!     fails the request with a generic "response stream closed" error, so a
//!     typed SSE error would never reach the caller. A conflict on a POST's
//!     event stream is therefore reported in band: the event becomes a
//!     JSON-RPC error response to that request (code -32603, `data.malformedResponse`),
//!     and the request fails with `ServiceError::McpError`.
//!     `reqwest_client::ContentLanguageConflict::from_service_error` reads
//!     both shapes back.
//!   - `StreamableHttpError::Client(E)` is not marked as the error's
//!     `source`, so walking `Error::source` from a `ServiceError` stops
//!     there; `from_service_error` downcasts to the client's error type
//!     instead.
//!   - rmcp treats an over-long SSE event as fatal only when the error is its
//!     own private type; this client's `EventTooLarge` is an ordinary stream
//!     error, which rmcp may answer by resuming the stream with `GET` and
//!     `Last-Event-ID` when the server gave event IDs.
//! - **Client cache: rmcp's built-in response cache is not language-aware.**
//!   rmcp 3.11's client cache (`ClientCacheConfig`, enabled by default) keys
//!   `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`
//!   and `resources/read` by cursor or URI only, not by the request's `_meta`.
//!   A client that sends different preferences through `Peer::list_tools` on
//!   one connection can get another preference's cached titles — what SEP-2792
//!   forbids ("A cached response for one preference MUST NOT be served for a
//!   different preference"). Either disable it
//!   (`ClientCacheConfig::disabled()`) or send list requests through
//!   `send_request_with_option` (uncached), as [`client::send_with_preference`]
//!   does, and cache with `mcp-lang-meta`'s cache keyed by the raw preference
//!   (decision D10): [`cache::CachingClient`] does both for `tools/list`,
//!   `prompts/list`, `resources/list` and `resources/templates/list`,
//!   honouring the server's `ttlMs` and `cacheScope`. `resources/read` is not
//!   cached by it: send it with [`client::send_with_preference`] (uncached).
//!
//! [rmcp]: https://docs.rs/rmcp

/// The two `_meta` keys of SEP-2792, defined once in `mcp-lang-meta` and re-exported
/// under their own names: `io.modelcontextprotocol/acceptLanguage` (request) and
/// `io.modelcontextprotocol/contentLanguage` (response).
///
/// ```
/// use mcp_lang_rmcp::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
///
/// assert_eq!(ACCEPT_LANGUAGE_KEY, "io.modelcontextprotocol/acceptLanguage");
/// assert_eq!(CONTENT_LANGUAGE_KEY, "io.modelcontextprotocol/contentLanguage");
/// ```
pub use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};

/// `mcp-lang-meta`'s crate, re-exported so an rmcp user reaches its types
/// (the [`ResponseCache`](mcp_lang_meta::ResponseCache), the writers, the
/// raw extraction) at the version this crate was built with.
///
/// ```
/// use mcp_lang_rmcp::mcp_lang_meta::RawPreference;
///
/// assert_eq!(RawPreference::String("fr".into()).as_str(), Some("fr"));
/// ```
pub use mcp_lang_meta;

#[cfg(feature = "client")]
pub mod cache;
#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "http-client")]
pub mod http_client;
#[cfg(feature = "http-client-reqwest")]
pub mod reqwest_client;
#[cfg(feature = "server")]
pub mod server;
