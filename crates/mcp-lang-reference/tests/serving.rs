//! The serving functions themselves: a server on a loopback port from start
//! to shutdown, any router served the same way, the router driven in
//! process, and the stdio transport on an in-process pipe. (What the server
//! answers over each is in `loopback.rs`, `in_process.rs` and
//! `json_rpc_errors.rs`; its limits in `limits.rs`.)

use std::net::SocketAddr;

use axum::body::Body;
use http::Request;
use http::header::{CONTENT_LANGUAGE, CONTENT_TYPE};
use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::{
    HttpMode, MCP_PATH, http_router, serve_transport, spawn_http, spawn_router, stream_transport,
};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;
use tower_service::Service;

const ANY_PORT: ([u8; 4], u16) = ([127, 0, 0, 1], 0);

#[tokio::test(flavor = "current_thread")]
async fn a_server_listens_on_its_port_until_shutdown() {
    for mode in [HttpMode::Stateless, HttpMode::Sessions] {
        let server = ReferenceServer::new().unwrap();
        let http = spawn_http(server, SocketAddr::from(ANY_PORT), mode)
            .await
            .unwrap();
        let addr = http.local_addr();
        assert!(addr.ip().is_loopback() && addr.port() != 0, "{addr}");
        assert_eq!(http.url(), format!("http://{addr}{MCP_PATH}"));
        assert!(http.url().ends_with("/mcp"));
        tokio::net::TcpStream::connect(addr).await.unwrap();
        http.shutdown().await;
        // No longer listening.
        assert!(tokio::net::TcpStream::connect(addr).await.is_err());
    }
}

#[tokio::test(flavor = "current_thread")]
async fn any_router_is_served_the_same_way() {
    let server = ReferenceServer::new().unwrap();
    let http = spawn_router(SocketAddr::from(ANY_PORT), move |cancel| {
        http_router(server, HttpMode::Stateless, cancel)
    })
    .await
    .unwrap();
    assert!(http.url().ends_with("/mcp"));
    tokio::net::TcpStream::connect(http.local_addr())
        .await
        .unwrap();
    http.shutdown().await;
}

#[tokio::test(flavor = "current_thread")]
async fn the_router_answers_in_process_without_a_socket() {
    let server = ReferenceServer::new().unwrap();
    let mut router = http_router(server, HttpMode::Stateless, CancellationToken::new());
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
        "capabilities":{},"clientInfo":{"name":"test","version":"0"},
        "_meta":{"io.modelcontextprotocol/acceptLanguage":"ga"}}}"#;
    let request = Request::post(MCP_PATH)
        .header(CONTENT_TYPE, "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("host", "localhost")
        .header("accept-language", "ga")
        .body(Body::from(init))
        .unwrap();
    let response = router.call(request).await.unwrap();
    assert_eq!(response.headers()[CONTENT_LANGUAGE], "ga");
}

#[tokio::test(flavor = "current_thread")]
async fn the_stdio_transport_serves_any_pair_of_streams() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(serve_transport(
        ReferenceServer::new().unwrap(),
        stream_transport(read, write),
    ));
    let (read, mut write) = tokio::io::split(client_io);
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"0"}}}}"#;
    write
        .write_all(format!("{list}\n").as_bytes())
        .await
        .unwrap();
    let answer = BufReader::new(read)
        .lines()
        .next_line()
        .await
        .unwrap()
        .unwrap();
    assert!(
        answer.contains(r#""io.modelcontextprotocol/contentLanguage":"de""#),
        "{answer}"
    );
}
