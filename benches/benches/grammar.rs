//! Parsing `Accept-Language` (mcp-lang-grammar) beside the peers, on the
//! same inputs, in one run.
//!
//! Groups: `parse/typical` (the SEP's `fr-CA,fr;q=0.9,en;q=0.5`),
//! `parse/browser-12` (a 12-range header as browsers send), and
//! `parse/hostile-64k` (64 KiB of `en-US;q=0.5, ` repeated: about 5,000
//! ranges). Functions: `mcp-lang` (every range and quality read while the
//! value is validated, in one pass: `AcceptLanguage::validating`, then
//! `finish`), `mcp-lang-two-pass` (`AcceptLanguage::parse`, then every range
//! and quality read with `iter`), `accept-language` (`accept_language::parse`, which
//! returns the ranges sorted by q as `String`s), and `fluent-langneg`
//! (`fluent_langneg::accepted_languages::parse`, which returns
//! `LanguageIdentifier`s and ignores q). Throughput is in input bytes, so the
//! per-byte figures of the three sizes show whether the cost is linear.
//!
//! Before measuring, the bench counts allocations per parse with
//! `mcp_lang_testkit::CountingAllocator` and prints them; ours must be 0
//! (the run aborts otherwise).
//!
//! # Instruction counts
//!
//! `--callgrind list` and `--callgrind ID N` (see `mcp_lang_benches::callgrind`)
//! count every implementation on every input, ids `parse/INPUT/FUNCTION`.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use mcp_lang_benches::callgrind::{self, Operation};
use mcp_lang_grammar::AcceptLanguage;
use mcp_lang_testkit::CountingAllocator;

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::new();

const TYPICAL: &str = "fr-CA,fr;q=0.9,en;q=0.5";

const BROWSER_12: &str = "en-US,en;q=0.9,fr-FR;q=0.8,fr;q=0.7,de-DE;q=0.6,de;q=0.5,es-ES;q=0.4,es;q=0.3,it-IT;q=0.2,it;q=0.1,ja;q=0.05,*;q=0.01";

/// 64 KiB of well-formed ranges.
fn hostile_64k() -> String {
    let mut value = String::with_capacity(64 * 1024);
    while value.len() + 13 <= 64 * 1024 {
        value.push_str("en-US;q=0.5, ");
    }
    value.push_str("en");
    value
}

/// Ours: read every range and quality while validating
/// (`AcceptLanguage::validating`), in one pass over the bytes, and keep the
/// result only if the value is well-formed.
fn mcp_lang(value: &str) -> usize {
    let mut ranges = AcceptLanguage::validating(value);
    let sum = ranges
        .by_ref()
        .map(|w| black_box(w).range.as_str().len() + usize::from(w.quality.get()))
        .sum();
    match ranges.finish() {
        Ok(_) => sum,
        Err(_) => 0,
    }
}

/// Ours in two passes: validate (`AcceptLanguage::parse`), then read every
/// range and quality (`iter`): the first ranges come from what the
/// validation noted, the rest are scanned again.
fn mcp_lang_two_pass(value: &str) -> usize {
    match AcceptLanguage::parse(value) {
        Ok(parsed) => parsed
            .iter()
            .map(|w| black_box(w).range.as_str().len() + usize::from(w.quality.get()))
            .sum(),
        Err(_) => 0,
    }
}

fn accept_language_peer(value: &str) -> usize {
    accept_language::parse(value).len()
}

fn fluent_langneg_peer(value: &str) -> usize {
    fluent_langneg::accepted_languages::parse(value).len()
}

/// One implementation: parse a value, read every range.
type Implementation = fn(&str) -> usize;

/// The implementations, by criterion function id.
const IMPLEMENTATIONS: [(&str, Implementation); 4] = [
    ("mcp-lang", mcp_lang),
    ("mcp-lang-two-pass", mcp_lang_two_pass),
    ("accept-language", accept_language_peer),
    ("fluent-langneg", fluent_langneg_peer),
];

fn report_allocations(inputs: &[(&str, &str)]) {
    for (name, value) in inputs {
        let (ours, _) = ALLOC.count(|| black_box(mcp_lang(black_box(value))));
        let (two_pass, _) = ALLOC.count(|| black_box(mcp_lang_two_pass(black_box(value))));
        let (al, _) = ALLOC.count(|| black_box(accept_language_peer(black_box(value))));
        let (fl, _) = ALLOC.count(|| black_box(fluent_langneg_peer(black_box(value))));
        println!(
            "allocations per parse, parse/{name}: mcp-lang {ours}, mcp-lang-two-pass {two_pass}, accept-language {al}, fluent-langneg {fl}"
        );
        assert_eq!(
            ours, 0,
            "mcp-lang-grammar allocated in one pass over {name}"
        );
        assert_eq!(
            two_pass, 0,
            "mcp-lang-grammar allocated while parsing {name}"
        );
    }
}

fn bench(c: &mut Criterion, inputs: &[(&str, &str)]) {
    report_allocations(inputs);
    for &(name, value) in inputs {
        let mut group = c.benchmark_group(format!("parse/{name}"));
        group.throughput(Throughput::Bytes(value.len() as u64));
        for (id, run) in IMPLEMENTATIONS {
            group.bench_function(id, |b| b.iter(|| run(black_box(value))));
        }
        group.finish();
    }
}

/// The operations `--callgrind` counts: every implementation on every input.
fn operations<'a>(inputs: &[(&str, &'a str)]) -> Vec<Operation<'a>> {
    let mut operations = Vec::new();
    for &(name, value) in inputs {
        for (imp, run) in IMPLEMENTATIONS {
            operations.push(Operation::new(
                format!("parse/{name}/{imp}"),
                Some(value.len()),
                move || run(black_box(value)),
            ));
        }
    }
    operations
}

fn main() {
    let hostile = hostile_64k();
    assert_eq!(
        AcceptLanguage::parse(&hostile).map(|v| v.len()).ok(),
        Some(64 * 1024 / 13 + 1)
    );
    let inputs: [(&str, &str); 3] = [
        ("typical", TYPICAL),
        ("browser-12", BROWSER_12),
        ("hostile-64k", &hostile),
    ];
    if callgrind::hook(|| operations(&inputs)) {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &inputs);
    c.final_summary();
}
