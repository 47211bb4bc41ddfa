//! Raw `_meta` extraction on arbitrary bytes: never panics, and on every body serde_json
//! accepts it gives the same answers as the `serde_json::Value` path.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_lang_meta::{
    accept_language_from_value, content_language_from_value, extract_content_language, skim_request,
};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let skim = skim_request(data);
    let content = extract_content_language(data);
    assert_eq!(skim.is_ok(), content.is_ok());
    if let Err(e) = &skim {
        assert!(e.offset() <= data.len());
    }
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let skim = skim.expect("the skim accepts everything serde_json accepts");
    assert_eq!(skim.accept_language(), &accept_language_from_value(&value));
    assert_eq!(content.expect("valid"), content_language_from_value(&value));
    match value.get("id") {
        Some(id) => {
            let raw = skim.id().expect("an id");
            assert_eq!(
                &serde_json::from_str::<Value>(raw).expect("raw id is JSON"),
                id
            );
        }
        None => assert_eq!(skim.id(), None),
    }
    assert_eq!(skim.method(), value.get("method").and_then(Value::as_str));
});
