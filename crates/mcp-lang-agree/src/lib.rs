//! Exact agreement between an MCP `_meta` language value and the HTTP field that
//! mirrors it (SEP-2792, "Exact field value agreement"; decision D5).
//!
//! On Streamable HTTP, an MCP request carries the user's language preference twice:
//! canonically in `params._meta["io.modelcontextprotocol/acceptLanguage"]` and as the
//! `Accept-Language` header; a response carries `contentLanguage` in its `_meta` and as
//! `Content-Language`. The SEP asks a receiver whether the two *agree*, and it makes the
//! question purely lexical:
//!
//! 1. take the decoded `_meta` string exactly as it is (no trimming, no case folding);
//! 2. take each field line with the optional whitespace around it removed (SP and HTAB,
//!    RFC 9110 §5.5), and join the lines, in received order, with `", "` (RFC 9110 §5.3);
//! 3. compare the two byte for byte.
//!
//! So `en-US` and `en-us` do **not** agree, nor `en;q=0.9` and `en;q=0.900`, nor
//! `en-US,en` and `en-US, en`, even though HTTP treats each pair as equivalent. Agreement
//! is checked *before* grammar validation: a malformed value that agrees is still in
//! agreement (and then ignored as a malformed preference), and a well-formed value that
//! disagrees is still a mismatch.
//!
//! # When to use this crate
//!
//! Use [`agree`] in an HTTP binding of MCP: on a server, to decide whether a request must
//! be rejected with `400 Bad Request` and `HeaderMismatch` (-32020); on a client, to decide
//! whether a response's `Content-Language` conflicts with its `contentLanguage`. The same
//! function serves both fields.
//!
//! Do not use it to ask whether two preferences *mean* the same thing, or which language
//! to serve: that is RFC 4647 matching, which `mcp-lang-match` does.
//!
//! # Example
//!
//! Field lines come in as raw bytes, the way `http::HeaderMap::get_all(..).iter()
//! .map(HeaderValue::as_bytes)` yields them:
//!
//! ```
//! use mcp_lang_agree::{agree, Agreement, MetaValue};
//!
//! // Two field lines combine to "en-US, en;q=0.9".
//! let lines: [&[u8]; 2] = [b"en-US", b"en;q=0.9"];
//! assert_eq!(agree(MetaValue::String("en-US, en;q=0.9"), lines), Agreement::Agree);
//!
//! // Whitespace around a field line is not part of the field value.
//! assert_eq!(agree(MetaValue::String("en"), [&b"  en "[..]]), Agreement::Agree);
//!
//! // Case is significant: this request gets a 400 and HeaderMismatch.
//! match agree(MetaValue::String("en-US"), [&b"en-us"[..]]) {
//!     Agreement::Mismatch(m) => {
//!         assert_eq!(m.offset(), Some(3));
//!         assert_eq!(
//!             m.to_string(),
//!             r#"_meta value "en-US" does not agree with field line 1 "en-us" (first difference at byte 4)"#,
//!         );
//!     }
//!     other => panic!("expected a mismatch, got {other:?}"),
//! }
//!
//! // No header: tolerated. A header without `_meta`: no preference.
//! assert_eq!(agree(MetaValue::String("fr"), []), Agreement::HeaderAbsent);
//! assert_eq!(agree(MetaValue::Absent, [&b"fr"[..]]), Agreement::BareHeader);
//! ```
//!
//! # The four answers
//!
//! | `_meta` value | field lines | answer |
//! |---------------|-------------|--------|
//! | any | none | [`Agreement::HeaderAbsent`] (the SEP tolerates a missing or stripped header) |
//! | absent | one or more | [`Agreement::BareHeader`] (a bare header creates no MCP preference) |
//! | a string | one or more | [`Agreement::Agree`] or [`Agreement::Mismatch`] |
//! | not a string | one or more | [`Agreement::Mismatch`] (decision D5) |
//!
//! "Both absent" is [`Agreement::HeaderAbsent`]: there is nothing to compare and nothing to
//! reject, and the caller already knows `_meta` is absent. A field line that is present
//! but empty (or only whitespace) *is* a present header whose value is the empty string;
//! two such lines join to `", "`, exactly as the SEP's join rule says.
//!
//! # Cost
//!
//! One pass over the `_meta` string and the field lines, comparing piecewise: the joined
//! value is never built, nothing is allocated, and the answer is known at the first
//! differing byte. The crate has no dependencies and is `#![no_std]`.

#![no_std]

mod field;

pub use field::{JoinedLines, trim_field_line};

use core::fmt;

/// The `_meta` side of the comparison, as found in the parsed JSON body.
///
/// ```
/// use mcp_lang_agree::MetaValue;
///
/// let raw: Option<&str> = Some("fr-CA, fr;q=0.9");
/// let meta = raw.map_or(MetaValue::Absent, MetaValue::String);
/// assert_eq!(meta.as_str(), Some("fr-CA, fr;q=0.9"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MetaValue<'a> {
    /// The key is not in `_meta` (or there is no `_meta`).
    Absent,
    /// The key holds a JSON string; this is its decoded value, untouched.
    String(&'a str),
    /// The key is present but holds something other than a string (a number, `null`,
    /// an object…). Beside a present header this never agrees (decision D5).
    NotString,
}

impl<'a> MetaValue<'a> {
    /// The string value, if the key holds a string.
    ///
    /// ```
    /// use mcp_lang_agree::MetaValue;
    /// assert_eq!(MetaValue::String("de").as_str(), Some("de"));
    /// assert_eq!(MetaValue::NotString.as_str(), None);
    /// ```
    pub const fn as_str(&self) -> Option<&'a str> {
        match *self {
            MetaValue::String(s) => Some(s),
            MetaValue::Absent | MetaValue::NotString => None,
        }
    }

    /// Whether the key is present at all (a string or not).
    ///
    /// ```
    /// use mcp_lang_agree::MetaValue;
    /// assert!(MetaValue::NotString.is_present());
    /// assert!(!MetaValue::Absent.is_present());
    /// ```
    pub const fn is_present(&self) -> bool {
        !matches!(self, MetaValue::Absent)
    }
}

impl<'a> From<Option<&'a str>> for MetaValue<'a> {
    /// `None` is [`MetaValue::Absent`], `Some(s)` is [`MetaValue::String`].
    fn from(value: Option<&'a str>) -> Self {
        value.map_or(MetaValue::Absent, MetaValue::String)
    }
}

/// The answer of [`agree`].
///
/// ```
/// use mcp_lang_agree::{agree, Agreement, MetaValue};
///
/// let answer = agree(MetaValue::String("en;q=0.9"), [&b"en;q=0.900"[..]]);
/// assert!(matches!(answer, Agreement::Mismatch(_)));
/// assert!(answer.is_mismatch());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement<'a> {
    /// `_meta` holds a string and the joined field value equals it byte for byte.
    Agree,
    /// The header is present and `_meta` holds a different string, or something that is
    /// not a string. A server rejects the request with 400 and HeaderMismatch (-32020); a
    /// client treats the response as malformed.
    Mismatch(Mismatch<'a>),
    /// No field line at all. The SEP lets a server tolerate a missing or stripped
    /// `Accept-Language` and use the `_meta` value alone; this is also the answer when
    /// `_meta` is absent too (nothing to compare, nothing to reject).
    HeaderAbsent,
    /// One or more field lines but no `_meta` key: "a bare header without the canonical
    /// `_meta` field does not create an MCP preference".
    BareHeader,
}

impl<'a> Agreement<'a> {
    /// Whether this is a [`Agreement::Mismatch`], the only answer that rejects a message.
    ///
    /// ```
    /// use mcp_lang_agree::{agree, MetaValue};
    /// assert!(!agree(MetaValue::String("en"), []).is_mismatch());
    /// assert!(agree(MetaValue::NotString, [&b"en"[..]]).is_mismatch());
    /// ```
    pub const fn is_mismatch(&self) -> bool {
        matches!(self, Agreement::Mismatch(_))
    }

    /// The details of a mismatch, if this is one.
    ///
    /// ```
    /// use mcp_lang_agree::{agree, MetaValue};
    /// let answer = agree(MetaValue::String("en-US,en"), [&b"en-US, en"[..]]);
    /// let m = answer.mismatch().unwrap();
    /// assert_eq!(m.offset(), Some(6));
    /// ```
    pub const fn mismatch(&self) -> Option<&Mismatch<'a>> {
        match self {
            Agreement::Mismatch(m) => Some(m),
            _ => None,
        }
    }

    /// A short, stable name: `agree`, `mismatch`, `header-absent` or `bare-header` (the
    /// names the `mcp-lang match --jsonl` protocol uses).
    ///
    /// ```
    /// use mcp_lang_agree::{agree, MetaValue};
    /// assert_eq!(agree(MetaValue::Absent, [&b"en"[..]]).as_str(), "bare-header");
    /// ```
    pub const fn as_str(&self) -> &'static str {
        match self {
            Agreement::Agree => "agree",
            Agreement::Mismatch(_) => "mismatch",
            Agreement::HeaderAbsent => "header-absent",
            Agreement::BareHeader => "bare-header",
        }
    }
}

/// What disagreed, for an error message that shows both values.
///
/// It holds the `_meta` value, the byte offset of the first difference, and the field
/// line (trimmed) in which that difference lies, all borrowed. To show the whole joined
/// field value as well, run the same lines through [`JoinedLines`].
///
/// ```
/// use mcp_lang_agree::{agree, JoinedLines, MetaValue};
///
/// let lines: [&[u8]; 2] = [b"en-US", b"en;q=0.9"];
/// let m = agree(MetaValue::String("en-US, en;q=0.8"), lines).mismatch().copied().unwrap();
/// assert_eq!(m.meta().as_str(), Some("en-US, en;q=0.8"));
/// assert_eq!(m.offset(), Some(14));
/// assert_eq!((m.line_number(), m.line()), (2, &b"en;q=0.9"[..]));
/// assert_eq!(JoinedLines::new(lines.into_iter()).to_string(), "en-US, en;q=0.9");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch<'a> {
    meta: MetaValue<'a>,
    offset: usize,
    line_number: usize,
    line: &'a [u8],
}

impl<'a> Mismatch<'a> {
    /// The `_meta` value: [`MetaValue::String`] or [`MetaValue::NotString`].
    ///
    /// ```
    /// use mcp_lang_agree::{agree, MetaValue};
    ///
    /// let answer = agree(MetaValue::NotString, [&b"en"[..]]);
    /// assert_eq!(answer.mismatch().unwrap().meta(), MetaValue::NotString);
    /// ```
    pub const fn meta(&self) -> MetaValue<'a> {
        self.meta
    }

    /// The byte offset, in both the `_meta` string and the joined field value, of the
    /// first byte that differs (or where the shorter one ends). `None` when the `_meta`
    /// value is not a string.
    ///
    /// ```
    /// use mcp_lang_agree::{agree, MetaValue};
    ///
    /// let answer = agree(MetaValue::String("de-CH"), [&b"de-AT"[..]]);
    /// assert_eq!(answer.mismatch().unwrap().offset(), Some(3));
    /// let answer = agree(MetaValue::String("de"), [&b"de, en"[..]]);
    /// assert_eq!(answer.mismatch().unwrap().offset(), Some(2)); // `_meta` ends there
    /// let answer = agree(MetaValue::NotString, [&b"de"[..]]);
    /// assert_eq!(answer.mismatch().unwrap().offset(), None);
    /// ```
    pub const fn offset(&self) -> Option<usize> {
        match self.meta {
            MetaValue::String(_) => Some(self.offset),
            MetaValue::Absent | MetaValue::NotString => None,
        }
    }

    /// The 1-based number of the field line where the difference lies: the line being
    /// compared, or the line that follows a separator that did not match. When the
    /// `_meta` string is longer than the joined value, this is the last line. When `_meta`
    /// is not a string, this is line 1.
    ///
    /// ```
    /// use mcp_lang_agree::{agree, MetaValue};
    ///
    /// let lines: [&[u8]; 3] = [b"fr-CA", b"fr;q=0.9", b"en;q=0.5"];
    /// let answer = agree(MetaValue::String("fr-CA, fr;q=0.9, en;q=0.4"), lines);
    /// assert_eq!(answer.mismatch().unwrap().line_number(), 3);
    /// ```
    pub const fn line_number(&self) -> usize {
        self.line_number
    }

    /// That field line, with surrounding SP/HTAB removed, as raw bytes (field values may
    /// carry obs-text, which is not UTF-8).
    ///
    /// ```
    /// use mcp_lang_agree::{agree, MetaValue};
    ///
    /// let lines: [&[u8]; 2] = [b" ja ", b"\ten-\xE9 "];
    /// let answer = agree(MetaValue::String("ja, en-e"), lines);
    /// assert_eq!(answer.mismatch().unwrap().line(), b"en-\xE9");
    /// ```
    pub const fn line(&self) -> &'a [u8] {
        self.line
    }
}

/// The mismatch for people: the values quoted, the field line and the first differing
/// byte numbered from 1 ([`Mismatch::offset`] is 0-based).
impl fmt::Display for Mismatch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.meta {
            MetaValue::String(s) => write!(
                f,
                "_meta value {:?} does not agree with field line {} \"",
                s, self.line_number
            )?,
            MetaValue::Absent | MetaValue::NotString => write!(
                f,
                "_meta value is not a string, so it cannot agree with field line {} \"",
                self.line_number
            )?,
        }
        field::write_escaped(f, self.line)?;
        f.write_str("\"")?;
        if let MetaValue::String(_) = self.meta {
            // Numbered from 1, as people count; `offset()` stays 0-based.
            write!(f, " (first difference at byte {})", self.offset + 1)?;
        }
        Ok(())
    }
}

/// Decides whether a `_meta` value and the HTTP field lines that mirror it agree
/// (SEP-2792 "Exact field value agreement", decision D5).
///
/// `lines` are the raw values of every field line of the header, in received order
/// (`HeaderMap::get_all(name).iter().map(HeaderValue::as_bytes)`), untrimmed: SP and HTAB
/// around each line are removed here. An API that exposes only the complete combined
/// value can pass it as a single line. Never pass only the first of several lines: that
/// can hide a conflicting line, which the SEP forbids.
///
/// Runs in one pass, stops at the first difference, and does not allocate.
///
/// ```
/// use mcp_lang_agree::{agree, Agreement, MetaValue};
///
/// // The SEP's pairs that must not agree.
/// for (meta, line) in [("en-US", "en-us"), ("en-US,en;q=0.9", "en-US, en;q=0.9"), ("en;q=0.9", "en;q=0.900")] {
///     assert!(agree(MetaValue::String(meta), [line.as_bytes()]).is_mismatch());
/// }
/// // Agreement comes before grammar: a malformed value that agrees, agrees.
/// assert_eq!(agree(MetaValue::String("not a ;; range"), [&b"not a ;; range"[..]]), Agreement::Agree);
/// ```
pub fn agree<'a, I>(meta: MetaValue<'a>, lines: I) -> Agreement<'a>
where
    I: IntoIterator<Item = &'a [u8]>,
{
    let mut lines = lines.into_iter();
    let Some(first) = lines.next() else {
        return Agreement::HeaderAbsent;
    };
    let first = trim_field_line(first);
    let expected = match meta {
        MetaValue::Absent => return Agreement::BareHeader,
        MetaValue::NotString => {
            return Agreement::Mismatch(Mismatch {
                meta,
                offset: 0,
                line_number: 1,
                line: first,
            });
        }
        MetaValue::String(s) => s.as_bytes(),
    };
    let mismatch = |offset, line_number, line| {
        Agreement::Mismatch(Mismatch {
            meta,
            offset,
            line_number,
            line,
        })
    };

    // `rest` is the part of the `_meta` string not yet matched; `offset` is its start.
    let mut rest = expected;
    let mut offset = 0;
    let mut line = first;
    let mut line_number = 1;
    loop {
        match rest.strip_prefix(line) {
            Some(after) => {
                rest = after;
                offset += line.len();
            }
            None => return mismatch(offset + common_prefix(rest, line), line_number, line),
        }
        let Some(next) = lines.next() else { break };
        let next = trim_field_line(next);
        line_number += 1;
        match rest.strip_prefix(SEPARATOR) {
            Some(after) => {
                rest = after;
                offset += SEPARATOR.len();
            }
            None => return mismatch(offset + common_prefix(rest, SEPARATOR), line_number, next),
        }
        line = next;
    }
    if rest.is_empty() {
        Agreement::Agree
    } else {
        mismatch(offset, line_number, line)
    }
}

/// What joins repeated field lines (RFC 9110 §5.3, as the SEP prescribes).
const SEPARATOR: &[u8] = b", ";

/// The length of the longest common prefix of `a` and `b`.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_point_at_the_first_difference() {
        let lines: [&[u8]; 3] = [b"a", b"bc", b"d"];
        assert_eq!(
            agree(MetaValue::String("a, bc, d"), lines),
            Agreement::Agree
        );
        let m = agree(MetaValue::String("a, bX, d"), lines)
            .mismatch()
            .copied()
            .unwrap();
        assert_eq!(
            (m.offset(), m.line_number(), m.line()),
            (Some(4), 2, &b"bc"[..])
        );
        let m = agree(MetaValue::String("a,bc, d"), lines)
            .mismatch()
            .copied()
            .unwrap();
        assert_eq!(
            (m.offset(), m.line_number(), m.line()),
            (Some(2), 2, &b"bc"[..])
        );
        let m = agree(MetaValue::String("a, bc, d, e"), lines)
            .mismatch()
            .copied()
            .unwrap();
        assert_eq!(
            (m.offset(), m.line_number(), m.line()),
            (Some(8), 3, &b"d"[..])
        );
        let m = agree(MetaValue::String("a, bc"), lines)
            .mismatch()
            .copied()
            .unwrap();
        assert_eq!(
            (m.offset(), m.line_number(), m.line()),
            (Some(5), 3, &b"d"[..])
        );
        let m = agree(MetaValue::String(""), lines)
            .mismatch()
            .copied()
            .unwrap();
        assert_eq!((m.offset(), m.line_number()), (Some(0), 1));
    }
}

/// The README's examples, compiled and run with the doctests so they cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
