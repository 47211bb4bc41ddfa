//! Subtag arithmetic shared by every matching scheme.
//!
//! Tags and ranges are sequences of subtags separated by `-` and compared
//! ASCII case-insensitively (RFC 4647 §2, RFC 5646 §2.1.1). Everything here
//! works on bytes, never allocates and never indexes out of bounds.

/// Whether a subtag is a singleton: one letter or digit, which introduces an
/// extension (`u`, `t`, …) or private use (`x`) in a language tag.
pub(crate) fn is_singleton(subtag: &[u8]) -> bool {
    subtag.len() == 1
}

/// How a language range lines up with a tag, subtag by subtag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Alignment {
    /// How many leading subtags the two have in common.
    pub(crate) common: usize,
    /// Whether every subtag of the range is among the common ones, that is,
    /// whether the range basic-filters the tag (RFC 4647 §3.3.1).
    pub(crate) range_is_prefix: bool,
    /// Whether range and tag are equal (ignoring case).
    pub(crate) equal: bool,
}

/// Aligns `range` against `tag`. `lower_tag` says whether `tag` is already in
/// ASCII lowercase (the `Negotiator` precomputes that), which saves one case
/// fold per byte.
pub(crate) fn align(range: &[u8], tag: &[u8], lower_tag: bool) -> Alignment {
    let mut common = 0;
    let mut same = 0;
    for (&r, &t) in range.iter().zip(tag) {
        let r = r.to_ascii_lowercase();
        let t = if lower_tag { t } else { t.to_ascii_lowercase() };
        if r != t {
            return Alignment {
                common,
                range_is_prefix: false,
                equal: false,
            };
        }
        common += usize::from(r == b'-');
        same += 1;
    }
    // One of the two is exhausted and they agree up to `same`.
    let next_range = range.get(same).copied();
    let next_tag = tag.get(same).copied();
    match (next_range, next_tag) {
        (None, None) => Alignment {
            common: common + 1,
            range_is_prefix: true,
            equal: true,
        },
        (None, Some(b'-')) => Alignment {
            common: common + 1,
            range_is_prefix: true,
            equal: false,
        },
        (Some(b'-'), None) => Alignment {
            common: common + 1,
            range_is_prefix: false,
            equal: false,
        },
        _ => Alignment {
            common,
            range_is_prefix: false,
            equal: false,
        },
    }
}

/// The RFC 4647 §3.4 truncation step: the longest proper prefix of `s` that
/// lookup visits after `s` itself, or `None` when `s` has a single subtag.
///
/// Removing a subtag also removes any singletons it leaves at the end, so
/// `zh-Hant-CN-x-private1` is followed by `zh-Hant-CN`, never `zh-Hant-CN-x`.
/// A primary subtag is kept unless it is itself a singleton: `x-foo` (private
/// use) truncates to nothing, since `x` alone ends in a singleton.
pub(crate) fn truncate(s: &[u8]) -> Option<&[u8]> {
    let mut end = s.iter().rposition(|&b| b == b'-')?;
    loop {
        let head = s.get(..end)?;
        match head.iter().rposition(|&b| b == b'-') {
            Some(dash) if is_singleton(head.get(dash + 1..).unwrap_or(&[])) => end = dash,
            None if is_singleton(head) => return None,
            _ => return Some(head),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment() {
        let a = align(b"en", b"en", false);
        assert_eq!((a.common, a.range_is_prefix, a.equal), (1, true, true));
        let a = align(b"EN", b"en-us", true);
        assert_eq!((a.common, a.range_is_prefix, a.equal), (1, true, false));
        let a = align(b"en-US", b"en", false);
        assert_eq!((a.common, a.range_is_prefix, a.equal), (1, false, false));
        let a = align(b"en", b"eng", false);
        assert_eq!((a.common, a.range_is_prefix, a.equal), (0, false, false));
        let a = align(b"eng", b"en", false);
        assert_eq!((a.common, a.range_is_prefix, a.equal), (0, false, false));
        let a = align(b"en-US", b"en-GB", false);
        assert_eq!((a.common, a.range_is_prefix, a.equal), (1, false, false));
        let a = align(b"de-de", b"de-DE-1996", false);
        assert_eq!((a.common, a.range_is_prefix, a.equal), (2, true, false));
        let a = align(b"", b"", false);
        assert_eq!((a.common, a.range_is_prefix, a.equal), (1, true, true));
    }

    #[test]
    fn truncation_follows_rfc_4647_fallback_pattern() {
        let mut s: &[u8] = b"zh-Hant-CN-x-private1-private2";
        let mut seen = alloc::vec::Vec::new();
        while let Some(t) = truncate(s) {
            seen.push(core::str::from_utf8(t).unwrap());
            s = t;
        }
        assert_eq!(
            seen,
            ["zh-Hant-CN-x-private1", "zh-Hant-CN", "zh-Hant", "zh"]
        );
        assert_eq!(truncate(b"en"), None);
        assert_eq!(truncate(b"x-a"), None);
        assert_eq!(truncate(b"x-foo-bar"), Some(&b"x-foo"[..]));
        assert_eq!(truncate(b"i-klingon"), None);
        assert_eq!(truncate(b"en-a-b-c"), Some(&b"en"[..]));
    }
}
