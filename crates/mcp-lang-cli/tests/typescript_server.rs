//! The conformance suite against a server on the official TypeScript MCP SDK:
//! `tests/interop/sep2792_server.mjs`, a SEP-2792 server on
//! `@modelcontextprotocol/sdk` 1.32.2 and its high-level `McpServer` API, run
//! by Node as a separate process over stdio and over Streamable HTTP, with the
//! `mcp-lang conformance` binary reading its JSON report.
//!
//! - The conformant server passes: no scenario fails, over stdio and over HTTP,
//!   run as a user first would, with no flag at all (discovery, the suite's
//!   default protocol, which the suite negotiates down to what the SDK
//!   speaks), with its profile (`tests/interop/sep2792_server_ts.toml`), and
//!   both again on the SDK's own protocol, 2025-11-25. Over HTTP with the
//!   profile nothing is skipped but what [`FULLEST_RUN_SKIPS`] names, each
//!   with its reason.
//! - Every fault the server can switch on (`SEP2792_FAULT=NAME`) is caught:
//!   each scenario [`FAULTS`] names fails, on every transport the fault acts
//!   on (with the profile, on 2025-11-25, the only modern protocol the SDK
//!   speaks). The same scenarios pass against the conformant server, so the
//!   fault is what fails them.
//! - The server's matcher (`tests/interop/sep2792_lang.mjs`) gives the answers
//!   of the shared cases under `testdata/` (ops `parse`, `negotiate`,
//!   `lookup`, `agree`), as the Rust crates do.
//!
//! The server's progress tool, `count`, requires its argument `n`, as tools
//! written on the SDK commonly do: a suite that calls it without arguments
//! gets the SDK's validation error and no progress.
//!
//! The suite runs in parallel (a few at a time), one server process per run
//! (`tests/common/suite.rs`, shared with `python_server`). The test installs the SDK itself (`tests/common/node.rs`, `npm ci` of
//! `tests/interop/node/package-lock.json` under target/), is `#[ignore]`d in a
//! plain `cargo test`, and runs in the `interop` step of `cargo xtask ci`:
//!
//! ```text
//! cargo test -p mcp-lang-cli --test typescript_server -- --ignored --nocapture
//! ```

#[path = "common/listen.rs"]
mod listen;
#[path = "common/node.rs"]
mod node;
#[path = "common/process.rs"]
mod process;
#[path = "common/suite.rs"]
mod suite;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use node::node_dir;
use process::interop_file;
use suite::{BOTH, Fault, HTTP_ONLY, Run, Server, Transport};

/// The newest protocol the SDK speaks (its `LATEST_PROTOCOL_VERSION`).
const SDK_PROTOCOL: &str = "2025-11-25";

/// The server's profile, for `--profile`.
const PROFILE: &str = "sep2792_server_ts.toml";

/// What the fullest run (Streamable HTTP, with the profile, on the SDK's
/// protocol) skips, and why: the server takes a latitude there, or the
/// protocol has no such thing.
const FULLEST_RUN_SKIPS: &[(&str, &str)] = &[
    (
        "sse.header-agrees",
        "the SDK answers every request with an event stream, sent before its messages are known: no Content-Language on it, which the SEP allows",
    ),
    (
        "http.response-mirror",
        "the SDK answers tools/list with an event stream, never a JSON response",
    ),
    (
        "http.response-one-line",
        "the SDK answers tools/list with an event stream, never a JSON response",
    ),
    (
        "http.error-mirror",
        "the SDK answers with an event stream, never a JSON response",
    ),
    (
        "cache.ttl-scope",
        "ttlMs and cacheScope do not exist before protocol 2026-07-28",
    ),
    (
        "scope.retry",
        "input_required results and their retries do not exist before protocol 2026-07-28",
    ),
];

/// Which scenarios catch which fault of `sep2792_server.mjs` (its `FAULTS`):
/// the one table to adjust when scenario ids change.
const FAULTS: &[Fault] = &[
    Fault {
        name: "ignore-weights",
        acts_on: BOTH,
        caught_by: &["match.weights", "match.exclusion", "match.wildcard"],
    },
    Fault {
        name: "sticky-preference",
        acts_on: BOTH,
        caught_by: &["scope.change", "scope.omission"],
    },
    Fault {
        name: "unstamped-notifications",
        acts_on: BOTH,
        caught_by: &["progress.localized", "notification.per-message-meta"],
    },
    Fault {
        name: "unreported-error-language",
        acts_on: BOTH,
        caught_by: &["error.localized-meta"],
    },
    Fault {
        name: "drop-vary",
        acts_on: HTTP_ONLY,
        caught_by: &["cache.vary", "sse.vary"],
    },
    Fault {
        name: "skip-agreement",
        acts_on: HTTP_ONLY,
        caught_by: &[
            "http.mismatch",
            "agree.case",
            "agree.list-whitespace",
            "agree.q-spelling",
            "agree.meta-untrimmed",
            "agree.every-line",
            "agree.before-grammar",
        ],
    },
    Fault {
        name: "first-line-only",
        acts_on: HTTP_ONLY,
        caught_by: &["agree.two-lines", "agree.every-line"],
    },
    Fault {
        name: "public-when-stripped",
        acts_on: HTTP_ONLY,
        caught_by: &["cache.stripped-header", "sse.stripped-header"],
    },
];

/// The TypeScript server, run by Node from `dir`, beside its `node_modules`.
fn server(dir: &Path) -> Server {
    Server {
        name: "TypeScript",
        program: "node".into(),
        script: dir.join("sep2792_server.mjs"),
        http_args: &["http", "0"],
        current_dir: Some(dir.to_owned()),
        profile: interop_file(PROFILE),
        listen_timeout: Duration::from_secs(60),
    }
}

#[test]
#[ignore = "needs node, npm and the npm registry; run by `cargo xtask ci` with --ignored"]
fn conformant_typescript_server_passes() {
    let Some(dir) = node_dir() else { return };
    let mut runs = Vec::new();
    for transport in [Transport::Stdio, Transport::Http] {
        for protocol in [None, Some(SDK_PROTOCOL)] {
            for profile in [false, true] {
                runs.push(Run::conformant(transport, protocol, profile));
            }
        }
    }
    suite::check_conformant(
        &server(&dir),
        &runs,
        |run| run.transport == Transport::Http && run.protocol == Some(SDK_PROTOCOL) && run.profile,
        FULLEST_RUN_SKIPS,
        |ran, problems| {
            // Without --protocol the suite offers its newest version, which
            // the SDK does not speak, and continues on the SDK's; with it, on
            // that.
            let notes = ran.report["protocol"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if notes.is_empty() {
                problems.push(format!("{}: the report names no protocol", ran.label()));
            }
            for note in &notes {
                let negotiated = ran.run.protocol.is_none();
                if note["version"] != SDK_PROTOCOL || note["fell_back"] != negotiated {
                    problems.push(format!(
                        "{}: expected {SDK_PROTOCOL}{}; the report says {}",
                        ran.label(),
                        if negotiated {
                            ", negotiated down"
                        } else {
                            ", as asked"
                        },
                        note["how"]
                    ));
                }
            }
        },
    );
}

#[test]
#[ignore = "needs node, npm and the npm registry; run by `cargo xtask ci` with --ignored"]
fn every_typescript_server_fault_is_caught() {
    let Some(dir) = node_dir() else { return };
    // With the profile, on the only modern protocol the SDK speaks.
    suite::check_faults(&server(&dir), FAULTS, Some(SDK_PROTOCOL));
}

#[test]
#[ignore = "needs node, npm and the npm registry; run by `cargo xtask ci` with --ignored"]
fn typescript_matcher_answers_the_shared_testdata() {
    // The matcher needs no package, but runs where the server does.
    let Some(dir) = node_dir() else { return };
    let mut matcher = Command::new("node");
    matcher.arg(dir.join("sep2792_lang.mjs"));
    suite::check_matcher(matcher, "JavaScript");
}
