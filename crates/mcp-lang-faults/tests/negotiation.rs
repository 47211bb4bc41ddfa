//! The protocol version a run speaks: offered, refused, negotiated down to
//! the `initialize` handshake of a server before 2026-07-28, or named with
//! `--protocol`; and the report of a run that could not test, in every
//! format.

mod common;

use mcp_lang_conformance::report::ProtocolNote;
use mcp_lang_conformance::{Config, Format, Target, Verdict, run};
use mcp_lang_faults::{Latitude, spawn_http};
use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::HttpMode;
use serde_json::Value;

fn protocol<'a>(notes: &'a [ProtocolNote], transport: &str) -> &'a ProtocolNote {
    notes
        .iter()
        .find(|n| n.transport == transport)
        .unwrap_or_else(|| panic!("no protocol note for {transport}: {notes:?}"))
}

/// A server that speaks only the handshake versions (as one on the
/// TypeScript SDK 1.x does) passes with no protocol named: over both
/// transports the run offers 2026-07-28, is refused, and continues on
/// 2025-11-25, saying so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handshake_only_server_passes_on_the_version_negotiated() {
    let mut config = common::config();
    config.only = vec![
        "match.weights".into(),
        "reporting.".into(),
        "http.mismatch".into(),
        "scope.retry".into(),
    ];
    let report = common::bench()
        .alteration(Latitude::HandshakeOnly)
        .run(config.clone())
        .await
        .unwrap();
    assert_eq!(report.verdict(), Verdict::Passed, "{}", report.table());
    // A check that needs 2026-07-28 says the server does not speak it, not
    // to pass a flag that cannot help.
    let mut needs_newest = 0;
    for row in &report.rows {
        let reason = row.outcome.reason();
        assert!(
            !reason.contains("--protocol"),
            "{}: {reason}",
            row.scenario.id
        );
        needs_newest += usize::from(reason.contains(
            "the server speaks 2025-11-25, and this check needs 2026-07-28, which it does not speak",
        ));
    }
    let initialize = report
        .rows_of("reporting.initialize")
        .find(|r| r.transport == "stdio")
        .unwrap();
    assert!(
        initialize
            .outcome
            .reason()
            .contains("which it does not speak"),
        "{}",
        initialize.outcome.reason()
    );
    assert!(needs_newest >= 3, "{}", report.table());
    for transport in ["stdio", "http"] {
        let note = protocol(&report.protocols, transport);
        assert_eq!(note.version.as_deref(), Some("2025-11-25"), "{note:?}");
        assert!(note.fell_back() && !note.forced, "{note:?}");
        assert!(
            note.tried[0].starts_with("server/discover under 2026-07-28"),
            "{note:?}"
        );
    }
    assert!(protocol(&report.protocols, "stdio").tried[0].contains("-32601"));
    assert!(protocol(&report.protocols, "http").tried[0].contains("HTTP 400"));
    let table = report.table();
    assert!(
        table.contains(
            "protocol over http: 2025-11-25, negotiated: the server does not speak 2026-07-28"
        ),
        "{table}"
    );
    let json = report.json();
    assert_eq!(json["protocol"][0]["fell_back"], true, "{json}");
    assert_eq!(json["protocol"][1]["version"], "2025-11-25", "{json}");
}

/// The unaltered reference server speaks the newest version: nothing falls
/// back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_server_is_run_on_the_newest_version() {
    let mut config = common::config();
    config.only = vec!["reporting.initialize".into()];
    let report = common::bench().run(config.clone()).await.unwrap();
    assert_eq!(report.verdict(), Verdict::Passed, "{}", report.table());
    for note in &report.protocols {
        assert_eq!(note.version.as_deref(), Some("2026-07-28"), "{note:?}");
        assert!(!note.fell_back(), "{note:?}");
    }
}

/// Named with `--protocol`, a version is spoken as named: the handshake-only
/// server refuses 2026-07-28 on Streamable HTTP, and the run cannot test it
/// (which is what negotiating avoids).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forced_version_is_not_negotiated() {
    let server = ReferenceServer::new().unwrap();
    let http = spawn_http(
        server,
        ([127, 0, 0, 1], 0).into(),
        HttpMode::Stateless,
        Some(Latitude::HandshakeOnly.into()),
    )
    .await
    .unwrap();
    let mut config = Config::new(Target::Url(http.url()));
    config.protocol = Some("2026-07-28".into());
    let forced = run(&config).await;
    config.protocol = Some("2025-11-25".into());
    config.only = vec!["match.weights".into(), "scope.retry".into()];
    let handshake = run(&config).await;
    http.shutdown().await;

    let error = forced.unwrap_err();
    assert_eq!(error.report.verdict().exit_status(), 2);
    assert!(
        error.to_string().contains("Unsupported protocol version"),
        "{error}"
    );
    let note = &error.report.protocols[0];
    assert!(
        note.forced && note.version.as_deref() == Some("2026-07-28"),
        "{note:?}"
    );

    let report = handshake.unwrap();
    config.protocol = Some("latest".into());
    let error = run(&config).await.unwrap_err().to_string();
    assert!(error.contains("not `latest`"), "{error}");
    assert_eq!(report.verdict(), Verdict::Passed, "{}", report.table());
    assert_eq!(report.protocols[0].line(), "2025-11-25, as --protocol asks");
    // Here a flag can help: the run chose the older version.
    let retry = report.rows_of("scope.retry").next().unwrap();
    assert!(
        retry
            .outcome
            .reason()
            .contains("run with --protocol 2026-07-28"),
        "{}",
        retry.outcome.reason()
    );
}

/// A run that cannot reach its target still writes a report in every
/// format: the error, the target, and what was tried.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_report_of_a_run_that_could_not_test_names_the_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let error = run(&Config::new(Target::Url(url.clone())))
        .await
        .unwrap_err();
    let report = &error.report;
    assert_eq!(report.verdict().exit_status(), 2);

    let json: Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
    assert_eq!(json["exit_status"], 2, "{json}");
    assert_eq!(json["verdict"], "could not test", "{json}");
    assert!(
        json["error"].as_str().unwrap().contains("refused"),
        "{json}"
    );
    assert_eq!(json["target"], format!("Streamable HTTP {url}"), "{json}");
    assert!(
        json["protocol"][0]["tried"][0]
            .as_str()
            .unwrap()
            .starts_with("server/discover under 2026-07-28 failed on the wire"),
        "{json}"
    );
    assert_eq!(
        json["suite"]["version"],
        env!("CARGO_PKG_VERSION"),
        "{json}"
    );

    let xml = report.render(Format::Junit);
    assert!(xml.contains("errors=\"1\""), "{xml}");
    assert!(xml.contains("<error message=\"could not test: "), "{xml}");
    assert!(xml.contains(&url), "{xml}");

    let table = report.render(Format::Table);
    assert!(table.contains("COULD NOT TEST (exit status 2)"), "{table}");
}
