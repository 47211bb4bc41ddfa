//! The layer's future on bodies that a loopback server rarely produces: frames that are not
//! ready at once, trailers, bodies that fail while being read, and a future polled after
//! it has given its output.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::{Future, Ready, ready};
use std::pin::{Pin, pin};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http::header::{CONTENT_LANGUAGE, CONTENT_TYPE, HeaderValue};
use http::{HeaderMap, Request, Response, StatusCode};
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;
use mcp_lang_http::{LanguageLayer, LanguagePreference};
use serde_json::Value;
use tower_layer::Layer;
use tower_service::Service;

/// One step of a [`Script`]ed body.
#[derive(Clone)]
enum Step {
    /// Not ready yet (the waker is called at once, as a real body would later).
    Pending,
    Data(Bytes),
    Trailers,
    Fail,
    /// A deadline on the body passed: an `io::Error` of kind `TimedOut`, wrapped the
    /// way a framework's body type wraps its source's error.
    TimedOut,
}

/// A body that plays its steps in order.
#[derive(Clone, Default)]
struct Script(VecDeque<Step>);

impl Script {
    fn new(steps: impl IntoIterator<Item = Step>) -> Self {
        Script(steps.into_iter().collect())
    }
}

impl From<Bytes> for Script {
    fn from(bytes: Bytes) -> Self {
        // What the layer hands to the inner service: the collected bytes, in one frame.
        Script::new([Step::Data(bytes)])
    }
}

impl Body for Script {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        match self.0.pop_front() {
            None => Poll::Ready(None),
            Some(Step::Pending) => {
                cx.waker().wake_by_ref();
                Poll::Pending
            }
            Some(Step::Data(bytes)) => Poll::Ready(Some(Ok(Frame::data(bytes)))),
            Some(Step::Trailers) => {
                let mut trailers = HeaderMap::new();
                trailers.insert("x-checksum", HeaderValue::from_static("0"));
                Poll::Ready(Some(Ok(Frame::trailers(trailers))))
            }
            Some(Step::Fail) => Poll::Ready(Some(Err(std::io::Error::other("connection reset")))),
            Some(Step::TimedOut) => {
                let deadline = std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "request body not received within 30 s",
                );
                Poll::Ready(Some(Err(std::io::Error::other(Wrapped(deadline)))))
            }
        }
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

/// An error that only names its source, as `axum::Error` or hyper's do.
#[derive(Debug)]
struct Wrapped(std::io::Error);

impl std::fmt::Display for Wrapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("body error")
    }
}

impl std::error::Error for Wrapped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// An inner service that answers with a scripted JSON body and records what it got.
#[derive(Clone)]
struct Inner {
    answer: Script,
}

impl Service<Request<Script>> for Inner {
    type Response = Response<Script>;
    type Error = Infallible;
    type Future = Ready<Result<Response<Script>, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Script>) -> Self::Future {
        assert!(request.extensions().get::<LanguagePreference>().is_some());
        let mut response = Response::new(self.answer.clone());
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        ready(Ok(response))
    }
}

const REQUEST: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#;
const ANSWER: &str = r#"{"jsonrpc":"2.0","id":7,"result":{"tools":[],"_meta":{"io.modelcontextprotocol/contentLanguage":"de"}}}"#;

/// A data step from static text.
fn data(text: &'static str) -> Step {
    Step::Data(Bytes::from_static(text.as_bytes()))
}

/// Runs one request through the layer, polling until it is ready, and returns the
/// response with its body collected, and how many polls it took.
fn run(request_body: Script, answer: Script) -> (Response<Bytes>, usize) {
    let mut service = LanguageLayer::new().layer(Inner { answer });
    let request = Request::post("/mcp")
        .header("accept-language", "de")
        .body(request_body)
        .unwrap();
    let mut future = pin!(service.call(request));
    let mut cx = Context::from_waker(Waker::noop());
    let mut polls = 0;
    let response = loop {
        polls += 1;
        assert!(polls < 100, "the future never finished");
        if let Poll::Ready(result) = future.as_mut().poll(&mut cx) {
            let Ok(response) = result;
            break response;
        }
    };
    // Polled again after its output: no panic, nothing more.
    assert!(future.as_mut().poll(&mut cx).is_pending());
    let (parts, body) = response.into_parts();
    let mut body = pin!(body.collect());
    let bytes = loop {
        if let Poll::Ready(collected) = body.as_mut().poll(&mut cx) {
            break collected.map(|c| c.to_bytes()).unwrap_or_default();
        }
    };
    (Response::from_parts(parts, bytes), polls)
}

fn json(body: &Bytes) -> Value {
    serde_json::from_slice(body).unwrap()
}

#[test]
fn frames_that_arrive_over_several_polls_are_collected_both_ways() {
    let (head, tail) = REQUEST.split_at(40);
    let (a, b) = ANSWER.split_at(50);
    let request = Script::new([Step::Pending, data(head), Step::Pending, data(tail)]);
    let answer = Script::new([data(a), Step::Pending, data(b)]);
    let (response, polls) = run(request, answer);
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_LANGUAGE], "de");
    assert_eq!(response.body(), ANSWER);
    assert!(polls >= 4, "each Pending step costs a poll ({polls})");
}

#[test]
fn trailers_are_not_part_of_the_message() {
    let request = Script::new([data(REQUEST), Step::Trailers]);
    let answer = Script::new([data(ANSWER), Step::Trailers]);
    let (response, _) = run(request, answer);
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_LANGUAGE], "de");
    assert_eq!(response.body(), ANSWER);
}

#[test]
fn a_request_body_that_fails_is_a_400_and_the_inner_service_is_not_called() {
    // `Inner::call` asserts that it got a preference; a failed read never reaches it.
    let request = Script::new([data(&REQUEST[..20]), Step::Fail]);
    let (response, _) = run(request, Script::new([data(ANSWER)]));
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let error = json(response.body());
    assert_eq!(error["error"]["code"], -32600);
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("connection reset"), "{message}");
}

#[test]
fn a_request_body_that_times_out_is_a_408_that_closes_the_connection() {
    let request = Script::new([data(&REQUEST[..20]), Step::Pending, Step::TimedOut]);
    let (response, _) = run(request, Script::new([data(ANSWER)]));
    assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
    assert_eq!(response.headers()["connection"], "close");
    assert_eq!(response.headers()["cache-control"], "no-store");
    let error = json(response.body());
    assert_eq!(error["error"]["code"], -32600);
    assert!(error["id"].is_null());
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("did not arrive in time"), "{message}");
}

#[test]
fn a_response_body_that_fails_is_a_500_with_the_request_id() {
    let answer = Script::new([data(&ANSWER[..30]), Step::Fail]);
    let (response, _) = run(Script::new([data(REQUEST)]), answer);
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let error = json(response.body());
    assert_eq!(error["id"], 7);
    assert_eq!(error["error"]["code"], -32603);
    assert!(
        response.headers().get(CONTENT_LANGUAGE).is_none(),
        "nothing to mirror"
    );
    assert_eq!(response.headers()["vary"], "Accept-Language");
}
