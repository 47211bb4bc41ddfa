//! Arbitrary strings as a language tag, basic range and extended range: no
//! panic, offsets in bounds, and every well-formed tag is also a basic range
//! whose components are its own substrings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_lang_grammar::{ExtendedRange, LanguageRange, LanguageTag};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    match LanguageTag::parse(s) {
        Ok(tag) => {
            assert!(LanguageRange::parse(s).is_ok());
            assert!(ExtendedRange::parse(s).is_ok());
            for part in [
                tag.language(),
                tag.extlangs(),
                tag.script(),
                tag.region(),
                tag.variants(),
                tag.extensions(),
                tag.private_use(),
            ]
            .into_iter()
            .flatten()
            {
                assert!(s.contains(part));
            }
            assert_eq!(tag.subtags().len(), s.split('-').count());
        }
        Err(e) => assert!(e.offset() <= s.len()),
    }
    if let Err(e) = ExtendedRange::parse(s) {
        assert!(e.offset() <= s.len());
    }
    if let Ok(range) = LanguageRange::parse(s) {
        assert!(ExtendedRange::parse(s).is_ok());
        assert_eq!(range.subtags().count(), s.split('-').count());
    }
});
