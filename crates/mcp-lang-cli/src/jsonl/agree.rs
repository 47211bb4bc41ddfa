//! The agreement op of the oracle (`mcp-lang-agree`, decision D5).
//!
//! | op | request | answer |
//! |----|---------|--------|
//! | `agree` | `meta` (a string; `null` or missing for an absent key; any other JSON value for a key that is present but not a string), `lines` (the raw field line values, in received order) | `{"agreement":"agree"\|"mismatch"\|"header-absent"\|"bare-header"}` |
//!
//! ```
//! use mcp_lang_cli::jsonl::answer_line;
//!
//! let line = br#"{"op":"agree","meta":"en-US, en;q=0.9","lines":["en-US"," en;q=0.9 "]}"#;
//! assert_eq!(answer_line(line).to_string(), r#"{"agreement":"agree"}"#);
//! let line = br#"{"op":"agree","meta":42,"lines":["42"]}"#;
//! assert_eq!(answer_line(line).to_string(), r#"{"agreement":"mismatch"}"#);
//! ```

use mcp_lang_agree::{Agreement, MetaValue, agree};
use serde_json::{Value, json};

use super::{Op, error};

/// The ops of this module.
pub(crate) const OPS: &[(&str, Op)] = &[("agree", agree_op)];

/// The `meta` field as the protocol encodes it: `null` (or missing) is an absent key.
pub fn meta_value(meta: Option<&Value>) -> MetaValue<'_> {
    match meta {
        None | Some(Value::Null) => MetaValue::Absent,
        Some(Value::String(s)) => MetaValue::String(s),
        Some(_) => MetaValue::NotString,
    }
}

/// The answer object for one agreement.
///
/// ```
/// use mcp_lang_agree::{agree, MetaValue};
/// use mcp_lang_cli::jsonl::agree::answer;
///
/// let a = agree(MetaValue::Absent, [&b"en"[..]]);
/// assert_eq!(answer(&a).to_string(), r#"{"agreement":"bare-header"}"#);
/// ```
pub fn answer(agreement: &Agreement<'_>) -> Value {
    json!({ "agreement": agreement.as_str() })
}

fn agree_op(request: &Value) -> Value {
    let bad = || error("request needs an array of strings \"lines\"".to_owned());
    let Some(lines) = request.get("lines").and_then(Value::as_array) else {
        return bad();
    };
    let lines: Option<Vec<&[u8]>> = lines
        .iter()
        .map(|l| l.as_str().map(str::as_bytes))
        .collect();
    let Some(lines) = lines else {
        return bad();
    };
    answer(&agree(meta_value(request.get("meta")), lines))
}
