//! Negotiate once, stamp everywhere: [`Localized`] around any rmcp `ServerHandler`, and
//! the per-request [`Language`] it hands the handler.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::handler::server::common::{AsRequestContext, FromContextPart};
// Logging and sampling are legacy in rmcp (SEP-2577), still served to older peers.
use rmcp::model::ProgressToken;
#[allow(deprecated)]
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
    CompleteRequestParams, CompleteResult, CreateTaskResult, CustomNotification, CustomRequest,
    CustomResult, DiscoverResult, ElicitRequestParams, ErrorCode, GetPromptRequestParams,
    GetPromptResponse, GetSkillRequestParams, GetSkillResult, GetTaskParams, GetTaskResult,
    InitializeRequestParams, InitializeResult, InputRequest, InputRequiredResult, JsonObject,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, LoggingMessageNotificationParam, MetaObject, NotificationMetaObject,
    PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    RequestMetaObject, RequestParamsMeta, ServerConfig, SetLevelRequestParams,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde_json::Value;

use super::{
    Arg, Catalog, Existing, RequestLanguage, ServerLanguages, Titles, content_language_meta,
    write_content_language, write_in_member,
};

/// What [`Localized`] shares with every request it serves.
#[derive(Clone)]
struct Config {
    languages: Arc<ServerLanguages>,
    catalog: Option<Arc<dyn Catalog>>,
    descriptions: bool,
}

/// SEP-2792 around any rmcp [`ServerHandler`]: each request's preference is read once
/// and negotiated, the handler finds the result as a [`Language`] in its
/// `RequestContext` (a tool or prompt function of rmcp's macros takes it as an
/// argument), and every answer reports the language it is in.
///
/// For each request:
///
/// 1. The preference is read from the request's `params._meta` (rmcp hands it over as
///    `RequestContext::meta`) and negotiated against the server's [`ServerLanguages`]
///    (RFC 4647 with weights and the wildcard; a malformed or unmatched preference
///    gives the default, never an error). On Streamable HTTP behind
///    `mcp-lang-http`'s `LanguageLayer` (which gives the `400` the SEP requires for a
///    disagreeing `Accept-Language`), the layer's verdict is used instead: the
///    preference is read and checked once per request (decision R2, see
///    [`ServerLanguages::for_request`]).
/// 2. The handler runs with the [`Language`] in `context.extensions`.
/// 3. List results and `serverInfo` get their titles from the [`Catalog`], looked up by
///    name (see [`Titles`]): no hand-written `list_tools`.
/// 4. `contentLanguage` is written into `result._meta`, or into `error.data._meta` of an
///    error (`error.data` made an object when it was absent; a non-object `data` is left
///    as it is, the rule of `mcp-lang-meta`'s writers; the code never changes), unless
///    the handler reported a language itself (decision R4).
///
/// **Which language is reported.** The one the answer is in: the negotiated language
/// when anything in it was localized, by the wrapper (titles from the catalog) or by the
/// handler (it read [`Language::tag`], [`Language::text`] or [`Language::format`]);
/// otherwise the server's default language, the language a handler that localizes
/// nothing writes in. A handler that knows better says so by setting `contentLanguage`
/// itself ([`stamp`](super::stamp)), e.g. for English model-facing output or an
/// edition chosen by an explicit `language` argument. Errors built with
/// [`Language::error`], progress sent with [`Language::progress`] and elicitations
/// sent with `Language::create_elicitation` (feature `elicitation`) carry their own
/// `contentLanguage`.
///
/// Empty results (`ping`, `logging/setLevel`, `resources/subscribe`,
/// `resources/unsubscribe`, `tasks/update`, `tasks/cancel`) have no `_meta` in rmcp's
/// model and cannot carry it (decision R10). Notifications and server-to-client requests
/// a handler sends through `context.peer` directly are not seen by the wrapper (rmcp's
/// `Peer` cannot be wrapped); send them through the [`Language`] instead.
///
/// ```
/// use mcp_lang_rmcp::server::{Arg, Language, Localized, ServerLanguages, catalog_fn};
/// use rmcp::{ServerHandler, handler::server::wrapper::Parameters, tool, tool_handler, tool_router};
/// use rmcp::model::ErrorCode;
///
/// #[derive(Clone)]
/// struct Calculator;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Operands { a: f64, b: f64 }
///
/// #[tool_router]
/// impl Calculator {
///     #[tool(title = "Divide", description = "Divides a by b.")]
///     fn divide(&self, Parameters(o): Parameters<Operands>, language: Language) -> Result<String, rmcp::ErrorData> {
///         if o.b == 0.0 {
///             return Err(language.error(ErrorCode::INVALID_PARAMS, "divide-by-zero", &[]));
///         }
///         Ok((o.a / o.b).to_string())
///     }
/// }
///
/// #[tool_handler]
/// impl ServerHandler for Calculator {}
///
/// let catalog = catalog_fn(|language: &str, id: &str, _: &[(&str, Arg<'_>)]| match (language, id) {
///     ("fr", "tool-divide") => Some("Diviser".to_owned()),
///     ("fr", "divide-by-zero") => Some("La division par zéro n'est pas définie.".to_owned()),
///     _ => None,
/// });
/// let languages = ServerLanguages::new(["en", "fr"], "en").unwrap();
/// let server = Localized::new(Calculator, languages).with_catalog(catalog);
/// assert_eq!(server.languages().default_tag(), "en");
/// // serve it: `server.serve(rmcp::transport::stdio())`, or behind rmcp's
/// // `StreamableHttpService` and `mcp-lang-http`'s `LanguageLayer`.
/// ```
pub struct Localized<H> {
    inner: H,
    config: Config,
}

impl<H: Clone> Clone for Localized<H> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
            config: self.config.clone(),
        }
    }
}

impl<H: fmt::Debug> fmt::Debug for Localized<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Localized")
            .field("inner", &self.inner)
            .field("languages", &self.config.languages)
            .field("catalog", &self.config.catalog.is_some())
            .field("descriptions", &self.config.descriptions)
            .finish()
    }
}

impl<H> Localized<H> {
    /// Wraps `inner`, negotiating against `languages`; no catalog yet (titles stay as
    /// the handler gives them).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Localized, ServerLanguages};
    ///
    /// let server = Localized::new((), ServerLanguages::new(["en", "de"], "en").unwrap());
    /// assert!(server.catalog().is_none());
    /// ```
    pub fn new(inner: H, languages: impl Into<Arc<ServerLanguages>>) -> Self {
        Self {
            inner,
            config: Config {
                languages: languages.into(),
                catalog: None,
                descriptions: false,
            },
        }
    }

    /// Takes display text from `catalog`: titles of listed items and of `serverInfo`,
    /// and what [`Language::text`], [`Language::error`] and [`Language::progress`] look
    /// up.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Arg, Catalog, Localized, ServerLanguages, catalog_fn};
    ///
    /// let catalog = catalog_fn(|_: &str, id: &str, _: &[(&str, Arg<'_>)]| Some(id.to_uppercase()));
    /// let server = Localized::new((), ServerLanguages::new(["en"], "en").unwrap()).with_catalog(catalog);
    /// assert_eq!(server.catalog().unwrap().message("en", "server", &[]).as_deref(), Some("SERVER"));
    /// ```
    #[must_use]
    pub fn with_catalog(mut self, catalog: impl Catalog) -> Self {
        self.config.catalog = Some(Arc::new(catalog));
        self
    }

    /// Also localizes descriptions of listed items and of `serverInfo` (model-facing
    /// text, the SEP's "MAY" list: off by default, because translating it can change
    /// what a model does).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Localized, ServerLanguages};
    ///
    /// let server = Localized::new((), ServerLanguages::new(["en"], "en").unwrap());
    /// assert!(!server.translates_descriptions());
    /// assert!(server.translate_descriptions(true).translates_descriptions());
    /// ```
    #[must_use]
    pub fn translate_descriptions(mut self, descriptions: bool) -> Self {
        self.config.descriptions = descriptions;
        self
    }

    /// Whether descriptions are localized too.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Localized, ServerLanguages};
    ///
    /// let server = Localized::new((), ServerLanguages::new(["en"], "en").unwrap());
    /// assert!(!server.translates_descriptions());
    /// ```
    pub fn translates_descriptions(&self) -> bool {
        self.config.descriptions
    }

    /// The wrapped handler.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Localized, ServerLanguages};
    ///
    /// let server = Localized::new(42, ServerLanguages::new(["en"], "en").unwrap());
    /// assert_eq!(*server.inner(), 42);
    /// ```
    pub fn inner(&self) -> &H {
        &self.inner
    }

    /// The same configuration (languages, catalog) around another handler: what a
    /// Streamable HTTP service factory uses to give each session its own handler state.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Localized, ServerLanguages};
    ///
    /// let server = Localized::new(1, ServerLanguages::new(["en", "ja"], "en").unwrap());
    /// let session = server.with_inner(2);
    /// assert_eq!((*session.inner(), session.languages().default_tag()), (2, "en"));
    /// ```
    pub fn with_inner<I>(&self, inner: I) -> Localized<I> {
        Localized {
            inner,
            config: self.config.clone(),
        }
    }

    /// The server's languages.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Localized, ServerLanguages};
    ///
    /// let server = Localized::new((), ServerLanguages::new(["en", "fr"], "en").unwrap());
    /// assert_eq!(server.languages().negotiate_raw(Some("fr-CH")).selected(), "fr");
    /// ```
    pub fn languages(&self) -> &ServerLanguages {
        &self.config.languages
    }

    /// The catalog, when one was given.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Localized, ServerLanguages};
    ///
    /// assert!(Localized::new((), ServerLanguages::new(["en"], "en").unwrap()).catalog().is_none());
    /// ```
    pub fn catalog(&self) -> Option<&dyn Catalog> {
        self.config.catalog.as_deref()
    }

    /// Negotiates the request's language (checking the HTTP mirror only when rmcp passed
    /// HTTP parts without the layer's verdict), and puts the [`Language`] into the context.
    fn begin(&self, context: &mut RequestContext<RoleServer>) -> Result<Language, ErrorData> {
        let checked = self.config.languages.shared_for_request(context);
        let request = match checked {
            Ok(request) => request,
            Err(mut error) => {
                stamp_error(&mut error, self.config.languages.default_tag());
                return Err(error);
            }
        };
        let language = Language(Arc::new(State {
            default: self.config.languages.shared_default(),
            request,
            catalog: self.config.catalog.clone(),
            read: AtomicBool::new(false),
            peer: Some(context.peer.clone()),
            progress_token: context.meta.get_progress_token(),
        }));
        context.extensions.insert(language.clone());
        Ok(language)
    }

    fn titles<'a>(&'a self, language: &'a Language) -> Option<Titles<'a>> {
        let catalog = self.config.catalog.as_deref()?;
        Some(
            Titles::new(catalog, language.0.request.selected())
                .with_descriptions(self.config.descriptions),
        )
    }

    /// Reports the language of an answer: what the handler set, or the language the
    /// rules of [`Localized`] give, on the result or the error.
    fn finish<T: Reported>(
        &self,
        language: &Language,
        answer: Result<T, ErrorData>,
        localize: impl FnOnce(&mut T, Option<Titles<'_>>) -> bool,
    ) -> Result<T, ErrorData> {
        match answer {
            Ok(mut result) => {
                let localized_here = localize(&mut result, self.titles(language));
                let tag = if localized_here {
                    language.0.request.selected()
                } else {
                    language.reported()
                };
                result.report(tag);
                Ok(result)
            }
            Err(mut error) => {
                stamp_error(&mut error, language.reported());
                Err(error)
            }
        }
    }
}

fn no_titles<T>(_: &mut T, _: Option<Titles<'_>>) -> bool {
    false
}

/// The state of one request: the negotiated language and whether the handler read it.
struct State {
    request: Arc<RequestLanguage>,
    default: Arc<str>,
    catalog: Option<Arc<dyn Catalog>>,
    read: AtomicBool,
    /// The client of the request, to send its notifications and requests to (none for
    /// a [`Language::new`]).
    peer: Option<Peer<RoleServer>>,
    /// The request's `progressToken`, if it asked for progress.
    progress_token: Option<ProgressToken>,
}

/// The language of the request being served, as [`Localized`] negotiated it: what a
/// handler localizes with, and the way to send localized errors, progress, log messages
/// and elicitations that report their language.
///
/// A handler gets it from the context ([`Language::of`]); a function of rmcp's
/// `#[tool]` or `#[prompt]` macros simply takes it as an argument. Cheap to clone (one
/// shared state per request).
///
/// Reading the language ([`tag`](Self::tag), [`text`](Self::text),
/// [`format`](Self::format)) is remembered: the answer then reports the negotiated
/// language, since it may hold what was read. A handler that never reads it answers in
/// the server's default language, and its answer says so. [`request`](Self::request)
/// inspects the negotiation without counting as a read (for logs).
///
/// ```
/// use mcp_lang_rmcp::server::Language;
/// use rmcp::{ErrorData, RoleServer, service::RequestContext};
///
/// // In any handler method of a server wrapped in `Localized`:
/// fn greeting(context: &RequestContext<RoleServer>) -> Result<String, ErrorData> {
///     let language = Language::of(context)?;
///     Ok(language.format("greeting", &[("name", "Ada".into())]))
/// }
/// ```
#[derive(Clone)]
pub struct Language(Arc<State>);

impl fmt::Debug for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Language")
            .field("tag", &self.0.request.selected())
            .field("default", &self.0.default)
            .field("read", &self.was_read())
            .finish_non_exhaustive()
    }
}

impl Language {
    /// A language outside any server, for tests of handler code and for servers that
    /// call handler code themselves: `request` (from
    /// [`ServerLanguages::negotiate_raw`] or [`ServerLanguages::for_request`]), the
    /// languages' default, and an optional catalog.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Language, ServerLanguages};
    ///
    /// let languages = ServerLanguages::new(["en", "de"], "en").unwrap();
    /// let language = Language::new(languages.negotiate_raw(Some("de-CH")), &languages, None);
    /// assert_eq!(language.tag(), "de");
    /// ```
    pub fn new(
        request: RequestLanguage,
        languages: &ServerLanguages,
        catalog: Option<Arc<dyn Catalog>>,
    ) -> Self {
        Language(Arc::new(State {
            request: Arc::new(request),
            default: languages.shared_default(),
            catalog,
            read: AtomicBool::new(false),
            peer: None,
            progress_token: None,
        }))
    }

    /// The language [`Localized`] put into this request's context.
    ///
    /// # Errors
    ///
    /// An internal error (`-32603`) when the server is not wrapped in [`Localized`]: a
    /// programming error, reported rather than answered in a guessed language.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::Language;
    /// use rmcp::{ErrorData, RoleServer, service::RequestContext};
    ///
    /// fn tag(context: &RequestContext<RoleServer>) -> Result<String, ErrorData> {
    ///     Ok(Language::of(context)?.tag().to_owned())
    /// }
    /// ```
    pub fn of(context: &RequestContext<RoleServer>) -> Result<Language, ErrorData> {
        context.extensions.get::<Language>().cloned().ok_or_else(|| {
            ErrorData::internal_error(
                "no negotiated language: the server is not wrapped in mcp_lang_rmcp::server::Localized",
                None,
            )
        })
    }

    fn mark_read(&self) {
        self.0.read.store(true, Ordering::Relaxed);
    }

    /// The negotiated tag, as the server spells it; counts as a read.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Language, ServerLanguages};
    ///
    /// let languages = ServerLanguages::new(["en", "fr-CA"], "en").unwrap();
    /// let language = Language::new(languages.negotiate_raw(Some("fr-ca, en;q=0.5")), &languages, None);
    /// assert!(!language.was_read());
    /// assert_eq!(language.tag(), "fr-CA");
    /// assert!(language.was_read());
    /// ```
    pub fn tag(&self) -> &str {
        self.mark_read();
        self.0.request.selected()
    }

    /// The negotiation itself (raw preference, kind, reason, quality), without counting
    /// as a read: for logs and metrics.
    ///
    /// ```
    /// use mcp_lang_match::Reason;
    /// use mcp_lang_rmcp::server::{Language, ServerLanguages};
    ///
    /// let languages = ServerLanguages::new(["en", "de"], "en").unwrap();
    /// let language = Language::new(languages.negotiate_raw(Some("ja")), &languages, None);
    /// assert_eq!(language.request().reason(), Reason::Default);
    /// assert!(!language.was_read());
    /// ```
    pub fn request(&self) -> &RequestLanguage {
        &self.0.request
    }

    /// The server's default language: what an answer that localizes nothing is in.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Language, ServerLanguages};
    ///
    /// let languages = ServerLanguages::new(["de", "en"], "en").unwrap();
    /// let language = Language::new(languages.negotiate_raw(Some("de")), &languages, None);
    /// assert_eq!(language.default_tag(), "en");
    /// ```
    pub fn default_tag(&self) -> &str {
        &self.0.default
    }

    /// Whether the handler has read the language so far.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Language, ServerLanguages};
    ///
    /// let languages = ServerLanguages::new(["en", "de"], "en").unwrap();
    /// let language = Language::new(languages.negotiate_raw(Some("de")), &languages, None);
    /// let _ = language.text("greeting");
    /// assert!(language.was_read());
    /// ```
    pub fn was_read(&self) -> bool {
        self.0.read.load(Ordering::Relaxed)
    }

    /// The language an answer built by the handler reports now: the negotiated one once
    /// the handler has read it, else the default.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Language, ServerLanguages};
    ///
    /// let languages = ServerLanguages::new(["en", "ja"], "en").unwrap();
    /// let language = Language::new(languages.negotiate_raw(Some("ja")), &languages, None);
    /// assert_eq!(language.reported(), "en"); // nothing read: English output
    /// let _ = language.tag();
    /// assert_eq!(language.reported(), "ja");
    /// ```
    pub fn reported(&self) -> &str {
        if self.was_read() {
            self.0.request.selected()
        } else {
            &self.0.default
        }
    }

    /// The catalog text in this language without counting as a read, falling back to
    /// the default language and then to the id.
    fn lookup(&self, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        let Some(catalog) = self.0.catalog.as_deref() else {
            return id.to_owned();
        };
        catalog
            .message(self.0.request.selected(), id, args)
            .or_else(|| catalog.message(&self.0.default, id, args))
            .unwrap_or_else(|| id.to_owned())
    }

    /// The catalog message `id` in this language (falling back to the default language,
    /// then to the id itself); counts as a read.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_lang_rmcp::server::{Arg, Language, ServerLanguages, catalog_fn};
    ///
    /// let catalog = catalog_fn(|language: &str, id: &str, _: &[(&str, Arg<'_>)]| match (language, id) {
    ///     ("en", "greeting") => Some("Hello".to_owned()),
    ///     ("de", "greeting") => Some("Hallo".to_owned()),
    ///     ("en", "farewell") => Some("Goodbye".to_owned()),
    ///     _ => None,
    /// });
    /// let languages = ServerLanguages::new(["en", "de"], "en").unwrap();
    /// let german = Language::new(languages.negotiate_raw(Some("de")), &languages, Some(Arc::new(catalog)));
    /// assert_eq!(german.text("greeting"), "Hallo");
    /// assert_eq!(german.text("farewell"), "Goodbye"); // not translated: the default language
    /// assert_eq!(german.text("unknown"), "unknown");
    /// ```
    pub fn text(&self, id: &str) -> String {
        self.format(id, &[])
    }

    /// The catalog message `id` with arguments (name, value), as [`text`](Self::text);
    /// counts as a read. Numbers stay numbers ([`Arg`]): the catalog picks the plural
    /// form by the language's rules.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{FluentCatalog, Language, ServerLanguages};
    /// use std::sync::Arc;
    ///
    /// let catalog = FluentCatalog::new()
    ///     .add("en", "left = { $n ->\n [one] One step left\n *[other] { $n } steps left\n}")?
    ///     .add("fr", "left = { $n ->\n [one] Plus qu'{ $n } étape\n *[other] Plus que { $n } étapes\n}")?;
    /// let languages = ServerLanguages::new(["en", "fr"], "en").unwrap();
    /// let french = Language::new(languages.negotiate_raw(Some("fr")), &languages, Some(Arc::new(catalog)));
    /// assert_eq!(french.format("left", &[("n", 1.into())]), "Plus qu'1 étape");
    /// assert_eq!(french.format("left", &[("n", 4.into())]), "Plus que 4 étapes");
    /// # Ok::<(), mcp_lang_rmcp::server::FluentError>(())
    /// ```
    pub fn format(&self, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        self.mark_read();
        self.lookup(id, args)
    }

    /// A JSON-RPC error whose message is the catalog message `id` in this language,
    /// reporting it in `error.data._meta` (SEP-2792: `error.data` an object, the code
    /// unchanged).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mcp_lang_rmcp::server::{Arg, Language, ServerLanguages, catalog_fn};
    /// use rmcp::model::ErrorCode;
    ///
    /// let catalog = catalog_fn(|_: &str, _: &str, args: &[(&str, Arg<'_>)]| Some(format!("Outil inconnu : {}", args[0].1)));
    /// let languages = ServerLanguages::new(["en", "fr"], "en").unwrap();
    /// let french = Language::new(languages.negotiate_raw(Some("fr")), &languages, Some(Arc::new(catalog)));
    /// let error = french.error(ErrorCode::INVALID_PARAMS, "unknown-tool", &[("name", "forecast".into())]);
    /// let wire = serde_json::to_value(&error).unwrap();
    /// assert_eq!((wire["code"].as_i64(), wire["message"].as_str()), (Some(-32602), Some("Outil inconnu : forecast")));
    /// assert_eq!(wire["data"]["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr");
    /// ```
    pub fn error(&self, code: ErrorCode, id: &str, args: &[(&str, Arg<'_>)]) -> ErrorData {
        let message = self.lookup(id, args);
        super::localized_error(code, message, self.0.request.selected(), None)
    }

    /// rmcp's own progress notification, given its message: the catalog message `id`
    /// in this language, and `contentLanguage` in `params._meta` (an existing report is
    /// replaced). For a handler that keeps rmcp's extractors: it reads the token from
    /// its `RequestMetaObject`, builds `ProgressNotificationParam` as rmcp teaches and
    /// sends it through its `Peer<RoleServer>`; this only writes the text and the
    /// report. The message can use `$progress` and `$total` (the numbers of `params`)
    /// besides `args`, which win over them.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::Language;
    /// use rmcp::model::{ProgressNotificationParam, RequestMetaObject};
    /// use rmcp::{ErrorData, Peer, RoleServer};
    ///
    /// // With `left = { $left } to go` in the catalog.
    /// async fn step(language: &Language, meta: &RequestMetaObject, client: &Peer<RoleServer>) -> Result<(), ErrorData> {
    ///     if let Some(token) = meta.get_progress_token() {
    ///         let params = ProgressNotificationParam::new(token, 1.0).with_total(3.0);
    ///         let params = language.localize_progress(params, "left", &[("left", 2.into())]);
    ///         client.notify_progress(params).await.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    ///     }
    ///     Ok(())
    /// }
    /// ```
    pub fn localize_progress(
        &self,
        mut params: ProgressNotificationParam,
        id: &str,
        args: &[(&str, Arg<'_>)],
    ) -> ProgressNotificationParam {
        let mut all: Vec<(&str, Arg<'_>)> = vec![("progress", Arg::Number(params.progress))];
        if let Some(total) = params.total {
            all.push(("total", Arg::Number(total)));
        }
        all.extend_from_slice(args);
        params.message = Some(self.lookup(id, &all));
        params.meta = Some(NotificationMetaObject::from(content_language_meta(
            self.0.request.selected(),
        )));
        params
    }

    /// Sends a progress notification for this request, to its client, its message the
    /// catalog message `id` in this language (as
    /// [`localize_progress`](Self::localize_progress) writes it). Nothing is
    /// sent (and `Ok(false)` returned) when the request asked for no progress (no
    /// `progressToken`). On Streamable HTTP rmcp routes it, by its token, to the
    /// request's own event stream.
    ///
    /// # Errors
    ///
    /// An internal error (`-32603`) when the connection is gone, or when this
    /// `Language` was made outside a server ([`Language::new`]) for a request that
    /// asked for progress.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::Language;
    /// use rmcp::ErrorData;
    ///
    /// // With `step = { $progress } of { $total } done` in the catalog.
    /// async fn count(language: &Language) -> Result<(), ErrorData> {
    ///     for done in 1..=3 {
    ///         language.progress(f64::from(done), 3.0, "step", &[]).await?;
    ///     }
    ///     Ok(())
    /// }
    /// ```
    pub async fn progress(
        &self,
        progress: f64,
        total: impl Into<Option<f64>>,
        id: &str,
        args: &[(&str, Arg<'_>)],
    ) -> Result<bool, ErrorData> {
        let Some(token) = self.0.progress_token.clone() else {
            return Ok(false);
        };
        let mut params = ProgressNotificationParam::new(token, progress);
        params.total = total.into();
        let params = self.localize_progress(params, id, args);
        self.peer()?
            .notify_progress(params)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(true)
    }

    /// Sends a progress notification with a message the handler wrote, reporting
    /// [`reported`](Self::reported) in `params._meta`. As [`progress`](Self::progress)
    /// otherwise.
    ///
    /// # Errors
    ///
    /// As [`progress`](Self::progress).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::Language;
    /// use rmcp::ErrorData;
    ///
    /// async fn half(language: &Language) -> Result<bool, ErrorData> {
    ///     let message = language.text("half-done"); // localized: reported in this language
    ///     language.notify_progress(1.0, Some(2.0), message).await
    /// }
    /// ```
    pub async fn notify_progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: impl Into<String>,
    ) -> Result<bool, ErrorData> {
        let Some(token) = self.0.progress_token.clone() else {
            return Ok(false);
        };
        let mut params = ProgressNotificationParam::new(token, progress).with_message(message);
        params.total = total;
        params.meta = Some(NotificationMetaObject::from(content_language_meta(
            self.reported(),
        )));
        self.peer()?
            .notify_progress(params)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(true)
    }

    /// The request's client, or an internal error for a `Language` made outside a
    /// server.
    fn peer(&self) -> Result<&Peer<RoleServer>, ErrorData> {
        self.0.peer.as_ref().ok_or_else(|| {
            ErrorData::internal_error(
                "this Language belongs to no request (Language::new): there is no client to send to",
                None,
            )
        })
    }

    /// Sends a log message (`notifications/message`) to the request's client, with
    /// `contentLanguage` in `params._meta` unless `params` already has one:
    /// [`reported`](Self::reported).
    ///
    /// # Errors
    ///
    /// An internal error (`-32603`) when the connection is gone or this `Language` was
    /// made outside a server ([`Language::new`]).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::Language;
    /// use rmcp::ErrorData;
    /// use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
    ///
    /// async fn log(language: &Language) -> Result<(), ErrorData> {
    ///     let data = serde_json::json!(language.text("cache-warm"));
    ///     language.notify_logging(LoggingMessageNotificationParam::new(LoggingLevel::Info, data)).await
    /// }
    /// ```
    #[allow(deprecated)] // logging is legacy in rmcp (SEP-2577), still served to older peers
    pub async fn notify_logging(
        &self,
        mut params: LoggingMessageNotificationParam,
    ) -> Result<(), ErrorData> {
        write_content_language(
            params
                .meta
                .get_or_insert_with(NotificationMetaObject::default),
            self.reported(),
            Existing::Keep,
        );
        self.peer()?
            .notify_logging_message(params)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    /// Sends an `elicitation/create` request to the request's client (protocols before
    /// 2026-07-28; from 2026-07-28 on, return an `input_required` result instead, which
    /// [`Localized`] reports), with `contentLanguage` in `params._meta` (decision R1)
    /// unless `params` already has one: [`reported`](Self::reported).
    ///
    /// # Errors
    ///
    /// An internal error (`-32603`) when the client cannot be asked, the connection
    /// is gone, or this `Language` was made outside a server ([`Language::new`]).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Language, form_elicitation};
    /// use rmcp::ErrorData;
    ///
    /// async fn ask(language: &Language) -> Result<(), ErrorData> {
    ///     let schema = serde_json::json!({"type": "object", "properties": {
    ///         "email": {"type": "string", "title": language.text("email-title")}}});
    ///     let params = form_elicitation(language.text("email-message"), schema, language.tag())
    ///         .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    ///     let _answer = language.create_elicitation(params).await?;
    ///     Ok(())
    /// }
    /// ```
    #[cfg(feature = "elicitation")]
    pub async fn create_elicitation(
        &self,
        mut params: ElicitRequestParams,
    ) -> Result<rmcp::model::ElicitResult, ErrorData> {
        stamp_request_meta(params_meta(&mut params), self.reported());
        self.peer()?
            .create_elicitation(params)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }
}

/// A `#[tool]` or `#[prompt]` function of rmcp's macros takes the [`Language`] as an
/// argument.
impl<C: AsRequestContext> FromContextPart<C> for Language {
    fn from_context_part(context: &mut C) -> Result<Self, ErrorData> {
        Language::of(context.as_request_context())
    }
}

fn params_meta(params: &mut ElicitRequestParams) -> &mut Option<RequestMetaObject> {
    params.meta_mut()
}

fn stamp_request_meta(meta: &mut Option<RequestMetaObject>, tag: &str) {
    write_content_language(
        meta.get_or_insert_with(RequestMetaObject::default),
        tag,
        Existing::Keep,
    );
}

/// Writes `contentLanguage` into `error.data._meta` unless one is there: `data` made an
/// object when absent or `null`; a `data` that is not an object, or whose `_meta` is not
/// one, is left untouched (the rule of `mcp-lang-meta`'s writers).
fn stamp_error(error: &mut ErrorData, tag: &str) {
    let data = error
        .data
        .get_or_insert_with(|| Value::Object(JsonObject::new()));
    if data.is_null() {
        *data = Value::Object(JsonObject::new());
    }
    if let Value::Object(data) = data {
        write_in_member(data, tag, Existing::Keep);
    }
}

/// Writes `contentLanguage` into a result's `_meta` unless the handler set one.
fn stamp_meta(meta: &mut Option<MetaObject>, tag: &str) {
    write_content_language(
        meta.get_or_insert_with(MetaObject::new),
        tag,
        Existing::Keep,
    );
}

/// An answer that can report its language.
trait Reported {
    fn report(&mut self, tag: &str);
}

macro_rules! reported_by_meta {
    ($($result:ty),* $(,)?) => {
        $(impl Reported for $result {
            fn report(&mut self, tag: &str) {
                stamp_meta(&mut self.meta, tag);
            }
        })*
    };
}

reported_by_meta!(
    InitializeResult,
    DiscoverResult,
    CompleteResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    GetTaskResult,
    CreateTaskResult,
    ListSkillsResult,
    GetSkillResult,
);

/// Empty results have no `_meta` (decision R10).
impl Reported for () {
    fn report(&mut self, _: &str) {}
}

/// The result, and every request nested in it (an `elicitation/create` or
/// `sampling/createMessage` the client answers before the call is retried).
impl Reported for InputRequiredResult {
    #[allow(deprecated)] // sampling is legacy in rmcp (SEP-2577), still served
    fn report(&mut self, tag: &str) {
        stamp_meta(&mut self.meta, tag);
        let reported = super::reported(&self.meta).unwrap_or(tag).to_owned();
        for request in self.input_requests.iter_mut().flat_map(|r| r.values_mut()) {
            match request {
                InputRequest::Elicitation(elicit) => {
                    stamp_request_meta(params_meta(&mut elicit.params), &reported);
                }
                InputRequest::CreateMessage(create) => {
                    stamp_request_meta(&mut create.params.meta, &reported);
                }
                _ => {}
            }
        }
    }
}

impl Reported for CallToolResponse {
    fn report(&mut self, tag: &str) {
        match self {
            CallToolResponse::Complete(result) => stamp_meta(&mut result.meta, tag),
            CallToolResponse::InputRequired(result) => result.report(tag),
            CallToolResponse::Task(result) => result.report(tag),
            _ => {}
        }
    }
}

impl Reported for GetPromptResponse {
    fn report(&mut self, tag: &str) {
        match self {
            GetPromptResponse::Complete(result) => stamp_meta(&mut result.meta, tag),
            GetPromptResponse::InputRequired(result) => result.report(tag),
            _ => {}
        }
    }
}

impl Reported for ReadResourceResponse {
    fn report(&mut self, tag: &str) {
        match self {
            ReadResourceResponse::Complete(result) => stamp_meta(&mut result.meta, tag),
            ReadResourceResponse::InputRequired(result) => result.report(tag),
            _ => {}
        }
    }
}

/// A custom result is raw JSON: reported in its `_meta` when it is an object.
impl Reported for CustomResult {
    fn report(&mut self, tag: &str) {
        if let Value::Object(result) = &mut self.0 {
            write_in_member(result, tag, Existing::Keep);
        }
    }
}

/// Runs one request method of the inner handler between [`Localized::begin`] and
/// [`Localized::finish`].
macro_rules! around {
    ($self:ident, $context:ident, $call:expr, $localize:expr) => {{
        let language = $self.begin(&mut $context)?;
        let answer = $call.await;
        $self.finish(&language, answer, $localize)
    }};
}

#[allow(deprecated)] // logging, subscriptions and roots are legacy in rmcp (SEP-2577), still served
impl<H: ServerHandler> ServerHandler for Localized<H> {
    async fn ping(&self, mut context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        around!(self, context, self.inner.ping(context), no_titles)
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
            |result: &mut InitializeResult, titles| {
                titles.is_some_and(|t| t.server(&mut result.server_info))
            }
        )
    }

    fn negotiate_initialize(
        &self,
        request: &InitializeRequestParams,
    ) -> Result<InitializeResult, ErrorData> {
        self.inner.negotiate_initialize(request)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }

    async fn discover(
        &self,
        mut context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.discover(context),
            |result: &mut DiscoverResult, titles| {
                let (Some(titles), Some(mut info)) = (titles, result.server_info()) else {
                    return false;
                };
                let changed = titles.server(&mut info);
                if changed {
                    result.set_server_info(info);
                }
                changed
            }
        )
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.complete(request, context),
            no_titles
        )
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        around!(
            self,
            context,
            self.inner.set_level(request, context),
            no_titles
        )
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        around!(
            self,
            context,
            self.inner.get_prompt(request, context),
            no_titles
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
            |result: &mut ListPromptsResult, titles| {
                titles.is_some_and(|t| {
                    result
                        .prompts
                        .iter_mut()
                        .fold(false, |any, p| t.prompt(p) | any)
                })
            }
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
            localize_resources
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
            |result: &mut ListResourceTemplatesResult, titles| {
                titles.is_some_and(|t| {
                    result
                        .resource_templates
                        .iter_mut()
                        .fold(false, |any, r| t.template(r) | any)
                })
            }
        )
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        around!(
            self,
            context,
            self.inner.read_resource(request, context),
            no_titles
        )
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.inner.accepted_subscription_filter(requested)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.inner.listen(context).await
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        around!(
            self,
            context,
            self.inner.subscribe(request, context),
            no_titles
        )
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        around!(
            self,
            context,
            self.inner.unsubscribe(request, context),
            no_titles
        )
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        around!(
            self,
            context,
            self.inner.call_tool(request, context),
            no_titles
        )
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
            |result: &mut ListToolsResult, titles| {
                titles.is_some_and(|t| {
                    result
                        .tools
                        .iter_mut()
                        .fold(false, |any, x| t.tool(x) | any)
                })
            }
        )
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.get_tool(name)
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.on_custom_request(request, context),
            no_titles
        )
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_cancelled(notification, context).await;
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_progress(notification, context).await;
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_initialized(context).await;
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_roots_list_changed(context).await;
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner
            .on_custom_notification(notification, context)
            .await;
    }

    fn get_info(&self) -> ServerConfig {
        self.inner.get_info()
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.get_task(request, context),
            no_titles
        )
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        around!(
            self,
            context,
            self.inner.update_task(request, context),
            no_titles
        )
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        around!(
            self,
            context,
            self.inner.cancel_task(request, context),
            no_titles
        )
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.list_skills(request, context),
            no_titles
        )
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.get_skill(request, context),
            no_titles
        )
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        around!(
            self,
            context,
            self.inner.read_resource_directory(request, context),
            localize_resources
        )
    }
}

fn localize_resources(result: &mut ListResourcesResult, titles: Option<Titles<'_>>) -> bool {
    titles.is_some_and(|t| {
        result
            .resources
            .iter_mut()
            .fold(false, |any, r| t.resource(r) | any)
    })
}
