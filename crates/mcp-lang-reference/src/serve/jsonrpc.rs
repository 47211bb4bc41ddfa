//! The JSON-RPC error for a message rmcp cannot read, shared by the stdio
//! transport and the HTTP endpoint: `-32700` with `"id": null` when the text is
//! not JSON, `-32600` with the id as written when it is JSON but not a message.

use bytes::Bytes;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{error::Category, value::RawValue};

/// JSON-RPC 2.0 "Parse error": the text is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC 2.0 "Invalid Request": JSON, but not a valid message.
pub(crate) const INVALID_REQUEST: i64 = -32600;

/// The most bytes of a parser's own message an error repeats (serde's messages
/// can quote the input, such as an unknown variant's name).
const DETAIL_LIMIT: usize = 256;

/// What an unreadable message was, as far as it can be told.
#[derive(Debug)]
pub(crate) enum Unreadable<'a> {
    /// Not JSON at all (bad syntax, invalid UTF-8, a control character in a
    /// string, nesting over 127 levels, a truncated text).
    NotJson,
    /// JSON with an `id` (or neither an `id`, a `method` nor a result): a
    /// request, answered with the id when it is a string or a number.
    Request(Option<&'a RawValue>),
    /// A `method` and no `id`: a notification, which JSON-RPC never answers.
    Notification,
    /// A `result` or an `error` and no `method`: a response, which JSON-RPC
    /// never answers (an answer to an answer could start an endless exchange
    /// between two peers).
    Response,
}

/// A member that was absent, or present with any value (`null` included).
#[derive(Debug, Default)]
enum Member<'a> {
    #[default]
    Absent,
    Present(&'a RawValue),
}

impl<'de: 'a, 'a> Deserialize<'de> for Member<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <&RawValue>::deserialize(deserializer).map(Member::Present)
    }
}

/// The top-level members that tell a message's kind, borrowed raw; the others
/// are skipped without being built.
#[derive(Deserialize)]
struct Shape<'a> {
    #[serde(default, borrow)]
    id: Member<'a>,
    #[serde(default, borrow)]
    method: Member<'a>,
    #[serde(default, borrow)]
    result: Member<'a>,
    #[serde(default, borrow)]
    error: Member<'a>,
}

/// What `bytes` was, given the error serde_json gave when reading it as a
/// message.
pub(crate) fn classify<'a>(bytes: &'a [u8], error: &serde_json::Error) -> Unreadable<'a> {
    if !matches!(error.classify(), Category::Data) {
        return Unreadable::NotJson;
    }
    // A message type can stop at a wrong value before it has read the whole
    // text: `{"id":1}}` fails as "no such message" before the extra `}` is
    // seen. So the text itself is checked: UTF-8 (RFC 8259 §8.1; serde_json
    // does not check the strings it skips) and one JSON value.
    if std::str::from_utf8(bytes).is_err()
        || serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_err()
    {
        return Unreadable::NotJson;
    }
    if bytes.trim_ascii_start().first() != Some(&b'{') {
        return Unreadable::Request(None);
    }
    // A duplicated top-level member: no id can be told.
    let Ok(shape) = serde_json::from_slice::<Shape<'_>>(bytes) else {
        return Unreadable::Request(None);
    };
    let present = |m: &Member<'_>| matches!(m, Member::Present(_));
    match (&shape.id, &shape.method) {
        (_, Member::Absent) if present(&shape.result) || present(&shape.error) => {
            Unreadable::Response
        }
        (Member::Absent, Member::Present(method)) if method.get().starts_with('"') => {
            Unreadable::Notification
        }
        (Member::Present(id), _) => Unreadable::Request(echo_id(id)),
        (Member::Absent, _) => Unreadable::Request(None),
    }
}

/// The id to echo: a string or a number exactly as written, else `None`
/// (answered with `null`).
fn echo_id(id: &RawValue) -> Option<&RawValue> {
    match id.get().as_bytes().first() {
        Some(b'"' | b'-' | b'0'..=b'9') => Some(id),
        _ => None,
    }
}

#[derive(Serialize)]
struct ErrorResponse<'a> {
    jsonrpc: &'static str,
    id: Option<&'a RawValue>,
    error: ErrorObject<'a>,
}

#[derive(Serialize)]
struct ErrorObject<'a> {
    code: i64,
    message: &'a str,
}

/// The JSON-RPC error response to an unreadable message: `-32700` with
/// `"id": null`, or `-32600` echoing the id; `None` for a notification or a
/// response when `answer_everything` is false (stdio, where nothing must answer
/// them), else `-32600` with `null` for those too (HTTP, where every POST gets
/// an answer). The message names serde_json's reason, cut to a few hundred
/// bytes.
pub(crate) fn error_response(
    bytes: &[u8],
    error: &serde_json::Error,
    answer_everything: bool,
) -> Option<(i64, Bytes)> {
    let (code, id, what) = match classify(bytes, error) {
        Unreadable::NotJson => (PARSE_ERROR, None, "Parse error"),
        Unreadable::Request(id) => (INVALID_REQUEST, id, "Invalid Request"),
        Unreadable::Notification | Unreadable::Response if answer_everything => {
            (INVALID_REQUEST, None, "Invalid Request")
        }
        Unreadable::Notification | Unreadable::Response => return None,
    };
    let reason = error.to_string();
    let message = format!("{what}: {}", cut(&reason, DETAIL_LIMIT));
    let body = ErrorResponse {
        jsonrpc: "2.0",
        id,
        error: ErrorObject {
            code,
            message: &message,
        },
    };
    // Serializing strings and a raw value cannot fail.
    let body = serde_json::to_vec(&body).map(Bytes::from).ok()?;
    Some((code, body))
}

#[cfg(feature = "stdio")]
/// The JSON-RPC error response to a message longer than the transport reads:
/// `-32600` with `"id": null` (the message was not kept, so its id is unknown).
pub(crate) fn too_long_response(limit: usize) -> Bytes {
    let message = format!("Invalid Request: the message exceeds the {limit}-byte limit");
    let body = ErrorResponse {
        jsonrpc: "2.0",
        id: None,
        error: ErrorObject {
            code: INVALID_REQUEST,
            message: &message,
        },
    };
    serde_json::to_vec(&body)
        .map(Bytes::from)
        .unwrap_or_default()
}

/// The axum middleware around rmcp's Streamable HTTP service that answers a
/// POST body rmcp cannot read with `400 Bad Request` and a JSON-RPC error
/// ([`error_response`]) instead of rmcp's plain-text `415`.
///
/// It runs inside the language layer, which has already read the body (within
/// its limit) and rebuilt it from those bytes, so taking them again costs no
/// copy; the body is parsed again only when rmcp has refused it.
#[cfg(feature = "http")]
pub(crate) async fn answer_unreadable_bodies(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::{body::Body, response::IntoResponse};
    use http::{
        Method, Request, StatusCode,
        header::{CACHE_CONTROL, CONTENT_TYPE},
    };

    // rmcp's own test of the media type: a 415 for any other is about the type.
    let json = request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        });
    if request.method() != Method::POST || !json {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => bytes,
        Err(e) => {
            let message = format!("could not read the request body: {e}");
            let body = serde_json::to_vec(&ErrorResponse {
                jsonrpc: "2.0",
                id: None,
                error: ErrorObject {
                    code: INVALID_REQUEST,
                    message: &message,
                },
            })
            .unwrap_or_default();
            let headers = [
                (CONTENT_TYPE, "application/json"),
                (CACHE_CONTROL, "no-store"),
            ];
            return (StatusCode::BAD_REQUEST, headers, body).into_response();
        }
    };
    let mut response = next
        .run(Request::from_parts(parts, Body::from(bytes.clone())))
        .await;
    // For the access log (`access::log_request`): the method this answers.
    #[cfg(feature = "http")]
    if let Some(method) = super::access::RpcMethod::of(&bytes) {
        response.extensions_mut().insert(method);
    }
    if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    let Err(error) = serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(&bytes) else {
        return response;
    };
    match error_response(&bytes, &error, true) {
        Some((code, body)) => {
            tracing::debug!(code, "answering a body that cannot be read: {error}");
            let headers = [
                (CONTENT_TYPE, "application/json"),
                (CACHE_CONTROL, "no-store"),
            ];
            (StatusCode::BAD_REQUEST, headers, body).into_response()
        }
        None => response,
    }
}

/// The longest prefix of `text` of at most `limit` bytes ending on a character
/// boundary, with `…` when that is not all of it.
fn cut(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_owned();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", text.get(..end).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What rmcp's server transports parse a client message into.
    type Message = rmcp::model::ClientJsonRpcMessage;

    fn answer(text: &str) -> Option<serde_json::Value> {
        let error = serde_json::from_str::<Message>(text).unwrap_err();
        error_response(text.as_bytes(), &error, false)
            .map(|(_, body)| serde_json::from_slice(&body).unwrap())
    }

    fn raw_answer(text: &str) -> String {
        let error = serde_json::from_str::<Message>(text).unwrap_err();
        let (_, body) = error_response(text.as_bytes(), &error, false).unwrap();
        String::from_utf8(body.to_vec()).unwrap()
    }

    #[test]
    fn text_that_is_not_json_is_a_parse_error_with_a_null_id() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let nul = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\u{0}\"}";
        for text in [
            "{",
            "{\"id\":1,",
            "not json",
            "{\"id\":1}}",
            "[1] x",
            nul,
            &deep,
        ] {
            let json = answer(text).unwrap();
            assert_eq!(json["error"]["code"], PARSE_ERROR, "{text}");
            assert!(json["id"].is_null() && json.get("id").is_some(), "{text}");
        }
        for bytes in [
            &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}"[..],
            &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"params\":7,\"x\":\"\xff\"}"[..],
        ] {
            let error = serde_json::from_slice::<Message>(bytes).unwrap_err();
            assert!(matches!(classify(bytes, &error), Unreadable::NotJson));
        }
    }

    #[test]
    fn an_invalid_request_echoes_its_id_as_written() {
        let duplicated =
            r#"{"jsonrpc":"2.0","id":1e2,"method":"tools/list","params":{"_meta":{},"_meta":{}}}"#;
        assert!(
            raw_answer(duplicated)
                .starts_with(r#"{"jsonrpc":"2.0","id":1e2,"error":{"code":-32600,"#)
        );
        let wrong_params = r#"{"jsonrpc":"2.0","id":"a\u00e9","method":"tools/call","params":7}"#;
        assert!(raw_answer(wrong_params).contains(r#""id":"a\u00e9""#));
        for no_usable_id in [
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":[1],"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}"#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            r#""ping""#,
            r#"{"jsonrpc":"2.0","method":7}"#,
        ] {
            let json = answer(no_usable_id).unwrap();
            assert_eq!(json["error"]["code"], INVALID_REQUEST, "{no_usable_id}");
            assert!(json["id"].is_null(), "{no_usable_id}");
        }
    }

    #[test]
    fn notifications_and_responses_are_answered_only_when_asked() {
        for text in [
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":7}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":7,"error":{}}"#,
            r#"{"jsonrpc":"2.0","error":{"code":"x"}}"#,
        ] {
            assert_eq!(answer(text), None, "{text}");
            let error = serde_json::from_str::<Message>(text).unwrap_err();
            let (code, body) = error_response(text.as_bytes(), &error, true).unwrap();
            assert_eq!(code, INVALID_REQUEST);
            let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert!(json["id"].is_null());
        }
    }

    #[test]
    fn the_message_stays_short_whatever_the_input_is() {
        let long_version = format!(
            r#"{{"jsonrpc":"{}","id":1,"method":"ping"}}"#,
            "é".repeat(1 << 20)
        );
        let json = answer(&long_version).unwrap();
        assert_eq!(json["error"]["code"], INVALID_REQUEST);
        assert!(
            json.to_string().len() < 1024,
            "{} bytes",
            json.to_string().len()
        );
        let body = too_long_response(16 << 20);
        assert!(body.len() < 256);
        let long = "é".repeat(1000);
        let short = cut(&long, DETAIL_LIMIT);
        assert!(short.len() <= DETAIL_LIMIT + '…'.len_utf8() && short.ends_with('…'));
        assert_eq!(cut("short", DETAIL_LIMIT), "short");
    }
}
