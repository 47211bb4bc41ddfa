//! The tool calls the scenarios make: only calls that can happen, and only
//! safe ones.
//!
//! - **Which tool.** The tool the profile names for a [`ToolRole`] is called
//!   whatever its annotations say (naming it is the user's consent). A tool
//!   the suite chose itself (the reference server's name, or one recognized
//!   by its shape) is called only when `annotations.readOnlyHint` is `true`.
//! - **Which arguments.** The profile's, or else built from the tool's
//!   `inputSchema` by [`arguments_for`]: a value for each required property,
//!   of its declared type, honouring `const`, `default`, `enum`, `examples`,
//!   bounds and known formats. A schema it cannot satisfy (a `pattern`, an
//!   unknown format, a shape it does not know) means the call is not made.
//! - **A refused call.** A call answered with a JSON-RPC error, or with an
//!   `isError` result, before the behaviour under test happened shows
//!   nothing about the preference: the scenario skips, quoting the server's
//!   error ([`refusal`]), and says which profile key to give.
//!
//! When a scenario has no tool it may call, it skips saying what to pass.

use serde_json::{Map, Value, json};

use crate::profile::ToolRole;
use crate::scenario::{Ctx, Outcome, Step};
use crate::wire::{Call, Exchange};

/// How deep [`arguments_for`] follows nested schemas and `$ref`s.
const MAX_DEPTH: usize = 16;

/// The longest string or array [`arguments_for`] builds.
const MAX_LENGTH: u64 = 4096;

/// Arguments for a tool whose input schema is `schema`: a value for each of
/// its required properties (leaving out the properties named in `except`),
/// or why none can be built.
pub(crate) fn arguments_for(schema: &Value, except: &[&str]) -> Result<Map<String, Value>, String> {
    let builder = Builder { root: schema };
    let schema = builder.resolve(schema, 0)?;
    match schema.get("type") {
        None => {}
        Some(t) if t == "object" => {}
        Some(other) => {
            return Err(format!(
                "the input schema's type is {other}, not \"object\""
            ));
        }
    }
    builder.object(schema, except, 0)
}

struct Builder<'s> {
    root: &'s Value,
}

impl<'s> Builder<'s> {
    /// Follows a local `$ref` (`#/…`, a JSON Pointer into the root schema).
    fn resolve(&self, schema: &'s Value, depth: usize) -> Result<&'s Value, String> {
        let mut schema = schema;
        for _ in depth..MAX_DEPTH {
            let Some(reference) = schema.get("$ref") else {
                return Ok(schema);
            };
            let pointer = reference
                .as_str()
                .and_then(|r| r.strip_prefix('#'))
                .ok_or_else(|| format!("a $ref it cannot follow: {reference}"))?;
            schema = self
                .root
                .pointer(pointer)
                .ok_or_else(|| format!("a $ref to nothing: {reference}"))?;
        }
        Err("$refs nested too deep".into())
    }

    /// The required members of an object schema.
    fn object(
        &self,
        schema: &Value,
        except: &[&str],
        depth: usize,
    ) -> Result<Map<String, Value>, String> {
        let mut out = Map::new();
        let required = match schema.get("required") {
            None => return Ok(out),
            Some(Value::Array(keys)) => keys,
            Some(other) => return Err(format!("`required` is not an array: {other}")),
        };
        for key in required {
            let key = key
                .as_str()
                .ok_or_else(|| format!("`required` holds a non-string: {key}"))?;
            if except.contains(&key) {
                continue;
            }
            let property = schema
                .get("properties")
                .and_then(|p| p.get(key))
                .ok_or_else(|| {
                    format!(
                        "the required property {key_q} has no schema",
                        key_q = crate::quote::q(&key)
                    )
                })?;
            let value = self
                .value(property, depth + 1)
                .map_err(|why| format!("property {key_q}: {why}", key_q = crate::quote::q(&key)))?;
            out.insert(key.to_owned(), value);
        }
        Ok(out)
    }

    /// A value `schema` accepts.
    fn value(&self, schema: &Value, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err("nested too deep".into());
        }
        let schema = self.resolve(schema, depth)?;
        match schema {
            Value::Bool(true) => return Ok(json!("example")),
            Value::Object(_) => {}
            other => return Err(format!("a schema it does not know: {other}")),
        }
        if let Some(value) = schema.get("const") {
            return Ok(value.clone());
        }
        if let Some(value) = schema.get("default") {
            return Ok(value.clone());
        }
        if let Some(first) = schema
            .get("enum")
            .and_then(Value::as_array)
            .and_then(|e| e.first())
        {
            return Ok(first.clone());
        }
        if let Some(first) = schema
            .get("examples")
            .and_then(Value::as_array)
            .and_then(|e| e.first())
        {
            return Ok(first.clone());
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(choices) = schema.get(key).and_then(Value::as_array) {
                let mut why = Vec::new();
                for choice in choices {
                    match self.value(choice, depth + 1) {
                        Ok(value) => return Ok(value),
                        Err(e) => why.push(e),
                    }
                }
                return Err(format!(
                    "no alternative of {key} can be built ({})",
                    why.join("; ")
                ));
            }
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            return match all.as_slice() {
                [only] => self.value(only, depth + 1),
                _ => Err("an allOf of several schemas".into()),
            };
        }
        let kind = match schema.get("type") {
            Some(Value::String(t)) => t.as_str(),
            // A list of types: the first that is not null (null when only null).
            Some(Value::Array(types)) => types
                .iter()
                .filter_map(Value::as_str)
                .find(|t| *t != "null")
                .or_else(|| types.iter().filter_map(Value::as_str).next())
                .ok_or("an empty list of types")?,
            Some(other) => return Err(format!("a type it does not know: {other}")),
            None => return Err("no type, const, default, enum or examples".into()),
        };
        match kind {
            "string" => string(schema),
            "integer" => number(schema, true),
            "number" => number(schema, false),
            "boolean" => Ok(json!(false)),
            "null" => Ok(Value::Null),
            "object" => self.object(schema, &[], depth).map(Value::Object),
            "array" => {
                let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
                if min == 0 {
                    return Ok(json!([]));
                }
                if min > MAX_LENGTH {
                    return Err(format!("minItems {min}"));
                }
                if min > 1 && schema.get("uniqueItems") == Some(&json!(true)) {
                    return Err(format!("{min} unique items"));
                }
                let items = schema.get("items").ok_or("an array without `items`")?;
                let item = self.value(items, depth + 1)?;
                Ok(Value::Array(vec![item; min as usize]))
            }
            other => Err(format!(
                "a type it does not know: {other_q}",
                other_q = crate::quote::q(&other)
            )),
        }
    }
}

/// A string of `schema`'s length bounds and format; `Err` for a pattern or
/// a format it does not know.
fn string(schema: &Value) -> Result<Value, String> {
    if let Some(pattern) = schema.get("pattern") {
        return Err(format!("a string matching the pattern {pattern}"));
    }
    let base = match schema.get("format").and_then(Value::as_str) {
        None => "example",
        Some("email") => "conformance@example.org",
        Some("uri" | "url" | "iri") => "https://example.org/",
        Some("date") => "2026-01-01",
        Some("date-time") => "2026-01-01T00:00:00Z",
        Some("time") => "00:00:00Z",
        Some("uuid") => "00000000-0000-4000-8000-000000000000",
        Some(other) => {
            return Err(format!(
                "a string of format {other_q}",
                other_q = crate::quote::q(&other)
            ));
        }
    };
    let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    let max = schema
        .get("maxLength")
        .and_then(Value::as_u64)
        .unwrap_or(u64::MAX);
    if min > max || min > MAX_LENGTH {
        return Err(format!("a string of {min} to {max} characters"));
    }
    let len = base.chars().count() as u64;
    if (min..=max).contains(&len) {
        return Ok(json!(base));
    }
    if schema.get("format").is_some() {
        return Err(format!(
            "a {base_q}-like string of {min} to {max} characters",
            base_q = crate::quote::q(&base)
        ));
    }
    Ok(json!("x".repeat(min.max(len.min(max)) as usize)))
}

/// A number within `schema`'s bounds (1 when they allow it), an integer when
/// `integer`.
fn number(schema: &Value, integer: bool) -> Result<Value, String> {
    let get = |key: &str| schema.get(key).and_then(Value::as_f64);
    // Draft 4 spells exclusive bounds as booleans beside minimum/maximum.
    let (mut low, mut low_open) = (get("minimum"), false);
    let (mut high, mut high_open) = (get("maximum"), false);
    match schema.get("exclusiveMinimum") {
        Some(Value::Bool(open)) => low_open = *open,
        Some(bound) => {
            if let Some(e) = bound.as_f64().filter(|e| low.is_none_or(|l| *e >= l)) {
                (low, low_open) = (Some(e), true);
            }
        }
        None => {}
    }
    match schema.get("exclusiveMaximum") {
        Some(Value::Bool(open)) => high_open = *open,
        Some(bound) => {
            if let Some(e) = bound.as_f64().filter(|e| high.is_none_or(|h| *e <= h)) {
                (high, high_open) = (Some(e), true);
            }
        }
        None => {}
    }
    let above = |v: f64| low.is_none_or(|l| if low_open { v > l } else { v >= l });
    let below = |v: f64| high.is_none_or(|h| if high_open { v < h } else { v <= h });
    let multiple = get("multipleOf").filter(|m| *m > 0.0);
    let snap = |v: f64| {
        let v = if integer { v.ceil() } else { v };
        match multiple {
            Some(m) => (v / m).ceil() * m,
            None => v,
        }
    };
    // 1, else just above the lower bound, else just below the upper one, else
    // between the two.
    let step = if integer { 1.0 } else { 0.5 };
    let mut candidates = vec![1.0];
    if let Some(l) = low {
        candidates.push(if low_open { l + step } else { l });
    }
    if let Some(h) = high {
        candidates.push(if high_open { h - step } else { h });
        if let Some(l) = low {
            candidates.push(l + (h - l) / 2.0);
        }
    }
    let value = candidates
        .into_iter()
        .map(snap)
        .find(|v| v.is_finite() && above(*v) && below(*v))
        .ok_or_else(|| {
            format!(
                "a number between {} and {}{}",
                low.map_or("-∞".into(), |l| l.to_string()),
                high.map_or("∞".into(), |h| h.to_string()),
                multiple.map_or(String::new(), |m| format!(", a multiple of {m}"))
            )
        })?;
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        Ok(json!(value as i64))
    } else {
        Ok(json!(value))
    }
}

/// Why the server refused a call, quoted: its JSON-RPC error, or the text
/// of an `isError` result. `None` when it did not refuse.
pub(crate) fn refusal(exchange: &Exchange) -> Option<String> {
    if let Some(error) = exchange.error() {
        let code = error.get("code").map_or("?".to_owned(), Value::to_string);
        let message = error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default();
        return Some(format!(
            "JSON-RPC error {code} {message_q}",
            message_q = crate::quote::q(&message)
        ));
    }
    let result = exchange.result()?;
    if result.get("isError") != Some(&json!(true)) {
        return None;
    }
    let text: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("text").and_then(Value::as_str))
        .collect();
    Some(format!(
        "an isError result {}",
        crate::quote::q(&text.join(" "))
    ))
}

/// The tool the suite may call for a role, and its arguments.
#[derive(Clone, Debug)]
pub(crate) struct ToolPlan {
    pub(crate) name: String,
    pub(crate) arguments: Map<String, Value>,
    pub(crate) role: ToolRole,
}

impl ToolPlan {
    /// The `tools/call` request.
    pub(crate) fn call(&self) -> Call {
        Call::tool(&self.name, Value::Object(self.arguments.clone()))
    }

    /// The skip for a call the server refused before it could show what the
    /// scenario checks.
    pub(crate) fn refused(&self, why: &str) -> Outcome {
        Outcome::Skip(format!(
            "{} with arguments {} was refused before it could show anything under a preference: {why}; give a tool and arguments the server accepts with --profile FILE (`{} = {{ name = \"…\", arguments = {{ … }} }}`)",
            self.name,
            Value::Object(self.arguments.clone()),
            self.role.key()
        ))
    }
}

impl Ctx {
    /// The tool the suite may call for `role`, with the arguments to call it
    /// with, leaving out `except` (arguments the scenario sets itself). Skips
    /// when the target has no such tool, when the suite chose the tool itself
    /// and it is not annotated read-only, or when no arguments can be built.
    pub(crate) async fn tool_for(&mut self, role: ToolRole, except: &[&str]) -> Step<ToolPlan> {
        let name = self.profile.tool(role).to_owned();
        let key = role.key();
        let named = self.profile.named_arguments(&name).cloned();
        let listed = self.result(Call::new("tools/list")).await?;
        let Some(tool) = listed
            .items("tools")
            .into_iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(name.as_str()))
        else {
            return Err(Outcome::Skip(match named {
                Some(_) => {
                    format!(
                        "the profile's `{key}` names {name_q}, which tools/list does not list",
                        name_q = crate::quote::q(&name)
                    )
                }
                None => format!(
                    "the target has no tool {name_q}; name the tool to use with --profile FILE (`{key} = \"NAME\"`)",
                    name_q = crate::quote::q(&name)
                ),
            }));
        };
        let arguments = match named {
            Some(Some(mut arguments)) => {
                for key in except {
                    arguments.remove(*key);
                }
                arguments
            }
            found => {
                if found.is_none() && !read_only(&tool) {
                    return Err(Outcome::Skip(format!(
                        "{name_q} is not annotated read-only (annotations.readOnlyHint), and no profile names it, so the suite does not call it; to let it, pass --profile FILE with `{key} = \"{name}\"`",
                        name_q = crate::quote::q(&name)
                    )));
                }
                let schema = tool.get("inputSchema").cloned().unwrap_or(json!({}));
                arguments_for(&schema, except).map_err(|why| {
                    Outcome::Skip(format!(
                        "cannot build arguments for {name_q} from its inputSchema ({why}), so it is not called; give them with --profile FILE (`{key} = {{ name = \"{name}\", arguments = {{ … }} }}`)"
                    , name_q = crate::quote::q(&name)))
                })?
            }
        };
        Ok(ToolPlan {
            name,
            arguments,
            role,
        })
    }
}

/// Whether a listed tool's annotations say it is read-only.
pub(crate) fn read_only(tool: &Value) -> bool {
    tool.pointer("/annotations/readOnlyHint") == Some(&json!(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(schema: Value) -> Result<Value, String> {
        arguments_for(&schema, &[]).map(Value::Object)
    }

    #[test]
    fn no_required_property_needs_no_argument() {
        assert_eq!(build(json!({ "type": "object" })), Ok(json!({})));
        assert_eq!(
            build(json!({ "type": "object", "properties": { "topic": { "type": "string" } } })),
            Ok(json!({}))
        );
        assert_eq!(build(json!({})), Ok(json!({})));
    }

    #[test]
    fn each_required_property_gets_a_value_of_its_type() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": { "type": "integer", "minimum": 3, "maximum": 10 },
                "ratio": { "type": "number", "exclusiveMinimum": 0, "maximum": 0.5 },
                "city": { "type": "string" },
                "short": { "type": "string", "maxLength": 3 },
                "long": { "type": "string", "minLength": 12 },
                "flag": { "type": "boolean" },
                "tags": { "type": "array", "items": { "type": "string" }, "minItems": 2 },
                "none": { "type": "array" },
                "optional": { "type": "string" },
                "nested": { "type": "object", "properties": { "k": { "type": "integer" } }, "required": ["k"] },
                "nullable": { "type": ["null", "integer"] }
            },
            "required": ["n", "ratio", "city", "short", "long", "flag", "tags", "none", "nested", "nullable"]
        });
        let built = build(schema).unwrap();
        assert_eq!(built["n"], 3);
        assert_eq!(built["ratio"], 0.5);
        assert_eq!(built["city"], "example");
        assert_eq!(built["short"], "xxx");
        assert_eq!(built["long"], "x".repeat(12));
        assert_eq!(built["flag"], false);
        assert_eq!(built["tags"], json!(["example", "example"]));
        assert_eq!(built["none"], json!([]));
        assert_eq!(built["nested"], json!({ "k": 1 }));
        assert_eq!(built["nullable"], 1);
        assert!(built.get("optional").is_none());
    }

    #[test]
    fn const_default_enum_and_examples_are_honoured_in_that_order() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": { "type": "string", "const": "fixed", "default": "other" },
                "b": { "type": "integer", "default": 7, "enum": [1, 2] },
                "c": { "type": "string", "enum": ["udhr-article-1", "other"] },
                "d": { "type": "string", "examples": ["Paris"] },
                "e": { "oneOf": [{ "const": "x", "title": "X" }, { "const": "y" }] }
            },
            "required": ["a", "b", "c", "d", "e"]
        });
        assert_eq!(
            build(schema),
            Ok(json!({ "a": "fixed", "b": 7, "c": "udhr-article-1", "d": "Paris", "e": "x" }))
        );
    }

    #[test]
    fn formats_refs_and_alternatives() {
        let schema = json!({
            "type": "object",
            "$defs": { "Color": { "type": "string", "enum": ["red", "green"] } },
            "properties": {
                "color": { "$ref": "#/$defs/Color" },
                "email": { "type": "string", "format": "email" },
                "when": { "type": "string", "format": "date-time" },
                "maybe": { "anyOf": [{ "type": "string", "pattern": "^a+$" }, { "type": "null" }] }
            },
            "required": ["color", "email", "when", "maybe"]
        });
        assert_eq!(
            build(schema),
            Ok(json!({ "color": "red", "email": "conformance@example.org",
                "when": "2026-01-01T00:00:00Z", "maybe": null }))
        );
    }

    #[test]
    fn integer_bounds_and_multiples() {
        let value = |s: Value| number(&s, true);
        assert_eq!(value(json!({ "exclusiveMinimum": 1 })), Ok(json!(2)));
        assert_eq!(value(json!({ "maximum": -5 })), Ok(json!(-5)));
        assert_eq!(value(json!({ "minimum": 1.5 })), Ok(json!(2)));
        assert_eq!(
            value(json!({ "minimum": 5, "multipleOf": 4 })),
            Ok(json!(8))
        );
        assert_eq!(
            value(json!({ "minimum": 0, "exclusiveMinimum": true })),
            Ok(json!(1))
        );
        assert!(value(json!({ "minimum": 5, "maximum": 3 })).is_err());
        assert!(value(json!({ "minimum": 5, "maximum": 7, "multipleOf": 10 })).is_err());
    }

    #[test]
    fn unknown_shapes_are_not_called() {
        let one = |property: Value| {
            build(json!({ "type": "object", "properties": { "p": property }, "required": ["p"] }))
        };
        for property in [
            json!({ "type": "string", "pattern": "^[A-Z]{3}$" }),
            json!({ "type": "string", "format": "ipv6" }),
            json!({}),
            json!({ "$ref": "https://example.org/schema.json" }),
            json!({ "$ref": "#/$defs/missing" }),
            json!({ "type": "array", "minItems": 2, "uniqueItems": true, "items": { "type": "string" } }),
            json!({ "allOf": [{ "type": "string" }, { "minLength": 2 }] }),
            json!({ "type": "file" }),
            json!(false),
        ] {
            let built = one(property.clone());
            assert!(built.is_err(), "{property} built {built:?}");
            assert!(built.unwrap_err().contains("\"p\""), "{property}");
        }
        assert!(build(json!({ "type": "object", "required": ["p"] })).is_err());
        assert!(build(json!({ "type": "array" })).is_err());
    }

    #[test]
    fn a_self_referencing_schema_ends() {
        let schema = json!({
            "type": "object",
            "$defs": { "Loop": { "$ref": "#/$defs/Loop" },
                "Node": { "type": "object", "properties": { "next": { "$ref": "#/$defs/Node" } }, "required": ["next"] } },
            "properties": { "a": { "$ref": "#/$defs/Loop" }, "b": { "$ref": "#/$defs/Node" } },
            "required": ["a"]
        });
        assert!(build(schema.clone()).is_err());
        let mut node = schema;
        node["required"] = json!(["b"]);
        assert!(build(node).is_err());
    }

    #[test]
    fn excepted_properties_are_left_to_the_scenario() {
        let schema = json!({
            "type": "object",
            "properties": { "document": { "type": "string", "enum": ["a"] }, "language": { "type": "string", "pattern": "^[a-z]+$" } },
            "required": ["document", "language"]
        });
        assert_eq!(
            arguments_for(&schema, &["language"]).map(Value::Object),
            Ok(json!({ "document": "a" }))
        );
    }

    #[test]
    fn refusals_quote_the_server() {
        let exchange = |response: Value| Exchange {
            request: json!({ "id": 1 }),
            messages: vec![response],
            ..Exchange::default()
        };
        let error =
            exchange(json!({ "id": 1, "error": { "code": -32602, "message": "n: required" } }));
        assert_eq!(
            refusal(&error).unwrap(),
            "JSON-RPC error -32602 \"n: required\""
        );
        let invalid = exchange(json!({ "id": 1, "result": { "isError": true,
            "content": [{ "type": "text", "text": "Input validation error: n is required" }] } }));
        assert!(refusal(&invalid).unwrap().contains("n is required"));
        let fine = exchange(json!({ "id": 1, "result": { "content": [] } }));
        assert_eq!(refusal(&fine), None);
    }

    #[test]
    fn only_a_true_read_only_hint_counts() {
        assert!(read_only(
            &json!({ "annotations": { "readOnlyHint": true } })
        ));
        assert!(!read_only(
            &json!({ "annotations": { "readOnlyHint": false } })
        ));
        assert!(!read_only(&json!({ "annotations": {} })));
        assert!(!read_only(&json!({ "name": "x" })));
    }
}
