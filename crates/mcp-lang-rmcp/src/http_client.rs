//! A Streamable HTTP client wrapper that mirrors each request's preference
//! into exactly one `Accept-Language` field line.
//!
//! rmcp's `StreamableHttpClientTransport` sends every message through a
//! [`StreamableHttpClient`]; [`MirroringClient`] wraps any of them (rmcp's
//! reqwest client, a Unix-socket client, your own) and, for each POST, reads
//! `params._meta["io.modelcontextprotocol/acceptLanguage"]` of the outgoing
//! request and sets one `Accept-Language` line with exactly that value,
//! replacing any other — what SEP-2792 requires of a Streamable HTTP client.
//! A message without the preference is sent without the header (the SEP's
//! "bare header" would not create a preference anyway, and a header the body
//! does not carry can only confuse a cache).
//!
//! A preference that cannot be one HTTP field value is refused before anything
//! is sent (decision D8), as an `std::io::Error` of kind `InvalidInput` whose
//! source is [`PreferenceError`].
//!
//! **It cannot verify `Content-Language`.** `post_message` returns a decoded
//! `StreamableHttpPostResponse` without the response headers, so a wrapper at
//! this level never sees them. For verification as well as mirroring, use
//! `reqwest_client::LanguageHttpClient` (feature `http-client-reqwest`), which
//! owns the HTTP exchange; use this wrapper when you must keep another
//! transport client (a Unix-socket client, your own), and accept that its
//! responses are not checked.
//!
//! Use it as `StreamableHttpClientTransport::with_client(MirroringClient::new(client), config)`.
//! What it does to each POST's headers is [`mirror_headers`]:
//!
//! ```
//! use std::collections::HashMap;
//! use mcp_lang_rmcp::http_client::mirror_headers;
//! use rmcp::model::{ClientJsonRpcMessage, ClientRequest, GetMeta, JsonRpcRequest, ListToolsRequest, NumberOrString};
//!
//! let mut request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
//! request.get_meta_mut().insert(
//!     "io.modelcontextprotocol/acceptLanguage".into(), "de-CH, de;q=0.9".into());
//! let message = ClientJsonRpcMessage::Request(JsonRpcRequest::new(NumberOrString::Number(1), request));
//! let headers = mirror_headers(&message, HashMap::new()).unwrap();
//! assert_eq!(headers[&http::header::ACCEPT_LANGUAGE], "de-CH, de;q=0.9");
//! ```

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, GetMeta};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use serde_json::Value;
use sse_stream::Sse;

use crate::ACCEPT_LANGUAGE_KEY;
use crate::client::{PreferenceError, check_preference};

/// Wraps a [`StreamableHttpClient`] so that every POST carries exactly one
/// `Accept-Language` line equal to the request's `_meta` preference.
///
/// ```
/// use mcp_lang_rmcp::http_client::MirroringClient;
/// use mcp_lang_rmcp::reqwest_client::LanguageHttpClient;
/// use rmcp::transport::streamable_http_client::StreamableHttpClient;
///
/// // The wrapper is a `StreamableHttpClient` whenever the wrapped client is one,
/// // so it goes where the inner client went:
/// // `StreamableHttpClientTransport::with_client(client, config)`.
/// fn transport_client<C: StreamableHttpClient>(client: C) -> C { client }
/// let client = transport_client(MirroringClient::new(LanguageHttpClient::new(reqwest::Client::new())));
/// assert!(client.get_ref().get_ref().get("http://127.0.0.1/mcp").build().is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct MirroringClient<C> {
    inner: C,
}

impl<C> MirroringClient<C> {
    /// Wraps `inner`.
    ///
    /// ```
    /// use mcp_lang_rmcp::http_client::MirroringClient;
    ///
    /// use mcp_lang_rmcp::reqwest_client::LanguageHttpClient;
    ///
    /// let client = MirroringClient::new(LanguageHttpClient::new(reqwest::Client::new()));
    /// let _reqwest: &reqwest::Client = client.get_ref().get_ref();
    /// ```
    pub fn new(inner: C) -> Self {
        Self { inner }
    }

    /// The wrapped client.
    ///
    /// ```
    /// use mcp_lang_rmcp::http_client::MirroringClient;
    ///
    /// let client = MirroringClient::new(String::from("any inner value"));
    /// assert_eq!(client.get_ref(), "any inner value");
    /// ```
    pub fn get_ref(&self) -> &C {
        &self.inner
    }
}

/// The preference carried by an outgoing request or notification, if any
/// (responses carry none).
///
/// # Errors
///
/// [`PreferenceError::NotAString`] when `_meta` holds the key with a value
/// that is not a string: no field line could agree with it, so the message is
/// refused rather than sent without its mirror (decision D8).
///
/// ```
/// use mcp_lang_rmcp::client::PreferenceError;
/// use mcp_lang_rmcp::http_client::outgoing_preference;
/// use rmcp::model::{ClientJsonRpcMessage, ClientRequest, GetMeta, JsonRpcRequest, ListToolsRequest, NumberOrString};
///
/// let message = |value: serde_json::Value| {
///     let mut request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
///     request.get_meta_mut().insert("io.modelcontextprotocol/acceptLanguage".into(), value);
///     ClientJsonRpcMessage::Request(JsonRpcRequest::new(NumberOrString::Number(1), request))
/// };
/// assert_eq!(outgoing_preference(&message("ga".into())), Ok(Some("ga")));
/// assert_eq!(outgoing_preference(&message(3.into())), Err(PreferenceError::NotAString));
/// ```
pub fn outgoing_preference(
    message: &ClientJsonRpcMessage,
) -> Result<Option<&str>, PreferenceError> {
    let value = match message {
        ClientJsonRpcMessage::Request(request) => {
            request.request.get_meta().get(ACCEPT_LANGUAGE_KEY)
        }
        ClientJsonRpcMessage::Notification(notification) => notification
            .notification
            .get_meta()
            .get(ACCEPT_LANGUAGE_KEY),
        _ => None,
    };
    match value {
        None => Ok(None),
        Some(Value::String(preference)) => Ok(Some(preference)),
        Some(_) => Err(PreferenceError::NotAString),
    }
}

/// `custom_headers` with every `Accept-Language` removed and, when the
/// message carries a preference, exactly one line set to it.
///
/// # Errors
///
/// The preference cannot be sent ([`PreferenceError`]).
///
/// ```
/// use std::collections::HashMap;
/// use http::header::ACCEPT_LANGUAGE;
/// use mcp_lang_rmcp::http_client::mirror_headers;
/// use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcRequest, ListToolsRequest, NumberOrString};
///
/// // No preference in `_meta`: a configured `Accept-Language` is dropped, not sent.
/// let request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
/// let message = ClientJsonRpcMessage::Request(JsonRpcRequest::new(NumberOrString::Number(1), request));
/// let custom = HashMap::from([(ACCEPT_LANGUAGE, "en".parse().unwrap())]);
/// assert!(mirror_headers(&message, custom).unwrap().get(&ACCEPT_LANGUAGE).is_none());
/// ```
pub fn mirror_headers(
    message: &ClientJsonRpcMessage,
    mut custom_headers: HashMap<HeaderName, HeaderValue>,
) -> Result<HashMap<HeaderName, HeaderValue>, PreferenceError> {
    custom_headers.remove(&http::header::ACCEPT_LANGUAGE);
    if let Some(preference) = outgoing_preference(message)? {
        check_preference(preference)?;
        let value = HeaderValue::from_str(preference)
            .map_err(|_| PreferenceError::NotFieldValue { offset: 0 })?;
        custom_headers.insert(http::header::ACCEPT_LANGUAGE, value);
    }
    Ok(custom_headers)
}

pub(crate) fn refused<E>(error: PreferenceError) -> StreamableHttpError<E>
where
    E: std::error::Error + Send + Sync + 'static,
{
    StreamableHttpError::Io(std::io::Error::new(std::io::ErrorKind::InvalidInput, error))
}

impl<C: StreamableHttpClient + Sync> StreamableHttpClient for MirroringClient<C> {
    type Error = C::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let headers = mirror_headers(&message, custom_headers).map_err(refused)?;
        self.inner
            .post_message(uri, message, session_id, auth_header, headers)
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
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let headers = mirror_headers(&message, custom_headers).map_err(refused)?;
        self.inner
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                headers,
                limits,
            )
            .await
    }

    fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> impl Future<Output = Result<(), StreamableHttpError<Self::Error>>> + Send + '_ {
        self.inner
            .delete_session(uri, session_id, auth_header, custom_headers)
    }

    fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> impl Future<
        Output = Result<
            BoxStream<'static, Result<Sse, SseError>>,
            StreamableHttpError<Self::Error>,
        >,
    > + Send
    + '_ {
        self.inner
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
    }

    fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> impl Future<
        Output = Result<
            BoxStream<'static, Result<Sse, SseError>>,
            StreamableHttpError<Self::Error>,
        >,
    > + Send
    + '_ {
        self.inner.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            max_sse_event_size,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ClientRequest, JsonRpcRequest, ListToolsRequest, NumberOrString};

    fn message(preference: Option<Value>) -> ClientJsonRpcMessage {
        let mut request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
        if let Some(value) = preference {
            request
                .get_meta_mut()
                .insert(ACCEPT_LANGUAGE_KEY.to_owned(), value);
        }
        ClientJsonRpcMessage::Request(JsonRpcRequest::new(NumberOrString::Number(1), request))
    }

    fn accept(headers: &HashMap<HeaderName, HeaderValue>) -> Option<&str> {
        headers
            .get(&http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
    }

    #[test]
    fn one_line_equal_to_meta_replacing_any_other() {
        let mut custom = HashMap::new();
        custom.insert(
            http::header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("en"),
        );
        let out = mirror_headers(&message(Some(Value::from("fr-CA, fr;q=0.9"))), custom).unwrap();
        assert_eq!(accept(&out), Some("fr-CA, fr;q=0.9"));
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn no_preference_no_header() {
        let mut custom = HashMap::new();
        custom.insert(
            http::header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("de"),
        );
        let out = mirror_headers(&message(None), custom).unwrap();
        assert_eq!(accept(&out), None);
    }

    #[test]
    fn non_string_preference_is_refused_not_sent_unmirrored() {
        for value in [
            Value::from(3),
            Value::Null,
            serde_json::json!({"lang": "fr"}),
        ] {
            let error = mirror_headers(&message(Some(value)), HashMap::new());
            assert_eq!(error, Err(PreferenceError::NotAString));
        }
    }

    #[test]
    fn unsendable_preference_is_refused() {
        let error = mirror_headers(&message(Some(Value::from("fr\nX: 1"))), HashMap::new());
        assert_eq!(error, Err(PreferenceError::NotFieldValue { offset: 2 }));
        let error = mirror_headers(&message(Some(Value::from("fr;q=2"))), HashMap::new());
        assert!(matches!(error, Err(PreferenceError::Malformed { .. })));
    }
}
