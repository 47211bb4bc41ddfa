//! The documents checked like code: every relative link and every anchor in the
//! repository's tracked Markdown files (`git ls-files '*.md'`) resolves.
//!
//! - A link to a file or a directory names one that git tracks (a directory: one
//!   holding a tracked file), relative to the Markdown file, or to the repository's
//!   root when it starts with `/`, as GitHub resolves it.
//! - A fragment (`#anchor` in the same file, `other.md#anchor` in another) names a
//!   heading of the target Markdown file under GitHub's slug rules: the heading's
//!   text in lower case, every character dropped but letters, digits, spaces, `-`
//!   and `_`, spaces turned into `-`; a repeated slug gets `-1`, `-2`, ….
//!   Fragments into files that are not Markdown (`lib.rs#L10`) are not checked.
//! - A full or collapsed reference link (`[text][name]`, `[name][]`) names a
//!   defined reference.
//!
//! Links with a scheme (`https:`, `mailto:`, …) are not followed. Files under
//! `target/`, `node_modules/` and `fuzz/corpus/` are not checked, nor the copy of
//! the SEP that the conformance crate's tests hold its requirements to: that file
//! is the upstream text as published, links and all.

mod common;

use common::{git_ls_files, root};
use std::collections::{BTreeMap, BTreeSet};

use pulldown_cmark::{BrokenLink, Event, LinkType, Options, Parser, Tag, TagEnd};

/// Tracked files not checked (their links are still checked when others link to them).
const NOT_CHECKED: &[&str] = &[
    "target/",
    "node_modules/",
    "fuzz/corpus/",
    // The SEP as published upstream, compared word for word by the suite's tests.
    "crates/mcp-lang-conformance/tests/data/sep-2792.md",
];

/// The repository as a link sees it: the tracked files, and the text of the
/// tracked Markdown files.
#[derive(Default)]
struct Repository {
    files: BTreeSet<String>,
    markdown: BTreeMap<String, String>,
}

impl Repository {
    fn is_file(&self, path: &str) -> bool {
        self.files.contains(path)
    }

    fn is_dir(&self, path: &str) -> bool {
        if path.is_empty() {
            return true;
        }
        let prefix = format!("{path}/");
        self.files
            .range(prefix.clone()..)
            .next()
            .is_some_and(|file| file.starts_with(&prefix))
    }
}

/// What one document holds: its links (line, destination) and its anchors.
#[derive(Default)]
struct Document {
    links: Vec<(usize, String)>,
    broken_references: Vec<(usize, String)>,
    anchors: BTreeSet<String>,
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// GitHub's slug of a heading's text (github-slugger, before duplicates).
fn slug(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The line (from 1) of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

fn read(text: &str) -> Document {
    let mut broken = Vec::new();
    let mut document = Document::default();
    {
        let callback = |link: BrokenLink<'_>| {
            // A shortcut (`[name]`) is also how prose writes brackets: only the full
            // and collapsed forms are certainly meant as links.
            if matches!(link.link_type, LinkType::Reference | LinkType::Collapsed) {
                broken.push((link.span.start, link.reference.to_string()));
            }
            None
        };
        let parser = Parser::new_with_broken_link_callback(text, options(), Some(callback));
        let mut heading: Option<String> = None;
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for (event, range) in parser.into_offset_iter() {
            match event {
                Event::Start(Tag::Heading { id, .. }) => {
                    if let Some(id) = id {
                        document.anchors.insert(id.to_string());
                    }
                    heading = Some(String::new());
                }
                Event::Text(t) | Event::Code(t) => {
                    if let Some(heading) = heading.as_mut() {
                        heading.push_str(&t);
                    }
                }
                Event::SoftBreak | Event::HardBreak => {
                    if let Some(heading) = heading.as_mut() {
                        heading.push(' ');
                    }
                }
                Event::End(TagEnd::Heading(_)) => {
                    let original = slug(&heading.take().unwrap_or_default());
                    // github-slugger: the first is the slug itself, the next ones
                    // `-1`, `-2`, … skipping any slug already taken.
                    let mut anchor = original.clone();
                    while seen.contains_key(&anchor) {
                        let count = seen.get_mut(&original).expect("the original is seen");
                        *count += 1;
                        anchor = format!("{original}-{count}");
                    }
                    seen.insert(anchor.clone(), 0);
                    document.anchors.insert(anchor);
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    ..
                })
                | Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    ..
                }) if !matches!(link_type, LinkType::Autolink | LinkType::Email) => {
                    document
                        .links
                        .push((line_of(text, range.start), dest_url.to_string()));
                }
                _ => {}
            }
        }
    }
    document.broken_references = broken
        .into_iter()
        .map(|(offset, name)| (line_of(text, offset), name))
        .collect();
    document
}

/// `%XX` escapes decoded; a malformed escape is kept as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(hi), Some(lo)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((hi * 16 + lo) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a destination has a URI scheme (`https:`, `mailto:`, …).
fn has_scheme(destination: &str) -> bool {
    let Some((scheme, _)) = destination.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `base`'s directory joined with `relative`, `.` and `..` resolved; `None` when it
/// climbs out of the repository.
fn resolve(base: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = if let Some(rooted) = relative.strip_prefix('/') {
        return resolve("", rooted);
    } else {
        base.split('/').collect()
    };
    parts.pop(); // the Markdown file itself
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// What was checked in a document, and what was found broken.
#[derive(Default)]
struct Checked {
    /// Relative links followed (those with a fragment included).
    links: usize,
    /// Fragments looked up among a Markdown file's anchors.
    anchors: usize,
    /// Every broken link, as `path:line: what`.
    broken: Vec<String>,
}

/// Every relative link of the document at `path`, checked.
fn broken_links(
    repository: &Repository,
    anchors: &BTreeMap<String, BTreeSet<String>>,
    path: &str,
) -> Checked {
    let document = read(&repository.markdown[path]);
    let mut checked = Checked::default();
    let broken = &mut checked.broken;
    for (line, name) in &document.broken_references {
        broken.push(format!("{path}:{line}: no reference `[{name}]` is defined"));
    }
    for (line, destination) in &document.links {
        if has_scheme(destination) {
            continue;
        }
        checked.links += 1;
        let (target, fragment) = match destination.split_once('#') {
            Some((target, fragment)) => (target, Some(percent_decode(fragment))),
            None => (destination.as_str(), None),
        };
        let target_path = if target.is_empty() {
            path.to_owned()
        } else {
            match resolve(path, &percent_decode(target)) {
                Some(resolved) => resolved,
                None => {
                    broken.push(format!(
                        "{path}:{line}: `{destination}` leads out of the repository"
                    ));
                    continue;
                }
            }
        };
        let is_file = repository.is_file(&target_path);
        if !is_file && !repository.is_dir(&target_path) {
            broken.push(format!(
                "{path}:{line}: `{destination}`: no tracked file or directory `{target_path}`"
            ));
            continue;
        }
        let Some(fragment) = fragment else { continue };
        if !(is_file && target_path.ends_with(".md")) {
            continue;
        }
        checked.anchors += 1;
        let known = &anchors[&target_path];
        if !known.contains(&fragment) {
            broken.push(format!(
                "{path}:{line}: `{destination}`: `{target_path}` has no heading with anchor `#{fragment}`"
            ));
        }
    }
    checked
}

/// The anchors of every Markdown file of the repository.
fn all_anchors(repository: &Repository) -> BTreeMap<String, BTreeSet<String>> {
    repository
        .markdown
        .iter()
        .map(|(path, text)| (path.clone(), read(text).anchors))
        .collect()
}

#[test]
fn every_relative_link_and_anchor_in_the_tracked_markdown_resolves() {
    let mut repository = Repository {
        files: git_ls_files(None).into_iter().collect(),
        ..Repository::default()
    };
    for path in git_ls_files(Some("*.md")) {
        // A file deleted in the work tree but not yet in the index is no document.
        if let Ok(text) = std::fs::read_to_string(root().join(&path)) {
            repository.markdown.insert(path, text);
        }
    }
    assert!(
        repository.markdown.contains_key("README.md"),
        "git ls-files lists the README: the check reads the repository"
    );
    let anchors = all_anchors(&repository);
    let mut links = 0;
    let mut fragments = 0;
    let mut documents = 0;
    let mut broken = Vec::new();
    for path in repository.markdown.keys() {
        if NOT_CHECKED.iter().any(|skip| path.starts_with(skip)) {
            continue;
        }
        documents += 1;
        let checked = broken_links(&repository, &anchors, path);
        links += checked.links;
        fragments += checked.anchors;
        broken.extend(checked.broken);
    }
    println!(
        "{links} relative links in {documents} Markdown files checked, {fragments} of them \
         with an anchor into a Markdown file"
    );
    assert!(
        links > 0 && fragments > 0,
        "no relative link or no anchor found: the check read nothing"
    );
    assert!(
        broken.is_empty(),
        "{} broken links in the tracked Markdown files:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// A repository of a few in-memory files.
fn repository(files: &[(&str, &str)]) -> Repository {
    let mut repository = Repository::default();
    for (path, text) in files {
        repository.files.insert((*path).to_owned());
        if path.ends_with(".md") {
            repository
                .markdown
                .insert((*path).to_owned(), (*text).to_owned());
        }
    }
    repository
}

#[test]
fn a_broken_file_link_and_a_broken_anchor_are_both_reported() {
    let repository = repository(&[
        (
            "docs/a.md",
            "# Title\n\n## Its parts\n\nSee [b](b.md#a-heading), [the parts](#its-parts),\n\
             [gone](missing.md) and [nowhere](#no-such-heading).\n\n\
             Also [src](../src/), [code](../src/lib.rs#L3) and [web](https://example.org/x.md).\n",
        ),
        ("docs/b.md", "# A heading\n"),
        ("src/lib.rs", "//! A crate.\n"),
    ]);
    let anchors = all_anchors(&repository);
    let checked = broken_links(&repository, &anchors, "docs/a.md");
    assert_eq!(
        checked.links, 6,
        "every relative link is checked, the web one is not"
    );
    assert_eq!(checked.anchors, 3, "`lib.rs#L3` is not a Markdown anchor");
    assert_eq!(
        checked.broken,
        [
            "docs/a.md:6: `missing.md`: no tracked file or directory `docs/missing.md`",
            "docs/a.md:6: `#no-such-heading`: `docs/a.md` has no heading with anchor `#no-such-heading`",
        ]
    );
}

#[test]
fn an_anchor_into_another_file_a_directory_escape_and_an_undefined_reference_are_reported() {
    let repository = repository(&[
        (
            "README.md",
            "# R\n\n[b](docs/b.md#other) [up](../outside.md) [ref][nowhere]\n\n[dir](docs) [root](/docs/b.md#a-heading)\n",
        ),
        ("docs/b.md", "# A heading\n"),
    ]);
    let anchors = all_anchors(&repository);
    assert_eq!(
        broken_links(&repository, &anchors, "README.md").broken,
        [
            "README.md:3: no reference `[nowhere]` is defined",
            "README.md:3: `docs/b.md#other`: `docs/b.md` has no heading with anchor `#other`",
            "README.md:3: `../outside.md` leads out of the repository",
        ]
    );
}

#[test]
fn headings_are_slugged_as_github_does() {
    let document = read(
        "# The crate map\n\n## `mcp-lang-http`: the binding!\n\n## Repeated-1\n\n## Repeated\n\n\
         ## Repeated\n\n### C1–C9 and *more*, 100% (sure?)\n\n## snake_case & Co.\n",
    );
    let expected = [
        "the-crate-map",
        "mcp-lang-http-the-binding",
        "repeated-1",
        "repeated",
        // the second `Repeated` would be `repeated-1`, taken: github-slugger goes on
        "repeated-2",
        "c1c9-and-more-100-sure",
        "snake_case--co",
    ];
    assert_eq!(
        document.anchors,
        expected.iter().map(|s| (*s).to_owned()).collect()
    );
}
