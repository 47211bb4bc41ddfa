//! An MCP server written by hand on axum, with SEP-2792 from `mcp-lang-http`'s tower layer
//! and `mcp-lang-meta`.
//!
//! ```text
//! cargo run -p mcp-lang-examples --example axum_server            # http://127.0.0.1:3000/mcp
//! cargo run -p mcp-lang-examples --example axum_server -- 8080    # another port
//! ```
//!
//! No MCP SDK is involved: the handler reads JSON-RPC itself and answers `initialize`,
//! `ping`, `tools/list` and `tools/call` (stateless: each POST is one request, answered with
//! one JSON body). Everything language-related comes from the crates:
//!
//! - the layer checks that `Accept-Language` agrees with `_meta` (400 / -32020 when it
//!   does not), negotiates the preference, and hands the handler a `RequestLanguage` in
//!   the request extensions; on the way out it mirrors `contentLanguage` into
//!   `Content-Language` and adds `Vary: Accept-Language` (and `Cache-Control: private`
//!   when the header was stripped);
//! - the handler localizes display fields with a `Localizer` (titles only: names and
//!   schemas are identifiers and stay as they are), lets an explicit `language` argument
//!   choose a greeting's language, and reports the language it used with
//!   `write_result_content_language` / `write_error_content_language`.
//!
//! Try it with curl (the program prints these lines when it starts):
//!
//! ```text
//! curl -si http://127.0.0.1:3000/mcp -H 'Content-Type: application/json' \
//!   -H 'Accept-Language: de-AT, en;q=0.5' \
//!   -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"de-AT, en;q=0.5"}}}'
//! ```

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use http_body_util::BodyExt;
use mcp_lang_http::LanguageLayer;
use mcp_lang_match::Negotiator;
use mcp_lang_meta::{
    DisplayField, Localizer, RequestLanguage, write_error_content_language,
    write_result_content_language,
};
use serde_json::{Value, json};

/// The languages this server has translations for, best first; English is the default.
const SUPPORTED: [&str; 4] = ["en", "fr", "de", "ja"];

/// The translation of one display field into `language`, keyed by what the field is (the
/// tool's name), not by its English text. `None` keeps the English source.
fn translate(language: &str, field: &DisplayField) -> Option<&'static str> {
    if *field == DisplayField::ImplementationTitle {
        return match language {
            "fr" => Some("Exemple écrit à la main"),
            "de" => Some("Handgeschriebenes Beispiel"),
            "ja" => Some("手書きの例"),
            _ => None,
        };
    }
    let DisplayField::ToolTitle { tool } = field else {
        return None;
    };
    let title = match (tool.as_str(), language) {
        ("greet", "fr") => "Saluer",
        ("greet", "de") => "Begrüßen",
        ("greet", "ja") => "あいさつ",
        ("word_count", "fr") => "Compter les mots",
        ("word_count", "de") => "Wörter zählen",
        ("word_count", "ja") => "単語数を数える",
        _ => return None,
    };
    Some(title)
}

/// The greeting in `language` (the content an explicit argument controls).
fn greeting(language: &str) -> Option<&'static str> {
    Some(match language {
        "en" => "Hello",
        "fr" => "Bonjour",
        "de" => "Hallo",
        "ja" => "こんにちは",
        _ => return None,
    })
}

/// The `tools/list` result, written in English and localized afterwards.
fn tools() -> Value {
    json!({
        "tools": [
            {
                "name": "greet",
                "title": "Greet",
                "description": "Greets someone. `language` picks the greeting's language.",
                "inputSchema": {"type": "object", "properties": {
                    "name": {"type": "string"},
                    "language": {"type": "string", "enum": SUPPORTED}
                }, "required": ["name"]}
            },
            {
                "name": "word_count",
                "title": "Count words",
                "description": "Counts the words of a text.",
                "inputSchema": {"type": "object", "properties": {
                    "text": {"type": "string"}
                }, "required": ["text"]}
            }
        ]
    })
}

/// A JSON-RPC error whose message is shown to the user: localized, and reported in
/// `error.data._meta`.
fn user_error(code: i64, language: &str, english: &str, french: &str) -> Value {
    let message = if language == "fr" { french } else { english };
    let mut error = json!({"code": code, "message": message});
    // Both tags come from SUPPORTED, so writing them cannot fail.
    let _ = write_error_content_language(&mut error, if language == "fr" { "fr" } else { "en" });
    error
}

/// Answers one JSON-RPC request. `language` is this request's, and only this request's.
fn answer(message: &Value, language: &RequestLanguage) -> Result<Value, Value> {
    let selected = language.selected();
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    let localize = |result: Value| {
        let mut message = json!({"jsonrpc": "2.0", "id": null, "result": result});
        let catalog = |field: &DisplayField, _: &str| translate(selected, field).map(str::to_owned);
        Localizer::new(&catalog).localize(&mut message);
        message["result"].take()
    };
    let mut result = match method {
        "initialize" => localize(json!({
            "protocolVersion": params["protocolVersion"].as_str().unwrap_or("2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "handwritten-example", "title": "Hand-written example", "version": "1.0.0"}
        })),
        "ping" => json!({}),
        "tools/list" => localize(tools()),
        "tools/call" => {
            let arguments = &params["arguments"];
            match params["name"].as_str() {
                Some("greet") => {
                    let name = arguments["name"].as_str().unwrap_or("you");
                    // An explicit argument wins for the content it controls; without one,
                    // the negotiated language is the fallback.
                    let chosen = language.for_content(arguments["language"].as_str());
                    let Some(word) = greeting(chosen) else {
                        return Err(user_error(
                            -32602,
                            selected,
                            "This greeting language is not available.",
                            "Cette langue de salutation n'est pas disponible.",
                        ));
                    };
                    let mut result =
                        json!({"content": [{"type": "text", "text": format!("{word}, {name}!")}]});
                    let _ = write_result_content_language(&mut result, chosen);
                    return Ok(result);
                }
                Some("word_count") => {
                    let count = arguments["text"]
                        .as_str()
                        .unwrap_or("")
                        .split_whitespace()
                        .count();
                    json!({"content": [{"type": "text", "text": count.to_string()}]})
                }
                _ => {
                    return Err(user_error(
                        -32602,
                        selected,
                        "There is no such tool.",
                        "Cet outil n'existe pas.",
                    ));
                }
            }
        }
        _ => return Err(json!({"code": -32601, "message": "Method not found"})),
    };
    // `selected` is well-formed (the negotiator only returns its own tags).
    let _ = write_result_content_language(&mut result, selected);
    Ok(result)
}

async fn mcp(request: Request) -> Response {
    // The layer negotiated the preference (malformed or absent: the default) and left the
    // outcome here. It is always present behind a layer configured with a negotiator.
    let Some(language) = request.extensions().get::<RequestLanguage>().cloned() else {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the language layer is missing",
        )
            .into_response();
    };
    let Ok(body) = request.into_body().collect().await.map(|b| b.to_bytes()) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let Ok(message) = serde_json::from_slice::<Value>(&body) else {
        let error = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}});
        return (
            StatusCode::BAD_REQUEST,
            [(CONTENT_TYPE, "application/json")],
            error.to_string(),
        )
            .into_response();
    };
    // A notification (no id) gets no JSON-RPC answer.
    let Some(id) = message.get("id").cloned() else {
        return StatusCode::ACCEPTED.into_response();
    };
    let reply = match answer(&message, &language) {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
    };
    eprintln!(
        "{method}: preference {raw:?} -> {selected} ({reason:?})",
        method = message["method"].as_str().unwrap_or("?"),
        raw = language.raw(),
        selected = language.selected(),
        reason = language.reason(),
    );
    ([(CONTENT_TYPE, "application/json")], reply.to_string()).into_response()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port: u16 = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 3000,
    };
    let negotiator = Arc::new(Negotiator::new(SUPPORTED, "en")?);
    let app = Router::new().route("/mcp", post(mcp)).layer(
        LanguageLayer::new()
            .body_limit(256 << 10)
            .negotiator(negotiator),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    println!("listening on {url}\n\nTry:\n");
    let list = |preference: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/acceptLanguage":"{preference}"}}}}}}"#
        )
    };
    println!("  # German titles, names unchanged; Content-Language: de");
    println!(
        "  curl -si {url} -H 'Content-Type: application/json' -H 'Accept-Language: de-AT, en;q=0.5' -d '{}'\n",
        list("de-AT, en;q=0.5")
    );
    println!("  # the header disagrees with _meta (case): 400 and -32020");
    println!(
        "  curl -si {url} -H 'Content-Type: application/json' -H 'Accept-Language: FR' -d '{}'\n",
        list("fr")
    );
    println!("  # an explicit language argument wins over the preference");
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada","language":"ja"},"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
    println!("  curl -si {url} -H 'Content-Type: application/json' -d '{call}'\n");
    axum::serve(listener, app).await?;
    Ok(())
}
