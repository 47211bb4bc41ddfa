//! Message alterations: what a fault changes in the JSON-RPC messages the
//! server sends after its handler produced them, on any transport (the stdio
//! transport, and the event streams of Streamable HTTP).

use mcp_lang_meta::CONTENT_LANGUAGE_KEY;
use serde_json::Value;

use crate::Fault;
use crate::handler::rename_properties;

/// Whether `fault` alters messages on their way out.
pub(super) fn alters_messages(fault: Fault) -> bool {
    matches!(
        fault,
        Fault::OmitNotificationLanguage | Fault::TranslateElicitationKey
    )
}

/// Applies `fault` to one outgoing message; `default` is the server's
/// default language. Returns whether the message changed.
pub(super) fn alter(fault: Fault, default: &str, message: &mut Value) -> bool {
    let is_notification = message.get("method").is_some() && message.get("id").is_none();
    let is_request = message.get("method").is_some() && message.get("id").is_some();
    match fault {
        Fault::OmitNotificationLanguage if is_notification => message
            .pointer_mut("/params/_meta")
            .and_then(Value::as_object_mut)
            .and_then(|meta| meta.remove(CONTENT_LANGUAGE_KEY))
            .is_some(),
        // The elicitation of protocols before 2026-07-28: a server-to-client
        // request, whose keys the fault translates as it does those of an
        // `input_required` result.
        Fault::TranslateElicitationKey
            if is_request
                && message.get("method").and_then(Value::as_str) == Some("elicitation/create") =>
        {
            let language = message
                .pointer("/params/_meta")
                .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
                .and_then(Value::as_str)
                .map(str::to_owned);
            match (language, message.pointer_mut("/params/requestedSchema")) {
                (Some(language), Some(schema)) if language != default => {
                    rename_properties(schema, &language);
                    true
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Applies `fault` to every `data:` line of an event-stream chunk that holds
/// a JSON-RPC message; other lines pass unchanged.
pub(super) fn alter_event_stream(fault: Fault, default: &str, chunk: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(chunk).ok()?;
    let mut changed = false;
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let data = line
            .strip_prefix("data:")
            .map(|d| d.trim_end_matches(['\r', '\n']).trim_start());
        let mut message = data.and_then(|d| serde_json::from_str::<Value>(d).ok());
        if let Some(m) = message.as_mut()
            && alter(fault, default, m)
        {
            changed = true;
            out.push_str("data: ");
            out.push_str(&m.to_string());
            out.push('\n');
        } else {
            out.push_str(line);
        }
    }
    changed.then(|| out.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notifications_lose_their_language_and_requests_keep_theirs() {
        let chunk = b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/contentLanguage\":\"fr\"}}}\n\n";
        let out = alter_event_stream(Fault::OmitNotificationLanguage, "en", chunk).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("event: message\ndata: {"), "{out}");
        assert!(!out.contains("contentLanguage"), "{out}");
        assert!(out.ends_with("\n\n"), "{out:?}");
        let response = br#"data: {"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}"#;
        assert!(alter_event_stream(Fault::OmitNotificationLanguage, "en", response).is_none());
    }

    #[test]
    fn elicitation_keys_are_renamed_only_in_another_language() {
        let mut request = serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "elicitation/create",
            "params": {"message": "E-mail?", "_meta": {"io.modelcontextprotocol/contentLanguage": "de"},
                "requestedSchema": {"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]}}});
        let mut english = request.clone();
        english["params"]["_meta"][CONTENT_LANGUAGE_KEY] = "en".into();
        assert!(!alter(Fault::TranslateElicitationKey, "en", &mut english));
        assert!(alter(Fault::TranslateElicitationKey, "en", &mut request));
        assert_eq!(
            request["params"]["requestedSchema"]["required"][0],
            "email_de"
        );
    }
}
