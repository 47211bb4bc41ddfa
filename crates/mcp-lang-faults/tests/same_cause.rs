//! One cause, one failure: a server broken in one place fails several
//! scenarios, and the report shows the failure once, with the others listed
//! under it, counted once; a failure with a cause of its own stays a row.

mod common;

use mcp_lang_conformance::{Format, Report, Verdict};
use mcp_lang_faults::Fault;

async fn run_with(fault: Fault, only: &[&str]) -> Report {
    let mut config = common::config();
    config.only = only.iter().map(|s| (*s).to_owned()).collect();
    common::bench()
        .alteration(fault)
        .run(config.clone())
        .await
        .unwrap()
}

/// A server that does not check agreement fails `http.mismatch` and every
/// agreement scenario; the report shows one failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_agreement_check_is_one_failure() {
    let report = run_with(Fault::SkipAgreementCheck, &["http.mismatch", "agree."]).await;
    assert_eq!(report.verdict(), Verdict::Failed);
    let failing: Vec<&str> = report
        .rows
        .iter()
        .filter(|r| r.outcome.is_fail())
        .map(|r| r.scenario.id)
        .collect();
    assert!(failing.len() >= 4, "{}", report.table());
    let summary = report.summary();
    assert_eq!(summary.failed, 1, "{}", report.table());
    assert_eq!(summary.same_cause, failing.len() - 1);
    for row in report.rows.iter().filter(|r| r.outcome.is_fail()) {
        let expected = (row.scenario.id != "http.mismatch").then_some("http.mismatch");
        assert_eq!(report.same_cause_as(row), expected, "{}", row.scenario.id);
    }
    let table = report.table();
    assert_eq!(table.matches("  FAIL  ").count(), 1, "{table}");
    assert!(
        table.contains("also fails, same cause: agree.case"),
        "{table}"
    );
    assert!(table.contains("1 failed ("), "{table}");
    let json: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap();
    assert_eq!(json["summary"]["failed"], 1, "{json}");
    let case = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "agree.case" && r["transport"] == "http")
        .unwrap();
    assert_eq!(case["outcome"], "fail");
    assert_eq!(case["same_cause_as"], "http.mismatch");
}

/// Dropping `Vary` fails the stripped-header rule with the same missing
/// field: one failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_vary_is_one_failure() {
    let report = run_with(Fault::DropVary, &["cache.", "sse.vary"]).await;
    let summary = report.summary();
    assert_eq!(summary.failed, 1, "{}", report.table());
    assert!(summary.same_cause >= 1, "{}", report.table());
    assert!(
        report
            .table()
            .contains("also fails, same cause: cache.stripped-header"),
        "{}",
        report.table()
    );
}

/// A failure with a cause of its own is its own row: a server that checks
/// agreement ignoring case passes `http.mismatch`, and `agree.case` fails
/// alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_of_its_own_is_not_folded() {
    let report = run_with(
        Fault::CaseInsensitiveAgreement,
        &["http.mismatch", "agree.case"],
    )
    .await;
    let summary = report.summary();
    assert_eq!(
        (summary.failed, summary.same_cause),
        (1, 0),
        "{}",
        report.table()
    );
    let row = report.rows.iter().find(|r| r.outcome.is_fail()).unwrap();
    assert_eq!(row.scenario.id, "agree.case");
    assert_eq!(report.same_cause_as(row), None);
}
