//! The `_meta` extraction hot path does not allocate when the preference has no escapes,
//! whatever else the body holds; with escapes it allocates exactly the decoded string.

use mcp_lang_meta::{RawPreference, extract_content_language, skim_request};
use mcp_lang_testkit::CountingAllocator;

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::new();

/// A `tools/call` request of about `size` bytes, with escapes in strings and keys that
/// the skim passes over.
fn tools_call(size: usize, preference: &str) -> String {
    let mut text = String::new();
    while text.len() < size {
        text.push_str("Lorem ipsum dolor sit amet, \\\"consectetur\\\" adipiscing \\u00e9lit. ");
    }
    format!(
        r#"{{"jsonrpc":"2.0","id":"call-42","method":"tools/call","params":{{"name":"summarize","arguments":{{"text":"{text}","max\u005fwords":120,"tags":["a","b",{{"nested":[1,2.5e3,true,null]}}]}},"_meta":{{"progressToken":"p-1","io.modelcontextprotocol/acceptLanguage":"{preference}"}}}}}}"#
    )
}

#[test]
fn extraction_without_escapes_allocates_nothing() {
    for size in [1024, 64 * 1024] {
        let body = tools_call(size, "fr-CA,fr;q=0.9,en;q=0.5");
        let (n, skim) = ALLOC.count(|| skim_request(body.as_bytes()));
        let skim = skim.unwrap();
        assert_eq!(
            skim.accept_language().as_str(),
            Some("fr-CA,fr;q=0.9,en;q=0.5")
        );
        assert_eq!(skim.id(), Some("\"call-42\""));
        assert!(matches!(
            skim.accept_language(),
            RawPreference::String(std::borrow::Cow::Borrowed(_))
        ));
        assert_eq!(n, 0, "{size}-byte body");
    }
}

#[test]
fn extraction_of_an_absent_or_non_string_preference_allocates_nothing() {
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":[1,{"x":"\u00e9"}]}}}"#;
    let (n, skim) = ALLOC.count(|| skim_request(body));
    assert_eq!(skim.unwrap().accept_language(), &RawPreference::NotString);
    assert_eq!(n, 0);
    let response = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[],"_meta":{"io.modelcontextprotocol/contentLanguage":"de"}}}"#;
    let (n, cl) = ALLOC.count(|| extract_content_language(response));
    assert_eq!(cl.unwrap().as_str(), Some("de"));
    assert_eq!(n, 0);
}

#[test]
fn extraction_with_escapes_allocates_only_the_decoded_string() {
    let body = tools_call(1024, r"fr-CA,\u0066r;q=0.9");
    let (n, skim) = ALLOC.count(|| skim_request(body.as_bytes()));
    assert_eq!(
        skim.unwrap().accept_language().as_str(),
        Some("fr-CA,fr;q=0.9")
    );
    assert_eq!(n, 1);
}

#[test]
fn invalid_json_allocates_nothing() {
    let mut body = tools_call(4096, "en").into_bytes();
    body.truncate(3000);
    let (n, skim) = ALLOC.count(|| skim_request(&body));
    assert!(skim.is_err());
    assert_eq!(n, 0);
}
