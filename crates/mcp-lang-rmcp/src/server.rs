//! The server side: negotiate each request's language and report it.
//!
//! Most servers need one line: wrap the rmcp `ServerHandler` in [`Localized`], with
//! the server's [`ServerLanguages`] and a [`Catalog`] of display text
//! (`FluentCatalog` for Fluent files, feature `fluent`, [`catalog_fn`] for anything else). It reads
//! each request's preference once, hands the handler a [`Language`], localizes the
//! titles of listed items from the catalog, and reports `contentLanguage` on every
//! result and error. A handler sends localized errors, progress, log messages and
//! elicitations through the [`Language`], which reports them too.
//!
//! No preference is carried from one request to another: it is read afresh from each
//! request's `_meta`, as SEP-2792 requires ("A server MUST NOT bind it to a connection
//! or logical session"). What [`ServerLanguages`] keeps is the outcome of negotiating a
//! preference string, found again only by the same string (decision R20): a client that
//! sends the same preference on every request pays for its negotiation once.
//!
//! The pieces [`Localized`] is built from are public for servers that do it by hand:
//! [`ServerLanguages::for_request`] negotiates, [`Titles`] localizes listed items,
//! [`stamp`] writes a result's `_meta`, [`localized_error`] an error's
//! `error.data._meta`, [`notify_progress`] a progress notification's `params._meta`,
//! and [`input_required`] / [`form_elicitation`] build an elicitation.
//!
//! ```
//! use mcp_lang_rmcp::server::{ServerLanguages, stamp};
//! use rmcp::model::ListToolsResult;
//!
//! let languages = ServerLanguages::new(["en", "fr", "fr-CA"], "en").unwrap();
//! let meta = serde_json::json!({
//!     "io.modelcontextprotocol/acceptLanguage": "fr-CA,fr;q=0.9,en;q=0.5"
//! });
//! let language = languages.negotiate_meta(meta.as_object());
//! assert_eq!(language.selected(), "fr-CA");
//!
//! let mut result = ListToolsResult::default();
//! stamp(&mut result.meta, language.selected());
//! let wire = serde_json::to_value(&result).unwrap();
//! assert_eq!(wire["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr-CA");
//! ```

mod catalog;
#[cfg(feature = "fluent")]
mod fluent;
mod localized;

pub use catalog::{Arg, Catalog, Field, FnCatalog, Titles, catalog_fn};
#[cfg(feature = "fluent")]
pub use fluent::{FluentCatalog, FluentError};
pub use localized::{Language, Localized};

use std::sync::{Arc, Mutex};

use mcp_lang_grammar::LanguageTag;
use mcp_lang_match::Negotiator;
use mcp_lang_meta::RawPreference;
use rmcp::{
    ErrorData, RoleServer,
    model::{
        ElicitRequest, ElicitRequestParams, ErrorCode, InputRequest, InputRequests,
        InputRequiredResult, JsonObject, MetaObject, NotificationMetaObject,
        ProgressNotificationParam, RequestMetaObject, RequestParamsMeta, ServerResult,
    },
    service::{RequestContext, ServiceError},
};
use serde_json::Value;

use crate::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};

/// Why a server's language configuration was refused by [`ServerLanguages::new`].
///
/// ```
/// use mcp_lang_rmcp::server::{LanguagesError, ServerLanguages};
///
/// let error = ServerLanguages::new(["en", "fr"], "de").unwrap_err();
/// assert_eq!(error, LanguagesError::DefaultNotSupported("de".into()));
/// let error = ServerLanguages::new(["en", "en_US"], "en").unwrap_err();
/// assert_eq!(error, LanguagesError::MalformedTag("en_US".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LanguagesError {
    /// No supported tag was given.
    Empty,
    /// A supported tag (or the default) is not a well-formed RFC 5646 language tag.
    MalformedTag(String),
    /// The default is not one of the supported tags.
    DefaultNotSupported(String),
}

impl std::fmt::Display for LanguagesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => f.write_str("a server must support at least one language"),
            Self::MalformedTag(tag) => write!(f, "{tag:?} is not a well-formed language tag"),
            Self::DefaultNotSupported(tag) => {
                write!(
                    f,
                    "the default language {tag:?} is not among the supported tags"
                )
            }
        }
    }
}

impl std::error::Error for LanguagesError {}

/// The language selected for one request: the per-request outcome of negotiation that
/// handlers localize with, `mcp-lang-meta`'s type (one negotiation path for every
/// adapter): the raw preference for logs and cache keys (decision D10), whether it was
/// well-formed, the selected supported tag in the server's spelling, its quality
/// (decision D1) and the matcher's reason.
///
/// ```
/// use mcp_lang_rmcp::server::ServerLanguages;
///
/// let languages = ServerLanguages::new(["en", "de"], "en").unwrap();
/// let language = languages.negotiate_raw(Some("ja, *;q=0"));
/// assert_eq!(language.selected(), "en"); // unmatched: the default, no error
/// assert!(language.is_well_formed());
/// assert_eq!(language.raw(), Some("ja, *;q=0"));
/// ```
pub use mcp_lang_meta::RequestLanguage;

/// A server's languages: its supported tags in its own order of preference and
/// its default, compiled once and shared by every request.
///
/// It keeps the outcomes of the last eight preference strings of at most 256 bytes
/// (decision R20): negotiating a string again costs a comparison, not a negotiation.
/// An outcome depends only on the string and the supported tags, so a kept one is
/// exactly what negotiating the request's own string gives; a request that finds the
/// outcomes in use by another negotiates instead of waiting.
///
/// ```
/// use mcp_lang_rmcp::server::ServerLanguages;
///
/// let languages = ServerLanguages::new(["en", "fr", "fr-CA", "de"], "en").unwrap();
/// assert_eq!(languages.negotiate_raw(Some("fr-BE")).selected(), "fr");
/// assert_eq!(languages.negotiate_raw(None).selected(), "en");
/// assert!(ServerLanguages::new(["en"], "de").is_err());
/// ```
#[derive(Debug)]
pub struct ServerLanguages {
    tags: Vec<Arc<str>>,
    default: usize,
    negotiator: Negotiator<Arc<str>>,
    /// The outcome for a request without a preference, and for one whose preference is
    /// not a string: the same for every such request.
    absent: Arc<RequestLanguage>,
    not_string: Arc<RequestLanguage>,
    recent: Mutex<Recent>,
}

/// How many outcomes [`ServerLanguages`] keeps by preference string (decision R20).
const RECENT: usize = 8;

/// The longest preference string whose outcome is kept; a longer one is negotiated
/// every time. Browsers send well under 100 bytes.
const RECENT_MAX_LEN: usize = 256;

/// The last [`RECENT`] negotiations of well-sized preference strings, replaced in turn.
///
/// A cache of a pure function: an outcome depends only on the preference string and
/// the supported list, which never changes, so a kept outcome is exactly what
/// negotiating the request's own string gives. It is found only by the request's own
/// string; a request without one never sees another's.
#[derive(Debug, Default)]
struct Recent {
    outcomes: [Option<Arc<RequestLanguage>>; RECENT],
    next: usize,
}

impl ServerLanguages {
    /// Compiles the supported set. Every tag must be a well-formed language tag,
    /// and the default one of them.
    ///
    /// # Errors
    ///
    /// [`LanguagesError`]: no tag, a malformed tag, or a default outside the set.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{LanguagesError, ServerLanguages};
    ///
    /// let languages = ServerLanguages::new(vec![String::from("en"), "de".into()], "de").unwrap();
    /// assert_eq!(languages.default_tag(), "de");
    /// assert_eq!(ServerLanguages::new(Vec::<&str>::new(), "en").unwrap_err(), LanguagesError::Empty);
    /// ```
    pub fn new<I, T>(supported: I, default: &str) -> Result<Self, LanguagesError>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        let mut tags: Vec<Arc<str>> = Vec::new();
        for tag in supported {
            let tag = tag.as_ref();
            if LanguageTag::parse(tag).is_err() {
                return Err(LanguagesError::MalformedTag(tag.to_owned()));
            }
            tags.push(Arc::from(tag));
        }
        if tags.is_empty() {
            return Err(LanguagesError::Empty);
        }
        let default_index = tags
            .iter()
            .position(|t| t.as_ref() == default)
            .ok_or_else(|| LanguagesError::DefaultNotSupported(default.to_owned()))?;
        // The negotiator shares the tags (`Arc`), and answers with them.
        let negotiator = Negotiator::new(tags.iter().cloned(), default)
            .map_err(|_| LanguagesError::MalformedTag(default.to_owned()))?;
        Ok(Self {
            tags,
            default: default_index,
            absent: Arc::new(RequestLanguage::from_raw(
                RawPreference::Absent,
                &negotiator,
            )),
            not_string: Arc::new(RequestLanguage::from_raw(
                RawPreference::NotString,
                &negotiator,
            )),
            negotiator,
            recent: Mutex::new(Recent::default()),
        })
    }

    /// The supported tags, in the server's order.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::ServerLanguages;
    ///
    /// let languages = ServerLanguages::new(["fr", "en", "de"], "en").unwrap();
    /// assert_eq!(languages.supported().collect::<Vec<_>>(), ["fr", "en", "de"]);
    /// ```
    pub fn supported(&self) -> impl Iterator<Item = &str> {
        self.tags.iter().map(|t| t.as_ref())
    }

    /// The default tag.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::ServerLanguages;
    ///
    /// let languages = ServerLanguages::new(["fr", "en"], "en").unwrap();
    /// assert_eq!(languages.default_tag(), "en");
    /// assert_eq!(languages.negotiate_raw(Some("*;q=0")).selected(), languages.default_tag());
    /// ```
    pub fn default_tag(&self) -> &str {
        self.tags.get(self.default).map_or("", |t| t.as_ref())
    }

    /// The default tag, shared (no allocation per request).
    pub(crate) fn shared_default(&self) -> Arc<str> {
        self.tags
            .get(self.default)
            .cloned()
            .unwrap_or_else(|| Arc::from(""))
    }

    /// Negotiates a raw `acceptLanguage` string (or its absence).
    ///
    /// A malformed value counts as absent: the default, never an error.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::ServerLanguages;
    ///
    /// let languages = ServerLanguages::new(["en", "fr", "de"], "en").unwrap();
    /// assert_eq!(languages.negotiate_raw(Some("de;q=0.5, fr")).selected(), "fr");
    /// assert_eq!(languages.negotiate_raw(Some("en, *;q=0.1")).selected(), "en");
    /// assert_eq!(languages.negotiate_raw(Some("fr;q=1.5")).selected(), "en"); // malformed
    /// ```
    pub fn negotiate_raw(&self, raw: Option<&str>) -> RequestLanguage {
        RequestLanguage::clone(&self.negotiate_shared(raw_preference(raw)))
    }

    /// The outcome for `raw`, shared: one kept for the same string when there is one
    /// (decision R20), else negotiated now and kept. A request never waits for another
    /// to use the kept outcomes; it negotiates instead.
    pub(crate) fn negotiate_shared(&self, raw: RawPreference<'_>) -> Arc<RequestLanguage> {
        let text = match &raw {
            RawPreference::Absent => return Arc::clone(&self.absent),
            RawPreference::NotString => return Arc::clone(&self.not_string),
            RawPreference::String(text) if text.len() > RECENT_MAX_LEN => {
                return Arc::new(RequestLanguage::from_raw(raw, &self.negotiator));
            }
            RawPreference::String(text) => text.as_ref(),
        };
        if let Ok(recent) = self.recent.try_lock()
            && let Some(kept) = recent
                .outcomes
                .iter()
                .flatten()
                .find(|kept| kept.raw() == Some(text))
        {
            return Arc::clone(kept);
        }
        let outcome = Arc::new(RequestLanguage::from_raw(raw.clone(), &self.negotiator));
        if let Ok(mut recent) = self.recent.try_lock() {
            let at = recent.next;
            recent.outcomes[at] = Some(Arc::clone(&outcome));
            recent.next = (at + 1) % RECENT;
        }
        outcome
    }

    /// Negotiates from a request's `_meta` object (`None`: no `_meta`).
    ///
    /// A value that is not a JSON string counts as absent, like a malformed one.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::ServerLanguages;
    ///
    /// let languages = ServerLanguages::new(["en", "ga"], "en").unwrap();
    /// let meta = serde_json::json!({"io.modelcontextprotocol/acceptLanguage": "ga-IE"});
    /// assert_eq!(languages.negotiate_meta(meta.as_object()).selected(), "ga");
    /// let meta = serde_json::json!({"io.modelcontextprotocol/acceptLanguage": 42});
    /// assert_eq!(languages.negotiate_meta(meta.as_object()).selected(), "en");
    /// assert_eq!(languages.negotiate_meta(None).selected(), "en");
    /// ```
    pub fn negotiate_meta(&self, meta: Option<&JsonObject>) -> RequestLanguage {
        RequestLanguage::clone(&self.negotiate_shared(meta_preference(meta)))
    }

    /// The language of the request an rmcp handler is processing.
    ///
    /// The preference is read once per request, and the HTTP mirror checked
    /// once (decision R2):
    ///
    /// - **Behind the language layer** (Streamable HTTP with `mcp-lang-http`'s
    ///   `LanguageLayer` in front of rmcp's service, the way
    ///   [`http`](crate::http) serves it): the layer has already read the
    ///   preference from the body and checked it against `Accept-Language`, and
    ///   left its verdict, a [`LanguagePreference`](mcp_lang_http::LanguagePreference),
    ///   in the request's extensions; rmcp passes the request's
    ///   [`http::request::Parts`] on in [`RequestContext::extensions`]. That
    ///   verdict is used as it is: `_meta` is not read again and agreement is
    ///   not checked again.
    /// - **Streamable HTTP without the layer**: the `Accept-Language` field lines
    ///   of those parts are checked against `_meta` here, by exact agreement
    ///   (decision D5), and a disagreement is the `HeaderMismatch` error
    ///   (-32020). rmcp answers it with the SEP's 400 on a request of protocol
    ///   2026-07-28 but with 200 on the older protocols', and without `Vary`:
    ///   serve HTTP behind the layer.
    /// - **Any other transport** (stdio): the preference is read from
    ///   [`RequestContext::meta`], where rmcp moves the wire `params._meta`.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::HEADER_MISMATCH`] when HTTP parts without the layer's
    /// verdict are present and disagree with `_meta`.
    ///
    /// A handler negotiates, localizes and stamps (`tests/localized.rs`
    /// serves this one to a client that asks for `de-AT, en;q=0.5`, and gets
    /// `de`):
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_lang_rmcp::server::{ServerLanguages, stamp};
    /// use rmcp::{ErrorData, RoleServer, ServerHandler, service::RequestContext};
    /// use rmcp::model::{ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerInfo};
    ///
    /// struct Server(Arc<ServerLanguages>);
    ///
    /// impl ServerHandler for Server {
    ///     async fn list_tools(&self, _: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>)
    ///         -> Result<ListToolsResult, ErrorData> {
    ///         let language = self.0.for_request(&context)?;
    ///         let mut result = ListToolsResult::default(); // titles in language.selected()
    ///         stamp(&mut result.meta, language.selected());
    ///         Ok(result)
    ///     }
    ///     fn get_info(&self) -> ServerInfo {
    ///         ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
    ///     }
    /// }
    ///
    /// let server = Server(Arc::new(ServerLanguages::new(["en", "de"], "en").unwrap()));
    /// # let _ = server;
    /// ```
    pub fn for_request(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<RequestLanguage, ErrorData> {
        self.shared_for_request(context)
            .map(|language| RequestLanguage::clone(&language))
    }

    /// [`for_request`](ServerLanguages::for_request), the outcome shared.
    pub(crate) fn shared_for_request(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<Arc<RequestLanguage>, ErrorData> {
        let parts = context.extensions.get::<http::request::Parts>();
        let verdict = parts.and_then(|p| p.extensions.get::<mcp_lang_http::LanguagePreference>());
        if let Some(verdict) = verdict {
            return Ok(self.negotiate_shared(raw_preference(verdict.raw())));
        }
        let preference = meta_preference(Some(&context.meta.0.0));
        if let Some(parts) = parts
            && let Err(mismatch) =
                mcp_lang_http::check_request(&parts.headers, preference.as_meta_value())
        {
            return Err(
                serde_json::from_value(mismatch.to_error_object()).unwrap_or_else(|_| {
                    ErrorData::new(ErrorCode::HEADER_MISMATCH, mismatch.to_string(), None)
                }),
            );
        }
        Ok(self.negotiate_shared(preference))
    }
}

/// A raw preference string (or its absence), borrowed.
fn raw_preference(raw: Option<&str>) -> RawPreference<'_> {
    raw.map_or(RawPreference::Absent, |raw| {
        RawPreference::String(raw.into())
    })
}

/// The preference of a request's `_meta` object (`None`: no `_meta`), borrowed.
fn meta_preference(meta: Option<&JsonObject>) -> RawPreference<'_> {
    match meta.and_then(|m| m.get(ACCEPT_LANGUAGE_KEY)) {
        None => RawPreference::Absent,
        Some(Value::String(raw)) => RawPreference::String(raw.as_str().into()),
        Some(_) => RawPreference::NotString,
    }
}

/// Whether writing `contentLanguage` replaces a value already there.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Existing {
    /// The writer's tag wins (the public writers: the caller says what the answer is in).
    Replace,
    /// A value already there wins (reporting after a handler, which may have set its
    /// own, decision R4).
    Keep,
}

/// The one writer of `contentLanguage` in this crate: every public writer here and
/// every report [`Localized`] adds go through it (or through [`write_in_member`]), so
/// the key, the value's type and the rule for a value already there are decided once.
pub(crate) fn write_content_language(meta: &mut JsonObject, tag: &str, existing: Existing) {
    if existing == Existing::Keep && meta.contains_key(CONTENT_LANGUAGE_KEY) {
        return;
    }
    meta.insert(
        CONTENT_LANGUAGE_KEY.to_owned(),
        Value::String(tag.to_owned()),
    );
}

/// [`write_content_language`] into the `_meta` member of a JSON object (an error's
/// `data`, a custom result), creating `_meta` when absent. A `_meta` that is not an
/// object is replaced with one by [`Existing::Replace`] and left alone by
/// [`Existing::Keep`] (the rule of `mcp-lang-meta`'s writers).
pub(crate) fn write_in_member(object: &mut JsonObject, tag: &str, existing: Existing) {
    let meta = object
        .entry("_meta")
        .or_insert_with(|| Value::Object(JsonObject::new()));
    if existing == Existing::Replace && !meta.is_object() {
        *meta = Value::Object(JsonObject::new());
    }
    if let Value::Object(meta) = meta {
        write_content_language(meta, tag, existing);
    }
}

/// A `_meta` object holding only `io.modelcontextprotocol/contentLanguage`.
///
/// ```
/// let meta = mcp_lang_rmcp::server::content_language_meta("de");
/// assert_eq!(meta.get("io.modelcontextprotocol/contentLanguage").unwrap(), "de");
/// ```
pub fn content_language_meta(tag: &str) -> MetaObject {
    let mut meta = MetaObject::new();
    write_content_language(&mut meta, tag, Existing::Replace);
    meta
}

/// Writes `contentLanguage` into a result's `_meta`, creating it if needed and
/// keeping every other key.
///
/// ```
/// let mut meta = None;
/// mcp_lang_rmcp::server::stamp(&mut meta, "ja");
/// assert_eq!(meta.unwrap().get("io.modelcontextprotocol/contentLanguage").unwrap(), "ja");
/// ```
pub fn stamp(meta: &mut Option<MetaObject>, tag: &str) {
    write_content_language(
        meta.get_or_insert_with(MetaObject::new),
        tag,
        Existing::Replace,
    );
}

/// The `contentLanguage` of a result's `_meta`, if any.
///
/// ```
/// use mcp_lang_rmcp::server::{reported, stamp};
///
/// let mut meta = None;
/// assert_eq!(reported(&meta), None);
/// stamp(&mut meta, "fr");
/// assert_eq!(reported(&meta), Some("fr"));
/// ```
pub fn reported(meta: &Option<MetaObject>) -> Option<&str> {
    meta.as_ref()
        .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
        .and_then(Value::as_str)
}

/// The `_meta` slot of a result, for the result types rmcp's model gives one;
/// `None` for the others (`EmptyResult`, and `CustomResult`, which is raw JSON).
///
/// ```
/// use mcp_lang_rmcp::server::result_meta_mut;
/// use rmcp::model::{ListToolsResult, ServerResult};
///
/// let mut result = ServerResult::ListToolsResult(ListToolsResult::default());
/// assert!(result_meta_mut(&mut result).is_some());
/// ```
pub fn result_meta_mut(result: &mut ServerResult) -> Option<&mut Option<MetaObject>> {
    Some(match result {
        ServerResult::InitializeResult(r) => &mut r.meta,
        ServerResult::DiscoverResult(r) => &mut r.meta,
        ServerResult::CompleteResult(r) => &mut r.meta,
        ServerResult::GetPromptResult(r) => &mut r.meta,
        ServerResult::ListPromptsResult(r) => &mut r.meta,
        ServerResult::ListResourcesResult(r) => &mut r.meta,
        ServerResult::ListResourceTemplatesResult(r) => &mut r.meta,
        ServerResult::ReadResourceResult(r) => &mut r.meta,
        ServerResult::ListToolsResult(r) => &mut r.meta,
        ServerResult::CallToolResult(r) => &mut r.meta,
        ServerResult::InputRequiredResult(r) => &mut r.meta,
        ServerResult::ElicitResult(r) => &mut r.meta,
        _ => return None,
    })
}

/// Writes `contentLanguage` into any rmcp result that has a `_meta` slot, unless
/// the handler already reported one. Returns whether the result now carries one.
///
/// Results without a `_meta` slot in rmcp's model (`EmptyResult`, and
/// `CustomResult`, which is raw JSON) cannot carry it.
///
/// ```
/// use mcp_lang_rmcp::server::{reported, result_meta_mut, stamp, stamp_result};
/// use rmcp::model::{CallToolResult, EmptyResult, ServerResult};
///
/// let mut call = CallToolResult::success(vec![]);
/// stamp(&mut call.meta, "ga"); // the handler's own choice is kept
/// let mut result = ServerResult::CallToolResult(call);
/// assert!(stamp_result(&mut result, "en"));
/// assert_eq!(reported(result_meta_mut(&mut result).unwrap()), Some("ga"));
/// assert!(!stamp_result(&mut ServerResult::EmptyResult(EmptyResult {}), "en"));
/// ```
pub fn stamp_result(result: &mut ServerResult, tag: &str) -> bool {
    let Some(meta) = result_meta_mut(result) else {
        return false;
    };
    write_content_language(
        meta.get_or_insert_with(MetaObject::new),
        tag,
        Existing::Keep,
    );
    true
}

/// A JSON-RPC error whose user-facing `message` is in `tag`, reported in
/// `error.data._meta` (SEP-2792: `error.data` is then an object; `code` is
/// unchanged). `data` may add other members; its own `_meta` keys are kept.
///
/// ```
/// use rmcp::model::ErrorCode;
/// let error = mcp_lang_rmcp::server::localized_error(
///     ErrorCode::INVALID_PARAMS, "Argument manquant : city", "fr", None);
/// let wire = serde_json::to_value(&error).unwrap();
/// assert_eq!(wire["code"], -32602);
/// assert_eq!(wire["data"]["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr");
/// ```
pub fn localized_error(
    code: ErrorCode,
    message: impl Into<String>,
    tag: &str,
    data: Option<JsonObject>,
) -> ErrorData {
    let mut data = data.unwrap_or_default();
    write_in_member(&mut data, tag, Existing::Replace);
    ErrorData::new(code, message.into(), Some(Value::Object(data)))
}

/// Sends a progress notification for the request being processed, with a
/// localized `message` and `contentLanguage` in `params._meta`.
///
/// Returns `Ok(false)` without sending when the request carried no
/// `progressToken` (the client did not ask for progress). rmcp routes the
/// notification by its token, so on Streamable HTTP it travels on the request's
/// own SSE stream.
///
/// # Errors
///
/// rmcp's [`ServiceError`] when the transport is closed.
///
/// A handler reports progress in the request's language: a client that asks
/// for `de` with a progress token receives `Halb fertig` with
/// `contentLanguage` `de` (rmcp 3.11 hands a client the notification's `_meta`
/// in `NotificationContext::extensions`, see the crate docs;
/// `tests/localized.rs` serves this handler to such a client):
///
/// ```
/// use std::sync::Arc;
/// use mcp_lang_rmcp::server::{ServerLanguages, notify_progress};
/// use rmcp::{ErrorData, RoleServer, ServerHandler, service::RequestContext};
/// use rmcp::model::{ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerInfo};
///
/// struct Server(Arc<ServerLanguages>);
///
/// impl ServerHandler for Server {
///     async fn list_tools(&self, _: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>)
///         -> Result<ListToolsResult, ErrorData> {
///         let language = self.0.for_request(&context)?;
///         let message = if language.selected() == "de" { "Halb fertig" } else { "Half done" };
///         notify_progress(&context, &language, 1.0, Some(2.0), message).await
///             .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
///         Ok(ListToolsResult::default())
///     }
///     fn get_info(&self) -> ServerInfo {
///         ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
///     }
/// }
///
/// let server = Server(Arc::new(ServerLanguages::new(["en", "de"], "en").unwrap()));
/// # let _ = server;
/// ```
pub async fn notify_progress(
    context: &RequestContext<RoleServer>,
    language: &RequestLanguage,
    progress: f64,
    total: Option<f64>,
    message: impl Into<String>,
) -> Result<bool, ServiceError> {
    let Some(token) = context.meta.get_progress_token() else {
        return Ok(false);
    };
    let mut params = ProgressNotificationParam::new(token, progress).with_message(message);
    params.total = total;
    params.meta = Some(NotificationMetaObject::from(content_language_meta(
        language.selected(),
    )));
    context.peer.notify_progress(params).await?;
    Ok(true)
}

/// Form-mode elicitation parameters: a localized `message` and a
/// `requestedSchema` whose property keys are identifiers (never translated)
/// and whose property `title` / `description` are display text.
///
/// `_meta` of the parameters carries `contentLanguage` too (see the crate docs:
/// SEP-2792 names results, errors and notifications; for the server-to-client
/// `elicitation/create` *request* of protocol versions before 2026-07-28 this
/// crate reports the language in the same way).
///
/// # Errors
///
/// The schema is not a valid rmcp elicitation schema (an object of primitive
/// properties).
///
/// ```
/// use mcp_lang_rmcp::server::form_elicitation;
///
/// let schema = serde_json::json!({"type": "object", "properties": {
///     "city": {"type": "string", "title": "Ville"}}});
/// let params = form_elicitation("Pour quelle ville ?", schema, "fr").unwrap();
/// let wire = serde_json::to_value(&params).unwrap();
/// assert_eq!(wire["requestedSchema"]["properties"]["city"]["title"], "Ville");
/// assert_eq!(wire["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr");
/// assert!(form_elicitation("?", serde_json::json!("no schema"), "fr").is_err());
/// ```
pub fn form_elicitation(
    message: impl Into<String>,
    requested_schema: Value,
    tag: &str,
) -> Result<ElicitRequestParams, serde_json::Error> {
    let mut params: ElicitRequestParams = serde_json::from_value(serde_json::json!({
        "mode": "form",
        "message": message.into(),
        "requestedSchema": requested_schema,
    }))?;
    write_content_language(
        params
            .meta_mut()
            .get_or_insert_with(RequestMetaObject::default),
        tag,
        Existing::Replace,
    );
    Ok(params)
}

/// An `input_required` result (protocol 2026-07-28, SEP-2322) asking for one
/// elicitation under `key`, with `contentLanguage` in `result._meta` — the
/// shape of SEP-2792's elicitation example.
///
/// ```
/// use mcp_lang_rmcp::server::{form_elicitation, input_required};
///
/// let schema = serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}});
/// let params = form_elicitation("Für welche Stadt?", schema, "de").unwrap();
/// let result = input_required("city", params, None, "de");
/// let wire = serde_json::to_value(&result).unwrap();
/// assert_eq!(wire["_meta"]["io.modelcontextprotocol/contentLanguage"], "de");
/// assert_eq!(wire["inputRequests"]["city"]["params"]["message"], "Für welche Stadt?");
/// ```
pub fn input_required(
    key: impl Into<String>,
    params: ElicitRequestParams,
    request_state: Option<String>,
    tag: &str,
) -> InputRequiredResult {
    let mut requests = InputRequests::new();
    requests.insert(
        key.into(),
        InputRequest::Elicitation(ElicitRequest::new(params)),
    );
    let mut result = InputRequiredResult::new(Some(requests), request_state);
    stamp(&mut result.meta, tag);
    result
}
