//! `LanguageHttpClient`'s HTTP exchange, one status or media type at a time,
//! against a small axum server on loopback: what goes on the wire (one
//! `Accept-Language` equal to `_meta`, none on GET and DELETE) and how each
//! kind of answer maps onto rmcp's `StreamableHttpError` /
//! `StreamableHttpPostResponse`.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::{
    Router,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    response::{IntoResponse, Response},
    routing::any,
};
use futures::StreamExt;
use mcp_lang_rmcp::ACCEPT_LANGUAGE_KEY;
use mcp_lang_rmcp::http_client::mirror_headers;
use mcp_lang_rmcp::reqwest_client::{LanguageHttpClient, LanguageHttpError};
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, DiscoverRequest,
    DiscoverRequestParams, GetMeta, InitializedNotification, ListToolsRequest, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};

type Seen = Arc<Mutex<Vec<(Method, Vec<String>)>>>;

const RESULT_FR: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[],"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}"#;
const ERROR_FR: &str = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Argument invalide","data":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}}}"#;

fn with(
    status: StatusCode,
    headers: &[(header::HeaderName, &'static str)],
    body: &'static str,
) -> Response {
    let mut response = (status, body).into_response();
    for (name, value) in headers {
        let value = HeaderValue::from_static(value);
        if *name == header::CONTENT_TYPE {
            response.headers_mut().insert(name.clone(), value);
        } else {
            response.headers_mut().append(name.clone(), value);
        }
    }
    response
}

/// `RESULT_FR` as JSON, with these `Content-Language` lines.
fn result_fr_under(lines: &[&'static str]) -> Response {
    let mut headers = vec![(header::CONTENT_TYPE, "application/json")];
    headers.extend(lines.iter().map(|line| (header::CONTENT_LANGUAGE, *line)));
    with(StatusCode::OK, &headers, RESULT_FR)
}

async fn answer(
    State(seen): State<Seen>,
    Path(case): Path<String>,
    method: Method,
    headers: HeaderMap,
) -> Response {
    let lines = headers
        .get_all(header::ACCEPT_LANGUAGE)
        .iter()
        .map(|v| v.to_str().unwrap_or("<bytes>").to_owned())
        .collect();
    seen.lock().unwrap().push((method.clone(), lines));
    let json = (header::CONTENT_TYPE, "application/json");
    let sse = (header::CONTENT_TYPE, "text/event-stream");
    match (method, case.as_str()) {
        (Method::POST, "accepted") => with(StatusCode::ACCEPTED, &[], ""),
        (Method::POST, "json") => with(
            StatusCode::OK,
            &[json, (header::CONTENT_LANGUAGE, "fr")],
            RESULT_FR,
        ),
        (Method::POST, "error-agree") => with(
            StatusCode::BAD_REQUEST,
            &[json, (header::CONTENT_LANGUAGE, "fr")],
            ERROR_FR,
        ),
        (Method::POST, "error-conflict") => with(
            StatusCode::BAD_REQUEST,
            &[json, (header::CONTENT_LANGUAGE, "en")],
            ERROR_FR,
        ),
        (Method::POST, "busy") => with(
            StatusCode::TOO_MANY_REQUESTS,
            &[(header::RETRY_AFTER, "3")],
            "slow down",
        ),
        (Method::POST, "unauthorized") => with(
            StatusCode::UNAUTHORIZED,
            &[(header::WWW_AUTHENTICATE, r#"Bearer realm="mcp""#)],
            "",
        ),
        (Method::POST, "forbidden") => with(
            StatusCode::FORBIDDEN,
            &[(
                header::WWW_AUTHENTICATE,
                r#"Bearer error="insufficient_scope", scope="tools:read""#,
            )],
            "",
        ),
        (Method::POST, "gone") => with(StatusCode::NOT_FOUND, &[], "no such session"),
        (Method::POST, "teapot") => with(StatusCode::IM_A_TEAPOT, &[], "short and stout"),
        (Method::POST, "text") => with(
            StatusCode::OK,
            &[(header::CONTENT_TYPE, "text/plain")],
            "hi",
        ),
        // A JSON answer in "fr" under these Content-Language lines.
        (Method::POST, "lines-fr") => result_fr_under(&["fr"]),
        (Method::POST, "lines-de") => result_fr_under(&["de"]),
        (Method::POST, "lines-FR") => result_fr_under(&["FR"]),
        (Method::POST, "lines-fr-fr") => result_fr_under(&["fr", "fr"]),
        (Method::POST, "lines-fr-de") => result_fr_under(&["fr", "de"]),
        // A stream declared "fr": an agreeing notification, then a response in "de".
        (Method::POST, "stream-fr-then-de") => with(
            StatusCode::OK,
            &[sse, (header::CONTENT_LANGUAGE, "fr")],
            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1,\"_meta\":{\"io.modelcontextprotocol/contentLanguage\":\"fr\"}}}\n\n\
             data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[],\"_meta\":{\"io.modelcontextprotocol/contentLanguage\":\"de\"}}}\n\n",
        ),
        (Method::POST | Method::GET, "big-event") => with(
            StatusCode::OK,
            &[sse],
            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n",
        ),
        (Method::GET, "stream") => with(
            StatusCode::OK,
            &[sse, (header::CONTENT_LANGUAGE, "de")],
            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\",\"_meta\":{\"io.modelcontextprotocol/contentLanguage\":\"en\"}}}\n\n",
        ),
        (Method::GET | Method::DELETE, "no-sse") => with(StatusCode::METHOD_NOT_ALLOWED, &[], ""),
        _ => with(StatusCode::NOT_FOUND, &[], ""),
    }
}

async fn spawn() -> (String, Seen, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Seen::default();
    let app = Router::new()
        .route("/{case}", any(answer))
        .with_state(seen.clone());
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}"), seen, task)
}

fn list(preference: Option<&str>) -> ClientJsonRpcMessage {
    let mut request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
    if let Some(preference) = preference {
        request
            .get_meta_mut()
            .insert(ACCEPT_LANGUAGE_KEY.into(), preference.into());
    }
    ClientJsonRpcMessage::request(request, RequestId::Number(1))
}

fn initialized() -> ClientJsonRpcMessage {
    ClientJsonRpcMessage::notification(ClientNotification::InitializedNotification(
        InitializedNotification::default(),
    ))
}

async fn post(
    client: &LanguageHttpClient,
    base: &str,
    case: &str,
    message: ClientJsonRpcMessage,
    session: Option<&str>,
) -> Result<StreamableHttpPostResponse, StreamableHttpError<LanguageHttpError>> {
    let mut stale = HashMap::new();
    stale.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    client
        .post_message(
            format!("{base}/{case}").into(),
            message,
            session.map(Arc::from),
            None,
            stale,
        )
        .await
}

#[tokio::test(flavor = "current_thread")]
async fn the_wire_carries_one_agreeing_line_and_statuses_map_like_rmcp() {
    let (base, seen, server) = spawn().await;
    let client = LanguageHttpClient::new(reqwest::Client::new());

    let response = post(&client, &base, "json", list(Some("fr-CA, fr;q=0.9")), None).await;
    assert!(
        matches!(
            response,
            Ok(StreamableHttpPostResponse::Json(
                ServerJsonRpcMessage::Response(_),
                _
            ))
        ),
        "{response:?}"
    );
    let response = post(&client, &base, "accepted", initialized(), None).await;
    assert!(
        matches!(response, Ok(StreamableHttpPostResponse::Accepted)),
        "{response:?}"
    );
    {
        let seen = seen.lock().unwrap();
        // The configured stale "en" was replaced by the one line equal to
        // `_meta`; the notification, without a preference, went bare.
        assert_eq!(seen[0], (Method::POST, vec!["fr-CA, fr;q=0.9".to_owned()]));
        assert_eq!(seen[1], (Method::POST, vec![]));
    }

    // A JSON-RPC error body is checked too, whatever the status.
    let response = post(&client, &base, "error-agree", list(Some("fr")), None).await;
    assert!(
        matches!(
            response,
            Ok(StreamableHttpPostResponse::Json(
                ServerJsonRpcMessage::Error(_),
                _
            ))
        ),
        "{response:?}"
    );
    let response = post(&client, &base, "error-conflict", list(Some("fr")), None).await;
    match response {
        Err(StreamableHttpError::Client(LanguageHttpError::MalformedResponse(m))) => {
            assert_eq!((m.meta_value(), m.header_value()), (Some("fr"), "en"));
        }
        other => panic!("{other:?}"),
    }

    let response = post(&client, &base, "busy", list(None), None).await;
    match response {
        Err(StreamableHttpError::HttpStatus(status)) => {
            assert_eq!(
                (status.status, status.retry_after.as_deref()),
                (429, Some("3"))
            );
        }
        other => panic!("{other:?}"),
    }
    let response = post(&client, &base, "unauthorized", list(None), None).await;
    assert!(
        matches!(&response, Err(StreamableHttpError::AuthRequired(e)) if e.www_authenticate_header.contains("realm")),
        "{response:?}"
    );
    let response = post(&client, &base, "forbidden", list(None), None).await;
    assert!(
        matches!(&response, Err(StreamableHttpError::InsufficientScope(e)) if e.get_required_scope() == Some("tools:read")),
        "{response:?}"
    );
    let response = post(&client, &base, "gone", list(None), Some("s-1")).await;
    assert!(
        matches!(response, Err(StreamableHttpError::SessionExpired)),
        "{response:?}"
    );
    let response = post(&client, &base, "teapot", list(None), None).await;
    assert!(
        matches!(&response, Err(StreamableHttpError::UnexpectedServerResponse(m)) if m.contains("418") && m.contains("short and stout")),
        "{response:?}"
    );
    let response = post(&client, &base, "text", list(None), None).await;
    assert!(
        matches!(&response, Err(StreamableHttpError::UnexpectedContentType(Some(t))) if t == "text/plain"),
        "{response:?}"
    );
    // A notification needs nothing from the body.
    let response = post(&client, &base, "text", initialized(), None).await;
    assert!(
        matches!(response, Ok(StreamableHttpPostResponse::Accepted)),
        "{response:?}"
    );

    // A legacy server's 4xx to `server/discover` becomes a JSON-RPC error for
    // that request, so rmcp falls back to `initialize`.
    let discover = ClientJsonRpcMessage::request(
        ClientRequest::DiscoverRequest(DiscoverRequest::new(DiscoverRequestParams {})),
        RequestId::Number(9),
    );
    let response = post(&client, &base, "teapot", discover, None).await;
    match response {
        Ok(StreamableHttpPostResponse::Json(ServerJsonRpcMessage::Error(error), None)) => {
            assert_eq!(error.id, Some(RequestId::Number(9)));
            assert!(
                error.error.message.contains("418"),
                "{}",
                error.error.message
            );
        }
        other => panic!("{other:?}"),
    }

    server.abort();
}

/// "The value MUST conform to the HTTP Accept-Language field-value grammar
/// in RFC 9110 §12.5.4." A preference that cannot be sent as one field
/// value, or is not `Accept-Language`, is refused before anything is sent
/// (D8): by `mirror_headers`, and by `LanguageHttpClient`, which then makes
/// no request at all.
#[tokio::test(flavor = "current_thread")]
async fn an_unsendable_preference_is_refused_before_anything_is_sent() {
    let (base, seen, server) = spawn().await;
    let client = LanguageHttpClient::new(reqwest::Client::new());
    for value in ["fr\r\nX-Injected: 1", " fr", "français", "fr;q=2"] {
        assert!(
            mirror_headers(&list(Some(value)), HashMap::new()).is_err(),
            "{value:?}"
        );
        let response = post(&client, &base, "json", list(Some(value)), None).await;
        assert!(
            matches!(response, Err(StreamableHttpError::Io(_))),
            "{value:?}: {response:?}"
        );
    }
    assert_eq!(*seen.lock().unwrap(), []);
    server.abort();
}

/// "A Streamable HTTP client that sends acceptLanguage MUST send an
/// Accept-Language field whose value agrees exactly with it." Every
/// preference goes out as one line equal to `_meta`, replacing a configured
/// one; a request without a preference goes without.
#[tokio::test(flavor = "current_thread")]
async fn every_preference_goes_out_as_one_line_equal_to_meta() {
    let (base, seen, server) = spawn().await;
    let client = LanguageHttpClient::new(reqwest::Client::new());
    let preferences = [
        "fr-CA,fr;q=0.9,en;q=0.5",
        "en-US, en;q=0.9",
        "de;q=0.900",
        "*",
    ];
    for preference in preferences {
        // What `MirroringClient` applies to every POST of rmcp's transport.
        let stale = HashMap::from([(header::ACCEPT_LANGUAGE, HeaderValue::from_static("*"))]);
        let mirrored = mirror_headers(&list(Some(preference)), stale).unwrap();
        assert_eq!(mirrored[&header::ACCEPT_LANGUAGE], preference);
        let response = post(&client, &base, "json", list(Some(preference)), None).await;
        assert!(response.is_ok(), "{preference:?}: {response:?}");
    }
    let response = post(&client, &base, "json", list(None), None).await;
    assert!(response.is_ok(), "{response:?}");
    let lines: Vec<Vec<String>> = seen.lock().unwrap().drain(..).map(|(_, l)| l).collect();
    let mut expected: Vec<Vec<String>> = preferences.map(|p| vec![p.to_owned()]).into();
    expected.push(Vec::new());
    assert_eq!(lines, expected);
    server.abort();
}

/// "If a client receives both values and they do not agree, the response is
/// malformed." Repeated lines are joined before comparing (H8), and the
/// comparison is exact.
#[tokio::test(flavor = "current_thread")]
async fn a_json_answer_whose_content_language_disagrees_is_malformed() {
    let (base, _, server) = spawn().await;
    let client = LanguageHttpClient::new(reqwest::Client::new());
    for (case, agrees) in [
        ("lines-fr", true),
        ("lines-de", false),
        ("lines-fr-fr", false),
        ("lines-fr-de", false),
        ("lines-FR", false),
    ] {
        let response = post(&client, &base, case, list(Some("fr")), None).await;
        if agrees {
            assert!(
                matches!(response, Ok(StreamableHttpPostResponse::Json(..))),
                "{case}: {response:?}"
            );
        } else {
            assert!(
                matches!(
                    response,
                    Err(StreamableHttpError::Client(
                        LanguageHttpError::MalformedResponse(_)
                    ))
                ),
                "{case}: {response:?}"
            );
        }
    }
    server.abort();
}

/// "If it does send one, every contentLanguage carried by a message on that
/// stream MUST agree with it." A stream declared `fr` passes its agreeing
/// notification on, and replaces the response in `de` by a JSON-RPC error
/// naming the malformed response (R8).
#[tokio::test(flavor = "current_thread")]
async fn a_stream_message_that_disagrees_with_the_stream_is_replaced_by_an_error() {
    let (base, _, server) = spawn().await;
    let client = LanguageHttpClient::new(reqwest::Client::new());
    let response = post(&client, &base, "stream-fr-then-de", list(Some("fr")), None).await;
    let Ok(StreamableHttpPostResponse::Sse(mut events, _)) = response else {
        panic!("{response:?}")
    };
    let mut messages = Vec::new();
    while let Some(Ok(event)) = events.next().await {
        if let Some(message) = event
            .data
            .as_deref()
            .and_then(|d| serde_json::from_str::<serde_json::Value>(d).ok())
        {
            messages.push(message);
        }
    }
    assert_eq!(
        messages[0]["method"], "notifications/progress",
        "{messages:?}"
    );
    assert!(
        !messages.iter().any(|m| m.get("result").is_some()),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.pointer("/error/data/malformedResponse").is_some()),
        "{messages:?}"
    );
    server.abort();
}

#[tokio::test(flavor = "current_thread")]
async fn limits_get_and_delete() {
    let (base, seen, server) = spawn().await;
    let client = LanguageHttpClient::new(reqwest::Client::new());

    // A JSON body over the limit is refused, not truncated.
    let mut limits = StreamableHttpResponseLimits::default();
    limits.max_json_response_size = 16;
    let response = client
        .post_message_with_response_limits(
            format!("{base}/json").into(),
            list(None),
            None,
            None,
            HashMap::new(),
            limits,
        )
        .await;
    assert!(
        matches!(
            response,
            Err(StreamableHttpError::ResponseBodyTooLarge { max_size: 16 })
        ),
        "{response:?}"
    );

    // An SSE event over the limit ends the stream with an error.
    let response = client
        .post_message_with_max_sse_event_size(
            format!("{base}/big-event").into(),
            list(None),
            None,
            None,
            HashMap::new(),
            16,
        )
        .await;
    let Ok(StreamableHttpPostResponse::Sse(mut events, _)) = response else {
        panic!("{response:?}")
    };
    let error = events.next().await.unwrap().unwrap_err();
    assert!(
        error.to_string().contains("maximum size of 16 bytes"),
        "{error}"
    );

    // GET: no Accept-Language (no message, no preference); a message that
    // contradicts the stream's Content-Language ends it with the typed error.
    let mut stale = HashMap::new();
    stale.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("en"));
    let mut events = client
        .get_stream(
            format!("{base}/stream").into(),
            Some("s-1".into()),
            None,
            None,
            stale.clone(),
        )
        .await
        .unwrap();
    let error = events.next().await.unwrap().unwrap_err();
    assert!(error.to_string().contains("malformed response"), "{error}");
    assert!(events.next().await.is_none());
    let response = client
        .get_stream(
            format!("{base}/no-sse").into(),
            Some("s-1".into()),
            None,
            None,
            HashMap::new(),
        )
        .await;
    assert!(matches!(
        response,
        Err(StreamableHttpError::ServerDoesNotSupportSse)
    ));

    // DELETE: 405 means the server keeps no sessions to delete.
    client
        .delete_session(format!("{base}/no-sse").into(), "s-1".into(), None, stale)
        .await
        .unwrap();
    let seen = seen.lock().unwrap();
    let quiet: Vec<_> = seen
        .iter()
        .filter(|(m, _)| *m == Method::GET || *m == Method::DELETE)
        .collect();
    assert_eq!(quiet.len(), 3);
    assert!(quiet.iter().all(|(_, lines)| lines.is_empty()), "{quiet:?}");
    server.abort();
}
