//! The `Negotiator`'s own decisions: building, long values, hostile input.

use mcp_lang_grammar::Quality;
use mcp_lang_match::{BuildError, Negotiator, Reason};

#[test]
fn building_validates_and_rejects_case_duplicates() {
    assert!(Negotiator::new(["en", "fr-CA", "i-klingon", "x-private"], "en").is_ok());
    match Negotiator::new(["en", "fr", "FR"], "en") {
        Err(BuildError::DuplicateTag { first, second, tag }) => {
            assert_eq!((first, second, tag.as_str()), (1, 2, "FR"));
        }
        other => panic!("{other:?}"),
    }
    match Negotiator::new(["en", "en-"], "en") {
        Err(BuildError::InvalidTag { index, error, .. }) => {
            assert_eq!((index, error.offset()), (1, 3))
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        Negotiator::new(["en"], ""),
        Err(BuildError::InvalidDefault { .. })
    ));
    let e = Negotiator::new(["en", "en_US"], "en").unwrap_err();
    assert!(e.to_string().contains("supported tag 1 (\"en_US\")"), "{e}");
}

#[test]
fn default_outside_the_supported_set_is_only_a_fallback() {
    let n = Negotiator::new(["fr", "de"], "en").unwrap();
    let chosen = n.negotiate_header(Some("*"));
    assert_eq!((chosen.tag(), chosen.reason()), ("fr", Reason::Wildcard));
    let chosen = n.negotiate_header(Some("en"));
    assert_eq!(
        (chosen.tag(), chosen.reason(), chosen.index()),
        ("en", Reason::Default, None)
    );
    assert_eq!(chosen.quality(), Quality::ZERO);
}

#[test]
fn every_range_counts_however_many() {
    let n = Negotiator::new(["en", "fr"], "en").unwrap();
    for count in [0usize, 7, 8, 31, 32, 33, 63, 64, 65, 127, 128, 129, 10_000] {
        // Unmatched ranges (never buffered), then `fr`.
        let mut header = vec!["ja"; count];
        header.push("fr");
        let chosen = n.negotiate_header(Some(&header.join(",")));
        assert_eq!(
            (chosen.tag(), chosen.reason()),
            ("fr", Reason::Exact),
            "{count}"
        );
        // Ranges of a supported group (buffered, then rated range by range
        // once the buffer is full), then the one that decides.
        let mut header: Vec<String> = (0..count).map(|i| format!("en-x-r{i};q=0.1")).collect();
        header.push("fr;q=0.2".into());
        let chosen = n.negotiate_header(Some(&header.join(",")));
        assert_eq!(
            (chosen.tag(), chosen.quality().get()),
            ("fr", 200),
            "{count}"
        );
    }
}

/// Short headers are scored from a buffer of ranges, long ones range by
/// range; around each buffer size, a late range still changes the answer.
#[test]
fn buffered_and_streamed_values_give_the_same_answers() {
    let n = Negotiator::new(["en", "de", "fr-CA", "fr"], "en").unwrap();
    for count in [
        0usize, 1, 6, 7, 8, 9, 14, 15, 16, 17, 30, 31, 32, 33, 100, 1000,
    ] {
        let mut ranges: Vec<String> = (0..count).map(|i| format!("de-AT-x-n{i};q=0.4")).collect();
        ranges.insert(0, "fr-BE;q=0.5".into());
        let chosen = n.negotiate_header(Some(&ranges.join(", ")));
        assert_eq!(
            (chosen.tag(), chosen.quality().get(), chosen.reason()),
            ("fr", 500, Reason::Truncated),
            "{count}"
        );
        // `fr;q=0` last excludes `fr` and `fr-CA`, which leaves `de`,
        // reached from `de-AT` at 0.4 (when there are any).
        ranges.push("fr;q=0".into());
        let expected = if count == 0 {
            ("en", 0, Reason::Default)
        } else {
            ("de", 400, Reason::Truncated)
        };
        let chosen = n.negotiate_header(Some(&ranges.join(", ")));
        let got = (chosen.tag(), chosen.quality().get(), chosen.reason());
        assert_eq!(got, expected, "{count}");
        // `fr-CA;q=0.3`, longer than `fr`, rates `fr-CA` again.
        ranges.push("fr-CA;q=0.3".into());
        let expected = if count == 0 {
            ("fr-CA", 300, Reason::Exact)
        } else {
            ("de", 400, Reason::Truncated)
        };
        let chosen = n.negotiate_header(Some(&ranges.join(", ")));
        let got = (chosen.tag(), chosen.quality().get(), chosen.reason());
        assert_eq!(got, expected, "{count}");
    }
}

/// A supported list longer than one slice of rated tags is rated slice by
/// slice, each reading the value again: the answer is the same wherever the
/// winner sits, and ties still go to the earlier tag and to the default.
#[test]
fn long_supported_lists_are_rated_whole() {
    let letters = b'a'..=b'z';
    let tags: Vec<String> = letters
        .clone()
        .flat_map(|a| {
            letters
                .clone()
                .map(move |b| format!("{}{}", a as char, b as char))
        })
        .flat_map(|p| [format!("{p}-CA"), p])
        .collect();
    let last = tags.len() - 1;
    assert_eq!(last, 1351);
    let server = Negotiator::new(tags.iter().map(String::as_str), "qqq").unwrap();
    // Enough ranges of supported groups to be rated range by range.
    let filler: Vec<String> = (0..40).map(|i| format!("aa-x-f{i};q=0.1")).collect();
    for winner in [0usize, 1, 511, 512, 513, 1023, 1024, 1025, last] {
        let mut header = filler.clone();
        header.push(format!("{};q=0.9", tags[winner]));
        header.push(format!("{};q=0.8", tags[last - winner]));
        let chosen = server.negotiate_header(Some(&header.join(",")));
        assert_eq!(
            (chosen.index(), chosen.quality().get(), chosen.reason()),
            (Some(winner), 900, Reason::Exact),
            "{winner}"
        );
    }
    // `*` alone: every tag ties, the earliest supported wins (the default
    // is not supported).
    let mut header = filler.clone();
    header.push("*;q=0.5".into());
    header.push("aa;q=0".into());
    header.push("aa-CA;q=0".into());
    let chosen = server.negotiate_header(Some(&header.join(",")));
    assert_eq!(
        (chosen.index(), chosen.reason()),
        (Some(2), Reason::Wildcard)
    );
    // With a supported default far down the list, `*` picks it.
    let server = Negotiator::new(tags.iter().map(String::as_str), tags[1300].as_str()).unwrap();
    let chosen = server.negotiate_header(Some(&header.join(",")));
    assert_eq!(
        (chosen.index(), chosen.reason()),
        (Some(1300), Reason::Wildcard)
    );
}

#[test]
fn hostile_header_is_bounded_and_falls_back() {
    let n = Negotiator::new(["en", "fr"], "en").unwrap();
    let mut hostile = String::new();
    while hostile.len() < 64 * 1024 {
        hostile.push_str("a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p;q=0.001,,,");
    }
    let chosen = n.negotiate_header(Some(&hostile));
    assert_eq!((chosen.tag(), chosen.reason()), ("en", Reason::Default));
    let deep = format!("en{}", "-abcdefgh".repeat(8000));
    let chosen = n.negotiate_header(Some(&deep));
    assert_eq!((chosen.tag(), chosen.reason()), ("en", Reason::Truncated));
    assert_eq!(
        n.negotiate_header_bytes(Some(b"\xff\xfe")).reason(),
        Reason::Malformed
    );
}

/// Many primary subtags (so many collisions in the negotiator's table from
/// primary subtag to group): every one is found, in any case, and primary
/// subtags that no tag has are not.
#[test]
fn every_primary_subtag_of_a_long_list_is_found() {
    let letters = b'a'..=b'z';
    let primaries: Vec<String> = letters
        .clone()
        .flat_map(|a| {
            letters
                .clone()
                .map(move |b| String::from_utf8(vec![a, b]).unwrap())
        })
        .collect();
    let tags: Vec<String> = primaries
        .iter()
        .flat_map(|p| [format!("{p}-CA"), p.clone()])
        .collect();
    let server = Negotiator::new(tags.iter().map(String::as_str), "en").unwrap();
    for (i, p) in primaries.iter().enumerate() {
        let n = server.negotiate_header(Some(&format!("{}-BE", p.to_uppercase())));
        assert_eq!(
            (n.tag(), n.index(), n.reason()),
            (p.as_str(), Some(2 * i + 1), Reason::Truncated)
        );
        let n = server.negotiate_header(Some(&format!("xyz, {p}-ca;q=0.5, {p};q=0.4")));
        assert_eq!((n.tag(), n.reason()), (tags[2 * i].as_str(), Reason::Exact));
        let n = server.negotiate_header(Some(&format!("{p}x, {p}y-{p}")));
        assert_eq!(n.reason(), Reason::Default, "{p}");
    }
}

/// Every kind of tag a negotiator can be built from gives the same answers, in
/// the caller's spelling, and borrowed tags are answered with the caller's own
/// `&str` (the same bytes, not a copy).
#[test]
fn every_tag_type_answers_alike_and_borrowed_tags_are_the_callers_own() {
    use std::borrow::Cow;
    use std::rc::Rc;
    use std::sync::Arc;

    const TAGS: [&str; 4] = ["en", "fr-CA", "de", "zh-Hant"];
    let default = "en-GB"; // not supported: only the fallback
    let values = [
        None,
        Some("FR-ca"),
        Some("de-AT;q=0.5, zh"),
        Some("zh-hant-TW"),
        Some("ja"),
        Some("fr;q=2"),
        Some(""),
    ];
    let borrowed = Negotiator::new(TAGS, default).unwrap();
    let strings = Negotiator::new(TAGS.map(String::from), default).unwrap();
    let boxes = Negotiator::new(TAGS.map(Box::<str>::from), default).unwrap();
    let arcs = Negotiator::new(TAGS.map(Arc::<str>::from), default).unwrap();
    let rcs = Negotiator::new(TAGS.map(Rc::<str>::from), default).unwrap();
    let cows = Negotiator::new(TAGS.map(Cow::Borrowed), default).unwrap();
    for value in values {
        let want = borrowed.negotiate_header(value);
        let answer: &'static str = want.tag();
        assert!(
            TAGS.iter().any(|t| std::ptr::eq(*t, answer)) || std::ptr::eq(answer, default),
            "{value:?}: {answer} is not one of the caller's own strings"
        );
        for got in [
            strings.negotiate_header(value).tag(),
            boxes.negotiate_header(value).tag(),
            arcs.negotiate_header(value).tag(),
            rcs.negotiate_header(value).tag(),
            cows.negotiate_header(value).tag(),
        ] {
            assert_eq!(got, answer, "{value:?}");
        }
        let owned = strings.negotiate_header(value);
        assert_eq!(
            (owned.index(), owned.quality(), owned.reason()),
            (want.index(), want.quality(), want.reason())
        );
    }
}

/// An answer from literals outlives the negotiator that chose it.
#[test]
fn an_answer_from_literals_outlives_its_negotiator() {
    fn page_language(value: Option<&str>) -> &'static str {
        let pages = Negotiator::new(["en", "fr", "de"], "en").unwrap();
        pages.negotiate_header(value).tag()
    }
    let answers: Vec<&'static str> = ["fr-CH", "de, fr", "ja"]
        .into_iter()
        .map(|v| page_language(Some(v)))
        .collect();
    assert_eq!(answers, ["fr", "de", "en"]);
}
