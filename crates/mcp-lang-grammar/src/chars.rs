//! Byte classes of the ABNF core rules (RFC 5234 Appendix B.1) and of OWS.

const ALPHA: u8 = 1;
const DIGIT: u8 = 2;
const OWS: u8 = 4;
const RANGE_END: u8 = 8;
const STAR: u8 = 16;
const COMMA: u8 = 32;

/// The class bits of every byte: one table load instead of range compares
/// on the hot paths.
static CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = if byte.is_ascii_alphabetic() {
            ALPHA
        } else if byte.is_ascii_digit() {
            DIGIT
        } else if byte == b' ' || byte == b'\t' {
            OWS | RANGE_END
        } else if byte == b',' {
            RANGE_END | COMMA
        } else if byte == b';' {
            RANGE_END
        } else if byte == b'*' {
            STAR
        } else {
            0
        };
        b += 1;
    }
    table
};

#[inline(always)]
fn class(b: u8) -> u8 {
    CLASSES[usize::from(b)]
}

/// ALPHA: `A-Z` / `a-z`.
#[inline(always)]
pub(crate) fn is_alpha(b: u8) -> bool {
    class(b) & ALPHA != 0
}

/// DIGIT: `0-9`.
#[inline(always)]
pub(crate) fn is_digit(b: u8) -> bool {
    class(b) & DIGIT != 0
}

/// alphanum (RFC 5646, RFC 4647): ALPHA / DIGIT.
#[inline(always)]
pub(crate) fn is_alphanum(b: u8) -> bool {
    class(b) & (ALPHA | DIGIT) != 0
}

/// OWS (RFC 9110 §5.6.3) is *( SP / HTAB ); this is one of its bytes.
#[inline(always)]
pub(crate) fn is_ows(b: u8) -> bool {
    class(b) & OWS != 0
}

/// OWS, `;` or `,`: what ends a range inside a well-formed `Accept-Language`.
#[inline(always)]
pub(crate) fn ends_range(b: u8) -> bool {
    class(b) & RANGE_END != 0
}

/// OWS or `,`: what may come between two elements of a list.
#[inline(always)]
pub(crate) fn is_separator(b: u8) -> bool {
    class(b) & (OWS | COMMA) != 0
}

/// ALPHA or `*`: what starts a range inside a well-formed `Accept-Language`.
#[inline(always)]
pub(crate) fn starts_range(b: u8) -> bool {
    class(b) & (ALPHA | STAR) != 0
}

/// The input after any OWS.
#[inline(always)]
pub(crate) fn skip_ows(input: &[u8]) -> &[u8] {
    let mut rest = input;
    while let Some((&b, after)) = rest.split_first() {
        if !is_ows(b) {
            break;
        }
        rest = after;
    }
    rest
}

/// Splits `input` at `n` without panicking (`n` past the end splits at the end).
#[inline(always)]
pub(crate) fn split(input: &[u8], n: usize) -> (&[u8], &[u8]) {
    input.split_at_checked(n).unwrap_or((input, &[]))
}

/// The bytes of `whole` that precede `rest`, where `rest` is a suffix of `whole`.
#[inline(always)]
pub(crate) fn consumed<'a>(whole: &'a [u8], rest: &[u8]) -> &'a [u8] {
    whole
        .get(..whole.len().saturating_sub(rest.len()))
        .unwrap_or(&[])
}

/// ASCII bytes as `&str`. Every value this crate accepts is ASCII, so this
/// never fails on validated input; on anything else it yields `""` rather
/// than panicking.
pub(crate) fn ascii_str(bytes: &[u8]) -> &str {
    core::str::from_utf8(bytes).unwrap_or("")
}
