//! The transport-neutral MCP binding of SEP-2792 "Per-Request User Language Preference":
//! everything the SEP asks of a client or server except HTTP.
//!
//! A client puts the user's preference in `params._meta["io.modelcontextprotocol/acceptLanguage"]`
//! of each request, as an HTTP `Accept-Language` value. A server that honors it picks a
//! supported language (RFC 4647, `mcp-lang-match`), localizes the display text of its
//! response, never its identifiers, and reports the language used in
//! `_meta["io.modelcontextprotocol/contentLanguage"]`. Caches key responses by the raw
//! preference. This crate does each of those steps on `serde_json` values and raw bytes.
//!
//! Each step has a module whose docs explain it with the SEP's words; every item is also
//! re-exported here.
//!
//! | step | items |
//! |------|-------|
//! | send the preference (client) | [`PreferenceBuilder`], [`write_accept_language`] |
//! | read the preference | [`extract_accept_language`], [`skim_request`] (raw bytes, no allocation), [`accept_language_from_value`] |
//! | request scope and negotiation | [`RequestLanguage`] (raw value, well-formedness, selection; explicit language arguments via [`RequestLanguage::for_content`]) |
//! | report the language | [`write_content_language`], [`write_result_content_language`], [`write_error_content_language`], [`write_notification_content_language`]; read it back with [`extract_content_language`], [`content_language_from_value`] |
//! | translation boundary (D9) | [`display_fields`], [`Localizer`], [`Translator`], [`IdentifierGuard`] |
//! | the client's privacy | [`PreferenceBuilder`] (RFC 9110 §12.5.4; `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) |
//! | caching (D10) | [`ResponseCache`], [`CacheRequest`], [`Clock`] |
//!
//! # When to use it
//!
//! A stdio server or client needs nothing else. An HTTP server uses it under
//! `mcp-lang-http`, which adds the header mirroring and the agreement check. Don't use it
//! to parse or match language values themselves: that is `mcp-lang-grammar` and
//! `mcp-lang-match`, which this crate calls.
//!
//! # Example: a stdio server handling `tools/list`
//!
//! ```
//! use mcp_lang_match::Negotiator;
//! use mcp_lang_meta::{write_content_language, DisplayField, Localizer, RequestLanguage};
//! use serde_json::json;
//!
//! // Once, at start-up.
//! let negotiator = Negotiator::new(["en", "fr", "fr-CA", "de"], "en").unwrap();
//!
//! // Per request: read the preference from the bytes the transport delivered.
//! let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list",
//!   "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CA,fr;q=0.9,en;q=0.5"}}}"#;
//! let language = RequestLanguage::from_body(body, &negotiator).unwrap();
//! assert_eq!(language.selected(), "fr-CA");
//!
//! // Build the response, localize its display fields only, report the language.
//! let mut response = json!({"jsonrpc": "2.0", "id": 1, "result": {
//!     "tools": [{"name": "weather_current", "title": "Current weather",
//!                "inputSchema": {"type": "object"}}],
//!     "ttlMs": 300000, "cacheScope": "public"}});
//! let french = |_: &DisplayField, s: &str| (s == "Current weather").then(|| "Météo actuelle".to_owned());
//! Localizer::new(&french).localize(&mut response);
//! write_content_language(&mut response, language.selected()).unwrap();
//!
//! assert_eq!(response["result"]["tools"][0]["title"], "Météo actuelle");
//! assert_eq!(response["result"]["tools"][0]["name"], "weather_current");
//! assert_eq!(response["result"]["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr-CA");
//! ```
//!
//! # Limits
//!
//! The raw skim accepts JSON nested at most [`MAX_DEPTH`] (127) levels, as serde_json does
//! by default; it is linear in the body's length and allocates only to decode a captured
//! string that has escapes. The cache holds a bounded number of entries. Nothing here
//! keeps state across requests except the cache, which is keyed by the raw preference.

pub mod boundary;
pub mod cache;
pub mod extract;
pub mod preference;
pub mod request;
mod skim;
pub mod write;

pub use boundary::{
    Difference, DifferenceKind, DisplayField, DisplayLocation, IdentifierGuard, Localizer,
    Translator, display_fields,
};
pub use cache::{CacheRequest, CacheScope, Clock, ManualClock, ResponseCache, Stored, SystemClock};
pub use extract::{
    RawPreference, RequestSkim, accept_language_from_value, content_language_from_value,
    extract_accept_language, extract_content_language, skim_request,
};
pub use preference::PreferenceBuilder;
pub use request::RequestLanguage;
pub use skim::{ExtractError, ExtractErrorKind, MAX_DEPTH};
pub use write::{
    WriteError, write_accept_language, write_content_language, write_error_content_language,
    write_notification_content_language, write_result_content_language,
};

/// The request `_meta` key of the user's language preference (an `Accept-Language` value).
///
/// ```
/// assert_eq!(mcp_lang_meta::ACCEPT_LANGUAGE_KEY, "io.modelcontextprotocol/acceptLanguage");
/// ```
pub const ACCEPT_LANGUAGE_KEY: &str = "io.modelcontextprotocol/acceptLanguage";

/// The response (and notification) `_meta` key of the language used (a `Content-Language`
/// value).
///
/// ```
/// assert_eq!(mcp_lang_meta::CONTENT_LANGUAGE_KEY, "io.modelcontextprotocol/contentLanguage");
/// ```
pub const CONTENT_LANGUAGE_KEY: &str = "io.modelcontextprotocol/contentLanguage";

/// The README's examples, compiled and run with the doctests so they cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
