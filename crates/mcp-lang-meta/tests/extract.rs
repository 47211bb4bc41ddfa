//! The raw skim against the `serde_json::Value` path, and the skim's handling of hostile
//! and unusual JSON.

use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use std::borrow::Cow;

use mcp_lang_meta::{
    ExtractErrorKind, MAX_DEPTH, RawPreference, accept_language_from_value,
    content_language_from_value, extract_accept_language, extract_content_language, skim_request,
};
use serde_json::Value;

/// Both paths on one body: the skim must succeed exactly when serde_json does (for these
/// inputs, none of which has an out-of-range number) and give the same answers.
fn both(body: &str) -> Option<(RawPreference<'_>, RawPreference<'static>)> {
    let raw = extract_accept_language(body.as_bytes());
    let value: Result<Value, _> = serde_json::from_str(body);
    match (raw, value) {
        (Ok(raw), Ok(value)) => {
            let from_value = accept_language_from_value(&value).into_owned();
            assert_eq!(raw, from_value, "paths disagree on {body}");
            let raw_cl = extract_content_language(body.as_bytes()).expect("valid");
            assert_eq!(
                raw_cl,
                content_language_from_value(&value),
                "contentLanguage paths disagree on {body}"
            );
            Some((raw, from_value))
        }
        (Err(_), Err(_)) => None,
        (raw, value) => panic!(
            "skim {raw:?} but serde_json {:?} on {body}",
            value.map(|_| ())
        ),
    }
}

#[test]
fn finds_the_preference_in_params_meta() {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"fr-CA,fr;q=0.9"}}}}}}"#
    );
    let (raw, _) = both(&body).unwrap();
    assert_eq!(raw, RawPreference::String(Cow::Borrowed("fr-CA,fr;q=0.9")));
}

#[test]
fn absent_in_every_way_it_can_be_absent() {
    for body in [
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.to_owned(),
        r#"{"params":{}}"#.to_owned(),
        r#"{"params":null}"#.to_owned(),
        r#"{"params":[{"_meta":{}}]}"#.to_owned(),
        r#"{"params":{"_meta":"x"}}"#.to_owned(),
        r#"{"params":{"_meta":{"other":"en"}}}"#.to_owned(),
        format!(r#"{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en"}}}}"#),
        format!(r#"{{"params":{{"arguments":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en"}}}}}}}}"#),
        format!(r#"{{"result":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en"}}}}}}"#),
        format!(r#"[{{"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en"}}}}}}]"#),
        r#""just a string""#.to_owned(),
        "42".to_owned(),
    ] {
        let (raw, _) = both(&body).unwrap();
        assert_eq!(raw, RawPreference::Absent, "{body}");
    }
}

#[test]
fn present_but_not_a_string() {
    for v in ["null", "42", "true", "[\"en\"]", "{\"v\":\"en\"}", "-0.5e3"] {
        let body = format!(r#"{{"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":{v}}}}}}}"#);
        let (raw, _) = both(&body).unwrap();
        assert_eq!(raw, RawPreference::NotString, "{body}");
    }
}

#[test]
fn escapes_are_decoded_into_an_owned_string_only_when_present() {
    let body = format!(
        r#"{{"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"fr-CA,\u0065n;q=0.5 \"\\\/\t"}}}}}}"#
    );
    let (raw, _) = both(&body).unwrap();
    assert_eq!(raw.as_str(), Some("fr-CA,en;q=0.5 \"\\/\t"));
    assert!(matches!(raw, RawPreference::String(Cow::Owned(_))));
    // A surrogate pair.
    let body = format!(r#"{{"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"\ud83d\ude00"}}}}}}"#);
    assert_eq!(both(&body).unwrap().0.as_str(), Some("\u{1F600}"));
}

#[test]
fn escaped_keys_match_like_decoded_keys() {
    let body = r#"{"par\u0061ms":{"\u005fmeta":{"io.modelcontextprotocol\/acceptLanguage":"de"}}}"#;
    assert_eq!(both(body).unwrap().0.as_str(), Some("de"));
}

#[test]
fn the_last_duplicate_key_wins_as_in_serde_json() {
    let cases = [
        (
            format!(
                r#"{{"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en","{ACCEPT_LANGUAGE_KEY}":"fr"}}}}}}"#
            ),
            Some("fr"),
        ),
        (
            format!(r#"{{"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en"}},"_meta":{{}}}}}}"#),
            None,
        ),
        (
            format!(r#"{{"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en"}}}},"params":{{}}}}"#),
            None,
        ),
        (
            format!(r#"{{"params":{{}},"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"ja"}}}}}}"#),
            Some("ja"),
        ),
        (
            format!(
                r#"{{"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en","{ACCEPT_LANGUAGE_KEY}":1}}}}}}"#
            ),
            None,
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(both(&body).unwrap().0.as_str(), expected, "{body}");
    }
}

#[test]
fn id_and_method_come_out_raw() {
    for (id, raw) in [
        ("1", "1"),
        ("\"a\\\"b\"", "\"a\\\"b\""),
        ("null", "null"),
        ("-1.5e2", "-1.5e2"),
        ("{\"x\":[1]}", "{\"x\":[1]}"),
    ] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{}}}}"#);
        let skim = skim_request(body.as_bytes()).unwrap();
        assert_eq!(skim.id(), Some(raw));
        assert_eq!(skim.method(), Some("tools/call"));
        let echoed: Value = serde_json::from_str(skim.id().unwrap()).unwrap();
        assert_eq!(echoed, serde_json::from_str::<Value>(&body).unwrap()["id"]);
    }
    let skim = skim_request(br#"{"method":7,"params":{}}"#).unwrap();
    assert_eq!((skim.id(), skim.method()), (None, None));
    let skim = skim_request(br#"{"method":"tools\/list"}"#).unwrap();
    assert_eq!(skim.method(), Some("tools/list"));
}

#[test]
fn invalid_json_is_an_error_never_a_panic() {
    let cases: &[(&[u8], ExtractErrorKind)] = &[
        (b"", ExtractErrorKind::UnexpectedEnd),
        (b"   ", ExtractErrorKind::UnexpectedEnd),
        (b"{", ExtractErrorKind::UnexpectedEnd),
        (b"{\"params\"", ExtractErrorKind::UnexpectedEnd),
        (b"{\"a\":1,}", ExtractErrorKind::UnexpectedByte),
        (b"{\"a\" 1}", ExtractErrorKind::UnexpectedByte),
        (b"{'a':1}", ExtractErrorKind::UnexpectedByte),
        (b"{\"a\":01}", ExtractErrorKind::UnexpectedByte),
        (b"{\"a\":1.}", ExtractErrorKind::UnexpectedByte),
        (b"{\"a\":-}", ExtractErrorKind::UnexpectedByte),
        (b"{\"a\":1e}", ExtractErrorKind::UnexpectedByte),
        (b"{\"a\":+1}", ExtractErrorKind::UnexpectedByte),
        (b"{\"a\":tru}", ExtractErrorKind::UnexpectedByte),
        (b"{\"a\":nul", ExtractErrorKind::UnexpectedEnd),
        (b"{\"a\":[1 2]}", ExtractErrorKind::UnexpectedByte),
        (b"{\"a\":\"x\ty\"}", ExtractErrorKind::ControlCharacter),
        (b"{\"a\":\"\\x\"}", ExtractErrorKind::InvalidEscape),
        (b"{\"a\":\"\\u12G4\"}", ExtractErrorKind::InvalidEscape),
        (b"{\"a\":\"\\ud800\"}", ExtractErrorKind::LoneSurrogate),
        (
            b"{\"a\":\"\\ud800\\u0041\"}",
            ExtractErrorKind::LoneSurrogate,
        ),
        (b"{\"a\":\"\\udc00\"}", ExtractErrorKind::LoneSurrogate),
        (b"{\"a\":\"\xff\"}", ExtractErrorKind::InvalidUtf8),
        (b"{\"a\":\"\xc3\"}", ExtractErrorKind::InvalidUtf8),
        (b"{\"\xed\xa0\x80\":1}", ExtractErrorKind::InvalidUtf8),
        (b"{} x", ExtractErrorKind::TrailingCharacters),
        (b"{}{}", ExtractErrorKind::TrailingCharacters),
        (b"\xef\xbb\xbf{}", ExtractErrorKind::UnexpectedByte),
    ];
    for (body, kind) in cases {
        let err = extract_accept_language(body).expect_err(&String::from_utf8_lossy(body));
        assert_eq!(err.kind(), *kind, "{}", String::from_utf8_lossy(body));
        assert!(err.offset() <= body.len());
        assert!(
            serde_json::from_slice::<Value>(body).is_err(),
            "serde_json accepts {}",
            String::from_utf8_lossy(body)
        );
    }
}

#[test]
fn nesting_is_bounded_at_the_documented_depth_like_serde_json() {
    let nested = |depth: usize| {
        format!(
            "{{\"params\":{}1{}}}",
            "[".repeat(depth - 1),
            "]".repeat(depth - 1)
        )
    };
    let ok = nested(MAX_DEPTH);
    assert!(both(&ok).is_some());
    let too_deep = nested(MAX_DEPTH + 1);
    assert_eq!(
        extract_accept_language(too_deep.as_bytes())
            .unwrap_err()
            .kind(),
        ExtractErrorKind::TooDeep
    );
    assert!(serde_json::from_str::<Value>(&too_deep).is_err());
    // Deep hostile input fails fast instead of overflowing the stack.
    let hostile = "[".repeat(1 << 20);
    assert_eq!(
        extract_accept_language(hostile.as_bytes())
            .unwrap_err()
            .kind(),
        ExtractErrorKind::TooDeep
    );
}

#[test]
fn numbers_follow_the_json_grammar_only() {
    for n in [
        "0",
        "-0",
        "1.5",
        "1e10",
        "1E+2",
        "-3.25e-7",
        "123456789012345678901234567890",
    ] {
        let body = format!(r#"{{"id":{n},"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en"}}}}}}"#);
        assert_eq!(both(&body).unwrap().0.as_str(), Some("en"), "{n}");
    }
    // Valid JSON that does not fit an f64: the skim never converts numbers, so it reads on.
    let body = format!(r#"{{"id":1e400,"params":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"en"}}}}}}"#);
    assert_eq!(
        extract_accept_language(body.as_bytes()).unwrap().as_str(),
        Some("en")
    );
}

#[test]
fn content_language_is_read_from_result_error_data_or_params() {
    let cl = CONTENT_LANGUAGE_KEY;
    let cases = [
        (
            format!(r#"{{"id":1,"result":{{"_meta":{{"{cl}":"fr-CA"}}}}}}"#),
            Some("fr-CA"),
        ),
        (
            format!(
                r#"{{"id":1,"error":{{"code":1,"message":"m","data":{{"_meta":{{"{cl}":"de"}}}}}}}}"#
            ),
            Some("de"),
        ),
        (
            format!(
                r#"{{"method":"notifications/progress","params":{{"_meta":{{"{cl}":"ja"}}}}}}"#
            ),
            Some("ja"),
        ),
        (
            format!(r#"{{"id":1,"result":null,"params":{{"_meta":{{"{cl}":"ja"}}}}}}"#),
            None,
        ),
        (
            format!(r#"{{"id":1,"error":{{"_meta":{{"{cl}":"de"}}}}}}"#),
            None,
        ),
        (
            format!(r#"{{"id":1,"result":{{"_meta":{{"{ACCEPT_LANGUAGE_KEY}":"de"}}}}}}"#),
            None,
        ),
    ];
    for (body, expected) in cases {
        let value: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            extract_content_language(body.as_bytes()).unwrap().as_str(),
            expected,
            "{body}"
        );
        assert_eq!(
            content_language_from_value(&value).as_str(),
            expected,
            "{body}"
        );
    }
}

#[test]
fn a_realistic_tools_call_body_of_64_kib() {
    let filler = "x".repeat(60 * 1024);
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":"call-1","method":"tools/call","params":{{"name":"summarize","arguments":{{"text":"{filler}","tags":[1,2.5,true,null,{{"a":"\u00e9"}}]}},"_meta":{{"progressToken":"p1","{ACCEPT_LANGUAGE_KEY}":"de-CH, de;q=0.9, en;q=0.5"}}}}}}"#
    );
    let (raw, _) = both(&body).unwrap();
    assert_eq!(raw.as_str(), Some("de-CH, de;q=0.9, en;q=0.5"));
}
