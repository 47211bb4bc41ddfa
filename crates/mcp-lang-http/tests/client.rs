//! The client side of the HTTP binding, on the header maps an HTTP client
//! builds and receives: `set_accept_language` on the way out,
//! `check_json_response` and `EventStreamLanguage` on the way back. (The
//! loopback test sends what `set_accept_language` builds to a server behind
//! the layer, which counts the lines it receives.)

use http::header::CONTENT_LANGUAGE;
use http::{HeaderMap, HeaderValue};
use mcp_lang_agree::MetaValue;
use mcp_lang_http::{
    CONTENT_LANGUAGE_KEY, EventStreamLanguage, check_json_response, set_accept_language,
};
use serde_json::json;

/// "The value MUST conform to the HTTP Accept-Language field-value grammar
/// in RFC 9110 §12.5.4." A preference that cannot be one field value read
/// back unchanged is refused (D8), and nothing is mirrored.
#[test]
fn an_unsendable_preference_is_never_mirrored() {
    for value in ["fr\r\nX-Injected: 1", " fr", "français"] {
        let mut headers = HeaderMap::new();
        assert!(
            set_accept_language(&mut headers, value).is_err(),
            "{value:?}"
        );
        assert!(headers.is_empty(), "{value:?}: {headers:?}");
    }
}

/// A JSON-RPC response reporting `contentLanguage` `fr`, with these
/// `Content-Language` lines.
fn response_in_fr(lines: &[&'static str]) -> (HeaderMap, Vec<u8>) {
    let mut headers = HeaderMap::new();
    for line in lines {
        headers.append(CONTENT_LANGUAGE, HeaderValue::from_static(line));
    }
    let body = json!({"jsonrpc": "2.0", "id": 1,
        "result": {"tools": [], "_meta": {CONTENT_LANGUAGE_KEY: "fr"}}});
    (headers, body.to_string().into_bytes())
}

/// "If a client receives both values and they do not agree, the response is
/// malformed." The lines are joined before comparing (H8), and the
/// comparison is exact.
#[test]
fn a_json_response_whose_content_language_disagrees_is_malformed() {
    let cases: [(&[&'static str], bool); 5] = [
        (&["fr"], true),
        (&["de"], false),
        (&["fr", "fr"], false),
        (&["fr", "de"], false),
        (&["FR"], false),
    ];
    for (lines, agrees) in cases {
        let (headers, body) = response_in_fr(lines);
        assert_eq!(
            check_json_response(&headers, &body).is_ok(),
            agrees,
            "{lines:?}"
        );
    }
}

/// "If it does send one, every contentLanguage carried by a message on that
/// stream MUST agree with it."
#[test]
fn a_stream_message_must_agree_with_the_streams_content_language() {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("fr"));
    let stream = EventStreamLanguage::from_headers(&headers);
    let progress = |language: &str| {
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
            "progressToken": 1, "progress": 1, "_meta": {CONTENT_LANGUAGE_KEY: language}}})
        .to_string()
    };
    assert!(stream.check_message(progress("fr").as_bytes()).is_ok());
    assert!(stream.check_message(progress("de").as_bytes()).is_err());
    // A stream without the header has nothing to disagree with.
    let undeclared = EventStreamLanguage::from_headers(&HeaderMap::new());
    assert!(undeclared.check(MetaValue::String("de")).is_ok());
}
