//! Latitudes: the reference server made to take a liberty the SEP gives,
//! so that the self-test can prove the suite passes a server that takes it.
//!
//! Each [`Latitude`] changes what the server does in a way the SEP allows (a
//! MAY, a SHOULD it may decline, or a choice RFC 4647 leaves open); the suite
//! must still report zero failures against it.

use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use std::str::FromStr;

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::{basic, lookup::lookup};
use mcp_lang_rmcp::server::result_meta_mut;
use rmcp::{
    ErrorData, RoleServer,
    model::{CallToolRequestParams, ServerResult},
    service::RequestContext,
};
use serde_json::Value;

use crate::handler::{AlteredServer, edit_json, reported, set_preference};
use crate::{FaultLayer, UnknownName};

macro_rules! latitudes {
    ($( $variant:ident = $name:literal, $layer:ident, $what:literal, $sep:literal; )*) => {
        /// One liberty the SEP gives a server. Each variant's name is its
        /// `--latitude` spelling.
        ///
        /// ```
        /// use mcp_lang_faults::Latitude;
        ///
        /// let latitude: Latitude = "translate-descriptions".parse().unwrap();
        /// assert_eq!(latitude, Latitude::TranslateDescriptions);
        /// assert_eq!(latitude.to_string(), "translate-descriptions");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Latitude {
            $( #[doc = concat!("The server ", $what, ".")] $variant, )*
        }

        impl Latitude {
            /// Every latitude, in table order.
            ///
            /// ```
            /// use mcp_lang_faults::Latitude;
            ///
            /// for latitude in Latitude::ALL {
            ///     assert_eq!(latitude.name().parse::<Latitude>(), Ok(*latitude));
            /// }
            /// ```
            pub const ALL: &'static [Latitude] = &[ $( Latitude::$variant, )* ];

            /// The `--latitude` name.
            ///
            /// ```
            /// use mcp_lang_faults::Latitude;
            ///
            /// assert_eq!(Latitude::UntranslatedErrors.name(), "untranslated-errors");
            /// ```
            pub fn name(self) -> &'static str {
                match self { $( Latitude::$variant => $name, )* }
            }

            /// Where it acts (handler latitudes act on every transport).
            ///
            /// ```
            /// use mcp_lang_faults::{FaultLayer, Latitude};
            ///
            /// assert_eq!(Latitude::StreamContentLanguage.layer(), FaultLayer::Http);
            /// ```
            pub fn layer(self) -> FaultLayer {
                match self { $( Latitude::$variant => FaultLayer::$layer, )* }
            }

            /// What the server does, in one line.
            ///
            /// ```
            /// use mcp_lang_faults::Latitude;
            ///
            /// assert!(Latitude::OtherEqualChoice.description().contains("equally"));
            /// ```
            pub fn description(self) -> &'static str {
                match self { $( Latitude::$variant => $what, )* }
            }

            /// The SEP (or RFC) text that allows it, verbatim.
            ///
            /// ```
            /// use mcp_lang_faults::Latitude;
            ///
            /// assert!(Latitude::TranslateDescriptions.allowed_by().contains("MAY translate"));
            /// ```
            pub fn allowed_by(self) -> &'static str {
                match self { $( Latitude::$variant => $sep, )* }
            }
        }
    };
}

latitudes! {
    TranslateDescriptions = "translate-descriptions", Handler,
        "translates descriptions (tools, prompts, prompt arguments, resources, templates, the implementation) and tool, prompt and resource content, and reports the language of that content",
        "A server MAY translate other natural-language, model-facing, or returned content, but this is not expected in ordinary circumstances. … This category includes general description fields such as Tool.description, Resource.description, ResourceTemplate.description, Prompt.description, PromptArgument.description, and Implementation.description, as well as tool, prompt, and resource content.";
    OmitUnrequestedLanguage = "omit-unrequested-language", Handler,
        "reports no contentLanguage on answers to requests that carried no preference",
        "A server that ignores acceptLanguage MAY omit contentLanguage. Omission does not identify any language.";
    OtherEqualChoice = "other-equal-choice", Handler,
        "picks the last of several equally acceptable supported languages (`fr` gets `fr-CA`, `*` the last supported language) where the reference picks the first or the closest",
        "RFC 4647 §3.3: the result of filtering is a set; which of several tags of equal quality to use is the application's choice.";
    UntranslatedErrors = "untranslated-errors", Handler,
        "answers errors in its default language whatever the preference, and reports that language",
        "A server MAY translate Error.message when it is intended for user display. Error.code remains stable.";
    WildcardLookup = "wildcard-lookup", Handler,
        "matches by RFC 4647 lookup (§3.4): ranges by weight, each truncated until a supported tag equals it, `*` skipped when other ranges follow it and giving the default when none does",
        "The server can use lookup or filtering as appropriate to its representation.";
    StreamContentLanguage = "stream-content-language", Http,
        "sends Content-Language on an event stream when every message on it carries the same contentLanguage",
        "A server MAY omit Content-Language on text/event-stream, unless one value accurately describes every applicable message on that stream. If it does send one, every contentLanguage carried by a message on that stream MUST agree with it.";
    ExplicitWithoutFallback = "explicit-without-fallback", Handler,
        "answers a call of its explicit-language tool without the `language` argument in its default language, whatever the preference",
        "The preference still localizes discovery before the tool is selected and MAY provide a fallback when the explicit argument is absent.";
    SeveralContentLanguages = "several-content-languages", Handler,
        "reports two languages on every result in a language other than its default: the selected one and the default, the language its untranslated descriptions are in (`fr, en`)",
        "The value MUST follow Content-Language syntax and meaning in RFC 9110 §8.5: one or more BCP 47 language tags describing the natural language of the intended audience.";
    TranslateSchemaLabels = "translate-schema-labels", Handler,
        "translates the titles and descriptions inside tool input and output schemas (never their property keys, enum or const values), and gives each language's tool list its own ttlMs",
        "A server MAY translate other natural-language, model-facing, or returned content, but this is not expected in ordinary circumstances. … Language-dependent responses remain cacheable. Existing ttlMs and cacheScope freshness and sharing semantics are unchanged.";
    RejectMissingHeader = "reject-missing-header", Http,
        "refuses a request whose _meta preference comes without Accept-Language (HTTP 400, -32600 Invalid Request)",
        "The server MAY tolerate a missing or stripped Accept-Language header and use the canonical _meta value.";
    HandshakeOnly = "handshake-only", Handler,
        "speaks only the protocol versions with the `initialize` handshake (2025-11-25 and before), as a server on the TypeScript SDK 1.x does: on stdio `server/discover` is answered -32601 \"Method not found\"; on Streamable HTTP a request (other than `initialize`) whose MCP-Protocol-Version it does not support is answered HTTP 400 with a -32000 error naming the versions it supports",
        "SEP-2792 applies to every protocol version that carries `_meta`; MCP lets client and server settle on a version both support (the client offers, the server answers with one it supports or an error naming them).";
}

impl FromStr for Latitude {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Latitude::ALL
            .iter()
            .copied()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownName {
                name: s.to_owned(),
                kind: "latitude",
                known: Latitude::ALL
                    .iter()
                    .map(|l| l.name())
                    .collect::<Vec<_>>()
                    .join(" "),
            })
    }
}

impl std::fmt::Display for Latitude {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Marks `text` as translated into `language`: the content a server taking
/// [`Latitude::TranslateDescriptions`] serves.
fn translated(text: &str, language: &str) -> String {
    format!("[{language}] {text}")
}

/// Translates every `description` under `value` (but not inside input or
/// output schemas, which stay as the tool declares them) and every content
/// `text`.
fn translate_texts(value: &mut Value, language: &str, in_schema: bool) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match (key.as_str(), &mut *v) {
                    ("_meta", _) => {}
                    ("description" | "text", Value::String(s)) if !in_schema => {
                        *s = translated(s, language);
                    }
                    ("inputSchema" | "outputSchema" | "requestedSchema", _) => {
                        translate_texts(v, language, true);
                    }
                    _ => translate_texts(v, language, in_schema),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| translate_texts(v, language, in_schema)),
        _ => {}
    }
}

/// Translates every `title` and `description` inside a JSON Schema (those
/// of properties, of `oneOf`/`anyOf` alternatives, of nested schemas) and
/// every `enumNames` entry, and nothing else: property keys, `required`,
/// `enum` and `const` values stay as declared.
fn translate_schema_labels(schema: &mut Value, language: &str) {
    match schema {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match (key.as_str(), &mut *v) {
                    ("title" | "description", Value::String(s)) => *s = translated(s, language),
                    ("enumNames", Value::Array(names)) => {
                        for name in names.iter_mut() {
                            if let Value::String(s) = name {
                                *s = translated(s, language);
                            }
                        }
                    }
                    // Values, not schemas: left as they are.
                    ("enum" | "const" | "default" | "examples" | "required", _) => {}
                    // Each member of `properties` is a schema, whatever its key
                    // (a property may be named `title`).
                    (
                        "properties" | "patternProperties" | "$defs" | "definitions",
                        Value::Object(members),
                    ) => {
                        for member in members.values_mut() {
                            translate_schema_labels(member, language);
                        }
                    }
                    _ => translate_schema_labels(v, language),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| translate_schema_labels(v, language)),
        _ => {}
    }
}

/// Applies `edit` to the JSON form of the results that carry display text.
fn edit_result(result: &mut ServerResult, edit: impl FnOnce(&mut Value)) {
    match result {
        ServerResult::InitializeResult(r) => edit_json(r, edit),
        ServerResult::DiscoverResult(r) => edit_json(r, edit),
        ServerResult::ListToolsResult(r) => edit_json(r, edit),
        ServerResult::ListPromptsResult(r) => edit_json(r, edit),
        ServerResult::ListResourcesResult(r) => edit_json(r, edit),
        ServerResult::ListResourceTemplatesResult(r) => edit_json(r, edit),
        ServerResult::GetPromptResult(r) => edit_json(r, edit),
        ServerResult::ReadResourceResult(r) => edit_json(r, edit),
        ServerResult::CallToolResult(r) => edit_json(r, edit),
        _ => {}
    }
}

impl AlteredServer {
    /// A latitude's change to the request, before the real handler runs.
    pub(super) fn latitude_before(
        &self,
        latitude: Latitude,
        call: Option<&mut CallToolRequestParams>,
        context: &mut RequestContext<RoleServer>,
    ) {
        if latitude == Latitude::ExplicitWithoutFallback {
            // Without the argument, the edition is the default's: the
            // preference is no fallback.
            if let Some(call) = call
                && call.name == "get_official_document"
            {
                let default = self.reference().languages().default_tag().to_owned();
                let arguments = call.arguments.get_or_insert_with(Default::default);
                if !arguments.contains_key("language") {
                    arguments.insert("language".into(), Value::String(default));
                }
            }
            return;
        }
        if !matches!(
            latitude,
            Latitude::OtherEqualChoice | Latitude::WildcardLookup
        ) {
            return;
        }
        let Some(raw) = context
            .meta
            .get(ACCEPT_LANGUAGE_KEY)
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return;
        };
        let Ok(header) = AcceptLanguage::parse(&raw) else {
            return;
        };
        let supported: Vec<&str> = self.reference().languages().supported().collect();
        if latitude == Latitude::WildcardLookup {
            // The tag lookup finds, or no preference: the default.
            let found = lookup(&header, &supported, None);
            set_preference(context, found.map(|t| Value::String(t.to_owned())));
            return;
        }
        let accepted = basic::filter(&header, &supported);
        let Some(best) = accepted.first().map(basic::Filtered::quality) else {
            return;
        };
        let equal: Vec<&str> = accepted
            .iter()
            .take_while(|f| f.quality() == best)
            .map(basic::Filtered::tag)
            .collect();
        if equal.len() > 1
            && let Some(last) = equal.last()
        {
            set_preference(context, Some(Value::String((*last).to_owned())));
        }
    }

    /// A latitude's change to the real handler's answer.
    pub(super) fn latitude_after(
        &self,
        latitude: Latitude,
        preference: Option<&str>,
        explicit_language: bool,
        answer: &mut Result<ServerResult, ErrorData>,
    ) {
        match latitude {
            Latitude::SeveralContentLanguages => {
                let Ok(result) = answer else {
                    return;
                };
                let default = self.reference().languages().default_tag().to_owned();
                if let Some(language) = reported(result)
                    && !language.eq_ignore_ascii_case(&default)
                    && let Some(Some(meta)) = result_meta_mut(result)
                {
                    meta.insert(
                        CONTENT_LANGUAGE_KEY.to_owned(),
                        Value::String(format!("{language}, {default}")),
                    );
                }
            }
            Latitude::TranslateSchemaLabels => {
                let Ok(ServerResult::ListToolsResult(list)) = answer else {
                    return;
                };
                let selected = self
                    .reference()
                    .languages()
                    .negotiate_raw(preference)
                    .selected()
                    .to_owned();
                if selected == self.reference().languages().default_tag() {
                    return;
                }
                edit_json(list, |json| {
                    for tool in json
                        .get_mut("tools")
                        .and_then(Value::as_array_mut)
                        .into_iter()
                        .flatten()
                    {
                        for key in ["inputSchema", "outputSchema"] {
                            if let Some(schema) = tool.get_mut(key) {
                                translate_schema_labels(schema, &selected);
                            }
                        }
                    }
                });
                // Each language's list is cached for its own time.
                list.ttl_ms = list.ttl_ms.map(|ttl| ttl / 2 + 1);
            }
            Latitude::OmitUnrequestedLanguage if preference.is_none() => match answer {
                Ok(result) => {
                    if let Some(meta) = result_meta_mut(result) {
                        if let Some(m) = meta.as_mut() {
                            m.remove(CONTENT_LANGUAGE_KEY);
                        }
                        if meta.as_ref().is_some_and(|m| m.is_empty()) {
                            *meta = None;
                        }
                    }
                }
                Err(error) => {
                    if let Some(Value::Object(data)) = error.data.as_mut()
                        && let Some(Value::Object(meta)) = data.get_mut("_meta")
                    {
                        meta.remove(CONTENT_LANGUAGE_KEY);
                    }
                }
            },
            // Content an explicit `language` argument chose stays as chosen.
            Latitude::TranslateDescriptions if !explicit_language => {
                let Ok(result) = answer else {
                    return;
                };
                // The language the request selected: what the display text
                // (titles) is in. Content that was in another language is now
                // in this one, and reported so.
                let selected = self
                    .reference()
                    .languages()
                    .negotiate_raw(preference)
                    .selected()
                    .to_owned();
                if selected == self.reference().languages().default_tag() {
                    return;
                }
                let mut translated_any = false;
                edit_result(result, |json| {
                    let before = json.clone();
                    translate_texts(json, &selected, false);
                    translated_any = *json != before;
                });
                if translated_any
                    && reported(result).is_some()
                    && let Some(Some(meta)) = result_meta_mut(result)
                {
                    meta.insert(CONTENT_LANGUAGE_KEY.to_owned(), Value::String(selected));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_labels_are_translated_but_not_keys_or_values() {
        let mut schema = serde_json::json!({
            "type": "object",
            "title": "Input",
            "properties": {
                "title": { "type": "string", "description": "The title" },
                "size": { "type": "string", "enum": ["s", "m"], "enumNames": ["Small", "Medium"], "default": "s" },
                "unit": { "oneOf": [{ "const": "c", "title": "Celsius" }] }
            },
            "required": ["title"]
        });
        translate_schema_labels(&mut schema, "de");
        assert_eq!(schema["title"], "[de] Input");
        assert_eq!(
            schema["properties"]["title"]["description"],
            "[de] The title"
        );
        assert_eq!(schema["properties"]["title"]["type"], "string");
        assert_eq!(
            schema["properties"]["size"]["enum"],
            serde_json::json!(["s", "m"])
        );
        assert_eq!(schema["properties"]["size"]["enumNames"][1], "[de] Medium");
        assert_eq!(schema["properties"]["size"]["default"], "s");
        assert_eq!(schema["properties"]["unit"]["oneOf"][0]["const"], "c");
        assert_eq!(
            schema["properties"]["unit"]["oneOf"][0]["title"],
            "[de] Celsius"
        );
        assert_eq!(schema["required"], serde_json::json!(["title"]));
        // The property keys are still the keys.
        let mut keys: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["size", "title", "unit"]);
    }

    #[test]
    fn descriptions_and_content_are_translated_but_not_schemas_or_meta() {
        let mut value = serde_json::json!({
            "tools": [{ "name": "a", "description": "Shows", "inputSchema": {
                "type": "object", "properties": { "city": { "description": "City" } } } }],
            "content": [{ "type": "text", "text": "Sunny" }],
            "_meta": { "description": "kept" }
        });
        translate_texts(&mut value, "fr", false);
        assert_eq!(value["tools"][0]["description"], "[fr] Shows");
        assert_eq!(
            value["tools"][0]["inputSchema"]["properties"]["city"]["description"],
            "City"
        );
        assert_eq!(value["content"][0]["text"], "[fr] Sunny");
        assert_eq!(value["_meta"]["description"], "kept");
    }
}
