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
//!
//! ```
//! use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
//! use serde_json::json;
//!
//! let mut cache = ResponseCache::with_clock(ManualClock::new());
//! let result = json!({"tools": [], "ttlMs": 60000, "cacheScope": "public"});
//! cache.store(&CacheRequest::new("tools/list").accept_language(Some("en-GB")), &result);
//! // `en-GB` and `en` may both select `en`; the cached response is still not shared.
//! assert!(cache.get(&CacheRequest::new("tools/list").accept_language(Some("en"))).is_none());
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use serde_json::Value;

use crate::ACCEPT_LANGUAGE_KEY;

/// A source of monotonic time in milliseconds.
///
/// ```
/// use mcp_lang_meta::{CacheRequest, Clock, ResponseCache};
/// use serde_json::json;
///
/// // A clock stopped at a fixed time: nothing ever expires.
/// struct Frozen;
/// impl Clock for Frozen {
///     fn now_ms(&self) -> u64 { 42 }
/// }
/// let mut cache = ResponseCache::with_clock(Frozen);
/// cache.store(&CacheRequest::new("prompts/list"), &json!({"prompts": [], "ttlMs": 1}));
/// assert!(cache.get(&CacheRequest::new("prompts/list")).is_some());
/// ```
pub trait Clock {
    /// Milliseconds since some fixed start; never decreases.
    ///
    /// ```
    /// use mcp_lang_meta::{Clock, ManualClock};
    ///
    /// let clock = ManualClock::new();
    /// let start = clock.now_ms();
    /// clock.advance_ms(5);
    /// assert_eq!(clock.now_ms() - start, 5);
    /// ```
    fn now_ms(&self) -> u64;
}

/// The real clock: milliseconds since the clock was created ([`Instant`] based).
///
/// ```
/// use mcp_lang_meta::{Clock, SystemClock};
///
/// let clock = SystemClock::new();
/// let before = clock.now_ms();
/// assert!(clock.now_ms() >= before);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A clock starting now.
    ///
    /// ```
    /// use mcp_lang_meta::{Clock, SystemClock};
    ///
    /// // Just created: well under a minute has passed.
    /// assert!(SystemClock::new().now_ms() < 60_000);
    /// ```
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
    ///
    /// ```
    /// use mcp_lang_meta::{Clock, ManualClock};
    ///
    /// assert_eq!(ManualClock::new().now_ms(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves the clock forward.
    ///
    /// ```
    /// use mcp_lang_meta::{Clock, ManualClock};
    ///
    /// let clock = ManualClock::new();
    /// clock.advance_ms(250);
    /// clock.advance_ms(750);
    /// assert_eq!(clock.now_ms(), 1000);
    /// ```
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
///
/// ```
/// use mcp_lang_meta::{CacheRequest, CacheScope, ManualClock, ResponseCache, Stored};
/// use serde_json::json;
///
/// let mut cache = ResponseCache::with_clock(ManualClock::new());
/// let request = CacheRequest::new("resources/list").auth_context("alice");
/// // No `cacheScope`: the safe reading, private.
/// let stored = cache.store(&request, &json!({"resources": [], "ttlMs": 60000}));
/// assert_eq!(stored, Stored::Yes { scope: CacheScope::Private, ttl_ms: 60000 });
/// ```
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
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new());
    /// cache.store(&CacheRequest::new("tools/list"), &json!({"tools": [], "ttlMs": 1000}));
    /// assert!(cache.get(&CacheRequest::new("tools/list")).is_some());
    /// assert!(cache.get(&CacheRequest::new("prompts/list")).is_none());
    /// ```
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
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new());
    /// let private = json!({"tools": [], "ttlMs": 1000, "cacheScope": "private"});
    /// cache.store(&CacheRequest::new("tools/list").auth_context("alice"), &private);
    /// assert!(cache.get(&CacheRequest::new("tools/list").auth_context("alice")).is_some());
    /// assert!(cache.get(&CacheRequest::new("tools/list").auth_context("bob")).is_none());
    /// ```
    pub fn auth_context(mut self, context: &'a str) -> Self {
        self.auth_context = Some(context);
        self
    }

    /// The raw `acceptLanguage` string the request carried, exactly as sent.
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new());
    /// let result = json!({"tools": [], "ttlMs": 1000, "cacheScope": "public"});
    /// cache.store(&CacheRequest::new("tools/list").accept_language(Some("fr-CA")), &result);
    /// // Never normalized: `fr-ca` is another preference, so another entry.
    /// assert!(cache.get(&CacheRequest::new("tools/list").accept_language(Some("fr-ca"))).is_none());
    /// assert!(cache.get(&CacheRequest::new("tools/list").accept_language(None)).is_none());
    /// ```
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
///
/// ```
/// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache, Stored};
/// use serde_json::json;
///
/// let mut cache = ResponseCache::with_clock(ManualClock::new());
/// let request = CacheRequest::new("tools/list");
/// assert_eq!(cache.store(&request, &json!({"tools": []})), Stored::NoTtl);
/// assert_eq!(cache.store(&request, &json!({"tools": [], "ttlMs": 5, "cacheScope": "team"})), Stored::UnknownScope);
/// assert!(cache.is_empty());
/// ```
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
    ///
    /// ```
    /// use mcp_lang_meta::ResponseCache;
    ///
    /// let cache = ResponseCache::new();
    /// assert!(cache.is_empty());
    /// ```
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
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new());
    /// for page in 0..ResponseCache::<ManualClock>::DEFAULT_CAPACITY + 10 {
    ///     let params = json!({"cursor": page.to_string()});
    ///     cache.store(&CacheRequest::new("tools/list").params(&params), &json!({"ttlMs": 1000}));
    /// }
    /// assert_eq!(cache.len(), 1024);
    /// ```
    pub const DEFAULT_CAPACITY: usize = 1024;

    /// A cache on the given clock.
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let clock = ManualClock::new();
    /// let mut cache = ResponseCache::with_clock(clock.clone());
    /// cache.store(&CacheRequest::new("tools/list"), &json!({"tools": [], "ttlMs": 100}));
    /// clock.advance_ms(99);
    /// assert!(cache.get(&CacheRequest::new("tools/list")).is_some());
    /// clock.advance_ms(1);
    /// assert!(cache.get(&CacheRequest::new("tools/list")).is_none());
    /// ```
    pub fn with_clock(clock: C) -> Self {
        ResponseCache {
            entries: HashMap::new(),
            clock,
            capacity: Self::DEFAULT_CAPACITY,
        }
    }

    /// Sets the most entries held (at least 1).
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new()).with_capacity(1);
    /// cache.store(&CacheRequest::new("tools/list"), &json!({"ttlMs": 500}));
    /// cache.store(&CacheRequest::new("prompts/list"), &json!({"ttlMs": 900}));
    /// assert_eq!(cache.len(), 1);
    /// // The entry closest to expiry made room.
    /// assert!(cache.get(&CacheRequest::new("prompts/list")).is_some());
    /// ```
    pub fn with_capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity.max(1);
        self
    }

    /// The number of entries held (fresh or not yet purged).
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new());
    /// let result = json!({"tools": [], "ttlMs": 1000});
    /// cache.store(&CacheRequest::new("tools/list").accept_language(Some("de")), &result);
    /// cache.store(&CacheRequest::new("tools/list").accept_language(Some("de-CH")), &result);
    /// assert_eq!(cache.len(), 2); // one entry per raw preference
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the cache holds nothing.
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new());
    /// assert!(cache.is_empty());
    /// cache.store(&CacheRequest::new("tools/list"), &json!({"ttlMs": 1}));
    /// assert!(!cache.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every entry.
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new());
    /// cache.store(&CacheRequest::new("tools/list"), &json!({"ttlMs": 1000}));
    /// cache.clear();
    /// assert_eq!(cache.get(&CacheRequest::new("tools/list")), None);
    /// ```
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// A fresh cached result for this request: one stored privately for the same
    /// authorization context, else one stored publicly; always for the same method,
    /// params and raw preference.
    ///
    /// ```
    /// use mcp_lang_meta::{CacheRequest, ManualClock, ResponseCache};
    /// use serde_json::json;
    ///
    /// let mut cache = ResponseCache::with_clock(ManualClock::new());
    /// let a = json!({"cursor": "a", "_meta": {"progressToken": 1}});
    /// let b = json!({"_meta": {"progressToken": 2}, "cursor": "a"});
    /// cache.store(&CacheRequest::new("tools/list").params(&a), &json!({"tools": [], "ttlMs": 1000}));
    /// // `_meta` tokens and key order do not split entries.
    /// assert!(cache.get(&CacheRequest::new("tools/list").params(&b)).is_some());
    /// ```
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
