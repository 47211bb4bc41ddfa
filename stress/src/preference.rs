//! Preferences to send: random everyday ones for the load generator, and
//! hostile ones of a chosen size for the limit tests.
//!
//! Every value here is a valid HTTP field value (visible ASCII and spaces), so
//! it can be mirrored into `Accept-Language` as SEP-2792 requires; whether it
//! is a *well-formed* `Accept-Language` is up to the generator (a malformed one
//! must be ignored as absent, so it is worth sending too).

use crate::Rng;

/// Ranges the random preferences draw from: the reference server's languages,
/// more and less specific relatives, unsupported languages, the wildcard and
/// odd letter case.
const RANGES: &[&str] = &[
    "en",
    "en-US",
    "en-GB",
    "fr",
    "fr-CA",
    "fr-BE",
    "fr-FR",
    "de",
    "de-AT",
    "de-CH",
    "ja",
    "ja-JP",
    "ga",
    "ga-IE",
    "es",
    "es-419",
    "zh-Hant-TW",
    "tlh",
    "sr-Latn",
    "*",
    "EN",
    "Fr-ca",
    "DE-at",
    "x-private",
    "i-klingon",
];

/// Malformed values: the server must answer in its default, without an error.
const MALFORMED: &[&str] = &[
    "fr;q=2",
    "en_US",
    "de;q=0.1234",
    "ja;level=1",
    "fr-",
    "*-CA",
];

/// q-values, as written (none, exclusions, all three decimal lengths).
const WEIGHTS: &[&str] = &[
    "", "", "", ";q=0", ";q=0.1", ";q=0.5", ";q=0.9", ";q=0.95", ";q=0.123", ";Q=1", ";q=1.000",
    ";q=0.", ";q=0.001",
];

/// Separators between list elements (RFC 9110 §5.6.1: OWS, empty elements).
const SEPARATORS: &[&str] = &[",", ", ", " ,", ",,", ", ,"];

/// A random everyday preference: one to four ranges with random weights, and
/// now and then a malformed value.
///
/// ```
/// use mcp_lang_stress::{Rng, preference::random};
///
/// let mut rng = Rng::new(1);
/// let value = random(&mut rng);
/// assert!(value.bytes().all(|b| b == b' ' || b.is_ascii_graphic()));
/// ```
pub fn random(rng: &mut Rng) -> String {
    if rng.below(20) == 0 {
        return (*rng.pick(MALFORMED).unwrap_or(&"fr;q=2")).to_owned();
    }
    let count = 1 + rng.below(4);
    let mut value = String::new();
    for i in 0..count {
        if i > 0 {
            value.push_str(rng.pick(SEPARATORS).unwrap_or(&","));
        }
        value.push_str(rng.pick(RANGES).unwrap_or(&"en"));
        value.push_str(rng.pick(WEIGHTS).unwrap_or(&""));
    }
    value
}

/// `ranges` distinct junk ranges (`zz-00000;q=0.5, zz-00001;q=0.5, …`) that
/// match no supported language, followed by `tail`. With 64 junk ranges
/// and a `tail` of `fr`, the `fr` is the 65th range.
///
/// ```
/// use mcp_lang_stress::preference::junk_ranges;
///
/// assert_eq!(junk_ranges(2, "fr"), "zz-00000;q=0.5, zz-00001;q=0.5, fr");
/// ```
pub fn junk_ranges(ranges: usize, tail: &str) -> String {
    let mut value = String::with_capacity(ranges * 16 + tail.len());
    for i in 0..ranges {
        value.push_str(&format!("zz-{:05};q=0.5, ", i % 100_000));
    }
    value.push_str(tail);
    value
}

/// Junk ranges as in [`junk_ranges`] until the value is at least `bytes` long,
/// then `tail`: thousands of ranges at 64 KiB, tens of thousands at 1 MiB.
///
/// ```
/// use mcp_lang_stress::preference::many_ranges;
///
/// let value = many_ranges(64 << 10, "fr");
/// assert!(value.len() >= 64 << 10 && value.ends_with(", fr"));
/// ```
pub fn many_ranges(bytes: usize, tail: &str) -> String {
    junk_ranges(bytes.div_ceil(16), tail)
}

/// How many ranges [`many_ranges`] writes for `bytes` (with its tail).
pub fn many_ranges_count(bytes: usize) -> usize {
    bytes.div_ceil(16) + 1
}

/// One range with subtags of eight letters until it is at least `bytes`
/// long: `de-abcdefgh-abcdefgh-…`, well-formed (RFC 4647 §2.1), whose lookup
/// truncation (D4) reaches `de`.
///
/// ```
/// use mcp_lang_stress::preference::deep_subtags;
///
/// assert_eq!(deep_subtags(20), "de-abcdefgh-abcdefgh");
/// ```
pub fn deep_subtags(bytes: usize) -> String {
    let mut value = String::from("de");
    while value.len() < bytes {
        value.push_str("-abcdefgh");
    }
    value
}

/// `bytes` of empty list elements (`, , , …`, RFC 9110 §5.6.1 allows them),
/// then `tail`: one real range behind a long run of commas.
///
/// ```
/// use mcp_lang_stress::preference::comma_run;
///
/// assert_eq!(comma_run(4, "ja"), ", , ja");
/// ```
pub fn comma_run(bytes: usize, tail: &str) -> String {
    let mut value = String::with_capacity(bytes + tail.len());
    while value.len() < bytes {
        value.push_str(", ");
    }
    value.push_str(tail);
    value
}

/// A malformed value of `bytes` letters: a primary subtag far longer than
/// eight letters, which the grammar rejects at byte 8.
///
/// ```
/// use mcp_lang_stress::preference::malformed;
///
/// assert_eq!(malformed(10), "aaaaaaaaaa");
/// ```
pub fn malformed(bytes: usize) -> String {
    "a".repeat(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_lang_match::Negotiator;

    #[test]
    fn hostile_values_have_their_size_and_shape() {
        for bytes in [64 << 10, 1 << 20] {
            let many = many_ranges(bytes, "fr");
            assert!(many.len() >= bytes);
            let header = mcp_lang_grammar_len(&many);
            assert_eq!(header, many_ranges_count(bytes));
            assert!(deep_subtags(bytes).len() >= bytes);
            assert!(comma_run(bytes, "ja").len() >= bytes);
        }
    }

    fn mcp_lang_grammar_len(value: &str) -> usize {
        // The negotiator's own parse, through a negotiation that must not fail.
        let n = Negotiator::new(["en"], "en").unwrap();
        assert_eq!(n.negotiate_header(Some(value)).tag(), "en");
        value.split(',').filter(|e| !e.trim().is_empty()).count()
    }

    #[test]
    fn random_values_are_field_values() {
        let mut rng = Rng::new(3);
        for _ in 0..1000 {
            let value = random(&mut rng);
            assert!(!value.is_empty());
            assert!(value.bytes().all(|b| b == b' ' || b.is_ascii_graphic()));
        }
    }
}
