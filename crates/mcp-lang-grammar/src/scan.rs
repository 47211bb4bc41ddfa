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

    /// Notes a range at `start..end` of quality `quality`, after which
    /// scanning resumes at `resume`, unless the index is full or already
    /// stopped noting.
    #[inline(always)]
    fn note(&mut self, count: usize, start: usize, end: usize, quality: u16, resume: usize) {
        // `count` is this range's 1-based number: only the next free spot,
        // so once one range did not fit, no later one is noted either.
        if count != usize::from(self.len) + 1 {
            return;
        }
        let (Ok(start), Ok(len)) = (u32::try_from(start), u16::try_from(end - start)) else {
            return;
        };
        if let Some(spot) = self.spots.get_mut(count - 1) {
            *spot = Spot {
                start,
                len,
                quality,
            };
            self.len += 1;
            self.resume = resume;
        }
    }
}

/// The number of ranges when `b` is a well-formed `Accept-Language` value;
/// the first ranges are noted in `index` (which must start empty).
///
/// One forward walk with an index: each byte is looked at once (twice at
/// the end of a subtag), and the common shapes (`fr-CA`, `,`, `;q=0.9`)
/// take the first branch at every step.
#[inline]
pub(crate) fn scan(b: &[u8], index: &mut RangeIndex) -> Option<usize> {
    let mut count = 0;
    // Leading OWS is only allowed before a comma (an empty first element).
    let mut i = skip_ows(b, 0);
    if i > 0 && b.get(i) != Some(&b',') {
        return None;
    }
    loop {
        // An element may start at `i` (OWS after the previous comma skipped).
        let start = i;
        match b.get(i) {
            None => return Some(count),
            Some(b',') => {
                i = skip_ows(b, i + 1);
                continue;
            }
            Some(b'*') => i += 1,
            Some(&c) if is_alpha(c) => i = range_end(b, i)?,
            Some(_) => return None,
        }
        count += 1;
        let end = i;
        // After the range: `[ OWS ";" OWS weight ]`, then `OWS ","` or the end.
        let mut next = b.get(i);
        if next.is_some_and(|&c| is_ows(c)) {
            i = skip_ows(b, i);
            next = Some(b.get(i)?);
        }
        let mut quality = 1000;
        let mut resume = end;
        if next == Some(&b';') {
            let q = skip_ows(b, i + 1);
            (i, quality) = weight(b, q)?;
            // Past `q=` and the qvalue's first digit.
            resume = q + 3;
            next = b.get(i);
            if next.is_some_and(|&c| is_ows(c)) {
                i = skip_ows(b, i);
                next = Some(b.get(i)?);
            }
        }
        if count <= RangeIndex::CAPACITY {
            index.note(count, start, end, quality, resume);
        }
        match next {
            None => return Some(count),
            Some(b',') => i = skip_ows(b, i + 1),
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
