//! Negotiates arbitrary headers against arbitrary supported lists and checks
//! the negotiation invariants: the selection is supported or the default; it
//! never has quality 0 unless it is the fallback; letter case never matters;
//! excluding a language nobody supports changes nothing; filtering returns a
//! subset; lookup returns a tag or the default. Never a panic.
//!
//! Input: lines, split by [`NegotiationInput`]: line 1 the header (raw bytes),
//! line 2 the default, the rest the supported tags (invalid tags and
//! case-duplicates are dropped).

#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_lang_fuzz::NegotiationInput;
use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::{Negotiator, Reason, basic, lookup};

fuzz_target!(|data: &[u8]| {
    let NegotiationInput {
        header,
        default,
        supported,
    } = NegotiationInput::split(data);
    let server = Negotiator::new(supported.iter().copied(), default).expect("valid, distinct tags");

    let chosen = server.negotiate_header_bytes(Some(header));
    assert!(supported.contains(&chosen.tag()) || chosen.tag() == server.default_tag());
    if !matches!(
        chosen.reason(),
        Reason::Default | Reason::Absent | Reason::Malformed
    ) {
        assert!(!chosen.quality().is_zero());
        assert_eq!(
            chosen.index().and_then(|i| supported.get(i)),
            Some(&chosen.tag())
        );
    }

    // Letter case never changes the answer.
    let upper = header.to_ascii_uppercase();
    assert_eq!(server.negotiate_header_bytes(Some(&upper)), chosen);

    // `xx;q=0` for a language nobody supports changes nothing.
    let unused = ["xx", "qqq", "zzzzzzzz"].into_iter().find(|r| {
        supported.iter().chain([&default]).all(|t| {
            let t = t.to_ascii_lowercase();
            t != *r && !t.starts_with(&format!("{r}-"))
        })
    });
    if let Some(r) = unused {
        let mut more = header.to_vec();
        more.extend_from_slice(format!(", {r};q=0").as_bytes());
        let after = server.negotiate_header_bytes(Some(&more));
        if chosen.reason() == Reason::Absent && AcceptLanguage::parse_bytes(header).is_ok() {
            assert_eq!(after.tag(), chosen.tag());
        } else if chosen.reason() != Reason::Malformed {
            assert_eq!(after, chosen);
        }
    }

    if let Ok(parsed) = AcceptLanguage::parse_bytes(header) {
        for f in basic::filter(&parsed, &supported) {
            assert_eq!(supported.get(f.index()), Some(&f.tag()));
            assert!(!f.quality().is_zero());
        }
        let found = lookup::lookup(&parsed, &supported, Some(default));
        assert!(found.is_some_and(|t| t == default || supported.contains(&t)));
    }
});
