//! Server validation: does a request's `Accept-Language` agree with its `_meta`?
//!
//! The SEP's "Presence and mismatch" rules, in the order a server applies them:
//!
//! | `_meta` acceptLanguage | `Accept-Language` | outcome |
//! |------------------------|-------------------|---------|
//! | a string | agrees exactly | [`RequestAgreement::Agreed`]: the `_meta` value is the preference |
//! | a string | absent (stripped) | [`RequestAgreement::HeaderMissing`]: tolerated, the `_meta` value is the preference, and the response must not be stored by a shared cache |
//! | absent | present | [`RequestAgreement::BareHeader`]: the header creates no MCP preference |
//! | absent | absent | [`RequestAgreement::NoPreference`] |
//! | a string, or not a string | present, disagrees | [`HeaderMismatch`]: `400 Bad Request`, JSON-RPC error -32020 |
//!
//! Agreement is decided *before* the grammar is looked at (decision D5): a malformed value
//! that agrees is accepted here and later ignored as an absent preference, never an error.
//!
//! ```
//! use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
//! use mcp_lang_agree::MetaValue;
//! use mcp_lang_http::{check_request, RequestAgreement};
//!
//! let mut headers = HeaderMap::new();
//! headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("en-US"));
//! headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static(" en;q=0.9 "));
//!
//! // Two field lines combine to "en-US, en;q=0.9".
//! assert_eq!(check_request(&headers, MetaValue::String("en-US, en;q=0.9")), Ok(RequestAgreement::Agreed));
//!
//! // Case is significant: this request is answered 400 / -32020.
//! let err = check_request(&headers, MetaValue::String("en-us, en;q=0.9")).unwrap_err();
//! assert_eq!(err.header_prefix(), "en-US, en;q=0.9");
//! ```

use std::fmt;

use bytes::Bytes;
use http::header::{ACCEPT_LANGUAGE, CACHE_CONTROL, CONTENT_TYPE, HeaderValue, VARY};
use http::{HeaderMap, Response, StatusCode};
use mcp_lang_agree::{Agreement, JoinedLines, MetaValue, agree};
use serde::Serialize;
use serde_json::{json, value::RawValue};

use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, RawPreference, skim_request};

/// The JSON-RPC error code of HeaderMismatch (decision D6; the SEP-2243 seed text's
/// -32001 was renumbered to -32020 by the specification).
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
/// use mcp_lang_agree::MetaValue;
/// use mcp_lang_http::{check_request, HEADER_MISMATCH};
///
/// let mut headers = HeaderMap::new();
/// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("fr"));
/// let mismatch = check_request(&headers, MetaValue::String("de")).unwrap_err();
/// assert_eq!(mismatch.to_error_object()["code"], HEADER_MISMATCH);
/// ```
pub const HEADER_MISMATCH: i64 = -32020;

/// How a request's `Accept-Language` relates to its `_meta` preference, when they do not
/// conflict. The result of [`check_request`].
///
/// ```
/// use http::HeaderMap;
/// use mcp_lang_agree::MetaValue;
/// use mcp_lang_http::{check_request, RequestAgreement};
///
/// let stripped = check_request(&HeaderMap::new(), MetaValue::String("de")).unwrap();
/// assert_eq!(stripped, RequestAgreement::HeaderMissing);
/// assert!(stripped.response_must_be_private());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RequestAgreement {
    /// `_meta` holds a string and the header agrees with it exactly.
    Agreed,
    /// `_meta` holds a string and there is no `Accept-Language` header, for example
    /// because an intermediary stripped it. The SEP tolerates this; a shared cache in
    /// front of the server cannot see the language, so the response is made private.
    HeaderMissing,
    /// A header but no `_meta` key: "a bare header without the canonical `_meta` field
    /// does not create an MCP preference". The request has no preference.
    BareHeader,
    /// Neither a header nor a `_meta` key, or a `_meta` value that is not a string with
    /// no header beside it: no preference.
    NoPreference,
}

impl RequestAgreement {
    /// Whether the response must carry `Cache-Control: private`: the request's
    /// preference is only in the body, where a shared cache keyed on headers cannot see
    /// it (the SEP's stripped-header case).
    ///
    /// ```
    /// use mcp_lang_http::RequestAgreement;
    ///
    /// assert!(RequestAgreement::HeaderMissing.response_must_be_private());
    /// assert!(!RequestAgreement::Agreed.response_must_be_private());
    /// assert!(!RequestAgreement::BareHeader.response_must_be_private());
    /// ```
    pub const fn response_must_be_private(self) -> bool {
        matches!(self, RequestAgreement::HeaderMissing)
    }

    /// A short, stable name: `agreed`, `header-missing`, `bare-header`, `no-preference`.
    ///
    /// ```
    /// assert_eq!(mcp_lang_http::RequestAgreement::BareHeader.as_str(), "bare-header");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            RequestAgreement::Agreed => "agreed",
            RequestAgreement::HeaderMissing => "header-missing",
            RequestAgreement::BareHeader => "bare-header",
            RequestAgreement::NoPreference => "no-preference",
        }
    }
}

/// Checks a request's `Accept-Language` field lines against its `_meta` preference
/// (SEP-2792 "Presence and mismatch", decision D5).
///
/// Every field line is read (`HeaderMap::get_all`), in received order: a conflicting
/// second line cannot hide behind an agreeing first one. The check is lexical and does
/// not allocate on success; only a mismatch builds its (owned) error.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
/// use mcp_lang_agree::MetaValue;
/// use mcp_lang_http::{check_request, RequestAgreement};
///
/// let mut headers = HeaderMap::new();
/// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("fr"));
/// assert_eq!(check_request(&headers, MetaValue::Absent), Ok(RequestAgreement::BareHeader));
/// assert!(check_request(&headers, MetaValue::NotString).is_err());
/// assert!(check_request(&headers, MetaValue::String("fr ")).is_err());
/// ```
pub fn check_request(
    headers: &HeaderMap,
    meta: MetaValue<'_>,
) -> Result<RequestAgreement, HeaderMismatch> {
    let lines = headers.get_all(ACCEPT_LANGUAGE);
    match agree(meta, lines.iter().map(HeaderValue::as_bytes)) {
        Agreement::Agree => Ok(RequestAgreement::Agreed),
        Agreement::BareHeader => Ok(RequestAgreement::BareHeader),
        Agreement::HeaderAbsent => Ok(match meta {
            MetaValue::String(_) => RequestAgreement::HeaderMissing,
            MetaValue::Absent | MetaValue::NotString => RequestAgreement::NoPreference,
        }),
        Agreement::Mismatch(m) => {
            let all: Vec<&[u8]> = lines.iter().map(HeaderValue::as_bytes).collect();
            let joined = JoinedLines::new(all.iter().copied());
            Err(HeaderMismatch {
                header: Quote::of_display(&joined, joined.len()),
                meta: meta.as_str().map(Quote::of_str),
                line_count: all.len(),
                offset: m.offset(),
            })
        }
    }
}

/// The request's language preference as the HTTP binding leaves it for the handler:
/// the raw `_meta` value (when it was a string and not rejected) and how the header
/// related to it. The tower layer puts one in the request extensions of every POST it
/// forwards.
///
/// Nothing here is negotiated yet: the raw value is what cache keys use (decision D10),
/// and [`LanguagePreference::accept_language`] validates the grammar when the handler
/// needs the ranges (a malformed value is an absent preference, never an error).
///
/// ```
/// use http::HeaderMap;
/// use mcp_lang_http::{validate_request, RequestAgreement};
///
/// let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list",
///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de-CH, de;q=0.8"}}}"#;
/// let preference = validate_request(&HeaderMap::new(), body).unwrap();
/// assert_eq!(preference.raw(), Some("de-CH, de;q=0.8"));
/// assert_eq!(preference.agreement(), RequestAgreement::HeaderMissing);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LanguagePreference {
    /// The raw value's UTF-8 bytes: a slice of the request body when the value had no
    /// JSON escapes (no copy, no allocation), else the decoded string's own buffer.
    raw: Option<Bytes>,
    agreement: RequestAgreement,
}

impl LanguagePreference {
    /// A preference from its parts. `raw` is ignored (set to `None`) unless `agreement`
    /// is [`RequestAgreement::Agreed`] or [`RequestAgreement::HeaderMissing`], the only
    /// outcomes that carry a preference.
    ///
    /// ```
    /// use mcp_lang_http::{LanguagePreference, RequestAgreement};
    ///
    /// let bare = LanguagePreference::new(Some("fr".into()), RequestAgreement::BareHeader);
    /// assert_eq!(bare.raw(), None);
    /// ```
    pub fn new(raw: Option<String>, agreement: RequestAgreement) -> Self {
        Self::from_bytes(raw.map(Bytes::from), agreement)
    }

    /// [`LanguagePreference::new`] from the value skimmed out of `body`: a value without
    /// escapes is kept as a slice of `body` rather than copied.
    #[cfg(feature = "tower")]
    pub(crate) fn from_body(
        body: &Bytes,
        raw: RawPreference<'_>,
        agreement: RequestAgreement,
    ) -> Self {
        let raw = match raw {
            RawPreference::String(std::borrow::Cow::Borrowed(s)) => Some(shared_slice(body, s)),
            RawPreference::String(std::borrow::Cow::Owned(s)) => Some(Bytes::from(s)),
            RawPreference::Absent | RawPreference::NotString => None,
        };
        Self::from_bytes(raw, agreement)
    }

    fn from_bytes(raw: Option<Bytes>, agreement: RequestAgreement) -> Self {
        let raw = match agreement {
            RequestAgreement::Agreed | RequestAgreement::HeaderMissing => raw,
            RequestAgreement::BareHeader | RequestAgreement::NoPreference => None,
        };
        LanguagePreference { raw, agreement }
    }

    /// The raw `acceptLanguage` string from `_meta`, exactly as sent; `None` when the
    /// request has no preference (no `_meta` value, a non-string one, or a bare header).
    ///
    /// ```
    /// use http::HeaderMap;
    /// use mcp_lang_http::validate_request;
    ///
    /// // The value is kept byte for byte: no trimming, no case folding.
    /// let body = br#"{"jsonrpc":"2.0","id":1,"method":"ping",
    ///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"EN-us,fr;q=0.5"}}}"#;
    /// assert_eq!(validate_request(&HeaderMap::new(), body).unwrap().raw(), Some("EN-us,fr;q=0.5"));
    ///
    /// // A non-string value is no preference.
    /// let body = br#"{"jsonrpc":"2.0","id":1,"method":"ping",
    ///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":["en"]}}}"#;
    /// assert_eq!(validate_request(&HeaderMap::new(), body).unwrap().raw(), None);
    /// ```
    pub fn raw(&self) -> Option<&str> {
        // Always UTF-8: the bytes come from a `str` (see the constructors).
        self.raw
            .as_deref()
            .and_then(|raw| std::str::from_utf8(raw).ok())
    }

    /// How the `Accept-Language` header related to the `_meta` value.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_http::{validate_request, RequestAgreement};
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("ja"));
    /// let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
    /// let preference = validate_request(&headers, body).unwrap();
    /// assert_eq!(preference.agreement(), RequestAgreement::BareHeader);
    /// assert_eq!(preference.raw(), None);
    /// ```
    pub fn agreement(&self) -> RequestAgreement {
        self.agreement
    }

    /// The parsed preference, or `None` when there is none or it is malformed (the SEP
    /// says a malformed value is ignored as an absent preference).
    ///
    /// ```
    /// use mcp_lang_http::{LanguagePreference, RequestAgreement};
    ///
    /// let good = LanguagePreference::new(Some("fr-CA, fr;q=0.8".into()), RequestAgreement::Agreed);
    /// assert_eq!(good.accept_language().map(|ranges| ranges.len()), Some(2));
    ///
    /// // Agreed, yet malformed: ignored as an absent preference.
    /// let bad = LanguagePreference::new(Some("fr;q=2".into()), RequestAgreement::Agreed);
    /// assert_eq!(bad.raw(), Some("fr;q=2"));
    /// assert!(bad.accept_language().is_none());
    /// ```
    pub fn accept_language(&self) -> Option<mcp_lang_grammar::AcceptLanguage<'_>> {
        self.raw()
            .and_then(|raw| mcp_lang_grammar::AcceptLanguage::parse(raw).ok())
    }
}

/// Validates a whole request at once: reads the preference and id from the JSON body
/// (`mcp_lang_meta::skim_request`) and checks the `Accept-Language`
/// lines against it ([`check_request`]). For frameworks without tower; the tower layer
/// does the same.
///
/// ```
/// use http::{HeaderMap, HeaderValue, StatusCode, header::ACCEPT_LANGUAGE};
/// use mcp_lang_http::validate_request;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en-US,en"));
/// let body = br#"{"jsonrpc":"2.0","id":"q1","method":"tools/list",
///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en-US, en"}}}"#;
/// let rejected = validate_request(&headers, body).unwrap_err();
/// let response = rejected.to_response();
/// assert_eq!(response.status(), StatusCode::BAD_REQUEST);
/// let json: serde_json::Value = serde_json::from_slice(response.body()).unwrap();
/// assert_eq!(json["id"], "q1");
/// ```
pub fn validate_request(
    headers: &HeaderMap,
    body: &[u8],
) -> Result<LanguagePreference, RejectedRequest> {
    let (preference, raw_id) = match skim_request(body) {
        Ok(skim) => (skim.accept_language().clone(), skim.id()),
        // Not one JSON object: no `_meta` to read. The MCP server answers the body itself.
        Err(_) => (RawPreference::Absent, None),
    };
    match check_request(headers, preference.as_meta_value()) {
        Ok(agreement) => Ok(LanguagePreference::new(
            preference.as_str().map(str::to_owned),
            agreement,
        )),
        Err(mismatch) => Err(RejectedRequest {
            mismatch: Box::new(mismatch),
            id: echo_id(raw_id).map(ToOwned::to_owned),
        }),
    }
}

/// `text` as a slice of `body` that shares its buffer when `text` lies inside `body`
/// (as a borrowed skim result does), else as a copy.
#[cfg(feature = "tower")]
fn shared_slice(body: &Bytes, text: &str) -> Bytes {
    let start = (text.as_ptr() as usize).wrapping_sub(body.as_ptr() as usize);
    let range = start..start.wrapping_add(text.len());
    match body.get(range.clone()) {
        Some(inside) if std::ptr::eq(inside, text.as_bytes()) => body.slice(range),
        _ => Bytes::copy_from_slice(text.as_bytes()),
    }
}

/// The id to echo in an error response, from the id's raw JSON text: a string or a
/// number, exactly as the client wrote it (`1e2` stays `1e2`, `18446744073709551616`
/// keeps every digit); anything else (`null`, an object, no id) is `None`, answered
/// with `null`.
///
/// JSON-RPC 2.0 answers with "the same value as the value of the id member in the
/// Request Object"; the raw text is that value, where a number parsed into `f64` or
/// `u64` may not be.
pub(crate) fn echo_id(raw: Option<&str>) -> Option<&RawValue> {
    let raw = raw?.trim_matches([' ', '\t', '\n', '\r']);
    match raw.as_bytes().first() {
        Some(b'"' | b'-' | b'0'..=b'9') => serde_json::from_str(raw).ok(),
        _ => None,
    }
}

/// A request [`validate_request`] rejects: the mismatch and the request id to echo.
///
/// ```
/// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
/// use mcp_lang_http::validate_request;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("de"));
/// let body = br#"{"jsonrpc":"2.0","id":7,"method":"tools/list",
///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
/// let rejected = validate_request(&headers, body).unwrap_err();
/// assert_eq!(rejected.id().map(|id| id.get()), Some("7"));
/// assert_eq!(rejected.mismatch().meta_prefix(), Some("fr"));
/// ```
#[derive(Clone, Debug)]
pub struct RejectedRequest {
    mismatch: Box<HeaderMismatch>,
    id: Option<Box<RawValue>>,
}

impl PartialEq for RejectedRequest {
    fn eq(&self, other: &Self) -> bool {
        self.mismatch == other.mismatch
            && self.id.as_deref().map(RawValue::get) == other.id.as_deref().map(RawValue::get)
    }
}

impl RejectedRequest {
    /// What disagreed.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_http::validate_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    /// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("fr"));
    /// let body = br#"{"jsonrpc":"2.0","id":1,"method":"ping",
    ///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}}"#;
    /// let rejected = validate_request(&headers, body).unwrap_err();
    /// assert_eq!(rejected.mismatch().header_prefix(), "en, fr");
    /// assert_eq!(rejected.mismatch().line_count(), 2);
    /// ```
    pub fn mismatch(&self) -> &HeaderMismatch {
        &self.mismatch
    }

    /// The request id as the client wrote it (a JSON string or number), or `None`
    /// when the body had none or it was not a string or a number; the error response
    /// then echoes `null`.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_http::validate_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("de"));
    /// // A notification has no id: the error echoes null.
    /// let body = br#"{"jsonrpc":"2.0","method":"notifications/initialized",
    ///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    /// assert!(validate_request(&headers, body).unwrap_err().id().is_none());
    /// // A number is kept as written.
    /// let body = br#"{"jsonrpc":"2.0","id":1e2,"method":"ping",
    ///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    /// assert_eq!(validate_request(&headers, body).unwrap_err().id().unwrap().get(), "1e2");
    /// ```
    pub fn id(&self) -> Option<&RawValue> {
        self.id.as_deref()
    }

    /// The `400 Bad Request` response with the -32020 JSON-RPC error echoing the id as
    /// written.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, StatusCode, header::{ACCEPT_LANGUAGE, CACHE_CONTROL}};
    /// use mcp_lang_http::validate_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("de"));
    /// let body = br#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping",
    ///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    /// let response = validate_request(&headers, body).unwrap_err().to_response();
    /// assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    /// assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
    /// let text = std::str::from_utf8(response.body()).unwrap();
    /// assert!(text.contains(r#""id":18446744073709551616"#), "{text}");
    /// ```
    pub fn to_response(&self) -> Response<Bytes> {
        self.mismatch.to_response(&self.id)
    }
}

impl fmt::Display for RejectedRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.mismatch.fmt(f)
    }
}

impl std::error::Error for RejectedRequest {}

/// The start of a value an error quotes, and the value's whole length.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Quote {
    /// At most [`HeaderMismatch::QUOTE_LIMIT`] bytes of the value's text, cut at a
    /// character boundary.
    prefix: String,
    /// The whole value's length in bytes.
    len: usize,
    /// Whether `prefix` is shorter than the value's text.
    cut: bool,
}

impl Quote {
    /// The first bytes of `text`.
    fn of_str(text: &str) -> Quote {
        let (prefix, cut) = cut_at(text, HeaderMismatch::QUOTE_LIMIT);
        Quote {
            prefix: prefix.to_owned(),
            len: text.len(),
            cut,
        }
    }

    /// The first bytes of what `value` displays, written until the limit and no
    /// further (the rest is never formatted), for a value of `len` bytes.
    fn of_display(value: &dyn fmt::Display, len: usize) -> Quote {
        let mut prefix = Prefix {
            text: String::new(),
            cut: false,
        };
        // `Err` is the writer stopping at the limit.
        let _ = fmt::write(&mut prefix, format_args!("{value}"));
        Quote {
            prefix: prefix.text,
            len,
            cut: prefix.cut,
        }
    }

    /// The prefix for a message: at most `limit` bytes, with `…` and the length when
    /// that is not the whole value.
    fn for_message(&self, limit: usize) -> String {
        let (short, cut) = cut_at(&self.prefix, limit);
        if cut || self.cut {
            format!("{short:?}… ({} bytes)", self.len)
        } else {
            format!("{short:?}")
        }
    }
}

/// The longest prefix of `text` of at most `limit` bytes that ends on a character
/// boundary, and whether it is shorter than `text`.
fn cut_at(text: &str, limit: usize) -> (&str, bool) {
    if text.len() <= limit {
        return (text, false);
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text.get(..end).unwrap_or_default(), true)
}

/// A `fmt::Write` that keeps the first [`HeaderMismatch::QUOTE_LIMIT`] bytes and then
/// stops the formatting with an error.
struct Prefix {
    text: String,
    cut: bool,
}

impl fmt::Write for Prefix {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = HeaderMismatch::QUOTE_LIMIT.saturating_sub(self.text.len());
        let (head, cut) = cut_at(s, room);
        self.text.push_str(head);
        if cut {
            self.cut = true;
            return Err(fmt::Error);
        }
        Ok(())
    }
}

/// The most bytes of each value the error message quotes (`error.data` holds the
/// longer prefixes).
const MESSAGE_QUOTE: usize = 64;

/// A request whose `Accept-Language` header is present and does not agree with its
/// `_meta` preference: the server rejects it with `400 Bad Request` and the JSON-RPC error
/// HeaderMismatch (-32020).
///
/// It quotes at most [`HeaderMismatch::QUOTE_LIMIT`] bytes of each value, with each
/// value's length and the offset of the first difference, so that the error stays small
/// however large the request was (a `_meta` value can take most of a 4 MiB body).
///
/// ```
/// use http::{HeaderMap, HeaderValue, StatusCode, header::ACCEPT_LANGUAGE};
/// use mcp_lang_agree::MetaValue;
/// use mcp_lang_http::check_request;
/// use serde_json::json;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en;q=0.900"));
/// let mismatch = check_request(&headers, MetaValue::String("en;q=0.9")).unwrap_err();
///
/// let response = mismatch.to_response(&json!(3));
/// assert_eq!(response.status(), StatusCode::BAD_REQUEST);
/// let body: serde_json::Value = serde_json::from_slice(response.body()).unwrap();
/// assert_eq!(body["id"], 3);
/// assert_eq!(body["error"]["code"], -32020);
/// assert_eq!(body["error"]["data"]["headerValue"], "en;q=0.900");
/// assert_eq!(body["error"]["data"]["metaValue"], "en;q=0.9");
/// assert_eq!(body["error"]["data"]["offset"], 8);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderMismatch {
    header: Quote,
    meta: Option<Quote>,
    line_count: usize,
    offset: Option<usize>,
}

impl HeaderMismatch {
    /// The most bytes of each value (the combined header value, the `_meta` string) an
    /// error quotes: 256.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::{HeaderMismatch, check_request};
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    /// let long = "fr-".repeat(100_000);
    /// let mismatch = check_request(&headers, MetaValue::String(&long)).unwrap_err();
    /// assert_eq!(mismatch.meta_prefix().map(str::len), Some(HeaderMismatch::QUOTE_LIMIT));
    /// assert_eq!(mismatch.meta_len(), Some(300_000));
    /// ```
    pub const QUOTE_LIMIT: usize = 256;

    /// The start of the `_meta` string, at most [`HeaderMismatch::QUOTE_LIMIT`] bytes
    /// (the whole string when it is shorter), or `None` when the `_meta` value is not a
    /// string.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::check_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    /// assert_eq!(check_request(&headers, MetaValue::String("fr")).unwrap_err().meta_prefix(), Some("fr"));
    /// assert_eq!(check_request(&headers, MetaValue::NotString).unwrap_err().meta_prefix(), None);
    /// ```
    pub fn meta_prefix(&self) -> Option<&str> {
        self.meta.as_ref().map(|q| q.prefix.as_str())
    }

    /// The length in bytes of the `_meta` string, or `None` when it is not a string.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::check_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    /// assert_eq!(check_request(&headers, MetaValue::String("fr-CA")).unwrap_err().meta_len(), Some(5));
    /// ```
    pub fn meta_len(&self) -> Option<usize> {
        self.meta.as_ref().map(|q| q.len)
    }

    /// The start of the header's field value as compared (each line trimmed, lines
    /// joined with `", "`), at most [`HeaderMismatch::QUOTE_LIMIT`] bytes. Bytes that
    /// are not UTF-8 are shown as `\xNN`.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::check_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static(" de "));
    /// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("en;q=0.5"));
    /// let mismatch = check_request(&headers, MetaValue::String("de")).unwrap_err();
    /// assert_eq!(mismatch.header_prefix(), "de, en;q=0.5");
    /// ```
    pub fn header_prefix(&self) -> &str {
        &self.header.prefix
    }

    /// The length in bytes of the header's combined field value.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::check_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("de"));
    /// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    /// let mismatch = check_request(&headers, MetaValue::String("de")).unwrap_err();
    /// assert_eq!(mismatch.header_len(), "de, en".len());
    /// ```
    pub fn header_len(&self) -> usize {
        self.header.len
    }

    /// How many `Accept-Language` field lines the request had.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::check_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("de"));
    /// headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("de"));
    /// let mismatch = check_request(&headers, MetaValue::String("de")).unwrap_err();
    /// assert_eq!(mismatch.line_count(), 2);
    /// ```
    pub fn line_count(&self) -> usize {
        self.line_count
    }

    /// The byte offset of the first difference, when the `_meta` value is a string.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::check_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en-US"));
    /// let mismatch = check_request(&headers, MetaValue::String("en-us")).unwrap_err();
    /// assert_eq!(mismatch.offset(), Some(3));
    /// assert_eq!(check_request(&headers, MetaValue::NotString).unwrap_err().offset(), None);
    /// ```
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// A one-line summary that quotes at most 64 bytes of each value.
    fn summary(&self) -> String {
        let meta = match &self.meta {
            Some(meta) => format!(
                "params._meta[\"{ACCEPT_LANGUAGE_KEY}\"] {}",
                meta.for_message(MESSAGE_QUOTE)
            ),
            None => format!("params._meta[\"{ACCEPT_LANGUAGE_KEY}\"], which is not a string"),
        };
        let lines = match self.line_count {
            1 => String::new(),
            n => format!(" ({n} field lines joined)"),
        };
        let offset = match self.offset {
            // Numbered from 1, as people count; `data.offset` stays 0-based.
            Some(offset) => format!(" (first difference at byte {})", offset + 1),
            None => String::new(),
        };
        format!(
            "Accept-Language {}{lines} does not agree with {meta}{offset}",
            self.header.for_message(MESSAGE_QUOTE)
        )
    }

    /// The JSON-RPC error object (`code`, `message`, `data`), for servers that build
    /// their own responses. It stays small whatever the size of the values.
    ///
    /// `data` holds `header` (`"Accept-Language"`), `headerValue` (the start of the
    /// combined value, at most [`HeaderMismatch::QUOTE_LIMIT`] bytes), `headerLength`
    /// (its length in bytes), `fieldLines` (how many lines), `metaKey`, `metaValue` (the
    /// start of the `_meta` string, or `null` when it is not a string), `metaLength`
    /// (its length, or `null`), `metaIsString`, and `offset` (the first differing byte,
    /// or `null`).
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::check_request;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    /// let error = check_request(&headers, MetaValue::NotString).unwrap_err().to_error_object();
    /// assert_eq!(error["code"], -32020);
    /// assert_eq!(error["data"]["metaIsString"], false);
    /// assert_eq!(error["data"]["fieldLines"], 1);
    /// assert_eq!(error["data"]["headerLength"], 2);
    /// ```
    pub fn to_error_object(&self) -> serde_json::Value {
        json!({
            "code": HEADER_MISMATCH,
            "message": format!("HeaderMismatch: {}", self.summary()),
            "data": {
                "header": "Accept-Language",
                "headerValue": self.header.prefix,
                "headerLength": self.header.len,
                "fieldLines": self.line_count,
                "metaKey": ACCEPT_LANGUAGE_KEY,
                "metaValue": self.meta_prefix(),
                "metaLength": self.meta_len(),
                "metaIsString": self.meta.is_some(),
                "offset": self.offset,
            }
        })
    }

    /// The whole JSON-RPC response body as a value: `{"jsonrpc":"2.0","id":…,
    /// "error":{…}}`, echoing `id` (pass `Value::Null` when the request id is unknown).
    /// A `Value` holds a number as `i64`, `u64` or `f64`; to echo an id exactly as the
    /// client wrote it, use [`HeaderMismatch::to_response`] with the raw id.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::check_request;
    /// use serde_json::json;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    /// let mismatch = check_request(&headers, MetaValue::String("de")).unwrap_err();
    /// let body = mismatch.to_json_rpc(&json!("req-9"));
    /// assert_eq!((&body["jsonrpc"], &body["id"]), (&json!("2.0"), &json!("req-9")));
    /// assert_eq!(body["error"]["code"], -32020);
    /// ```
    pub fn to_json_rpc(&self, id: &serde_json::Value) -> serde_json::Value {
        json!({ "jsonrpc": "2.0", "id": id, "error": self.to_error_object() })
    }

    /// The complete HTTP response: `400 Bad Request`, `Content-Type: application/json`,
    /// `Vary: Accept-Language`, `Cache-Control: no-store`, and the JSON-RPC error body
    /// echoing `id`: anything serializable, such as a `serde_json::Value`, or the id's
    /// raw text as a `serde_json::value::RawValue` (or `Option` of one; `None` is
    /// `null`) to echo it exactly as written.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue, StatusCode, header::{ACCEPT_LANGUAGE, CONTENT_TYPE, VARY}};
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::check_request;
    /// use serde_json::value::RawValue;
    ///
    /// let mut headers = HeaderMap::new();
    /// headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    /// let mismatch = check_request(&headers, MetaValue::String("de")).unwrap_err();
    /// let response = mismatch.to_response(&serde_json::Value::Null);
    /// assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    /// assert_eq!(response.headers()[CONTENT_TYPE], "application/json");
    /// assert_eq!(response.headers()[VARY], "Accept-Language");
    ///
    /// let id: &RawValue = serde_json::from_str("1.50").unwrap();
    /// let response = mismatch.to_response(id);
    /// assert!(std::str::from_utf8(response.body()).unwrap().starts_with(r#"{"jsonrpc":"2.0","id":1.50,"#));
    /// ```
    pub fn to_response<I>(&self, id: &I) -> Response<Bytes>
    where
        I: Serialize + ?Sized,
    {
        let body = ErrorResponse {
            jsonrpc: "2.0",
            id,
            error: &self.to_error_object(),
        };
        json_response(StatusCode::BAD_REQUEST, to_body(&body))
    }
}

impl fmt::Display for HeaderMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Accept-Language header mismatch: {}", self.summary())
    }
}

impl std::error::Error for HeaderMismatch {}

/// A JSON-RPC error response, serialized with the id as given (a `RawValue` keeps the
/// client's text).
#[derive(Serialize)]
struct ErrorResponse<'a, I: ?Sized, E: ?Sized> {
    jsonrpc: &'static str,
    id: &'a I,
    error: &'a E,
}

/// A JSON-RPC error object built from parts.
#[cfg(feature = "tower")]
#[derive(Serialize)]
struct ErrorObject<'a> {
    code: i64,
    message: &'a str,
    data: serde_json::Value,
}

/// A serialized body. Serializing these values cannot fail (string keys, no
/// non-finite floats); an empty body would be the answer if it ever did.
fn to_body<T: Serialize + ?Sized>(value: &T) -> Bytes {
    serde_json::to_vec(value)
        .map(Bytes::from)
        .unwrap_or_default()
}

/// A JSON-RPC error response body built from parts, for the layer's own refusals,
/// echoing `id` as written (`None` is `null`).
#[cfg(feature = "tower")]
pub(crate) fn json_rpc_error(
    id: Option<&RawValue>,
    code: i64,
    message: &str,
    data: serde_json::Value,
) -> Bytes {
    to_body(&ErrorResponse {
        jsonrpc: "2.0",
        id: &id,
        error: &ErrorObject {
            code,
            message,
            data,
        },
    })
}

/// An uncacheable JSON response with the given status.
pub(crate) fn json_response(status: StatusCode, body: Bytes) -> Response<Bytes> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(VARY, HeaderValue::from_static("Accept-Language"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_strings_and_numbers_exactly_as_written() {
        let echo = |raw| echo_id(Some(raw)).map(RawValue::get);
        for written in [
            r#""abc""#,
            r#""a\u0000b""#,
            "42",
            "-7",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
            "1.5",
            "1e2",
            "1.50",
            "-0",
            "1E+400",
        ] {
            assert_eq!(echo(written), Some(written), "{written}");
        }
        // Surrounding whitespace is not part of the value.
        assert_eq!(echo(" 7 "), Some("7"));
        for not_an_id in ["null", "true", "[1]", "{}", "", "01", "1.", r#""open"#] {
            assert_eq!(echo(not_an_id), None, "{not_an_id}");
        }
        assert_eq!(echo_id(None).map(RawValue::get), None);
    }

    fn headers(lines: &[&'static str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for line in lines {
            h.append(ACCEPT_LANGUAGE, HeaderValue::from_static(line));
        }
        h
    }

    #[test]
    fn the_four_outcomes() {
        let none = headers(&[]);
        let en = headers(&["en"]);
        assert_eq!(
            check_request(&en, MetaValue::String("en")),
            Ok(RequestAgreement::Agreed)
        );
        assert_eq!(
            check_request(&none, MetaValue::String("en")),
            Ok(RequestAgreement::HeaderMissing)
        );
        assert_eq!(
            check_request(&en, MetaValue::Absent),
            Ok(RequestAgreement::BareHeader)
        );
        assert_eq!(
            check_request(&none, MetaValue::Absent),
            Ok(RequestAgreement::NoPreference)
        );
        assert_eq!(
            check_request(&none, MetaValue::NotString),
            Ok(RequestAgreement::NoPreference)
        );
        let err = check_request(&en, MetaValue::NotString).unwrap_err();
        assert_eq!(err.meta_prefix(), None);
        assert_eq!(err.meta_len(), None);
        assert_eq!(err.offset(), None);
    }

    #[test]
    fn a_conflicting_second_line_is_seen() {
        let h = headers(&["en", "fr"]);
        let err = check_request(&h, MetaValue::String("en")).unwrap_err();
        assert_eq!(err.header_prefix(), "en, fr");
        assert_eq!(err.header_len(), 6);
        assert_eq!(err.line_count(), 2);
        assert_eq!(err.offset(), Some(2));
    }

    #[test]
    fn error_body_is_json_rpc() {
        let err = check_request(&headers(&["en-us"]), MetaValue::String("en-US")).unwrap_err();
        let body = err.to_json_rpc(&json!("req-1"));
        assert_eq!(body["jsonrpc"], "2.0");
        assert_eq!(body["id"], "req-1");
        assert_eq!(body["error"]["code"], HEADER_MISMATCH);
        assert_eq!(body["error"]["data"]["metaValue"], "en-US");
        assert_eq!(body["error"]["data"]["metaLength"], 5);
        assert_eq!(body["error"]["data"]["headerValue"], "en-us");
        assert_eq!(body["error"]["data"]["headerLength"], 5);
        assert_eq!(body["error"]["data"]["offset"], 3);
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains("\"en-US\"") && message.contains("\"en-us\""));
        assert!(!message.contains('…'), "{message}");
    }

    /// The answer to a mismatch of any size: at most `QUOTE_LIMIT` bytes of each
    /// value, their lengths, the offset; a few KiB in all.
    #[test]
    fn error_body_is_bounded_whatever_the_size_of_the_values() {
        const MIB: usize = 1 << 20;
        let long_meta = format!("en{}", "\u{1}\u{e9}".repeat(2 * MIB));
        let long_line = HeaderValue::from_bytes(&vec![b'a'; 400 << 10]).unwrap();
        let obs_text = HeaderValue::from_bytes(&[0xe9; 4096]).unwrap();
        let mut h = HeaderMap::new();
        h.append(ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
        h.append(ACCEPT_LANGUAGE, obs_text);
        h.append(ACCEPT_LANGUAGE, long_line);
        for meta in [MetaValue::String(&long_meta), MetaValue::NotString] {
            let err = check_request(&h, meta).unwrap_err();
            let response = err.to_response(&json!("id"));
            let body = response.body();
            assert!(body.len() <= 4 << 10, "{} bytes", body.len());
            let json: serde_json::Value = serde_json::from_slice(body).unwrap();
            let data = &json["error"]["data"];
            assert_eq!(data["headerLength"], 2 + 2 + 4096 + 2 + (400 << 10));
            assert_eq!(data["fieldLines"], 3);
            let header = data["headerValue"].as_str().unwrap();
            assert!(header.len() <= HeaderMismatch::QUOTE_LIMIT);
            assert!(header.starts_with("en, \\xE9\\xE9"), "{header}");
            let message = json["error"]["message"].as_str().unwrap();
            assert!(message.len() <= 1 << 10, "{message}");
            assert!(message.contains(&format!("… ({} bytes)", err.header_len())));
            assert!(err.to_string().len() <= 1 << 10);
            if let MetaValue::String(meta) = meta {
                assert_eq!(data["metaLength"], meta.len());
                assert_eq!(data["offset"], 2);
                let prefix = data["metaValue"].as_str().unwrap();
                assert!(meta.starts_with(prefix) && prefix.len() <= HeaderMismatch::QUOTE_LIMIT);
                assert!(prefix.len() > HeaderMismatch::QUOTE_LIMIT - 4, "{prefix:?}");
            } else {
                assert!(data["metaValue"].is_null() && data["metaLength"].is_null());
            }
        }
    }

    /// A value that ends exactly at the limit is whole: no `…`.
    #[test]
    fn a_value_of_exactly_the_limit_is_not_marked_cut() {
        let exact = "a".repeat(HeaderMismatch::QUOTE_LIMIT);
        let quote = Quote::of_display(&exact, exact.len());
        assert_eq!((quote.prefix.len(), quote.cut), (exact.len(), false));
        let longer = format!("{exact}b");
        let quote = Quote::of_display(&longer, longer.len());
        assert_eq!((quote.prefix.as_str(), quote.cut), (exact.as_str(), true));
        assert_eq!(Quote::of_str(&longer), quote);
    }
}
