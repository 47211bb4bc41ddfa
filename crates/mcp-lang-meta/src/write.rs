//! Writing the language values into messages: the client's preference
//! ([`write_accept_language`]) and, mostly, the server's report of the language used,
//! `io.modelcontextprotocol/contentLanguage`, where SEP-2792 puts it:
//!
//! - a successful or input-required response: `result._meta`;
//! - an error response whose user-facing text is localized: `error.data._meta`, where
//!   `data` "MUST be an object" (it is created as one when absent; a `data` that exists and
//!   is not an object is reported as [`WriteError::NotAnObject`] and left untouched, since
//!   overwriting it would destroy the server's error details);
//! - a localized notification associated with the request: `params._meta`.
//!
//! The value "MUST follow `Content-Language` syntax" (RFC 9110 §8.5: one or more language
//! tags), so each writer checks it first and refuses a malformed one with
//! [`WriteError::InvalidLanguage`]. `error.code` is never touched. An existing `_meta`
//! keeps its other keys; an existing `contentLanguage` is replaced.
//!
//! ```
//! use mcp_lang_meta::{write_content_language, WriteError};
//! use serde_json::json;
//!
//! let mut response = json!({"jsonrpc": "2.0", "id": 4, "result": {"content": [],
//!     "_meta": {"progressToken": 8}}});
//! write_content_language(&mut response, "de-CH").unwrap();
//! assert_eq!(response["result"]["_meta"]["io.modelcontextprotocol/contentLanguage"], "de-CH");
//! assert_eq!(response["result"]["_meta"]["progressToken"], 8);
//! assert!(matches!(write_content_language(&mut response, "de;q=0.5"), Err(WriteError::InvalidLanguage(_))));
//! ```

use std::fmt;

use mcp_lang_grammar::{AcceptLanguage, ContentLanguage, ParseError};
use serde_json::{Map, Value};

use crate::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};

/// Why a language value could not be written into a message.
///
/// ```
/// use mcp_lang_meta::{write_error_content_language, WriteError};
/// use serde_json::json;
///
/// let mut error = json!({"code": -32000, "message": "Échec", "data": "trace-41"});
/// let err = write_error_content_language(&mut error, "fr").unwrap_err();
/// assert_eq!(err, WriteError::NotAnObject { path: "/error/data" });
/// assert_eq!(error["data"], "trace-41"); // reported, not overwritten
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WriteError {
    /// A member on the way to `_meta` exists but is not an object (path as a JSON
    /// Pointer from the message root, e.g. `/error/data`).
    NotAnObject {
        /// Where, as a JSON Pointer.
        path: &'static str,
    },
    /// The message is neither a response (`result` or `error`) nor a notification
    /// (`method` without `id`).
    NotAResponseOrNotification,
    /// The message is not a request (it has no `method`).
    NotARequest,
    /// The value is not well formed: not a `Content-Language` value (RFC 9110 §8.5) for
    /// `contentLanguage`, not an `Accept-Language` value (§12.5.4) for `acceptLanguage`.
    InvalidLanguage(ParseError),
    /// The value parses (a recipient accepts empty list elements, RFC 9110 §5.6.1) but
    /// has an empty list element, which "a sender MUST NOT generate" (same section):
    /// `en,,fr`, `,en` or `en, `. `offset` is the byte where the empty element starts.
    ///
    /// ```
    /// use mcp_lang_meta::{write_result_content_language, WriteError};
    /// use serde_json::json;
    ///
    /// let mut result = json!({});
    /// let err = write_result_content_language(&mut result, "en,,fr").unwrap_err();
    /// assert_eq!(err, WriteError::EmptyListElement { offset: 3 });
    /// assert_eq!(result, json!({}));
    /// ```
    EmptyListElement {
        /// The byte offset of the empty element in the value.
        offset: usize,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NotAnObject { path } => {
                write!(
                    f,
                    "cannot write a language value: {path} exists and is not an object"
                )
            }
            WriteError::NotAResponseOrNotification => f.write_str(
                "cannot write contentLanguage: the message is not a response or a notification",
            ),
            WriteError::NotARequest => {
                f.write_str("cannot write acceptLanguage: the message is not a request")
            }
            WriteError::InvalidLanguage(e) => {
                write!(f, "cannot write a malformed language value ({e})")
            }
            WriteError::EmptyListElement { offset } => write!(
                f,
                "cannot write a language value with an empty list element at byte {offset} \
                 (a sender must not generate one, RFC 9110 section 5.6.1)"
            ),
        }
    }
}

impl std::error::Error for WriteError {}

/// Writes `contentLanguage` into a result object's `_meta` (`result` is the value of the
/// response's `result` member).
///
/// ```
/// use mcp_lang_meta::write_result_content_language;
/// use serde_json::json;
///
/// let mut result = json!({"tools": [], "ttlMs": 300000, "cacheScope": "public"});
/// write_result_content_language(&mut result, "fr-CA").unwrap();
/// assert_eq!(result["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr-CA");
/// ```
pub fn write_result_content_language(result: &mut Value, language: &str) -> Result<(), WriteError> {
    check(language)?;
    let result = as_object(result, "/result")?;
    set_in_meta(result, language, "/result/_meta")
}

/// Writes `contentLanguage` into an error object's `data._meta`, creating `data` as an
/// object when it is absent (or `null`). `code` and `message` are left as they are.
///
/// ```
/// use mcp_lang_meta::write_error_content_language;
/// use serde_json::json;
///
/// let mut error = json!({"code": -32602, "message": "Argument invalide"});
/// write_error_content_language(&mut error, "fr").unwrap();
/// assert_eq!(error, json!({"code": -32602, "message": "Argument invalide",
///     "data": {"_meta": {"io.modelcontextprotocol/contentLanguage": "fr"}}}));
/// ```
pub fn write_error_content_language(error: &mut Value, language: &str) -> Result<(), WriteError> {
    check(language)?;
    let error = as_object(error, "/error")?;
    let data = error
        .entry("data")
        .or_insert_with(|| Value::Object(Map::new()));
    if data.is_null() {
        *data = Value::Object(Map::new());
    }
    let data = as_object(data, "/error/data")?;
    set_in_meta(data, language, "/error/data/_meta")
}

/// Writes `contentLanguage` into a notification's `params._meta` (`params` is the value of
/// the notification's `params` member).
///
/// ```
/// use mcp_lang_meta::write_notification_content_language;
/// use serde_json::json;
///
/// let mut params = json!({"progressToken": "t1", "progress": 2, "message": "Fortschritt"});
/// write_notification_content_language(&mut params, "de").unwrap();
/// assert_eq!(params["_meta"]["io.modelcontextprotocol/contentLanguage"], "de");
/// ```
pub fn write_notification_content_language(
    params: &mut Value,
    language: &str,
) -> Result<(), WriteError> {
    check(language)?;
    let params = as_object(params, "/params")?;
    set_in_meta(params, language, "/params/_meta")
}

/// Writes `contentLanguage` into a whole JSON-RPC message, in the place its kind calls
/// for: `result._meta` of a success, `error.data._meta` of an error, `params._meta` of a
/// notification (creating `params` when absent).
///
/// ```
/// use mcp_lang_meta::write_content_language;
/// use serde_json::json;
///
/// let mut response = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}});
/// write_content_language(&mut response, "ja").unwrap();
/// assert_eq!(response["result"]["_meta"]["io.modelcontextprotocol/contentLanguage"], "ja");
///
/// let mut request = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
/// assert!(write_content_language(&mut request, "ja").is_err());
/// ```
pub fn write_content_language(message: &mut Value, language: &str) -> Result<(), WriteError> {
    check(language)?;
    let message = as_object(message, "")?;
    if let Some(result) = message.get_mut("result") {
        return write_result_content_language(result, language);
    }
    if let Some(error) = message.get_mut("error") {
        return write_error_content_language(error, language);
    }
    if message.contains_key("method") && !message.contains_key("id") {
        let params = message
            .entry("params")
            .or_insert_with(|| Value::Object(Map::new()));
        return write_notification_content_language(params, language);
    }
    Err(WriteError::NotAResponseOrNotification)
}

fn as_object<'v>(
    value: &'v mut Value,
    path: &'static str,
) -> Result<&'v mut Map<String, Value>, WriteError> {
    value
        .as_object_mut()
        .ok_or(WriteError::NotAnObject { path })
}

fn set_in_meta(
    container: &mut Map<String, Value>,
    language: &str,
    path: &'static str,
) -> Result<(), WriteError> {
    let meta = container
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    let meta = as_object(meta, path)?;
    meta.insert(
        CONTENT_LANGUAGE_KEY.to_owned(),
        Value::String(language.to_owned()),
    );
    Ok(())
}

fn check(language: &str) -> Result<(), WriteError> {
    ContentLanguage::parse(language).map_err(WriteError::InvalidLanguage)?;
    no_empty_element(language)
}

/// Refuses a value with an empty list element (RFC 9110 §5.6.1: a recipient accepts
/// them, "a sender MUST NOT generate" them). Only for values that already parsed: neither
/// grammar has quoted strings, so every `,` separates list elements.
fn no_empty_element(value: &str) -> Result<(), WriteError> {
    let mut start = 0;
    for element in value.split(',') {
        if element.trim_matches([' ', '\t']).is_empty() {
            return Err(WriteError::EmptyListElement { offset: start });
        }
        start += element.len() + 1;
    }
    Ok(())
}

/// Puts the user's preference into a request's `params._meta` (creating `params` and
/// `_meta` when absent), after checking that it is a well-formed `Accept-Language` value:
/// SEP-2792 says the value "MUST conform to the HTTP `Accept-Language` field-value
/// grammar". Call it on every request a client sends (build the value with
/// [`PreferenceBuilder`](crate::PreferenceBuilder)).
///
/// ```
/// use mcp_lang_meta::{write_accept_language, WriteError};
/// use serde_json::json;
///
/// let mut request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
/// write_accept_language(&mut request, "fr-CA,fr;q=0.9").unwrap();
/// assert_eq!(request["params"]["_meta"]["io.modelcontextprotocol/acceptLanguage"], "fr-CA,fr;q=0.9");
///
/// assert!(matches!(write_accept_language(&mut request, "fr_CA"), Err(WriteError::InvalidLanguage(_))));
/// ```
pub fn write_accept_language(request: &mut Value, preference: &str) -> Result<(), WriteError> {
    AcceptLanguage::parse(preference).map_err(WriteError::InvalidLanguage)?;
    // An empty value is a list of no elements (no preference), not an empty element.
    if !preference.is_empty() {
        no_empty_element(preference)?;
    }
    let request = as_object(request, "")?;
    if !request.contains_key("method") {
        return Err(WriteError::NotARequest);
    }
    let params = request
        .entry("params")
        .or_insert_with(|| Value::Object(Map::new()));
    let params = as_object(params, "/params")?;
    let meta = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    let meta = as_object(meta, "/params/_meta")?;
    meta.insert(
        ACCEPT_LANGUAGE_KEY.to_owned(),
        Value::String(preference.to_owned()),
    );
    Ok(())
}
