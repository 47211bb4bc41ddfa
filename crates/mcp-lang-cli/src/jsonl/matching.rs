//! The matching ops of the oracle (`mcp-lang-match`): `filter`, `xfilter`,
//! `lookup` and `negotiate`.
//!
//! | op | request | answer |
//! |----|---------|--------|
//! | `filter` | `header`, `tags` | `{"tags":[…]}`: RFC 4647 §3.3.1 with D3 qualities, D4a order |
//! | `xfilter` | `ranges` (extended, priority order), `tags` | `{"tags":[…]}`: RFC 4647 §3.3.2 |
//! | `lookup` | `header`, `tags`, `default` (string or null) | `{"tag":…}`: RFC 4647 §3.4 |
//! | `negotiate` | `header` (string or null), `supported`, `default` | `{"selected":…,"q":N,"reason":…}`: D4 |
//!
//! A malformed header (or extended range) in `filter`, `xfilter` or `lookup`
//! answers `{"error":"…","offset":N}`; `negotiate` never fails on its header
//! (a malformed one gives the default, reason `malformed`), only on a
//! supported list or default that is not made of language tags.
//!
//! ```
//! use mcp_lang_cli::jsonl::answer_line;
//!
//! let line = br#"{"op":"negotiate","header":"fr-CA","supported":["en","fr"],"default":"en"}"#;
//! assert_eq!(answer_line(line).to_string(), r#"{"q":1000,"reason":"truncated","selected":"fr"}"#);
//! ```

use mcp_lang_grammar::{AcceptLanguage, ExtendedRange, ParseError};
use mcp_lang_match::{Negotiator, SupportedTag, basic, extended, lookup};
use serde_json::{Value, json};

use super::{Op, error, string_field};

/// The ops of this module.
pub(crate) const OPS: &[(&str, Op)] = &[
    ("filter", filter),
    ("xfilter", xfilter),
    ("lookup", lookup_op),
    ("negotiate", negotiate),
];

/// The answer for a malformed `Accept-Language` value.
fn malformed_header(e: ParseError) -> Value {
    json!({
        "error": format!("malformed Accept-Language: expected {}", e.expected().as_str()),
        "offset": e.offset(),
    })
}

/// A required array-of-strings field, or the error answer to give.
fn strings<'r>(request: &'r Value, key: &str) -> Result<Vec<&'r str>, Value> {
    let bad = || error(format!("request needs an array of strings \"{key}\""));
    request
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(bad)?
        .iter()
        .map(|v| v.as_str().ok_or_else(bad))
        .collect()
}

/// A field that is a string or `null` (absent counts as `null`).
fn optional_string<'r>(request: &'r Value, key: &str) -> Result<Option<&'r str>, Value> {
    match request.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(error(format!("\"{key}\" must be a string or null"))),
    }
}

fn filter(request: &Value) -> Value {
    let run = || -> Result<Value, Value> {
        let header = string_field(request, "header")?;
        let tags = strings(request, "tags")?;
        let header = AcceptLanguage::parse(header).map_err(malformed_header)?;
        let accepted: Vec<&str> = basic::filter(&header, &tags)
            .iter()
            .map(|f| f.tag())
            .collect();
        Ok(json!({ "tags": accepted }))
    };
    run().unwrap_or_else(|e| e)
}

fn xfilter(request: &Value) -> Value {
    let run = || -> Result<Value, Value> {
        let raw = strings(request, "ranges")?;
        let tags = strings(request, "tags")?;
        let ranges = raw
            .iter()
            .enumerate()
            .map(|(i, r)| {
                ExtendedRange::parse(r).map_err(|e| {
                    json!({
                        "error": format!("malformed extended language range {i}: expected {}", e.expected().as_str()),
                        "offset": e.offset(),
                    })
                })
            })
            .collect::<Result<Vec<_>, Value>>()?;
        Ok(json!({ "tags": extended::filter(&ranges, &tags) }))
    };
    run().unwrap_or_else(|e| e)
}

fn lookup_op(request: &Value) -> Value {
    let run = || -> Result<Value, Value> {
        let header = string_field(request, "header")?;
        let tags = strings(request, "tags")?;
        let default = optional_string(request, "default")?;
        let header = AcceptLanguage::parse(header).map_err(malformed_header)?;
        Ok(json!({ "tag": lookup::lookup(&header, &tags, default) }))
    };
    run().unwrap_or_else(|e| e)
}

fn negotiate(request: &Value) -> Value {
    let run = || -> Result<Value, Value> {
        let header = optional_string(request, "header")?;
        let supported = strings(request, "supported")?;
        let default = string_field(request, "default")?;
        let server = Negotiator::new(supported.iter().copied(), default)
            .map_err(|e| error(e.to_string()))?;
        Ok(negotiation(&server, header))
    };
    run().unwrap_or_else(|e| e)
}

/// The `negotiate` answer for one preference (also `mcp-lang negotiate --json`).
///
/// ```
/// use mcp_lang_cli::jsonl::matching::negotiation;
/// use mcp_lang_match::Negotiator;
///
/// let server = Negotiator::new(["en", "fr"], "en").unwrap();
/// assert_eq!(negotiation(&server, None).to_string(), r#"{"q":1000,"reason":"absent","selected":"en"}"#);
/// ```
pub fn negotiation<T: SupportedTag>(server: &Negotiator<T>, header: Option<&str>) -> Value {
    let chosen = server.negotiate_header(header);
    json!({
        "selected": chosen.tag().as_ref(),
        "q": chosen.quality().get(),
        "reason": chosen.reason().as_str(),
    })
}
