//! Grammar probes: the project's `Accept-Language` test vectors
//! (`testdata/grammar`, the files the grammar crate's own tests read), sent
//! over the wire as `tools/list` preferences.
//!
//! A vector names placeholder languages (`en`, `fr`); each is sent with the
//! language of every list element replaced by one of the profile's
//! supported languages, and only when the profile's languages can tell the
//! right reading from a wrong one: a malformed value is sent when it names a
//! language other than the default, which a server that repaired its defect
//! in any way (dropping the bad elements, reading a number loosely, taking a
//! space for a comma or a stray hyphen for nothing) could select; a
//! well-formed one when its
//! right answer is not the default, which is what a server that took it for
//! malformed would answer (or when it has no ranges at all, which must not be
//! answered with an error). Every answer RFC 4647 allows is accepted: the
//! reference negotiation's (decision D4), lookup's (§3.4), and every tag
//! basic filtering (§3.3.1) rates best.

use std::collections::HashMap;

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::{Negotiator, basic, lookup::lookup};
use serde::Deserialize;
use serde_json::Value;

use crate::discovery::reaches;
use crate::scenario::{Ctx, Needs, Outcome, Scenario, ScenarioFuture, Step, ensure, finish};
use crate::wire::{Call, Exchange, HeaderPlan};

use super::sep;

/// The scenarios of this module, in report order.
pub(crate) const SCENARIOS: &[Scenario] = &[
    Scenario {
        id: "grammar.malformed-vectors",
        item: 0,
        rule: "every malformed test vector is ignored as absent, never repaired or read loosely",
        sep: sep::MALFORMED,
        needs: Needs::Any,
        run: malformed_vectors,
    },
    Scenario {
        id: "grammar.valid-edges",
        item: 1,
        rule: "well-formed edge cases (`Q=`, empty list elements, an empty value) are read as RFC 9110 reads them",
        sep: sep::MATCH,
        needs: Needs::Any,
        run: valid_edges,
    },
];

/// The vector files, read at build time: one copy of the cases, shared with
/// the grammar crate's tests and the `mcp-lang match --jsonl` oracle.
const FILES: &[&str] = &[
    include_str!("../../testdata/grammar/accept_language.json"),
    include_str!("../../testdata/grammar/accept_language_abnf_edges.json"),
];

#[derive(Deserialize)]
struct File {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    #[serde(default)]
    cite: Option<String>,
    request: Value,
    response: Value,
}

/// One `parse` case of the vector files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Vector {
    pub(crate) name: String,
    pub(crate) cite: Option<String>,
    pub(crate) header: String,
    pub(crate) valid: bool,
}

/// Every `parse` case of the vector files.
pub(crate) fn vectors() -> Vec<Vector> {
    FILES
        .iter()
        .filter_map(|text| serde_json::from_str::<File>(text).ok())
        .flat_map(|file| file.cases)
        .filter(|case| case.request.get("op").and_then(Value::as_str) == Some("parse"))
        .filter_map(|case| {
            Some(Vector {
                header: case.request.get("header")?.as_str()?.to_owned(),
                valid: case.response.get("valid")?.as_bool()?,
                name: case.name,
                cite: case.cite,
            })
        })
        .collect()
}

/// `header` with the language of each list element (a word of one to eight
/// letters where an element starts) replaced by `tag`'s primary subtag, and
/// a two-letter region after it (`en_US`, `en-US`) by `tag`'s region when it
/// has one. Everything else, the defect of a malformed value included, is
/// kept byte for byte.
pub(crate) fn substitute(header: &str, tag: &str) -> String {
    let mut subtags = tag.split('-');
    let primary = subtags.next().unwrap_or(tag);
    let region = subtags.find(|s| s.len() == 2 && s.bytes().all(|b| b.is_ascii_alphabetic()));
    let word = |s: &str| {
        s.find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(s.len())
    };
    let mut out = String::with_capacity(header.len());
    let mut rest = header;
    let mut at_start = true;
    while let Some(c) = rest.chars().next() {
        if at_start && c.is_ascii_alphabetic() {
            let end = word(rest);
            at_start = false;
            if end <= 8 && rest[..end].bytes().all(|b| b.is_ascii_alphabetic()) {
                out.push_str(primary);
                rest = &rest[end..];
                if let Some(region) = region
                    && let Some(after) = rest.strip_prefix(['-', '_'])
                {
                    let end = word(after);
                    if end == 2 && after[..2].bytes().all(|b| b.is_ascii_alphabetic()) {
                        out.push_str(&rest[..1]);
                        out.push_str(region);
                        rest = &after[2..];
                    }
                }
                continue;
            }
        }
        match c {
            ',' => at_start = true,
            ' ' | '\t' => {}
            _ => at_start = false,
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// One request of a probe scenario: a vector with the profile's languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Probe {
    /// The vector's name (and its citation).
    pub(crate) vector: String,
    /// The preference sent.
    pub(crate) value: String,
    /// Whether it is well-formed.
    pub(crate) valid: bool,
    /// The supported language it names.
    pub(crate) language: String,
    /// Every answer a right reading may give.
    pub(crate) accepted: Vec<String>,
    /// What a wrong reading would select, which makes the case decide.
    pub(crate) wrong: String,
}

impl Probe {
    /// Whether the server's answer is one a right reading gives.
    pub(crate) fn accepts(&self, got: &str) -> bool {
        self.accepted.iter().any(|a| reaches(a, got))
    }
}

/// Every answer RFC 4647 allows for a well-formed `header`: D4's, lookup's,
/// and each tag basic filtering rates best (the default when none).
fn right_answers(
    header: &AcceptLanguage<'_>,
    negotiator: &Negotiator<&str>,
    supported: &[String],
    default: &str,
) -> Vec<String> {
    let mut answers = vec![negotiator.negotiate(header).tag().to_owned()];
    answers.push(
        lookup(header, supported, Some(default))
            .unwrap_or(default)
            .to_owned(),
    );
    let filtered = basic::filter(header, supported);
    match filtered.first() {
        Some(best) => answers.extend(
            filtered
                .iter()
                .take_while(|f| f.quality() == best.quality())
                .map(|f| f.tag().to_owned()),
        ),
        None => answers.push(default.to_owned()),
    }
    answers.sort();
    answers.dedup();
    answers
}

/// What a server that salvages a malformed value selects: one that drops
/// the elements that are not well-formed, or one that reads `_` as `-` and
/// any number as a q-value. The first of them that is not `default`.
fn salvaged(raw: &str, negotiator: &Negotiator<&str>, default: &str) -> Option<String> {
    let elements = raw.split(',').map(|e| e.trim_matches([' ', '\t']));
    let kept: Vec<&str> = elements
        .clone()
        .filter(|e| !e.is_empty() && AcceptLanguage::parse(e).is_ok())
        .collect();
    let loose: Vec<String> = elements
        .filter(|e| !e.is_empty())
        .filter_map(|e| {
            let (range, weight) = e.split_once(';').unwrap_or((e, ""));
            let range = range.trim_matches([' ', '\t']).replace('_', "-");
            // The first parameter, as a reader that stops there takes it.
            let weight = weight.split(';').next().unwrap_or_default();
            let weight = weight.trim_matches([' ', '\t']);
            if weight.is_empty() {
                return Some(range);
            }
            let q: f64 = weight.get(2..)?.parse().ok()?;
            q.is_finite()
                .then(|| format!("{range};q={:.3}", q.clamp(0.0, 1.0)))
        })
        .collect();
    [kept.join(", "), loose.join(", ")]
        .into_iter()
        .filter(|v| !v.is_empty())
        .filter_map(|v| {
            let header = AcceptLanguage::parse(&v).ok()?;
            let tag = negotiator.negotiate(&header).tag().to_owned();
            (!reaches(&tag, default) && !reaches(default, &tag)).then_some(tag)
        })
        .next()
}

/// Whether `value` names `language`'s primary subtag as a word: a reading
/// that repairs the value's defect in any way (a stray hyphen, a space for a
/// comma, an unknown parameter) would see that language.
fn names(value: &str, language: &str) -> bool {
    let primary = language.split('-').next().unwrap_or(language);
    value
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| word.eq_ignore_ascii_case(primary))
}

/// The probes the profile's languages can decide: for each vector, the first
/// supported language besides the default (those with more subtags first) with which a wrong reading would
/// select something a right one does not.
pub(crate) fn plan(vectors: &[Vector], supported: &[String], default: &str) -> Vec<Probe> {
    let Ok(negotiator) = Negotiator::new(supported.iter().map(String::as_str), default) else {
        return Vec::new();
    };
    // Tags with a region first, so that a vector's region (`en_US`) becomes
    // a supported one (`fr_CA`).
    let mut others: Vec<&String> = supported
        .iter()
        .filter(|t| !t.eq_ignore_ascii_case(default))
        .collect();
    others.sort_by_key(|t| std::cmp::Reverse(t.split('-').count()));
    let mut probes = Vec::new();
    for vector in vectors {
        let vector_name = match &vector.cite {
            Some(cite) => format!("{} ({cite})", vector.name),
            None => vector.name.clone(),
        };
        for language in &others {
            let value = substitute(&vector.header, language);
            let parsed = AcceptLanguage::parse(&value);
            if parsed.is_ok() != vector.valid {
                continue;
            }
            let probe = |accepted: Vec<String>, wrong: String| Probe {
                vector: vector_name.clone(),
                value: value.clone(),
                valid: vector.valid,
                language: (*language).clone(),
                accepted,
                wrong,
            };
            let found = match &parsed {
                Ok(header) if header.iter().next().is_none() => Some(probe(
                    vec![default.to_owned()],
                    "an error for a list without ranges".to_owned(),
                )),
                Ok(header) => {
                    let accepted = right_answers(header, &negotiator, supported, default);
                    (!accepted.iter().any(|a| reaches(a, default))).then(|| {
                        probe(
                            accepted,
                            format!(
                                "the default {default_q}, as for a malformed value",
                                default_q = crate::quote::q(&default)
                            ),
                        )
                    })
                }
                Err(_) => salvaged(&value, &negotiator, default)
                    .or_else(|| names(&value, language).then(|| (*language).clone()))
                    .map(|tag| {
                        probe(
                            vec![default.to_owned()],
                            format!(
                                "{tag_q}, read from the malformed value",
                                tag_q = crate::quote::q(&tag)
                            ),
                        )
                    }),
            };
            if let Some(probe) = found {
                probes.push(probe);
                break;
            }
        }
    }
    probes
}

/// Whether `value` can be sent as an HTTP field value (decision H7): printable
/// ASCII or HTAB, no surrounding whitespace. Other values go without a header,
/// which the SEP has servers tolerate.
fn sendable(value: &str) -> bool {
    value
        .bytes()
        .all(|b| b == b'\t' || (0x20..0x7f).contains(&b))
        && !value.starts_with([' ', '\t'])
        && !value.ends_with([' ', '\t'])
}

/// A value as JSON writes it, for messages.
fn quoted(value: &str) -> String {
    Value::String(value.to_owned()).to_string()
}

/// The tools of a `tools/list` answer: what shows its language when it
/// reports none.
fn tools(exchange: &Exchange) -> Option<Value> {
    exchange.result().and_then(|r| r.get("tools")).cloned()
}

async fn run_probes(ctx: &mut Ctx, valid: bool) -> Step<()> {
    let default = ctx.profile.default.clone();
    ctx.others(1)?;
    let probes: Vec<Probe> = plan(&vectors(), &ctx.profile.supported, &default)
        .into_iter()
        .filter(|p| p.valid == valid)
        .collect();
    if probes.is_empty() {
        return Err(Outcome::Skip(format!(
            "no {} test vector decides anything with the profile's languages (default {default_q}): name more supported languages",
            if valid { "well-formed" } else { "malformed" },
            default_q = crate::quote::q(&default)
        )));
    }
    // The text of each language, for answers that report none.
    let mut texts: HashMap<String, Option<Value>> = HashMap::new();
    let mut decided = 0;
    // A value that cannot be a field value goes without the header, which a
    // server may decline (decision C31): then such values are not sent.
    let mut headerless = None;
    for probe in &probes {
        let header = if sendable(&probe.value) {
            HeaderPlan::Mirror
        } else {
            let tolerated = match headerless {
                Some(tolerated) => tolerated,
                None => *headerless.insert(super::binding::tolerates_missing_header(ctx).await?),
            };
            if !tolerated {
                continue;
            }
            HeaderPlan::Omit
        };
        let call = Call::new("tools/list")
            .preference(probe.value.as_str())
            .header(header);
        let exchange = ctx.send(call).await?;
        let value = quoted(&probe.value);
        ensure(
            exchange.error().is_none() && exchange.result().is_some(),
            || {
                format!(
                    "test vector {}: acceptLanguage {value} produced an error: {}",
                    probe.vector,
                    exchange.summary()
                )
            },
        )?;
        let got = match exchange.selected_language() {
            Some(got) => got.to_owned(),
            // No report: the text shows which language was used, when the
            // default's and the probe language's differ.
            None => {
                let mut text_of = async |tag: &str| -> Step<Option<Value>> {
                    if let Some(text) = texts.get(tag) {
                        return Ok(text.clone());
                    }
                    let text = tools(&ctx.result(Call::new("tools/list").preference(tag)).await?);
                    texts.insert(tag.to_owned(), text.clone());
                    Ok(text)
                };
                let default_text = text_of(&default).await?;
                let language_text = text_of(&probe.language).await?;
                if default_text == language_text {
                    continue;
                }
                let text = tools(&exchange);
                if text == default_text {
                    default.clone()
                } else if text == language_text {
                    probe.language.clone()
                } else {
                    continue;
                }
            }
        };
        decided += 1;
        ensure(probe.accepts(&got), || {
            let reading = if probe.valid {
                "a well-formed value must be read as RFC 9110 §12.5.4 reads it"
            } else {
                "a malformed value must be ignored as an absent preference"
            };
            let accepted: Vec<String> = probe.accepted.iter().map(|a| quoted(a)).collect();
            format!(
                "test vector {}: acceptLanguage {value} selected {}; expected {} (a wrong reading gives {}): {reading}",
                probe.vector,
                quoted(&got),
                accepted.join(" or "),
                probe.wrong
            )
        })?;
    }
    if decided == 0 {
        return Err(Outcome::Skip(format!(
            "no answer to the {} test vectors reported contentLanguage, and their text does not show the language",
            probes.len()
        )));
    }
    Ok(())
}

fn malformed_vectors(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move { finish(run_probes(ctx, false).await) })
}

fn valid_edges(ctx: &mut Ctx) -> ScenarioFuture<'_> {
    Box::pin(async move { finish(run_probes(ctx, true).await) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference() -> (Vec<String>, String) {
        let supported = ["en", "fr", "fr-CA", "de", "ga", "ja"];
        (supported.map(str::to_owned).to_vec(), "en".to_owned())
    }

    fn planned(name: &str) -> Option<Probe> {
        let (supported, default) = reference();
        let vectors: Vec<Vector> = vectors().into_iter().filter(|v| v.name == name).collect();
        assert_eq!(vectors.len(), 1, "{name} is a vector");
        plan(&vectors, &supported, &default).pop()
    }

    #[test]
    fn the_vectors_are_read_at_build_time() {
        let vectors = vectors();
        assert!(vectors.len() > 100, "{}", vectors.len());
        assert!(vectors.iter().any(|v| v.valid) && vectors.iter().any(|v| !v.valid));
    }

    #[test]
    fn substitution_keeps_the_defect_and_the_grammar() {
        assert_eq!(substitute("en;q=0.1234", "fr"), "fr;q=0.1234");
        assert_eq!(substitute("en_US", "fr-CA"), "fr_CA");
        assert_eq!(substitute("en-US, en;q=0.5", "fr-CA"), "fr-CA, fr;q=0.5");
        assert_eq!(substitute("en \t, \tfr", "de"), "de \t, \tde");
        assert_eq!(substitute(",en,,de", "de"), ",de,,de");
        assert_eq!(substitute("en;Q=0.3", "ja"), "ja;Q=0.3");
        assert_eq!(substitute("*;q=0.5, de", "ja"), "*;q=0.5, ja");
        // Words that are not a language are not replaced.
        assert_eq!(substitute("abcdefghi", "fr"), "abcdefghi");
        assert_eq!(substitute("en1", "fr"), "en1");
        assert_eq!(substitute("en;q=0,5", "fr"), "fr;q=0,5");
        assert_eq!(substitute("fré", "de"), "deé");
    }

    #[test]
    fn malformed_vectors_are_sent_when_a_salvage_picks_a_language() {
        let probe = planned("qvalue-bad-0dot1234").unwrap();
        assert_eq!((probe.value.as_str(), probe.valid), ("fr;q=0.1234", false));
        assert_eq!(probe.accepted, ["en"]);
        assert!(probe.accepts("en") && !probe.accepts("fr"));
        let probe = planned("range-underscore").unwrap();
        assert_eq!(probe.value, "fr_CA");
        let probe = planned("second-weight").unwrap();
        assert_eq!(probe.value, "fr;q=0.5;q=0.4");
        // Nothing to salvage: a wrong reading gives the default too.
        assert_eq!(planned("quoted"), None);
        assert_eq!(planned("range-first-subtag-digit"), None);
    }

    #[test]
    fn valid_vectors_are_sent_when_their_answer_is_not_the_default() {
        let probe = planned("uppercase-q").unwrap();
        assert_eq!(probe.value, "fr;Q=0.3");
        assert!(probe.accepts("fr") && probe.accepts("fr-CA") && !probe.accepts("en"));
        let probe = planned("inner-empty-elements").unwrap();
        assert_eq!(probe.value, "fr,,, ,fr");
        let probe = planned("leading-empty-element").unwrap();
        assert_eq!(probe.value, ",fr");
        // An empty value is no preference: the default, and no error.
        let probe = planned("empty-value-no-preference").unwrap();
        assert_eq!(
            (probe.value.as_str(), probe.accepted.as_slice()),
            ("", &["en".to_owned()][..])
        );
        // `fr;q=0` is the default under every reading, and under a wrong one.
        assert_eq!(planned("qvalue-ok-0"), None);
    }

    #[test]
    fn every_reading_rfc_4647_allows_is_accepted() {
        let (supported, default) = reference();
        let negotiator =
            Negotiator::new(supported.iter().map(String::as_str), default.as_str()).unwrap();
        let header = AcceptLanguage::parse("fr").unwrap();
        let answers = right_answers(&header, &negotiator, &supported, &default);
        assert_eq!(answers, ["fr", "fr-CA"]);
        let header = AcceptLanguage::parse("fr-BE").unwrap();
        // Lookup truncates to `fr`; filtering finds nothing: the default.
        let answers = right_answers(&header, &negotiator, &supported, &default);
        assert!(answers.contains(&"fr".to_owned()) && answers.contains(&"en".to_owned()));
    }

    #[test]
    fn a_profile_with_only_the_default_plans_nothing() {
        let supported = vec!["en".to_owned()];
        assert!(plan(&vectors(), &supported, "en").is_empty());
    }
}
