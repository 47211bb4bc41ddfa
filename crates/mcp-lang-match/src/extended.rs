//! Extended filtering (RFC 4647 §3.3.2).
//!
//! # The scheme
//!
//! An *extended language range* (RFC 4647 §2.2) lists subtags that a tag must
//! contain **in order**, not necessarily next to each other, and may use `*`
//! for "any subtag or none". `de-*-DE` (or its synonym `de-DE`) asks for
//! German as used in Germany whatever the script: it matches `de-DE`,
//! `de-de`, `de-Latn-DE`, `de-Latf-DE`, `de-DE-x-goethe`, `de-Latn-DE-1996`
//! and `de-Deva-DE`, but not `de` (no `DE`), `de-Deva` (`Deva` is not `DE`)
//! nor `de-x-DE`: after a singleton (`x`, or an extension's letter) the
//! subtags mean something else, so the search may not skip past one.
//!
//! The algorithm, exactly as the RFC gives it:
//!
//! 1. Split range and tag into subtags. A range subtag matches a tag subtag
//!    when they are equal ignoring case, or when the range subtag is `*`.
//! 2. The first subtags must match, or the match fails.
//! 3. For each further range subtag: a `*` is skipped; otherwise, if the tag
//!    has no subtags left the match fails; if the current tag subtag matches,
//!    both advance; if the tag subtag is a singleton the match fails; else the
//!    tag advances (skipping a subtag the range did not mention).
//! 4. When the range runs out, the match succeeds.
//!
//! ```
//! use mcp_lang_grammar::ExtendedRange;
//! use mcp_lang_match::extended;
//!
//! let range = ExtendedRange::parse("de-*-DE").unwrap();
//! assert!(extended::matches(&range, "de-Latn-DE-1996"));
//! assert!(!extended::matches(&range, "de-x-DE"));
//! ```
//!
//! Extended ranges do not occur in HTTP (`Accept-Language` carries basic
//! ranges only), so this scheme has no weights: a list of ranges is in
//! priority order, most preferred first.

use alloc::vec::Vec;

use mcp_lang_grammar::ExtendedRange;

use crate::subtags;

/// Whether an extended language range matches a tag (RFC 4647 §3.3.2).
///
/// The tag is compared as a string of hyphen-separated subtags; it is not
/// validated. Time is linear in the lengths of range and tag.
///
/// ```
/// use mcp_lang_grammar::ExtendedRange;
/// use mcp_lang_match::extended::matches;
///
/// let swiss = ExtendedRange::parse("*-CH").unwrap();
/// assert!(matches(&swiss, "de-CH"));
/// assert!(matches(&swiss, "rm-Latn-CH-sursilv"));
/// assert!(!matches(&swiss, "de-AT"));
/// ```
pub fn matches(range: &ExtendedRange<'_>, tag: &str) -> bool {
    matches_str(range.as_str(), tag)
}

/// [`matches`] on strings; `range` is assumed to be a well-formed extended
/// range but nothing breaks if it is not.
pub(crate) fn matches_str(range: &str, tag: &str) -> bool {
    let same = |r: &[u8], t: &[u8]| r == b"*" || r.eq_ignore_ascii_case(t);
    let mut range = range.as_bytes().split(|&b| b == b'-');
    let mut tag = tag.as_bytes().split(|&b| b == b'-').peekable();
    // Step 2: the first subtags must match.
    match (range.next(), tag.next()) {
        (Some(r), Some(t)) if same(r, t) => {}
        _ => return false,
    }
    // Step 3.
    for r in range {
        if r == b"*" {
            continue; // 3.A
        }
        loop {
            let Some(t) = tag.next() else {
                return false; // 3.B
            };
            if same(r, t) {
                break; // 3.C
            }
            if subtags::is_singleton(t) {
                return false; // 3.D
            }
            // 3.E: skip this tag subtag and try the next one.
        }
    }
    true // Step 4.
}

/// Extended filtering of `tags` by ranges in priority order (most preferred
/// first).
///
/// Returns every tag that some range matches, once, ordered by the first
/// range that matches it, then by the order of `tags` (the unweighted form of
/// decision D4a). Time is O(ranges × tags × length).
///
/// ```
/// use mcp_lang_grammar::ExtendedRange;
/// use mcp_lang_match::extended::filter;
///
/// let ranges = [ExtendedRange::parse("*-CH").unwrap(), ExtendedRange::parse("de-*-DE").unwrap()];
/// let tags = ["de-Latn-DE", "fr-CH", "de-x-DE", "it"];
/// assert_eq!(filter(&ranges, &tags), ["fr-CH", "de-Latn-DE"]);
/// ```
pub fn filter<'t, T: AsRef<str>>(ranges: &[ExtendedRange<'_>], tags: &'t [T]) -> Vec<&'t str> {
    let mut accepted: Vec<(usize, &'t str)> = tags
        .iter()
        .filter_map(|tag| {
            let tag = tag.as_ref();
            let first = ranges.iter().position(|r| matches(r, tag))?;
            Some((first, tag))
        })
        .collect();
    accepted.sort_by_key(|&(first, _)| first);
    accepted.into_iter().map(|(_, tag)| tag).collect()
}

#[cfg(test)]
mod tests {
    use super::matches_str;

    #[test]
    fn rfc_4647_3_3_2_table() {
        for tag in [
            "de-DE",
            "de-de",
            "de-Latn-DE",
            "de-Latf-DE",
            "de-DE-x-goethe",
            "de-Latn-DE-1996",
            "de-Deva-DE",
        ] {
            assert!(matches_str("de-*-DE", tag), "{tag}");
            assert!(matches_str("de-DE", tag), "{tag}");
        }
        for tag in ["de", "de-x-DE", "de-Deva"] {
            assert!(!matches_str("de-*-DE", tag), "{tag}");
            assert!(!matches_str("de-DE", tag), "{tag}");
        }
    }

    #[test]
    fn wildcards() {
        assert!(matches_str("*", "anything-at-all"));
        assert!(matches_str("*-*", "en"));
        assert!(matches_str("en-*", "en"));
        assert!(!matches_str("en-*", "fr"));
        assert!(matches_str("*-Latn", "sr-Latn-RS"));
        assert!(!matches_str("*-Latn", "sr"));
    }

    #[test]
    fn odd_input_does_not_panic() {
        assert!(!matches_str("", "en"));
        assert!(matches_str("", ""));
        assert!(!matches_str("en", ""));
        assert!(!matches_str("a--b", "a-c"));
    }
}
