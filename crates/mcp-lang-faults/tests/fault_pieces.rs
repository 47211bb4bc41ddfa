//! Each way a fault is injected, seen from the wire: around any tower
//! service, in the router `mcp-lang serve --http` ships (on a port), and in
//! the stdio transport; one self-test case.

mod common;

use std::net::SocketAddr;

use axum::{Router, body::Body};
use http::header::VARY;
use http::{Request, Response};
use mcp_lang_conformance::Verdict;
use mcp_lang_faults::self_test::{Case, Mode, Setup, run_case};
use mcp_lang_faults::{Alteration, AlterationService, Fault, Served, spawn_http};
use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::{HttpMode, MCP_PATH};
use mcp_lang_wire::post;
use tower_service::Service;

/// A handler that answers with `Vary: Accept-Language`, behind `alteration`.
async fn around_a_handler(alteration: Fault) -> Response<Body> {
    let app = Router::new().route(
        "/mcp",
        axum::routing::post(|| async { ([(VARY, "Accept-Language")], "{}") }),
    );
    let mut service = AlterationService::new(
        app,
        ReferenceServer::new().unwrap(),
        Some(alteration.into()),
    );
    let request = Request::post("/mcp").body(Body::from("{}")).unwrap();
    service.call(request).await.unwrap()
}

#[tokio::test]
async fn an_http_fault_acts_around_any_service_and_a_handler_fault_does_not() {
    let dropped = around_a_handler(Fault::DropVary).await;
    assert!(dropped.headers().get(VARY).is_none());
    // A handler fault is not an HTTP fault: the service forwards untouched.
    let untouched = around_a_handler(Fault::IgnoreWeights).await;
    assert_eq!(untouched.headers()[VARY], "Accept-Language");
}

/// The reference server with `fault`, through the router and the accept loop
/// `mcp-lang serve --http` ships, on a loopback port.
async fn serve(fault: Fault) -> Served {
    let any = SocketAddr::from(([127, 0, 0, 1], 0));
    let server = ReferenceServer::new().unwrap();
    spawn_http(server, any, HttpMode::Stateless, Some(fault.into()))
        .await
        .unwrap()
}

#[tokio::test]
async fn a_fault_in_the_shipped_router_is_seen_on_the_answer() {
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
        "capabilities":{},"clientInfo":{"name":"test","version":"0"},
        "_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#;
    // An HTTP fault outside the language layer drops the Vary it added.
    let http = serve(Fault::DropVary).await;
    let answer = post(http.local_addr(), MCP_PATH, &[], init).await.unwrap();
    assert!(answer.header_values("vary").is_empty(), "{answer:?}");
    assert_eq!(answer.header_values("content-language"), ["de"]);
    http.shutdown().await;
    // A handler fault inside rmcp's service: the result reports no
    // contentLanguage, so the layer has no Content-Language to mirror.
    let http = serve(Fault::OmitContentLanguage).await;
    let answer = post(http.local_addr(), MCP_PATH, &[], init).await.unwrap();
    assert!(
        answer.header_values("content-language").is_empty(),
        "{answer:?}"
    );
    assert_eq!(answer.header_values("vary"), ["Accept-Language"]);
    http.shutdown().await;
}

#[tokio::test]
async fn a_server_that_reads_only_the_first_line_lets_a_contradiction_through() {
    let http = serve(Fault::FirstLineOnly).await;
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de"}}}"#;
    let lines = [
        ("MCP-Protocol-Version", "2025-11-25"),
        ("Accept-Language", "de"),
        ("Accept-Language", "fr"),
    ];
    let answer = post(http.local_addr(), MCP_PATH, &lines, list)
        .await
        .unwrap();
    assert_eq!(answer.status, 200); // a conforming server: 400, -32020
    http.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_self_test_case_names_the_scenario_that_caught_its_fault() {
    let case = Case {
        alteration: Some(Fault::IgnoreWeights.into()),
        setup: Setup::Both,
        mode: Mode::Profile,
    };
    let result = run_case(
        std::path::Path::new(env!("CARGO_BIN_EXE_mcp-lang-faults")),
        &case,
    )
    .await;
    assert!(result.ok, "{}", result.detail);
    assert_eq!(result.caught_by, ["match.weights"]);
}

/// The suite against the embedded server with `fault`, the scenarios that
/// must catch it only.
async fn run_with(fault: Fault) -> mcp_lang_conformance::Report {
    let mut config = common::config();
    config.only = fault.caught_by().iter().map(|s| (*s).to_owned()).collect();
    common::bench()
        .alteration(Alteration::from(fault))
        .run(config.clone())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_against_a_faulty_server_fails_the_scenario_that_checks_the_rule() {
    // An HTTP fault, around the router: HTTP only.
    let report = run_with(Fault::DropVary).await;
    assert_eq!(report.verdict(), Verdict::Failed);
    let outcomes: Vec<_> = report
        .rows_of("cache.vary")
        .map(|r| r.outcome.as_str())
        .collect();
    assert_eq!(outcomes, ["skip", "fail"]); // stdio has no Vary; HTTP lost it
    // A message fault, in the stdio transport (`serve_stream`) as well as on
    // event streams: progress notifications lose their contentLanguage.
    let report = run_with(Fault::OmitNotificationLanguage).await;
    let failed: Vec<_> = report
        .rows_of("notification.per-message-meta")
        .filter(|r| r.outcome.is_fail())
        .map(|r| r.transport)
        .collect();
    assert!(failed.contains(&"stdio"), "{}", report.table());
}

/// What a run says about a broken server quotes values as the wire has
/// them: never Rust's debug formatting of an option, a JSON value or a
/// string.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reasons_quote_values_as_the_wire_has_them() {
    for fault in [
        Fault::StickyPreference,
        Fault::ErrorOnUnmatched,
        Fault::ErrorOnMalformed,
        Fault::CaseSensitiveMatch,
        Fault::ReportPreference,
        Fault::FirstLineOnly,
        Fault::DropVary,
    ] {
        let report = run_with(fault).await;
        assert_eq!(report.verdict(), Verdict::Failed, "{}", report.table());
        for row in &report.rows {
            let reason = row.outcome.reason();
            for debug in ["Some(", "None", "Value(", "String(", "Absent"] {
                assert!(
                    !reason.contains(debug),
                    "{fault:?}, {}: {reason}",
                    row.scenario.id
                );
            }
        }
    }
}

#[tokio::test]
async fn a_server_that_reads_its_own_bytes_keeps_the_whitespace_around_a_value() {
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"en"}}}"#;
    // The relay before the HTTP stack compares `  en ` as it arrived.
    let http = serve(Fault::RawFieldValue).await;
    let padded = post(
        http.local_addr(),
        MCP_PATH,
        &[("Accept-Language", "  en ")],
        list,
    )
    .await
    .unwrap();
    assert_eq!(padded.status, 400, "{padded:?}");
    assert_eq!(
        padded.json().unwrap()["error"]["code"],
        -32020,
        "{padded:?}"
    );
    // Without the whitespace the request passes through to the server.
    let plain = post(
        http.local_addr(),
        MCP_PATH,
        &[("Accept-Language", "en")],
        list,
    )
    .await
    .unwrap();
    assert_eq!(plain.status, 200, "{plain:?}");
    assert_eq!(plain.header_values("content-language"), ["en"]);
    http.shutdown().await;
    // The real server reads both as `en`.
    let http = serve(Fault::DropVary).await;
    let padded = post(
        http.local_addr(),
        MCP_PATH,
        &[("Accept-Language", "  en ")],
        list,
    )
    .await
    .unwrap();
    assert_eq!(padded.status, 200, "{padded:?}");
    http.shutdown().await;
}
