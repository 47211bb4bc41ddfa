//! The suite's self-test: every fault injected into the reference server is
//! caught by the scenario for the rule it breaks.

use mcp_lang_conformance::faults::self_test::{check_all, expected_failures};
use mcp_lang_conformance::scenarios;
use mcp_lang_conformance::faults::{Fault, FaultLayer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_is_caught() {
    let score = check_all().await.unwrap();
    for check in &score.checks {
        let mark = if check.caught { "caught" } else { "MISSED" };
        println!(
            "{mark:>6}  {:<36} {}",
            check.fault.name(),
            check.fault.description()
        );
        for (scenario, transport, outcome, reason) in &check.details {
            println!(
                "        {transport:<5} {scenario:<28} {outcome}: {}",
                reason.chars().take(140).collect::<String>()
            );
        }
    }
    println!("faults caught: {}/{}", score.caught(), score.checks.len());
    assert_eq!(score.checks.len(), Fault::ALL.len());
    assert!(
        score.missed().is_empty(),
        "faults not caught: {:?}",
        score.missed()
    );
}

#[test]
fn every_fault_names_existing_scenarios() {
    for fault in Fault::ALL {
        let expected = expected_failures(*fault);
        assert!(!expected.is_empty(), "{fault} has no scenario");
        for id in expected {
            assert!(
                scenarios::find(id).is_some(),
                "{fault} names unknown scenario {id}"
            );
        }
    }
}

/// Every server scenario can be made to fail by some fault, except the one
/// no fault above the HTTP parser can express: an HTTP/1.1 parser (hyper, as
/// every server stack uses one) strips the whitespace around a field line
/// before any layer sees it, so "does not trim" cannot be injected.
#[test]
fn every_server_scenario_is_proven_by_a_fault() {
    let named: Vec<&str> = Fault::ALL
        .iter()
        .flat_map(|f| expected_failures(*f).iter().copied())
        .collect();
    for scenario in scenarios::all() {
        if scenario.needs == mcp_lang_conformance::scenario::Needs::Client
            || scenario.id == "agree.surrounding-whitespace"
        {
            continue;
        }
        assert!(
            named.contains(&scenario.id),
            "no fault proves {} can fail",
            scenario.id
        );
        // A scenario that runs on stdio too is proven there: some fault that
        // acts on every transport names it.
        if scenario.needs == mcp_lang_conformance::scenario::Needs::Any {
            assert!(
                Fault::ALL.iter().any(|f| f.layer() != FaultLayer::Http
                    && expected_failures(*f).contains(&scenario.id)),
                "no fault proves {} can fail on stdio",
                scenario.id
            );
        }
    }
}

/// Over Streamable HTTP with sessions and the handshake protocol, where the
/// elicitation is a server-to-client request the suite answers on the POST's
/// event stream, an elicitation built in the default language is caught too.
/// (The self-test above runs HTTP stateless, where elicitation is an
/// `input_required` result.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_elicitation_fault_is_caught_over_http_with_sessions() {
    use mcp_lang_conformance::run::{Config, Target, run};
    use mcp_lang_reference::ReferenceServer;
    use mcp_lang_reference::serve::HttpMode;

    let fault = Fault::ElicitationDefaultLanguage;
    let server = mcp_lang_conformance::faults::spawn_http(
        ReferenceServer::new().unwrap(),
        ([127, 0, 0, 1], 0).into(),
        HttpMode::Sessions,
        Some(fault),
    )
    .await
    .unwrap();
    let mut config = Config::new(Target::Url(server.url()));
    config.protocol = "2025-11-25".into();
    config.client_side = false;
    config.only = expected_failures(fault)
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let report = run(&config).await.unwrap();
    server.shutdown().await;
    assert!(!report.rows.is_empty());
    for row in &report.rows {
        assert_eq!(
            row.outcome.as_str(),
            "fail",
            "{}: {}",
            row.scenario.id,
            row.outcome.reason()
        );
    }
}
