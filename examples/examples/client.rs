//! A client that sends a language preference over stdio and over Streamable HTTP.
//!
//! ```text
//! cargo run -p mcp-lang-examples --example client
//! cargo run -p mcp-lang-examples --example client -- --url http://127.0.0.1:3001/mcp
//! ```
//!
//! With no arguments it talks to the reference server twice: over **stdio** (it starts
//! itself again as a child process serving the reference server on stdin/stdout) through
//! rmcp and `mcp-lang-rmcp`'s client helpers, and over **Streamable HTTP** (the reference
//! server on a loopback port, or the server at `--url`) with a plain hyper client and
//! `mcp-lang-http`'s client functions. Each request carries its own preference; one carries
//! none.
//!
//! The client side of SEP-2792, as this example does it:
//!
//! - build the preference with no more detail than needed (`PreferenceBuilder`: the first
//!   one comes from `LANGUAGE` / `LC_ALL` / `LC_MESSAGES` / `LANG`);
//! - put it in `params._meta` of every request (`send_with_preference`);
//! - on HTTP, send exactly one `Accept-Language` line equal to it (`set_accept_language`),
//!   and refuse a preference that cannot be one (decision D8);
//! - check every JSON response's `Content-Language` against its `contentLanguage`
//!   (`check_json_response`).

use std::net::SocketAddr;

use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_LANGUAGE, CONTENT_TYPE};
use http::{HeaderMap, Request};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use mcp_lang_http::{check_json_response, set_accept_language};
use mcp_lang_meta::PreferenceBuilder;
use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::{HttpMode, spawn_http};
use mcp_lang_rmcp::client::{content_language, send_with_preference};
use rmcp::ServiceExt;
use rmcp::model::{ClientRequest, ListToolsRequest, ServerResult};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The preferences sent, one request each: the environment's (when it names a language),
/// two fixed ones, and none at all.
fn preferences() -> Vec<Option<String>> {
    let from_environment = PreferenceBuilder::new().with_environment().build();
    let mut list = vec![
        Some("fr-CA,fr;q=0.9,en;q=0.5".to_owned()),
        Some("ja, en;q=0.1".to_owned()),
        None,
    ];
    if let Some(preference) = from_environment {
        list.insert(0, Some(preference));
    }
    list
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        // The child process of the stdio part.
        Some("--serve-stdio") => {
            let running = ReferenceServer::new()?
                .serve(rmcp::transport::stdio())
                .await?;
            running.waiting().await?;
            Ok(())
        }
        Some("--url") => {
            let url = args.get(1).ok_or("--url needs a URL")?;
            over_http(url).await
        }
        Some(other) => Err(format!("unknown argument `{other}` (use --url URL)").into()),
        None => {
            over_stdio().await?;
            let server = spawn_http(
                ReferenceServer::new()?,
                SocketAddr::from(([127, 0, 0, 1], 0)),
                HttpMode::Stateless,
            )
            .await?;
            let result = over_http(&server.url()).await;
            server.shutdown().await;
            result
        }
    }
}

/// stdio through rmcp: the preference travels in `_meta` only.
async fn over_stdio() -> Result<(), BoxError> {
    println!("== stdio (rmcp client, the reference server as a child process)\n");
    let mut command = tokio::process::Command::new(std::env::current_exe()?);
    command.arg("--serve-stdio");
    let client = ().serve(TokioChildProcess::new(command)?).await?;
    for preference in preferences() {
        let request = ClientRequest::ListToolsRequest(ListToolsRequest::default());
        // Checks the value (grammar, and that HTTP could carry it) before sending.
        let result = send_with_preference(client.peer(), request, preference.as_deref()).await?;
        let ServerResult::ListToolsResult(tools) = &result else {
            return Err("tools/list did not return a tool list".into());
        };
        println!(
            "preference {:<28} contentLanguage {:<6} titles: {}",
            format!("{preference:?}"),
            content_language(&result).unwrap_or("-"),
            tools
                .tools
                .iter()
                .map(|t| format!("{} = {:?}", t.name, t.title.as_deref().unwrap_or("")))
                .take(2)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    client.cancel().await?;
    println!();
    Ok(())
}

/// Streamable HTTP with hyper: `_meta` and one agreeing `Accept-Language` line.
async fn over_http(url: &str) -> Result<(), BoxError> {
    println!("== Streamable HTTP ({url})\n");
    let uri: http::Uri = url.parse()?;
    let authority = uri.authority().ok_or("the URL has no host")?.clone();
    for (id, preference) in preferences().into_iter().enumerate() {
        let mut params = json!({});
        let mut headers = HeaderMap::new();
        if let Some(preference) = &preference {
            // D8: a value that cannot be one field line is refused before anything is sent.
            set_accept_language(&mut headers, preference)?;
            params["_meta"] = json!({"io.modelcontextprotocol/acceptLanguage": preference});
        }
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params});
        let (status, response_headers, response_body) =
            post(&uri, authority.as_str(), headers, body).await?;
        // A Content-Language that disagrees with the body's contentLanguage is malformed.
        let reported = check_json_response(&response_headers, &response_body)?;
        let message: Value = serde_json::from_slice(&response_body)?;
        let titles: Vec<String> = message["result"]["tools"]
            .as_array()
            .map(|tools| {
                tools
                    .iter()
                    .take(2)
                    .map(|t| format!("{} = {}", t["name"].as_str().unwrap_or(""), t["title"]))
                    .collect()
            })
            .unwrap_or_default();
        println!(
            "preference {:<28} {status} Content-Language {:<6} contentLanguage {:<6} titles: {}",
            format!("{preference:?}"),
            response_headers
                .get(CONTENT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-"),
            reported.as_str().unwrap_or("-"),
            titles.join(", ")
        );
    }

    // What a client must not send: refused locally, nothing goes on the wire.
    let mut headers = HeaderMap::new();
    match set_accept_language(&mut headers, "fr-CA ") {
        Err(error) => println!("\npreference \"fr-CA \" refused before sending: {error}"),
        Ok(()) => return Err("a preference with trailing whitespace was accepted".into()),
    }

    // And what a server does with a header that disagrees with `_meta` (set by hand here:
    // a proxy that lower-cased it would do the same).
    let mut headers = HeaderMap::new();
    set_accept_language(&mut headers, "fr-ca")?;
    let body = json!({"jsonrpc": "2.0", "id": 99, "method": "tools/list",
        "params": {"_meta": {"io.modelcontextprotocol/acceptLanguage": "fr-CA"}}});
    let (status, _, response_body) = post(&uri, authority.as_str(), headers, body).await?;
    let message: Value = serde_json::from_slice(&response_body)?;
    println!(
        "header \"fr-ca\" with _meta \"fr-CA\": {status}, error {}",
        message["error"]["code"]
    );
    Ok(())
}

/// One POST on its own HTTP/1.1 connection.
async fn post(
    uri: &http::Uri,
    authority: &str,
    headers: HeaderMap,
    body: Value,
) -> Result<(http::StatusCode, HeaderMap, Bytes), BoxError> {
    let stream = tokio::net::TcpStream::connect(authority).await?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    let mut request = Request::post(uri.clone())
        .header(http::header::HOST, authority)
        .header(CONTENT_TYPE, "application/json")
        .header(ACCEPT, "application/json, text/event-stream")
        .body(Full::new(Bytes::from(body.to_string())))?;
    request.headers_mut().extend(headers);
    let response = sender.send_request(request).await?;
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await?.to_bytes();
    Ok((parts.status, parts.headers, bytes))
}
