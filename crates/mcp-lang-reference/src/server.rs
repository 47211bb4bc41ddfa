//! The reference server: an rmcp `ServerHandler` that honours SEP-2792 in
//! every method it implements.
//!
//! Each handler starts with `languages.for_request(&context)?`: the request's
//! own preference, negotiated afresh (nothing is kept between requests), and
//! checked against the HTTP mirror when rmcp passes the HTTP parts. Display
//! fields come from the catalogs; identifiers are literals in this file and
//! never go through a catalog.
//!
//! What the server localizes follows decision D9: the SEP's SHOULD list
//! (titles, annotation titles, elicitation message and property
//! `title`/`description`, progress messages) and, for errors meant for the
//! user, `Error.message` (a SEP "MAY" the reference server takes, reported in
//! `error.data._meta`). Descriptions, tool output and prompt text — model-facing
//! content — stay in English, and the results carrying them say so with
//! `contentLanguage: "en"`: `contentLanguage` always reports the language the
//! message's text is actually in. `get_official_document` and the document
//! template return the edition chosen by their explicit language (SEP-2792
//! "Explicit language selection takes precedence") and report that edition's
//! language.
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

use std::sync::Arc;

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::lookup::lookup;
use mcp_lang_rmcp::server::{
    RequestLanguage, ServerLanguages, form_elicitation, input_required, localized_error,
    notify_progress, stamp,
};
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams,
        CompleteResult, ContentBlock, DiscoverResult, ElicitResult, ElicitationAction, ErrorCode,
        GetPromptRequestParams, GetPromptResponse, GetPromptResult, InitializeRequestParams,
        InitializeResult, JsonObject, ListPromptsResult, ListResourceTemplatesResult,
        ListResourcesResult, ListToolsResult, PaginatedRequestParams, Prompt, PromptMessage,
        ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
        Resource, ResourceContents, ResourceTemplate, Role, ServerCapabilities, ServerConfig,
        SubscribeRequestParams, Tool, UnsubscribeRequestParams,
    },
    service::RequestContext,
};
use serde_json::{Value, json};

use crate::{
    catalog::{Catalog, DOCUMENT_IDS},
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

/// The reference server. Cheap to clone: the catalogs and the compiled
/// language set are shared.
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
    catalog: Arc<Catalog>,
    languages: Arc<ServerLanguages>,
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
        let catalog = Catalog::load()?;
        let languages = ServerLanguages::new(catalog.languages(), catalog.default_language())?;
        Ok(Self {
            catalog: Arc::new(catalog),
            languages: Arc::new(languages),
            fixtures: None,
        })
    }

    /// Adds the fixtures of the official MCP conformance suite
    /// ([`fixtures`]: its `test_*` tools and prompts, `test://` resources, and
    /// the `logging`, `completions` and `resources.subscribe` capabilities).
    /// They are not SEP-2792 and are off by default; requests for them are
    /// negotiated like any other.
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
    pub fn with_conformance_fixtures(mut self) -> Self {
        self.fixtures = Some(FixtureSession::new());
        self
    }

    /// Whether the official suite's fixtures are on.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// assert!(!ReferenceServer::new().unwrap().has_conformance_fixtures());
    /// ```
    pub fn has_conformance_fixtures(&self) -> bool {
        self.fixtures.is_some()
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
        Self {
            catalog: Arc::clone(&self.catalog),
            languages: Arc::clone(&self.languages),
            fixtures: self.fixtures.as_ref().map(|_| FixtureSession::new()),
        }
    }

    /// The catalogs.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// let server = ReferenceServer::new().unwrap();
    /// assert_eq!(server.catalog().text("ja", "tool-weather-title"), "現在の天気");
    /// ```
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The compiled language set.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// let server = ReferenceServer::new().unwrap();
    /// // `fr-BE` is not supported: RFC 4647 lookup truncates it to `fr`.
    /// assert_eq!(server.languages().negotiate_raw(Some("fr-BE")).tag(), "fr");
    /// // Nothing acceptable: the default, never an error.
    /// assert_eq!(server.languages().negotiate_raw(Some("tlh")).tag(), "en");
    /// ```
    pub fn languages(&self) -> &ServerLanguages {
        &self.languages
    }

    /// The request's language, logged with the method it serves.
    fn language(
        &self,
        context: &RequestContext<RoleServer>,
        method: &str,
    ) -> Result<RequestLanguage, ErrorData> {
        let language = self.languages.for_request(context);
        match &language {
            Ok(language) => tracing::info!(
                method,
                preference = log_excerpt(language.raw().unwrap_or("-")),
                preference_len = language.raw().map_or(0, str::len),
                kind = ?language.preference(),
                selected = language.tag(),
                reason = %language.reason(),
                "negotiated"
            ),
            Err(error) => {
                tracing::warn!(method, %error.message, "HTTP mirror disagrees with _meta")
            }
        }
        language
    }

    pub(crate) fn t(&self, language: &RequestLanguage, id: &str) -> String {
        self.catalog.text(language.tag(), id)
    }

    pub(crate) fn error(
        &self,
        language: &RequestLanguage,
        code: ErrorCode,
        id: &str,
        args: &[(&str, &str)],
    ) -> ErrorData {
        let message = self.catalog.format(language.tag(), id, args);
        localized_error(code, message, language.tag(), None)
    }

    fn info(&self, language: &RequestLanguage) -> ServerConfig {
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
        info.server_info.title = Some(self.t(language, "server-title"));
        info.server_info.description =
            Some("Reference server for MCP SEP-2792 per-request language preference.".to_owned());
        stamp(&mut info.meta, language.tag());
        info
    }

    /// The tool definitions in `language`: localized titles, stable names.
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
        let t = |id| self.t(language, id);
        let defs = [
            json!({
                "name": "weather_current",
                "title": t("tool-weather-title"),
                "description": "Current weather for a city (fixed sample readings).",
                "inputSchema": {
                    "type": "object",
                    "properties": { "city": { "type": "string", "description": "City name, e.g. Paris" } },
                    "required": ["city"]
                },
                "annotations": { "title": t("tool-weather-annotation-title"), "readOnlyHint": true }
            }),
            json!({
                "name": "get_official_document",
                "title": t("tool-document-title"),
                "description": "Returns an official document in the edition chosen by `language` (a BCP 47 tag); without it, in the negotiated language.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "document": { "type": "string", "enum": DOCUMENT_IDS },
                        "language": { "type": "string", "description": "Edition language, e.g. ga" }
                    },
                    "required": ["document"]
                },
                "annotations": { "title": t("tool-document-annotation-title"), "readOnlyHint": true }
            }),
            json!({
                "name": "send_confirmation",
                "title": t("tool-contact-title"),
                "description": "Asks the user for an e-mail address (elicitation), then confirms it.",
                "inputSchema": { "type": "object", "properties": {} },
                "annotations": { "title": t("tool-contact-annotation-title"), "readOnlyHint": false }
            }),
            json!({
                "name": "prepare_report",
                "title": t("tool-report-title"),
                "description": "Prepares a short report, reporting progress along the way.",
                "inputSchema": {
                    "type": "object",
                    "properties": { "topic": { "type": "string" } }
                },
                "annotations": { "title": t("tool-report-annotation-title"), "readOnlyHint": true }
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

    fn prompts(&self, language: &RequestLanguage) -> Vec<Prompt> {
        let t = |id| self.t(language, id);
        let def = json!({
            "name": "plan_trip",
            "title": t("prompt-trip-title"),
            "description": "Plan a trip to a city.",
            "arguments": [
                { "name": "city", "title": t("prompt-trip-city-title"), "description": "Destination city", "required": true },
                { "name": "days", "title": t("prompt-trip-days-title"), "description": "Length of the stay in days", "required": false }
            ]
        });
        let mut prompts: Vec<Prompt> = serde_json::from_value(def).into_iter().collect();
        if self.fixtures.is_some() {
            prompts.extend(fixtures::prompts());
        }
        prompts
    }

    fn resources(&self, language: &RequestLanguage) -> Vec<Resource> {
        let def = json!({
            "uri": LANGUAGES_URI,
            "name": "languages",
            "title": self.t(language, "resource-languages-title"),
            "description": "The languages this server supports, and its default.",
            "mimeType": "application/json"
        });
        let mut resources: Vec<Resource> = serde_json::from_value(def).into_iter().collect();
        if self.fixtures.is_some() {
            resources.extend(fixtures::resources());
        }
        resources
    }

    fn templates(&self, language: &RequestLanguage) -> Vec<ResourceTemplate> {
        let def = json!({
            "uriTemplate": DOCUMENT_TEMPLATE,
            "name": "official_document",
            "title": self.t(language, "template-document-title"),
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
    fn edition(&self, document: &str, requested: &str) -> Option<&'static str> {
        let editions: Vec<&'static str> = self
            .catalog
            .languages()
            .filter(|tag| self.catalog.has(tag, document))
            .collect();
        let header = AcceptLanguage::parse(requested).ok()?;
        let chosen = lookup(&header, &editions, None)?;
        self.catalog.languages().find(|tag| *tag == chosen)
    }

    fn string_argument<'a>(
        &self,
        language: &RequestLanguage,
        arguments: Option<&'a JsonObject>,
        name: &str,
    ) -> Result<Option<&'a str>, ErrorData> {
        match arguments.and_then(|a| a.get(name)) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.error(
                language,
                ErrorCode::INVALID_PARAMS,
                "error-missing-argument",
                &[("name", name)],
            )),
        }
    }

    fn required_argument<'a>(
        &self,
        language: &RequestLanguage,
        arguments: Option<&'a JsonObject>,
        name: &str,
    ) -> Result<&'a str, ErrorData> {
        self.string_argument(language, arguments, name)?
            .ok_or_else(|| {
                self.error(
                    language,
                    ErrorCode::INVALID_PARAMS,
                    "error-missing-argument",
                    &[("name", name)],
                )
            })
    }

    fn weather(
        &self,
        language: &RequestLanguage,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResponse, ErrorData> {
        let city = self.required_argument(language, arguments, "city")?;
        let Some((name, celsius, condition)) = CITIES
            .iter()
            .find(|(name, _, _)| name.eq_ignore_ascii_case(city) || *name == city)
        else {
            let mut result = CallToolResult::error(vec![ContentBlock::text(self.catalog.format(
                language.tag(),
                "error-unknown-city",
                &[("city", city)],
            ))]);
            stamp(&mut result.meta, language.tag());
            return Ok(result.into());
        };
        // Tool output is model-facing content (SEP "MAY" list): English, and
        // reported as such.
        let mut result = CallToolResult::success(vec![ContentBlock::text(format!(
            "{name}: {celsius} °C, {condition}"
        ))]);
        result.structured_content = Some(json!({
            "city": name, "temperatureC": celsius, "condition": condition
        }));
        stamp(&mut result.meta, self.catalog.default_language());
        Ok(result.into())
    }

    fn document(
        &self,
        language: &RequestLanguage,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResponse, ErrorData> {
        let document = self.required_argument(language, arguments, "document")?;
        if !DOCUMENT_IDS.contains(&document) {
            return Err(self.error(
                language,
                ErrorCode::INVALID_PARAMS,
                "error-unknown-document",
                &[("id", document)],
            ));
        }
        // The explicit argument decides the edition; without it, the
        // negotiated language does (the SEP's "MAY provide a fallback").
        let requested = self
            .string_argument(language, arguments, "language")?
            .unwrap_or(language.tag());
        let Some(edition) = self.edition(document, requested) else {
            return Err(self.error(
                language,
                ErrorCode::INVALID_PARAMS,
                "error-document-language",
                &[("id", document), ("language", requested)],
            ));
        };
        let text = self.catalog.text(edition, document);
        let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
        result.structured_content = Some(json!({ "document": document, "edition": edition }));
        stamp(&mut result.meta, edition);
        Ok(result.into())
    }

    fn email_elicitation(
        &self,
        language: &RequestLanguage,
    ) -> Result<rmcp::model::ElicitRequestParams, ErrorData> {
        let schema = json!({
            "type": "object",
            "properties": {
                EMAIL_PROPERTY: {
                    "type": "string",
                    "format": "email",
                    "title": self.t(language, "elicit-email-title"),
                    "description": self.t(language, "elicit-email-description")
                }
            },
            "required": [EMAIL_PROPERTY]
        });
        form_elicitation(
            self.t(language, "elicit-email-message"),
            schema,
            language.tag(),
        )
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    fn confirmed(&self, language: &RequestLanguage, answer: &ElicitResult) -> CallToolResponse {
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
                stamp(&mut result.meta, self.catalog.default_language());
                result.into()
            }
            _ => {
                let mut result = CallToolResult::error(vec![ContentBlock::text(
                    self.t(language, "error-email-declined"),
                )]);
                stamp(&mut result.meta, language.tag());
                result.into()
            }
        }
    }

    async fn send_confirmation(
        &self,
        language: &RequestLanguage,
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
            let mut result = CallToolResult::error(vec![ContentBlock::text(
                self.t(language, "error-elicitation-unsupported"),
            )]);
            stamp(&mut result.meta, language.tag());
            return Ok(result.into());
        }
        let params = self.email_elicitation(language)?;
        let answer = context
            .peer
            .create_elicitation(params)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(self.confirmed(language, &answer))
    }

    async fn prepare_report(
        &self,
        language: &RequestLanguage,
        arguments: Option<&JsonObject>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let topic = self
            .string_argument(language, arguments, "topic")?
            .unwrap_or("language preference");
        let steps = ["progress-collect", "progress-analyse", "progress-write"];
        let total = steps.len() + 1;
        let total_text = total.to_string();
        for (index, id) in steps.iter().enumerate() {
            let step = (index + 1).to_string();
            let message = self.catalog.format(
                language.tag(),
                id,
                &[("step", &step), ("total", &total_text)],
            );
            notify_progress(
                context,
                language,
                (index + 1) as f64,
                Some(total as f64),
                message,
            )
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        }
        notify_progress(
            context,
            language,
            total as f64,
            Some(total as f64),
            self.t(language, "progress-done"),
        )
        .await
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let mut result = CallToolResult::success(vec![ContentBlock::text(format!(
            "Report on {topic}: {total} steps completed."
        ))]);
        stamp(&mut result.meta, self.catalog.default_language());
        Ok(result.into())
    }

    fn read_document(
        &self,
        language: &RequestLanguage,
        uri: &str,
    ) -> Result<ReadResourceResult, ErrorData> {
        let not_found = || {
            self.error(
                language,
                ErrorCode::RESOURCE_NOT_FOUND,
                "error-unknown-resource",
                &[("uri", uri)],
            )
        };
        let rest = uri.strip_prefix(DOCUMENT_PREFIX).ok_or_else(not_found)?;
        let (document, requested) = rest.split_once('/').ok_or_else(not_found)?;
        if !DOCUMENT_IDS.contains(&document) {
            return Err(not_found());
        }
        let edition = self.edition(document, requested).ok_or_else(not_found)?;
        let contents = ResourceContents::text(self.catalog.text(edition, document), uri);
        let mut result = ReadResourceResult::new(vec![contents]);
        stamp(&mut result.meta, edition);
        Ok(result)
    }
}

fn list_meta<T>(items: Vec<T>) -> (Vec<T>, Option<u64>, Option<CacheScope>) {
    (items, Some(LIST_TTL_MS), Some(CacheScope::Public))
}

impl ServerHandler for ReferenceServer {
    fn get_info(&self) -> ServerConfig {
        self.info(&self.languages.negotiate_raw(None))
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        let language = self.language(&context, "initialize")?;
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        let localized = self.info(&language);
        result.server_info = localized.server_info;
        result.meta = localized.meta;
        Ok(result)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let language = self.language(&context, "server/discover")?;
        let mut result = DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.info(&language),
        );
        stamp(&mut result.meta, language.tag());
        Ok(result)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let language = self.language(&context, "tools/list")?;
        let (tools, ttl, scope) = list_meta(self.tools(&language));
        let mut result = ListToolsResult::with_all_items(tools);
        result.ttl_ms = ttl;
        result.cache_scope = scope;
        stamp(&mut result.meta, language.tag());
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let language = self.language(&context, "tools/call")?;
        tracing::debug!(tool = %request.name, "tools/call");
        let arguments = request.arguments.as_ref();
        match request.name.as_ref() {
            "weather_current" => self.weather(&language, arguments),
            "get_official_document" => self.document(&language, arguments),
            "send_confirmation" => self.send_confirmation(&language, &request, &context).await,
            "prepare_report" => self.prepare_report(&language, arguments, &context).await,
            other => {
                if let Some(session) = &self.fixtures
                    && let Some(outcome) =
                        fixtures::call_tool(self, session, &language, &request, &context).await
                {
                    return outcome;
                }
                Err(self.error(
                    &language,
                    ErrorCode::INVALID_PARAMS,
                    "error-unknown-tool",
                    &[("name", other)],
                ))
            }
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let language = self.language(&context, "prompts/list")?;
        let (prompts, ttl, scope) = list_meta(self.prompts(&language));
        let mut result = ListPromptsResult::with_all_items(prompts);
        result.ttl_ms = ttl;
        result.cache_scope = scope;
        stamp(&mut result.meta, language.tag());
        Ok(result)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let language = self.language(&context, "prompts/get")?;
        if self.fixtures.is_some()
            && let Some(outcome) = fixtures::get_prompt(self, &language, &request)
        {
            return Ok(outcome?.into());
        }
        if request.name != "plan_trip" {
            return Err(self.error(
                &language,
                ErrorCode::INVALID_PARAMS,
                "error-unknown-prompt",
                &[("name", &request.name)],
            ));
        }
        let arguments = request.arguments.as_ref();
        let city = self.required_argument(&language, arguments, "city")?;
        let days = self
            .string_argument(&language, arguments, "days")?
            .unwrap_or("3");
        // Prompt text is model-facing content: English, reported as such.
        let mut result = GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Plan a {days}-day trip to {city}: where to stay, what to see, how to get around."
            ),
        )])
        .with_description("Plan a trip to a city.");
        stamp(&mut result.meta, self.catalog.default_language());
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let language = self.language(&context, "resources/list")?;
        let (resources, ttl, scope) = list_meta(self.resources(&language));
        let mut result = ListResourcesResult::with_all_items(resources);
        result.ttl_ms = ttl;
        result.cache_scope = scope;
        stamp(&mut result.meta, language.tag());
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let language = self.language(&context, "resources/templates/list")?;
        let (templates, ttl, scope) = list_meta(self.templates(&language));
        let mut result = ListResourceTemplatesResult::with_all_items(templates);
        result.ttl_ms = ttl;
        result.cache_scope = scope;
        stamp(&mut result.meta, language.tag());
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let language = self.language(&context, "resources/read")?;
        if request.uri == LANGUAGES_URI {
            let body = json!({
                "supported": self.languages.supported().collect::<Vec<_>>(),
                "default": self.languages.default_tag(),
            });
            let contents = ResourceContents::text(body.to_string(), LANGUAGES_URI)
                .with_mime_type("application/json");
            let mut result = ReadResourceResult::new(vec![contents]);
            stamp(&mut result.meta, language.tag());
            return Ok(result.into());
        }
        if self.fixtures.is_some()
            && let Some(outcome) = fixtures::read_resource(self, &language, &request.uri)
        {
            return Ok(outcome?.into());
        }
        Ok(self.read_document(&language, &request.uri)?.into())
    }

    // The four methods below exist only with the official suite's fixtures;
    // without them they answer -32601 exactly as rmcp's defaults do.

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
        let language = self.language(&context, "completion/complete")?;
        fixtures::complete(self, &language, &request)
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
        self.language(&context, "logging/setLevel")?;
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
        self.language(&context, "resources/subscribe")?;
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
        self.language(&context, "resources/unsubscribe")?;
        Ok(())
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
