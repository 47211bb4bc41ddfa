//! The `Negotiator`'s own decisions: building, limits, hostile input.

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
fn only_the_first_max_ranges_count() {
    let n = Negotiator::new(["en", "fr"], "en").unwrap();
    let mut header: Vec<String> = (0..Negotiator::DEFAULT_MAX_RANGES)
        .map(|_| "ja".to_string())
        .collect();
    header.push("fr".into());
    let chosen = n.negotiate_header(Some(&header.join(",")));
    assert_eq!((chosen.tag(), chosen.reason()), ("en", Reason::Default));
    header.remove(0);
    assert_eq!(n.negotiate_header(Some(&header.join(","))).tag(), "fr");

    let wide = n.clone().with_max_ranges(usize::MAX);
    assert_eq!(wide.max_ranges(), Negotiator::RANGE_CAPACITY);
    let mut header: Vec<String> = (0..Negotiator::RANGE_CAPACITY - 1)
        .map(|_| "ja".to_string())
        .collect();
    header.push("fr".into());
    assert_eq!(wide.negotiate_header(Some(&header.join(","))).tag(), "fr");
    assert_eq!(n.clone().with_max_ranges(0).max_ranges(), 1);
}

#[test]
fn every_buffer_size_gives_the_same_answer() {
    // 3, 20 and 100 ranges take the 8-, 32- and 128-range stack buffers.
    let n = Negotiator::new(["en", "de", "fr-CA", "fr"], "en")
        .unwrap()
        .with_max_ranges(128);
    for count in [3usize, 20, 100] {
        let mut ranges: Vec<String> = (0..count - 2).map(|i| format!("x-r{i};q=0.9")).collect();
        ranges.insert(0, "fr-BE;q=0.5".into());
        ranges.push("de;q=0.4".into());
        let chosen = n.negotiate_header(Some(&ranges.join(", ")));
        assert_eq!(
            (chosen.tag(), chosen.quality().get(), chosen.reason()),
            ("fr", 500, Reason::Truncated),
            "{count}"
        );
    }
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
    let server = Negotiator::new(&tags, "en").unwrap();
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
