//! Lookup (RFC 4647 §3.4): one tag, found by progressive truncation.
//!
//! # The scheme
//!
//! Where filtering returns every acceptable tag, lookup returns the single
//! best one, or a default. Each range is treated as the *most specific* tag
//! the user accepts: lookup tries the range itself, then shortens it one
//! subtag at a time from the end, and the first available tag equal to one of
//! those prefixes wins. A singleton left at the end is removed together with
//! the subtag after it, so the range `zh-Hant-CN-x-private1-private2` tries,
//! in order:
//!
//! 1. `zh-Hant-CN-x-private1-private2`
//! 2. `zh-Hant-CN-x-private1`
//! 3. `zh-Hant-CN`
//! 4. `zh-Hant`
//! 5. `zh`
//! 6. the default
//!
//! Lookup never returns something *more* specific than a range: with the
//! range `de-ch` it can return `de-CH` or `de`, never `de-CH-1996`.
//!
//! ```
//! use mcp_lang_grammar::AcceptLanguage;
//! use mcp_lang_match::lookup::lookup;
//!
//! let header = AcceptLanguage::parse("zh-Hant-CN-x-private1-private2").unwrap();
//! assert_eq!(lookup(&header, &["zh", "zh-Hant-CN-x", "zh-Hant-CN"], None), Some("zh-Hant-CN"));
//!
//! let header = AcceptLanguage::parse("de-ch").unwrap();
//! assert_eq!(lookup(&header, &["de-CH-1996", "de"], Some("en")), Some("de"));
//! ```
//!
//! # Weights, `*` and exclusions
//!
//! An `Accept-Language` value is turned into the RFC's priority list by
//! taking its ranges by q descending, header order on ties. Ranges with `q=0`
//! are not part of that list: they say what is *not* acceptable, so a tag
//! they rule out under decision D3 (`en-US, en;q=0` rules out `en`) is never
//! returned, even when another range truncates to it. `*` is skipped: as the
//! RFC says, it "does not convey enough information by itself" for lookup,
//! and when nothing else matches the default is returned. `*;q=0` only rates
//! tags no other range matches, so it does not stop truncation (the same
//! order as the [`Negotiator`](crate::Negotiator)'s decision D4).

use alloc::vec::Vec;

use mcp_lang_grammar::{AcceptLanguage, WeightedRange};

use crate::basic::Rating;
use crate::subtags;

/// Lookup (RFC 4647 §3.4) of the best tag in `tags` for a header, or
/// `default` when none is acceptable.
///
/// Ranges are tried by q descending (header order on ties), each with
/// progressive truncation; among `tags` equal to a candidate (ignoring case),
/// the first in `tags` order wins and is returned in its own spelling. `q=0`
/// ranges and `*` are never tried, and a tag excluded by a `q=0` range
/// (decision D3) is never returned. The default is returned as given.
///
/// ```
/// use mcp_lang_grammar::AcceptLanguage;
/// use mcp_lang_match::lookup::lookup;
///
/// let header = AcceptLanguage::parse("fr-CA;q=0.5, de-AT").unwrap();
/// assert_eq!(lookup(&header, &["fr", "DE"], None), Some("DE"));
///
/// let header = AcceptLanguage::parse("en-US, en;q=0").unwrap();
/// assert_eq!(lookup(&header, &["en"], Some("fr")), Some("fr"));
/// ```
pub fn lookup<'a, T: AsRef<str>>(
    header: &AcceptLanguage<'_>,
    tags: &'a [T],
    default: Option<&'a str>,
) -> Option<&'a str> {
    let ranges: Vec<WeightedRange<'_>> = header.iter().collect();
    let mut priority: Vec<&WeightedRange<'_>> = ranges
        .iter()
        .filter(|wr| !wr.range.is_wildcard() && !wr.quality.is_zero())
        .collect();
    // Stable: header order on ties.
    priority.sort_by_key(|wr| core::cmp::Reverse(wr.quality));

    // Computed once per tag, so the whole lookup stays O(ranges × tags).
    let excluded: Vec<bool> = tags
        .iter()
        .map(|tag| {
            Rating::of(ranges.iter().copied(), tag.as_ref())
                .explicit
                .is_some_and(|d| d.quality == 0)
        })
        .collect();
    for wr in priority {
        let mut candidate = Some(wr.range.as_str().as_bytes());
        while let Some(c) = candidate {
            let found = tags.iter().zip(&excluded).find_map(|(tag, &excluded)| {
                let tag = tag.as_ref();
                (!excluded && tag.as_bytes().eq_ignore_ascii_case(c)).then_some(tag)
            });
            if found.is_some() {
                return found;
            }
            candidate = subtags::truncate(c);
        }
    }
    default
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<'a>(header: &str, tags: &'a [&'a str], default: Option<&'a str>) -> Option<&'a str> {
        lookup(&AcceptLanguage::parse(header).unwrap(), tags, default)
    }

    #[test]
    fn rfc_4647_3_4_fallback_pattern() {
        let h = "zh-Hant-CN-x-private1-private2";
        assert_eq!(
            run(h, &["zh-Hant-CN-x-private1-private2", "zh"], None),
            Some("zh-Hant-CN-x-private1-private2")
        );
        assert_eq!(
            run(h, &["zh", "zh-Hant-CN-x-private1"], None),
            Some("zh-Hant-CN-x-private1")
        );
        assert_eq!(
            run(h, &["zh-Hant-CN-x", "zh-Hant-CN"], None),
            Some("zh-Hant-CN")
        );
        assert_eq!(
            run(h, &["zh-Hant-CN-x", "zh-Hant", "zh"], None),
            Some("zh-Hant")
        );
        assert_eq!(run(h, &["zh-Hant-CN-x", "zh"], None), Some("zh"));
        assert_eq!(run(h, &["zh-Hant-CN-x"], Some("en")), Some("en"));
    }

    #[test]
    fn wildcard_and_weights() {
        assert_eq!(run("*", &["de", "fr"], Some("en")), Some("en"));
        assert_eq!(run("*, fr", &["de", "fr"], None), Some("fr"));
        assert_eq!(run("de;q=0.5, fr", &["de", "fr"], None), Some("fr"));
        assert_eq!(run("de, fr", &["fr", "de"], None), Some("de"));
        assert_eq!(run("de;q=0, fr", &["de"], None), None);
    }
}
