//! The per-request path allocates nothing: proved with a counting global
//! allocator (decision: hot paths do not allocate).

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::Negotiator;
use mcp_lang_testkit::CountingAllocator;

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::new();

fn hostile() -> String {
    let mut s = String::new();
    while s.len() < 64 * 1024 {
        s.push_str("zh-Hant-CN-x-private1;q=0.001, en-US, *;q=0, ");
    }
    s
}

#[test]
fn negotiate_allocates_nothing() {
    let tags: Vec<String> = (0..100)
        .map(|i| format!("x-tag{i:03}"))
        .chain(["en".into(), "fr-CA".into()])
        .collect();
    let server = Negotiator::new(&tags, "en").unwrap();
    let hostile = hostile();
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

#[test]
fn the_counter_sees_allocations() {
    // Guards against a vacuous pass: building a negotiator does allocate.
    let (n, built) = ALLOC.count(|| Negotiator::new(["en", "fr"], "en").is_ok());
    assert!(built);
    assert!(n > 0);
}
