//! Misreadings of the `Accept-Language` value: the handler faults that read
//! its grammar or its weights wrongly. Each one rewrites the preference the
//! real handler sees into the value whose correct reading picks what the
//! misreading picks, so the reference server answers as the misreading
//! server would.

use mcp_lang_grammar::AcceptLanguage;

use crate::Fault;

/// What a misreading does to a request's preference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Rewrite {
    /// The preference is read correctly: left as it is.
    Keep,
    /// The handler sees this preference instead (`None`: no preference).
    Set(Option<String>),
    /// The request is answered with this error.
    Error(&'static str),
}

/// The elements of a list, split on commas, trimmed of OWS.
fn elements(raw: &str) -> impl Iterator<Item = &str> {
    raw.split(',').map(|e| e.trim_matches([' ', '\t']))
}

/// A range and its q-value text (`None` when it has no weight).
fn split_weight(element: &str) -> (&str, Option<&str>) {
    match element.split_once(';') {
        Some((range, weight)) => {
            let weight = weight.trim_matches([' ', '\t']);
            let q = weight
                .strip_prefix("q=")
                .or_else(|| weight.strip_prefix("Q="))
                .unwrap_or(weight);
            (range.trim_matches([' ', '\t']), Some(q))
        }
        None => (element, None),
    }
}

/// A weight in thousandths, spelled as a q-value (`None` for 1000, which is
/// spelled by leaving the weight out).
fn spell(thousandths: u32) -> Option<String> {
    match thousandths {
        1000.. => None,
        0 => Some("0".to_owned()),
        n => Some(format!("0.{n:03}")),
    }
}

fn with_weight(range: &str, thousandths: u32) -> String {
    match spell(thousandths) {
        Some(q) => format!("{range};q={q}"),
        None => range.to_owned(),
    }
}

/// The well-formed value a misreading reads `raw` as, or `None` when it
/// reads it as no preference.
fn set(elements: Vec<String>) -> Rewrite {
    let value = elements.join(", ");
    if AcceptLanguage::parse(&value).is_ok() {
        Rewrite::Set(Some(value))
    } else {
        Rewrite::Keep
    }
}

/// A q-value read loosely: any decimal number, clamped to 0–1, rounded to
/// thousandths.
fn loose_q(q: &str) -> Option<u32> {
    let value: f64 = q.parse().ok()?;
    value
        .is_finite()
        .then(|| (value.clamp(0.0, 1.0) * 1000.0).round() as u32)
}

/// The preference with every range's parameters (`;q=…`) removed: what a
/// server that ignores weights reads.
pub(super) fn strip_weights(raw: &str) -> String {
    raw.split(',')
        .map(|r| r.split(';').next().unwrap_or_default().trim())
        .filter(|r| !r.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The preference with every `q=0` raised to `q=0.001`: what a server that
/// takes a zero weight as a low one reads.
pub(super) fn zero_weights_acceptable(raw: &str) -> String {
    raw.split(',')
        .map(|r| match r.split_once(';') {
            Some((range, weight)) => {
                let q = weight.trim().trim_start_matches(['q', 'Q', '=']);
                if !q.is_empty() && q.chars().all(|c| c == '0' || c == '.') {
                    format!("{range};q=0.001")
                } else {
                    r.to_owned()
                }
            }
            None => r.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The preference with every range cut to its primary subtag: what a server
/// that matches on the language alone reads.
pub(super) fn primary_subtags_only(raw: &str) -> String {
    raw.split(',')
        .map(|r| {
            let (range, weight) = r.split_once(';').unwrap_or((r, ""));
            let first = range.trim().split('-').next().unwrap_or_default();
            if weight.is_empty() {
                first.to_owned()
            } else {
                format!("{first};{weight}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The preference without the ranges a byte-for-byte matcher finds nothing
/// for: those spelled in another case than every `supported` tag they would
/// match.
pub(super) fn case_sensitive<'a>(raw: &str, supported: impl Iterator<Item = &'a str>) -> String {
    let supported: Vec<&str> = supported.collect();
    raw.split(',')
        .filter(|r| {
            let range = r.split(';').next().unwrap_or_default().trim();
            range == "*"
                || supported
                    .iter()
                    .any(|s| s.starts_with(range) || range.starts_with(s))
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The faults [`misread`] implements: each reads the preference string
/// alone, so the handler and the proxy apply them the same way.
pub(super) fn misreads(fault: Fault) -> bool {
    matches!(
        fault,
        Fault::RepairMalformed
            | Fault::LenientQValue
            | Fault::UnderscoreSeparator
            | Fault::RejectEmptyElements
            | Fault::RejectUppercaseQ
            | Fault::ErrorOnEmptyValue
            | Fault::DefaultNotNegotiated
            | Fault::FirstRangesOnly
            | Fault::QAsInteger
            | Fault::QZeroExcludesPrefix
            | Fault::WildcardCoversNamed
            | Fault::WildcardZeroExcludesAll
            | Fault::TrimAnyWhitespace
            | Fault::SpaceSeparatedRanges
            | Fault::SemicolonSeparatedRanges
            | Fault::StrayHyphensTolerated
            | Fault::LongSubtagsAccepted
            | Fault::ExtendedRanges
            | Fault::UnknownParametersIgnored
            | Fault::LastWeightWins
            | Fault::WeightSpacesTolerated
            | Fault::EmptyWeightAsOne
            | Fault::QAboveOneClamped
            | Fault::ExtraDecimalsRounded
            | Fault::NonAsciiStripped
            | Fault::HtabNotOws
            | Fault::NoOwsAroundSemicolon
            | Fault::QTrailingDotRejected
            | Fault::QOneDecimalOnly
            | Fault::LowestWeightWins
            | Fault::QTenthsOnly
            | Fault::LongValueIgnored
    )
}

/// Each element of a malformed `raw` passed through `repair`, when that
/// gives a well-formed value: what a server that quietly repairs one kind of
/// defect reads.
fn repaired(raw: &str, parsed_ok: bool, repair: impl Fn(&str) -> String) -> Rewrite {
    if parsed_ok {
        return Rewrite::Keep;
    }
    let read: Vec<String> = raw.split(',').map(&repair).collect();
    let value = read.join(",");
    if value != raw && AcceptLanguage::parse(&value).is_ok() {
        Rewrite::Set(Some(value))
    } else {
        Rewrite::Keep
    }
}

/// The weights of a well-formed value, each passed through `weigh` (in
/// thousandths, `None` for an element without a weight).
fn reweighed(raw: &str, weigh: impl Fn(Option<&str>) -> Option<u32>) -> Rewrite {
    let read: Vec<String> = elements(raw)
        .filter(|e| !e.is_empty())
        .map(|e| {
            let (range, q) = split_weight(e);
            match weigh(q) {
                Some(q) => with_weight(range, q),
                None => range.to_owned(),
            }
        })
        .collect();
    set(read)
}

/// A well-formed q-value in thousandths.
fn thousandths(q: &str) -> u32 {
    let (int, frac) = q.split_once('.').unwrap_or((q, ""));
    let frac: String = frac.chars().chain("000".chars()).take(3).collect();
    int.parse::<u32>().unwrap_or(0) * 1000 + frac.parse::<u32>().unwrap_or(0)
}

/// How `fault` reads `raw` (the preference string) on a server whose
/// default language is `default`.
pub(super) fn misread(fault: Fault, raw: &str, default: &str) -> Rewrite {
    let parsed = AcceptLanguage::parse(raw);
    let ok = parsed.is_ok();
    let has = |c: char| raw.contains(c);
    match fault {
        // Trims elements with a Unicode-aware trim: CR, LF, VT, NBSP and
        // spaces around the value pass as OWS.
        Fault::TrimAnyWhitespace => repaired(raw, ok, |e| e.trim().to_owned()),
        // Reads `fr de` as two ranges.
        Fault::SpaceSeparatedRanges => repaired(raw, ok, |e| {
            if e.contains(';') {
                e.to_owned()
            } else {
                e.split_whitespace().collect::<Vec<_>>().join(", ")
            }
        }),
        // Reads `fr;de` as two ranges: a parameter that is not a weight
        // starts a new range.
        Fault::SemicolonSeparatedRanges => repaired(raw, ok, |e| {
            let mut parts = e.split(';');
            let mut out = parts.next().unwrap_or_default().to_owned();
            for part in parts {
                let trimmed = part.trim_matches([' ', '\t']);
                if trimmed.starts_with("q=") || trimmed.starts_with("Q=") {
                    out.push(';');
                } else {
                    out.push_str(", ");
                }
                out.push_str(part);
            }
            out
        }),
        // Drops empty subtags and hyphens at either end (`fr-`, `-fr`,
        // `fr--CA`).
        Fault::StrayHyphensTolerated => repaired(raw, ok, |e| {
            let (range, weight) = e.split_once(';').map_or((e, None), |(r, w)| (r, Some(w)));
            let range = range
                .trim_matches([' ', '\t'])
                .split('-')
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("-");
            weight.map_or(range.clone(), |w| format!("{range};{w}"))
        }),
        // Reads subtags of more than eight characters; lookup then cuts
        // them away.
        Fault::LongSubtagsAccepted => repaired(raw, ok, |e| {
            let (range, weight) = e.split_once(';').map_or((e, None), |(r, w)| (r, Some(w)));
            let mut kept = Vec::new();
            for subtag in range.trim_matches([' ', '\t']).split('-') {
                if subtag.len() > 8 {
                    break;
                }
                kept.push(subtag);
            }
            let range = kept.join("-");
            weight.map_or(range.clone(), |w| format!("{range};{w}"))
        }),
        // Reads RFC 4647 extended ranges (`fr-*`, `fr-*-CA`): the `*`
        // subtags match anything, so the range reaches its language.
        Fault::ExtendedRanges => repaired(raw, ok, |e| {
            let (range, weight) = e.split_once(';').map_or((e, None), |(r, w)| (r, Some(w)));
            let range = range.trim_matches([' ', '\t']);
            let Some((first, _)) = range.split_once("-*") else {
                return e.to_owned();
            };
            weight.map_or(first.to_owned(), |w| format!("{first};{w}"))
        }),
        // Ignores every parameter but the first weight (`fr;level=1`,
        // `fr;q=0.5;x=y`, `fr;`).
        Fault::UnknownParametersIgnored => repaired(raw, ok, |e| {
            let mut parts = e.split(';');
            let mut out = parts.next().unwrap_or_default().to_owned();
            if let Some(weight) =
                parts.find(|p| p.trim_matches([' ', '\t']).starts_with(['q', 'Q']))
            {
                out.push(';');
                out.push_str(weight);
            }
            out
        }),
        // Of several weights on one range, takes the last.
        Fault::LastWeightWins => repaired(raw, ok, |e| {
            let weights: Vec<&str> = e.split(';').collect();
            match weights.as_slice() {
                [range, .., last] if weights.len() > 2 => format!("{range};{last}"),
                _ => e.to_owned(),
            }
        }),
        // Allows spaces around `=` and after the weight.
        Fault::WeightSpacesTolerated => repaired(raw, ok, |e| match e.split_once(';') {
            Some((range, weight)) => {
                let weight: String = weight.chars().filter(|c| *c != ' ').collect();
                format!("{range};{weight}")
            }
            None => e.to_owned(),
        }),
        // Reads a weight with no value (`fr;q=`, `fr;q`, `fr;`) as 1.
        Fault::EmptyWeightAsOne => repaired(raw, ok, |e| match e.split_once(';') {
            Some((range, weight))
                if matches!(
                    weight.trim_matches([' ', '\t']),
                    "" | "q" | "Q" | "q=" | "Q="
                ) =>
            {
                range.to_owned()
            }
            _ => e.to_owned(),
        }),
        // Reads a q-value above 1 (`q=2`, `q=1.5`, `q=1.001`) as 1.
        Fault::QAboveOneClamped => repaired(raw, ok, |e| match split_weight(e) {
            (range, Some(q)) if q.parse::<f64>().is_ok_and(|v| v > 1.0) => range.to_owned(),
            _ => e.to_owned(),
        }),
        // Rounds a q-value of more than three decimals (`q=0.1234`).
        Fault::ExtraDecimalsRounded => repaired(raw, ok, |e| match split_weight(e) {
            (range, Some(q))
                if q.split_once('.').is_some_and(|(i, d)| {
                    matches!(i, "0" | "1") && d.len() > 3 && d.bytes().all(|b| b.is_ascii_digit())
                }) =>
            {
                let value: f64 = q.parse().unwrap_or(0.0);
                with_weight(range, (value.min(1.0) * 1000.0).round() as u32)
            }
            _ => e.to_owned(),
        }),
        // Removes characters that are not ASCII (`fré` is read as `fr`).
        Fault::NonAsciiStripped => {
            repaired(raw, ok, |e| e.chars().filter(char::is_ascii).collect())
        }
        // Takes a horizontal tab for a defect: only spaces are OWS.
        Fault::HtabNotOws if ok && has('\t') => Rewrite::Set(None),
        // Takes whitespace around `;` for a defect (`fr ; q=0.5`).
        Fault::NoOwsAroundSemicolon
            if ok
                && (raw.contains(" ;")
                    || raw.contains("; ")
                    || raw.contains("\t;")
                    || raw.contains(";\t")) =>
        {
            Rewrite::Set(None)
        }
        // Takes a q-value ending in a point (`q=1.`, `q=0.`) for a defect.
        Fault::QTrailingDotRejected
            if ok && elements(raw).any(|e| split_weight(e).1.is_some_and(|q| q.ends_with('.'))) =>
        {
            Rewrite::Set(None)
        }
        // Accepts at most one decimal (`q=0.5`); `q=0.05` and `q=1.000` are
        // taken for a defect.
        Fault::QOneDecimalOnly
            if ok
                && elements(raw).any(|e| {
                    split_weight(e)
                        .1
                        .is_some_and(|q| q.split_once('.').is_some_and(|(_, d)| d.len() > 1))
                }) =>
        {
            Rewrite::Set(None)
        }
        // Sorts the ranges by ascending weight: the least preferred
        // acceptable range wins.
        Fault::LowestWeightWins if ok && elements(raw).any(|e| split_weight(e).1.is_some()) => {
            reweighed(raw, |q| {
                let q = q.map_or(1000, thousandths);
                Some(if q == 0 { 0 } else { 1001 - q })
            })
        }
        // Keeps one decimal of each weight, cutting the rest (`q=0.45` is
        // read as 0.4, `q=0.05` as 0).
        Fault::QTenthsOnly if ok && elements(raw).any(|e| split_weight(e).1.is_some()) => {
            reweighed(raw, |q| q.map(|q| thousandths(q) / 100 * 100))
        }
        // Ignores a preference longer than 1 KiB as if it were absent.
        Fault::LongValueIgnored if ok && raw.len() > 1024 => Rewrite::Set(None),
        // Drops the elements that are not well-formed and keeps the rest.
        Fault::RepairMalformed if parsed.is_err() => {
            let kept: Vec<String> = elements(raw)
                .filter(|e| !e.is_empty() && AcceptLanguage::parse(e).is_ok())
                .map(str::to_owned)
                .collect();
            if kept.is_empty() {
                Rewrite::Keep
            } else {
                set(kept)
            }
        }
        // Reads any number as a q-value (`q=0.1234`, `q=1.5`, `q=.5`).
        Fault::LenientQValue if parsed.is_err() => {
            let mut read = Vec::new();
            for element in elements(raw).filter(|e| !e.is_empty()) {
                match split_weight(element) {
                    (range, Some(q)) => match loose_q(q) {
                        Some(q) => read.push(with_weight(range, q)),
                        None => return Rewrite::Keep,
                    },
                    (range, None) => read.push(range.to_owned()),
                }
            }
            set(read)
        }
        // Takes `_` for `-` (`fr_CA` is read as `fr-CA`).
        Fault::UnderscoreSeparator if parsed.is_err() && raw.contains('_') => {
            set(vec![raw.replace('_', "-")])
        }
        // Takes a list with an empty element for a malformed value.
        Fault::RejectEmptyElements
            if parsed.is_ok()
                && raw.contains(',')
                && raw
                    .split(',')
                    .any(|e| e.trim_matches([' ', '\t']).is_empty()) =>
        {
            Rewrite::Set(None)
        }
        // Takes `Q=` for a parameter other than the weight: malformed.
        Fault::RejectUppercaseQ
            if parsed.is_ok()
                && elements(raw).any(|e| {
                    e.split_once(';')
                        .is_some_and(|(_, w)| w.trim_matches([' ', '\t']).starts_with('Q'))
                }) =>
        {
            Rewrite::Set(None)
        }
        Fault::ErrorOnEmptyValue if parsed.as_ref().is_ok_and(|h| h.iter().next().is_none()) => {
            Rewrite::Error("empty io.modelcontextprotocol/acceptLanguage")
        }
        // Negotiates among the other supported languages only.
        Fault::DefaultNotNegotiated if parsed.is_ok() && !raw.is_empty() => {
            Rewrite::Set(Some(format!("{raw}, {default};q=0")))
        }
        // Reads the first 64 ranges and ignores the rest.
        Fault::FirstRangesOnly if parsed.is_ok() => {
            let ranges: Vec<&str> = elements(raw).filter(|e| !e.is_empty()).collect();
            if ranges.len() > 64 {
                set(ranges[..64].iter().map(|r| (*r).to_owned()).collect())
            } else {
                Rewrite::Keep
            }
        }
        // Reads the digits after the point as an integer: `q=0.5` is 5,
        // `q=0.45` is 45, `q=1` is 1.
        Fault::QAsInteger if parsed.is_ok() => {
            let read: Vec<String> = elements(raw)
                .filter(|e| !e.is_empty())
                .map(|e| match split_weight(e) {
                    (range, Some(q)) => {
                        let digits = q.split_once('.').map_or(q, |(_, d)| d);
                        let n: u32 = digits.parse().unwrap_or(0);
                        with_weight(range, n.min(999))
                    }
                    (range, None) => range.to_owned(),
                })
                .collect();
            set(read)
        }
        // A `q=0` range also excludes every prefix of it.
        Fault::QZeroExcludesPrefix if parsed.is_ok() => {
            let mut read: Vec<String> = elements(raw)
                .filter(|e| !e.is_empty())
                .map(str::to_owned)
                .collect();
            if let Ok(header) = &parsed {
                for wr in header.iter() {
                    let range = wr.range.as_str();
                    if wr.quality.is_zero() && !wr.range.is_wildcard() {
                        let mut prefix = range;
                        while let Some((shorter, _)) = prefix.rsplit_once('-') {
                            read.push(format!("{shorter};q=0"));
                            prefix = shorter;
                        }
                    }
                }
            }
            set(read)
        }
        // `*` rates the languages other ranges name too, raising them to its
        // own weight.
        Fault::WildcardCoversNamed => {
            let Ok(header) = &parsed else {
                return Rewrite::Keep;
            };
            let Some(star) = header
                .iter()
                .filter(|wr| wr.range.is_wildcard())
                .map(|wr| u32::from(wr.quality.get()))
                .max()
            else {
                return Rewrite::Keep;
            };
            set(header
                .iter()
                .map(|wr| {
                    let q = u32::from(wr.quality.get());
                    with_weight(
                        wr.range.as_str(),
                        if wr.range.is_wildcard() {
                            q
                        } else {
                            q.max(star)
                        },
                    )
                })
                .collect())
        }
        // `*;q=0` excludes every language, named or not.
        Fault::WildcardZeroExcludesAll
            if parsed.as_ref().is_ok_and(|h| {
                h.iter()
                    .any(|wr| wr.range.is_wildcard() && wr.quality.is_zero())
            }) =>
        {
            Rewrite::Set(None)
        }
        _ => Rewrite::Keep,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_to(value: &str) -> Rewrite {
        Rewrite::Set(Some(value.to_owned()))
    }

    #[test]
    fn malformed_values_are_salvaged_only_by_their_faults() {
        assert_eq!(
            misread(Fault::RepairMalformed, "fr;q=2, de", "en"),
            set_to("de")
        );
        assert_eq!(
            misread(Fault::RepairMalformed, "fr, de", "en"),
            Rewrite::Keep
        );
        assert_eq!(
            misread(Fault::LenientQValue, "fr;q=0.1234", "en"),
            set_to("fr;q=0.123")
        );
        assert_eq!(
            misread(Fault::LenientQValue, "fr;q=1.5, de;q=.5", "en"),
            set_to("fr, de;q=0.500")
        );
        assert_eq!(
            misread(Fault::UnderscoreSeparator, "fr_CA", "en"),
            set_to("fr-CA")
        );
        assert_eq!(
            misread(Fault::UnderscoreSeparator, "fr-CA", "en"),
            Rewrite::Keep
        );
    }

    #[test]
    fn valid_edge_cases_are_misread_by_their_faults() {
        assert_eq!(
            misread(Fault::RejectEmptyElements, ", fr", "en"),
            Rewrite::Set(None)
        );
        assert_eq!(
            misread(Fault::RejectEmptyElements, "fr,,de", "en"),
            Rewrite::Set(None)
        );
        assert_eq!(
            misread(Fault::RejectEmptyElements, "fr, de", "en"),
            Rewrite::Keep
        );
        assert_eq!(
            misread(Fault::RejectUppercaseQ, "fr;Q=0.5", "en"),
            Rewrite::Set(None)
        );
        assert_eq!(
            misread(Fault::RejectUppercaseQ, "fr;q=0.5", "en"),
            Rewrite::Keep
        );
        assert!(matches!(
            misread(Fault::ErrorOnEmptyValue, "", "en"),
            Rewrite::Error(_)
        ));
        assert!(matches!(
            misread(Fault::ErrorOnEmptyValue, " , ", "en"),
            Rewrite::Error(_)
        ));
        assert_eq!(misread(Fault::ErrorOnEmptyValue, "fr", "en"), Rewrite::Keep);
    }

    #[test]
    fn weights_are_misread_by_their_faults() {
        assert_eq!(
            misread(Fault::DefaultNotNegotiated, "en, fr;q=0.5", "en"),
            set_to("en, fr;q=0.5, en;q=0")
        );
        let long: Vec<String> = (0..70).map(|i| format!("x-{i}")).collect();
        let Rewrite::Set(Some(read)) = misread(Fault::FirstRangesOnly, &long.join(", "), "en")
        else {
            panic!("a list of 70 ranges is cut");
        };
        assert_eq!(read.split(", ").count(), 64);
        assert_eq!(
            misread(Fault::QAsInteger, "fr;q=0.5, de;q=0.45, ja;q=1", "en"),
            set_to("fr;q=0.005, de;q=0.045, ja;q=0.001")
        );
        assert_eq!(
            misread(
                Fault::QZeroExcludesPrefix,
                "en-US;q=0, en;q=0.5, fr;q=0.4",
                "en"
            ),
            set_to("en-US;q=0, en;q=0.5, fr;q=0.4, en;q=0")
        );
    }

    #[test]
    fn repairs_of_one_defect_each() {
        let cases = [
            (Fault::TrimAnyWhitespace, "fr\r\n", "fr"),
            (Fault::TrimAnyWhitespace, "en,\u{a0}fr", "en,fr"),
            (Fault::SpaceSeparatedRanges, "en fr", "en, fr"),
            (Fault::SemicolonSeparatedRanges, "en;fr", "en, fr"),
            (Fault::StrayHyphensTolerated, "fr--CA", "fr-CA"),
            (Fault::StrayHyphensTolerated, "fr-", "fr"),
            (Fault::LongSubtagsAccepted, "fr-123456789", "fr"),
            (Fault::ExtendedRanges, "fr-*-CA", "fr"),
            (Fault::UnknownParametersIgnored, "fr;level=1", "fr"),
            (Fault::UnknownParametersIgnored, "fr;q=0.5;x=y", "fr;q=0.5"),
            (Fault::LastWeightWins, "fr;q=0.5;q=0.4", "fr;q=0.4"),
            (Fault::WeightSpacesTolerated, "fr;q= 0.5", "fr;q=0.5"),
            (Fault::EmptyWeightAsOne, "fr;q=", "fr"),
            (Fault::QAboveOneClamped, "fr;q=1.001", "fr"),
            (Fault::ExtraDecimalsRounded, "fr;q=0.1234", "fr;q=0.123"),
            (Fault::NonAsciiStripped, "fré", "fr"),
        ];
        for (fault, raw, read) in cases {
            assert_eq!(misread(fault, raw, "en"), set_to(read), "{fault} {raw:?}");
            // A well-formed value is read right.
            assert_eq!(
                misread(fault, "fr, de;q=0.5", "en"),
                Rewrite::Keep,
                "{fault}"
            );
        }
    }

    #[test]
    fn well_formed_values_taken_for_defects() {
        for (fault, raw) in [
            (Fault::HtabNotOws, "fr\t;\tq=0.5"),
            (Fault::NoOwsAroundSemicolon, "fr ; q=0.5"),
            (Fault::QTrailingDotRejected, "fr;q=1."),
            (Fault::QOneDecimalOnly, "fr;q=0.05"),
        ] {
            assert_eq!(misread(fault, raw, "en"), Rewrite::Set(None), "{fault}");
            assert_eq!(misread(fault, "fr;q=0.5", "en"), Rewrite::Keep, "{fault}");
        }
        let long = vec!["fr"; 400].join(", ");
        assert_eq!(
            misread(Fault::LongValueIgnored, &long, "en"),
            Rewrite::Set(None)
        );
    }

    #[test]
    fn weights_read_backwards_or_cut() {
        assert_eq!(
            misread(Fault::LowestWeightWins, "fr;q=0.9, de;q=0.1, ja;q=0", "en"),
            set_to("fr;q=0.101, de;q=0.901, ja;q=0")
        );
        assert_eq!(
            misread(Fault::QTenthsOnly, "fr;q=0.05, de;q=0.45", "en"),
            set_to("fr;q=0, de;q=0.400")
        );
    }

    #[test]
    fn wildcard_misreadings() {
        assert_eq!(
            misread(Fault::WildcardCoversNamed, "fr;q=0, *", "en"),
            set_to("fr, *")
        );
        assert_eq!(
            misread(Fault::WildcardCoversNamed, "fr;q=0", "en"),
            Rewrite::Keep
        );
        assert_eq!(
            misread(Fault::WildcardZeroExcludesAll, "fr, *;q=0", "en"),
            Rewrite::Set(None)
        );
        assert_eq!(
            misread(Fault::WildcardZeroExcludesAll, "fr, *", "en"),
            Rewrite::Keep
        );
    }
}
