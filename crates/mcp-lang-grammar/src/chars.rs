//! Byte classes of the ABNF core rules (RFC 5234 Appendix B.1) and of OWS.

/// ALPHA: `A-Z` / `a-z`.
pub(crate) const fn is_alpha(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

/// DIGIT: `0-9`.
pub(crate) const fn is_digit(b: u8) -> bool {
    b.is_ascii_digit()
}

/// alphanum (RFC 5646, RFC 4647): ALPHA / DIGIT.
pub(crate) const fn is_alphanum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// OWS (RFC 9110 §5.6.3) is *( SP / HTAB ); this is one of its bytes.
pub(crate) const fn is_ows(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The input after any OWS.
pub(crate) fn skip_ows(input: &[u8]) -> &[u8] {
    let n = input.iter().take_while(|&&b| is_ows(b)).count();
    input.get(n..).unwrap_or(&[])
}

/// Splits `input` at `n` without panicking (`n` past the end splits at the end).
pub(crate) fn split(input: &[u8], n: usize) -> (&[u8], &[u8]) {
    input.split_at_checked(n).unwrap_or((input, &[]))
}

/// The bytes of `whole` that precede `rest`, where `rest` is a suffix of `whole`.
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
