//! A Streamable HTTP client for rmcp that mirrors `Accept-Language` and
//! verifies `Content-Language`.
//!
//! SEP-2792 asks two things of a Streamable HTTP client. On the way out, a
//! request whose `_meta` carries `io.modelcontextprotocol/acceptLanguage` is
//! sent with exactly one `Accept-Language` field line equal to it. On the way
//! back, a response whose `Content-Language` disagrees with the
//! `io.modelcontextprotocol/contentLanguage` it carries is malformed, and must
//! not be taken at its word.
//!
//! [`MirroringClient`](crate::http_client::MirroringClient) can do the first
//! for any rmcp [`StreamableHttpClient`], but not the second: the trait hands
//! back a decoded [`StreamableHttpPostResponse`] without the response headers.
//! [`LanguageHttpClient`] therefore owns the HTTP exchange itself, on a
//! [`reqwest::Client`] you give it, and checks each response before rmcp
//! decodes it:
//!
//! - **Outgoing.** Every POST gets one `Accept-Language` line equal to the
//!   message's `_meta` preference, replacing any configured custom header
//!   ([`mirror_headers`]); a message without a preference, and every GET and
//!   DELETE, goes without one. A preference that cannot be sent is refused
//!   before anything is sent (decision D8).
//! - **`application/json` responses** (results and JSON-RPC errors, of any
//!   HTTP status): `Content-Language` is checked against `result._meta` or
//!   `error.data._meta` with `mcp-lang-http`'s [`check_json_response`]. A
//!   conflict, including repeated `Content-Language` lines whose combination
//!   disagrees, fails the POST with
//!   [`StreamableHttpError::Client`]`(`[`LanguageHttpError::MalformedResponse`]`)`,
//!   which rmcp returns to the caller as `ServiceError::TransportSend`.
//! - **`text/event-stream` responses** (POST and GET): when the stream has a
//!   `Content-Language` header, every message's `contentLanguage` must agree
//!   with it ([`EventStreamLanguage`]); without the header there is nothing to
//!   check. rmcp only logs the error of a request's response stream and then
//!   answers the request with a generic "stream closed" error, so a conflict on
//!   a POST's stream is reported **in band** instead: the conflicting event is
//!   replaced by a JSON-RPC error response to that POST's request (code
//!   [`MALFORMED_RESPONSE_CODE`], `data` described at
//!   [`ContentLanguageConflict`]) and the stream ends. The rmcp request then
//!   fails with `ServiceError::McpError` carrying that error. On the GET stream
//!   (no request to answer) the conflict ends the stream with an SSE error.
//!
//! Either way, [`ContentLanguageConflict::from_service_error`] recovers the
//! typed details from the `rmcp::ServiceError` a request failed with.
//!
//! Everything else follows rmcp's own reqwest client (rmcp 3.11): the
//! `Accept` header, `Mcp-Session-Id`, the `MCP-Protocol-Version` and custom
//! headers the transport passes in (reserved names refused), bearer
//! authorization, 401/403 challenges, 202/204 as accepted, 404 on a session as
//! an expired session, 429/5xx as [`HttpStatusError`], JSON-RPC error bodies on
//! other statuses, the legacy `server/discover` fallback, and the byte limits
//! of [`StreamableHttpResponseLimits`]. Redirects are whatever the
//! `reqwest::Client` you pass does; rmcp's default client follows only
//! same-origin 307/308, and [`LanguageHttpClient::new`] documents how to get
//! the same. TLS is the `reqwest` features of your build.
//!
//! (`no_run`: it needs an MCP server listening at that address; this crate's
//! `exchange` and `language_http_client` tests run the same against local
//! servers.)
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use mcp_lang_rmcp::client::{content_language, send_with_preference};
//! use mcp_lang_rmcp::reqwest_client::{ContentLanguageConflict, LanguageHttpClient};
//! use rmcp::ServiceExt;
//! use rmcp::model::{ClientRequest, ListToolsRequest};
//! use rmcp::transport::streamable_http_client::{
//!     StreamableHttpClientTransport, StreamableHttpClientTransportConfig,
//! };
//!
//! let transport = StreamableHttpClientTransport::with_client(
//!     LanguageHttpClient::new(reqwest::Client::new()),
//!     StreamableHttpClientTransportConfig::with_uri("http://127.0.0.1:8080/mcp"),
//! );
//! let client = ().serve(transport).await?;
//! let list = ClientRequest::ListToolsRequest(ListToolsRequest::default());
//! // Sent with `_meta` and one agreeing `Accept-Language: de-CH, de;q=0.9` line.
//! match send_with_preference(client.peer(), list, Some("de-CH, de;q=0.9")).await {
//!     Ok(result) => println!("answered in {:?}", content_language(&result)),
//!     Err(mcp_lang_rmcp::client::SendError::Service(error)) => {
//!         if let Some(conflict) = ContentLanguageConflict::from_service_error(&error) {
//!             eprintln!("the server contradicted itself: {conflict}");
//!         }
//!     }
//!     Err(other) => return Err(other.into()),
//! }
//! # Ok(()) }
//! ```

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use bytes::Bytes;
use futures::stream::{self, BoxStream, Stream, StreamExt, TryStreamExt};
use http::header::{ACCEPT, CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcp_lang_http::{
    EventStreamLanguage, MalformedResponse, check_json_response, is_event_stream, is_json,
};
use rmcp::ServiceError;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, HttpStatusError, InsufficientScopeError, SseError, StreamableHttpClient,
    StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use serde_json::{Value, json};
use sse_stream::{Sse, SseStream};

use crate::http_client::{mirror_headers, refused};

const SESSION_ID: &str = "mcp-session-id";
const LAST_EVENT_ID: &str = "last-event-id";
const PROTOCOL_VERSION: &str = "mcp-protocol-version";
const ACCEPT_BOTH: &str = "application/json, text/event-stream";
/// rmcp's default raw size limit of one SSE event (16 MiB).
const DEFAULT_MAX_SSE_EVENT_SIZE: usize = 16 * 1024 * 1024;
/// rmcp's bound on a kept `Retry-After` value.
const MAX_RETRY_AFTER_BYTES: usize = 128;

/// The JSON-RPC error code of the in-band error that replaces a conflicting
/// event on a POST's event stream: -32603, JSON-RPC's "Internal error" (the
/// client's own failure to accept the response; SEP-2792 defines no code for
/// it).
///
/// ```
/// use mcp_lang_rmcp::reqwest_client::MALFORMED_RESPONSE_CODE;
///
/// assert_eq!(MALFORMED_RESPONSE_CODE.0, -32603);
/// ```
pub const MALFORMED_RESPONSE_CODE: ErrorCode = ErrorCode::INTERNAL_ERROR;

/// The key, in that error's `data`, of the conflict's details.
///
/// ```
/// use mcp_lang_rmcp::reqwest_client::MALFORMED_RESPONSE_DATA_KEY;
///
/// let data = serde_json::json!({"malformedResponse": {"contentLanguageHeader": "de"}});
/// assert_eq!(data[MALFORMED_RESPONSE_DATA_KEY]["contentLanguageHeader"], "de");
/// ```
pub const MALFORMED_RESPONSE_DATA_KEY: &str = "malformedResponse";

/// A Streamable HTTP client that mirrors each request's preference into one
/// `Accept-Language` line and verifies every response's `Content-Language`
/// (see the [module docs](self)).
///
/// ```
/// use mcp_lang_rmcp::reqwest_client::{LanguageHttpClient, LanguageHttpError};
/// use rmcp::transport::streamable_http_client::StreamableHttpClient;
///
/// // A `StreamableHttpClient` whose errors are `LanguageHttpError`: give it to
/// // `StreamableHttpClientTransport::with_client(client, config)` (see the module docs).
/// fn transport_client<C: StreamableHttpClient<Error = LanguageHttpError>>(client: C) -> C { client }
/// let client = transport_client(LanguageHttpClient::new(reqwest::Client::new()));
/// assert!(client.get_ref().get("http://127.0.0.1/mcp").build().is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct LanguageHttpClient {
    http: reqwest::Client,
}

impl LanguageHttpClient {
    /// Sends through `http`.
    ///
    /// Its redirect policy applies as is. rmcp's default client follows only
    /// same-origin 307 and 308 redirects (which keep the method and body); a
    /// client that follows none at all is
    /// `reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build()`.
    ///
    /// ```
    /// let client = mcp_lang_rmcp::reqwest_client::LanguageHttpClient::new(reqwest::Client::new());
    /// # let _ = client.get_ref();
    /// ```
    pub fn new(http: reqwest::Client) -> Self {
        LanguageHttpClient { http }
    }

    /// The `reqwest::Client` requests go through.
    ///
    /// ```
    /// use mcp_lang_rmcp::reqwest_client::LanguageHttpClient;
    ///
    /// let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    /// let client = LanguageHttpClient::new(http);
    /// let request = client.get_ref().get("http://127.0.0.1:8080/mcp").build().unwrap();
    /// assert_eq!(request.url().path(), "/mcp");
    /// ```
    pub fn get_ref(&self) -> &reqwest::Client {
        &self.http
    }
}

/// The error of a [`LanguageHttpClient`], in rmcp's
/// [`StreamableHttpError::Client`] slot.
///
/// ```
/// use http::{HeaderMap, header::CONTENT_LANGUAGE};
/// use mcp_lang_rmcp::reqwest_client::LanguageHttpError;
///
/// let mut headers = HeaderMap::new();
/// headers.insert(CONTENT_LANGUAGE, "de".parse().unwrap());
/// let body = br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}"#;
/// let malformed = mcp_lang_http::check_json_response(&headers, body).unwrap_err();
/// let error = LanguageHttpError::MalformedResponse(malformed);
/// assert!(std::error::Error::source(&error).is_some());
/// assert!(LanguageHttpError::EventTooLarge { max_size: 1024 }.to_string().contains("1024 bytes"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum LanguageHttpError {
    /// The HTTP exchange failed (connection, protocol, body).
    Http(reqwest::Error),
    /// The response's `Content-Language` disagrees with its `contentLanguage`.
    MalformedResponse(MalformedResponse),
    /// One SSE event was larger than the transport's `max_sse_event_size`.
    EventTooLarge {
        /// The limit, in bytes.
        max_size: usize,
    },
}

impl fmt::Display for LanguageHttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Http(e) => write!(f, "HTTP error: {e}"),
            Self::MalformedResponse(e) => e.fmt(f),
            Self::EventTooLarge { max_size } => {
                write!(f, "SSE event exceeded the maximum size of {max_size} bytes")
            }
        }
    }
}

impl std::error::Error for LanguageHttpError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Http(e) => Some(e),
            Self::MalformedResponse(e) => Some(e),
            Self::EventTooLarge { .. } => None,
        }
    }
}

type ClientError = StreamableHttpError<LanguageHttpError>;

fn http_error(error: reqwest::Error) -> ClientError {
    StreamableHttpError::Client(LanguageHttpError::Http(error))
}

/// A `Content-Language` that disagrees with the `contentLanguage` of the
/// response it came with, recovered from the error an rmcp request failed
/// with.
///
/// On an event stream the details travel as the in-band error's `data`:
///
/// ```json
/// {"malformedResponse": {"contentLanguage": "fr", "contentLanguageHeader": "de", "lineCount": 1}}
/// ```
///
/// (`contentLanguage` is `null` when the message's value is not a string.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentLanguageConflict {
    content_language: Option<String>,
    header: String,
    line_count: usize,
}

impl ContentLanguageConflict {
    fn from_malformed(m: &MalformedResponse) -> Self {
        ContentLanguageConflict {
            content_language: m.meta_value().map(str::to_owned),
            header: m.header_value().to_owned(),
            line_count: m.line_count(),
        }
    }

    /// The `data` of the in-band error for this conflict.
    fn error_data(&self) -> Value {
        json!({ MALFORMED_RESPONSE_DATA_KEY: {
            "contentLanguage": self.content_language,
            "contentLanguageHeader": self.header,
            "lineCount": self.line_count,
        }})
    }

    /// The conflict reported by an in-band error (see the type's docs), if it
    /// is one.
    ///
    /// ```
    /// use mcp_lang_rmcp::reqwest_client::{ContentLanguageConflict, MALFORMED_RESPONSE_CODE};
    /// use rmcp::model::ErrorData;
    ///
    /// let error = ErrorData::new(MALFORMED_RESPONSE_CODE, "malformed response", Some(serde_json::json!({
    ///     "malformedResponse": {"contentLanguage": "fr", "contentLanguageHeader": "de", "lineCount": 1}
    /// })));
    /// let conflict = ContentLanguageConflict::from_error_data(&error).unwrap();
    /// assert_eq!((conflict.content_language(), conflict.header()), (Some("fr"), "de"));
    /// ```
    pub fn from_error_data(error: &ErrorData) -> Option<Self> {
        if error.code != MALFORMED_RESPONSE_CODE {
            return None;
        }
        let details = error.data.as_ref()?.get(MALFORMED_RESPONSE_DATA_KEY)?;
        let content_language = match details.get("contentLanguage")? {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            _ => return None,
        };
        Some(ContentLanguageConflict {
            content_language,
            header: details.get("contentLanguageHeader")?.as_str()?.to_owned(),
            line_count: usize::try_from(details.get("lineCount")?.as_u64()?).ok()?,
        })
    }

    /// The conflict an rmcp request failed with: a JSON response's (the
    /// transport error carries this client's
    /// [`LanguageHttpError::MalformedResponse`]) or an event stream's (the
    /// in-band error). `None` for any other failure.
    ///
    /// ```
    /// use rmcp::model::ErrorData;
    /// use mcp_lang_rmcp::reqwest_client::{ContentLanguageConflict, MALFORMED_RESPONSE_CODE};
    ///
    /// let data = serde_json::json!({"malformedResponse":
    ///     {"contentLanguage": "fr", "contentLanguageHeader": "de, en", "lineCount": 2}});
    /// let error = rmcp::ServiceError::McpError(ErrorData::new(MALFORMED_RESPONSE_CODE, "malformed response", Some(data)));
    /// let conflict = ContentLanguageConflict::from_service_error(&error).unwrap();
    /// assert_eq!(conflict.header(), "de, en");
    /// assert!(ContentLanguageConflict::from_service_error(&rmcp::ServiceError::TransportClosed).is_none());
    /// ```
    pub fn from_service_error(error: &ServiceError) -> Option<Self> {
        match error {
            ServiceError::McpError(data) => Self::from_error_data(data),
            ServiceError::TransportSend(transport) => {
                let mut source: Option<&(dyn std::error::Error + 'static)> =
                    Some(transport.error.as_ref());
                while let Some(error) = source {
                    if let Some(StreamableHttpError::Client(
                        LanguageHttpError::MalformedResponse(m),
                    )) = error.downcast_ref::<ClientError>()
                    {
                        return Some(Self::from_malformed(m));
                    }
                    if let Some(m) = error.downcast_ref::<MalformedResponse>() {
                        return Some(Self::from_malformed(m));
                    }
                    source = error.source();
                }
                None
            }
            _ => None,
        }
    }

    /// The message's `contentLanguage`, or `None` when it was not a string.
    ///
    /// ```
    /// use rmcp::model::ErrorData;
    /// use mcp_lang_rmcp::reqwest_client::{ContentLanguageConflict, MALFORMED_RESPONSE_CODE};
    ///
    /// let data = serde_json::json!({"malformedResponse":
    ///     {"contentLanguage": "fr", "contentLanguageHeader": "de, en", "lineCount": 2}});
    /// let error = rmcp::ServiceError::McpError(ErrorData::new(MALFORMED_RESPONSE_CODE, "malformed response", Some(data)));
    /// let conflict = ContentLanguageConflict::from_service_error(&error).unwrap();
    /// assert_eq!(conflict.content_language(), Some("fr"));
    /// ```
    pub fn content_language(&self) -> Option<&str> {
        self.content_language.as_deref()
    }

    /// The `Content-Language` header as compared (lines trimmed and joined
    /// with `", "`).
    ///
    /// ```
    /// use rmcp::model::ErrorData;
    /// use mcp_lang_rmcp::reqwest_client::{ContentLanguageConflict, MALFORMED_RESPONSE_CODE};
    ///
    /// let data = serde_json::json!({"malformedResponse":
    ///     {"contentLanguage": "fr", "contentLanguageHeader": "de, en", "lineCount": 2}});
    /// let error = rmcp::ServiceError::McpError(ErrorData::new(MALFORMED_RESPONSE_CODE, "malformed response", Some(data)));
    /// let conflict = ContentLanguageConflict::from_service_error(&error).unwrap();
    /// assert_eq!(conflict.header(), "de, en");
    /// ```
    pub fn header(&self) -> &str {
        &self.header
    }

    /// How many `Content-Language` lines the response had.
    ///
    /// ```
    /// use rmcp::model::ErrorData;
    /// use mcp_lang_rmcp::reqwest_client::{ContentLanguageConflict, MALFORMED_RESPONSE_CODE};
    ///
    /// let data = serde_json::json!({"malformedResponse":
    ///     {"contentLanguage": "fr", "contentLanguageHeader": "de, en", "lineCount": 2}});
    /// let error = rmcp::ServiceError::McpError(ErrorData::new(MALFORMED_RESPONSE_CODE, "malformed response", Some(data)));
    /// let conflict = ContentLanguageConflict::from_service_error(&error).unwrap();
    /// assert_eq!(conflict.line_count(), 2);
    /// ```
    pub fn line_count(&self) -> usize {
        self.line_count
    }
}

impl fmt::Display for ContentLanguageConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "malformed response: Content-Language {:?} ({} line(s)) does not agree with contentLanguage {:?}",
            self.header, self.line_count, self.content_language
        )
    }
}

impl std::error::Error for ContentLanguageConflict {}

/// Adds the custom headers, refusing rmcp's reserved names as rmcp's own
/// clients do (`MCP-Protocol-Version` is set by the transport and allowed).
fn apply_custom_headers(
    mut request: reqwest::RequestBuilder,
    custom_headers: HashMap<HeaderName, HeaderValue>,
) -> Result<reqwest::RequestBuilder, ClientError> {
    for (name, value) in custom_headers {
        let reserved = name == ACCEPT
            || name.as_str().eq_ignore_ascii_case(SESSION_ID)
            || name.as_str().eq_ignore_ascii_case(LAST_EVENT_ID);
        if reserved && !name.as_str().eq_ignore_ascii_case(PROTOCOL_VERSION) {
            return Err(StreamableHttpError::ReservedHeaderConflict(
                name.to_string(),
            ));
        }
        request = request.header(name, value);
    }
    Ok(request)
}

/// The `scope` parameter of a `WWW-Authenticate` challenge, quoted or not.
fn challenge_scope(challenge: &str) -> Option<String> {
    let lower = challenge.to_ascii_lowercase();
    let start = lower.find("scope=")? + "scope=".len();
    let rest = challenge.get(start..)?;
    if let Some(quoted) = rest.strip_prefix('"') {
        return quoted.find('"').map(|end| quoted[..end].to_owned());
    }
    let end = rest
        .find(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .unwrap_or(rest.len());
    (end > 0).then(|| rest[..end].to_owned())
}

/// 401 and 403 with a challenge become rmcp's authorization errors.
fn auth_challenge(status: StatusCode, headers: &HeaderMap) -> Option<ClientError> {
    if status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN {
        return None;
    }
    let header = headers.get(WWW_AUTHENTICATE)?;
    let Ok(challenge) = header.to_str() else {
        return Some(StreamableHttpError::UnexpectedServerResponse(
            "invalid www-authenticate header value".into(),
        ));
    };
    Some(if status == StatusCode::UNAUTHORIZED {
        StreamableHttpError::AuthRequired(AuthRequiredError::new(challenge.to_owned()))
    } else {
        StreamableHttpError::InsufficientScope(InsufficientScopeError::new(
            challenge.to_owned(),
            challenge_scope(challenge),
        ))
    })
}

/// 429 and 5xx as body-free status metadata.
fn status_error(status: StatusCode, headers: &HeaderMap) -> Option<HttpStatusError> {
    if status != StatusCode::TOO_MANY_REQUESTS && !status.is_server_error() {
        return None;
    }
    let retry_after = headers
        .get(RETRY_AFTER)
        .filter(|v| v.len() <= MAX_RETRY_AFTER_BYTES)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    Some(HttpStatusError::new(status.as_u16(), retry_after))
}

/// The whole body, refused beyond `max_size` bytes (counted as they arrive,
/// never trusting `Content-Length` for the allocation).
async fn read_body(response: reqwest::Response, max_size: usize) -> Result<Vec<u8>, ClientError> {
    if response
        .content_length()
        .is_some_and(|length| length > max_size as u64)
    {
        return Err(StreamableHttpError::ResponseBodyTooLarge { max_size });
    }
    let mut chunks = std::pin::pin!(response.bytes_stream());
    let mut body = Vec::new();
    while let Some(chunk) = chunks.try_next().await.map_err(http_error)? {
        if chunk.len() > max_size - body.len() {
            return Err(StreamableHttpError::ResponseBodyTooLarge { max_size });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// At most `max_size` bytes of a diagnostic body; a read failure is noted,
/// not fatal.
async fn read_prefix(response: reqwest::Response, max_size: usize) -> String {
    let mut chunks = std::pin::pin!(response.bytes_stream());
    let mut body = Vec::new();
    while body.len() < max_size {
        match chunks.try_next().await {
            Ok(Some(chunk)) => {
                let take = chunk.len().min(max_size - body.len());
                body.extend_from_slice(chunk.get(..take).unwrap_or_default());
            }
            Ok(None) => break,
            Err(_) => return "<failed to read response body>".to_owned(),
        }
    }
    String::from_utf8_lossy(&body).into_owned()
}

fn media_type(headers: &HeaderMap) -> Option<String> {
    headers
        .get(CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

fn request_id(message: &ClientJsonRpcMessage) -> Option<RequestId> {
    match message {
        ClientJsonRpcMessage::Request(request) => Some(request.id.clone()),
        _ => None,
    }
}

/// A legacy server's 4xx to `server/discover` (before any session) becomes a
/// JSON-RPC error for that request, so rmcp falls back to `initialize`.
fn legacy_discover(
    message: &ClientJsonRpcMessage,
    session_attached: bool,
    status: StatusCode,
    body: &str,
) -> Option<StreamableHttpPostResponse> {
    if session_attached
        || !status.is_client_error()
        || status == StatusCode::UNAUTHORIZED
        || status == StatusCode::FORBIDDEN
    {
        return None;
    }
    let ClientJsonRpcMessage::Request(request) = message else {
        return None;
    };
    if !matches!(request.request, ClientRequest::DiscoverRequest(_)) {
        return None;
    }
    let error = match serde_json::from_str::<ServerJsonRpcMessage>(body) {
        Ok(ServerJsonRpcMessage::Error(error)) => error.error,
        _ => ErrorData::invalid_request(
            format!("server/discover rejected with HTTP {status}: {body}"),
            None,
        ),
    };
    Some(StreamableHttpPostResponse::Json(
        ServerJsonRpcMessage::error(error, Some(request.id.clone())),
        None,
    ))
}

/// Counts the raw bytes of the current SSE event (lines end at CR, LF or
/// CRLF; an empty line ends the event) and says when it passes the limit.
#[derive(Debug)]
struct EventSizeLimit {
    max_size: usize,
    event: usize,
    line: usize,
    after_cr: bool,
}

impl EventSizeLimit {
    fn new(max_size: usize) -> Self {
        EventSizeLimit {
            max_size,
            event: 0,
            line: 0,
            after_cr: false,
        }
    }

    /// Whether the events so far, with `chunk`, stay within the limit.
    fn observe(&mut self, chunk: &[u8]) -> bool {
        for &byte in chunk {
            let after_cr = std::mem::replace(&mut self.after_cr, false);
            match byte {
                b'\n' if after_cr => {}
                b'\r' | b'\n' => {
                    if self.line == 0 {
                        self.event = 0;
                    }
                    self.line = 0;
                    self.after_cr = byte == b'\r';
                }
                _ => {
                    self.line += 1;
                    self.event += 1;
                    if self.event > self.max_size {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// The SSE events of `body`, each at most `max_size` raw bytes.
fn bounded_events(
    body: impl Stream<Item = Result<Bytes, reqwest::Error>> + Send + 'static,
    max_size: usize,
) -> BoxStream<'static, Result<Sse, SseError>> {
    let bytes = body.map_err(LanguageHttpError::Http).scan(
        (EventSizeLimit::new(max_size), false),
        move |(limit, failed), item| {
            let next = match item {
                _ if *failed => None,
                Ok(chunk) if !limit.observe(&chunk) => {
                    *failed = true;
                    Some(Err(LanguageHttpError::EventTooLarge { max_size }))
                }
                Err(e) => {
                    *failed = true;
                    Some(Err(e))
                }
                Ok(chunk) => Some(Ok(chunk)),
            };
            futures::future::ready(next)
        },
    );
    SseStream::from_bytes_stream(bytes).boxed()
}

/// Whether rmcp reads this event as a JSON-RPC message.
fn is_message_event(event: &Sse) -> bool {
    matches!(event.event.as_deref(), None | Some("") | Some("message"))
}

/// The event that replaces a conflicting one on a POST's stream.
fn in_band_error(id: RequestId, malformed: &MalformedResponse) -> Sse {
    let conflict = ContentLanguageConflict::from_malformed(malformed);
    let error = ErrorData::new(
        MALFORMED_RESPONSE_CODE,
        malformed.to_string(),
        Some(conflict.error_data()),
    );
    let message = ServerJsonRpcMessage::error(error, Some(id));
    // A JSON-RPC error of strings and integers always serializes.
    Sse::default().data(serde_json::to_string(&message).unwrap_or_default())
}

/// `events` with every message checked against the stream's
/// `Content-Language` (nothing to check without one). The first conflict ends
/// the stream: as an in-band error for `request` when there is one, else as
/// an SSE error.
fn verified_events(
    events: BoxStream<'static, Result<Sse, SseError>>,
    language: EventStreamLanguage,
    request: Option<RequestId>,
) -> BoxStream<'static, Result<Sse, SseError>> {
    if !language.is_declared() {
        return events;
    }
    stream::unfold(Some((events, language, request)), |state| async move {
        let (mut events, language, request) = state?;
        let event = events.next().await?;
        let checked = match &event {
            Ok(sse) if is_message_event(sse) => sse.data.as_deref().map_or(Ok(()), |data| {
                language.check_message(data.as_bytes()).map(drop)
            }),
            _ => Ok(()),
        };
        match checked {
            Ok(()) => Some((event, Some((events, language, request)))),
            Err(malformed) => {
                let item = match request {
                    Some(id) => Ok(in_band_error(id, &malformed)),
                    None => Err(SseError::Body(Box::new(
                        LanguageHttpError::MalformedResponse(malformed),
                    ))),
                };
                Some((item, None))
            }
        }
    })
    .boxed()
}

impl LanguageHttpClient {
    async fn post(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, ClientError> {
        let headers = mirror_headers(&message, custom_headers).map_err(refused)?;
        let body = serde_json::to_vec(&message)?;
        let mut request = self
            .http
            .post(uri.as_ref())
            .header(ACCEPT, ACCEPT_BOTH)
            .header(CONTENT_TYPE, "application/json");
        if let Some(token) = auth_token {
            request = request.bearer_auth(token);
        }
        request = apply_custom_headers(request, headers)?;
        let session_attached = session_id.is_some();
        if let Some(session_id) = session_id {
            request = request.header(SESSION_ID, session_id.as_ref());
        }
        let response = request.body(body).send().await.map_err(http_error)?;

        let status = response.status();
        if let Some(error) = auth_challenge(status, response.headers()) {
            return Err(error);
        }
        if status == StatusCode::ACCEPTED || status == StatusCode::NO_CONTENT {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && session_attached {
            return Err(StreamableHttpError::SessionExpired);
        }
        let headers = response.headers().clone();
        let json = is_json(&headers);
        let status_error = match status_error(status, &headers) {
            Some(error) if !json || status == StatusCode::TOO_MANY_REQUESTS => {
                return Err(error.into());
            }
            other => other,
        };
        let new_session = headers
            .get(SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let awaits_no_response = !matches!(message, ClientJsonRpcMessage::Request(_));
        if status.is_success() && response.content_length() == Some(0) && awaits_no_response {
            return Ok(StreamableHttpPostResponse::Accepted);
        }

        if !status.is_success() {
            let auth_failure =
                status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN;
            let text = if json && !auth_failure {
                let body = match read_body(response, limits.max_json_response_size).await {
                    Ok(body) => body,
                    Err(error @ StreamableHttpError::ResponseBodyTooLarge { .. }) => {
                        return Err(status_error.map_or(error, StreamableHttpError::from));
                    }
                    Err(error) => return Err(error),
                };
                if let Ok(error @ ServerJsonRpcMessage::Error(_)) =
                    serde_json::from_slice::<ServerJsonRpcMessage>(&body)
                {
                    // A JSON-RPC error carries `error.data._meta` too.
                    check_json_response(&headers, &body).map_err(malformed)?;
                    let text = String::from_utf8_lossy(&body);
                    if let Some(response) =
                        legacy_discover(&message, session_attached, status, &text)
                    {
                        return Ok(response);
                    }
                    return Ok(StreamableHttpPostResponse::Json(error, new_session));
                }
                let end = body.len().min(limits.max_error_response_size);
                String::from_utf8_lossy(body.get(..end).unwrap_or_default()).into_owned()
            } else {
                read_prefix(response, limits.max_error_response_size).await
            };
            if let Some(response) = legacy_discover(&message, session_attached, status, &text) {
                return Ok(response);
            }
            if let Some(error) = status_error {
                return Err(error.into());
            }
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                format!("HTTP {status}: {text}"),
            )));
        }

        if is_event_stream(&headers) {
            let events = bounded_events(response.bytes_stream(), limits.max_sse_event_size);
            let language = EventStreamLanguage::from_headers(&headers);
            let events = verified_events(events, language, request_id(&message));
            return Ok(StreamableHttpPostResponse::Sse(events, new_session));
        }
        if json {
            let body = read_body(response, limits.max_json_response_size).await?;
            check_json_response(&headers, &body).map_err(malformed)?;
            return match serde_json::from_slice::<ServerJsonRpcMessage>(&body) {
                Ok(parsed) => Ok(StreamableHttpPostResponse::Json(parsed, new_session)),
                // Nothing awaits it: an unusable body changes nothing.
                Err(_) if awaits_no_response => Ok(StreamableHttpPostResponse::Accepted),
                Err(e) => {
                    let end = body.len().min(256);
                    Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                        format!(
                            "could not parse JSON response as ServerJsonRpcMessage: {e}: {}",
                            String::from_utf8_lossy(body.get(..end).unwrap_or_default())
                        ),
                    )))
                }
            };
        }
        if awaits_no_response {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        Err(StreamableHttpError::UnexpectedContentType(media_type(
            &headers,
        )))
    }

    async fn get(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_token: Option<String>,
        mut custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, ClientError> {
        // No message, so no preference: no bare `Accept-Language` either.
        custom_headers.remove(&http::header::ACCEPT_LANGUAGE);
        let mut request = self.http.get(uri.as_ref()).header(ACCEPT, ACCEPT_BOTH);
        if let Some(session_id) = session_id {
            request = request.header(SESSION_ID, session_id.as_ref());
        }
        if let Some(last_event_id) = last_event_id {
            request = request.header(LAST_EVENT_ID, last_event_id);
        }
        if let Some(token) = auth_token {
            request = request.bearer_auth(token);
        }
        request = apply_custom_headers(request, custom_headers)?;
        let response = request.send().await.map_err(http_error)?;
        let status = response.status();
        if status == StatusCode::METHOD_NOT_ALLOWED {
            return Err(StreamableHttpError::ServerDoesNotSupportSse);
        }
        if let Some(error) = auth_challenge(status, response.headers()) {
            return Err(error);
        }
        if let Some(error) = status_error(status, response.headers()) {
            return Err(error.into());
        }
        let response = response.error_for_status().map_err(http_error)?;
        let headers = response.headers();
        if !is_event_stream(headers) && !is_json(headers) {
            return Err(StreamableHttpError::UnexpectedContentType(media_type(
                headers,
            )));
        }
        let language = EventStreamLanguage::from_headers(headers);
        let events = bounded_events(response.bytes_stream(), max_sse_event_size);
        Ok(verified_events(events, language, None))
    }
}

fn malformed(error: MalformedResponse) -> ClientError {
    StreamableHttpError::Client(LanguageHttpError::MalformedResponse(error))
}

impl StreamableHttpClient for LanguageHttpClient {
    type Error = LanguageHttpError;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, ClientError> {
        let limits = StreamableHttpResponseLimits::default();
        self.post(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, ClientError> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, ClientError> {
        self.post(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        mut custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), ClientError> {
        custom_headers.remove(&http::header::ACCEPT_LANGUAGE);
        let mut request = self.http.delete(uri.as_ref());
        if let Some(token) = auth_header {
            request = request.bearer_auth(token);
        }
        request = request.header(SESSION_ID, session_id.as_ref());
        request = apply_custom_headers(request, custom_headers)?;
        let response = request.send().await.map_err(http_error)?;
        if response.status() == StatusCode::METHOD_NOT_ALLOWED {
            return Ok(());
        }
        response.error_for_status().map_err(http_error)?;
        Ok(())
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, ClientError> {
        self.get(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            DEFAULT_MAX_SSE_EVENT_SIZE,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, ClientError> {
        self.get(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            max_sse_event_size,
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_size_limit_counts_one_event_at_a_time() {
        let mut limit = EventSizeLimit::new(8);
        assert!(limit.observe(b"data: 1\n\n"));
        assert!(limit.observe(b"data: 2\r\n\r\ndata: 3\r\r"));
        assert!(limit.observe(b"data:"));
        assert!(limit.observe(b" 4\n"));
        // A second line joins the same event: 7 + 2 bytes.
        assert!(!limit.observe(b"id\n"));
        let mut limit = EventSizeLimit::new(4);
        assert!(!limit.observe(b"abcde"));
    }

    #[test]
    fn challenge_scopes() {
        assert_eq!(
            challenge_scope(r#"Bearer error="insufficient_scope", scope="files:read files:write""#),
            Some("files:read files:write".to_owned())
        );
        assert_eq!(
            challenge_scope("Bearer Scope=read:data, x=y"),
            Some("read:data".to_owned())
        );
        assert_eq!(challenge_scope("Bearer scope="), None);
        assert_eq!(challenge_scope("Bearer scope=\"open"), None);
        assert_eq!(challenge_scope("Bearer realm=x"), None);
    }

    #[test]
    fn reserved_custom_headers_are_refused() {
        let client = reqwest::Client::new();
        for name in ["accept", "mcp-session-id", "last-event-id"] {
            let mut headers = HashMap::new();
            headers.insert(HeaderName::from_static(name), HeaderValue::from_static("x"));
            let error = apply_custom_headers(client.get("http://127.0.0.1/"), headers);
            assert!(
                matches!(error, Err(StreamableHttpError::ReservedHeaderConflict(ref n)) if n == name),
                "{name}"
            );
        }
        let mut headers = HashMap::new();
        headers.insert(
            HeaderName::from_static(PROTOCOL_VERSION),
            HeaderValue::from_static("2025-11-25"),
        );
        assert!(apply_custom_headers(client.get("http://127.0.0.1/"), headers).is_ok());
    }

    #[test]
    fn in_band_error_round_trips_the_conflict() {
        let mut headers = HeaderMap::new();
        headers.append(
            http::header::CONTENT_LANGUAGE,
            HeaderValue::from_static("de"),
        );
        headers.append(
            http::header::CONTENT_LANGUAGE,
            HeaderValue::from_static("de"),
        );
        let language = EventStreamLanguage::from_headers(&headers);
        let malformed = language
            .check_message(
                br#"{"jsonrpc":"2.0","id":3,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"de"}}}"#,
            )
            .unwrap_err();
        let event = in_band_error(RequestId::Number(3), &malformed);
        let message: ServerJsonRpcMessage =
            serde_json::from_str(event.data.as_deref().unwrap()).unwrap();
        let ServerJsonRpcMessage::Error(error) = message else {
            panic!("{message:?}")
        };
        assert_eq!(error.id, Some(RequestId::Number(3)));
        let conflict = ContentLanguageConflict::from_error_data(&error.error).unwrap();
        assert_eq!(conflict.content_language(), Some("de"));
        assert_eq!(conflict.header(), "de, de");
        assert_eq!(conflict.line_count(), 2);
        assert!(error.error.message.contains("malformed response"));
    }

    #[test]
    fn other_errors_are_not_conflicts() {
        let error = ErrorData::new(MALFORMED_RESPONSE_CODE, "boom", None);
        assert_eq!(ContentLanguageConflict::from_error_data(&error), None);
        let error = ErrorData::invalid_request("x", Some(json!({"malformedResponse": {}})));
        assert_eq!(ContentLanguageConflict::from_error_data(&error), None);
    }
}
