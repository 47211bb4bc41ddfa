//! Items 1 and 2 of the SEP's Conformance list, and the malformed-value rule of
//! its Security section: what a server selects for a preference, and that the
//! preference lives exactly as long as its request.
//!
//! Every check reads the language the server says it used
//! (`contentLanguage` of a `tools/list` result) and compares it with what RFC
//! 4647 matching over the profile's supported set allows. Where a range
//! names a language, any supported tag it basic-filters follows it: `fr` may
//! be answered with `fr-CA` when both are supported (RFC 4647 leaves the
//! choice among equally acceptable tags to the server).

use crate::discovery::reaches;
use crate::scenario::{Ctx, Needs, Outcome, Scenario, ScenarioFuture, Step, ensure, finish};
use crate::wire::{Call, Exchange};
use serde_json::{Value, json};

use super::sep;

/// The scenarios of this module, in report order.
pub(crate) const SCENARIOS: &[Scenario] = &[
    Scenario {
        id: "match.supported",
        item: 1,
        rule: "a supported tag is selected and reported",
        sep: sep::REPORT,
        needs: Needs::Any,
        run: supported,
    },
    Scenario {
        id: "match.weights",
        item: 1,
        rule: "q-values decide, not range order",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: weights,
    },
    Scenario {
        id: "match.exclusion",
        item: 1,
        rule: "q=0 makes a language not acceptable",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: exclusion,
    },
    Scenario {
        id: "match.default-negotiated",
        item: 1,
        rule: "the default language is weighed like any other supported language",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: default_negotiated,
    },
    Scenario {
        id: "match.long-lists",
        item: 1,
        rule: "every range counts, in lists of hundreds of ranges",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: long_lists,
    },
    Scenario {
        id: "match.q-decimals",
        item: 1,
        rule: "a q-value is a decimal fraction: `q=0.5` outweighs `q=0.45`",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: q_decimals,
    },
    Scenario {
        id: "match.exclusion-prefix",
        item: 1,
        rule: "`q=0` on a longer range does not exclude its prefix",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: exclusion_prefix,
    },
    Scenario {
        id: "match.wildcard",
        item: 1,
        rule: "`*` is read as lookup or as filtering reads it",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: wildcard,
    },
    Scenario {
        id: "match.region-subtags",
        item: 1,
        rule: "excluding a regional variant does not exclude its language",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: region_subtags,
    },
    Scenario {
        id: "match.case-insensitive",
        item: 1,
        rule: "ranges match tags case-insensitively",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: case_insensitive,
    },
    Scenario {
        id: "match.fallback",
        item: 1,
        rule: "an unmatched preference gets the default, not an error",
        sep: sep::FALLBACK,
        needs: Needs::Any,
        run: fallback,
    },
    Scenario {
        id: "match.malformed-ignored",
        item: 0,
        rule: "a malformed preference is ignored as absent, not an error",
        sep: sep::MALFORMED,
        needs: Needs::Any,
        run: malformed,
    },
    Scenario {
        id: "scope.change",
        item: 2,
        rule: "a changed preference is honoured on the same connection",
        sep: sep::REUSE,
        needs: Needs::Any,
        run: change,
    },
    Scenario {
        id: "scope.omission",
        item: 2,
        rule: "an omitted preference is not taken from an earlier request",
        sep: sep::REUSE,
        needs: Needs::Any,
        run: omission,
    },
];

/// The language `tools/list` reports for `preference`.
pub(crate) async fn listed(ctx: &mut Ctx, preference: Option<&str>) -> Step<String> {
    let mut call = Call::new("tools/list");
    if let Some(p) = preference {
        call = call.preference(p);
    }
    ctx.language_of(call).await.map(|(tag, _)| tag)
}

fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// Requires `got` to follow `want` (be it, or a tag it basic-filters).
fn expect(ctx_default: &str, preference: &str, got: &str, want: &str) -> Step<()> {
    ensure(reaches(want, got), || {
        format!(
            "acceptLanguage {preference_q} selected {got_q}; expected {want_q} (default {ctx_default_q})",
            preference_q = crate::quote::q(&preference),
            got_q = crate::quote::q(&got),
            want_q = crate::quote::q(&want),
            ctx_default_q = crate::quote::q(&ctx_default)
        )
    })
}

fn supported(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                ctx.others(1)?;
                for tag in ctx.profile.supported.clone() {
                    let got = listed(ctx, Some(&tag)).await?;
                    expect(&ctx.profile.default, &tag, &got, &tag)?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// Whether neither tag is the other or a prefix of it (`fr` and `fr-CA` are
/// related): which of two related tags a weighted preference selects depends
/// on how a range's q is given to the longer tag (RFC 2616's longest match,
/// decision D3), which the SEP leaves to HTTP; two unrelated tags isolate the
/// rule a scenario checks.
fn unrelated(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
    a != b && !a.starts_with(&format!("{b}-")) && !b.starts_with(&format!("{a}-"))
}

/// Two supported languages for a weighting scenario: unrelated ones besides
/// the default when the profile has them, else one and the default.
fn weighted_pair(ctx: &Ctx) -> Step<(String, String)> {
    let others = ctx.others(1)?;
    for (i, a) in others.iter().enumerate() {
        if let Some(b) = others.iter().skip(i + 1).find(|b| unrelated(a, b)) {
            return Ok((a.clone(), b.clone()));
        }
    }
    let default = ctx.profile.default.clone();
    let a = others
        .iter()
        .find(|a| unrelated(a, &default))
        .or(others.first())
        .cloned()
        .unwrap_or_default();
    Ok((a, default))
}

fn weights(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let (a, b) = weighted_pair(ctx)?;
                // The first range has the lower weight: order must not decide.
                let preference = format!("{a};q=0.3, {b};q=0.9");
                let got = listed(ctx, Some(&preference)).await?;
                expect(&ctx.profile.default, &preference, &got, &b)?;
                let preference = format!("{b};q=0.2, {a}");
                let got = listed(ctx, Some(&preference)).await?;
                expect(&ctx.profile.default, &preference, &got, &a)
            }
            .await,
        )
    })
}

fn exclusion(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let (a, b) = weighted_pair(ctx)?;
                let preference = format!("{a};q=0, {b};q=0.5");
                let got = listed(ctx, Some(&preference)).await?;
                expect(&default, &preference, &got, &b)?;
                // Nothing acceptable: the default, never the excluded language.
                for zero in ["0", "0.0", "0.000"] {
                    let preference = format!("{a};q={zero}");
                    let got = listed(ctx, Some(&preference)).await?;
                    expect(&default, &preference, &got, &default)?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// How a server read `*` followed by other ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    /// RFC 9110 §12.5.4 (filtering): `*` rates every tag no other range
    /// names.
    Filtering,
    /// RFC 4647 §3.4 (lookup): `*` followed by other ranges is skipped.
    Lookup,
}

impl Reading {
    fn as_str(self) -> &'static str {
        match self {
            Self::Filtering => {
                "filtering (RFC 9110 §12.5.4: `*` rates every language no other range names)"
            }
            Self::Lookup => "lookup (RFC 4647 §3.4: `*` followed by other ranges is skipped)",
        }
    }
}

fn wildcard(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let a = others[0].clone();
                let default = ctx.profile.default.clone();
                let supported = ctx.profile.supported.clone();
                let is_supported = |got: &str| supported.iter().any(|s| same(s, got));
                // `*` rates every language but `a` at 0.5, `a` itself 0.1:
                // filtering picks another language; lookup skips `*` and
                // picks `a`. Either reading is allowed (the SEP: "can use
                // lookup or filtering"); which one the server uses decides
                // what the next check expects.
                let preference = format!("*;q=0.5, {a};q=0.1");
                let got = listed(ctx, Some(&preference)).await?;
                ensure(is_supported(&got), || {
                    format!("acceptLanguage {preference_q} selected {got_q}, which is not a supported language", preference_q = crate::quote::q(&preference), got_q = crate::quote::q(&got))
                })?;
                let reading = if reaches(&a, &got) {
                    Reading::Lookup
                } else {
                    Reading::Filtering
                };
                // The default excluded: filtering accepts every other
                // supported language through `*`; lookup ends on `*` and
                // gives the default.
                let preference = format!("{default};q=0, *");
                let got = listed(ctx, Some(&preference)).await?;
                ensure(
                    is_supported(&got)
                        && (reading == Reading::Lookup || !reaches(&default, &got)),
                    || format!("acceptLanguage {preference_q} selected {got_q}; the server read `*;q=0.5, {a};q=0.1` as {}, under which this must be a supported language other than the excluded default {default_q}", reading.as_str(), preference_q = crate::quote::q(&preference), got_q = crate::quote::q(&got), default_q = crate::quote::q(&default)),
                )?;
                // Under either reading `*` never accepts a language another
                // range excludes ...
                let preference = format!("{a};q=0, *");
                let got = listed(ctx, Some(&preference)).await?;
                ensure(is_supported(&got) && !reaches(&a, &got), || {
                    format!("acceptLanguage {preference_q} selected {got_q}, which `{a};q=0` excludes: `*` covers only languages no other range names (filtering), and lookup never returns an excluded language", preference_q = crate::quote::q(&preference), got_q = crate::quote::q(&got))
                })?;
                // ... nor does `*;q=0` exclude a language another range names.
                let preference = format!("{a}, *;q=0");
                let got = listed(ctx, Some(&preference)).await?;
                expect(&default, &preference, &got, &a)
            }
            .await,
        )
    })
}

fn default_negotiated(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let Some(a) = ctx.others(1)?.into_iter().find(|a| unrelated(a, &default)) else {
                    return Err(Outcome::Skip(format!(
                        "every supported language besides the default {default_q} is a variant of it; a language that is not is needed, so that no reading of a shorter range's weight decides"
                    , default_q = crate::quote::q(&default))));
                };
                // The default rated highest: it wins like any language would,
                // under filtering and under lookup, whatever the order.
                for preference in [
                    format!("{default}, {a};q=0.5"),
                    format!("{a};q=0.5, {default}"),
                    format!("{a};q=0.8, {default};q=0.9"),
                ] {
                    let got = listed(ctx, Some(&preference)).await?;
                    ensure(reaches(&default, &got), || {
                        format!("acceptLanguage {preference_q} selected {got_q}; expected the default {default_q}, which it rates highest: the default is a supported language, weighed like the others, not only the fallback", preference_q = crate::quote::q(&preference), got_q = crate::quote::q(&got), default_q = crate::quote::q(&default))
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// `n` ranges no server supports: private-use primary languages (`qaa` to
/// `qtz`, never registered) the profile does not name, each with `weight`.
fn unsupported_ranges(ctx: &Ctx, n: usize, weight: &str) -> Vec<String> {
    let free: Vec<String> = (b'a'..=b't')
        .flat_map(|b| (b'a'..=b'z').map(move |c| format!("q{}{}", b as char, c as char)))
        .filter(|t| !ctx.profile.supported.iter().any(|s| reaches(t, s)))
        .collect();
    free.iter()
        .cycle()
        .take(n)
        .map(|t| format!("{t}{weight}"))
        .collect()
}

/// The long preferences `long_lists` sends: 100 and 300 ranges, and as
/// many as fit in 4 KiB. `a`, the supported language each rates highest,
/// comes last; `early`, when given, is a supported language named first with
/// a low weight, which a server that stops reading early selects instead.
fn long_list_cases(ctx: &Ctx, a: &str, early: Option<&str>) -> Vec<String> {
    let head = early.map(|e| format!("{e};q=0.1, ")).unwrap_or_default();
    let tail = format!(", {a}");
    let mut cases: Vec<String> = [(100, ""), (300, ";q=0.9")]
        .into_iter()
        .map(|(n, weight)| {
            format!(
                "{head}{}{tail}",
                unsupported_ranges(ctx, n, weight).join(", ")
            )
        })
        .collect();
    let mut body = String::new();
    for range in unsupported_ranges(ctx, 4096, ";q=0.5") {
        let separator = if body.is_empty() { "" } else { ", " };
        if head.len() + body.len() + separator.len() + range.len() + tail.len() > 4096 {
            break;
        }
        body.push_str(separator);
        body.push_str(&range);
    }
    cases.push(format!("{head}{body}{tail}"));
    cases
}

fn long_lists(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let others = ctx.others(1)?;
                let a = others[0].clone();
                let early = ctx
                    .profile
                    .supported
                    .iter()
                    .find(|s| unrelated(s, &a))
                    .cloned();
                for preference in long_list_cases(ctx, &a, early.as_deref()) {
                    let got = listed(ctx, Some(&preference)).await?;
                    let ranges = preference.split(',').count();
                    ensure(reaches(&a, &got), || {
                        format!("an acceptLanguage of {ranges} ranges ({} bytes) whose last range is {a_q}, the only supported language it rates highest, selected {got_q} (default {default_q}): every range counts, however many there are", preference.len(), a_q = crate::quote::q(&a), got_q = crate::quote::q(&got), default_q = crate::quote::q(&default))
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

fn q_decimals(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let (a, b) = weighted_pair(ctx)?;
                // Read as integers, 5 < 45 and 1 < 5: each of the first
                // three picks `b`. Cut to one decimal, 0.04 and 0.05 are
                // both 0 and exclude both; cut to two, 0.004 and 0.005 do.
                for preference in [
                    format!("{a};q=0.5, {b};q=0.45"),
                    format!("{b};q=0.45, {a};q=0.5"),
                    format!("{b};q=0.5, {a};q=1"),
                    format!("{b};q=0.04, {a};q=0.05"),
                    format!("{b};q=0.004, {a};q=0.005"),
                ] {
                    let got = listed(ctx, Some(&preference)).await?;
                    expect(&ctx.profile.default, &preference, &got, &a)?;
                }
                Ok(())
            }
            .await,
        )
    })
}

fn exclusion_prefix(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let (x, b) = weighted_pair(ctx)?;
                // `x-ZZ;q=0` excludes only tags starting with `x-ZZ`: `x`
                // keeps its own rating of 0.5, above `b`'s.
                let excluded = format!("{x}-ZZ");
                let preference = format!("{excluded};q=0, {x};q=0.5, {b};q=0.4");
                let got = listed(ctx, Some(&preference)).await?;
                ensure(reaches(&x, &got), || {
                    format!("acceptLanguage {preference_q} selected {got_q}; expected {x_q}: excluding {excluded_q} does not exclude {x_q}, which is rated 0.5 on its own", preference_q = crate::quote::q(&preference), got_q = crate::quote::q(&got), x_q = crate::quote::q(&x), excluded_q = crate::quote::q(&excluded))
                })
            }
            .await,
        )
    })
}

/// A private-use region (`ZZ`, never assigned) of `tag`'s language: a
/// regional variant no server supports.
fn private_region(tag: &str) -> String {
    format!("{}-ZZ", tag.split('-').next().unwrap_or(tag))
}

fn region_subtags(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                for tag in others.iter().take(3) {
                    let language = tag.split('-').next().unwrap_or(tag).to_owned();
                    if !ctx.profile.supported.iter().any(|s| same(s, &language)) {
                        continue;
                    }
                    // `fr-ZZ;q=0` excludes only tags starting with `fr-ZZ`;
                    // `fr` itself stays acceptable.
                    let preference = format!("{};q=0, {language}", private_region(tag));
                    let got = listed(ctx, Some(&preference)).await?;
                    ensure(reaches(&language, &got), || {
                        format!("acceptLanguage {preference_q} selected {got_q}: excluding the region {} excluded the language {language_q} (matching on the primary subtag only?)", crate::quote::q(&private_region(tag)), preference_q = crate::quote::q(&preference), got_q = crate::quote::q(&got), language_q = crate::quote::q(&language))
                    })?;
                    // A region of a supported language the server has no
                    // catalog for still gets that language or the default
                    // (lookup truncates, filtering finds nothing), never
                    // another language.
                    let region = private_region(tag);
                    let got = listed(ctx, Some(&region)).await?;
                    let default = ctx.profile.default.clone();
                    ensure(reaches(&language, &got) || same(&got, &default), || {
                        format!("acceptLanguage {region_q} selected {got_q}: neither {language_q} (lookup) nor the default {default_q}", region_q = crate::quote::q(&region), got_q = crate::quote::q(&got), language_q = crate::quote::q(&language), default_q = crate::quote::q(&default))
                    })?;
                    return Ok(());
                }
                Err(Outcome::Skip(
                    "no supported language besides the default is a bare language subtag (such as `fr`) to exclude a region of".into(),
                ))
            }
            .await,
        )
    })
}

fn case_insensitive(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                for tag in others.iter().take(3) {
                    let flipped: String = tag
                        .chars()
                        .map(|c| {
                            if c.is_ascii_lowercase() {
                                c.to_ascii_uppercase()
                            } else {
                                c.to_ascii_lowercase()
                            }
                        })
                        .collect();
                    let got = listed(ctx, Some(&flipped)).await?;
                    expect(&ctx.profile.default, &flipped, &got, tag)?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// A well-formed tag the profile does not support (private-use primary
/// languages `qaa`–`qtz` are never registered).
pub(crate) fn unsupported_tag(ctx: &Ctx) -> String {
    ["qaa", "qab", "qtz"]
        .into_iter()
        .find(|t| !ctx.profile.supported.iter().any(|s| same(s, t)))
        .unwrap_or("qac")
        .to_owned()
}

fn fallback(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let tag = unsupported_tag(ctx);
                for preference in [
                    tag.clone(),
                    format!("{tag}, *;q=0"),
                    format!("{tag}-x-private"),
                ] {
                    let exchange = ctx
                        .send(Call::new("tools/list").preference(preference.as_str()))
                        .await?;
                    ensure(
                        exchange.error().is_none() && exchange.result().is_some(),
                        || {
                            format!(
                                "an unmatched acceptLanguage {preference_q} produced an error: {}",
                                exchange.summary()
                            , preference_q = crate::quote::q(&preference))
                        },
                    )?;
                    let got = exchange
                        .selected_language()
                        .unwrap_or_default()
                        .to_owned();
                    ensure(same(&got, &default), || {
                        format!("an unmatched acceptLanguage {preference_q} selected {got_q}, not the default {default_q}", preference_q = crate::quote::q(&preference), got_q = crate::quote::q(&got), default_q = crate::quote::q(&default))
                    })?;
                }
                Ok(())
            }
            .await,
        )
    })
}

/// The tools of a `tools/list` answer: what shows its language when it
/// reports none.
fn tools(exchange: &Exchange) -> Option<Value> {
    exchange.result().and_then(|r| r.get("tools")).cloned()
}

fn malformed(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let a = ctx.translated_others().or_else(|_| ctx.others(1))?[0].clone();
                let (_, with_a) = ctx.language_of(Call::new("tools/list").preference(a.as_str())).await?;
                // Each names a supported language, but is not well-formed.
                let values = [
                    json!(format!("{a};q=2")),
                    json!(format!("{a};q=0.5;q=0.4")),
                    json!(format!("{a} {a}")),
                    json!(42),
                ];
                // A value that is not a string has no header to mirror it,
                // which a server may decline (decision C31).
                let headerless = super::binding::tolerates_missing_header(ctx).await?;
                for value in values {
                    if !value.is_string() && !headerless {
                        continue;
                    }
                    let call = Call::new("tools/list")
                        .preference(crate::wire::Preference::Value(value.clone()));
                    let exchange = ctx.send(call).await?;
                    ensure(exchange.error().is_none() && exchange.result().is_some(), || {
                        format!("a malformed acceptLanguage {value} produced an error: {}", exchange.summary())
                    })?;
                    match exchange.selected_language() {
                        Some(got) => ensure(same(got, &default), || {
                            format!("a malformed acceptLanguage {value} was used: it selected {got_q}, not the default {default_q}", got_q = crate::quote::q(&got), default_q = crate::quote::q(&default))
                        })?,
                        // Absent, so nothing is reported: the text shows which
                        // language was used.
                        None => ensure(
                            tools(&exchange) != tools(&with_a) || reaches(&default, &a),
                            || format!("a malformed acceptLanguage {value} was used: the tools are {a_q}'s, and no contentLanguage says otherwise", a_q = crate::quote::q(&a)),
                        )?,
                    }
                }
                Ok(())
            }
            .await,
        )
    })
}

fn change(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let others = ctx.others(1)?;
                let default = ctx.profile.default.clone();
                let a = others[0].clone();
                let b = others.get(1).cloned().unwrap_or(default.clone());
                // What each earlier request asked for and selected.
                let mut earlier: Vec<(String, String)> = Vec::new();
                for want in [&a, &b, &a, &default] {
                    let got = listed(ctx, Some(want)).await?;
                    ensure(reaches(want, &got), || change_failure(want, &got, &earlier))?;
                    earlier.push((want.clone(), got));
                }
                Ok(())
            }
            .await,
        )
    })
}

/// Why `scope.change` failed: acceptLanguage `want` selected `got`, after
/// the requests of `earlier` (what each asked for and selected). An
/// earlier preference was reused only when `got` is what a request under a
/// different preference selected.
fn change_failure(want: &str, got: &str, earlier: &[(String, String)]) -> String {
    let reused = earlier
        .iter()
        .rev()
        .find(|(asked, selected)| !same(asked, want) && same(selected, got));
    match reused {
        Some((asked, _)) => format!(
            "after earlier requests on this connection, acceptLanguage {} selected {}, which the earlier acceptLanguage {} selected: an earlier preference was reused",
            quoted(want),
            quoted(got),
            quoted(asked)
        ),
        None => format!(
            "after earlier requests on this connection, acceptLanguage {} selected {}, a language it does not reach",
            quoted(want),
            quoted(got)
        ),
    }
}

/// A string as JSON has it, for messages.
fn quoted(value: &str) -> String {
    Value::from(value).to_string()
}

fn omission(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move {
        finish(
            async {
                let default = ctx.profile.default.clone();
                let a = ctx.translated_others().or_else(|_| ctx.others(1))?[0].clone();
                let (_, with_default) = ctx
                    .language_of(Call::new("tools/list").preference(default.as_str()))
                    .await?;
                let (got, with_a) = ctx
                    .language_of(Call::new("tools/list").preference(a.as_str()))
                    .await?;
                expect(&default, &a, &got, &a)?;
                let omitted = ctx.result(Call::new("tools/list")).await?;
                match omitted.selected_language() {
                    Some(got) => ensure(same(got, &default), || {
                        format!("a request without acceptLanguage, after one with {a_q}, selected {got_q} instead of the default {default_q}", a_q = crate::quote::q(&a), got_q = crate::quote::q(&got), default_q = crate::quote::q(&default))
                    }),
                    // No report (allowed: no preference was honored): the
                    // tools must be the default's, not the previous request's.
                    None => {
                        if tools(&with_a) == tools(&with_default) {
                            return Err(Outcome::Skip(format!(
                                "the answer without a preference reports no contentLanguage, and the tools under {a_q} are the default's: nothing shows which preference it used"
                            , a_q = crate::quote::q(&a))));
                        }
                        ensure(tools(&omitted) == tools(&with_default), || {
                            format!("a request without acceptLanguage, after one with {a_q}, got tools different from the default {default_q}'s: an earlier preference was reused", a_q = crate::quote::q(&a), default_q = crate::quote::q(&default))
                        })
                    }
                }
            }
            .await,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn reuse_is_said_only_of_an_earlier_selection() {
        let earlier = asked(&[("fr", "fr"), ("de", "de")]);
        let reused = change_failure("en", "de", &earlier);
        assert!(
            reused.contains("an earlier preference was reused"),
            "{reused}"
        );
        assert!(reused.contains("earlier acceptLanguage \"de\""), "{reused}");
        let other = change_failure("en", "ja", &earlier);
        assert!(!other.contains("reused"), "{other}");
        assert!(
            other.contains("acceptLanguage \"en\" selected \"ja\""),
            "{other}"
        );
        // The same preference asked again selecting the same is no reuse.
        let again = change_failure("fr", "de", &asked(&[("fr", "de")]));
        assert!(!again.contains("reused"), "{again}");
    }
}
