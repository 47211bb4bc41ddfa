//! The grammar ops of the oracle: `parse`, `content-language`, `tag` (and
//! `extended`, for `mcp-lang parse --extended --json`).
//!
//! Well-formed values answer `{"valid": true, …}`; malformed ones
//! `{"valid": false, "offset": N, "expected": "…"}`, where `offset` is the
//! normative byte offset (see `mcp_lang_grammar::ParseError`) and `expected`
//! is `Expected::as_str`.
//!
//! ```
//! use mcp_lang_cli::jsonl::grammar;
//!
//! assert_eq!(
//!     grammar::accept_language("en;q=0.1234").to_string(),
//!     r#"{"expected":"qvalue","offset":10,"valid":false}"#
//! );
//! ```

use mcp_lang_grammar::{AcceptLanguage, ContentLanguage, ExtendedRange, LanguageTag, ParseError};
use serde_json::{Value, json};

use super::{Op, string_field};

/// The ops of this module.
pub(crate) const OPS: &[(&str, Op)] = &[
    ("parse", |r| {
        string_field(r, "header").map_or_else(|e| e, accept_language)
    }),
    ("content-language", |r| {
        string_field(r, "value").map_or_else(|e| e, content_language)
    }),
    ("tag", |r| string_field(r, "value").map_or_else(|e| e, tag)),
    ("extended", |r| {
        string_field(r, "value").map_or_else(|e| e, extended_range)
    }),
];

fn malformed(e: ParseError) -> Value {
    json!({ "valid": false, "offset": e.offset(), "expected": e.expected().as_str() })
}

/// `{"op":"parse","header":…}` → `{"valid":true,"ranges":[[range, q], …]}`.
///
/// ```
/// use mcp_lang_cli::jsonl::grammar::accept_language;
/// assert_eq!(accept_language("").to_string(), r#"{"ranges":[],"valid":true}"#);
/// ```
pub fn accept_language(header: &str) -> Value {
    match AcceptLanguage::parse(header) {
        Ok(value) => {
            let ranges: Vec<Value> = value
                .iter()
                .map(|w| json!([w.range.as_str(), w.quality.get()]))
                .collect();
            json!({ "valid": true, "ranges": ranges })
        }
        Err(e) => malformed(e),
    }
}

/// `{"op":"content-language","value":…}` → `{"valid":true,"tags":[…]}`.
///
/// ```
/// use mcp_lang_cli::jsonl::grammar::content_language;
/// assert_eq!(content_language("").to_string(), r#"{"expected":"language tag","offset":0,"valid":false}"#);
/// ```
pub fn content_language(value: &str) -> Value {
    match ContentLanguage::parse(value) {
        Ok(value) => {
            json!({ "valid": true, "tags": value.iter().map(|t| t.as_str()).collect::<Vec<_>>() })
        }
        Err(e) => malformed(e),
    }
}

/// `{"op":"tag","value":…}` → `{"valid":true}`.
///
/// ```
/// use mcp_lang_cli::jsonl::grammar::tag;
/// assert_eq!(tag("i-klingon").to_string(), r#"{"valid":true}"#);
/// ```
pub fn tag(value: &str) -> Value {
    match LanguageTag::parse(value) {
        Ok(_) => json!({ "valid": true }),
        Err(e) => malformed(e),
    }
}

/// `{"op":"extended","value":…}` → `{"valid":true,"subtags":[…]}`.
///
/// ```
/// use mcp_lang_cli::jsonl::grammar::extended_range;
/// assert_eq!(extended_range("de-*-DE").to_string(), r#"{"subtags":["de","*","DE"],"valid":true}"#);
/// ```
pub fn extended_range(value: &str) -> Value {
    match ExtendedRange::parse(value) {
        Ok(range) => json!({ "valid": true, "subtags": range.subtags().collect::<Vec<_>>() }),
        Err(e) => malformed(e),
    }
}
