//! Every way a writer can refuse, each with the path it names, and the message left
//! exactly as it was: a member that exists and is not an object is reported, never
//! overwritten.

use mcp_lang_meta::{
    WriteError, write_accept_language, write_content_language, write_error_content_language,
    write_notification_content_language, write_result_content_language,
};
use serde_json::{Value, json};

/// Runs `write` on a copy of `message`; checks it fails with `expected` and changed nothing.
fn refuses(
    message: Value,
    write: impl Fn(&mut Value) -> Result<(), WriteError>,
    expected: WriteError,
) {
    let mut copy = message.clone();
    assert_eq!(write(&mut copy), Err(expected), "{message}");
    assert_eq!(copy, message, "a refused write left {message} changed");
}

#[test]
fn a_member_on_the_way_to_meta_that_is_not_an_object_is_reported_with_its_path() {
    let cl = |m: &mut Value| write_content_language(m, "fr");
    let not_an_object = |path| WriteError::NotAnObject { path };
    refuses(json!("text"), cl, not_an_object(""));
    refuses(
        json!({"id": 1, "result": [1, 2]}),
        cl,
        not_an_object("/result"),
    );
    refuses(
        json!({"id": 1, "result": null}),
        cl,
        not_an_object("/result"),
    );
    refuses(
        json!({"id": 1, "result": {"_meta": "x"}}),
        cl,
        not_an_object("/result/_meta"),
    );
    refuses(json!({"id": 1, "error": 5}), cl, not_an_object("/error"));
    for data in [json!("trace-41"), json!([1]), json!(0), json!(false)] {
        refuses(
            json!({"id": 1, "error": {"code": -32000, "message": "m", "data": data}}),
            cl,
            not_an_object("/error/data"),
        );
    }
    refuses(
        json!({"id": 1, "error": {"code": -32000, "message": "m", "data": {"_meta": [1]}}}),
        cl,
        not_an_object("/error/data/_meta"),
    );
    refuses(
        json!({"method": "notifications/progress", "params": [1]}),
        cl,
        not_an_object("/params"),
    );
    refuses(
        json!({"method": "notifications/progress", "params": {"_meta": 1}}),
        cl,
        not_an_object("/params/_meta"),
    );

    let al = |m: &mut Value| write_accept_language(m, "fr");
    refuses(json!(null), al, not_an_object(""));
    refuses(
        json!({"id": 1, "method": "tools/list", "params": "x"}),
        al,
        not_an_object("/params"),
    );
    refuses(
        json!({"id": 1, "method": "tools/list", "params": {"_meta": null}}),
        al,
        not_an_object("/params/_meta"),
    );
}

#[test]
fn the_part_writers_name_the_same_paths() {
    let not_an_object = |path| WriteError::NotAnObject { path };
    refuses(
        json!([]),
        |m| write_result_content_language(m, "de"),
        not_an_object("/result"),
    );
    refuses(
        json!({"code": 1, "message": "m", "data": "d"}),
        |m| write_error_content_language(m, "de"),
        not_an_object("/error/data"),
    );
    refuses(
        json!("p"),
        |m| write_notification_content_language(m, "de"),
        not_an_object("/params"),
    );
}

#[test]
fn only_responses_and_notifications_get_content_language_and_only_requests_get_accept_language() {
    let cl = |m: &mut Value| write_content_language(m, "ja");
    // A request (method and id), and a message that is nothing at all.
    refuses(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        cl,
        WriteError::NotAResponseOrNotification,
    );
    refuses(
        json!({"jsonrpc": "2.0"}),
        cl,
        WriteError::NotAResponseOrNotification,
    );
    let al = |m: &mut Value| write_accept_language(m, "ja");
    refuses(
        json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
        al,
        WriteError::NotARequest,
    );
    // A notification is a message a client sends too, so it may carry the preference.
    let mut note = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}});
    write_accept_language(&mut note, "ja").unwrap();
}

#[test]
fn a_malformed_value_is_refused_before_anything_is_looked_at() {
    // The language is checked first, so even a message that could not take it reports the
    // language problem.
    let invalid = |r: Result<(), WriteError>| matches!(r, Err(WriteError::InvalidLanguage(_)));
    assert!(invalid(write_content_language(&mut json!("x"), "en;q=1")));
    assert!(invalid(write_accept_language(&mut json!("x"), "en_US")));
    let message =
        WriteError::InvalidLanguage(mcp_lang_grammar::ContentLanguage::parse("*").unwrap_err())
            .to_string();
    assert!(
        message.starts_with("cannot write a malformed language value"),
        "{message}"
    );
}

#[test]
fn writing_keeps_other_meta_keys_and_replaces_an_earlier_content_language() {
    let mut response = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602,
        "message": "Argument invalide", "data": {"field": "city", "_meta": {"trace": "t-1"}}}});
    write_content_language(&mut response, "en").unwrap();
    write_content_language(&mut response, "fr").unwrap();
    assert_eq!(
        response["error"],
        json!({"code": -32602, "message": "Argument invalide", "data": {"field": "city",
            "_meta": {"trace": "t-1", "io.modelcontextprotocol/contentLanguage": "fr"}}})
    );
    let mut note = json!({"jsonrpc": "2.0", "method": "notifications/progress"});
    write_content_language(&mut note, "de").unwrap();
    assert_eq!(
        note["params"],
        json!({"_meta": {"io.modelcontextprotocol/contentLanguage": "de"}})
    );
}
