//! The per-request path allocates nothing: proved with a counting global
//! allocator (decision: hot paths do not allocate).

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::Negotiator;
use mcp_lang_testkit::CountingAllocator;

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::new();

/// At least `bytes` of ranges that the negotiator must all rate, then `fr`.
fn hostile(bytes: usize) -> String {
    let mut s = String::new();
    while s.len() < bytes {
        s.push_str("zh-Hant-CN-x-private1;q=0.001, en-US;q=0.5, *;q=0, ");
    }
    s.push_str("fr-CA");
    s
}

#[test]
fn negotiate_allocates_nothing() {
    let tags: Vec<String> = (0..100)
        .map(|i| format!("x-tag{i:03}"))
        .chain(["en".into(), "fr-CA".into()])
        .collect();
    let server = Negotiator::new(tags.iter().map(String::as_str), "en").unwrap();
    let hostile = hostile(64 * 1024);
    let headers = [
        Some("fr-CA,fr;q=0.9,en;q=0.5"),
        Some("*"),
        Some("en;q=0, *;q=0.3, zh-Hant-CN-x-private1-private2"),
        Some("de-AT, fr;q=0.5"),
        Some("en;q=2"),
        Some(""),
        Some(hostile.as_str()),
        None,
    ];
    for header in headers {
        let (n, chosen) = ALLOC.count(|| server.negotiate_header(header).tag().len());
        assert!(chosen > 0);
        assert_eq!(n, 0, "negotiate_header({header:?}) allocated {n} times");
        let (n, _) = ALLOC.count(|| {
            server
                .negotiate_header_bytes(header.map(str::as_bytes))
                .reason()
        });
        assert_eq!(n, 0);
    }
    let parsed = AcceptLanguage::parse("fr-CA,fr;q=0.9,en;q=0.5").unwrap();
    let (n, chosen) = ALLOC.count(|| server.negotiate(&parsed).tag());
    assert_eq!((n, chosen), (0, "fr-CA"));
}

/// Values of 400 KiB (hyper's limit on a request head) and 4 MiB (the HTTP
/// layer's body limit), every range rated, against a supported list rated
/// in one pass (102 tags), and 400 KiB against one rated in slices (1,302
/// tags): nothing allocated, and the last range decides.
#[test]
fn negotiating_huge_values_allocates_nothing() {
    let short: Vec<String> = (0..100)
        .map(|i| format!("x-tag{i:03}"))
        .chain(["en-US".into(), "fr-CA".into()])
        .collect();
    let long: Vec<String> = (0..1300)
        .map(|i| format!("zh-x-t{i:04}"))
        .chain(["en-US".into(), "fr-CA".into()])
        .collect();
    for (tags, sizes) in [(short, &[400 << 10, 4 << 20][..]), (long, &[400 << 10][..])] {
        let server = Negotiator::new(tags.iter().map(String::as_str), "en").unwrap();
        for &bytes in sizes {
            let value = hostile(bytes);
            let parsed = AcceptLanguage::parse(&value).unwrap();
            assert!(parsed.len() > 3 * bytes / 64, "{} ranges", parsed.len());
            let (n, chosen) = ALLOC.count(|| server.negotiate(&parsed).tag());
            assert_eq!(
                (n, chosen),
                (0, "fr-CA"),
                "{} tags, {bytes} bytes",
                tags.len()
            );
            let (n, chosen) = ALLOC.count(|| server.negotiate_header(Some(&value)).tag());
            assert_eq!((n, chosen), (0, "fr-CA"));
        }
    }
}

#[test]
fn the_counter_sees_allocations() {
    // Guards against a vacuous pass: building a negotiator does allocate.
    let (n, built) = ALLOC.count(|| Negotiator::new(["en", "fr"], "en").is_ok());
    assert!(built);
    assert!(n > 0);
}
