//! Item 3 of the SEP's Conformance list beyond `tools/list`: every method that
//! answers with display text reports the language it used.
//!
//! Each scenario asks one method (or a pair: a list and the read of its first
//! item) under the default and under a language whose text differs from the
//! default's. An answer that reports a language must report a well-formed
//! `contentLanguage` naming a supported language, and one that follows the
//! preference when the display text changed. An answer whose text changed
//! must report. An answer that neither changed nor reported was given
//! ignoring the preference, which the SEP allows ("A server MAY ignore the
//! preference"): nothing to check there. A method the server does not have,
//! a list with nothing to read, or a method that ignored the preference
//! every time is a skip with its reason.

use mcp_lang_grammar::ContentLanguage;
use serde_json::{Value, json};

use crate::discovery::reaches;
use crate::scenario::{
    Connection, Ctx, Needs, Outcome, Scenario, ScenarioFuture, Step, ensure, finish,
};
use crate::wire::{Call, Exchange, is_stateless};

use super::sep;

/// The scenarios of this module, in report order.
pub(crate) const SCENARIOS: &[Scenario] = &[
    Scenario {
        id: "reporting.initialize",
        item: 3,
        rule: "initialize (server/discover) reports the language of serverInfo.title",
        sep: sep::REPORT,
        needs: Needs::Any,
        run: initialize,
    },
    Scenario {
        id: "reporting.prompts",
        item: 3,
        rule: "prompts/list and prompts/get report the language they used",
        sep: sep::REPORT,
        needs: Needs::Any,
        run: prompts,
    },
    Scenario {
        id: "reporting.resources",
        item: 3,
        rule: "resources/list and resources/read report the language they used",
        sep: sep::REPORT,
        needs: Needs::Any,
        run: resources,
    },
    Scenario {
        id: "reporting.tool-results",
        item: 3,
        rule: "tools/call results, isError results included, report the language they used",
        sep: sep::REPORT,
        needs: Needs::Any,
        run: tool_results,
    },
];

/// The `_meta` key under which a 2026-07-28 result describes the server.
const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// Every display string of a result (titles, descriptions, messages, text).
fn texts(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    fn walk(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    match (key.as_str(), v) {
                        // `_meta` is not display text, except the
                        // implementation a 2026-07-28 result describes there.
                        ("_meta", _) => {
                            if let Some(info) = v.get(SERVER_INFO) {
                                walk(info, out);
                            }
                        }
                        ("title" | "description" | "text" | "message", Value::String(s)) => {
                            out.push(s.clone());
                        }
                        _ => walk(v, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    walk(value, &mut out);
    out
}

/// Checks the report of `exchange` (the answer under `tag`) against `base`
/// (the same request under the default). `Ok(false)` when the server ignored
/// the preference (no report, text unchanged): nothing to check.
fn check_report(
    ctx: &Ctx,
    what: &str,
    tag: &str,
    base: &Exchange,
    exchange: &Exchange,
) -> Step<bool> {
    let changed = match (base.result(), exchange.result()) {
        (Some(a), Some(b)) => texts(a) != texts(b),
        _ => base.error().map(|e| e.get("message")) != exchange.error().map(|e| e.get("message")),
    };
    let reported = match exchange.content_language() {
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(Outcome::Fail(format!(
                "{what} under {tag:?}: contentLanguage is not a string: {other}"
            )));
        }
        None if changed => {
            return Err(Outcome::Fail(format!(
                "{what} under {tag:?}: the display text changed with the preference, but no io.modelcontextprotocol/contentLanguage reports the language used: {}",
                exchange.summary()
            )));
        }
        None => return Ok(false),
    };
    ensure(ContentLanguage::parse(&reported).is_ok(), || {
        format!(
            "{what} under {tag:?}: contentLanguage {reported:?} is not a Content-Language value"
        )
    })?;
    let supported = &ctx.profile.supported;
    ensure(
        reported
            .split(',')
            .map(str::trim)
            .all(|t| supported.iter().any(|s| s.eq_ignore_ascii_case(t))),
        || {
            format!(
                "{what} under {tag:?}: contentLanguage {reported:?} names a language the server does not support {supported:?}"
            )
        },
    )?;
    if changed {
        ensure(reaches(tag, &reported), || {
            format!(
                "{what} under {tag:?}: the display text changed, but contentLanguage says {reported:?}: it must name the language used"
            )
        })?;
    }
    Ok(true)
}

/// A skip for a scenario none of whose answers took the preference.
fn ignored(what: &str) -> Outcome {
    Outcome::Skip(format!(
        "{what} ignored the preference (no contentLanguage, text unchanged), which the SEP allows: nothing to check"
    ))
}

/// Sends `call` under the default and under `tag`; both must succeed.
async fn pair(ctx: &mut Ctx, call: &Call, tag: &str) -> Step<(Exchange, Exchange)> {
    let default = ctx.profile.default.clone();
    let base = ctx
        .result(call.clone().preference(default.as_str()))
        .await?;
    let exchange = ctx.result(call.clone().preference(tag)).await?;
    Ok((base, exchange))
}

/// The items of a list method, or a skip when the server has no such method
/// (or lists nothing).
async fn list(ctx: &mut Ctx, method: &str, key: &str) -> Step<Vec<Value>> {
    let exchange = ctx.send(Call::new(method)).await?;
    if exchange.result().is_none() {
        return Err(Outcome::Skip(format!(
            "the server does not answer {method}: {}",
            exchange.summary()
        )));
    }
    let items = exchange.items(key);
    if items.is_empty() {
        return Err(Outcome::Skip(format!("{method} lists nothing")));
    }
    Ok(items)
}

fn initialize(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.translated_others()?[0].clone();
                let stateless = is_stateless(ctx.protocol());
                let call = if stateless {
                    Call::new("server/discover")
                } else {
                    if let Connection::Stdio(_) = &ctx.connection {
                        return Err(Outcome::Skip(
                            "on stdio the one initialize of a connection was sent when it opened, before the languages were known; run with --protocol 2026-07-28 (server/discover) or over HTTP".into(),
                        ));
                    }
                    let protocol = ctx.protocol().to_owned();
                    Call::new("initialize")
                        .param("protocolVersion", json!(protocol))
                        .param("capabilities", json!({}))
                        .param("clientInfo", json!({ "name": "mcp-lang-conformance", "version": env!("CARGO_PKG_VERSION") }))
                        .outside_session()
                };
                let what = call.method.clone();
                let (base, exchange) = pair(ctx, &call, &tag).await?;
                if !check_report(ctx, &what, &tag, &base, &exchange)? {
                    return Err(ignored(&what));
                }
                // A report in another language than the default's comes with
                // the title in that language.
                let title = |e: &Exchange| {
                    let result = e.result()?;
                    result
                        .pointer("/serverInfo/title")
                        .or_else(|| result.get("_meta")?.get(SERVER_INFO)?.get("title"))
                        .cloned()
                };
                let reported = exchange.content_language_str().unwrap_or_default().to_owned();
                let default = ctx.profile.default.clone();
                ensure(title(&base).is_none() || reaches(&default, &reported) || title(&base) != title(&exchange), || {
                    format!("{what}: contentLanguage under {tag:?} is {reported:?}, but serverInfo.title is the default's {:?}", title(&base))
                })
            }
            .await,
        )
    })
}

fn prompts(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.translated_others()?[0].clone();
                let prompts = list(ctx, "prompts/list", "prompts").await?;
                let (base, exchange) = pair(ctx, &Call::new("prompts/list"), &tag).await?;
                let listed = check_report(ctx, "prompts/list", &tag, &base, &exchange)?;
                let prompt = &prompts[0];
                let name = prompt
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let mut arguments = serde_json::Map::new();
                for argument in prompt
                    .get("arguments")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if argument.get("required") == Some(&json!(true))
                        && let Some(key) = argument.get("name").and_then(Value::as_str)
                    {
                        arguments.insert(key.to_owned(), json!("Lisbon"));
                    }
                }
                let call = Call::new("prompts/get")
                    .param("name", json!(name))
                    .param("arguments", Value::Object(arguments));
                let (base, exchange) = pair(ctx, &call, &tag).await?;
                let got =
                    check_report(ctx, &format!("prompts/get {name}"), &tag, &base, &exchange)?;
                if listed || got {
                    Ok(())
                } else {
                    Err(ignored("prompts/list and prompts/get"))
                }
            }
            .await,
        )
    })
}

fn resources(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.translated_others()?[0].clone();
                let resources = list(ctx, "resources/list", "resources").await?;
                let (base, exchange) = pair(ctx, &Call::new("resources/list"), &tag).await?;
                let listed = check_report(ctx, "resources/list", &tag, &base, &exchange)?;
                let uri = resources[0]
                    .get("uri")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let call = Call::new("resources/read").param("uri", json!(uri));
                let (base, exchange) = pair(ctx, &call, &tag).await?;
                let read = check_report(
                    ctx,
                    &format!("resources/read {uri}"),
                    &tag,
                    &base,
                    &exchange,
                )?;
                if listed || read {
                    Ok(())
                } else {
                    Err(ignored("resources/list and resources/read"))
                }
            }
            .await,
        )
    })
}

fn tool_results(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.translated_others()?[0].clone();
                let failing = ctx.profile.tool_error.clone();
                ctx.require_tool(&failing.name).await?;
                let call = Call::tool(&failing.name, Value::Object(failing.arguments.clone()));
                let (base, exchange) = pair(ctx, &call, &tag).await?;
                let what = format!("tools/call {}", failing.name);
                ensure(exchange.result().and_then(|r| r.get("isError")) == Some(&json!(true)), || {
                    format!("{what} with {} was expected to end in an isError result (the profile's tool_error): {}", Value::Object(failing.arguments.clone()), exchange.summary())
                })?;
                let mut checked = check_report(ctx, &what, &tag, &base, &exchange)?;
                // A successful result too: the explicit-language tool without
                // its argument (its content follows the preference, or is
                // model-facing text reported as such).
                let name = ctx.profile.explicit_language_tool.clone();
                if let Ok(tool) = ctx.require_tool(&name).await {
                    let arguments = super::display::explicit_arguments(&tool);
                    let call = Call::tool(&name, Value::Object(arguments));
                    let (base, exchange) = pair(ctx, &call, &tag).await?;
                    checked |= check_report(ctx, &format!("tools/call {name}"), &tag, &base, &exchange)?;
                }
                if checked { Ok(()) } else { Err(ignored("tools/call")) }
            }
            .await,
        )
    })
}
