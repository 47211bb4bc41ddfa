//! The fault proxy: a fault applied to any stdio server from outside it.
//!
//! The faults of [`Fault::ALL`] live inside the reference server (its
//! handler, router or transport), so they prove the suite against one
//! server only. The proxy sits between the suite and a server it did not
//! write, on stdio: it rewrites the preference of each request on its way in
//! (the value whose correct reading picks what the misreading picks, or an
//! error the misreading would answer) and the reports, names and keys of
//! each answer on its way out, so the server behaves as one with that
//! misreading would. `mcp-lang-faults proxy --fault NAME --profile FILE --
//! COMMAND…` runs it; the mutation bench runs the suite through it against
//! the official Python and TypeScript SDK servers of the interop gate.
//!
//! [`Proxy::proxies`] says which faults it can apply on stdio: those that
//! act on JSON-RPC messages and need nothing of the server but what its
//! profile says (its languages and tools). On Streamable HTTP
//! ([`proxy_http`], `proxy --http ADDR --upstream URL`) it applies the faults
//! of the HTTP stack ([`proxies_http`]: field lines, status codes, caching
//! headers, event streams) with the very service that applies them around
//! the reference server's router, in front of a forwarding client.
//!
//! ```
//! use mcp_lang_conformance::Profile;
//! use mcp_lang_faults::{Fault, proxy::Proxy};
//! use serde_json::json;
//!
//! let profile = Profile::new(vec!["en".into(), "fr".into()], "en".into()).unwrap();
//! let proxy = Proxy::new(Fault::IgnoreWeights, &profile).unwrap();
//! let mut request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
//!     "params": {"_meta": {"io.modelcontextprotocol/acceptLanguage": "en;q=0.1, fr"}}});
//! assert!(proxy.inbound(&mut request).is_none()); // forwarded, rewritten
//! assert_eq!(request["params"]["_meta"]["io.modelcontextprotocol/acceptLanguage"], "en, fr");
//! ```

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use mcp_lang_conformance::Profile;
use mcp_lang_conformance::profile::ToolRole;
use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::Reason;
use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use mcp_lang_rmcp::server::ServerLanguages;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

use crate::handler::{move_error_language, rename_properties};
use crate::misreading::{
    Rewrite, case_sensitive, misread, misreads, primary_subtags_only, strip_weights,
    zero_weights_acceptable,
};
use crate::{AlterationService, Fault, FaultLayer};

/// Where `initialize`'s successor, `server/discover`, names the server.
const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// What the proxy knows of a request until its answer passes.
#[derive(Clone, Debug)]
struct Pending {
    method: String,
    preference: Option<String>,
}

/// One fault, applied to the messages of one connection.
#[derive(Debug)]
pub struct Proxy {
    fault: Fault,
    languages: ServerLanguages,
    elicitation_tool: String,
    progress_tool: String,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// A preference the fault keeps (the first, the last, a handshake's).
    remembered: Option<Value>,
    /// Client requests not answered yet, by their id as JSON text.
    pending: HashMap<String, Pending>,
}

/// The faults the proxy applies besides the misreadings of the preference
/// (`misreading::misreads`).
const PROXIED: &[Fault] = &[
    Fault::ReusePreference,
    Fault::StickyPreference,
    Fault::IgnoreWeights,
    Fault::QZeroAcceptable,
    Fault::PrimaryLanguageOnly,
    Fault::CaseSensitiveMatch,
    Fault::ErrorOnUnmatched,
    Fault::ErrorOnMalformed,
    Fault::ElicitationDefaultLanguage,
    Fault::ProgressDefaultLanguage,
    Fault::RetryFirstLanguage,
    Fault::BindHandshakePreference,
    Fault::IgnoreExplicitLanguage,
    Fault::OmitErrorLanguage,
    Fault::MislabelPromptText,
    Fault::TranslateResultKeys,
    Fault::TranslateServerName,
    Fault::NestedElicitationLanguage,
    Fault::ReportPreference,
    Fault::OmitContentLanguage,
    Fault::TranslateToolNames,
    Fault::TranslateSchemaKeys,
    Fault::TranslateElicitationKey,
    Fault::LanguageDependentTtl,
    Fault::OmitNotificationLanguage,
    Fault::FallbackFirstSupported,
    Fault::ErrorLanguageOutsideMeta,
    Fault::PreferenceBeatsArgument,
];

/// The preference of a message (`params._meta`), if it has one.
fn preference_of(message: &Value) -> Option<&Value> {
    message.pointer("/params/_meta")?.get(ACCEPT_LANGUAGE_KEY)
}

/// Sets (or, with `None`, removes) the preference of a request.
fn set_preference(message: &mut Value, value: Option<Value>) {
    let Some(params) = message.as_object_mut().and_then(|m| {
        m.entry("params")
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()
    }) else {
        return;
    };
    let Some(meta) = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
    else {
        return;
    };
    match value {
        Some(v) => {
            meta.insert(ACCEPT_LANGUAGE_KEY.to_owned(), v);
        }
        None => {
            meta.remove(ACCEPT_LANGUAGE_KEY);
        }
    }
}

/// The `contentLanguage` an answer reports in `result._meta`.
fn reported(message: &Value) -> Option<String> {
    message
        .pointer("/result/_meta")?
        .get(CONTENT_LANGUAGE_KEY)?
        .as_str()
        .map(str::to_owned)
}

/// Removes `contentLanguage` from the `_meta` object at `pointer`.
fn remove_report(message: &mut Value, pointer: &str) -> bool {
    message
        .pointer_mut(pointer)
        .and_then(Value::as_object_mut)
        .and_then(|meta| meta.remove(CONTENT_LANGUAGE_KEY))
        .is_some()
}

/// `key_suffix`: a language tag as it may end an identifier.
fn suffix(tag: &str) -> String {
    tag.replace('-', "_")
}

impl Proxy {
    /// Whether the proxy can apply `fault`.
    ///
    /// ```
    /// use mcp_lang_faults::{Fault, proxy::Proxy};
    ///
    /// assert!(Proxy::proxies(Fault::OmitContentLanguage));
    /// assert!(!Proxy::proxies(Fault::DropVary)); // an HTTP field line
    /// ```
    pub fn proxies(fault: Fault) -> bool {
        PROXIED.contains(&fault) || misreads(fault)
    }

    /// Every fault the proxy applies, in the table's order.
    ///
    /// ```
    /// use mcp_lang_faults::proxy::Proxy;
    ///
    /// assert!(Proxy::faults().count() > 30);
    /// ```
    pub fn faults() -> impl Iterator<Item = Fault> {
        Fault::ALL.iter().copied().filter(|f| Self::proxies(*f))
    }

    /// A proxy applying `fault` to a server with `profile`'s languages and
    /// tools.
    ///
    /// # Errors
    ///
    /// The proxy cannot apply `fault`, or the profile's languages do not
    /// make a negotiator.
    pub fn new(fault: Fault, profile: &Profile) -> Result<Self, String> {
        if !Self::proxies(fault) {
            return Err(format!(
                "the proxy cannot apply {fault}: it acts where the proxy does not reach"
            ));
        }
        let languages = ServerLanguages::new(profile.supported.iter(), &profile.default)
            .map_err(|e| format!("the profile's languages: {e}"))?;
        Ok(Self {
            fault,
            languages,
            elicitation_tool: profile.tool(ToolRole::Elicitation).to_owned(),
            progress_tool: profile.tool(ToolRole::Progress).to_owned(),
            state: Mutex::new(State::default()),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn default_tag(&self) -> &str {
        self.languages.default_tag()
    }

    /// A message from the client on its way to the server, rewritten in
    /// place; `Some(answer)` when the fault answers it itself (an error the
    /// misreading gives), in which case it is not forwarded.
    pub fn inbound(&self, message: &mut Value) -> Option<Value> {
        let (Some(method), Some(id)) = (
            message
                .get("method")
                .and_then(Value::as_str)
                .map(str::to_owned),
            message.get("id").cloned(),
        ) else {
            return None;
        };
        let preference = preference_of(message).cloned();
        let raw = preference
            .as_ref()
            .and_then(Value::as_str)
            .map(str::to_owned);
        let tool = (method == "tools/call")
            .then(|| message.pointer("/params/name").and_then(Value::as_str))
            .flatten()
            .map(str::to_owned);
        let error = |text: &str| {
            Some(json!({"jsonrpc": "2.0", "id": id.clone(),
                "error": {"code": -32602, "message": text}}))
        };
        let handshake = method == "initialize" || method == "server/discover";
        match self.fault {
            Fault::ReusePreference => {
                let mut state = self.state();
                match &preference {
                    Some(p) => state.remembered = Some(p.clone()),
                    None => set_preference(message, state.remembered.clone()),
                }
            }
            Fault::StickyPreference => {
                let mut state = self.state();
                match (&state.remembered, &preference) {
                    (Some(first), Some(_)) => set_preference(message, Some(first.clone())),
                    (None, Some(p)) => state.remembered = Some(p.clone()),
                    _ => {}
                }
            }
            Fault::IgnoreWeights => {
                if let Some(raw) = &raw {
                    set_preference(message, Some(Value::String(strip_weights(raw))));
                }
            }
            fault if misreads(fault) => {
                if let Some(raw) = &raw {
                    match misread(self.fault, raw, self.default_tag()) {
                        Rewrite::Keep => {}
                        Rewrite::Set(value) => set_preference(message, value.map(Value::String)),
                        Rewrite::Error(text) => return error(text),
                    }
                }
            }
            Fault::QZeroAcceptable => {
                if let Some(raw) = &raw {
                    set_preference(message, Some(Value::String(zero_weights_acceptable(raw))));
                }
            }
            Fault::PrimaryLanguageOnly => {
                if let Some(raw) = &raw {
                    set_preference(message, Some(Value::String(primary_subtags_only(raw))));
                }
            }
            Fault::CaseSensitiveMatch => {
                if let Some(raw) = &raw {
                    let kept = case_sensitive(raw, self.languages.supported());
                    set_preference(message, Some(Value::String(kept)));
                }
            }
            Fault::ErrorOnUnmatched if !handshake => {
                let meta = message.pointer("/params/_meta").and_then(Value::as_object);
                if self.languages.negotiate_meta(meta).reason() == Reason::Default {
                    return error("no supported language matches the preference");
                }
            }
            Fault::ErrorOnMalformed if !handshake => {
                let meta = message.pointer("/params/_meta").and_then(Value::as_object);
                let malformed = self.languages.negotiate_meta(meta).reason() == Reason::Malformed
                    || preference.as_ref().is_some_and(|p| !p.is_string());
                if malformed {
                    return error("malformed io.modelcontextprotocol/acceptLanguage");
                }
            }
            Fault::ElicitationDefaultLanguage
                if tool.as_deref() == Some(self.elicitation_tool.as_str()) =>
            {
                set_preference(message, None);
            }
            Fault::ProgressDefaultLanguage
                if tool.as_deref() == Some(self.progress_tool.as_str()) =>
            {
                set_preference(message, None);
            }
            Fault::RetryFirstLanguage if tool.is_some() => {
                let retry = message.pointer("/params/inputResponses").is_some();
                let mut state = self.state();
                if !retry {
                    state.remembered = preference.clone();
                } else if let Some(first) = state.remembered.clone() {
                    set_preference(message, Some(first));
                }
            }
            Fault::BindHandshakePreference => {
                let mut state = self.state();
                if handshake {
                    state.remembered = preference.clone();
                } else if preference.is_none() && state.remembered.is_some() {
                    set_preference(message, state.remembered.clone());
                }
            }
            Fault::IgnoreExplicitLanguage => {
                if let Some(arguments) = message
                    .pointer_mut("/params/arguments")
                    .and_then(Value::as_object_mut)
                {
                    arguments.remove("language");
                }
            }
            Fault::PreferenceBeatsArgument if preference.is_some() => {
                if let Some(arguments) = message
                    .pointer_mut("/params/arguments")
                    .and_then(Value::as_object_mut)
                {
                    arguments.remove("language");
                }
            }
            Fault::FallbackFirstSupported if !handshake => {
                let meta = message.pointer("/params/_meta").and_then(Value::as_object);
                if self.languages.negotiate_meta(meta).reason() == Reason::Default
                    && let Some(other) = self
                        .languages
                        .supported()
                        .find(|t| *t != self.languages.default_tag())
                        .map(str::to_owned)
                {
                    set_preference(message, Some(Value::String(other)));
                }
            }
            _ => {}
        }
        self.state().pending.insert(
            id.to_string(),
            Pending {
                method,
                preference: raw,
            },
        );
        None
    }

    /// A message from the server on its way to the client, rewritten in
    /// place.
    pub fn outbound(&self, message: &mut Value) {
        let has_method = message.get("method").is_some();
        let id = message.get("id").cloned();
        if has_method {
            self.outbound_from_server(message, id.is_some());
            return;
        }
        let Some(id) = id else { return };
        let Some(request) = self.state().pending.remove(&id.to_string()) else {
            return;
        };
        let default = self.default_tag().to_owned();
        if message.get("error").is_some() {
            if self.fault == Fault::OmitErrorLanguage {
                remove_report(message, "/error/data/_meta");
            }
            if self.fault == Fault::ErrorLanguageOutsideMeta
                && let Some(data) = message
                    .pointer_mut("/error/data")
                    .and_then(Value::as_object_mut)
            {
                move_error_language(data);
            }
            return;
        }
        let language = reported(message);
        let localized = language.as_deref().is_some_and(|l| l != default);
        let selected = self
            .languages
            .negotiate_raw(request.preference.as_deref())
            .selected()
            .to_owned();
        let label = language.clone().unwrap_or_default();
        let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) else {
            return;
        };
        match self.fault {
            Fault::MislabelPromptText if selected != default && request.method == "prompts/get" => {
                if let Some(meta) = result.get_mut("_meta").and_then(Value::as_object_mut) {
                    meta.insert(CONTENT_LANGUAGE_KEY.to_owned(), Value::String(selected));
                }
            }
            Fault::TranslateResultKeys if selected != default => {
                if let Some(Value::Object(content)) = result.get_mut("structuredContent") {
                    let renamed: Map<String, Value> = std::mem::take(content)
                        .into_iter()
                        .map(|(k, v)| (format!("{k}_{}", suffix(&selected)), v))
                        .collect();
                    *content = renamed;
                }
            }
            // The name translated into the language the preference selects,
            // whether or not the server localizes the answer that carries it.
            Fault::TranslateServerName if selected != default => {
                let rename = |name: &mut Value| {
                    if let Some(text) = name.as_str() {
                        *name = Value::String(format!("{text}_{}", suffix(&selected)));
                    }
                };
                if let Some(name) = result.get_mut("serverInfo").and_then(|i| i.get_mut("name")) {
                    rename(name);
                }
                if let Some(name) = result
                    .get_mut("_meta")
                    .and_then(|m| m.get_mut(SERVER_INFO_KEY))
                    .and_then(|i| i.get_mut("name"))
                {
                    rename(name);
                }
            }
            Fault::NestedElicitationLanguage if result.contains_key("inputRequests") => {
                if let Some(label) = &language {
                    for request in result
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
                                .or_insert_with(|| Value::Object(Map::new()));
                            if let Some(meta) = meta.as_object_mut() {
                                meta.insert(
                                    CONTENT_LANGUAGE_KEY.to_owned(),
                                    Value::String(label.clone()),
                                );
                            }
                        }
                    }
                }
                if let Some(meta) = result.get_mut("_meta").and_then(Value::as_object_mut) {
                    meta.remove(CONTENT_LANGUAGE_KEY);
                }
            }
            Fault::ReportPreference => {
                let first = request
                    .preference
                    .as_deref()
                    .and_then(|p| AcceptLanguage::parse(p).ok())
                    .and_then(|h| {
                        h.iter()
                            .map(|r| r.range.as_str().to_owned())
                            .find(|r| r != "*")
                    });
                if let (Some(first), Some(meta)) = (
                    first,
                    result.get_mut("_meta").and_then(Value::as_object_mut),
                ) && meta.contains_key(CONTENT_LANGUAGE_KEY)
                {
                    meta.insert(CONTENT_LANGUAGE_KEY.to_owned(), Value::String(first));
                }
            }
            Fault::OmitContentLanguage => {
                if let Some(meta) = result.get_mut("_meta").and_then(Value::as_object_mut) {
                    meta.remove(CONTENT_LANGUAGE_KEY);
                }
            }
            Fault::TranslateToolNames if localized && request.method == "tools/list" => {
                for tool in result
                    .get_mut("tools")
                    .and_then(Value::as_array_mut)
                    .into_iter()
                    .flatten()
                {
                    let title = tool.get("title").and_then(Value::as_str).map(|t| {
                        t.chars()
                            .map(|c| if c.is_alphanumeric() { c } else { '_' })
                            .collect::<String>()
                    });
                    if let Some(slug) = title {
                        tool["name"] = Value::String(slug);
                    }
                }
            }
            Fault::TranslateSchemaKeys if localized && request.method == "tools/list" => {
                for tool in result
                    .get_mut("tools")
                    .and_then(Value::as_array_mut)
                    .into_iter()
                    .flatten()
                {
                    if let Some(schema) = tool.get_mut("inputSchema") {
                        rename_properties(schema, &label);
                    }
                }
            }
            Fault::TranslateElicitationKey if localized => {
                for request in result
                    .get_mut("inputRequests")
                    .and_then(Value::as_object_mut)
                    .into_iter()
                    .flat_map(|r| r.values_mut())
                {
                    if let Some(schema) = request.pointer_mut("/params/requestedSchema") {
                        rename_properties(schema, &label);
                    }
                }
            }
            Fault::LanguageDependentTtl if localized && request.method == "tools/list" => {
                result.remove("ttlMs");
            }
            _ => {}
        }
    }

    /// A notification or request the server sends.
    fn outbound_from_server(&self, message: &mut Value, is_request: bool) {
        match self.fault {
            Fault::OmitNotificationLanguage if !is_request => {
                remove_report(message, "/params/_meta");
            }
            // The elicitation of protocols before 2026-07-28: a
            // server-to-client request, whose keys are translated as those
            // of an `input_required` result.
            Fault::TranslateElicitationKey
                if is_request
                    && message.get("method").and_then(Value::as_str)
                        == Some("elicitation/create") =>
            {
                let language = message
                    .pointer("/params/_meta")
                    .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let default = self.default_tag().to_owned();
                if let (Some(language), Some(schema)) =
                    (language, message.pointer_mut("/params/requestedSchema"))
                    && language != default
                {
                    rename_properties(schema, &language);
                }
            }
            _ => {}
        }
    }
}

/// Runs `command` (program and arguments) as a stdio server behind `proxy`:
/// this process's stdin to the server's, the server's stdout to this
/// process's, every line rewritten. Returns the server's exit code when it
/// exits (it reads end of file on its stdin when this process does). With
/// `applied`, the number of messages the fault changed or answered is
/// written to that file at the end: 0 means the fault found nothing to act
/// on, and a run through it tested nothing of it.
///
/// # Errors
///
/// The command is empty or cannot be started, or a pipe breaks.
pub async fn proxy_stdio(
    proxy: Proxy,
    command: &[String],
    applied: Option<&std::path::Path>,
) -> std::io::Result<i32> {
    let changed = Arc::new(AtomicUsize::new(0));
    let applied: Option<Arc<std::path::PathBuf>> = applied.map(|p| Arc::new(p.to_owned()));
    if let Some(path) = &applied {
        std::fs::write(path.as_ref(), "0")?;
    }
    let (program, args) = command
        .split_first()
        .ok_or_else(|| std::io::Error::other("no server command after --"))?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()?;
    let mut to_server = child
        .stdin
        .take()
        .ok_or_else(|| std::io::Error::other("no stdin"))?;
    let from_server = child
        .stdout
        .take()
        .ok_or_else(|| std::io::Error::other("no stdout"))?;
    let proxy = Arc::new(proxy);
    // One writer of this process's stdout: the server's messages and the
    // answers the fault gives itself.
    let (out_tx, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(line) = out_rx.recv().await {
            if stdout.write_all(line.as_bytes()).await.is_err() || stdout.flush().await.is_err() {
                break;
            }
        }
    });
    let outward = {
        let proxy = Arc::clone(&proxy);
        let out_tx = out_tx.clone();
        let changed = Arc::clone(&changed);
        let applied = applied.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(from_server).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let line = match serde_json::from_str::<Value>(&line) {
                    Ok(mut message) => {
                        let before = message.clone();
                        proxy.outbound(&mut message);
                        if message == before {
                            line
                        } else {
                            note(&changed, applied.as_deref());
                            message.to_string()
                        }
                    }
                    Err(_) => line,
                };
                if out_tx.send(format!("{line}\n")).is_err() {
                    break;
                }
            }
        })
    };
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let forward = match serde_json::from_str::<Value>(&line) {
            Ok(mut message) => {
                let before = message.clone();
                match proxy.inbound(&mut message) {
                    Some(answer) => {
                        note(&changed, applied.as_deref());
                        let _ = out_tx.send(format!("{answer}\n"));
                        continue;
                    }
                    None if message == before => line,
                    None => {
                        note(&changed, applied.as_deref());
                        message.to_string()
                    }
                }
            }
            Err(_) => line,
        };
        if to_server
            .write_all(format!("{forward}\n").as_bytes())
            .await
            .is_err()
        {
            break;
        }
        let _ = to_server.flush().await;
    }
    drop(to_server);
    let status = child.wait().await?;
    let _ = outward.await;
    drop(out_tx);
    let _ = writer.await;
    Ok(status.code().unwrap_or(1))
}

/// Counts one message the fault changed, and records the count at once
/// (the proxy may be killed rather than wait for its server to exit).
fn note(changed: &AtomicUsize, applied: Option<&std::path::PathBuf>) {
    let count = changed.fetch_add(1, Ordering::Relaxed) + 1;
    if let Some(path) = applied {
        let _ = std::fs::write(path, count.to_string());
    }
}

/// Whether [`proxy_http`] applies `fault`: a fault of the Streamable HTTP
/// stack, or one of the messages it sends on event streams.
///
/// ```
/// use mcp_lang_faults::{Fault, proxy::proxies_http};
///
/// assert!(proxies_http(Fault::DropVary));
/// assert!(!proxies_http(Fault::IgnoreWeights)); // the stdio proxy's
/// ```
pub fn proxies_http(fault: Fault) -> bool {
    matches!(
        fault.layer(),
        FaultLayer::Http | FaultLayer::HttpJson | FaultLayer::Message | FaultLayer::Wire
    )
}

/// The most bytes of a request body the forwarding client reads.
const FORWARD_LIMIT: usize = 16 << 20;

/// A tower service that sends each request on to `upstream` and answers with
/// what it answers, field lines as received (repeated lines kept), the body
/// streamed (an event stream stays one).
#[derive(Clone, Debug)]
struct Forward {
    client: reqwest::Client,
    upstream: reqwest::Url,
    answers: Arc<Answers>,
}

/// How many answers of each kind passed the proxy: what a fault that acts on
/// JSON responses or on event streams had to act on.
#[derive(Debug, Default)]
struct Answers {
    json_results: AtomicUsize,
    json_errors: AtomicUsize,
    event_streams: AtomicUsize,
}

impl tower_service::Service<axum::http::Request<axum::body::Body>> for Forward {
    type Response = axum::http::Response<axum::body::Body>;
    type Error = std::convert::Infallible;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Self::Response, Self::Error>> + Send>,
    >;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: axum::http::Request<axum::body::Body>) -> Self::Future {
        use axum::http::{StatusCode, header};
        let (client, upstream) = (self.client.clone(), self.upstream.clone());
        let answers = Arc::clone(&self.answers);
        Box::pin(async move {
            let failed = |status: StatusCode, text: String| {
                let mut response = axum::http::Response::new(axum::body::Body::from(text));
                *response.status_mut() = status;
                response
            };
            let (parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, FORWARD_LIMIT).await else {
                return Ok(failed(StatusCode::PAYLOAD_TOO_LARGE, String::new()));
            };
            let mut url = upstream;
            url.set_query(parts.uri.query());
            let mut forward = client.request(parts.method, url).body(bytes);
            for (name, value) in &parts.headers {
                if name != header::HOST && name != header::CONTENT_LENGTH {
                    forward = forward.header(name, value);
                }
            }
            let answer = match forward.send().await {
                Ok(answer) => answer,
                Err(error) => {
                    return Ok(failed(
                        StatusCode::BAD_GATEWAY,
                        format!("the upstream server did not answer: {error}"),
                    ));
                }
            };
            let media = answer
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_ascii_lowercase();
            let json = media.starts_with("application/json");
            if media.starts_with("text/event-stream") {
                answers.event_streams.fetch_add(1, Ordering::Relaxed);
            }
            let mut response = axum::http::Response::builder().status(answer.status());
            for (name, value) in answer.headers() {
                let hop = [
                    header::CONNECTION,
                    header::TRANSFER_ENCODING,
                    header::CONTENT_LENGTH,
                ];
                if !hop.contains(name) {
                    response = response.header(name, value);
                }
            }
            let body = if json {
                // A JSON answer is read whole (it is one message), to count
                // what a fault of JSON answers had to act on.
                let Ok(bytes) = answer.bytes().await else {
                    return Ok(failed(StatusCode::BAD_GATEWAY, "a broken answer".into()));
                };
                // Only answers that vary by language (they report one).
                let message: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                let reports = |pointer: &str| {
                    message
                        .pointer(pointer)
                        .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
                        .is_some()
                };
                if reports("/error/data/_meta") {
                    answers.json_errors.fetch_add(1, Ordering::Relaxed);
                } else if reports("/result/_meta") {
                    answers.json_results.fetch_add(1, Ordering::Relaxed);
                }
                axum::body::Body::from(bytes)
            } else {
                axum::body::Body::from_stream(answer.bytes_stream())
            };
            Ok(response
                .body(body)
                .unwrap_or_else(|e| failed(StatusCode::BAD_GATEWAY, e.to_string())))
        })
    }
}

/// The HTTP proxy, serving: [`HttpProxy::http`] is its endpoint.
#[derive(Debug)]
pub struct HttpProxy {
    /// The proxy's server (its URL, its shutdown).
    pub http: crate::Served,
    fault: Fault,
    answers: Arc<Answers>,
}

impl HttpProxy {
    /// Whether the fault had anything to act on so far: always for a fault of
    /// field lines and status codes; a JSON error that reports a language for
    /// one that acts on such errors, a JSON answer that reports one for one
    /// that acts on JSON answers; an event stream for one that acts on the
    /// messages of event streams.
    pub fn acted_on(&self) -> bool {
        let count = |n: &AtomicUsize| n.load(Ordering::Relaxed);
        let errors = count(&self.answers.json_errors);
        match (self.fault.layer(), self.fault) {
            (
                FaultLayer::HttpJson,
                Fault::DropErrorVary | Fault::OmitErrorContentLanguageHeader,
            ) => errors > 0,
            (FaultLayer::HttpJson, _) => errors + count(&self.answers.json_results) > 0,
            (FaultLayer::Message, _) => count(&self.answers.event_streams) > 0,
            _ => true,
        }
    }
}

/// Serves Streamable HTTP on `listen` in front of the server at `upstream`
/// (its MCP endpoint's URL), with `fault` applied to what passes; the
/// proxy's endpoint is `/mcp`. `profile` gives the server's languages.
///
/// # Errors
///
/// The proxy does not apply `fault` over HTTP, the profile's languages do
/// not make a negotiator, `upstream` is not a URL, or `listen` cannot be
/// bound.
pub async fn proxy_http(
    fault: Fault,
    profile: &Profile,
    listen: std::net::SocketAddr,
    upstream: &str,
) -> Result<HttpProxy, String> {
    if !proxies_http(fault) {
        return Err(format!(
            "the proxy does not apply {fault} over HTTP: it acts in the server's handler (use the stdio proxy)"
        ));
    }
    let languages = ServerLanguages::new(profile.supported.iter(), &profile.default)
        .map_err(|e| format!("the profile's languages: {e}"))?;
    let upstream =
        reqwest::Url::parse(upstream).map_err(|e| format!("`{upstream}` is not a URL: {e}"))?;
    let answers = Arc::new(Answers::default());
    let forward = Forward {
        client: reqwest::Client::new(),
        upstream,
        answers: Arc::clone(&answers),
    };
    let service = AlterationService::around(forward, languages, Some(fault.into()));
    let wire = fault.layer() == FaultLayer::Wire;
    let inner = if wire {
        std::net::SocketAddr::new(listen.ip(), 0)
    } else {
        listen
    };
    let http = mcp_lang_reference::serve::spawn_router(inner, move |_| {
        axum::Router::new().fallback_service(service)
    })
    .await
    .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let http = crate::Served::new(http, listen, Some(fault.into()))
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    Ok(HttpProxy {
        http,
        fault,
        answers,
    })
}
