//! `Accept-Language` field values (RFC 9110 §12.5.4).
//!
//! ```text
//! Accept-Language = #( language-range [ weight ] )
//! weight          = OWS ";" OWS "q=" qvalue
//! language-range  = <basic range, RFC 4647 §2.1>
//! ```
//!
//! with the list rule of RFC 9110 §5.6.1 (`#element => [ element ] *( OWS ","
//! OWS [ element ] )`): empty elements and OWS around commas are fine, and the
//! empty value is well-formed and means "no preference". Whitespace that is
//! not next to a comma is not (`" en"`, `"en "`): a field value never has it
//! (RFC 9110 §5.5). The only parameter is the weight, spelled `q=` or `Q=`;
//! qvalues follow [`quality`](crate::quality) exactly.
//!
//! [`AcceptLanguage::parse`] validates the whole value in one pass without
//! allocating, and remembers nothing but the value and the number of ranges;
//! [`AcceptLanguage::iter`] then walks the validated value again, yielding
//! `(range, quality)` pairs in header order. Both are linear in the length of
//! the value, so no header makes them slow. Callers that want a bound on the
//! work anyway use [`AcceptLanguage::parse_with`] and [`Limits`].

use core::fmt;

use crate::chars::{ascii_str, ends_range, is_alpha, is_ows, skip_ows, starts_range};
use crate::error::{Expected, PResult, ParseError, fail};
use crate::list::ListRule;
use crate::quality::{Quality, qvalue, read_validated_qvalue};
use crate::range::{LanguageRange, basic_range};
use crate::scan::{self, RangeIndex};

/// One element of an `Accept-Language` value.
///
/// Its [`Display`](fmt::Display) is the element as the
/// [serializer](crate::serialize) writes it: `en` for q=1, else `en;q=0.5`.
///
/// ```
/// use mcp_lang_grammar::{LanguageRange, Quality, WeightedRange};
///
/// let w = WeightedRange { range: LanguageRange::parse("fr").unwrap(), quality: Quality::new(900).unwrap() };
/// assert_eq!(w.to_string(), "fr;q=0.9");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WeightedRange<'a> {
    /// The language range.
    pub range: LanguageRange<'a>,
    /// Its weight (q=1 when absent).
    pub quality: Quality,
}

impl fmt::Display for WeightedRange<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.range.as_str())?;
        if self.quality != Quality::ONE {
            write!(f, ";q={}", self.quality)?;
        }
        Ok(())
    }
}

/// Bounds on the work a parse may do, for [`AcceptLanguage::parse_with`].
///
/// Parsing is linear and allocation-free without any limit, so the limits are
/// a policy choice (for example, to treat an absurd preference as malformed),
/// not a safety measure. [`Limits::new`] is unlimited.
///
/// ```
/// use mcp_lang_grammar::{AcceptLanguage, Expected, Limits};
///
/// let limits = Limits::new().max_bytes(1024).max_ranges(2);
/// let err = AcceptLanguage::parse_with("en, fr, de", limits).unwrap_err();
/// assert_eq!((err.offset(), err.expected()), (8, Expected::RangeLimit));
/// assert_eq!(AcceptLanguage::parse_with("en, fr", limits).unwrap().len(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    max_bytes: usize,
    max_ranges: usize,
}

impl Limits {
    /// No limits.
    ///
    /// ```
    /// use mcp_lang_grammar::{AcceptLanguage, Limits};
    ///
    /// let long = "en;q=0.5, ".repeat(10_000) + "fr";
    /// assert_eq!(AcceptLanguage::parse_with(&long, Limits::UNLIMITED).unwrap().len(), 10_001);
    /// ```
    pub const UNLIMITED: Limits = Limits {
        max_bytes: usize::MAX,
        max_ranges: usize::MAX,
    };

    /// No limits; narrow them with [`max_bytes`](Limits::max_bytes) and
    /// [`max_ranges`](Limits::max_ranges).
    ///
    /// ```
    /// use mcp_lang_grammar::Limits;
    /// assert_eq!(Limits::new(), Limits::UNLIMITED);
    /// ```
    pub const fn new() -> Limits {
        Limits::UNLIMITED
    }

    /// At most `n` bytes: a longer value fails at offset `n` with
    /// [`Expected::ByteLimit`], before any other check.
    ///
    /// ```
    /// use mcp_lang_grammar::{AcceptLanguage, Limits};
    /// let err = AcceptLanguage::parse_with("en-GB", Limits::new().max_bytes(2)).unwrap_err();
    /// assert_eq!(err.offset(), 2);
    /// ```
    pub const fn max_bytes(self, n: usize) -> Limits {
        Limits {
            max_bytes: n,
            ..self
        }
    }

    /// At most `n` ranges (empty list elements do not count): the first range
    /// beyond fails at its start with [`Expected::RangeLimit`].
    ///
    /// ```
    /// use mcp_lang_grammar::{AcceptLanguage, Limits};
    /// assert!(AcceptLanguage::parse_with("en,,,", Limits::new().max_ranges(1)).is_ok());
    /// ```
    pub const fn max_ranges(self, n: usize) -> Limits {
        Limits {
            max_ranges: n,
            ..self
        }
    }

    /// The byte limit.
    ///
    /// ```
    /// use mcp_lang_grammar::Limits;
    /// assert_eq!(Limits::new().max_bytes(10).byte_limit(), 10);
    /// ```
    pub const fn byte_limit(&self) -> usize {
        self.max_bytes
    }

    /// The range limit.
    ///
    /// ```
    /// use mcp_lang_grammar::Limits;
    /// assert_eq!(Limits::new().max_ranges(10).range_limit(), 10);
    /// ```
    pub const fn range_limit(&self) -> usize {
        self.max_ranges
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::UNLIMITED
    }
}

/// A validated `Accept-Language` field value, borrowed; iterate its ranges.
///
/// ```
/// use mcp_lang_grammar::AcceptLanguage;
///
/// let value = AcceptLanguage::parse("fr-CA,fr;q=0.9,en;q=0.5").unwrap();
/// let pairs: Vec<(&str, u16)> = value.iter().map(|w| (w.range.as_str(), w.quality.get())).collect();
/// assert_eq!(pairs, [("fr-CA", 1000), ("fr", 900), ("en", 500)]);
///
/// // RFC 9110 §5.6.1: empty elements are allowed; no element at all means no preference.
/// assert_eq!(AcceptLanguage::parse(" , en ,, ").unwrap().len(), 1);
/// assert!(AcceptLanguage::parse("").unwrap().is_empty());
///
/// // Anything else is malformed, and the error says where.
/// let err = AcceptLanguage::parse("en;q=1.001").unwrap_err();
/// assert_eq!(err.to_string(), "at byte 9: expected qvalue");
/// ```
#[derive(Clone, Copy)]
pub struct AcceptLanguage<'a> {
    value: &'a str,
    len: usize,
    /// Where the first ranges are, noted while validating.
    index: RangeIndex,
}

impl fmt::Debug for AcceptLanguage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AcceptLanguage")
            .field("value", &self.value)
            .field("len", &self.len)
            .finish()
    }
}

impl<'a> AcceptLanguage<'a> {
    /// Parses and validates a field value.
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// assert_eq!(AcceptLanguage::parse("da, en-gb;q=0.8, en;q=0.7").unwrap().len(), 3);
    /// assert!(AcceptLanguage::parse("en;q=0.5;q=0.4").is_err()); // one weight, no other parameter
    /// ```
    #[inline]
    pub fn parse(value: &'a str) -> Result<Self, ParseError> {
        AcceptLanguage::parse_with(value, Limits::UNLIMITED)
    }

    /// Parses field-value bytes (as `http::HeaderValue::as_bytes` gives).
    /// Bytes outside the grammar (including any non-ASCII byte) are an error
    /// at their offset.
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// assert_eq!(AcceptLanguage::parse_bytes(b"en-US").unwrap().as_str(), "en-US");
    /// assert_eq!(AcceptLanguage::parse_bytes(b"en, \xc3\xa9").unwrap_err().offset(), 4);
    /// ```
    #[inline]
    pub fn parse_bytes(value: &'a [u8]) -> Result<Self, ParseError> {
        AcceptLanguage::parse_bytes_with(value, Limits::UNLIMITED)
    }

    /// [`parse`](AcceptLanguage::parse) within [`Limits`].
    ///
    /// ```
    /// use mcp_lang_grammar::{AcceptLanguage, Limits};
    /// let limits = Limits::new().max_ranges(32);
    /// assert!(AcceptLanguage::parse_with(&"en,".repeat(33), limits).is_err());
    /// ```
    #[inline]
    pub fn parse_with(value: &'a str, limits: Limits) -> Result<Self, ParseError> {
        let mut index = RangeIndex::EMPTY;
        let len = validate(value.as_bytes(), limits, &mut index)?;
        Ok(AcceptLanguage { value, len, index })
    }

    /// [`parse_bytes`](AcceptLanguage::parse_bytes) within [`Limits`].
    ///
    /// ```
    /// use mcp_lang_grammar::{AcceptLanguage, Limits};
    /// assert!(AcceptLanguage::parse_bytes_with(b"en", Limits::new().max_bytes(2)).is_ok());
    /// ```
    #[inline]
    pub fn parse_bytes_with(value: &'a [u8], limits: Limits) -> Result<Self, ParseError> {
        let mut index = RangeIndex::EMPTY;
        let len = validate(value, limits, &mut index)?;
        Ok(AcceptLanguage {
            value: ascii_str(value),
            len,
            index,
        })
    }

    /// The value as given.
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// assert_eq!(AcceptLanguage::parse("en ;Q=1.").unwrap().as_str(), "en ;Q=1.");
    /// ```
    pub fn as_str(&self) -> &'a str {
        self.value
    }

    /// Number of ranges (empty list elements do not count).
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// assert_eq!(AcceptLanguage::parse(",en,,*;q=0,").unwrap().len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the value has no ranges (no preference).
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// assert!(AcceptLanguage::parse(" ,\t, ").unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The ranges in header order.
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// let value = AcceptLanguage::parse("*;q=0.5, de").unwrap();
    /// let mut ranges = value.iter();
    /// assert_eq!(ranges.len(), 2);
    /// let first = ranges.next().unwrap();
    /// assert!(first.range.is_wildcard());
    /// assert_eq!(first.quality.get(), 500);
    /// ```
    #[inline]
    pub fn iter(&self) -> Ranges<'a> {
        Ranges {
            value: self.value,
            index: self.index,
            taken: 0,
            at: 0,
            left: self.len,
        }
    }
}

impl fmt::Display for AcceptLanguage<'_> {
    /// The value as given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.value)
    }
}

impl<'a> IntoIterator for AcceptLanguage<'a> {
    type Item = WeightedRange<'a>;
    type IntoIter = Ranges<'a>;

    fn into_iter(self) -> Ranges<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &AcceptLanguage<'a> {
    type Item = WeightedRange<'a>;
    type IntoIter = Ranges<'a>;

    fn into_iter(self) -> Ranges<'a> {
        self.iter()
    }
}

/// Iterator over the ranges of an [`AcceptLanguage`], in header order.
///
/// ```
/// use mcp_lang_grammar::AcceptLanguage;
/// let ranges: Vec<_> = AcceptLanguage::parse("en, fr").unwrap().iter().map(|w| w.range.as_str()).collect();
/// assert_eq!(ranges, ["en", "fr"]);
/// ```
#[derive(Clone, Debug)]
pub struct Ranges<'a> {
    /// The validated value.
    value: &'a str,
    /// The ranges noted while validating, read back first.
    index: RangeIndex,
    /// How many of `index`'s ranges were yielded.
    taken: u8,
    /// Once those are yielded: where the separators before the next
    /// element start (0 until the first range is scanned).
    at: usize,
    /// How many ranges are left.
    left: usize,
}

impl<'a> Iterator for Ranges<'a> {
    type Item = WeightedRange<'a>;

    #[inline]
    fn next(&mut self) -> Option<WeightedRange<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if self.taken < self.index.len {
            let spot = self.index.spots.get(usize::from(self.taken)).copied();
            self.taken += 1;
            let spot = spot.unwrap_or_default();
            let start = usize::from(spot.start);
            let range = self
                .value
                .get(start..start + usize::from(spot.len))
                .unwrap_or("");
            return Some(WeightedRange {
                range: LanguageRange::from_validated_str(range),
                quality: Quality::from_validated(spot.quality),
            });
        }
        // The rest is scanned; the value is known to be well-formed.
        // Between two ranges there are only separators (OWS, `,`) and the
        // rest of a weight that `weight_after` skipped (`.`, digits):
        // nothing there is a letter or `*`, so the next range starts at the
        // next one. Out-of-range indices end the scan; none panics.
        let bytes = self.value.as_bytes();
        let mut i = match self.at {
            // The first range scanned: it follows the last spot, if any.
            0 => match self.index.scan_from() {
                0 => 0,
                end => weight_after(bytes, end).1,
            },
            at => at,
        };
        while bytes.get(i).is_some_and(|&b| !starts_range(b)) {
            i += 1;
        }
        let start = i;
        while bytes.get(i).is_some_and(|&b| !ends_range(b)) {
            i += 1;
        }
        let range = self.value.get(start..i).unwrap_or("");
        let quality;
        (quality, self.at) = weight_after(bytes, i);
        Some(WeightedRange {
            range: LanguageRange::from_validated_str(range),
            quality,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Ranges<'_> {}

impl core::iter::FusedIterator for Ranges<'_> {}

/// The weight of the validated range that ends at `end`, and where the
/// separators after it start: past its `q=` and the qvalue's first digit,
/// or `end` when it has no weight.
#[inline]
fn weight_after(bytes: &[u8], end: usize) -> (Quality, usize) {
    let mut j = end;
    while bytes.get(j).is_some_and(|&b| is_ows(b)) {
        j += 1;
    }
    if bytes.get(j) != Some(&b';') {
        return (Quality::ONE, end);
    }
    j += 1;
    while bytes.get(j).is_some_and(|&b| is_ows(b)) {
        j += 1;
    }
    // `q=` then the qvalue.
    (
        read_validated_qvalue(bytes.get(j + 2..).unwrap_or(&[])),
        j + 3,
    )
}

/// Validates a whole value; returns the number of ranges.
///
/// The fast scan decides well-formed values; anything it rejects (or that is
/// over a limit) goes to the nom parser, which reports the error.
#[inline]
fn validate(value: &[u8], limits: Limits, index: &mut RangeIndex) -> Result<usize, ParseError> {
    if value.len() > limits.max_bytes {
        return Err(ParseError::new(limits.max_bytes, Expected::ByteLimit));
    }
    match scan::scan(value, index) {
        Some(count) if count <= limits.max_ranges => Ok(count),
        _ => validate_with_nom(value, limits),
    }
}

/// The reference parser: validates with nom, reporting where a value fails.
#[cold]
pub(crate) fn validate_with_nom(value: &[u8], limits: Limits) -> Result<usize, ParseError> {
    let rule = ListRule {
        element: Expected::LanguageRange,
        max_elements: limits.max_ranges,
        limit: Expected::RangeLimit,
    };
    rule.parse(value, element).map_err(|f| f.locate(value))
}

/// `language-range [ weight ]`, or nothing when no range starts here.
#[inline(always)]
fn element(input: &[u8]) -> PResult<'_, Option<Expected>> {
    match input.first() {
        Some(&b) if is_alpha(b) || b == b'*' => {}
        _ => return Ok((input, None)),
    }
    let (rest, _) = basic_range(input)?;
    let Some((b';', after_semicolon)) = skip_ows(rest).split_first() else {
        return Ok((rest, Some(Expected::SemicolonOrComma)));
    };
    let (rest, _) = weight(skip_ows(after_semicolon))?;
    Ok((rest, Some(Expected::Comma)))
}

/// `"q=" qvalue` (the part of `weight` after `OWS ";" OWS`).
#[inline(always)]
fn weight(input: &[u8]) -> PResult<'_, Quality> {
    let rest = match input {
        [b'q' | b'Q', b'=', rest @ ..] => rest,
        [b'q' | b'Q', rest @ ..] => return fail(rest, Expected::Q),
        _ => return fail(input, Expected::Q),
    };
    qvalue(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;
    use std::string::String;
    use std::vec::Vec;

    /// `(range, q)` pairs of a value, compared without allocating.
    fn check(value: &str, expected: &[(&str, u16)]) {
        let parsed = AcceptLanguage::parse(value).unwrap_or_else(|e| panic!("{value:?}: {e}"));
        assert_eq!(parsed.len(), expected.len(), "{value:?}");
        assert_eq!(parsed.iter().len(), expected.len(), "{value:?}");
        for (got, want) in parsed.iter().zip(expected) {
            assert_eq!((got.range.as_str(), got.quality.get()), *want, "{value:?}");
        }
    }

    fn err(value: &str) -> (usize, Expected) {
        let e = AcceptLanguage::parse(value).unwrap_err();
        (e.offset(), e.expected())
    }

    #[test]
    fn rfc9110_example() {
        check(
            "da, en-gb;q=0.8, en;q=0.7",
            &[("da", 1000), ("en-gb", 800), ("en", 700)],
        );
    }

    #[test]
    fn sep_example() {
        check(
            "fr-CA,fr;q=0.9,en;q=0.5",
            &[("fr-CA", 1000), ("fr", 900), ("en", 500)],
        );
    }

    #[test]
    fn list_rule_empty_elements() {
        check("", &[]);
        check(",", &[]);
        check(" , ", &[]);
        check(",\t,", &[]);
        check(",en", &[("en", 1000)]);
        check("en,", &[("en", 1000)]);
        check("en, ", &[("en", 1000)]);
        check("en ,fr", &[("en", 1000), ("fr", 1000)]);
        check("en,,,fr", &[("en", 1000), ("fr", 1000)]);
        check("en\t,\tfr", &[("en", 1000), ("fr", 1000)]);
    }

    #[test]
    fn list_rule_errors() {
        assert_eq!(err(" "), (1, Expected::Comma));
        assert_eq!(err(" en"), (1, Expected::Comma));
        assert_eq!(err("en "), (3, Expected::SemicolonOrComma));
        assert_eq!(err("en fr"), (3, Expected::SemicolonOrComma));
        assert_eq!(err("en;q=1 "), (7, Expected::Comma));
        assert_eq!(err("en\n"), (2, Expected::SemicolonOrComma));
        assert_eq!(err("en,\r\nfr"), (3, Expected::LanguageRange));
        assert_eq!(err("1"), (0, Expected::LanguageRange));
        assert_eq!(err("en;"), (3, Expected::Q));
        assert_eq!(err("en;q"), (4, Expected::Q));
        assert_eq!(err("en;q="), (5, Expected::QValue));
        assert_eq!(err("en;level=1"), (3, Expected::Q));
        assert_eq!(err("en;q=0.5;x=y"), (8, Expected::Comma));
        assert_eq!(err("en;q=0.5;q=0.4"), (8, Expected::Comma));
        assert_eq!(err("en-"), (3, Expected::Subtag));
        assert_eq!(err("*-x"), (1, Expected::SemicolonOrComma));
    }

    #[test]
    fn weights() {
        check("en;q=0", &[("en", 0)]);
        check("en;Q=0.5", &[("en", 500)]);
        check("en ; q=0.5", &[("en", 500)]);
        check("en\t;\tq=1.", &[("en", 1000)]);
        check("en;q=0.", &[("en", 0)]);
        check("en;q=0.001", &[("en", 1)]);
        check("*;q=0.5, de", &[("*", 500), ("de", 1000)]);
        assert_eq!(err("en;q=0.1234"), (10, Expected::QValue));
        assert_eq!(err("en;q=1.001"), (9, Expected::QValue));
        assert_eq!(err("en;q=2"), (5, Expected::QValue));
        assert_eq!(err("en;q=.5"), (5, Expected::QValue));
        assert_eq!(err("en;q=-0"), (5, Expected::QValue));
        assert_eq!(err("en;q=1e-1"), (6, Expected::Comma));
        assert_eq!(err("en;q=NaN"), (5, Expected::QValue));
        assert_eq!(err("en;q= 0.5"), (5, Expected::QValue));
        assert_eq!(err("en;q =0.5"), (4, Expected::Q));
    }

    /// The ranges of `value` read through the index noted while parsing,
    /// and read by scanning the whole value, agree.
    fn index_agrees_with_scanning(value: &str) {
        let parsed = AcceptLanguage::parse(value).unwrap_or_else(|e| panic!("{value:?}: {e}"));
        let scanned = AcceptLanguage {
            index: RangeIndex::EMPTY,
            ..parsed
        };
        assert_eq!(parsed.iter().len(), scanned.iter().len(), "{value:?}");
        for (a, b) in parsed.iter().zip(scanned.iter()) {
            assert_eq!(
                (a.range.as_str(), a.quality),
                (b.range.as_str(), b.quality),
                "{value:?}"
            );
        }
        assert_eq!(parsed.iter().count(), parsed.len(), "{value:?}");
    }

    #[test]
    fn index_covers_the_first_ranges_then_scanning_resumes() {
        for value in [
            "",
            ",",
            "fr-CA,fr;q=0.9,en;q=0.5",
            "a,b,c,d,e,f,g,h",
            "a,b,c,d,e,f,g,h,i;q=0.1,*",
            "a;q=0.1,b;q=0.2,c;q=0.3,d;q=0.4,e;q=0.5,f;q=0.6,g;q=0.7,h;q=0.8 , i;q=0.9",
            "a;q=1.000,b;q=1.,c;q=0.,d;q=0,e ; Q=0.001,f,g,h;q=0.12\t,\t i-x;q=1 , j",
            " , en ,, ",
        ] {
            index_agrees_with_scanning(value);
        }
    }

    /// The `(range, q)` pairs of a value, read through its iterator.
    fn pairs(parsed: &AcceptLanguage<'_>) -> Vec<(String, u16)> {
        parsed
            .iter()
            .map(|w| (String::from(w.range.as_str()), w.quality.get()))
            .collect()
    }

    /// A value of `fr;q=0.5`, a range of `a` and `pairs` times `-b`, then
    /// `de,en;q=0.1` and `extra` more ranges, and what it should read as.
    fn long_range_value(pairs: usize, extra: usize) -> (String, Vec<(String, u16)>) {
        let long = format!("a{}", "-b".repeat(pairs));
        let mut value = format!("fr;q=0.5,{long};q=0.3,de,en;q=0.1");
        let mut expected = Vec::from([
            (String::from("fr"), 500),
            (long, 300),
            (String::from("de"), 1000),
            (String::from("en"), 100),
        ]);
        for k in 0..extra {
            value.push_str(",x");
            expected.push((format!("x{}", "y".repeat(k % 3)), 1000));
            value.push_str(&"y".repeat(k % 3));
        }
        (value, expected)
    }

    #[test]
    fn a_long_range_in_a_value_of_at_most_64k_is_noted() {
        // 64_042 bytes, 9 ranges.
        let (value, expected) = long_range_value(32_000, 5);
        assert!(value.len() <= RangeIndex::NOTED);
        let parsed = AcceptLanguage::parse(&value).unwrap();
        assert_eq!(parsed.index.len, 8);
        assert_eq!(pairs(&parsed), expected);
        index_agrees_with_scanning(&value);
    }

    #[test]
    fn a_value_longer_than_64k_is_scanned() {
        // 65_535 bytes (noted), 65_537 bytes and about 80 KB (scanned), 13 ranges each.
        for pairs_of_b in [32_740, 32_741, 40_000] {
            let (value, expected) = long_range_value(pairs_of_b, 9);
            let parsed = AcceptLanguage::parse(&value).unwrap();
            let noted = if value.len() <= RangeIndex::NOTED {
                8
            } else {
                0
            };
            assert_eq!(parsed.index.len, noted, "{} bytes", value.len());
            assert_eq!(pairs(&parsed), expected);
            index_agrees_with_scanning(&value);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        #[test]
        fn index_agrees_with_scanning_on_generated_values(
            elements in proptest::collection::vec(
                "([a-zA-Z]{1,3}(-[a-zA-Z0-9]{1,3}){0,2}|[*])([ \t]{0,2};[ \t]{0,2}[qQ]=(0|0\\.[0-9]{0,3}|1|1\\.0{0,3}))?",
                0..20,
            ),
            separators in proptest::collection::vec("[ \t]{0,2},[ \t]{0,2}(,[ \t]?)?", 20),
        ) {
            let mut value = String::new();
            for (i, element) in elements.iter().enumerate() {
                if i > 0 {
                    value.push_str(&separators[i]);
                }
                value.push_str(element);
            }
            index_agrees_with_scanning(&value);
        }
    }

    #[test]
    fn limits() {
        let limits = Limits::new().max_bytes(5).max_ranges(1);
        assert!(AcceptLanguage::parse_with("en", limits).is_ok());
        assert_eq!(
            AcceptLanguage::parse_with("en,fr", limits)
                .unwrap_err()
                .offset(),
            3
        );
        assert_eq!(
            AcceptLanguage::parse_with("en,frr", limits).unwrap_err(),
            ParseError::new(5, Expected::ByteLimit)
        );
    }
}
