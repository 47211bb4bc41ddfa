//! Items 6, 7, 8 and 9 of the SEP's Conformance list on Streamable HTTP: the
//! request and response mirrors, exact agreement (each edge case its own
//! scenario), the event-stream rule, and the caching headers.
//!
//! Edge cases whose field lines must reach the server exactly as written
//! (surrounding whitespace, two lines) are sent on a raw TCP connection.

use serde_json::Value;

use crate::calls::refusal;
use crate::discovery::reaches;
use crate::profile::ToolRole;
use crate::scenario::{Ctx, Needs, Outcome, Scenario, ScenarioFuture, Step, ensure, finish};
use mcp_lang_meta::CONTENT_LANGUAGE_KEY;

use crate::wire::{Call, Exchange, HeaderPlan};

use super::sep;

/// The scenarios of this module, in report order.
pub(crate) const SCENARIOS: &[Scenario] = &[
    Scenario {
        id: "http.request-mirror",
        item: 6,
        rule: "a request whose Accept-Language agrees with _meta succeeds",
        sep: sep::CLIENT_MIRROR,
        needs: Needs::Http,
        run: request_mirror,
    },
    Scenario {
        id: "http.response-mirror",
        item: 6,
        rule: "a JSON response's Content-Language equals its contentLanguage",
        sep: sep::MIRROR_RESPONSE,
        needs: Needs::Http,
        run: response_mirror,
    },
    Scenario {
        id: "http.response-one-line",
        item: 6,
        rule: "Content-Language is sent as exactly one field line",
        sep: sep::ONE_LINE,
        needs: Needs::Http,
        run: response_one_line,
    },
    Scenario {
        id: "http.error-mirror",
        item: 6,
        rule: "an error's contentLanguage is mirrored into Content-Language",
        sep: sep::MIRROR_RESPONSE,
        needs: Needs::Http,
        run: error_mirror,
    },
    Scenario {
        id: "http.missing-header",
        item: 6,
        rule: "a stripped Accept-Language is tolerated and _meta used",
        sep: sep::MISSING_HEADER,
        needs: Needs::Http,
        run: missing_header,
    },
    Scenario {
        id: "http.mismatch",
        item: 6,
        rule: "a present, disagreeing Accept-Language gets 400 and -32020",
        sep: sep::MISMATCH,
        needs: Needs::Http,
        run: mismatch,
    },
    Scenario {
        id: "http.bare-header",
        item: 6,
        rule: "Accept-Language without _meta creates no preference",
        sep: sep::BARE_HEADER,
        needs: Needs::Http,
        run: bare_header,
    },
    Scenario {
        id: "agree.case",
        item: 7,
        rule: "`en-US` and `en-us` do not agree",
        sep: sep::AGREE_PAIRS,
        needs: Needs::Http,
        run: agree_case,
    },
    Scenario {
        id: "agree.list-whitespace",
        item: 7,
        rule: "`en-US,en;q=0.9` and `en-US, en;q=0.9` do not agree",
        sep: sep::AGREE_PAIRS,
        needs: Needs::Http,
        run: agree_list_whitespace,
    },
    Scenario {
        id: "agree.q-spelling",
        item: 7,
        rule: "`en;q=0.9` and `en;q=0.900` do not agree",
        sep: sep::AGREE_PAIRS,
        needs: Needs::Http,
        run: agree_q_spelling,
    },
    Scenario {
        id: "agree.surrounding-whitespace",
        item: 7,
        rule: "`Accept-Language:  en ` agrees with `en`",
        sep: sep::AGREE_OWS,
        needs: Needs::Http,
        run: agree_ows,
    },
    Scenario {
        id: "agree.meta-untrimmed",
        item: 7,
        rule: "the `_meta` value is compared untrimmed: ` en` does not agree with `en`",
        sep: sep::AGREE_META,
        needs: Needs::Http,
        run: agree_meta_untrimmed,
    },
    Scenario {
        id: "agree.two-lines",
        item: 7,
        rule: "lines `en-US` and `en;q=0.9` agree with `en-US, en;q=0.9`",
        sep: sep::AGREE_LINES,
        needs: Needs::Http,
        run: agree_two_lines,
    },
    Scenario {
        id: "agree.every-line",
        item: 7,
        rule: "a conflicting second line is not hidden by an agreeing first",
        sep: sep::AGREE_ALL_LINES,
        needs: Needs::Http,
        run: agree_every_line,
    },
    Scenario {
        id: "agree.before-grammar",
        item: 7,
        rule: "malformed but disagreeing values are still a mismatch",
        sep: sep::AGREE_FIRST,
        needs: Needs::Http,
        run: agree_before_grammar,
    },
    Scenario {
        id: "sse.header-agrees",
        item: 8,
        rule: "an event stream's Content-Language, if sent, agrees with every message",
        sep: sep::SSE,
        needs: Needs::Http,
        run: sse_header,
    },
    Scenario {
        id: "cache.vary",
        item: 9,
        rule: "language-dependent responses carry Vary: Accept-Language",
        sep: sep::VARY,
        needs: Needs::Http,
        run: vary,
    },
    Scenario {
        id: "cache.stripped-header",
        item: 9,
        rule: "with the header stripped, the response is private",
        sep: sep::STRIPPED,
        needs: Needs::Http,
        run: stripped,
    },
    Scenario {
        id: "sse.vary",
        item: 9,
        rule: "an event-stream response carries Vary: Accept-Language too",
        sep: sep::VARY,
        needs: Needs::Http,
        run: sse_vary,
    },
    Scenario {
        id: "sse.stripped-header",
        item: 9,
        rule: "an event-stream response to a stripped header is private too",
        sep: sep::STRIPPED,
        needs: Needs::Http,
        run: sse_stripped,
    },
    Scenario {
        id: "cache.ttl-scope",
        item: 9,
        rule: "localized results stay cacheable: the default's ttlMs and cacheScope are kept in every language",
        sep: sep::TTL,
        needs: Needs::Any,
        run: ttl_scope,
    },
];

/// A string value as the wire has it (`"fr"`), or `absent`.
fn shown(value: Option<&str>) -> String {
    value.map_or_else(|| "absent".to_owned(), |v| Value::from(v).to_string())
}

/// A number, or `absent`.
fn number(value: Option<u64>) -> String {
    value.map_or_else(|| "absent".to_owned(), |v| v.to_string())
}

/// `tools/list` with `meta` in `_meta` and these `Accept-Language` lines.
fn list(meta: Option<&str>, lines: &[&str]) -> Call {
    let mut call = Call::new("tools/list").header(HeaderPlan::Lines(
        lines.iter().map(|l| (*l).to_owned()).collect(),
    ));
    if let Some(m) = meta {
        call = call.preference(m);
    }
    call
}

/// Requires 400 with a JSON-RPC error -32020 echoing the request id.
fn expect_mismatch(exchange: &Exchange, what: &str) -> Step<()> {
    ensure(exchange.status == Some(400), || {
        format!(
            "{what}: expected HTTP 400 HeaderMismatch, got {}",
            exchange.summary()
        )
    })?;
    let code = exchange
        .error()
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64);
    ensure(code == Some(-32020), || {
        format!(
            "{what}: HTTP 400 but the JSON-RPC error code is {}, not -32020: {}",
            code.map_or_else(|| "absent".to_owned(), |c| c.to_string()),
            exchange.summary()
        )
    })?;
    let id = exchange.response().and_then(|r| r.get("id"));
    ensure(id == exchange.request.get("id"), || {
        format!(
            "{what}: the -32020 error does not echo the request id: {}",
            exchange.summary()
        )
    })
}

/// Requires a successful result.
fn expect_agree(exchange: &Exchange, what: &str) -> Step<()> {
    ensure(
        exchange.status == Some(200) && exchange.result().is_some(),
        || {
            format!(
                "{what}: the values agree, so the request must succeed; got {}",
                exchange.summary()
            )
        },
    )
}

fn request_mirror(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                for tag in ctx.profile.supported.clone() {
                    let preference = format!("{tag}, *;q=0.1");
                    let exchange = ctx
                        .send(Call::new("tools/list").preference(preference.as_str()))
                        .await?;
                    expect_agree(
                        &exchange,
                        &format!(
                            "Accept-Language and _meta both {preference_q}",
                            preference_q = crate::quote::q(&preference)
                        ),
                    )?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// Checks that `exchange` mirrors its `contentLanguage` into one
/// `Content-Language` line with the same value.
fn mirrored(exchange: &Exchange, one_line_only: bool) -> Step<()> {
    let meta = exchange.content_language_str().map(str::to_owned);
    let lines = exchange.header_lines("content-language");
    let Some(meta) = meta else {
        return Err(Outcome::Fail(format!(
            "the response carries no contentLanguage to mirror: {}",
            exchange.summary()
        )));
    };
    if one_line_only {
        return ensure(lines.len() == 1, || {
            format!(
                "Content-Language is sent as {} field lines {lines_q}",
                lines.len(),
                lines_q = crate::quote::q(&lines)
            )
        });
    }
    let joined = lines.join(", ");
    ensure(!lines.is_empty(), || {
        format!(
            "contentLanguage is {meta_q} but there is no Content-Language field",
            meta_q = crate::quote::q(&meta)
        )
    })?;
    ensure(joined == meta, || {
        format!(
            "Content-Language {joined_q} does not agree with contentLanguage {meta_q}",
            joined_q = crate::quote::q(&joined),
            meta_q = crate::quote::q(&meta)
        )
    })
}

fn response_mirror(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let mut preferences: Vec<Option<String>> = vec![None];
                preferences.extend(ctx.profile.supported.iter().cloned().map(Some));
                // A region the server does not support (`de-AT` when it has
                // `de`): the language used is not the preference's range,
                // and the header must mirror the former, exactly.
                preferences.extend(
                    ctx.others(1)
                        .unwrap_or_default()
                        .iter()
                        .take(2)
                        .filter_map(|tag| unsupported_region(&ctx.profile.supported, tag))
                        .map(Some),
                );
                let mut checked = 0usize;
                for preference in preferences {
                    let mut call = Call::new("tools/list");
                    if let Some(p) = &preference {
                        call = call.preference(p.as_str());
                    }
                    let exchange = ctx.result(call).await?;
                    if exchange.media_type().as_deref() != Some("application/json") {
                        continue;
                    }
                    if preference.is_none() && exchange.content_language().is_none() {
                        continue; // nothing honored, nothing reported, nothing to mirror
                    }
                    mirrored(&exchange, false).map_err(|outcome| match outcome {
                        Outcome::Fail(why) => Outcome::Fail(format!(
                            "tools/list with {}: {why}",
                            crate::quote::accept_language(preference.as_deref())
                        )),
                        other => other,
                    })?;
                    checked += 1;
                }
                if checked == 0 {
                    return Err(Outcome::Skip(
                        "tools/list is not answered with a JSON response".into(),
                    ));
                }
                Ok(())
            }
            .await,
        )
    })
}

/// `tag` with a region the profile does not list (`de-AT`, else `de-CH`,
/// else `de-ZZ`), or `None` when `tag` has a region already.
fn unsupported_region(supported: &[String], tag: &str) -> Option<String> {
    if tag.contains('-') {
        return None;
    }
    ["AT", "CH", "ZZ"]
        .iter()
        .map(|region| format!("{tag}-{region}"))
        .find(|candidate| !supported.iter().any(|s| s.eq_ignore_ascii_case(candidate)))
}

fn response_one_line(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                for tag in ctx.profile.supported.clone() {
                    let exchange = ctx
                        .result(Call::new("tools/list").preference(tag.as_str()))
                        .await?;
                    if exchange.media_type().as_deref() != Some("application/json") {
                        return Err(Outcome::Skip(
                            "tools/list is not answered with a JSON response".into(),
                        ));
                    }
                    mirrored(&exchange, true)?;
                }
                Ok(())
            }
            .await,
        )
    })
}

fn error_mirror(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.translated_others()?[0].clone();
                let (_, _, exchange) = super::display::localized_error(ctx, &tag).await?;
                if exchange.content_language().is_none() {
                    // error.localized-meta fails it; nothing to mirror here.
                    return Err(Outcome::Skip(
                        "the localized error carries no contentLanguage to mirror (error.localized-meta checks that)".into(),
                    ));
                }
                if exchange.media_type().as_deref() != Some("application/json") {
                    // On an event stream Content-Language MAY be omitted; the
                    // SSE scenario checks a stream's header when it is sent.
                    return Err(Outcome::Skip(
                        "the localized error is not a JSON response".into(),
                    ));
                }
                mirrored(&exchange, false)
            }
            .await,
        )
    })
}

/// Why a scenario that needs a stripped header has nothing to judge: the
/// server declined a request whose `_meta` preference came without
/// `Accept-Language`, which the SEP allows (decision C31).
const DECLINES_MISSING_HEADER: &str = "the server declines a request whose _meta preference has no Accept-Language header, which the SEP allows (\"The server MAY tolerate a missing or stripped Accept-Language header\")";

/// Whether the server serves a request whose `_meta` preference comes
/// without `Accept-Language` (a 200 with a result), rather than declining
/// it; always so over stdio, where there are no headers.
pub(crate) async fn tolerates_missing_header(ctx: &mut Ctx) -> Step<bool> {
    let others = ctx.others(1)?;
    let exchange = ctx
        .send(
            Call::new("tools/list")
                .preference(others[0].as_str())
                .header(HeaderPlan::Omit),
        )
        .await?;
    Ok(served(&exchange))
}

/// A 200 (or no status, over stdio) with a result.
fn served(exchange: &Exchange) -> bool {
    exchange.status.is_none_or(|s| s == 200) && exchange.result().is_some()
}

fn missing_header(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let tag = others[0].clone();
                let exchange = ctx
                    .send(Call::new("tools/list").preference(tag.as_str()).header(HeaderPlan::Omit))
                    .await?;
                // Declining is allowed; serving without using _meta is not.
                if !served(&exchange) {
                    return Err(Outcome::Skip(format!("{DECLINES_MISSING_HEADER}: {}", exchange.summary())));
                }
                let got = exchange.content_language_str();
                ensure(got.is_some_and(|g| reaches(&tag, g)), || {
                    format!("with the header stripped, the _meta preference {tag_q} was not used: contentLanguage {}", shown(got), tag_q = crate::quote::q(&tag))
                })
            }
            .await,
        )
    })
}

fn mismatch(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let default = ctx.profile.default.clone();
                let a = others[0].clone();
                let exchange = ctx.send(list(Some(&a), &[&format!(" {default}")])).await?;
                expect_mismatch(
                    &exchange,
                    &format!(
                        "_meta {a_q} with Accept-Language {default_q}",
                        a_q = crate::quote::q(&a),
                        default_q = crate::quote::q(&default)
                    ),
                )
            }
            .await,
        )
    })
}

fn bare_header(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let default = ctx.profile.default.clone();
                let a = others[0].clone();
                let exchange = ctx.send(list(None, &[&format!(" {a}")])).await?;
                expect_agree(&exchange, &format!("Accept-Language {a_q} without _meta", a_q = crate::quote::q(&a)))?;
                let got = exchange.selected_language();
                ensure(got.is_none_or(|g| g.eq_ignore_ascii_case(&default)), || {
                    format!("a bare Accept-Language {a_q} (no _meta) selected {}: it was taken as a preference", shown(got), a_q = crate::quote::q(&a))
                })
            }
            .await,
        )
    })
}

async fn pair(ctx: &mut Ctx, meta: &str, lines: &[&str], agree: bool) -> Outcome {
    finish(
        async {
            let exchange = ctx.send(list(Some(meta), lines)).await?;
            let what = format!(
                "_meta {meta_q} with Accept-Language lines {lines_q}",
                meta_q = crate::quote::q(&meta),
                lines_q = crate::quote::q(&lines)
            );
            if agree {
                expect_agree(&exchange, &what)
            } else {
                expect_mismatch(&exchange, &what)
            }
        }
        .await,
    )
}

fn agree_case(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(pair(ctx, "en-US", &[" en-us"], false))
}

fn agree_list_whitespace(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(pair(ctx, "en-US,en;q=0.9", &[" en-US, en;q=0.9"], false))
}

fn agree_q_spelling(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(pair(ctx, "en;q=0.9", &[" en;q=0.900"], false))
}

fn agree_ows(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(pair(ctx, "en", &["  en "], true))
}

fn agree_meta_untrimmed(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(pair(ctx, " en", &[" en"], false))
}

fn agree_two_lines(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(pair(ctx, "en-US, en;q=0.9", &[" en-US", " en;q=0.9"], true))
}

fn agree_every_line(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(pair(ctx, "en-US", &[" en-US", " de"], false))
}

fn agree_before_grammar(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(pair(ctx, "en;q=2", &[" en;q=2.0"], false))
}

/// The progress tool called under `preference` with a progress token, its
/// header as `plan`: the request most servers answer with an event stream.
/// Skips when the suite may not call the tool ([`Ctx::tool_for`]), when the
/// server refuses the call (quoting it), or when the answer is not a stream.
async fn progress_stream(ctx: &mut Ctx, preference: &str, plan: HeaderPlan) -> Step<Exchange> {
    let tool = ctx.tool_for(ToolRole::Progress, &[]).await?;
    let exchange = ctx
        .send(
            tool.call()
                .preference(preference)
                .with_progress()
                .header(plan),
        )
        .await?;
    // An HTTP error is the binding's answer (a mismatch is HTTP 400), not
    // the tool's refusal.
    if exchange.status.is_none_or(|s| s == 200)
        && let Some(why) = refusal(&exchange)
    {
        return Err(tool.refused(&why));
    }
    if exchange.status.is_some_and(|s| s != 200) || exchange.result().is_none() {
        return Err(Outcome::Fail(format!(
            "{} with acceptLanguage {} did not succeed: {}",
            tool.name,
            serde_json::to_string(preference).unwrap_or_default(),
            exchange.summary()
        )));
    }
    if exchange.media_type().as_deref() != Some("text/event-stream") {
        return Err(Outcome::Skip(format!(
            "{} was not answered with an event stream",
            tool.name
        )));
    }
    Ok(exchange)
}

/// Every message's `contentLanguage` on a stream that declares
/// `Content-Language` must agree with it; `Ok(false)` when the stream
/// declares none.
fn stream_agrees(exchange: &Exchange, what: &str) -> Step<bool> {
    let lines = exchange.header_lines("content-language");
    if lines.is_empty() {
        return Ok(false);
    }
    let header = lines.join(", ");
    let mut compared = 0;
    for message in &exchange.messages {
        let reported = message
            .pointer("/result/_meta")
            .or_else(|| message.pointer("/params/_meta"))
            .or_else(|| message.pointer("/error/data/_meta"))
            .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
            .and_then(Value::as_str);
        if let Some(reported) = reported {
            compared += 1;
            ensure(reported == header, || {
                format!(
                    "{what}: the stream's Content-Language is {header_q} but a message on it reports {reported_q}",
                    header_q = crate::quote::q(&header),
                    reported_q = crate::quote::q(&reported)
                )
            })?;
        }
    }
    ensure(compared > 0, || {
        format!(
            "{what}: the stream declares Content-Language {header_q} but no message on it carries contentLanguage",
            header_q = crate::quote::q(&header)
        )
    })?;
    Ok(true)
}

fn sse_header(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let tag = ctx.others(1)?[0].clone();
                let mut streams = 0;
                let mut declared = 0;
                let list = ctx.result(Call::new("tools/list").preference(tag.as_str())).await?;
                if list.media_type().as_deref() == Some("text/event-stream") {
                    streams += 1;
                    declared += usize::from(stream_agrees(&list, "tools/list")?);
                }
                match progress_stream(ctx, &tag, HeaderPlan::Mirror).await {
                    Ok(exchange) => {
                        streams += 1;
                        declared += usize::from(stream_agrees(&exchange, "the progress tool's stream")?);
                    }
                    Err(Outcome::Skip(_)) => {}
                    Err(other) => return Err(other),
                }
                match (streams, declared) {
                    (0, _) => Err(Outcome::Skip("no request was answered with an event stream".into())),
                    (_, 0) => Err(Outcome::Skip(
                        "no event stream carries Content-Language (the SEP lets a server omit it): no header to compare messages with".into(),
                    )),
                    _ => Ok(()),
                }
            }
            .await,
        )
    })
}

fn sse_vary(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let exchange = progress_stream(ctx, &others[0], HeaderPlan::Mirror).await?;
                ensure(varies_by_language(&exchange), || {
                    format!("the event stream (acceptLanguage {}) has no Vary: Accept-Language; Vary lines: {}", crate::quote::q(&others[0]), crate::quote::q(&exchange.header_lines("vary")))
                })
            }
            .await,
        )
    })
}

fn sse_stripped(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let preference = format!("{}, *;q=0.1", others[0]);
                if !tolerates_missing_header(ctx).await? {
                    return Err(Outcome::Skip(DECLINES_MISSING_HEADER.into()));
                }
                let exchange = progress_stream(ctx, &preference, HeaderPlan::Omit).await?;
                ensure(is_private(&exchange), || {
                    format!("_meta {preference_q} arrived without Accept-Language, but the event stream is not private: Cache-Control {}", crate::quote::q(&exchange.header_lines("cache-control")), preference_q = crate::quote::q(&preference))
                })
            }
            .await,
        )
    })
}

/// Whether any `Vary` line names `Accept-Language` (or is `*`).
fn varies_by_language(exchange: &Exchange) -> bool {
    exchange.header_lines("vary").iter().any(|line| {
        line.split(',')
            .map(str::trim)
            .any(|t| t == "*" || t.eq_ignore_ascii_case("accept-language"))
    })
}

fn vary(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let mut preferences: Vec<Option<String>> = vec![None];
                preferences.extend(ctx.profile.supported.iter().take(3).cloned().map(Some));
                for preference in preferences {
                    let mut call = Call::new("tools/list");
                    if let Some(p) = &preference {
                        call = call.preference(p.as_str());
                    }
                    let exchange = ctx.result(call).await?;
                    ensure(varies_by_language(&exchange), || {
                        format!("the tools/list response ({}) has no Vary: Accept-Language; Vary lines: {}", crate::quote::accept_language(preference.as_deref()), crate::quote::q(&exchange.header_lines("vary")))
                    })?;
                }
                // An error response varies by language too when its text is
                // localized: a cache must not serve one language's error for
                // another preference.
                // With no localized error (or none error.localized-meta
                // accepts), tools/list alone.
                if let Ok(others) = ctx.translated_others()
                    && let Ok((call, _, exchange)) = super::display::localized_error(ctx, &others[0]).await
                {
                    let what = format!("{} {}", call.method, call.mcp_name().unwrap_or_default());
                    ensure(varies_by_language(&exchange), || {
                        format!("the error response to {} localized under {} has no Vary: Accept-Language; Vary lines: {}", what.trim_end(), crate::quote::q(&others[0]), crate::quote::q(&exchange.header_lines("vary")))
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

fn is_private(exchange: &Exchange) -> bool {
    exchange.header_lines("cache-control").iter().any(|line| {
        line.split(',').map(str::trim).any(|d| {
            let name = d.split('=').next().unwrap_or_default().trim();
            name.eq_ignore_ascii_case("private") || name.eq_ignore_ascii_case("no-store")
        })
    })
}

fn stripped(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let a = others[0].clone();
                // The same language with its header first (a cache keyed on
                // the language alone would now hold a public variant) …
                ctx.result(Call::new("tools/list").preference(a.as_str())).await?;
                // … then a different preference for it, header stripped.
                let preference = format!("{a}, *;q=0.1");
                if !tolerates_missing_header(ctx).await? {
                    return Err(Outcome::Skip(DECLINES_MISSING_HEADER.into()));
                }
                let exchange = ctx
                    .result(Call::new("tools/list").preference(preference.as_str()).header(HeaderPlan::Omit))
                    .await?;
                ensure(is_private(&exchange), || {
                    format!("_meta {preference_q} arrived without Accept-Language, but the response is not private: Cache-Control {}", crate::quote::q(&exchange.header_lines("cache-control")), preference_q = crate::quote::q(&preference))
                })?;
                let exchange = ctx.result(Call::new("tools/list").preference(preference.as_str())).await?;
                ensure(varies_by_language(&exchange), || "the same request with its header has no Vary: Accept-Language".to_owned())
            }
            .await,
        )
    })
}

/// A result's `ttlMs` and `cacheScope`, validated.
fn caching_fields(exchange: &Exchange, tag: &str) -> Step<(Option<u64>, Option<String>)> {
    let result = exchange.result().cloned().unwrap_or(Value::Null);
    let ttl = result.get("ttlMs");
    ensure(ttl.is_none_or(Value::is_u64), || {
        format!(
            "ttlMs under {tag_q} is not a non-negative integer: {}",
            ttl.map_or_else(|| "absent".to_owned(), Value::to_string),
            tag_q = crate::quote::q(&tag)
        )
    })?;
    let scope = result.get("cacheScope");
    ensure(
        scope.is_none_or(|s| s == "public" || s == "private"),
        || {
            format!(
                "cacheScope under {tag_q} is {}, not \"public\" or \"private\"",
                scope.map_or_else(|| "absent".to_owned(), Value::to_string),
                tag_q = crate::quote::q(&tag)
            )
        },
    )?;
    Ok((
        ttl.and_then(Value::as_u64),
        scope.and_then(Value::as_str).map(str::to_owned),
    ))
}

fn ttl_scope(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let others = ctx.others(1)?;
                let base = ctx.result(Call::new("tools/list").preference(default.as_str())).await?;
                let (base_ttl, base_scope) = caching_fields(&base, &default)?;
                if base_ttl.is_none() && base_scope.is_none() {
                    return Err(Outcome::Skip("tools/list carries neither ttlMs nor cacheScope".into()));
                }
                // The values may differ by language; what may not is that a
                // localized result stops being cacheable or loses its scope.
                for tag in &others {
                    let exchange = ctx.result(Call::new("tools/list").preference(tag.as_str())).await?;
                    let (ttl, scope) = caching_fields(&exchange, tag)?;
                    ensure(base_ttl.is_none_or(|t| t == 0) || ttl.is_some_and(|t| t > 0), || {
                        format!("tools/list under {default_q} is cacheable (ttlMs {}) but under {tag_q} has ttlMs {}: a language-dependent result remains cacheable", number(base_ttl), number(ttl), default_q = crate::quote::q(&default), tag_q = crate::quote::q(&tag))
                    })?;
                    ensure(base_scope.is_none() || scope.is_some(), || {
                        format!("tools/list under {default_q} has cacheScope {} but under {tag_q} none", shown(base_scope.as_deref()), default_q = crate::quote::q(&default), tag_q = crate::quote::q(&tag))
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}
