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

use mcp_lang_meta::CONTENT_LANGUAGE_KEY;

use crate::calls::refusal;
use crate::discovery::reaches;
use crate::profile::ToolRole;
use crate::scenario::{
    Ctx, Needs, Outcome, Scenario, ScenarioFuture, Step, ensure, finish, should,
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
    Scenario {
        id: "reporting.every-message",
        item: 8,
        rule: "every localized message of a request reports its language where the SEP carries it: each notification (progress, log) in params._meta, an input_required result in result._meta",
        sep: sep::CARRIED,
        needs: Needs::Any,
        run: every_message,
    },
    Scenario {
        id: "reporting.labels",
        item: 3,
        rule: "a contentLanguage describes the content: one natural-language text is not labelled with two different languages",
        sep: sep::CONTENT_LANGUAGE_SYNTAX,
        needs: Needs::Any,
        run: labels,
    },
];

/// The `_meta` key under which a 2026-07-28 result describes the server.
pub(super) const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// Every display string of a result (titles, descriptions, messages, text).
pub(super) fn texts(value: &Value) -> Vec<String> {
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
                "{what} under {tag_q}: contentLanguage is not a string: {other}",
                tag_q = crate::quote::q(&tag)
            )));
        }
        None if changed => {
            return Err(Outcome::Fail(format!(
                "{what} under {tag_q}: the display text changed with the preference, but no io.modelcontextprotocol/contentLanguage reports the language used: {}",
                exchange.summary(),
                tag_q = crate::quote::q(&tag)
            )));
        }
        None => return Ok(false),
    };
    ensure(ContentLanguage::parse(&reported).is_ok(), || {
        format!(
            "{what} under {tag_q}: contentLanguage {reported_q} is not a Content-Language value",
            tag_q = crate::quote::q(&tag),
            reported_q = crate::quote::q(&reported)
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
                "{what} under {tag_q}: contentLanguage {reported_q} names a language the server does not support {supported_q}",
                tag_q = crate::quote::q(&tag),
                reported_q = crate::quote::q(&reported),
                supported_q = crate::quote::q(&supported)
            )
        },
    )?;
    if changed {
        ensure(reaches(tag, &reported), || {
            format!(
                "{what} under {tag_q}: the display text changed, but contentLanguage says {reported_q}: it must name the language used",
                tag_q = crate::quote::q(&tag),
                reported_q = crate::quote::q(&reported)
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
                let call = super::stability::describe_server(ctx)?;
                let what = call.method.clone();
                let (base, exchange) = pair(ctx, &call, &tag).await?;
                if !check_report(ctx, &what, &tag, &base, &exchange)? {
                    return Err(ignored(&what));
                }
                // A report in another language than the default's comes with
                // display text in that language: with nothing changed the
                // label does not describe the content (MUST); with other
                // text changed but the title still the default's, the title
                // was left untranslated (SHOULD).
                let title = |e: &Exchange| super::stability::server_info(e).and_then(|i| i.get("title")).cloned();
                let reported = exchange.content_language_str().unwrap_or_default().to_owned();
                let default = ctx.profile.default.clone();
                let Some(base_title) = title(&base) else {
                    return Ok(());
                };
                if reaches(&default, &reported) || title(&exchange).as_ref() != Some(&base_title) {
                    return Ok(());
                }
                let other_text_changed = base.result().map(texts) != exchange.result().map(texts);
                ensure(other_text_changed, || {
                    format!("{what}: contentLanguage under {tag_q} is {reported_q}, but serverInfo.title ({base_title}) and every other display text are the default's: the label does not describe the content", tag_q = crate::quote::q(&tag), reported_q = crate::quote::q(&reported))
                })?;
                should(false, || {
                    format!("{what}: under {tag_q} (contentLanguage {reported_q}) serverInfo.title stays the default's {base_title}; a server that honors the preference SHOULD translate Implementation.title", tag_q = crate::quote::q(&tag), reported_q = crate::quote::q(&reported))
                })
            }
            .await,
        )
    })
}

/// `prompts/get` of a listed prompt, its required arguments filled in;
/// with the prompt's name.
fn prompt_call(prompt: &Value) -> (String, Call) {
    let name = prompt
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
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
    (name, call)
}

fn prompts(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.translated_others()?[0].clone();
                let prompts = list(ctx, "prompts/list", "prompts").await?;
                let (base, exchange) = pair(ctx, &Call::new("prompts/list"), &tag).await?;
                let listed = check_report(ctx, "prompts/list", &tag, &base, &exchange)?;
                let (name, call) = prompt_call(&prompts[0]);
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
                if let Ok(plan) = ctx.tool_for(ToolRole::ExplicitLanguage, &["language"]).await {
                    let base = ctx.send(plan.call().preference(ctx.profile.default.as_str())).await?;
                    if refusal(&base).is_none() {
                        let (base, exchange) = pair(ctx, &plan.call(), &tag).await?;
                        checked |= check_report(ctx, &format!("tools/call {}", plan.name), &tag, &base, &exchange)?;
                    }
                }
                if checked { Ok(()) } else { Err(ignored("tools/call")) }
            }
            .await,
        )
    })
}

/// A value as the wire has it, cut short, for messages.
fn quoted(text: &str) -> String {
    let cut: String = text.chars().take(80).collect();
    let ellipsis = if text.chars().count() > 80 { "…" } else { "" };
    format!("{}{ellipsis}", Value::String(cut))
}

/// The display text of a notification: a progress `message`, a log
/// message's `data` (a string, or any JSON value as written).
fn notification_text(notification: &Value) -> Option<String> {
    let params = notification.get("params")?;
    if let Some(message) = params.get("message").and_then(Value::as_str) {
        return Some(message.to_owned());
    }
    match params.get("data")? {
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// The notification of `method` at `index` among those of its method.
fn nth_notification<'a>(exchange: &'a Exchange, method: &str, index: usize) -> Option<&'a Value> {
    exchange
        .notifications()
        .filter(|n| n.get("method").and_then(Value::as_str) == Some(method))
        .nth(index)
}

/// Checks every notification `exchange` (under `tag`) received against the
/// one at the same place among those of its method under the default
/// (`bases`, two runs): one whose text changed is localized and carries a
/// `contentLanguage` in `params._meta` naming the language used; one that
/// carries one carries a well-formed string. A notification whose text
/// differs between the two runs under the default (a timestamp, a count)
/// is not judged localized. Returns how many were checked.
fn notifications_report(
    what: &str,
    tag: &str,
    bases: [&Exchange; 2],
    exchange: &Exchange,
) -> Step<usize> {
    let mut checked = 0;
    let mut seen: Vec<(String, usize)> = Vec::new();
    for note in exchange.notifications() {
        let method = note
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let index = seen.iter().filter(|(m, _)| *m == method).count();
        seen.push((method.clone(), index));
        let text = notification_text(note);
        let base_text = nth_notification(bases[0], &method, index).and_then(notification_text);
        let again = nth_notification(bases[1], &method, index).and_then(notification_text);
        let changed =
            text.is_some() && base_text.is_some() && base_text == again && text != base_text;
        let reported = note
            .pointer("/params/_meta")
            .and_then(|m| m.get(CONTENT_LANGUAGE_KEY));
        match reported {
            Some(Value::String(reported)) => {
                checked += 1;
                ensure(ContentLanguage::parse(reported).is_ok(), || {
                    format!(
                        "{what} under {tag_q}: a {method} notification reports contentLanguage {reported_q}, which is not a Content-Language value",
                        tag_q = crate::quote::q(&tag),
                        reported_q = crate::quote::q(&reported)
                    )
                })?;
                ensure(!changed || reaches(tag, reported), || {
                    format!(
                        "{what} under {tag_q}: a {method} notification is localized ({}) but reports contentLanguage {reported_q}",
                        quoted(text.as_deref().unwrap_or_default()),
                        tag_q = crate::quote::q(&tag),
                        reported_q = crate::quote::q(&reported)
                    )
                })?;
            }
            Some(other) => {
                return Err(Outcome::Fail(format!(
                    "{what} under {tag_q}: a {method} notification's contentLanguage is not a string: {other}",
                    tag_q = crate::quote::q(&tag)
                )));
            }
            None if changed => {
                return Err(Outcome::Fail(format!(
                    "{what} under {tag_q}: a {method} notification sent for the request is localized ({}, where the default's is {}) but carries no io.modelcontextprotocol/contentLanguage in params._meta",
                    quoted(text.as_deref().unwrap_or_default()),
                    quoted(base_text.as_deref().unwrap_or_default()),
                    tag_q = crate::quote::q(&tag)
                )));
            }
            None => {}
        }
    }
    Ok(checked)
}

/// The `contentLanguage` values inside an `input_required` result's nested
/// requests (`inputRequests.KEY.params._meta`).
fn nested_languages(result: &Value) -> Vec<String> {
    result
        .get("inputRequests")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|requests| requests.iter())
        .filter_map(|(key, request)| {
            let language = request
                .pointer("/params/_meta")?
                .get(CONTENT_LANGUAGE_KEY)?;
            Some(format!("inputRequests.{key}.params._meta ({language})"))
        })
        .collect()
}

fn every_message(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.translated_others()?[0].clone();
                let default = ctx.profile.default.clone();
                let mut checked = 0usize;
                // The progress tool with a progress token: its notifications
                // (progress, and any log message it sends) and its result.
                let mut missing = Vec::new();
                match ctx.tool_for(ToolRole::Progress, &[]).await {
                    Err(why) => missing.push(format!("the progress tool: {}", why.reason())),
                    Ok(plan) => {
                    let call = plan.call().with_progress();
                    let base = ctx.send(call.clone().preference(default.as_str())).await?;
                    if let Some(why) = refusal(&base) {
                        missing.push(plan.refused(&why).reason().to_owned());
                    } else {
                    let again = ctx.send(call.clone().preference(default.as_str())).await?;
                    let exchange = ctx.send(call.preference(tag.as_str())).await?;
                    let what = format!("tools/call {}", plan.name);
                    checked += notifications_report(&what, &tag, [&base, &again], &exchange)?;
                    if base.result().is_some() && exchange.result().is_some() {
                        checked += usize::from(check_report(ctx, &what, &tag, &base, &exchange)?);
                    }
                    }
                    }
                }
                // The elicitation tool: from 2026-07-28 on an input_required
                // result, which reports its language in result._meta.
                let elicitation = if is_stateless(ctx.protocol()) {
                    ctx.tool_for(ToolRole::Elicitation, &[]).await
                } else {
                    Err(ctx.needs_stateless("an input_required result exists from protocol 2026-07-28 on"))
                };
                match elicitation {
                    Err(why) => missing.push(format!("the elicitation tool: {}", why.reason())),
                    Ok(plan) => {
                    let call = plan.call();
                    let base = ctx.send(call.clone().preference(default.as_str())).await?;
                    if let Some(why) = refusal(&base) {
                        missing.push(plan.refused(&why).reason().to_owned());
                    } else {
                    let again = ctx.send(call.clone().preference(default.as_str())).await?;
                    let exchange = ctx.send(call.preference(tag.as_str())).await?;
                    let what = format!("tools/call {}", plan.name);
                    checked += notifications_report(&what, &tag, [&base, &again], &exchange)?;
                    if let (Some(a), Some(b)) = (base.result(), exchange.result())
                        && b.get("inputRequests").is_some()
                    {
                        let localized = texts(a) != texts(b);
                        let nested = nested_languages(b);
                        ensure(!localized || exchange.content_language().is_some(), || {
                            format!(
                                "{what} under {tag_q}: the input_required result's elicitation text is localized, but result._meta carries no io.modelcontextprotocol/contentLanguage{}: the SEP carries it in result._meta for an input-required response",
                                if nested.is_empty() { String::new() } else { format!(" (only {})", nested.join(", ")) }
                            , tag_q = crate::quote::q(&tag))
                        })?;
                        checked += usize::from(check_report(ctx, &what, &tag, &base, &exchange)?);
                    }
                    }
                    }
                }
                if checked == 0 {
                    let why = if missing.is_empty() {
                        String::new()
                    } else {
                        format!(" (not available: {}; name other tools in the profile)", missing.join("; "))
                    };
                    return Err(Outcome::Skip(format!(
                        "no message the suite provoked under {tag_q} was localized or reported a language: nothing to check{why}"
                    , tag_q = crate::quote::q(&tag))));
                }
                Ok(())
            }
            .await,
        )
    })
}

/// The natural-language text of a response, for [`labels`]: its display
/// strings, leaving out resource contents whose `mimeType` is not `text/…`
/// and strings that are JSON objects or arrays (data, not prose).
fn prose(response: &Value) -> Vec<String> {
    fn walk(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                let data = map
                    .get("mimeType")
                    .and_then(Value::as_str)
                    .is_some_and(|m| !m.to_ascii_lowercase().starts_with("text/"));
                if data {
                    return;
                }
                for (key, v) in map {
                    match (key.as_str(), v) {
                        ("_meta", _) => {
                            if let Some(info) = v.get(SERVER_INFO) {
                                walk(info, out);
                            }
                        }
                        ("title" | "description" | "text" | "message", Value::String(s)) => {
                            let json = serde_json::from_str::<Value>(s)
                                .is_ok_and(|j| j.is_object() || j.is_array());
                            if !json {
                                out.push(s.clone());
                            }
                        }
                        _ => walk(v, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(response, &mut out);
    out
}

/// Whether `texts` read as prose: at least four words of two letters or
/// more. Numbers, names, identifiers and short labels are rightly the same
/// in every language and are not judged.
fn is_prose(texts: &[String]) -> bool {
    let words = texts
        .iter()
        .flat_map(|t| t.split(|c: char| !c.is_alphabetic()))
        .filter(|w| w.chars().count() >= 2)
        .count();
    words >= 4
}

/// The primary language subtags a `contentLanguage` value names.
fn primaries(label: &str) -> Vec<String> {
    label
        .split(',')
        .map(|t| {
            t.trim()
                .split('-')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase()
        })
        .collect()
}

fn labels(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let others = ctx.translated_others()?;
                let mut languages = vec![default.clone(), others[0].clone()];
                if let Some(third) = others
                    .iter()
                    .find(|t| primaries(t) != primaries(&others[0]))
                {
                    languages.push(third.clone());
                }
                // What the suite can ask of any server: the server's own
                // description, the first prompt and resource, the tool calls
                // of the profile.
                let mut items: Vec<(String, Call)> = Vec::new();
                if let Ok(call) = super::stability::describe_server(ctx) {
                    items.push((call.method.clone(), call));
                }
                if let Ok(exchange) = ctx.send(Call::new("prompts/list")).await
                    && let Some(prompt) = exchange.items("prompts").first()
                {
                    let (name, call) = prompt_call(prompt);
                    items.push((format!("prompts/get {name}"), call));
                }
                if let Ok(exchange) = ctx.send(Call::new("resources/list")).await
                    && let Some(uri) = exchange.items("resources").first().and_then(|r| r.get("uri")).and_then(Value::as_str)
                {
                    items.push((format!("resources/read {uri}"), Call::new("resources/read").param("uri", json!(uri))));
                }
                let failing = ctx.profile.tool_error.clone();
                items.push((format!("tools/call {}", failing.name), Call::tool(&failing.name, Value::Object(failing.arguments))));
                if let Ok(plan) = ctx.tool_for(ToolRole::ExplicitLanguage, &["language"]).await {
                    items.push((format!("tools/call {}", plan.name), plan.call()));
                }
                let mut judged = 0usize;
                let mut exempt = Vec::new();
                for (what, call) in items {
                    // Left in one language on purpose, says the profile.
                    if ctx.profile.untranslated.contains(&what) {
                        exempt.push(what);
                        continue;
                    }
                    let mut answers: Vec<(String, String, Vec<String>)> = Vec::new();
                    for language in &languages {
                        let exchange = ctx.send(call.clone().preference(language.as_str())).await?;
                        let (Some(response), Some(label)) = (exchange.response(), exchange.content_language_str()) else {
                            continue;
                        };
                        answers.push((language.clone(), label.to_owned(), prose(response)));
                    }
                    for (i, (asked, label, text)) in answers.iter().enumerate() {
                        for (other_asked, other_label, other_text) in &answers[i + 1..] {
                            if !is_prose(text) {
                                continue;
                            }
                            judged += 1;
                            let disjoint = primaries(label).iter().all(|p| !primaries(other_label).contains(p));
                            ensure(!(disjoint && text == other_text), || {
                                format!(
                                    "{what}: the same text {} is labelled {label_q} under acceptLanguage {asked_q} and {other_label_q} under {other_asked_q}; contentLanguage names the natural language of the content, and one text is not in both",
                                    quoted(&text.join(" | "))
                                , label_q = crate::quote::q(&label), asked_q = crate::quote::q(&asked), other_label_q = crate::quote::q(&other_label), other_asked_q = crate::quote::q(&other_asked))
                            })?;
                        }
                    }
                }
                if judged == 0 {
                    let exempt = if exempt.is_empty() {
                        String::new()
                    } else {
                        format!("; the profile marks untranslated: {}", exempt.join(", "))
                    };
                    return Err(Outcome::Skip(format!(
                        "no two answers carried contentLanguage and natural-language text to compare (server description, first prompt and resource, the profile's tool calls){exempt}"
                    )));
                }
                Ok(())
            }
            .await,
        )
    })
}
