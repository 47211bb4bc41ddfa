//! HTTP alterations: a tower service around the real HTTP stack.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::BodyExt;
use mcp_lang_grammar::AcceptLanguage;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tower_layer::layer_fn;
use tower_service::Service;

use crate::{Alteration, AlteredServer, Fault, FaultLayer, Latitude, Served, message};
use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::{HttpMode, spawn_router};
use mcp_lang_rmcp::server::ServerLanguages;

/// The largest body the alteration service reads (requests and responses).
const LIMIT: usize = 16 << 20;

type Cache = Arc<Mutex<HashMap<(String, String), (HeaderMap, Value)>>>;

/// A tower service that applies one HTTP [`Alteration`] around `inner` (the
/// language layer and rmcp's service): an HTTP fault, a message fault on
/// event streams, or an HTTP latitude. Without one it forwards everything
/// untouched.
///
/// ```
/// use axum::{Router, routing::post};
/// use mcp_lang_faults::{AlterationService, Fault};
/// use mcp_lang_reference::ReferenceServer;
///
/// // Any axum app: the fault removes the `Vary` it answers with.
/// let app: Router = Router::new().route("/mcp", post(|| async { ([("vary", "Accept-Language")], "{}") }));
/// let faulty = AlterationService::new(app, ReferenceServer::new().unwrap(), Some(Fault::DropVary.into()));
/// # let _ = faulty;
/// ```
///
/// (`tests/fault_pieces.rs` sends requests through it.)
#[derive(Clone, Debug)]
pub struct AlterationService<S> {
    inner: S,
    alteration: Option<Alteration>,
    languages: Languages,
    cache: Cache,
}

/// Whose languages an alteration negotiates with.
#[derive(Clone, Debug)]
enum Languages {
    /// The reference server's.
    Reference(ReferenceServer),
    /// Another server's, from its profile (the fault proxy).
    Profile(Arc<ServerLanguages>),
}

impl Languages {
    fn get(&self) -> &ServerLanguages {
        match self {
            Self::Reference(server) => server.languages(),
            Self::Profile(languages) => languages,
        }
    }
}

impl<S> AlterationService<S> {
    /// Wraps `inner`, the HTTP stack of `server` (whose languages an HTTP
    /// latitude negotiates with).
    ///
    /// A handler fault is not an HTTP fault: given one, the service forwards
    /// everything untouched.
    ///
    /// ```
    /// use axum::{Router, routing::post};
    /// use mcp_lang_faults::{AlterationService, Fault};
    /// use mcp_lang_reference::ReferenceServer;
    ///
    /// let app: Router = Router::new().route("/mcp", post(|| async { "{}" }));
    /// let service = AlterationService::new(app, ReferenceServer::new().unwrap(), Some(Fault::IgnoreWeights.into()));
    /// # let _ = service;
    /// ```
    pub fn new(inner: S, server: ReferenceServer, alteration: Option<Alteration>) -> Self {
        Self::with_languages(inner, Languages::Reference(server), alteration)
    }

    /// Wraps `inner`, the HTTP stack of any server, whose languages are
    /// `languages` (the fault proxy's forwarding service, say).
    ///
    /// ```
    /// use axum::{Router, routing::post};
    /// use mcp_lang_faults::{AlterationService, Fault};
    /// use mcp_lang_rmcp::server::ServerLanguages;
    ///
    /// let app: Router = Router::new().route("/mcp", post(|| async { "{}" }));
    /// let languages = ServerLanguages::new(["en", "fr"], "en").unwrap();
    /// let service = AlterationService::around(app, languages, Some(Fault::DropVary.into()));
    /// # let _ = service;
    /// ```
    pub fn around(inner: S, languages: ServerLanguages, alteration: Option<Alteration>) -> Self {
        Self::with_languages(inner, Languages::Profile(Arc::new(languages)), alteration)
    }

    fn with_languages(inner: S, languages: Languages, alteration: Option<Alteration>) -> Self {
        Self {
            inner,
            alteration: alteration.filter(|a| {
                !matches!(
                    a.layer(),
                    FaultLayer::Handler | FaultLayer::HandlerSessionless
                ) || matches!(a, Alteration::Fault(f) if message::alters_messages(*f))
                    || *a == Alteration::Latitude(Latitude::HandshakeOnly)
            }),
            languages,
            cache: Arc::default(),
        }
    }
}

impl<S, B> Service<Request<Body>> for AlterationService<S>
where
    S: Service<Request<Body>, Response = Response<B>, Error = Infallible> + Clone + Send + 'static,
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
        let alteration = self.alteration;
        let cache = self.cache.clone();
        let languages = self.languages.clone();
        Box::pin(async move {
            match alteration {
                Some(Alteration::Fault(fault))
                    if request.method() == Method::POST && message::alters_messages(fault) =>
                {
                    let default = languages.get().default_tag().to_owned();
                    Ok(alter_streams(inner, fault, default, request).await)
                }
                Some(Alteration::Fault(fault)) if request.method() == Method::POST => {
                    let default = languages.get().default_tag().to_owned();
                    Ok(faulty(inner, fault, cache, &default, request).await)
                }
                Some(Alteration::Latitude(Latitude::StreamContentLanguage))
                    if request.method() == Method::POST =>
                {
                    Ok(stream_content_language(inner, languages.get(), request).await)
                }
                Some(Alteration::Latitude(Latitude::HandshakeOnly))
                    if request.method() == Method::POST =>
                {
                    Ok(handshake_only(inner, request).await)
                }
                Some(Alteration::Latitude(Latitude::RejectMissingHeader))
                    if request.method() == Method::POST =>
                {
                    Ok(reject_missing_header(inner, request).await)
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

/// A HeaderMismatch answer (HTTP 400, -32020) to the request `id`.
fn mismatch(id: &Value) -> Response<Body> {
    json_response(
        StatusCode::BAD_REQUEST,
        &json!({ "jsonrpc": "2.0", "id": id, "error": {
            "code": -32020, "message": "Accept-Language does not agree with _meta" } }),
    )
}

/// `value` written back from its parse: ranges joined by `,`, each weight in
/// its shortest spelling (`None` when it is malformed).
fn reserialize(value: &str) -> Option<String> {
    let parsed = AcceptLanguage::parse(value).ok()?;
    let ranges: Vec<String> = parsed
        .iter()
        .map(|r| {
            let q = r.quality.get();
            if q == 1000 {
                r.range.as_str().to_owned()
            } else if q == 0 {
                format!("{};q=0", r.range.as_str())
            } else {
                let digits = format!("{q:03}");
                format!("{};q=0.{}", r.range.as_str(), digits.trim_end_matches('0'))
            }
        })
        .collect();
    Some(ranges.join(","))
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

/// Whether the response's `Content-Type` is `media_type` (parameters aside).
fn media_type_is(headers: &HeaderMap, media_type: &str) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with(media_type))
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

/// A request body and the JSON-RPC message in it (`null` when it is not JSON);
/// a body over [`LIMIT`] is answered 413.
async fn read_message(body: Body) -> Result<(bytes::Bytes, Value), Response<Body>> {
    let Ok(bytes) = axum::body::to_bytes(body, LIMIT).await else {
        return Err(json_response(StatusCode::PAYLOAD_TOO_LARGE, &json!({})));
    };
    let message = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok((bytes, message))
}

/// The protocol versions a server on the TypeScript SDK 1.x supports, newest
/// first: every version with the `initialize` handshake.
pub(super) const HANDSHAKE_VERSIONS: &[&str] = &[
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
    "2024-10-07",
];

/// [`Latitude::RejectMissingHeader`]: a request whose `_meta` carries a
/// preference but no `Accept-Language` field line is answered HTTP 400 with
/// an Invalid Request error; every other request passes through.
async fn reject_missing_header<S, B>(mut inner: S, request: Request<Body>) -> Response<Body>
where
    S: Service<Request<Body>, Response = Response<B>, Error = Infallible>,
    B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (parts, body) = request.into_parts();
    let (bytes, message) = match read_message(body).await {
        Ok(read) => read,
        Err(too_large) => return too_large,
    };
    let preference = message
        .pointer("/params/_meta")
        .and_then(|m| m.get(ACCEPT_LANGUAGE_KEY))
        .is_some();
    if preference && accept_language_lines(&parts.headers).is_empty() {
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        return json_response(
            StatusCode::BAD_REQUEST,
            &json!({ "jsonrpc": "2.0", "id": id, "error": {
                "code": -32600, "message": "Accept-Language header required" } }),
        );
    }
    match inner
        .call(Request::from_parts(parts, Body::from(bytes)))
        .await
    {
        Ok(response) => response.map(Body::new),
        Err(never) => match never {},
    }
}

/// [`Latitude::HandshakeOnly`] on Streamable HTTP: a request other than
/// `initialize` whose `MCP-Protocol-Version` is not one of
/// [`HANDSHAKE_VERSIONS`] is refused as the TypeScript SDK 1.x refuses it
/// (HTTP 400, a -32000 error without an id naming the supported versions);
/// everything else reaches the server.
async fn handshake_only<S, B>(mut inner: S, request: Request<Body>) -> Response<Body>
where
    S: Service<Request<Body>, Response = Response<B>, Error = Infallible>,
    B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (parts, body) = request.into_parts();
    let (bytes, message) = match read_message(body).await {
        Ok(read) => read,
        Err(too_large) => return too_large,
    };
    let initialize = message.get("method").and_then(Value::as_str) == Some("initialize");
    let version = parts
        .headers
        .get("mcp-protocol-version")
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    if let Some(version) =
        version.filter(|v| !initialize && !HANDSHAKE_VERSIONS.contains(&v.as_str()))
    {
        return json_response(
            StatusCode::BAD_REQUEST,
            &json!({
                "jsonrpc": "2.0",
                "error": {
                    "code": -32000,
                    "message": format!(
                        "Bad Request: Unsupported protocol version: {version} (supported versions: {})",
                        HANDSHAKE_VERSIONS.join(", ")
                    ),
                },
                "id": null,
            }),
        );
    }
    match inner
        .call(Request::from_parts(parts, Body::from(bytes)))
        .await
    {
        Ok(response) => response.map(Body::new),
        Err(never) => match never {},
    }
}

async fn faulty<S, B>(
    mut inner: S,
    fault: Fault,
    cache: Cache,
    default: &str,
    request: Request<Body>,
) -> Response<Body>
where
    S: Service<Request<Body>, Response = Response<B>, Error = Infallible>,
    B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (mut parts, body) = request.into_parts();
    let (bytes, mut message) = match read_message(body).await {
        Ok(read) => read,
        Err(too_large) => return too_large,
    };
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let method = message
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let meta = message
        .pointer("/params/_meta")
        .and_then(|m| m.get(ACCEPT_LANGUAGE_KEY))
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
                    .and_then(|meta| meta.get_mut(ACCEPT_LANGUAGE_KEY))
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
                return mismatch(&id);
            }
        }
        Fault::LastLineOnly => {
            if let Some(last) = lines.last() {
                let last = last.clone();
                set_accept_language(&mut parts.headers, Some(&last));
            }
        }
        // The field lines joined last first, then compared.
        Fault::LinesJoinedInReverse if lines.len() > 1 => {
            let reversed: Vec<&str> = lines.iter().rev().map(String::as_str).collect();
            if meta_str.as_deref() == Some(reversed.join(", ").as_str()) {
                set_accept_language(&mut parts.headers, meta_str.as_deref());
            } else {
                return mismatch(&id);
            }
        }
        // The header compared with `_meta` as the server writes it back:
        // ranges joined by `,`, weights in their shortest spelling.
        Fault::ReserializedMetaAgreement if !lines.is_empty() => {
            if let Some(m) = &meta_str {
                let written = reserialize(m).unwrap_or_else(|| m.clone());
                if written == joined {
                    set_accept_language(&mut parts.headers, Some(m));
                } else {
                    return mismatch(&id);
                }
            }
        }
        // Only the first range of each value is compared.
        Fault::FirstRangeAgreement => {
            let first = |v: &str| {
                v.split(',')
                    .next()
                    .and_then(|r| r.split(';').next())
                    .unwrap_or_default()
                    .trim_matches([' ', '\t'])
                    .to_owned()
            };
            if let Some(m) = &meta_str
                && !lines.is_empty()
                && first(&joined) == first(m)
            {
                set_accept_language(&mut parts.headers, Some(m));
            }
        }
        // Ranges compared without their weights.
        Fault::AgreementIgnoringWeights => {
            let ranges = |v: &str| {
                v.split(',')
                    .map(|r| {
                        r.split(';')
                            .next()
                            .unwrap_or_default()
                            .trim_matches([' ', '\t'])
                            .to_owned()
                    })
                    .collect::<Vec<_>>()
            };
            if let Some(m) = &meta_str
                && !lines.is_empty()
                && ranges(&joined) == ranges(m)
            {
                set_accept_language(&mut parts.headers, Some(m));
            }
        }
        // On a mismatch the header's value becomes the preference.
        Fault::HeaderWinsOnMismatch => {
            if let Some(m) = &meta_str
                && !lines.is_empty()
                && joined != *m
                && let Some(slot) = message
                    .pointer_mut("/params/_meta")
                    .and_then(|meta| meta.get_mut(ACCEPT_LANGUAGE_KEY))
            {
                *slot = Value::String(joined.clone());
                body_changed = true;
            }
        }
        Fault::RejectAcceptLanguage if !lines.is_empty() => {
            return mismatch(&id);
        }
        // Tolerated, but the canonical value is dropped rather than used.
        Fault::MissingHeaderDefault if meta.is_some() && lines.is_empty() => {
            if let Some(meta) = message
                .pointer_mut("/params/_meta")
                .and_then(Value::as_object_mut)
            {
                meta.remove(ACCEPT_LANGUAGE_KEY);
                body_changed = true;
            }
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
                    meta.insert(
                        ACCEPT_LANGUAGE_KEY.to_owned(),
                        Value::String(joined.clone()),
                    );
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

    let is_json = media_type_is(&parts.headers, "application/json");
    let is_stream = media_type_is(&parts.headers, "text/event-stream");

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
        // The header says what was asked for (the preference's first
        // range), not what the body reports was used.
        Fault::ContentLanguageFromPreference
            if parts.headers.contains_key(header::CONTENT_LANGUAGE) =>
        {
            let first = meta_str
                .as_deref()
                .and_then(|m| m.split(',').next())
                .map(|r| r.split(';').next().unwrap_or_default().trim())
                .filter(|r| !r.is_empty() && *r != "*")
                .and_then(|r| HeaderValue::from_str(r).ok());
            if let Some(v) = first {
                parts.headers.insert(header::CONTENT_LANGUAGE, v);
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
        // The default language added as a second line, beside the one used.
        Fault::DefaultContentLanguageLine => {
            let used = parts.headers.get(header::CONTENT_LANGUAGE).cloned();
            if let Some(used) = used
                && !used.as_bytes().eq_ignore_ascii_case(default.as_bytes())
                && let Ok(v) = HeaderValue::from_str(default)
            {
                parts.headers.append(header::CONTENT_LANGUAGE, v);
            }
        }
        Fault::StreamDefaultLanguage if is_stream => {
            if let Ok(v) = HeaderValue::from_str(default) {
                parts.headers.insert(header::CONTENT_LANGUAGE, v);
            }
        }
        // Every answer made cacheable by anyone, language or not.
        Fault::PublicCacheControl => {
            parts.headers.insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=60"),
            );
        }
        // The request's whole preference echoed as the answer's language.
        Fault::ContentLanguageEchoesPreference
            if parts.headers.contains_key(header::CONTENT_LANGUAGE) =>
        {
            if let Some(v) = meta_str
                .as_deref()
                .and_then(|m| HeaderValue::from_str(m).ok())
            {
                parts.headers.insert(header::CONTENT_LANGUAGE, v);
            }
        }
        // `Vary` names the response's language field instead of the
        // request's.
        Fault::VaryContentLanguage => {
            let names_it = parts.headers.get_all(header::VARY).iter().any(|v| {
                String::from_utf8_lossy(v.as_bytes())
                    .to_ascii_lowercase()
                    .contains("accept-language")
            });
            if names_it {
                parts.headers.remove(header::VARY);
                parts
                    .headers
                    .insert(header::VARY, HeaderValue::from_static("Content-Language"));
            }
        }
        _ => {}
    }

    let needs_body = matches!(
        fault,
        Fault::OmitErrorContentLanguageHeader
            | Fault::DropErrorVary
            | Fault::CacheByNegotiatedLanguage
            | Fault::WrongMismatchCode
            | Fault::MismatchAnsweredOk
            | Fault::MismatchUnprocessable
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
        Fault::DropErrorVary if answer.get("error").is_some() => {
            parts.headers.remove(header::VARY);
        }
        Fault::MismatchAnsweredOk if answer.pointer("/error/code") == Some(&json!(-32020)) => {
            parts.status = StatusCode::OK;
        }
        Fault::MismatchUnprocessable if answer.pointer("/error/code") == Some(&json!(-32020)) => {
            parts.status = StatusCode::UNPROCESSABLE_ENTITY;
        }
        Fault::WrongMismatchCode if answer.pointer("/error/code") == Some(&json!(-32020)) => {
            if let Some(code) = answer.pointer_mut("/error/code") {
                *code = json!(-32600);
            }
        }
        Fault::CacheByNegotiatedLanguage if answer.get("result").is_some() => {
            let language = answer
                .pointer("/result/_meta")
                .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
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

/// The Streamable HTTP router `mcp-lang serve --http` ships
/// (`mcp_lang_reference::serve::http_router_for`), with `alteration`: a
/// handler alteration inside rmcp's service, an HTTP one outside the language
/// layer.
///
/// ```
/// use mcp_lang_faults::{Fault, http_router};
/// use mcp_lang_reference::{ReferenceServer, serve::HttpMode};
/// use tokio_util::sync::CancellationToken;
///
/// // Answers without the `Vary` the language layer adds.
/// let server = ReferenceServer::new().unwrap();
/// let router: axum::Router = http_router(server, HttpMode::Stateless, CancellationToken::new(), Some(Fault::DropVary.into()));
/// # let _ = router;
/// ```
pub fn http_router(
    server: ReferenceServer,
    mode: HttpMode,
    cancel: CancellationToken,
    alteration: Option<Alteration>,
) -> axum::Router {
    let altered = AlteredServer::new(server.clone(), alteration);
    mcp_lang_reference::serve::http_router_for(move || altered.for_session(), mode, cancel).layer(
        layer_fn(move |inner| AlterationService::new(inner, server.clone(), alteration)),
    )
}

/// Applies a message fault to every message of an event-stream response,
/// frame by frame as the server writes them (so that a stream waiting for
/// the client, such as an elicitation, is never held back).
async fn alter_streams<S, B>(
    mut inner: S,
    fault: Fault,
    default: String,
    request: Request<Body>,
) -> Response<Body>
where
    S: Service<Request<Body>, Response = Response<B>, Error = Infallible>,
    B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let Ok(response) = inner.call(request).await;
    let (mut parts, body) = response.into_parts();
    let is_stream = media_type_is(&parts.headers, "text/event-stream");
    if !is_stream {
        return Response::from_parts(parts, Body::new(body));
    }
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = body.map_frame(move |frame| {
        frame.map_data(|data: bytes::Bytes| {
            match message::alter_event_stream(fault, &default, &data) {
                Some(altered) => bytes::Bytes::from(altered),
                None => data,
            }
        })
    });
    Response::from_parts(parts, Body::new(body))
}

/// Under [`Latitude::StreamContentLanguage`]: a list method answered on an
/// event stream carries one message, its result, whose language the server
/// knows before it is produced; the stream then gets that `Content-Language`.
async fn stream_content_language<S, B>(
    mut inner: S,
    languages: &ServerLanguages,
    request: Request<Body>,
) -> Response<Body>
where
    S: Service<Request<Body>, Response = Response<B>, Error = Infallible>,
    B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (parts, body) = request.into_parts();
    let (bytes, message) = match read_message(body).await {
        Ok(read) => read,
        Err(too_large) => return too_large,
    };
    let single_message = message
        .get("method")
        .and_then(Value::as_str)
        .is_some_and(|m| m.ends_with("/list"));
    let preference = message
        .pointer("/params/_meta")
        .and_then(|m| m.get(ACCEPT_LANGUAGE_KEY))
        .and_then(Value::as_str);
    let language =
        single_message.then(|| languages.negotiate_raw(preference).selected().to_owned());
    let Ok(response) = inner
        .call(Request::from_parts(parts, Body::from(bytes)))
        .await;
    let (mut parts, body) = response.into_parts();
    let is_stream = media_type_is(&parts.headers, "text/event-stream");
    if is_stream && let Some(value) = language.and_then(|l| HeaderValue::from_str(&l).ok()) {
        parts.headers.insert(header::CONTENT_LANGUAGE, value);
    }
    Response::from_parts(parts, Body::new(body))
}

/// Binds `addr` and serves the reference server with `alteration` over
/// Streamable HTTP in a background task, through the router and the accept
/// loop `mcp-lang serve --http` ships.
///
/// # Errors
///
/// The address cannot be bound.
///
/// A server that checks only the first `Accept-Language` line lets a
/// contradicting second line through, where the real server answers 400:
///
/// ```no_run
/// use std::net::SocketAddr;
/// use mcp_lang_reference::ReferenceServer;
/// use mcp_lang_wire::post;
/// use mcp_lang_faults::{Fault, spawn_http};
/// use mcp_lang_reference::serve::{HttpMode, MCP_PATH};
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// let any = SocketAddr::from(([127, 0, 0, 1], 0));
/// let http = spawn_http(ReferenceServer::new()?, any, HttpMode::Stateless, Some(Fault::FirstLineOnly.into())).await?;
/// let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#;
/// let lines = [("Accept-Language", "de"), ("Accept-Language", "fr")];
/// let exchange = post(http.local_addr(), MCP_PATH, &lines, list).await?;
/// assert_eq!(exchange.status, 200); // a conforming server: 400, -32020
/// http.shutdown().await;
/// # Ok(()) }
/// ```
pub async fn spawn_http(
    server: ReferenceServer,
    addr: SocketAddr,
    mode: HttpMode,
    alteration: Option<Alteration>,
) -> std::io::Result<Served> {
    let wire = alteration.is_some_and(|a| a.layer() == FaultLayer::Wire);
    // A wire fault's relay takes `addr`; the server sits behind it.
    let inner = if wire {
        SocketAddr::new(addr.ip(), 0)
    } else {
        addr
    };
    let http = spawn_router(inner, move |cancel| {
        http_router(server, mode, cancel, alteration)
    })
    .await?;
    Served::new(http, addr, alteration).await
}
