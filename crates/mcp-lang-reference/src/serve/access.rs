//! The access log of the HTTP endpoint: one `tracing` line per request at
//! `info` (the JSON-RPC method, the HTTP status, the language chosen), and a
//! `warn` line for each request refused with HeaderMismatch that quotes both
//! values it compared (at most 64 bytes of each, escaped: the layer's own
//! message).

use axum::{
    body::Body,
    extract::Request,
    http::{HeaderMap, StatusCode, header::CONTENT_LANGUAGE},
    middleware::Next,
    response::Response,
};
use serde::Deserialize;

/// The JSON-RPC method of the request a response answers, put in the
/// response's extensions by the middleware that reads the body
/// (`jsonrpc::answer_unreadable_bodies`), for the access log.
#[derive(Clone, Debug)]
pub(crate) struct RpcMethod(pub(crate) Box<str>);

/// The most bytes of a method name or a language the log repeats.
const QUOTE: usize = 64;

/// The largest error body read back to log a HeaderMismatch (the layer's are
/// a few hundred bytes).
const ERROR_BODY_LIMIT: usize = 16 * 1024;

impl RpcMethod {
    /// The `method` of a JSON-RPC message, escaped and cut for a log line;
    /// `None` when the body has none (a response, a batch, not JSON).
    pub(crate) fn of(body: &[u8]) -> Option<RpcMethod> {
        #[derive(Deserialize)]
        struct Shape {
            method: Option<String>,
        }
        let method = serde_json::from_slice::<Shape>(body).ok()?.method?;
        Some(RpcMethod(quote(&method).into()))
    }
}

/// At most [`QUOTE`] bytes of `text`, control characters and non-ASCII
/// escaped (a log line stays one line of plain text whatever a client sent).
fn quote(text: &str) -> String {
    escape(text, QUOTE)
}

/// About `limit` bytes of `text` (then `…`), with everything but printable
/// ASCII escaped as Rust and JSON readers expect (`\n`, `\u{e9}`).
fn escape(text: &str, limit: usize) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if out.len() >= limit {
            out.push('…');
            break;
        }
        if c.is_ascii_graphic() || c == ' ' {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    out
}

fn header_text(headers: &HeaderMap, name: &str) -> String {
    let values: Vec<String> = headers
        .get_all(name)
        .iter()
        .map(|v| quote(&String::from_utf8_lossy(v.as_bytes())))
        .collect();
    if values.is_empty() {
        "-".to_owned()
    } else {
        values.join(", ")
    }
}

/// The axum middleware that logs each request (outermost in the router, so it
/// sees the answers of the SEP-2792 layer too).
pub(crate) async fn log_request(request: Request, next: Next) -> Response {
    let http_method = request.method().clone();
    let header_method = header_text(request.headers(), "mcp-method");
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    let status = response.status();
    let method = match response.extensions().get::<RpcMethod>() {
        Some(RpcMethod(method)) => method.to_string(),
        None => header_method,
    };
    let language = header_text(response.headers(), CONTENT_LANGUAGE.as_str());
    let ms = started.elapsed().as_millis();
    if status != StatusCode::BAD_REQUEST {
        tracing::info!(
            http = %http_method,
            method = %method,
            status = status.as_u16(),
            language = %language,
            ms,
            "request"
        );
        return response;
    }
    // A 400 may be the layer's HeaderMismatch: its JSON-RPC message quotes
    // both values, bounded and escaped. Only a body of known, small size is
    // read (the layer's is); any other passes through untouched.
    let small = http_body::Body::size_hint(response.body())
        .exact()
        .is_some_and(|len| len <= ERROR_BODY_LIMIT as u64);
    if !small {
        tracing::info!(
            http = %http_method,
            method = %method,
            status = status.as_u16(),
            language = %language,
            ms,
            "request"
        );
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, ERROR_BODY_LIMIT).await else {
        // The body failed while being read: nothing is left to answer with.
        tracing::warn!(http = %http_method, method = %method, status = status.as_u16(), "the error body could not be read");
        return Response::from_parts(parts, Body::empty());
    };
    match mismatch_message(&bytes) {
        Some(message) => tracing::warn!(
            http = %http_method,
            method = %method,
            status = status.as_u16(),
            "{message}"
        ),
        None => tracing::info!(
            http = %http_method,
            method = %method,
            status = status.as_u16(),
            language = %language,
            ms,
            "request"
        ),
    }
    Response::from_parts(parts, Body::from(bytes))
}

/// The message of a HeaderMismatch error body (JSON-RPC code -32020).
fn mismatch_message(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let error = value.get("error")?;
    if error.get("code")?.as_i64()? != mcp_lang_http::HEADER_MISMATCH {
        return None;
    }
    // The layer's message quotes at most 64 bytes of each value; escaped
    // again here so that the line is plain ASCII, and cut in case that ever
    // changes.
    let message = error.get("message")?.as_str()?;
    Some(escape(message, 8 * QUOTE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_are_read_escaped_and_cut() {
        let method = |body: &str| RpcMethod::of(body.as_bytes()).map(|m| m.0.to_string());
        assert_eq!(
            method(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).as_deref(),
            Some("tools/list")
        );
        assert_eq!(method(r#"{"method":"a\nb"}"#).as_deref(), Some("a\\nb"));
        assert_eq!(method(r#"{"id":1,"result":{}}"#), None);
        assert_eq!(method("not json"), None);
        let long = format!(r#"{{"method":"{}"}}"#, "x".repeat(1000));
        assert_eq!(method(&long).unwrap().len(), QUOTE + '…'.len_utf8());
    }

    #[test]
    fn only_a_header_mismatch_is_quoted() {
        let body = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Accept-Language \"de\" does not agree"}}"#;
        assert_eq!(
            mismatch_message(body).as_deref(),
            Some("Accept-Language \"de\" does not agree")
        );
        assert_eq!(
            mismatch_message(br#"{"error":{"code":-32600,"message":"x"}}"#),
            None
        );
        assert_eq!(mismatch_message(b""), None);
        let body = r#"{"error":{"code":-32020,"message":"Accept-Language \"dé\"\n"}}"#;
        assert_eq!(
            mismatch_message(body.as_bytes()).as_deref(),
            Some(r#"Accept-Language "d\u{e9}"\n"#)
        );
    }
}
