//! Error bodies stay small whatever the request held: `mcp-lang serve --http`
//! as a child process, sent HeaderMismatch requests whose `_meta` preference
//! is just under the layer's 4 MiB body limit, one at a time and 64 at once.
//!
//! What is asserted, by counting: the bytes of every answer (status line,
//! field lines and body) stay under a few KiB, so 64 concurrent mismatches of
//! 3.9 MiB each get back a few hundred KiB in all, not twice what was sent;
//! the id is echoed as written; and the server's peak resident set stays
//! under a bound. The figures are printed (`--nocapture`) for
//! `docs/reliability.md`.

use std::{net::SocketAddr, path::Path};

use mcp_lang_http::ACCEPT_LANGUAGE_KEY;
use mcp_lang_stress::child::{HANG_GUARD, ServeProcess, spawn_http};
use mcp_lang_wire::{self as wire, Exchange};
use serde_json::Value;

const KIB: usize = 1 << 10;
const MIB: usize = 1 << 20;
/// The layer's default body limit (`LanguageLayer::DEFAULT_BODY_LIMIT`).
const BODY_LIMIT: usize = mcp_lang_http::LanguageLayer::DEFAULT_BODY_LIMIT;
/// The most bytes one error answer may take, head included.
const ANSWER_LIMIT: usize = 4 * KIB;
/// Concurrent mismatches in the amplification run.
const CONCURRENT: usize = 64;
/// Peak resident memory allowed for the server after the concurrent run (a
/// debug build; every request body is read in full, 64 × 3.9 MiB).
const PEAK_RSS_LIMIT_KIB: u64 = 512 * 1024;

fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_mcp-lang-under-test"))
}

/// A `tools/list` whose `_meta` preference is `value`, with the id written
/// as `id` (raw JSON text).
fn request(id: &str, value: &str) -> String {
    let meta = serde_json::json!({ ACCEPT_LANGUAGE_KEY: value });
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{meta}}}}}"#)
}

/// One exchange on its own connection: the whole answer (head and body) as
/// bytes, read until the server closes (`Connection: close`).
async fn exchange(addr: SocketAddr, body: String, accept_language: &str) -> Vec<u8> {
    let lines = [
        ("MCP-Protocol-Version", "2025-11-25"),
        ("Accept-Language", accept_language),
    ];
    let request = wire::post_request(&addr.to_string(), "/mcp", &lines, body.as_bytes());
    tokio::time::timeout(HANG_GUARD, wire::round_trip(addr, &request))
        .await
        .expect("the server answered within the hang guard")
        .expect("an answer")
}

/// The status and the JSON body of an answer.
fn parse(answer: &[u8]) -> (u16, Value) {
    let answer = Exchange::parse(answer).expect("an HTTP response");
    (answer.status, answer.json().unwrap_or(Value::Null))
}

fn report(label: &str, process: &ServeProcess) -> u64 {
    let peak = process.peak_rss_kib().unwrap_or(0);
    eprintln!(
        "{label}: server peak RSS {peak} KiB, current RSS {} KiB",
        process.rss_kib().unwrap_or(0)
    );
    peak
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mismatch_of_any_size_is_answered_in_a_few_kib() {
    let (mut process, addr) = spawn_http(bin()).await.unwrap();
    report("started", &process);

    // Just under the body limit: a 4 MiB request whose `_meta` preference
    // disagrees with its header at byte 2.
    let value = format!("en{}", "x".repeat(BODY_LIMIT - 200));
    let body = request("1e2", &value);
    assert!(body.len() <= BODY_LIMIT && body.len() > BODY_LIMIT - KIB);
    let answer = exchange(addr, body, "en").await;
    let (status, json) = parse(&answer);
    eprintln!(
        "one mismatch of {} bytes: {status}, {} bytes back",
        value.len(),
        answer.len()
    );
    assert_eq!(status, 400, "{json}");
    assert_eq!(json["error"]["code"], -32020, "{json}");
    assert!(
        answer.len() <= ANSWER_LIMIT,
        "a {}-byte answer to a {}-byte preference",
        answer.len(),
        value.len()
    );
    // The id as written, not `null` and not `100.0`.
    let text = String::from_utf8_lossy(&answer);
    assert!(text.contains(r#""id":1e2"#), "{text}");
    let data = &json["error"]["data"];
    assert_eq!(data["metaLength"], value.len(), "{json}");
    assert_eq!(data["headerLength"], 2, "{json}");
    assert_eq!(data["offset"], 2, "{json}");
    assert!(process.is_running());

    // 64 at once, 3.9 MiB each.
    let value = format!("en{}", "y".repeat(39 * MIB / 10));
    let mut tasks = Vec::new();
    for id in 0..CONCURRENT {
        let body = request(&id.to_string(), &value);
        tasks.push(tokio::spawn(exchange(addr, body, "en")));
    }
    let mut sent = 0;
    let mut received = 0;
    for task in tasks {
        let answer = task.await.unwrap();
        let (status, json) = parse(&answer);
        assert_eq!(status, 400, "{json}");
        received += answer.len();
        sent += value.len();
    }
    let peak = report("after the concurrent mismatches", &process);
    eprintln!(
        "{CONCURRENT} concurrent mismatches: {:.1} MiB of preferences sent, {} bytes ({:.1} KiB) back",
        sent as f64 / MIB as f64,
        received,
        received as f64 / KIB as f64
    );
    assert!(
        received <= CONCURRENT * ANSWER_LIMIT,
        "{received} bytes back for {CONCURRENT} mismatches"
    );
    assert!(
        peak < PEAK_RSS_LIMIT_KIB,
        "peak RSS {peak} KiB is over {PEAK_RSS_LIMIT_KIB} KiB"
    );
    process.stop().await;
}
