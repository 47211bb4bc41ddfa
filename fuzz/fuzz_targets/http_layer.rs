//! The SEP-2792 tower layer (`mcp-lang-http`) on arbitrary `Accept-Language` field lines
//! and request bodies, around a trivial inner service: it never panics, and it answers
//! 400 / -32020 exactly when the `_meta` value and the field lines disagree, 413 exactly
//! when the body is over the limit, and otherwise forwards the same body bytes.
//!
//! The expected agreement is computed here independently: the body parsed by
//! `serde_json` into a `Value`, the lines trimmed of SP/HTAB and joined with ", ".
#![no_main]

use mcp_lang_http::ACCEPT_LANGUAGE_KEY;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::{Future, Ready, ready};
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http::header::{ACCEPT_LANGUAGE, CONTENT_TYPE, HeaderValue};
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use libfuzzer_sys::fuzz_target;
use mcp_lang_http::{LanguageLayer, LanguagePreference};
use serde_json::{Value, json, value::RawValue};
use tower_layer::Layer;
use tower_service::Service;

/// Answers 200 with a fixed JSON-RPC result, after checking what the layer forwarded.
#[derive(Clone)]
struct Inner {
    expected_body: Bytes,
}

impl Service<Request<Full<Bytes>>> for Inner {
    type Response = Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Ready<Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Full<Bytes>>) -> Self::Future {
        assert!(request.extensions().get::<LanguagePreference>().is_some());
        let body = now(request.into_body().collect()).map(|c| c.to_bytes());
        assert_eq!(
            body.ok().as_ref(),
            Some(&self.expected_body),
            "body forwarded unchanged"
        );
        let mut response = Response::new(Full::new(Bytes::from_static(
            br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}"#,
        )));
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        ready(Ok(response))
    }
}

fn now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the layer waited on a body and service that are ready"),
    }
}

fn trim(line: &[u8]) -> &[u8] {
    let is_ows = |b: &u8| *b == b' ' || *b == b'\t';
    let start = line.iter().position(|b| !is_ows(b)).unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !is_ows(b))
        .map_or(start, |i| i + 1);
    &line[start..end]
}

fuzz_target!(|data: &[u8]| {
    // Layout: flags byte (bits 0-2: number of field lines, bit 3: build a JSON body
    // around a _meta string, bit 4: a small body limit), then segments split on '\n':
    // the field lines, then the _meta string (bit 3) or the raw body (the rest).
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let n_lines = usize::from(flags & 7);
    let mut segments = rest.split(|&b| b == b'\n');
    let mut lines: Vec<HeaderValue> = Vec::new();
    for _ in 0..n_lines {
        // Field lines that cannot be header values never reach a server.
        if let Some(Ok(value)) = segments.next().map(HeaderValue::from_bytes) {
            lines.push(value);
        }
    }
    let remainder: Vec<&[u8]> = segments.collect();
    let body: Bytes = if flags & 8 != 0 {
        let meta = String::from_utf8_lossy(remainder.first().copied().unwrap_or_default());
        json!({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{ACCEPT_LANGUAGE_KEY: meta}}})
            .to_string()
            .into()
    } else {
        remainder.join(&b'\n').into()
    };
    let limit = if flags & 16 != 0 {
        data.len() / 2
    } else {
        1 << 20
    };

    let mut request = Request::post("/mcp")
        .header(CONTENT_TYPE, "application/json")
        .body(Full::new(body.clone()))
        .expect("a valid request");
    for line in &lines {
        request.headers_mut().append(ACCEPT_LANGUAGE, line.clone());
    }
    let mut service = LanguageLayer::new().body_limit(limit).layer(Inner {
        expected_body: body.clone(),
    });
    let response = match now(service.call(request)) {
        Ok(response) => response,
        Err(never) => match never {},
    };
    let status = response.status();
    let answer = now(response.into_body().collect())
        .map(|c| c.to_bytes())
        .unwrap_or_default();

    if body.len() > limit {
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        return;
    }

    let Ok(message) = serde_json::from_slice::<Value>(&body) else {
        // Not JSON for serde_json: the MCP server answers the parse error itself. (The
        // layer's skimmer accepts a few texts serde_json refuses, such as out-of-range
        // numbers, so either answer is allowed; a 400 is still a -32020.)
        assert!(status == StatusCode::OK || status == StatusCode::BAD_REQUEST);
        if status == StatusCode::BAD_REQUEST {
            let error: Value = serde_json::from_slice(&answer).expect("a JSON error body");
            assert_eq!(error["error"]["code"], -32020);
        }
        return;
    };
    let meta = message
        .get("params")
        .filter(|p| p.is_object())
        .and_then(|p| p.get("_meta"))
        .filter(|m| m.is_object())
        .and_then(|m| m.get(ACCEPT_LANGUAGE_KEY));
    let mut joined = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            joined.extend_from_slice(b", ");
        }
        joined.extend_from_slice(trim(line.as_bytes()));
    }
    let mismatch = !lines.is_empty()
        && match meta {
            None => false,
            Some(Value::String(s)) => s.as_bytes() != joined.as_slice(),
            Some(_) => true,
        };

    if mismatch {
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let error: Value = serde_json::from_slice(&answer).expect("a JSON error body");
        assert_eq!(error["jsonrpc"], "2.0");
        assert_eq!(error["error"]["code"], -32020);
        // The id exactly as the client wrote it (a string or a number, `1e2` and
        // 20-digit integers included), else `null`: compared as raw JSON text.
        let sent = raw_id(&body);
        let echoed = raw_id(&answer).expect("the error has an id member");
        match sent.as_deref() {
            Some(id)
                if id.starts_with(['"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) =>
            {
                assert_eq!(echoed, id);
            }
            _ => assert_eq!(echoed, "null"),
        }
    } else {
        assert_eq!(status, StatusCode::OK);
    }
});

/// The raw text of a JSON object's top-level `id` (the last one, as the layer reads
/// duplicates), or `None` when the text is not an object or has no `id`.
fn raw_id(json: &[u8]) -> Option<String> {
    let members: BTreeMap<String, Box<RawValue>> = serde_json::from_slice(json).ok()?;
    members.get("id").map(|id| id.get().to_owned())
}
