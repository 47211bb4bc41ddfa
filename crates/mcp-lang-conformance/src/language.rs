//! How the scenarios read a reported `contentLanguage`: the one place that
//! knows it may name several languages.
//!
//! The SEP gives `contentLanguage` the syntax and meaning of
//! `Content-Language` (RFC 9110 §8.5): "one or more BCP 47 language tags
//! describing the natural language of the intended audience". A server whose
//! titles are French and whose (untranslated) descriptions are English may
//! rightly report `fr, en`. Two readings serve every check:
//!
//! - [`selected`]: which language the request's preference selected, read
//!   from a report. One tag is itself; of several, the one the request's
//!   `acceptLanguage` ranks highest (RFC 4647 basic filtering with weights,
//!   as the server's matching is judged), the first listed when the
//!   preference accepts none of them (a fallback). The matching scenarios
//!   compare this with what they expect, so `en;q=0, de` answered `de, en`
//!   selected `de`, and excluded nothing it should not have.
//! - [`reaches`]: whether a report names a language a range reaches: "the
//!   language is among the tags". A check that a label or a piece of content
//!   is reported accepts a list that includes it (the explicit-argument
//!   check: `language: "ga"` answered `ga, en`).

use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_match::basic;
use serde_json::Value;

use mcp_lang_meta::ACCEPT_LANGUAGE_KEY;

use crate::wire::Exchange;

/// The tags of a `contentLanguage` value, in order (the list rule of RFC 9110
/// §5.6.1: elements separated by commas, optional whitespace around them,
/// empty elements ignored). Not validated: a value that is not a
/// Content-Language value gives its pieces as they are.
pub(crate) fn tags(value: &str) -> Vec<&str> {
    value
        .split(',')
        .map(|t| t.trim_matches([' ', '\t']))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The language a request with preference `preference` (its raw
/// `acceptLanguage`, when a string) selected, read from the report `reported`
/// (see the [module docs](self)).
pub(crate) fn selected<'r>(reported: &'r str, preference: Option<&str>) -> &'r str {
    let tags = tags(reported);
    match tags.as_slice() {
        [] => reported,
        [one] => one,
        [first, ..] => preference
            .and_then(|p| AcceptLanguage::parse(p).ok())
            .and_then(|header| basic::filter(&header, &tags).first().map(|f| f.index()))
            .and_then(|index| tags.get(index).copied())
            .unwrap_or(first),
    }
}

/// Whether the range `range` basic-filters (RFC 4647 §3.3.1) a tag of
/// `reported`: a single tag, or a Content-Language list of which one tag
/// will do.
pub(crate) fn reaches(range: &str, reported: &str) -> bool {
    tags(reported).iter().any(|tag| {
        tag.eq_ignore_ascii_case(range)
            || (tag.as_bytes().get(range.len()) == Some(&b'-')
                && tag
                    .get(..range.len())
                    .is_some_and(|prefix| prefix.eq_ignore_ascii_case(range)))
    })
}

impl Exchange {
    /// The raw `acceptLanguage` string the request carried.
    pub(crate) fn preference_str(&self) -> Option<&str> {
        self.request
            .pointer("/params/_meta")
            .and_then(|m| m.get(ACCEPT_LANGUAGE_KEY))
            .and_then(Value::as_str)
    }

    /// The language the response reports having selected for the request's
    /// preference ([`selected`] of its `contentLanguage`); `None` when it
    /// reports none (or not a string).
    pub(crate) fn selected_language(&self) -> Option<&str> {
        self.content_language_str()
            .map(|reported| selected(reported, self.preference_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_tag_is_itself_whatever_the_preference() {
        assert_eq!(selected("fr-CA", Some("de")), "fr-CA");
        assert_eq!(selected("fr", None), "fr");
    }

    #[test]
    fn of_several_tags_the_preference_picks() {
        assert_eq!(selected("fr, en", Some("fr")), "fr");
        assert_eq!(selected("en, fr", Some("fr")), "fr");
        assert_eq!(selected("de, en", Some("en;q=0, de")), "de");
        assert_eq!(selected("en,de", Some("fr;q=0.1, de")), "de");
        assert_eq!(selected("fr-CA ,\ten", Some("fr")), "fr-CA");
        // Nothing acceptable (a fallback), no preference, a malformed one: the first.
        assert_eq!(selected("en, fr", Some("qaa")), "en");
        assert_eq!(selected("en, fr", None), "en");
        assert_eq!(selected("en, fr", Some("fr;q=2")), "en");
    }

    #[test]
    fn reaches_any_tag_of_a_list() {
        assert!(reaches("fr", "fr"));
        assert!(reaches("fr", "fr-CA"));
        assert!(reaches("FR", "fr-ca"));
        assert!(!reaches("fr-CA", "fr"));
        assert!(!reaches("fr", "fra"));
        assert!(reaches("ga", "ga, en"));
        assert!(reaches("en", "ga,en-GB"));
        assert!(!reaches("de", "ga, en"));
        assert!(!reaches("fr", ""));
    }

    #[test]
    fn tags_follow_the_list_rule() {
        assert_eq!(tags(" fr ,, en\t"), ["fr", "en"]);
        assert!(tags(" , ").is_empty());
    }

    #[test]
    fn an_exchange_reads_its_own_preference() {
        let exchange = Exchange {
            request: json!({ "id": 1, "method": "tools/list", "params": { "_meta": {
                "io.modelcontextprotocol/acceptLanguage": "de;q=0.5, en" } } }),
            messages: vec![json!({ "id": 1, "result": { "_meta": {
                "io.modelcontextprotocol/contentLanguage": "de, en" } } })],
            ..Exchange::default()
        };
        assert_eq!(exchange.preference_str(), Some("de;q=0.5, en"));
        assert_eq!(exchange.content_language_str(), Some("de, en"));
        assert_eq!(exchange.selected_language(), Some("en"));
    }
}
