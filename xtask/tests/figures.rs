//! Figures from one source: every performance figure a document quotes must be in the
//! benchmark block of the workspace README, between `<!-- bench:start -->` and
//! `<!-- bench:end -->`, which `cargo xtask bench --write` writes (the table, the targets
//! below it and any note inside the markers).
//!
//! Read: every tracked Markdown file (`git ls-files '*.md'`) but those of [`NOT_CHECKED`],
//! the workspace README outside its block included, and the doc comments (`//!` and `///`)
//! of every tracked Rust file but this one (whose docs are examples). A figure is a number
//! (digits, thousands separated by commas, decimals; not part of a name, date or version
//! such as `typical-20`, `2026-12-02` or `1.95.0`) followed by a unit, after spaces, one
//! line break, a hyphen or the end of an emphasis (`**3,500** instructions`):
//!
//! - instructions: `instruction(s)` or `million instructions` (`325 instructions`,
//!   `7.8 instructions per byte`, `a 3,500-instruction budget`);
//! - a time: `ns` or `µs` (`11.9 ns`);
//! - a speed ratio: `×` or `x` (`6.8×`, `2.1x`), or `times` after a number with decimals
//!   (`1.8 times`) or before `as`, `the`, `faster`, `slower`, `more` or `fewer` (`5 times
//!   faster`, but not `allocates 11 times`).
//!
//! In a Markdown table, a column whose header names instructions
//! (`| instructions per request |`) gives its unit to every number of its cells that has
//! none, so a count in such a cell is a figure too.
//!
//! Two numbers joined by `to`, `and`, `or` or `–` before one unit (`1.3 to 1.8 times`) are
//! two figures. A figure passes when the block holds it verbatim (the same digits,
//! separators and decimals) in the form the table prints it: instructions as one of the
//! block's numbers without a unit (a cell, or a number of a note), a time with the same
//! unit, a ratio as `N×`. So a rounded `9.7 million instructions` never passes (quote the
//! count), and a budget or a target passes only when the block holds it. Numbers without
//! these units (of tests, checks, crates, lines, bytes, RFC sections, protocol versions,
//! percentages, milliseconds) are not figures and are not checked.

mod common;

use common::{git_ls_files, root};
use std::collections::BTreeSet;

/// The source of the figures.
const SOURCE: &str = "README.md";
/// The line after which the source's block starts (as `cargo xtask bench --write` writes it).
const START_MARKER: &str = "<!-- bench:start -->";
/// The line before which the source's block ends.
const END_MARKER: &str = "<!-- bench:end -->";

/// This file, whose docs quote example figures.
const THIS_FILE: &str = "xtask/tests/figures.rs";

/// Tracked files not checked.
const NOT_CHECKED: &[&str] = &[
    "target/",
    // A separate contribution: its figures are conformance counts.
    "contrib/conformance/",
    // The history of releases: each entry's figures are those of its day.
    "CHANGELOG.md",
    // Test data: fuzz inputs, and the SEP as published upstream.
    "fuzz/corpus/",
    "crates/mcp-lang-conformance/tests/data/",
];

/// What a figure measures, which says how the block must hold it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// An instruction count (or instructions per byte): a bare number of the block.
    Count,
    /// A time, with its unit (`ns` or `µs`).
    Time(&'static str),
    /// A speed ratio: `N×` in the block (`N×` or `Nx` in a document).
    Ratio,
}

/// One figure found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Figure {
    /// The number as written (`11,246,255`, `1.8`).
    number: String,
    kind: Kind,
    /// The unit as written (`instructions`, `million instructions`, `µs`, `×`, `times`).
    unit: &'static str,
    /// The byte offset of the number.
    offset: usize,
}

impl Figure {
    /// The figure as the report shows it: the number and its unit.
    fn show(&self) -> String {
        match self.unit {
            "×" | "x" => format!("{}{}", self.number, self.unit),
            unit => format!("{} {unit}", self.number),
        }
    }
}

/// Every figure of the block, by kind, as `(kind, number)`.
type Figures = BTreeSet<(Kind, String)>;

/// A number starting at `start` (a digit): its end, or `None` when the digits are part of
/// a word, a name, a date or a version rather than a number of their own.
fn number_at(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    if let Some(&before) = start.checked_sub(1).and_then(|i| bytes.get(i))
        && continues_a_word(before)
    {
        return None;
    }
    // After a hyphen, only the second number of a range (`50-100 ns`).
    if start > 0 && bytes[start - 1] == b'-' && hyphen_range_before(text, start - 1).is_none() {
        return None;
    }
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut end = start + digits(start);
    // Thousands: a comma and exactly three digits.
    while bytes.get(end) == Some(&b',') && digits(end + 1) == 3 {
        end += 4;
    }
    if bytes.get(end) == Some(&b'.') && digits(end + 1) > 0 {
        end += 1 + digits(end + 1);
    }
    // `1.95.0`, `1,2`, `12-02`, `64k`: not a number of its own (`3,500-instruction` is,
    // and so is `2.1x`, a ratio).
    let after = &text[end..];
    let joined =
        |c: char| after.starts_with(c) && after[1..].starts_with(|d: char| d.is_ascii_digit());
    let word =
        after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') && !ascii_times(after);
    let hyphenated = joined('-') && hyphen_range_before(text, end).is_none();
    if joined('.') || joined(',') || hyphenated || word {
        return None;
    }
    Some(end)
}

/// Whether digits after `byte` belong to what it ends (a word, a name, a decimal or a
/// thousands group) rather than start a number.
fn continues_a_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.' | b',')
}

/// The start of the first number of a range joined by the hyphen at `dash` (`50-100 ns`):
/// a number of its own before it, and after it a number followed by a unit. `None` for
/// dates, names and versions (`2026-12-02`, `x86-64`, `typical-20`).
fn hyphen_range_before(text: &str, dash: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let is_part = |b: u8| b.is_ascii_digit() || matches!(b, b',' | b'.');
    let mut first = dash;
    while first > 0 && is_part(bytes[first - 1]) {
        first -= 1;
    }
    let before_ok = first == 0 || !(continues_a_word(bytes[first - 1]) || bytes[first - 1] == b'-');
    if first == dash || !bytes[first].is_ascii_digit() || !before_ok {
        return None;
    }
    let second = dash + 1;
    let mut end = second;
    while end < bytes.len() && is_part(bytes[end]) {
        end += 1;
    }
    // The second number ends with a digit and is followed by a unit.
    while end > second && !bytes[end - 1].is_ascii_digit() {
        end -= 1;
    }
    if end == second || bytes.get(end) == Some(&b'-') {
        return None;
    }
    unit(&text[second..end], &text[end..]).map(|_| first)
}

/// Whether `after` (the text after a number) starts with an `x` that is a ratio's sign:
/// a word of its own (`2.1x faster`, not `2x2` or `0x1f`).
fn ascii_times(after: &str) -> bool {
    after
        .strip_prefix('x')
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// Every number of `text` as (start, end).
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit()
            && (i == 0 || !bytes[i - 1].is_ascii_digit())
            && let Some(end) = number_at(text, i)
        {
            found.push((i, end));
            i = end;
            continue;
        }
        i += 1;
    }
    found
}

/// What separates a number from its unit: spaces, at most one line break (and the next
/// line's indentation), or one hyphen. The rest of the text after it.
fn after_separator(text: &str) -> &str {
    if let Some(rest) = text.strip_prefix('-') {
        return rest;
    }
    let spaces = |t: &str| t.trim_start_matches([' ', '\t', '\u{a0}']).len();
    let mut rest = &text[text.len() - spaces(text)..];
    if let Some(next_line) = rest.strip_prefix('\n') {
        rest = &next_line[next_line.len() - spaces(next_line)..];
    }
    rest
}

/// Whether `text` starts with `word` as a whole word.
fn starts_with_word(text: &str, word: &str) -> bool {
    text.strip_prefix(word)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// The unit that follows a number (`after` is the text after it), if any: what it
/// measures, and the unit as written.
fn unit(number: &str, after: &str) -> Option<(Kind, &'static str)> {
    // The end of an emphasis around the number (`**3,500** instructions`).
    let after = after.trim_start_matches(['*', '_']);
    // Not a product (`1×1`, `64 × 3.9 MiB`): a ratio's sign ends the figure.
    if let Some(rest) = after.trim_start_matches([' ', '\u{a0}']).strip_prefix('×')
        && !rest
            .trim_start_matches([' ', '\u{a0}'])
            .starts_with(|c: char| c.is_ascii_digit())
    {
        return Some((Kind::Ratio, "×"));
    }
    if ascii_times(after) {
        return Some((Kind::Ratio, "x"));
    }
    let rest = after_separator(after);
    for (word, kind) in [
        ("instructions", Kind::Count),
        ("instruction", Kind::Count),
        ("ns", Kind::Time("ns")),
        ("µs", Kind::Time("µs")),
        // The Greek letter mu, which looks the same as the micro sign the table prints.
        ("μs", Kind::Time("µs")),
    ] {
        if starts_with_word(rest, word) {
            return Some((kind, word));
        }
    }
    if let Some(millions) = rest.strip_prefix("million")
        && starts_with_word(after_separator(millions), "instructions")
    {
        return Some((Kind::Count, "million instructions"));
    }
    if let Some(next) = rest.strip_prefix("times")
        && starts_with_word(rest, "times")
    {
        let next = after_separator(next);
        let compares = ["as", "the", "faster", "slower", "more", "fewer"]
            .iter()
            .any(|w| starts_with_word(next, w));
        if number.contains('.') || compares {
            return Some((Kind::Ratio, "times"));
        }
    }
    None
}

/// The number that ends just before `to`, `and`, `or` or `–` ahead of `start`, if any.
fn range_start(text: &str, start: usize, numbers: &[(usize, usize)]) -> Option<(usize, usize)> {
    let before = text[..start].trim_end();
    let joined = ["to", "and", "or"]
        .iter()
        .filter_map(|w| before.strip_suffix(w))
        .find(|rest| rest.ends_with(char::is_whitespace))
        .or_else(|| before.strip_suffix('–'))
        .or_else(|| text[..start].strip_suffix('-'))?;
    let end = joined.trim_end().len();
    numbers.iter().copied().find(|&(_, e)| e == end)
}

/// The cells of a Markdown table row (`| a | b |`) as their byte ranges in `text`, the
/// row starting at `line_start`; `None` when the line is not a table row.
/// An indented row (a table in a list item) is a row too; an escaped `\|` does not end a
/// cell.
fn cells(text: &str, line_start: usize, line: &str) -> Option<Vec<(usize, usize)>> {
    let trimmed = line.trim_start();
    let inner = trimmed.trim_end().strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let first = line_start + (line.len() - trimmed.len()) + 1;
    let mut found = Vec::new();
    let mut start = 0;
    let bytes = inner.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'|' && (i == 0 || bytes[i - 1] != b'\\') {
            found.push((first + start, first + i));
            start = i + 1;
        }
    }
    found.push((first + start, first + inner.len()));
    debug_assert!(found.iter().all(|&(a, b)| text.get(a..b).is_some()));
    Some(found)
}

/// Whether `after` (the text after a number) starts with a unit that is not a
/// performance figure's: a percentage, a size, a time in milliseconds or more, a count of
/// lines (`+3%`, `64 KiB`, `2 ms`).
fn other_unit(after: &str) -> bool {
    let rest = after.trim_start_matches([' ', '\u{a0}']);
    rest.starts_with('%')
        || ["KiB", "MiB", "GiB", "bytes", "B", "ms", "s", "min", "lines"]
            .iter()
            .any(|u| starts_with_word(rest, u))
}

/// The numbers without a unit in the cells of table columns whose header names
/// instructions (every column but the first when the first, the rows' labels, does):
/// counts, as figures.
fn table_counts(text: &str) -> Vec<Figure> {
    let mut found = Vec::new();
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in text.split('\n') {
        lines.push((offset, line));
        offset += line.len() + 1;
    }
    let mut counted: Vec<usize> = Vec::new();
    for (i, &(start, line)) in lines.iter().enumerate() {
        let Some(row) = cells(text, start, line) else {
            counted.clear();
            continue;
        };
        let is_separator =
            |l: &str| l.contains('-') && l.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '));
        if is_separator(line) {
            continue;
        }
        if lines
            .get(i + 1)
            .is_some_and(|&(_, next)| is_separator(next.trim()))
        {
            let names =
                |&(a, b): &(usize, usize)| text[a..b].to_lowercase().contains("instruction");
            counted = if row.first().is_some_and(names) {
                (1..row.len()).collect()
            } else {
                (0..row.len()).filter(|&c| names(&row[c])).collect()
            };
            continue;
        }
        for &column in &counted {
            let Some(&(a, b)) = row.get(column) else {
                continue;
            };
            let cell = &text[a..b];
            for (start, end) in numbers(cell) {
                if unit(&cell[start..end], &cell[end..]).is_none() && !other_unit(&cell[end..]) {
                    found.push(Figure {
                        number: cell[start..end].to_owned(),
                        kind: Kind::Count,
                        unit: "instructions (column)",
                        offset: a + start,
                    });
                }
            }
        }
    }
    found
}

/// Every figure of a document's text.
fn figures(text: &str) -> Vec<Figure> {
    let numbers = numbers(text);
    let mut found = table_counts(text);
    for &(start, end) in &numbers {
        let number = &text[start..end];
        let Some((kind, unit)) = unit(number, &text[end..]) else {
            continue;
        };
        if let Some((first, first_end)) = range_start(text, start, &numbers) {
            found.push(Figure {
                number: text[first..first_end].to_owned(),
                kind: kind.clone(),
                unit,
                offset: first,
            });
        }
        found.push(Figure {
            number: number.to_owned(),
            kind,
            unit,
            offset: start,
        });
    }
    found.sort_by_key(|f| f.offset);
    found.dedup();
    found
}

/// Every figure the block holds: its times and ratios with their units, and every other
/// number of its own (a cell, or a number of a note) as a count.
fn block_figures(block: &str) -> Figures {
    let mut held = Figures::new();
    for (start, end) in numbers(block) {
        let number = &block[start..end];
        let after = &block[end..];
        let kind = match unit(number, after) {
            Some((Kind::Count, _)) | None => Kind::Count,
            Some((kind, _)) => kind,
        };
        held.insert((kind, number.to_owned()));
    }
    held
}

/// The lines between the markers of the source, or why there are none.
fn marked_block(source: &str) -> Result<&str, String> {
    let start = source
        .find(START_MARKER)
        .ok_or_else(|| format!("{SOURCE} has no `{START_MARKER}`"))?;
    let end = source
        .find(END_MARKER)
        .ok_or_else(|| format!("{SOURCE} has no `{END_MARKER}`"))?;
    if end < start {
        return Err(format!("{SOURCE}: `{END_MARKER}` before `{START_MARKER}`"));
    }
    Ok(&source[start + START_MARKER.len()..end])
}

/// The doc comments (`//!` and `///`) of a Rust file, without their markers, every other
/// line left empty so that line numbers stay the file's.
fn doc_comments(rust: &str) -> String {
    rust.lines()
        .map(|line| {
            let line = line.trim_start();
            line.strip_prefix("//!")
                .or_else(|| line.strip_prefix("///"))
                .map_or("", |doc| doc.strip_prefix(' ').unwrap_or(doc))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `source` with the lines between its markers left empty (line numbers kept).
fn without_block(source: &str) -> Result<String, String> {
    let block = marked_block(source)?;
    let start = block.as_ptr() as usize - source.as_ptr() as usize;
    let blank: String = block.chars().filter(|&c| c == '\n').collect();
    Ok(format!(
        "{}{blank}{}",
        &source[..start],
        &source[start + block.len()..]
    ))
}

/// The line (from 1) of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// Every figure of the document at `path` that the block does not hold, as
/// `path:line: …`.
fn offenders(path: &str, text: &str, held: &Figures) -> Vec<String> {
    figures(text)
        .into_iter()
        .filter(|f| !held.contains(&(f.kind.clone(), f.number.clone())))
        .map(|f| {
            format!(
                "{path}:{}: figure \"{}\" is not in the benchmark table ({SOURCE})",
                line_of(text, f.offset),
                f.show()
            )
        })
        .collect()
}

/// The documents checked, each with the text read: the Markdown files as they are (the
/// README without its block), the Rust files as their doc comments.
fn documents() -> Vec<(String, String)> {
    let mut documents = Vec::new();
    for path in git_ls_files(Some("*.md")) {
        if NOT_CHECKED.iter().any(|skip| path.starts_with(skip)) {
            continue;
        }
        // A file deleted in the work tree but not yet in the index is no document.
        if let Ok(text) = std::fs::read_to_string(root().join(&path)) {
            let text = if path == SOURCE {
                without_block(&text).unwrap_or_else(|e| panic!("{e}"))
            } else {
                text
            };
            documents.push((path, text));
        }
    }
    for path in git_ls_files(Some("*.rs")) {
        if path == THIS_FILE || NOT_CHECKED.iter().any(|skip| path.starts_with(skip)) {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(root().join(&path)) {
            documents.push((path, doc_comments(&text)));
        }
    }
    documents
}

#[test]
fn every_performance_figure_quoted_is_in_the_benchmark_table() {
    let source =
        std::fs::read_to_string(root().join(SOURCE)).expect("the workspace README is readable");
    let block = marked_block(&source).unwrap_or_else(|e| panic!("{e}"));
    let held = block_figures(block);
    assert!(
        held.iter().any(|(kind, _)| *kind == Kind::Ratio)
            && held.iter().any(|(kind, _)| matches!(kind, Kind::Time(_))),
        "the block between the markers holds no ratio or no time: is it the table?"
    );
    let documents = documents();
    assert!(
        documents.iter().any(|(path, _)| path.ends_with("lib.rs"))
            && documents.iter().any(|(path, _)| path == SOURCE)
            && documents.iter().any(|(path, _)| path.ends_with(".md")),
        "no Markdown file or no crate root read: the check read nothing"
    );
    let mut checked = 0;
    let mut found = Vec::new();
    for (path, text) in &documents {
        checked += figures(text).len();
        found.extend(offenders(path, text, &held));
    }
    println!(
        "{checked} performance figures in {} documents checked against {SOURCE}'s table",
        documents.len()
    );
    assert!(
        found.is_empty(),
        "{} figures quoted that the benchmark table does not have: quote the table's figure \
         or link to the table (`cargo xtask bench --write` regenerates it)\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The figures of a text, as shown in a report.
fn shown(text: &str) -> Vec<String> {
    figures(text).iter().map(Figure::show).collect()
}

#[test]
fn counts_times_and_ratios_are_figures() {
    assert_eq!(
        shown(
            "It costs 325 instructions (7.8 instructions per byte), a 3,500-instruction\n\
             budget, **11,246,255**\n  instructions, 99.7 million instructions; 11.9 ns and\n\
             26.5 µs; 6.8× faster, 1.3 to 1.8 times the instructions, 5 times faster, 2.1\n\
             and 2.2× in time, 50–100 ns, the 4to 5 ns, 2.4x faster, 1.5-3× and 7-9 ns."
        ),
        [
            "325 instructions",
            "7.8 instructions",
            "3,500 instruction",
            "11,246,255 instructions",
            "99.7 million instructions",
            "11.9 ns",
            "26.5 µs",
            "6.8×",
            "1.3 times",
            "1.8 times",
            "5 times",
            "2.1×",
            "2.2×",
            "50 ns",
            "100 ns",
            "5 ns",
            "2.4x",
            "1.5×",
            "3×",
            "7 ns",
            "9 ns",
        ]
    );
}

#[test]
fn other_numbers_are_not_figures() {
    assert_eq!(
        shown(
            "All 31 scenarios, 54 malformed vectors, 12 crates, 300 lines, RFC 4647 §3.3.1,\n\
             protocol 2025-06-18, rustc 1.95.0, `typical-20`, 5% above, 2 ms, 64 KiB, the\n\
             validating reader 5 to 11\n  times, each id runs 1000 times, x86-64 instructions, a 2x2 grid, 0x1f,\n\
             a 1×1 image, 64 × 3.9 MiB,\n\
             2026-12-02 ns, x86-64 instructions, typical-20 ns, 1-2-3 ns."
        ),
        Vec::<String>::new()
    );
}

#[test]
fn a_figure_passes_only_verbatim_and_as_the_block_holds_it() {
    let block = "\nMeasured 2026-12-02 07:07, rustc 1.95.0.\n\
        costs 11,246,255\ninstructions (9,747,086 in the table, +15.4%) and 1,270, the figures.\n\n\
        | op | ours | instructions | per byte | peer |\n|---|---:|---:|---:|---:|\n\
        | parse/typical | 11.9 ns | 325 | 14.1 | 146 ns (12.3×) · 2,200 (6.8×) |\n\n\
        - parse/typical, at least 5× the fastest peer: met\n";
    let held = block_figures(block);
    let document = "325 instructions, 14.1 instructions per byte, 11,246,255 instructions,\n\
        1,270 instructions, 11.9 ns, 12.3×, 6.8 times the instructions, at least 5× faster.\n\
        317 instructions, 325.0 instructions, 325,000 instructions, 11.9 µs, 6.9×,\n\
        146 ns but 146 instructions, 2,200×, 1,270 ns, 2026 instructions.\n";
    assert_eq!(
        offenders("doc.md", document, &held),
        [
            "doc.md:3: figure \"317 instructions\" is not in the benchmark table (README.md)",
            "doc.md:3: figure \"325.0 instructions\" is not in the benchmark table (README.md)",
            "doc.md:3: figure \"325,000 instructions\" is not in the benchmark table (README.md)",
            "doc.md:3: figure \"11.9 µs\" is not in the benchmark table (README.md)",
            "doc.md:3: figure \"6.9×\" is not in the benchmark table (README.md)",
            "doc.md:4: figure \"146 instructions\" is not in the benchmark table (README.md)",
            "doc.md:4: figure \"2,200×\" is not in the benchmark table (README.md)",
            "doc.md:4: figure \"1,270 ns\" is not in the benchmark table (README.md)",
            "doc.md:4: figure \"2026 instructions\" is not in the benchmark table (README.md)",
        ]
    );
}

#[test]
fn doc_comments_keep_their_line_numbers() {
    let rust = "//! A crate.\n//!\n//! Reads twice (1.3 times the instructions).\n\n/// An item's doc: 9 ns.\nfn f() {}\n// A comment: 7 ns.\n";
    let docs = doc_comments(rust);
    let found = figures(&docs);
    assert_eq!(found.len(), 2);
    assert_eq!(line_of(&docs, found[0].offset), 3);
    assert_eq!(line_of(&docs, found[1].offset), 5);
}

#[test]
fn counts_in_an_instructions_column_are_figures() {
    let document = "| 2026-12-02, rustc 1.95.0 | instructions per request | time |\n\
        |---|---:|---:|\n\
        | through the layer | 11,187 | 1.02 µs |\n\
        | **own** | **8,209** (8,731 before) | 12 |\n\
        | `a \\| b` | 64 KiB, +3% | 7 |\n\
        \n\
        | crate | lines |\n|---|---:|\n| a | 300 |\n\
        \n\
        - A list item:\n\
        \n\
        \x20 | instructions per call | baseline | now | change |\n\
        \x20 |---|---:|---:|---:|\n\
        \x20 | parse/typical | 325 | 331 | +1.8% |\n";
    assert_eq!(
        shown(document),
        [
            "11,187 instructions (column)",
            "1.02 µs",
            "8,209 instructions (column)",
            "8,731 instructions (column)",
            "325 instructions (column)",
            "331 instructions (column)",
        ]
    );
}

#[test]
fn the_readme_is_read_without_its_block() {
    let readme = "a 5 ns\n<!-- bench:start -->\n| 9 ns |\n<!-- bench:end -->\nb 7 ns\n";
    let text = without_block(readme).unwrap();
    let found = figures(&text);
    assert_eq!(shown(&text), ["5 ns", "7 ns"]);
    assert_eq!(line_of(&text, found[1].offset), 5);
}

#[test]
fn the_block_is_what_lies_between_the_markers() {
    assert_eq!(
        marked_block("a\n<!-- bench:start -->\n| 1 |\n<!-- bench:end -->\nb 2×\n"),
        Ok("\n| 1 |\n")
    );
    assert!(marked_block("| 1 |\n<!-- bench:end -->\n").is_err());
    assert!(marked_block("<!-- bench:end -->\n<!-- bench:start -->\n").is_err());
}
