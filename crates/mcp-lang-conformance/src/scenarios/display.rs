//! Items 3, 4 and 5 of the SEP's Conformance list: what is translated, what
//! never is, and how the language is reported on results, errors,
//! elicitations and progress notifications.
//!
//! The identifier check compares whole responses of the same request under
//! several preferences with `mcp-lang-meta`'s `IdentifierGuard`: the only
//! differences allowed are the SEP's display fields, the fields it lets a
//! server translate (descriptions, content, `Error.message`) and
//! `contentLanguage`.
//!
//! A selected language "follows" a preference when it is the language asked
//! for or one that language range basic-filters (`fr` may be answered with
//! `fr-CA`: equally acceptable, the server's choice).

use mcp_lang_grammar::ContentLanguage;
use mcp_lang_meta::{CONTENT_LANGUAGE_KEY, IdentifierGuard};
use serde_json::{Value, json};

use crate::discovery::reaches;
use crate::scenario::{
    Connection, Ctx, Needs, Outcome, Scenario, ScenarioFuture, Step, ensure, finish,
};
use crate::wire::{Call, Exchange};

use super::sep;

/// The scenarios of this module, in report order.
pub(crate) const SCENARIOS: &[Scenario] = &[
    Scenario {
        id: "discovery.titles-localized",
        item: 3,
        rule: "tools/list titles are in the selected language",
        sep: sep::TRANSLATE,
        needs: Needs::Any,
        run: titles_localized,
    },
    Scenario {
        id: "discovery.names-stable",
        item: 3,
        rule: "tool names do not change with the preference",
        sep: sep::IDENTIFIERS,
        needs: Needs::Any,
        run: names_stable,
    },
    Scenario {
        id: "discovery.content-language",
        item: 3,
        rule: "contentLanguage is reported, well-formed, and one of the supported tags",
        sep: sep::CONTENT_LANGUAGE_SYNTAX,
        needs: Needs::Any,
        run: content_language,
    },
    Scenario {
        id: "elicitation.localized",
        item: 4,
        rule: "the elicitation's message and property labels are in the request's language",
        sep: sep::MESSAGES,
        needs: Needs::Any,
        run: elicitation_localized,
    },
    Scenario {
        id: "elicitation.stable-keys",
        item: 4,
        rule: "elicitation property keys, types and formats never change",
        sep: sep::ELICITATION_KEYS,
        needs: Needs::Any,
        run: elicitation_keys,
    },
    Scenario {
        id: "progress.localized",
        item: 4,
        rule: "progress messages are in the request's language",
        sep: sep::MESSAGES,
        needs: Needs::Any,
        run: progress_localized,
    },
    Scenario {
        id: "progress.stable-tokens",
        item: 4,
        rule: "progress tokens are the client's, untouched",
        sep: sep::IDENTIFIERS,
        needs: Needs::Any,
        run: progress_tokens,
    },
    Scenario {
        id: "notification.per-message-meta",
        item: 8,
        rule: "each localized notification carries contentLanguage in params._meta",
        sep: sep::NOTIFICATION,
        needs: Needs::Any,
        run: notification_meta,
    },
    Scenario {
        id: "identifiers.guard",
        item: 5,
        rule: "whole responses (lists, elicitation, progress) differ only in display fields across languages",
        sep: sep::IDENTIFIERS,
        needs: Needs::Any,
        run: identifier_guard,
    },
    Scenario {
        id: "explicit.argument-wins",
        item: 5,
        rule: "an explicit language argument beats the preference for the content it controls",
        sep: sep::EXPLICIT,
        needs: Needs::Any,
        run: explicit_argument,
    },
    Scenario {
        id: "error.localized-meta",
        item: 3,
        rule: "a localized error reports contentLanguage in error.data._meta, an object; the code is unchanged",
        sep: sep::ERROR_META,
        needs: Needs::Any,
        run: error_meta,
    },
];

fn tools(exchange: &Exchange) -> Vec<Value> {
    exchange.items("tools")
}

fn field(tool: &Value, key: &str) -> String {
    tool.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn titles_localized(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.translated_others()?;
                let default = ctx.profile.default.clone();
                let (_, base) = ctx
                    .language_of(Call::new("tools/list").preference(default.as_str()))
                    .await?;
                let base_titles: Vec<(String, String)> = tools(&base)
                    .iter()
                    .map(|t| (field(t, "name"), field(t, "title")))
                    .collect();
                ensure(base_titles.iter().any(|(_, t)| !t.is_empty()), || {
                    "no tool has a title to localize".to_owned()
                })?;
                for tag in others {
                    let (reported, exchange) = ctx
                        .language_of(Call::new("tools/list").preference(tag.as_str()))
                        .await?;
                    ensure(reaches(&tag, &reported), || {
                        format!("acceptLanguage {tag:?} reported contentLanguage {reported:?}")
                    })?;
                    let titles: Vec<(String, String)> = tools(&exchange)
                        .iter()
                        .map(|t| (field(t, "name"), field(t, "title")))
                        .collect();
                    let translated = titles
                        .iter()
                        .filter(|(name, title)| {
                            base_titles
                                .iter()
                                .any(|(n, t)| n == name && !t.is_empty() && t != title)
                        })
                        .count();
                    ensure(translated > 0, || {
                        format!("contentLanguage says {tag:?}, but every tool title is the same as in the default {default:?}")
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

fn names_stable(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                ctx.others(1)?;
                let mut reference: Option<(String, Vec<String>)> = None;
                for tag in ctx.profile.supported.clone() {
                    let exchange = ctx
                        .result(Call::new("tools/list").preference(tag.as_str()))
                        .await?;
                    let mut names: Vec<String> =
                        tools(&exchange).iter().map(|t| field(t, "name")).collect();
                    if names.is_empty() {
                        return Err(Outcome::Skip("tools/list lists no tool".into()));
                    }
                    names.sort();
                    match &reference {
                        None => reference = Some((tag, names)),
                        Some((first, expected)) => ensure(&names == expected, || {
                            format!("tool names under {tag:?} are {names:?}; under {first:?} they were {expected:?}")
                        })?,
                    }
                }
                Ok(())
            }
            .await,
        )
    })
}

fn content_language(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let mut preferences: Vec<Option<String>> = vec![None];
                preferences.extend(ctx.profile.supported.iter().cloned().map(Some));
                preferences.push(Some(format!(
                    "{}-ZZ",
                    ctx.profile.supported.last().cloned().unwrap_or_default()
                )));
                for preference in preferences {
                    let mut call = Call::new("tools/list");
                    if let Some(p) = &preference {
                        call = call.preference(p.as_str());
                    }
                    if preference.is_none() {
                        // No preference sent: nothing was honored, so the
                        // report MAY be missing; if present it is checked.
                        let exchange = ctx.result(call).await?;
                        match exchange.content_language() {
                            None => continue,
                            Some(Value::String(_)) => {}
                            Some(other) => {
                                return Err(Outcome::Fail(format!(
                                    "contentLanguage (no acceptLanguage sent) is not a string: {other}"
                                )));
                            }
                        }
                        call = Call::new("tools/list");
                    }
                    let (reported, _) = ctx.language_of(call).await?;
                    ensure(ContentLanguage::parse(&reported).is_ok(), || {
                        format!("contentLanguage {reported:?} (for acceptLanguage {preference:?}) is not a Content-Language value")
                    })?;
                    let supported = &ctx.profile.supported;
                    ensure(
                        supported.iter().any(|s| s.eq_ignore_ascii_case(&reported)),
                        || format!("contentLanguage {reported:?} (for acceptLanguage {preference:?}) is not a language the server supports {supported:?}: it must report the language actually used"),
                    )?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// The elicitation a tool call produced: the `input_required` result's first
/// `elicitation/create`, or a server-to-client `elicitation/create` request.
/// Returns the params and the language reported for them.
fn elicitation(exchange: &Exchange) -> Option<(Value, Option<String>)> {
    if let Some(result) = exchange.result()
        && let Some(requests) = result.get("inputRequests").and_then(Value::as_object)
    {
        let request = requests
            .values()
            .find(|r| r.get("method").and_then(Value::as_str) == Some("elicitation/create"))?;
        let params = request.get("params")?.clone();
        let language = result
            .pointer("/_meta")
            .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
            .or_else(|| {
                params
                    .pointer("/_meta")
                    .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
            })
            .and_then(Value::as_str)
            .map(str::to_owned);
        return Some((params, language));
    }
    let request = exchange
        .server_requests()
        .find(|r| r.get("method").and_then(Value::as_str) == Some("elicitation/create"))?;
    let params = request.get("params")?.clone();
    let language = params
        .pointer("/_meta")
        .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Some((params, language))
}

async fn elicit(ctx: &mut Ctx, tag: &str) -> Step<(Value, Option<String>)> {
    let stateless = crate::wire::is_stateless(ctx.protocol());
    // Before 2026-07-28 an elicitation is a server-to-client request, which
    // the client answers on the server's event stream; a server without
    // sessions (JSON responses, no `Mcp-Session-Id`) has no way to send one.
    if let Connection::Http(http) = &ctx.connection
        && !stateless
        && http.session().is_none()
    {
        return Err(Outcome::Skip(
            "before protocol 2026-07-28 an elicitation is a server-to-client request, and this server opened no session (no Mcp-Session-Id) to send it in; run with --protocol 2026-07-28".into(),
        ));
    }
    let tool = ctx.profile.elicitation_tool.clone();
    ctx.require_tool(&tool).await?;
    let exchange = ctx
        .send(Call::tool(&tool, json!({})).preference(tag))
        .await?;
    elicitation(&exchange).ok_or_else(|| {
        Outcome::Fail(format!(
            "{tool} under {tag:?} produced no elicitation: {}",
            exchange.summary()
        ))
    })
}

/// The display texts of an elicitation: message, then each property's title
/// and description, by key.
fn labels(params: &Value) -> Vec<(String, String)> {
    let mut out = vec![(
        "message".to_owned(),
        params
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    )];
    if let Some(properties) = params
        .pointer("/requestedSchema/properties")
        .and_then(Value::as_object)
    {
        for (key, property) in properties {
            for label in ["title", "description"] {
                if let Some(text) = property.get(label).and_then(Value::as_str) {
                    out.push((format!("{key}.{label}"), text.to_owned()));
                }
            }
        }
    }
    out
}

fn elicitation_localized(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.translated_others()?;
                let default = ctx.profile.default.clone();
                let (base, _) = elicit(ctx, &default).await?;
                let base_labels = labels(&base);
                for tag in others.iter().take(3) {
                    let (params, reported) = elicit(ctx, tag).await?;
                    ensure(
                        reported.as_deref().is_some_and(|r| reaches(tag, r)),
                        || format!("the elicitation under {tag:?} reports contentLanguage {reported:?}"),
                    )?;
                    let here = labels(&params);
                    ensure(here.first() != base_labels.first(), || {
                        format!("the elicitation message under {tag:?} is the default language's: {:?}", here.first())
                    })?;
                    let unchanged: Vec<&String> = here
                        .iter()
                        .filter(|l| base_labels.contains(l) && !l.1.is_empty())
                        .map(|l| &l.0)
                        .collect();
                    ensure(unchanged.is_empty(), || {
                        format!("under {tag:?}, these elicitation labels are left in the default language: {unchanged:?}")
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// The schema with display labels removed: what must be identical.
fn schema_skeleton(params: &Value) -> Value {
    let mut schema = params
        .get("requestedSchema")
        .cloned()
        .unwrap_or(Value::Null);
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for property in properties.values_mut() {
            if let Some(p) = property.as_object_mut() {
                p.remove("title");
                p.remove("description");
            }
        }
    }
    schema
}

fn elicitation_keys(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let default = ctx.profile.default.clone();
                let (base, _) = elicit(ctx, &default).await?;
                if base
                    .pointer("/requestedSchema/properties")
                    .and_then(Value::as_object)
                    .is_none_or(serde_json::Map::is_empty)
                {
                    return Err(Outcome::Skip("the elicitation requests no property: no key to keep stable".into()));
                }
                let expected = schema_skeleton(&base);
                for tag in others {
                    let (params, _) = elicit(ctx, &tag).await?;
                    let skeleton = schema_skeleton(&params);
                    ensure(skeleton == expected, || {
                        format!("the requested schema under {tag:?} differs beyond titles and descriptions: {skeleton} vs {expected}")
                    })?;
                    ensure(params.get("mode") == base.get("mode"), || {
                        format!("the elicitation mode changed under {tag:?}")
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// The progress notifications of one call of the progress tool under `tag`.
async fn progress(ctx: &mut Ctx, tag: &str) -> Step<(Exchange, Vec<Value>)> {
    let tool = ctx.profile.progress_tool.clone();
    ctx.require_tool(&tool).await?;
    let exchange = ctx
        .result(Call::tool(&tool, json!({})).preference(tag).with_progress())
        .await?;
    let notes: Vec<Value> = exchange
        .notifications()
        .filter(|n| n.get("method").and_then(Value::as_str) == Some("notifications/progress"))
        .cloned()
        .collect();
    if notes.is_empty() {
        return Err(Outcome::Fail(format!(
            "{tool} under {tag:?} sent no progress notification although a progressToken was given"
        )));
    }
    Ok((exchange, notes))
}

fn messages(notes: &[Value]) -> Vec<String> {
    notes
        .iter()
        .filter_map(|n| n.pointer("/params/message").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

fn progress_localized(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.translated_others()?;
                let default = ctx.profile.default.clone();
                let (_, base) = progress(ctx, &default).await?;
                let base_messages = messages(&base);
                for tag in others.iter().take(3) {
                    let (_, notes) = progress(ctx, tag).await?;
                    let here = messages(&notes);
                    let same: Vec<&String> =
                        here.iter().filter(|m| base_messages.contains(m)).collect();
                    ensure(!here.is_empty() && same.is_empty(), || {
                        format!("progress messages under {tag:?} are the default language's: {same:?}")
                    })?;
                    for note in &notes {
                        let reported = note
                            .pointer("/params/_meta")
                            .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
                            .and_then(Value::as_str);
                        ensure(reported.is_some_and(|r| reaches(tag, r)), || {
                            format!("a progress notification under {tag:?} reports contentLanguage {reported:?}")
                        })?;
                    }
                }
                Ok(())
            }
            .await,
        )
    })
}

fn progress_tokens(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                for tag in others.iter().take(2) {
                    let (exchange, notes) = progress(ctx, tag).await?;
                    let sent = exchange
                        .request
                        .pointer("/params/_meta/progressToken")
                        .cloned()
                        .unwrap_or(Value::Null);
                    for note in &notes {
                        let token = note.pointer("/params/progressToken");
                        ensure(token == Some(&sent), || {
                            format!("a progress notification under {tag:?} carries token {token:?}, not the client's {sent}")
                        })?;
                    }
                }
                Ok(())
            }
            .await,
        )
    })
}

fn notification_meta(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let tag = others[0].clone();
                let (_, notes) = progress(ctx, &tag).await?;
                for note in &notes {
                    let meta = note.pointer("/params/_meta");
                    let reported = meta.and_then(|m| m.get(CONTENT_LANGUAGE_KEY));
                    ensure(reported.and_then(Value::as_str).is_some(), || {
                        format!("a localized notification carries no contentLanguage string in params._meta: {note}")
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// Removes what legitimately differs between two requests: the JSON-RPC id.
fn without_id(mut response: Value) -> Value {
    if let Some(object) = response.as_object_mut() {
        object.remove("id");
    }
    response
}

/// The `_meta` key under which a 2026-07-28 server describes itself.
const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The pointers, in either message, of the fields the SEP lets a server
/// translate, or that are display text the base guard does not see: every `description` (tools, prompts and their arguments,
/// resources, templates, the implementation, schema properties), the `text` of
/// content (tool, prompt and resource content), `Error.message`, and the
/// title and description of the implementation a result's `_meta` describes.
fn may_translate(message: &Value, path: &mut String, out: &mut Vec<String>) {
    match message {
        Value::Object(map) => {
            for (key, value) in map {
                let len = path.len();
                path.push('/');
                path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                match (key.as_str(), value) {
                    // `_meta` keys and values are not display text, but the
                    // implementation a 2026-07-28 server describes in every
                    // result's `_meta` has a title and a description.
                    ("_meta", Value::Object(meta)) => {
                        if let Some(info) = meta.get(SERVER_INFO) {
                            let len = path.len();
                            path.push_str("/io.modelcontextprotocol~1serverInfo");
                            for field in ["title", "description"] {
                                if info.get(field).is_some_and(Value::is_string) {
                                    out.push(format!("{path}/{field}"));
                                }
                            }
                            path.truncate(len);
                        }
                    }
                    ("_meta", _) => {}
                    ("description" | "text", Value::String(_)) => out.push(path.clone()),
                    ("message", Value::String(_)) if path == "/error/message" => {
                        out.push(path.clone());
                    }
                    _ => may_translate(value, path, out),
                }
                path.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, value) in items.iter().enumerate() {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                may_translate(value, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// The guard's differences between two messages, described for a failure.
///
/// Besides the display fields and the `contentLanguage` of the result, error
/// and notification `_meta` (what `mcp-lang-meta`'s guard allows), what the
/// SEP lets a server translate ([`may_translate`]) and the `contentLanguage`
/// in the `_meta` of an `input_required` result's nested requests are allowed
/// too.
fn guarded(base: &Value, other: &Value) -> Vec<String> {
    let mut guard = IdentifierGuard::new();
    for message in [base, other] {
        let keys = message
            .pointer("/result/inputRequests")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|requests| requests.keys());
        for key in keys {
            let key = key.replace('~', "~0").replace('/', "~1");
            guard = guard.allow(&format!(
                "/result/inputRequests/{key}/params/_meta/io.modelcontextprotocol~1contentLanguage"
            ));
        }
        let mut allowed = Vec::new();
        may_translate(message, &mut String::new(), &mut allowed);
        for pointer in allowed {
            guard = guard.allow(&pointer);
        }
    }
    guard
        .check(base, other)
        .iter()
        .take(5)
        .map(|d| format!("{} ({:?})", d.path(), d.kind()))
        .collect()
}

/// Removes the per-request progress token (the suite makes one per request id).
fn without_token(mut notification: Value) -> Value {
    if let Some(params) = notification
        .get_mut("params")
        .and_then(Value::as_object_mut)
    {
        params.remove("progressToken");
    }
    notification
}

fn identifier_guard(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let others = ctx.others(1)?;
                let mut compared = 0usize;
                for method in ["tools/list", "prompts/list", "resources/list", "resources/templates/list"] {
                    let base = ctx
                        .send(Call::new(method).preference(default.as_str()))
                        .await?;
                    let Some(base_response) = base.response().cloned() else {
                        continue;
                    };
                    if base.result().is_none() {
                        continue; // the method is not implemented
                    }
                    let base_response = without_id(base_response);
                    for tag in &others {
                        let exchange = ctx.send(Call::new(method).preference(tag.as_str())).await?;
                        let response = without_id(exchange.response().cloned().unwrap_or(Value::Null));
                        compared += 1;
                        let differences = guarded(&base_response, &response);
                        ensure(differences.is_empty(), || {
                            format!("{method} under {tag:?} differs from {default:?} outside the display fields: {}", differences.join(", "))
                        })?;
                    }
                }
                // The elicitation (an input_required result) and the progress
                // notifications, whole, in every language.
                let elicitation = ctx.profile.elicitation_tool.clone();
                let stateless = crate::wire::is_stateless(ctx.protocol());
                if stateless && ctx.require_tool(&elicitation).await.is_ok() {
                    let call = |tag: &str| Call::tool(&elicitation, json!({})).preference(tag);
                    let base = ctx.send(call(&default)).await?;
                    let base = without_id(base.response().cloned().unwrap_or(Value::Null));
                    for tag in &others {
                        let exchange = ctx.send(call(tag)).await?;
                        let response = without_id(exchange.response().cloned().unwrap_or(Value::Null));
                        compared += 1;
                        let differences = guarded(&base, &response);
                        ensure(differences.is_empty(), || {
                            format!("the {elicitation} response under {tag:?} differs from {default:?} outside the display fields: {}", differences.join(", "))
                        })?;
                    }
                }
                let progress_tool = ctx.profile.progress_tool.clone();
                if ctx.require_tool(&progress_tool).await.is_ok() {
                    let (_, base) = progress(ctx, &default).await?;
                    for tag in &others {
                        let (_, notes) = progress(ctx, tag).await?;
                        ensure(notes.len() == base.len(), || {
                            format!("{progress_tool} sent {} notifications under {tag:?}, {} under {default:?}", notes.len(), base.len())
                        })?;
                        for (a, b) in base.iter().zip(&notes) {
                            compared += 1;
                            let differences = guarded(&without_token(a.clone()), &without_token(b.clone()));
                            ensure(differences.is_empty(), || {
                                format!("a progress notification under {tag:?} differs from {default:?} outside the display fields: {}", differences.join(", "))
                            })?;
                        }
                    }
                }
                if compared == 0 {
                    return Err(Outcome::Skip(
                        "no list method, elicitation or progress tool answered: nothing to compare across languages".into(),
                    ));
                }
                Ok(())
            }
            .await,
        )
    })
}

/// Arguments for the explicit-language tool: for each required property
/// other than `language`, its first `enum` value (or `"example"`).
pub(crate) fn explicit_arguments(tool: &Value) -> serde_json::Map<String, Value> {
    let mut arguments = serde_json::Map::new();
    let required: Vec<&str> = tool
        .pointer("/inputSchema/required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for key in required {
        if key == "language" {
            continue;
        }
        let value = tool
            .pointer(&format!("/inputSchema/properties/{key}/enum/0"))
            .cloned()
            .unwrap_or(json!("example"));
        arguments.insert(key.to_owned(), value);
    }
    arguments
}

fn explicit_argument(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let default = ctx.profile.default.clone();
                let name = ctx.profile.explicit_language_tool.clone();
                let tool = ctx.require_tool(&name).await?;
                let base = explicit_arguments(&tool);
                for (preference, explicit) in [(default.clone(), others[0].clone()), (others[0].clone(), default.clone())] {
                    let mut arguments = base.clone();
                    arguments.insert("language".into(), json!(explicit));
                    let (reported, with_argument) = ctx
                        .language_of(Call::tool(&name, Value::Object(arguments)).preference(preference.as_str()))
                        .await?;
                    ensure(reaches(&explicit, &reported), || {
                        format!("{name} with language {explicit:?} under acceptLanguage {preference:?} returned content in {reported:?}: the preference overrode the explicit argument")
                    })?;
                    let (_, without) = ctx
                        .language_of(Call::tool(&name, Value::Object(base.clone())).preference(preference.as_str()))
                        .await?;
                    ensure(with_argument.result().and_then(|r| r.get("content")) != without.result().and_then(|r| r.get("content")), || {
                        format!("{name} returned the same content with language {explicit:?} as without it under {preference:?}")
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// Requests that end in an error: the profile's `error_call`, then what does
/// for any server: an unknown tool, an unknown prompt, a resource that does
/// not exist, and each listed prompt without its required arguments.
async fn error_calls(ctx: &mut Ctx) -> Vec<Call> {
    let mut calls: Vec<Call> = ctx
        .profile
        .error_call
        .iter()
        .map(|c| Call::tool(&c.name, Value::Object(c.arguments.clone())))
        .collect();
    calls.extend([
        Call::tool("mcp-lang-conformance-no-such-tool", json!({})),
        Call::new("prompts/get").param("name", json!("mcp-lang-conformance-no-such-prompt")),
        Call::new("resources/read").param("uri", json!("mcp-lang-conformance://no-such-resource")),
    ]);
    if let Ok(exchange) = ctx.send(Call::new("prompts/list")).await {
        for prompt in exchange.items("prompts") {
            let required = prompt
                .get("arguments")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|a| a.get("required") == Some(&json!(true))));
            if let (true, Some(name)) = (required, prompt.get("name").and_then(Value::as_str)) {
                calls.push(Call::new("prompts/get").param("name", json!(name)));
            }
        }
    }
    calls
}

/// An error the server localizes: for each request of [`error_calls`], the
/// error under the default and under `tag`, until their messages differ.
/// Returns the call, the default's error and `tag`'s exchange; skips when the
/// server localizes none of them.
pub(crate) async fn localized_error(ctx: &mut Ctx, tag: &str) -> Step<(Call, Value, Exchange)> {
    let default = ctx.profile.default.clone();
    let mut tried = Vec::new();
    for call in error_calls(ctx).await {
        let base = ctx.send(call.clone().preference(default.as_str())).await?;
        let Some(base_error) = base.error().cloned() else {
            continue;
        };
        let exchange = ctx.send(call.clone().preference(tag)).await?;
        let Some(error) = exchange.error() else {
            return Err(Outcome::Fail(format!(
                "{} failed under {default:?} but succeeded under {tag:?}: {}",
                call.method,
                exchange.summary()
            )));
        };
        if error.get("message") != base_error.get("message") {
            return Ok((call, base_error, exchange));
        }
        tried.push(format!(
            "{} {}",
            call.method,
            call.mcp_name().unwrap_or_default()
        ));
    }
    Err(Outcome::Skip(format!(
        "found no error the server localizes (tried {}); the SEP lets a server leave Error.message untranslated",
        tried.join(", ")
    )))
}

fn error_meta(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.translated_others()?[0].clone();
                let default = ctx.profile.default.clone();
                let (call, base_error, exchange) = localized_error(ctx, &tag).await?;
                let what = format!("{} {}", call.method, call.mcp_name().unwrap_or_default());
                let error = exchange.error().cloned().unwrap_or_default();
                ensure(error.get("code") == base_error.get("code"), || {
                    format!("{what}: error.code under {tag:?} is {:?}, under {default:?} {:?}: the code must not change", error.get("code"), base_error.get("code"))
                })?;
                let data = error.get("data");
                ensure(data.is_some_and(Value::is_object), || {
                    format!("{what}: the error localized under {tag:?} has no error.data object to carry contentLanguage: {error}")
                })?;
                let reported = error.pointer("/data/_meta").and_then(|m| m.get(CONTENT_LANGUAGE_KEY)).and_then(Value::as_str);
                ensure(reported.is_some_and(|r| reaches(&tag, r)), || {
                    format!("{what}: the error localized under {tag:?} reports contentLanguage {reported:?} in error.data._meta")
                })
            }
            .await,
        )
    })
}
