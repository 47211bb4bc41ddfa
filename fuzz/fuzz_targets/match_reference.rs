//! Differential: the `Negotiator` against a slow, obviously-correct model of
//! decisions D3 and D4 written here from the words of `docs/decisions.md`, not from the
//! crate's code.
//!
//! The model scores every supported tag from every range of the header:
//!
//! 1. explicit (D3): among the non-wildcard ranges that basic-filter the tag
//!    (equal, or a prefix ending at a hyphen, ignoring case), the longest;
//!    among those of equal length q=0 first, then the higher q, then the
//!    earlier; its q is the score;
//! 2. else truncated (D4): the highest q (earliest range on ties) among
//!    ranges with q>0 whose RFC 4647 §3.4 truncations (drop the last subtag,
//!    and a singleton left at the end with it) reach a prefix that equals or
//!    basic-filters the tag, never across an explicit script subtag (a tag
//!    extending the longest such prefix is not reached when the range's
//!    dropped subtags or the tag's added ones hold a script);
//! 3. else the wildcard's q (D3 among several `*`);
//!
//! and checks that the negotiator picks a tag of the highest score above 0,
//! decided by the earliest range among those (the first tie-break of D4), or
//! the default when no tag scores above 0. The later tie-breaks (closeness,
//! default, server order) are left to `match_negotiate` and the unit tests.
//!
//! Input: the layout of `match_negotiate`, split by [`NegotiationInput`] (line 1
//! the header, line 2 the default, then the supported tags; invalid tags and
//! case-duplicates are dropped).

#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_lang_fuzz::NegotiationInput;
use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::{Negotiator, Reason};

/// A tag's score: its quality and the header position of the deciding range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Score {
    quality: u16,
    position: usize,
}

/// `range` basic-filters `tag` (RFC 4647 §3.3.1), ignoring case.
fn basic_filters(range: &str, tag: &str) -> bool {
    let (range, tag) = (range.to_ascii_lowercase(), tag.to_ascii_lowercase());
    tag == range || tag.starts_with(&format!("{range}-"))
}

/// Whether `s` has a script subtag (four letters, after the primary and
/// before any singleton) at subtag index `k` or beyond.
fn script_beyond(s: &str, k: usize) -> bool {
    s.split('-')
        .enumerate()
        .skip(1)
        .take_while(|(_, t)| t.len() != 1)
        .any(|(i, t)| i >= k && t.len() == 4 && t.bytes().all(|b| b.is_ascii_alphabetic()))
}

/// The prefixes RFC 4647 lookup truncation walks through after `range`
/// itself: drop the last subtag, and a singleton left at the end with it.
fn truncations(range: &str) -> Vec<String> {
    let mut subtags: Vec<&str> = range.split('-').collect();
    let mut out = Vec::new();
    loop {
        subtags.pop();
        while subtags.last().is_some_and(|s| s.len() == 1) {
            subtags.pop();
        }
        if subtags.is_empty() {
            return out;
        }
        out.push(subtags.join("-"));
    }
}

fn model(ranges: &[(&str, u16)], tag: &str) -> Option<Score> {
    // 1. Explicit: the longest basic-filtering range; q=0, then higher q, then earlier.
    let mut explicit: Option<(usize, Score)> = None;
    for (position, &(range, quality)) in ranges.iter().enumerate() {
        if range == "*" || !basic_filters(range, tag) {
            continue;
        }
        let candidate = (range.len(), Score { quality, position });
        explicit = Some(match explicit {
            None => candidate,
            Some(best) => {
                let better = candidate.0 > best.0
                    || (candidate.0 == best.0
                        && ((quality == 0 && best.1.quality != 0)
                            || (best.1.quality != 0 && quality > best.1.quality)));
                if better { candidate } else { best }
            }
        });
    }
    if let Some((_, score)) = explicit {
        return Some(score);
    }
    // 2. Truncated: the highest q of a reaching range (q>0), earliest on ties.
    let mut truncated: Option<Score> = None;
    for (position, &(range, quality)) in ranges.iter().enumerate() {
        if range == "*" || quality == 0 {
            continue;
        }
        // The longest prefix that reaches the tag decides; never across an
        // explicit script subtag (D4) unless the tag is that prefix.
        let reaches = truncations(range)
            .into_iter()
            .find(|p| basic_filters(p, tag))
            .is_some_and(|p| {
                let k = p.split('-').count();
                p.eq_ignore_ascii_case(tag) || !(script_beyond(range, k) || script_beyond(tag, k))
            });
        if reaches && truncated.is_none_or(|best| quality > best.quality) {
            truncated = Some(Score { quality, position });
        }
    }
    if truncated.is_some() {
        return truncated;
    }
    // 3. The wildcard: q=0 first, then the higher q, then the earlier.
    let mut wildcard: Option<Score> = None;
    for (position, &(range, quality)) in ranges.iter().enumerate() {
        if range != "*" {
            continue;
        }
        let better = match wildcard {
            None => true,
            Some(best) => {
                (quality == 0 && best.quality != 0) || (best.quality != 0 && quality > best.quality)
            }
        };
        if better {
            wildcard = Some(Score { quality, position });
        }
    }
    wildcard
}

fuzz_target!(|data: &[u8]| {
    let NegotiationInput {
        header,
        default,
        supported,
    } = NegotiationInput::split(data);
    let server = Negotiator::new(supported.iter().copied(), default).expect("valid, distinct tags");
    let Ok(parsed) = AcceptLanguage::parse_bytes(header) else {
        assert_eq!(
            server.negotiate_header_bytes(Some(header)).reason(),
            Reason::Malformed
        );
        return;
    };
    let ranges: Vec<(&str, u16)> = parsed
        .iter()
        .map(|wr| (wr.range.as_str(), wr.quality.get()))
        .collect();
    let chosen = server.negotiate(&parsed);

    let scores: Vec<Option<Score>> = supported.iter().map(|t| model(&ranges, t)).collect();
    let best = scores
        .iter()
        .flatten()
        .filter(|s| s.quality > 0)
        .map(|s| (s.quality, std::cmp::Reverse(s.position)))
        .max();
    match best {
        None => {
            assert_eq!(
                chosen.tag(),
                server.default_tag(),
                "{ranges:?} {supported:?}"
            );
            assert!(
                matches!(chosen.reason(), Reason::Default | Reason::Absent),
                "{ranges:?} {supported:?}: {chosen:?}"
            );
        }
        Some((quality, std::cmp::Reverse(position))) => {
            let index = chosen.index().unwrap_or_else(|| {
                panic!(
                    "{ranges:?} {supported:?}: the default {chosen:?}, model {quality}@{position}"
                )
            });
            let score = scores.get(index).copied().flatten();
            assert_eq!(
                score,
                Some(Score { quality, position }),
                "{ranges:?} {supported:?}: chose {chosen:?}, model scores {scores:?}"
            );
            assert_eq!(chosen.quality().get(), quality);
        }
    }
});
