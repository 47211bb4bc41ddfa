//! The layer in a real axum server on 127.0.0.1, talked to by a real HTTP/1.1 client
//! (hyper) and, where a client would merge or clean up field lines, by a raw request
//! written on a TCP socket.
//!
//! Covers the SEP-2792 sections "Presence and mismatch" and "Caching", the exact
//! agreement edge cases of its Conformance list (item 7), and the crate's SSE rule.

use std::net::SocketAddr;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use axum::routing::post;
use bytes::Bytes;
use http::header::{ACCEPT_LANGUAGE, CACHE_CONTROL, CONTENT_LANGUAGE, CONTENT_TYPE, VARY};
use http::{HeaderMap, HeaderValue, Method, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use mcp_lang_http::{
    CONTENT_LANGUAGE_KEY, EventStreamLanguage, LanguageLayer, LanguagePreference,
    check_json_response, set_accept_language,
};
use mcp_lang_match::Negotiator;
use mcp_lang_meta::RequestLanguage;
use serde_json::{Value, json};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

const BODY_LIMIT: usize = 16 * 1024;

/// The language a toy server would pick: the first two letters of the raw preference
/// when they are `fr` or `de`, else `en`. (Negotiation is not this crate's job.)
fn pick(raw: Option<&str>) -> &'static str {
    match raw.and_then(|r| r.get(..2)) {
        Some("fr") => "fr",
        Some("de") => "de",
        _ => "en",
    }
}

fn json_builder() -> http::response::Builder {
    Response::builder().header(CONTENT_TYPE, "application/json")
}

/// The inner MCP "server": answers by method, and reports what the layer told it.
async fn mcp(request: Request) -> Response {
    let preference = request.extensions().get::<LanguagePreference>().cloned();
    let request_language = request.extensions().get::<RequestLanguage>().cloned();
    // Every `Accept-Language` field line as the server received it.
    let lines: Vec<String> = request
        .headers()
        .get_all(ACCEPT_LANGUAGE)
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect();
    let bytes = request
        .into_body()
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    let message: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    let raw = preference.as_ref().and_then(|p| p.raw());
    let lang = pick(raw);
    let selected = request_language.as_ref().map(|l| l.selected().to_owned());
    let saw = json!({
        "hasExtension": preference.is_some(),
        "selected": selected,
        "raw": raw,
        "agreement": preference.as_ref().map(|p| p.agreement().as_str()),
        "bodyLen": bytes.len(),
        "acceptLanguageLines": lines,
        "_meta": { CONTENT_LANGUAGE_KEY: lang },
    });
    let ok = json!({ "jsonrpc": "2.0", "id": id, "result": saw });
    let builder = json_builder();
    let (builder, body) = match method {
        "test/error" => (
            builder,
            json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": -32602, "message": "localized", "data": {"_meta": {CONTENT_LANGUAGE_KEY: lang}}}}),
        ),
        "test/vary-origin" => (builder.header(VARY, "Origin"), ok),
        "test/vary-star" => (builder.header(VARY, "*"), ok),
        "test/public" => (builder.header(CACHE_CONTROL, "public, max-age=300"), ok),
        "test/stale-header" => (
            builder
                .header(CONTENT_LANGUAGE, "xx")
                .header(CONTENT_LANGUAGE, "yy"),
            ok,
        ),
        "test/sse" | "test/sse-mixed" => {
            let second = if method == "test/sse" { lang } else { "ja" };
            let events = format!(
                "event: message\ndata: {}\n\nevent: message\ndata: {}\n\n",
                json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"message":"…","_meta":{CONTENT_LANGUAGE_KEY: lang}}}),
                json!({"jsonrpc":"2.0","id":id,"result":{"_meta":{CONTENT_LANGUAGE_KEY: second}}}),
            );
            return Response::builder()
                .header(CONTENT_TYPE, "text/event-stream")
                .header(CONTENT_LANGUAGE, lang)
                .body(Body::from(events))
                .unwrap_or_default();
        }
        _ => (builder, ok),
    };
    builder
        .body(Body::from(body.to_string()))
        .unwrap_or_default()
}

async fn get_stream() -> Response {
    Response::builder()
        .header(CONTENT_TYPE, "text/event-stream")
        .body(Body::from(": keep-alive\n\n"))
        .unwrap_or_default()
}

/// Starts the server with the given layer and returns its address.
async fn serve(layer: LanguageLayer) -> SocketAddr {
    let app = Router::new()
        .route("/mcp", post(mcp).get(get_stream).delete(get_stream))
        .layer(layer);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}

async fn server() -> SocketAddr {
    serve(LanguageLayer::new().body_limit(BODY_LIMIT)).await
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    fn lines(&self, name: http::header::HeaderName) -> Vec<String> {
        self.headers
            .get_all(name)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect()
    }
}

/// One request with hyper's HTTP/1.1 client on a fresh connection.
async fn send(addr: SocketAddr, method: Method, headers: HeaderMap, body: String) -> Answer {
    let mut request = http::Request::builder()
        .method(method)
        .uri("/mcp")
        .header("host", addr.to_string())
        .header(CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body)))
        .unwrap();
    for (name, value) in &headers {
        request.headers_mut().append(name, value.clone());
    }
    exchange(addr, request, None).await
}

/// Sends `request` with hyper's HTTP/1.1 client, or, given `raw`, writes those
/// bytes in its place (field lines no client library would send: control
/// characters, a chunked body cut into odd pieces); hyper reads the answer
/// either way.
async fn exchange(
    addr: SocketAddr,
    request: http::Request<Full<Bytes>>,
    raw: Option<Vec<u8>>,
) -> Answer {
    let stream = TcpStream::connect(addr).await.unwrap();
    let io = RawRequest {
        stream,
        raw: raw.map(|bytes| (bytes, 0)),
    };
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(io))
        .await
        .unwrap();
    tokio::spawn(conn);
    let response = sender.send_request(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let body = body.collect().await.unwrap().to_bytes();
    Answer {
        status: parts.status,
        headers: parts.headers,
        body,
    }
}

/// A connection whose request, when `raw` is given, is those bytes: what the
/// client writes is dropped, and `raw` is written in its place.
struct RawRequest {
    stream: TcpStream,
    /// The bytes to write, and how many are written.
    raw: Option<(Vec<u8>, usize)>,
}

impl RawRequest {
    fn write_raw(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let Some((bytes, written)) = &mut self.raw else {
            return Poll::Ready(Ok(()));
        };
        while *written < bytes.len() {
            let rest = bytes.get(*written..).unwrap_or_default();
            *written += ready!(Pin::new(&mut self.stream).poll_write(cx, rest))?;
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for RawRequest {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for RawRequest {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        if self.raw.is_none() {
            return Pin::new(&mut self.stream).poll_write(cx, buf);
        }
        ready!(self.write_raw(cx))?;
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        ready!(self.write_raw(cx))?;
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

fn message(id: Value, method: &str, preference: Option<Value>) -> String {
    let mut params = json!({});
    if let Some(p) = preference {
        params = json!({"_meta": {"io.modelcontextprotocol/acceptLanguage": p}});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn accept_language(lines: &[&'static str]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for line in lines {
        h.append(ACCEPT_LANGUAGE, HeaderValue::from_static(line));
    }
    h
}

async fn post_json(addr: SocketAddr, lines: &[&'static str], body: String) -> Answer {
    send(addr, Method::POST, accept_language(lines), body).await
}

/// Writes `head` and `body` on a raw socket; hyper reads the answer.
async fn raw(addr: SocketAddr, head: &str, body: &[u8]) -> Answer {
    let mut bytes = head.as_bytes().to_vec();
    bytes.extend_from_slice(body);
    let placeholder = http::Request::post("/mcp")
        .header("host", addr.to_string())
        .body(Full::default())
        .unwrap();
    exchange(addr, placeholder, Some(bytes)).await
}

/// POSTs `body` without a `Content-Length`, in chunks of `piece` bytes, after
/// `header_lines` (each ending in CRLF).
async fn post_chunked(addr: SocketAddr, header_lines: &str, body: &[u8], piece: usize) -> Answer {
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{header_lines}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    let mut chunked = Vec::new();
    for piece in body.chunks(piece) {
        chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        chunked.extend_from_slice(piece);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    raw(addr, &head, &chunked).await
}

fn raw_head(addr: SocketAddr, header_lines: &str, body: &[u8]) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{header_lines}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
}

fn assert_mismatch(answer: &Answer, id: Value) {
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let body = answer.json();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], id);
    assert_eq!(body["error"]["code"], -32020);
    assert!(body.get("result").is_none());
    assert_eq!(answer.lines(VARY), ["Accept-Language"]);
}

// ---- Presence and mismatch ---------------------------------------------------------

#[tokio::test]
async fn agreeing_header_is_accepted_and_mirrored() {
    let addr = server().await;
    let a = post_json(
        addr,
        &["fr-CA,fr;q=0.9,en;q=0.5"],
        message(
            json!(1),
            "tools/list",
            Some(json!("fr-CA,fr;q=0.9,en;q=0.5")),
        ),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    let body = a.json();
    assert_eq!(body["result"]["raw"], "fr-CA,fr;q=0.9,en;q=0.5");
    assert_eq!(body["result"]["agreement"], "agreed");
    assert_eq!(a.lines(CONTENT_LANGUAGE), ["fr"]);
    assert_eq!(a.lines(VARY), ["Accept-Language"]);
    assert!(a.headers.get(CACHE_CONTROL).is_none());
    assert_eq!(
        check_json_response(&a.headers, &a.body).unwrap().as_str(),
        Some("fr")
    );
}

#[tokio::test]
async fn missing_header_is_tolerated_and_made_private() {
    let addr = server().await;
    let a = post_json(
        addr,
        &[],
        message(json!(2), "tools/list", Some(json!("de"))),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.json()["result"]["raw"], "de");
    assert_eq!(a.json()["result"]["agreement"], "header-missing");
    assert_eq!(a.lines(CONTENT_LANGUAGE), ["de"]);
    assert_eq!(a.lines(CACHE_CONTROL), ["private"]);
    assert_eq!(a.lines(VARY), ["Accept-Language"]);
}

#[tokio::test]
async fn mismatch_is_400_with_json_rpc_error_echoing_the_id() {
    let addr = server().await;
    let a = post_json(
        addr,
        &["en-us"],
        message(json!(7), "tools/list", Some(json!("en-US"))),
    )
    .await;
    assert_mismatch(&a, json!(7));
    let data = &a.json()["error"]["data"];
    assert_eq!(data["metaValue"], "en-US");
    assert_eq!(data["headerValue"], "en-us");
    assert_eq!(data["header"], "Accept-Language");
    let message_text = a.json()["error"]["message"].as_str().unwrap().to_owned();
    assert!(message_text.contains("en-US") && message_text.contains("en-us"));

    let a = post_json(
        addr,
        &["fr"],
        message(json!("req-α"), "tools/list", Some(json!("de"))),
    )
    .await;
    assert_mismatch(&a, json!("req-α"));
}

#[tokio::test]
async fn exact_agreement_edge_cases_from_the_conformance_list() {
    let addr = server().await;
    for (meta, line) in [
        ("en-US", "en-us"),
        ("en-US,en;q=0.9", "en-US, en;q=0.9"),
        ("en;q=0.9", "en;q=0.900"),
    ] {
        let a = send(
            addr,
            Method::POST,
            {
                let mut h = HeaderMap::new();
                h.insert(ACCEPT_LANGUAGE, HeaderValue::from_str(line).unwrap());
                h
            },
            message(json!(3), "tools/list", Some(json!(meta))),
        )
        .await;
        assert_mismatch(&a, json!(3));
    }
}

#[tokio::test]
async fn surrounding_whitespace_on_the_wire_is_not_part_of_the_value() {
    let addr = server().await;
    let body = message(json!(4), "tools/list", Some(json!("en")));
    let a = raw(
        addr,
        &raw_head(addr, "Accept-Language:  en \r\n", body.as_bytes()),
        body.as_bytes(),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.json()["result"]["agreement"], "agreed");
    assert_eq!(a.lines(CONTENT_LANGUAGE), ["en"]);
}

#[tokio::test]
async fn two_field_lines_on_the_wire_combine_with_comma_space() {
    let addr = server().await;
    let lines = "Accept-Language: en-US\r\nAccept-Language: en;q=0.9\r\n";

    let body = message(json!(5), "tools/list", Some(json!("en-US, en;q=0.9")));
    let a = raw(
        addr,
        &raw_head(addr, lines, body.as_bytes()),
        body.as_bytes(),
    )
    .await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    assert_eq!(a.json()["result"]["raw"], "en-US, en;q=0.9");

    for other in ["en-US,en;q=0.9", "en-US", "en;q=0.9", "en-US, en;q=0.9, "] {
        let body = message(json!(6), "tools/list", Some(json!(other)));
        let a = raw(
            addr,
            &raw_head(addr, lines, body.as_bytes()),
            body.as_bytes(),
        )
        .await;
        assert_mismatch(&a, json!(6));
        assert_eq!(a.json()["error"]["data"]["headerValue"], "en-US, en;q=0.9");
        assert_eq!(a.json()["error"]["data"]["fieldLines"], 2);
    }
}

#[tokio::test]
async fn a_conflicting_second_line_cannot_hide() {
    let addr = server().await;
    let body = message(json!(8), "tools/list", Some(json!("fr")));
    let lines = "Accept-Language: fr\r\nAccept-Language: de\r\n";
    let a = raw(
        addr,
        &raw_head(addr, lines, body.as_bytes()),
        body.as_bytes(),
    )
    .await;
    assert_mismatch(&a, json!(8));
}

#[tokio::test]
async fn bare_header_is_ignored() {
    let addr = server().await;
    let a = post_json(addr, &["fr"], message(json!(9), "tools/list", None)).await;
    assert_eq!(a.status, StatusCode::OK);
    let result = &a.json()["result"];
    assert_eq!(result["raw"], Value::Null);
    assert_eq!(result["agreement"], "bare-header");
    // The toy server falls back to its default: the header created no preference.
    assert_eq!(a.lines(CONTENT_LANGUAGE), ["en"]);
    assert!(a.headers.get(CACHE_CONTROL).is_none());
}

#[tokio::test]
async fn malformed_but_agreeing_value_is_accepted_and_not_an_error() {
    let addr = server().await;
    for value in ["en;q=2", "not a ;; range", "en;q=0.1234", ""] {
        let mut h = HeaderMap::new();
        h.insert(ACCEPT_LANGUAGE, HeaderValue::from_str(value).unwrap());
        let a = send(
            addr,
            Method::POST,
            h,
            message(json!(10), "tools/list", Some(json!(value))),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{value:?}");
        assert_eq!(a.json()["result"]["agreement"], "agreed");
        assert_eq!(a.json()["result"]["raw"], value);
    }
}

#[tokio::test]
async fn non_string_meta_beside_a_header_disagrees() {
    let addr = server().await;
    for meta in [json!(null), json!(["en"]), json!(1)] {
        let a = post_json(addr, &["en"], message(json!(11), "tools/list", Some(meta))).await;
        assert_mismatch(&a, json!(11));
        assert_eq!(a.json()["error"]["data"]["metaIsString"], false);
    }
    // Without a header there is nothing to disagree with, and no preference.
    let a = post_json(addr, &[], message(json!(12), "tools/list", Some(json!(42)))).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.json()["result"]["agreement"], "no-preference");
    assert!(a.headers.get(CACHE_CONTROL).is_none());
}

#[tokio::test]
async fn error_responses_are_mirrored_from_error_data_meta() {
    let addr = server().await;
    let a = post_json(
        addr,
        &["de"],
        message(json!(13), "test/error", Some(json!("de"))),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.json()["error"]["code"], -32602);
    assert_eq!(a.lines(CONTENT_LANGUAGE), ["de"]);
    assert!(check_json_response(&a.headers, &a.body).is_ok());
}

#[tokio::test]
async fn content_language_is_exactly_one_line_replacing_handler_lines() {
    let addr = server().await;
    let a = post_json(
        addr,
        &["fr"],
        message(json!(14), "test/stale-header", Some(json!("fr"))),
    )
    .await;
    assert_eq!(a.lines(CONTENT_LANGUAGE), ["fr"]);
}

#[tokio::test]
async fn the_body_reaches_the_handler_unchanged() {
    let addr = server().await;
    let body = message(json!(15), "tools/list", Some(json!("en")));
    let a = post_json(addr, &["en"], body.clone()).await;
    assert_eq!(a.json()["result"]["bodyLen"], body.len());
}

// ---- Caching -------------------------------------------------------------------------

#[tokio::test]
async fn vary_merges_with_an_existing_vary() {
    let addr = server().await;
    let a = post_json(
        addr,
        &["en"],
        message(json!(20), "test/vary-origin", Some(json!("en"))),
    )
    .await;
    assert_eq!(a.lines(VARY), ["Origin, Accept-Language"]);
    let a = post_json(
        addr,
        &["en"],
        message(json!(21), "test/vary-star", Some(json!("en"))),
    )
    .await;
    assert_eq!(a.lines(VARY), ["*"]);
}

#[tokio::test]
async fn stripped_header_turns_public_into_private() {
    let addr = server().await;
    let a = post_json(
        addr,
        &[],
        message(json!(22), "test/public", Some(json!("fr"))),
    )
    .await;
    assert_eq!(a.lines(CACHE_CONTROL), ["private, max-age=300"]);
    // With the header present, a shared cache can see the language: left public.
    let a = post_json(
        addr,
        &["fr"],
        message(json!(23), "test/public", Some(json!("fr"))),
    )
    .await;
    assert_eq!(a.lines(CACHE_CONTROL), ["public, max-age=300"]);
    assert_eq!(a.lines(VARY), ["Accept-Language"]);
}

#[tokio::test]
async fn different_preferences_give_different_variants_each_with_vary() {
    let addr = server().await;
    let mut seen = Vec::new();
    for pref in ["fr", "de", "en"] {
        let mut h = HeaderMap::new();
        set_accept_language(&mut h, pref).unwrap();
        let a = send(
            addr,
            Method::POST,
            h,
            message(json!(24), "tools/list", Some(json!(pref))),
        )
        .await;
        assert_eq!(a.lines(VARY), ["Accept-Language"]);
        seen.push(a.lines(CONTENT_LANGUAGE));
    }
    assert_eq!(seen, [["fr"], ["de"], ["en"]]);
}

#[tokio::test]
async fn other_methods_pass_through_with_vary() {
    let addr = server().await;
    for method in [Method::GET, Method::DELETE] {
        let a = send(addr, method, accept_language(&["fr"]), String::new()).await;
        assert_eq!(a.status, StatusCode::OK);
        assert_eq!(a.lines(VARY), ["Accept-Language"]);
        assert!(a.headers.get(CONTENT_LANGUAGE).is_none());
    }
}

// ---- Server-Sent Events ----------------------------------------------------------------

fn sse_messages(body: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(body)
        .lines()
        .filter_map(|l| l.strip_prefix("data: ").map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn event_stream_content_language_is_dropped_by_default() {
    let addr = server().await;
    let a = post_json(
        addr,
        &["de"],
        message(json!(30), "test/sse", Some(json!("de"))),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(a.headers.get(CONTENT_LANGUAGE).is_none());
    assert_eq!(a.lines(VARY), ["Accept-Language"]);
    // Each message still carries its own contentLanguage.
    let stream = EventStreamLanguage::from_headers(&a.headers);
    let messages = sse_messages(&a.body);
    assert_eq!(messages.len(), 2);
    for m in &messages {
        assert_eq!(
            stream.check_message(m.as_bytes()).unwrap().as_str(),
            Some("de")
        );
    }
}

#[tokio::test]
async fn a_kept_event_stream_header_is_checked_against_every_message() {
    let addr = serve(LanguageLayer::new().keep_event_stream_content_language(true)).await;
    let a = post_json(
        addr,
        &["fr"],
        message(json!(31), "test/sse", Some(json!("fr"))),
    )
    .await;
    assert_eq!(a.lines(CONTENT_LANGUAGE), ["fr"]);
    let stream = EventStreamLanguage::from_headers(&a.headers);
    assert!(stream.is_declared());
    for m in sse_messages(&a.body) {
        assert!(stream.check_message(m.as_bytes()).is_ok());
    }

    // A handler that promised one language and broke the promise: the client sees it.
    let a = post_json(
        addr,
        &["fr"],
        message(json!(32), "test/sse-mixed", Some(json!("fr"))),
    )
    .await;
    let stream = EventStreamLanguage::from_headers(&a.headers);
    let results: Vec<_> = sse_messages(&a.body)
        .iter()
        .map(|m| stream.check_message(m.as_bytes()).is_ok())
        .collect();
    assert_eq!(results, [true, false]);
}

// ---- Limits ----------------------------------------------------------------------------

#[tokio::test]
async fn oversized_body_is_413_with_a_clear_message() {
    let addr = server().await;
    let padding = "x".repeat(BODY_LIMIT);
    let body = json!({"jsonrpc":"2.0","id":40,"method":"tools/list",
        "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"},"pad":padding}})
    .to_string();
    // Mismatching header: were the check skipped, this would not be a 400 either; the
    // layer refuses to forward what it cannot check.
    let a = post_json(addr, &["fr"], body.clone()).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    let json = a.json();
    assert_eq!(json["jsonrpc"], "2.0");
    assert_eq!(json["error"]["data"]["limit"], BODY_LIMIT);
    assert!(json["error"]["message"].as_str().unwrap().contains("limit"));

    // The same without a Content-Length: a chunked body that grows past the limit.
    let a = post_chunked(addr, "", body.as_bytes(), 4096).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn a_body_at_the_limit_is_checked_and_forwarded() {
    let addr = server().await;
    let skeleton = message(json!(41), "tools/list", Some(json!("en")));
    let pad = BODY_LIMIT - skeleton.len() - r#","pad":"""#.len();
    let body = skeleton.replacen(
        "\"params\":{",
        &format!("\"params\":{{\"pad\":\"{}\",", "y".repeat(pad)),
        1,
    );
    assert_eq!(body.len(), BODY_LIMIT);
    let a = post_json(addr, &["en"], body).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.json()["result"]["bodyLen"], BODY_LIMIT);
}

#[tokio::test]
async fn a_body_in_several_chunks_is_read_whole() {
    let addr = server().await;
    let body = message(json!(42), "tools/list", Some(json!("de")));
    let a = post_chunked(addr, "Accept-Language: de\r\n", body.as_bytes(), 7).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.json()["result"]["bodyLen"], body.len());
    assert_eq!(a.json()["result"]["raw"], "de");
}

// ---- Negotiation and the client side ----------------------------------------------------

#[tokio::test]
async fn the_layer_can_negotiate_for_the_handler() {
    let negotiator = Negotiator::new(["en", "fr", "fr-CA", "de"], "en").unwrap();
    let addr = serve(LanguageLayer::new().negotiator(Arc::new(negotiator))).await;
    let cases = [
        (Some("fr-CA,fr;q=0.9,en;q=0.5"), "fr-CA"),
        (Some("de-AT, en;q=0.1"), "de"),
        (Some("ja"), "en"),
        (Some("fr;q=2"), "en"), // malformed: ignored as absent, no error
        (None, "en"),
    ];
    for (preference, selected) in cases {
        let mut headers = HeaderMap::new();
        if let Some(p) = preference {
            set_accept_language(&mut headers, p).unwrap();
        }
        let a = send(
            addr,
            Method::POST,
            headers,
            message(json!(50), "tools/list", preference.map(Value::from)),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{preference:?}");
        assert_eq!(a.json()["result"]["selected"], selected, "{preference:?}");
    }
}

/// "A Streamable HTTP client that sends acceptLanguage MUST send an
/// Accept-Language field whose value agrees exactly with it." What
/// `set_accept_language` builds arrives as one line equal to `_meta`, a
/// library default replaced, and agrees.
#[tokio::test]
async fn a_client_that_mirrors_with_set_accept_language_always_agrees() {
    let addr = server().await;
    for preference in [
        "en-US, en;q=0.9",
        "*",
        "en-US,en",
        "de-CH;q=1.0 ,  de;q=0.5",
        "fr-CA,fr;q=0.9,en;q=0.5",
        "de;q=0.900",
        "",
    ] {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("zz")); // a library default
        set_accept_language(&mut headers, preference).unwrap();
        let a = send(
            addr,
            Method::POST,
            headers,
            message(json!(51), "tools/list", Some(json!(preference))),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{preference:?}");
        assert_eq!(a.json()["result"]["agreement"], "agreed");
        assert_eq!(
            a.json()["result"]["acceptLanguageLines"],
            json!([preference])
        );
        assert!(check_json_response(&a.headers, &a.body).is_ok());
    }
}

#[tokio::test]
async fn a_mismatch_without_an_id_echoes_null() {
    let addr = server().await;
    let body = json!({"jsonrpc":"2.0","method":"notifications/initialized",
        "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}})
    .to_string();
    let a = post_json(addr, &["fr"], body).await;
    assert_mismatch(&a, Value::Null);
}

/// Every error the layer writes echoes the id exactly as the client wrote it: any
/// JSON string or number, even one that `serde_json::Value` would rewrite.
#[tokio::test]
async fn a_mismatch_echoes_the_id_as_written() {
    let addr = server().await;
    for id in [
        "1e2",
        "1.50",
        "-0",
        "18446744073709551616",
        "-9223372036854775809",
        r#""a\u00e9b""#,
        "7",
    ] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/acceptLanguage":"en"}}}}}}"#
        );
        let a = post_json(addr, &["fr"], body).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{id}");
        let text = std::str::from_utf8(&a.body).unwrap();
        assert!(
            text.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"error":"#)),
            "{id}: {text}"
        );
    }
    // Not a string or a number: `null`.
    for id in ["null", "[1]", r#"{"a":1}"#, "true"] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/acceptLanguage":"en"}}}}}}"#
        );
        let a = post_json(addr, &["fr"], body).await;
        assert_mismatch(&a, Value::Null);
    }
}

#[tokio::test]
async fn a_json_response_over_the_response_limit_is_a_500_saying_so() {
    let addr = serve(LanguageLayer::new().response_limit(64)).await;
    let body = r#"{"jsonrpc":"2.0","id":6e1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}}"#;
    let a = post_json(addr, &["en"], body.to_owned()).await;
    assert_eq!(a.status, StatusCode::INTERNAL_SERVER_ERROR);
    let text = std::str::from_utf8(&a.body).unwrap();
    assert!(text.contains(r#""id":6e1"#), "{text}");
    let body = a.json();
    assert_eq!(body["error"]["code"], -32603);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("64-byte limit")
    );
}

// ---- The shared agreement cases, replayed on the wire --------------------------------

/// Every case of `testdata/agree/*.json` (the language-neutral agreement cases), sent as
/// a real request: `_meta` in the body (absent when the case's `meta` is null), each
/// line as its own `Accept-Language` field line on the socket. A mismatch must be a
/// 400 / -32020; anything else must reach the handler with the matching outcome.
#[tokio::test]
async fn testdata_agreement_cases_on_the_wire() {
    let addr = server().await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/agree");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut replayed = 0;
    for file in files {
        let suite: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        for case in suite["cases"].as_array().unwrap() {
            let name = case["name"].as_str().unwrap();
            let request = &case["request"];
            let meta = &request["meta"];
            let lines: Vec<&str> = request["lines"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            let preference = (!meta.is_null()).then(|| meta.clone());
            let body = message(json!(name), "tools/list", preference);
            let header_lines: String = lines
                .iter()
                .map(|l| format!("Accept-Language: {l}\r\n"))
                .collect();
            let a = raw(
                addr,
                &raw_head(addr, &header_lines, body.as_bytes()),
                body.as_bytes(),
            )
            .await;
            let expected = case["response"]["agreement"].as_str().unwrap();
            // A line with a control character other than HTAB is not a field value
            // (RFC 9110 §5.5): hyper answers 400 itself before the layer sees it.
            let unsendable = lines
                .iter()
                .any(|l| l.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f));
            match expected {
                "mismatch" if unsendable => assert_eq!(a.status, StatusCode::BAD_REQUEST, "{name}"),
                "mismatch" => assert_mismatch(&a, json!(name)),
                _ => {
                    assert_eq!(a.status, StatusCode::OK, "{name}");
                    let outcome = match expected {
                        "agree" => "agreed",
                        "bare-header" => "bare-header",
                        "header-absent" if meta.is_string() => "header-missing",
                        "header-absent" => "no-preference",
                        other => panic!("{name}: unknown agreement {other}"),
                    };
                    assert_eq!(a.json()["result"]["agreement"], outcome, "{name}");
                }
            }
            replayed += 1;
        }
    }
    assert!(
        replayed >= 50,
        "only {replayed} cases found in {}",
        dir.display()
    );
}
