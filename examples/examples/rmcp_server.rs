//! An rmcp server that honors SEP-2792 through `mcp-lang-rmcp`, over Streamable HTTP (behind
//! `mcp-lang-http`'s layer) or stdio.
//!
//! ```text
//! cargo run -p mcp-lang-examples --example rmcp_server                       # http://127.0.0.1:3001/mcp
//! cargo run -p mcp-lang-examples --example rmcp_server -- --http 127.0.0.1:8080
//! cargo run -p mcp-lang-examples --example rmcp_server -- --stdio
//! ```
//!
//! What an rmcp server adds for the SEP, all of it visible below:
//!
//! 1. one `ServerLanguages` at start-up: the supported tags in the server's order and the
//!    default;
//! 2. in every handler, `languages.for_request(&context)?`: this request's preference from
//!    rmcp's request context, negotiated afresh (nothing is kept between requests);
//! 3. display text in the selected language, identifiers untouched;
//! 4. `stamp` on results, `localized_error` on errors, `notify_progress` for progress: each
//!    reports `contentLanguage` where the SEP puts it;
//! 5. on HTTP, `LanguageLayer` in front of rmcp's `StreamableHttpService`, for the exact
//!    agreement check (400 / -32020), `Content-Language`, `Vary` and `Cache-Control`.
//!    rmcp answers JSON-RPC errors with HTTP 200, so the 400 has to come from the layer.

use std::sync::Arc;

use mcp_lang_http::LanguageLayer;
use mcp_lang_rmcp::server::{
    RequestLanguage, ServerLanguages, localized_error, notify_progress, stamp,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode,
    InitializeResult, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;
use tower_layer::Layer;

/// This server's display strings, by message id and language. A real server would load
/// catalogs (the reference server uses Fluent); a table keeps the example short.
fn text(language: &RequestLanguage, id: &str) -> String {
    let text = match (id, language.tag()) {
        ("countdown-title", "fr") => "Compte à rebours",
        ("countdown-title", "de") => "Rückwärtszählen",
        ("countdown-title", _) => "Countdown",
        ("step", "fr") => "Plus que {n}…",
        ("step", "de") => "Noch {n}…",
        ("step", _) => "{n} to go…",
        ("too-long", "fr") => "Un compte à rebours ne dépasse pas 10.",
        ("too-long", "de") => "Ein Countdown geht höchstens bis 10.",
        ("too-long", _) => "A countdown goes up to 10 at most.",
        ("unknown-tool", "fr") => "Cet outil n'existe pas.",
        ("unknown-tool", "de") => "Dieses Werkzeug gibt es nicht.",
        _ => "There is no such tool.",
    };
    text.to_owned()
}

#[derive(Clone)]
struct Countdown {
    languages: Arc<ServerLanguages>,
}

impl ServerHandler for Countdown {
    fn get_info(&self) -> ServerConfig {
        let capabilities: ServerCapabilities =
            serde_json::from_value(json!({"tools": {}})).unwrap_or_default();
        let mut info = InitializeResult::new(capabilities);
        info.server_info.name = "countdown".to_owned();
        info.server_info.version = "1.0.0".to_owned();
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let language = self.languages.for_request(&context)?;
        // The title is display text; the name and the schema are identifiers.
        let tool: Tool = serde_json::from_value(json!({
            "name": "countdown",
            "title": text(&language, "countdown-title"),
            "description": "Counts down from `from` to zero, reporting progress at each step.",
            "inputSchema": {"type": "object", "properties": {
                "from": {"type": "integer", "minimum": 1, "maximum": 10}
            }, "required": ["from"]}
        }))
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let mut result = ListToolsResult::with_all_items(vec![tool]);
        stamp(&mut result.meta, language.tag());
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let language = self.languages.for_request(&context)?;
        if request.name != "countdown" {
            return Err(localized_error(
                ErrorCode::INVALID_PARAMS,
                text(&language, "unknown-tool"),
                language.tag(),
                None,
            ));
        }
        let from = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("from"))
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(3);
        if from > 10 {
            return Err(localized_error(
                ErrorCode::INVALID_PARAMS,
                text(&language, "too-long"),
                language.tag(),
                None,
            ));
        }
        for step in 0..from {
            let left = (from - step).to_string();
            let message = text(&language, "step").replace("{n}", &left);
            // Sent only when the client asked for progress (a progressToken).
            notify_progress(&context, &language, step as f64, Some(from as f64), message)
                .await
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        }
        // The result is model-facing and in English whatever the preference: it says so.
        let mut result = CallToolResult::success(vec![ContentBlock::text("0")]);
        stamp(&mut result.meta, "en");
        Ok(result.into())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = Countdown {
        languages: Arc::new(ServerLanguages::new(["en", "fr", "de"], "en")?),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--stdio") {
        // stdio: only `_meta` travels, and that is all the SEP needs there.
        let running = server.serve(rmcp::transport::stdio()).await?;
        running.waiting().await?;
        return Ok(());
    }
    let addr = match args.as_slice() {
        [flag, addr] if flag == "--http" => addr.clone(),
        [] => "127.0.0.1:3001".to_owned(),
        _ => return Err("usage: rmcp_server [--stdio | --http ADDR]".into()),
    };
    // Stateless, JSON responses where possible: every POST carries its own preference.
    let mut config = StreamableHttpServerConfig::default();
    config.legacy_session_mode = false;
    config.json_response = true;
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", LanguageLayer::new().layer(service));
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    println!("listening on {url}; try:\n");
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CH, de;q=0.5"}}}"#;
    println!(
        "  curl -si {url} -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\\n    -H 'Accept-Language: fr-CH, de;q=0.5' \\\n    -d '{body}'\n"
    );
    axum::serve(listener, app).await?;
    Ok(())
}
