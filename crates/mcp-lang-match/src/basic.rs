//! Basic filtering (RFC 4647 §3.3.1) with HTTP weights (decisions D3, D4a).
//!
//! # The scheme
//!
//! A *basic language range* such as `de-de` names a language and everything
//! more specific than it. It **matches** a tag when, ignoring ASCII case, it
//! equals the tag or equals a prefix of the tag that ends at a hyphen. So
//! `de-de` matches `de-DE` and `de-DE-1996`, but not `de-Deva` (a different
//! subtag) nor `de-Latn-DE` (the range's `de` subtag is not followed by `DE`
//! in the tag), and `en` never matches `eng`: prefixes end at subtag
//! boundaries, never inside a subtag. The range `*` matches every tag.
//!
//! ```
//! use mcp_lang_grammar::LanguageRange;
//! use mcp_lang_match::basic;
//!
//! let de_de = LanguageRange::parse("de-de").unwrap();
//! assert!(basic::matches(&de_de, "de-DE-1996"));
//! assert!(!basic::matches(&de_de, "de-Deva"));
//! assert!(!basic::matches(&de_de, "de-Latn-DE"));
//! ```
//!
//! # Weights
//!
//! In an HTTP `Accept-Language` value every range carries a weight, and
//! several ranges may match one tag. The rule of RFC 2616 §14.4, which
//! RFC 9110 keeps, and decision D3 of this project, decide which one counts:
//!
//! * the **longest** non-wildcard range that matches the tag gives the tag its
//!   quality (`en-US;q=0.2, en` rates `en-US` at 0.2 and `en-GB` at 1);
//! * among ranges of equal length (repeats of one range) `q=0` wins, so a
//!   repeat never overrides an exclusion (`fr, fr;q=0` excludes `fr`), then
//!   the higher q, then the earlier;
//! * `*` rates only tags that no other range matches (`en;q=0, *` accepts
//!   everything except English);
//! * `q=0` means "not acceptable".
//!
//! ```
//! use mcp_lang_grammar::{AcceptLanguage, Quality};
//! use mcp_lang_match::basic;
//!
//! let header = AcceptLanguage::parse("en;q=0, en-US, *;q=0.5").unwrap();
//! assert_eq!(basic::quality(&header, "en-US"), Some(Quality::ONE));
//! assert_eq!(basic::quality(&header, "en-GB"), Some(Quality::ZERO));
//! assert_eq!(basic::quality(&header, "fr"), Quality::new(500));
//! ```
//!
//! [`filter`] returns the acceptable tags (quality above 0) in the order of
//! decision D4a: quality descending, then the header position of the range
//! that gave the quality, then the caller's order.

use alloc::vec::Vec;

use mcp_lang_grammar::{AcceptLanguage, LanguageRange, Quality, WeightedRange};

use crate::subtags;

/// Whether a basic language range matches a tag (RFC 4647 §3.3.1): `*`
/// matches every tag; any other range matches when, ignoring ASCII case, it
/// equals the tag or a prefix of it that is followed by `-`.
///
/// The tag is compared as a string of hyphen-separated subtags; it is not
/// validated (use [`mcp_lang_grammar::LanguageTag::parse`] for that).
///
/// ```
/// use mcp_lang_grammar::LanguageRange;
/// use mcp_lang_match::basic::matches;
///
/// let zh_hant = LanguageRange::parse("zh-Hant").unwrap();
/// assert!(matches(&zh_hant, "zh-Hant-TW"));
/// assert!(matches(&zh_hant, "ZH-hant"));
/// assert!(!matches(&zh_hant, "zh"));
///
/// let en = LanguageRange::parse("en").unwrap();
/// assert!(!matches(&en, "eng"));
/// assert!(matches(&LanguageRange::parse("*").unwrap(), "eng"));
/// ```
pub fn matches(range: &LanguageRange<'_>, tag: &str) -> bool {
    range.is_wildcard()
        || subtags::align(range.as_str().as_bytes(), tag.as_bytes(), false).range_is_prefix
}

/// The range that decides a tag's quality under decision D3, and how it
/// compares with a rival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decider {
    /// Length of the range in bytes; 0 for `*`. Two ranges of equal length
    /// that both match one tag are the same range, up to case.
    pub(crate) len: usize,
    /// The range's q in thousandths.
    pub(crate) quality: u16,
    /// The range's position in the header (0-based, empty elements skipped).
    pub(crate) position: usize,
}

impl Decider {
    /// Whether `self` takes precedence over `other` (D3): longer first; at
    /// equal length q=0, then higher q, then earlier position.
    pub(crate) fn beats(&self, other: &Decider) -> bool {
        if self.len != other.len {
            return self.len > other.len;
        }
        if (self.quality == 0) != (other.quality == 0) {
            return self.quality == 0;
        }
        if self.quality != other.quality {
            return self.quality > other.quality;
        }
        self.position < other.position
    }

    /// Keeps the better of `slot` and `candidate`.
    pub(crate) fn keep_best(slot: &mut Option<Decider>, candidate: Decider) {
        match slot {
            Some(best) if !candidate.beats(best) => {}
            _ => *slot = Some(candidate),
        }
    }
}

/// The D3 rating of one tag: the deciding non-wildcard range, if any, and the
/// deciding `*`, if any.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Rating {
    pub(crate) explicit: Option<Decider>,
    pub(crate) wildcard: Option<Decider>,
}

impl Rating {
    /// Rates `tag` against ranges in header order.
    pub(crate) fn of<'h>(ranges: impl IntoIterator<Item = WeightedRange<'h>>, tag: &str) -> Rating {
        let mut rating = Rating::default();
        for (position, wr) in ranges.into_iter().enumerate() {
            let quality = wr.quality.get();
            if wr.range.is_wildcard() {
                Decider::keep_best(
                    &mut rating.wildcard,
                    Decider {
                        len: 0,
                        quality,
                        position,
                    },
                );
            } else {
                let range = wr.range.as_str().as_bytes();
                if subtags::align(range, tag.as_bytes(), false).range_is_prefix {
                    Decider::keep_best(
                        &mut rating.explicit,
                        Decider {
                            len: range.len(),
                            quality,
                            position,
                        },
                    );
                }
            }
        }
        rating
    }

    /// The deciding range: the explicit one, else `*`.
    pub(crate) fn decider(&self) -> Option<Decider> {
        self.explicit.or(self.wildcard)
    }
}

/// A tag's quality under a header (decision D3), or `None` when no range,
/// not even `*`, matches it.
///
/// `Some(Quality::ZERO)` means the header explicitly rules the tag out.
///
/// ```
/// use mcp_lang_grammar::{AcceptLanguage, Quality};
/// use mcp_lang_match::basic::quality;
///
/// let header = AcceptLanguage::parse("fr-CA, fr;q=0.9, fr;q=0").unwrap();
/// assert_eq!(quality(&header, "fr-CA"), Some(Quality::ONE));
/// assert_eq!(quality(&header, "fr-FR"), Some(Quality::ZERO)); // q=0 wins over the repeat
/// assert_eq!(quality(&header, "en"), None);
/// ```
pub fn quality(header: &AcceptLanguage<'_>, tag: &str) -> Option<Quality> {
    Rating::of(header.iter(), tag)
        .decider()
        .and_then(|d| Quality::new(d.quality))
}

/// One tag accepted by [`filter`].
///
/// ```
/// use mcp_lang_grammar::AcceptLanguage;
/// use mcp_lang_match::basic::filter;
///
/// let header = AcceptLanguage::parse("de;q=0.5, en").unwrap();
/// let accepted = filter(&header, &["de-AT", "fr", "en-US"]);
/// let seen: Vec<_> = accepted.iter().map(|f| (f.tag(), f.index(), f.quality().get())).collect();
/// assert_eq!(seen, [("en-US", 2, 1000), ("de-AT", 0, 500)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filtered<'t> {
    tag: &'t str,
    index: usize,
    quality: Quality,
}

impl<'t> Filtered<'t> {
    /// The tag, spelled as the caller gave it.
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// use mcp_lang_match::basic::filter;
    ///
    /// let header = AcceptLanguage::parse("EN").unwrap();
    /// assert_eq!(filter(&header, &["en-GB"])[0].tag(), "en-GB");
    /// ```
    pub fn tag(&self) -> &'t str {
        self.tag
    }

    /// The tag's position in the caller's list.
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// use mcp_lang_match::basic::filter;
    ///
    /// let header = AcceptLanguage::parse("de").unwrap();
    /// assert_eq!(filter(&header, &["fr", "de"])[0].index(), 1);
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// The tag's quality (decision D3); always above 0.
    ///
    /// ```
    /// use mcp_lang_grammar::{AcceptLanguage, Quality};
    /// use mcp_lang_match::basic::filter;
    ///
    /// let header = AcceptLanguage::parse("de;q=0.3").unwrap();
    /// assert_eq!(filter(&header, &["de-AT"])[0].quality(), Quality::new(300).unwrap());
    /// ```
    pub fn quality(&self) -> Quality {
        self.quality
    }
}

/// Basic filtering (RFC 4647 §3.3.1) of `tags` by a header, with weights.
///
/// Returns the tags of quality above 0 (decision D3) ordered as decision D4a
/// says: quality descending, then the header position of the range that gave
/// the quality, then the order of `tags`. Tags are compared as strings and
/// are not validated. Time is O(ranges × tags).
///
/// ```
/// use mcp_lang_grammar::AcceptLanguage;
/// use mcp_lang_match::basic::filter;
///
/// let header = AcceptLanguage::parse("*;q=0.5, de, en;q=0").unwrap();
/// let tags = ["en-US", "fr", "de-CH", "de"];
/// let accepted: Vec<&str> = filter(&header, &tags).iter().map(|f| f.tag()).collect();
/// assert_eq!(accepted, ["de-CH", "de", "fr"]);
/// ```
pub fn filter<'t, T: AsRef<str>>(header: &AcceptLanguage<'_>, tags: &'t [T]) -> Vec<Filtered<'t>> {
    let ranges: Vec<WeightedRange<'_>> = header.iter().collect();
    let mut accepted: Vec<(Filtered<'t>, usize)> = tags
        .iter()
        .enumerate()
        .filter_map(|(index, tag)| {
            let tag = tag.as_ref();
            let decider = Rating::of(ranges.iter().copied(), tag).decider()?;
            let quality = Quality::new(decider.quality).filter(|q| !q.is_zero())?;
            Some((
                Filtered {
                    tag,
                    index,
                    quality,
                },
                decider.position,
            ))
        })
        .collect();
    // Stable sort; ties on (quality, position) keep the caller's order.
    accepted.sort_by(|(a, pa), (b, pb)| b.quality.cmp(&a.quality).then(pa.cmp(pb)));
    accepted.into_iter().map(|(f, _)| f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags<'t>(header: &str, tags: &'t [&'t str]) -> Vec<&'t str> {
        let header = AcceptLanguage::parse(header).unwrap();
        filter(&header, tags).iter().map(|f| f.tag()).collect()
    }

    #[test]
    fn rfc_4647_3_3_1_example() {
        let range = LanguageRange::parse("de-de").unwrap();
        assert!(matches(&range, "de-DE-1996"));
        assert!(matches(&range, "de-DE"));
        assert!(!matches(&range, "de-Deva"));
        assert!(!matches(&range, "de-Latn-DE"));
    }

    #[test]
    fn d3_longest_range_decides() {
        assert_eq!(tags("en;q=0, en-US", &["en", "en-US", "en-GB"]), ["en-US"]);
        assert_eq!(
            tags("en-US;q=0.2, en", &["en-US", "en-GB"]),
            ["en-GB", "en-US"]
        );
        assert_eq!(tags("fr, fr;q=0", &["fr"]), Vec::<&str>::new());
        assert_eq!(tags("fr;q=0, fr", &["fr"]), Vec::<&str>::new());
        assert_eq!(tags("fr;q=0.5, fr;q=0.7", &["fr", "de"]), ["fr"]);
    }

    #[test]
    fn d4a_order() {
        // Equal quality: header position of the deciding range, then caller order.
        assert_eq!(
            tags("de, fr", &["fr", "de-AT", "de"]),
            ["de-AT", "de", "fr"]
        );
        assert_eq!(tags("*;q=0.5, de", &["en", "de"]), ["de", "en"]);
        assert_eq!(tags("en;q=0, *", &["en-GB", "fr"]), ["fr"]);
    }
}
