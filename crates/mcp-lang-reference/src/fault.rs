//! Fault injection: the reference server made to break one SEP-2792 rule on
//! purpose, so that the conformance suite (`mcp-lang-conformance`) can prove
//! each of its scenarios fails when its rule is broken.
//!
//! `mcp-lang serve --fault NAME` runs the server with one [`Fault`]. A fault
//! lives where the behaviour it breaks lives:
//!
//! - **Handler faults** ([`FaultLayer::Handler`]) wrap the [`ReferenceServer`]
//!   in a [`FaultyServer`], an rmcp `ServerHandler` that alters the
//!   request context before the real handler runs (the preference it sees, the
//!   arguments) or the result after it (names, keys, `contentLanguage`). They
//!   apply on every transport.
//! - **HTTP faults** ([`FaultLayer::Http`]) wrap the real HTTP stack — the
//!   `mcp-lang-http` language layer in front of rmcp's Streamable HTTP
//!   service — from the outside, in a tower service ([`FaultService`]) that
//!   alters requests before the language layer sees them (which is how a
//!   server that skips or loosens the agreement check behaves from the wire)
//!   or responses after it (headers, a language-keyed response cache). The
//!   language layer itself is never edited.
//! - **Message faults** ([`FaultLayer::Message`]) alter the JSON-RPC messages
//!   the server sends, after the handler: in the stdio transport
//!   ([`serve_stdio`], [`serve_stream`]) and in the event streams of the HTTP
//!   stack ([`FaultService`]). They apply on every transport.
//!
//! Without a fault nothing here runs: `serve::serve_stdio` and
//! `serve::spawn_http` serve the unaltered server.
//!
//! ```
//! use mcp_lang_reference::fault::{Fault, FaultLayer};
//!
//! let fault: Fault = "drop-vary".parse().unwrap();
//! assert_eq!(fault.layer(), FaultLayer::Http);
//! assert_eq!(fault.name(), "drop-vary");
//! assert!(Fault::ALL.len() >= 20);
//! assert!("no-such-fault".parse::<Fault>().is_err());
//! ```

use std::str::FromStr;
use std::sync::{Arc, Mutex};

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::Reason;
use mcp_lang_rmcp::server::result_meta_mut;
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, DiscoverResult, GetPromptRequestParams,
        GetPromptResponse, InitializeRequestParams, InitializeResult, InputRequiredResult,
        ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
        NumberOrString, PaginatedRequestParams, ProgressToken, ProtocolVersion,
        ReadResourceRequestParams, ReadResourceResponse, ServerConfig, ServerResult,
    },
    service::RequestContext,
};
use serde_json::Value;

use crate::ReferenceServer;

const ACCEPT_LANGUAGE: &str = "io.modelcontextprotocol/acceptLanguage";
const CONTENT_LANGUAGE: &str = "io.modelcontextprotocol/contentLanguage";

/// Where a fault acts.
///
/// ```
/// use mcp_lang_reference::fault::{Fault, FaultLayer};
///
/// assert_eq!(Fault::IgnoreWeights.layer(), FaultLayer::Handler);
/// assert_eq!(Fault::SkipAgreementCheck.layer(), FaultLayer::Http);
/// assert_eq!(Fault::OmitNotificationLanguage.layer(), FaultLayer::Message);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultLayer {
    /// In the MCP handler: every transport.
    Handler,
    /// Around the Streamable HTTP stack: HTTP only.
    Http,
    /// On the messages the server sends, after the handler: every transport
    /// (in the stdio transport, and in the event streams of Streamable HTTP).
    Message,
}

macro_rules! faults {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $layer:ident; )*) => {
        /// One broken rule. Each variant's name is its `--fault` spelling.
        ///
        /// ```
        /// use mcp_lang_reference::fault::Fault;
        ///
        /// let fault: Fault = "trim-meta".parse().unwrap();
        /// assert_eq!(fault, Fault::TrimMeta);
        /// assert_eq!(fault.to_string(), "trim-meta");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Fault {
            $( $(#[$doc])* $variant, )*
        }

        impl Fault {
            /// Every fault, in declaration order.
            ///
            /// ```
            /// use mcp_lang_reference::fault::Fault;
            ///
            /// // Every name parses back to its fault: `--fault NAME` reaches each one.
            /// for fault in Fault::ALL {
            ///     assert_eq!(fault.name().parse::<Fault>(), Ok(*fault));
            /// }
            /// ```
            pub const ALL: &'static [Fault] = &[ $( Fault::$variant, )* ];

            /// The `--fault` name.
            ///
            /// ```
            /// use mcp_lang_reference::fault::Fault;
            ///
            /// assert_eq!(Fault::FirstLineOnly.name(), "first-line-only");
            /// ```
            pub fn name(self) -> &'static str {
                match self { $( Fault::$variant => $name, )* }
            }

            /// Where the fault acts.
            ///
            /// ```
            /// use mcp_lang_reference::fault::{Fault, FaultLayer};
            ///
            /// let http_only = Fault::ALL.iter().filter(|f| f.layer() == FaultLayer::Http).count();
            /// assert!(http_only > 0 && http_only < Fault::ALL.len());
            /// ```
            pub fn layer(self) -> FaultLayer {
                match self { $( Fault::$variant => FaultLayer::$layer, )* }
            }
        }
    };
}

faults! {
    /// Uses the previous request's preference when a request omits it.
    ReusePreference = "reuse-preference", Handler;
    /// Binds the first preference to the server: later preferences are ignored.
    StickyPreference = "sticky-preference", Handler;
    /// Ignores q-values: the first range wins.
    IgnoreWeights = "ignore-weights", Handler;
    /// Ignores `*` ranges.
    IgnoreWildcard = "ignore-wildcard", Handler;
    /// Matches ranges to tags case-sensitively (byte for byte) instead of ignoring case.
    CaseSensitiveMatch = "case-sensitive-match", Handler;
    /// Returns an error when no supported language matches.
    ErrorOnUnmatched = "error-on-unmatched", Handler;
    /// Returns an error for a malformed preference.
    ErrorOnMalformed = "error-on-malformed", Handler;
    /// Reports the preference's first range as `contentLanguage`, not the language used.
    ReportPreference = "report-preference", Handler;
    /// Omits `contentLanguage` from results.
    OmitContentLanguage = "omit-content-language", Handler;
    /// Leaves titles in the default language while reporting the selected one.
    UntranslatedTitles = "untranslated-titles", Handler;
    /// Translates tool names.
    TranslateToolNames = "translate-tool-names", Handler;
    /// Translates the property keys of tool input schemas.
    TranslateSchemaKeys = "translate-schema-keys", Handler;
    /// Translates the elicitation's property key (`email`).
    TranslateElicitationKey = "translate-elicitation-key", Handler;
    /// Builds elicitations in the default language.
    ElicitationDefaultLanguage = "elicitation-default-language", Handler;
    /// Reports progress in the default language.
    ProgressDefaultLanguage = "progress-default-language", Handler;
    /// Lets the preference override an explicit `language` argument.
    IgnoreExplicitLanguage = "ignore-explicit-language", Handler;
    /// Localizes error messages without reporting `contentLanguage` in `error.data._meta`.
    OmitErrorLanguage = "omit-error-language", Handler;
    /// Drops `ttlMs` from localized results: they stop being cacheable.
    LanguageDependentTtl = "language-dependent-ttl", Handler;
    /// Treats `q=0` as the lowest acceptable weight instead of "not acceptable".
    QZeroAcceptable = "q-zero-acceptable", Handler;
    /// Matches on the primary language subtag only (`fr-CA` is served as `fr`).
    PrimaryLanguageOnly = "primary-language-only", Handler;
    /// Accepts any `Accept-Language` without checking agreement.
    SkipAgreementCheck = "skip-agreement-check", Http;
    /// Checks agreement ignoring ASCII case.
    CaseInsensitiveAgreement = "case-insensitive-agreement", Http;
    /// Checks agreement ignoring whitespace inside the value.
    WhitespaceInsensitiveAgreement = "whitespace-insensitive-agreement", Http;
    /// Checks agreement on parsed ranges and q-values (semantic equality).
    SemanticAgreement = "semantic-agreement", Http;
    /// Looks only at the first `Accept-Language` field line.
    FirstLineOnly = "first-line-only", Http;
    /// Checks grammar before agreement: a malformed value is dropped first.
    GrammarBeforeAgreement = "grammar-before-agreement", Http;
    /// Rejects a request whose `_meta` preference has no `Accept-Language`.
    RejectMissingHeader = "reject-missing-header", Http;
    /// Takes a bare `Accept-Language` (no `_meta`) as the preference.
    BareHeaderPreference = "bare-header-preference", Http;
    /// Drops `Vary`.
    DropVary = "drop-vary", Http;
    /// Sends a `Content-Language` that differs from `_meta` (case-folded).
    ContentLanguageDiffers = "content-language-differs", Http;
    /// Sends `Content-Language` as two field lines.
    TwoContentLanguageLines = "two-content-language-lines", Http;
    /// Omits `Content-Language` on JSON responses.
    OmitContentLanguageHeader = "omit-content-language-header", Http;
    /// Omits `Content-Language` on error responses only.
    OmitErrorContentLanguageHeader = "omit-error-content-language-header", Http;
    /// Declares the preference as the `Content-Language` of event streams.
    SseContentLanguage = "sse-content-language", Http;
    /// Drops `Cache-Control: private` when the header was stripped.
    PublicWhenStripped = "public-when-stripped", Http;
    /// Keys a response cache by the negotiated language, not the preference.
    CacheByNegotiatedLanguage = "cache-by-negotiated-language", Http;
    /// Answers a mismatch with 400 but a different JSON-RPC code.
    WrongMismatchCode = "wrong-mismatch-code", Http;
    /// Trims the `_meta` value before comparing it with the header.
    TrimMeta = "trim-meta", Http;
    /// Joins repeated `Accept-Language` lines with `,` instead of `", "`.
    JoinWithoutSpace = "join-without-space", Http;
    /// Rejects every request that carries `Accept-Language`, agreeing or not.
    RejectAcceptLanguage = "reject-accept-language", Http;
    /// Drops `contentLanguage` from the notifications the server sends.
    OmitNotificationLanguage = "omit-notification-language", Message;
    /// Reports progress under a token of its own, not the client's.
    RewriteProgressToken = "rewrite-progress-token", Handler;
}

impl Fault {
    /// What the fault does, in one line (the doc comment of its variant).
    ///
    /// ```
    /// use mcp_lang_reference::fault::Fault;
    ///
    /// assert_eq!(Fault::IgnoreWeights.description(), "ignores q-values: the first range wins");
    /// assert!(Fault::ALL.iter().all(|f| !f.description().is_empty()));
    /// ```
    pub fn description(self) -> &'static str {
        match self {
            Self::ReusePreference => {
                "uses the previous request's preference when a request omits it"
            }
            Self::StickyPreference => {
                "binds the first preference to the server; later ones are ignored"
            }
            Self::IgnoreWeights => "ignores q-values: the first range wins",
            Self::IgnoreWildcard => "ignores `*` ranges",
            Self::CaseSensitiveMatch => "matches ranges to tags case-sensitively",
            Self::ErrorOnUnmatched => "returns an error when no supported language matches",
            Self::ErrorOnMalformed => "returns an error for a malformed preference",
            Self::ReportPreference => {
                "reports the preference's first range instead of the language used"
            }
            Self::OmitContentLanguage => "omits contentLanguage from results",
            Self::UntranslatedTitles => {
                "leaves titles in the default language while reporting the selected one"
            }
            Self::TranslateToolNames => "translates tool names",
            Self::TranslateSchemaKeys => "translates tool input-schema property keys",
            Self::TranslateElicitationKey => "translates the elicitation's property key",
            Self::ElicitationDefaultLanguage => "builds elicitations in the default language",
            Self::ProgressDefaultLanguage => "reports progress in the default language",
            Self::IgnoreExplicitLanguage => {
                "lets the preference override an explicit language argument"
            }
            Self::OmitErrorLanguage => {
                "localizes errors without contentLanguage in error.data._meta"
            }
            Self::LanguageDependentTtl => "drops ttlMs from localized results",
            Self::QZeroAcceptable => "treats q=0 as the lowest acceptable weight",
            Self::PrimaryLanguageOnly => "matches on the primary language subtag only",
            Self::SkipAgreementCheck => "accepts any Accept-Language without checking agreement",
            Self::CaseInsensitiveAgreement => "checks agreement ignoring ASCII case",
            Self::WhitespaceInsensitiveAgreement => "checks agreement ignoring whitespace",
            Self::SemanticAgreement => "checks agreement on parsed ranges and q-values",
            Self::FirstLineOnly => "looks only at the first Accept-Language field line",
            Self::GrammarBeforeAgreement => "drops a malformed value before checking agreement",
            Self::RejectMissingHeader => "rejects a _meta preference that has no Accept-Language",
            Self::BareHeaderPreference => {
                "takes a bare Accept-Language (no _meta) as the preference"
            }
            Self::DropVary => "drops Vary",
            Self::ContentLanguageDiffers => "sends a Content-Language that differs from _meta",
            Self::TwoContentLanguageLines => "sends Content-Language as two field lines",
            Self::OmitContentLanguageHeader => "omits Content-Language on JSON responses",
            Self::OmitErrorContentLanguageHeader => "omits Content-Language on error responses",
            Self::SseContentLanguage => {
                "declares the preference as an event stream's Content-Language"
            }
            Self::PublicWhenStripped => "drops Cache-Control: private when the header was stripped",
            Self::CacheByNegotiatedLanguage => "keys a response cache by the negotiated language",
            Self::WrongMismatchCode => "answers a mismatch with 400 but not -32020",
            Self::TrimMeta => "trims the _meta value before comparing it with the header",
            Self::JoinWithoutSpace => {
                "joins repeated Accept-Language lines with \",\" instead of \", \""
            }
            Self::RejectAcceptLanguage => "rejects every request that carries Accept-Language",
            Self::OmitNotificationLanguage => "drops contentLanguage from notifications",
            Self::RewriteProgressToken => "reports progress under a token of its own",
        }
    }
}

/// A name that is not a fault.
///
/// ```
/// use mcp_lang_reference::fault::{Fault, UnknownFault};
///
/// let err = "drop-every-header".parse::<Fault>().unwrap_err();
/// assert_eq!(err, UnknownFault("drop-every-header".into()));
/// assert!(err.to_string().contains("known faults: reuse-preference"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFault(pub String);

impl std::fmt::Display for UnknownFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown fault {:?}; known faults:", self.0)?;
        for fault in Fault::ALL {
            write!(f, " {}", fault.name())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownFault {}

impl FromStr for Fault {
    type Err = UnknownFault;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Fault::ALL
            .iter()
            .copied()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFault(s.to_owned()))
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

// ---------------------------------------------------------------------------
// Handler faults
// ---------------------------------------------------------------------------

/// The reference server with one handler fault (an HTTP fault, or `None`,
/// leaves it unaltered).
///
/// It is an rmcp `ServerHandler` that forwards every method the reference
/// server implements: serve it like the reference server.
///
/// Seen from the wire: with `omit-content-language`, a result reports no
/// `contentLanguage`, so the HTTP layer has no `Content-Language` to mirror.
///
/// ```
/// use axum::body::Body;
/// use http::{Request, header::{CONTENT_LANGUAGE, CONTENT_TYPE}};
/// use mcp_lang_reference::{ReferenceServer, fault::{Fault, http_router}, serve::{HttpMode, MCP_PATH}};
/// use tokio_util::sync::CancellationToken;
/// use tower_service::Service;
///
/// let fault = Some(Fault::OmitContentLanguage);
/// let mut router = http_router(ReferenceServer::new().unwrap(), HttpMode::Stateless, CancellationToken::new(), fault);
/// let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
///   "capabilities":{},"clientInfo":{"name":"doc","version":"0"},
///   "_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#;
/// let request = Request::post(MCP_PATH).header(CONTENT_TYPE, "application/json")
///     .header("accept", "application/json, text/event-stream").header("host", "localhost")
///     .body(Body::from(init)).unwrap();
/// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
/// let response = runtime.block_on(router.call(request)).unwrap();
/// assert!(response.headers().get(CONTENT_LANGUAGE).is_none());
/// ```
#[derive(Clone, Debug)]
pub struct FaultyServer {
    inner: ReferenceServer,
    fault: Option<Fault>,
    remembered: Arc<Mutex<Option<Value>>>,
}

impl FaultyServer {
    /// Wraps `inner` with `fault`.
    ///
    /// ```
    /// use mcp_lang_reference::{ReferenceServer, fault::{Fault, FaultyServer}};
    /// use rmcp::ServerHandler;
    ///
    /// let server = ReferenceServer::new().unwrap();
    /// // An HTTP fault, or none, leaves the handler as it is.
    /// let unaltered = FaultyServer::new(server.clone(), Some(Fault::DropVary));
    /// assert_eq!(unaltered.get_info().server_info.name, server.get_info().server_info.name);
    /// ```
    pub fn new(inner: ReferenceServer, fault: Option<Fault>) -> Self {
        Self {
            inner,
            fault: fault.filter(|f| f.layer() == FaultLayer::Handler),
            remembered: Arc::new(Mutex::new(None)),
        }
    }

    /// The handler for a new session (or a new request, when stateless):
    /// the reference server's own [`ReferenceServer::for_session`], with the
    /// fault's memory shared, so that a fault that remembers a preference
    /// acts across sessions and stateless requests too.
    ///
    /// ```
    /// use mcp_lang_reference::{ReferenceServer, fault::{Fault, FaultyServer}};
    ///
    /// let server = FaultyServer::new(ReferenceServer::new().unwrap(), Some(Fault::StickyPreference));
    /// let session = server.for_session();
    /// # drop(session);
    /// ```
    #[must_use]
    pub fn for_session(&self) -> Self {
        Self {
            inner: self.inner.for_session(),
            fault: self.fault,
            remembered: Arc::clone(&self.remembered),
        }
    }

    fn handler_fault(&self) -> Option<Fault> {
        self.fault
    }
}

/// Replaces the preference the handler will see. On Streamable HTTP the
/// request's `Accept-Language` (in the HTTP parts rmcp passes along) is kept
/// equal to it, so that the handler's own agreement check sees the faulty
/// server's state rather than a mismatch the fault did not intend.
fn set_preference(context: &mut RequestContext<RoleServer>, value: Option<Value>) {
    let header = value.as_ref().and_then(Value::as_str).map(str::to_owned);
    match value {
        Some(v) => {
            context.meta.insert(ACCEPT_LANGUAGE.to_owned(), v);
        }
        None => {
            context.meta.remove(ACCEPT_LANGUAGE);
        }
    }
    if let Some(parts) = context.extensions.get_mut::<http::request::Parts>()
        && parts.headers.contains_key(http::header::ACCEPT_LANGUAGE)
    {
        parts.headers.remove(http::header::ACCEPT_LANGUAGE);
        if let Some(v) = header.and_then(|h| http::HeaderValue::from_str(&h).ok()) {
            parts.headers.insert(http::header::ACCEPT_LANGUAGE, v);
        }
    }
}

/// Applies `edit` to a typed value through its JSON form.
fn edit_json<T>(value: &mut T, edit: impl FnOnce(&mut Value))
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let Ok(mut json) = serde_json::to_value(&*value) else {
        return;
    };
    edit(&mut json);
    if let Ok(edited) = serde_json::from_value(json) {
        *value = edited;
    }
}

fn reported(result: &mut ServerResult) -> Option<String> {
    result_meta_mut(result)?
        .as_ref()?
        .get(CONTENT_LANGUAGE)?
        .as_str()
        .map(str::to_owned)
}

/// The preference with every range's parameters (`;q=…`) removed.
fn strip_weights(raw: &str) -> String {
    raw.split(',')
        .map(|r| r.split(';').next().unwrap_or_default().trim())
        .filter(|r| !r.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The preference without its `*` ranges.
fn strip_wildcards(raw: &str) -> String {
    raw.split(',')
        .filter(|r| r.split(';').next().unwrap_or_default().trim() != "*")
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(", ")
}

impl FaultyServer {
    /// Alters the request before the real handler sees it; `Err` answers it.
    fn before(
        &self,
        call: Option<&mut CallToolRequestParams>,
        context: &mut RequestContext<RoleServer>,
    ) -> Result<Option<String>, ErrorData> {
        let preference = context.meta.get(ACCEPT_LANGUAGE).cloned();
        let original = preference
            .as_ref()
            .and_then(Value::as_str)
            .map(str::to_owned);
        let Some(fault) = self.handler_fault() else {
            return Ok(original);
        };
        let tool = call.as_ref().map(|c| c.name.to_string());
        let raw = preference
            .as_ref()
            .and_then(Value::as_str)
            .map(str::to_owned);
        let set = set_preference;
        match fault {
            Fault::ReusePreference => {
                let mut remembered = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
                match preference {
                    Some(p) => *remembered = Some(p),
                    None => set(context, remembered.clone()),
                }
            }
            Fault::StickyPreference => {
                let mut remembered = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
                match (&*remembered, preference) {
                    (Some(first), Some(_)) => set(context, Some(first.clone())),
                    (None, Some(p)) => *remembered = Some(p),
                    _ => {}
                }
            }
            Fault::IgnoreWeights => {
                if let Some(raw) = raw {
                    set(context, Some(Value::String(strip_weights(&raw))));
                }
            }
            Fault::IgnoreWildcard => {
                if let Some(raw) = raw {
                    set(context, Some(Value::String(strip_wildcards(&raw))));
                }
            }
            Fault::QZeroAcceptable => {
                if let Some(raw) = raw {
                    let loosened: Vec<String> = raw
                        .split(',')
                        .map(|r| match r.split_once(';') {
                            Some((range, weight)) => {
                                let q = weight.trim().trim_start_matches(['q', 'Q', '=']);
                                if !q.is_empty() && q.chars().all(|c| c == '0' || c == '.') {
                                    format!("{range};q=0.001")
                                } else {
                                    r.to_owned()
                                }
                            }
                            None => r.to_owned(),
                        })
                        .collect();
                    set(context, Some(Value::String(loosened.join(","))));
                }
            }
            Fault::PrimaryLanguageOnly => {
                if let Some(raw) = raw {
                    let primary: Vec<String> = raw
                        .split(',')
                        .map(|r| {
                            let (range, weight) = r.split_once(';').unwrap_or((r, ""));
                            let first = range.trim().split('-').next().unwrap_or_default();
                            if weight.is_empty() {
                                first.to_owned()
                            } else {
                                format!("{first};{weight}")
                            }
                        })
                        .collect();
                    set(context, Some(Value::String(primary.join(","))));
                }
            }
            Fault::CaseSensitiveMatch => {
                // A byte-for-byte matcher finds nothing for a range spelled
                // in another case than the supported tag.
                if let Some(raw) = raw {
                    let supported: Vec<&str> = self.inner.languages().supported().collect();
                    let kept: Vec<&str> = raw
                        .split(',')
                        .filter(|r| {
                            let range = r.split(';').next().unwrap_or_default().trim();
                            range == "*"
                                || supported
                                    .iter()
                                    .any(|s| s.starts_with(range) || range.starts_with(s))
                        })
                        .collect();
                    set(context, Some(Value::String(kept.join(","))));
                }
            }
            Fault::ErrorOnUnmatched => {
                let language = self.inner.languages().negotiate_meta(Some(&context.meta));
                if language.reason() == Reason::Default {
                    return Err(ErrorData::invalid_params(
                        "no supported language matches the preference",
                        None,
                    ));
                }
            }
            Fault::ErrorOnMalformed => {
                let language = self.inner.languages().negotiate_meta(Some(&context.meta));
                let malformed = language.reason() == Reason::Malformed
                    || preference.as_ref().is_some_and(|p| !p.is_string());
                if malformed {
                    return Err(ErrorData::invalid_params(
                        "malformed io.modelcontextprotocol/acceptLanguage",
                        None,
                    ));
                }
            }
            Fault::ElicitationDefaultLanguage if tool.as_deref() == Some("send_confirmation") => {
                set(context, None);
            }
            Fault::ProgressDefaultLanguage if tool.as_deref() == Some("prepare_report") => {
                set(context, None);
            }
            Fault::RewriteProgressToken if context.meta.get_progress_token().is_some() => {
                context
                    .meta
                    .set_progress_token(ProgressToken(NumberOrString::String(
                        "fault-injected-token".into(),
                    )));
            }
            Fault::IgnoreExplicitLanguage => {
                if let Some(arguments) = call.and_then(|c| c.arguments.as_mut()) {
                    arguments.remove("language");
                }
            }
            _ => {}
        }
        Ok(original)
    }

    /// Alters the real handler's answer.
    fn after(&self, preference: Option<&str>, answer: &mut Result<ServerResult, ErrorData>) {
        let Some(fault) = self.handler_fault() else {
            return;
        };
        let default = self.inner.languages().default_tag().to_owned();
        let result = match answer {
            Ok(result) => result,
            Err(error) => {
                if fault == Fault::OmitErrorLanguage
                    && let Some(Value::Object(data)) = error.data.as_mut()
                {
                    data.remove("_meta");
                }
                return;
            }
        };
        let language = reported(result);
        let localized = language.as_deref().is_some_and(|l| l != default);
        match fault {
            Fault::ReportPreference => {
                let first = preference
                    .and_then(|p| AcceptLanguage::parse(p).ok())
                    .and_then(|h| {
                        h.iter()
                            .map(|r| r.range.as_str().to_owned())
                            .find(|r| r != "*")
                    });
                if let (Some(first), Some(Some(meta))) = (first, result_meta_mut(result)) {
                    meta.insert(CONTENT_LANGUAGE.to_owned(), Value::String(first));
                }
            }
            Fault::OmitContentLanguage => {
                if let Some(meta) = result_meta_mut(result) {
                    if let Some(m) = meta.as_mut() {
                        m.remove(CONTENT_LANGUAGE);
                    }
                    if meta.as_ref().is_some_and(|m| m.is_empty()) {
                        *meta = None;
                    }
                }
            }
            Fault::UntranslatedTitles => {
                if let ServerResult::ListToolsResult(list) = result {
                    list.tools = self
                        .inner
                        .tools(&self.inner.languages().negotiate_raw(None));
                }
            }
            Fault::TranslateToolNames if localized => {
                if let ServerResult::ListToolsResult(list) = result {
                    translate_tool_names(list);
                }
            }
            Fault::TranslateSchemaKeys if localized => {
                if let ServerResult::ListToolsResult(list) = result {
                    let suffix = language.clone().unwrap_or_default();
                    edit_json(list, |json| {
                        for tool in json
                            .get_mut("tools")
                            .and_then(Value::as_array_mut)
                            .into_iter()
                            .flatten()
                        {
                            if let Some(schema) = tool.get_mut("inputSchema") {
                                rename_properties(schema, &suffix);
                            }
                        }
                    });
                }
            }
            Fault::TranslateElicitationKey if localized => {
                if let ServerResult::InputRequiredResult(input) = result {
                    let suffix = language.clone().unwrap_or_default();
                    translate_elicitation_keys(input, &suffix);
                }
            }
            Fault::LanguageDependentTtl if localized => {
                if let ServerResult::ListToolsResult(list) = result {
                    list.ttl_ms = None;
                }
            }
            _ => {}
        }
    }
}

fn translate_tool_names(list: &mut ListToolsResult) {
    for tool in &mut list.tools {
        let Some(title) = tool.title.clone() else {
            continue;
        };
        let slug: String = title
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect();
        tool.name = slug.into();
    }
}

/// Renames every property key of a JSON Schema object (and its `required`).
fn rename_properties(schema: &mut Value, suffix: &str) {
    let rename = |key: &str| format!("{key}_{}", suffix.replace('-', "_"));
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        let renamed: serde_json::Map<String, Value> = std::mem::take(properties)
            .into_iter()
            .map(|(k, v)| (rename(&k), v))
            .collect();
        *properties = renamed;
    }
    if let Some(required) = schema.get_mut("required").and_then(Value::as_array_mut) {
        for key in required.iter_mut() {
            if let Some(k) = key.as_str() {
                *key = Value::String(rename(k));
            }
        }
    }
}

fn translate_elicitation_keys(input: &mut InputRequiredResult, suffix: &str) {
    edit_json(input, |json| {
        for request in json
            .get_mut("inputRequests")
            .and_then(Value::as_object_mut)
            .into_iter()
            .flat_map(|r| r.values_mut())
        {
            if let Some(schema) = request.pointer_mut("/params/requestedSchema") {
                rename_properties(schema, suffix);
            }
        }
    });
}

/// Runs one handler of the inner server between [`FaultyServer::before`] and
/// [`FaultyServer::after`], through the `ServerResult` variant `$variant`.
macro_rules! around {
    ($self:ident, $context:ident, $call:expr, $variant:ident) => {{
        let preference = $self.before(None, &mut $context)?;
        let mut answer = $call.await.map(ServerResult::$variant);
        $self.after(preference.as_deref(), &mut answer);
        match answer? {
            ServerResult::$variant(result) => Ok(result),
            _ => Err(ErrorData::internal_error(
                "fault injection changed the result type",
                None,
            )),
        }
    }};
}

impl ServerHandler for FaultyServer {
    fn get_info(&self) -> ServerConfig {
        ServerHandler::get_info(&self.inner)
    }

    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        ServerHandler::supported_protocol_versions(&self.inner)
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.initialize(request, context),
            InitializeResult
        )
    }

    async fn discover(
        &self,
        mut context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        around!(self, context, self.inner.discover(context), DiscoverResult)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.list_tools(request, context),
            ListToolsResult
        )
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.list_prompts(request, context),
            ListPromptsResult
        )
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.list_resources(request, context),
            ListResourcesResult
        )
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.list_resource_templates(request, context),
            ListResourceTemplatesResult
        )
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let preference = self.before(None, &mut context)?;
        let mut answer = self
            .inner
            .get_prompt(request, context)
            .await
            .map(ServerResult::from);
        self.after(preference.as_deref(), &mut answer);
        match answer? {
            ServerResult::GetPromptResult(r) => Ok(r.into()),
            ServerResult::InputRequiredResult(r) => Ok(r.into()),
            _ => Err(ErrorData::internal_error(
                "fault injection changed the result type",
                None,
            )),
        }
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let preference = self.before(None, &mut context)?;
        let mut answer = self
            .inner
            .read_resource(request, context)
            .await
            .map(ServerResult::from);
        self.after(preference.as_deref(), &mut answer);
        match answer? {
            ServerResult::ReadResourceResult(r) => Ok(r.into()),
            ServerResult::InputRequiredResult(r) => Ok(r.into()),
            _ => Err(ErrorData::internal_error(
                "fault injection changed the result type",
                None,
            )),
        }
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let preference = self.before(Some(&mut request), &mut context)?;
        let mut answer = self
            .inner
            .call_tool(request, context)
            .await
            .map(ServerResult::from);
        self.after(preference.as_deref(), &mut answer);
        match answer? {
            ServerResult::CallToolResult(r) => Ok(r.into()),
            ServerResult::InputRequiredResult(r) => Ok(r.into()),
            ServerResult::CreateTaskResult(r) => Ok(r.into()),
            _ => Err(ErrorData::internal_error(
                "fault injection changed the result type",
                None,
            )),
        }
    }
}

#[cfg(feature = "stdio")]
/// Serves one client on stdin/stdout with `fault`.
///
/// # Errors
///
/// `fault` is an HTTP fault (it has nothing to act on over stdio, and serving
/// the unaltered server under its name would mislead), or the initialization
/// failed or the transport broke.
///
/// `no_run`: it would take over the test's own stdin and stdout.
///
/// ```no_run
/// # async fn serve() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// use mcp_lang_reference::{ReferenceServer, fault::{Fault, serve_stdio}};
///
/// serve_stdio(ReferenceServer::new()?, Some(Fault::ReportPreference)).await?;
/// # Ok(())
/// # }
/// ```
pub async fn serve_stdio(
    server: ReferenceServer,
    fault: Option<Fault>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    if let Some(fault) = fault.filter(|f| f.layer() == FaultLayer::Http) {
        return Err(format!(
            "fault `{fault}` is an HTTP fault: it acts only on Streamable HTTP (serve --http)"
        )
        .into());
    }
    let (stdin, stdout) = rmcp::transport::stdio();
    serve_transport(server, stdin, stdout, fault).await
}

#[cfg(feature = "stdio")]
/// Serves one client on `io`, a byte stream carrying JSON-RPC lines (an
/// in-process pipe, a socket), with `fault`: a handler fault in the handler, a
/// message fault in the transport, an HTTP fault not at all (there is no HTTP
/// here). It returns when the client goes away.
///
/// # Errors
///
/// The initialization failed or the transport broke.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use mcp_lang_reference::{ReferenceServer, fault::{Fault, serve_stream}};
/// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
///
/// let (server_io, client_io) = tokio::io::duplex(1 << 16);
/// let server = ReferenceServer::new().unwrap();
/// tokio::spawn(serve_stream(server, server_io, Some(Fault::OmitNotificationLanguage)));
/// let (read, mut write) = tokio::io::split(client_io);
/// let mut lines = BufReader::new(read).lines();
/// // A stateless request for the progress tool, with a progress token.
/// let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"prepare_report","arguments":{},"_meta":{"progressToken":"t","io.modelcontextprotocol/acceptLanguage":"fr","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"doc","version":"0"}}}}"#;
/// write.write_all(format!("{call}\n").as_bytes()).await.unwrap();
/// let progress = lines.next_line().await.unwrap().unwrap();
/// assert!(progress.contains("notifications/progress"), "{progress}");
/// assert!(!progress.contains("contentLanguage"), "{progress}"); // the fault dropped it
/// # });
/// ```
pub async fn serve_stream<S>(
    server: ReferenceServer,
    io: S,
    fault: Option<Fault>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + 'static,
{
    let (read, write) = tokio::io::split(io);
    serve_transport(server, read, write, fault).await
}

#[cfg(feature = "stdio")]
async fn serve_transport<R, W>(
    server: ReferenceServer,
    read: R,
    write: W,
    fault: Option<Fault>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let transport = FaultyTransport {
        inner: crate::serve::stream_transport(read, write),
        fault: fault.filter(|f| f.layer() == FaultLayer::Message),
    };
    crate::serve::serve_transport(FaultyServer::new(server, fault), transport).await
}

#[cfg(feature = "stdio")]
/// A server transport that applies a message fault to what the server sends.
struct FaultyTransport<T> {
    inner: T,
    fault: Option<Fault>,
}

#[cfg(feature = "stdio")]
impl<T> rmcp::transport::Transport<RoleServer> for FaultyTransport<T>
where
    T: rmcp::transport::Transport<RoleServer>,
{
    type Error = T::Error;

    fn send(
        &mut self,
        item: rmcp::service::TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let item = match self.fault {
            Some(Fault::OmitNotificationLanguage) => without_notification_language(item),
            _ => item,
        };
        self.inner.send(item)
    }

    fn receive(
        &mut self,
    ) -> impl Future<Output = Option<rmcp::service::RxJsonRpcMessage<RoleServer>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[cfg(feature = "stdio")]
/// The message without `contentLanguage` in `params._meta` if it is a
/// notification; any other message as it is.
fn without_notification_language(
    item: rmcp::service::TxJsonRpcMessage<RoleServer>,
) -> rmcp::service::TxJsonRpcMessage<RoleServer> {
    let Ok(mut value) = serde_json::to_value(&item) else {
        return item;
    };
    if value.get("method").is_none() || value.get("id").is_some() {
        return item;
    }
    let removed = value
        .pointer_mut("/params/_meta")
        .and_then(Value::as_object_mut)
        .and_then(|meta| meta.remove(CONTENT_LANGUAGE));
    if removed.is_none() {
        return item;
    }
    serde_json::from_value(value).unwrap_or(item)
}

#[cfg(feature = "http")]
pub use http_faults::{FaultService, http_router, spawn_http};

#[cfg(feature = "http")]
mod http_faults {
    //! HTTP faults: a tower service around the real HTTP stack.

    use std::collections::HashMap;
    use std::convert::Infallible;
    use std::future::Future;
    use std::net::SocketAddr;
    use std::pin::Pin;
    use std::sync::{Arc, Mutex};
    use std::task::{Context, Poll};

    use axum::body::Body;
    use axum::http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
    use mcp_lang_grammar::AcceptLanguage;
    use serde_json::{Value, json};
    use tokio_util::sync::CancellationToken;
    use tower_layer::layer_fn;
    use tower_service::Service;

    use super::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE, Fault, FaultLayer, FaultyServer};
    use crate::ReferenceServer;
    use crate::serve::{HttpMode, HttpServer, spawn_router};

    /// The largest body the fault service reads (requests and responses).
    const LIMIT: usize = 16 << 20;

    type Cache = Arc<Mutex<HashMap<(String, String), (HeaderMap, Value)>>>;

    /// A tower service that applies one HTTP [`Fault`] around `inner` (the
    /// language layer and rmcp's service). Without an HTTP fault it forwards
    /// everything untouched.
    ///
    /// ```
    /// use axum::{Router, body::Body, routing::post};
    /// use http::{Request, header::VARY};
    /// use mcp_lang_reference::fault::{Fault, FaultService};
    /// use tower_service::Service;
    ///
    /// let app = Router::new().route("/mcp", post(|| async { ([(VARY, "Accept-Language")], "{}") }));
    /// let mut faulty = FaultService::new(app, Some(Fault::DropVary));
    /// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    /// let response = runtime.block_on(faulty.call(Request::post("/mcp").body(Body::from("{}")).unwrap())).unwrap();
    /// assert!(response.headers().get(VARY).is_none());
    /// ```
    #[derive(Clone, Debug)]
    pub struct FaultService<S> {
        inner: S,
        fault: Option<Fault>,
        cache: Cache,
    }

    impl<S> FaultService<S> {
        /// Wraps `inner`.
        ///
        /// ```
        /// use axum::{Router, body::Body, routing::post};
        /// use http::{Request, header::VARY};
        /// use mcp_lang_reference::fault::{Fault, FaultService};
        /// use tower_service::Service;
        ///
        /// // A handler fault is not an HTTP fault: the service forwards untouched.
        /// let app = Router::new().route("/mcp", post(|| async { ([(VARY, "Accept-Language")], "{}") }));
        /// let mut service = FaultService::new(app, Some(Fault::IgnoreWeights));
        /// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        /// let response = runtime.block_on(service.call(Request::post("/mcp").body(Body::from("{}")).unwrap())).unwrap();
        /// assert_eq!(response.headers()[VARY], "Accept-Language");
        /// ```
        pub fn new(inner: S, fault: Option<Fault>) -> Self {
            Self {
                inner,
                fault: fault
                    .filter(|f| matches!(f.layer(), FaultLayer::Http | FaultLayer::Message)),
                cache: Arc::default(),
            }
        }
    }

    impl<S, B> Service<Request<Body>> for FaultService<S>
    where
        S: Service<Request<Body>, Response = Response<B>, Error = Infallible>
            + Clone
            + Send
            + 'static,
        S::Future: Send + 'static,
        B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        type Response = Response<Body>;
        type Error = Infallible;
        type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

        fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            self.inner.poll_ready(cx)
        }

        fn call(&mut self, request: Request<Body>) -> Self::Future {
            let clone = self.inner.clone();
            let inner = std::mem::replace(&mut self.inner, clone);
            let fault = self.fault;
            let cache = self.cache.clone();
            Box::pin(async move {
                match fault {
                    Some(fault) if request.method() == Method::POST => {
                        Ok(faulty(inner, fault, cache, request).await)
                    }
                    _ => {
                        let mut inner = inner;
                        let response = inner.call(request).await?;
                        Ok(response.map(Body::new))
                    }
                }
            })
        }
    }

    fn accept_language_lines(headers: &HeaderMap) -> Vec<String> {
        headers
            .get_all(header::ACCEPT_LANGUAGE)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
            .collect()
    }

    fn set_accept_language(headers: &mut HeaderMap, value: Option<&str>) {
        headers.remove(header::ACCEPT_LANGUAGE);
        if let Some(v) = value.and_then(|v| HeaderValue::from_str(v).ok()) {
            headers.insert(header::ACCEPT_LANGUAGE, v);
        }
    }

    /// Ranges and q-values as a matcher sees them (lower-cased).
    fn semantic(value: &str) -> Option<Vec<(String, u16)>> {
        let parsed = AcceptLanguage::parse(value).ok()?;
        Some(
            parsed
                .iter()
                .map(|r| (r.range.as_str().to_ascii_lowercase(), r.quality.get()))
                .collect(),
        )
    }

    fn json_response(status: StatusCode, body: &Value) -> Response<Body> {
        let mut response = Response::new(Body::from(body.to_string()));
        *response.status_mut() = status;
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    }

    async fn faulty<S, B>(
        mut inner: S,
        fault: Fault,
        cache: Cache,
        request: Request<Body>,
    ) -> Response<Body>
    where
        S: Service<Request<Body>, Response = Response<B>, Error = Infallible>,
        B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let (mut parts, body) = request.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, LIMIT).await else {
            return json_response(StatusCode::PAYLOAD_TOO_LARGE, &json!({}));
        };
        let mut message: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let meta = message
            .pointer("/params/_meta")
            .and_then(|m| m.get(ACCEPT_LANGUAGE))
            .cloned();
        let meta_str = meta.as_ref().and_then(Value::as_str).map(str::to_owned);
        let lines = accept_language_lines(&parts.headers);
        let joined = lines.join(", ");
        let mut body_changed = false;

        // Request side: the agreement check as a faulty server does it.
        match fault {
            Fault::SkipAgreementCheck if meta_str.is_some() && !lines.is_empty() => {
                set_accept_language(&mut parts.headers, meta_str.as_deref());
            }
            Fault::CaseInsensitiveAgreement => {
                if let Some(m) = &meta_str
                    && !lines.is_empty()
                    && joined.eq_ignore_ascii_case(m)
                {
                    set_accept_language(&mut parts.headers, Some(m));
                }
            }
            Fault::WhitespaceInsensitiveAgreement => {
                let squeeze = |s: &str| s.replace([' ', '\t'], "");
                if let Some(m) = &meta_str
                    && !lines.is_empty()
                    && squeeze(&joined) == squeeze(m)
                {
                    set_accept_language(&mut parts.headers, Some(m));
                }
            }
            Fault::SemanticAgreement => {
                if let Some(m) = &meta_str
                    && !lines.is_empty()
                    && semantic(&joined).is_some()
                    && semantic(&joined) == semantic(m)
                {
                    set_accept_language(&mut parts.headers, Some(m));
                }
            }
            Fault::FirstLineOnly => {
                if let Some(first) = lines.first() {
                    let first = first.clone();
                    set_accept_language(&mut parts.headers, Some(&first));
                }
            }
            // Malformed values are discarded before the comparison.
            Fault::GrammarBeforeAgreement
                if meta_str
                    .as_deref()
                    .is_some_and(|m| AcceptLanguage::parse(m).is_err())
                    || (!lines.is_empty() && AcceptLanguage::parse(&joined).is_err()) =>
            {
                set_accept_language(&mut parts.headers, None);
            }
            // The faulty server normalizes its `_meta` copy, so the layer
            // behind it compares the trimmed value.
            Fault::TrimMeta => {
                if let Some(m) = &meta_str
                    && !lines.is_empty()
                    && m.trim_matches([' ', '\t']) == joined
                    && let Some(slot) = message
                        .pointer_mut("/params/_meta")
                        .and_then(|meta| meta.get_mut(ACCEPT_LANGUAGE))
                {
                    *slot = Value::String(joined.clone());
                    body_changed = true;
                }
            }
            Fault::JoinWithoutSpace if lines.len() > 1 => {
                let squashed = lines.join(",");
                if meta_str.as_deref() == Some(squashed.as_str()) {
                    set_accept_language(&mut parts.headers, meta_str.as_deref());
                } else {
                    return json_response(
                        StatusCode::BAD_REQUEST,
                        &json!({ "jsonrpc": "2.0", "id": id, "error": {
                            "code": -32020, "message": "Accept-Language does not agree with _meta" } }),
                    );
                }
            }
            Fault::RejectAcceptLanguage if !lines.is_empty() => {
                return json_response(
                    StatusCode::BAD_REQUEST,
                    &json!({ "jsonrpc": "2.0", "id": id, "error": {
                        "code": -32020, "message": "Accept-Language does not agree with _meta" } }),
                );
            }
            Fault::RejectMissingHeader if meta.is_some() && lines.is_empty() => {
                return json_response(
                    StatusCode::BAD_REQUEST,
                    &json!({ "jsonrpc": "2.0", "id": id, "error": {
                        "code": -32020, "message": "Accept-Language header required" } }),
                );
            }
            Fault::BareHeaderPreference => {
                if meta.is_none()
                    && !lines.is_empty()
                    && let Some(params) = message
                        .as_object_mut()
                        .map(|m| m.entry("params").or_insert_with(|| json!({})))
                    && let Some(params) = params.as_object_mut()
                {
                    let meta = params.entry("_meta").or_insert_with(|| json!({}));
                    if let Some(meta) = meta.as_object_mut() {
                        meta.insert(ACCEPT_LANGUAGE.to_owned(), Value::String(joined.clone()));
                        body_changed = true;
                    }
                }
            }
            _ => {}
        }

        let body = if body_changed {
            parts.headers.remove(header::CONTENT_LENGTH);
            Body::from(message.to_string())
        } else {
            Body::from(bytes)
        };
        let Ok(response) = inner.call(Request::from_parts(parts, body)).await;
        let (mut parts, body) = response.into_parts();

        let is_json = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        let is_stream = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));

        // Response side.
        match fault {
            Fault::DropVary => {
                parts.headers.remove(header::VARY);
            }
            Fault::ContentLanguageDiffers => {
                if let Some(v) = parts.headers.get(header::CONTENT_LANGUAGE).cloned() {
                    let folded = String::from_utf8_lossy(v.as_bytes()).to_ascii_uppercase();
                    if let Ok(v) = HeaderValue::from_str(&folded) {
                        parts.headers.insert(header::CONTENT_LANGUAGE, v);
                    }
                }
            }
            Fault::TwoContentLanguageLines => {
                if let Some(v) = parts.headers.get(header::CONTENT_LANGUAGE).cloned() {
                    parts.headers.append(header::CONTENT_LANGUAGE, v);
                }
            }
            Fault::OmitContentLanguageHeader if is_json => {
                parts.headers.remove(header::CONTENT_LANGUAGE);
            }
            Fault::SseContentLanguage if is_stream => {
                if let Some(v) = meta_str
                    .as_deref()
                    .and_then(|m| HeaderValue::from_str(m).ok())
                {
                    parts.headers.insert(header::CONTENT_LANGUAGE, v);
                }
            }
            Fault::PublicWhenStripped => {
                parts.headers.remove(header::CACHE_CONTROL);
            }
            _ => {}
        }

        if is_stream && fault == Fault::OmitNotificationLanguage {
            let Ok(bytes) = axum::body::to_bytes(Body::new(body), LIMIT).await else {
                return json_response(StatusCode::INTERNAL_SERVER_ERROR, &json!({}));
            };
            let text = String::from_utf8_lossy(&bytes);
            let mut out = String::with_capacity(text.len());
            for line in text.split_inclusive('\n') {
                let data = line.strip_prefix("data:").map(str::trim);
                let message = data.and_then(|d| serde_json::from_str::<Value>(d).ok());
                match message {
                    Some(mut m) if m.get("method").is_some() && m.get("id").is_none() => {
                        if let Some(meta) = m
                            .pointer_mut("/params/_meta")
                            .and_then(Value::as_object_mut)
                        {
                            meta.remove(CONTENT_LANGUAGE);
                        }
                        out.push_str(&format!("data: {m}\n"));
                    }
                    _ => out.push_str(line),
                }
            }
            parts.headers.remove(header::CONTENT_LENGTH);
            return Response::from_parts(parts, Body::from(out));
        }

        let needs_body = matches!(
            fault,
            Fault::OmitErrorContentLanguageHeader
                | Fault::CacheByNegotiatedLanguage
                | Fault::WrongMismatchCode
        ) && is_json;
        if !needs_body {
            return Response::from_parts(parts, Body::new(body));
        }
        let Ok(bytes) = axum::body::to_bytes(Body::new(body), LIMIT).await else {
            return json_response(StatusCode::INTERNAL_SERVER_ERROR, &json!({}));
        };
        let mut answer: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        match fault {
            Fault::OmitErrorContentLanguageHeader if answer.get("error").is_some() => {
                parts.headers.remove(header::CONTENT_LANGUAGE);
            }
            Fault::WrongMismatchCode if answer.pointer("/error/code") == Some(&json!(-32020)) => {
                if let Some(code) = answer.pointer_mut("/error/code") {
                    *code = json!(-32600);
                }
            }
            Fault::CacheByNegotiatedLanguage if answer.get("result").is_some() => {
                let language = answer
                    .pointer("/result/_meta")
                    .and_then(|m| m.get(CONTENT_LANGUAGE))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let key = (method, language);
                let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
                match cache.get(&key) {
                    Some((headers, cached)) => {
                        // Serve the variant stored for another preference.
                        parts.headers = headers.clone();
                        answer = cached.clone();
                        if let Some(slot) = answer.get_mut("id") {
                            *slot = id;
                        }
                    }
                    None => {
                        cache.insert(key, (parts.headers.clone(), answer.clone()));
                    }
                }
            }
            _ => {}
        }
        parts.headers.remove(header::CONTENT_LENGTH);
        Response::from_parts(parts, Body::from(answer.to_string()))
    }

    /// The reference server's router with `fault` (see
    /// `serve::http_router`, which it mirrors): handler faults inside rmcp's
    /// service, HTTP faults outside the language layer.
    ///
    /// ```
    /// use axum::body::Body;
    /// use http::{Request, header::{CONTENT_TYPE, VARY}};
    /// use mcp_lang_reference::{ReferenceServer, fault::{Fault, http_router}, serve::{HttpMode, MCP_PATH}};
    /// use tokio_util::sync::CancellationToken;
    /// use tower_service::Service;
    ///
    /// let server = ReferenceServer::new().unwrap();
    /// let mut router = http_router(server, HttpMode::Stateless, CancellationToken::new(), Some(Fault::DropVary));
    /// let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
    ///   "capabilities":{},"clientInfo":{"name":"doc","version":"0"}}}"#;
    /// let request = Request::post(MCP_PATH).header(CONTENT_TYPE, "application/json")
    ///     .header("accept", "application/json, text/event-stream").header("host", "localhost")
    ///     .body(Body::from(init)).unwrap();
    /// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    /// let response = runtime.block_on(router.call(request)).unwrap();
    /// assert!(response.headers().get(VARY).is_none()); // the layer added it; the fault dropped it
    /// ```
    pub fn http_router(
        server: ReferenceServer,
        mode: HttpMode,
        cancel: CancellationToken,
        fault: Option<Fault>,
    ) -> axum::Router {
        let faulty = FaultyServer::new(server, fault);
        crate::serve::http_router_for(move || faulty.for_session(), mode, cancel)
            .layer(layer_fn(move |inner| FaultService::new(inner, fault)))
    }

    /// Binds `addr` and serves the reference server with `fault` over
    /// Streamable HTTP in a background task.
    ///
    /// # Errors
    ///
    /// The address cannot be bound.
    ///
    /// A server that checks only the first `Accept-Language` line lets a
    /// contradicting second line through, where the real server answers 400:
    ///
    /// ```
    /// # #[cfg(feature = "demo")] {
    /// use std::net::SocketAddr;
    /// use mcp_lang_reference::{ReferenceServer, fault::{Fault, spawn_http}, serve::{HttpMode, MCP_PATH}, wire::post};
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let any = SocketAddr::from(([127, 0, 0, 1], 0));
    /// let http = spawn_http(ReferenceServer::new().unwrap(), any, HttpMode::Stateless, Some(Fault::FirstLineOnly)).await.unwrap();
    /// let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#;
    /// let lines = [("MCP-Protocol-Version", "2025-11-25"), ("Accept-Language", "de"), ("Accept-Language", "fr")];
    /// let exchange = post(http.local_addr(), MCP_PATH, &lines, list).await.unwrap();
    /// assert_eq!(exchange.status, 200); // a conforming server: 400, -32020
    /// http.shutdown().await;
    /// # });
    /// # }
    /// ```
    pub async fn spawn_http(
        server: ReferenceServer,
        addr: SocketAddr,
        mode: HttpMode,
        fault: Option<Fault>,
    ) -> std::io::Result<HttpServer> {
        spawn_router(addr, move |cancel| http_router(server, mode, cancel, fault)).await
    }
}
