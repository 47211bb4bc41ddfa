//! Handler alterations: an rmcp `ServerHandler` around the reference server
//! that alters the request before the real handler runs, or its answer
//! after: a handler [`Fault`], or a [`Latitude`] the SEP gives.

use mcp_lang_http::{LanguagePreference, RequestAgreement};
use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use std::future::Future;
use std::sync::{Arc, Mutex};

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::Reason;
use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::fixtures::LanguageFixture;
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

use crate::misreading::{
    Rewrite, case_sensitive, misread, misreads, primary_subtags_only, strip_weights,
    zero_weights_acceptable,
};
use crate::{Alteration, Fault, FaultLayer, Latitude};

/// The `_meta` key under which a 2026-07-28 result describes the server.
const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// The reference server with one handler alteration: a handler [`Fault`] or
/// a handler [`Latitude`]. Any other alteration, or none, leaves it as it is.
///
/// It is an rmcp `ServerHandler` that forwards every method the reference
/// server implements: serve it like the reference server.
///
/// Seen from the wire: with `omit-content-language`, a result reports no
/// `contentLanguage`, so the HTTP layer has no `Content-Language` to mirror
/// (`tests/fault_pieces.rs`).
///
/// ```
/// use mcp_lang_faults::{AlteredServer, Fault};
/// use mcp_lang_reference::{ReferenceServer, serve::{HttpMode, http_router_for}};
/// use tokio_util::sync::CancellationToken;
///
/// // Served through the router `mcp-lang serve --http` ships, one handler per session.
/// let altered = AlteredServer::new(ReferenceServer::new().unwrap(), Some(Fault::OmitContentLanguage.into()));
/// let router = http_router_for(move || altered.for_session(), HttpMode::Stateless, CancellationToken::new());
/// # let _ = router;
/// ```
#[derive(Clone, Debug)]
pub struct AlteredServer {
    inner: ReferenceServer,
    alteration: Option<Alteration>,
    remembered: Arc<Mutex<Option<Value>>>,
}

impl AlteredServer {
    /// Wraps `inner` with `alteration`; only handler alterations act here.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    /// use mcp_lang_faults::{AlteredServer, Fault};
    /// use rmcp::ServerHandler;
    ///
    /// let server = ReferenceServer::new().unwrap();
    /// // An HTTP fault, or none, leaves the handler as it is.
    /// let unaltered = AlteredServer::new(server.clone(), Some(Fault::DropVary.into()));
    /// assert_eq!(unaltered.get_info().server_info.name, server.get_info().server_info.name);
    /// ```
    pub fn new(inner: ReferenceServer, alteration: Option<Alteration>) -> Self {
        Self {
            inner,
            alteration: alteration.filter(|a| {
                matches!(
                    a.layer(),
                    FaultLayer::Handler | FaultLayer::HandlerSessionless
                )
            }),
            remembered: Arc::new(Mutex::new(None)),
        }
    }

    /// The handler for a new session (or a new request, when stateless):
    /// the reference server's own [`ReferenceServer::for_session`], with the
    /// alteration's memory shared, so that a fault that remembers a
    /// preference acts across sessions and stateless requests too.
    ///
    /// ```
    /// use mcp_lang_reference::ReferenceServer;
    /// use mcp_lang_faults::{AlteredServer, Fault};
    ///
    /// let server = AlteredServer::new(ReferenceServer::new().unwrap(), Some(Fault::StickyPreference.into()));
    /// let session = server.for_session();
    /// # drop(session);
    /// ```
    #[must_use]
    pub fn for_session(&self) -> Self {
        Self {
            inner: self.inner.for_session(),
            alteration: self.alteration,
            remembered: Arc::clone(&self.remembered),
        }
    }

    /// The reference server inside.
    pub(super) fn reference(&self) -> &ReferenceServer {
        &self.inner
    }

    fn fault(&self) -> Option<Fault> {
        match self.alteration {
            Some(Alteration::Fault(f)) => Some(f),
            _ => None,
        }
    }

    fn latitude(&self) -> Option<Latitude> {
        match self.alteration {
            Some(Alteration::Latitude(l)) => Some(l),
            _ => None,
        }
    }

    /// Runs one handler of the inner server. Under `untranslated-errors` an
    /// error is answered as the request without a preference gets it: in the
    /// default language, reported as such.
    async fn answer<T, F, Fut>(
        &self,
        context: &RequestContext<RoleServer>,
        run: F,
    ) -> Result<ServerResult, ErrorData>
    where
        F: Fn(RequestContext<RoleServer>) -> Fut,
        Fut: Future<Output = Result<T, ErrorData>>,
        ServerResult: From<T>,
    {
        let answer = run(context.clone()).await.map(ServerResult::from);
        if answer.is_err() && self.latitude() == Some(Latitude::UntranslatedErrors) {
            let mut plain = context.clone();
            set_preference(&mut plain, None);
            return run(plain).await.map(ServerResult::from);
        }
        answer
    }
}

/// Replaces the preference the handler will see. On Streamable HTTP the
/// request's `Accept-Language` (in the HTTP parts rmcp passes along) is kept
/// equal to it, and so is the language layer's verdict there (which the
/// handler reads instead of `_meta`, decision R2), so that the handler sees
/// the faulty server's state rather than a mismatch the fault did not intend.
pub(super) fn set_preference(context: &mut RequestContext<RoleServer>, value: Option<Value>) {
    let header = value.as_ref().and_then(Value::as_str).map(str::to_owned);
    match value {
        Some(v) => {
            context.meta.insert(ACCEPT_LANGUAGE_KEY.to_owned(), v);
        }
        None => {
            context.meta.remove(ACCEPT_LANGUAGE_KEY);
        }
    }
    if let Some(parts) = context.extensions.get_mut::<http::request::Parts>()
        && let Some(verdict) = parts.extensions.get::<LanguagePreference>()
    {
        let agreement = match (&header, verdict.agreement()) {
            (None, _) => RequestAgreement::NoPreference,
            (Some(_), RequestAgreement::HeaderMissing) => RequestAgreement::HeaderMissing,
            (Some(_), _) => RequestAgreement::Agreed,
        };
        let replaced = LanguagePreference::new(header.clone(), agreement);
        parts.extensions.insert(replaced);
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
pub(super) fn edit_json<T>(value: &mut T, edit: impl FnOnce(&mut Value))
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

pub(super) fn reported(result: &mut ServerResult) -> Option<String> {
    result_meta_mut(result)?
        .as_ref()?
        .get(CONTENT_LANGUAGE_KEY)?
        .as_str()
        .map(str::to_owned)
}

impl AlteredServer {
    /// Alters the request before the real handler sees it; `Err` answers it.
    fn before(
        &self,
        call: Option<&mut CallToolRequestParams>,
        context: &mut RequestContext<RoleServer>,
    ) -> Result<Option<String>, ErrorData> {
        let preference = context.meta.get(ACCEPT_LANGUAGE_KEY).cloned();
        let original = preference
            .as_ref()
            .and_then(Value::as_str)
            .map(str::to_owned);
        if let Some(latitude) = self.latitude() {
            self.latitude_before(latitude, call, context);
            return Ok(original);
        }
        let Some(fault) = self.fault() else {
            return Ok(original);
        };
        // A conformance fixture is the reference tool it stands for: a fault
        // of that tool acts on the fixture too.
        let tool = call
            .as_ref()
            .map(|c| match LanguageFixture::named(&c.name) {
                Some(LanguageFixture::Elicitation) => "send_confirmation".to_owned(),
                Some(LanguageFixture::Progress) => "prepare_report".to_owned(),
                _ => c.name.to_string(),
            });
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
            fault if misreads(fault) => {
                if let Some(raw) = raw {
                    let default = self.inner.languages().default_tag();
                    match misread(fault, &raw, default) {
                        Rewrite::Keep => {}
                        Rewrite::Set(value) => set(context, value.map(Value::String)),
                        Rewrite::Error(message) => {
                            return Err(ErrorData::invalid_params(message, None));
                        }
                    }
                }
            }
            Fault::QZeroAcceptable => {
                if let Some(raw) = raw {
                    set(context, Some(Value::String(zero_weights_acceptable(&raw))));
                }
            }
            Fault::PrimaryLanguageOnly => {
                if let Some(raw) = raw {
                    set(context, Some(Value::String(primary_subtags_only(&raw))));
                }
            }
            Fault::CaseSensitiveMatch => {
                if let Some(raw) = raw {
                    let kept = case_sensitive(&raw, self.inner.languages().supported());
                    set(context, Some(Value::String(kept)));
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
            // The retry of an `input_required` result answered in the
            // language of the first call rather than the retry's own.
            Fault::RetryFirstLanguage if tool.is_some() => {
                let retry = call.as_ref().is_some_and(|c| c.input_responses.is_some());
                let mut remembered = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
                if !retry {
                    *remembered = preference;
                } else if let Some(first) = remembered.clone() {
                    set(context, Some(first));
                }
            }
            // A request without a preference gets the one the last
            // handshake (`initialize`, `server/discover`) carried.
            Fault::BindHandshakePreference if preference.is_none() => {
                let bound = self
                    .remembered
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone();
                if bound.is_some() {
                    set(context, bound);
                }
            }
            Fault::IgnoreExplicitLanguage => {
                if let Some(arguments) = call.and_then(|c| c.arguments.as_mut()) {
                    arguments.remove("language");
                }
            }
            Fault::PreferenceBeatsArgument if preference.is_some() => {
                if let Some(arguments) = call.and_then(|c| c.arguments.as_mut()) {
                    arguments.remove("language");
                }
            }
            Fault::FallbackFirstSupported => {
                let languages = self.inner.languages();
                if languages.negotiate_meta(Some(&context.meta)).reason() == Reason::Default
                    && let Some(other) = languages
                        .supported()
                        .find(|t| *t != languages.default_tag())
                {
                    set(context, Some(Value::String(other.to_owned())));
                }
            }
            _ => {}
        }
        Ok(original)
    }

    /// Alters the real handler's answer.
    fn after(
        &self,
        preference: Option<&str>,
        explicit_language: bool,
        answer: &mut Result<ServerResult, ErrorData>,
    ) {
        if let Some(latitude) = self.latitude() {
            self.latitude_after(latitude, preference, explicit_language, answer);
            return;
        }
        let Some(fault) = self.fault() else {
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
                if fault == Fault::ErrorLanguageOutsideMeta
                    && let Some(Value::Object(data)) = error.data.as_mut()
                {
                    move_error_language(data);
                }
                return;
            }
        };
        let language = reported(result);
        let localized = language.as_deref().is_some_and(|l| l != default);
        // The language the preference selects, whatever the result reports.
        let selected = self
            .inner
            .languages()
            .negotiate_raw(preference)
            .selected()
            .to_owned();
        match fault {
            Fault::MislabelPromptText if selected != default => {
                if let ServerResult::GetPromptResult(_) = result
                    && let Some(Some(meta)) = result_meta_mut(result)
                {
                    meta.insert(CONTENT_LANGUAGE_KEY.to_owned(), Value::String(selected));
                }
            }
            Fault::TranslateResultKeys if selected != default => {
                if let ServerResult::CallToolResult(call) = result
                    && let Some(Value::Object(content)) = call.structured_content.as_mut()
                {
                    let renamed: serde_json::Map<String, Value> = std::mem::take(content)
                        .into_iter()
                        .map(|(k, v)| (format!("{k}_{}", selected.replace('-', "_")), v))
                        .collect();
                    *content = renamed;
                }
            }
            Fault::TranslateServerName if localized => {
                let suffix = language.clone().unwrap_or_default().replace('-', "_");
                if let ServerResult::InitializeResult(init) = result {
                    init.server_info.name = format!("{}_{suffix}", init.server_info.name);
                }
                if let Some(Some(meta)) = result_meta_mut(result)
                    && let Some(name) = meta
                        .get_mut(SERVER_INFO_KEY)
                        .and_then(|info| info.get_mut("name"))
                    && let Some(text) = name.as_str()
                {
                    *name = Value::String(format!("{text}_{suffix}"));
                }
            }
            Fault::NestedElicitationLanguage => {
                if let ServerResult::InputRequiredResult(input) = result {
                    if let Some(label) = language.clone() {
                        edit_json(input, |json| {
                            for request in json
                                .get_mut("inputRequests")
                                .and_then(Value::as_object_mut)
                                .into_iter()
                                .flat_map(|r| r.values_mut())
                            {
                                if let Some(params) =
                                    request.get_mut("params").and_then(Value::as_object_mut)
                                {
                                    let meta = params
                                        .entry("_meta")
                                        .or_insert_with(|| Value::Object(Default::default()));
                                    if let Some(meta) = meta.as_object_mut() {
                                        meta.insert(
                                            CONTENT_LANGUAGE_KEY.to_owned(),
                                            Value::String(label.clone()),
                                        );
                                    }
                                }
                            }
                        });
                    }
                    if let Some(meta) = result_meta_mut(result) {
                        if let Some(m) = meta.as_mut() {
                            m.remove(CONTENT_LANGUAGE_KEY);
                        }
                        if meta.as_ref().is_some_and(|m| m.is_empty()) {
                            *meta = None;
                        }
                    }
                }
            }
            Fault::ReportPreference => {
                let first = preference
                    .and_then(|p| AcceptLanguage::parse(p).ok())
                    .and_then(|h| {
                        h.iter()
                            .map(|r| r.range.as_str().to_owned())
                            .find(|r| r != "*")
                    });
                if let (Some(first), Some(Some(meta))) = (first, result_meta_mut(result)) {
                    meta.insert(CONTENT_LANGUAGE_KEY.to_owned(), Value::String(first));
                }
            }
            Fault::OmitContentLanguage => {
                if let Some(meta) = result_meta_mut(result) {
                    if let Some(m) = meta.as_mut() {
                        m.remove(CONTENT_LANGUAGE_KEY);
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

impl AlteredServer {
    /// Under `bind-handshake-preference`: remembers the preference of a
    /// handshake (`initialize`, `server/discover`), absent included.
    fn handshake(&self, context: &RequestContext<RoleServer>) {
        if self.fault() == Some(Fault::BindHandshakePreference) {
            *self.remembered.lock().unwrap_or_else(|e| e.into_inner()) =
                context.meta.get(ACCEPT_LANGUAGE_KEY).cloned();
        }
    }

    /// Under `log-without-language`: a log message in the request's
    /// language (the tool's title from the catalog), sent for the request
    /// without `contentLanguage` in its `params._meta`.
    #[allow(deprecated)] // logging: legacy in rmcp (SEP-2577), still sent
    async fn log_without_language(&self, context: &RequestContext<RoleServer>) {
        let raw = context
            .meta
            .get(ACCEPT_LANGUAGE_KEY)
            .and_then(Value::as_str);
        let language = self.inner.languages().negotiate_raw(raw);
        let text = self
            .inner
            .catalog()
            .text(language.selected(), "tool-prepare_report");
        let params = rmcp::model::LoggingMessageNotificationParam::new(
            rmcp::model::LoggingLevel::Info,
            Value::String(text),
        );
        let _ = context.peer.notify_logging_message(params).await;
    }
}

/// Moves `contentLanguage` from an error's `data._meta` into `data` itself
/// (and drops a `_meta` left empty).
pub(super) fn move_error_language(data: &mut serde_json::Map<String, Value>) {
    let language = data
        .get_mut("_meta")
        .and_then(Value::as_object_mut)
        .and_then(|meta| meta.remove(CONTENT_LANGUAGE_KEY));
    if let Some(language) = language {
        data.insert(CONTENT_LANGUAGE_KEY.to_owned(), language);
    }
    if data
        .get("_meta")
        .and_then(Value::as_object)
        .is_some_and(serde_json::Map::is_empty)
    {
        data.remove("_meta");
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
pub(super) fn rename_properties(schema: &mut Value, suffix: &str) {
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

/// The result a typed handler method returns, back from the `ServerResult`
/// the alterations edit.
fn back<T>(
    answer: Result<ServerResult, ErrorData>,
    pick: impl FnOnce(ServerResult) -> Option<T>,
) -> Result<T, ErrorData> {
    pick(answer?)
        .ok_or_else(|| ErrorData::internal_error("fault injection changed the result type", None))
}

impl ServerHandler for AlteredServer {
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
        self.handshake(&context);
        let preference = self.before(None, &mut context)?;
        let mut answer = self
            .answer(&context, |c| self.inner.initialize(request.clone(), c))
            .await;
        self.after(preference.as_deref(), false, &mut answer);
        back(answer, |r| match r {
            ServerResult::InitializeResult(r) => Some(r),
            _ => None,
        })
    }

    async fn discover(
        &self,
        mut context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        self.handshake(&context);
        let preference = self.before(None, &mut context)?;
        let mut answer = self.answer(&context, |c| self.inner.discover(c)).await;
        self.after(preference.as_deref(), false, &mut answer);
        back(answer, |r| match r {
            ServerResult::DiscoverResult(r) => Some(r),
            _ => None,
        })
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let preference = self.before(None, &mut context)?;
        let mut answer = self
            .answer(&context, |c| self.inner.list_tools(request.clone(), c))
            .await;
        self.after(preference.as_deref(), false, &mut answer);
        back(answer, |r| match r {
            ServerResult::ListToolsResult(r) => Some(r),
            _ => None,
        })
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let preference = self.before(None, &mut context)?;
        let mut answer = self
            .answer(&context, |c| self.inner.list_prompts(request.clone(), c))
            .await;
        self.after(preference.as_deref(), false, &mut answer);
        back(answer, |r| match r {
            ServerResult::ListPromptsResult(r) => Some(r),
            _ => None,
        })
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let preference = self.before(None, &mut context)?;
        let mut answer = self
            .answer(&context, |c| self.inner.list_resources(request.clone(), c))
            .await;
        self.after(preference.as_deref(), false, &mut answer);
        back(answer, |r| match r {
            ServerResult::ListResourcesResult(r) => Some(r),
            _ => None,
        })
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let preference = self.before(None, &mut context)?;
        let mut answer = self
            .answer(&context, |c| {
                self.inner.list_resource_templates(request.clone(), c)
            })
            .await;
        self.after(preference.as_deref(), false, &mut answer);
        back(answer, |r| match r {
            ServerResult::ListResourceTemplatesResult(r) => Some(r),
            _ => None,
        })
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let preference = self.before(None, &mut context)?;
        let mut answer = self
            .answer(&context, |c| self.inner.get_prompt(request.clone(), c))
            .await;
        self.after(preference.as_deref(), false, &mut answer);
        back(answer, |r| match r {
            ServerResult::GetPromptResult(r) => Some(r.into()),
            ServerResult::InputRequiredResult(r) => Some(r.into()),
            _ => None,
        })
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let preference = self.before(None, &mut context)?;
        let mut answer = self
            .answer(&context, |c| self.inner.read_resource(request.clone(), c))
            .await;
        self.after(preference.as_deref(), false, &mut answer);
        back(answer, |r| match r {
            ServerResult::ReadResourceResult(r) => Some(r.into()),
            ServerResult::InputRequiredResult(r) => Some(r.into()),
            _ => None,
        })
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let preference = self.before(Some(&mut request), &mut context)?;
        if self.fault() == Some(Fault::LogWithoutLanguage)
            && (request.name == "prepare_report"
                || LanguageFixture::named(&request.name) == Some(LanguageFixture::Progress))
        {
            self.log_without_language(&context).await;
        }
        let explicit = request
            .arguments
            .as_ref()
            .is_some_and(|a| a.contains_key("language"));
        let mut answer = self
            .answer(&context, |c| self.inner.call_tool(request.clone(), c))
            .await;
        self.after(preference.as_deref(), explicit, &mut answer);
        back(answer, |r| match r {
            ServerResult::CallToolResult(r) => Some(r.into()),
            ServerResult::InputRequiredResult(r) => Some(r.into()),
            ServerResult::CreateTaskResult(r) => Some(r.into()),
            _ => None,
        })
    }
}
