//! Extended language ranges (RFC 4647 §2.2), for extended filtering (§3.3.2).
//!
//! ```text
//! extended-language-range = (1*8ALPHA / "*") *("-" (1*8alphanum / "*"))
//! ```
//!
//! Unlike a basic range, any subtag may be the wildcard `*`: `de-*-DE`
//! matches `de-DE`, `de-Latn-DE` and `de-Latf-DE` under extended filtering.
//! These ranges do not appear in `Accept-Language`; they are for APIs that
//! take a priority list of extended ranges directly.

use core::fmt;
use core::hash::{Hash, Hasher};

use nom::bytes::complete::take_while_m_n;

use crate::chars::{is_alpha, is_alphanum, split};
use crate::error::{Expected, Fail, PResult, ParseError, fail, into_fail};
use crate::range::Subtags;

/// An extended language range (RFC 4647 §2.2).
///
/// Equality and hashing ignore ASCII case.
///
/// ```
/// use mcp_lang_grammar::ExtendedRange;
///
/// let range = ExtendedRange::parse("de-*-DE").unwrap();
/// assert!(range.subtags().eq(["de", "*", "DE"]));
/// assert_eq!(range, ExtendedRange::parse("DE-*-de").unwrap());
/// assert!(ExtendedRange::parse("*-1996").is_ok());
/// assert!(ExtendedRange::parse("de-**").is_err());
/// ```
#[derive(Clone, Copy)]
pub struct ExtendedRange<'a>(&'a str);

impl<'a> ExtendedRange<'a> {
    /// Parses an extended range; the whole string must be the range.
    ///
    /// ```
    /// use mcp_lang_grammar::{ExtendedRange, Expected};
    /// let err = ExtendedRange::parse("de-*DE").unwrap_err();
    /// assert_eq!((err.offset(), err.expected()), (4, Expected::SubtagEnd));
    /// ```
    pub fn parse(s: &'a str) -> Result<Self, ParseError> {
        let whole = s.as_bytes();
        match extended_range(whole) {
            Ok(([], ())) => Ok(ExtendedRange(s)),
            Ok((rest, ())) => Err(ParseError::new(whole.len() - rest.len(), Expected::End)),
            Err(e) => Err(into_fail(e, whole).locate(whole)),
        }
    }

    /// The range as written.
    ///
    /// ```
    /// use mcp_lang_grammar::ExtendedRange;
    /// assert_eq!(ExtendedRange::parse("*-CH").unwrap().as_str(), "*-CH");
    /// ```
    pub fn as_str(&self) -> &'a str {
        self.0
    }

    /// The subtags, in order; a wildcard subtag is `"*"`.
    ///
    /// ```
    /// use mcp_lang_grammar::ExtendedRange;
    /// assert_eq!(ExtendedRange::parse("*").unwrap().subtags().next(), Some("*"));
    /// ```
    pub fn subtags(&self) -> Subtags<'a> {
        Subtags::new(self.0)
    }
}

impl PartialEq for ExtendedRange<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for ExtendedRange<'_> {}

impl Hash for ExtendedRange<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for b in self.0.bytes() {
            state.write_u8(b.to_ascii_lowercase());
        }
        state.write_u8(0xff);
    }
}

impl fmt::Debug for ExtendedRange<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ExtendedRange").field(&self.0).finish()
    }
}

impl fmt::Display for ExtendedRange<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// One subtag of an extended range: `*`, or up to 8 bytes of `class`.
fn subtag(input: &[u8], class: fn(u8) -> bool, expected: Expected) -> PResult<'_, ()> {
    let rest = if input.first() == Some(&b'*') {
        split(input, 1).1
    } else {
        take_while_m_n::<_, _, Fail<'_>>(1, 8, class)(input)
            .or_else(|_| fail(input, expected))?
            .0
    };
    match rest.first() {
        Some(&b) if is_alphanum(b) || b == b'*' => fail(rest, Expected::SubtagEnd),
        _ => Ok((rest, ())),
    }
}

/// `extended-language-range`.
fn extended_range(input: &[u8]) -> PResult<'_, ()> {
    let (mut rest, ()) = subtag(input, is_alpha, Expected::ExtendedRange)?;
    while let Some((b'-', after)) = rest.split_first() {
        rest = subtag(after, is_alphanum, Expected::Subtag)?.0;
    }
    Ok((rest, ()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> (usize, Expected) {
        let e = ExtendedRange::parse(s).unwrap_err();
        (e.offset(), e.expected())
    }

    #[test]
    fn rfc4647_examples() {
        for s in [
            "*",
            "de-*-DE",
            "de-DE",
            "*-DE",
            "de-*",
            "de-*-*",
            "en-Latn-*",
            "*-CH-1996",
            "abcdefgh-12345678",
        ] {
            assert!(ExtendedRange::parse(s).is_ok(), "{s}");
        }
    }

    #[test]
    fn errors() {
        assert_eq!(err(""), (0, Expected::ExtendedRange));
        assert_eq!(err("1"), (0, Expected::ExtendedRange));
        assert_eq!(err("de-"), (3, Expected::Subtag));
        assert_eq!(err("**"), (1, Expected::SubtagEnd));
        assert_eq!(err("de*"), (2, Expected::SubtagEnd));
        assert_eq!(err("abcdefghi"), (8, Expected::SubtagEnd));
        assert_eq!(err("de DE"), (2, Expected::End));
        assert_eq!(err("de--DE"), (3, Expected::Subtag));
    }
}
