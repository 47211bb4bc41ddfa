//! A tiny MCP-shaped server behind the SEP-2792 layer: `tools/list` with one tool whose
//! title is localized and whose name is not.
//!
//! ```text
//! cargo run -p mcp-lang-http --features tower --example localized_tools [PORT]
//! ```
//!
//! Then try (the header agrees with `_meta`, so the answer is French):
//!
//! ```text
//! curl -si http://127.0.0.1:3000/mcp -H 'Accept-Language: fr-CA,fr;q=0.9' \
//!   -H 'Content-Type: application/json' \
//!   -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CA,fr;q=0.9"}}}'
//! ```
//!
//! and change the header to `fr-ca,fr;q=0.9` to see the 400 / -32020 answer.

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use http_body_util::BodyExt;
use mcp_lang_http::{LanguageLayer, LanguagePreference};
use mcp_lang_match::Negotiator;
use mcp_lang_meta::{RequestLanguage, write_result_content_language};
use serde_json::{Value, json};

/// The display title of the one tool, per supported language.
fn title(language: &str) -> &'static str {
    match language {
        "fr" | "fr-CA" => "Météo actuelle",
        "de" => "Aktuelles Wetter",
        _ => "Current weather",
    }
}

async fn mcp(request: Request) -> Response {
    // Put there by the layer: the agreement outcome and the negotiated language.
    let agreement = request
        .extensions()
        .get::<LanguagePreference>()
        .map(|p| p.agreement().as_str());
    let selected = request
        .extensions()
        .get::<RequestLanguage>()
        .map_or("en", |l| l.selected())
        .to_owned();
    let body = match request.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => return axum::http::StatusCode::BAD_REQUEST.into_response(),
    };
    let message: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let mut result = json!({
        "tools": [{
            "name": "weather_current",
            "title": title(&selected),
            "inputSchema": {"type": "object"}
        }]
    });
    // Report the language actually used; the layer mirrors it into Content-Language.
    if write_result_content_language(&mut result, &selected).is_err() {
        return axum::http::StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    eprintln!("agreement={agreement:?} selected={selected}");
    let answer = json!({"jsonrpc": "2.0", "id": id, "result": result});
    ([(CONTENT_TYPE, "application/json")], answer.to_string()).into_response()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port: u16 = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 3000,
    };
    let negotiator = Negotiator::new(["en", "fr", "fr-CA", "de"], "en")?;
    let app = Router::new().route("/mcp", post(mcp)).layer(
        LanguageLayer::new()
            .body_limit(1 << 20)
            .negotiator(Arc::new(negotiator)),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}
