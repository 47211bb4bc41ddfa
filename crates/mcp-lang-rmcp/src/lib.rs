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
//!   be mirrored into HTTP (decision D8), and read `contentLanguage` back.
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
//! - **Client, `Content-Language` verification: not done here, and why.**
//!   The trait returns a decoded `StreamableHttpPostResponse` (`Accepted`,
//!   `Json(ServerJsonRpcMessage, session id)` or `Sse(stream, session id)`)
//!   without the response headers, so no *wrapper* of another
//!   `StreamableHttpClient` can see `Content-Language`. The way that works is
//!   a client that owns the HTTP exchange: implement `StreamableHttpClient`
//!   directly (rmcp's reqwest implementation,
//!   `src/transport/common/reqwest/streamable_http_client.rs` in rmcp 3.11, is
//!   the model) and, in `post_message`, before decoding:
//!   for `application/json`, read the body bytes and call
//!   `mcp_lang_http::check_json_response(&headers, &body)`; for
//!   `text/event-stream`, keep `mcp_lang_http::EventStreamLanguage::from_headers`
//!   and call `check_message` on each event's data; turn a
//!   `MalformedResponse` into `StreamableHttpError::Client(..)` (the typed
//!   error slot the trait gives its implementor). `get_stream` and
//!   `delete_session` can delegate to `reqwest::Client`'s implementation;
//!   `post_message` cannot, and rmcp's (`post_message_with_response_limits`,
//!   about 250 lines in rmcp 3.11) handles much besides the body: custom and
//!   reserved headers, session ids, 401/403 auth challenges, 429/5xx status
//!   errors, JSON-RPC error bodies, media types and size limits. Reproducing
//!   that faithfully is why this crate does not ship it yet; the check itself
//!   is `mcp-lang-http`'s and is tested there, and `mcp-lang conformance`'s
//!   client scenarios exercise it on raw responses.
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
//!   (decision D10): [`cache::CachingClient`] does both for `tools/list` and
//!   `prompts/list`, honouring the server's `ttlMs` and `cacheScope`.
//!
//! [rmcp]: https://docs.rs/rmcp

/// The request `_meta` key of the user's language preference (SEP-2792):
/// `mcp-lang-meta`'s [`ACCEPT_LANGUAGE_KEY`](mcp_lang_meta::ACCEPT_LANGUAGE_KEY),
/// re-exported under the name this crate has always used.
///
/// ```
/// assert_eq!(mcp_lang_rmcp::ACCEPT_LANGUAGE, mcp_lang_meta::ACCEPT_LANGUAGE_KEY);
/// ```
pub use mcp_lang_meta::ACCEPT_LANGUAGE_KEY as ACCEPT_LANGUAGE;

/// The response `_meta` key of the language actually used (SEP-2792):
/// `mcp-lang-meta`'s [`CONTENT_LANGUAGE_KEY`](mcp_lang_meta::CONTENT_LANGUAGE_KEY),
/// re-exported.
pub use mcp_lang_meta::CONTENT_LANGUAGE_KEY as CONTENT_LANGUAGE;

/// `mcp-lang-meta`'s crate, re-exported so an rmcp user reaches its types
/// (the [`ResponseCache`](mcp_lang_meta::ResponseCache), the writers, the
/// raw extraction) at the version this crate was built with.
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
