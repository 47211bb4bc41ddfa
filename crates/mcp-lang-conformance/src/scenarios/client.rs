//! Client-side scenarios: this project's client pieces against a scripted
//! server, for the rules a client must keep (items 6, 9 and 10, and the
//! request grammar).
//!
//! "Our client" is what an application built on this workspace sends and
//! checks with: `mcp-lang-rmcp`'s per-request preference (the `_meta`, over an
//! rmcp `Peer`), `mcp-lang-http`'s `set_accept_language` and response checks
//! (the HTTP mirror, here over hyper), `mcp-lang-rmcp`'s `MirroringClient` (through
//! `mirror_headers`, what it applies to every POST of rmcp's Streamable HTTP
//! transport), `mcp-lang-rmcp`'s `LanguageHttpClient` (rmcp's Streamable HTTP
//! client that mirrors `Accept-Language` and checks `Content-Language`, end to
//! end), `mcp-lang-rmcp`'s `CachingClient` and `mcp-lang-meta`'s
//! `ResponseCache`, and `PreferenceBuilder`. The scripted servers record what arrives on the wire
//! and answer with canned bytes, including the broken answers a client must
//! refuse.

use bytes::Bytes;
use futures::StreamExt;
use http::HeaderMap;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use mcp_lang_agree::MetaValue;
use mcp_lang_http::{EventStreamLanguage, check_json_response, set_accept_language};
use mcp_lang_meta::{CacheRequest, PreferenceBuilder, ResponseCache};
use mcp_lang_rmcp::cache::CachingClient;
use mcp_lang_rmcp::client::{SendError, check_preference, preference_meta, send_with_preference};
use mcp_lang_rmcp::http_client::mirror_headers;
use mcp_lang_rmcp::reqwest_client::{LanguageHttpClient, LanguageHttpError};
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, GetMeta, JsonRpcRequest, ListToolsRequest, NumberOrString,
};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};
use serde_json::{Value, json};
use std::collections::HashMap;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use crate::http::parse_response;
use crate::scenario::{Ctx, Needs, Outcome, Scenario, ScenarioFuture, Step, ensure, finish};
use crate::wire::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE};

use super::sep;

/// The scenarios of this module, in report order.
pub(crate) const SCENARIOS: &[Scenario] = &[
    Scenario {
        id: "client.meta-exact",
        item: 2,
        rule: "our rmcp client sends the preference in _meta exactly, per request, and omits it when asked",
        sep: sep::REUSE,
        needs: Needs::Client,
        run: meta_exact,
    },
    Scenario {
        id: "client.header-mirror",
        item: 6,
        rule: "our HTTP clients (rmcp MirroringClient and LanguageHttpClient, mcp-lang-http) send one Accept-Language line equal to _meta",
        sep: sep::CLIENT_MIRROR,
        needs: Needs::Client,
        run: header_mirror,
    },
    Scenario {
        id: "client.refuse-unsendable",
        item: 6,
        rule: "our client refuses a preference it cannot send as one field value or that is not Accept-Language",
        sep: sep::CLIENT_GRAMMAR,
        needs: Needs::Client,
        run: refuse_unsendable,
    },
    Scenario {
        id: "client.conflicting-content-language",
        item: 6,
        rule: "our client (mcp-lang-http, rmcp LanguageHttpClient) flags a JSON response whose Content-Language conflicts with contentLanguage, repeated lines included",
        sep: sep::CLIENT_MALFORMED,
        needs: Needs::Client,
        run: conflicting_content_language,
    },
    Scenario {
        id: "client.sse-content-language",
        item: 8,
        rule: "our client (EventStreamLanguage, rmcp LanguageHttpClient) flags a stream message that disagrees with the stream's Content-Language",
        sep: sep::SSE,
        needs: Needs::Client,
        run: sse_content_language,
    },
    Scenario {
        id: "client.cache-separation",
        item: 9,
        rule: "our cache (ResponseCache, rmcp CachingClient) never serves one preference's result for another, even for the same language",
        sep: sep::CACHE_KEY,
        needs: Needs::Client,
        run: cache_separation,
    },
    Scenario {
        id: "client.privacy",
        item: 10,
        rule: "our client sends no more detail than configured",
        sep: sep::PRIVACY,
        needs: Needs::Client,
        run: privacy,
    },
];

/// The `Accept-Language` field lines among those a scripted server recorded, each
/// trimmed of the SP/HTAB around it, as a receiver reads a field line.
fn accept_language_lines(lines: Vec<(String, String)>) -> Vec<String> {
    lines
        .into_iter()
        .filter(|(name, _)| name == "accept-language")
        .map(|(_, value)| value.trim_matches([' ', '\t']).to_owned())
        .collect()
}

/// A scripted HTTP server for one exchange: it records the request's field
/// lines as received and answers with `response` (raw bytes).
async fn scripted_http(
    response: Vec<u8>,
) -> std::io::Result<(String, tokio::task::JoinHandle<Vec<(String, String)>>)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?.to_string();
    let task = tokio::spawn(async move {
        let Ok((stream, _)) = listener.accept().await else {
            return Vec::new();
        };
        let mut reader = BufReader::new(stream);
        let mut lines = Vec::new();
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                break;
            }
            let line = line.trim_end_matches(['\r', '\n']).to_owned();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
                lines.push((name.to_ascii_lowercase(), value.to_owned()));
            }
        }
        let mut body = vec![0u8; length.min(1 << 20)];
        let _ = reader.read_exact(&mut body).await;
        let mut stream = reader.into_inner();
        let _ = stream.write_all(&response).await;
        let _ = stream.shutdown().await;
        lines
    });
    Ok((addr, task))
}

fn io(e: impl std::fmt::Display) -> Outcome {
    Outcome::Fail(format!("scripted server: {e}"))
}

/// Which of our clients mirrors the preference into the HTTP request.
#[derive(Clone, Copy, Debug)]
enum Mirror {
    /// `mcp-lang-rmcp`'s `MirroringClient` (through `mirror_headers`, what it
    /// does to every POST of rmcp's Streamable HTTP transport), on an rmcp
    /// request message.
    Rmcp,
    /// `mcp-lang-http`'s `set_accept_language`, on a JSON request body.
    Http,
}

/// Sends a POST built by our client pieces to a scripted server; returns the
/// `Accept-Language` lines the server received (values as on the wire) and
/// the raw response.
async fn post_with_preference(
    mirror: Mirror,
    preference: &str,
    response: Vec<u8>,
) -> Step<(Vec<String>, HeaderMap, Bytes)> {
    let (addr, server) = scripted_http(response).await.map_err(io)?;
    let meta = preference_meta(preference)
        .map_err(|e| Outcome::Fail(format!("our client refused {preference:?}: {e}")))?;
    let mut request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
    request.get_meta_mut().extend(meta);
    let message =
        ClientJsonRpcMessage::Request(JsonRpcRequest::new(NumberOrString::Number(1), request));
    let body = serde_json::to_string(&message).map_err(io)?;
    let mut builder = http::Request::post("/mcp")
        .header("host", addr.as_str())
        .header("content-type", "application/json");
    let mut headers = HashMap::new();
    // A library default the mirror must replace, not add to.
    headers.insert(
        http::header::ACCEPT_LANGUAGE,
        http::HeaderValue::from_static("*"),
    );
    match mirror {
        Mirror::Rmcp => {
            let headers = mirror_headers(&message, headers).map_err(|e| {
                Outcome::Fail(format!(
                    "our rmcp client refused to mirror {preference:?}: {e}"
                ))
            })?;
            for (name, value) in headers {
                builder = builder.header(name, value);
            }
        }
        Mirror::Http => {
            let mut map = HeaderMap::new();
            map.extend(headers);
            set_accept_language(&mut map, preference).map_err(|e| {
                Outcome::Fail(format!(
                    "our HTTP client refused to mirror {preference:?}: {e}"
                ))
            })?;
            for (name, value) in &map {
                builder = builder.header(name, value);
            }
        }
    }
    let request = builder.body(Full::new(Bytes::from(body))).map_err(io)?;
    let stream = tokio::net::TcpStream::connect(&addr).await.map_err(io)?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(io)?;
    tokio::spawn(connection);
    let response = sender.send_request(request).await.map_err(io)?;
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.map_err(io)?.to_bytes();
    let received = accept_language_lines(server.await.map_err(io)?);
    Ok((received, headers, bytes))
}

/// What a POST through `mcp-lang-rmcp`'s `LanguageHttpClient` came back as.
type RmcpPost = Result<StreamableHttpPostResponse, StreamableHttpError<LanguageHttpError>>;

/// Sends a `tools/list` with `preference` in `_meta` through `mcp-lang-rmcp`'s
/// `LanguageHttpClient` (the rmcp Streamable HTTP client that mirrors
/// `Accept-Language` and checks `Content-Language`) to a scripted server
/// answering `response`; returns the `Accept-Language` lines the server
/// received and what the client made of the answer. The transport passes a
/// stale `Accept-Language: *` custom header, as rmcp does with configured
/// headers: the mirror must replace it.
async fn post_through_rmcp(
    preference: Option<&str>,
    response: Vec<u8>,
) -> Step<(Vec<String>, RmcpPost)> {
    let (addr, server) = scripted_http(response).await.map_err(io)?;
    let mut request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
    if let Some(preference) = preference {
        let meta = preference_meta(preference)
            .map_err(|e| Outcome::Fail(format!("our client refused {preference:?}: {e}")))?;
        request.get_meta_mut().extend(meta);
    }
    let message =
        ClientJsonRpcMessage::Request(JsonRpcRequest::new(NumberOrString::Number(1), request));
    let mut custom = HashMap::new();
    custom.insert(
        http::header::ACCEPT_LANGUAGE,
        http::HeaderValue::from_static("*"),
    );
    let client = LanguageHttpClient::new(reqwest::Client::new());
    let answer = client
        .post_message(
            format!("http://{addr}/mcp").into(),
            message,
            None,
            None,
            custom,
        )
        .await;
    let received = accept_language_lines(server.await.map_err(io)?);
    Ok((received, answer))
}

fn json_response(content_language: &[&str], meta: Option<&str>) -> Vec<u8> {
    let mut result = json!({ "tools": [] });
    if let Some(m) = meta {
        result["_meta"] = json!({ CONTENT_LANGUAGE: m });
    }
    let body = json!({ "jsonrpc": "2.0", "id": 1, "result": result }).to_string();
    let mut head = String::from("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n");
    for line in content_language {
        head.push_str(&format!("Content-Language: {line}\r\n"));
    }
    head.push_str(&format!(
        "Vary: Accept-Language\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    bytes
}

/// An event stream declared `fr` carrying `notification`, then the
/// response to request 1 reporting `response_language`.
fn event_stream_response(notification: &str, response_language: &str) -> Vec<u8> {
    let response = json!({ "jsonrpc": "2.0", "id": 1, "result": { "tools": [], "_meta": { CONTENT_LANGUAGE: response_language } } });
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Language: fr\r\nVary: Accept-Language\r\nConnection: close\r\n\r\ndata: {notification}\n\ndata: {response}\n\n"
    )
    .into_bytes()
}

fn header_mirror(_ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let cases = ["fr-CA,fr;q=0.9,en;q=0.5", "en-US, en;q=0.9", "de;q=0.900", "*"];
                for (mirror, preference) in cases
                    .iter()
                    .flat_map(|p| [(Mirror::Rmcp, *p), (Mirror::Http, *p)])
                {
                    let (received, _, _) =
                        post_with_preference(mirror, preference, json_response(&["fr"], Some("fr")))
                            .await?;
                    ensure(received.len() == 1, || {
                        format!("our {mirror:?} client sent {} Accept-Language lines {received:?} for {preference:?}", received.len())
                    })?;
                    ensure(received[0] == preference, || {
                        format!("our {mirror:?} client sent Accept-Language {:?} for _meta {preference:?}", received[0])
                    })?;
                }
                // The rmcp Streamable HTTP client of mcp-lang-rmcp, end to end.
                for preference in cases {
                    let (received, answer) =
                        post_through_rmcp(Some(preference), json_response(&["fr"], Some("fr"))).await?;
                    ensure(received == [preference], || {
                        format!("our LanguageHttpClient sent Accept-Language lines {received:?} for _meta {preference:?}")
                    })?;
                    ensure(answer.is_ok(), || format!("our LanguageHttpClient failed on an agreeing answer: {answer:?}"))?;
                }
                // No preference in _meta: no Accept-Language, the stale custom one dropped too.
                let (received, _) = post_through_rmcp(None, json_response(&[], None)).await?;
                ensure(received.is_empty(), || {
                    format!("our LanguageHttpClient sent Accept-Language {received:?} for a request without a preference")
                })?;
                Ok(())
            }
            .await,
        )
    })
}

fn refuse_unsendable(_ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                for value in [
                    "fr\r\nX-Injected: 1",
                    " fr",
                    "fr ",
                    "fr\u{0}",
                    "français",
                    "fr;q=2",
                    "fr,,;q",
                ] {
                    ensure(
                        preference_meta(value).is_err() && check_preference(value).is_err(),
                        || format!("our client accepted the unsendable preference {value:?}"),
                    )?;
                }
                for value in ["fr\r\nX-Injected: 1", " fr", "français", "fr;q=2"] {
                    let mut request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
                    request
                        .get_meta_mut()
                        .insert(ACCEPT_LANGUAGE.into(), json!(value));
                    let message = ClientJsonRpcMessage::Request(JsonRpcRequest::new(
                        NumberOrString::Number(1),
                        request,
                    ));
                    ensure(mirror_headers(&message, HashMap::new()).is_err(), || {
                        format!(
                            "our rmcp HTTP client would send the unsendable preference {value:?}"
                        )
                    })?;
                }
                for value in ["fr\r\nX-Injected: 1", " fr", "français"] {
                    let mut headers = HeaderMap::new();
                    ensure(
                        set_accept_language(&mut headers, value).is_err() && headers.is_empty(),
                        || format!("our HTTP client mirrored the unsendable preference {value:?}"),
                    )?;
                }
                refused_before_sending(&["fr\r\nX-Injected: 1", " fr", "français", "fr;q=2"]).await
            }
            .await,
        )
    })
}

/// End to end: our rmcp client (over stdio, to the scripted server) and
/// `LanguageHttpClient` (to a listening socket) refuse each unsendable
/// preference with an error, and nothing reaches either server.
async fn refused_before_sending(values: &[&str]) -> Step<()> {
    let (client, server) = client_of_scripted_stdio().await?;
    for value in values {
        let request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
        let sent = send_with_preference(client.peer(), request, Some(value)).await;
        ensure(matches!(sent, Err(SendError::Preference(_))), || {
            format!("our rmcp client did not refuse the unsendable preference {value:?}: {sent:?}")
        })?;
    }
    let _ = client.cancel().await;
    let seen = server.await.map_err(io)?;
    ensure(seen.is_empty(), || {
        format!(
            "our rmcp client sent requests with acceptLanguage {seen:?} although it refused them"
        )
    })?;

    let listener = TcpListener::bind("127.0.0.1:0").await.map_err(io)?;
    let addr = listener.local_addr().map_err(io)?;
    let http = LanguageHttpClient::new(reqwest::Client::new());
    for value in values {
        let mut request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
        request
            .get_meta_mut()
            .insert(ACCEPT_LANGUAGE.into(), json!(value));
        let message =
            ClientJsonRpcMessage::Request(JsonRpcRequest::new(NumberOrString::Number(1), request));
        // A refusal is immediate; a POST that went out would wait for an
        // answer this socket never gives.
        let answer = tokio::time::timeout(
            std::time::Duration::from_secs(2),
            http.post_message(
                format!("http://{addr}/mcp").into(),
                message,
                None,
                None,
                HashMap::new(),
            ),
        )
        .await;
        ensure(matches!(answer, Ok(Err(_))), || {
            format!(
                "our LanguageHttpClient did not refuse the unsendable preference {value:?}: {answer:?}"
            )
        })?;
    }
    // Had a POST gone out, its connection would be waiting to be accepted.
    let connected =
        tokio::time::timeout(std::time::Duration::from_millis(200), listener.accept()).await;
    ensure(connected.is_err(), || {
        "our LanguageHttpClient connected to the server although it refused every preference"
            .to_owned()
    })
}

fn conflicting_content_language(_ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let cases: [(&[&str], Option<&str>, bool); 5] = [
                    (&["fr"], Some("fr"), true),
                    (&["de"], Some("fr"), false),
                    (&["fr", "fr"], Some("fr"), false),
                    (&["fr", "de"], Some("fr"), false),
                    (&["FR"], Some("fr"), false),
                ];
                for (lines, meta, ok) in cases {
                    let (_, headers, body) =
                        post_with_preference(Mirror::Http, "fr", json_response(lines, meta)).await?;
                    let verdict = check_json_response(&headers, &body);
                    ensure(verdict.is_ok() == ok, || {
                        format!(
                            "our client {} a response with Content-Language lines {lines:?} and contentLanguage {meta:?}",
                            if ok { "refused" } else { "accepted" }
                        )
                    })?;
                    // The same bytes through mcp-lang-rmcp's rmcp HTTP client.
                    let (_, answer) = post_through_rmcp(Some("fr"), json_response(lines, meta)).await?;
                    let flagged = matches!(answer, Err(StreamableHttpError::Client(LanguageHttpError::MalformedResponse(_))));
                    let passed = matches!(answer, Ok(StreamableHttpPostResponse::Json(..)));
                    ensure(if ok { passed } else { flagged }, || {
                        format!(
                            "our LanguageHttpClient answered {answer:?} to Content-Language lines {lines:?} with contentLanguage {meta:?}; expected {}",
                            if ok { "the JSON message" } else { "a malformed-response error" }
                        )
                    })?;
                }
                // The raw parse of the same bytes sees both lines, as the check must.
                let (_, lines, _) = parse_response(&json_response(&["fr", "de"], Some("fr"))).map_err(io)?;
                ensure(lines.iter().filter(|(n, _)| n == "content-language").count() == 2, || "the scripted response lost a line".to_owned())
            }
            .await,
        )
    })
}

fn sse_content_language(_ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let mut headers = HeaderMap::new();
                headers.insert(http::header::CONTENT_LANGUAGE, http::HeaderValue::from_static("fr"));
                let stream = EventStreamLanguage::from_headers(&headers);
                let good = json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"_meta":{CONTENT_LANGUAGE:"fr"}}}).to_string();
                let bad = json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"_meta":{CONTENT_LANGUAGE:"de"}}}).to_string();
                ensure(stream.check_message(good.as_bytes()).is_ok(), || "our client refused an agreeing stream message".to_owned())?;
                ensure(stream.check_message(bad.as_bytes()).is_err(), || "our client accepted a stream message in \"de\" on a stream declared \"fr\"".to_owned())?;
                let undeclared = EventStreamLanguage::from_headers(&HeaderMap::new());
                ensure(undeclared.check(MetaValue::String("de")).is_ok(), || "our client refused a message on a stream without Content-Language".to_owned())?;
                // End to end through mcp-lang-rmcp's LanguageHttpClient: a
                // stream declared "fr" whose notification agrees and whose
                // response says "de".
                let (_, answer) = post_through_rmcp(Some("fr"), event_stream_response(&good, "de")).await?;
                let Ok(StreamableHttpPostResponse::Sse(mut events, _)) = answer else {
                    return Err(Outcome::Fail(format!("our LanguageHttpClient did not open the event stream: {answer:?}")));
                };
                let mut messages = Vec::new();
                while let Some(event) = events.next().await {
                    let Ok(event) = event else { break };
                    if let Some(message) = event.data.as_deref().and_then(|d| serde_json::from_str::<Value>(d).ok()) {
                        messages.push(message);
                    }
                }
                ensure(messages.first().and_then(|m| m.get("method")).is_some(), || {
                    format!("our LanguageHttpClient dropped the agreeing notification: {messages:?}")
                })?;
                ensure(!messages.iter().any(|m| m.get("result").is_some()), || {
                    format!("our LanguageHttpClient passed on a response in \"de\" from a stream declared \"fr\": {messages:?}")
                })?;
                ensure(messages.iter().any(|m| m.pointer("/error/data/malformedResponse").is_some()), || {
                    format!("our LanguageHttpClient did not report the conflicting stream message as malformed: {messages:?}")
                })
            }
            .await,
        )
    })
}

fn cache_separation(_ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let mut cache = ResponseCache::new();
                let result = json!({ "tools": [], "ttlMs": 60000, "cacheScope": "public", "_meta": { CONTENT_LANGUAGE: "fr-CA" } });
                let first = CacheRequest::new("tools/list").auth_context("alice").accept_language(Some("fr-CA"));
                cache.store(&first, &result);
                ensure(cache.get(&first).is_some(), || "our cache does not keep a result with ttlMs".to_owned())?;
                // Both select fr-CA on any server supporting it: still different preferences.
                for other in [Some("fr-CA, fr;q=0.9"), Some("fr-ca"), Some("fr-CA,*;q=0.1"), None] {
                    let request = CacheRequest::new("tools/list").auth_context("alice").accept_language(other);
                    ensure(cache.get(&request).is_none(), || {
                        format!("our cache served the result cached for \"fr-CA\" to preference {other:?}")
                    })?;
                }
                // cacheScope public permits other authorization contexts, same preference.
                let bob = CacheRequest::new("tools/list").auth_context("bob").accept_language(Some("fr-CA"));
                ensure(cache.get(&bob).is_some(), || "our cache did not share a public result with the same preference".to_owned())?;
                let bob_other = CacheRequest::new("tools/list").auth_context("bob").accept_language(Some("de"));
                ensure(cache.get(&bob_other).is_none(), || "cacheScope public was shared across preferences".to_owned())?;
                caching_client_round_trip().await
            }
            .await,
        )
    })
}

/// `mcp-lang-rmcp`'s `CachingClient` against the scripted stdio server,
/// which reports `fr-CA` with `ttlMs` for every preference (a server on which
/// all of them select the same language): a repeated preference is served
/// from the cache, every other one reaches the server.
async fn caching_client_round_trip() -> Step<()> {
    let (client, server) = client_of_scripted_stdio().await?;
    let caching = CachingClient::new(client.peer().clone()).auth_context("alice");
    let asked = [
        Some("fr-CA"),
        Some("fr-CA"),
        Some("fr-CA, fr;q=0.9"),
        Some("fr-ca"),
        None,
        Some("fr-CA,*;q=0.1"),
        Some("fr-CA, fr;q=0.9"),
    ];
    for preference in asked {
        caching.list_tools(None, preference).await.map_err(|e| {
            Outcome::Fail(format!("our caching client failed on {preference:?}: {e}"))
        })?;
    }
    let _ = client.cancel().await;
    let seen = server.await.map_err(io)?;
    let expected: Vec<Option<Value>> = [
        Some("fr-CA"),
        Some("fr-CA, fr;q=0.9"),
        Some("fr-ca"),
        None,
        Some("fr-CA,*;q=0.1"),
    ]
    .iter()
    .map(|p| p.map(|s| json!(s)))
    .collect();
    ensure(seen.len() >= expected.len(), || {
        format!(
            "our caching client answered {asked:?} with only {seen:?} reaching the server: a result cached for one preference was served for another"
        )
    })?;
    ensure(seen == expected, || {
        format!(
            "our caching client sent {seen:?} to the server for {asked:?}; expected {expected:?} (repeats from the cache, every other preference to the server)"
        )
    })
}

fn privacy(_ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let user = ["zh-Hant-TW", "en-US-u-ca-buddhist", "de-DE-1996", "fr-CA", "ja"];
                let built = PreferenceBuilder::new().languages(user).max_ranges(2).drop_region(true).build();
                let Some(value) = built else {
                    return Err(Outcome::Fail("our preference builder sent nothing for two configured ranges".into()));
                };
                let ranges: Vec<&str> = value.split(',').map(|r| r.split(';').next().unwrap_or_default().trim()).collect();
                ensure(ranges.len() <= 2, || format!("our client sent {} ranges {value:?}; 2 were configured", ranges.len()))?;
                for range in &ranges {
                    let subtags: Vec<&str> = range.split('-').collect();
                    ensure(!subtags.iter().skip(1).any(|s| s.len() == 2 || (s.len() == 3 && s.chars().all(|c| c.is_ascii_digit()))), || {
                        format!("our client sent a region in {range:?} although regions were dropped: {value:?}")
                    })?;
                    ensure(!subtags.iter().any(|s| s.len() == 1 || s.len() >= 5), || {
                        format!("our client sent variants, extensions or private use in {range:?}: {value:?}")
                    })?;
                }
                ensure(check_preference(&value).is_ok(), || format!("our builder produced an unsendable value {value:?}"))?;
                let none = PreferenceBuilder::new().languages(user).max_ranges(0).build();
                ensure(none.is_none(), || format!("with 0 ranges configured, our client still sends {none:?}"))
            }
            .await,
        )
    })
}

/// Our rmcp client, connected in process to a [`scripted_stdio`] server, and the task
/// of that server (it returns every request's `acceptLanguage` once the client closes).
async fn client_of_scripted_stdio() -> Step<(
    rmcp::service::RunningService<rmcp::RoleClient, ()>,
    tokio::task::JoinHandle<Vec<Option<Value>>>,
)> {
    use rmcp::ServiceExt;
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(scripted_stdio(server_io));
    let client = ()
        .serve(client_io)
        .await
        .map_err(|e| Outcome::Fail(format!("our rmcp client failed to start: {e}")))?;
    Ok((client, server))
}

/// A scripted stdio server: answers `initialize`, then each request with an
/// empty, cacheable `tools/list` result in `fr-CA` whatever the preference,
/// and records every request's `acceptLanguage`.
async fn scripted_stdio(io: tokio::io::DuplexStream) -> Vec<Option<Value>> {
    let (read, mut write) = tokio::io::split(io);
    let mut reader = BufReader::new(read);
    let mut seen = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
            return seen;
        }
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = message.get("id").cloned() else {
            continue; // a notification
        };
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let result = if method == "initialize" {
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": { "tools": {} },
                "serverInfo": { "name": "scripted", "version": "0" }
            })
        } else {
            seen.push(
                message
                    .pointer("/params/_meta")
                    .and_then(|m| m.get(ACCEPT_LANGUAGE))
                    .cloned(),
            );
            json!({ "tools": [], "ttlMs": 60000, "cacheScope": "public", "_meta": { CONTENT_LANGUAGE: "fr-CA" } })
        };
        let answer = json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string() + "\n";
        if write.write_all(answer.as_bytes()).await.is_err() {
            return seen;
        }
    }
}

fn meta_exact(_ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                use rmcp::model::{ClientRequest, ListToolsRequest};
                let (client, server) = client_of_scripted_stdio().await?;
                let sent = [Some("fr-CA,fr;q=0.9"), None, Some("de"), Some("en-US, en;q=0.9")];
                for preference in sent {
                    let request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
                    send_with_preference(client.peer(), request, preference)
                        .await
                        .map_err(|e| Outcome::Fail(format!("our rmcp client failed to send {preference:?}: {e}")))?;
                }
                let _ = client.cancel().await;
                let seen = server.await.map_err(io)?;
                let expected: Vec<Option<Value>> = sent.iter().map(|p| p.map(|s| json!(s))).collect();
                ensure(seen == expected, || {
                    format!("the scripted server received acceptLanguage {seen:?}; our client was asked to send {expected:?}")
                })
            }
            .await,
        )
    })
}
