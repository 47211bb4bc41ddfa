//! serialize → parse is the identity on every well-formed `Accept-Language`
//! value, and serializing is canonical (a second round changes nothing).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_lang_grammar::{AcceptLanguage, serialize};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = AcceptLanguage::parse_bytes(data) else {
        return;
    };
    let written = serialize::serialize(value.iter()).to_string();
    let again = AcceptLanguage::parse(&written).expect("serialized value parses");
    assert_eq!(again.len(), value.len());
    for (a, b) in again.iter().zip(value.iter()) {
        assert_eq!(a.range.as_str(), b.range.as_str());
        assert_eq!(a.quality, b.quality);
    }
    assert_eq!(serialize::serialize(again.iter()).to_string(), written);
});
