//! Parse + negotiate (mcp-lang-match's `Negotiator`) beside the peers, on the
//! same inputs, in one run.
//!
//! Groups: `negotiate/typical-5`, `negotiate/typical-20`,
//! `negotiate/typical-100` (the SEP's `fr-CA,fr;q=0.9,en;q=0.5` against 5,
//! 20 and 100 supported tags) and `negotiate/hostile-64k-100` (a 64 KiB
//! header against 100 tags). Functions: `mcp-lang`,
//! `fluent-langneg-filtering` and `fluent-langneg-lookup`
//! (`fluent_langneg::negotiate_languages` with that strategy, header parsed
//! by `fluent_langneg::accepted_languages::parse` inside the timed loop, the
//! supported list parsed to `LanguageIdentifier`s outside it), and
//! `accept-language` (`accept_language::intersection`).
//!
//! Every timed closure does the whole job from the raw header string. The
//! peers do less than we do (fluent-langneg ignores q and `*`;
//! accept-language matches exact strings), so this compares cost, not
//! answers. `negotiate` itself allocates nothing (crates/mcp-lang-match/tests/alloc.rs).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fluent_langneg::LanguageIdentifier;
use fluent_langneg::{NegotiationStrategy, accepted_languages, negotiate_languages};
use mcp_lang_match::Negotiator;

const TYPICAL: &str = "fr-CA,fr;q=0.9,en;q=0.5";

/// 99 well-known tags without French, so that the peers and we must look
/// through the whole list; `fr` is appended last.
const OTHERS: [&str; 99] = [
    "en",
    "en-US",
    "en-GB",
    "de",
    "de-AT",
    "de-CH",
    "es",
    "es-MX",
    "es-419",
    "it",
    "ja",
    "ko",
    "zh-Hans",
    "zh-Hant",
    "zh-Hant-TW",
    "pt",
    "pt-BR",
    "nl",
    "sv",
    "da",
    "nb",
    "nn",
    "fi",
    "pl",
    "cs",
    "sk",
    "sl",
    "hr",
    "sr",
    "sr-Latn",
    "bs",
    "mk",
    "bg",
    "ro",
    "hu",
    "el",
    "tr",
    "ru",
    "uk",
    "be",
    "lt",
    "lv",
    "et",
    "ga",
    "cy",
    "gd",
    "is",
    "mt",
    "sq",
    "hy",
    "ka",
    "az",
    "kk",
    "uz",
    "ky",
    "tg",
    "mn",
    "he",
    "ar",
    "fa",
    "ur",
    "hi",
    "bn",
    "pa",
    "gu",
    "mr",
    "ta",
    "te",
    "kn",
    "ml",
    "si",
    "ne",
    "th",
    "lo",
    "km",
    "my",
    "vi",
    "id",
    "ms",
    "fil",
    "jv",
    "su",
    "sw",
    "am",
    "yo",
    "ig",
    "ha",
    "zu",
    "xh",
    "af",
    "so",
    "eu",
    "ca",
    "gl",
    "oc",
    "br",
    "lb",
    "fy",
    "eo",
];

fn supported(n: usize) -> Vec<&'static str> {
    let mut tags: Vec<&'static str> = OTHERS.iter().copied().take(n - 1).collect();
    tags.push("fr");
    tags
}

fn hostile() -> String {
    let mut s = String::with_capacity(64 * 1024);
    let unit = "en-US-x-aaaaaaaa;q=0.5,zh-Hant-CN-x-private1;q=0.4,de-x-c;q=0.3,*;q=0.001,";
    while s.len() + unit.len() <= 64 * 1024 {
        s.push_str(unit);
    }
    s.push_str("fr");
    s
}

fn group(c: &mut Criterion, name: &str, header: &str, tags: &[&str]) {
    let server = Negotiator::new(tags, "en").expect("valid tags");
    let available: Vec<LanguageIdentifier> =
        tags.iter().map(|t| t.parse().expect("valid tag")).collect();
    let default: LanguageIdentifier = "en".parse().expect("valid tag");

    let mut group = c.benchmark_group(name);
    group.bench_function("mcp-lang", |b| {
        b.iter(|| server.negotiate_header(Some(black_box(header))).tag().len())
    });
    group.bench_function("fluent-langneg-filtering", |b| {
        b.iter(|| {
            let requested = accepted_languages::parse(black_box(header));
            negotiate_languages(
                &requested,
                &available,
                Some(&default),
                NegotiationStrategy::Filtering,
            )
            .len()
        })
    });
    group.bench_function("fluent-langneg-lookup", |b| {
        b.iter(|| {
            let requested = accepted_languages::parse(black_box(header));
            negotiate_languages(
                &requested,
                &available,
                Some(&default),
                NegotiationStrategy::Lookup,
            )
            .len()
        })
    });
    group.bench_function("accept-language", |b| {
        b.iter(|| accept_language::intersection(black_box(header), tags).len())
    });
    group.finish();
}

fn typical(c: &mut Criterion) {
    for n in [5, 20, 100] {
        group(c, &format!("negotiate/typical-{n}"), TYPICAL, &supported(n));
    }
}

fn hostile_64k(c: &mut Criterion) {
    group(c, "negotiate/hostile-64k-100", &hostile(), &supported(100));
}

criterion_group!(benches, typical, hostile_64k);
criterion_main!(benches);
