//! Messages the server cannot read are answered the JSON-RPC way, and the
//! session goes on: `-32700` with `"id": null` for text that is not JSON,
//! `-32600` with the id exactly as written for JSON that is not a message. On
//! stdio (through `serve::stream_transport`, what `mcp-lang serve --stdio`
//! serves on) and on Streamable HTTP (`400 Bad Request` with that body,
//! instead of rmcp's plain-text `415`).

use std::net::SocketAddr;
use std::time::Duration;

use mcp_lang_reference::{
    ReferenceServer,
    serve::{HttpMode, MCP_PATH, serve_transport, spawn_http, stream_transport},
};
use mcp_lang_rmcp::CONTENT_LANGUAGE_KEY;
use mcp_lang_wire::{self as wire, Exchange};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A `tools/list` of protocol 2026-07-28 (per-request `_meta`, no
/// initialization) with the id written as `id`.
fn list(id: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/acceptLanguage":"fr","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"test","version":"0"}}}}}}}}"#
    )
}

/// The same request with `_meta` written twice: JSON, but not a message rmcp
/// reads.
fn duplicated_meta(id: &str) -> String {
    list(id).replace(
        r#""params":{"_meta":{"#,
        r#""params":{"_meta":{},"_meta":{"#,
    )
}

/// A request whose preference holds a byte that is not UTF-8.
fn invalid_utf8() -> Vec<u8> {
    let mut bytes = list("3").into_bytes();
    let at = bytes.windows(4).position(|w| w == b"\"fr\"").unwrap();
    bytes[at + 2] = 0xff;
    bytes
}

fn not_json() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("bad syntax", b"{\"jsonrpc\":\"2.0\",\"id\":1,".to_vec()),
        ("not JSON at all", b"hello".to_vec()),
        ("trailing text", format!("{} x", list("2")).into_bytes()),
        ("invalid UTF-8", invalid_utf8()),
        (
            "a NUL",
            list("4").replace("\"fr\"", "\"f\u{0}r\"").into_bytes(),
        ),
        (
            "nesting over 127",
            format!("{}{}", "[".repeat(200), "]".repeat(200)).into_bytes(),
        ),
    ]
}

/// The next line the server writes, within a guard: a line that is never
/// answered fails the test instead of hanging it.
async fn next<R: tokio::io::AsyncBufRead + Unpin>(lines: &mut tokio::io::Lines<R>) -> String {
    tokio::time::timeout(std::time::Duration::from_secs(20), lines.next_line())
        .await
        .expect("an answer within 20 s")
        .unwrap()
        .unwrap()
}

#[tokio::test]
async fn stdio_answers_what_it_cannot_read_and_goes_on() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_io);
    let server = ReferenceServer::new().unwrap();
    tokio::spawn(serve_transport(server, stream_transport(read, write)));
    let (read, mut write) = tokio::io::split(client_io);
    let mut lines = BufReader::new(read).lines();

    for (what, line) in not_json() {
        assert!(std::str::from_utf8(&line).is_err() || what != "invalid UTF-8");
        write.write_all(&line).await.unwrap();
        write.write_all(b"\n").await.unwrap();
        let answer = next(&mut lines).await;
        let json: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(json["error"]["code"], -32700, "{what}: {answer}");
        assert!(
            json.get("id").is_some_and(Value::is_null),
            "{what}: {answer}"
        );
    }

    // JSON, but not a message: the id as written, whatever its form.
    for id in ["1e2", "7", r#""a\u00e9""#, "18446744073709551616"] {
        write
            .write_all(format!("{}\n", duplicated_meta(id)).as_bytes())
            .await
            .unwrap();
        let answer = next(&mut lines).await;
        assert!(
            answer.starts_with(&format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32600,"#
            )),
            "{id}: {answer}"
        );
    }

    // A notification or a response that cannot be read is not answered: the
    // next line out is the answer to the request after them.
    let bad_notification = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":7}"#;
    let bad_response = r#"{"jsonrpc":"2.0","id":9,"result":1,"error":{}}"#;
    let request = format!(
        "{bad_notification}\n{bad_response}\n{}\n",
        list("\"after\"")
    );
    write.write_all(request.as_bytes()).await.unwrap();
    let answer = next(&mut lines).await;
    let json: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(json["id"], "after", "{answer}");
    assert_eq!(
        json["result"]["_meta"][CONTENT_LANGUAGE_KEY], "fr",
        "{answer}"
    );

    // A line over rmcp's 16 MiB limit: dropped unread, answered with a null
    // id, and the session goes on.
    let over = list("5").replace("\"fr\"", &format!("\"{}\"", "f".repeat(17 << 20)));
    write.write_all(over.as_bytes()).await.unwrap();
    write.write_all(b"\n").await.unwrap();
    let answer = next(&mut lines).await;
    let json: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(json["error"]["code"], -32600, "{answer}");
    assert!(json["id"].is_null());
    write
        .write_all(format!("{}\n", list("6")).as_bytes())
        .await
        .unwrap();
    let answer = next(&mut lines).await;
    assert!(answer.contains(r#""id":6,"result""#), "{answer}");
}

/// A `tools/list` as a 2025-11-25 HTTP client sends it, with the id written
/// as `id`.
fn http_list(id: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/acceptLanguage":"fr"}}}}}}"#
    )
}

#[tokio::test]
async fn http_answers_a_body_it_cannot_read_with_400_and_a_json_rpc_error() {
    let any = SocketAddr::from(([127, 0, 0, 1], 0));
    let http = spawn_http(ReferenceServer::new().unwrap(), any, HttpMode::Stateless)
        .await
        .unwrap();
    let addr = http.local_addr();
    for (what, body) in not_json() {
        let answer = raw_post(addr, "application/json", &body).await;
        assert_eq!(answer.status, 400, "{what}: {answer:?}");
        assert!(
            answer.header_values("content-type")[0].starts_with("application/json"),
            "{what}: {answer:?}"
        );
        let json = answer.json().unwrap();
        assert_eq!(json["error"]["code"], -32700, "{what}: {json}");
        assert!(json.get("id").is_some_and(Value::is_null), "{what}: {json}");
    }
    let duplicated = http_list("1e2").replace(
        r#""params":{"_meta":{"#,
        r#""params":{"_meta":{},"_meta":{"#,
    );
    let answer = raw_post(
        addr,
        "application/json; charset=utf-8",
        duplicated.as_bytes(),
    )
    .await;
    assert_eq!(answer.status, 400, "{answer:?}");
    let text = String::from_utf8(answer.body).unwrap();
    assert!(
        text.starts_with(r#"{"jsonrpc":"2.0","id":1e2,"error":{"code":-32600,"#),
        "{text}"
    );
    // Another media type is still rmcp's own `415`, about the media type.
    let answer = raw_post(addr, "text/plain", http_list("9").as_bytes()).await;
    assert_eq!(answer.status, 415, "{answer:?}");
    // Still serving.
    let answer = raw_post(addr, "application/json", http_list("8").as_bytes()).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.json().unwrap()["id"], 8);
    http.shutdown().await;
}

/// POSTs `body` (any bytes) with this `Content-Type`; the answer.
async fn raw_post(addr: SocketAddr, content_type: &str, body: &[u8]) -> Exchange {
    let host = addr.to_string();
    let lines = [
        ("Host", host.as_str()),
        ("Content-Type", content_type),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let request = wire::request("POST", MCP_PATH, &lines, body);
    tokio::time::timeout(Duration::from_secs(20), wire::send(addr, &request))
        .await
        .expect("an answer within 20 s")
        .unwrap()
}
