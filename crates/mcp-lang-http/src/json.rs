//! Reading the few `_meta` values this crate needs straight out of a JSON-RPC message's
//! bytes, without building a `serde_json::Value`.
//!
//! One pass of `serde_json` over the body: every member that is not on the path to the
//! value we want is skipped with [`IgnoredAny`], strings that need no unescaping are
//! borrowed, and keys are compared in place. Duplicate keys follow `serde_json::Value`
//! (the last one wins), so this sees the same message an MCP server that parses into a
//! `Value` sees. A body that is not JSON, or not an object, has no `_meta` and no id.

use std::borrow::Cow;
use std::fmt;

use mcp_lang_agree::MetaValue;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// The `_meta` key of the request-side preference.
pub const ACCEPT_LANGUAGE_KEY: &str = "io.modelcontextprotocol/acceptLanguage";
/// The `_meta` key of the response-side language report.
pub const CONTENT_LANGUAGE_KEY: &str = "io.modelcontextprotocol/contentLanguage";

/// A `_meta` value found in a message: absent, a string (borrowed from the body when it
/// has no escapes), or present but not a string.
///
/// It is the owned-when-needed twin of [`MetaValue`]; [`FoundMeta::as_meta`] lends one.
///
/// ```
/// use mcp_lang_http::{FoundMeta, request_preference};
///
/// let body = br#"{"jsonrpc":"2.0","id":7,"method":"tools/list",
///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CA, fr;q=0.9"}}}"#;
/// let found = request_preference(body);
/// assert_eq!(found.preference, FoundMeta::String("fr-CA, fr;q=0.9".into()));
/// assert_eq!(found.id, serde_json::json!(7));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum FoundMeta<'a> {
    /// The key is not there (or the message, `params`, `result`, or `_meta` is not an
    /// object).
    #[default]
    Absent,
    /// The key holds a JSON string; this is its decoded value, untouched.
    String(Cow<'a, str>),
    /// The key holds something other than a string.
    NotString,
}

impl FoundMeta<'_> {
    /// This value as the [`MetaValue`] that `mcp_lang_agree::agree` takes.
    ///
    /// ```
    /// use mcp_lang_agree::MetaValue;
    /// use mcp_lang_http::FoundMeta;
    ///
    /// assert_eq!(FoundMeta::String("de".into()).as_meta(), MetaValue::String("de"));
    /// assert_eq!(FoundMeta::NotString.as_meta(), MetaValue::NotString);
    /// ```
    pub fn as_meta(&self) -> MetaValue<'_> {
        match self {
            FoundMeta::Absent => MetaValue::Absent,
            FoundMeta::String(s) => MetaValue::String(s),
            FoundMeta::NotString => MetaValue::NotString,
        }
    }

    /// The string, if the key holds one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            FoundMeta::String(s) => Some(s),
            FoundMeta::Absent | FoundMeta::NotString => None,
        }
    }

    /// An owned copy that no longer borrows the body.
    pub fn into_owned(self) -> FoundMeta<'static> {
        match self {
            FoundMeta::Absent => FoundMeta::Absent,
            FoundMeta::String(s) => FoundMeta::String(Cow::Owned(s.into_owned())),
            FoundMeta::NotString => FoundMeta::NotString,
        }
    }
}

/// What [`request_preference`] finds in a JSON-RPC request body.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RequestMeta<'a> {
    /// `params._meta["io.modelcontextprotocol/acceptLanguage"]`.
    pub preference: FoundMeta<'a>,
    /// The request `id` (a string or a number), or `null` when there is none or it is not
    /// a valid JSON-RPC id. Echoed in a HeaderMismatch error.
    pub id: serde_json::Value,
}

/// Reads `params._meta["io.modelcontextprotocol/acceptLanguage"]` and the `id` of one
/// JSON-RPC message from its bytes, in one pass, without building a `Value`.
///
/// A body that is not a JSON object (malformed JSON, a batch array, …) yields an absent
/// preference and a `null` id: such a body carries no preference this crate can see, and
/// the MCP server behind it answers it with its own parse or request error.
///
/// ```
/// use mcp_lang_http::{FoundMeta, request_preference};
///
/// let found = request_preference(br#"{"id":"a","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":42}}}"#);
/// assert_eq!(found.preference, FoundMeta::NotString);
/// assert_eq!(found.id, serde_json::json!("a"));
///
/// assert_eq!(request_preference(b"not json").preference, FoundMeta::Absent);
/// ```
pub fn request_preference(body: &[u8]) -> RequestMeta<'_> {
    const ROUTES: [Route; 1] = [Route::new("params", &["_meta", ACCEPT_LANGUAGE_KEY])];
    match scan(body, &ROUTES, true) {
        Some(([preference], id)) => RequestMeta { preference, id },
        None => RequestMeta::default(),
    }
}

/// Reads the `contentLanguage` a JSON-RPC message reports: `result._meta`, else
/// `error.data._meta`, else `params._meta` (a notification or request), in one pass.
///
/// A message that is not a JSON object reports nothing ([`FoundMeta::Absent`]).
///
/// ```
/// use mcp_lang_http::{FoundMeta, message_content_language};
///
/// let ok = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[],"_meta":{"io.modelcontextprotocol/contentLanguage":"fr-CA"}}}"#;
/// assert_eq!(message_content_language(ok), FoundMeta::String("fr-CA".into()));
///
/// let err = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Argument invalide",
///     "data":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}}"#;
/// assert_eq!(message_content_language(err), FoundMeta::String("fr".into()));
///
/// let note = br#"{"jsonrpc":"2.0","method":"notifications/progress",
///     "params":{"progress":1,"message":"Fertig","_meta":{"io.modelcontextprotocol/contentLanguage":"de"}}}"#;
/// assert_eq!(message_content_language(note), FoundMeta::String("de".into()));
/// ```
pub fn message_content_language(body: &[u8]) -> FoundMeta<'_> {
    const ROUTES: [Route; 3] = [
        Route::new("result", &["_meta", CONTENT_LANGUAGE_KEY]),
        Route::new("error", &["data", "_meta", CONTENT_LANGUAGE_KEY]),
        Route::new("params", &["_meta", CONTENT_LANGUAGE_KEY]),
    ];
    match scan(body, &ROUTES, false) {
        Some(([result, error, params], _)) => [result, error, params]
            .into_iter()
            .find(|found| *found != FoundMeta::Absent)
            .unwrap_or_default(),
        None => FoundMeta::Absent,
    }
}

/// A path from a top-level member of the message down to one value.
struct Route {
    top: &'static str,
    rest: &'static [&'static str],
}

impl Route {
    const fn new(top: &'static str, rest: &'static [&'static str]) -> Self {
        Route { top, rest }
    }
}

/// Scans one message for the values at `routes` (and the id when asked). `None` when the
/// bytes are not one JSON object.
fn scan<'de, const N: usize>(
    body: &'de [u8],
    routes: &[Route; N],
    want_id: bool,
) -> Option<([FoundMeta<'de>; N], serde_json::Value)> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let found = Top { routes, want_id }.deserialize(&mut de).ok()?;
    de.end().ok()?;
    found
}

/// The top-level visitor: dispatches each member to the route that starts with its key.
struct Top<'r, const N: usize> {
    routes: &'r [Route; N],
    want_id: bool,
}

type TopOutput<'de, const N: usize> = Option<([FoundMeta<'de>; N], serde_json::Value)>;

impl<'de, const N: usize> DeserializeSeed<'de> for Top<'_, N> {
    type Value = TopOutput<'de, N>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for Top<'_, N> {
    type Value = TopOutput<'de, N>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found: [FoundMeta<'de>; N] = std::array::from_fn(|_| FoundMeta::Absent);
        let mut id = serde_json::Value::Null;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            if self.want_id && key.is("id") {
                id = map.next_value_seed(IdSeed)?;
                continue;
            }
            match self.routes.iter().position(|r| key.is(r.top)) {
                Some(i) => {
                    let value = map.next_value_seed(At(self.routes[i].rest))?;
                    if let Some(slot) = found.get_mut(i) {
                        // A repeated member replaces the earlier one, as in `Value`.
                        *slot = value;
                    }
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some((found, id)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        IgnoredAny.visit_seq(seq)?;
        Ok(None)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// An object key, borrowed when it has no escapes.
struct Key<'de>(Cow<'de, str>);

impl Key<'_> {
    fn is(&self, name: &str) -> bool {
        self.0 == name
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key<'de>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Key(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Key(Cow::Owned(v.to_owned())))
    }
}

/// Descends the remaining path and reports what is at its end.
struct At<'p>(&'p [&'p str]);

impl<'de> DeserializeSeed<'de> for At<'_> {
    type Value = FoundMeta<'de>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl At<'_> {
    /// The answer for a value that is not a string: at the end of the path the key holds
    /// a non-string; before it, the path does not exist.
    fn not_string(&self) -> FoundMeta<'static> {
        if self.0.is_empty() {
            FoundMeta::NotString
        } else {
            FoundMeta::Absent
        }
    }
}

impl<'de> Visitor<'de> for At<'_> {
    type Value = FoundMeta<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(if self.0.is_empty() {
            FoundMeta::String(Cow::Borrowed(v))
        } else {
            FoundMeta::Absent
        })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(if self.0.is_empty() {
            FoundMeta::String(Cow::Owned(v.to_owned()))
        } else {
            FoundMeta::Absent
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let Some((first, rest)) = self.0.split_first() else {
            IgnoredAny.visit_map(map)?;
            return Ok(FoundMeta::NotString);
        };
        let mut found = FoundMeta::Absent;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            if key.is(first) {
                found = map.next_value_seed(At(rest))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        IgnoredAny.visit_seq(seq)?;
        Ok(self.not_string())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(self.not_string())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(self.not_string())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(self.not_string())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(self.not_string())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(self.not_string())
    }
}

/// A JSON-RPC id: a string or a number; anything else is echoed as `null`.
struct IdSeed;

impl<'de> DeserializeSeed<'de> for IdSeed {
    type Value = serde_json::Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for IdSeed {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC id")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(v.to_owned()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        IgnoredAny.visit_map(map)?;
        Ok(serde_json::Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        IgnoredAny.visit_seq(seq)?;
        Ok(serde_json::Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The slow, obviously right answer: parse into a `Value` and walk it.
    fn via_value(body: &[u8], path: &[&str]) -> FoundMeta<'static> {
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
            return FoundMeta::Absent;
        };
        let mut at = &value;
        for key in path {
            match at.get(key) {
                Some(next) if at.is_object() => at = next,
                _ => return FoundMeta::Absent,
            }
        }
        match at {
            serde_json::Value::String(s) => FoundMeta::String(Cow::Owned(s.clone())),
            _ => FoundMeta::NotString,
        }
    }

    #[test]
    fn agrees_with_a_full_parse() {
        let bodies: &[&[u8]] = &[
            br#"{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}}"#,
            br#"{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"a\u0062"}}}"#,
            br#"{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":null}}}"#,
            br#"{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":["en"]}}}"#,
            br#"{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en","io.modelcontextprotocol/acceptLanguage":"fr"}}}"#,
            br#"{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}},"params":{}}"#,
            br#"{"params":{"_meta":"io.modelcontextprotocol/acceptLanguage"}}"#,
            br#"{"params":[{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}]}"#,
            br#"{"par\u0061ms":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}}"#,
            br#"[{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}}]"#,
            br#"{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}} x"#,
            br#"{"params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}"#,
            b"",
            b"42",
        ];
        for body in bodies {
            let path = ["params", "_meta", ACCEPT_LANGUAGE_KEY];
            assert_eq!(
                request_preference(body).preference,
                via_value(body, &path),
                "{}",
                String::from_utf8_lossy(body)
            );
        }
    }

    #[test]
    fn ids() {
        let id = |b: &[u8]| request_preference(b).id;
        assert_eq!(id(br#"{"id":1}"#), json!(1));
        assert_eq!(id(br#"{"id":-3}"#), json!(-3));
        assert_eq!(id(br#"{"id":"x\"y"}"#), json!("x\"y"));
        assert_eq!(id(br#"{"id":{"a":1}}"#), json!(null));
        assert_eq!(id(br#"{"id":1,"id":2}"#), json!(2));
        assert_eq!(id(br#"{"method":"x"}"#), json!(null));
        assert_eq!(id(br#"{"id":1"#), json!(null));
    }

    #[test]
    fn content_language_prefers_result_then_error_then_params() {
        let cl = message_content_language;
        assert_eq!(
            cl(br#"{"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":1}}}"#),
            FoundMeta::NotString
        );
        assert_eq!(
            cl(br#"{"error":{"data":"x","_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}"#),
            FoundMeta::Absent
        );
        assert_eq!(cl(br#"{"result":{}}"#), FoundMeta::Absent);
        assert_eq!(cl(b"\xff"), FoundMeta::Absent);
    }
}
