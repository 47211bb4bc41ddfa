//! A fast validating scan of `Accept-Language`, used before the nom parser.
//!
//! [`count_ranges`] answers one question, "is this value well-formed, and how
//! many ranges does it have?", in one tight loop over the bytes, with none of
//! the bookkeeping an error report needs. When it says no, the nom parser in
//! [`accept`](crate::accept) runs on the same bytes to find the offset and
//! what was expected; the nom parser is the reference grammar, and the tests
//! check on generated input that the two always agree.

use crate::chars::{is_alpha, is_alphanum, is_digit, skip_ows};

/// The number of ranges when `b` is a well-formed `Accept-Language` value.
#[inline]
pub(crate) fn count_ranges(mut b: &[u8]) -> Option<usize> {
    let mut count = 0;
    loop {
        // An element may start here.
        match b.split_first() {
            Some((&c, _)) if is_alpha(c) => {
                b = subtag(b, is_alpha)?;
                if b.first().is_some_and(|&c| is_digit(c)) {
                    return None;
                }
                while let Some((b'-', after)) = b.split_first() {
                    b = subtag(after, is_alphanum)?;
                }
                b = weight(b)?;
                count += 1;
            }
            Some((b'*', after)) => {
                b = weight(after)?;
                count += 1;
            }
            _ => {}
        }
        // Then OWS and "," or the end (with no OWS before it).
        let after_ows = skip_ows(b);
        match after_ows.split_first() {
            None if after_ows.len() == b.len() => return Some(count),
            Some((b',', after)) => b = skip_ows(after),
            _ => return None,
        }
    }
}

/// The input after a subtag of 1 to 8 bytes of `class`.
#[inline(always)]
fn subtag(b: &[u8], class: fn(u8) -> bool) -> Option<&[u8]> {
    let mut rest = b;
    let mut len = 0;
    while let Some((&c, after)) = rest.split_first() {
        if !class(c) {
            break;
        }
        rest = after;
        len += 1;
    }
    if len == 0 || len > 8 || rest.first().is_some_and(|&c| is_alphanum(c)) {
        return None;
    }
    Some(rest)
}

/// After a range: an optional `OWS ";" OWS "q=" qvalue`; returns the input
/// after the weight, or `b` unchanged when there is none.
#[inline(always)]
fn weight(b: &[u8]) -> Option<&[u8]> {
    let Some((b';', after)) = skip_ows(b).split_first() else {
        return Some(b);
    };
    let (zero_only, after_int) = match skip_ows(after) {
        [b'q' | b'Q', b'=', b'0', rest @ ..] => (false, rest),
        [b'q' | b'Q', b'=', b'1', rest @ ..] => (true, rest),
        _ => return None,
    };
    let mut rest = after_int;
    if let Some((b'.', decimals)) = rest.split_first() {
        rest = decimals;
        for _ in 0..3 {
            match rest.split_first() {
                Some((&c, after)) if if zero_only { c == b'0' } else { is_digit(c) } => {
                    rest = after
                }
                _ => break,
            }
        }
    }
    if rest.first().is_some_and(|&c| is_digit(c)) {
        return None;
    }
    Some(rest)
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
