//! Building an `Accept-Language` value from `(range, quality)` pairs.
//!
//! The output is canonical and short: elements joined by `,` with no space,
//! `;q=` omitted for q=1 and otherwise the shortest qvalue (`0.9`, `0.05`,
//! `0.005`, `0`). Ranges are written as they are spelled. Because every
//! [`LanguageRange`](crate::LanguageRange) and [`Quality`](crate::Quality) is
//! valid by construction, the output always parses back, with
//! [`AcceptLanguage::parse`](crate::AcceptLanguage::parse), to the same list
//! (an empty list gives the empty value, which parses as no preference).
//!
//! Nothing here allocates: [`serialize`] returns a [`Display`](fmt::Display)
//! value, and [`write_to`] writes into any [`fmt::Write`].
//!
//! ```
//! use mcp_lang_grammar::{AcceptLanguage, serialize};
//!
//! let parsed = AcceptLanguage::parse("fr-CA , fr;Q=0.900,, en;q=0.50").unwrap();
//! let text = serialize::serialize(parsed.iter()).to_string();
//! assert_eq!(text, "fr-CA,fr;q=0.9,en;q=0.5");
//! assert!(AcceptLanguage::parse(&text).unwrap().iter().eq(parsed.iter()));
//! ```

use core::fmt;

use crate::accept::WeightedRange;

/// An `Accept-Language` value to be written: see [`serialize`].
///
/// ```
/// use mcp_lang_grammar::{AcceptLanguage, serialize::Serialized};
/// let value = AcceptLanguage::parse("en;q=1.000, *;q=0").unwrap();
/// assert_eq!(Serialized::new(value.iter()).to_string(), "en,*;q=0");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Serialized<I>(I);

impl<I> Serialized<I> {
    /// Wraps the pairs to write (the iterator is cloned for each formatting).
    ///
    /// ```
    /// use mcp_lang_grammar::serialize::Serialized;
    /// assert_eq!(Serialized::new(std::iter::empty()).to_string(), "");
    /// ```
    pub const fn new(ranges: I) -> Serialized<I> {
        Serialized(ranges)
    }
}

impl<'a, I> fmt::Display for Serialized<I>
where
    I: IntoIterator<Item = WeightedRange<'a>> + Clone,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_to(f, self.0.clone())
    }
}

/// The `Accept-Language` value made of `ranges`, for formatting.
///
/// ```
/// use mcp_lang_grammar::{LanguageRange, Quality, WeightedRange, serialize::serialize};
///
/// let pairs = [
///     WeightedRange { range: LanguageRange::parse("de").unwrap(), quality: Quality::ONE },
///     WeightedRange { range: LanguageRange::parse("en").unwrap(), quality: Quality::new(50).unwrap() },
/// ];
/// assert_eq!(serialize(pairs).to_string(), "de,en;q=0.05");
/// ```
pub const fn serialize<'a, I>(ranges: I) -> Serialized<I>
where
    I: IntoIterator<Item = WeightedRange<'a>> + Clone,
{
    Serialized(ranges)
}

/// Writes the `Accept-Language` value made of `ranges` into `out`.
///
/// ```
/// use mcp_lang_grammar::{AcceptLanguage, serialize::write_to};
///
/// let mut out = String::new();
/// write_to(&mut out, AcceptLanguage::parse("da, en-gb;q=0.8").unwrap()).unwrap();
/// assert_eq!(out, "da,en-gb;q=0.8");
/// ```
pub fn write_to<'a, W, I>(out: &mut W, ranges: I) -> fmt::Result
where
    W: fmt::Write + ?Sized,
    I: IntoIterator<Item = WeightedRange<'a>>,
{
    for (i, weighted) in ranges.into_iter().enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        write!(out, "{weighted}")?;
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use core::fmt;

    use super::*;
    use crate::AcceptLanguage;

    /// A `fmt::Write` into a fixed buffer (the crate is `no_std`).
    pub(crate) struct SliceWriter<'b> {
        buf: &'b mut [u8],
        len: usize,
    }

    impl<'b> SliceWriter<'b> {
        pub(crate) fn new(buf: &'b mut [u8]) -> Self {
            SliceWriter { buf, len: 0 }
        }

        pub(crate) fn as_str(&self) -> &str {
            core::str::from_utf8(&self.buf[..self.len]).unwrap()
        }
    }

    impl fmt::Write for SliceWriter<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let end = self.len + s.len();
            self.buf
                .get_mut(self.len..end)
                .ok_or(fmt::Error)?
                .copy_from_slice(s.as_bytes());
            self.len = end;
            Ok(())
        }
    }

    fn reserialize<'b>(value: &str, buf: &'b mut [u8]) -> SliceWriter<'b> {
        let mut w = SliceWriter::new(buf);
        write_to(&mut w, AcceptLanguage::parse(value).unwrap()).unwrap();
        w
    }

    #[test]
    fn canonical_spelling() {
        for (input, output) in [
            ("", ""),
            (" , ,", ""),
            ("en", "en"),
            ("en;q=1", "en"),
            ("en;q=1.000", "en"),
            ("en;q=0.900", "en;q=0.9"),
            ("en;q=0.050", "en;q=0.05"),
            ("en;q=0.005", "en;q=0.005"),
            ("en;q=0.", "en;q=0"),
            ("EN-us ; Q=0.5 ,\t*;q=0", "EN-us;q=0.5,*;q=0"),
        ] {
            let mut buf = [0u8; 64];
            assert_eq!(reserialize(input, &mut buf).as_str(), output);
        }
    }

    #[test]
    fn round_trip() {
        let value = AcceptLanguage::parse("fr-CA,fr;q=0.9,en;q=0.5,*;q=0.001").unwrap();
        let mut buf = [0u8; 64];
        let w = reserialize(value.as_str(), &mut buf);
        let again = AcceptLanguage::parse(w.as_str()).unwrap();
        assert!(again.iter().eq(value.iter()));
        assert!(
            again
                .iter()
                .zip(value.iter())
                .all(|(a, b)| a.range.as_str() == b.range.as_str())
        );
    }
}
