//! Basic language ranges (RFC 4647 §2.1), the elements of `Accept-Language`.
//!
//! ```text
//! language-range = (1*8ALPHA *("-" 1*8alphanum)) / "*"
//! alphanum       = ALPHA / DIGIT
//! ```
//!
//! A basic range is a run of subtags of one to eight letters or digits,
//! separated by `-`, whose first subtag is letters only; or the wildcard `*`.
//! It is *not* a language tag: `en-a`, `x-private-thing-12345678` and
//! `abcdefgh-1` are ranges although not all are well-formed tags, and the
//! parser does not look at the meaning of subtags. Letter case is not
//! significant (RFC 4647 §2.1): equality of two ranges ignores it.

use core::fmt;
use core::hash::{Hash, Hasher};

use nom::bytes::complete::take_while;

use crate::chars::{consumed, is_alpha, is_alphanum, split};
use crate::error::{Expected, Fail, PResult, ParseError, fail, into_fail};

/// A basic language range (RFC 4647 §2.1) or `*`, borrowed from the input.
///
/// Equality and hashing ignore ASCII case, as RFC 4647 says ranges are
/// compared; [`as_str`](LanguageRange::as_str) keeps the spelling given.
///
/// ```
/// use mcp_lang_grammar::LanguageRange;
///
/// let range = LanguageRange::parse("zh-Hant-TW").unwrap();
/// assert_eq!(range.as_str(), "zh-Hant-TW");
/// assert_eq!(range, LanguageRange::parse("ZH-hant-tw").unwrap());
/// assert!(range.subtags().eq(["zh", "Hant", "TW"]));
/// assert!(LanguageRange::parse("*").unwrap().is_wildcard());
/// assert!(LanguageRange::parse("en-*").is_err()); // an extended range, not a basic one
/// ```
#[derive(Clone, Copy)]
pub struct LanguageRange<'a>(&'a str);

impl<'a> LanguageRange<'a> {
    /// Parses one basic language range; the whole string must be the range.
    ///
    /// ```
    /// use mcp_lang_grammar::{Expected, LanguageRange};
    ///
    /// assert!(LanguageRange::parse("de-CH-1996").is_ok());
    /// let err = LanguageRange::parse("abcdefghi").unwrap_err();
    /// assert_eq!((err.offset(), err.expected()), (8, Expected::SubtagEnd));
    /// ```
    pub fn parse(s: &'a str) -> Result<Self, ParseError> {
        let whole = s.as_bytes();
        match basic_range(whole) {
            Ok(([], _)) => Ok(LanguageRange(s)),
            Ok((rest, _)) => Err(ParseError::new(whole.len() - rest.len(), Expected::End)),
            Err(e) => Err(into_fail(e, whole).locate(whole)),
        }
    }

    /// Wraps a string the caller's parser has already validated as a range.
    pub(crate) fn from_validated_str(s: &'a str) -> LanguageRange<'a> {
        LanguageRange(s)
    }

    /// The range as written.
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageRange;
    /// assert_eq!(LanguageRange::parse("en-GB").unwrap().as_str(), "en-GB");
    /// ```
    pub fn as_str(&self) -> &'a str {
        self.0
    }

    /// Whether this is `*`.
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageRange;
    /// assert!(!LanguageRange::parse("en").unwrap().is_wildcard());
    /// ```
    pub fn is_wildcard(&self) -> bool {
        self.0 == "*"
    }

    /// The subtags, in order (`*` has the one subtag `*`).
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageRange;
    /// let range = LanguageRange::parse("de-CH-1996").unwrap();
    /// assert_eq!(range.subtags().len(), 3);
    /// assert_eq!(range.subtags().last(), Some("1996"));
    /// ```
    pub fn subtags(&self) -> Subtags<'a> {
        Subtags::new(self.0)
    }
}

impl PartialEq for LanguageRange<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for LanguageRange<'_> {}

impl Hash for LanguageRange<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for b in self.0.bytes() {
            state.write_u8(b.to_ascii_lowercase());
        }
        state.write_u8(0xff);
    }
}

impl fmt::Debug for LanguageRange<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("LanguageRange").field(&self.0).finish()
    }
}

impl fmt::Display for LanguageRange<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// An iterator over the `-`-separated subtags of a range or tag.
///
/// ```
/// use mcp_lang_grammar::LanguageTag;
/// let tag = LanguageTag::parse("sr-Latn-RS").unwrap();
/// assert_eq!(tag.subtags().collect::<Vec<_>>(), ["sr", "Latn", "RS"]);
/// ```
#[derive(Clone, Debug)]
pub struct Subtags<'a> {
    rest: Option<&'a str>,
    left: usize,
}

impl<'a> Subtags<'a> {
    pub(crate) fn new(s: &'a str) -> Subtags<'a> {
        let left = s.bytes().filter(|&b| b == b'-').count() + 1;
        Subtags {
            rest: Some(s),
            left,
        }
    }
}

impl<'a> Iterator for Subtags<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.split_once('-') {
            Some((subtag, after)) => {
                self.rest = Some(after);
                self.left = self.left.saturating_sub(1);
                Some(subtag)
            }
            None => {
                self.rest = None;
                self.left = 0;
                Some(rest)
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Subtags<'_> {}

impl core::iter::FusedIterator for Subtags<'_> {}

/// `language-range`: a basic range or `*`. Returns the range's bytes.
///
/// Stops at the first byte that cannot continue the range. When that byte is
/// a letter or digit the range cannot end there either (the subtag is at its
/// maximum length, or a digit follows letters in the first subtag), so it
/// fails with [`Expected::SubtagEnd`] rather than leaving the caller to
/// report a list error.
#[inline(always)]
pub(crate) fn basic_range(input: &[u8]) -> PResult<'_, &[u8]> {
    if let Some((b'*', rest)) = input.split_first() {
        return Ok((rest, consumed(input, rest)));
    }
    let (mut rest, first) = take_while::<_, _, Fail<'_>>(is_alpha)(input)?;
    subtag_length(input, first, Expected::LanguageRange)?;
    if rest.first().is_some_and(|&b| is_alphanum(b)) {
        return fail(rest, Expected::SubtagEnd);
    }
    while let Some((b'-', after)) = rest.split_first() {
        let (after_subtag, subtag) = take_while::<_, _, Fail<'_>>(is_alphanum)(after)?;
        subtag_length(after, subtag, Expected::Subtag)?;
        rest = after_subtag;
    }
    Ok((rest, consumed(input, rest)))
}

/// Checks that `subtag`, found at the start of `at`, has 1 to 8 bytes.
#[inline(always)]
fn subtag_length<'a>(at: &'a [u8], subtag: &[u8], empty: Expected) -> PResult<'a, ()> {
    match subtag.len() {
        0 => fail(at, empty),
        1..=8 => Ok((at, ())),
        _ => fail(split(at, 8).1, Expected::SubtagEnd),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> (usize, Expected) {
        let e = LanguageRange::parse(s).unwrap_err();
        (e.offset(), e.expected())
    }

    #[test]
    fn rfc4647_basic_ranges() {
        for s in [
            "*",
            "en",
            "de-CH",
            "zh-Hant-TW",
            "de-CH-1996",
            "abcdefgh",
            "a-12345678",
            "x-a-b-c",
            "EN-us",
            "i-klingon",
        ] {
            assert_eq!(LanguageRange::parse(s).map(|r| r.as_str()), Ok(s));
        }
    }

    #[test]
    fn not_basic_ranges() {
        assert_eq!(err(""), (0, Expected::LanguageRange));
        assert_eq!(err("1en"), (0, Expected::LanguageRange));
        assert_eq!(err("-en"), (0, Expected::LanguageRange));
        assert_eq!(err("en-"), (3, Expected::Subtag));
        assert_eq!(err("en--US"), (3, Expected::Subtag));
        assert_eq!(err("en1"), (2, Expected::SubtagEnd));
        assert_eq!(err("abcdefghi"), (8, Expected::SubtagEnd));
        assert_eq!(err("en-123456789"), (11, Expected::SubtagEnd));
        assert_eq!(err("en-*"), (3, Expected::Subtag));
        assert_eq!(err("*-en"), (1, Expected::End));
        assert_eq!(err("**"), (1, Expected::End));
        assert_eq!(err("en_US"), (2, Expected::End));
        assert_eq!(err("en "), (2, Expected::End));
        assert_eq!(err("é"), (0, Expected::LanguageRange));
    }

    #[test]
    fn equality_ignores_case() {
        let a = LanguageRange::parse("en-US").unwrap();
        let b = LanguageRange::parse("EN-us").unwrap();
        let c = LanguageRange::parse("en").unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn subtags_is_exact_size() {
        let r = LanguageRange::parse("a-b-c").unwrap();
        let mut it = r.subtags();
        assert_eq!(it.len(), 3);
        it.next();
        assert_eq!(it.len(), 2);
        assert_eq!(it.collect::<heapless_vec::V>().0, 2);
    }

    mod heapless_vec {
        /// Counts items without allocating (the crate is `no_std`).
        pub(super) struct V(pub(super) usize);
        impl<'a> FromIterator<&'a str> for V {
            fn from_iter<I: IntoIterator<Item = &'a str>>(i: I) -> V {
                V(i.into_iter().count())
            }
        }
    }
}
