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

use crate::chars::{is_alpha, is_alphanum, is_digit, is_ows};

/// One range noted by [`scan`]: where it is and its quality.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Spot {
    /// Byte offset of the range in the value.
    pub(crate) start: u32,
    /// Its length in bytes.
    pub(crate) len: u16,
    /// Its quality in thousandths.
    pub(crate) quality: u16,
}

/// The first ranges of a validated value, as [`scan`] found them: no
/// allocation, a fixed size, and copied along with the borrowed view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RangeIndex {
    /// The first `len` are filled, in header order.
    pub(crate) spots: [Spot; RangeIndex::CAPACITY],
    /// How many spots are filled. Fewer than `CAPACITY` when the value has
    /// fewer ranges, or when a range lies beyond what a spot can hold (past
    /// 4 GiB, or longer than 64 KiB): the ranges from there on are scanned.
    pub(crate) len: u8,
    /// Where scanning resumes after the last filled spot: just past that
    /// range, or past the first digit of its qvalue, so that everything up
    /// to the next range is separators and digits.
    pub(crate) resume: usize,
}

impl RangeIndex {
    /// How many ranges are noted: enough for what browsers send.
    pub(crate) const CAPACITY: usize = 8;

    /// No spots.
    pub(crate) const EMPTY: RangeIndex = RangeIndex {
        spots: [Spot {
            start: 0,
            len: 0,
            quality: 0,
        }; RangeIndex::CAPACITY],
        len: 0,
        resume: 0,
    };

    /// Offsets and lengths are noted as `u32` and `u16`: ranges starting
    /// past this are not noted.
    const MAX_START: usize = u32::MAX as usize;
}

/// The number of ranges when `b` is a well-formed `Accept-Language` value;
/// the first ranges are noted in `index` (which must start empty).
///
/// One forward walk with an index and one `match` per step, the common
/// byte first: a letter where an element starts, `,` or `;` after a range,
/// `,` after a weight. OWS is the exception and handled off that path.
#[inline]
pub(crate) fn scan(b: &[u8], index: &mut RangeIndex) -> Option<usize> {
    let mut count = 0;
    let mut noting = true;
    let mut i = 0;
    // Leading OWS is only allowed before a comma (an empty first element).
    if b.first().is_some_and(|&c| is_ows(c)) {
        i = skip_ows(b, 0);
        if b.get(i) != Some(&b',') {
            return None;
        }
    }
    loop {
        // An element may start at `i`: we are at the start of the value or
        // after a comma, so OWS and more commas are fine here.
        let start = i;
        match b.get(i) {
            Some(&c) if is_alpha(c) => i = range_end(b, i)?,
            Some(b',' | b' ' | b'\t') => {
                i += 1;
                continue;
            }
            Some(b'*') => i += 1,
            Some(_) => return None,
            None => return Some(count),
        }
        count += 1;
        let end = i;
        let mut quality = 1000;
        let mut resume = end;
        // After the range: `[ OWS ";" OWS weight ]`, then `OWS ","` or the end.
        let mut next = b.get(i).copied();
        if next.is_some_and(is_ows) {
            i = skip_ows(b, i + 1);
            next = Some(*b.get(i)?);
        }
        if next == Some(b';') {
            let q = skip_ows(b, i + 1);
            (i, quality) = weight(b, q)?;
            // Past `q=` and the qvalue's first digit.
            resume = q + 3;
            next = b.get(i).copied();
            if next.is_some_and(is_ows) {
                i = skip_ows(b, i + 1);
                next = Some(*b.get(i)?);
            }
        }
        if noting && count <= RangeIndex::CAPACITY {
            match (start <= RangeIndex::MAX_START, u16::try_from(end - start)) {
                (true, Ok(len)) => {
                    if let Some(spot) = index.spots.get_mut(count - 1) {
                        *spot = Spot {
                            start: u32::try_from(start).unwrap_or(u32::MAX),
                            len,
                            quality,
                        };
                    }
                    index.len += 1;
                    index.resume = resume;
                }
                // From here on, ranges are scanned when iterating.
                _ => noting = false,
            }
        }
        match next {
            Some(b',') => i += 1,
            None => return Some(count),
            Some(_) => return None,
        }
    }
}

/// The index after any OWS at `i`.
#[inline(always)]
fn skip_ows(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|&c| is_ows(c)) {
        i += 1;
    }
    i
}

/// The end of a basic range starting with the letter at `i`: a first subtag
/// of 1 to 8 letters, then `-` and 1 to 8 letters or digits, any number of
/// times, not followed by a letter or digit.
#[inline(always)]
fn range_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while b.get(i).is_some_and(|&c| is_alpha(c)) {
        i += 1;
    }
    if i - start > 8 {
        return None;
    }
    while b.get(i) == Some(&b'-') {
        let subtag = i + 1;
        i = subtag;
        while b.get(i).is_some_and(|&c| is_alphanum(c)) {
            i += 1;
        }
        if i == subtag || i - subtag > 8 {
            return None;
        }
    }
    // A digit right after the first subtag, or a ninth letter or digit.
    if b.get(i).is_some_and(|&c| is_alphanum(c)) {
        return None;
    }
    Some(i)
}

/// `"q=" qvalue` starting at `i`: where it ends, and the quality.
#[inline(always)]
fn weight(b: &[u8], i: usize) -> Option<(usize, u16)> {
    let (end, quality) = match b.get(i..).unwrap_or(&[]) {
        [b'q' | b'Q', b'=', b'0', b'.', decimals @ ..] => {
            let mut value = 0;
            let mut used = 0;
            for &c in decimals.iter().take(3) {
                if !is_digit(c) {
                    break;
                }
                value = value * 10 + u16::from(c - b'0');
                used += 1;
            }
            let scale = match used {
                1 => 100,
                2 => 10,
                _ => 1,
            };
            (i + 4 + used, value * scale)
        }
        [b'q' | b'Q', b'=', b'1', b'.', decimals @ ..] => (
            i + 4 + decimals.iter().take(3).take_while(|&&c| c == b'0').count(),
            1000,
        ),
        [b'q' | b'Q', b'=', b'0', ..] => (i + 3, 0),
        [b'q' | b'Q', b'=', b'1', ..] => (i + 3, 1000),
        _ => return None,
    };
    if b.get(end).is_some_and(|&c| is_digit(c)) {
        return None;
    }
    Some((end, quality))
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
        fn agrees_on_bytes(bytes in prop::collection::vec(prop::sample::select(b"aZ09-*,; \tqQ=.\x00\xff".to_vec()), 0..16)) {
            let s = std::string::String::from_utf8_lossy(&bytes).into_owned();
            prop_assert_eq!(count_ranges(s.as_bytes()), reference(&s), "{:?}", s);
        }
    }
}
