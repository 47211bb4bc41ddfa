//! Property tests: generated well-formed values parse to what was generated,
//! serialize → parse is the identity, arbitrary input never panics, and every
//! string outside the qvalue grammar is rejected.

use mcp_lang_grammar::{
    AcceptLanguage, ContentLanguage, ExtendedRange, LanguageRange, LanguageTag, Quality,
    WeightedRange, serialize,
};
use proptest::prelude::*;

/// Randomizes the letter case of a string (all grammars here are case-insensitive).
fn recase(s: String, mask: u64) -> String {
    s.chars()
        .enumerate()
        .map(|(i, c)| {
            if mask >> (i % 64) & 1 == 1 {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

fn basic_range() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just("*".to_owned()),
        // The shapes browsers send most, which the scanner checks at once.
        4 => "[a-zA-Z]{2}(-[a-zA-Z]{2})?",
        8 => ("[a-zA-Z]{1,8}", prop::collection::vec("[a-zA-Z0-9]{1,8}", 0..4))
            .prop_map(|(first, rest)| std::iter::once(first).chain(rest).collect::<Vec<_>>().join("-")),
    ]
}

/// A qvalue spelling and its value in thousandths.
fn qvalue() -> impl Strategy<Value = (String, u16)> {
    prop_oneof![
        (0u16..=999, 0usize..=3, any::<bool>()).prop_map(|(v, digits, dot)| {
            // The value rounded to `digits` decimals, spelled with exactly that many.
            let kept = match digits {
                0 => 0,
                1 => v / 100 * 100,
                2 => v / 10 * 10,
                _ => v,
            };
            let text = match digits {
                0 if dot => "0.".to_owned(),
                0 => "0".to_owned(),
                1 => format!("0.{}", kept / 100),
                2 => format!("0.{:02}", kept / 10),
                _ => format!("0.{kept:03}"),
            };
            (text, kept)
        }),
        (0usize..=3, any::<bool>()).prop_map(|(zeros, dot)| {
            let text = if zeros == 0 && !dot {
                "1".to_owned()
            } else {
                format!("1.{}", "0".repeat(zeros))
            };
            (text, 1000)
        }),
    ]
}

fn ows() -> impl Strategy<Value = String> {
    "[ \t]{0,2}"
}

/// A well-formed Accept-Language value with its expected `(range, q)` list.
fn accept_language() -> impl Strategy<Value = (String, Vec<(String, u16)>)> {
    accept_language_of(0..8)
}

/// [`accept_language`] with `elements` list elements.
fn accept_language_of(
    elements: std::ops::Range<usize>,
) -> impl Strategy<Value = (String, Vec<(String, u16)>)> {
    let element = (
        basic_range(),
        prop::option::of((ows(), ows(), "[qQ]", qvalue())),
        any::<u64>(),
    );
    (
        prop::collection::vec((prop::option::of(element), ows(), ows()), elements),
        any::<bool>(),
    )
        .prop_map(|(elements, leading_comma)| {
            let mut text = String::new();
            let mut expected = Vec::new();
            if leading_comma {
                text.push(',');
            }
            for (i, (element, before, after)) in elements.into_iter().enumerate() {
                // OWS "," OWS between elements (either may be empty).
                if i > 0 {
                    text.push_str(&before);
                    text.push(',');
                    text.push_str(&after);
                } else if leading_comma {
                    text.push_str(&after);
                }
                if let Some((range, weight, mask)) = element {
                    let range = recase(range, mask);
                    text.push_str(&range);
                    let q = match weight {
                        Some((ows1, ows2, q, (spelling, value))) => {
                            text.push_str(&format!("{ows1};{ows2}{q}={spelling}"));
                            value
                        }
                        None => 1000,
                    };
                    expected.push((range, q));
                }
            }
            (text, expected)
        })
}

/// A well-formed `langtag` built from the RFC 5646 ABNF.
fn langtag() -> impl Strategy<Value = String> {
    let language = prop_oneof![
        ("[a-z]{2,3}", prop::collection::vec("[a-z]{3}", 0..=3))
            .prop_map(|(l, ext)| { std::iter::once(l).chain(ext).collect::<Vec<_>>().join("-") }),
        "[a-z]{4,8}",
    ];
    let script = prop::option::of("[a-z]{4}");
    let region = prop::option::of(prop_oneof!["[a-z]{2}", "[0-9]{3}"]);
    let variants = prop::collection::vec(prop_oneof!["[a-z0-9]{5,8}", "[0-9][a-z0-9]{3}"], 0..3);
    let extensions = prop::collection::vec(
        ("[a-wyz0-9]", prop::collection::vec("[a-z0-9]{2,8}", 1..3)),
        0..3,
    );
    let private = prop::option::of(prop::collection::vec("[a-z0-9]{1,8}", 1..3));
    (
        language,
        script,
        region,
        variants,
        extensions,
        private,
        any::<u64>(),
    )
        .prop_map(
            |(language, script, region, variants, extensions, private, mask)| {
                let mut parts = vec![language];
                parts.extend(script);
                parts.extend(region);
                parts.extend(variants);
                for (singleton, subtags) in extensions {
                    parts.push(singleton);
                    parts.extend(subtags);
                }
                if let Some(private) = private {
                    parts.push("x".to_owned());
                    parts.extend(private);
                }
                recase(parts.join("-"), mask)
            },
        )
}

fn language_tag() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => langtag(),
        1 => prop::collection::vec("[a-zA-Z0-9]{1,8}", 1..4).prop_map(|p| format!("x-{}", p.join("-"))),
        1 => prop::sample::select(vec!["i-klingon", "EN-gb-OED", "sgn-CH-DE", "zh-min-nan", "art-lojban", "i-default"])
            .prop_map(str::to_owned),
    ]
}

/// The qvalue grammar, written independently of the parser.
fn reference_qvalue(s: &str) -> Option<u16> {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    let frac = frac.unwrap_or("");
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match int {
        "0" => Some(format!("{frac:0<3}").parse().unwrap()),
        "1" if frac.bytes().all(|b| b == b'0') => Some(1000),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn generated_accept_language_parses_to_its_list((text, expected) in accept_language()) {
        let parsed = AcceptLanguage::parse(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        let got: Vec<(String, u16)> = parsed.iter().map(|w| (w.range.as_str().to_owned(), w.quality.get())).collect();
        prop_assert_eq!(parsed.len(), expected.len());
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn long_generated_values_parse_to_their_list((text, expected) in accept_language_of(8..200)) {
        let parsed = AcceptLanguage::parse(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        let got: Vec<(String, u16)> = parsed.iter().map(|w| (w.range.as_str().to_owned(), w.quality.get())).collect();
        prop_assert_eq!(&got, &expected);
        // Through `next` as well as through `fold` (which `collect` uses).
        let mut one_by_one = Vec::new();
        for w in parsed.iter() {
            one_by_one.push((w.range.as_str().to_owned(), w.quality.get()));
        }
        prop_assert_eq!(&one_by_one, &expected);
        // And in one pass.
        let mut validating = AcceptLanguage::validating(&text);
        let one_pass: Vec<(String, u16)> = validating.by_ref().map(|w| (w.range.as_str().to_owned(), w.quality.get())).collect();
        prop_assert_eq!(&one_pass, &expected);
        prop_assert_eq!(validating.finish().map(|v| v.len()), Ok(expected.len()));
    }

    #[test]
    fn one_pass_agrees_with_parse_then_iterate((text, expected) in accept_language()) {
        for mut validating in [AcceptLanguage::validating(&text), AcceptLanguage::validating_bytes(text.as_bytes())] {
            let got: Vec<(String, u16)> = validating.by_ref().map(|w| (w.range.as_str().to_owned(), w.quality.get())).collect();
            prop_assert_eq!(&got, &expected);
            let value = validating.finish().map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
            prop_assert_eq!(value.len(), expected.len());
            let again: Vec<(String, u16)> = value.iter().map(|w| (w.range.as_str().to_owned(), w.quality.get())).collect();
            prop_assert_eq!(&again, &expected);
        }
    }

    #[test]
    fn one_pass_finds_the_errors_parse_finds(s in "[a-zA-Z0-9 \t,;=.*qQxXi-]{0,40}", cut in 0usize..3) {
        let parsed = AcceptLanguage::parse(&s);
        let mut validating = AcceptLanguage::validating(&s);
        // Read some of the ranges, or none, before finishing.
        let read: Vec<(String, u16)> = validating.by_ref().take(cut).map(|w| (w.range.as_str().to_owned(), w.quality.get())).collect();
        let finished = validating.finish();
        match (&parsed, &finished) {
            (Ok(p), Ok(f)) => {
                prop_assert_eq!(p.len(), f.len());
                let expected: Vec<(String, u16)> = p.iter().take(cut).map(|w| (w.range.as_str().to_owned(), w.quality.get())).collect();
                prop_assert_eq!(read, expected);
            }
            (Err(p), Err(f)) => prop_assert_eq!(p, f),
            _ => prop_assert!(false, "{:?}: parse {:?}, one pass {:?}", s, parsed.map(|v| v.len()), finished.map(|v| v.len())),
        }
    }

    #[test]
    fn serialize_then_parse_is_the_identity((text, _) in accept_language()) {
        let parsed = AcceptLanguage::parse(&text).unwrap();
        let written = serialize::serialize(parsed.iter()).to_string();
        let again = AcceptLanguage::parse(&written).map_err(|e| TestCaseError::fail(format!("{written:?}: {e}")))?;
        prop_assert_eq!(again.len(), parsed.len());
        for (a, b) in again.iter().zip(parsed.iter()) {
            prop_assert_eq!(a.range.as_str(), b.range.as_str());
            prop_assert_eq!(a.quality, b.quality);
        }
        // Canonical: serializing again changes nothing.
        prop_assert_eq!(serialize::serialize(again.iter()).to_string(), written);
    }

    #[test]
    fn serialize_of_constructed_pairs_round_trips(
        pairs in prop::collection::vec((basic_range(), 0u16..=1000), 0..10)
    ) {
        let weighted: Vec<WeightedRange<'_>> = pairs
            .iter()
            .map(|(r, q)| WeightedRange { range: LanguageRange::parse(r).unwrap(), quality: Quality::new(*q).unwrap() })
            .collect();
        let written = serialize::serialize(weighted.iter().copied()).to_string();
        let again = AcceptLanguage::parse(&written).unwrap();
        let got: Vec<(&str, u16)> = again.iter().map(|w| (w.range.as_str(), w.quality.get())).collect();
        let want: Vec<(&str, u16)> = pairs.iter().map(|(r, q)| (r.as_str(), *q)).collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn generated_tags_parse(tag in language_tag()) {
        prop_assert!(LanguageTag::parse(&tag).is_ok(), "{:?}: {:?}", tag, LanguageTag::parse(&tag));
        // Every well-formed tag is also a basic language range (RFC 4647 §2.1).
        prop_assert!(LanguageRange::parse(&tag).is_ok(), "{:?}", tag);
    }

    #[test]
    fn generated_content_language_parses(tags in prop::collection::vec(language_tag(), 1..5), sep in "[ \t]{0,2},[ \t]{0,2}") {
        let text = tags.join(&sep);
        let parsed = ContentLanguage::parse(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        let got: Vec<&str> = parsed.iter().map(|t| t.as_str()).collect();
        prop_assert_eq!(got, tags.iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn generated_extended_ranges_parse(
        first in prop_oneof!["[a-zA-Z]{1,8}", Just("*".to_owned())],
        rest in prop::collection::vec(prop_oneof!["[a-zA-Z0-9]{1,8}", Just("*".to_owned())], 0..5),
    ) {
        let text = std::iter::once(first).chain(rest).collect::<Vec<_>>().join("-");
        prop_assert!(ExtendedRange::parse(&text).is_ok(), "{}", text);
    }

    #[test]
    fn near_miss_qvalues_are_rejected(s in "[0-9.eE+-]{0,7}|[01]\\.[0-9]{0,5}|[ 01.]{1,4}") {
        let header = format!("en;q={s}");
        let expected = reference_qvalue(&s);
        let got = AcceptLanguage::parse(&header).ok().and_then(|v| v.iter().next()).map(|w| w.quality.get());
        prop_assert_eq!(got, expected, "{:?}", header);
        prop_assert_eq!(Quality::parse(&s).ok().map(Quality::get), expected);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = AcceptLanguage::parse_bytes(&bytes).map(|v| v.iter().count());
        let _ = ContentLanguage::parse_bytes(&bytes).map(|v| v.iter().count());
        if let Ok(s) = std::str::from_utf8(&bytes) {
            for result in [
                LanguageTag::parse(s).map(|t| t.language().map_or(0, str::len)),
                ExtendedRange::parse(s).map(|r| r.subtags().count()),
                LanguageRange::parse(s).map(|r| r.subtags().count()),
                Quality::parse(s).map(|q| usize::from(q.get())),
            ] {
                if let Err(e) = result {
                    prop_assert!(e.offset() <= s.len());
                }
            }
        }
    }

    #[test]
    fn grammar_shaped_strings_never_panic_and_offsets_are_viable(s in "[a-zA-Z0-9 \t,;=.*qQxXi-]{0,40}") {
        for result in [
            AcceptLanguage::parse(&s).map(|v| v.iter().count()),
            ContentLanguage::parse(&s).map(|v| v.iter().count()),
            LanguageTag::parse(&s).map(|_| 1),
            ExtendedRange::parse(&s).map(|_| 1),
        ] {
            if let Err(e) = result {
                prop_assert!(e.offset() <= s.len());
            }
        }
        // The iterator agrees with len().
        if let Ok(v) = AcceptLanguage::parse(&s) {
            prop_assert_eq!(v.iter().count(), v.len());
            prop_assert!(v.iter().all(|w| LanguageRange::parse(w.range.as_str()).is_ok()));
        }
        if let Ok(v) = ContentLanguage::parse(&s) {
            prop_assert_eq!(v.iter().count(), v.len());
            prop_assert!(v.iter().all(|t| LanguageTag::parse(t.as_str()).is_ok()));
        }
    }

    #[test]
    fn proper_prefixes_of_valid_values_fail_only_at_their_end((text, _) in accept_language(), tag in language_tag()) {
        for cut in 0..text.len() {
            if let Err(e) = AcceptLanguage::parse(&text[..cut]) {
                prop_assert_eq!(e.offset(), cut, "{:?}", &text[..cut]);
            }
        }
        for cut in 0..tag.len() {
            if let Err(e) = LanguageTag::parse(&tag[..cut]) {
                prop_assert_eq!(e.offset(), cut, "{:?}", &tag[..cut]);
            }
        }
    }
}
