//! Items 3, 4 and 5 of the SEP's Conformance list: what is translated, what
//! never is, and how the language is reported on results, errors,
//! elicitations and progress notifications.
//!
//! The identifier check compares whole responses of the same request under
//! several preferences at exactly the identifier positions the SEP names
//! ([`crate::identifiers`]); everything else (display text, descriptions,
//! schema labels, content, caching values, the reported language) may differ.
//!
//! A selected language "follows" a preference when it is the language asked
//! for or one that language range basic-filters (`fr` may be answered with
//! `fr-CA`: equally acceptable, the server's choice). A report naming several
//! languages (`fr, en`) is read by [`crate::language`].
//!
//! What the SEP only recommends ends in a warning when a server declines it:
//! translating titles, elicitation text and progress messages ("SHOULD
//! translate these display-oriented fields"), and an explicit language
//! argument taking precedence ("SHOULD take precedence"). What it requires
//! (stable identifiers, a truthful, well-formed report, where the report is
//! carried) ends in a failure. The tools these scenarios call, and with which
//! arguments, are chosen by [`crate::calls`].

use mcp_lang_grammar::ContentLanguage;
use mcp_lang_meta::CONTENT_LANGUAGE_KEY;
use serde_json::{Value, json};

use crate::calls::{ToolPlan, refusal};
use crate::discovery::reaches;
use crate::language::selected;
use crate::profile::ToolRole;
use crate::scenario::{
    Connection, Ctx, Needs, Outcome, Scenario, ScenarioFuture, Step, ensure, finish, should,
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
                if base_titles.iter().all(|(_, t)| t.is_empty()) {
                    return Err(Outcome::Skip(
                        "no tool has a title to localize (titles are optional)".into(),
                    ));
                }
                for tag in others {
                    let (reported, exchange) = ctx
                        .language_of(Call::new("tools/list").preference(tag.as_str()))
                        .await?;
                    ensure(reaches(&tag, &reported), || {
                        format!("acceptLanguage {tag_q} reported contentLanguage {reported_q}", tag_q = crate::quote::q(&tag), reported_q = crate::quote::q(&reported))
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
                    should(translated > 0, || {
                        format!("contentLanguage says {tag_q}, but every tool title is the same as in the default {default_q}: the SEP says titles SHOULD be translated", tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default))
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
                            format!("tool names under {tag_q} are {names_q}; under {first_q} they were {expected_q}", tag_q = crate::quote::q(&tag), names_q = crate::quote::q(&names), first_q = crate::quote::q(&first), expected_q = crate::quote::q(&expected))
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
                    let (chosen, exchange) = ctx.language_of(call).await?;
                    let reported = exchange.content_language_str().unwrap_or_default();
                    ensure(ContentLanguage::parse(reported).is_ok(), || {
                        format!("contentLanguage {reported_q} (for acceptLanguage {preference_q}) is not a Content-Language value", reported_q = crate::quote::q(&reported), preference_q = crate::quote::q(&preference))
                    })?;
                    // One tag, or a list ("one or more BCP 47 language tags"):
                    // the language the list says was selected must be one the
                    // server supports.
                    let supported = &ctx.profile.supported;
                    ensure(
                        supported.iter().any(|s| s.eq_ignore_ascii_case(&chosen)),
                        || format!("contentLanguage {reported_q} (for acceptLanguage {preference_q}) names no language the server supports {supported_q}: it must report the language actually used", reported_q = crate::quote::q(&reported), preference_q = crate::quote::q(&preference), supported_q = crate::quote::q(&supported)),
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
/// Returns the params and the `contentLanguage` reported for them, as
/// reported (read it with [`selected`] or [`reaches`]).
fn elicitation(exchange: &Exchange) -> Option<(Value, Option<String>)> {
    let reported = |meta: Option<&Value>| {
        meta.and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    if let Some(result) = exchange.result()
        && let Some(requests) = result.get("inputRequests").and_then(Value::as_object)
    {
        let request = requests
            .values()
            .find(|r| r.get("method").and_then(Value::as_str) == Some("elicitation/create"))?;
        let params = request.get("params")?.clone();
        let language = reported(result.get("_meta")).or_else(|| reported(params.get("_meta")));
        return Some((params, language));
    }
    let request = exchange
        .server_requests()
        .find(|r| r.get("method").and_then(Value::as_str) == Some("elicitation/create"))?;
    let params = request.get("params")?.clone();
    let language = reported(params.get("_meta"));
    Some((params, language))
}

/// The elicitation the profile's elicitation tool produces under `tag`: its
/// params and the `contentLanguage` reported for it. Skips when the suite
/// may not call the tool, when the server refuses the call, or when the call
/// ends without asking for input.
async fn elicit(ctx: &mut Ctx, tag: &str) -> Step<(Value, Option<String>)> {
    let stateless = crate::wire::is_stateless(ctx.protocol());
    // Before 2026-07-28 an elicitation is a server-to-client request, which
    // the client answers on the server's event stream; a server without
    // sessions (JSON responses, no `Mcp-Session-Id`) has no way to send one.
    if let Connection::Http(http) = &ctx.connection
        && !stateless
        && http.session().is_none()
    {
        return Err(ctx.needs_stateless(
            "before protocol 2026-07-28 an elicitation is a server-to-client request, and this server opened no session (no Mcp-Session-Id) to send it in",
        ));
    }
    let plan = ctx.tool_for(ToolRole::Elicitation, &[]).await?;
    let exchange = ctx.send(plan.call().preference(tag)).await?;
    if let Some(found) = elicitation(&exchange) {
        return Ok(found);
    }
    if let Some(why) = refusal(&exchange) {
        return Err(plan.refused(&why));
    }
    Err(Outcome::Skip(format!(
        "{} under {tag_q} ended without asking for input ({}); name a tool that elicits with --profile FILE (`{}`)",
        plan.name,
        exchange.summary(),
        ToolRole::Elicitation.key(),
        tag_q = crate::quote::q(&tag)
    )))
}

/// How the language reported for something produced under `tag` reads, when
/// its display text is `unchanged` from the default's: a failure for a
/// report that is neither the request's selection nor the default (or none,
/// for text that changed), a warning for text left in the default language
/// (the SEP's SHOULD translate), `Ok` otherwise.
fn judge_report(
    what: &str,
    tag: &str,
    default: &str,
    reported: Option<&str>,
    unchanged: bool,
) -> Step<()> {
    match reported {
        None => {
            ensure(unchanged, || {
                format!(
                    "{what} under {tag_q} is translated but reports no contentLanguage: a server that honors the preference must report the language it used",
                    tag_q = crate::quote::q(&tag)
                )
            })?;
            should(false, || {
                format!(
                    "{what} under {tag_q} is left in the default language {default_q} (and reports none): the SEP says it SHOULD be translated",
                    tag_q = crate::quote::q(&tag),
                    default_q = crate::quote::q(&default)
                )
            })
        }
        Some(reported) => {
            let chosen = selected(reported, Some(tag));
            let follows = reaches(tag, chosen);
            let fallback = reaches(default, chosen) || reaches(chosen, default);
            ensure(follows || fallback, || {
                format!(
                    "{what} under {tag_q} reports contentLanguage {reported_q}: neither the request's language nor the default, so not the request's selected language",
                    tag_q = crate::quote::q(&tag),
                    reported_q = crate::quote::q(&reported)
                )
            })?;
            ensure(follows || unchanged, || {
                format!(
                    "{what} under {tag_q} is translated, but reports contentLanguage {reported_q}, the default's: it must report the language it used",
                    tag_q = crate::quote::q(&tag),
                    reported_q = crate::quote::q(&reported)
                )
            })?;
            should(!unchanged && follows, || {
                format!(
                    "{what} under {tag_q} is left in the default language {default_q} (contentLanguage {reported_q}): the SEP says it SHOULD be translated",
                    tag_q = crate::quote::q(&tag),
                    default_q = crate::quote::q(&default),
                    reported_q = crate::quote::q(&reported)
                )
            })
        }
    }
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
                    let here = labels(&params);
                    let unchanged = here.first() == base_labels.first();
                    judge_report("the elicitation", tag, &default, reported.as_deref(), unchanged)?;
                    let untranslated: Vec<&String> = here
                        .iter()
                        .filter(|l| base_labels.contains(l) && !l.1.is_empty())
                        .map(|l| &l.0)
                        .collect();
                    should(untranslated.is_empty(), || {
                        format!("under {tag_q}, these elicitation labels are left in the default language: {}: the SEP says property titles and descriptions SHOULD be translated", untranslated.iter().map(|l| format!("`{l}`")).collect::<Vec<_>>().join(", "), tag_q = crate::quote::q(&tag))
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
                        format!("the requested schema under {tag_q} differs beyond titles and descriptions: {skeleton} vs {expected}", tag_q = crate::quote::q(&tag))
                    })?;
                    ensure(params.get("mode") == base.get("mode"), || {
                        format!("the elicitation mode changed under {tag_q}", tag_q = crate::quote::q(&tag))
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// The progress notifications of one call of the progress tool under `tag`.
/// Skips when the suite may not call the tool, or when the server refuses
/// the call before reporting progress; fails when the call succeeds without
/// any notification for the client's token.
async fn progress(ctx: &mut Ctx, tag: &str) -> Step<(Exchange, Vec<Value>)> {
    let plan = ctx.tool_for(ToolRole::Progress, &[]).await?;
    progress_of(ctx, &plan, tag).await
}

/// [`progress`] with the tool already chosen.
async fn progress_of(ctx: &mut Ctx, plan: &ToolPlan, tag: &str) -> Step<(Exchange, Vec<Value>)> {
    let exchange = ctx
        .send(plan.call().preference(tag).with_progress())
        .await?;
    let notes: Vec<Value> = exchange
        .notifications()
        .filter(|n| n.get("method").and_then(Value::as_str) == Some("notifications/progress"))
        .cloned()
        .collect();
    if notes.is_empty() {
        if let Some(why) = refusal(&exchange) {
            return Err(plan.refused(&why));
        }
        if exchange.response().is_none() {
            return Err(Outcome::Fail(format!(
                "{} under {tag_q} got no answer: {}",
                plan.name,
                exchange.summary(),
                tag_q = crate::quote::q(&tag)
            )));
        }
        // The call succeeded and reported nothing for the client's token:
        // the token was lost (a server that reports under a token of its
        // own sends nothing the client can relate to its request), or the
        // tool is not a progress tool, which the profile can say.
        return Err(Outcome::Fail(format!(
            "{} under {tag_q} succeeded but sent no progress notification for the client's progressToken; if this tool does not report progress, name one that does with --profile FILE (`{}`)",
            plan.name,
            ToolRole::Progress.key(),
            tag_q = crate::quote::q(&tag)
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

/// The `contentLanguage` a notification reports, as reported.
fn note_language(note: &Value) -> Option<&str> {
    note.pointer("/params/_meta")
        .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
        .and_then(Value::as_str)
}

fn progress_localized(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.translated_others()?;
                let default = ctx.profile.default.clone();
                let (_, base) = progress(ctx, &default).await?;
                let base_messages = messages(&base);
                if base_messages.is_empty() {
                    return Err(Outcome::Skip(
                        "the progress notifications carry no message to localize".into(),
                    ));
                }
                // Every notification's report is judged; a warning (text left
                // in the default language) waits until no failure is found.
                let mut warning = None;
                for tag in others.iter().take(3) {
                    let (_, notes) = progress(ctx, tag).await?;
                    for note in &notes {
                        let Some(message) = note.pointer("/params/message").and_then(Value::as_str)
                        else {
                            continue;
                        };
                        let unchanged = base_messages.iter().any(|m| m == message);
                        match judge_report(
                            "a progress message",
                            tag,
                            &default,
                            note_language(note),
                            unchanged,
                        ) {
                            Err(Outcome::Warn(w)) => {
                                warning.get_or_insert(w);
                            }
                            other => other?,
                        }
                    }
                }
                warning.map_or(Ok(()), |w| Err(Outcome::Warn(w)))
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
                            format!("a progress notification under {tag_q} carries token {token_q}, not the client's {sent}", tag_q = crate::quote::q(&tag), token_q = crate::quote::q(&token))
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
                let tag = ctx.translated_others().or_else(|_| ctx.others(1))?[0].clone();
                let default = ctx.profile.default.clone();
                let (_, base) = progress(ctx, &default).await?;
                let base_messages = messages(&base);
                let (_, notes) = progress(ctx, &tag).await?;
                // A notification is localized when its message is not the
                // default's (the SEP: "in params._meta for a localized
                // notification"); one left in the default language may
                // report nothing.
                let localized: Vec<&Value> = notes
                    .iter()
                    .filter(|n| {
                        n.pointer("/params/message")
                            .and_then(Value::as_str)
                            .is_some_and(|m| !base_messages.iter().any(|b| b == m))
                    })
                    .collect();
                if localized.is_empty() {
                    return Err(Outcome::Skip(format!(
                        "no progress notification under {tag_q} is localized (every message is the default {default_q}'s): none has to carry contentLanguage"
                    , tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default))));
                }
                for note in localized {
                    ensure(note_language(note).is_some(), || {
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

/// The differences at identifier positions between two messages, described
/// for a failure (the first five).
fn guarded(base: &Value, other: &Value) -> Vec<String> {
    crate::identifiers::differences(base, other)
        .into_iter()
        .take(5)
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
                            format!("{method} under {tag_q} differs from {default_q} at identifiers: {}", differences.join("; "), tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default))
                        })?;
                    }
                }
                // The elicitation (an input_required result) and the progress
                // notifications, whole, in every language: when the suite may
                // call their tools.
                let stateless = crate::wire::is_stateless(ctx.protocol());
                if stateless && let Ok(plan) = ctx.tool_for(ToolRole::Elicitation, &[]).await {
                    let base = ctx.send(plan.call().preference(default.as_str())).await?;
                    if refusal(&base).is_none() {
                        let base = without_id(base.response().cloned().unwrap_or(Value::Null));
                        for tag in &others {
                            let exchange = ctx.send(plan.call().preference(tag.as_str())).await?;
                            let response = without_id(exchange.response().cloned().unwrap_or(Value::Null));
                            compared += 1;
                            let differences = guarded(&base, &response);
                            ensure(differences.is_empty(), || {
                                format!("the {} response under {tag_q} differs from {default_q} at identifiers: {}", plan.name, differences.join("; "), tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default))
                            })?;
                        }
                    }
                }
                if let Ok(plan) = ctx.tool_for(ToolRole::Progress, &[]).await
                    && let Ok((_, base)) = progress_of(ctx, &plan, &default).await
                {
                    for tag in &others {
                        let Ok((_, notes)) = progress_of(ctx, &plan, tag).await else {
                            continue;
                        };
                        // How many notifications a call sends is not an
                        // identifier: the ones both sent are compared.
                        for (a, b) in base.iter().zip(&notes) {
                            compared += 1;
                            let differences = guarded(&without_token(a.clone()), &without_token(b.clone()));
                            ensure(differences.is_empty(), || {
                                format!("a progress notification under {tag_q} differs from {default_q} at identifiers: {}", differences.join("; "), tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default))
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

fn explicit_argument(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let default = ctx.profile.default.clone();
                let plan = ctx.tool_for(ToolRole::ExplicitLanguage, &["language"]).await?;
                // The explicit argument names a language the preference does
                // not select, both ways. What the tool does without the
                // argument is its own affair: the SEP says the preference
                // "MAY provide a fallback".
                let mut warning = None;
                for (preference, explicit) in [(default.clone(), others[0].clone()), (others[0].clone(), default.clone())] {
                    let mut arguments = plan.arguments.clone();
                    arguments.insert("language".into(), json!(explicit));
                    let exchange = ctx
                        .send(Call::tool(&plan.name, Value::Object(arguments)).preference(preference.as_str()))
                        .await?;
                    if let Some(why) = refusal(&exchange) {
                        return Err(plan.refused(&why));
                    }
                    let reported = match exchange.content_language() {
                        Some(Value::String(r)) => r.clone(),
                        Some(other) => return Err(Outcome::Fail(format!(
                            "{} with language {explicit_q} under acceptLanguage {preference_q}: contentLanguage is not a string: {other}", plan.name
                        , explicit_q = crate::quote::q(&explicit), preference_q = crate::quote::q(&preference)))),
                        None => return Err(Outcome::Fail(format!(
                            "{} with language {explicit_q} under acceptLanguage {preference_q} reports no io.modelcontextprotocol/contentLanguage in result._meta: {}", plan.name, exchange.summary()
                        , explicit_q = crate::quote::q(&explicit), preference_q = crate::quote::q(&preference)))),
                    };
                    if let Err(Outcome::Warn(w)) = should(reaches(&explicit, &reported), || {
                        format!("{} with language {explicit_q} under acceptLanguage {preference_q} returned content in {reported_q}: the SEP says the explicit argument SHOULD take precedence over the preference", plan.name, explicit_q = crate::quote::q(&explicit), preference_q = crate::quote::q(&preference), reported_q = crate::quote::q(&reported))
                    }) {
                        warning.get_or_insert(w);
                    }
                }
                warning.map_or(Ok(()), |w| Err(Outcome::Warn(w)))
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
                "{} failed under {default_q} but succeeded under {tag_q}: {}",
                call.method,
                exchange.summary(),
                default_q = crate::quote::q(&default),
                tag_q = crate::quote::q(&tag)
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
                    format!("{what}: error.code under {tag_q} is {}, under {default_q} {}: the code must not change", crate::quote::q(&error.get("code")), crate::quote::q(&base_error.get("code")), tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default))
                })?;
                let data = error.get("data");
                ensure(data.is_some_and(Value::is_object), || {
                    format!("{what}: the error localized under {tag_q} has no error.data object to carry contentLanguage: {error}", tag_q = crate::quote::q(&tag))
                })?;
                let reported = error.pointer("/data/_meta").and_then(|m| m.get(CONTENT_LANGUAGE_KEY)).and_then(Value::as_str);
                ensure(reported.is_some_and(|r| reaches(&tag, r)), || {
                    format!("{what}: the error localized under {tag_q} reports contentLanguage {reported_q} in error.data._meta", tag_q = crate::quote::q(&tag), reported_q = crate::quote::q(&reported))
                })
            }
            .await,
        )
    })
}
