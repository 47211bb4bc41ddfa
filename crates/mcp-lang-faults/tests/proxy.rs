//! The fault proxy against the reference server over stdio: every fault it
//! applies is caught by a scenario its row names, as when the fault is
//! injected inside the server. (The mutation bench runs the same against
//! the official SDK servers.)

use std::path::Path;
use std::sync::Arc;

use mcp_lang_conformance::profile::ToolRole;
use mcp_lang_conformance::{Config, Profile, Target, run};
use mcp_lang_faults::proxy::Proxy;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-lang-faults");

/// The reference server's languages, and its tools named: the suite calls a
/// named tool whatever its annotations say (`send_confirmation` is not
/// read-only).
fn reference_profile() -> Profile {
    let mut profile = Profile::new(
        ["en", "fr", "fr-CA", "de", "ja", "ga"]
            .map(String::from)
            .to_vec(),
        "en".into(),
    )
    .unwrap();
    for role in ToolRole::ALL {
        let name = profile.tool(role).to_owned();
        profile.name_tool(role, &name, None);
    }
    profile
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_the_proxy_applies_is_caught_on_the_reference_server() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let profile = reference_profile();
    let profile_file = dir.join("proxy-reference.toml");
    std::fs::write(&profile_file, profile.to_toml()).unwrap();
    let limit = Arc::new(tokio::sync::Semaphore::new(3));
    let mut tasks = tokio::task::JoinSet::new();
    for fault in Proxy::faults() {
        let (limit, profile, profile_file) =
            (Arc::clone(&limit), profile.clone(), profile_file.clone());
        tasks.spawn(async move {
            let _permit = limit.acquire_owned().await;
            let applied =
                Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("proxy-applied-{fault}"));
            let mut config = Config::new(Target::Stdio(format!(
                "{BIN} proxy --fault {fault} --profile {} --applied {} -- {BIN} serve --stdio",
                profile_file.display(),
                applied.display()
            )));
            config.profile = Some(profile);
            config.only = fault.caught_by().iter().map(|s| (*s).to_owned()).collect();
            let report = run(&config).await.map_err(|e| e.to_string());
            let changed = std::fs::read_to_string(&applied).unwrap_or_default();
            (fault, report, changed)
        });
    }
    let mut wrong = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        let (fault, report, changed) = joined.unwrap();
        let report = match report {
            Ok(report) => report,
            Err(error) => {
                wrong.push(format!("{fault}: the run could not test: {error}"));
                continue;
            }
        };
        let caught = report.rows.iter().any(|r| {
            fault.caught_by().contains(&r.scenario.id)
                && (r.outcome.is_fail() || r.outcome.is_warn())
        });
        if !caught {
            wrong.push(format!(
                "{fault}: not caught (the proxy changed {} messages):\n{}",
                changed.trim(),
                report.table()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The HTTP proxy in front of the reference server: every fault of the HTTP
/// stack it applies is caught, or found nothing to act on (a fault of event
/// streams in front of a server that answers JSON).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_the_http_proxy_applies_is_caught_on_the_reference_server() {
    use mcp_lang_faults::Fault;
    use mcp_lang_faults::proxy::{proxies_http, proxy_http};
    use mcp_lang_reference::ReferenceServer;
    use mcp_lang_reference::serve::{HttpMode, spawn_http};

    let any = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let upstream = spawn_http(ReferenceServer::new().unwrap(), any, HttpMode::Stateless)
        .await
        .unwrap();
    let profile = reference_profile();
    let mut wrong = Vec::new();
    let mut caught = 0;
    for fault in Fault::ALL.iter().copied().filter(|f| proxies_http(*f)) {
        let proxy = proxy_http(fault, &profile, any, &upstream.url())
            .await
            .unwrap();
        let mut config = Config::new(Target::Url(proxy.http.url()));
        config.profile = Some(profile.clone());
        config.only = fault.caught_by().iter().map(|s| (*s).to_owned()).collect();
        let report = run(&config).await;
        let acted_on = proxy.acted_on();
        proxy.http.shutdown().await;
        let report = match report {
            Ok(report) => report,
            Err(error) => {
                wrong.push(format!("{fault}: the run could not test: {error}"));
                continue;
            }
        };
        let flagged = report.rows.iter().any(|r| {
            fault.caught_by().contains(&r.scenario.id)
                && (r.outcome.is_fail() || r.outcome.is_warn())
        });
        match (flagged, acted_on) {
            (true, _) => caught += 1,
            (false, false) => {}
            (false, true) => wrong.push(format!("{fault}: not caught:\n{}", report.table())),
        }
    }
    upstream.shutdown().await;
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(caught >= 15, "only {caught} HTTP faults caught");
}
