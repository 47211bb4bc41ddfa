//! The suite's self-test in process: every fault injected into the reference
//! server is caught, every latitude passes, with a profile. (The CI's
//! `conformance` step runs the full matrix against `mcp-lang serve` as a
//! separate process, over every transport, with and without a profile.)

use mcp_lang_conformance::{Needs, scenarios};
use mcp_lang_faults::self_test::{Mode, Setup, cases, every_alteration, run_matrix};
use mcp_lang_faults::{Fault, FaultLayer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_is_caught_and_every_latitude_passes_in_process() {
    let cases = cases(&every_alteration(), &[Setup::Both], &[Mode::Profile]);
    let matrix = run_matrix(
        std::path::Path::new(env!("CARGO_BIN_EXE_mcp-lang-faults")),
        &cases,
        2,
        |_| {},
    )
    .await;
    println!("{}", matrix.table());
    assert!(matrix.ok(), "{}", matrix.table());
}

#[test]
fn every_fault_names_existing_scenarios() {
    for fault in Fault::ALL {
        assert!(!fault.caught_by().is_empty(), "{fault} has no scenario");
        for id in fault.caught_by() {
            assert!(
                scenarios::find(id).is_some(),
                "{fault} names unknown scenario {id}"
            );
        }
    }
}

/// Every scenario can be made to fail by some fault, except the one
/// no fault above the HTTP parser can express: an HTTP/1.1 parser (hyper, as
/// every server stack uses one) strips the whitespace around a field line
/// before any layer sees it, so "does not trim" cannot be injected. A
/// scenario that runs on stdio too is proven there: some fault that acts on
/// stdio names it.
#[test]
fn every_scenario_is_named_by_a_fault() {
    for scenario in scenarios::all() {
        if scenario.id == "agree.surrounding-whitespace" {
            continue;
        }
        let named_by = |stdio_only: bool| {
            Fault::ALL.iter().any(|f| {
                f.caught_by().contains(&scenario.id) && (!stdio_only || f.layer().acts_on_stdio())
            })
        };
        assert!(named_by(false), "no fault proves {} can fail", scenario.id);
        if scenario.needs == Needs::Any {
            assert!(
                named_by(true),
                "no fault proves {} can fail on stdio",
                scenario.id
            );
        }
    }
    assert!(Fault::ALL.iter().any(|f| f.layer() == FaultLayer::Message));
}
