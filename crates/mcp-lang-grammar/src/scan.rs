//! A fast validating scan of `Accept-Language`, used before the nom parser.
//!
//! [`count_ranges`] answers one question, "is this value well-formed, and how
//! many ranges does it have?", in one tight loop over the bytes, with none of
//! the bookkeeping an error report needs. When it says no, the nom parser in
//! [`accept`](crate::accept) runs on the same bytes to find the offset and
//! what was expected; the nom parser is the reference grammar, and the tests
//! check on generated input that the two always agree.

use crate::chars::{is_alpha, is_alphanum, is_digit, is_ows};

/// The number of ranges when `b` is a well-formed `Accept-Language` value.
#[inline]
pub(crate) fn count_ranges(b: &[u8]) -> Option<usize> {
    let mut i = 0;
    let mut count = 0;
    loop {
        // An element may start here.
        match b.get(i) {
            Some(&c) if is_alpha(c) => {
                i = subtag_end(b, i, is_alpha)?;
                if b.get(i).is_some_and(|&c| is_digit(c)) {
                    return None;
                }
                while b.get(i) == Some(&b'-') {
                    i = subtag_end(b, i + 1, is_alphanum)?;
                }
                i = weight(b, i)?;
                count += 1;
            }
            Some(b'*') => {
                i = weight(b, i + 1)?;
                count += 1;
            }
            _ => {}
        }
        // Then OWS and "," or the end (with no OWS before it).
        let before_ows = i;
        while b.get(i).is_some_and(|&c| is_ows(c)) {
            i += 1;
        }
        match b.get(i) {
            None if i == before_ows => return Some(count),
            Some(b',') => {
                i += 1;
                while b.get(i).is_some_and(|&c| is_ows(c)) {
                    i += 1;
                }
            }
            _ => return None,
        }
    }
}

/// The end of a subtag of 1 to 8 bytes of `class` starting at `start`.
#[inline(always)]
fn subtag_end(b: &[u8], start: usize, class: fn(u8) -> bool) -> Option<usize> {
    let mut i = start;
    while b.get(i).is_some_and(|&c| class(c)) {
        i += 1;
    }
    if i == start || i - start > 8 || b.get(i).is_some_and(|&c| is_alphanum(c)) {
        return None;
    }
    Some(i)
}

/// After a range at `i`: an optional `OWS ";" OWS "q=" qvalue`; returns the
/// end of the weight, or `i` when there is none.
#[inline(always)]
fn weight(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    while b.get(j).is_some_and(|&c| is_ows(c)) {
        j += 1;
    }
    if b.get(j) != Some(&b';') {
        return Some(i);
    }
    j += 1;
    while b.get(j).is_some_and(|&c| is_ows(c)) {
        j += 1;
    }
    if !matches!(b.get(j), Some(b'q' | b'Q')) || b.get(j + 1) != Some(&b'=') {
        return None;
    }
    j += 2;
    let zero_only = match b.get(j) {
        Some(b'0') => false,
        Some(b'1') => true,
        _ => return None,
    };
    j += 1;
    if b.get(j) == Some(&b'.') {
        j += 1;
        let start = j;
        while b
            .get(j)
            .is_some_and(|&c| if zero_only { c == b'0' } else { is_digit(c) })
            && j - start < 3
        {
            j += 1;
        }
    }
    if b.get(j).is_some_and(|&c| is_digit(c)) {
        return None;
    }
    Some(j)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::count_ranges;
    use crate::Limits;

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
