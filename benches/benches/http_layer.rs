//! The per-request cost of the SEP-2792 tower layer (`mcp-lang-http`) around a trivial
//! inner MCP service, beside the same service alone, for a 1 KiB JSON-RPC request.
//!
//! Both functions build the same request and run the same inner service; the difference
//! is the layer: reading the body, skimming `_meta`, the agreement check, the request
//! extension, and on the way back `Vary`, reading the JSON response and mirroring
//! `contentLanguage` into `Content-Language`. The futures are ready at once (the inner
//! service and the bodies never wait), so they are polled directly, without a runtime.
//!
//! `--callgrind list` and `--callgrind ID N` (see `mcp_lang_benches::callgrind`) count one
//! request through each; `cargo xtask callgrind` reports the difference as the layer's own
//! cost (`http-layer/1k-body/own`).

use std::convert::Infallible;
use std::future::{Future, Ready, ready};
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use criterion::{Criterion, criterion_group};
use http::header::{ACCEPT_LANGUAGE, CONTENT_TYPE, HeaderValue};
use http::{Request, Response};
use http_body_util::Full;
use mcp_lang_benches::callgrind::{self, Operation};
use mcp_lang_benches::layer_bodies::{self, PREFERENCE};
use mcp_lang_http::LanguageLayer;
use tower_layer::Layer;
use tower_service::Service;

/// A trivial MCP service: answers every request with the same small JSON-RPC result.
#[derive(Clone)]
struct Trivial;

impl Service<Request<Full<Bytes>>> for Trivial {
    type Response = Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Ready<Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: Request<Full<Bytes>>) -> Self::Future {
        let body = Bytes::from_static(layer_bodies::RESPONSE.as_bytes());
        let mut response = Response::new(Full::new(body));
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        ready(Ok(response))
    }
}

/// The request body: `mcp_lang_benches::layer_bodies::request_1k`.
fn body_1k() -> Bytes {
    Bytes::from(layer_bodies::request_1k())
}

fn request(body: &Bytes) -> Request<Full<Bytes>> {
    let mut request = Request::post("/mcp")
        .header(CONTENT_TYPE, "application/json")
        .body(Full::new(body.clone()))
        .unwrap_or_default();
    request
        .headers_mut()
        .insert(ACCEPT_LANGUAGE, HeaderValue::from_static(PREFERENCE));
    request
}

/// Polls a future that is ready at once.
fn now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("every future here is ready at once"),
    }
}

fn call<S: Service<Request<Full<Bytes>>>>(service: &mut S, body: &Bytes) -> S::Response {
    let mut cx = Context::from_waker(Waker::noop());
    match service.poll_ready(&mut cx) {
        Poll::Ready(Ok(())) => {}
        _ => unreachable!("the services here are always ready"),
    }
    match now(service.call(request(body))) {
        Ok(response) => response,
        Err(_) => unreachable!("the services here never fail"),
    }
}

fn http_layer(c: &mut Criterion) {
    let body = body_1k();

    // The layer must really be doing its work: check the answer once.
    let mut layered = LanguageLayer::new().layer(Trivial);
    let response = call(&mut layered, &body);
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-language"], "fr-CA");
    assert_eq!(response.headers()["vary"], "Accept-Language");

    let mut group = c.benchmark_group("http-layer/1k-body");
    group.bench_function("mcp-lang", |b| {
        b.iter(|| black_box(call(&mut layered, black_box(&body))))
    });
    let mut bare = Trivial;
    group.bench_function("no-layer", |b| {
        b.iter(|| black_box(call(&mut bare, black_box(&body))))
    });
    group.finish();
}

criterion_group!(benches, http_layer);

/// The operations `--callgrind` counts (see `mcp_lang_benches::callgrind`): one request
/// through the layer (`http-layer/1k-body/mcp-lang`) and through the service alone
/// (`http-layer/1k-body/no-layer`); the difference is the layer's own cost per request.
fn operations(body: &Bytes) -> Vec<Operation<'_>> {
    let mut layered = LanguageLayer::new().layer(Trivial);
    let mut bare = Trivial;
    vec![
        Operation::new("http-layer/1k-body/mcp-lang", None, move || {
            usize::from(call(&mut layered, black_box(body)).status().as_u16())
        }),
        Operation::new("http-layer/1k-body/no-layer", None, move || {
            usize::from(call(&mut bare, black_box(body)).status().as_u16())
        }),
    ]
}

fn main() {
    let body = body_1k();
    if callgrind::hook(|| operations(&body)) {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
