//! Parse errors: where a value stops being well-formed, and what was expected.
//!
//! Every parser in this crate reports the same kind of error: a byte
//! offset and an [`Expected`]; [`ParseError`] says exactly what the offset means.
//!
//! ```
//! use mcp_lang_grammar::{AcceptLanguage, ContentLanguage, Expected};
//!
//! let err = AcceptLanguage::parse("en;q=").unwrap_err();
//! assert_eq!((err.offset(), err.expected()), (5, Expected::QValue));
//! let err = ContentLanguage::parse("de, fr-").unwrap_err();
//! assert_eq!(err.offset(), 7); // "fr-" could still begin a tag: the end
//! ```

use core::fmt;

/// Where a parse failed and what was expected there.
///
/// # What the offset means
///
/// The offset is the length of the longest prefix of the input that is still
/// the beginning of *some* well-formed value. Equivalently: it is the first
/// byte at which no well-formed value could continue, or the length of the
/// input when the value is a well-formed beginning that stops too early
/// (`en;q=` fails at offset 5, the end). This definition depends only on the
/// grammar, not on how a parser is written, so another implementation can
/// compute exactly the same offset; the `testdata/` cases treat it as
/// normative. The [`Expected`] text is this implementation's wording.
///
/// ```
/// use mcp_lang_grammar::{AcceptLanguage, Expected};
///
/// let err = AcceptLanguage::parse("fr;q=0.1234").unwrap_err();
/// assert_eq!(err.offset(), 10); // "0.123" is a qvalue, "0.1234" is not
/// assert_eq!(err.expected(), Expected::QValue);
/// assert_eq!(err.to_string(), "at byte 10: expected qvalue");
/// ```
///
/// Bytes outside printable ASCII (control characters, DEL, any byte of a
/// multi-byte UTF-8 sequence) never appear in any of these grammars, so they
/// are reported like any other unexpected byte, at their own offset.
///
/// ```
/// use mcp_lang_grammar::{Expected, LanguageTag};
///
/// let err = LanguageTag::parse("de-419-DE").unwrap_err();
/// assert_eq!((err.offset(), err.expected()), (9, Expected::Subtag));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    offset: usize,
    expected: Expected,
}

impl ParseError {
    pub(crate) const fn new(offset: usize, expected: Expected) -> ParseError {
        ParseError { offset, expected }
    }

    /// Byte offset of the first error (see [`ParseError`] for the exact rule).
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// assert_eq!(AcceptLanguage::parse("en;q=2").unwrap_err().offset(), 5);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What the parser expected at that offset.
    ///
    /// ```
    /// use mcp_lang_grammar::{AcceptLanguage, Expected};
    /// assert_eq!(AcceptLanguage::parse("en;v=1").unwrap_err().expected(), Expected::Q);
    /// ```
    pub fn expected(&self) -> Expected {
        self.expected
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at byte {}: expected {}",
            self.offset,
            self.expected.as_str()
        )
    }
}

impl core::error::Error for ParseError {}

/// What a parser expected where it failed.
///
/// [`Expected::as_str`] gives a short text that is stable across releases
/// (the `mcp-lang match --jsonl` protocol reports it as `expected`).
///
/// ```
/// use mcp_lang_grammar::Expected;
/// assert_eq!(Expected::QValue.as_str(), "qvalue");
/// assert_eq!(Expected::QValue.to_string(), "qvalue");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// A language range (`*` or 1*8ALPHA *("-" 1*8alphanum)).
    LanguageRange,
    /// An extended language range (RFC 4647 §2.2).
    ExtendedRange,
    /// A language tag (RFC 5646 §2.1), or its primary language subtag.
    LanguageTag,
    /// A subtag that fits here: 1 to 8 letters or digits, of the kind
    /// (script, region, variant, extension, …) the position allows.
    Subtag,
    /// An extension subtag: 2 to 8 letters or digits after a singleton.
    ExtensionSubtag,
    /// A private-use subtag: 1 to 8 letters or digits after `x`.
    PrivateUseSubtag,
    /// The end of the current subtag: it is already as long as it may be,
    /// or the byte is not allowed in it (digits in a range's first subtag).
    SubtagEnd,
    /// `-` or the end of the tag.
    TagEnd,
    /// The end of a grandfathered tag, or the rest of one.
    Grandfathered,
    /// `;` (a weight) or `,` (the next list element).
    SemicolonOrComma,
    /// `,` (the next list element).
    Comma,
    /// The weight parameter `q=` (no other parameter is allowed).
    Q,
    /// A qvalue: `0` or `1`, optionally `.` and up to three digits, at most 1.
    QValue,
    /// The end of the value.
    End,
    /// Nothing more: the value is longer than [`Limits`](crate::Limits) allow.
    ByteLimit,
    /// Nothing more: the value has more ranges than [`Limits`](crate::Limits) allow.
    RangeLimit,
}

impl Expected {
    /// Stable short text, used as `expected` in the JSONL protocol.
    ///
    /// ```
    /// use mcp_lang_grammar::Expected;
    /// assert_eq!(Expected::LanguageRange.as_str(), "language range");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Expected::LanguageRange => "language range",
            Expected::ExtendedRange => "extended language range",
            Expected::LanguageTag => "language tag",
            Expected::Subtag => "subtag",
            Expected::ExtensionSubtag => "extension subtag",
            Expected::PrivateUseSubtag => "private-use subtag",
            Expected::SubtagEnd => "end of subtag",
            Expected::TagEnd => "'-' or end of tag",
            Expected::Grandfathered => "grandfathered tag",
            Expected::SemicolonOrComma => "';' or ','",
            Expected::Comma => "','",
            Expected::Q => "'q='",
            Expected::QValue => "qvalue",
            Expected::End => "end of value",
            Expected::ByteLimit => "end of value (byte limit)",
            Expected::RangeLimit => "end of value (range limit)",
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The nom error type of the internal parsers: the input left where parsing
/// failed (so the offset is `whole.len() - rest.len()`) and what was expected.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fail<'a> {
    pub(crate) rest: &'a [u8],
    pub(crate) expected: Expected,
}

impl<'a> Fail<'a> {
    /// The public error, given the whole input this parse started on.
    pub(crate) fn locate(self, whole: &[u8]) -> ParseError {
        ParseError::new(whole.len().saturating_sub(self.rest.len()), self.expected)
    }
}

impl<'a> nom::error::ParseError<&'a [u8]> for Fail<'a> {
    fn from_error_kind(input: &'a [u8], _kind: nom::error::ErrorKind) -> Self {
        Fail {
            rest: input,
            expected: Expected::End,
        }
    }

    fn append(_input: &'a [u8], _kind: nom::error::ErrorKind, other: Self) -> Self {
        other
    }

    /// Of two alternatives, keep the one that got further.
    fn or(self, other: Self) -> Self {
        if other.rest.len() < self.rest.len() {
            other
        } else {
            self
        }
    }
}

/// Result of an internal parser over bytes.
pub(crate) type PResult<'a, O> = nom::IResult<&'a [u8], O, Fail<'a>>;

/// An error at `rest` expecting `expected`.
pub(crate) fn fail<'a, O>(rest: &'a [u8], expected: Expected) -> PResult<'a, O> {
    Err(nom::Err::Error(Fail { rest, expected }))
}

/// Unwraps a nom error into its [`Fail`] (all our parsers are complete, so
/// `Incomplete` cannot happen; it is mapped to an error at the end).
pub(crate) fn into_fail<'a>(err: nom::Err<Fail<'a>>, whole: &'a [u8]) -> Fail<'a> {
    match err {
        nom::Err::Error(f) | nom::Err::Failure(f) => f,
        nom::Err::Incomplete(_) => Fail {
            rest: whole.get(whole.len()..).unwrap_or(&[]),
            expected: Expected::End,
        },
    }
}
