//! `Content-Language` field values (RFC 9110 §8.5).
//!
//! ```text
//! Content-Language = 1#language-tag
//! ```
//!
//! One or more RFC 5646 [language tags](crate::LanguageTag), with the list
//! rule of RFC 9110 §5.6.1: empty elements and OWS around commas are allowed,
//! but at least one tag must be present (the SEP: "one or more").
//!
//! ```
//! use mcp_lang_grammar::{ContentLanguage, Expected};
//!
//! let value = ContentLanguage::parse("mi, en").unwrap();
//! assert_eq!(value.iter().map(|t| t.as_str()).collect::<Vec<_>>(), ["mi", "en"]);
//!
//! let err = ContentLanguage::parse(" , ").unwrap_err();
//! assert_eq!((err.offset(), err.expected()), (3, Expected::LanguageTag));
//! ```

use core::fmt;

use crate::chars::{ascii_str, is_alphanum, is_ows, split};
use crate::error::{Expected, Fail, ParseError};
use crate::list::ListRule;
use crate::tag::{LanguageTag, check};

/// A validated `Content-Language` value (one or more tags).
///
/// ```
/// use mcp_lang_grammar::ContentLanguage;
///
/// let value = ContentLanguage::parse("de-DE, en-CA").unwrap();
/// assert_eq!(value.len(), 2);
/// assert_eq!(value.iter().next().unwrap().region(), Some("DE"));
/// assert!(ContentLanguage::parse("").is_err());
/// assert!(ContentLanguage::parse("en-*").is_err()); // a tag, not a range
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ContentLanguage<'a> {
    value: &'a str,
    len: usize,
}

impl<'a> ContentLanguage<'a> {
    /// Parses a field value.
    ///
    /// ```
    /// use mcp_lang_grammar::ContentLanguage;
    /// assert!(ContentLanguage::parse("fr-CA").is_ok());
    /// assert_eq!(ContentLanguage::parse("fr-CA;q=1").unwrap_err().offset(), 5);
    /// ```
    pub fn parse(value: &'a str) -> Result<Self, ParseError> {
        let len = validate(value.as_bytes())?;
        Ok(ContentLanguage { value, len })
    }

    /// Parses field-value bytes (as `http::HeaderValue::as_bytes` gives).
    ///
    /// ```
    /// use mcp_lang_grammar::ContentLanguage;
    /// assert_eq!(ContentLanguage::parse_bytes(b"ja").unwrap().as_str(), "ja");
    /// ```
    pub fn parse_bytes(value: &'a [u8]) -> Result<Self, ParseError> {
        let len = validate(value)?;
        Ok(ContentLanguage {
            value: ascii_str(value),
            len,
        })
    }

    /// The value as given.
    ///
    /// ```
    /// use mcp_lang_grammar::ContentLanguage;
    /// assert_eq!(ContentLanguage::parse("en ,fr").unwrap().as_str(), "en ,fr");
    /// ```
    pub fn as_str(&self) -> &'a str {
        self.value
    }

    /// Number of tags (at least 1).
    ///
    /// ```
    /// use mcp_lang_grammar::ContentLanguage;
    /// assert_eq!(ContentLanguage::parse(",en,,").unwrap().len(), 1);
    /// ```
    #[allow(clippy::len_without_is_empty)] // never empty: 1#language-tag
    pub fn len(&self) -> usize {
        self.len
    }

    /// The tags in order.
    ///
    /// ```
    /// use mcp_lang_grammar::ContentLanguage;
    /// let value = ContentLanguage::parse("en-US, i-klingon").unwrap();
    /// assert_eq!(value.iter().nth(1).unwrap().as_str(), "i-klingon");
    /// ```
    pub fn iter(&self) -> Tags<'a> {
        Tags {
            rest: self.value.as_bytes(),
            left: self.len,
        }
    }
}

impl fmt::Display for ContentLanguage<'_> {
    /// The value as given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.value)
    }
}

impl<'a> IntoIterator for ContentLanguage<'a> {
    type Item = LanguageTag<'a>;
    type IntoIter = Tags<'a>;

    fn into_iter(self) -> Tags<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &ContentLanguage<'a> {
    type Item = LanguageTag<'a>;
    type IntoIter = Tags<'a>;

    fn into_iter(self) -> Tags<'a> {
        self.iter()
    }
}

/// Iterator over the tags of a [`ContentLanguage`].
///
/// ```
/// use mcp_lang_grammar::ContentLanguage;
/// assert_eq!(ContentLanguage::parse("de, en").unwrap().iter().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Tags<'a> {
    rest: &'a [u8],
    left: usize,
}

impl<'a> Iterator for Tags<'a> {
    type Item = LanguageTag<'a>;

    fn next(&mut self) -> Option<LanguageTag<'a>> {
        if self.left == 0 {
            return None;
        }
        let start = self.rest.iter().position(|&b| !(is_ows(b) || b == b','))?;
        let (_, from_tag) = split(self.rest, start);
        let end = from_tag
            .iter()
            .position(|&b| is_ows(b) || b == b',')
            .unwrap_or(from_tag.len());
        let (tag, rest) = split(from_tag, end);
        self.rest = rest;
        self.left -= 1;
        Some(LanguageTag::from_validated(tag))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Tags<'_> {}

impl core::iter::FusedIterator for Tags<'_> {}

fn validate(value: &[u8]) -> Result<usize, ParseError> {
    let rule = ListRule {
        element: Expected::LanguageTag,
        max_elements: usize::MAX,
        limit: Expected::End,
    };
    let count = rule
        .parse(value, |input| {
            // A tag is a run of letters, digits and hyphens, delimited by OWS,
            // "," or the end; the tag checker sees exactly that run.
            let len = input
                .iter()
                .take_while(|&&b| is_alphanum(b) || b == b'-')
                .count();
            if len == 0 {
                return Ok((input, None));
            }
            let (tag, rest) = split(input, len);
            match check(tag) {
                Ok(()) => Ok((rest, Some(Expected::Comma))),
                Err(e) => {
                    let (_, at) = split(input, e.offset());
                    Err(nom::Err::Error(Fail {
                        rest: at,
                        expected: e.expected(),
                    }))
                }
            }
        })
        .map_err(|f| f.locate(value))?;
    if count == 0 {
        return Err(ParseError::new(value.len(), Expected::LanguageTag));
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> (usize, Expected) {
        let e = ContentLanguage::parse(s).unwrap_err();
        (e.offset(), e.expected())
    }

    #[test]
    fn rfc9110_examples() {
        for (s, n) in [
            ("da", 1),
            ("mi, en", 2),
            ("en-US, es-419", 2),
            (" ,en ,", 1),
            ("i-klingon,x-foo", 2),
        ] {
            let v = ContentLanguage::parse(s).unwrap();
            assert_eq!((v.len(), v.iter().count()), (n, n), "{s}");
        }
    }

    #[test]
    fn errors() {
        assert_eq!(err(""), (0, Expected::LanguageTag));
        assert_eq!(err(","), (1, Expected::LanguageTag));
        assert!(ContentLanguage::parse("en,").is_ok());
        assert_eq!(err("en-"), (3, Expected::Subtag));
        assert_eq!(err("en fr"), (3, Expected::Comma));
        assert_eq!(err("en;q=1"), (2, Expected::Comma));
        assert_eq!(err("*"), (0, Expected::LanguageTag));
        assert_eq!(err("de-419-DE, en"), (9, Expected::Subtag));
        assert_eq!(err("en, i-kx"), (7, Expected::Grandfathered));
    }
}
