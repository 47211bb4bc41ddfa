//! Properties that hold for any message.

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_meta::{
    DisplayField, IdentifierGuard, Localizer, PreferenceBuilder, accept_language_from_value,
    content_language_from_value, display_fields, extract_accept_language, extract_content_language,
    skim_request,
};
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Keys drawn mostly from the MCP vocabulary, so that generated messages hit the
/// localizer's and the skim's paths often.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "jsonrpc", "id", "method", "params", "result", "error", "data", "_meta", "name", "title",
            "description", "message", "tools", "annotations", "resources", "resourceTemplates",
            "prompts", "arguments", "serverInfo", "clientInfo", "inputRequests", "requestedSchema",
            "properties", "ref", "type", "uri", "uriTemplate", "progressToken", "code",
            "io.modelcontextprotocol/acceptLanguage", "io.modelcontextprotocol/contentLanguage",
        ])
        .prop_map(str::to_owned),
        1 => "[a-z_/~]{0,6}",
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        prop::sample::select(vec![
            "elicitation/create",
            "notifications/progress",
            "completion/complete",
            "initialize",
            "ref/prompt",
            "fr-CA",
            "en",
            "de;q=0.5",
            "",
        ])
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

/// A catalog that translates everything it is offered.
fn everything(_: &DisplayField, s: &str) -> Option<String> {
    Some(format!("[{s}]"))
}

proptest! {
    // About one generated message in five has no non-display leaf to change and is
    // rejected by the guard property; allow for that at any PROPTEST_CASES.
    #![proptest_config(ProptestConfig { max_global_rejects: 1 << 20, ..ProptestConfig::with_cases(512) })]

    #[test]
    fn the_localizer_never_changes_anything_the_guard_protects(message in json()) {
        let mut localized = message.clone();
        let n = Localizer::new(&everything).localize(&mut localized);
        prop_assert_eq!(n, display_fields(&message).len());
        let diffs = IdentifierGuard::new().check(&message, &localized);
        prop_assert!(diffs.is_empty(), "{:?}", diffs);
        prop_assert_eq!(display_fields(&localized).len(), n);
    }

    #[test]
    fn the_guard_reports_any_change_outside_display_fields(message in json(), pick in any::<prop::sample::Index>()) {
        // Collect every scalar leaf that is not a display field, change one, expect a report.
        let display: Vec<String> = display_fields(&message).into_iter().map(|l| l.pointer().to_owned()).collect();
        let mut leaves = Vec::new();
        collect_leaves(&message, String::new(), &mut leaves);
        leaves.retain(|p| !display.contains(p) && !p.ends_with("contentLanguage"));
        prop_assume!(!leaves.is_empty());
        let pointer = pick.get(&leaves).clone();
        let mut changed = message.clone();
        *changed.pointer_mut(&pointer).unwrap() = Value::from("~changed~");
        prop_assume!(changed != message);
        // Changing a leaf can change which fields are display fields (a `method`, a `type`);
        // either way the guard must report something.
        let diffs = IdentifierGuard::new().check(&message, &changed);
        prop_assert!(!diffs.is_empty(), "change at {} not reported", pointer);
    }

    #[test]
    fn raw_extraction_agrees_with_the_value_path(message in json(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&message) } else { serde_json::to_string(&message) }.unwrap();
        let raw = extract_accept_language(text.as_bytes()).unwrap();
        prop_assert_eq!(raw, accept_language_from_value(&message));
        let raw = extract_content_language(text.as_bytes()).unwrap();
        prop_assert_eq!(raw, content_language_from_value(&message));
        let skim = skim_request(text.as_bytes()).unwrap();
        // Compare with the text parsed back (floats need not survive a round trip).
        let reparsed: Value = serde_json::from_str(&text).unwrap();
        match reparsed.get("id") {
            Some(id) => prop_assert_eq!(serde_json::from_str::<Value>(skim.id().unwrap()).unwrap(), id.clone()),
            None => prop_assert_eq!(skim.id(), None),
        }
        prop_assert_eq!(skim.method(), message.get("method").and_then(Value::as_str));
    }

    #[test]
    fn raw_extraction_never_panics_and_agrees_when_serde_json_accepts(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let raw = extract_accept_language(&bytes);
        if let Ok(value) = serde_json::from_slice::<Value>(&bytes) {
            prop_assert_eq!(raw.unwrap(), accept_language_from_value(&value));
        }
    }

    #[test]
    fn raw_extraction_agrees_on_mangled_messages(message in json(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = serde_json::to_vec(&message).unwrap();
        let at = cut.index(bytes.len() + 1);
        bytes.insert(at, byte);
        let raw = extract_accept_language(&bytes);
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(value) => prop_assert_eq!(raw.unwrap(), accept_language_from_value(&value)),
            // Valid JSON whose number does not fit an f64 (`1E400`) is the one thing only
            // the skim accepts: it never converts numbers.
            Err(e) if e.to_string().starts_with("number out of range") => {}
            Err(e) => prop_assert!(raw.is_err(), "serde_json: {}", e),
        }
    }

    #[test]
    fn built_preferences_are_well_formed_and_bounded(
        languages in prop::collection::vec("[a-zA-Z]{1,9}([-_][a-zA-Z0-9]{1,9}){0,4}(\\.UTF-8)?(@latin)?", 0..14),
        max in 0usize..12,
        drop_region in any::<bool>(),
        drop_script in any::<bool>(),
    ) {
        let builder = PreferenceBuilder::new().languages(&languages).max_ranges(max).drop_region(drop_region).drop_script(drop_script);
        if let Some(value) = builder.build() {
            let parsed = AcceptLanguage::parse(&value);
            prop_assert!(parsed.is_ok(), "{} is malformed", value);
            let parsed = parsed.unwrap();
            prop_assert!(parsed.len() <= max.min(PreferenceBuilder::MAX_RANGES));
            let qs: Vec<u16> = parsed.iter().map(|r| r.quality.get()).collect();
            prop_assert!(qs.windows(2).all(|w| w[0] > w[1]), "{:?}", qs);
            prop_assert!(qs.iter().all(|&q| q > 0));
        }
    }
}

fn collect_leaves(value: &Value, path: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                collect_leaves(
                    v,
                    format!("{path}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                collect_leaves(v, format!("{path}/{i}"), out);
            }
        }
        _ => out.push(path),
    }
}
