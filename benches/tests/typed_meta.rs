//! serde_json's typed readers (`mcp_lang_benches::typed_meta`) against the raw skim of
//! mcp-lang-meta: the same answers on every valid message, and each input on which they
//! part pinned, so that the benchmark compares readers of known behaviour.

use mcp_lang_benches::typed_meta::{
    TypedRequest, read_content_language, read_content_language_utf8,
    read_content_language_validating, read_request, read_request_utf8, read_request_validating,
};
use mcp_lang_meta::{
    ACCEPT_LANGUAGE_KEY as KEY, CONTENT_LANGUAGE_KEY as CL, MAX_DEPTH, RawPreference,
    extract_content_language, skim_request,
};
use proptest::prelude::*;
use serde_json::{Map, Value};

/// The request as the skim reads it, in the typed readers' form.
fn skimmed(body: &[u8]) -> Option<TypedRequest<'_>> {
    let skim = skim_request(body).ok()?;
    Some(TypedRequest {
        accept_language: skim.accept_language().clone(),
        id: skim.id(),
        method: skim.method().map(|m| m.to_owned().into()),
    })
}

type RequestReader = for<'a> fn(&'a [u8]) -> Result<TypedRequest<'a>, serde_json::Error>;
type LanguageReader = for<'a> fn(&'a [u8]) -> Result<RawPreference<'a>, serde_json::Error>;

const REQUEST_READERS: [(&str, RequestReader); 3] = [
    ("ignored-any", read_request),
    ("utf8", read_request_utf8),
    ("validating", read_request_validating),
];

const LANGUAGE_READERS: [(&str, LanguageReader); 3] = [
    ("ignored-any", read_content_language),
    ("utf8", read_content_language_utf8),
    ("validating", read_content_language_validating),
];

/// Every reader gives the skim's answers on `body` (valid, or invalid for all alike).
fn all_agree(body: &[u8]) {
    let text = String::from_utf8_lossy(body);
    let ours = skimmed(body);
    let ours_cl = extract_content_language(body).ok();
    for (name, read) in REQUEST_READERS {
        assert_eq!(read(body).ok(), ours, "{name} on {text}");
    }
    for (name, read) in LANGUAGE_READERS {
        assert_eq!(read(body).ok(), ours_cl, "{name} on {text}");
    }
}

/// Which readers accept `body`: the skim, then the three typed readers.
fn accepted(body: &[u8]) -> [bool; 4] {
    [
        skim_request(body).is_ok(),
        read_request(body).is_ok(),
        read_request_utf8(body).is_ok(),
        read_request_validating(body).is_ok(),
    ]
}

#[test]
fn the_same_answers_on_requests_responses_and_errors() {
    for body in [
        format!(
            r#"{{"jsonrpc":"2.0","id":"r-1","method":"tools/call","params":{{"name":"x","arguments":{{"a":[1,2,{{"b":null}}]}},"_meta":{{"progressToken":3,"{KEY}":"fr-CA, fr;q=0.9"}}}}}}"#
        ),
        format!(r#"{{"id":1.50,"method":"ping","params":{{"_meta":{{"{KEY}":42}}}}}}"#),
        format!(r#"{{"id":null,"params":{{"_meta":{{"{KEY}":["en"]}}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[],"_meta":{{"{CL}":"de"}}}}}}"#),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-1,"message":"m","data":{{"_meta":{{"{CL}":"ja"}}}}}}}}"#
        ),
        format!(r#"{{"method":"notifications/progress","params":{{"_meta":{{"{CL}":"fr"}}}}}}"#),
        format!(r#"{{"id":1,"result":null,"params":{{"_meta":{{"{CL}":"ja"}}}}}}"#),
        r#"{"method":7,"params":{}}"#.to_owned(),
        format!(r#"[{{"params":{{"_meta":{{"{KEY}":"en"}}}}}}]"#),
        r#""just a string""#.to_owned(),
        "42".to_owned(),
        "  {\"id\" : 7 ,\n \"method\":\"ping\" }  ".to_owned(),
    ] {
        all_agree(body.as_bytes());
    }
}

#[test]
fn escaped_strings_and_keys_are_decoded_alike() {
    for body in [
        format!(r#"{{"params":{{"_meta":{{"{KEY}":"fr-CA,\u0065n;q=0.5 \"\\\/\t"}}}}}}"#),
        format!(r#"{{"params":{{"_meta":{{"{KEY}":"\ud83d\ude00"}}}}}}"#),
        r#"{"par\u0061ms":{"\u005fmeta":{"io.modelcontextprotocol\/acceptLanguage":"de"}}}"#
            .to_owned(),
        r#"{"id":"a\"b","method":"tools\/list"}"#.to_owned(),
        r#"{"result":{"\u005fmeta":{"io.modelcontextprotocol\/contentLanguage":"d\u0065"}}}"#
            .to_owned(),
    ] {
        all_agree(body.as_bytes());
    }
    let body = format!(r#"{{"params":{{"_meta":{{"{KEY}":"\u0065n"}}}}}}"#);
    assert_eq!(
        read_request(body.as_bytes())
            .unwrap()
            .accept_language
            .as_str(),
        Some("en")
    );
}

#[test]
fn the_last_duplicate_key_wins_alike() {
    for body in [
        format!(r#"{{"params":{{"_meta":{{"{KEY}":"en","{KEY}":"fr"}}}}}}"#),
        format!(r#"{{"params":{{"_meta":{{"{KEY}":"en"}},"_meta":{{}}}}}}"#),
        format!(r#"{{"params":{{"_meta":{{"{KEY}":"en"}}}},"params":{{}}}}"#),
        format!(r#"{{"params":{{}},"params":{{"_meta":{{"{KEY}":"ja"}}}}}}"#),
        format!(r#"{{"params":{{"_meta":{{"{KEY}":"en","{KEY}":1}}}}}}"#),
        r#"{"id":1,"id":"two","method":"a","method":3}"#.to_owned(),
        format!(r#"{{"result":{{"_meta":{{"{CL}":"de"}}}},"result":{{}}}}"#),
    ] {
        all_agree(body.as_bytes());
    }
}

#[test]
fn invalid_json_is_an_error_for_all() {
    for body in [
        &b""[..],
        b"{",
        b"{\"a\":1,}",
        b"{\"a\":01}",
        b"{\"a\":\"x\ty\"}",
        b"{\"a\":\"\\x\"}",
        b"{} x",
        b"{\"params\":{\"_meta\":{\"io.modelcontextprotocol/acceptLanguage\":\"\\ud800\"}}}",
    ] {
        assert_eq!(
            accepted(body),
            [false; 4],
            "{}",
            String::from_utf8_lossy(body)
        );
    }
}

/// Where the readers part: what `IgnoredAny` does not check in the values it skips.
#[test]
fn ignored_any_skips_what_the_skim_rejects() {
    // A lone surrogate in a skipped string: only `IgnoredAny` reads on.
    let surrogate = br#"{"id":1,"params":{"x":"\ud800"}}"#;
    assert_eq!(accepted(surrogate), [false, true, true, false]);
    // Invalid UTF-8 in a skipped string: the whole-body check catches it.
    let utf8 = b"{\"id\":1,\"params\":{\"x\":\"\xff\"}}";
    assert_eq!(accepted(utf8), [false, true, false, false]);
    // Nesting past the limit inside a skipped value: `IgnoredAny` has no limit.
    let deep = format!(
        "{{\"id\":1,\"params\":{{\"x\":{}{}}}}}",
        "[".repeat(MAX_DEPTH + 1),
        "]".repeat(MAX_DEPTH + 1)
    );
    assert_eq!(accepted(deep.as_bytes()), [false, true, true, false]);
    // At the limit, every reader reads it.
    let at_limit = format!(
        "{{\"params\":{}1{}}}",
        "[".repeat(MAX_DEPTH - 1),
        "]".repeat(MAX_DEPTH - 1)
    );
    assert_eq!(accepted(at_limit.as_bytes()), [true; 4]);
    all_agree(at_limit.as_bytes());
}

/// Where the validating reader parts from the skim: a number out of `f64` range, which
/// `serde_json::Value` rejects and the skim, which never converts numbers, reads on.
#[test]
fn the_validating_reader_rejects_numbers_out_of_range() {
    let body = format!(r#"{{"id":1,"params":{{"n":1e400,"_meta":{{"{KEY}":"en"}}}}}}"#);
    assert_eq!(accepted(body.as_bytes()), [true, true, true, false]);
    // The id is kept as written (`&RawValue`), never converted: every reader reads it.
    let body = format!(r#"{{"id":1e400,"params":{{"_meta":{{"{KEY}":"en"}}}}}}"#);
    assert_eq!(accepted(body.as_bytes()), [true; 4]);
    all_agree(body.as_bytes());
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "jsonrpc", "id", "method", "params", "result", "error", "data", "_meta", "name",
            "arguments", KEY, CL,
        ])
        .prop_map(str::to_owned),
        1 => "[a-z_/\"\\\\é]{0,6}",
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        prop::sample::select(vec!["tools/call", "fr-CA", "en", "de;q=0.5", ""])
            .prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::from),
    ]
}

fn json() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Any message serde_json writes, compact or pretty, with non-ASCII keys and values
    /// and escapes: every typed reader answers as the skim does.
    #[test]
    fn every_reader_agrees_on_any_message(message in json(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_string_pretty(&message)
        } else {
            serde_json::to_string(&message)
        }
        .unwrap();
        all_agree(text.as_bytes());
    }
}
