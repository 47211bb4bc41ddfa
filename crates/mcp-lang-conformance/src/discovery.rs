//! Discovery: finding a target's languages from the wire when no profile is
//! given, without being fooled.
//!
//! A server says which languages it has only by answering: discovery asks one
//! list method (`tools/list`, else `prompts/list` or `resources/list`) under
//! many preferences and reads the `contentLanguage` of each answer. What it
//! trusts, and what it reports, follows from what a server could do wrong:
//!
//! 1. **A server that binds the first preference** (to the connection, the
//!    session or the process) would answer every later request in that
//!    language. So the first requests are, in order: no preference, a
//!    preference naming many languages (which a multilingual server answers
//!    with a language other than its default), an unmatched private-use
//!    language (`qaa`, which must get the default), and no preference again
//!    (which must get what the first request got). Before a language is
//!    trusted it is asked for again after the default has been, and each
//!    time the answer must follow the preference.
//! 2. **A server that matches on the primary language subtag only** looks like
//!    one that has no regional variants; discovery tries region and script
//!    subtags of every language it finds (`fr-CA`, `zh-Hant`, …), and the
//!    scenarios then check that a region subtag never excludes its language.
//! 3. **A server that echoes the preference** as `contentLanguage` would
//!    claim every language asked for; an unmatched private-use language
//!    reported back as itself shows it.
//!
//! What discovery establishes becomes the run's profile: the default (the
//! language reported for an unmatched preference) and every language it could
//! trust. When it cannot establish one supported language besides the
//! default, the verdict is **inconclusive**; when no answer carries
//! `contentLanguage` and the display text never changes, the server **does
//! not take part** in SEP-2792. Either way nothing passes by default.
//! Violations seen on the way (an error for an unmatched preference, a
//! preference reused after it was omitted) are findings: they fail the
//! scenario whose rule they break.

use std::collections::BTreeMap;

use mcp_lang_grammar::LanguageTag;
use serde_json::Value;

use crate::profile::Profile;
use crate::scenario::{Ctx, Transport};
use crate::wire::{Call, Exchange};

/// Primary language subtags tried one by one (each alone as a preference).
pub(crate) const PROBE_TAGS: &[&str] = &[
    "en", "fr", "de", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "pl", "cs", "sk", "hu", "ro",
    "bg", "hr", "sr", "sl", "ru", "uk", "tr", "el", "he", "ar", "fa", "hi", "bn", "ja", "ko", "zh",
    "id", "ms", "vi", "th", "ga", "cy", "ca", "eu",
];

/// Region and script subtags tried for a language once it is found.
const VARIANTS: &[(&str, &[&str])] = &[
    ("en", &["en-US", "en-GB", "en-AU", "en-CA", "en-IN"]),
    ("fr", &["fr-FR", "fr-CA", "fr-BE", "fr-CH"]),
    ("de", &["de-DE", "de-AT", "de-CH"]),
    ("es", &["es-ES", "es-419", "es-MX", "es-AR"]),
    ("pt", &["pt-BR", "pt-PT"]),
    (
        "zh",
        &[
            "zh-Hans",
            "zh-Hant",
            "zh-CN",
            "zh-TW",
            "zh-HK",
            "zh-Hans-CN",
            "zh-Hant-TW",
        ],
    ),
    ("sr", &["sr-Latn", "sr-Cyrl"]),
    ("nl", &["nl-NL", "nl-BE"]),
    ("it", &["it-IT", "it-CH"]),
    ("sv", &["sv-SE", "sv-FI"]),
    ("ar", &["ar-SA", "ar-EG"]),
    ("nb", &["nb-NO"]),
    ("ga", &["ga-IE"]),
];

/// Private-use primary languages (`qaa`–`qtz`): no server has translations
/// for them, so they are unmatched everywhere.
pub(crate) const UNMATCHED: [&str; 2] = ["qaa", "qab"];

/// The list methods discovery may ask, in order of preference.
const METHODS: &[&str] = &["tools/list", "prompts/list", "resources/list"];

/// What discovery concluded.
#[derive(Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "one per transport and run, moved once: boxing the profile buys nothing"
)]
pub(crate) enum Conclusion {
    /// The languages it established.
    Profile(Profile),
    /// No supported language besides the default could be established.
    Inconclusive(String),
    /// No `contentLanguage` anywhere, and display text that never changes.
    NotParticipating(String),
    /// Violations prevented establishing a profile (see the findings).
    Failed,
}

/// Everything discovery learnt on one transport.
#[derive(Debug)]
pub(crate) struct Discovery {
    pub(crate) conclusion: Conclusion,
    /// Violations seen on the way: `(scenario id, what was seen)`.
    pub(crate) findings: Vec<(&'static str, String)>,
    /// How the languages were found, for the report.
    pub(crate) notes: Vec<String>,
}

/// One answer: the language reported (as reported, and the one it says the
/// preference selected: [`crate::language::selected`]), the display text.
#[derive(Clone, Debug)]
struct Answer {
    reported: Option<Value>,
    selected: Option<String>,
    texts: Vec<String>,
}

impl Answer {
    fn language(&self) -> Option<&str> {
        self.selected.as_deref()
    }
}

/// The display text of a result: every `title`, `description`, `message`
/// and `text` string in it (in `serde_json`'s member order, the same for
/// every answer).
fn texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("title" | "description" | "message" | "text", Value::String(s)) => {
                        out.push(s.clone());
                    }
                    ("_meta", _) => {}
                    _ => texts(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| texts(v, out)),
        _ => {}
    }
}

fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// Whether the range `range` basic-filters (RFC 4647 §3.3.1) the reported
/// tag, or one tag of a reported list.
pub(crate) use crate::language::reaches;

fn primary(tag: &str) -> String {
    tag.split('-')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

struct Prober<'a> {
    ctx: &'a mut Ctx,
    method: &'static str,
    findings: Vec<(&'static str, String)>,
    /// Each reported language, and the preferences it was reported for.
    found: BTreeMap<String, Vec<String>>,
    asked: usize,
    any_report: bool,
}

impl Prober<'_> {
    /// Asks the list method under `preference`; `Ok(None)` when the server
    /// answered with an error (recorded as a finding).
    async fn ask(&mut self, preference: Option<&str>) -> Result<Option<Answer>, String> {
        let mut call = Call::new(self.method);
        if let Some(p) = preference {
            call = call.preference(p);
        }
        let exchange = self
            .ctx
            .send(call)
            .await
            .map_err(|o| o.reason().to_owned())?;
        self.asked += 1;
        let Some(result) = exchange.result() else {
            self.error_finding(preference, &exchange);
            return Ok(None);
        };
        let mut answer = Answer {
            reported: exchange.content_language().cloned(),
            selected: exchange.selected_language().map(str::to_owned),
            texts: Vec::new(),
        };
        texts(result, &mut answer.texts);
        if answer.reported.is_some() {
            self.any_report = true;
        }
        if let (Some(p), Some(language)) = (preference, answer.language())
            && LanguageTag::parse(language).is_ok()
        {
            let p = if p.contains(',') {
                format!("a preference naming {} languages", p.split(',').count())
            } else {
                p.to_owned()
            };
            let key = self
                .found
                .keys()
                .find(|k| same(k, language))
                .cloned()
                .unwrap_or_else(|| language.to_owned());
            self.found.entry(key).or_default().push(p);
        }
        Ok(Some(answer))
    }

    fn error_finding(&mut self, preference: Option<&str>, exchange: &Exchange) {
        let method = self.method;
        let code = exchange
            .error()
            .and_then(|e| e.get("code"))
            .and_then(Value::as_i64);
        let finding = match (self.ctx.transport(), exchange.status, code) {
            (Transport::Http, Some(400), _) if preference.is_some() => (
                "http.request-mirror",
                format!(
                    "{method} with acceptLanguage {preference_q}, mirrored exactly in Accept-Language, was rejected: {}",
                    exchange.summary(),
                    preference_q = crate::quote::q(&preference)
                ),
            ),
            _ => match preference {
                Some(p) if UNMATCHED.iter().any(|u| same(u, p)) => (
                    "match.fallback",
                    format!(
                        "an unmatched acceptLanguage {p_q} produced an error: {}",
                        exchange.summary(),
                        p_q = crate::quote::q(&p)
                    ),
                ),
                _ => (
                    "match.supported",
                    format!(
                        "{method} with acceptLanguage {preference_q} produced an error: {}",
                        exchange.summary(),
                        preference_q = crate::quote::q(&preference)
                    ),
                ),
            },
        };
        if !self.findings.iter().any(|(id, _)| *id == finding.0) {
            self.findings.push(finding);
        }
    }

    fn find(&mut self, id: &'static str, message: String) {
        if !self.findings.iter().any(|(i, _)| *i == id) {
            self.findings.push((id, message));
        }
    }
}

/// What a request without a preference that answered differently from the
/// first one shows.
fn reused(method: &str, after: &Answer, bare: &Answer) -> String {
    format!(
        "{method} without a preference, after requests with one, answered in {} where the first request without a preference answered in {}{}: an earlier preference was reused",
        crate::quote::q(&after.language()),
        crate::quote::q(&bare.language()),
        if after.texts == bare.texts {
            ""
        } else {
            " (and its display text changed)"
        }
    )
}

/// A preference naming every probe tag, most wanted first, without the
/// language of the answer to a request without preference: a multilingual
/// server answers it with one of its other languages.
fn many_languages(without: Option<&str>) -> String {
    let skip = without.map(primary);
    PROBE_TAGS
        .iter()
        .filter(|t| skip.as_deref() != Some(**t))
        .enumerate()
        .map(|(i, tag)| {
            if i == 0 {
                (*tag).to_owned()
            } else {
                format!("{tag};q=0.{:03}", 999 - i)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Discovers the target's languages on `ctx`'s connection.
///
/// `Err` when the target cannot be asked anything (no list method answers):
/// then there is nothing to test.
pub(crate) async fn discover(ctx: &mut Ctx) -> Result<Discovery, String> {
    let mut method = None;
    let mut first_error = None;
    for candidate in METHODS {
        let exchange = ctx
            .send(Call::new(candidate))
            .await
            .map_err(|o| o.reason().to_owned())?;
        if exchange.result().is_some() {
            method = Some(*candidate);
            break;
        }
        first_error.get_or_insert_with(|| format!("{candidate}: {}", exchange.summary()));
    }
    let Some(method) = method else {
        return Err(format!(
            "the target answers none of {} without a preference, so it cannot be tested ({})",
            METHODS.join(", "),
            first_error.unwrap_or_default()
        ));
    };
    let mut p = Prober {
        ctx,
        method,
        findings: Vec::new(),
        found: BTreeMap::new(),
        asked: 0,
        any_report: false,
    };
    let mut notes = Vec::new();

    // 1. The order that exposes a server binding its first preference.
    let bare = p
        .ask(None)
        .await?
        .ok_or_else(|| format!("{method} without a preference failed"))?;
    let many = many_languages(bare.language());
    let rich = p.ask(Some(&many)).await?;
    let mut fallback = p.ask(Some(UNMATCHED[0])).await?;
    if let Some(answer) = &fallback
        && answer.language().is_some_and(|l| same(l, UNMATCHED[0]))
    {
        // Reported back as itself: try a second one before concluding.
        let second = p.ask(Some(UNMATCHED[1])).await?;
        if second
            .as_ref()
            .and_then(Answer::language)
            .is_some_and(|l| same(l, UNMATCHED[1]))
        {
            p.find(
                "discovery.content-language",
                format!(
                    "the unmatched preferences {} and {} (private-use languages) were reported back as the contentLanguage used; the report must name the language actually used, here the default", crate::quote::q(&UNMATCHED[0]), crate::quote::q(&UNMATCHED[1])),
            );
        }
        fallback = second;
    }
    for unmatched in UNMATCHED {
        p.found.remove(unmatched);
    }
    if let Some(after) = p.ask(None).await?
        && (after.language() != bare.language() || after.texts != bare.texts)
    {
        p.find("scope.omission", reused(method, &after, &bare));
    }

    // 2. Each probe tag alone, then region and script subtags of what answered.
    for tag in PROBE_TAGS {
        p.ask(Some(tag)).await?;
    }
    let primaries: Vec<String> = p
        .found
        .keys()
        .map(|k| primary(k))
        .chain(bare.language().map(primary))
        .collect();
    for (language, variants) in VARIANTS {
        if primaries.iter().any(|p| p == language) {
            for variant in *variants {
                p.ask(Some(variant)).await?;
            }
        }
    }

    // 3. The default: what an unmatched preference gets (or, from a server
    // that reports the preference back, what it uses without one).
    let echoes = p
        .findings
        .iter()
        .any(|(id, _)| *id == "discovery.content-language");
    let default = fallback
        .as_ref()
        .and_then(Answer::language)
        .filter(|l| LanguageTag::parse(l).is_ok() && !UNMATCHED.iter().any(|u| same(u, l)))
        .or(if echoes { bare.language() } else { None })
        .map(str::to_owned);
    if !p.any_report {
        let mut snapshots = vec![bare.texts.clone()];
        if let Some(r) = &rich {
            snapshots.push(r.texts.clone());
        }
        // Ask the probe tags once more to compare their text with the bare one.
        let mut changed = rich.as_ref().is_some_and(|r| r.texts != bare.texts);
        if !changed {
            for tag in PROBE_TAGS.iter().take(12) {
                if let Some(answer) = p.ask(Some(tag)).await?
                    && answer.texts != bare.texts
                {
                    changed = true;
                    break;
                }
            }
        }
        let asked = p.asked;
        notes.push(format!(
            "{asked} {method} requests; none of the answers carried io.modelcontextprotocol/contentLanguage"
        ));
        return Ok(if changed {
            p.find(
                "discovery.content-language",
                format!(
                    "{method}'s display text changes with the preference, but none of {asked} answers carried io.modelcontextprotocol/contentLanguage: a server that honors the preference must report the language it used"
                ),
            );
            Discovery {
                conclusion: Conclusion::Failed,
                findings: p.findings,
                notes,
            }
        } else {
            Discovery {
                conclusion: Conclusion::NotParticipating(format!(
                    "none of {asked} answers to {method} under different preferences carried io.modelcontextprotocol/contentLanguage, and its display text never changed: the server does not take part in SEP-2792"
                )),
                findings: p.findings,
                notes,
            }
        });
    }
    let Some(default) = default else {
        let reported = fallback.as_ref().and_then(|a| a.reported.clone());
        let asked = p.asked;
        notes.push(format!(
            "{asked} {method} requests; no default could be established from the answer to the unmatched {}", crate::quote::q(&UNMATCHED[0])));
        p.find(
            "match.fallback",
            format!(
                "an unmatched acceptLanguage {} got contentLanguage {}: a server that falls back to its default must report the default", crate::quote::q(&UNMATCHED[0]),
                reported.map_or("none".to_owned(), |r| r.to_string())
            ),
        );
        return Ok(Discovery {
            conclusion: Conclusion::Failed,
            findings: p.findings,
            notes,
        });
    };

    // The default is one language: what a request without a preference gets
    // (when the server reports it) is what an unmatched one gets.
    if let Some(bare_language) = bare.language()
        && !same(bare_language, &default)
        && !echoes
    {
        p.find(
            "match.fallback",
            format!(
                "without a preference {method} was answered in {}, for the unmatched {} in {}: the server-defined default is one language, used both when no preference is sent and when none matches",
                crate::quote::q(&bare_language),
                crate::quote::q(&UNMATCHED[0]),
                crate::quote::q(&default)
            ),
        );
    }

    // 4. Trust: each language found must follow the preference, back and forth.
    let mut candidates: Vec<(String, Vec<String>)> = p
        .found
        .iter()
        .filter(|(tag, _)| !same(tag, &default))
        .map(|(tag, how)| (tag.clone(), how.clone()))
        .collect();
    if let Some(language) = bare.language()
        && LanguageTag::parse(language).is_ok()
        && !same(language, &default)
        && !candidates.iter().any(|(t, _)| same(t, language))
    {
        candidates.push((language.to_owned(), vec!["no preference".into()]));
    }
    let mut trusted = Vec::new();
    for (tag, how) in &candidates {
        let Some(first) = p.ask(Some(tag)).await? else {
            continue;
        };
        let Some(back) = p.ask(Some(&default)).await? else {
            continue;
        };
        let Some(again) = p.ask(Some(tag)).await? else {
            continue;
        };
        // The answer follows the preference when it is the language asked
        // for or one it basic-filters (`fr` may get `fr-CA`: equally
        // acceptable, the server's choice).
        let follows = |a: &Answer, want: &str| a.language().is_some_and(|l| reaches(want, l));
        if !follows(&first, tag) || !follows(&again, tag) {
            let got = if follows(&first, tag) {
                again.language()
            } else {
                first.language()
            };
            p.find(
                "scope.change",
                format!(
                    "{tag_q} was reported for {} earlier, but acceptLanguage {tag_q} selected {got_q} on a later request: the preference of an earlier request was kept",
                    how.join(", ")
                , tag_q = crate::quote::q(&tag), got_q = crate::quote::q(&got)),
            );
            continue;
        }
        if !follows(&back, &default) {
            p.find(
                "scope.change",
                format!(
                    "after acceptLanguage {tag_q}, acceptLanguage {default_q} (the default) selected {}: the earlier preference was kept", crate::quote::q(&back.language()), tag_q = crate::quote::q(&tag), default_q = crate::quote::q(&default)),
            );
            continue;
        }
        notes.push(format!("{tag} (reported for {})", how.join(", ")));
        trusted.push(tag.clone());
    }
    if let Some(after) = p.ask(None).await?
        && (after.language() != bare.language() || after.texts != bare.texts)
    {
        p.find("scope.omission", reused(method, &after, &bare));
    }
    let asked = p.asked;
    notes.insert(
        0,
        format!(
            "{asked} {method} requests: default {default} (reported for the unmatched {}); {} more language(s) trusted", crate::quote::q(&UNMATCHED[0]),
            trusted.len()
        ),
    );
    if trusted.is_empty() {
        let reason = format!(
            "discovery established no supported language besides the default {default_q} ({asked} {method} requests under {} primary languages and their regional variants); name the server's languages with --profile FILE or --supported TAGS --default TAG",
            PROBE_TAGS.len(),
            default_q = crate::quote::q(&default)
        );
        return Ok(Discovery {
            conclusion: if p.findings.is_empty() {
                Conclusion::Inconclusive(reason)
            } else {
                Conclusion::Failed
            },
            findings: p.findings,
            notes,
        });
    }
    let mut supported = vec![default.clone()];
    supported.extend(trusted);
    let profile = Profile::new(supported, default).map_err(|e| format!("discovery: {e}"))?;
    Ok(Discovery {
        conclusion: Conclusion::Profile(profile),
        findings: p.findings,
        notes,
    })
}

/// The one tool discovery can recognize by its shape: when the profile's
/// explicit-language tool is not listed, the first tool annotated read-only
/// whose input has a string property `language` takes its place (the suite
/// calls a tool it chose itself only when it is read-only). Elicitation and
/// progress tools show nothing in their schema; a profile names them.
pub(crate) async fn recognize_tools(ctx: &mut Ctx, notes: &mut Vec<String>) {
    let Ok(exchange) = ctx.send(Call::new("tools/list")).await else {
        return;
    };
    let tools = exchange.items("tools");
    let name = |t: &Value| t.get("name").and_then(Value::as_str).map(str::to_owned);
    if tools
        .iter()
        .any(|t| name(t).as_deref() == Some(ctx.profile.explicit_language_tool.as_str()))
    {
        return;
    }
    let explicit = tools.iter().find(|t| {
        crate::calls::read_only(t)
            && t.pointer("/inputSchema/properties/language/type")
                .and_then(Value::as_str)
                == Some("string")
    });
    if let Some(tool) = explicit.and_then(name) {
        notes.push(format!(
            "explicit-language tool: {tool} (read-only, and its input has a `language` argument)"
        ));
        ctx.profile.explicit_language_tool = tool;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_languages_leaves_out_the_bare_language_and_weighs_down() {
        let value = many_languages(Some("en-US"));
        assert!(value.starts_with("fr, de;q=0.998"), "{value}");
        assert!(!value.split(", ").any(|r| r.starts_with("en")), "{value}");
        assert!(
            mcp_lang_grammar::AcceptLanguage::parse(&value).is_ok(),
            "{value}"
        );
    }

    #[test]
    fn variants_are_well_formed_and_extend_a_probe_tag() {
        for (language, variants) in VARIANTS {
            assert!(PROBE_TAGS.contains(language), "{language}");
            for v in *variants {
                assert!(LanguageTag::parse(v).is_ok(), "{v}");
                assert_eq!(primary(v), *language, "{v}");
            }
        }
    }

    #[test]
    fn texts_skip_meta() {
        let result = serde_json::json!({
            "tools": [{ "name": "a", "title": "A", "description": "d" }],
            "_meta": { "title": "not display" }
        });
        let mut out = Vec::new();
        texts(&result, &mut out);
        out.sort();
        assert_eq!(out, ["A", "d"]);
    }
}
