//! A fast validating scan of `Accept-Language`, used before the nom parser.
//!
//! [`scan`] answers one question, "is this value well-formed, and how many
//! ranges does it have?", in one forward walk over the bytes, with none of
//! the bookkeeping an error report needs. On the way it notes where the
//! first [`RangeIndex::CAPACITY`] ranges are and what their qualities are,
//! so that iterating a short header later reads them back instead of
//! scanning the value a second time. When it says no, the nom parser in
//! [`accept`](crate::accept) runs on the same bytes to find the offset and
//! what was expected; the nom parser is the reference grammar, and the tests
//! check on generated input that the two always agree.
//!
//! The walk is a [`Scanner`], one element at a time, so that the one-pass
//! iterator of [`accept`](crate::accept) yields each range as soon as it is
//! validated.
//!
//! Each byte is looked at once. The element browsers send most (a range of
//! two letters, or two letters, `-` and two letters, then `,` or the weight
//! `;q=0.` and one digit and `,`) is checked on one window of sixteen bytes
//! with a few word operations (a letter test on eight bytes at once, one
//! masked comparison for the weight), and so is the same element ending
//! the value. Anything else takes the general path, where what follows a
//! range is decided by the byte that ends it: a range ends at the first
//! byte that cannot continue it, and that byte must be `,`, `;`, OWS or
//! the end, which rules out a ninth letter, a digit in the first subtag and
//! `*-` without looking again.
//!
//! The index holds `u16` offsets, so only values of at most 64 KiB are
//! noted; a longer value is scanned when iterated (it has thousands of
//! ranges, and the scan is linear either way).

use crate::chars::{ends_range, is_alpha, is_alphanum, is_digit, is_ows, is_separator};

/// One range noted by [`scan`]: where it is and its quality.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Spot {
    /// Byte offset of the range in the value.
    pub(crate) start: u16,
    /// Its length in bytes.
    pub(crate) len: u16,
    /// Its quality in thousandths.
    pub(crate) quality: u16,
}

impl Spot {
    /// Byte offset just past the range.
    pub(crate) fn end(&self) -> usize {
        usize::from(self.start) + usize::from(self.len)
    }
}

/// The first ranges of a validated value, as [`scan`] found them: no
/// allocation, a fixed size, and copied along with the borrowed view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RangeIndex {
    /// The first `len` are filled, in header order.
    pub(crate) spots: [Spot; RangeIndex::CAPACITY],
    /// How many spots are filled: as many ranges as the value has, up to
    /// `CAPACITY`; none when the value is longer than [`RangeIndex::NOTED`]
    /// bytes (its offsets would not fit a spot), so that all its ranges are
    /// scanned. Ranges after the last spot are scanned from its end.
    pub(crate) len: u8,
}

impl RangeIndex {
    /// How many ranges are noted: enough for what browsers send.
    pub(crate) const CAPACITY: usize = 8;

    /// The longest value whose ranges are noted (offsets are `u16`).
    pub(crate) const NOTED: usize = u16::MAX as usize;

    /// No spots.
    pub(crate) const EMPTY: RangeIndex = RangeIndex {
        spots: [Spot {
            start: 0,
            len: 0,
            quality: 0,
        }; RangeIndex::CAPACITY],
        len: 0,
    };

    /// Where scanning for the ranges after the noted ones starts: the end
    /// of the last spot, or 0 when none is filled.
    pub(crate) fn scan_from(&self) -> usize {
        match usize::from(self.len).checked_sub(1) {
            Some(last) => self.spots.get(last).map_or(0, Spot::end),
            None => 0,
        }
    }
}

/// The number of ranges when `b` is a well-formed `Accept-Language` value;
/// the first ranges are noted in `index` (which must start empty).
#[inline]
pub(crate) fn scan(b: &[u8], index: &mut RangeIndex) -> Option<usize> {
    let mut scanner = Scanner::new(b, true);
    while scanner.next_element().is_some() {}
    let (count, noted) = scanner.finish()?;
    *index = noted;
    Some(count)
}

/// The validating walk over a value, one element at a time: what [`scan`]
/// runs, and what the one-pass iterator of [`accept`](crate::accept) runs
/// while it yields the ranges.
#[derive(Clone, Debug)]
pub(crate) struct Scanner<'b> {
    b: &'b [u8],
    /// Where the next element may start (OWS and commas may come first).
    i: usize,
    /// Ranges so far.
    count: usize,
    /// How many ranges to note: `CAPACITY`, or 0 for a value of more than
    /// `NOTED` bytes.
    noting: usize,
    index: RangeIndex,
    /// The value was found malformed.
    failed: bool,
}

impl<'b> Scanner<'b> {
    /// A scanner of `b` that notes the first ranges in its index when
    /// `note` (for a value to be iterated later).
    #[inline(always)]
    pub(crate) fn new(b: &'b [u8], note: bool) -> Scanner<'b> {
        // Offsets fit a spot only in a value of at most `NOTED` bytes; a
        // longer one notes nothing.
        let noting = if note && b.len() <= RangeIndex::NOTED {
            RangeIndex::CAPACITY
        } else {
            0
        };
        // Leading OWS is only allowed before a comma (an empty first
        // element).
        let failed = b.first().is_some_and(|&c| is_ows(c)) && b.get(skip_ows(b, 0)) != Some(&b',');
        Scanner {
            b,
            i: 0,
            count: 0,
            noting,
            index: RangeIndex::EMPTY,
            failed,
        }
    }

    /// The next range, validated: where it starts and ends, and its
    /// quality; `None` at the end of the value or at the first error (then
    /// [`finish`](Scanner::finish) says which).
    #[inline(always)]
    pub(crate) fn next_element(&mut self) -> Option<(usize, usize, u16)> {
        if self.failed {
            return None;
        }
        let b = self.b;
        let mut i = self.i;
        let (start, end, quality);
        // The usual element, with the comma and OWS after it, at once.
        let short = match b.get(i..) {
            Some(rest) => match rest.first_chunk::<16>() {
                Some(window) => short_element(window),
                None => last_element(rest),
            },
            None => None,
        };
        if let Some((len, q, next)) = short {
            (start, end, quality) = (i, i + len, q);
            i += next;
        } else {
            // At the start of the value or after a comma: OWS and more
            // commas may come first.
            let c = loop {
                match b.get(i) {
                    None => {
                        self.i = i;
                        return None;
                    }
                    Some(&c) if is_separator(c) => i += 1,
                    Some(&c) => break c,
                }
            };
            start = i;
            let next;
            let ended = if is_alpha(c) {
                // When the short element was tried right here, the range
                // has none of the short shapes, or is short and cheap to
                // scan: straight to the general scan.
                if start == self.i {
                    range_end(b, i)
                } else {
                    short_range(b, i).or_else(|| range_end(b, i))
                }
            } else if c == b'*' {
                Some((i + 1, byte_at(b, i + 1)))
            } else {
                None
            };
            let Some((range_end, after)) = ended else {
                self.failed = true;
                return None;
            };
            (end, next) = (range_end, after);
            let Some((comma, q)) = after_range(b, end, next) else {
                self.failed = true;
                return None;
            };
            quality = q;
            // Past the comma (or the end).
            i = comma + 1;
        }
        if self.count < self.noting
            && let Some(spot) = self.index.spots.get_mut(self.count)
        {
            *spot = Spot {
                start: offset(start),
                len: offset(end - start),
                quality,
            };
        }
        self.count += 1;
        self.i = i;
        Some((start, end, quality))
    }

    /// The value.
    #[inline(always)]
    pub(crate) fn bytes(&self) -> &'b [u8] {
        self.b
    }

    /// Stops the scan: the value is malformed.
    #[inline(always)]
    pub(crate) fn fail(&mut self) {
        self.failed = true;
    }

    /// After [`next_element`](Scanner::next_element) gave `None`: the
    /// number of ranges and the noted ones, or `None` when the value is
    /// malformed.
    #[inline(always)]
    pub(crate) fn finish(self) -> Option<(usize, RangeIndex)> {
        if self.failed {
            return None;
        }
        let mut index = self.index;
        // At most `CAPACITY`, so it fits.
        index.len = self.count.min(self.noting) as u8;
        Some((self.count, index))
    }
}

/// Every byte of a word: `0x01` repeated.
const LOW: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte of a word.
const HIGH: u64 = 0x8080_8080_8080_8080;

// Word tests on a word of eight ASCII bytes (as a validated value holds):
// each flags, by its high bit, every byte that passes. A sum of two bytes
// below 0x80 never carries into the next byte, so the tests are exact.
/// The bytes at `n` or above, in a word of ASCII bytes.
#[inline(always)]
pub(crate) fn ascii_at_least(x: u64, n: u8) -> u64 {
    x.wrapping_add(LOW * u64::from(0x80 - n)) & HIGH
}

/// The bytes below `n`, in a word of ASCII bytes.
#[inline(always)]
pub(crate) fn ascii_below(x: u64, n: u8) -> u64 {
    !x.wrapping_add(LOW * u64::from(0x80 - n)) & HIGH
}

/// The bytes equal to `c`, in a word of ASCII bytes.
#[inline(always)]
pub(crate) fn ascii_equal(x: u64, c: u8) -> u64 {
    !(x ^ (LOW * u64::from(c))).wrapping_add(LOW * 0x7f) & HIGH
}

/// The letters of a word of eight bytes, as the high bit of each byte that
/// is one (`A-Z`, `a-z`; never a byte of 0x80 or above).
#[inline(always)]
fn letters(x: u64) -> u64 {
    // Below 0x80, setting bit 0x20 maps `A-Z` to `a-z` and no other byte
    // into `a-z`. Each sum stays within its byte (at most 0x7f + 0x1f), so
    // the bytes do not disturb each other.
    let lower = (x & !HIGH) | (LOW * 0x20);
    let from_a = lower.wrapping_add(LOW * (0x80 - u64::from(b'a')));
    let past_z = lower.wrapping_add(LOW * (0x7f - u64::from(b'z')));
    from_a & !past_z & !x & HIGH
}

/// The byte of `x` at `k` (0 is the first byte in memory).
#[inline(always)]
pub(crate) fn byte_of(x: u64, k: u32) -> u8 {
    (x >> (8 * k)) as u8
}

/// The element browsers send most, checked on the sixteen bytes where it
/// starts (when there are sixteen): a range of one of the shapes of
/// [`short_range`], then either `,` or the weight `;q=0.` and one digit
/// followed by `,`; then at most one OWS. Returns the range's length, its
/// quality, and how far the next element may start (past the comma and
/// OWS); `None` for anything else, which the general path then decides.
#[inline(always)]
fn short_element(w: &[u8; 16]) -> Option<(usize, u16, usize)> {
    let (first, second) = w.split_at(8);
    let x = u64::from_le_bytes(first.try_into().ok()?);
    let y = u64::from_le_bytes(second.try_into().ok()?);
    let l = letters(x);
    if l & 0x8080 != 0x8080 {
        return None;
    }
    let third = byte_of(x, 2);
    let len: usize = if ends_range(third) {
        2
    } else if third == b'-' && l & 0x80_8000_0000 == 0x80_8000_0000 && ends_range(byte_of(x, 5)) {
        5
    } else {
        return None;
    };
    // The eight bytes after the range (`len` is 2 or 5).
    let after = (x >> (8 * len)) | (y << (64 - 8 * len));
    let (quality, comma) = if after as u8 == b',' {
        (1000, len)
    } else {
        // `;q=0.` then any byte, then `,`.
        const MASK: u64 = u64::from_le_bytes([0xff, 0xff, 0xff, 0xff, 0xff, 0, 0xff, 0]);
        const FORM: u64 = u64::from_le_bytes(*b";q=0.\0,\0");
        let digit = byte_of(after, 5);
        if after & MASK != FORM || !is_digit(digit) {
            return None;
        }
        (u16::from(digit - b'0') * 100, len + 6)
    };
    let next = comma + 1;
    let skip = w.get(next).is_some_and(|&c| is_ows(c));
    Some((len, quality, next + usize::from(skip)))
}

/// The usual last element of a value, when it is all that is left: a range
/// of one of the shapes of [`short_range`], with or without the weight
/// `;q=0.` and one digit. Returns what [`short_element`] returns (the next
/// element "starts" one past the end).
#[inline(always)]
fn last_element(rest: &[u8]) -> Option<(usize, u16, usize)> {
    let weight =
        |q: u8, d: u8| (matches!(q, b'q' | b'Q') && is_digit(d)).then(|| u16::from(d - b'0') * 100);
    let (len, quality) = match *rest {
        [a, b] if is_alpha(a) && is_alpha(b) => (2, 1000),
        [a, b, b'-', c, d] if is_alpha(a) && is_alpha(b) && is_alpha(c) && is_alpha(d) => (5, 1000),
        [a, b, b';', q, b'=', b'0', b'.', d] if is_alpha(a) && is_alpha(b) => (2, weight(q, d)?),
        [a, b, b'-', c, d, b';', q, b'=', b'0', b'.', e]
            if is_alpha(a) && is_alpha(b) && is_alpha(c) && is_alpha(d) =>
        {
            (5, weight(q, e)?)
        }
        _ => return None,
    };
    Some((len, quality, rest.len() + 1))
}

/// The two range shapes browsers send most, two letters (`en`) and two
/// letters, `-`, two letters (`en-US`), checked on one word of the eight
/// bytes at `start` (which holds a letter): the end of the range and the
/// byte there, as [`range_end`] gives them, or `None` when the range has
/// another shape or fewer than eight bytes are left (then [`range_end`]
/// decides).
#[inline(always)]
fn short_range(b: &[u8], start: usize) -> Option<(usize, u8)> {
    let x = u64::from_le_bytes(*b.get(start..)?.first_chunk::<8>()?);
    let l = letters(x);
    // Bytes 0 and 1: letters.
    if l & 0x8080 != 0x8080 {
        return None;
    }
    let third = byte_of(x, 2);
    if ends_range(third) {
        return Some((start + 2, third));
    }
    // `-`, then bytes 3 and 4 letters, and what follows ends the range.
    let sixth = byte_of(x, 5);
    (third == b'-' && l & 0x80_8000_0000 == 0x80_8000_0000 && ends_range(sixth))
        .then_some((start + 5, sixth))
}

/// What follows the range that ends at `i` (`next` is the byte there, as
/// [`byte_at`] reads it): `[ OWS ";" OWS weight ] OWS`, then a comma or the
/// end. Returns the index of that comma (the length of `b` at the end) and
/// the range's quality.
///
/// Whatever ends a range must be `,`, `;`, OWS or the end, which rules out
/// a ninth letter, a digit in the first subtag, or `*-`.
#[inline(always)]
fn after_range(b: &[u8], mut i: usize, next: u8) -> Option<(usize, u16)> {
    match next {
        b',' => return Some((i, 1000)),
        b';' => {}
        // The end, or a NUL byte (never allowed after a range).
        0 => return (i >= b.len()).then_some((i, 1000)),
        c if is_ows(c) => {
            i = skip_ows(b, i);
            match b.get(i) {
                Some(b',') => return Some((i, 1000)),
                Some(b';') => {}
                _ => return None,
            }
        }
        _ => return None,
    }
    // The weight browsers send, `;q=0.` and one digit before a comma or
    // the end, validated and read at once: with a comma and at least one
    // byte after it, by one masked comparison of eight bytes.
    if let Some(chunk) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        // `;q=0.` then any byte, then `,`, then any byte.
        const MASK: u64 = u64::from_le_bytes([0xff, 0xff, 0xff, 0xff, 0xff, 0, 0xff, 0]);
        const FORM: u64 = u64::from_le_bytes(*b";q=0.\0,\0");
        let &[.., d, _, _] = chunk;
        if u64::from_le_bytes(*chunk) & MASK == FORM && is_digit(d) {
            return Some((i + 6, u16::from(d - b'0') * 100));
        }
    } else if let Some(&[b';', b'q', b'=', b'0', b'.', d]) = b.get(i..)
        && is_digit(d)
    {
        return Some((i + 6, u16::from(d - b'0') * 100));
    }
    let (i, quality) = weight(b, i)?;
    match b.get(i) {
        Some(b',') | None => Some((i, quality)),
        Some(&c) if is_ows(c) => {
            let comma = skip_ows(b, i);
            (b.get(comma) == Some(&b',')).then_some((comma, quality))
        }
        Some(_) => None,
    }
}

/// An offset or length in a value of at most [`RangeIndex::NOTED`] bytes
/// (the only values whose ranges are noted), so it fits.
#[inline(always)]
fn offset(at: usize) -> u16 {
    at as u16
}

/// The index after any OWS at `i`.
#[inline(always)]
fn skip_ows(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|&c| is_ows(c)) {
        i += 1;
    }
    i
}

/// The byte at `i`, or 0 past the end. 0 is no byte of any element or
/// separator, so the scan loops stop there like at the end; where the end
/// is allowed, the caller tells the two apart by `i`.
#[inline(always)]
fn byte_at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// The end of a basic range starting with the letter at `start`, and the
/// byte there (as [`byte_at`] reads it): a first subtag of 1 to 8 letters,
/// then `-` and 1 to 8 letters or digits, any number of times. What follows
/// is the caller's to check.
#[inline(always)]
fn range_end(b: &[u8], start: usize) -> Option<(usize, u8)> {
    let mut i = start + 1;
    let mut next = byte_at(b, i);
    while is_alpha(next) {
        i += 1;
        next = byte_at(b, i);
    }
    if i - start > 8 {
        return None;
    }
    while next == b'-' {
        let subtag = i + 1;
        i = subtag;
        next = byte_at(b, i);
        while is_alphanum(next) {
            i += 1;
            next = byte_at(b, i);
        }
        if i == subtag || i - subtag > 8 {
            return None;
        }
    }
    Some((i, next))
}

/// `";" OWS "q=" qvalue` starting at the `;` at `i`: where it ends, and
/// the quality.
#[inline(always)]
fn weight(b: &[u8], i: usize) -> Option<(usize, u16)> {
    let q = skip_ows(b, i + 1);
    let [b'q' | b'Q', b'=', int, rest @ ..] = b.get(q..)? else {
        return None;
    };
    let (used, quality) = match (*int, rest) {
        (b'0', [b'.', decimals @ ..]) => {
            let (n, thousandths) = thousandths(decimals);
            (4 + n, thousandths)
        }
        (b'1', [b'.', decimals @ ..]) => (4 + zeros(decimals), 1000),
        (b'0', _) => (3, 0),
        (b'1', _) => (3, 1000),
        _ => return None,
    };
    let end = q + used;
    // A fourth decimal, or a digit after `0`, `1` or `1.0`.
    if b.get(end).is_some_and(|&c| is_digit(c)) {
        return None;
    }
    Some((end, quality))
}

/// The decimals of `0.` (up to three digits): how many, and their value in
/// thousandths.
#[inline(always)]
fn thousandths(b: &[u8]) -> (usize, u16) {
    let digit = |c: u8| u16::from(c.wrapping_sub(b'0'));
    match *b {
        [d1, d2, d3, ..] if is_digit(d1) && is_digit(d2) && is_digit(d3) => {
            (3, digit(d1) * 100 + digit(d2) * 10 + digit(d3))
        }
        [d1, d2, ..] if is_digit(d1) && is_digit(d2) => (2, digit(d1) * 100 + digit(d2) * 10),
        [d1, ..] if is_digit(d1) => (1, digit(d1) * 100),
        _ => (0, 0),
    }
}

/// The decimals of `1.` (up to three `0`s): how many.
#[inline(always)]
fn zeros(b: &[u8]) -> usize {
    match b {
        [b'0', b'0', b'0', ..] => 3,
        [b'0', b'0', ..] => 2,
        [b'0', ..] => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{RangeIndex, scan};
    use crate::Limits;

    fn count_ranges(b: &[u8]) -> Option<usize> {
        let mut index = RangeIndex::EMPTY;
        scan(b, &mut index)
    }

    /// The nom parser's answer, ignoring where it failed.
    fn reference(s: &str) -> Option<usize> {
        crate::accept::validate_with_nom(s.as_bytes(), Limits::UNLIMITED).ok()
    }

    #[test]
    fn agrees_on_the_edges() {
        for s in [
            "",
            ",",
            " ,",
            " ",
            "en",
            "en ",
            " en",
            "*",
            "*-a",
            "en1",
            "abcdefgh",
            "abcdefghi",
            "a-12345678",
            "a-123456789",
            "en;q=0",
            "en;q=0.",
            "en;q=1.",
            "en;q=1.000",
            "en;q=1.0001",
            "en;q=0.1234",
            "en;q=1.001",
            "en ; Q=0.5 ,",
            "en;q=",
            "en;q",
            "en;",
            "en;q=01",
            "en;q=10",
            "en-",
            "en--a",
            "*;q=0.5,de",
            // Around the six-byte weight and the element start.
            "en;q=0.5",
            "en;q=0.5,",
            "en;q=0.5,,fr",
            "en;q=0.55",
            "en;q=0.5555",
            "en;q=0.5 ,fr",
            "en;q=0.5 ",
            "en;q=0.5\t",
            "en;q=0.5;",
            "en;q=0.5x",
            "en;q=0.5-",
            "en;q=0.a",
            "en;q=0.,",
            "en;Q=0.5",
            "en; q=0.5",
            "en ;q=0.5",
            "en;q=1.0",
            "en;q=1.5",
            "en,\t",
            "en, fr",
            "en ,fr",
            "\ten",
            "\t,en",
            ",\t,",
            "en,*",
            "en,*,",
            "en-a,",
            "en-,",
            "en-;q=1",
            "*;q=0.5",
            "*,",
            "* ,",
            "**",
            // Around the eight-byte weight and the end-of-input byte.
            "en;q=0.5,x",
            "en;q=0.5,,",
            "en;q=0.5;x",
            "en;q=0.5x,x",
            "en;q=0.55,x",
            "en;q=0.\u{0},x",
            "en;Q=0.5,x",
            "en;q=0.5\u{0}",
            "en;q=0.5,\u{0}",
            "en\u{0}",
            "en\u{0},fr",
            "*\u{0}",
            "en-a\u{0}",
        ] {
            assert_eq!(count_ranges(s.as_bytes()), reference(s), "{s:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn agrees_with_the_nom_parser(s in "([a-zA-Z]{1,9}|[0-9]{1,3}|[ \t,;=.*qQ-]){0,12}") {
            prop_assert_eq!(count_ranges(s.as_bytes()), reference(&s), "{:?}", s);
        }

        #[test]
        fn agrees_on_weights(s in "[a-z]{1,3}[ \t]?(;[ \t]?[qQ]?=?[0-9.]{0,6})?(,[a-z*]{0,2})?") {
            prop_assert_eq!(count_ranges(s.as_bytes()), reference(&s), "{:?}", s);
        }

        #[test]
        fn agrees_around_weights_and_separators(s in "[a-z*]{1,2}(-[a-z0-9]{1,2})?([ \t]?;[ \t]?[qQ]=[01](\\.[0-9]{0,4})?)?[ \t]{0,2}[,;]?[ \t]{0,2}([a-z*]{1,2}(;q=0\\.[0-9]{1,2})?)?,?") {
            prop_assert_eq!(count_ranges(s.as_bytes()), reference(&s), "{:?}", s);
        }

        #[test]
        fn agrees_on_bytes(bytes in prop::collection::vec(prop::sample::select(b"aZ09-*,; \tqQ=.\x00\xff".to_vec()), 0..16)) {
            let s = std::string::String::from_utf8_lossy(&bytes).into_owned();
            prop_assert_eq!(count_ranges(s.as_bytes()), reference(&s), "{:?}", s);
        }
    }
}
