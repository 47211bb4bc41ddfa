//! What `identifiers.guard` compares: exactly the identifier positions the
//! SEP names, and nothing else.
//!
//! "A server MUST NOT translate a machine-interpreted identifier or token."
//! The SEP lists them: MCP method names; every `name` (`BaseMetadata.name`,
//! `params.name`); URIs and URI templates; MIME types; JSON and JSON Schema
//! property keys; `enum` and `const` values; type, result, role and other
//! discriminators; capability and extension identifiers; protocol versions;
//! error codes; `_meta` keys; opaque IDs, cursors, state values and tokens.
//! [`differences`] compares two variants of one message (the same request
//! answered under two preferences) at those positions:
//!
//! - members whose value is an identifier: `method`, `name`, `uri`, `url`,
//!   `uriTemplate`, `mimeType`, `type`, `resultType`, `role`, `action`,
//!   `mode`, `code`, `protocolVersion`, `nextCursor`, `cursor`,
//!   `progressToken`, `requestId`, `taskId`, `elicitationId`, `id`; the whole
//!   of `capabilities`;
//! - the member keys of every object (JSON property keys): a member present
//!   in one variant only is a difference, except a natural-language member
//!   (`title`, `description`, `message`, `text`, `enumNames`), a caching
//!   field whose presence `cache.ttl-scope` judges (`ttlMs`, `cacheScope`),
//!   and the reported `contentLanguage` (with a `_meta`, or an `error.data`,
//!   that holds nothing else);
//! - `_meta` keys (their values are compared only at the positions above),
//!   and the keys of `inputRequests` (opaque IDs);
//! - in a JSON Schema (`inputSchema`, `outputSchema`, `requestedSchema`):
//!   property keys (`properties`, `patternProperties`, `$defs`,
//!   `definitions`), `required`, `enum`, `const`, `type`, `format`, `$ref`,
//!   and a `default` that is an `enum` value, through nested schemas.
//!
//! Everything else may differ by language: the display fields the SEP says
//! to translate, the natural-language fields it lets a server translate
//! (descriptions, content, `Error.message`, and the `title`, `description`
//! and enum display names of schema properties), numbers such as `ttlMs` or
//! a progress count, and the reported language itself. A list of named items
//! (tools, prompts, resources, templates) is compared item by item by name
//! or URI, so a server that sorts by translated title does not differ.

use serde_json::{Map, Value};

use mcp_lang_meta::CONTENT_LANGUAGE_KEY;

/// Members whose value is an identifier, compared exactly.
const IDENTIFIER_MEMBERS: &[&str] = &[
    "method",
    "name",
    "uri",
    "url",
    "uriTemplate",
    "mimeType",
    "type",
    "resultType",
    "role",
    "action",
    "mode",
    "code",
    "protocolVersion",
    "nextCursor",
    "cursor",
    "progressToken",
    "requestId",
    "taskId",
    "elicitationId",
    "id",
    "capabilities",
];

/// Natural-language members: their value, and whether they are there, may
/// differ by language.
const NATURAL_MEMBERS: &[&str] = &["title", "description", "message", "text", "enumNames"];

/// Caching fields: `cache.ttl-scope` judges their presence; values may differ.
const CACHING_MEMBERS: &[&str] = &["ttlMs", "cacheScope"];

/// Members holding a JSON Schema.
const SCHEMA_MEMBERS: &[&str] = &["inputSchema", "outputSchema", "requestedSchema"];

/// Returned data, whose keys and values are the tool's: not compared.
const DATA_MEMBERS: &[&str] = &["structuredContent"];

/// Schema keywords whose keys are property keys.
const SCHEMA_KEYED: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Schema keywords whose values are identifiers.
const SCHEMA_IDENTIFIERS: &[&str] = &["required", "enum", "const", "type", "format", "$ref"];

/// Schema keywords holding one schema.
const SCHEMA_ONE: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
];

/// Schema keywords holding a list of schemas.
const SCHEMA_MANY: &[&str] = &["oneOf", "anyOf", "allOf", "prefixItems"];

/// The differences between two variants of one message at the identifier
/// positions, each as `pointer: what`; empty when they agree.
pub(crate) fn differences(first: &Value, second: &Value) -> Vec<String> {
    let mut walk = Walk { out: Vec::new() };
    walk.message(first, second, &mut String::new());
    walk.out
}

struct Walk {
    out: Vec<String>,
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(80).collect::<String>())
    } else {
        text
    }
}

/// Whether a member present in one variant only may be: a natural-language
/// or caching member, or the reported language (alone in a `_meta`, or in an
/// `error.data` holding only that `_meta`).
fn may_be_alone(key: &str, value: &Value) -> bool {
    if NATURAL_MEMBERS.contains(&key)
        || CACHING_MEMBERS.contains(&key)
        || key == CONTENT_LANGUAGE_KEY
    {
        return true;
    }
    let only_report = |meta: &Value| {
        meta.as_object()
            .is_some_and(|m| m.keys().all(|k| k == CONTENT_LANGUAGE_KEY))
    };
    match key {
        "_meta" => only_report(value),
        "data" => value
            .as_object()
            .is_some_and(|d| d.iter().all(|(k, v)| k == "_meta" && only_report(v))),
        _ => false,
    }
}

impl Walk {
    fn differ(&mut self, path: &str, what: String) {
        let path = if path.is_empty() { "/" } else { path };
        self.out.push(format!("{path}: {what}"));
    }

    fn exact(&mut self, a: &Value, b: &Value, path: &str) {
        if a != b {
            self.differ(path, format!("{} became {}", shown(a), shown(b)));
        }
    }

    /// Members present in one variant only, unless [`may_be_alone`].
    fn presence(
        &mut self,
        a: &Map<String, Value>,
        b: &Map<String, Value>,
        path: &str,
        keys_alone: bool,
    ) {
        for (key, value) in a {
            if !(b.contains_key(key) || keys_alone && may_be_alone(key, value)) {
                self.differ(
                    &format!("{path}/{}", escape(key)),
                    "only under the first language".into(),
                );
            }
        }
        for (key, value) in b {
            if !(a.contains_key(key) || keys_alone && may_be_alone(key, value)) {
                self.differ(
                    &format!("{path}/{}", escape(key)),
                    "only under the second language".into(),
                );
            }
        }
    }

    /// A part of an MCP message.
    fn message(&mut self, a: &Value, b: &Value, path: &mut String) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                self.presence(x, y, path, true);
                for (key, va) in x {
                    let Some(vb) = y.get(key) else { continue };
                    let len = path.len();
                    path.push('/');
                    path.push_str(&escape(key));
                    let key = key.as_str();
                    if NATURAL_MEMBERS.contains(&key)
                        || CACHING_MEMBERS.contains(&key)
                        || DATA_MEMBERS.contains(&key)
                        || key == CONTENT_LANGUAGE_KEY
                    {
                        // May differ by language.
                    } else if IDENTIFIER_MEMBERS.contains(&key) {
                        self.exact(va, vb, path);
                    } else if SCHEMA_MEMBERS.contains(&key) {
                        self.schema(va, vb, path);
                    } else {
                        self.message(va, vb, path);
                    }
                    path.truncate(len);
                }
            }
            (Value::Array(x), Value::Array(y)) => self.items(x, y, path),
            // A value at a position that is not an identifier may differ;
            // a change of shape (an object for a string) is still a change of
            // structure.
            (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => {
                self.differ(path, format!("{} became {}", shown(a), shown(b)));
            }
            _ => {}
        }
    }

    /// The items of a list: by name (or URI, URI template) when every item
    /// has one, else by position.
    fn items(&mut self, x: &[Value], y: &[Value], path: &mut String) {
        for key in ["name", "uri", "uriTemplate"] {
            let named = |items: &[Value]| -> Option<Vec<(String, usize)>> {
                let mut keys = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let k = item.get(key)?.as_str()?.to_owned();
                    if keys.iter().any(|(seen, _)| *seen == k) {
                        return None;
                    }
                    keys.push((k, i));
                }
                Some(keys)
            };
            if x.is_empty() && y.is_empty() {
                return;
            }
            let (Some(kx), Some(ky)) = (named(x), named(y)) else {
                continue;
            };
            for (k, i) in &kx {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                match ky.iter().find(|(other, _)| other == k) {
                    Some((_, j)) => self.message(&x[*i], &y[*j], path),
                    None => self.differ(
                        path,
                        format!("the item {key} {k:?} is only under the first language"),
                    ),
                }
                path.truncate(len);
            }
            for (k, j) in &ky {
                if !kx.iter().any(|(other, _)| other == k) {
                    self.differ(
                        &format!("{path}/{j}"),
                        format!("the item {key} {k:?} is only under the second language"),
                    );
                }
            }
            return;
        }
        for i in 0..x.len().max(y.len()) {
            let len = path.len();
            path.push('/');
            path.push_str(&i.to_string());
            match (x.get(i), y.get(i)) {
                (Some(a), Some(b)) => self.message(a, b, path),
                (Some(_), None) => self.differ(path, "only under the first language".into()),
                (None, _) => self.differ(path, "only under the second language".into()),
            }
            path.truncate(len);
        }
    }

    /// A JSON Schema.
    fn schema(&mut self, a: &Value, b: &Value, path: &mut String) {
        let (Value::Object(x), Value::Object(y)) = (a, b) else {
            // A boolean schema, or not a schema: compared whole.
            if a.is_object() || b.is_object() || a != b {
                self.exact(a, b, path);
            }
            return;
        };
        for keyword in SCHEMA_IDENTIFIERS {
            let (va, vb) = (x.get(*keyword), y.get(*keyword));
            if va != vb {
                let at = format!("{path}/{}", escape(keyword));
                match (va, vb) {
                    (Some(va), Some(vb)) => self.exact(va, vb, &at),
                    (Some(_), None) => self.differ(&at, "only under the first language".into()),
                    _ => self.differ(&at, "only under the second language".into()),
                }
            }
        }
        if x.contains_key("enum") || y.contains_key("enum") {
            let (va, vb) = (x.get("default"), y.get("default"));
            if va != vb {
                self.differ(
                    &format!("{path}/default"),
                    format!(
                        "the default enum value {} became {}",
                        va.map_or("nothing".into(), shown),
                        vb.map_or("nothing".into(), shown)
                    ),
                );
            }
        }
        for keyword in SCHEMA_KEYED {
            let len = path.len();
            path.push('/');
            path.push_str(&escape(keyword));
            match (x.get(*keyword), y.get(*keyword)) {
                (Some(Value::Object(px)), Some(Value::Object(py))) => {
                    self.presence(px, py, path, false);
                    for (key, sa) in px {
                        if let Some(sb) = py.get(key) {
                            let len = path.len();
                            path.push('/');
                            path.push_str(&escape(key));
                            self.schema(sa, sb, path);
                            path.truncate(len);
                        }
                    }
                }
                (None, None) => {}
                (va, vb) => {
                    self.exact(va.unwrap_or(&Value::Null), vb.unwrap_or(&Value::Null), path)
                }
            }
            path.truncate(len);
        }
        for keyword in SCHEMA_ONE {
            if let (Some(sa), Some(sb)) = (x.get(*keyword), y.get(*keyword)) {
                let len = path.len();
                path.push('/');
                path.push_str(&escape(keyword));
                self.schema(sa, sb, path);
                path.truncate(len);
            }
        }
        for keyword in SCHEMA_MANY {
            let len = path.len();
            path.push('/');
            path.push_str(&escape(keyword));
            match (x.get(*keyword), y.get(*keyword)) {
                (Some(Value::Array(la)), Some(Value::Array(lb))) => {
                    for i in 0..la.len().max(lb.len()) {
                        let len = path.len();
                        path.push('/');
                        path.push_str(&i.to_string());
                        match (la.get(i), lb.get(i)) {
                            (Some(sa), Some(sb)) => self.schema(sa, sb, path),
                            (Some(_), None) => {
                                self.differ(path, "only under the first language".into())
                            }
                            (None, _) => self.differ(path, "only under the second language".into()),
                        }
                        path.truncate(len);
                    }
                }
                (None, None) => {}
                (va, vb) => {
                    self.exact(va.unwrap_or(&Value::Null), vb.unwrap_or(&Value::Null), path)
                }
            }
            path.truncate(len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tools(tools: Value) -> Value {
        json!({ "jsonrpc": "2.0", "result": { "tools": tools, "ttlMs": 60000, "cacheScope": "public" } })
    }

    fn weather(property: Value) -> Value {
        json!({
            "name": "weather_current", "title": "Current weather", "description": "Now",
            "inputSchema": { "type": "object", "properties": { "city": property }, "required": ["city"] },
            "annotations": { "readOnlyHint": true, "title": "Weather" }
        })
    }

    #[test]
    fn natural_language_fields_of_schemas_may_differ() {
        let en = tools(json!([weather(json!({
            "type": "string", "title": "City", "description": "A city",
            "enum": ["paris", "rome"], "enumNames": ["Paris", "Rome"]
        }))]));
        let fr = tools(json!([weather(json!({
            "type": "string", "title": "Ville", "description": "Une ville",
            "enum": ["paris", "rome"], "enumNames": ["Paris", "Rome (fr)"]
        }))]));
        assert!(
            differences(&en, &fr).is_empty(),
            "{:?}",
            differences(&en, &fr)
        );
        let one_of = |title: &str| {
            tools(json!([weather(json!({ "oneOf": [
                { "const": "paris", "title": title }, { "const": "rome", "title": "Rome" }
            ] }))]))
        };
        assert!(differences(&one_of("Paris"), &one_of("Paris (fr)")).is_empty());
    }

    #[test]
    fn identifiers_of_schemas_may_not() {
        let base = json!({ "type": "string", "enum": ["paris", "rome"], "default": "paris" });
        let en = tools(json!([weather(base.clone())]));
        for (changed, at) in [
            (
                json!({ "type": "string", "enum": ["parigi", "rome"], "default": "paris" }),
                "/enum",
            ),
            (
                json!({ "type": "integer", "enum": ["paris", "rome"], "default": "paris" }),
                "/type",
            ),
            (
                json!({ "type": "string", "enum": ["paris", "rome"], "default": "rome" }),
                "/default",
            ),
            (
                json!({ "type": "string", "enum": ["paris", "rome"], "default": "paris", "const": "x" }),
                "/const",
            ),
        ] {
            let diffs = differences(&en, &tools(json!([weather(changed.clone())])));
            assert!(
                diffs.len() == 1
                    && diffs[0]
                        .starts_with(&format!("/result/tools/0/inputSchema/properties/city{at}")),
                "{changed}: {diffs:?}"
            );
        }
        // A property key, and `required` with it.
        let mut renamed = weather(base);
        renamed["inputSchema"] = json!({ "type": "object", "properties": { "ville": { "type": "string" } }, "required": ["ville"] });
        let diffs = differences(&en, &tools(json!([renamed])));
        assert!(
            diffs
                .iter()
                .any(|d| d.starts_with("/result/tools/0/inputSchema/required")),
            "{diffs:?}"
        );
        assert!(
            diffs.iter().any(|d| d
                .starts_with("/result/tools/0/inputSchema/properties/city: only under the first")),
            "{diffs:?}"
        );
    }

    #[test]
    fn names_are_matched_not_positions() {
        let a = json!({ "name": "a", "title": "Alpha" });
        let b = json!({ "name": "b", "title": "Beta" });
        assert!(
            differences(
                &tools(json!([a.clone(), b.clone()])),
                &tools(json!([b.clone(), a.clone()]))
            )
            .is_empty()
        );
        let renamed = json!({ "name": "b_fr", "title": "Bêta" });
        let diffs = differences(&tools(json!([a.clone(), b])), &tools(json!([a, renamed])));
        assert_eq!(diffs.len(), 2, "{diffs:?}");
        assert!(
            diffs[0].contains("\"b\" is only under the first"),
            "{diffs:?}"
        );
    }

    #[test]
    fn caching_fields_and_the_report_may_differ_other_members_may_not() {
        let en = json!({ "result": { "tools": [], "ttlMs": 60000, "cacheScope": "public" } });
        let fr = json!({ "result": { "tools": [], "ttlMs": 30000,
            "_meta": { "io.modelcontextprotocol/contentLanguage": "fr, en" } } });
        assert!(
            differences(&en, &fr).is_empty(),
            "{:?}",
            differences(&en, &fr)
        );
        let mut extra = fr.clone();
        extra["result"]["_meta"]["trace"] = json!("t-1");
        assert_eq!(
            differences(&en, &extra),
            ["/result/_meta: only under the second language"]
        );
        let mut cursor = fr;
        cursor["result"]["nextCursor"] = json!("page-2");
        assert_eq!(
            differences(&en, &cursor),
            ["/result/nextCursor: only under the second language"]
        );
    }

    #[test]
    fn errors_notifications_and_elicitations() {
        let en = json!({ "error": { "code": -32602, "message": "Unknown tool" } });
        let fr = json!({ "error": { "code": -32602, "message": "Outil inconnu",
            "data": { "_meta": { "io.modelcontextprotocol/contentLanguage": "fr" } } } });
        assert!(differences(&en, &fr).is_empty());
        let mut code = fr;
        code["error"]["code"] = json!(-32600);
        assert_eq!(
            differences(&en, &code),
            ["/error/code: -32602 became -32600"]
        );

        let progress = |message: &str, step: u32| {
            json!({ "method": "notifications/progress",
            "params": { "progress": step, "message": message,
                "_meta": { "io.modelcontextprotocol/contentLanguage": "en" } } })
        };
        assert!(differences(&progress("Collecting", 1), &progress("Sammeln", 2)).is_empty());

        let elicitation = |key: &str, label: &str| {
            json!({ "result": { "resultType": "input_required",
            "inputRequests": { "contact": { "method": "elicitation/create", "params": {
                "message": label, "requestedSchema": { "type": "object",
                    "properties": { key: { "type": "string", "format": "email", "title": label } },
                    "required": [key] } } } } } })
        };
        assert!(
            differences(
                &elicitation("email", "E-mail"),
                &elicitation("email", "Courriel")
            )
            .is_empty()
        );
        let diffs = differences(
            &elicitation("email", "E-mail"),
            &elicitation("courriel", "Courriel"),
        );
        assert!(
            diffs.iter().any(|d| d.contains("requestedSchema/required")),
            "{diffs:?}"
        );
    }

    #[test]
    fn a_change_of_shape_is_a_difference() {
        let en = json!({ "result": { "tools": [] } });
        let xx = json!({ "result": { "tools": "none" } });
        assert_eq!(differences(&en, &xx).len(), 1);
    }
}
