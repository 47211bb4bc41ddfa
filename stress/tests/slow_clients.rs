//! Slow and idle clients against `mcp-lang serve --http` as a child process,
//! with its own flags (`--header-timeout 2 --body-timeout 2`):
//!
//! - 200 connections that send their request head one byte per second are all
//!   closed by the server at the header timeout;
//! - a body that stops half-way gets `408 Request Timeout` at the body timeout;
//! - with `--max-connections 4`, four idle connections hold every slot: a
//!   fifth is served only once the header timeout has closed them;
//! - the server keeps serving ordinary requests throughout.
//!
//! The figures (when connections were closed, the server's memory) are
//! printed (`--nocapture`) for `docs/reliability.md`; timing is asserted only
//! as "not before the limit" and "within a generous guard".

use std::{
    net::SocketAddr,
    path::Path,
    time::{Duration, Instant},
};

use mcp_lang_stress::{
    child::{HANG_GUARD, spawn_http_with},
    client::Connection,
    expect::tools_list,
};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

const TIMEOUT: Duration = Duration::from_secs(2);
const FLAGS: &[&str] = &["--header-timeout", "2", "--body-timeout", "2"];
const SLOW_CLIENTS: usize = 200;

fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_mcp-lang-under-test"))
}

fn head(addr: SocketAddr, content_length: usize) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         Content-Length: {content_length}\r\n\r\n"
    )
}

/// A client that sends its head one byte per second until the server closes
/// the connection; how long that took and how many bytes it sent.
async fn trickle_head(addr: SocketAddr) -> (Duration, usize) {
    let start = Instant::now();
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    let text = head(addr, 0).repeat(100);
    let writer = tokio::spawn(async move {
        let mut sent = 0;
        for byte in text.bytes() {
            if write.write_all(&[byte]).await.is_err() {
                break;
            }
            sent += 1;
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        sent
    });
    let mut buffer = [0u8; 64];
    let closed = tokio::time::timeout(HANG_GUARD, async {
        loop {
            match read.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await;
    let elapsed = start.elapsed();
    writer.abort();
    let sent = writer.await.unwrap_or_default();
    assert!(closed.is_ok(), "still open after {HANG_GUARD:?}");
    (elapsed, sent.max(elapsed.as_secs() as usize))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_idle_clients_are_cut_off_and_ordinary_ones_served() {
    let (mut process, addr) = spawn_http_with(bin(), FLAGS).await.unwrap();

    // 200 heads at one byte per second.
    let tasks: Vec<_> = (0..SLOW_CLIENTS)
        .map(|_| tokio::spawn(trickle_head(addr)))
        .collect();
    // Meanwhile, an ordinary client is served.
    let mut ordinary = Connection::open(addr, "/mcp").await.unwrap();
    let answer = ordinary.post(tools_list(1, None), &[]).await.unwrap();
    assert_eq!(answer.status, 200);
    let mut closed_after = Vec::new();
    for task in tasks {
        let (elapsed, _) = task.await.unwrap();
        closed_after.push(elapsed);
    }
    closed_after.sort();
    let (first, last) = (closed_after[0], closed_after[SLOW_CLIENTS - 1]);
    eprintln!(
        "{SLOW_CLIENTS} heads at 1 byte/s with --header-timeout 2: all closed, the first after {first:?}, the last after {last:?}; server peak RSS {} KiB",
        process.peak_rss_kib().unwrap_or(0)
    );
    assert!(
        first >= TIMEOUT,
        "closed after {first:?}, before the timeout"
    );
    assert!(last < TIMEOUT * 5, "the last closed after {last:?}");

    // A body that stops half-way: 408 at the body timeout.
    let start = Instant::now();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = tools_list(2, None);
    stream
        .write_all(head(addr, body.len()).as_bytes())
        .await
        .unwrap();
    stream
        .write_all(&body.as_bytes()[..body.len() / 2])
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(HANG_GUARD, stream.read_to_end(&mut answer))
        .await
        .expect("answered and closed")
        .unwrap();
    let elapsed = start.elapsed();
    let text = String::from_utf8_lossy(&answer);
    eprintln!(
        "a body stalled half-way with --body-timeout 2: {} after {elapsed:?}",
        text.lines().next().unwrap_or_default()
    );
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(elapsed >= TIMEOUT && elapsed < TIMEOUT * 5, "{elapsed:?}");

    assert!(process.is_running());
    process.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connection_limit_flag_holds_until_the_timeout_frees_a_slot() {
    let mut flags = FLAGS.to_vec();
    flags.extend(["--max-connections", "4"]);
    let (process, addr) = spawn_http_with(bin(), &flags).await.unwrap();
    let start = Instant::now();
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    // The fifth: a whole request, unanswered while the four hold the slots,
    // served once the header timeout has closed one of them.
    let mut fifth = TcpStream::connect(addr).await.unwrap();
    let body = tools_list(3, None);
    let request = format!("{}{body}", head(addr, body.len()));
    fifth.write_all(request.as_bytes()).await.unwrap();
    let mut buffer = [0u8; 4096];
    let n = tokio::time::timeout(HANG_GUARD, fifth.read(&mut buffer))
        .await
        .expect("served within the guard")
        .unwrap();
    let elapsed = start.elapsed();
    let text = String::from_utf8_lossy(&buffer[..n]);
    eprintln!(
        "--max-connections 4 with 4 idle connections: the fifth answered {} after {elapsed:?}",
        text.lines().next().unwrap_or_default()
    );
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(
        elapsed >= TIMEOUT,
        "served after {elapsed:?}: the limit did not hold"
    );
    process.stop().await;
}
