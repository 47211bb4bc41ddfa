//! API CONTRACT SKELETON — to be replaced by the real implementation.
#![no_std]

use core::fmt;

/// A quality value (RFC 9110 §12.4.2) in thousandths: 0..=1000 (decision D1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quality(u16);

impl Quality {
    /// q=1, the default weight.
    pub const ONE: Quality = Quality(1000);
    /// q=0, "not acceptable".
    pub const ZERO: Quality = Quality(0);
    /// A quality from thousandths; `None` above 1000.
    pub const fn new(thousandths: u16) -> Option<Quality> {
        if thousandths <= 1000 { Some(Quality(thousandths)) } else { None }
    }
    /// The quality in thousandths.
    pub const fn get(self) -> u16 {
        self.0
    }
    /// Whether this is q=0 (not acceptable).
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
}

/// Where a parse failed and what was expected there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    offset: usize,
    expected: Expected,
}

impl ParseError {
    /// Byte offset of the first error.
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// What the parser expected at that offset.
    pub fn expected(&self) -> Expected {
        self.expected
    }
}

/// What a parser expected where it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expected {
    /// A language range (`*` or 1*8ALPHA *("-" 1*8alphanum)).
    LanguageRange,
}

impl Expected {
    /// Stable short text, used as `expected` in the JSONL protocol.
    pub fn as_str(self) -> &'static str {
        match self {
            Expected::LanguageRange => "language range",
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: expected {}", self.offset, self.expected.as_str())
    }
}

impl core::error::Error for ParseError {}

/// A basic language range (RFC 4647 §2.1) or `*`, borrowed from the input.
#[derive(Clone, Copy, Debug)]
pub struct LanguageRange<'a>(&'a str);

impl<'a> LanguageRange<'a> {
    /// Parses one basic language range.
    pub fn parse(_s: &'a str) -> Result<Self, ParseError> { todo!() }
    /// The range as written.
    pub fn as_str(&self) -> &'a str { self.0 }
    /// Whether this is `*`.
    pub fn is_wildcard(&self) -> bool { self.0 == "*" }
}

/// One element of an `Accept-Language` value.
#[derive(Clone, Copy, Debug)]
pub struct WeightedRange<'a> {
    /// The language range.
    pub range: LanguageRange<'a>,
    /// Its weight (q=1 when absent).
    pub quality: Quality,
}

/// A validated `Accept-Language` field value, borrowed; iterate its ranges.
#[derive(Clone, Copy, Debug)]
pub struct AcceptLanguage<'a> {
    value: &'a str,
    len: usize,
}

impl<'a> AcceptLanguage<'a> {
    /// Parses and validates a field value.
    pub fn parse(_value: &'a str) -> Result<Self, ParseError> { todo!() }
    /// Parses field-value bytes (as `http::HeaderValue::as_bytes` gives).
    pub fn parse_bytes(_value: &'a [u8]) -> Result<Self, ParseError> { todo!() }
    /// The value as given.
    pub fn as_str(&self) -> &'a str { self.value }
    /// Number of ranges (empty list elements do not count).
    pub fn len(&self) -> usize { self.len }
    /// Whether the value has no ranges (no preference).
    pub fn is_empty(&self) -> bool { self.len == 0 }
    /// The ranges in header order.
    pub fn iter(&self) -> Ranges<'a> { todo!() }
}

/// Iterator over the ranges of an [`AcceptLanguage`].
#[derive(Clone, Debug)]
pub struct Ranges<'a> { _rest: &'a str }

impl<'a> Iterator for Ranges<'a> {
    type Item = WeightedRange<'a>;
    fn next(&mut self) -> Option<WeightedRange<'a>> { todo!() }
}

/// A well-formed RFC 5646 language tag, borrowed.
#[derive(Clone, Copy, Debug)]
pub struct LanguageTag<'a>(&'a str);

impl<'a> LanguageTag<'a> {
    /// Parses a tag.
    pub fn parse(_s: &'a str) -> Result<Self, ParseError> { todo!() }
    /// The tag as written.
    pub fn as_str(&self) -> &'a str { self.0 }
}

/// A validated `Content-Language` value (one or more tags).
#[derive(Clone, Copy, Debug)]
pub struct ContentLanguage<'a> { value: &'a str }

impl<'a> ContentLanguage<'a> {
    /// Parses a field value.
    pub fn parse(_value: &'a str) -> Result<Self, ParseError> { todo!() }
    /// The value as given.
    pub fn as_str(&self) -> &'a str { self.value }
}

/// An extended language range (RFC 4647 §2.2).
#[derive(Clone, Copy, Debug)]
pub struct ExtendedRange<'a>(&'a str);

impl<'a> ExtendedRange<'a> {
    /// Parses an extended range.
    pub fn parse(_s: &'a str) -> Result<Self, ParseError> { todo!() }
    /// The range as written.
    pub fn as_str(&self) -> &'a str { self.0 }
}
