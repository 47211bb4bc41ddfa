//! Arbitrary bytes as a `Content-Language` value: no panic, at least one tag
//! when well-formed, and every tag it yields is itself a well-formed tag.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_lang_grammar::{ContentLanguage, LanguageTag};

fuzz_target!(|data: &[u8]| {
    match ContentLanguage::parse_bytes(data) {
        Ok(value) => {
            assert!(value.len() >= 1);
            assert_eq!(value.iter().count(), value.len());
            for tag in value.iter() {
                assert!(LanguageTag::parse(tag.as_str()).is_ok());
            }
        }
        Err(e) => assert!(e.offset() <= data.len()),
    }
});
