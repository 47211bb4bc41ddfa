//! The client side: send a preference on a request and read the answer's
//! language.
//!
//! SEP-2792 makes the preference request-scoped: a client may send a different
//! one, or none, on every request. rmcp's `Peer<RoleClient>` sends a request with
//! extra `_meta` through `send_request_with_option`; [`send_with_preference`]
//! does that after checking the preference with [`check_preference`].
//!
//! Requests sent this way bypass rmcp's built-in response cache, which is not
//! keyed by the preference (see the crate docs).
//!
//! ```
//! use mcp_lang_rmcp::client::{PreferenceError, check_preference, preference_meta};
//!
//! let meta = preference_meta("fr-CA,fr;q=0.9,en;q=0.5").unwrap();
//! assert_eq!(meta.get("io.modelcontextprotocol/acceptLanguage").unwrap(), "fr-CA,fr;q=0.9,en;q=0.5");
//! // D8: a value HTTP cannot carry as one field line is refused, not sent.
//! assert!(matches!(check_preference("fr\r\nX: y"), Err(PreferenceError::NotFieldValue { offset: 2 })));
//! assert!(matches!(check_preference(" fr"), Err(PreferenceError::NotFieldValue { offset: 0 })));
//! ```

use mcp_lang_grammar::AcceptLanguage;
use rmcp::{
    RoleClient,
    model::{ClientRequest, MetaObject, RequestMetaObject, ServerResult},
    service::{Peer, PeerRequestOptions, ServiceError},
};
use serde_json::Value;

use crate::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};

/// Why a preference cannot be sent.
///
/// ```
/// use mcp_lang_rmcp::client::{PreferenceError, check_preference};
///
/// assert_eq!(check_preference("fr\tCA "), Err(PreferenceError::NotFieldValue { offset: 5 }));
/// assert_eq!(check_preference("fr-CA\u{e9}"), Err(PreferenceError::NotFieldValue { offset: 5 }));
/// assert!(matches!(check_preference("fr;q=1.5"), Err(PreferenceError::Malformed { .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PreferenceError {
    /// The value cannot be one HTTP field value (decision D8): a control
    /// character, a non-ASCII byte, or leading/trailing whitespace (which a
    /// receiver trims from the field line, so `_meta` and the header could not
    /// agree). `offset` is the byte offset of the first offending byte.
    NotFieldValue {
        /// Byte offset of the offending byte.
        offset: usize,
    },
    /// The `_meta` preference is present but not a JSON string, so no
    /// `Accept-Language` field could agree with it (decision D8: refuse rather
    /// than send `_meta` without its mirror).
    NotAString,
    /// The value is not a well-formed `Accept-Language` field value (RFC 9110
    /// §12.5.4), which the SEP says a client's value MUST be.
    Malformed {
        /// Byte offset of the first error.
        offset: usize,
        /// What the grammar expected there.
        expected: &'static str,
    },
}

impl std::fmt::Display for PreferenceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotFieldValue { offset } => write!(
                f,
                "the language preference cannot be sent as an HTTP field value (byte {offset})"
            ),
            Self::NotAString => f.write_str(
                "the language preference in _meta is not a string, so it cannot be mirrored into Accept-Language",
            ),
            Self::Malformed { offset, expected } => write!(
                f,
                "the language preference is not a well-formed Accept-Language value: expected {expected} at byte {offset}"
            ),
        }
    }
}

impl std::error::Error for PreferenceError {}

/// Checks that a preference can be sent: one HTTP field value (D8) and
/// well-formed `Accept-Language` grammar.
///
/// # Errors
///
/// [`PreferenceError`] saying which rule and where.
///
/// ```
/// use mcp_lang_rmcp::client::{PreferenceError, check_preference};
///
/// assert_eq!(check_preference("de-CH, de;q=0.9, *;q=0.1"), Ok(()));
/// assert_eq!(check_preference(""), Ok(())); // an empty list is well-formed
/// assert_eq!(check_preference("de\r\n"), Err(PreferenceError::NotFieldValue { offset: 2 }));
/// assert!(matches!(check_preference("de,,;"), Err(PreferenceError::Malformed { .. })));
/// ```
pub fn check_preference(preference: &str) -> Result<(), PreferenceError> {
    let bytes = preference.as_bytes();
    for (offset, &byte) in bytes.iter().enumerate() {
        let visible = (0x21..=0x7e).contains(&byte);
        let inner_space =
            (byte == b' ' || byte == b'\t') && offset != 0 && offset + 1 != bytes.len();
        if !visible && !inner_space {
            return Err(PreferenceError::NotFieldValue { offset });
        }
    }
    AcceptLanguage::parse(preference).map_err(|error| PreferenceError::Malformed {
        offset: error.offset(),
        expected: error.expected().as_str(),
    })?;
    Ok(())
}

/// A request `_meta` object carrying the preference, after [`check_preference`].
///
/// # Errors
///
/// [`PreferenceError`] when the preference cannot be sent.
///
/// ```
/// use mcp_lang_rmcp::client::{PreferenceError, preference_meta};
///
/// let meta = preference_meta("ja, en;q=0.5").unwrap();
/// assert_eq!(meta.get("io.modelcontextprotocol/acceptLanguage").unwrap(), "ja, en;q=0.5");
/// assert_eq!(meta.len(), 1);
/// assert_eq!(preference_meta(" ja").unwrap_err(), PreferenceError::NotFieldValue { offset: 0 });
/// ```
pub fn preference_meta(preference: &str) -> Result<RequestMetaObject, PreferenceError> {
    check_preference(preference)?;
    let mut meta = RequestMetaObject::new();
    meta.insert(
        ACCEPT_LANGUAGE_KEY.to_owned(),
        Value::String(preference.to_owned()),
    );
    Ok(meta)
}

/// Why [`send_with_preference`] failed.
///
/// ```
/// use std::error::Error;
/// use mcp_lang_rmcp::client::{PreferenceError, SendError, check_preference};
///
/// let error = SendError::Preference(check_preference("en\n").unwrap_err());
/// let source = error.source().unwrap().downcast_ref::<PreferenceError>();
/// assert_eq!(source, Some(&PreferenceError::NotFieldValue { offset: 2 }));
/// assert!(error.to_string().contains("HTTP field value"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum SendError {
    /// The preference cannot be sent; nothing was sent.
    Preference(PreferenceError),
    /// rmcp failed to send the request or got an error response.
    Service(ServiceError),
    /// The server answered a request of this method with a result of another
    /// type ([`cache::CachingClient`](crate::cache::CachingClient)).
    UnexpectedResult(&'static str),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Preference(e) => e.fmt(f),
            Self::Service(e) => e.fmt(f),
            Self::UnexpectedResult(method) => {
                write!(f, "the server answered {method} with another result type")
            }
        }
    }
}

impl std::error::Error for SendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Preference(e) => Some(e),
            Self::Service(e) => Some(e),
            Self::UnexpectedResult(_) => None,
        }
    }
}

/// Sends one request with `preference` in `params._meta` (or none, when
/// `None`: the SEP lets a client omit it on any request) and waits for the
/// result.
///
/// # Errors
///
/// [`SendError::Preference`] before sending anything, or rmcp's error.
///
/// ```
/// use mcp_lang_rmcp::client::{SendError, content_language, send_with_preference};
/// use rmcp::{Peer, RoleClient, model::{ClientRequest, ListToolsRequest}};
///
/// /// The language the server answered `tools/list` in for a Canadian French user.
/// async fn tools_language(peer: &Peer<RoleClient>) -> Result<Option<String>, SendError> {
///     let list = ClientRequest::ListToolsRequest(ListToolsRequest::default());
///     let result = send_with_preference(peer, list, Some("fr-CA,fr;q=0.9")).await?;
///     Ok(content_language(&result).map(str::to_owned))
/// }
/// ```
pub async fn send_with_preference(
    peer: &Peer<RoleClient>,
    request: ClientRequest,
    preference: Option<&str>,
) -> Result<ServerResult, SendError> {
    let mut options = PeerRequestOptions::no_options();
    if let Some(preference) = preference {
        options.meta = Some(preference_meta(preference).map_err(SendError::Preference)?);
    }
    let handle = peer
        .send_request_with_option(request, options)
        .await
        .map_err(SendError::Service)?;
    handle.await_response().await.map_err(SendError::Service)
}

/// The `_meta` object of a result, for the result types that have one.
///
/// ```
/// use mcp_lang_rmcp::client::result_meta;
/// use rmcp::model::{EmptyResult, ListPromptsResult, ServerResult};
///
/// let mut prompts = ListPromptsResult::default();
/// mcp_lang_rmcp::server::stamp(&mut prompts.meta, "de");
/// let result = ServerResult::ListPromptsResult(prompts);
/// assert_eq!(result_meta(&result).unwrap().get("io.modelcontextprotocol/contentLanguage").unwrap(), "de");
/// assert!(result_meta(&ServerResult::EmptyResult(EmptyResult {})).is_none());
/// ```
pub fn result_meta(result: &ServerResult) -> Option<&MetaObject> {
    match result {
        ServerResult::InitializeResult(r) => r.meta.as_ref(),
        ServerResult::DiscoverResult(r) => r.meta.as_ref(),
        ServerResult::CompleteResult(r) => r.meta.as_ref(),
        ServerResult::GetPromptResult(r) => r.meta.as_ref(),
        ServerResult::ListPromptsResult(r) => r.meta.as_ref(),
        ServerResult::ListResourcesResult(r) => r.meta.as_ref(),
        ServerResult::ListResourceTemplatesResult(r) => r.meta.as_ref(),
        ServerResult::ReadResourceResult(r) => r.meta.as_ref(),
        ServerResult::ListToolsResult(r) => r.meta.as_ref(),
        ServerResult::CallToolResult(r) => r.meta.as_ref(),
        ServerResult::InputRequiredResult(r) => r.meta.as_ref(),
        ServerResult::ElicitResult(r) => r.meta.as_ref(),
        _ => None,
    }
}

/// The `contentLanguage` a result reports, if any.
///
/// ```
/// use rmcp::model::{ListToolsResult, ServerResult};
/// let mut result = ListToolsResult::default();
/// result.meta = Some(serde_json::from_value(serde_json::json!({
///     "io.modelcontextprotocol/contentLanguage": "ga"
/// })).unwrap());
/// assert_eq!(mcp_lang_rmcp::client::content_language(&ServerResult::ListToolsResult(result)), Some("ga"));
/// ```
pub fn content_language(result: &ServerResult) -> Option<&str> {
    result_meta(result)
        .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
        .and_then(Value::as_str)
}
