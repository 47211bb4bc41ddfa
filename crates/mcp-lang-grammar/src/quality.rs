//! Quality values (RFC 9110 §12.4.2), as integers in thousandths (decision D1).
//!
//! ```text
//! weight = OWS ";" OWS "q=" qvalue
//! qvalue = ( "0" [ "." 0*3DIGIT ] )
//!        / ( "1" [ "." 0*3("0") ] )
//! ```
//!
//! The grammar is followed to the letter: `0.`, `1.`, `0.5`, `0.500` and
//! `1.000` are qvalues; `0.1234`, `1.001`, `2`, `.5`, `-0`, `1e-1`, `NaN`
//! and ` 0.5` are not. No floating point is involved anywhere: `0.5` is
//! [`Quality`] 500.

use core::fmt;

use nom::bytes::complete::take_while;

use crate::chars::{is_digit, split};
use crate::error::{Expected, Fail, PResult, ParseError, fail, into_fail};

/// A quality value (RFC 9110 §12.4.2) in thousandths: 0..=1000 (decision D1).
///
/// Its [`Display`](fmt::Display) is the shortest qvalue spelling, the one the
/// [serializer](crate::serialize) writes:
///
/// ```
/// use mcp_lang_grammar::Quality;
///
/// let q = Quality::new(900).unwrap();
/// assert_eq!(q.to_string(), "0.9");
/// assert_eq!(Quality::parse("0.900"), Ok(q));
/// assert!(Quality::ONE > q && q > Quality::ZERO);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quality(u16);

impl Quality {
    /// q=1, the default weight.
    ///
    /// ```
    /// use mcp_lang_grammar::{AcceptLanguage, Quality};
    ///
    /// let value = AcceptLanguage::parse("de, en;q=1.000").unwrap();
    /// assert!(value.iter().all(|w| w.quality == Quality::ONE)); // absent weight means q=1
    /// assert_eq!(Quality::ONE.get(), 1000);
    /// ```
    pub const ONE: Quality = Quality(1000);
    /// q=0, "not acceptable".
    ///
    /// ```
    /// use mcp_lang_grammar::Quality;
    ///
    /// assert_eq!(Quality::parse("0.000"), Ok(Quality::ZERO));
    /// assert!(Quality::ZERO.is_zero());
    /// ```
    pub const ZERO: Quality = Quality(0);

    /// A quality from thousandths; `None` above 1000.
    ///
    /// ```
    /// use mcp_lang_grammar::Quality;
    /// assert_eq!(Quality::new(1000), Some(Quality::ONE));
    /// assert_eq!(Quality::new(1001), None);
    /// ```
    pub const fn new(thousandths: u16) -> Option<Quality> {
        if thousandths <= 1000 {
            Some(Quality(thousandths))
        } else {
            None
        }
    }

    /// A quality from thousandths that a parser has already checked to be
    /// at most 1000.
    #[inline(always)]
    pub(crate) const fn from_validated(thousandths: u16) -> Quality {
        Quality(thousandths)
    }

    /// The quality in thousandths.
    ///
    /// ```
    /// use mcp_lang_grammar::Quality;
    /// assert_eq!(Quality::parse("0.05").unwrap().get(), 50);
    /// ```
    pub const fn get(self) -> u16 {
        self.0
    }

    /// Whether this is q=0 (not acceptable).
    ///
    /// ```
    /// use mcp_lang_grammar::Quality;
    /// assert!(Quality::parse("0.000").unwrap().is_zero());
    /// ```
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// Parses a qvalue exactly as RFC 9110 §12.4.2 spells it (the text after
    /// `q=`). Offsets in the error are relative to `s`.
    ///
    /// ```
    /// use mcp_lang_grammar::Quality;
    /// assert_eq!(Quality::parse("1.").unwrap(), Quality::ONE);
    /// assert_eq!(Quality::parse("0.125").unwrap().get(), 125);
    /// assert_eq!(Quality::parse("1.001").unwrap_err().offset(), 4);
    /// assert!(Quality::parse(".5").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Quality, ParseError> {
        let whole = s.as_bytes();
        match qvalue(whole) {
            Ok(([], q)) => Ok(q),
            Ok((rest, _)) => Err(ParseError::new(whole.len() - rest.len(), Expected::End)),
            Err(e) => Err(into_fail(e, whole).locate(whole)),
        }
    }
}

impl Default for Quality {
    /// q=1, the weight of a range written without one.
    fn default() -> Quality {
        Quality::ONE
    }
}

impl fmt::Display for Quality {
    /// The shortest qvalue for this quality: `1`, `0`, `0.9`, `0.05`, `0.005`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1000 => f.write_str("1"),
            0 => f.write_str("0"),
            n => {
                let digits = [
                    b'0' + (n / 100) as u8,
                    b'0' + (n / 10 % 10) as u8,
                    b'0' + (n % 10) as u8,
                ];
                let keep = if n % 10 != 0 {
                    3
                } else if n % 100 != 0 {
                    2
                } else {
                    1
                };
                f.write_str("0.")?;
                let (shown, _) = split(&digits, keep);
                for &d in shown {
                    fmt::Write::write_char(f, char::from(d))?;
                }
                Ok(())
            }
        }
    }
}

/// `qvalue`: the text after `q=`. Fails with [`Expected::QValue`] at the first
/// byte that cannot continue a qvalue, including a digit right after a
/// complete one (`0.1234`, `1.001`, `10`).
#[inline(always)]
pub(crate) fn qvalue(input: &[u8]) -> PResult<'_, Quality> {
    let (rest, thousandths) = match input.split_first() {
        Some((b'0', after_int)) => {
            let (rest, decimals) = decimals(after_int, is_digit)?;
            let mut value: u16 = 0;
            for i in 0..3 {
                let digit = decimals
                    .get(i)
                    .map_or(0, |d| u16::from(d.wrapping_sub(b'0')));
                value = value * 10 + digit;
            }
            (rest, value)
        }
        Some((b'1', after_int)) => (decimals(after_int, |b| b == b'0')?.0, 1000),
        _ => return fail(input, Expected::QValue),
    };
    if rest.first().is_some_and(|&b| is_digit(b)) {
        return fail(rest, Expected::QValue);
    }
    Ok((rest, Quality(thousandths)))
}

/// `[ "." 0*3digit ]`: the decimals (without the dot), empty when absent.
#[inline(always)]
fn decimals(input: &[u8], digit: impl Fn(u8) -> bool) -> PResult<'_, &[u8]> {
    let Some((b'.', after_dot)) = input.split_first() else {
        return Ok((input, &[]));
    };
    let (rest, decimals) = take_while::<_, _, Fail<'_>>(digit)(after_dot)?;
    if decimals.len() > 3 {
        return fail(split(after_dot, 3).1, Expected::QValue);
    }
    Ok((rest, decimals))
}

/// The quality of a qvalue already validated by [`qvalue`], read without
/// re-checking: `bytes` starts with a well-formed qvalue, followed by OWS,
/// `,` or the end of a validated `Accept-Language` value.
///
/// The three decimals are read independently: a missing decimal reads as 0,
/// and no digit can follow a non-digit there (after the qvalue comes OWS,
/// `,`, or an element, which starts with a letter or `*`).
#[inline(always)]
pub(crate) fn read_validated_qvalue(bytes: &[u8]) -> Quality {
    match bytes {
        [b'0', b'.', decimals @ ..] => {
            let digit = |k: usize| match decimals.get(k) {
                Some(&d) if is_digit(d) => u16::from(d - b'0'),
                _ => 0,
            };
            Quality(digit(0) * 100 + digit(1) * 10 + digit(2))
        }
        [b'1', ..] => Quality::ONE,
        _ => Quality::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Result<u16, (usize, Expected)> {
        Quality::parse(s)
            .map(Quality::get)
            .map_err(|e| (e.offset(), e.expected()))
    }

    #[test]
    fn qvalue_accepts_the_grammar() {
        for (s, v) in [
            ("0", 0),
            ("0.", 0),
            ("0.0", 0),
            ("0.000", 0),
            ("0.5", 500),
            ("0.05", 50),
            ("0.005", 5),
            ("0.123", 123),
            ("0.999", 999),
            ("1", 1000),
            ("1.", 1000),
            ("1.0", 1000),
            ("1.00", 1000),
            ("1.000", 1000),
        ] {
            assert_eq!(q(s), Ok(v), "{s}");
        }
    }

    #[test]
    fn qvalue_rejects_everything_else() {
        for (s, at) in [
            ("", 0),
            ("0.1234", 5),
            ("1.001", 4),
            ("1.1", 2),
            ("2", 0),
            (".5", 0),
            ("-0", 0),
            ("+1", 0),
            ("1e-1", 1),
            ("NaN", 0),
            ("00", 1),
            ("01", 1),
            ("10", 1),
            ("1.0000", 5),
            (" 1", 0),
            ("0,5", 1),
        ] {
            assert_eq!(q(s).map_err(|e| e.0), Err(at), "{s}");
        }
    }

    #[test]
    fn display_is_shortest() {
        for (v, s) in [
            (1000, "1"),
            (0, "0"),
            (900, "0.9"),
            (50, "0.05"),
            (5, "0.005"),
            (120, "0.12"),
            (123, "0.123"),
        ] {
            let quality = Quality::new(v).unwrap();
            let mut buf = [0u8; 8];
            let mut w = crate::serialize::tests::SliceWriter::new(&mut buf);
            fmt::Write::write_fmt(&mut w, format_args!("{quality}")).unwrap();
            assert_eq!(w.as_str(), s);
        }
    }

    #[test]
    fn display_parses_back_for_every_value() {
        for v in 0..=1000u16 {
            let quality = Quality::new(v).unwrap();
            let mut buf = [0u8; 8];
            let mut w = crate::serialize::tests::SliceWriter::new(&mut buf);
            fmt::Write::write_fmt(&mut w, format_args!("{quality}")).unwrap();
            assert_eq!(Quality::parse(w.as_str()), Ok(quality));
        }
    }
}
