//! [`LanguageFuture`]: one request through the layer, as a named state machine.
//!
//! The layer's work on a `POST` happens in four steps, each a state of the future:
//!
//! 1. **read the request**: the body's frames are collected, up to the body limit;
//! 2. **check**: `params._meta` is skimmed from the bytes and every `Accept-Language` line
//!    is checked against it; a mismatch (or an unreadable or oversized body) ends here
//!    with the layer's own response, and the inner service is never called;
//! 3. **inner**: the inner service runs with the same bytes and a [`LanguagePreference`]
//!    in the request extensions;
//! 4. **read the response**: a JSON answer is collected, up to the response limit, so that
//!    its `contentLanguage` can be mirrored into `Content-Language`.
//!
//! Any other method only waits for the inner service and adds `Vary`.
//!
//! A named future rather than a boxed `async` block: the layer allocates nothing of its
//! own per request beyond what `http::Extensions` does, and the future is `Send` exactly
//! when the inner service's future and the bodies are.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Buf, Bytes, BytesMut};
use http::header::{CONNECTION, CONTENT_LANGUAGE, CONTENT_LENGTH, HeaderValue};
use http::{Method, Request, Response, StatusCode, request, response};
use http_body::Body;
use http_body_util::{Either, Full};
use pin_project_lite::pin_project;
use serde_json::{Value, json};
use tower_service::Service;

use crate::layer::{BoxError, Config, LanguageBody};
use crate::response::{
    add_vary_accept_language, is_event_stream, is_json, make_private, mirror_json_bytes,
};
use crate::server::{
    LanguagePreference, RequestAgreement, check_request, echo_id, json_response, json_rpc_error,
};
use mcp_lang_meta::{RawPreference, skim_request};

pin_project! {
    /// The future that [`LanguageService`](crate::LanguageService) returns for one request:
    /// the response with `Vary`, `Content-Language` (and, for a stripped header,
    /// `Cache-Control: private`) set, or the layer's own error response, or the inner
    /// service's error.
    ///
    /// A named type, not a box: a layer built on it costs no allocation of its own per
    /// request, and it is `Send` when the inner service's future and the bodies are.
    /// Polling it again after it has given its output returns `Poll::Pending`; it never
    /// panics.
    ///
    /// ```
    /// use axum::{Router, body::Body, routing::post};
    /// use http::Request;
    /// use mcp_lang_http::{LanguageFuture, LanguageLayer};
    /// use tower_service::Service;
    ///
    /// let mut app = LanguageLayer::new().layer(Router::new().route("/mcp", post(|| async { "{}" })));
    /// let future: LanguageFuture<_, _, _> =
    ///     app.call(Request::post("/mcp").body(Body::from("{}")).unwrap());
    /// // A named type: it can be stored in a struct field, and it is `Send`.
    /// fn is_send<T: Send>(_: &T) {}
    /// is_send(&future);
    /// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    /// let response = runtime.block_on(future).unwrap();
    /// assert_eq!(response.headers()["vary"], "Accept-Language");
    /// # use tower_layer::Layer;
    /// ```
    pub struct LanguageFuture<S, B, ResBody>
    where
        S: Service<Request<B>>,
    {
        #[pin]
        state: State<S, B, ResBody>,
        config: Config,
    }
}

pin_project! {
    /// Where a request is in the layer (see the module docs).
    #[project = StateProj]
    enum State<S, B, ResBody>
    where
        S: Service<Request<B>>,
    {
        // The layer's own answer, given on the next poll.
        Answer {
            response: Option<Response<LanguageBody<ResBody>>>,
        },
        // Not a `POST`: waiting for the inner service, then `Vary`.
        Passthrough {
            #[pin]
            future: S::Future,
        },
        // Collecting the request body.
        ReadRequest {
            #[pin]
            body: B,
            collected: Collected,
            parts: Option<request::Parts>,
            inner: Option<S>,
        },
        // Waiting for the inner service.
        Inner {
            #[pin]
            future: S::Future,
            agreement: RequestAgreement,
            request_body: Bytes,
        },
        // Collecting a JSON response body.
        ReadResponse {
            #[pin]
            body: ResBody,
            collected: Collected,
            parts: Option<response::Parts>,
            request_body: Bytes,
        },
        // The output was given.
        Done,
    }
}

impl<S, B, ResBody> LanguageFuture<S, B, ResBody>
where
    S: Service<Request<B>, Response = Response<ResBody>>,
    B: Body,
{
    /// Starts one request through the layer: `inner` is the service that was driven to
    /// readiness.
    pub(crate) fn new(mut inner: S, config: Config, request: Request<B>) -> Self {
        if request.method() != Method::POST {
            let future = inner.call(request);
            return LanguageFuture {
                state: State::Passthrough { future },
                config,
            };
        }
        let (parts, body) = request.into_parts();
        let declared_too_long = parts
            .headers
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .is_some_and(|n| n > config.body_limit as u64);
        let state = if declared_too_long || body.size_hint().lower() > config.body_limit as u64 {
            State::Answer {
                response: Some(too_large(config.body_limit)),
            }
        } else {
            State::ReadRequest {
                body,
                collected: Collected::default(),
                parts: Some(parts),
                inner: Some(inner),
            }
        };
        LanguageFuture { state, config }
    }
}

impl<S, B, ResBody> Future for LanguageFuture<S, B, ResBody>
where
    S: Service<Request<B>, Response = Response<ResBody>>,
    B: Body + From<Bytes>,
    B::Error: Into<BoxError>,
    ResBody: Body<Data = Bytes>,
    ResBody::Error: Into<BoxError>,
{
    type Output = Result<Response<LanguageBody<ResBody>>, S::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut this = self.project();
        loop {
            let next = match this.state.as_mut().project() {
                StateProj::Answer { response } => match response.take() {
                    Some(response) => {
                        this.state.set(State::Done);
                        return Poll::Ready(Ok(response));
                    }
                    None => return Poll::Pending,
                },
                StateProj::Passthrough { future } => {
                    let result = match future.poll(cx) {
                        Poll::Ready(result) => result,
                        Poll::Pending => return Poll::Pending,
                    };
                    this.state.set(State::Done);
                    return Poll::Ready(result.map(|mut response| {
                        add_vary_accept_language(response.headers_mut());
                        response.map(Either::Right)
                    }));
                }
                StateProj::ReadRequest {
                    body,
                    collected,
                    parts,
                    inner,
                } => match collected.poll_collect(body, cx, this.config.body_limit) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Err(ReadError::TooLarge)) => State::Answer {
                        response: Some(too_large(this.config.body_limit)),
                    },
                    Poll::Ready(Err(ReadError::Body(e))) => State::Answer {
                        response: Some(if is_timeout(e.as_ref()) {
                            request_timeout(&e)
                        } else {
                            unreadable_request(&e)
                        }),
                    },
                    Poll::Ready(Ok(bytes)) => match (parts.take(), inner.take()) {
                        (Some(parts), Some(inner)) => {
                            check_and_call(inner, parts, bytes, this.config)
                        }
                        // Both are taken only here, and the state changes right after.
                        _ => State::Done,
                    },
                },
                StateProj::Inner {
                    future,
                    agreement,
                    request_body,
                } => {
                    let response = match future.poll(cx) {
                        Poll::Ready(Ok(response)) => response,
                        Poll::Ready(Err(e)) => {
                            this.state.set(State::Done);
                            return Poll::Ready(Err(e));
                        }
                        Poll::Pending => return Poll::Pending,
                    };
                    let (mut parts, body) = response.into_parts();
                    add_vary_accept_language(&mut parts.headers);
                    if agreement.response_must_be_private() {
                        make_private(&mut parts.headers);
                    }
                    // JSON first: the usual answer, and then `Content-Type` is read once.
                    if !is_json(&parts.headers) {
                        if is_event_stream(&parts.headers)
                            && !this.config.keep_event_stream_content_language
                        {
                            parts.headers.remove(CONTENT_LANGUAGE);
                        }
                        this.state.set(State::Done);
                        return Poll::Ready(Ok(Response::from_parts(parts, Either::Right(body))));
                    }
                    State::ReadResponse {
                        body,
                        collected: Collected::default(),
                        parts: Some(parts),
                        request_body: std::mem::take(request_body),
                    }
                }
                StateProj::ReadResponse {
                    body,
                    collected,
                    parts,
                    request_body,
                } => {
                    let read = match collected.poll_collect(body, cx, this.config.response_limit) {
                        Poll::Ready(read) => read,
                        Poll::Pending => return Poll::Pending,
                    };
                    let response = match (read, parts.take()) {
                        (Ok(body), Some(mut parts)) => {
                            mirror_json_bytes(&mut parts.headers, &body);
                            Response::from_parts(parts, Either::Left(Full::new(body)))
                        }
                        (Err(e), _) => {
                            unmirrorable_response(e, this.config.response_limit, request_body)
                        }
                        // The parts are taken only here, and the state changes right after.
                        (Ok(_), None) => {
                            this.state.set(State::Done);
                            return Poll::Pending;
                        }
                    };
                    this.state.set(State::Done);
                    return Poll::Ready(Ok(response));
                }
                StateProj::Done => return Poll::Pending,
            };
            this.state.set(next);
        }
    }
}

/// Step 2 and the start of step 3: the agreement check on the collected body, then the
/// call of the inner service, or the layer's own answer to a mismatch.
fn check_and_call<S, B, ResBody>(
    mut inner: S,
    mut parts: request::Parts,
    bytes: Bytes,
    config: &Config,
) -> State<S, B, ResBody>
where
    S: Service<Request<B>, Response = Response<ResBody>>,
    B: From<Bytes>,
{
    // Not one JSON object: no `_meta` to read; the inner server answers the body.
    let skim = skim_request(&bytes).ok();
    let preference = skim
        .as_ref()
        .map_or(RawPreference::Absent, |skim| skim.accept_language().clone());
    let agreement = match check_request(&parts.headers, preference.as_meta_value()) {
        Ok(agreement) => agreement,
        Err(mismatch) => {
            // The id is read only to be echoed.
            let raw_id = skim.as_ref().and_then(|skim| skim.id());
            return State::Answer {
                response: Some(own(mismatch.to_response(&echo_id(raw_id)))),
            };
        }
    };
    let preference = LanguagePreference::from_body(&bytes, preference, agreement);
    if let Some(negotiator) = &config.negotiator {
        parts
            .extensions
            .insert(negotiator.request_language(preference.raw()));
    }
    parts.extensions.insert(preference);
    let future = inner.call(Request::from_parts(parts, B::from(bytes.clone())));
    State::Inner {
        future,
        agreement,
        request_body: bytes,
    }
}

/// A body collected frame by frame, refusing more than a limit. A body that arrives as one
/// chunk (the usual case) is kept without copying.
#[derive(Debug, Default)]
struct Collected {
    first: Option<Bytes>,
    more: Option<BytesMut>,
    len: usize,
}

/// Why collecting a body stopped.
enum ReadError {
    TooLarge,
    Body(BoxError),
}

impl Collected {
    /// Polls `body` until its end, adding each data frame; trailers carry no part of the
    /// message and are skipped.
    fn poll_collect<T>(
        &mut self,
        mut body: Pin<&mut T>,
        cx: &mut Context<'_>,
        limit: usize,
    ) -> Poll<Result<Bytes, ReadError>>
    where
        T: Body,
        T::Error: Into<BoxError>,
    {
        loop {
            let frame = match body.as_mut().poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => frame,
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(ReadError::Body(e.into()))),
                Poll::Ready(None) => return Poll::Ready(Ok(self.take())),
                Poll::Pending => return Poll::Pending,
            };
            if let Ok(data) = frame.into_data()
                && self.push(data, limit).is_err()
            {
                return Poll::Ready(Err(ReadError::TooLarge));
            }
        }
    }

    /// Adds one chunk, or refuses it when the total would pass `limit`.
    fn push(&mut self, mut data: impl Buf, limit: usize) -> Result<(), ReadError> {
        self.len = self.len.saturating_add(data.remaining());
        if self.len > limit {
            return Err(ReadError::TooLarge);
        }
        let chunk = data.copy_to_bytes(data.remaining());
        if let Some(buffer) = self.more.as_mut() {
            buffer.extend_from_slice(&chunk);
        } else if let Some(previous) = self.first.take() {
            let mut buffer = BytesMut::with_capacity(previous.len() + chunk.len());
            buffer.extend_from_slice(&previous);
            buffer.extend_from_slice(&chunk);
            self.more = Some(buffer);
        } else {
            self.first = Some(chunk);
        }
        Ok(())
    }

    /// The whole body collected so far.
    fn take(&mut self) -> Bytes {
        match (self.first.take(), self.more.take()) {
            (_, Some(buffer)) => buffer.freeze(),
            (Some(chunk), None) => chunk,
            (None, None) => Bytes::new(),
        }
    }
}

/// A response the layer made itself.
fn own<B>(response: Response<Bytes>) -> Response<LanguageBody<B>> {
    response.map(|bytes| Either::Left(Full::new(bytes)))
}

/// `413 Payload Too Large` with a JSON-RPC error that names the limit.
fn too_large<B>(limit: usize) -> Response<LanguageBody<B>> {
    let message = format!(
        "request body exceeds the {limit}-byte limit of the language layer; the Accept-Language agreement check (SEP-2792) needs the whole message"
    );
    let body = json_rpc_error(None, -32600, &message, json!({ "limit": limit }));
    own(json_response(StatusCode::PAYLOAD_TOO_LARGE, body))
}

/// `400 Bad Request` for a request body that could not be read.
fn unreadable_request<B>(error: &BoxError) -> Response<LanguageBody<B>> {
    let message = format!("could not read the request body: {error}");
    let body = json_rpc_error(None, -32600, &message, Value::Null);
    own(json_response(StatusCode::BAD_REQUEST, body))
}

/// Whether a body error is a timeout: an [`std::io::Error`] of kind `TimedOut`
/// anywhere in its chain of sources (what a deadline on the request body reports).
pub(crate) fn is_timeout(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(error) = next {
        if error
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::TimedOut)
        {
            return true;
        }
        next = error.source();
    }
    false
}

/// `408 Request Timeout` for a request body that did not arrive in time, with
/// `Connection: close`: the rest of the body may still be on its way, so the connection
/// cannot carry another request (RFC 9110 §15.5.9).
fn request_timeout<B>(error: &BoxError) -> Response<LanguageBody<B>> {
    let message = format!("the request body did not arrive in time: {error}");
    let body = json_rpc_error(None, -32600, &message, Value::Null);
    let mut response = json_response(StatusCode::REQUEST_TIMEOUT, body);
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    own(response)
}

/// `500` with -32603 for a JSON response the layer could not read in full, so could not
/// mirror; the id is the request's.
fn unmirrorable_response<B>(
    error: ReadError,
    limit: usize,
    request_body: &[u8],
) -> Response<LanguageBody<B>> {
    let message = match error {
        ReadError::TooLarge => format!(
            "the response exceeds the {limit}-byte limit of the language layer, which must read it to mirror its contentLanguage"
        ),
        ReadError::Body(e) => format!("could not read the response body: {e}"),
    };
    let skim = skim_request(request_body);
    let id = echo_id(skim.as_ref().ok().and_then(|skim| skim.id()));
    let body = json_rpc_error(id, -32603, &message, Value::Null);
    own(json_response(StatusCode::INTERNAL_SERVER_ERROR, body))
}
