//! The language values of a JSON-RPC message read with serde_json's typed, borrowed
//! deserialization: the baseline that `mcp-lang-meta`'s raw skim is measured against
//! (`benches/benches/meta.rs`).
//!
//! No tree is built. The members the binding needs are deserialized into borrowed types
//! (the id as a `&RawValue`, strings as `Cow<str>`, borrowed unless they hold escapes);
//! every other member is skipped. The answers follow the skim's rules: the last duplicate
//! key wins; a body whose top level is not an object has no `_meta` to read; a `_meta`
//! value is a string or "not a string".
//!
//! Three ways to skip, from the fastest to the strictest:
//!
//! - [`read_request`] and [`read_content_language`] skip with `serde::de::IgnoredAny`,
//!   which checks less than the skim does: from bytes, a skipped string may hold invalid
//!   UTF-8 or a lone `\ud800` escape, and skipped arrays and objects may nest without
//!   limit; each such body is read here and is an error for the skim (and for
//!   `serde_json::Value`);
//! - [`read_request_utf8`] checks the whole body with `core::str::from_utf8` first, which
//!   closes the UTF-8 gap only;
//! - [`read_request_validating`] and [`read_content_language_validating`] deserialize every
//!   skipped value into a type that keeps nothing, so that serde_json checks it as it
//!   checks a `Value` (UTF-8, escapes, surrogates, nesting). They differ from the skim
//!   only on numbers out of `f64` range (`1e400`), which they reject, as `Value` does.
//!
//! `benches/tests/typed_meta.rs` pins each difference.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY, RawPreference};
use serde::de::{
    self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor,
};
use serde_json::value::RawValue;

/// The `visit_*` methods of the JSON scalars other than strings, each answering `$value`.
macro_rules! scalars_are {
    ($value:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

/// `visit_str` answering `$value`, for the visitors that do not capture strings.
macro_rules! strings_are {
    ($value:expr) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

/// What one typed pass over a request found: the preference, the raw id and the method,
/// as `mcp_lang_meta::skim_request` reports them.
///
/// ```
/// use mcp_lang_benches::typed_meta::read_request;
///
/// let body = br#"{"jsonrpc":"2.0","id":7,"method":"tools/list",
///   "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#;
/// let request = read_request(body).unwrap();
/// assert_eq!(request.accept_language.as_str(), Some("de"));
/// assert_eq!(request.id, Some("7"));
/// assert_eq!(request.method.as_deref(), Some("tools/list"));
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct TypedRequest<'a> {
    /// `params._meta["io.modelcontextprotocol/acceptLanguage"]`.
    pub accept_language: RawPreference<'a>,
    /// The raw JSON text of the last top-level `id`.
    pub id: Option<&'a str>,
    /// The last top-level `method`, when it is a string.
    pub method: Option<Cow<'a, str>>,
}

/// Reads a request body (see [`TypedRequest`]), skipping the rest with `IgnoredAny`.
///
/// ```
/// use mcp_lang_benches::typed_meta::read_request;
///
/// assert!(read_request(b"{\"id\":1,").is_err());
/// ```
pub fn read_request(body: &[u8]) -> Result<TypedRequest<'_>, serde_json::Error> {
    request_with::<IgnoredAny>(body)
}

/// [`read_request`] on a body first checked whole with `core::str::from_utf8`, so that
/// invalid UTF-8 in a skipped string is an error, as it is for the skim.
///
/// ```
/// use mcp_lang_benches::typed_meta::{read_request, read_request_utf8};
///
/// let body = b"{\"id\":1,\"x\":\"\xff\"}";
/// assert!(read_request(body).is_ok());
/// assert!(read_request_utf8(body).is_err());
/// ```
pub fn read_request_utf8(body: &[u8]) -> Result<TypedRequest<'_>, serde_json::Error> {
    check_utf8(body)?;
    read_request(body)
}

/// [`read_request`] with every skipped value checked as strictly as `serde_json::Value`
/// checks it (see the module docs).
///
/// ```
/// use mcp_lang_benches::typed_meta::{read_request, read_request_validating};
///
/// let body = br#"{"id":1,"x":"\ud800"}"#;
/// assert!(read_request(body).is_ok());
/// assert!(read_request_validating(body).is_err());
/// ```
pub fn read_request_validating(body: &[u8]) -> Result<TypedRequest<'_>, serde_json::Error> {
    request_with::<Checked>(body)
}

/// Reads `contentLanguage` from a response or notification body: `result._meta` when
/// there is a `result`, else `error.data._meta` when there is an `error`, else
/// `params._meta`, as `mcp_lang_meta::extract_content_language` does; the rest is skipped
/// with `IgnoredAny`.
///
/// ```
/// use mcp_lang_benches::typed_meta::read_content_language;
///
/// let body = br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}"#;
/// assert_eq!(read_content_language(body).unwrap().as_str(), Some("fr"));
/// ```
pub fn read_content_language(body: &[u8]) -> Result<RawPreference<'_>, serde_json::Error> {
    content_language_with::<IgnoredAny>(body)
}

/// [`read_content_language`] after `core::str::from_utf8` on the whole body.
///
/// ```
/// use mcp_lang_benches::typed_meta::read_content_language_utf8;
///
/// assert!(read_content_language_utf8(b"{\"result\":\"\xff\"}").is_err());
/// ```
pub fn read_content_language_utf8(body: &[u8]) -> Result<RawPreference<'_>, serde_json::Error> {
    check_utf8(body)?;
    read_content_language(body)
}

/// [`read_content_language`] checking every skipped value as [`read_request_validating`]
/// does.
///
/// ```
/// use mcp_lang_benches::typed_meta::read_content_language_validating;
///
/// let body = br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}"#;
/// assert_eq!(read_content_language_validating(body).unwrap().as_str(), Some("fr"));
/// ```
pub fn read_content_language_validating(
    body: &[u8],
) -> Result<RawPreference<'_>, serde_json::Error> {
    content_language_with::<Checked>(body)
}

fn check_utf8(body: &[u8]) -> Result<(), serde_json::Error> {
    core::str::from_utf8(body).map(|_| ()).map_err(|_| {
        de::Error::invalid_value(Unexpected::Other("invalid UTF-8"), &"a UTF-8 JSON text")
    })
}

fn request_with<'a, K: de::Deserialize<'a>>(
    body: &'a [u8],
) -> Result<TypedRequest<'a>, serde_json::Error> {
    let message = from_slice::<K>(body, ACCEPT_LANGUAGE_KEY)?;
    Ok(TypedRequest {
        accept_language: message.params,
        id: message.id.map(RawValue::get),
        method: message.method,
    })
}

fn content_language_with<'a, K: de::Deserialize<'a>>(
    body: &'a [u8],
) -> Result<RawPreference<'a>, serde_json::Error> {
    let message = from_slice::<K>(body, CONTENT_LANGUAGE_KEY)?;
    Ok(match (message.result, message.error) {
        (Some(result), _) => result,
        (None, Some(error)) => error,
        (None, None) => message.params,
    })
}

/// Reads one message, skipping what is not needed as `K`.
fn from_slice<'a, K: de::Deserialize<'a>>(
    body: &'a [u8],
    key: &str,
) -> Result<Message<'a>, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let seed = MessageSeed::<K> {
        key,
        skip: PhantomData,
    };
    let message = seed.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(message)
}

/// A skipped value deserialized in full and kept as nothing: skipping with it costs
/// serde_json's own checks of a `Value`, without building one.
struct Checked;

impl<'de> de::Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Checked, D::Error> {
        deserializer.deserialize_any(Checked)
    }
}

impl<'de> Visitor<'de> for Checked {
    type Value = Checked;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Checked, A::Error> {
        skip_map::<Checked, A>(map).map(|()| Checked)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Checked, A::Error> {
        skip_seq::<Checked, A>(seq).map(|()| Checked)
    }

    scalars_are!(Checked);
    strings_are!(Checked);
}

/// Skips the rest of a map, each key and value as `K`.
fn skip_map<'de, K: de::Deserialize<'de>, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<K, K>()?.is_some() {}
    Ok(())
}

/// Skips the rest of a sequence, each element as `K`.
fn skip_seq<'de, K: de::Deserialize<'de>, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<K>()?.is_some() {}
    Ok(())
}

/// The members of one JSON-RPC message that the binding reads.
#[derive(Default)]
struct Message<'a> {
    id: Option<&'a RawValue>,
    method: Option<Cow<'a, str>>,
    params: RawPreference<'a>,
    result: Option<RawPreference<'a>>,
    error: Option<RawPreference<'a>>,
}

/// A message, with the `_meta` key to capture; what is not needed is skipped as `K`.
struct MessageSeed<'k, K> {
    key: &'k str,
    skip: PhantomData<K>,
}

impl<'de, K: de::Deserialize<'de>> DeserializeSeed<'de> for MessageSeed<'_, K> {
    type Value = Message<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Message<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, K: de::Deserialize<'de>> Visitor<'de> for MessageSeed<'_, K> {
    type Value = Message<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message<'de>, A::Error> {
        let mut out = Message::default();
        let meta = [META, self.key];
        let error_meta = [DATA, META, self.key];
        while let Some(member) = map.next_key::<Member>()? {
            match member {
                Member::Id => out.id = Some(map.next_value()?),
                Member::Method => out.method = map.next_value_seed(Text::<K>::new())?,
                Member::Params => out.params = map.next_value_seed(Path::<K>::new(&meta))?,
                Member::Result => {
                    out.result = Some(map.next_value_seed(Path::<K>::new(&meta))?);
                }
                Member::Error => {
                    out.error = Some(map.next_value_seed(Path::<K>::new(&error_meta))?);
                }
                Member::Other => {
                    map.next_value::<K>()?;
                }
            }
        }
        Ok(out)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Message<'de>, A::Error> {
        skip_seq::<K, A>(seq).map(|()| Message::default())
    }

    scalars_are!(Message::default());
    strings_are!(Message::default());
}

const META: &str = "_meta";
const DATA: &str = "data";

/// A top-level member name.
enum Member {
    Id,
    Method,
    Params,
    Result,
    Error,
    Other,
}

impl<'de> de::Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Member, D::Error> {
        deserializer.deserialize_identifier(MemberVisitor)
    }
}

struct MemberVisitor;

impl Visitor<'_> for MemberVisitor {
    type Value = Member;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Member, E> {
        Ok(match name {
            "id" => Member::Id,
            "method" => Member::Method,
            "params" => Member::Params,
            "result" => Member::Result,
            "error" => Member::Error,
            _ => Member::Other,
        })
    }
}

/// Whether an object key equals a name (decoded: `"\u005fmeta"` is `_meta`).
struct KeyIs<'n>(&'n str);

impl<'de> DeserializeSeed<'de> for KeyIs<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeyIs<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}

/// Follows a path of keys through nested objects; the value at its end is captured. Any
/// value that is not an object on the way means absent. What is not on the path is
/// skipped as `K`.
struct Path<'p, 'n, K>(&'p [&'n str], PhantomData<K>);

impl<'p, 'n, K> Path<'p, 'n, K> {
    fn new(path: &'p [&'n str]) -> Self {
        Path(path, PhantomData)
    }
}

impl<'de, K: de::Deserialize<'de>> DeserializeSeed<'de> for Path<'_, '_, K> {
    type Value = RawPreference<'de>;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<RawPreference<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, K: de::Deserialize<'de>> Visitor<'de> for Path<'_, '_, K> {
    type Value = RawPreference<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawPreference<'de>, A::Error> {
        let Some((first, rest)) = self.0.split_first() else {
            skip_map::<K, A>(map)?;
            return Ok(RawPreference::Absent);
        };
        let mut found = RawPreference::Absent;
        while let Some(is_first) = map.next_key_seed(KeyIs(first))? {
            if !is_first {
                map.next_value::<K>()?;
            } else if rest.is_empty() {
                let text = map.next_value_seed(Text::<K>::new())?;
                found = text.map_or(RawPreference::NotString, RawPreference::String);
            } else {
                found = map.next_value_seed(Path::<K>::new(rest))?;
            }
        }
        Ok(found)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<RawPreference<'de>, A::Error> {
        skip_seq::<K, A>(seq).map(|()| RawPreference::Absent)
    }

    scalars_are!(RawPreference::Absent);
    strings_are!(RawPreference::Absent);
}

/// A value kept when it is a string (borrowed unless it had escapes); anything else is
/// skipped as `K` and gives `None`.
struct Text<K>(PhantomData<K>);

impl<K> Text<K> {
    fn new() -> Self {
        Text(PhantomData)
    }
}

impl<'de, K: de::Deserialize<'de>> DeserializeSeed<'de> for Text<K> {
    type Value = Option<Cow<'de, str>>;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Option<Cow<'de, str>>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, K: de::Deserialize<'de>> Visitor<'de> for Text<K> {
    type Value = Option<Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Borrowed(text)))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(text.to_owned())))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(text)))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        skip_map::<K, A>(map).map(|()| None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        skip_seq::<K, A>(seq).map(|()| None)
    }

    scalars_are!(None);
}
