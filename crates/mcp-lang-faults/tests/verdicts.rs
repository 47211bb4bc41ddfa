//! The verdicts a user acts on, against servers the suite did not come with:
//! a server that does not take part in SEP-2792, one with a single language,
//! one that is not there, one that is not MCP, and a stdio server that dies.

use std::net::SocketAddr;

use mcp_lang_conformance::{Config, Target, Verdict, run};
use mcp_lang_reference::serve::{HttpMode, HttpServer, http_router_for, spawn_router};
use rmcp::model::{
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;

/// A server with one tool whose title is always English; when `report` is
/// set it reports `contentLanguage: "en"` on every result, whatever the
/// preference (a server with one language), otherwise nothing (a server that
/// does not take part).
#[derive(Clone)]
struct English {
    report: bool,
}

impl ServerHandler for English {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = json!({ "type": "object" });
        let mut tool = Tool::new(
            "weather",
            "Current weather",
            serde_json::from_value::<serde_json::Map<String, serde_json::Value>>(schema)
                .unwrap_or_default(),
        );
        tool.title = Some("Weather".into());
        let mut result = ListToolsResult::with_all_items(vec![tool]);
        if self.report {
            let mut meta = rmcp::model::MetaObject::new();
            meta.insert(mcp_lang_meta::CONTENT_LANGUAGE_KEY.into(), json!("en"));
            result.meta = Some(meta);
        }
        Ok(result)
    }
}

async fn serve(report: bool) -> HttpServer {
    let any: SocketAddr = ([127, 0, 0, 1], 0).into();
    spawn_router(any, move |cancel| {
        http_router_for(move || English { report }, HttpMode::Stateless, cancel)
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_ignores_the_preference_is_not_participating() {
    let server = serve(false).await;
    let report = run(&Config::new(Target::Url(server.url()))).await.unwrap();
    server.shutdown().await;
    let verdict = report.verdict();
    assert!(
        matches!(verdict, Verdict::NotParticipating(_)),
        "{}",
        report.table()
    );
    assert_eq!(verdict.exit_status(), 4);
    assert!(
        verdict.reason().contains("does not take part"),
        "{verdict:?}"
    );
    assert!(report.rows.iter().all(|r| !r.outcome.is_fail()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_with_only_its_default_is_inconclusive_not_passed() {
    let server = serve(true).await;
    let report = run(&Config::new(Target::Url(server.url()))).await.unwrap();
    server.shutdown().await;
    let verdict = report.verdict();
    assert!(
        matches!(verdict, Verdict::Inconclusive(_)),
        "{}",
        report.table()
    );
    assert_eq!(verdict.exit_status(), 3);
    assert!(verdict.reason().contains("--profile"), "{verdict:?}");
    // What discovery tried is in the report.
    assert!(report.table().contains("default en"), "{}", report.table());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_url_is_one_error() {
    // A port that was just free.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let error = run(&Config::new(Target::Url(format!(
        "http://127.0.0.1:{port}/mcp"
    ))))
    .await
    .unwrap_err()
    .to_string();
    assert!(error.contains("server/discover"), "{error}");
    assert!(error.contains("refused"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_that_is_not_mcp_is_one_error() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app =
        axum::Router::new().fallback(|| async { (http::StatusCode::NOT_FOUND, "no such page") });
    tokio::spawn(async move { axum::serve(listener, app).await });
    let error = run(&Config::new(Target::Url(format!("http://{addr}/mcp"))))
        .await
        .unwrap_err();
    // What was tried is in the report the error carries.
    let tried = &error.report.protocols[0].tried;
    assert!(
        tried[0].starts_with("server/discover under 2026-07-28: HTTP 404"),
        "{tried:?}"
    );
    assert!(
        tried[1].starts_with("initialize proposing 2025-11-25: HTTP 404"),
        "{tried:?}"
    );
    let error = error.to_string();
    assert!(error.contains("does not answer MCP"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_server_that_exits_is_one_error_with_its_status_and_stderr() {
    let command =
        "sh -c 'echo \"Traceback: ModuleNotFoundError: no module named mcp\" >&2; exit 1'";
    let error = run(&Config::new(Target::Stdio(command.into())))
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("exited with status 1"), "{error}");
    assert!(error.contains("ModuleNotFoundError"), "{error}");
}
