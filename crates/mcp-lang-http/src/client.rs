//! The client side: sending the preference, checking what comes back.
//!
//! A Streamable HTTP client that puts `acceptLanguage` in a request's `_meta` must send
//! one `Accept-Language` field line with exactly the same value ([`set_accept_language`]).
//! A preference that cannot be a field value is refused with a typed error rather than
//! sent in `_meta` alone (decision D8): a header that disappears on the way would be
//! tolerated by the server, but one that the HTTP library silently rewrites would not.
//!
//! On the way back, a JSON response whose `Content-Language` disagrees with its
//! `contentLanguage` is malformed ([`check_json_response`]); on an event stream with a
//! `Content-Language` header, every message's `contentLanguage` must agree with it
//! ([`EventStreamLanguage`]).
//!
//! ```
//! use http::{HeaderMap, header::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE}, HeaderValue};
//! use mcp_lang_http::{check_json_response, set_accept_language};
//!
//! let mut request = HeaderMap::new();
//! set_accept_language(&mut request, "fr-CA,fr;q=0.9").unwrap();
//! assert_eq!(request[ACCEPT_LANGUAGE], "fr-CA,fr;q=0.9");
//!
//! let mut response = HeaderMap::new();
//! response.insert(CONTENT_LANGUAGE, HeaderValue::from_static("fr-ca"));
//! let body = br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr-CA"}}}"#;
//! let err = check_json_response(&response, body).unwrap_err();
//! assert_eq!(err.header_value(), "fr-ca");
//! ```

use std::fmt;

use http::HeaderMap;
use http::header::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE, HeaderValue};
use mcp_lang_agree::{Agreement, JoinedLines, MetaValue, agree};

use mcp_lang_meta::{RawPreference, extract_content_language};

/// Why a string cannot be sent as an HTTP field value that a receiver reads back
/// unchanged (decision D8).
///
/// ```
/// use mcp_lang_http::{set_accept_language, FieldValueErrorKind};
/// use http::HeaderMap;
///
/// let err = set_accept_language(&mut HeaderMap::new(), "en\r\nX-Injected: 1").unwrap_err();
/// assert_eq!((err.offset(), err.kind()), (2, FieldValueErrorKind::Control));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldValueError {
    offset: usize,
    kind: FieldValueErrorKind,
}

/// What is wrong at [`FieldValueError::offset`].
///
/// ```
/// use http::HeaderMap;
/// use mcp_lang_http::{set_accept_language, FieldValueErrorKind};
///
/// let kind = |value| set_accept_language(&mut HeaderMap::new(), value).unwrap_err().kind();
/// assert_eq!(kind("fr\n"), FieldValueErrorKind::Control);
/// assert_eq!(kind("français"), FieldValueErrorKind::NonAscii);
/// assert_eq!(kind("fr "), FieldValueErrorKind::SurroundingWhitespace);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldValueErrorKind {
    /// A control character (U+0000–U+001F other than HTAB, or U+007F): CR and LF would
    /// split the header, the others are forbidden in field values (RFC 9110 §5.5).
    Control,
    /// A character outside ASCII. Field values would carry it as opaque bytes
    /// (`obs-text`), and neither language grammar allows it.
    NonAscii,
    /// SP or HTAB at the start or end. It is not part of a field value (RFC 9110 §5.5),
    /// so the receiver would compare a different string than `_meta` holds.
    SurroundingWhitespace,
}

impl FieldValueError {
    /// The error for a value `HeaderValue` refuses although it passed the checks (not
    /// expected: the checks are stricter).
    pub(crate) fn control() -> Self {
        FieldValueError {
            offset: 0,
            kind: FieldValueErrorKind::Control,
        }
    }

    /// The byte offset of the first offending character.
    ///
    /// ```
    /// use http::HeaderMap;
    /// use mcp_lang_http::set_accept_language;
    ///
    /// let err = set_accept_language(&mut HeaderMap::new(), "de, en\t").unwrap_err();
    /// assert_eq!(err.offset(), 6);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong there.
    ///
    /// ```
    /// use http::HeaderMap;
    /// use mcp_lang_http::{set_accept_language, FieldValueErrorKind};
    ///
    /// let err = set_accept_language(&mut HeaderMap::new(), "Ελληνικά").unwrap_err();
    /// assert_eq!(err.kind(), FieldValueErrorKind::NonAscii);
    /// ```
    pub fn kind(&self) -> FieldValueErrorKind {
        self.kind
    }
}

impl fmt::Display for FieldValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            FieldValueErrorKind::Control => "a control character",
            FieldValueErrorKind::NonAscii => "a non-ASCII character",
            FieldValueErrorKind::SurroundingWhitespace => "leading or trailing whitespace",
        };
        write!(
            f,
            "cannot be sent as an HTTP field value: {what} at byte {}",
            self.offset
        )
    }
}

impl std::error::Error for FieldValueError {}

/// Checks that `value` is a field value a receiver reads back byte for byte, and makes
/// the [`HeaderValue`].
pub(crate) fn field_value(value: &str) -> Result<HeaderValue, FieldValueError> {
    check_field_value(value)?;
    // Visible ASCII, SP and HTAB only: always a valid `HeaderValue`.
    HeaderValue::from_str(value).map_err(|_| FieldValueError::control())
}

/// Checks that `value` is a field value a receiver reads back byte for byte.
pub(crate) fn check_field_value(value: &str) -> Result<(), FieldValueError> {
    let bytes = value.as_bytes();
    if let Some(offset) = bytes.iter().position(|&b| b >= 0x80) {
        return Err(FieldValueError {
            offset,
            kind: FieldValueErrorKind::NonAscii,
        });
    }
    if let Some(offset) = bytes
        .iter()
        .position(|&b| (b < 0x20 && b != b'\t') || b == 0x7f)
    {
        return Err(FieldValueError {
            offset,
            kind: FieldValueErrorKind::Control,
        });
    }
    let is_ows = |b: &u8| *b == b' ' || *b == b'\t';
    if bytes.first().is_some_and(is_ows) {
        return Err(FieldValueError {
            offset: 0,
            kind: FieldValueErrorKind::SurroundingWhitespace,
        });
    }
    if bytes.last().is_some_and(is_ows) {
        return Err(FieldValueError {
            offset: bytes.len() - 1,
            kind: FieldValueErrorKind::SurroundingWhitespace,
        });
    }
    Ok(())
}

/// Sets `Accept-Language` to exactly one field line equal to `preference`, the
/// request's `_meta` value, replacing any line already there (a default set by the HTTP
/// library included).
///
/// The value is sent untouched, even when it is not well-formed `Accept-Language`:
/// agreement is lexical, and grammar is the server's business. A value that cannot be a
/// field value is refused (decision D8) and the headers are left unchanged; the caller
/// should then not send the request with this preference in `_meta` either.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
/// use mcp_lang_http::set_accept_language;
///
/// let mut headers = HeaderMap::new();
/// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("*"));
/// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("de"));
/// set_accept_language(&mut headers, "ja, en;q=0.5").unwrap();
/// assert_eq!(headers.get_all(ACCEPT_LANGUAGE).iter().count(), 1);
/// assert_eq!(headers[ACCEPT_LANGUAGE], "ja, en;q=0.5");
///
/// assert!(set_accept_language(&mut headers, " ja").is_err());
/// assert!(set_accept_language(&mut headers, "日本語").is_err());
/// ```
pub fn set_accept_language(
    headers: &mut HeaderMap,
    preference: &str,
) -> Result<(), FieldValueError> {
    let value = field_value(preference)?;
    headers.insert(ACCEPT_LANGUAGE, value);
    Ok(())
}

/// A response whose `Content-Language` does not agree with the `contentLanguage` it
/// carries: the SEP calls it malformed.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
/// use mcp_lang_agree::MetaValue;
/// use mcp_lang_http::verify_content_language;
///
/// let mut headers = HeaderMap::new();
/// headers.append(CONTENT_LANGUAGE, HeaderValue::from_static("de"));
/// headers.append(CONTENT_LANGUAGE, HeaderValue::from_static("de"));
/// // Repeated lines combine to "de, de", which is not "de".
/// let err = verify_content_language(&headers, MetaValue::String("de")).unwrap_err();
/// assert_eq!(err.line_count(), 2);
/// assert!(err.to_string().contains("malformed response"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedResponse {
    meta_value: Option<String>,
    header_value: String,
    line_count: usize,
    detail: String,
}

impl MalformedResponse {
    /// The `contentLanguage` string, or `None` when it is not a string.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::verify_content_language;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("en"));
    /// let err = verify_content_language(&headers, MetaValue::String("en-GB")).unwrap_err();
    /// assert_eq!(err.meta_value(), Some("en-GB"));
    /// let err = verify_content_language(&headers, MetaValue::NotString).unwrap_err();
    /// assert_eq!(err.meta_value(), None);
    /// ```
    pub fn meta_value(&self) -> Option<&str> {
        self.meta_value.as_deref()
    }

    /// The `Content-Language` value as compared (lines trimmed and joined with `", "`).
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::verify_content_language;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.append(CONTENT_LANGUAGE, HeaderValue::from_static("fr "));
    /// headers.append(CONTENT_LANGUAGE, HeaderValue::from_static("en"));
    /// let err = verify_content_language(&headers, MetaValue::String("fr")).unwrap_err();
    /// assert_eq!(err.header_value(), "fr, en");
    /// ```
    pub fn header_value(&self) -> &str {
        &self.header_value
    }

    /// How many `Content-Language` field lines the response had.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::verify_content_language;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("ja"));
    /// let err = verify_content_language(&headers, MetaValue::String("ko")).unwrap_err();
    /// assert_eq!(err.line_count(), 1);
    /// ```
    pub fn line_count(&self) -> usize {
        self.line_count
    }
}

impl fmt::Display for MalformedResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "malformed response: Content-Language does not agree with contentLanguage: {}",
            self.detail
        )
    }
}

impl std::error::Error for MalformedResponse {}

/// Checks `Content-Language` lines against one message's `contentLanguage`. `lines`
/// makes a fresh iterator over the lines each time it is called.
fn verify_lines<'a, I>(lines: impl Fn() -> I, meta: MetaValue<'a>) -> Result<(), MalformedResponse>
where
    I: Iterator<Item = &'a HeaderValue>,
{
    match agree(meta, lines().map(HeaderValue::as_bytes)) {
        Agreement::Agree | Agreement::HeaderAbsent | Agreement::BareHeader => Ok(()),
        Agreement::Mismatch(m) => {
            let all: Vec<&[u8]> = lines().map(HeaderValue::as_bytes).collect();
            Err(MalformedResponse {
                meta_value: meta.as_str().map(str::to_owned),
                header_value: JoinedLines::new(all.iter().copied()).to_string(),
                line_count: all.len(),
                detail: m.to_string(),
            })
        }
    }
}

/// Checks a response's `Content-Language` field lines against the `contentLanguage` of
/// its body. No header, or no `contentLanguage`, is fine (there is nothing to
/// contradict); a header that disagrees, including repeated lines whose combination
/// disagrees, is a [`MalformedResponse`].
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
/// use mcp_lang_agree::MetaValue;
/// use mcp_lang_http::verify_content_language;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static(" fr-CA "));
/// assert!(verify_content_language(&headers, MetaValue::String("fr-CA")).is_ok());
/// assert!(verify_content_language(&headers, MetaValue::String("fr")).is_err());
/// assert!(verify_content_language(&headers, MetaValue::Absent).is_ok());
/// ```
pub fn verify_content_language(
    headers: &HeaderMap,
    meta: MetaValue<'_>,
) -> Result<(), MalformedResponse> {
    let lines = headers.get_all(CONTENT_LANGUAGE);
    verify_lines(|| lines.iter(), meta)
}

/// Finds the `contentLanguage` of a JSON-RPC response body (`result._meta`, else
/// `error.data._meta`; a body that is not JSON reports nothing) and checks the response's `Content-Language` against it. Returns
/// what the body reports.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
/// use mcp_lang_http::check_json_response;
/// use mcp_lang_meta::RawPreference;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("ja"));
/// let body = r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"無効な引数",
///     "data":{"_meta":{"io.modelcontextprotocol/contentLanguage":"ja"}}}}"#;
/// let found = check_json_response(&headers, body.as_bytes()).unwrap();
/// assert_eq!(found, RawPreference::String("ja".into()));
/// ```
pub fn check_json_response<'b>(
    headers: &HeaderMap,
    body: &'b [u8],
) -> Result<RawPreference<'b>, MalformedResponse> {
    let found = extract_content_language(body).unwrap_or_default();
    verify_content_language(headers, found.as_meta_value())?;
    Ok(found)
}

/// The `Content-Language` of an event stream, kept to check each message against it.
///
/// The header of an SSE response is fixed before its messages exist. When a server sends
/// one anyway, it promises that every message's `contentLanguage` agrees with it; a
/// message that does not is a malformed response. Messages without `contentLanguage` are
/// fine, and a stream without the header has nothing to check.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
/// use mcp_lang_http::EventStreamLanguage;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("de"));
/// let stream = EventStreamLanguage::from_headers(&headers);
///
/// let progress = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,
///     "message":"Fertig","_meta":{"io.modelcontextprotocol/contentLanguage":"de"}}}"#;
/// assert!(stream.check_message(progress).is_ok());
///
/// let result = br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"en"}}}"#;
/// assert!(stream.check_message(result).is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventStreamLanguage {
    lines: Vec<HeaderValue>,
}

impl EventStreamLanguage {
    /// Keeps the stream's `Content-Language` lines (none when it has no such header).
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
    /// use mcp_lang_http::EventStreamLanguage;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("ga"));
    /// assert!(EventStreamLanguage::from_headers(&headers).is_declared());
    /// ```
    pub fn from_headers(headers: &HeaderMap) -> Self {
        EventStreamLanguage {
            lines: headers.get_all(CONTENT_LANGUAGE).iter().cloned().collect(),
        }
    }

    /// Whether the stream declared a `Content-Language` at all.
    ///
    /// ```
    /// use http::HeaderMap;
    /// use mcp_lang_http::EventStreamLanguage;
    ///
    /// // The usual SSE response: no Content-Language, nothing to check.
    /// let stream = EventStreamLanguage::from_headers(&HeaderMap::new());
    /// assert!(!stream.is_declared());
    /// ```
    pub fn is_declared(&self) -> bool {
        !self.lines.is_empty()
    }

    /// Checks one message's `contentLanguage` (already extracted) against the header.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::EventStreamLanguage;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("de"));
    /// let stream = EventStreamLanguage::from_headers(&headers);
    /// assert!(stream.check(MetaValue::String("de")).is_ok());
    /// assert!(stream.check(MetaValue::Absent).is_ok());
    /// assert!(stream.check(MetaValue::String("de-AT")).is_err());
    /// ```
    pub fn check(&self, meta: MetaValue<'_>) -> Result<(), MalformedResponse> {
        if self.lines.is_empty() {
            return Ok(());
        }
        verify_lines(|| self.lines.iter(), meta)
    }

    /// Checks one message (the JSON of an SSE `data` field): its `contentLanguage` in
    /// `result._meta`, `error.data._meta` or `params._meta` must agree with the header.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
    /// use mcp_lang_http::{EventStreamLanguage, RawPreference};
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("fr"));
    /// let stream = EventStreamLanguage::from_headers(&headers);
    /// let message = br#"{"jsonrpc":"2.0","id":2,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}"#;
    /// assert_eq!(stream.check_message(message).unwrap(), RawPreference::String("fr".into()));
    /// ```
    pub fn check_message<'b>(
        &self,
        message: &'b [u8],
    ) -> Result<RawPreference<'b>, MalformedResponse> {
        let found = extract_content_language(message).unwrap_or_default();
        self.check(found.as_meta_value())?;
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_values() {
        assert!(field_value("").is_ok());
        assert!(field_value("en-US, en;q=0.9").is_ok());
        assert!(field_value("a\tb").is_ok());
        assert!(field_value("not ;; a range").is_ok());
        let kind = |s: &str| field_value(s).unwrap_err().kind();
        assert_eq!(kind("en\n"), FieldValueErrorKind::Control);
        assert_eq!(kind("en\x7f"), FieldValueErrorKind::Control);
        assert_eq!(kind("\0"), FieldValueErrorKind::Control);
        assert_eq!(kind("é"), FieldValueErrorKind::NonAscii);
        assert_eq!(kind("\ten"), FieldValueErrorKind::SurroundingWhitespace);
        assert_eq!(kind("en "), FieldValueErrorKind::SurroundingWhitespace);
        assert_eq!(field_value("en ").unwrap_err().offset(), 2);
    }

    #[test]
    fn refusal_leaves_headers_alone() {
        let mut h = HeaderMap::new();
        h.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("de"));
        assert!(set_accept_language(&mut h, "de\u{0}").is_err());
        assert_eq!(h[ACCEPT_LANGUAGE], "de");
    }

    #[test]
    fn streams_without_header_accept_anything() {
        let stream = EventStreamLanguage::from_headers(&HeaderMap::new());
        assert!(!stream.is_declared());
        assert!(stream.check(MetaValue::NotString).is_ok());
    }

    #[test]
    fn non_string_content_language_beside_a_header_is_malformed() {
        let mut h = HeaderMap::new();
        h.insert(CONTENT_LANGUAGE, HeaderValue::from_static("en"));
        let err = check_json_response(
            &h,
            br#"{"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":["en"]}}}"#,
        )
        .unwrap_err();
        assert_eq!(err.meta_value(), None);
    }
}
