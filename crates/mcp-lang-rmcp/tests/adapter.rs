//! The adapter's rules on rmcp's own types, without a transport.

use mcp_lang_rmcp::client::{PreferenceError, check_preference, content_language};
use mcp_lang_rmcp::mcp_lang_meta::{self, RawPreference};
use mcp_lang_rmcp::server::{
    ServerLanguages, form_elicitation, input_required, localized_error, stamp, stamp_result,
};
use mcp_lang_rmcp::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use rmcp::model::{
    CallToolResult, EmptyResult, ErrorCode, ListPromptsResult, ListToolsResult, ServerResult,
};
use serde_json::{Value, json};

fn languages() -> ServerLanguages {
    ServerLanguages::new(["en", "fr", "fr-CA", "de", "ja", "ga"], "en").unwrap()
}

#[test]
fn weights_wildcard_and_fallback() {
    let l = languages();
    // (raw, selected, well-formed)
    let cases = [
        (Some("fr-CA,fr;q=0.9,en;q=0.5"), "fr-CA", true),
        (Some("de;q=0.5, ja"), "ja", true),
        (Some("*"), "en", true),
        (Some("*;q=0.1, ga"), "ga", true),
        (Some("en;q=0, *"), "fr", true),
        (Some("tlh"), "en", true),
        (Some("fr;q=1.5"), "en", false),
        (Some(""), "en", true),
        (None, "en", true),
    ];
    for (raw, tag, well_formed) in cases {
        let language = l.negotiate_raw(raw);
        assert_eq!(language.selected(), tag, "{raw:?}");
        assert_eq!(language.is_well_formed(), well_formed, "{raw:?}");
        assert_eq!(language.raw(), raw);
        // One negotiation path: the same as mcp-lang-meta's own.
        let negotiator = mcp_lang_match::Negotiator::new(l.supported(), l.default_tag()).unwrap();
        assert_eq!(
            language,
            mcp_lang_meta::RequestLanguage::negotiate(raw, &negotiator)
        );
    }
    assert_eq!(
        l.negotiate_raw(None).raw_preference(),
        &RawPreference::Absent
    );
}

#[test]
fn a_non_string_meta_value_is_absent() {
    let l = languages();
    for value in [json!(5), json!(null), json!(["de"]), json!({"de": 1})] {
        let meta = json!({ACCEPT_LANGUAGE_KEY: value});
        let language = l.negotiate_meta(meta.as_object());
        assert_eq!(language.selected(), "en");
        assert_eq!(language.raw_preference(), &RawPreference::NotString);
        assert_eq!(language.raw(), None);
        // Present but not a string is malformed (mcp-lang-meta's reading).
        assert_eq!(language.reason(), mcp_lang_match::Reason::Malformed);
    }
    assert_eq!(
        l.negotiate_meta(None).raw_preference(),
        &RawPreference::Absent
    );
}

#[test]
fn configuration_errors_are_typed() {
    assert!(ServerLanguages::new(Vec::<&str>::new(), "en").is_err());
    assert!(ServerLanguages::new(["en", "not a tag"], "en").is_err());
    assert!(ServerLanguages::new(["en"], "de").is_err());
}

#[test]
fn stamp_result_reaches_every_result_with_a_meta_slot_and_keeps_a_handler_choice() {
    let mut list = ServerResult::ListToolsResult(ListToolsResult::default());
    assert!(stamp_result(&mut list, "de"));
    assert_eq!(content_language(&list), Some("de"));
    // A handler that reported another language (an explicit argument) wins.
    let mut call = CallToolResult::success(vec![]);
    stamp(&mut call.meta, "ga");
    let mut call = ServerResult::CallToolResult(call);
    assert!(stamp_result(&mut call, "de"));
    assert_eq!(content_language(&call), Some("ga"));
    // Other `_meta` keys survive.
    let prompts = ListPromptsResult {
        meta: Some(serde_json::from_value(json!({"x-trace": "1"})).unwrap()),
        ..Default::default()
    };
    let mut prompts = ServerResult::ListPromptsResult(prompts);
    stamp_result(&mut prompts, "ja");
    let wire = serde_json::to_value(&prompts).unwrap();
    assert_eq!(wire["_meta"]["x-trace"], "1");
    assert_eq!(wire["_meta"][CONTENT_LANGUAGE_KEY], "ja");
    // `EmptyResult` has no slot.
    assert!(!stamp_result(
        &mut ServerResult::EmptyResult(EmptyResult {}),
        "de"
    ));
}

#[test]
fn localized_errors_keep_their_code_and_data() {
    let mut data = serde_json::Map::new();
    data.insert("uri".into(), json!("mcp-lang://x"));
    data.insert("_meta".into(), json!({"x-trace": "1"}));
    let error = localized_error(ErrorCode::INVALID_PARAMS, "Ungültig", "de", Some(data));
    let wire = serde_json::to_value(&error).unwrap();
    assert_eq!(wire["code"], -32602);
    assert_eq!(wire["data"]["uri"], "mcp-lang://x");
    assert_eq!(wire["data"]["_meta"]["x-trace"], "1");
    assert_eq!(wire["data"]["_meta"][CONTENT_LANGUAGE_KEY], "de");
    // A `_meta` member that is not an object is replaced by one (the SEP
    // requires an object where `contentLanguage` is carried).
    let mut data = serde_json::Map::new();
    data.insert("_meta".into(), json!(7));
    let wire = serde_json::to_value(localized_error(
        ErrorCode::INTERNAL_ERROR,
        "x",
        "ja",
        Some(data),
    ))
    .unwrap();
    assert_eq!(wire["data"]["_meta"][CONTENT_LANGUAGE_KEY], "ja");
}

#[test]
fn elicitation_keeps_keys_and_reports_the_language() {
    let schema = json!({
        "type": "object",
        "properties": {"email": {"type": "string", "format": "email", "title": "Adresse courriel", "description": "Adresse pour la confirmation"}},
        "required": ["email"]
    });
    let params =
        form_elicitation("Veuillez entrer votre adresse courriel.", schema, "fr-CA").unwrap();
    let result = input_required("contact", params, None, "fr-CA");
    let wire = serde_json::to_value(&result).unwrap();
    assert_eq!(wire["resultType"], "input_required");
    assert_eq!(wire["_meta"][CONTENT_LANGUAGE_KEY], "fr-CA");
    let params: &Value = &wire["inputRequests"]["contact"]["params"];
    assert_eq!(
        wire["inputRequests"]["contact"]["method"],
        "elicitation/create"
    );
    assert_eq!(
        params["requestedSchema"]["properties"]["email"]["format"],
        "email"
    );
    assert_eq!(params["requestedSchema"]["required"], json!(["email"]));
    // Not an object of primitive properties: refused, not sent.
    assert!(form_elicitation("x", json!({"type": "array"}), "en").is_err());
}

#[test]
fn client_refuses_what_http_cannot_carry() {
    assert_eq!(check_preference("de-CH, de;q=0.9"), Ok(()));
    assert_eq!(
        check_preference("de\t"),
        Err(PreferenceError::NotFieldValue { offset: 2 })
    );
    assert_eq!(
        check_preference("dé"),
        Err(PreferenceError::NotFieldValue { offset: 1 })
    );
    assert!(matches!(
        check_preference("de;q=0.1234"),
        Err(PreferenceError::Malformed { .. })
    ));
}

/// What negotiating `raw` afresh gives, without the outcomes `ServerLanguages` keeps.
fn fresh(l: &ServerLanguages, raw: Option<&str>) -> mcp_lang_meta::RequestLanguage {
    let negotiator = mcp_lang_match::Negotiator::new(l.supported(), l.default_tag()).unwrap();
    mcp_lang_meta::RequestLanguage::negotiate(raw, &negotiator)
}

#[test]
fn kept_outcomes_are_what_each_request_s_own_preference_gives() {
    let l = languages();
    let long = format!("{}fr", "x-aaaaaaa;q=0.1, ".repeat(20)); // over 256 bytes: never kept
    let mut preferences: Vec<Option<String>> = (0..20)
        .map(|i| {
            Some(format!(
                "{}, en;q=0.{}",
                ["fr", "de", "ja", "ga"][i % 4],
                i % 9 + 1
            ))
        })
        .collect();
    preferences.extend([None, Some(long), Some("fr;q=2".into()), Some(String::new())]);
    // More distinct strings than are kept, in rounds, each request after others.
    for round in 0..3 {
        for (i, raw) in preferences.iter().enumerate() {
            let raw = raw.as_deref();
            assert_eq!(l.negotiate_raw(raw), fresh(&l, raw), "round {round}, #{i}");
            let meta = raw.map(|raw| json!({ ACCEPT_LANGUAGE_KEY: raw }));
            let meta = meta.as_ref().and_then(Value::as_object);
            assert_eq!(
                l.negotiate_meta(meta),
                fresh(&l, raw),
                "round {round}, #{i}"
            );
        }
    }
}

#[test]
fn requests_on_many_threads_each_get_their_own_outcome() {
    let l = std::sync::Arc::new(languages());
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let l = std::sync::Arc::clone(&l);
            std::thread::spawn(move || {
                for i in 0..500 {
                    let raw = ["ja, fr;q=0.5", "de", "ga-IE", "fr-CA", "tlh, *;q=0.1"][(i + t) % 5];
                    assert_eq!(l.negotiate_raw(Some(raw)), fresh(&l, Some(raw)));
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
}

proptest::proptest! {
    /// Any sequence of preferences, repeated or not, well-formed or not: each request's
    /// outcome is a fresh negotiation of its own string.
    #[test]
    fn any_sequence_of_preferences_gets_fresh_outcomes(
        raws in proptest::collection::vec(
            proptest::option::of("(fr|de|ja|en|ga|\\*|x)(-[A-Z]{2})?(;q=[01](\\.[0-9])?)?(, ?(fr|de|ja|\\*)(;q=0\\.[0-9])?){0,3}"),
            0..40,
        )
    ) {
        let l = languages();
        for raw in &raws {
            proptest::prop_assert_eq!(l.negotiate_raw(raw.as_deref()), fresh(&l, raw.as_deref()));
        }
    }
}
