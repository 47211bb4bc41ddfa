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
//! allocating, and remembers the value, the number of ranges and where the
//! first ranges are; [`AcceptLanguage::iter`] then yields `(range, quality)`
//! pairs in header order, reading the first ranges back and scanning the
//! rest of a long value again (eight bytes at a time). A caller that acts
//! on the ranges only once it has read them all (a negotiation, a list)
//! reads them while they are validated with [`AcceptLanguage::validating`],
//! one pass in all, and keeps what it computed only if
//! [`Validating::finish`] says the value is well-formed (decision G7). All
//! are linear in the length of the value, so no header makes them slow.
//! Callers that want a bound on the work anyway use
//! [`AcceptLanguage::parse_with`] and [`Limits`].

use core::fmt;

use crate::chars::{ascii_str, ends_range, is_alpha, is_digit, is_ows, skip_ows, starts_range};
use crate::error::{Expected, PResult, ParseError, fail};
use crate::list::ListRule;
use crate::quality::{Quality, qvalue, read_validated_qvalue};
use crate::range::{LanguageRange, basic_range};
use crate::scan::{self, RangeIndex, Scanner};

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

    /// Validates a value and reads its ranges in the same single pass: the
    /// iterator yields each range, in header order, as soon as it is
    /// validated, and [`finish`](Validating::finish) then gives the parsed
    /// value, or the error. [`parse`](AcceptLanguage::parse) followed by
    /// [`iter`](AcceptLanguage::iter) reads the bytes of a long value twice
    /// (only the first ranges are remembered); this reads them once.
    ///
    /// The value `finish` returns remembers no range, so iterating it reads
    /// the bytes again.
    ///
    /// A malformed value stops the ranges at its first error, so a caller
    /// acts on them only once `finish` has said the value is well-formed:
    /// ranges read before an error belong to no preference (SEP-2792 treats
    /// a malformed value as absent).
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    ///
    /// let mut ranges = AcceptLanguage::validating("fr-CA,fr;q=0.9,en;q=0.5");
    /// let best = ranges.by_ref().max_by_key(|w| w.quality).map(|w| w.range.as_str());
    /// assert_eq!(ranges.finish().map(|v| v.len()), Ok(3));
    /// assert_eq!(best, Some("fr-CA"));
    ///
    /// let mut ranges = AcceptLanguage::validating("fr, de;q=2, en");
    /// assert_eq!(ranges.by_ref().count(), 1); // `fr`; the error stops the ranges
    /// assert_eq!(ranges.finish().unwrap_err().offset(), 9);
    /// ```
    #[inline]
    pub fn validating(value: &'a str) -> Validating<'a> {
        Validating {
            value,
            scanner: Scanner::new(value.as_bytes(), false),
        }
    }

    /// [`validating`](AcceptLanguage::validating) on field-value bytes.
    /// A byte outside the grammar (any non-ASCII byte included) is an error
    /// at its offset.
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    ///
    /// let mut ranges = AcceptLanguage::validating_bytes(b"en, \xc3\xa9");
    /// assert_eq!(ranges.next().map(|w| w.range.as_str()), Some("en"));
    /// assert_eq!(ranges.next(), None);
    /// assert_eq!(ranges.finish().unwrap_err().offset(), 4);
    /// ```
    #[inline]
    pub fn validating_bytes(value: &'a [u8]) -> Validating<'a> {
        match core::str::from_utf8(value) {
            Ok(text) => AcceptLanguage::validating(text),
            Err(_) => {
                // Not UTF-8, so not ASCII: malformed, and no range is read.
                let mut scanner = Scanner::new(value, false);
                scanner.fail();
                Validating { value: "", scanner }
            }
        }
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

/// The ranges of an `Accept-Language` value, yielded as they are validated
/// in one pass over it; see [`AcceptLanguage::validating`].
///
/// ```
/// use mcp_lang_grammar::AcceptLanguage;
///
/// let mut ranges = AcceptLanguage::validating("de, *;q=0.1");
/// assert_eq!(ranges.next().map(|w| w.range.as_str()), Some("de"));
/// let value = ranges.finish().unwrap(); // validates what was not read
/// assert_eq!(value.len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Validating<'a> {
    /// The value (empty when its bytes are not UTF-8: then the scanner has
    /// failed already, and only its bytes are left, for the error).
    value: &'a str,
    scanner: Scanner<'a>,
}

impl<'a> Validating<'a> {
    /// Validates whatever was not read yet, and gives the parsed value, or
    /// where and why it is malformed.
    ///
    /// ```
    /// use mcp_lang_grammar::{AcceptLanguage, Expected};
    ///
    /// let error = AcceptLanguage::validating("en;q=0.5;q=0.4").finish().unwrap_err();
    /// assert_eq!((error.offset(), error.expected()), (8, Expected::Comma));
    /// ```
    #[inline]
    pub fn finish(mut self) -> Result<AcceptLanguage<'a>, ParseError> {
        while self.scanner.next_element().is_some() {}
        let bytes = self.scanner.bytes();
        match self.scanner.finish() {
            Some((len, index)) => Ok(AcceptLanguage {
                value: self.value,
                len,
                index,
            }),
            None => match validate_with_nom(bytes, Limits::UNLIMITED) {
                Err(error) => Err(error),
                // The scan and the reference parser agree (tested); were
                // they not to, the value is still reported malformed.
                Ok(_) => Err(ParseError::new(0, Expected::LanguageRange)),
            },
        }
    }
}

impl<'a> Iterator for Validating<'a> {
    type Item = WeightedRange<'a>;

    #[inline]
    fn next(&mut self) -> Option<WeightedRange<'a>> {
        let (start, end, quality) = self.scanner.next_element()?;
        let range = self.value.get(start..end).unwrap_or("");
        Some(WeightedRange {
            range: LanguageRange::from_validated_str(range),
            quality: Quality::from_validated(quality),
        })
    }
}

impl core::iter::FusedIterator for Validating<'_> {}

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

impl Ranges<'_> {
    /// Where scanning resumes: where the last scan stopped, or after the
    /// last noted range (and its weight), or at the start.
    #[inline(always)]
    fn scan_start(&self) -> usize {
        match self.at {
            0 => match self.index.scan_from() {
                0 => 0,
                end => weight_after(self.value.as_bytes(), end).1,
            },
            at => at,
        }
    }
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
        let at = self.scan_start();
        let (range, quality);
        (range, quality, self.at) = next_scanned(self.value, at);
        Some(WeightedRange { range, quality })
    }

    /// The ranges noted while validating are read back, then the rest are
    /// scanned in one tight loop.
    #[inline]
    fn fold<B, F>(mut self, init: B, mut f: F) -> B
    where
        F: FnMut(B, WeightedRange<'a>) -> B,
    {
        let mut acc = init;
        let noted = usize::from(self.index.len).min(self.left + usize::from(self.taken));
        let spots = self
            .index
            .spots
            .get(usize::from(self.taken)..noted)
            .unwrap_or(&[]);
        for spot in spots {
            let start = usize::from(spot.start);
            let range = self
                .value
                .get(start..start + usize::from(spot.len))
                .unwrap_or("");
            acc = f(
                acc,
                WeightedRange {
                    range: LanguageRange::from_validated_str(range),
                    quality: Quality::from_validated(spot.quality),
                },
            );
        }
        self.left -= spots.len();
        self.taken += spots.len() as u8;
        if self.left == 0 {
            return acc;
        }
        let mut at = self.scan_start();
        for _ in 0..self.left {
            let (range, quality);
            (range, quality, at) = next_scanned(self.value, at);
            acc = f(acc, WeightedRange { range, quality });
        }
        acc
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Ranges<'_> {}

impl core::iter::FusedIterator for Ranges<'_> {}

/// The next range of a validated value, scanning from `at` (where only
/// separators, OWS and `,`, or the rest of a weight, `.` and digits, may
/// come first): the range, its quality, and where to scan from next.
///
/// Eight bytes at a time when they are there: in a validated value the
/// bytes before a range are all below `A` and none is `*`, and a range
/// starts with a letter or `*`; after its first byte, a range's bytes
/// (letters, digits, `-`) are all at `-` (0x2d) or above and none is `;`,
/// while what ends it (`,`, `;`, SP, HTAB) is below `-` or is `;`. The
/// word tests are exact for ASCII bytes, which a validated value is made of.
#[inline(always)]
fn next_scanned(value: &str, at: usize) -> (LanguageRange<'_>, Quality, usize) {
    let bytes = value.as_bytes();
    let (start, end, weight) = match bytes.get(at..).and_then(<[u8]>::first_chunk::<16>) {
        Some(window) => match range_in_window(window) {
            Some((s, e, weight)) => (at + s, at + e, weight),
            None => {
                let (start, end) = scan_range(bytes, at);
                (start, end, None)
            }
        },
        None => {
            let (start, end) = scan_range(bytes, at);
            (start, end, None)
        }
    };
    let range = LanguageRange::from_validated_str(value.get(start..end).unwrap_or(""));
    let (quality, next) = match weight {
        Some(quality) => (quality, end + 6),
        None => weight_after(bytes, end),
    };
    (range, quality, next)
}

/// [`next_scanned`] on sixteen bytes of a validated value: where the range
/// starts and ends in them, and its quality when it is the weight browsers
/// send (`;q=0.` and one digit, then no digit), which ends six bytes after
/// the range. `None` when the range does not start and end in the first
/// eight bytes.
#[inline(always)]
fn range_in_window(window: &[u8; 16]) -> Option<(usize, usize, Option<Quality>)> {
    let (first, second) = window.split_at(8);
    let x = u64::from_le_bytes(first.try_into().ok()?);
    let y = u64::from_le_bytes(second.try_into().ok()?);
    let starts = scan::ascii_at_least(x, b'A') | scan::ascii_equal(x, b'*');
    if starts == 0 {
        return None;
    }
    let s = starts.trailing_zeros() / 8;
    let e = if scan::byte_of(x, s) == b'*' {
        // A `*` as the eighth byte ends the first word: the slow path.
        if s == 7 {
            return None;
        }
        s + 1
    } else {
        // The first byte that ends the range, after its first.
        let after = (u64::MAX << (8 * s)) << 8;
        let stops = (scan::ascii_below(x, b'-') | scan::ascii_equal(x, b';')) & after;
        if stops == 0 {
            return None;
        }
        stops.trailing_zeros() / 8
    };
    // The eight bytes after the range (`e` is 1 to 7).
    let z = (x >> (8 * e)) | (y << (64 - 8 * e));
    let (digit, next) = (scan::byte_of(z, 5), scan::byte_of(z, 6));
    let weight = ((z | 0x2000) & 0xff_ffff_ffff == u64::from_le_bytes(*b";q=0.\0\0\0")
        && is_digit(digit)
        && !is_digit(next))
    .then(|| Quality::from_validated(u16::from(digit - b'0') * 100));
    Some((s as usize, e as usize, weight))
}

/// [`next_scanned`]'s range, one byte at a time: its start and end.
#[inline]
fn scan_range(bytes: &[u8], mut i: usize) -> (usize, usize) {
    while bytes.get(i).is_some_and(|&b| !starts_range(b)) {
        i += 1;
    }
    if bytes.get(i) == Some(&b'*') {
        (i, i + 1)
    } else {
        (i, validated_range_end(bytes, i + 1))
    }
}

/// Where the range of a validated value that continues at `from` ends: at
/// the first `,`, `;` or OWS, or at the end (eight bytes at a time while
/// there are eight, as in [`next_scanned`]).
#[inline]
fn validated_range_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*chunk);
        let stops = scan::ascii_below(x, b'-') | scan::ascii_equal(x, b';');
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while bytes.get(i).is_some_and(|&b| !ends_range(b)) {
        i += 1;
    }
    i
}

/// The weight of the validated range that ends at `end`, and where the
/// separators after it start: past its `q=` and the qvalue's first digit,
/// or `end` when it has no weight.
#[inline(always)]
fn weight_after(bytes: &[u8], end: usize) -> (Quality, usize) {
    let tail = bytes.get(end..).unwrap_or(&[]);
    // The weight browsers send: `;q=0.` (`q` in either case) and one digit,
    // and no other digit after it.
    if let Some(chunk) = tail.first_chunk::<8>() {
        let y = u64::from_le_bytes(*chunk);
        let (digit, after) = (scan::byte_of(y, 5), scan::byte_of(y, 6));
        if (y | 0x2000) & 0xff_ffff_ffff == u64::from_le_bytes(*b";q=0.\0\0\0")
            && is_digit(digit)
            && !is_digit(after)
        {
            return (
                Quality::from_validated(u16::from(digit - b'0') * 100),
                end + 6,
            );
        }
    }
    match tail {
        [b';', ..] => weight_after_semicolon(bytes, end + 1),
        [c, ..] if is_ows(*c) => {
            let mut j = end + 1;
            while bytes.get(j).is_some_and(|&b| is_ows(b)) {
                j += 1;
            }
            if bytes.get(j) == Some(&b';') {
                weight_after_semicolon(bytes, j + 1)
            } else {
                (Quality::ONE, end)
            }
        }
        _ => (Quality::ONE, end),
    }
}

/// [`weight_after`] from just past the `;`: OWS, `q=`, then the qvalue.
#[inline]
fn weight_after_semicolon(bytes: &[u8], mut j: usize) -> (Quality, usize) {
    while bytes.get(j).is_some_and(|&b| is_ows(b)) {
        j += 1;
    }
    (
        read_validated_qvalue(bytes.get(j + 2..).unwrap_or(&[])),
        j + 3,
    )
}

/// Validates a whole value; returns the number of ranges.
///
/// The fast scan decides well-formed values; anything it rejects (or that is
/// over a limit) goes to the nom parser, which reports the error.
#[inline(always)]
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
