//! The per-request checks that do not need to allocate, don't: agreement on the server
//! and on the client, and the header fix-ups in their common case.

use http::header::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE, VARY};
use http::{HeaderMap, HeaderValue};
use mcp_lang_agree::MetaValue;
use mcp_lang_http::{
    RequestAgreement, add_vary_accept_language, check_request, make_private,
    verify_content_language,
};
use mcp_lang_testkit::CountingAllocator;

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::new();

#[test]
fn request_agreement_does_not_allocate() {
    let mut headers = HeaderMap::new();
    headers.append(ACCEPT_LANGUAGE, HeaderValue::from_static("fr-CA"));
    headers.append(
        ACCEPT_LANGUAGE,
        HeaderValue::from_static(" fr;q=0.9, en;q=0.5 "),
    );
    let meta = MetaValue::String("fr-CA, fr;q=0.9, en;q=0.5");
    let (n, answer) = ALLOC.count(|| check_request(&headers, meta));
    assert_eq!(answer, Ok(RequestAgreement::Agreed));
    assert_eq!(n, 0);

    let empty = HeaderMap::new();
    let (n, answer) = ALLOC.count(|| check_request(&empty, meta));
    assert_eq!(answer, Ok(RequestAgreement::HeaderMissing));
    assert_eq!(n, 0);

    let (n, answer) = ALLOC.count(|| check_request(&headers, MetaValue::Absent));
    assert_eq!(answer, Ok(RequestAgreement::BareHeader));
    assert_eq!(n, 0);
}

#[test]
fn response_verification_does_not_allocate() {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static("de"));
    let (n, answer) = ALLOC.count(|| verify_content_language(&headers, MetaValue::String("de")));
    assert!(answer.is_ok());
    assert_eq!(n, 0);
}

#[test]
fn header_fix_ups_do_not_allocate_in_the_common_case() {
    let mut headers = HeaderMap::with_capacity(8);
    let (n, ()) = ALLOC.count(|| {
        add_vary_accept_language(&mut headers);
        make_private(&mut headers);
        // Already there: nothing to do.
        add_vary_accept_language(&mut headers);
        make_private(&mut headers);
    });
    assert_eq!(headers[VARY], "Accept-Language");
    assert_eq!(n, 0);
}

/// What the layer allocates per request, beyond the inner service: printed for the
/// record and bounded so that a regression shows.
#[cfg(feature = "tower")]
#[test]
fn layer_allocations_per_request_are_few_and_bounded() {
    use std::convert::Infallible;
    use std::future::{Ready, ready};
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use bytes::Bytes;
    use http::header::CONTENT_TYPE;
    use http::{Request, Response};
    use http_body_util::Full;
    use mcp_lang_http::LanguageLayer;
    use tower_layer::Layer;
    use tower_service::Service;

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
            let mut response = Response::new(Full::new(Bytes::from_static(
                br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"de"}}}"#,
            )));
            response
                .headers_mut()
                .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
            ready(Ok(response))
        }
    }

    fn run<S: Service<Request<Full<Bytes>>>>(
        service: &mut S,
        request: Request<Full<Bytes>>,
    ) -> S::Response {
        let mut future = pin!(service.call(request));
        match future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Ready(Ok(response)) => response,
            _ => panic!("ready at once"),
        }
    }

    let body = Bytes::from_static(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#,
    );
    let request = || {
        let mut r = Request::post("/mcp").body(Full::new(body.clone())).unwrap();
        r.headers_mut()
            .insert(ACCEPT_LANGUAGE, HeaderValue::from_static("de"));
        r
    };
    let mut bare = Trivial;
    let mut layered = LanguageLayer::new().layer(Trivial);
    // Warm up (lazy statics, thread-locals).
    drop(run(&mut layered, request()));

    let (without, _) = ALLOC.count(|| {
        let r = request();
        drop(run(&mut bare, r))
    });
    let (with, response) = ALLOC.count(|| {
        let r = request();
        run(&mut layered, r)
    });
    assert_eq!(response.headers()[CONTENT_LANGUAGE], "de");
    let extra = with - without;
    println!("allocations per request: {without} without the layer, {with} with it (+{extra})");
    // All three are `http::Extensions` on its first insert: the map, its table, and the
    // boxed `LanguagePreference`. The future is named (not boxed), the raw preference is
    // a slice of the body's `Bytes`, and the body is passed on without a copy.
    assert!(extra <= 3, "the layer made {extra} extra allocations");
}
