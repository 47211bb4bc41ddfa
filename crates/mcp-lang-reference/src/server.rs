//! The reference server: an rmcp `ServerHandler` that honours SEP-2792 in
//! every method, built the way `mcp-lang-rmcp` suggests to any rmcp server.
//!
//! [`ReferenceServer`] is the server's handlers wrapped in
//! [`Localized`]: every request's preference is negotiated once (nothing is
//! kept between requests) and checked against the HTTP mirror when rmcp passes
//! the HTTP parts; the handlers find the result as a [`Language`] in the
//! request context; the titles of tools, prompts, resources, templates and
//! `serverInfo` come from the catalogs by name (the handlers' definitions carry
//! none), and every result and error reports its language. Display text comes
//! from the catalogs; identifiers are literals in this file and never go
//! through a catalog.
//!
//! What the server localizes follows decision D9: the SEP's SHOULD list
//! (titles, annotation titles, elicitation message and property
//! `title`/`description`, progress messages) and, for errors meant for the
//! user, `Error.message` (a SEP "MAY" the reference server takes, reported in
//! `error.data._meta`). Descriptions, tool output and prompt text — model-facing
//! content — stay in English, and the results carrying them say so with
//! `contentLanguage: "en"`: `contentLanguage` always reports the language the
//! message's text is actually in (decision R4). `get_official_document` and the
//! document template return the edition chosen by their explicit language
//! (SEP-2792 "Explicit language selection takes precedence") and report that
//! edition's language.
//!
//! ```
//! use mcp_lang_reference::ReferenceServer;
//!
//! let server = ReferenceServer::new().unwrap();
//! let japanese = server.languages().negotiate_raw(Some("ja-JP"));
//! let tools = server.tools(&japanese);
//! let weather = tools.iter().find(|t| t.name == "weather_current").unwrap();
//! assert_eq!(weather.title.as_deref(), Some("現在の天気"));
//! ```

use std::borrow::Cow;
use std::sync::Arc;

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::lookup::lookup;
use mcp_lang_rmcp::server::{
    Language, Localized, RequestLanguage, ServerLanguages, Titles, form_elicitation,
    input_required, stamp,
};
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
        CancelledNotificationParam, CompleteRequestParams, CompleteResult, ContentBlock,
        CustomNotification, CustomRequest, CustomResult, DiscoverResult, ElicitResult,
        ElicitationAction, ErrorCode, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
        GetSkillRequestParams, GetSkillResult, GetTaskParams, GetTaskResult,
        InitializeRequestParams, InitializeResult, JsonObject, ListPromptsResult,
        ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, ListToolsResult,
        PaginatedRequestParams, ProgressNotificationParam, Prompt, PromptMessage, ProtocolVersion,
        ReadResourceDirectoryRequestParams, ReadResourceRequestParams, ReadResourceResponse,
        ReadResourceResult, Resource, ResourceContents, ResourceTemplate, Role, ServerCapabilities,
        ServerConfig, SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
        UpdateTaskParams,
    },
    service::{NotificationContext, RequestContext, SubscriptionContext},
};
use serde_json::{Value, json};

use crate::{
    catalog::{DOCUMENT_IDS, ReferenceCatalog},
    fixtures::{self, FixtureSession},
};

/// `ttlMs` of every list result: the SEP example's five minutes.
///
/// ```
/// use mcp_lang_reference::server::LIST_TTL_MS;
///
/// assert_eq!(LIST_TTL_MS, 5 * 60 * 1000);
/// ```
pub const LIST_TTL_MS: u64 = 300_000;

/// The server's implementation name (an identifier: never translated).
///
/// ```
/// use mcp_lang_reference::server::SERVER_NAME;
///
/// // `serverInfo.name` is an identifier: the same in every language.
/// assert_eq!(SERVER_NAME, "mcp-lang-reference");
/// ```
pub const SERVER_NAME: &str = "mcp-lang-reference";

/// URI of the supported-languages resource.
///
/// ```
/// use mcp_lang_reference::server::LANGUAGES_URI;
///
/// assert!(LANGUAGES_URI.starts_with("mcp-lang://"));
/// ```
pub const LANGUAGES_URI: &str = "mcp-lang://languages";

/// URI template of the official document editions.
///
/// ```
/// use mcp_lang_reference::{catalog::DOCUMENT_IDS, server::DOCUMENT_TEMPLATE};
///
/// let uri = DOCUMENT_TEMPLATE.replace("{document}", DOCUMENT_IDS[0]).replace("{language}", "ga");
/// assert_eq!(uri, "mcp-lang://documents/udhr-article-1/ga");
/// ```
pub const DOCUMENT_TEMPLATE: &str = "mcp-lang://documents/{document}/{language}";

const DOCUMENT_PREFIX: &str = "mcp-lang://documents/";

/// The key of the e-mail elicitation in an `input_required` result.
///
/// ```
/// assert_eq!(mcp_lang_reference::server::CONTACT_INPUT_KEY, "contact");
/// ```
pub const CONTACT_INPUT_KEY: &str = "contact";

/// The elicitation's property key (stable, never translated).
///
/// ```
/// assert_eq!(mcp_lang_reference::server::EMAIL_PROPERTY, "email");
/// ```
pub const EMAIL_PROPERTY: &str = "email";

/// Cities `weather_current` knows, with fixed, deterministic readings
/// (temperature in °C and a condition code): the demo and the tests must not
/// depend on the outside world.
const CITIES: &[(&str, i32, &str)] = &[
    ("Paris", 18, "partly-cloudy"),
    ("Montréal", 12, "rain"),
    ("Berlin", 15, "overcast"),
    ("Tokyo", 22, "clear"),
    ("Dublin", 11, "showers"),
];

/// The reference server: its handlers in `mcp-lang-rmcp`'s [`Localized`].
/// Cheap to clone: the catalogs and the compiled language set are shared.
///
/// ```
/// use mcp_lang_reference::ReferenceServer;
///
/// let server = ReferenceServer::new().unwrap();
/// let shared = server.clone(); // one catalog, shared
/// assert_eq!(shared.languages().default_tag(), "en");
/// ```
#[derive(Clone, Debug)]
pub struct ReferenceServer {
    server: Localized<Handlers>,
}

/// The reference server's handlers, before [`Localized`] negotiates and reports the
/// language around them: they read the [`Language`] from the request context and
/// build their answers with it.
#[derive(Clone, Debug)]
pub(crate) struct Handlers {
    catalog: Arc<ReferenceCatalog>,
    /// The official suite's fixtures ([`fixtures`]), when opted in.
    fixtures: Option<FixtureSession>,
}

impl ReferenceServer {
    /// Loads the catalogs and compiles the supported set (the catalog
    /// languages, English the default).
    ///
    /// # Errors
    ///
    /// A catalog that does not parse, or a folder that is not a language tag.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// let server = ReferenceServer::new().unwrap();
    /// let supported: Vec<&str> = server.languages().supported().collect();
    /// assert_eq!(supported, ["en", "fr", "fr-CA", "de", "ja", "ga"]);
    /// ```
    pub fn new() -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        let catalog = Arc::new(ReferenceCatalog::load()?);
        let languages = catalog
            .fluent()
            .server_languages(catalog.default_language())?;
        let handlers = Handlers {
            catalog: Arc::clone(&catalog),
            fixtures: None,
        };
        Ok(Self {
            server: Localized::new(handlers, languages).with_catalog(catalog),
        })
    }

    /// Adds the fixtures of the official MCP conformance suite
    /// ([`fixtures`]: its `test_*` tools and prompts, `test://` resources, and
    /// the `logging`, `completions` and `resources.subscribe` capabilities).
    /// Apart from the four tools of the SEP-2792 scenario contributed to that
    /// suite ([`fixtures::LanguageFixture`]), they are not SEP-2792; they are
    /// off by default, and requests for them are negotiated like any other.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// let plain = ReferenceServer::new().unwrap();
    /// assert!(!plain.has_conformance_fixtures());
    /// let suite = plain.with_conformance_fixtures();
    /// assert!(suite.has_conformance_fixtures());
    /// let english = suite.languages().negotiate_raw(None);
    /// assert!(suite.tools(&english).iter().any(|t| t.name == "test_simple_text"));
    /// ```
    #[must_use]
    pub fn with_conformance_fixtures(self) -> Self {
        let handlers = Handlers {
            catalog: Arc::clone(&self.server.inner().catalog),
            fixtures: Some(FixtureSession::new()),
        };
        Self {
            server: self.server.with_inner(handlers),
        }
    }

    /// Whether the official suite's fixtures are on.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// assert!(!ReferenceServer::new().unwrap().has_conformance_fixtures());
    /// ```
    pub fn has_conformance_fixtures(&self) -> bool {
        self.server.inner().fixtures.is_some()
    }

    /// A handler for a new session: the same catalogs and languages, and fresh
    /// per-session state (the fixtures' log level, set by `logging/setLevel`).
    /// The HTTP service calls it for each session, or each request when
    /// stateless; a plain `clone` would share that state between clients.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// let server = ReferenceServer::new().unwrap().with_conformance_fixtures();
    /// let session = server.for_session();
    /// assert!(session.has_conformance_fixtures());
    /// assert_eq!(session.languages().default_tag(), "en");
    /// ```
    #[must_use]
    pub fn for_session(&self) -> Self {
        let inner = self.server.inner();
        let handlers = Handlers {
            catalog: Arc::clone(&inner.catalog),
            fixtures: inner.fixtures.as_ref().map(|_| FixtureSession::new()),
        };
        Self {
            server: self.server.with_inner(handlers),
        }
    }

    /// The catalogs.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// let server = ReferenceServer::new().unwrap();
    /// assert_eq!(server.catalog().text("ja", "tool-weather_current"), "現在の天気");
    /// ```
    pub fn catalog(&self) -> &ReferenceCatalog {
        &self.server.inner().catalog
    }

    /// The compiled language set.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// let server = ReferenceServer::new().unwrap();
    /// // `fr-BE` is not supported: RFC 4647 lookup truncates it to `fr`.
    /// assert_eq!(server.languages().negotiate_raw(Some("fr-BE")).selected(), "fr");
    /// // Nothing acceptable: the default, never an error.
    /// assert_eq!(server.languages().negotiate_raw(Some("tlh")).selected(), "en");
    /// ```
    pub fn languages(&self) -> &ServerLanguages {
        self.server.languages()
    }

    /// The tool definitions in `language`, as `tools/list` answers them: titles
    /// from the catalogs, stable names.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// let server = ReferenceServer::new().unwrap();
    /// let german = server.tools(&server.languages().negotiate_raw(Some("de-AT")));
    /// let english = server.tools(&server.languages().negotiate_raw(None));
    /// let weather = |tools: &[rmcp::model::Tool]| tools.iter().find(|t| t.name == "weather_current").cloned().unwrap();
    /// assert_eq!(weather(&german).title.as_deref(), Some("Aktuelles Wetter"));
    /// assert_eq!(weather(&english).title.as_deref(), Some("Current weather"));
    /// // Names are identifiers: the same list of names in every language.
    /// assert_eq!(german.iter().map(|t| &t.name).collect::<Vec<_>>(), english.iter().map(|t| &t.name).collect::<Vec<_>>());
    /// ```
    pub fn tools(&self, language: &RequestLanguage) -> Vec<Tool> {
        let titles = Titles::new(self.catalog(), language.selected());
        let mut tools = self.server.inner().tools();
        for tool in &mut tools {
            titles.tool(tool);
        }
        tools
    }
}

/// The `tracing` record of one negotiation, for the method it serves. It reads the
/// negotiation without reading the language: logging is not localizing.
///
/// On stdio it is the request's line at `info`; over HTTP the access log
/// (`serve`) writes that line, with the status, so this one is `debug`.
fn log_negotiation(language: &Language, method: &str, over_http: bool) {
    let request = language.request();
    macro_rules! record {
        ($level:ident) => {
            tracing::$level!(
                method,
                preference = log_excerpt(request.raw().unwrap_or("-")),
                preference_len = request.raw().map_or(0, str::len),
                well_formed = request.is_well_formed(),
                selected = request.selected(),
                reason = %request.reason(),
                "negotiated"
            )
        };
    }
    if over_http {
        record!(debug);
    } else {
        record!(info);
    }
}

/// The request's language, logged with the method it serves.
fn language(context: &RequestContext<RoleServer>, method: &str) -> Result<Language, ErrorData> {
    let language = Language::of(context)?;
    let over_http = context.extensions.get::<http::request::Parts>().is_some();
    log_negotiation(&language, method, over_http);
    Ok(language)
}

fn list_meta<T>(items: Vec<T>) -> (Vec<T>, Option<u64>, Option<CacheScope>) {
    (items, Some(LIST_TTL_MS), Some(CacheScope::Public))
}

fn string_argument<'a>(
    language: &Language,
    arguments: Option<&'a JsonObject>,
    name: &str,
) -> Result<Option<&'a str>, ErrorData> {
    match arguments.and_then(|a| a.get(name)) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(language.error(
            ErrorCode::INVALID_PARAMS,
            "error-missing-argument",
            &[("name", name.into())],
        )),
    }
}

fn required_argument<'a>(
    language: &Language,
    arguments: Option<&'a JsonObject>,
    name: &str,
) -> Result<&'a str, ErrorData> {
    string_argument(language, arguments, name)?.ok_or_else(|| {
        language.error(
            ErrorCode::INVALID_PARAMS,
            "error-missing-argument",
            &[("name", name.into())],
        )
    })
}

impl Handlers {
    /// The capabilities and `serverInfo`, in the default language (the `serverInfo`
    /// title of each answer comes from the catalogs).
    fn info(&self) -> ServerConfig {
        let capabilities = if self.fixtures.is_some() {
            // The official suite's optional capabilities (see `fixtures`).
            json!({
                "tools": {}, "prompts": {}, "resources": { "subscribe": true },
                "logging": {}, "completions": {}
            })
        } else {
            json!({ "tools": {}, "prompts": {}, "resources": {} })
        };
        let capabilities: ServerCapabilities =
            serde_json::from_value(capabilities).unwrap_or_default();
        let mut info = InitializeResult::new(capabilities);
        info.server_info.name = SERVER_NAME.to_owned();
        info.server_info.version = env!("CARGO_PKG_VERSION").to_owned();
        info.server_info.title = Some(self.catalog.text(self.catalog.default_language(), "server"));
        info.server_info.description =
            Some("Reference server for MCP SEP-2792 per-request language preference.".to_owned());
        info
    }

    /// The tool definitions: names, descriptions and schemas. The titles come from
    /// the catalogs, by name, in the request's language.
    fn tools(&self) -> Vec<Tool> {
        let defs = [
            json!({
                "name": "weather_current",
                "description": "Current weather for a city (fixed sample readings).",
                "inputSchema": {
                    "type": "object",
                    "properties": { "city": { "type": "string", "description": "City name, e.g. Paris" } },
                    "required": ["city"]
                },
                "annotations": { "readOnlyHint": true }
            }),
            json!({
                "name": "get_official_document",
                "description": "Returns an official document in the edition chosen by `language` (a BCP 47 tag); without it, in the negotiated language.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "document": { "type": "string", "enum": DOCUMENT_IDS },
                        "language": { "type": "string", "description": "Edition language, e.g. ga" }
                    },
                    "required": ["document"]
                },
                "annotations": { "readOnlyHint": true }
            }),
            json!({
                "name": "send_confirmation",
                "description": "Asks the user for an e-mail address (elicitation), then confirms it.",
                "inputSchema": { "type": "object", "properties": {} },
                "annotations": { "readOnlyHint": false }
            }),
            json!({
                "name": "prepare_report",
                "description": "Prepares a short report, reporting progress along the way.",
                "inputSchema": {
                    "type": "object",
                    "properties": { "topic": { "type": "string" } }
                },
                "annotations": { "readOnlyHint": true }
            }),
        ];
        let mut tools: Vec<Tool> = defs
            .into_iter()
            .filter_map(|def| serde_json::from_value(def).ok())
            .collect();
        if self.fixtures.is_some() {
            tools.extend(fixtures::tools());
        }
        tools
    }

    fn prompts(&self) -> Vec<Prompt> {
        let def = json!({
            "name": "plan_trip",
            "description": "Plan a trip to a city.",
            "arguments": [
                { "name": "city", "description": "Destination city", "required": true },
                { "name": "days", "description": "Length of the stay in days", "required": false }
            ]
        });
        let mut prompts: Vec<Prompt> = serde_json::from_value(def).into_iter().collect();
        if self.fixtures.is_some() {
            prompts.extend(fixtures::prompts());
        }
        prompts
    }

    fn resources(&self) -> Vec<Resource> {
        let def = json!({
            "uri": LANGUAGES_URI,
            "name": "languages",
            "description": "The languages this server supports, and its default.",
            "mimeType": "application/json"
        });
        let mut resources: Vec<Resource> = serde_json::from_value(def).into_iter().collect();
        if self.fixtures.is_some() {
            resources.extend(fixtures::resources());
        }
        resources
    }

    fn templates(&self) -> Vec<ResourceTemplate> {
        let def = json!({
            "uriTemplate": DOCUMENT_TEMPLATE,
            "name": "official_document",
            "description": "An official document in the edition named by the URI's language.",
            "mimeType": "text/plain"
        });
        let mut templates: Vec<ResourceTemplate> =
            serde_json::from_value(def).into_iter().collect();
        if self.fixtures.is_some() {
            templates.extend(fixtures::templates());
        }
        templates
    }

    /// The edition of `document` for an explicit language (an `Accept-Language`
    /// value, usually one tag), by RFC 4647 lookup among the editions.
    fn edition(&self, document: &str, requested: &str) -> Option<String> {
        let editions: Vec<&str> = self
            .catalog
            .languages()
            .filter(|tag| self.catalog.has(tag, document))
            .collect();
        let header = AcceptLanguage::parse(requested).ok()?;
        lookup(&header, &editions, None).map(str::to_owned)
    }

    fn weather(
        &self,
        language: &Language,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResponse, ErrorData> {
        let city = required_argument(language, arguments, "city")?;
        let Some((name, celsius, condition)) = CITIES
            .iter()
            .find(|(name, _, _)| name.eq_ignore_ascii_case(city) || *name == city)
        else {
            // A message for the user, in the request's language: reading it makes
            // the result report that language.
            let message = language.format("error-unknown-city", &[("city", city.into())]);
            return Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into());
        };
        // Tool output is model-facing content (SEP "MAY" list): English, and
        // reported as such (decision R4).
        let mut result = CallToolResult::success(vec![ContentBlock::text(format!(
            "{name}: {celsius} °C, {condition}"
        ))]);
        result.structured_content = Some(json!({
            "city": name, "temperatureC": celsius, "condition": condition
        }));
        stamp(&mut result.meta, language.default_tag());
        Ok(result.into())
    }

    fn document(
        &self,
        language: &Language,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResponse, ErrorData> {
        let document = required_argument(language, arguments, "document")?;
        if !DOCUMENT_IDS.contains(&document) {
            return Err(language.error(
                ErrorCode::INVALID_PARAMS,
                "error-unknown-document",
                &[("id", document.into())],
            ));
        }
        // The explicit argument decides the edition; without it, the
        // negotiated language does (the SEP's "MAY provide a fallback").
        let requested = string_argument(language, arguments, "language")?.unwrap_or(language.tag());
        let Some(edition) = self.edition(document, requested) else {
            return Err(language.error(
                ErrorCode::INVALID_PARAMS,
                "error-document-language",
                &[("id", document.into()), ("language", requested.into())],
            ));
        };
        let text = self.catalog.text(&edition, document);
        let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
        result.structured_content = Some(json!({ "document": document, "edition": edition }));
        // The edition's language, whatever the preference.
        stamp(&mut result.meta, &edition);
        Ok(result.into())
    }

    fn email_elicitation(
        &self,
        language: &Language,
    ) -> Result<rmcp::model::ElicitRequestParams, ErrorData> {
        let schema = json!({
            "type": "object",
            "properties": {
                EMAIL_PROPERTY: {
                    "type": "string",
                    "format": "email",
                    "title": language.text("elicit-email-title"),
                    "description": language.text("elicit-email-description")
                }
            },
            "required": [EMAIL_PROPERTY]
        });
        form_elicitation(
            language.text("elicit-email-message"),
            schema,
            language.tag(),
        )
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    fn confirmed(&self, language: &Language, answer: &ElicitResult) -> CallToolResponse {
        let email = answer
            .content
            .as_ref()
            .and_then(|c| c.get(EMAIL_PROPERTY))
            .and_then(Value::as_str);
        match (&answer.action, email) {
            (ElicitationAction::Accept, Some(email)) => {
                let mut result = CallToolResult::success(vec![ContentBlock::text(format!(
                    "Confirmation sent to {email}."
                ))]);
                result.structured_content = Some(json!({ EMAIL_PROPERTY: email }));
                // Model-facing, English (decision R4), even after a localized elicitation.
                stamp(&mut result.meta, language.default_tag());
                result.into()
            }
            _ => CallToolResult::error(vec![ContentBlock::text(
                language.text("error-email-declined"),
            )])
            .into(),
        }
    }

    async fn send_confirmation(
        &self,
        language: &Language,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let new_shape = context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        if new_shape {
            // Protocol 2026-07-28: the SEP's `input_required` result; the client
            // retries with `inputResponses`, carrying its own (possibly new)
            // preference.
            if let Some(answer) = request
                .input_responses
                .as_ref()
                .and_then(|r| r.get(CONTACT_INPUT_KEY))
            {
                let answer: ElicitResult = serde_json::from_value(answer.clone())
                    .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
                return Ok(self.confirmed(language, &answer));
            }
            let params = self.email_elicitation(language)?;
            return Ok(input_required(CONTACT_INPUT_KEY, params, None, language.tag()).into());
        }
        // Earlier protocols: an `elicitation/create` request to the client.
        let can_elicit = context
            .client_capabilities()
            .is_some_and(|c| c.elicitation.is_some());
        if !can_elicit {
            let message = language.text("error-elicitation-unsupported");
            return Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into());
        }
        let params = self.email_elicitation(language)?;
        let answer = language.create_elicitation(params).await?;
        Ok(self.confirmed(language, &answer))
    }

    /// The official suite's SEP-2792 fixture tools, each answered as the
    /// reference tool that does the same.
    async fn language_fixture(
        &self,
        fixture: fixtures::LanguageFixture,
        language: &Language,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match fixture {
            fixtures::LanguageFixture::Elicitation => {
                self.send_confirmation(language, request, context).await
            }
            fixtures::LanguageFixture::Progress => self.prepare_report(language, None).await,
            fixtures::LanguageFixture::ExplicitLanguage => {
                // The argument is required here: it is what the fixture shows.
                let edition = required_argument(language, request.arguments.as_ref(), "language")?;
                let mut arguments = JsonObject::new();
                arguments.insert("document".into(), json!(DOCUMENT_IDS[0]));
                arguments.insert("language".into(), json!(edition));
                self.document(language, Some(&arguments))
            }
            fixtures::LanguageFixture::Error => Err(language.error(
                ErrorCode::INTERNAL_ERROR,
                "error-tool-always-fails",
                &[("name", fixture.name().into())],
            )),
        }
    }

    async fn prepare_report(
        &self,
        language: &Language,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResponse, ErrorData> {
        let topic = string_argument(language, arguments, "topic")?.unwrap_or("language preference");
        let steps = ["progress-collect", "progress-analyse", "progress-write"];
        let total = (steps.len() + 1) as f64;
        for (index, id) in steps.iter().enumerate() {
            // Each message in the request's language (with `$step` and `$total`,
            // numbers), reported in its `_meta`.
            let step = index + 1;
            let done = step as f64;
            language
                .progress(done, total, id, &[("step", step.into())])
                .await?;
        }
        language
            .progress(total, total, "progress-done", &[])
            .await?;
        // Nothing here read the language: the English report is reported as
        // English by the wrapper.
        let result = CallToolResult::success(vec![ContentBlock::text(format!(
            "Report on {topic}: {total} steps completed."
        ))]);
        Ok(result.into())
    }

    fn read_document(
        &self,
        language: &Language,
        uri: &str,
    ) -> Result<ReadResourceResult, ErrorData> {
        let not_found = || {
            language.error(
                ErrorCode::RESOURCE_NOT_FOUND,
                "error-unknown-resource",
                &[("uri", uri.into())],
            )
        };
        let rest = uri.strip_prefix(DOCUMENT_PREFIX).ok_or_else(not_found)?;
        let (document, requested) = rest.split_once('/').ok_or_else(not_found)?;
        if !DOCUMENT_IDS.contains(&document) {
            return Err(not_found());
        }
        let edition = self.edition(document, requested).ok_or_else(not_found)?;
        let contents = ResourceContents::text(self.catalog.text(&edition, document), uri);
        let mut result = ReadResourceResult::new(vec![contents]);
        stamp(&mut result.meta, &edition);
        Ok(result)
    }
}

impl ServerHandler for Handlers {
    fn get_info(&self) -> ServerConfig {
        self.info()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        language(&context, "initialize")?;
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        language(&context, "server/discover")?;
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.info(),
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        language(&context, "tools/list")?;
        let (tools, ttl, scope) = list_meta(self.tools());
        let mut result = ListToolsResult::with_all_items(tools);
        result.ttl_ms = ttl;
        result.cache_scope = scope;
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let language = language(&context, "tools/call")?;
        tracing::debug!(tool = %request.name, "tools/call");
        let arguments = request.arguments.as_ref();
        match request.name.as_ref() {
            "weather_current" => self.weather(&language, arguments),
            "get_official_document" => self.document(&language, arguments),
            "send_confirmation" => self.send_confirmation(&language, &request, &context).await,
            "prepare_report" => self.prepare_report(&language, arguments).await,
            other => {
                if self.fixtures.is_some()
                    && let Some(fixture) = fixtures::LanguageFixture::named(other)
                {
                    return self
                        .language_fixture(fixture, &language, &request, &context)
                        .await;
                }
                if let Some(session) = &self.fixtures
                    && let Some(outcome) =
                        fixtures::call_tool(session, &language, &request, &context).await
                {
                    return outcome;
                }
                Err(language.error(
                    ErrorCode::INVALID_PARAMS,
                    "error-unknown-tool",
                    &[("name", other.into())],
                ))
            }
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        language(&context, "prompts/list")?;
        let (prompts, ttl, scope) = list_meta(self.prompts());
        let mut result = ListPromptsResult::with_all_items(prompts);
        result.ttl_ms = ttl;
        result.cache_scope = scope;
        Ok(result)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let language = language(&context, "prompts/get")?;
        if self.fixtures.is_some()
            && let Some(outcome) = fixtures::get_prompt(&language, &request)
        {
            return Ok(outcome?.into());
        }
        if request.name != "plan_trip" {
            return Err(language.error(
                ErrorCode::INVALID_PARAMS,
                "error-unknown-prompt",
                &[("name", (&*request.name).into())],
            ));
        }
        let arguments = request.arguments.as_ref();
        let city = required_argument(&language, arguments, "city")?;
        let days = string_argument(&language, arguments, "days")?.unwrap_or("3");
        // Prompt text is model-facing content: English, reported as such.
        let mut result = GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Plan a {days}-day trip to {city}: where to stay, what to see, how to get around."
            ),
        )])
        .with_description("Plan a trip to a city.");
        stamp(&mut result.meta, language.default_tag());
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        language(&context, "resources/list")?;
        let (resources, ttl, scope) = list_meta(self.resources());
        let mut result = ListResourcesResult::with_all_items(resources);
        result.ttl_ms = ttl;
        result.cache_scope = scope;
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        language(&context, "resources/templates/list")?;
        let (templates, ttl, scope) = list_meta(self.templates());
        let mut result = ListResourceTemplatesResult::with_all_items(templates);
        result.ttl_ms = ttl;
        result.cache_scope = scope;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let language = language(&context, "resources/read")?;
        if request.uri == LANGUAGES_URI {
            let supported: Vec<&str> = self.catalog.languages().collect();
            let body = json!({
                "supported": supported,
                "default": self.catalog.default_language(),
            });
            let contents = ResourceContents::text(body.to_string(), LANGUAGES_URI)
                .with_mime_type("application/json");
            let mut result = ReadResourceResult::new(vec![contents]);
            // The same data in every language, answered for the negotiated one.
            stamp(&mut result.meta, language.tag());
            return Ok(result.into());
        }
        if self.fixtures.is_some()
            && let Some(outcome) = fixtures::read_resource(&language, &request.uri)
        {
            return Ok(outcome?.into());
        }
        Ok(self.read_document(&language, &request.uri)?.into())
    }

    // The four methods below exist only with the official suite's fixtures;
    // without them they answer -32601 as rmcp's defaults do.

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        if self.fixtures.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::CompleteRequestMethod,
            >());
        }
        let language = language(&context, "completion/complete")?;
        fixtures::complete(&language, &request)
    }

    #[allow(deprecated)] // logging: legacy in rmcp (SEP-2577); what the suite checks up to 2025-11-25
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let Some(session) = &self.fixtures else {
            return Err(ErrorData::method_not_found::<
                rmcp::model::SetLevelRequestMethod,
            >());
        };
        language(&context, "logging/setLevel")?;
        session.set_level(request.level);
        Ok(())
    }

    #[allow(deprecated)] // legacy-only in rmcp; what the suite checks up to 2025-11-25
    async fn subscribe(
        &self,
        _request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.fixtures.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::SubscribeRequestMethod,
            >());
        }
        // The fixture resources never change, so a subscription never has an
        // update to deliver: accepting it is all there is to do.
        language(&context, "resources/subscribe")?;
        Ok(())
    }

    #[allow(deprecated)] // legacy-only in rmcp; what the suite checks up to 2025-11-25
    async fn unsubscribe(
        &self,
        _request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.fixtures.is_none() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::UnsubscribeRequestMethod,
            >());
        }
        language(&context, "resources/unsubscribe")?;
        Ok(())
    }
}

/// Forwards every `ServerHandler` method of [`ReferenceServer`] to its
/// [`Localized`] handlers, so that no method falls back to rmcp's default.
macro_rules! forward {
    ($(
        $(#[$attr:meta])*
        async fn $method:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty;
    )*) => {$(
        $(#[$attr])*
        async fn $method(&self $(, $arg: $ty)*) -> $ret {
            self.server.$method($($arg),*).await
        }
    )*};
}

#[allow(deprecated)] // logging, subscriptions and roots are legacy in rmcp (SEP-2577), still served
impl ServerHandler for ReferenceServer {
    fn get_info(&self) -> ServerConfig {
        self.server.get_info()
    }

    fn negotiate_initialize(
        &self,
        request: &InitializeRequestParams,
    ) -> Result<InitializeResult, ErrorData> {
        self.server.negotiate_initialize(request)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.server.supported_protocol_versions()
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.server.accepted_subscription_filter(requested)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.server.get_tool(name)
    }

    forward! {
        async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData>;
        async fn initialize(&self, request: InitializeRequestParams, context: RequestContext<RoleServer>) -> Result<InitializeResult, ErrorData>;
        async fn discover(&self, context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData>;
        async fn complete(&self, request: CompleteRequestParams, context: RequestContext<RoleServer>) -> Result<CompleteResult, ErrorData>;
        async fn set_level(&self, request: rmcp::model::SetLevelRequestParams, context: RequestContext<RoleServer>) -> Result<(), ErrorData>;
        async fn get_prompt(&self, request: GetPromptRequestParams, context: RequestContext<RoleServer>) -> Result<GetPromptResponse, ErrorData>;
        async fn list_prompts(&self, request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>) -> Result<ListPromptsResult, ErrorData>;
        async fn list_resources(&self, request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>) -> Result<ListResourcesResult, ErrorData>;
        async fn list_resource_templates(&self, request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>) -> Result<ListResourceTemplatesResult, ErrorData>;
        async fn read_resource(&self, request: ReadResourceRequestParams, context: RequestContext<RoleServer>) -> Result<ReadResourceResponse, ErrorData>;
        async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData>;
        async fn subscribe(&self, request: SubscribeRequestParams, context: RequestContext<RoleServer>) -> Result<(), ErrorData>;
        async fn unsubscribe(&self, request: UnsubscribeRequestParams, context: RequestContext<RoleServer>) -> Result<(), ErrorData>;
        async fn call_tool(&self, request: CallToolRequestParams, context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData>;
        async fn list_tools(&self, request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>) -> Result<ListToolsResult, ErrorData>;
        async fn on_custom_request(&self, request: CustomRequest, context: RequestContext<RoleServer>) -> Result<CustomResult, ErrorData>;
        async fn on_cancelled(&self, notification: CancelledNotificationParam, context: NotificationContext<RoleServer>) -> ();
        async fn on_progress(&self, notification: ProgressNotificationParam, context: NotificationContext<RoleServer>) -> ();
        async fn on_initialized(&self, context: NotificationContext<RoleServer>) -> ();
        async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) -> ();
        async fn on_custom_notification(&self, notification: CustomNotification, context: NotificationContext<RoleServer>) -> ();
        async fn get_task(&self, request: GetTaskParams, context: RequestContext<RoleServer>) -> Result<GetTaskResult, ErrorData>;
        async fn update_task(&self, request: UpdateTaskParams, context: RequestContext<RoleServer>) -> Result<(), ErrorData>;
        async fn cancel_task(&self, request: CancelTaskParams, context: RequestContext<RoleServer>) -> Result<(), ErrorData>;
        async fn list_skills(&self, request: Option<PaginatedRequestParams>, context: RequestContext<RoleServer>) -> Result<ListSkillsResult, ErrorData>;
        async fn get_skill(&self, request: GetSkillRequestParams, context: RequestContext<RoleServer>) -> Result<GetSkillResult, ErrorData>;
        async fn read_resource_directory(&self, request: ReadResourceDirectoryRequestParams, context: RequestContext<RoleServer>) -> Result<ListResourcesResult, ErrorData>;
    }
}

/// At most the first 64 bytes of a logged preference (cut at a character boundary), so
/// that a hostile 1 MiB value costs a log line, not a megabyte of log per request.
fn log_excerpt(value: &str) -> &str {
    const MAX: usize = 64;
    let mut end = value.len().min(MAX);
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    value.get(..end).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::log_excerpt;

    #[test]
    fn logged_preferences_are_cut_at_64_bytes_on_a_char_boundary() {
        assert_eq!(log_excerpt("fr-CA,fr;q=0.9"), "fr-CA,fr;q=0.9");
        let hostile = "en,".repeat(400_000);
        assert_eq!(log_excerpt(&hostile).len(), 64);
        let wide = "é".repeat(40); // 2 bytes each: 64 is a boundary
        assert_eq!(log_excerpt(&wide).len(), 64);
        let odd = format!("a{}", "é".repeat(40)); // 64 is inside a character
        assert_eq!(log_excerpt(&odd).len(), 63);
    }
}
