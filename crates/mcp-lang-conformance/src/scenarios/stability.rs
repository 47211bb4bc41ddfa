//! Item 2 of the SEP's Conformance list beyond consecutive requests (the
//! retry of an `input_required` result, the handshake), and item 5 beyond
//! discovery (the keys of a tool result's `structuredContent`, the server's
//! `serverInfo.name`).
//!
//! A retry is a request of its own: it is answered in its own language,
//! whatever the first call's was. A handshake (`initialize`, or
//! `server/discover` from protocol 2026-07-28 on) is a request too: its
//! preference binds nothing. Identifiers stay the same in every language,
//! those of results included.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::calls::{ToolPlan, refusal};
use crate::discovery::reaches;
use crate::profile::ToolRole;
use crate::scenario::{
    Connection, Ctx, Needs, Outcome, Scenario, ScenarioFuture, Step, ensure, finish,
};
use crate::wire::{Call, Exchange, is_stateless};

use super::reporting::{SERVER_INFO, texts};
use super::sep;

/// The scenarios of this module, in report order.
pub(crate) const SCENARIOS: &[Scenario] = &[
    Scenario {
        id: "scope.retry",
        item: 2,
        rule: "the retry of an input_required result is answered in the retry's language, not the first call's",
        sep: sep::REUSE,
        needs: Needs::Any,
        run: retry,
    },
    Scenario {
        id: "scope.handshake",
        item: 2,
        rule: "a preference sent on initialize (server/discover) does not bind later requests without one",
        sep: sep::BIND,
        needs: Needs::Any,
        run: handshake,
    },
    Scenario {
        id: "identifiers.result-keys",
        item: 5,
        rule: "the property keys of a tool result's structuredContent are the same in every language",
        sep: sep::IDENTIFIERS,
        needs: Needs::Any,
        run: result_keys,
    },
    Scenario {
        id: "identifiers.server-name",
        item: 5,
        rule: "serverInfo.name (initialize, server/discover) is the same in every language",
        sep: sep::IDENTIFIERS,
        needs: Needs::Any,
        run: server_name,
    },
];

/// A contentLanguage as the wire has it, for a message: `"fr"` or `none`.
fn label(exchange: &Exchange) -> String {
    match exchange.content_language() {
        Some(value) => value.to_string(),
        None => "none".to_owned(),
    }
}

/// The display text of a response (result or error), for comparisons.
fn shown(exchange: &Exchange) -> Vec<String> {
    exchange.response().map(texts).unwrap_or_default()
}

/// The first display text of a response, cut short, for messages.
fn excerpt(exchange: &Exchange) -> String {
    let text = shown(exchange).join(" | ");
    let cut: String = text.chars().take(80).collect();
    let ellipsis = if text.chars().count() > 80 { "…" } else { "" };
    format!("{}{ellipsis}", Value::String(cut))
}

/// Calls the elicitation tool of `plan` under `first`, which must answer
/// with an `input_required` result, then retries it under `retry`, declining
/// every input request. Returns the retry's exchange.
async fn retried(ctx: &mut Ctx, plan: &ToolPlan, first: &str, retry: &str) -> Step<Exchange> {
    let tool = &plan.name;
    let exchange = ctx.send(plan.call().preference(first)).await?;
    if let Some(why) = refusal(&exchange) {
        return Err(plan.refused(&why));
    }
    let Some(requests) = exchange
        .result()
        .and_then(|r| r.get("inputRequests"))
        .and_then(Value::as_object)
    else {
        return Err(Outcome::Skip(format!(
            "{tool} under {first_q} did not answer with an input_required result: {}",
            exchange.summary(),
            first_q = crate::quote::q(&first)
        )));
    };
    let responses: Map<String, Value> = requests
        .keys()
        .map(|key| (key.clone(), json!({ "action": "decline" })))
        .collect();
    let mut call = plan
        .call()
        .param("inputResponses", Value::Object(responses))
        .preference(retry);
    if let Some(state) = exchange.result().and_then(|r| r.get("requestState")) {
        call = call.param("requestState", state.clone());
    }
    let answer = ctx.send(call).await?;
    if answer.response().is_none() {
        return Err(Outcome::Skip(format!(
            "the retry of {tool} under {retry_q} got no answer: {}",
            answer.summary(),
            retry_q = crate::quote::q(&retry)
        )));
    }
    Ok(answer)
}

fn retry(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                if !is_stateless(ctx.protocol()) {
                    return Err(ctx.needs_stateless(
                        "input_required results and their retries exist from protocol 2026-07-28 on",
                    ));
                }
                let first = ctx.translated_others()?[0].clone();
                let second = ctx.profile.default.clone();
                let plan = ctx.tool_for(ToolRole::Elicitation, &[]).await?;
                let tool = plan.name.clone();
                let control_first = retried(ctx, &plan, &first, &first).await?;
                let control_second = retried(ctx, &plan, &second, &second).await?;
                let changed = retried(ctx, &plan, &first, &second).await?;
                let view = |e: &Exchange| (shown(e), e.content_language().cloned());
                if view(&control_first) == view(&control_second) {
                    return Err(Outcome::Skip(format!(
                        "the declined retry of {tool} is answered the same under {first_q} and {second_q} (contentLanguage {}, text {}): nothing shows which language a retry uses",
                        label(&control_first),
                        excerpt(&control_first)
                    , first_q = crate::quote::q(&first), second_q = crate::quote::q(&second))));
                }
                if view(&changed) == view(&control_second) {
                    return Ok(());
                }
                let seen = format!("contentLanguage {}, text {}", label(&changed), excerpt(&changed));
                if view(&changed) == view(&control_first) {
                    return Err(Outcome::Fail(format!(
                        "the retry of {tool} with acceptLanguage {second_q}, after a first call under {first_q}, was answered in the first call's language ({seen}), as a retry under {first_q} is; a retry under {second_q} alone gets contentLanguage {}, text {}",
                        label(&control_second),
                        excerpt(&control_second)
                    , second_q = crate::quote::q(&second), first_q = crate::quote::q(&first))));
                }
                Err(Outcome::Fail(format!(
                    "the retry of {tool} with acceptLanguage {second_q}, after a first call under {first_q}, was answered with {seen}; a retry under {second_q} after a first call under {second_q} gets contentLanguage {}, text {}: the first call changed the retry's answer",
                    label(&control_second),
                    excerpt(&control_second)
                , second_q = crate::quote::q(&second), first_q = crate::quote::q(&first))))
            }
            .await,
        )
    })
}

fn handshake(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.translated_others()?[0].clone();
                let default = ctx.profile.default.clone();
                let probe = Call::new("tools/list");
                // What a request in the default language gets.
                let base = ctx.result(probe.clone().preference(default.as_str())).await?;
                let (what, after) = if is_stateless(ctx.protocol()) {
                    let discover = ctx
                        .send(Call::new("server/discover").preference(tag.as_str()))
                        .await?;
                    if discover.result().is_none() {
                        return Err(Outcome::Skip(format!(
                            "server/discover with acceptLanguage {tag_q} did not succeed: {}",
                            discover.summary()
                        , tag_q = crate::quote::q(&tag))));
                    }
                    ("server/discover", ctx.result(probe.clone()).await?)
                } else {
                    let Connection::Http(http) = &mut ctx.connection else {
                        return Err(ctx.needs_stateless(
                            "on stdio the one initialize of a connection was sent when it opened, without a preference, so only server/discover (protocol 2026-07-28) or a run over HTTP can show this",
                        ));
                    };
                    let (opened, answer) = http.in_new_session(&tag, &probe).await.map_err(|e| {
                        Outcome::Fail(format!(
                            "initialize with acceptLanguage {tag_q} in a session of its own failed on the wire: {e}"
                        , tag_q = crate::quote::q(&tag)))
                    })?;
                    let Some(answer) = answer else {
                        return Err(Outcome::Skip(format!(
                            "initialize with acceptLanguage {tag_q} did not succeed: {}",
                            opened.summary()
                        , tag_q = crate::quote::q(&tag))));
                    };
                    if answer.result().is_none() {
                        return Err(Outcome::Fail(format!(
                            "tools/list without a preference, after initialize with acceptLanguage {tag_q} in the same session, did not succeed: {}",
                            answer.summary()
                        , tag_q = crate::quote::q(&tag))));
                    }
                    ("initialize", answer)
                };
                let reported = after.content_language_str();
                let same_text = shown(&after) == shown(&base);
                ensure(reported.is_none_or(|r| reaches(&default, r)) && same_text, || {
                    format!(
                        "after {what} with acceptLanguage {tag_q}, tools/list without a preference was answered with contentLanguage {} and {} the default {default_q}'s: the handshake's preference was bound to later requests",
                        label(&after),
                        if same_text { "the same titles as" } else { "other titles than" }
                    , tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default))
                })
            }
            .await,
        )
    })
}

/// Every key path of a JSON value's objects (`a/b`, array items as `[]`).
fn key_paths(value: &Value) -> BTreeSet<String> {
    fn walk(value: &Value, path: &str, out: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    let here = format!("{path}/{key}");
                    out.insert(here.clone());
                    walk(v, &here, out);
                }
            }
            Value::Array(items) => {
                let here = format!("{path}/[]");
                for v in items {
                    walk(v, &here, out);
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    walk(value, "", &mut out);
    out
}

fn result_keys(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let others = ctx.others(1)?;
                let mut calls: Vec<(String, Value)> = Vec::new();
                if let Ok(plan) = ctx.tool_for(ToolRole::ExplicitLanguage, &["language"]).await {
                    calls.push((plan.name, Value::Object(plan.arguments)));
                }
                let failing = ctx.profile.tool_error.clone();
                calls.push((failing.name, Value::Object(failing.arguments)));
                let mut compared = 0usize;
                let mut tried = Vec::new();
                for (name, arguments) in calls {
                    tried.push(name.clone());
                    let call = Call::tool(&name, arguments);
                    let base = ctx.send(call.clone().preference(default.as_str())).await?;
                    let Some(content) = base.result().and_then(|r| r.get("structuredContent")) else {
                        continue;
                    };
                    let keys = key_paths(content);
                    for tag in &others {
                        let exchange = ctx.send(call.clone().preference(tag.as_str())).await?;
                        let Some(other) = exchange.result().and_then(|r| r.get("structuredContent")) else {
                            continue; // an error, or no structured content: no keys to compare
                        };
                        compared += 1;
                        let other_keys = key_paths(other);
                        ensure(other_keys == keys, || {
                            let only = |a: &BTreeSet<String>, b: &BTreeSet<String>| {
                                Value::from(a.difference(b).take(5).cloned().collect::<Vec<_>>()).to_string()
                            };
                            format!(
                                "tools/call {name}: structuredContent under {tag_q} has the keys {} where under {default_q} it has {}: JSON property keys are identifiers and are never translated",
                                only(&other_keys, &keys),
                                only(&keys, &other_keys)
                            , tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default))
                        })?;
                    }
                }
                if compared == 0 {
                    return Err(Outcome::Skip(format!(
                        "no tool result the suite can call carries structuredContent in two languages (tried {}); name such a tool in the profile (explicit_language_tool, tool_error)",
                        tried.join(", ")
                    )));
                }
                Ok(())
            }
            .await,
        )
    })
}

/// The request that describes the server: `server/discover` from protocol
/// 2026-07-28 on, else an `initialize` outside the connection's session
/// (HTTP); skips on stdio before 2026-07-28, whose one `initialize` was sent
/// when the connection opened.
pub(super) fn describe_server(ctx: &Ctx) -> Step<Call> {
    if is_stateless(ctx.protocol()) {
        return Ok(Call::new("server/discover"));
    }
    if let Connection::Stdio(_) = &ctx.connection {
        return Err(ctx.needs_stateless(
            "on stdio the one initialize of a connection was sent when it opened, before the languages were known, so only server/discover (protocol 2026-07-28) or a run over HTTP can show this",
        ));
    }
    Ok(Call::new("initialize")
        .param("protocolVersion", json!(ctx.protocol()))
        .param("capabilities", json!({}))
        .param(
            "clientInfo",
            json!({ "name": "mcp-lang-conformance", "version": env!("CARGO_PKG_VERSION") }),
        )
        .outside_session())
}

/// The `serverInfo` of an `initialize` or `server/discover` result.
pub(super) fn server_info(exchange: &Exchange) -> Option<&Value> {
    let result = exchange.result()?;
    result
        .get("serverInfo")
        .or_else(|| result.get("_meta")?.get(SERVER_INFO))
}

fn server_name(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let others = ctx.others(1)?;
                let call = describe_server(ctx)?;
                let what = call.method.clone();
                let base = ctx.result(call.clone().preference(default.as_str())).await?;
                let Some(name) = server_info(&base).and_then(|i| i.get("name")).cloned() else {
                    return Err(Outcome::Skip(format!(
                        "{what} under {default_q} carries no serverInfo.name"
                    , default_q = crate::quote::q(&default))));
                };
                for tag in &others {
                    let exchange = ctx.result(call.clone().preference(tag.as_str())).await?;
                    let other = server_info(&exchange).and_then(|i| i.get("name"));
                    ensure(other == Some(&name), || {
                        format!(
                            "{what} under {tag_q}: serverInfo.name is {} where under {default_q} it is {name}: BaseMetadata.name is an identifier and is never translated",
                            other.map_or_else(|| "absent".to_owned(), Value::to_string)
                        , tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default))
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}
