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
