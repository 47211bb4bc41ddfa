#![doc = include_str!("../README.md")]

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
#[cfg(feature = "http-server")]
pub mod http;
#[cfg(feature = "http-client")]
pub mod http_client;
#[cfg(feature = "http-client-reqwest")]
pub mod reqwest_client;
#[cfg(feature = "server")]
pub mod server;
