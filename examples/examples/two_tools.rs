//! A two-tool rmcp server written with `#[tool_router]`: `divide` (an error when b is 0)
//! and `countdown` (progress at each step, through rmcp's `RequestMetaObject` and
//! `Peer<RoleServer>` extractors, its message a count). `two_tools.rs` takes part in SEP-2792 and
//! `two_tools_plain.rs` is the same server without it: `diff` the two files to see
//! what the SEP costs, besides the translated strings in `two_tools/*.ftl`.
//!
//! ```text
//! cargo run -p mcp-lang-examples --example two_tools[_plain] -- --stdio
//! cargo run -p mcp-lang-examples --example two_tools[_plain] -- --http 127.0.0.1:8080
//! ```

use std::sync::Arc;

use mcp_lang_rmcp::http::{LanguageService, SharedStreamableHttpService};
use mcp_lang_rmcp::server::{Language, Localized};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorCode, ProgressNotificationParam, RequestMetaObject,
};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{
    ErrorData, Peer, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Operands {
    /// The dividend.
    a: f64,
    /// The divisor.
    b: f64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Start {
    /// Where to count down from (3 when absent).
    from: Option<u32>,
}

#[derive(Clone)]
struct Calculator;

#[tool_router]
impl Calculator {
    #[tool(title = "Divide", description = "Divides a by b.")]
    fn divide(
        &self,
        Parameters(Operands { a, b }): Parameters<Operands>,
        language: Language,
    ) -> Result<CallToolResult, ErrorData> {
        if b == 0.0 {
            return Err(language.error(ErrorCode::INVALID_PARAMS, "divide-by-zero", &[]));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(
            (a / b).to_string(),
        )]))
    }

    #[tool(
        title = "Countdown",
        description = "Counts down from `from`, reporting progress."
    )]
    async fn countdown(
        &self,
        Parameters(s): Parameters<Start>,
        meta: RequestMetaObject,
        client: Peer<RoleServer>,
        language: Language,
    ) -> Result<String, ErrorData> {
        let from = s.from.unwrap_or(3);
        let total = f64::from(from);
        for step in 1..=from {
            let (done, left) = (f64::from(step), from - step);
            if let Some(token) = meta.get_progress_token() {
                let params = ProgressNotificationParam::new(token, done).with_total(total);
                let params = language.localize_progress(params, "left", &[("left", left.into())]);
                let notified = client.notify_progress(params).await;
                notified.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            }
        }
        Ok("Liftoff!".to_owned())
    }
}

#[tool_handler(name = "calculator", version = "1.0.0")]
impl ServerHandler for Calculator {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = Calculator;
    let catalog = mcp_lang_rmcp::include_fluent!("two_tools", ["en", "fr", "de"])?;
    let server = Localized::new(server, catalog.server_languages("en")?).with_catalog(catalog);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let addr = match args.as_slice() {
        [flag] if flag == "--stdio" => {
            server
                .serve(rmcp::transport::stdio())
                .await?
                .waiting()
                .await?;
            return Ok(());
        }
        [flag, addr] if flag == "--http" => addr.clone(),
        _ => return Err("usage: [--stdio | --http ADDR]".into()),
    };
    // Stateless, JSON responses where possible: every POST stands alone.
    let mut config = StreamableHttpServerConfig::default();
    config.legacy_session_mode = false;
    config.json_response = true;
    let sessions = Arc::new(LocalSessionManager::default());
    let service = StreamableHttpService::new(move || Ok(server.clone()), sessions, config);
    let service = LanguageService::new(SharedStreamableHttpService::new(service));
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}
