//! Reading the language values out of a JSON-RPC message, from raw bytes or from a
//! `serde_json::Value`.
//!
//! The preference lives at `params._meta["io.modelcontextprotocol/acceptLanguage"]` of a
//! request; the reported language at `result._meta[…contentLanguage]` of a response,
//! `error.data._meta[…contentLanguage]` of an error response, and
//! `params._meta[…contentLanguage]` of a notification. Each read gives a
//! [`RawPreference`]: absent, a string, or present but not a string.
//!
//! Two paths give the same answers:
//!
//! - **Raw bytes** ([`skim_request`], [`extract_accept_language`],
//!   [`extract_content_language`]): the hot path of an HTTP server, which has the POST body
//!   as bytes and must compare the preference with `Accept-Language` before anything else.
//!   One validating pass over the body, skipping everything but the few members it needs;
//!   no allocation unless the captured string has JSON escapes; nesting bounded by
//!   [`MAX_DEPTH`](crate::MAX_DEPTH). Invalid JSON is an [`ExtractError`], never a panic.
//! - **A parsed `Value`** ([`accept_language_from_value`], [`content_language_from_value`]):
//!   for code that already holds the message, such as a stdio server.
//!
//! A POST carries one JSON-RPC message; a body whose top level is not an object (a batch
//! array, a bare string) has no `_meta` to read, so every value is absent.
//!
//! ```
//! use mcp_lang_meta::{accept_language_from_value, extract_accept_language, RawPreference};
//!
//! let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list",
//!   "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"es-MX, es;q=0.9"}}}"#;
//! let from_bytes = extract_accept_language(body).unwrap();
//! let parsed: serde_json::Value = serde_json::from_slice(body).unwrap();
//! assert_eq!(accept_language_from_value(&parsed), from_bytes);
//! assert_eq!(from_bytes, RawPreference::String("es-MX, es;q=0.9".into()));
//! ```

use std::borrow::Cow;

use mcp_lang_agree::MetaValue;
use serde_json::Value;

use crate::skim::{Captured, ExtractError, Fields, skim_message};
use crate::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};

/// A language value as found in `_meta`, before any grammar check.
///
/// The string is borrowed from the body unless the JSON string had escapes (`"\u0065n"`),
/// which must be decoded. Keep it raw: agreement (SEP-2792) and cache keys (decision D10)
/// use exactly this string.
///
/// ```
/// use mcp_lang_meta::{extract_accept_language, RawPreference};
///
/// let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list",
///   "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CA,fr;q=0.9"}}}"#;
/// let raw = extract_accept_language(body).unwrap();
/// assert_eq!(raw.as_str(), Some("fr-CA,fr;q=0.9"));
/// assert!(matches!(raw, RawPreference::String(std::borrow::Cow::Borrowed(_))));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RawPreference<'a> {
    /// No such key (or no `_meta`, or no `params`).
    #[default]
    Absent,
    /// The key holds a string; this is its decoded value.
    String(Cow<'a, str>),
    /// The key holds a number, `null`, an object…: never a usable preference, and never in
    /// agreement with a present header (decision D5).
    NotString,
}

impl<'a> RawPreference<'a> {
    /// The string, if the key holds one.
    ///
    /// ```
    /// use mcp_lang_meta::RawPreference;
    /// assert_eq!(RawPreference::String("de".into()).as_str(), Some("de"));
    /// assert_eq!(RawPreference::NotString.as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            RawPreference::String(s) => Some(s),
            RawPreference::Absent | RawPreference::NotString => None,
        }
    }

    /// The same value, as `mcp-lang-agree` takes it.
    ///
    /// ```
    /// use mcp_lang_agree::{agree, Agreement};
    /// use mcp_lang_meta::RawPreference;
    ///
    /// let raw = RawPreference::String("en-US".into());
    /// assert_eq!(agree(raw.as_meta_value(), [&b"en-US"[..]]), Agreement::Agree);
    /// ```
    pub fn as_meta_value(&self) -> MetaValue<'_> {
        match self {
            RawPreference::Absent => MetaValue::Absent,
            RawPreference::String(s) => MetaValue::String(s),
            RawPreference::NotString => MetaValue::NotString,
        }
    }

    /// Whether the key is present (a string or not).
    ///
    /// ```
    /// use mcp_lang_meta::RawPreference;
    ///
    /// assert!(RawPreference::NotString.is_present());
    /// assert!(RawPreference::String("".into()).is_present());
    /// assert!(!RawPreference::Absent.is_present());
    /// ```
    pub fn is_present(&self) -> bool {
        !matches!(self, RawPreference::Absent)
    }

    /// An owned copy, independent of the body.
    ///
    /// ```
    /// use mcp_lang_meta::RawPreference;
    ///
    /// let owned: RawPreference<'static> = {
    ///     let body = String::from("en");
    ///     RawPreference::String(body.as_str().into()).into_owned()
    /// };
    /// assert_eq!(owned.as_str(), Some("en"));
    /// ```
    pub fn into_owned(self) -> RawPreference<'static> {
        match self {
            RawPreference::Absent => RawPreference::Absent,
            RawPreference::String(s) => RawPreference::String(Cow::Owned(s.into_owned())),
            RawPreference::NotString => RawPreference::NotString,
        }
    }

    fn from_value(value: Option<&'a Value>) -> Self {
        match value {
            None => RawPreference::Absent,
            Some(Value::String(s)) => RawPreference::String(Cow::Borrowed(s)),
            Some(_) => RawPreference::NotString,
        }
    }
}

/// What one pass over a request body found: the preference, and the request's `id` and
/// `method` (for the HTTP binding's `-32020` error, which must echo the id).
///
/// ```
/// use mcp_lang_meta::skim_request;
///
/// let body = br#"{"jsonrpc":"2.0","id":"req-7","method":"tools/call",
///   "params":{"name":"weather_current","arguments":{"city":"Montr\u00e9al"},
///             "_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CA"}}}"#;
/// let skim = skim_request(body).unwrap();
/// assert_eq!(skim.accept_language().as_str(), Some("fr-CA"));
/// assert_eq!(skim.id(), Some(r#""req-7""#)); // raw JSON text, ready to echo
/// assert_eq!(skim.method(), Some("tools/call"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestSkim<'a> {
    accept_language: RawPreference<'a>,
    // The id and the method as UTF-8 bytes, already checked: turned into text only when
    // asked for, since a server that only checks the preference never needs them.
    id: Option<&'a [u8]>,
    method: Option<Cow<'a, [u8]>>,
}

impl<'a> RequestSkim<'a> {
    /// `params._meta["io.modelcontextprotocol/acceptLanguage"]`.
    ///
    /// ```
    /// use mcp_lang_meta::{skim_request, RawPreference};
    ///
    /// let skim = skim_request(br#"{"id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":null}}}"#).unwrap();
    /// assert_eq!(skim.accept_language(), &RawPreference::NotString);
    /// ```
    pub fn accept_language(&self) -> &RawPreference<'a> {
        &self.accept_language
    }

    /// The preference, by value.
    ///
    /// ```
    /// use mcp_lang_meta::skim_request;
    ///
    /// let body = br#"{"id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"ja"}}}"#;
    /// let raw = skim_request(body).unwrap().into_accept_language();
    /// assert_eq!(raw.as_str(), Some("ja"));
    /// ```
    pub fn into_accept_language(self) -> RawPreference<'a> {
        self.accept_language
    }

    /// The raw JSON text of the top-level `id` (`1`, `"abc"`, `null`…), exactly as in
    /// the body, or `None` for a notification. Embed it verbatim in an error response.
    ///
    /// ```
    /// use mcp_lang_meta::skim_request;
    ///
    /// assert_eq!(skim_request(br#"{"id": 42 ,"method":"ping"}"#).unwrap().id(), Some("42"));
    /// assert_eq!(skim_request(br#"{"method":"notifications/initialized"}"#).unwrap().id(), None);
    /// ```
    pub fn id(&self) -> Option<&'a str> {
        self.id.and_then(|raw| core::str::from_utf8(raw).ok())
    }

    /// The top-level `method`, when it is a string.
    ///
    /// ```
    /// use mcp_lang_meta::skim_request;
    ///
    /// assert_eq!(skim_request(br#"{"id":1,"method":"tools/list"}"#).unwrap().method(), Some("tools/list"));
    /// assert_eq!(skim_request(br#"{"id":1,"method":7}"#).unwrap().method(), None);
    /// ```
    pub fn method(&self) -> Option<&str> {
        self.method
            .as_deref()
            .and_then(|raw| core::str::from_utf8(raw).ok())
    }
}

/// Skims a request body once: validates it as JSON and returns the preference, `id` and
/// `method` (see [`RequestSkim`]). Allocates only to decode a captured string with
/// escapes.
///
/// ```
/// use mcp_lang_meta::{skim_request, RawPreference};
///
/// let skim = skim_request(br#"{"id":3,"method":"ping"}"#).unwrap();
/// assert_eq!(skim.accept_language(), &RawPreference::Absent);
/// assert_eq!(skim.id(), Some("3"));
/// assert!(skim_request(b"{\"id\":3,").is_err());
/// ```
pub fn skim_request(body: &[u8]) -> Result<RequestSkim<'_>, ExtractError> {
    let Captured {
        id, method, params, ..
    } = skim_message(body, ACCEPT_LANGUAGE_KEY, Fields::IdAndMethod)?;
    Ok(RequestSkim {
        accept_language: params,
        id,
        method,
    })
}

/// Reads `params._meta["io.modelcontextprotocol/acceptLanguage"]` straight from request
/// bytes (see [`skim_request`] to get the id and method in the same pass).
///
/// ```
/// use mcp_lang_meta::{extract_accept_language, RawPreference};
///
/// let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":42}}}"#;
/// assert_eq!(extract_accept_language(body).unwrap(), RawPreference::NotString);
/// ```
pub fn extract_accept_language(body: &[u8]) -> Result<RawPreference<'_>, ExtractError> {
    skim_request(body).map(RequestSkim::into_accept_language)
}

/// Reads `contentLanguage` straight from the bytes of a response or notification: from
/// `result._meta` when the message has a `result`, else from `error.data._meta` when it
/// has an `error`, else from `params._meta` (a notification).
///
/// ```
/// use mcp_lang_meta::extract_content_language;
///
/// let ok = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[],"_meta":{"io.modelcontextprotocol/contentLanguage":"fr-CA"}}}"#;
/// assert_eq!(extract_content_language(ok).unwrap().as_str(), Some("fr-CA"));
/// let err = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Argument invalide",
///   "data":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}}"#;
/// assert_eq!(extract_content_language(err).unwrap().as_str(), Some("fr"));
/// ```
pub fn extract_content_language(body: &[u8]) -> Result<RawPreference<'_>, ExtractError> {
    let c = skim_message(body, CONTENT_LANGUAGE_KEY, Fields::MetaOnly)?;
    Ok(if c.has_result {
        c.result
    } else if c.has_error {
        c.error
    } else {
        c.params
    })
}

/// Reads `params._meta["io.modelcontextprotocol/acceptLanguage"]` from a parsed message.
/// Gives the same answer as [`extract_accept_language`] on the message's bytes.
///
/// ```
/// use mcp_lang_meta::accept_language_from_value;
/// use serde_json::json;
///
/// let msg = json!({"jsonrpc":"2.0","id":1,"method":"tools/list",
///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}});
/// assert_eq!(accept_language_from_value(&msg).as_str(), Some("de"));
/// ```
pub fn accept_language_from_value(message: &Value) -> RawPreference<'_> {
    RawPreference::from_value(
        meta_of(message.get("params")).and_then(|m| m.get(ACCEPT_LANGUAGE_KEY)),
    )
}

/// Reads `contentLanguage` from a parsed response or notification, with the same rules as
/// [`extract_content_language`].
///
/// ```
/// use mcp_lang_meta::content_language_from_value;
/// use serde_json::json;
///
/// let note = json!({"jsonrpc":"2.0","method":"notifications/progress",
///     "params":{"progressToken":"t1","progress":1,"message":"Téléchargement…",
///               "_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}});
/// assert_eq!(content_language_from_value(&note).as_str(), Some("fr"));
/// ```
pub fn content_language_from_value(message: &Value) -> RawPreference<'_> {
    let meta = if let Some(result) = message.get("result") {
        meta_of(Some(result))
    } else if let Some(error) = message.get("error") {
        meta_of(error.get("data"))
    } else {
        meta_of(message.get("params"))
    };
    RawPreference::from_value(meta.and_then(|m| m.get(CONTENT_LANGUAGE_KEY)))
}

/// `container._meta`, when `container` is an object with an object `_meta`.
fn meta_of(container: Option<&Value>) -> Option<&serde_json::Map<String, Value>> {
    container?.as_object()?.get("_meta")?.as_object()
}
