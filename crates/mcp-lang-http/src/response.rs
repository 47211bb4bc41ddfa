//! Response mirroring on the server: `Content-Language`, `Vary` and `Cache-Control`.
//!
//! Three rules from the SEP's Streamable HTTP binding and "Caching" section, each a small
//! function on a [`HeaderMap`]:
//!
//! - [`set_content_language`]: a JSON response carrying `contentLanguage` (in
//!   `result._meta` or `error.data._meta`) gets it as exactly one `Content-Language`
//!   field line, byte for byte (decision D7). [`mirror_json_response`] finds the value
//!   in the body and does this.
//! - [`add_vary_accept_language`]: a response that varies by language says so with
//!   `Vary: Accept-Language`, merged into any `Vary` already there.
//! - [`make_private`]: when the request carried the preference in `_meta` but no header
//!   (an intermediary stripped it), a shared cache keyed on headers cannot tell the
//!   variants apart, so the response is `Cache-Control: private`.
//!
//! # Server-Sent Events
//!
//! An SSE response's header is sent before any of its messages exist, and the SEP lets a
//! server omit `Content-Language` on `text/event-stream` unless one value describes every
//! message. This crate's rule: **the server side never sets `Content-Language` on an event
//! stream**, and by default the tower layer removes one a handler set (it cannot check a
//! promise about messages that do not exist yet; omission is always conforming). Each
//! message still carries its own `contentLanguage` in `_meta`. A handler that knows its
//! whole stream is in one language can keep its header with
//! `LanguageLayer::keep_event_stream_content_language`; the client side checks every
//! message against it ([`crate::EventStreamLanguage`]).

use http::HeaderMap;
use http::header::{CACHE_CONTROL, CONTENT_LANGUAGE, CONTENT_TYPE, HeaderValue, VARY};

#[cfg(feature = "tower")]
use crate::client::check_field_value;
use crate::client::{FieldValueError, field_value};
use mcp_lang_meta::{RawPreference, extract_content_language};

/// Sets `Content-Language` to exactly one field line equal to `content_language`,
/// replacing any line already there.
///
/// The value is written as is (the SEP's agreement is byte for byte); a value that cannot
/// be a field value (control characters, non-ASCII, surrounding whitespace) is refused
/// and the headers are left unchanged.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
/// use mcp_lang_http::set_content_language;
///
/// let mut headers = HeaderMap::new();
/// headers.append(CONTENT_LANGUAGE, HeaderValue::from_static("en"));
/// headers.append(CONTENT_LANGUAGE, HeaderValue::from_static("de"));
/// set_content_language(&mut headers, "fr-CA").unwrap();
/// assert_eq!(headers.get_all(CONTENT_LANGUAGE).iter().collect::<Vec<_>>(), ["fr-CA"]);
///
/// assert!(set_content_language(&mut headers, "fr\r\nX-Evil: 1").is_err());
/// assert_eq!(headers[CONTENT_LANGUAGE], "fr-CA");
/// ```
pub fn set_content_language(
    headers: &mut HeaderMap,
    content_language: &str,
) -> Result<(), FieldValueError> {
    let value = field_value(content_language)?;
    headers.insert(CONTENT_LANGUAGE, value);
    Ok(())
}

/// What [`mirror_json_response`] did with `Content-Language`.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::CONTENT_LANGUAGE};
/// use mcp_lang_http::{mirror_json_response, Mirrored};
///
/// let mut headers = HeaderMap::new();
/// headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("en"));
/// let body = br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":42}}}"#;
/// assert_eq!(mirror_json_response(&mut headers, body), Mirrored::NotAString);
/// assert!(headers.get(CONTENT_LANGUAGE).is_none());
/// assert_eq!(mirror_json_response(&mut headers, b"not json"), Mirrored::NotReported);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mirrored {
    /// The body reports `contentLanguage`; it is now the one `Content-Language` line.
    Set,
    /// The body reports no `contentLanguage` string (or is not JSON); the headers were
    /// left alone.
    NotReported,
    /// The body's `contentLanguage` is present but not a string; any
    /// `Content-Language` line was removed, since a client would find it contradicting
    /// the body (a malformed response).
    NotAString,
    /// The body's `contentLanguage` cannot be sent as a field value (it is not
    /// `Content-Language` syntax either); any `Content-Language` line was removed, so
    /// that no header contradicts the body.
    Unsendable(FieldValueError),
}

/// Mirrors the `contentLanguage` of a JSON-RPC response body (`result._meta`, else
/// `error.data._meta`) into exactly one `Content-Language` line.
///
/// ```
/// use http::{HeaderMap, header::CONTENT_LANGUAGE};
/// use mcp_lang_http::{mirror_json_response, Mirrored};
///
/// let body = br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"de"}}}"#;
/// let mut headers = HeaderMap::new();
/// assert_eq!(mirror_json_response(&mut headers, body), Mirrored::Set);
/// assert_eq!(headers[CONTENT_LANGUAGE], "de");
/// ```
pub fn mirror_json_response(headers: &mut HeaderMap, body: &[u8]) -> Mirrored {
    match extract_content_language(body).unwrap_or_default() {
        RawPreference::String(value) => match set_content_language(headers, &value) {
            Ok(()) => Mirrored::Set,
            Err(e) => {
                headers.remove(CONTENT_LANGUAGE);
                Mirrored::Unsendable(e)
            }
        },
        RawPreference::NotString => {
            headers.remove(CONTENT_LANGUAGE);
            Mirrored::NotAString
        }
        RawPreference::Absent => Mirrored::NotReported,
    }
}

/// [`mirror_json_response`] for a body held as [`Bytes`]: the header value shares the
/// body's buffer when the `contentLanguage` string has no escapes (no copy).
#[cfg(feature = "tower")]
pub(crate) fn mirror_json_bytes(headers: &mut HeaderMap, body: &bytes::Bytes) -> Mirrored {
    use std::borrow::Cow;
    let value = match extract_content_language(body).unwrap_or_default() {
        RawPreference::String(value) => value,
        RawPreference::NotString => {
            headers.remove(CONTENT_LANGUAGE);
            return Mirrored::NotAString;
        }
        RawPreference::Absent => return Mirrored::NotReported,
    };
    let header = check_field_value(&value).and_then(|()| {
        let shared = match &value {
            Cow::Borrowed(s) => body.slice_ref(s.as_bytes()),
            Cow::Owned(s) => bytes::Bytes::copy_from_slice(s.as_bytes()),
        };
        HeaderValue::from_maybe_shared(shared).map_err(|_| FieldValueError::control())
    });
    match header {
        Ok(header) => {
            headers.insert(CONTENT_LANGUAGE, header);
            Mirrored::Set
        }
        Err(e) => {
            headers.remove(CONTENT_LANGUAGE);
            Mirrored::Unsendable(e)
        }
    }
}

/// Adds `Accept-Language` to `Vary`, merged with what is there: nothing changes when a
/// line already lists `Accept-Language` (any case) or `*`; otherwise all `Vary` lines
/// become one line that ends with `Accept-Language`.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::VARY};
/// use mcp_lang_http::add_vary_accept_language;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(VARY, HeaderValue::from_static("Origin"));
/// add_vary_accept_language(&mut headers);
/// add_vary_accept_language(&mut headers);
/// assert_eq!(headers.get_all(VARY).iter().collect::<Vec<_>>(), ["Origin, Accept-Language"]);
///
/// let mut star = HeaderMap::new();
/// star.insert(VARY, HeaderValue::from_static("*"));
/// add_vary_accept_language(&mut star);
/// assert_eq!(star[VARY], "*");
/// ```
pub fn add_vary_accept_language(headers: &mut HeaderMap) {
    const ACCEPT_LANGUAGE: &str = "Accept-Language";
    // The usual case: no `Vary` yet.
    if let http::header::Entry::Vacant(entry) = headers.entry(VARY) {
        entry.insert(HeaderValue::from_static(ACCEPT_LANGUAGE));
        return;
    }
    let mut merged: Vec<u8> = Vec::new();
    {
        let lines = headers.get_all(VARY);
        let mut members = lines.iter().flat_map(|line| list_members(line.as_bytes()));
        if members.any(|m| m == b"*" || m.eq_ignore_ascii_case(ACCEPT_LANGUAGE.as_bytes())) {
            return;
        }
        for member in lines.iter().flat_map(|line| list_members(line.as_bytes())) {
            merged.extend_from_slice(member);
            merged.extend_from_slice(b", ");
        }
    }
    if merged.is_empty() {
        headers.insert(VARY, HeaderValue::from_static(ACCEPT_LANGUAGE));
        return;
    }
    merged.extend_from_slice(ACCEPT_LANGUAGE.as_bytes());
    // Every byte comes from an existing header value (trimmed) or the constant.
    if let Ok(value) = HeaderValue::from_bytes(&merged) {
        headers.insert(VARY, value);
    }
}

/// Makes the response private to the user (`Cache-Control: private`), for the SEP's
/// stripped-header case: a shared cache that cannot see the language must not store a
/// language variant.
///
/// Directives already there are kept, except those that invite a shared cache (`public`,
/// `s-maxage`, and a field-qualified `private="…"`, which the unqualified `private`
/// covers). Nothing changes when the response is already `private` or `no-store`.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::CACHE_CONTROL};
/// use mcp_lang_http::make_private;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(CACHE_CONTROL, HeaderValue::from_static("public, max-age=300, s-maxage=600"));
/// make_private(&mut headers);
/// assert_eq!(headers[CACHE_CONTROL], "private, max-age=300");
///
/// let mut none = HeaderMap::new();
/// make_private(&mut none);
/// assert_eq!(none[CACHE_CONTROL], "private");
/// ```
pub fn make_private(headers: &mut HeaderMap) {
    /// A directive's name (before any `=`), and whether it has an argument.
    fn name(directive: &[u8]) -> (&[u8], bool) {
        let name = directive
            .split(|&b| b == b'=')
            .next()
            .unwrap_or_default()
            .trim_ascii();
        (name, name.len() != directive.len())
    }
    let mut merged: Vec<u8> = Vec::new();
    {
        let lines = headers.get_all(CACHE_CONTROL);
        let mut directives = lines.iter().flat_map(|line| list_members(line.as_bytes()));
        let already = directives.any(|d| {
            let (name, qualified) = name(d);
            (name.eq_ignore_ascii_case(b"private") && !qualified)
                || name.eq_ignore_ascii_case(b"no-store")
        });
        if already {
            return;
        }
        for directive in lines.iter().flat_map(|line| list_members(line.as_bytes())) {
            let (name, _) = name(directive);
            let is = |n: &str| name.eq_ignore_ascii_case(n.as_bytes());
            if is("public") || is("s-maxage") || is("private") {
                continue;
            }
            merged.extend_from_slice(b", ");
            merged.extend_from_slice(directive);
        }
    }
    if merged.is_empty() {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("private"));
        return;
    }
    let mut value = b"private".to_vec();
    value.extend_from_slice(&merged);
    if let Ok(value) = HeaderValue::from_bytes(&value) {
        headers.insert(CACHE_CONTROL, value);
    }
}

/// Whether the response is a Server-Sent Events stream (`Content-Type:
/// text/event-stream`, parameters and case ignored).
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::CONTENT_TYPE};
/// use mcp_lang_http::is_event_stream;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(CONTENT_TYPE, HeaderValue::from_static("Text/Event-Stream; charset=utf-8"));
/// assert!(is_event_stream(&headers));
/// ```
pub fn is_event_stream(headers: &HeaderMap) -> bool {
    media_type_is(headers, |t| t.eq_ignore_ascii_case(b"text/event-stream"))
}

/// Whether the response body is JSON (`application/json` or any `+json` type).
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::CONTENT_TYPE};
/// use mcp_lang_http::is_json;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
/// assert!(is_json(&headers));
/// ```
pub fn is_json(headers: &HeaderMap) -> bool {
    let is_json = |t: &[u8]| {
        t.eq_ignore_ascii_case(b"application/json")
            || (t.len() > 5
                && t.get(t.len() - 5..)
                    .is_some_and(|s| s.eq_ignore_ascii_case(b"+json")))
    };
    headers.get(CONTENT_TYPE).is_some_and(|v| {
        // The usual value, as servers write it: one compare, no parsing.
        v.as_bytes() == b"application/json" || is_json(media_type(v))
    })
}

fn media_type_is(headers: &HeaderMap, test: impl Fn(&[u8]) -> bool) -> bool {
    headers
        .get(CONTENT_TYPE)
        .is_some_and(|v| test(media_type(v)))
}

/// A `Content-Type` value's media type (`type/subtype`), without parameters or
/// surrounding whitespace.
fn media_type(value: &HeaderValue) -> &[u8] {
    value
        .as_bytes()
        .split(|&b| b == b';')
        .next()
        .unwrap_or_default()
        .trim_ascii()
}

/// The non-empty members of a comma-separated list (RFC 9110 §5.6.1), trimmed, with
/// commas inside quoted strings left alone.
fn list_members(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = value;
    std::iter::from_fn(move || {
        loop {
            if rest.is_empty() {
                return None;
            }
            let mut in_quotes = false;
            let mut escaped = false;
            let mut end = rest.len();
            for (i, &b) in rest.iter().enumerate() {
                if escaped {
                    escaped = false;
                } else if in_quotes && b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_quotes = !in_quotes;
                } else if b == b',' && !in_quotes {
                    end = i;
                    break;
                }
            }
            let member = rest.get(..end).unwrap_or_default().trim_ascii();
            rest = rest.get(end + 1..).unwrap_or_default();
            if !member.is_empty() {
                return Some(member);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(h: &HeaderMap, name: http::header::HeaderName) -> Vec<&str> {
        h.get_all(name)
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect()
    }

    #[test]
    fn non_string_content_language_removes_the_handlers_header() {
        let body = br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":["de"]}}}"#;
        let mut h = HeaderMap::new();
        h.insert(CONTENT_LANGUAGE, HeaderValue::from_static("de"));
        assert_eq!(mirror_json_response(&mut h, body), Mirrored::NotAString);
        assert!(h.get(CONTENT_LANGUAGE).is_none());

        // An absent contentLanguage leaves the handler's headers alone.
        let mut h = HeaderMap::new();
        h.insert(CONTENT_LANGUAGE, HeaderValue::from_static("de"));
        let plain = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        assert_eq!(mirror_json_response(&mut h, plain), Mirrored::NotReported);
        assert_eq!(h[CONTENT_LANGUAGE], "de");
    }

    #[test]
    fn vary_merges_every_line_once() {
        let mut h = HeaderMap::new();
        h.append(VARY, HeaderValue::from_static("Origin"));
        h.append(VARY, HeaderValue::from_static(" Accept-Encoding ,, "));
        add_vary_accept_language(&mut h);
        assert_eq!(
            lines(&h, VARY),
            ["Origin, Accept-Encoding, Accept-Language"]
        );

        let mut h = HeaderMap::new();
        h.append(VARY, HeaderValue::from_static("origin"));
        h.append(VARY, HeaderValue::from_static("accept-language"));
        add_vary_accept_language(&mut h);
        assert_eq!(lines(&h, VARY), ["origin", "accept-language"]);

        let mut h = HeaderMap::new();
        h.append(VARY, HeaderValue::from_static(""));
        add_vary_accept_language(&mut h);
        assert_eq!(lines(&h, VARY), ["Accept-Language"]);
    }

    #[test]
    fn private_keeps_what_it_can() {
        let mut h = HeaderMap::new();
        h.append(
            CACHE_CONTROL,
            HeaderValue::from_static("no-cache=\"Set-Cookie, X\""),
        );
        h.append(CACHE_CONTROL, HeaderValue::from_static("PUBLIC"));
        make_private(&mut h);
        assert_eq!(
            lines(&h, CACHE_CONTROL),
            ["private, no-cache=\"Set-Cookie, X\""]
        );

        let mut h = HeaderMap::new();
        h.insert(
            CACHE_CONTROL,
            HeaderValue::from_static("private=\"X\", max-age=5"),
        );
        make_private(&mut h);
        assert_eq!(lines(&h, CACHE_CONTROL), ["private, max-age=5"]);

        for already in ["no-store", "Private", "max-age=0, private"] {
            let mut h = HeaderMap::new();
            h.insert(CACHE_CONTROL, HeaderValue::from_static(already));
            make_private(&mut h);
            assert_eq!(lines(&h, CACHE_CONTROL), [already]);
        }
    }

    #[test]
    fn unsendable_content_language_removes_the_header() {
        let mut h = HeaderMap::new();
        h.insert(CONTENT_LANGUAGE, HeaderValue::from_static("en"));
        let body = br#"{"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr\nX"}}}"#;
        assert!(matches!(
            mirror_json_response(&mut h, body),
            Mirrored::Unsendable(_)
        ));
        assert!(h.get(CONTENT_LANGUAGE).is_none());

        let mut h = HeaderMap::new();
        h.insert(CONTENT_LANGUAGE, HeaderValue::from_static("en"));
        assert_eq!(
            mirror_json_response(&mut h, br#"{"result":{}}"#),
            Mirrored::NotReported
        );
        assert_eq!(lines(&h, CONTENT_LANGUAGE), ["en"]);
    }

    #[test]
    fn media_types() {
        let with = |ct: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(CONTENT_TYPE, HeaderValue::from_static(ct));
            h
        };
        assert!(is_json(&with("application/json")));
        assert!(is_json(&with("application/problem+json")));
        assert!(!is_json(&with("text/event-stream")));
        assert!(!is_json(&with("+json")));
        assert!(is_event_stream(&with(" text/event-stream ;x=y")));
        assert!(!is_event_stream(&HeaderMap::new()));
    }
}
