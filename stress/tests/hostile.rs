//! Hostile preference sizes against `mcp-lang serve` as a child process, over
//! Streamable HTTP and stdio: 64 KiB and 1 MiB preferences made of thousands
//! of ranges, deep subtags, comma runs, or plain garbage.
//!
//! What is asserted, by counting rather than timing:
//!
//! - **every range counts**: a decisive range after thousands of unmatched
//!   ones (a `q=1` range last, an exclusion last) decides, as it would without
//!   them, so nothing past a cap is ignored (decision M10);
//! - **bytes read**: a body over the layer's limit (4 MiB) gets `413` with a
//!   JSON-RPC error, and a client streaming 64 MiB is cut off after a bounded
//!   number of bytes instead of being read to the end;
//! - **memory**: the server's peak resident set (`VmHWM`) stays under a fixed
//!   bound after all of it;
//! - every request gets an answer (the SEP's fallback or a clear error) and the
//!   server keeps serving afterwards — each exchange has a hang guard
//!   (`HANG_GUARD`), which fails the test instead of hanging it.

use std::{net::SocketAddr, path::Path, time::Duration};

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_http::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use mcp_lang_stress::{
    Expectation,
    child::{HANG_GUARD, ServeProcess, StdioSession, spawn_http},
    client::{Answer, Connection},
    expect::tools_list,
    preference::{comma_run, deep_subtags, junk_ranges, malformed, many_ranges},
};
use mcp_lang_wire::{self as wire, Exchange};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const KIB: usize = 1 << 10;
const MIB: usize = 1 << 20;
/// The layer's default body limit (`LanguageLayer::DEFAULT_BODY_LIMIT`).
const BODY_LIMIT: usize = mcp_lang_http::LanguageLayer::DEFAULT_BODY_LIMIT;
/// Peak resident memory allowed for the server after every hostile request
/// (a debug build; the largest accepted body is 4 MiB).
const PEAK_RSS_LIMIT_KIB: u64 = 256 * 1024;

fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_mcp-lang-under-test"))
}

/// One hostile case: a preference and the tag the server must answer in.
struct Case {
    name: String,
    preference: String,
    /// The same preference without its unmatched ranges, which must not
    /// change the answer.
    essence: &'static str,
    expected: &'static str,
}

/// The shapes, at `bytes` each. The expected tags are spelled out, and checked
/// against an independent `Negotiator` too.
fn cases(bytes: usize) -> Vec<Case> {
    let size = |s: &str| format!("{s} ({} KiB)", bytes / KIB);
    let mut late_winner = junk_ranges(63, "fr;q=0.5");
    late_winner.push_str(", ");
    late_winner.push_str(&many_ranges(bytes, "ja"));
    let mut late_exclusion = String::from("fr, de;q=0.5, ");
    late_exclusion.push_str(&many_ranges(bytes, "fr;q=0"));
    vec![
        Case {
            // Thousands of unmatched ranges, then `fr`: every range counts.
            name: size("thousands of ranges, fr last"),
            preference: many_ranges(bytes, "fr"),
            essence: "fr",
            expected: "fr",
        },
        Case {
            // `fr;q=0.5` is the 64th range; `ja` (q=1), the last of
            // thousands, beats it.
            name: size("a q=1 range after thousands wins"),
            preference: late_winner,
            essence: "fr;q=0.5, ja",
            expected: "ja",
        },
        Case {
            // `fr;q=0` last excludes the `fr` of the first range (D3: among
            // repeats, q=0 wins), which leaves `de`.
            name: size("an exclusion after thousands excludes"),
            preference: late_exclusion,
            essence: "fr, de;q=0.5, fr;q=0",
            expected: "de",
        },
        Case {
            name: size("deep subtags"),
            preference: deep_subtags(bytes),
            essence: "de-abcdefgh",
            expected: "de",
        },
        Case {
            name: size("comma run, ja last"),
            preference: comma_run(bytes, "ja"),
            essence: "ja",
            expected: "ja",
        },
        Case {
            name: size("malformed"),
            preference: malformed(bytes),
            essence: "aaaaaaaaa",
            expected: "en",
        },
    ]
}

#[test]
fn the_expected_tags_agree_with_an_independent_negotiator() {
    let expect = Expectation::for_reference_server().unwrap();
    for bytes in [64 * KIB, MIB] {
        for case in cases(bytes) {
            assert!(case.preference.len() >= bytes, "{}", case.name);
            assert_eq!(
                expect.tag(Some(&case.preference)),
                case.expected,
                "{}",
                case.name
            );
        }
    }
    // Around the old cap of 64 ranges and far beyond it, the last range
    // decides.
    for junk in [63, 64, 65, 127, 128, 129, 10_000] {
        assert_eq!(expect.tag(Some(&junk_ranges(junk, "fr"))), "fr", "{junk}");
    }
}

/// Thousands of unmatched ranges change nothing: every case gets the answer
/// (tag, quality and reason) of its short essence, at 64 KiB and at 1 MiB.
/// The answers differ between the cases, and most come from the last range,
/// so no case passes by reading only a prefix of the value.
#[test]
fn unmatched_ranges_never_change_the_answer() {
    let negotiator = Expectation::for_reference_server()
        .unwrap()
        .negotiator()
        .clone();
    let answer = |preference: &str| {
        let n = negotiator.negotiate_header(Some(preference));
        (n.tag().to_owned(), n.quality(), n.reason())
    };
    let mut many = 0;
    for bytes in [64 * KIB, MIB] {
        for case in cases(bytes) {
            assert_eq!(
                answer(&case.preference),
                answer(case.essence),
                "{}",
                case.name
            );
            many +=
                usize::from(AcceptLanguage::parse(&case.preference).is_ok_and(|h| h.len() > 4096));
        }
    }
    assert!(many >= 6, "the cases must have thousands of ranges: {many}");
}

fn content_language(body: &Value) -> Option<&str> {
    body.pointer("/result/_meta")?
        .get(CONTENT_LANGUAGE_KEY)?
        .as_str()
}

fn header_lines(answer: &Answer, name: http::header::HeaderName) -> Vec<String> {
    answer
        .headers
        .get_all(name)
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect()
}

async fn post(addr: SocketAddr, body: String, lines: &[&str]) -> Answer {
    tokio::time::timeout(HANG_GUARD, async {
        let mut connection = Connection::open(addr, "/mcp").await.unwrap();
        connection.post(body, lines).await.unwrap()
    })
    .await
    .expect("the server answered within the hang guard")
}

fn report_memory(label: &str, process: &ServeProcess) -> u64 {
    let peak = process.peak_rss_kib().unwrap_or(0);
    eprintln!(
        "{label}: server peak RSS {} KiB, current RSS {} KiB, log written {} bytes",
        peak,
        process.rss_kib().unwrap_or(0),
        process.log_bytes()
    );
    peak
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_preferences_over_http() {
    let (mut process, addr) = spawn_http(bin()).await.unwrap();
    let baseline = report_memory("http: started", &process);
    let expect = Expectation::for_reference_server().unwrap();
    let tools = |id| tools_list(id, None);

    for bytes in [64 * KIB, MIB] {
        for case in cases(bytes) {
            let body = tools_list(1, Some(&case.preference));
            // The preference in `_meta` and mirrored into the header, as a
            // SEP-2792 client sends it.
            if bytes <= 64 * KIB {
                let answer = post(addr, body.clone(), &[&case.preference]).await;
                assert_eq!(answer.status, 200, "{}", case.name);
                let json: Value = serde_json::from_slice(&answer.body).unwrap();
                assert_eq!(
                    content_language(&json),
                    Some(case.expected),
                    "{}",
                    case.name
                );
                assert_eq!(
                    header_lines(&answer, http::header::CONTENT_LANGUAGE),
                    [case.expected]
                );
                expect
                    .check_tools_list(
                        Some(&case.preference),
                        answer.status,
                        &answer.body,
                        Some(&answer.headers),
                        false,
                    )
                    .unwrap();
            } else {
                // A 1 MiB field line is over hyper's limit on a request head
                // (about 400 KiB): a clear `431`, before the body is read.
                let (status, _) = post_rejected(addr, &body, &[&case.preference]).await;
                assert_eq!(status, 431, "{}", case.name);
            }
            // The same preference with the header stripped (a proxy removed
            // it): tolerated, negotiated from `_meta`, and private.
            let answer = post(addr, body, &[]).await;
            assert_eq!(answer.status, 200, "{}", case.name);
            let json: Value = serde_json::from_slice(&answer.body).unwrap();
            assert_eq!(
                content_language(&json),
                Some(case.expected),
                "{}",
                case.name
            );
            expect
                .check_tools_list(
                    Some(&case.preference),
                    answer.status,
                    &answer.body,
                    Some(&answer.headers),
                    true,
                )
                .unwrap();
            assert!(process.is_running());
        }
        report_memory(
            &format!("http: after the {} KiB cases", bytes / KIB),
            &process,
        );
    }

    // Over the body limit (4 MiB): 413 with a JSON-RPC error, the check not
    // skipped and the handler never reached.
    let huge = many_ranges(BODY_LIMIT + 1, "fr");
    let (status, body) = post_rejected(addr, &tools_list(2, Some(&huge)), &[]).await;
    assert_eq!(status, 413);
    let json: Value = serde_json::from_slice(&body).unwrap();
    assert!(
        json["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{json}"
    );
    eprintln!("http: over the limit: 413 {}", json["error"]["message"]);

    // A chunked body with no length, streamed up to 64 MiB: the layer stops
    // reading at its limit and answers 413; the client is cut off long before
    // it has sent everything.
    let (status, sent) = stream_chunked(addr, 64 * MIB).await;
    eprintln!(
        "http: chunked stream: status {status}, {sent} bytes sent before the server stopped reading"
    );
    assert_eq!(status, 413);
    assert!(
        sent < BODY_LIMIT + 16 * MIB,
        "the server read far beyond its limit: {sent} bytes accepted"
    );

    // Still serving, in the right language.
    let answer = post(addr, tools(3), &[]).await;
    assert_eq!(answer.status, 200);
    let peak = report_memory("http: at the end", &process);
    assert!(
        peak < PEAK_RSS_LIMIT_KIB,
        "peak RSS {peak} KiB (baseline {baseline} KiB) is over {PEAK_RSS_LIMIT_KIB} KiB"
    );
    process.stop().await;
}

/// POSTs `body` on a raw socket, writing and reading at once
/// ([`wire::round_trip`]): a server that rejects a request early answers and
/// closes while the client is still writing, which a client that writes
/// first (hyper's) reports as a broken pipe instead of the answer. Returns
/// the status and the body.
async fn post_rejected(addr: SocketAddr, body: &str, lines: &[&str]) -> (u16, Vec<u8>) {
    let lines: Vec<_> = lines
        .iter()
        .map(|line| ("Accept-Language", *line))
        .collect();
    let request = wire::post_request(&addr.to_string(), "/mcp", &lines, body.as_bytes());
    let answer = tokio::time::timeout(HANG_GUARD, wire::send(addr, &request))
        .await
        .expect("the server answered within the hang guard")
        .expect("an HTTP response");
    (answer.status, answer.body)
}

/// POSTs a chunked body of up to `total` bytes while reading the answer;
/// returns the status and how many body bytes were written before the server
/// answered and stopped reading.
async fn stream_chunked(addr: SocketAddr, total: usize) -> (u16, usize) {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    write.write_all(head.as_bytes()).await.unwrap();
    let (answered, mut stop) = tokio::sync::oneshot::channel::<()>();
    let writer = tokio::spawn(async move {
        let chunk = format!("10000\r\n{}\r\n", " ".repeat(0x10000));
        let mut sent = 0;
        while sent < total {
            if stop.try_recv().is_ok() {
                break;
            }
            if write.write_all(chunk.as_bytes()).await.is_err() {
                break;
            }
            sent += 0x10000;
        }
        sent
    });
    let mut response = Vec::new();
    let mut buffer = [0u8; 4096];
    let status = tokio::time::timeout(HANG_GUARD, async {
        loop {
            let n = read.read(&mut buffer).await.unwrap_or(0);
            if n == 0 {
                break;
            }
            response.extend_from_slice(buffer.get(..n).unwrap_or_default());
            if response.windows(4).any(|w| w == b"\r\n\r\n") {
                break;
            }
        }
        Exchange::parse(&response).map_or(0, |answer| answer.status)
    })
    .await
    .expect("the server answered within the hang guard");
    let _ = answered.send(());
    // Give the writer a moment to notice a closed connection.
    let sent = tokio::time::timeout(Duration::from_secs(30), writer)
        .await
        .map(|joined| joined.unwrap_or(total))
        .unwrap_or(total);
    (status, sent)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_preferences_over_stdio() {
    let mut session = StdioSession::start(bin()).await.unwrap();
    let baseline = report_memory("stdio: started", &session.process);
    for bytes in [64 * KIB, MIB] {
        for case in cases(bytes) {
            let answer = session
                .request(
                    "tools/list",
                    json!({"_meta": {ACCEPT_LANGUAGE_KEY: case.preference}}),
                )
                .await
                .unwrap();
            assert_eq!(
                content_language(&answer),
                Some(case.expected),
                "{}",
                case.name
            );
        }
        report_memory(
            &format!("stdio: after the {} KiB cases", bytes / KIB),
            &session.process,
        );
    }

    // One line over rmcp's stdio limit (16 MiB, `DEFAULT_MAX_LINE_LENGTH`):
    // dropped unread and answered -32600 with a null id (it was never read, so
    // its id is unknown), and the session goes on.
    let id = session.reserve_id();
    let over = tools_list(id, Some(&comma_run(17 * MIB, "ja")));
    session.send_line(&over).await.unwrap();
    let refused = session.next_message().await.unwrap();
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    assert!(refused["id"].is_null(), "{refused}");
    let answer = session
        .request("tools/list", json!({"_meta": {ACCEPT_LANGUAGE_KEY: "ga"}}))
        .await
        .unwrap();
    assert_eq!(content_language(&answer), Some("ga"));
    assert!(session.process.is_running());

    let peak = report_memory("stdio: at the end", &session.process);
    assert!(
        peak < PEAK_RSS_LIMIT_KIB,
        "peak RSS {peak} KiB (baseline {baseline} KiB) is over {PEAK_RSS_LIMIT_KIB} KiB"
    );
    session.process.stop().await;
}
