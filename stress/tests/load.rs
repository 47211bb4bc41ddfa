//! The bounded load run of `cargo xtask ci`: concurrent clients on loopback,
//! a random preference per request, no errors and no variant of another
//! preference; and proof that the checks can fail, against servers with an
//! injected fault (`mcp_lang_faults`).

use std::{net::SocketAddr, sync::Arc};

use mcp_lang_faults::{Fault, spawn_http};
use mcp_lang_reference::{
    ReferenceServer,
    serve::{HttpMode, MCP_PATH},
};
use mcp_lang_stress::{
    Expectation,
    load::{self, LoadConfig},
    servers::{self, Stack},
};

fn small(seed: u64) -> LoadConfig {
    LoadConfig {
        clients: 8,
        requests_per_client: 40,
        seed,
        ..LoadConfig::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_clients_each_get_their_own_variant_through_the_layer() {
    let expect = Arc::new(Expectation::for_reference_server().unwrap());
    let server = servers::start(Stack::Layer).await.unwrap();
    let report = load::run(server.addr(), servers::PATH, small(1), expect).await;
    server.shutdown().await;
    assert_eq!(report.requests, 320);
    assert_eq!(report.errors, 0, "{:#?}", report.problems);
    assert_eq!(report.mismatches, 0, "{:#?}", report.problems);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_clients_each_get_their_own_variant_without_the_layer() {
    let expect = Arc::new(Expectation::for_reference_server().unwrap());
    let server = servers::start(Stack::Bare).await.unwrap();
    let config = LoadConfig {
        check_headers: false,
        ..small(2)
    };
    let report = load::run(server.addr(), servers::PATH, config, expect).await;
    server.shutdown().await;
    assert_eq!(report.errors, 0, "{:#?}", report.problems);
    assert_eq!(report.mismatches, 0, "{:#?}", report.problems);
}

/// Every preference the generator draws is answered as the expectation says,
/// and the generator covers every supported language and the default
/// fallback (so a run of it exercises each variant).
#[test]
fn the_generator_reaches_every_variant() {
    let expect = Expectation::for_reference_server().unwrap();
    let mut rng = mcp_lang_stress::Rng::new(5);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let value = mcp_lang_stress::preference::random(&mut rng);
        seen.insert(expect.tag(Some(&value)).to_owned());
    }
    let all: std::collections::BTreeSet<String> = ["de", "en", "fr", "fr-CA", "ga", "ja"]
        .map(String::from)
        .into();
    assert_eq!(seen, all);
}

async fn faulty(fault: Fault) -> (SocketAddr, impl std::future::Future<Output = ()>) {
    let server = spawn_http(
        ReferenceServer::new().unwrap(),
        SocketAddr::from(([127, 0, 0, 1], 0)),
        HttpMode::Stateless,
        Some(fault.into()),
    )
    .await
    .unwrap();
    (server.local_addr(), server.shutdown())
}

/// The load checks are not vacuous: a server that breaks one rule is caught
/// under the same load.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_checks_catch_broken_servers() {
    let expect = Arc::new(Expectation::for_reference_server().unwrap());
    for fault in [
        Fault::ReusePreference,
        Fault::IgnoreWeights,
        Fault::UntranslatedTitles,
        Fault::ContentLanguageDiffers,
        Fault::DropVary,
        Fault::PublicWhenStripped,
    ] {
        let (addr, shutdown) = faulty(fault).await;
        // Every other request without a preference: `reuse-preference` shows only on
        // such a request that follows one in another language, and with one in eleven
        // (the default) a run of 120 requests could, by the order in which the
        // clients' requests happened to arrive, see none.
        let config = LoadConfig {
            clients: 4,
            requests_per_client: 30,
            absent_every: 2,
            ..small(3)
        };
        let report = load::run(addr, MCP_PATH, config, Arc::clone(&expect)).await;
        shutdown.await;
        assert!(
            report.mismatches > 0,
            "{fault}: no mismatch caught in {} requests ({} errors)",
            report.requests,
            report.errors
        );
    }
}
