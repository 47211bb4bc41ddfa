//! One test per MUST and SHOULD of SEP-2792's sections Request behavior, Response
//! behavior, Translation boundary, Explicit language selection and Caching (and the
//! client privacy SHOULD of Security and Privacy), each named after its sentence.

use mcp_lang_grammar::{AcceptLanguage, ContentLanguage};
use mcp_lang_match::{Negotiator, Reason};
use mcp_lang_meta::{
    CONTENT_LANGUAGE_KEY, CacheRequest, CacheScope, DisplayField, IdentifierGuard, Localizer,
    ManualClock, PreferenceBuilder, RawPreference, RequestLanguage, ResponseCache, Stored,
    WriteError, accept_language_from_value, content_language_from_value, display_fields,
    write_accept_language, write_content_language, write_error_content_language,
    write_notification_content_language,
};
use serde_json::{Value, json};

fn negotiator() -> Negotiator<&'static str> {
    Negotiator::new(["en", "fr", "fr-CA", "de", "ja", "ga"], "en").unwrap()
}

fn request(id: u64, method: &str, preference: Option<&str>) -> Value {
    let mut req = json!({"jsonrpc": "2.0", "id": id, "method": method});
    if let Some(p) = preference {
        req["params"] = json!({"_meta": {"io.modelcontextprotocol/acceptLanguage": p}});
    }
    req
}

// ---------------------------------------------------------------- Request behavior

#[test]
fn client_should_include_accept_language_in_params_meta_on_every_request() {
    let preference = PreferenceBuilder::new()
        .languages(["fr-CA", "fr", "en"])
        .build()
        .unwrap();
    for (id, method) in [
        (1, "initialize"),
        (2, "tools/list"),
        (3, "tools/call"),
        (4, "resources/read"),
    ] {
        let mut req =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"name": "x"}});
        write_accept_language(&mut req, &preference).unwrap();
        assert_eq!(
            accept_language_from_value(&req).as_str(),
            Some("fr-CA,fr;q=0.9,en;q=0.8")
        );
        assert_eq!(req["params"]["name"], "x");
    }
}

#[test]
fn value_must_conform_to_the_accept_language_field_value_grammar() {
    let mut req = request(1, "tools/list", None);
    for bad in ["fr_CA", "en;q=2", "en-", "fr CA", "en;level=1", "\u{e9}n"] {
        assert!(
            matches!(
                write_accept_language(&mut req, bad),
                Err(WriteError::InvalidLanguage(_))
            ),
            "{bad}"
        );
    }
    for good in ["fr-CA,fr;q=0.9,en;q=0.5", "*", "de, *;q=0.5", ""] {
        write_accept_language(&mut req, good).unwrap();
    }
    // What the builder produces always conforms.
    let built = PreferenceBuilder::new()
        .languages(["zh-Hant-TW", "sr_RS@latin", "en"])
        .build()
        .unwrap();
    assert!(AcceptLanguage::parse(&built).is_ok(), "{built}");
}

#[test]
fn client_may_change_or_omit_it_and_server_must_not_reuse_an_earlier_preference() {
    let n = negotiator();
    let sequence = [
        (Some("fr-CA"), "fr-CA"),
        (None, "en"),
        (Some("de"), "de"),
        (Some("ja;q=0.5, de;q=0.1"), "ja"),
        (None, "en"),
        (Some("xx"), "en"),
    ];
    for (preference, expected) in sequence {
        let body = serde_json::to_vec(&request(1, "tools/list", preference)).unwrap();
        let lang = RequestLanguage::from_body(&body, &n).unwrap();
        assert_eq!(lang.selected(), expected, "{preference:?}");
        assert_eq!(lang.raw(), preference);
    }
}

#[test]
fn server_must_not_bind_the_preference_to_a_connection_or_session() {
    // Two requests on "one connection" (the same negotiator, interleaved): each gets its own.
    let n = negotiator();
    let first = RequestLanguage::from_message(&request(1, "tools/list", Some("ja")), &n);
    let second = RequestLanguage::from_message(&request(2, "tools/list", None), &n);
    let third = RequestLanguage::from_message(&request(3, "tools/list", Some("ga")), &n);
    assert_eq!(
        (first.selected(), second.selected(), third.selected()),
        ("ja", "en", "ga")
    );
    assert_eq!(second.reason(), Reason::Absent);
}

#[test]
fn messages_produced_while_processing_one_request_use_that_requests_selected_language() {
    let n = negotiator();
    let lang =
        RequestLanguage::from_message(&request(7, "tools/call", Some("de-CH, de;q=0.9")), &n);
    let mut progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": "t7", "progress": 1, "message": "Lade…"}});
    write_content_language(&mut progress, lang.selected()).unwrap();
    let mut elicitation_result = json!({"jsonrpc": "2.0", "id": 7, "result": {"resultType": "input_required",
        "inputRequests": {"contact": {"method": "elicitation/create", "params": {"message": "E-Mail?"}}}}});
    write_content_language(&mut elicitation_result, lang.selected()).unwrap();
    assert_eq!(content_language_from_value(&progress).as_str(), Some("de"));
    assert_eq!(
        content_language_from_value(&elicitation_result).as_str(),
        Some("de")
    );
}

#[test]
fn server_must_use_matching_compatible_with_rfc_4647_including_weights_and_wildcard() {
    let n = negotiator();
    let pick = |p: &str| {
        RequestLanguage::negotiate(Some(p), &n)
            .selected()
            .to_owned()
    };
    assert_eq!(pick("fr-CA,fr;q=0.9,en;q=0.5"), "fr-CA");
    assert_eq!(pick("de;q=0.5, ja;q=0.9"), "ja");
    assert_eq!(pick("fr-BE"), "fr"); // lookup truncation
    assert_eq!(pick("*"), "en");
    assert_eq!(pick("it, *;q=0.1"), "en");
    assert_eq!(pick("en;q=0, *"), "fr"); // `*` covers the others; en excluded
    assert_eq!(pick("FR-ca"), "fr-CA"); // case-insensitive, server spelling
}

#[test]
fn if_no_supported_language_matches_the_server_must_use_its_default_and_not_error() {
    let n = negotiator();
    // There is no error path at all: `negotiate` returns a selection, never a Result.
    let lang = RequestLanguage::negotiate(Some("it-IT, pt;q=0.8"), &n);
    assert_eq!((lang.selected(), lang.reason()), ("en", Reason::Default));
}

#[test]
fn a_malformed_canonical_value_is_ignored_as_absent_and_must_not_on_its_own_produce_an_error() {
    let n = negotiator();
    for bad in [Some("fr;q=2"), Some("fr_CA"), Some(",;")] {
        let lang = RequestLanguage::negotiate(bad, &n);
        assert_eq!(
            (lang.selected(), lang.reason(), lang.is_well_formed()),
            ("en", Reason::Malformed, false)
        );
        assert_eq!(lang.raw(), bad, "the raw value is kept for cache keys");
    }
    let lang = RequestLanguage::from_raw(RawPreference::NotString, &n);
    assert_eq!((lang.selected(), lang.reason()), ("en", Reason::Malformed));
}

#[test]
fn a_participating_server_must_not_define_a_different_interpretation_of_the_field_value() {
    // The `_meta` value is read as an `Accept-Language` field value and nothing else: the
    // request's selection is exactly what HTTP negotiation (mcp-lang-match) gives for the
    // same field value, weights, wildcard, q=0 and case-insensitivity included.
    let n = negotiator();
    for preference in [
        "fr-CA,fr;q=0.9,en;q=0.5",
        "en;q=0, *",
        "*;q=0",
        "de;q=0.5, ja;q=0.9",
        "FR-ca",
        "fr-CH;q=0.2, zz",
        "ja;q=0.000, de",
        "",
        "fr;q=2",
    ] {
        let ours = RequestLanguage::negotiate(Some(preference), &n);
        let http = n.negotiate_header(Some(preference));
        assert_eq!(
            (ours.selected(), ours.quality(), ours.reason()),
            (http.tag(), http.quality(), http.reason()),
            "{preference:?}"
        );
    }
    // Matching is semantic (only agreement is lexical): spellings HTTP treats as
    // equivalent select alike.
    let pick = |p: &str| {
        RequestLanguage::negotiate(Some(p), &n)
            .selected()
            .to_owned()
    };
    for (a, b) in [
        ("ja-JP,de;q=0.5", "ja-JP, de;q=0.5"),
        ("de;q=0.5,ja;q=0.4", "de;q=0.500, ja;Q=0.4"),
        ("FR-ca", "fr-CA"),
    ] {
        assert_eq!(pick(a), pick(b), "{a:?} vs {b:?}");
    }
}

// ---------------------------------------------------------------- Response behavior

#[test]
fn a_server_that_honors_the_preference_must_report_the_actual_language_used_even_on_fallback() {
    let n = negotiator();
    for (preference, reported) in [(Some("fr-CA"), "fr-CA"), (Some("it"), "en"), (None, "en")] {
        let lang = RequestLanguage::negotiate(preference, &n);
        let mut response = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}});
        write_content_language(&mut response, lang.selected()).unwrap();
        assert_eq!(
            content_language_from_value(&response).as_str(),
            Some(reported)
        );
    }
}

#[test]
fn content_language_must_follow_content_language_syntax() {
    let mut response = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
    for bad in ["", "fr_CA", "en;q=1", "*", ",", "-en"] {
        assert!(
            matches!(
                write_content_language(&mut response, bad),
                Err(WriteError::InvalidLanguage(_))
            ),
            "{bad}"
        );
    }
    assert_eq!(
        response,
        json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
        "nothing written on error"
    );
    for good in ["fr-CA", "de, en", "zh-Hant-TW", "i-klingon"] {
        write_content_language(&mut response, good).unwrap();
        assert!(
            ContentLanguage::parse(content_language_from_value(&response).as_str().unwrap())
                .is_ok()
        );
    }
}

#[test]
fn content_language_is_carried_in_result_meta_for_a_successful_or_input_required_response() {
    for result in [
        json!({"tools": []}),
        json!({"resultType": "input_required", "inputRequests": {}}),
    ] {
        let mut response = json!({"jsonrpc": "2.0", "id": 1, "result": result});
        write_content_language(&mut response, "fr").unwrap();
        assert_eq!(response["result"]["_meta"][CONTENT_LANGUAGE_KEY], "fr");
    }
}

#[test]
fn content_language_is_carried_in_error_data_meta_for_a_localized_error() {
    let mut response =
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Ville inconnue"}});
    write_content_language(&mut response, "fr").unwrap();
    assert_eq!(
        response["error"]["data"]["_meta"][CONTENT_LANGUAGE_KEY],
        "fr"
    );
}

#[test]
fn content_language_is_carried_in_params_meta_for_a_localized_notification() {
    let mut note = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 5}});
    write_content_language(&mut note, "ja").unwrap();
    assert_eq!(note["params"]["_meta"][CONTENT_LANGUAGE_KEY], "ja");
    let mut params = json!({"progressToken": 1, "progress": 5, "_meta": {"other": 1}});
    write_notification_content_language(&mut params, "ga").unwrap();
    assert_eq!(
        params["_meta"],
        json!({"other": 1, "io.modelcontextprotocol/contentLanguage": "ga"})
    );
}

#[test]
fn if_error_data_carries_content_language_it_must_be_an_object() {
    let mut error = json!({"code": -32000, "message": "x", "data": null});
    write_error_content_language(&mut error, "de").unwrap();
    assert!(error["data"].is_object());
    for data in [json!("text"), json!([1]), json!(3)] {
        let mut error = json!({"code": -32000, "message": "x", "data": data.clone()});
        assert_eq!(
            write_error_content_language(&mut error, "de"),
            Err(WriteError::NotAnObject {
                path: "/error/data"
            })
        );
        assert_eq!(error["data"], data, "reported, not overwritten");
    }
}

#[test]
fn the_machine_readable_error_code_remains_unchanged() {
    let mut response = json!({"jsonrpc": "2.0", "id": 4, "error": {"code": -32602, "message": "Argument invalide"}});
    let before = response.clone();
    write_content_language(&mut response, "fr").unwrap();
    assert_eq!(response["error"]["code"], before["error"]["code"]);
    assert_eq!(response["error"]["message"], before["error"]["message"]);
}

#[test]
fn a_server_that_ignores_the_preference_may_omit_content_language_and_omission_identifies_no_language()
 {
    // Nothing is written unless the server asks; reading an omitted value says "absent",
    // never a default language.
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}});
    assert_eq!(
        content_language_from_value(&response),
        RawPreference::Absent
    );
    let body = serde_json::to_vec(&response).unwrap();
    assert_eq!(
        mcp_lang_meta::extract_content_language(&body).unwrap(),
        RawPreference::Absent
    );
}

// ---------------------------------------------------------------- Translation boundary

/// A catalog that translates every string it is offered, to prove what is offered.
fn everything(_: &DisplayField, s: &str) -> Option<String> {
    Some(format!("«{s}»"))
}

fn rich_messages() -> Vec<Value> {
    vec![
        json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": true}},
            "serverInfo": {"name": "mcp-lang-reference", "title": "Reference server", "version": "1.0.0",
                           "description": "A server"}}}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "weather_current", "title": "Current weather",
            "description": "Current conditions", "annotations": {"title": "Weather", "readOnlyHint": true},
            "inputSchema": {"type": "object", "properties": {"unit": {"type": "string", "enum": ["c", "f"],
                "title": "Unit", "description": "Temperature unit"}}}}],
            "nextCursor": "abc", "ttlMs": 300000, "cacheScope": "public"}}),
        json!({"jsonrpc": "2.0", "id": 2, "result": {"resources": [{"uri": "file:///a.txt", "name": "a", "title": "A file",
            "mimeType": "text/plain", "description": "desc"}],
            "resourceTemplates": [{"uriTemplate": "file:///{path}", "name": "files", "title": "Files", "mimeType": "text/plain"}]}}),
        json!({"jsonrpc": "2.0", "id": 3, "result": {"prompts": [{"name": "summarize", "title": "Summarize",
            "description": "d", "arguments": [{"name": "text", "title": "Text", "description": "d", "required": true}]}]}}),
        json!({"jsonrpc": "2.0", "id": 4, "result": {"resultType": "input_required", "inputRequests": {"contact": {
            "method": "elicitation/create", "params": {"mode": "form", "message": "Please enter your e-mail address.",
            "requestedSchema": {"type": "object", "properties": {"email": {"type": "string", "format": "email",
                "title": "E-mail address", "description": "Address for the confirmation"},
                "plan": {"type": "string", "enum": ["free", "pro"], "const": "pro", "default": "free"}},
                "required": ["email"]}}}}}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "elicitation/create", "params": {"mode": "url",
            "message": "Open this page to sign in", "url": "https://example.com/auth", "elicitationId": "e-1"}}),
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "tok-1",
            "progress": 3, "total": 10, "message": "Downloading"}}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "completion/complete", "params": {"ref": {"type": "ref/prompt",
            "name": "summarize", "title": "Summarize"}, "argument": {"name": "text", "value": "he"}}}),
        json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "Unknown city", "data": {"city": "X"}}}),
    ]
}

#[test]
fn server_should_translate_the_display_fields_title_messages_and_schema_property_text() {
    let expected_pointers = [
        vec!["/result/serverInfo/title"],
        vec!["/result/tools/0/annotations/title", "/result/tools/0/title"],
        vec![
            "/result/resources/0/title",
            "/result/resourceTemplates/0/title",
        ],
        vec![
            "/result/prompts/0/arguments/0/title",
            "/result/prompts/0/title",
        ],
        vec![
            "/result/inputRequests/contact/params/message",
            "/result/inputRequests/contact/params/requestedSchema/properties/email/title",
            "/result/inputRequests/contact/params/requestedSchema/properties/email/description",
        ],
        vec!["/params/message"],
        vec!["/params/message"],
        vec!["/params/ref/title"],
        vec![],
    ];
    for (message, expected) in rich_messages().into_iter().zip(expected_pointers) {
        let found: Vec<String> = display_fields(&message)
            .iter()
            .map(|l| l.pointer().to_owned())
            .collect();
        assert_eq!(found, expected, "{message}");
        let mut localized = message.clone();
        assert_eq!(
            Localizer::new(&everything).localize(&mut localized),
            expected.len()
        );
        for pointer in expected {
            let text = localized.pointer(pointer).and_then(Value::as_str).unwrap();
            assert!(text.starts_with('«'), "{pointer} not localized");
        }
    }
}

#[test]
fn server_must_not_translate_a_machine_interpreted_identifier_or_token() {
    for message in rich_messages() {
        let mut localized = message.clone();
        Localizer::new(&everything).localize(&mut localized);
        let diffs = IdentifierGuard::new().check(&message, &localized);
        assert!(diffs.is_empty(), "{diffs:?}");
        // And the guard does catch an identifier that changed, wherever it is.
        let mut broken = localized.clone();
        for pointer in [
            "/result/tools/0/name",
            "/result/inputRequests/contact/params/requestedSchema/properties/plan/enum/0",
            "/params/progressToken",
            "/result/nextCursor",
            "/id",
            "/result/resources/0/mimeType",
        ] {
            if let Some(v) = broken.pointer_mut(pointer) {
                *v = json!("translated");
                let diffs = IdentifierGuard::new().check(&message, &broken);
                assert!(
                    diffs.iter().any(|d| d.path() == pointer),
                    "{pointer} not reported: {diffs:?}"
                );
            }
        }
    }
}

/// A message, the JSON Pointers of the identifiers it holds as values, and (parent
/// pointer, key) for those it holds as member keys.
type IdentifierCase = (
    &'static str,
    Value,
    Vec<&'static str>,
    Vec<(&'static str, &'static str)>,
);

/// One message per place where the SEP's MUST NOT list has something, and the JSON
/// Pointer of each listed identifier in it (values), or of the object whose member key
/// is the identifier (keys).
fn identifier_messages() -> Vec<IdentifierCase> {
    vec![
        (
            "initialize result",
            json!({"jsonrpc": "2.0", "id": "init-1", "result": {"protocolVersion": "2025-11-25",
                "capabilities": {"tools": {"listChanged": true},
                                 "extensions": {"io.modelcontextprotocol/ui": {}}},
                "serverInfo": {"name": "weather", "title": "Weather", "version": "1.0.0"}}}),
            vec![
                "/id",                     // opaque IDs
                "/result/protocolVersion", // protocol versions
                "/result/serverInfo/name", // every BaseMetadata.name
                "/result/serverInfo/version",
            ],
            vec![
                ("/result/capabilities", "tools"), // capability identifiers
                (
                    "/result/capabilities/extensions",
                    "io.modelcontextprotocol/ui",
                ), // extension identifiers
            ],
        ),
        (
            "tools/list result",
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "weather_current",
                "title": "Current weather", "annotations": {"title": "Weather"},
                "inputSchema": {"type": "object", "properties": {
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "title": "Unit"},
                    "speed": {"const": "fast"}}, "required": ["unit"]}}],
                "nextCursor": "cursor-2", "ttlMs": 300000, "cacheScope": "public"}}),
            vec![
                "/result/tools/0/name",
                "/result/tools/0/inputSchema/type", // type discriminators
                "/result/tools/0/inputSchema/properties/unit/enum/0", // enum values
                "/result/tools/0/inputSchema/properties/speed/const", // const values
                "/result/tools/0/inputSchema/required/0",
                "/result/nextCursor", // cursors
                "/result/cacheScope",
            ],
            vec![("/result/tools/0/inputSchema/properties", "unit")], // JSON Schema property keys
        ),
        (
            "tools/call request",
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "weather_current", "arguments": {"city": "Paris"},
                "_meta": {"io.modelcontextprotocol/acceptLanguage": "fr", "progressToken": "tok-9"}}}),
            vec![
                "/method",                     // MCP method names
                "/params/name",                // every params.name
                "/params/_meta/progressToken", // tokens
            ],
            vec![
                ("/params/arguments", "city"), // JSON property keys
                ("/params/_meta", "io.modelcontextprotocol/acceptLanguage"), // `_meta` keys
            ],
        ),
        (
            "resources/list result",
            json!({"jsonrpc": "2.0", "id": 3, "result": {
                "resources": [{"uri": "file:///notes.txt", "name": "notes", "title": "Notes",
                               "mimeType": "text/plain"}],
                "resourceTemplates": [{"uriTemplate": "file:///{path}", "name": "files",
                                       "title": "Files", "mimeType": "text/markdown"}]}}),
            vec![
                "/result/resources/0/uri",                 // URIs
                "/result/resourceTemplates/0/uriTemplate", // URI templates
                "/result/resources/0/mimeType",            // MIME types
                "/result/resourceTemplates/0/mimeType",
                "/result/resourceTemplates/0/name",
            ],
            vec![],
        ),
        (
            "prompts/get result",
            json!({"jsonrpc": "2.0", "id": 4, "result": {"messages": [
                {"role": "user", "content": {"type": "text", "text": "Hello"}}]}}),
            vec![
                "/result/messages/0/role",         // role discriminators
                "/result/messages/0/content/type", // type discriminators
            ],
            vec![],
        ),
        (
            "input-required result",
            json!({"jsonrpc": "2.0", "id": 5, "result": {"resultType": "input_required",
                "inputRequests": {"contact": {"method": "elicitation/create", "params": {
                    "mode": "form", "message": "Your e-mail?",
                    "requestedSchema": {"type": "object", "properties": {"email": {
                        "type": "string", "format": "email", "title": "E-mail"}}}}}},
                "requestState": "opaque-state-1"}}),
            vec![
                "/result/resultType",                        // result discriminators
                "/result/inputRequests/contact/method",      // method names
                "/result/inputRequests/contact/params/mode", // discriminators
                "/result/inputRequests/contact/params/requestedSchema/properties/email/format",
                "/result/requestState", // state values
            ],
            vec![
                ("/result/inputRequests", "contact"),
                (
                    "/result/inputRequests/contact/params/requestedSchema/properties",
                    "email",
                ),
            ],
        ),
        (
            "URL-mode elicitation request",
            json!({"jsonrpc": "2.0", "id": 6, "method": "elicitation/create", "params": {
                "mode": "url", "message": "Open this page to sign in",
                "url": "https://example.com/auth?state=xyz", "elicitationId": "e-1"}}),
            vec![
                "/method",
                "/params/mode",
                "/params/url",
                "/params/elicitationId",
            ],
            vec![],
        ),
        (
            "progress notification",
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
                "progressToken": "tok-9", "progress": 3, "total": 10, "message": "Downloading"}}),
            vec!["/method", "/params/progressToken", "/params/progress"],
            vec![],
        ),
        (
            "completion request",
            json!({"jsonrpc": "2.0", "id": 7, "method": "completion/complete", "params": {
                "ref": {"type": "ref/prompt", "name": "summarize", "title": "Summarize"},
                "argument": {"name": "text", "value": "he"}}}),
            vec![
                "/params/ref/type",
                "/params/ref/name",
                "/params/argument/name",
            ],
            vec![],
        ),
        (
            "error response",
            json!({"jsonrpc": "2.0", "id": 8, "error": {"code": -32602, "message": "Unknown city",
                "data": {"reason": "not_found"}}}),
            vec!["/error/code", "/error/data/reason"], // error codes
            vec![],
        ),
    ]
}

#[test]
fn every_kind_of_identifier_on_the_must_not_translate_list_is_left_alone_and_guarded() {
    for (what, message, values, keys) in identifier_messages() {
        let mut localized = message.clone();
        Localizer::new(&everything).localize(&mut localized);
        assert!(
            IdentifierGuard::new()
                .check(&message, &localized)
                .is_empty(),
            "{what}"
        );
        for pointer in &values {
            let original = message
                .pointer(pointer)
                .unwrap_or_else(|| panic!("{what}: {pointer}"));
            assert_eq!(
                localized.pointer(pointer),
                Some(original),
                "{what}: {pointer}"
            );
            // Translating it, or changing it in any way, is reported at its path.
            let mut translated = localized.clone();
            *translated.pointer_mut(pointer).unwrap() = match original {
                Value::String(s) => json!(format!("«{s}»")),
                Value::Number(n) => json!(n.as_i64().unwrap_or_default() + 1),
                _ => json!("translated"),
            };
            let diffs = IdentifierGuard::new().check(&message, &translated);
            assert!(
                diffs.iter().any(|d| d.path() == *pointer),
                "{what}: {pointer} not reported: {diffs:?}"
            );
        }
        for (parent, key) in &keys {
            let members = |m: &Value| {
                m.pointer(parent)
                    .and_then(Value::as_object)
                    .map(|o| o.keys().cloned().collect::<Vec<_>>())
            };
            assert_eq!(members(&localized), members(&message), "{what}: {parent}");
            // Renaming the key is reported, with the path of the old or the new key.
            let mut renamed = localized.clone();
            let object = renamed
                .pointer_mut(parent)
                .and_then(Value::as_object_mut)
                .unwrap();
            let value = object
                .remove(*key)
                .unwrap_or_else(|| panic!("{what}: {key}"));
            object.insert(format!("«{key}»"), value);
            let escaped = key.replace('~', "~0").replace('/', "~1");
            let diffs = IdentifierGuard::new().check(&message, &renamed);
            assert!(
                diffs
                    .iter()
                    .any(|d| d.path() == format!("{parent}/{escaped}")),
                "{what}: key {key} renamed, not reported: {diffs:?}"
            );
            assert!(
                diffs
                    .iter()
                    .any(|d| d.path() == format!("{parent}/«{escaped}»")),
                "{what}: new key not reported: {diffs:?}"
            );
        }
    }
}

#[test]
fn property_keys_remain_stable_while_property_title_and_description_are_localized() {
    let mut message = rich_messages().swap_remove(4);
    let original = message.clone();
    Localizer::new(&everything).localize(&mut message);
    let props = |m: &Value| {
        m.pointer("/result/inputRequests/contact/params/requestedSchema/properties")
            .and_then(Value::as_object)
            .map(|o| o.keys().cloned().collect::<Vec<_>>())
    };
    assert_eq!(props(&message), props(&original));
    let email = message
        .pointer("/result/inputRequests/contact/params/requestedSchema/properties/email")
        .unwrap();
    assert_eq!(
        (&email["type"], &email["format"]),
        (&json!("string"), &json!("email"))
    );
    // A renamed property key is reported.
    let mut renamed = message.clone();
    let props = renamed
        .pointer_mut("/result/inputRequests/contact/params/requestedSchema/properties")
        .unwrap();
    let email = props.as_object_mut().unwrap().remove("email").unwrap();
    props
        .as_object_mut()
        .unwrap()
        .insert("courriel".into(), email);
    let diffs = IdentifierGuard::new().check(&original, &renamed);
    assert!(
        diffs
            .iter()
            .any(|d| d.path().ends_with("/properties/email"))
    );
    assert!(
        diffs
            .iter()
            .any(|d| d.path().ends_with("/properties/courriel"))
    );
}

#[test]
fn may_fields_such_as_descriptions_and_error_message_are_left_alone_by_the_localizer() {
    for message in rich_messages() {
        let mut localized = message.clone();
        Localizer::new(&everything).localize(&mut localized);
        for pointer in [
            "/result/tools/0/description",
            "/result/serverInfo/description",
            "/error/message",
            "/result/prompts/0/description",
            "/result/tools/0/inputSchema/properties/unit/title",
        ] {
            assert_eq!(
                message.pointer(pointer),
                localized.pointer(pointer),
                "{pointer}"
            );
        }
    }
}

// ---------------------------------------------------------------- Explicit language selection

#[test]
fn an_explicit_language_argument_should_take_precedence_for_the_content_it_controls() {
    let n = negotiator();
    let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "get_official_document", "arguments": {"language": "ga"},
        "_meta": {"io.modelcontextprotocol/acceptLanguage": "en"}}});
    let lang = RequestLanguage::from_message(&call, &n);
    let explicit = call
        .pointer("/params/arguments/language")
        .and_then(Value::as_str);
    assert_eq!(lang.for_content(explicit), "ga");
    assert_eq!(
        lang.selected(),
        "en",
        "display text still follows the preference"
    );
}

#[test]
fn the_preference_may_provide_a_fallback_when_the_explicit_argument_is_absent() {
    let n = negotiator();
    let lang = RequestLanguage::negotiate(Some("de"), &n);
    assert_eq!(lang.for_content(None), "de");
}

// ---------------------------------------------------------------- Caching

fn tools_list(title: &str, scope: &str) -> Value {
    json!({"tools": [{"name": "weather_current", "title": title}], "ttlMs": 60000, "cacheScope": scope})
}

#[test]
fn a_cache_must_include_the_requests_accept_language_value_in_its_key() {
    let mut cache = ResponseCache::with_clock(ManualClock::new());
    let fr = CacheRequest::new("tools/list")
        .auth_context("a")
        .accept_language(Some("fr"));
    let de = CacheRequest::new("tools/list")
        .auth_context("a")
        .accept_language(Some("de"));
    let none = CacheRequest::new("tools/list").auth_context("a");
    cache.store(&fr, &tools_list("Météo", "private"));
    cache.store(&de, &tools_list("Wetter", "private"));
    assert_eq!(cache.get(&fr).unwrap()["tools"][0]["title"], "Météo");
    assert_eq!(cache.get(&de).unwrap()["tools"][0]["title"], "Wetter");
    assert_eq!(cache.get(&none), None);
}

#[test]
fn a_cached_response_must_not_be_served_for_a_different_preference_even_when_both_select_the_same_language()
 {
    let n = negotiator();
    let (p1, p2) = ("fr-CA", "fr-CA,fr;q=0.9");
    assert_eq!(
        RequestLanguage::negotiate(Some(p1), &n).selected(),
        RequestLanguage::negotiate(Some(p2), &n).selected()
    );
    let mut cache = ResponseCache::with_clock(ManualClock::new());
    cache.store(
        &CacheRequest::new("tools/list").accept_language(Some(p1)),
        &tools_list("Météo", "public"),
    );
    assert_eq!(
        cache.get(&CacheRequest::new("tools/list").accept_language(Some(p2))),
        None
    );
    // Not a different spelling of the same preference (D10: the raw string),
    // one that adds a wildcard, or none at all.
    for other in [Some("fr-ca"), Some("fr-CA,*;q=0.1"), None] {
        assert_eq!(
            cache.get(&CacheRequest::new("tools/list").accept_language(other)),
            None,
            "{other:?}"
        );
    }
    assert!(
        cache
            .get(&CacheRequest::new("tools/list").accept_language(Some(p1)))
            .is_some()
    );
}

#[test]
fn cache_scope_public_permits_sharing_across_authorization_contexts_but_not_across_language_variants()
 {
    let mut cache = ResponseCache::with_clock(ManualClock::new());
    let alice = CacheRequest::new("tools/list")
        .auth_context("alice")
        .accept_language(Some("ja"));
    assert_eq!(
        cache.store(&alice, &tools_list("現在の天気", "public")),
        Stored::Yes {
            scope: CacheScope::Public,
            ttl_ms: 60000
        }
    );
    let bob = CacheRequest::new("tools/list")
        .auth_context("bob")
        .accept_language(Some("ja"));
    assert!(cache.get(&bob).is_some());
    let bob_en = CacheRequest::new("tools/list")
        .auth_context("bob")
        .accept_language(Some("en"));
    assert_eq!(cache.get(&bob_en), None);
}

#[test]
fn cache_scope_private_is_served_only_within_one_authorization_context() {
    let mut cache = ResponseCache::with_clock(ManualClock::new());
    let alice = CacheRequest::new("tools/list")
        .auth_context("alice")
        .accept_language(Some("ja"));
    cache.store(&alice, &tools_list("現在の天気", "private"));
    assert!(cache.get(&alice).is_some());
    let bob = CacheRequest::new("tools/list")
        .auth_context("bob")
        .accept_language(Some("ja"));
    assert_eq!(cache.get(&bob), None);
    let anonymous = CacheRequest::new("tools/list").accept_language(Some("ja"));
    assert_eq!(cache.get(&anonymous), None);
    // No cacheScope at all is read as private.
    cache.store(&alice, &json!({"tools": [], "ttlMs": 1000}));
    assert_eq!(cache.get(&bob), None);
}

#[test]
fn existing_ttl_ms_freshness_is_unchanged() {
    let clock = ManualClock::new();
    let mut cache = ResponseCache::with_clock(clock.clone());
    let req = CacheRequest::new("resources/list").accept_language(Some("de"));
    cache.store(
        &req,
        &json!({"resources": [], "ttlMs": 5000, "cacheScope": "public"}),
    );
    clock.advance_ms(4999);
    assert!(cache.get(&req).is_some());
    clock.advance_ms(1);
    assert_eq!(cache.get(&req), None);
    assert_eq!(
        cache.store(&req, &json!({"resources": [], "ttlMs": 0})),
        Stored::NoTtl
    );
    assert_eq!(
        cache.store(&req, &json!({"resources": [], "ttlMs": -5})),
        Stored::NoTtl
    );
    assert_eq!(
        cache.store(
            &req,
            &json!({"resources": [], "ttlMs": 5, "cacheScope": "shared"})
        ),
        Stored::UnknownScope
    );
}

#[test]
fn the_cache_key_covers_method_and_params_but_not_params_meta() {
    let mut cache = ResponseCache::with_clock(ManualClock::new());
    let p1 = json!({"name": "weather_current", "arguments": {"city": "Paris"},
        "_meta": {"progressToken": "a", "io.modelcontextprotocol/acceptLanguage": "fr"}});
    let p2 = json!({"arguments": {"city": "Paris"}, "name": "weather_current", "_meta": {"progressToken": "b"}});
    let p3 = json!({"name": "weather_current", "arguments": {"city": "Lyon"}});
    let req = |p| {
        CacheRequest::new("tools/call")
            .params(p)
            .accept_language(Some("fr"))
    };
    cache.store(
        &req(&p1),
        &json!({"content": [], "ttlMs": 1000, "cacheScope": "public"}),
    );
    assert!(cache.get(&req(&p2)).is_some());
    assert_eq!(cache.get(&req(&p3)), None);
    assert_eq!(
        cache.get(
            &CacheRequest::new("prompts/get")
                .params(&p1)
                .accept_language(Some("fr"))
        ),
        None
    );
}

#[test]
fn the_cache_stays_bounded() {
    let clock = ManualClock::new();
    let mut cache = ResponseCache::with_clock(clock.clone()).with_capacity(4);
    for i in 0..20u64 {
        let pref = format!("x-{i}");
        let result = json!({"tools": [], "ttlMs": 1000 + i, "cacheScope": "public"});
        cache.store(
            &CacheRequest::new("tools/list").accept_language(Some(&pref)),
            &result,
        );
        assert!(cache.len() <= 4);
    }
    assert!(
        cache
            .get(&CacheRequest::new("tools/list").accept_language(Some("x-19")))
            .is_some()
    );
}

// ---------------------------------------------------------------- Security and Privacy (client)

#[test]
fn clients_should_send_only_the_detail_needed_for_the_interaction() {
    let user = ["fr-CA", "fr-FR", "en-GB", "de-DE", "es-419"];
    assert_eq!(
        PreferenceBuilder::new().languages(user).build().as_deref(),
        Some("fr-CA,fr-FR;q=0.9,en-GB;q=0.8")
    );
    assert_eq!(
        PreferenceBuilder::new()
            .languages(user)
            .max_ranges(2)
            .drop_region(true)
            .build()
            .as_deref(),
        Some("fr,en;q=0.9")
    );
    assert_eq!(
        PreferenceBuilder::new()
            .languages(["zh-Hant-TW", "sr-Latn-RS"])
            .drop_script(true)
            .build()
            .as_deref(),
        Some("zh-TW,sr-RS;q=0.9")
    );
    assert_eq!(
        PreferenceBuilder::new()
            .languages(["de-DE-1996", "en-US-u-ca-buddhist", "x-private"])
            .build()
            .as_deref(),
        Some("de-DE,en-US;q=0.9")
    );
    // Whatever the user's list holds, at most the configured number of
    // ranges, and no region, variant, extension or private use when dropped.
    let user = [
        "zh-Hant-TW",
        "en-US-u-ca-buddhist",
        "de-DE-1996",
        "fr-CA",
        "ja",
    ];
    let two = PreferenceBuilder::new()
        .languages(user)
        .max_ranges(2)
        .drop_region(true)
        .build()
        .unwrap();
    assert_eq!(two, "zh-Hant,en;q=0.9");
    assert!(AcceptLanguage::parse(&two).is_ok());
    let ten = PreferenceBuilder::new().languages(
        ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"].map(|l| format!("{l}{l}")),
    );
    let all = ten.max_ranges(usize::MAX).build().unwrap();
    assert_eq!(all.split(',').count(), PreferenceBuilder::MAX_RANGES);
    assert!(all.ends_with("jj;q=0.1"));
    assert!(AcceptLanguage::parse(&all).is_ok());
}

#[test]
fn clients_should_omit_the_preference_when_appropriate() {
    assert_eq!(
        PreferenceBuilder::new()
            .languages(["fr"])
            .max_ranges(0)
            .build(),
        None
    );
    assert_eq!(PreferenceBuilder::new().build(), None);
    assert_eq!(
        PreferenceBuilder::new()
            .languages(["", "C", "not a tag"])
            .build(),
        None
    );
}

#[test]
fn the_environment_is_read_like_gettext() {
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    let build = |vars| {
        PreferenceBuilder::new()
            .with_environment_from(env(vars))
            .build()
    };
    assert_eq!(build(&[("LANG", "fr_CA.UTF-8")]).as_deref(), Some("fr-CA"));
    assert_eq!(
        build(&[("LANG", "de_DE.UTF-8"), ("LC_MESSAGES", "ja_JP.UTF-8")]).as_deref(),
        Some("ja-JP")
    );
    assert_eq!(
        build(&[
            ("LANG", "de_DE"),
            ("LC_MESSAGES", "ja_JP"),
            ("LC_ALL", "ga_IE.UTF-8")
        ])
        .as_deref(),
        Some("ga-IE")
    );
    assert_eq!(
        build(&[("LANG", "en_US.UTF-8"), ("LANGUAGE", "fr_CA:fr:en")]).as_deref(),
        Some("fr-CA,fr;q=0.9,en;q=0.8")
    );
    assert_eq!(
        build(&[("LANG", "C.UTF-8"), ("LANGUAGE", "fr")]),
        None,
        "LANGUAGE is ignored in the C locale"
    );
    assert_eq!(build(&[("LC_ALL", "POSIX"), ("LANG", "fr_FR")]), None);
    assert_eq!(
        build(&[("LANGUAGE", "fr")]),
        None,
        "no locale set means the C locale"
    );
    assert_eq!(
        build(&[("LANG", "sr_RS@latin")]).as_deref(),
        Some("sr-Latn-RS")
    );
    assert_eq!(
        build(&[("LANG", "en_US"), ("LANGUAGE", "")]).as_deref(),
        Some("en-US")
    );
    assert_eq!(
        build(&[("LC_ALL", ""), ("LANG", "pt_BR")]).as_deref(),
        Some("pt-BR")
    );
    // Explicit languages come first; the environment is appended, deduplicated.
    let b = PreferenceBuilder::new()
        .language("en-US")
        .with_environment_from(env(&[("LANG", "en_US.UTF-8"), ("LANGUAGE", "en_US:de")]));
    assert_eq!(b.build().as_deref(), Some("en-US,de;q=0.9"));
}

// ---------------------------------------------------------------- Agreement before grammar

#[test]
fn agreement_is_evaluated_before_grammar_so_a_malformed_value_that_agrees_is_an_ignored_preference()
{
    use mcp_lang_agree::{Agreement, agree};

    let n = negotiator();
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr;q=2"}}}"#;
    let skim = mcp_lang_meta::skim_request(body).unwrap();
    // 1. Agreement: the header repeats the malformed value exactly, so there is no mismatch.
    assert_eq!(
        agree(skim.accept_language().as_meta_value(), [&b"fr;q=2"[..]]),
        Agreement::Agree
    );
    // 2. Grammar: the value is malformed, so it is ignored as absent (the default, no error).
    let lang = RequestLanguage::from_raw(skim.into_accept_language(), &n);
    assert_eq!(
        (lang.selected(), lang.reason(), lang.is_well_formed()),
        ("en", Reason::Malformed, false)
    );
    // A well-formed value that disagrees is a mismatch, whatever it would select.
    let body = br#"{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    let raw = mcp_lang_meta::extract_accept_language(body).unwrap();
    assert!(agree(raw.as_meta_value(), [&b"FR"[..]]).is_mismatch());
}

// ------------------------------------------------------- Writers and reader edges

#[test]
fn a_writer_never_generates_an_empty_list_element() {
    // RFC 9110 §5.6.1: a recipient accepts empty list elements (so these values parse),
    // but "a sender MUST NOT generate empty list elements".
    let mut response = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
    for (bad, offset) in [
        ("en,,fr", 3),
        (",en", 0),
        ("en,", 3),
        ("en, \t,fr", 3),
        ("en ,,fr", 4),
    ] {
        assert!(ContentLanguage::parse(bad).is_ok(), "{bad} parses");
        assert_eq!(
            write_content_language(&mut response, bad),
            Err(WriteError::EmptyListElement { offset }),
            "{bad}"
        );
    }
    assert_eq!(response, json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    let mut req = request(1, "tools/list", None);
    for (bad, offset) in [("fr,,en", 3), (",", 0), ("de;q=0.5,", 9), (" ,de", 0)] {
        let parsed = AcceptLanguage::parse(bad).is_ok();
        let answer = write_accept_language(&mut req, bad);
        if parsed {
            assert_eq!(
                answer,
                Err(WriteError::EmptyListElement { offset }),
                "{bad}"
            );
        } else {
            assert!(
                matches!(answer, Err(WriteError::InvalidLanguage(_))),
                "{bad}"
            );
        }
    }
    assert_eq!(
        req,
        request(1, "tools/list", None),
        "nothing written on error"
    );
    // No elements at all is not an empty element: the empty value is still writable.
    write_accept_language(&mut req, "").unwrap();
    write_content_language(&mut response, "de, en").unwrap();
}

#[test]
fn the_cache_keys_by_the_preference_in_params_meta_even_without_accept_language() {
    // SEP-2792 Caching: the key MUST include the request's acceptLanguage. A caller that
    // hands over the params (with `_meta`) but not `.accept_language(..)` must not get
    // one language's response for another.
    let mut cache = ResponseCache::with_clock(ManualClock::new());
    let params = |pref: Value| {
        json!({"cursor": "c1", "_meta": {"io.modelcontextprotocol/acceptLanguage": pref,
            "progressToken": 7}})
    };
    let (fr, de, num) = (params(json!("fr")), params(json!("de")), params(json!(5)));
    let none = json!({"cursor": "c1", "_meta": {"progressToken": 8}});
    cache.store(
        &CacheRequest::new("tools/list").params(&fr),
        &tools_list("Météo", "public"),
    );
    let get = |p: &Value| {
        cache
            .get(&CacheRequest::new("tools/list").params(p))
            .cloned()
    };
    assert_eq!(get(&fr).unwrap()["tools"][0]["title"], "Météo");
    assert_eq!(get(&de), None);
    assert_eq!(get(&num), None);
    assert_eq!(get(&none), None);
    // Other `_meta` keys (tokens) still do not split entries.
    let fr_other_token = json!({"cursor": "c1", "_meta": {
        "io.modelcontextprotocol/acceptLanguage": "fr", "progressToken": 99}});
    assert!(get(&fr_other_token).is_some());
}

#[test]
fn the_guard_allows_the_reported_language_to_be_added_by_localization() {
    // "a message before and after localization": writing contentLanguage is part of
    // localizing, and must not be reported as a changed identifier.
    let before = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        {"name": "weather_current", "title": "Current weather"}]}});
    let mut after = before.clone();
    after["result"]["tools"][0]["title"] = json!("Météo actuelle");
    write_content_language(&mut after, "fr").unwrap();
    assert_eq!(IdentifierGuard::new().check(&before, &after), []);
    assert_eq!(IdentifierGuard::new().check(&after, &before), []);

    let error =
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "Unknown tool"}});
    let mut localized = error.clone();
    write_content_language(&mut localized, "fr").unwrap();
    assert_eq!(IdentifierGuard::new().check(&error, &localized), []);

    // Anything else added beside it is still caught, with its path.
    let mut sneaky = after.clone();
    sneaky["result"]["_meta"]["progressToken"] = json!("t");
    let diffs = IdentifierGuard::new().check(&before, &sneaky);
    assert_eq!(diffs.len(), 1);
    assert_eq!(diffs[0].path(), "/result/_meta");
    let mut sneaky = localized.clone();
    sneaky["error"]["data"]["trace"] = json!(1);
    let diffs = IdentifierGuard::new().check(&error, &sneaky);
    assert_eq!(diffs[0].path(), "/error/data");
    // An empty `_meta` is not the reported language.
    let mut empty = before.clone();
    empty["result"]["_meta"] = json!({});
    assert_eq!(IdentifierGuard::new().check(&before, &empty).len(), 1);
}

/// Found by the proptest in CI: a display path (or the reported language) holding something
/// other than a string, left exactly as it was, is no difference; changing it is one.
#[test]
fn the_guard_ignores_an_unchanged_non_string_at_a_display_path() {
    let message = json!({"_meta": {"io.modelcontextprotocol/contentLanguage": null},
        "result": {"tools": [{"name": "t", "title": 7}]}});
    assert_eq!(IdentifierGuard::new().check(&message, &message.clone()), []);
    let mut changed = message.clone();
    changed["_meta"][CONTENT_LANGUAGE_KEY] = json!(false);
    changed["result"]["tools"][0]["title"] = json!("7");
    let paths: Vec<_> = IdentifierGuard::new()
        .check(&message, &changed)
        .iter()
        .map(|d| d.path().to_owned())
        .collect();
    assert_eq!(
        paths,
        [
            "/_meta/io.modelcontextprotocol~1contentLanguage",
            "/result/tools/0/title"
        ]
    );
}

/// "Messages produced while processing one request, such as an input-required
/// elicitation [...], use that request's selected language": the `contentLanguage` a server
/// reports inside the `_meta` of a nested input request is language, not identifier, so the
/// guard allows it to differ; the property key beside it stays guarded.
#[test]
fn guard_allows_content_language_reported_in_nested_input_request_meta() {
    let variant = |lang: &str, message: &str, key: &str| {
        json!({"jsonrpc": "2.0", "id": 2, "result": {
            "resultType": "input_required",
            "inputRequests": {"contact": {"method": "elicitation/create", "params": {
                "message": message,
                "requestedSchema": {"type": "object", "properties": {key: {"type": "string"}}},
                "_meta": {"io.modelcontextprotocol/contentLanguage": lang}}}},
            "_meta": {"io.modelcontextprotocol/contentLanguage": lang}}})
    };
    let en = variant("en", "Please enter your e-mail address.", "email");
    let de = variant("de", "Bitte geben Sie Ihre E-Mail-Adresse ein.", "email");
    assert!(IdentifierGuard::new().check(&en, &de).is_empty());

    let renamed = variant("de", "Bitte geben Sie Ihre E-Mail-Adresse ein.", "e-mail");
    let diffs = IdentifierGuard::new().check(&en, &renamed);
    assert!(!diffs.is_empty());
    assert!(diffs.iter().all(|d| d.path().contains("/properties/")));
}
