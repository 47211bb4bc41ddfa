//! The connection limits of `serve::spawn_router_with` (what `mcp-lang serve
//! --http` runs), over real sockets on loopback, with short limits (1 s) so
//! that each case takes a second or two:
//!
//! - a request head that trickles in, or never comes, is cut off at the
//!   header-read timeout;
//! - a request body that stalls, or trickles in, is answered `408` with a
//!   JSON-RPC error and `Connection: close` at the body-read timeout;
//! - over the connection limit, a new connection waits unread until an open
//!   one closes, and is then served;
//! - a tool that works longer than both timeouts while reporting progress, an
//!   event stream that stays open, and a client that pauses between requests
//!   are all untouched.
//!
//! Timing is asserted only as "not before the limit" (a timer never fires
//! early) and "within a generous guard" (a hang fails the test instead of
//! hanging it), never as a performance figure.

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use mcp_lang_reference::serve::{
    HttpLimits, HttpMode, HttpServer, MCP_PATH, http_router_for, spawn_router_with,
};
use mcp_lang_wire::Exchange;
use rmcp::{
    ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, InitializeResult,
        ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ServerConfig,
    },
    service::{NotificationContext, RequestContext},
    transport::StreamableHttpClientTransport,
};
use serde_json::json;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    sync::Notify,
};

const LIMIT: Duration = Duration::from_secs(1);
/// Far longer than any case needs: a hang fails instead of hanging.
const GUARD: Duration = Duration::from_secs(20);

/// A server with one tool, `slow`, that works `STEPS` × `STEP` (longer than
/// both timeouts), reporting progress after each step; `slow_then_notify`
/// also sends `notifications/tools/list_changed` a while after answering.
#[derive(Clone)]
struct Slow;

const STEPS: usize = 6;
const STEP: Duration = Duration::from_millis(500);

impl ServerHandler for Slow {
    fn get_info(&self) -> ServerConfig {
        InitializeResult::new(
            serde_json::from_value(json!({"tools": {"listChanged": true}})).unwrap(),
        )
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(serde_json::from_value(json!({"tools": [
            {"name": "slow", "inputSchema": {"type": "object"}},
            {"name": "slow_then_notify", "inputSchema": {"type": "object"}},
        ]}))
        .unwrap())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let token = context.meta.get_progress_token();
        for step in 1..=STEPS {
            tokio::time::sleep(STEP).await;
            if let Some(token) = &token {
                let mut progress = ProgressNotificationParam::new(token.clone(), step as f64);
                progress.total = Some(STEPS as f64);
                let _ = context.peer.notify_progress(progress).await;
            }
        }
        if request.name == "slow_then_notify" {
            let peer = context.peer.clone();
            tokio::spawn(async move {
                tokio::time::sleep(LIMIT * 2).await;
                let _ = peer.notify_tool_list_changed().await;
            });
        }
        Ok(CallToolResult::success(vec![ContentBlock::text("done")]).into())
    }
}

async fn spawn(mode: HttpMode, limits: HttpLimits) -> HttpServer {
    let any = SocketAddr::from(([127, 0, 0, 1], 0));
    spawn_router_with(any, limits, move |cancel| {
        http_router_for(|| Slow, mode, cancel)
    })
    .await
    .unwrap()
}

fn short_limits() -> HttpLimits {
    HttpLimits::new()
        .header_read_timeout(LIMIT)
        .body_read_timeout(LIMIT)
}

/// Reads until the server closes the connection (or resets it); the bytes read.
async fn read_until_closed(stream: &mut (impl AsyncReadExt + Unpin)) -> Vec<u8> {
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    tokio::time::timeout(GUARD, async {
        while let Ok(n) = stream.read(&mut buffer).await {
            if n == 0 {
                break;
            }
            answer.extend_from_slice(&buffer[..n]);
        }
    })
    .await
    .expect("the server closed the connection within the guard");
    answer
}

/// The answer read from a raw socket.
fn parse(answer: &[u8]) -> Exchange {
    Exchange::parse(answer).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(answer)))
}

const LIST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;

/// The head of an MCP POST declaring `content_length` body bytes, written here rather than
/// with `wire::post_request` because these tests send a head alone, or a body shorter than
/// it declares, byte by byte.
fn request_head(addr: SocketAddr, content_length: usize) -> String {
    format!(
        "POST {MCP_PATH} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         Content-Length: {content_length}\r\n\r\n"
    )
}

#[tokio::test]
async fn a_head_that_trickles_in_is_cut_off_at_the_header_timeout() {
    let http = spawn(HttpMode::Stateless, short_limits()).await;
    let start = Instant::now();
    let stream = TcpStream::connect(http.local_addr()).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    // One byte every quarter of a second, for ever: a head that never ends.
    let writer = tokio::spawn(async move {
        let request = request_head(SocketAddr::from(([127, 0, 0, 1], 1)), 0).repeat(100);
        let mut sent = 0;
        for byte in request.bytes() {
            if write.write_all(&[byte]).await.is_err() {
                break;
            }
            sent += 1;
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        sent
    });
    let answer = read_until_closed(&mut read).await;
    let elapsed = start.elapsed();
    writer.abort();
    assert!(answer.is_empty(), "no answer, just a closed connection");
    assert!(
        elapsed >= LIMIT,
        "closed after {elapsed:?}, before the limit"
    );
    assert!(elapsed < LIMIT * 5, "closed only after {elapsed:?}");
    http.shutdown().await;
}

#[tokio::test]
async fn an_idle_connection_is_closed_at_the_header_timeout() {
    let http = spawn(HttpMode::Stateless, short_limits()).await;
    let start = Instant::now();
    let mut stream = TcpStream::connect(http.local_addr()).await.unwrap();
    let answer = read_until_closed(&mut stream).await;
    assert!(answer.is_empty());
    assert!(start.elapsed() >= LIMIT);

    // After an answer, the clock starts again for the next head.
    let mut stream = TcpStream::connect(http.local_addr()).await.unwrap();
    let request = format!("{}{LIST}", request_head(http.local_addr(), LIST.len()));
    stream.write_all(request.as_bytes()).await.unwrap();
    let answered = Instant::now();
    let answer = parse(&read_until_closed(&mut stream).await);
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(answered.elapsed() >= LIMIT, "kept alive until the timeout");
    http.shutdown().await;
}

/// A body that stops half-way, and one sent a byte at a time: both are
/// answered `408` at the body timeout, and the connection is closed.
#[tokio::test]
async fn a_body_that_stalls_or_trickles_is_answered_408_at_the_body_timeout() {
    let http = spawn(HttpMode::Stateless, short_limits()).await;
    for trickle in [false, true] {
        let start = Instant::now();
        let stream = TcpStream::connect(http.local_addr()).await.unwrap();
        let (mut read, mut write) = stream.into_split();
        let request = request_head(http.local_addr(), LIST.len() * 100);
        write.write_all(request.as_bytes()).await.unwrap();
        write.write_all(&LIST.as_bytes()[..10]).await.unwrap();
        let writer = tokio::spawn(async move {
            if trickle {
                for byte in LIST.repeat(100).bytes().skip(10) {
                    if write.write_all(&[byte]).await.is_err() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
            write
        });
        let answer = parse(&read_until_closed(&mut read).await);
        let elapsed = start.elapsed();
        writer.abort();
        assert_eq!(answer.status, 408, "trickle {trickle}: {answer:?}");
        assert_eq!(answer.header_values("connection"), ["close"], "{answer:?}");
        let json = answer.json().unwrap();
        assert_eq!(json["error"]["code"], -32600, "{json}");
        assert!(json["id"].is_null());
        assert!(
            elapsed >= LIMIT,
            "trickle {trickle}: answered after {elapsed:?}"
        );
        assert!(
            elapsed < LIMIT * 5,
            "trickle {trickle}: answered after {elapsed:?}"
        );
    }
    http.shutdown().await;
}

/// Over the limit, a connection is not refused: it waits, unread, until an open
/// one closes, and is then served.
#[tokio::test]
async fn over_the_connection_limit_a_connection_waits_for_a_free_slot() {
    let limits = HttpLimits::new()
        .max_connections(2)
        .header_read_timeout(GUARD);
    let http = spawn(HttpMode::Stateless, limits).await;
    let first = TcpStream::connect(http.local_addr()).await.unwrap();
    let _second = TcpStream::connect(http.local_addr()).await.unwrap();
    let mut third = TcpStream::connect(http.local_addr()).await.unwrap();
    let request = format!("{}{LIST}", request_head(http.local_addr(), LIST.len()));
    third.write_all(request.as_bytes()).await.unwrap();
    let mut buffer = [0u8; 1024];
    let early = tokio::time::timeout(Duration::from_millis(700), third.read(&mut buffer)).await;
    assert!(
        early.is_err(),
        "answered while two connections held both slots"
    );

    drop(first);
    let n = tokio::time::timeout(GUARD, third.read(&mut buffer))
        .await
        .expect("served once a slot was free")
        .unwrap();
    assert_eq!(parse(&buffer[..n]).status, 200);
    http.shutdown().await;
}

/// What an rmcp client sees: progress notifications and a JSON-RPC result.
#[derive(Clone, Default)]
struct Watcher {
    progress: Arc<AtomicUsize>,
    list_changed: Arc<Notify>,
}

impl ClientHandler for Watcher {
    async fn on_progress(&self, _: ProgressNotificationParam, _: NotificationContext<RoleClient>) {
        self.progress.fetch_add(1, Ordering::SeqCst);
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.list_changed.notify_one();
    }
}

/// With sessions: a tool call that outlasts both timeouts (progress on its event
/// stream throughout), a pause longer than the header timeout between requests
/// (the idle connection is closed; the client opens another), and the session's
/// own event stream (`GET`), which carries a notification sent long after both
/// timeouts.
#[tokio::test]
async fn slow_answers_and_open_streams_outlive_both_timeouts() {
    let http = spawn(HttpMode::Sessions, short_limits()).await;
    let watcher = Watcher::default();
    let transport = StreamableHttpClientTransport::from_uri(http.url());
    let client = watcher.clone().serve(transport).await.unwrap();
    let started = Instant::now();
    let result = tokio::time::timeout(
        GUARD,
        client.call_tool(CallToolRequestParams::new("slow_then_notify")),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(started.elapsed() >= STEP * STEPS as u32);
    assert_eq!(result.content[0].as_text().unwrap().text, "done");
    assert_eq!(watcher.progress.load(Ordering::SeqCst), STEPS);

    // The notification comes on the session's GET stream, opened before the
    // call and idle for longer than both timeouts since.
    tokio::time::timeout(GUARD, watcher.list_changed.notified())
        .await
        .expect("tools/list_changed arrived on the session's event stream");

    // A pause longer than the header timeout, then another request.
    tokio::time::sleep(LIMIT * 2).await;
    let tools = tokio::time::timeout(GUARD, client.list_all_tools())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(tools.len(), 2);
    client.cancel().await.unwrap();
    http.shutdown().await;
}

/// Stateless: a tool call that outlasts both timeouts is answered as an event
/// stream with every progress notification, then the result.
#[tokio::test]
async fn a_slow_stateless_answer_is_not_cut_off() {
    let http = spawn(HttpMode::Stateless, short_limits()).await;
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":"p"}}}"#;
    let mut stream = TcpStream::connect(http.local_addr()).await.unwrap();
    let request = format!(
        "{}{call}",
        request_head(http.local_addr(), call.len())
            .replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let answer = read_until_closed(&mut stream).await;
    assert_eq!(parse(&answer).status, 200);
    let text = String::from_utf8_lossy(&answer);
    assert_eq!(
        text.matches("notifications/progress").count(),
        STEPS,
        "{text}"
    );
    assert!(
        text.contains(r#""id":7"#) && text.contains("done"),
        "{text}"
    );
    http.shutdown().await;
}
