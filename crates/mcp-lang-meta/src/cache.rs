//! A client-side response cache that never crosses languages (SEP-2792 "Caching",
//! decision D10).
//!
//! SEP-2792: "Any MCP or client cache that reuses a response MUST include the request's
//! `acceptLanguage` value in its cache key when the representation varies by language. A
//! cached response for one preference MUST NOT be served for a different preference.
//! This applies even when both preferences happen to select the same language." And
//! "`cacheScope: "public"` permits sharing across authorization contexts; it does not
//! permit sharing across language variants".
//!
//! [`ResponseCache`] keys every entry by
//!
//! 1. the method,
//! 2. the params without `_meta` (in a canonical form: object keys sorted, so key order
//!    does not split entries; `_meta` carries per-request tokens), but when no
//!    [`CacheRequest::accept_language`] is given, the raw
//!    `_meta["io.modelcontextprotocol/acceptLanguage"]` of the params is keyed instead,
//!    so a caller that forgets the preference still keys by language,
//! 3. the authorization context, for `cacheScope: "private"` entries only (a `"public"`
//!    entry may be served to any context),
//! 4. the raw `acceptLanguage` string exactly as sent (or its absence), never the language
//!    the server selected, and never normalized: `fr-CA` and `fr-ca` are two entries.
//!
//! A client cannot know whether a representation varies by language, so the preference is
//! always part of the key.
//!
//! Freshness follows the result's `ttlMs` (milliseconds; a result without a positive
//! integer `ttlMs` is not stored). A result without `cacheScope` is treated as
//! `"private"` (the safe reading); an unknown `cacheScope` is not stored. Time comes from
//! a [`Clock`], so tests advance a [`ManualClock`] instead of sleeping. The cache holds at
//! most [`capacity`](ResponseCache::with_capacity) entries; when full, expired entries go
//! first, then the one closest to expiry.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use serde_json::Value;

use crate::ACCEPT_LANGUAGE_KEY;

/// A source of monotonic time in milliseconds.
pub trait Clock {
    /// Milliseconds since some fixed start; never decreases.
    fn now_ms(&self) -> u64;
}

/// The real clock: milliseconds since the clock was created ([`Instant`] based).
#[derive(Clone, Copy, Debug)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A clock starting now.
    pub fn new() -> Self {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// A clock that moves only when told to; clones share the same time.
///
/// ```
/// use mcp_lang_meta::{Clock, ManualClock};
///
/// let clock = ManualClock::new();
/// let handle = clock.clone();
/// handle.advance_ms(1500);
/// assert_eq!(clock.now_ms(), 1500);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ManualClock {
    now: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock at 0 ms.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves the clock forward.
    pub fn advance_ms(&self, ms: u64) {
        self.now.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.now.load(Ordering::SeqCst)
    }
}

/// `cacheScope` of a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CacheScope {
    /// `"public"`: may be served to any authorization context (never to another
    /// preference).
    Public,
    /// `"private"`: only within the authorization context that fetched it.
    Private,
}

/// The request side of a cache lookup: what the client sent.
///
/// ```
/// use mcp_lang_meta::CacheRequest;
/// use serde_json::json;
///
/// let params = json!({"_meta": {"io.modelcontextprotocol/acceptLanguage": "de"}});
/// let request = CacheRequest::new("tools/list")
///     .params(&params)
///     .auth_context("user-42")
///     .accept_language(Some("de"));
/// # let _ = request;
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CacheRequest<'a> {
    method: &'a str,
    params: Option<&'a Value>,
    auth_context: Option<&'a str>,
    accept_language: Option<&'a str>,
}

impl<'a> CacheRequest<'a> {
    /// A request for `method`, without params, authorization context or preference.
    pub fn new(method: &'a str) -> Self {
        CacheRequest {
            method,
            params: None,
            auth_context: None,
            accept_language: None,
        }
    }

    /// The request's params. Their `_meta` is left out of the key (it carries per-request
    /// tokens), except that, when no [`accept_language`](Self::accept_language) is given,
    /// `_meta["io.modelcontextprotocol/acceptLanguage"]` is keyed exactly as sent: the
    /// SEP's cache-key rule holds even when the caller forgets to pass the preference.
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new());
    /// let fr = json!({"_meta": {"io.modelcontextprotocol/acceptLanguage": "fr"}});
    /// let de = json!({"_meta": {"io.modelcontextprotocol/acceptLanguage": "de"}});
    /// cache.store(&CacheRequest::new("tools/list").params(&fr), &json!({"tools": [], "ttlMs": 1000}));
    /// assert!(cache.get(&CacheRequest::new("tools/list").params(&fr)).is_some());
    /// assert!(cache.get(&CacheRequest::new("tools/list").params(&de)).is_none());
    /// ```
    pub fn params(mut self, params: &'a Value) -> Self {
        self.params = Some(params);
        self
    }

    /// The authorization context (a user or token identity; opaque to the cache).
    pub fn auth_context(mut self, context: &'a str) -> Self {
        self.auth_context = Some(context);
        self
    }

    /// The raw `acceptLanguage` string the request carried, exactly as sent.
    pub fn accept_language(mut self, preference: Option<&'a str>) -> Self {
        self.accept_language = preference;
        self
    }

    fn key(&self, scope: CacheScope) -> Key {
        Key {
            method: self.method.to_owned(),
            params: canonical_params(self.params),
            auth: match scope {
                CacheScope::Public => Sharing::Public,
                CacheScope::Private => Sharing::Private(self.auth_context.map(str::to_owned)),
            },
            preference: self.accept_language.map(str::to_owned),
            // Only when no preference was given: the explicit one is what was sent.
            meta_preference: self
                .params
                .filter(|_| self.accept_language.is_none())
                .and_then(|p| p.get("_meta"))
                .and_then(|m| m.get(ACCEPT_LANGUAGE_KEY))
                .map(|v| {
                    let mut text = String::new();
                    write_canonical(&mut text, v);
                    text
                }),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Sharing {
    Public,
    Private(Option<String>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    method: String,
    params: String,
    auth: Sharing,
    preference: Option<String>,
    /// `params._meta[acceptLanguage]` as canonical JSON text (any JSON value: a
    /// non-string preference keys apart too).
    meta_preference: Option<String>,
}

#[derive(Clone, Debug)]
struct Entry {
    result: Value,
    expires_at: u64,
}

/// What [`ResponseCache::store`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stored {
    /// Stored with this scope, fresh for `ttl_ms`.
    Yes {
        /// The scope the entry was stored under.
        scope: CacheScope,
        /// How long it stays fresh.
        ttl_ms: u64,
    },
    /// Not stored: no positive integer `ttlMs`.
    NoTtl,
    /// Not stored: `cacheScope` is neither `"public"` nor `"private"`.
    UnknownScope,
}

/// A client response cache keyed by method, params without `_meta`, authorization
/// context (private entries) and raw preference (see the [module docs](self)).
///
/// ```
/// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
/// use serde_json::json;
///
/// let clock = ManualClock::new();
/// let mut cache = ResponseCache::with_clock(clock.clone());
/// let fr = json!({"tools": [{"name": "weather_current", "title": "Météo actuelle"}],
///     "ttlMs": 300000, "cacheScope": "public",
///     "_meta": {"io.modelcontextprotocol/contentLanguage": "fr-CA"}});
///
/// let alice_fr = CacheRequest::new("tools/list").auth_context("alice").accept_language(Some("fr-CA,fr;q=0.9"));
/// cache.store(&alice_fr, &fr);
///
/// // Public: shared with another authorization context, same preference…
/// let bob_fr = CacheRequest::new("tools/list").auth_context("bob").accept_language(Some("fr-CA,fr;q=0.9"));
/// assert_eq!(cache.get(&bob_fr), Some(&fr));
/// // …never with another preference, even one that selects the same language.
/// let bob_fr2 = CacheRequest::new("tools/list").auth_context("bob").accept_language(Some("fr-CA"));
/// assert_eq!(cache.get(&bob_fr2), None);
///
/// clock.advance_ms(300_000);
/// assert_eq!(cache.get(&bob_fr), None); // ttlMs elapsed
/// ```
#[derive(Debug)]
pub struct ResponseCache<C = SystemClock> {
    entries: HashMap<Key, Entry>,
    clock: C,
    capacity: usize,
}

impl ResponseCache<SystemClock> {
    /// A cache on the system clock, holding up to [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY) entries.
    pub fn new() -> Self {
        Self::with_clock(SystemClock::new())
    }
}

impl Default for ResponseCache<SystemClock> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Clock> ResponseCache<C> {
    /// The number of entries a cache holds unless told otherwise.
    pub const DEFAULT_CAPACITY: usize = 1024;

    /// A cache on the given clock.
    pub fn with_clock(clock: C) -> Self {
        ResponseCache {
            entries: HashMap::new(),
            clock,
            capacity: Self::DEFAULT_CAPACITY,
        }
    }

    /// Sets the most entries held (at least 1).
    pub fn with_capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity.max(1);
        self
    }

    /// The number of entries held (fresh or not yet purged).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the cache holds nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// A fresh cached result for this request: one stored privately for the same
    /// authorization context, else one stored publicly; always for the same method,
    /// params and raw preference.
    pub fn get(&self, request: &CacheRequest<'_>) -> Option<&Value> {
        let now = self.clock.now_ms();
        [CacheScope::Private, CacheScope::Public]
            .into_iter()
            .filter_map(|scope| self.entries.get(&request.key(scope)))
            .find(|entry| now < entry.expires_at)
            .map(|entry| &entry.result)
    }

    /// Stores a result (the value of the response's `result` member) according to its
    /// `ttlMs` and `cacheScope`.
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, CacheScope, ResponseCache, Stored};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::new();
    /// let req = CacheRequest::new("prompts/list").auth_context("alice").accept_language(Some("de"));
    /// assert_eq!(cache.store(&req, &json!({"prompts": []})), Stored::NoTtl);
    /// assert_eq!(cache.store(&req, &json!({"prompts": [], "ttlMs": 1000})),
    ///            Stored::Yes { scope: CacheScope::Private, ttl_ms: 1000 });
    /// ```
    pub fn store(&mut self, request: &CacheRequest<'_>, result: &Value) -> Stored {
        let Some(ttl_ms) = result
            .get("ttlMs")
            .and_then(Value::as_u64)
            .filter(|&t| t > 0)
        else {
            return Stored::NoTtl;
        };
        let scope = match result.get("cacheScope") {
            None => CacheScope::Private,
            Some(Value::String(s)) if s == "public" => CacheScope::Public,
            Some(Value::String(s)) if s == "private" => CacheScope::Private,
            Some(_) => return Stored::UnknownScope,
        };
        let now = self.clock.now_ms();
        let key = request.key(scope);
        if !self.entries.contains_key(&key) && self.entries.len() >= self.capacity {
            self.entries.retain(|_, e| now < e.expires_at);
            if self.entries.len() >= self.capacity {
                let soonest = self
                    .entries
                    .iter()
                    .min_by_key(|(_, e)| e.expires_at)
                    .map(|(k, _)| k.clone());
                if let Some(k) = soonest {
                    self.entries.remove(&k);
                }
            }
        }
        let entry = Entry {
            result: result.clone(),
            expires_at: now.saturating_add(ttl_ms),
        };
        self.entries.insert(key, entry);
        Stored::Yes { scope, ttl_ms }
    }
}

/// The params without their top-level `_meta`, as canonical JSON text (object keys
/// sorted), so the key does not depend on key order or on serde_json's map features.
fn canonical_params(params: Option<&Value>) -> String {
    let mut out = String::new();
    match params {
        None => out.push('-'),
        Some(Value::Object(map)) => {
            let mut keys: Vec<&String> = map.keys().filter(|k| *k != "_meta").collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(&mut out, &Value::String(k.clone()));
                out.push(':');
                if let Some(v) = map.get(k) {
                    write_canonical(&mut out, v);
                }
            }
            out.push('}');
        }
        Some(other) => write_canonical(&mut out, other),
    }
    out
}

fn write_canonical(out: &mut String, value: &Value) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{}", Value::String(k.clone()));
                out.push(':');
                if let Some(v) = map.get(k) {
                    write_canonical(out, v);
                }
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, v);
            }
            out.push(']');
        }
        scalar => {
            let _ = write!(out, "{scalar}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::canonical_params;
    use serde_json::json;

    #[test]
    fn canonical_params_ignore_key_order_and_meta() {
        let a = json!({"name": "x", "arguments": {"b": 1, "a": [2, {"d": 3, "c": 4}]}, "_meta": {"k": "v"}});
        let b = json!({"arguments": {"a": [2, {"c": 4, "d": 3}], "b": 1}, "name": "x"});
        assert_eq!(canonical_params(Some(&a)), canonical_params(Some(&b)));
        assert_eq!(
            canonical_params(Some(&b)),
            r#"{"arguments":{"a":[2,{"c":4,"d":3}],"b":1},"name":"x"}"#
        );
        assert_ne!(canonical_params(None), canonical_params(Some(&json!({}))));
        // `_meta` below the top level is data, and stays in the key.
        assert_ne!(
            canonical_params(Some(&json!({"arguments": {"_meta": 1}}))),
            canonical_params(Some(&json!({"arguments": {}})))
        );
    }
}
