//! Property tests: the negotiation invariants, and a differential check of
//! the `Negotiator` against a slow, obviously-correct model of decision D4.

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::{Negotiator, Reason, basic};
use proptest::prelude::*;

/// Language tags drawn from a small pool, so that ranges and tags collide.
fn tag() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["en", "fr", "de", "zh", "sr", "eng"]),
        prop::option::of(prop::sample::select(vec!["Latn", "Hant"])),
        prop::option::of(prop::sample::select(vec!["US", "CA", "FR", "TW", "RS"])),
        prop::option::of(prop::sample::select(vec!["x-priv", "a-ext-x-p"])),
    )
        .prop_map(|(l, s, r, p)| {
            let mut t = l.to_string();
            for part in [s, r, p].into_iter().flatten() {
                t.push('-');
                t.push_str(part);
            }
            t
        })
}

fn supported() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(tag(), 0..8).prop_map(|tags| {
        let mut out: Vec<String> = Vec::new();
        for t in tags {
            if !out.iter().any(|o| o.eq_ignore_ascii_case(&t)) {
                out.push(t);
            }
        }
        out
    })
}

/// A range: a tag, a prefix-heavy variant of one, or `*`.
fn range() -> impl Strategy<Value = String> {
    prop_oneof![4 => tag(), 1 => Just("*".to_string())]
}

fn quality() -> impl Strategy<Value = u16> {
    prop_oneof![2 => Just(1000u16), 1 => Just(0u16), 3 => 1u16..1000]
}

fn header() -> impl Strategy<Value = Vec<(String, u16)>> {
    prop::collection::vec((range(), quality()), 0..8)
}

/// Long values: up to 400 ranges, so that most have more ranges of
/// supported groups than the negotiator buffers and are rated range by
/// range. The model reads every range, however many.
fn long_header() -> impl Strategy<Value = Vec<(String, u16)>> {
    prop_oneof![
        1 => prop::collection::vec((range(), quality()), 0..40),
        3 => prop::collection::vec((range(), quality()), 40..400),
    ]
}

/// Supported lists of every size the negotiator rates in one pass (up to
/// 32, 128 and 512 tags) and longer ones it rates in slices of 512: the
/// pool's tags and private-use tags under the pool's primary subtags
/// (`en-x-s17`, which `en` rates more-specifically, all tying), the pool's
/// first or last (then beyond the first slice).
fn many_supported() -> impl Strategy<Value = Vec<String>> {
    let extra =
        prop_oneof![1 => 0usize..40, 1 => 100usize..140, 2 => 480usize..560, 2 => 1000usize..1100];
    (supported(), extra, 0usize..6, any::<bool>()).prop_map(|(pool, extra, shift, pool_first)| {
        let primaries = ["en", "fr", "de", "zh", "sr", "eng"];
        let extras =
            (0..extra).map(|i| format!("{}-x-s{i}", primaries[(i + shift) % primaries.len()]));
        if pool_first {
            pool.into_iter().chain(extras).collect()
        } else {
            extras.chain(pool).collect()
        }
    })
}

fn render(ranges: &[(String, u16)]) -> String {
    ranges
        .iter()
        .map(|(r, q)| {
            if *q == 1000 {
                r.clone()
            } else {
                format!("{r};q={}", f64::from(*q) / 1000.0)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn flip_case(s: &str, mask: &[bool]) -> String {
    s.chars()
        .zip(mask.iter().cycle())
        .map(|(c, &up)| {
            if up {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// The RFC 4647 §3.4 truncation prefixes of a range, longest first, without
/// the range itself.
fn truncations(range: &str) -> Vec<String> {
    let mut subtags: Vec<&str> = range.split('-').collect();
    let mut out = Vec::new();
    while subtags.len() > 1 {
        subtags.pop();
        while subtags.len() > 1 && subtags.last().is_some_and(|s| s.len() == 1) {
            subtags.pop();
        }
        out.push(subtags.join("-"));
    }
    out
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

fn filters(range: &str, tag: &str) -> bool {
    tag == range || tag.starts_with(&format!("{range}-"))
}

/// Decision D4, written as plainly as possible: (tag, q, reason).
fn model(
    ranges: &[(String, u16)],
    supported: &[String],
    default: &str,
) -> (String, u16, &'static str) {
    let default_index = supported
        .iter()
        .position(|s| s.eq_ignore_ascii_case(default));
    let default_spelling = default_index.map_or(default.to_string(), |i| supported[i].clone());
    if ranges.is_empty() {
        return (default_spelling, 1000, "absent");
    }
    let ranges: Vec<(usize, String, u16)> = ranges
        .iter()
        .enumerate()
        .map(|(p, (r, q))| (p, r.to_ascii_lowercase(), *q))
        .collect();
    // (q, position, closeness, reason, index)
    let mut candidates: Vec<(u16, usize, usize, &'static str, usize)> = Vec::new();
    for (index, tag) in supported.iter().enumerate() {
        let t = tag.to_ascii_lowercase();
        let explicit = ranges
            .iter()
            .filter(|(_, r, _)| r != "*" && filters(r, &t))
            .max_by_key(|(p, r, q)| (r.len(), *q == 0, *q, std::cmp::Reverse(*p)));
        let score = if let Some((p, r, q)) = explicit {
            let exact = r.len() == t.len();
            Some((
                *q,
                *p,
                if exact { usize::MAX } else { usize::MAX - 1 },
                if exact { "exact" } else { "more-specific" },
            ))
        } else if let Some((q, p, k)) = ranges
            .iter()
            .filter(|(_, r, q)| r != "*" && *q > 0)
            .filter_map(|(p, r, q)| {
                let prefix = truncations(r).into_iter().find(|pre| filters(pre, &t))?;
                let k = prefix.split('-').count();
                // Never across an explicit script subtag (D4), unless the
                // tag is the prefix itself.
                if prefix != t && (script_beyond(r, k) || script_beyond(&t, k)) {
                    return None;
                }
                // Longer prefix first; at equal length, the tag equal to it.
                Some((*q, *p, 2 * k + usize::from(prefix == t)))
            })
            .max_by_key(|(q, p, _)| (*q, std::cmp::Reverse(*p)))
        {
            Some((q, p, k, "truncated"))
        } else {
            ranges
                .iter()
                .filter(|(_, r, _)| r == "*")
                .max_by_key(|(p, _, q)| (*q == 0, *q, std::cmp::Reverse(*p)))
                .map(|(p, _, q)| (*q, *p, 0, "wildcard"))
        };
        if let Some((q, p, c, reason)) = score.filter(|s| s.0 > 0) {
            candidates.push((q, p, c, reason, index));
        }
    }
    candidates.sort_by_key(|&(q, p, c, _, i)| {
        (
            std::cmp::Reverse(q),
            p,
            std::cmp::Reverse(c),
            Some(i) != default_index,
            i,
        )
    });
    match candidates.first() {
        Some(&(q, _, _, reason, i)) => (supported[i].clone(), q, reason),
        None => (default_spelling, 0, "default"),
    }
}

/// Decision D3 written plainly: a tag's quality, or `None` when unmatched.
fn model_quality(ranges: &[(String, u16)], tag: &str) -> Option<u16> {
    let t = tag.to_ascii_lowercase();
    let pick = |it: Vec<(usize, usize, u16)>| {
        it.into_iter()
            .max_by_key(|&(p, len, q)| (len, q == 0, q, std::cmp::Reverse(p)))
            .map(|(_, _, q)| q)
    };
    let explicit: Vec<(usize, usize, u16)> = ranges
        .iter()
        .enumerate()
        .filter(|(_, (r, _))| r != "*" && filters(&r.to_ascii_lowercase(), &t))
        .map(|(p, (r, q))| (p, r.len(), *q))
        .collect();
    let wildcard: Vec<(usize, usize, u16)> = ranges
        .iter()
        .enumerate()
        .filter(|(_, (r, _))| r == "*")
        .map(|(p, (_, q))| (p, 0, *q))
        .collect();
    pick(explicit).or_else(|| pick(wildcard))
}

/// RFC 4647 §3.4 lookup written plainly, with this crate's q=0 rules.
fn model_lookup<'a>(
    ranges: &[(String, u16)],
    tags: &'a [String],
    default: Option<&'a str>,
) -> Option<&'a str> {
    let mut priority: Vec<(usize, &String, u16)> = ranges
        .iter()
        .enumerate()
        .filter(|(_, (r, q))| r != "*" && *q > 0)
        .map(|(p, (r, q))| (p, r, *q))
        .collect();
    priority.sort_by_key(|&(p, _, q)| (std::cmp::Reverse(q), p));
    let explicit_only: Vec<(String, u16)> =
        ranges.iter().filter(|(r, _)| r != "*").cloned().collect();
    for (_, range, _) in priority {
        let range = range.to_ascii_lowercase();
        for candidate in std::iter::once(range.clone()).chain(truncations(&range)) {
            if let Some(tag) = tags.iter().find(|t| {
                t.to_ascii_lowercase() == candidate && model_quality(&explicit_only, t) != Some(0)
            }) {
                return Some(tag);
            }
        }
    }
    default
}

fn outcome(n: &Negotiator<&str>, header: &str) -> (String, u16, Reason) {
    let c = n.negotiate_header(Some(header));
    (c.tag().to_string(), c.quality().get(), c.reason())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn negotiator_agrees_with_model(ranges in header(), supported in supported(), default in tag()) {
        let n = Negotiator::new(supported.iter().map(String::as_str), default.as_str()).unwrap();
        let value = render(&ranges);
        let chosen = n.negotiate_header(Some(&value));
        let (tag, q, reason) = model(&ranges, &supported, &default);
        prop_assert_eq!((chosen.tag(), chosen.quality().get(), chosen.reason().as_str()), (tag.as_str(), q, reason), "header {:?}", value);
    }

    /// Field lines split anywhere between ranges, with OWS around them,
    /// negotiate as their combined value does (RFC 9110 §5.3, §5.5).
    #[test]
    fn field_lines_negotiate_as_their_combined_value(ranges in header(), supported in supported(), default in tag(), cut in 0usize..8, pad in 0usize..3) {
        let n = Negotiator::new(supported.iter().map(String::as_str), default.as_str()).unwrap();
        let cut = cut.min(ranges.len());
        let (first, second) = ranges.split_at(cut);
        let ows = [" ", "\t", ""][pad];
        let lines = [format!("{ows}{}{ows}", render(first)), render(second)];
        let combined = format!("{}, {}", render(first), render(second));
        let chosen = n.negotiate_field_lines(lines.iter().map(|l| l.as_bytes()));
        let expected = n.negotiate_header(Some(&combined));
        prop_assert_eq!((chosen.tag(), chosen.reason()), (expected.tag(), expected.reason()), "lines {:?}", lines);
    }

    #[test]
    fn selection_is_supported_or_default_and_never_excluded(ranges in header(), supported in supported(), default in tag()) {
        let n = Negotiator::new(supported.iter().map(String::as_str), default.as_str()).unwrap();
        let value = render(&ranges);
        let chosen = n.negotiate_header(Some(&value));
        prop_assert!(supported.iter().any(|s| s == chosen.tag()) || chosen.tag() == n.default_tag());
        if !matches!(chosen.reason(), Reason::Default | Reason::Absent | Reason::Malformed) {
            prop_assert!(!chosen.quality().is_zero());
            // No non-wildcard range rates it 0 (decision D3). `*;q=0` may:
            // D4 puts lookup truncation before `*`, so `de-CH, *;q=0`
            // accepts a supported `de`.
            let explicit: Vec<(String, u16)> = ranges.iter().filter(|(r, _)| r != "*").cloned().collect();
            let explicit_value = render(&explicit);
            let header = AcceptLanguage::parse(&explicit_value).unwrap();
            prop_assert_ne!(basic::quality(&header, chosen.tag()), Some(mcp_lang_grammar::Quality::ZERO));
            prop_assert_eq!(chosen.index().map(|i| supported[i].as_str()), Some(chosen.tag()));
        }
    }

    #[test]
    fn letter_case_of_header_never_matters(ranges in header(), supported in supported(), default in tag(), mask in prop::collection::vec(any::<bool>(), 1..16)) {
        let n = Negotiator::new(supported.iter().map(String::as_str), default.as_str()).unwrap();
        let value = render(&ranges);
        prop_assert_eq!(outcome(&n, &value), outcome(&n, &flip_case(&value, &mask)));
    }

    #[test]
    fn excluding_an_unsupported_language_changes_nothing(ranges in header(), supported in supported(), default in tag(), at in any::<prop::sample::Index>()) {
        let n = Negotiator::new(supported.iter().map(String::as_str), default.as_str()).unwrap();
        let before = outcome(&n, &render(&ranges));
        let mut more = ranges.clone();
        more.insert(at.index(ranges.len() + 1), ("xx".to_string(), 0));
        let after = outcome(&n, &render(&more));
        if ranges.is_empty() {
            // No preference becomes "nothing acceptable": the same tag.
            prop_assert_eq!(before.0, after.0);
        } else {
            prop_assert_eq!(before, after);
        }
    }

    #[test]
    fn filtering_returns_a_subset_in_quality_order(ranges in header(), tags in supported()) {
        let value = render(&ranges);
        let header = AcceptLanguage::parse(&value).unwrap();
        let out = basic::filter(&header, &tags);
        for f in &out {
            prop_assert_eq!(tags[f.index()].as_str(), f.tag());
            prop_assert!(!f.quality().is_zero());
            prop_assert_eq!(basic::quality(&header, f.tag()), Some(f.quality()));
        }
        prop_assert!(out.windows(2).all(|w| w[0].quality() >= w[1].quality()));
        let accepted = tags.iter().filter(|t| basic::quality(&header, t).is_some_and(|q| !q.is_zero())).count();
        prop_assert_eq!(out.len(), accepted);
    }

    #[test]
    fn filtering_and_lookup_agree_with_models(ranges in header(), tags in supported(), default in prop::option::of(tag())) {
        let value = render(&ranges);
        let header = AcceptLanguage::parse(&value).unwrap();
        for t in &tags {
            prop_assert_eq!(basic::quality(&header, t).map(|q| q.get()), model_quality(&ranges, t), "{} / {}", value, t);
        }
        let mut expected: Vec<(u16, usize, usize)> = Vec::new();
        for (i, t) in tags.iter().enumerate() {
            if let Some(q) = model_quality(&ranges, t).filter(|&q| q > 0) {
                // Position of the deciding range: recompute it plainly.
                let t = t.to_ascii_lowercase();
                let deciding = ranges
                    .iter()
                    .enumerate()
                    .filter(|(_, (r, _))| r != "*" && filters(&r.to_ascii_lowercase(), &t))
                    .max_by_key(|(p, (r, q))| (r.len(), *q == 0, *q, std::cmp::Reverse(*p)))
                    .or_else(|| {
                        ranges
                            .iter()
                            .enumerate()
                            .filter(|(_, (r, _))| r == "*")
                            .max_by_key(|(p, (_, q))| (*q == 0, *q, std::cmp::Reverse(*p)))
                    })
                    .map(|(p, _)| p)
                    .unwrap();
                expected.push((q, deciding, i));
            }
        }
        expected.sort_by_key(|&(q, p, i)| (std::cmp::Reverse(q), p, i));
        let got: Vec<usize> = basic::filter(&header, &tags).iter().map(|f| f.index()).collect();
        prop_assert_eq!(got, expected.iter().map(|e| e.2).collect::<Vec<_>>(), "{}", value);
        let default = default.as_deref();
        prop_assert_eq!(mcp_lang_match::lookup::lookup(&header, &tags, default), model_lookup(&ranges, &tags, default), "{}", value);
    }

    #[test]
    fn arbitrary_input_never_panics(value in ".{0,64}", supported in supported(), default in tag()) {
        let n = Negotiator::new(supported.iter().map(String::as_str), default.as_str()).unwrap();
        let chosen = n.negotiate_header(Some(&value));
        prop_assert_eq!(n.negotiate_header_bytes(Some(value.as_bytes())), chosen);
        if let Ok(h) = AcceptLanguage::parse(&value) {
            let _ = basic::filter(&h, &supported);
            let _ = mcp_lang_match::lookup::lookup(&h, &supported, Some("en"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The model against values of any length and supported lists of any
    /// size: no range is ever left unread.
    #[test]
    fn negotiator_agrees_with_model_on_long_values(ranges in long_header(), supported in many_supported(), default in tag()) {
        let n = Negotiator::new(supported.iter().map(String::as_str), default.as_str()).unwrap();
        let value = render(&ranges);
        let chosen = n.negotiate_header(Some(&value));
        let (tag, q, reason) = model(&ranges, &supported, &default);
        prop_assert_eq!((chosen.tag(), chosen.quality().get(), chosen.reason().as_str()), (tag.as_str(), q, reason), "header {:?}", value);
    }

    /// The raw value, negotiated while it is validated (one pass), and the
    /// parsed value give the same answer; a malformed value is the default.
    #[test]
    fn one_pass_and_parsed_values_agree(ranges in long_header(), supported in many_supported(), default in tag(), junk in prop::option::of("[a-z;=.,]{1,3}")) {
        let n = Negotiator::new(supported.iter().map(String::as_str), default.as_str()).unwrap();
        let mut value = render(&ranges);
        if let Some(junk) = &junk {
            value.push_str(junk);
        }
        let one_pass = n.negotiate_header(Some(&value));
        prop_assert_eq!(n.negotiate_header_bytes(Some(value.as_bytes())), one_pass);
        match AcceptLanguage::parse(&value) {
            Ok(parsed) => prop_assert_eq!(n.negotiate(&parsed), one_pass),
            Err(_) => prop_assert_eq!((one_pass.tag(), one_pass.reason()), (n.default_tag(), Reason::Malformed)),
        }
    }

    /// Appending ranges that only repeat an unsupported exclusion, however
    /// many, never changes the answer; appending one that decides does.
    #[test]
    fn a_decisive_range_counts_after_any_number_of_others(ranges in long_header(), supported in supported(), padding in 0usize..300) {
        prop_assume!(!supported.is_empty());
        let n = Negotiator::new(supported.iter().map(String::as_str), "en").unwrap();
        let mut long = ranges.clone();
        long.extend(std::iter::repeat_n(("xx".to_string(), 0u16), padding));
        let before = outcome(&n, &render(&ranges));
        let after = outcome(&n, &render(&long));
        if ranges.is_empty() {
            prop_assert_eq!(before.0, after.0);
        } else {
            prop_assert_eq!(before, after);
        }
        // Exclude every supported tag but the last, then prefer the last:
        // it wins at q=1, wherever it comes.
        for t in &supported[..supported.len() - 1] {
            long.push((t.clone(), 0));
        }
        let last = supported[supported.len() - 1].clone();
        long.push((last.clone(), 1000));
        let (tag, q, _) = outcome(&n, &render(&long));
        let (model_tag, model_q, _) = model(&long, &supported, "en");
        prop_assert_eq!((tag.as_str(), q), (model_tag.as_str(), model_q));
    }
}
