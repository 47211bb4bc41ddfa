//! The conformance suite against a server nobody here wrote in Rust:
//! `tests/interop/sep2792_server.py`, a SEP-2792 server on the official
//! Python MCP SDK (`mcp` 2.3.0, its low-level `Server` API), run as a separate
//! process over stdio and over Streamable HTTP, with the `mcp-lang conformance`
//! binary reading its JSON report.
//!
//! - The conformant server passes: no scenario fails, over stdio and over HTTP,
//!   on protocol 2026-07-28 and with the `initialize` handshake (2025-11-25),
//!   with its profile (`tests/interop/sep2792_server.toml`) and by discovery.
//!   Over HTTP on 2026-07-28 with the profile nothing is skipped but what
//!   [`FULLEST_RUN_SKIPS`] names, each with its reason.
//! - Every fault the server can switch on (`SEP2792_FAULT=NAME`) is caught:
//!   each scenario [`FAULTS`] names fails, on every transport the fault acts
//!   on. The same scenarios pass against the conformant server, so the fault
//!   is what fails them.
//! - The server's matcher (`tests/interop/sep2792_lang.py`) gives the answers
//!   of the shared cases under `testdata/` (ops `parse`, `negotiate`,
//!   `lookup`, `agree`), as the Rust crates do.
//!
//! The suite runs in parallel (a few at a time), one server process per run
//! (`tests/common/suite.rs`, shared with `typescript_server`). Like
//! `python_interop`, the test provisions the Python environment itself
//! (`tests/common/python.rs`), is `#[ignore]`d in a plain `cargo test`, and
//! runs in the `interop` step of `cargo xtask ci`:
//!
//! ```text
//! cargo test -p mcp-lang-cli --test python_server -- --ignored --nocapture
//! ```

#[path = "common/listen.rs"]
mod listen;
#[path = "common/process.rs"]
mod process;
#[path = "common/python.rs"]
mod python;
#[path = "common/suite.rs"]
mod suite;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use process::interop_file;
use python::venv;
use suite::{BOTH, Fault, HTTP_ONLY, Run, Server, Transport};

/// What the fullest run (Streamable HTTP, 2026-07-28, with the profile) skips,
/// and why: the server takes a latitude there, or the SDK answers itself.
const FULLEST_RUN_SKIPS: &[(&str, &str)] = &[
    (
        "sse.header-agrees",
        "the server sends no Content-Language on event streams, which the SEP allows",
    ),
    (
        "reporting.initialize",
        "the SDK answers server/discover itself, ignoring the preference (allowed) with an English title",
    ),
];

/// Which scenarios catch which fault of `sep2792_server.py` (its `FAULTS`):
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
        caught_by: &["cache.vary", "cache.stripped-header"],
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
        caught_by: &["cache.stripped-header"],
    },
    Fault {
        name: "no-content-language",
        acts_on: HTTP_ONLY,
        caught_by: &[
            "http.response-mirror",
            "http.response-one-line",
            "http.error-mirror",
        ],
    },
];

/// The Python server, run by the venv's `python`.
fn server(python: &Path) -> Server {
    Server {
        name: "Python",
        program: python.to_owned(),
        script: interop_file("sep2792_server.py"),
        http_args: &["http"],
        current_dir: None,
        profile: interop_file("sep2792_server.toml"),
        // The first start compiles the SDK's bytecode.
        listen_timeout: Duration::from_secs(90),
    }
}

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn conformant_python_server_passes() {
    let Some(python) = venv() else { return };
    let mut runs = Vec::new();
    for transport in [Transport::Stdio, Transport::Http] {
        for protocol in [None, Some("2025-11-25")] {
            runs.push(Run::conformant(transport, protocol, true));
        }
        runs.push(Run::conformant(transport, None, false));
    }
    suite::check_conformant(
        &server(&python),
        &runs,
        |run| run.transport == Transport::Http && run.protocol.is_none() && run.profile,
        FULLEST_RUN_SKIPS,
        |_, _| {},
    );
}

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn every_python_server_fault_is_caught() {
    let Some(python) = venv() else { return };
    suite::check_faults(&server(&python), FAULTS, None);
}

#[test]
#[ignore = "needs python3 and PyPI; run by `cargo xtask ci` with --ignored"]
fn python_matcher_answers_the_shared_testdata() {
    let Some(python) = venv() else { return };
    let mut matcher = Command::new(&python);
    matcher.arg(interop_file("sep2792_lang.py"));
    suite::check_matcher(matcher, "Python");
}
