//! A language-aware response cache in front of an rmcp client.
//!
//! rmcp 3.11's own client cache keys list results by cursor only, so on one
//! connection it can serve one preference's titles to another (see the crate
//! docs). [`CachingClient`] replaces it for the four list methods (`tools/list`,
//! `prompts/list`, `resources/list`, `resources/templates/list`): each request goes
//! through [`send_with_preference`] (which bypasses rmcp's cache), and the
//! result is kept in `mcp-lang-meta`'s [`ResponseCache`], keyed by the method,
//! the params without `_meta`, the authorization context for `private` entries,
//! and the **raw** preference exactly as sent (decision D10; SEP-2792: "A
//! cached response for one preference MUST NOT be served for a different
//! preference"). The server's `ttlMs` says how long an entry stays fresh and
//! its `cacheScope` whether it is shared across authorization contexts; a
//! result without a positive `ttlMs` is not stored.
//!
//! Two preferences that select the same language still get separate entries:
//! the cache cannot know the server's supported set, and keying by the
//! negotiated language is exactly the mistake the SEP forbids.
//!
//! With a connected rmcp client peer (the reference server's tests run this
//! against a live server):
//!
//! ```no_run
//! # async fn example(peer: rmcp::Peer<rmcp::RoleClient>) -> Result<(), mcp_lang_rmcp::client::SendError> {
//! use mcp_lang_rmcp::cache::CachingClient;
//! use mcp_lang_rmcp::server::reported;
//!
//! let client = CachingClient::new(peer).auth_context("user-42");
//! let fr = client.list_tools(None, Some("fr-CA,fr;q=0.9")).await?; // from the server
//! let again = client.list_tools(None, Some("fr-CA,fr;q=0.9")).await?; // from the cache
//! let fr_only = client.list_tools(None, Some("fr-CA")).await?; // another raw preference: the server
//! assert_eq!((reported(&fr.meta), reported(&again.meta)), (Some("fr-CA"), Some("fr-CA")));
//! assert_eq!(reported(&fr_only.meta), Some("fr-CA")); // same language, still its own entry
//! assert_eq!((client.stats().hits, client.stats().misses), (1, 2));
//! # Ok(()) }
//! ```

use std::sync::{Mutex, MutexGuard, PoisonError};

use mcp_lang_meta::{CacheRequest, Clock, ResponseCache, SystemClock};
use rmcp::{
    RoleClient,
    model::{
        ClientRequest, ListPromptsRequest, ListPromptsResult, ListResourceTemplatesRequest,
        ListResourceTemplatesResult, ListResourcesRequest, ListResourcesResult, ListToolsRequest,
        ListToolsResult, PaginatedRequestParams, ServerResult,
    },
    service::Peer,
};
use serde_json::{Value, json};

use crate::client::{SendError, check_preference, send_with_preference};

/// How often the cache answered and how often the server did.
///
/// ```
/// use mcp_lang_rmcp::cache::CacheStats;
///
/// let stats = CacheStats::default();
/// assert_eq!((stats.hits, stats.misses), (0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CacheStats {
    /// Answers served from the cache.
    pub hits: u64,
    /// Requests sent to the server.
    pub misses: u64,
}

/// An rmcp client peer with a language-aware cache for `tools/list`,
/// `prompts/list`, `resources/list` and `resources/templates/list` (see the
/// [module docs](self) for an example; this crate's `caching_client` test runs
/// it against a scripted server and the reference server's against a live one).
///
/// ```no_run
/// # async fn example(peer: rmcp::Peer<rmcp::RoleClient>) {
/// use mcp_lang_rmcp::cache::CachingClient;
///
/// let client = CachingClient::new(peer);
/// let fr = client.list_tools(None, Some("fr-CA,fr;q=0.9")).await.unwrap(); // the server
/// let again = client.list_tools(None, Some("fr-CA,fr;q=0.9")).await.unwrap(); // the cache
/// assert_eq!(again.tools, fr.tools);
/// let _de = client.list_tools(None, Some("de")).await.unwrap(); // another preference: the server
/// assert_eq!((client.stats().hits, client.stats().misses), (1, 2));
/// # }
/// ```
#[derive(Debug)]
pub struct CachingClient<C = SystemClock> {
    peer: Peer<RoleClient>,
    auth_context: Option<String>,
    state: Mutex<State<C>>,
}

#[derive(Debug)]
struct State<C> {
    cache: ResponseCache<C>,
    stats: CacheStats,
}

impl CachingClient<SystemClock> {
    /// A caching client on the system clock.
    ///
    /// ```no_run
    /// # async fn example(peer: rmcp::Peer<rmcp::RoleClient>) {
    /// use mcp_lang_rmcp::cache::CachingClient;
    ///
    /// let client = CachingClient::new(peer);
    /// assert_eq!(client.stats().misses, 0);
    /// # }
    /// ```
    pub fn new(peer: Peer<RoleClient>) -> Self {
        Self::with_clock(peer, SystemClock::new())
    }
}

impl<C: Clock> CachingClient<C> {
    /// A caching client on the given clock (a `ManualClock` in tests).
    ///
    /// An entry stays fresh for the server's `ttlMs` (the reference server
    /// says 300 000 for its lists):
    ///
    /// ```no_run
    /// # async fn example(peer: rmcp::Peer<rmcp::RoleClient>) {
    /// use mcp_lang_rmcp::{cache::CachingClient, mcp_lang_meta::ManualClock};
    ///
    /// let clock = ManualClock::new();
    /// let client = CachingClient::with_clock(peer, clock.clone());
    /// client.list_prompts(None, Some("ja")).await.unwrap();
    /// client.list_prompts(None, Some("ja")).await.unwrap(); // fresh: the cache
    /// clock.advance_ms(300_001);
    /// client.list_prompts(None, Some("ja")).await.unwrap(); // stale: the server
    /// assert_eq!((client.stats().hits, client.stats().misses), (1, 2));
    /// # }
    /// ```
    pub fn with_clock(peer: Peer<RoleClient>, clock: C) -> Self {
        CachingClient {
            peer,
            auth_context: None,
            state: Mutex::new(State {
                cache: ResponseCache::with_clock(clock),
                stats: CacheStats::default(),
            }),
        }
    }

    /// The authorization context (a user or token identity) that `private`
    /// entries are kept for. Without one, private entries are shared by every
    /// caller of this client, which is right only when the client acts for one
    /// user.
    ///
    /// ```no_run
    /// # async fn example(peer: rmcp::Peer<rmcp::RoleClient>) {
    /// use mcp_lang_rmcp::cache::CachingClient;
    ///
    /// let client = CachingClient::new(peer).auth_context("user-42");
    /// let tools = client.list_tools(None, Some("en")).await.unwrap();
    /// assert!(!tools.tools.is_empty());
    /// # }
    /// ```
    pub fn auth_context(mut self, context: impl Into<String>) -> Self {
        self.auth_context = Some(context.into());
        self
    }

    /// The peer requests are sent through, for requests the cache does not
    /// handle.
    ///
    /// ```no_run
    /// # async fn example(peer: rmcp::Peer<rmcp::RoleClient>) {
    /// use mcp_lang_rmcp::{cache::CachingClient, client::send_with_preference};
    /// use rmcp::model::{ClientRequest, ReadResourceRequest, ReadResourceRequestParams};
    ///
    /// let client = CachingClient::new(peer);
    /// # let uri = client.list_resources(None, None).await.unwrap().resources[0].uri.clone();
    /// let read = ClientRequest::ReadResourceRequest(ReadResourceRequest::new(ReadResourceRequestParams::new(uri)));
    /// let result = send_with_preference(client.peer(), read, Some("ga")).await.unwrap();
    /// assert_eq!(mcp_lang_rmcp::client::content_language(&result), Some("ga"));
    /// # }
    /// ```
    pub fn peer(&self) -> &Peer<RoleClient> {
        &self.peer
    }

    /// Hits and misses so far.
    ///
    /// ```no_run
    /// # async fn example(peer: rmcp::Peer<rmcp::RoleClient>) {
    /// use mcp_lang_rmcp::cache::CachingClient;
    ///
    /// let client = CachingClient::new(peer);
    /// client.list_resources(None, Some("de")).await.unwrap();
    /// client.list_resources(None, Some("de")).await.unwrap();
    /// assert_eq!((client.stats().hits, client.stats().misses), (1, 1));
    /// # }
    /// ```
    pub fn stats(&self) -> CacheStats {
        self.lock().stats
    }

    /// Drops every cached result.
    ///
    /// ```no_run
    /// # async fn example(peer: rmcp::Peer<rmcp::RoleClient>) {
    /// use mcp_lang_rmcp::cache::CachingClient;
    ///
    /// let client = CachingClient::new(peer);
    /// client.list_tools(None, Some("fr")).await.unwrap();
    /// client.clear();
    /// client.list_tools(None, Some("fr")).await.unwrap(); // asked again
    /// assert_eq!((client.stats().hits, client.stats().misses), (0, 2));
    /// # }
    /// ```
    pub fn clear(&self) {
        self.lock().cache.clear();
    }

    /// `tools/list` (one page, from `cursor`) under `preference`, from the
    /// cache when a fresh entry for exactly this preference exists.
    ///
    /// # Errors
    ///
    /// [`SendError::Preference`] before anything is sent or looked up,
    /// rmcp's error, or [`SendError::UnexpectedResult`].
    ///
    /// ```no_run
    /// # async fn example(client: mcp_lang_rmcp::cache::CachingClient) {
    /// use mcp_lang_rmcp::client::{PreferenceError, SendError};
    ///
    /// let refused = client.list_tools(None, Some("de\r\nX: 1")).await;
    /// assert!(matches!(refused, Err(SendError::Preference(PreferenceError::NotFieldValue { offset: 2 }))));
    /// assert_eq!(client.stats().misses, 0); // nothing was sent
    /// let tools = client.list_tools(None, None).await.unwrap(); // no preference: the default
    /// assert_eq!(mcp_lang_rmcp::server::reported(&tools.meta), Some("en"));
    /// # }
    /// ```
    pub async fn list_tools(
        &self,
        cursor: Option<String>,
        preference: Option<&str>,
    ) -> Result<ListToolsResult, SendError> {
        let request = ClientRequest::ListToolsRequest(ListToolsRequest::with_param(page(&cursor)));
        self.list(List {
            method: "tools/list",
            cursor,
            request,
            preference,
            expected: |r| matches!(r, ServerResult::ListToolsResult(_)),
            decode: serde_json::from_value,
        })
        .await
    }

    /// `prompts/list` (one page, from `cursor`) under `preference`; see
    /// [`list_tools`](Self::list_tools).
    ///
    /// # Errors
    ///
    /// As [`list_tools`](Self::list_tools).
    ///
    /// ```no_run
    /// # async fn example(client: mcp_lang_rmcp::cache::CachingClient) {
    /// let prompts = client.list_prompts(None, Some("ja, en;q=0.5")).await.unwrap();
    /// assert_eq!(mcp_lang_rmcp::server::reported(&prompts.meta), Some("ja"));
    /// assert!(!prompts.prompts.is_empty());
    /// # }
    /// ```
    pub async fn list_prompts(
        &self,
        cursor: Option<String>,
        preference: Option<&str>,
    ) -> Result<ListPromptsResult, SendError> {
        let request =
            ClientRequest::ListPromptsRequest(ListPromptsRequest::with_param(page(&cursor)));
        self.list(List {
            method: "prompts/list",
            cursor,
            request,
            preference,
            expected: |r| matches!(r, ServerResult::ListPromptsResult(_)),
            decode: serde_json::from_value,
        })
        .await
    }

    /// `resources/list` (one page, from `cursor`) under `preference`; see
    /// [`list_tools`](Self::list_tools).
    ///
    /// # Errors
    ///
    /// As [`list_tools`](Self::list_tools).
    ///
    /// ```no_run
    /// # async fn example(client: mcp_lang_rmcp::cache::CachingClient) {
    /// let resources = client.list_resources(None, Some("ga-IE")).await.unwrap();
    /// assert_eq!(mcp_lang_rmcp::server::reported(&resources.meta), Some("ga"));
    /// # }
    /// ```
    pub async fn list_resources(
        &self,
        cursor: Option<String>,
        preference: Option<&str>,
    ) -> Result<ListResourcesResult, SendError> {
        let request =
            ClientRequest::ListResourcesRequest(ListResourcesRequest::with_param(page(&cursor)));
        self.list(List {
            method: "resources/list",
            cursor,
            request,
            preference,
            expected: |r| matches!(r, ServerResult::ListResourcesResult(_)),
            decode: serde_json::from_value,
        })
        .await
    }

    /// `resources/templates/list` (one page, from `cursor`) under
    /// `preference`; see [`list_tools`](Self::list_tools).
    ///
    /// # Errors
    ///
    /// As [`list_tools`](Self::list_tools).
    ///
    /// ```no_run
    /// # async fn example(client: mcp_lang_rmcp::cache::CachingClient) {
    /// let templates = client.list_resource_templates(None, Some("de-AT")).await.unwrap();
    /// assert_eq!(mcp_lang_rmcp::server::reported(&templates.meta), Some("de"));
    /// client.list_resource_templates(None, Some("de-AT")).await.unwrap();
    /// assert_eq!((client.stats().hits, client.stats().misses), (1, 1));
    /// # }
    /// ```
    pub async fn list_resource_templates(
        &self,
        cursor: Option<String>,
        preference: Option<&str>,
    ) -> Result<ListResourceTemplatesResult, SendError> {
        let request = ClientRequest::ListResourceTemplatesRequest(
            ListResourceTemplatesRequest::with_param(page(&cursor)),
        );
        self.list(List {
            method: "resources/templates/list",
            cursor,
            request,
            preference,
            expected: |r| matches!(r, ServerResult::ListResourceTemplatesResult(_)),
            decode: serde_json::from_value,
        })
        .await
    }

    /// One list request through the cache, decoded.
    async fn list<T>(&self, list: List<'_, T>) -> Result<T, SendError> {
        let method = list.method;
        let value = self
            .fetch(
                method,
                list.cursor,
                list.request,
                list.preference,
                list.expected,
            )
            .await?;
        (list.decode)(value).map_err(|_| SendError::UnexpectedResult(method))
    }

    /// The cached result as JSON, or the server's after storing it.
    async fn fetch(
        &self,
        method: &'static str,
        cursor: Option<String>,
        request: ClientRequest,
        preference: Option<&str>,
        expected: fn(&ServerResult) -> bool,
    ) -> Result<Value, SendError> {
        if let Some(preference) = preference {
            check_preference(preference).map_err(SendError::Preference)?;
        }
        let params = cursor.map_or(Value::Null, |c| json!({ "cursor": c }));
        let key = self.key(method, &params, preference);
        {
            let mut state = self.lock();
            if let Some(hit) = state.cache.get(&key).cloned() {
                state.stats.hits += 1;
                return Ok(hit);
            }
            state.stats.misses += 1;
        }
        let result = send_with_preference(&self.peer, request, preference).await?;
        if !expected(&result) {
            return Err(SendError::UnexpectedResult(method));
        }
        let value =
            serde_json::to_value(&result).map_err(|_| SendError::UnexpectedResult(method))?;
        self.lock().cache.store(&key, &value);
        Ok(value)
    }

    fn key<'a>(
        &'a self,
        method: &'a str,
        params: &'a Value,
        preference: Option<&'a str>,
    ) -> CacheRequest<'a> {
        let mut key = CacheRequest::new(method).accept_language(preference);
        if !params.is_null() {
            key = key.params(params);
        }
        if let Some(context) = &self.auth_context {
            key = key.auth_context(context);
        }
        key
    }

    fn lock(&self) -> MutexGuard<'_, State<C>> {
        // The state stays consistent at every await point, so a panic in
        // another thread leaves nothing half-written.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The params of one page of a list.
fn page(cursor: &Option<String>) -> PaginatedRequestParams {
    PaginatedRequestParams::default().with_cursor(cursor.clone())
}

/// One list method: how to ask, what answer to expect, how to decode it.
struct List<'a, T> {
    method: &'static str,
    cursor: Option<String>,
    request: ClientRequest,
    preference: Option<&'a str>,
    expected: fn(&ServerResult) -> bool,
    decode: fn(Value) -> Result<T, serde_json::Error>,
}
