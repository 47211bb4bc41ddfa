//! The suite against the reference server: every scenario passes over stdio
//! and Streamable HTTP.

mod common;

use mcp_lang_conformance::profile::ToolRole;
use mcp_lang_conformance::{Config, Format, Needs, Profile, Target, Verdict, run, scenarios};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_server_passes_over_stdio_and_http() {
    let report = common::bench().run(common::config()).await.unwrap();
    println!("{}", report.table());
    assert_eq!(report.verdict(), Verdict::Passed, "{}", report.table());
    // Discovery found every language of the reference server, on both transports.
    assert_eq!(report.discovery.len(), 2);
    for note in &report.discovery {
        assert!(note.undecided.is_none(), "{note:?}");
        for tag in ["fr", "fr-CA", "de", "ja", "ga"] {
            assert!(
                note.lines.iter().any(|l| l.starts_with(&format!("{tag} "))),
                "{tag}: {note:?}"
            );
        }
    }
    // Every scenario ran on both transports; HTTP-only ones are
    // skipped, with the reason, on stdio and pass on HTTP. Without a
    // profile the suite does not call the elicitation tool, which is not
    // annotated read-only, and says what to pass.
    for scenario in scenarios::all() {
        let rows: Vec<_> = report.rows_of(scenario.id).collect();
        match scenario.needs {
            // The elicitation tool is not read-only: without a profile
            // naming it, the suite does not call it.
            Needs::Any
                if scenario.id.starts_with("elicitation.") || scenario.id == "scope.retry" =>
            {
                assert_eq!(rows.len(), 2, "{}", scenario.id);
                for row in &rows {
                    assert_eq!(row.outcome.as_str(), "skip", "{}", scenario.id);
                    assert!(
                        row.outcome.reason().contains("readOnlyHint")
                            && row
                                .outcome
                                .reason()
                                .contains("elicitation_tool = \"send_confirmation\""),
                        "{}",
                        row.outcome.reason()
                    );
                }
            }
            Needs::Any => {
                assert_eq!(rows.len(), 2, "{}", scenario.id);
                assert!(
                    rows.iter().all(|r| r.outcome.as_str() == "pass"),
                    "{}: {rows:?}",
                    scenario.id
                );
            }
            Needs::Http => {
                let stdio = rows.iter().find(|r| r.transport == "stdio").unwrap();
                assert!(stdio.outcome.reason().contains("Streamable HTTP"));
                let http = rows.iter().find(|r| r.transport == "http").unwrap();
                // The reference server sends no Content-Language on an event
                // stream (decision H2), so there is no header to compare.
                let expected = if scenario.id == "sse.header-agrees" {
                    "skip"
                } else {
                    "pass"
                };
                assert_eq!(
                    http.outcome.as_str(),
                    expected,
                    "{}: {}",
                    scenario.id,
                    http.outcome.reason()
                );
            }
        }
    }
    // The machine formats carry the same results.
    let json: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
    assert_eq!(json["summary"]["failed"], 0);
    assert_eq!(json["results"].as_array().unwrap().len(), report.rows.len());
    let junit = report.render(Format::Junit);
    assert!(junit.contains("<testsuite name=\"sep-2792.http\""));
    assert_eq!(junit.matches("<testcase ").count(), report.rows.len());
}

/// The reference server's languages, and its tools named (so that the
/// suite calls its elicitation tool, which is not read-only).
fn reference_profile() -> Profile {
    let server = mcp_lang_reference::ReferenceServer::new().unwrap();
    let mut profile = Profile::new(
        server.languages().supported().map(str::to_owned).collect(),
        server.languages().default_tag().to_owned(),
    )
    .unwrap();
    for role in ToolRole::ALL {
        let name = profile.tool(role).to_owned();
        profile.name_tool(role, &name, None);
    }
    profile
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_elicitation_tool_runs_when_a_profile_names_it() {
    let mut config = common::config();
    config.profile = Some(reference_profile());
    config.only = vec![
        "elicitation.".into(),
        "identifiers.".into(),
        "scope.retry".into(),
    ];
    let report = common::bench().run(config.clone()).await.unwrap();
    // Every selected scenario, on both transports.
    let selected = mcp_lang_conformance::scenarios::all()
        .iter()
        .filter(|s| config.only.iter().any(|p| s.id.starts_with(p.as_str())))
        .count();
    assert!(selected >= 3);
    assert_eq!(report.rows.len(), 2 * selected, "{}", report.table());
    for row in &report.rows {
        assert_eq!(
            row.outcome.as_str(),
            "pass",
            "{}: {}",
            row.scenario.id,
            row.outcome.reason()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handshake_protocol_passes_too() {
    let mut config = common::config();
    config.protocol = Some("2025-11-25".into());
    config.only = vec![
        "match.".into(),
        "scope.".into(),
        "discovery.".into(),
        "elicitation.".into(),
        "progress.".into(),
    ];
    let report = common::bench().run(config.clone()).await.unwrap();
    assert!(!report.failed(), "{}", report.table());
}

/// The reference server over Streamable HTTP with sessions, on a free loopback port.
async fn sessions_server() -> mcp_lang_reference::serve::HttpServer {
    use mcp_lang_reference::ReferenceServer;
    use mcp_lang_reference::serve::{HttpMode, spawn_http};

    spawn_http(
        ReferenceServer::new().unwrap(),
        ([127, 0, 0, 1], 0).into(),
        HttpMode::Sessions,
    )
    .await
    .unwrap()
}

/// A Streamable HTTP server with sessions (`Mcp-Session-Id`, event-stream
/// responses), reached by URL: with the handshake protocol the connection
/// opens a session first; with the stateless one it needs none. Nothing
/// fails; what an event stream cannot show (a JSON response's mirror) skips.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_with_sessions_passes_by_url() {
    let server = sessions_server().await;
    for protocol in ["2025-11-25", "2026-07-28"] {
        let mut config = Config::new(Target::Url(server.url()));
        config.protocol = Some(protocol.into());
        let report = run(&config).await.unwrap();
        assert!(!report.failed(), "{protocol}\n{}", report.table());
        let passed = report.rows.iter().filter(|r| r.outcome.as_str() == "pass");
        assert!(passed.count() > 20, "{protocol}\n{}", report.table());
        let mirror = report.rows_of("http.mismatch").next().unwrap();
        assert_eq!(mirror.outcome.as_str(), "pass", "{protocol}");
    }
    server.shutdown().await;
}

/// Before protocol 2026-07-28, a server with sessions elicits with a
/// server-to-client `elicitation/create` on the event stream of the
/// `tools/call` POST; the suite answers it with a POST in the same session
/// and reads on to the final result. The elicitation scenarios then run
/// (not skip) and pass.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn elicitation_over_http_with_sessions_passes() {
    let server = sessions_server().await;
    let mut config = Config::new(Target::Url(server.url()));
    config.protocol = Some("2025-11-25".into());
    config.profile = Some(reference_profile());
    config.only = vec!["elicitation.".into()];
    let report = run(&config).await.unwrap();
    server.shutdown().await;
    let ids: Vec<_> = report.rows.iter().map(|r| r.scenario.id).collect();
    assert_eq!(
        ids,
        ["elicitation.localized", "elicitation.stable-keys"],
        "{}",
        report.table()
    );
    for row in &report.rows {
        assert_eq!(
            (row.transport, row.outcome.as_str()),
            ("http", "pass"),
            "{}: {}",
            row.scenario.id,
            row.outcome.reason()
        );
    }
}

/// A progress tool the server refuses to run with the arguments built from
/// its schema (the weather of a city it does not know: an `isError`
/// result) shows nothing about progress: the progress scenarios skip,
/// quoting the server, instead of failing. With arguments from the profile
/// they run and pass.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_call_skips_and_profile_arguments_are_used() {
    let mut config = common::config();
    let mut profile = reference_profile();
    profile.name_tool(ToolRole::Progress, "weather_current", None);
    config.profile = Some(profile);
    config.only = vec!["progress.".into(), "notification.".into()];
    let report = common::bench().run(config.clone()).await.unwrap();
    assert_eq!(report.rows.len(), 6, "{}", report.table());
    for row in &report.rows {
        assert_eq!(row.outcome.as_str(), "skip", "{}", report.table());
        let reason = row.outcome.reason();
        assert!(
            reason.contains("weather_current with arguments {\"city\":\"example\"} was refused")
                && reason.contains("isError")
                && reason.contains("progress_tool = {"),
            "{reason}"
        );
    }

    let mut profile = reference_profile();
    let arguments = serde_json::json!({ "topic": "tides" }).as_object().cloned();
    profile.name_tool(ToolRole::Progress, "prepare_report", arguments);
    config.profile = Some(profile);
    let report = common::bench().run(config.clone()).await.unwrap();
    assert_eq!(report.rows.len(), 6, "{}", report.table());
    assert!(
        report.rows.iter().all(|r| r.outcome.as_str() == "pass"),
        "{}",
        report.table()
    );
}

/// The event-stream scenarios call the progress tool as every other
/// progress scenario does: with arguments built from its schema (a refusal
/// skips, quoting the server) or the profile's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_stream_scenarios_call_the_progress_tool_like_the_others() {
    let mut config = common::config();
    let mut profile = reference_profile();
    profile.name_tool(ToolRole::Progress, "weather_current", None);
    config.profile = Some(profile);
    config.only = vec!["sse.vary".into(), "sse.stripped-header".into()];
    let report = common::bench().run(config.clone()).await.unwrap();
    let http: Vec<_> = report
        .rows
        .iter()
        .filter(|r| r.transport == "http")
        .collect();
    assert_eq!(http.len(), 2, "{}", report.table());
    for row in http {
        let reason = row.outcome.reason();
        assert_eq!(row.outcome.as_str(), "skip", "{}", report.table());
        assert!(
            reason.contains("weather_current with arguments {\"city\":\"example\"} was refused")
                && reason.contains("progress_tool = {"),
            "{reason}"
        );
    }

    let mut profile = reference_profile();
    let arguments = serde_json::json!({ "topic": "tides" }).as_object().cloned();
    profile.name_tool(ToolRole::Progress, "prepare_report", arguments);
    config.profile = Some(profile);
    let report = common::bench().run(config.clone()).await.unwrap();
    let http: Vec<_> = report
        .rows
        .iter()
        .filter(|r| r.transport == "http")
        .collect();
    assert_eq!(http.len(), 2, "{}", report.table());
    assert!(
        http.iter().all(|r| r.outcome.as_str() == "pass"),
        "{}",
        report.table()
    );
}

/// A prompt labelled in the requested language while its text stays in the
/// default one fails `reporting.labels`; marked untranslated in the profile,
/// it is not compared, and the scenario says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_item_the_profile_marks_untranslated_is_not_compared() {
    let mut config = common::config();
    config.profile = Some(reference_profile());
    config.only = vec!["reporting.labels".into()];
    let bench = common::bench().alteration(mcp_lang_faults::Fault::MislabelPromptText);
    let report = bench.run(config.clone()).await.unwrap();
    let failure = report
        .rows
        .iter()
        .find(|r| r.outcome.is_fail())
        .unwrap_or_else(|| panic!("the mislabelled prompt is not caught:\n{}", report.table()));
    // "prompts/get NAME: the same text …"
    let item = failure
        .outcome
        .reason()
        .split(':')
        .next()
        .unwrap()
        .to_owned();
    assert!(item.starts_with("prompts/get "), "{item}");
    let mut profile = reference_profile();
    profile.untranslated = vec![item.clone()];
    config.profile = Some(profile);
    let report = bench.run(config).await.unwrap();
    assert!(!report.failed(), "{}", report.table());
    for row in &report.rows {
        assert_ne!(row.outcome.as_str(), "fail", "{}", report.table());
        if row.outcome.as_str() == "skip" {
            assert!(
                row.outcome.reason().contains(&item),
                "{}",
                row.outcome.reason()
            );
        }
    }
}
