//! The examples do what their docs say. `cargo test -p mcp-lang-examples` builds every
//! example of the package before running the tests, next to the test binaries
//! (`target/<profile>/examples/`); each test starts one, talks to it, and stops it. One of
//! them runs the SEP-2792 conformance suite against the axum example; `two_tools.rs` runs
//! the `mcp-lang conformance` command against the rmcp example.

mod common;

use std::process::Command;

use common::{example, post, start_server};

fn tools_list(preference: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/acceptLanguage":"{preference}"}}}}}}"#
    )
}

#[test]
fn client_sends_preferences_over_stdio_and_http() {
    let output = Command::new(example("client"))
        .env("LANG", "C")
        .env_remove("LANGUAGE")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .expect("run the client example");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Both transports, each request answered in its own preference.
    assert!(
        stdout.contains("== stdio") && stdout.contains("== Streamable HTTP"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("Météo actuelle").count(), 2, "{stdout}");
    assert_eq!(stdout.matches("現在の天気").count(), 2, "{stdout}");
    assert!(stdout.contains("Content-Language fr-CA"), "{stdout}");
    assert!(stdout.contains("refused before sending"), "{stdout}");
    assert!(stdout.contains("400 Bad Request, error -32020"), "{stdout}");
}

#[test]
fn axum_server_localizes_titles_and_rejects_mismatches() {
    let (_server, url) = start_server("axum_server", &["0"]);
    let reply = post(
        &url,
        &[("Accept-Language", "de-AT, en;q=0.5")],
        &tools_list("de-AT, en;q=0.5"),
    );
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(
        reply
            .to_ascii_lowercase()
            .contains("content-language: de\r\n"),
        "{reply}"
    );
    assert!(
        reply.contains("\"title\":\"Begrüßen\"") && reply.contains("\"name\":\"greet\""),
        "{reply}"
    );
    let reply = post(&url, &[("Accept-Language", "FR")], &tools_list("fr"));
    assert!(reply.starts_with("HTTP/1.1 400"), "{reply}");
    assert!(reply.contains("-32020"), "{reply}");
    // An explicit language argument wins for the greeting; a missing tool is a localized error.
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada","language":"ja"},"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    let reply = post(&url, &[], call);
    assert!(reply.contains("こんにちは, Ada!"), "{reply}");
    assert!(
        reply
            .to_ascii_lowercase()
            .contains("content-language: ja\r\n"),
        "{reply}"
    );
    let call = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    let reply = post(&url, &[("Accept-Language", "fr")], call);
    assert!(reply.contains("Cet outil n'existe pas."), "{reply}");
    assert!(
        reply.contains(r#""data":{"_meta":{"io.modelcontextprotocol/contentLanguage":"fr"}}"#),
        "{reply}"
    );
}

/// Runs the SEP-2792 conformance suite against a server example over HTTP and returns the
/// report; nothing may fail, and what the example does not offer is skipped.
fn conformance(url: String, profile: &str, protocol: &str) -> mcp_lang_conformance::report::Report {
    use mcp_lang_conformance::profile::Profile;
    use mcp_lang_conformance::run::{Config, Target, run};
    let mut config = Config::new(Target::Url(url));
    config.profile = Some(Profile::from_toml(profile).expect("profile"));
    config.protocol = Some(protocol.to_owned());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let report = runtime.block_on(run(&config)).expect("the suite runs");
    assert!(!report.failed(), "{}", report.table());
    report
}

/// Asserts that scenario `id` ran and passed (not skipped) in `report`.
fn assert_passed(report: &mcp_lang_conformance::report::Report, id: &str) {
    use mcp_lang_conformance::Outcome;
    let outcomes: Vec<&Outcome> = report.rows_of(id).map(|row| &row.outcome).collect();
    assert!(
        !outcomes.is_empty() && outcomes.iter().all(|o| matches!(o, Outcome::Pass)),
        "{id}: {outcomes:?}\n{}",
        report.table()
    );
}

#[test]
fn axum_server_passes_the_conformance_suite() {
    let (_server, url) = start_server("axum_server", &["0"]);
    // `greet` has an explicit `language` argument.
    let profile = "supported = [\"en\", \"fr\", \"de\", \"ja\"]\ndefault = \"en\"\nexplicit_language_tool = \"greet\"";
    let report = conformance(url, profile, "2025-06-18");
    assert_passed(&report, "explicit.argument-wins");
    assert_passed(&report, "error.localized-meta");
    // Skipped: elicitation, progress and cache-field scenarios, which need tools and fields
    // this small example does not have.
    let summary = report.summary();
    assert!(summary.passed >= 30, "{summary:?}");
}
