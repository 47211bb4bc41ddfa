//! The traceability file (`requirements.yaml`) against the SEP's text and
//! the scenario list.
//!
//! `tests/data/sep-2792.md` is the text of SEP-2792 (Draft, as published in
//! the MCP specification repository's pull request #2792), kept here so the
//! test can hold the file to it: every normative keyword of the SEP (a bold
//! MUST, MUST NOT, SHOULD, SHOULD NOT or MAY) lies inside a quoted
//! requirement, every quoted requirement appears in the SEP verbatim, every
//! `check` names a scenario, and every scenario checks some requirement.

use std::collections::BTreeSet;

use mcp_lang_conformance::{requirements::YAML, scenarios};
use serde::Deserialize;

const SEP: &str = include_str!("data/sep-2792.md");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    sep: u32,
    spec_url: String,
    requirements: Vec<Requirement>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Requirement {
    text: String,
    #[serde(default)]
    check: Vec<String>,
    excluded: Option<String>,
}

fn file() -> File {
    serde_saphyr::from_str(YAML).expect("requirements.yaml parses")
}

/// Markdown reduced to its words: links to their text, code spans and
/// emphasis to plain text, every run of whitespace to one space. Returns the
/// text and the byte offsets (in it) of the bold normative keywords.
fn plain(markdown: &str) -> (String, Vec<(usize, &'static str)>) {
    const KEYWORDS: [&str; 5] = ["MUST NOT", "SHOULD NOT", "MUST", "SHOULD", "MAY"];
    // Reference definitions (`[name]: url`) carry no text.
    let body: String = markdown
        .lines()
        .filter(|l| !(l.starts_with('[') && l.contains("]: ")))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut keywords = Vec::new();
    let mut rest = body.as_str();
    let mut space = false;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("**") {
            if let Some(keyword) = KEYWORDS
                .iter()
                .find(|k| after.starts_with(*k) && after[k.len()..].starts_with("**"))
            {
                if space {
                    out.push(' ');
                    space = false;
                }
                keywords.push((out.len(), *keyword));
                out.push_str(keyword);
                rest = &after[keyword.len() + 2..];
                continue;
            }
            rest = after;
            continue;
        }
        if c == '[' {
            // `[text](url)` and `[text]` keep their text.
            if let Some(end) = rest.find(']') {
                let text = &rest[1..end];
                let mut next = &rest[end + 1..];
                if next.starts_with('(')
                    && let Some(close) = next.find(')')
                {
                    next = &next[close + 1..];
                }
                let reduced = plain(text).0;
                if space && !reduced.is_empty() {
                    out.push(' ');
                    space = false;
                }
                out.push_str(&reduced);
                rest = next;
                continue;
            }
        }
        rest = &rest[c.len_utf8()..];
        match c {
            '`' => {}
            c if c.is_whitespace() => space = !out.is_empty(),
            c => {
                if space {
                    out.push(' ');
                    space = false;
                }
                out.push(c);
            }
        }
    }
    (out, keywords)
}

#[test]
fn the_file_is_about_this_sep() {
    let file = file();
    assert_eq!(file.sep, 2792);
    assert!(file.spec_url.ends_with("/pull/2792"), "{}", file.spec_url);
}

#[test]
fn every_requirement_is_quoted_from_the_sep_and_says_how_it_is_checked() {
    let (sep, _) = plain(SEP);
    for requirement in file().requirements {
        let (text, keywords) = plain(&requirement.text);
        assert!(
            sep.contains(&text),
            "not in the SEP verbatim: {:?}",
            requirement.text
        );
        assert!(keywords.is_empty(), "bold in a quote: {text:?}");
        assert!(
            ["MUST", "SHOULD", "MAY"].iter().any(|k| text.contains(k)),
            "no normative keyword: {text:?}"
        );
        match (&requirement.excluded, requirement.check.is_empty()) {
            (Some(reason), true) => assert!(!reason.trim().is_empty(), "{text:?}"),
            (None, false) => {}
            _ => panic!("exactly one of check or excluded: {text:?}"),
        }
    }
}

#[test]
fn every_normative_keyword_of_the_sep_is_in_a_requirement() {
    let (sep, keywords) = plain(SEP);
    assert!(keywords.len() > 30, "the SEP's keywords were not found");
    let spans: Vec<(usize, usize)> = file()
        .requirements
        .iter()
        .map(|r| {
            let text = plain(&r.text).0;
            let start = sep.find(&text).unwrap_or(usize::MAX);
            (start, start.saturating_add(text.len()))
        })
        .collect();
    let uncovered: Vec<String> = keywords
        .iter()
        .filter(|(at, _)| !spans.iter().any(|(a, b)| a <= at && at < b))
        .map(|(at, keyword)| {
            let from = sep[..*at].rfind(". ").map_or(0, |i| i + 2);
            format!("{keyword} in {:?}", &sep[from..(*at + 40).min(sep.len())])
        })
        .collect();
    assert!(
        uncovered.is_empty(),
        "normative sentences with no requirement: {uncovered:#?}"
    );
}

#[test]
fn every_check_is_a_scenario_and_every_scenario_checks_a_requirement() {
    let file = file();
    let named: BTreeSet<&str> = file
        .requirements
        .iter()
        .flat_map(|r| r.check.iter().map(String::as_str))
        .collect();
    for id in &named {
        assert!(scenarios::find(id).is_some(), "no scenario {id}");
    }
    for scenario in scenarios::all() {
        assert!(
            named.contains(scenario.id),
            "{} checks no requirement",
            scenario.id
        );
    }
}

#[test]
fn the_reduction_keeps_words_and_finds_keywords() {
    let (text, keywords) = plain(
        "A server **MUST NOT** bind `it` to a\n[RFC 4647] connection or **every** [x](http://y).\n\n[RFC 4647]: http://z",
    );
    assert_eq!(
        text,
        "A server MUST NOT bind it to a RFC 4647 connection or every x."
    );
    assert_eq!(keywords, [(9, "MUST NOT")]);
}
