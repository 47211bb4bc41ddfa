//! Arbitrary bytes as an `Accept-Language` value: no panic, and the parse is
//! self-consistent (iteration yields `len()` valid ranges; bytes and str agree;
//! reading the ranges in one pass while validating gives the same ranges and
//! the same verdict, error offset included).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_lang_grammar::{AcceptLanguage, LanguageRange};

fuzz_target!(|data: &[u8]| {
    let from_bytes = AcceptLanguage::parse_bytes(data);
    match from_bytes {
        Ok(value) => {
            assert_eq!(value.as_str().as_bytes(), data);
            let mut n = 0;
            for w in value.iter() {
                assert!(LanguageRange::parse(w.range.as_str()).is_ok());
                assert!(w.quality.get() <= 1000);
                n += 1;
            }
            assert_eq!(n, value.len());
        }
        Err(e) => assert!(e.offset() <= data.len()),
    }
    // One pass: the same ranges while the value is valid, the same error.
    let mut one_pass = AcceptLanguage::validating_bytes(data);
    let read: Vec<(&str, u16)> = one_pass
        .by_ref()
        .map(|w| (w.range.as_str(), w.quality.get()))
        .collect();
    let finished = one_pass.finish();
    match (&from_bytes, &finished) {
        (Ok(value), Ok(again)) => {
            assert_eq!(again.len(), value.len());
            let expected: Vec<(&str, u16)> = value
                .iter()
                .map(|w| (w.range.as_str(), w.quality.get()))
                .collect();
            assert_eq!(read, expected);
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("parse and one pass disagree on {data:?}"),
    }
    if let Ok(s) = std::str::from_utf8(data) {
        let from_str = AcceptLanguage::parse(s);
        assert_eq!(from_str.map(|v| v.len()), from_bytes.map(|v| v.len()));
    }
});
