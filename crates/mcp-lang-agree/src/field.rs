//! Field lines as HTTP exposes them: trimming one line, and showing several as the one
//! combined value a receiver computes.
//!
//! RFC 9110 §5.5 says the optional whitespace (SP and HTAB only) before and after a field
//! line value is not part of the field value; §5.3 says repeated lines combine, in order,
//! with a comma, and recommends `", "`, which the SEP makes the rule.

use core::fmt;

/// Removes the SP and HTAB bytes around one field line value (RFC 9110 §5.5), and
/// nothing else: not CR, LF, NUL or other whitespace, and nothing inside the value.
///
/// ```
/// use mcp_lang_agree::trim_field_line;
///
/// assert_eq!(trim_field_line(b" \ten-US, en \t"), b"en-US, en");
/// assert_eq!(trim_field_line(b"\r\nen"), b"\r\nen");
/// assert_eq!(trim_field_line(b"   "), b"");
/// ```
pub fn trim_field_line(line: &[u8]) -> &[u8] {
    let is_ows = |b: &u8| *b == b' ' || *b == b'\t';
    let start = line.iter().position(|b| !is_ows(b)).unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !is_ows(b))
        .map_or(start, |i| i + 1);
    line.get(start..end).unwrap_or_default()
}

/// Displays field lines as the combined value the SEP compares: each line trimmed
/// ([`trim_field_line`]), joined with `", "`. For error messages and logs; it writes
/// piece by piece and allocates nothing itself.
///
/// Bytes that are not UTF-8 (obs-text) are shown as `\xNN`; everything else is written
/// as is.
///
/// ```
/// use mcp_lang_agree::JoinedLines;
///
/// let lines: [&[u8]; 3] = [b"fr-CA ", b"\tfr;q=0.9", b"en;q=0.5"];
/// let joined = JoinedLines::new(lines.into_iter());
/// assert_eq!(joined.to_string(), "fr-CA, fr;q=0.9, en;q=0.5");
/// assert_eq!(joined.len(), 25);
/// ```
#[derive(Clone, Debug)]
pub struct JoinedLines<I> {
    lines: I,
}

impl<'a, I> JoinedLines<I>
where
    I: Iterator<Item = &'a [u8]> + Clone,
{
    /// Wraps an iterator over raw field line values, in received order.
    ///
    /// The iterator must be `Clone`: it is walked once per use. An
    /// `http::HeaderMap`'s `get_all(..).iter().map(|v| v.as_bytes())` is one.
    ///
    /// ```
    /// use mcp_lang_agree::JoinedLines;
    ///
    /// let lines = vec![&b"de"[..], &b" en;q=0.5 "[..]];
    /// assert_eq!(JoinedLines::new(lines.iter().copied()).to_string(), "de, en;q=0.5");
    /// ```
    pub fn new(lines: I) -> Self {
        JoinedLines { lines }
    }

    /// The length in bytes of the combined value.
    ///
    /// Counted without building the value: the trimmed lines plus two bytes
    /// per `", "` separator.
    ///
    /// ```
    /// use mcp_lang_agree::JoinedLines;
    ///
    /// let lines: [&[u8]; 2] = [b"  ga ", b"en"];
    /// assert_eq!(JoinedLines::new(lines.into_iter()).len(), "ga, en".len());
    /// ```
    pub fn len(&self) -> usize {
        self.lines
            .clone()
            .enumerate()
            .map(|(i, line)| trim_field_line(line).len() + if i == 0 { 0 } else { 2 })
            .sum()
    }

    /// Whether the combined value is empty (no lines, or one empty line).
    ///
    /// ```
    /// use mcp_lang_agree::JoinedLines;
    ///
    /// assert!(JoinedLines::new(core::iter::empty::<&[u8]>()).is_empty());
    /// assert!(JoinedLines::new([&b" \t"[..]].into_iter()).is_empty());
    /// assert!(!JoinedLines::new([&b""[..], &b""[..]].into_iter()).is_empty()); // ", "
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<'a, I> fmt::Display for JoinedLines<I>
where
    I: Iterator<Item = &'a [u8]> + Clone,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, line) in self.lines.clone().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_escaped(f, trim_field_line(line))?;
        }
        Ok(())
    }
}

/// Writes `bytes` as text, with each byte that is not part of valid UTF-8 as `\xNN`.
pub(crate) fn write_escaped(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    for chunk in bytes.utf8_chunks() {
        f.write_str(chunk.valid())?;
        for b in chunk.invalid() {
            write!(f, "\\x{b:02X}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::trim_field_line;

    #[test]
    fn trims_only_sp_and_htab() {
        assert_eq!(trim_field_line(b""), b"");
        assert_eq!(trim_field_line(b"\t"), b"");
        assert_eq!(trim_field_line(b" a b "), b"a b");
        assert_eq!(trim_field_line(b"\x0ba\x0c"), b"\x0ba\x0c");
        assert_eq!(trim_field_line(b"\xa0a\xa0"), b"\xa0a\xa0");
    }
}
