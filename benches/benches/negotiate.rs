//! Parse + negotiate (mcp-lang-match's `Negotiator`) beside the peers, on the
//! same inputs, in one run.
//!
//! Groups: `negotiate/typical-5`, `negotiate/typical-20`,
//! `negotiate/typical-100` (the SEP's `fr-CA,fr;q=0.9,en;q=0.5` against 5,
//! 20 and 100 supported tags), and `negotiate/hostile-64k-100`,
//! `negotiate/hostile-400k-100` and `negotiate/hostile-4m-100`: values of
//! 64 KiB, 400 KiB (hyper's limit on a request head) and 4 MiB (the HTTP
//! layer's body limit, and so the largest `_meta` preference) against 100
//! tags, thousands of ranges with private-use subtags and weights, then `fr`
//! last. Functions: `mcp-lang`, `fluent-langneg-filtering` and
//! `fluent-langneg-lookup` (`fluent_langneg::negotiate_languages` with that
//! strategy, header parsed by `fluent_langneg::accepted_languages::parse`
//! inside the timed loop, the supported list parsed to `LanguageIdentifier`s
//! outside it), and `accept-language` (`accept_language::intersection`).
//!
//! Every timed closure does the whole job from the raw header string, and
//! every row asks the same question: which language to answer in. Before
//! measuring, the bench checks that every implementation gives the same
//! answer for every input (the first tag of a peer's list, or the default
//! when the list is empty), and stops if one does not. The inputs are chosen
//! so that the peers, which do less than we do (fluent-langneg ignores q and
//! `*` and drops tags with private-use subtags; accept-language matches
//! exact strings), still answer right. `negotiate` itself allocates nothing
//! (crates/mcp-lang-match/tests/alloc.rs).
//!
//! # Instruction counts
//!
//! `--callgrind list` and `--callgrind ID N` (see `mcp_lang_benches::callgrind`)
//! count every implementation on every case, ids `GROUP/FUNCTION` (e.g.
//! `negotiate/typical-20/mcp-lang`). `GROUP/mcp-lang-negotiate-only` (counted,
//! never timed) counts our `negotiate` on a header parsed beforehand, to tell
//! the matcher's instructions from the parser's.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use fluent_langneg::LanguageIdentifier;
use fluent_langneg::{NegotiationStrategy, accepted_languages, negotiate_languages};
use mcp_lang_benches::callgrind::{self, Operation};
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

/// At least `bytes` of ranges that match supported tags only through
/// private-use subtags, weights and `*`, then `fr` last, which decides.
fn hostile(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 64);
    let unit = "en-US-x-aaaaaaaa;q=0.5,zh-Hant-CN-x-private1;q=0.4,de-x-c;q=0.3,*;q=0.001,";
    while s.len() + unit.len() <= bytes {
        s.push_str(unit);
    }
    s.push_str("fr");
    s
}

/// One input: the header and the supported tags, prepared for every
/// implementation outside the timed code.
struct Case {
    name: String,
    header: String,
    tags: Vec<&'static str>,
    server: Negotiator<&'static str>,
    available: Vec<LanguageIdentifier>,
    default: LanguageIdentifier,
}

impl Case {
    fn new(name: String, header: String, tags: Vec<&'static str>) -> Case {
        let server = Negotiator::new(tags.iter().copied(), DEFAULT).expect("valid tags");
        let available = tags.iter().map(|t| t.parse().expect("valid tag")).collect();
        let default = DEFAULT.parse().expect("valid tag");
        Case {
            name,
            header,
            tags,
            server,
            available,
            default,
        }
    }

    /// Whether criterion should take few samples (a peer takes tens of
    /// milliseconds per call on the largest values).
    fn is_large(&self) -> bool {
        self.header.len() > 64 * 1024
    }
}

/// The server default of every case.
const DEFAULT: &str = "en";

/// What an implementation answered, in its own form, so that the timed code
/// does not convert it.
enum Answer<'c> {
    Tag(&'c str),
    Identifier(Option<&'c LanguageIdentifier>),
    Owned(Option<String>),
}

impl Answer<'_> {
    /// The language to answer in: the tag, or the first of a peer's list,
    /// or the default when that list is empty.
    fn language(&self) -> String {
        match self {
            Answer::Tag(tag) => (*tag).to_owned(),
            Answer::Identifier(id) => id.map_or(DEFAULT.to_owned(), ToString::to_string),
            Answer::Owned(tag) => tag.clone().unwrap_or_else(|| DEFAULT.to_owned()),
        }
    }
}

fn mcp_lang<'c>(case: &'c Case, header: &str) -> Answer<'c> {
    Answer::Tag(case.server.negotiate_header(Some(header)).tag())
}

fn fluent_langneg<'c>(case: &'c Case, header: &str, strategy: NegotiationStrategy) -> Answer<'c> {
    let requested = accepted_languages::parse(header);
    let chosen = negotiate_languages(&requested, &case.available, Some(&case.default), strategy);
    Answer::Identifier(chosen.first().copied())
}

fn fluent_langneg_filtering<'c>(case: &'c Case, header: &str) -> Answer<'c> {
    fluent_langneg(case, header, NegotiationStrategy::Filtering)
}

fn fluent_langneg_lookup<'c>(case: &'c Case, header: &str) -> Answer<'c> {
    fluent_langneg(case, header, NegotiationStrategy::Lookup)
}

fn accept_language_peer<'c>(case: &'c Case, header: &str) -> Answer<'c> {
    Answer::Owned(
        accept_language::intersection(header, &case.tags)
            .into_iter()
            .next(),
    )
}

/// The implementations, by criterion function id. Each does the whole job
/// from the raw header string.
type Implementation = for<'c> fn(&'c Case, &str) -> Answer<'c>;
const IMPLEMENTATIONS: [(&str, Implementation); 4] = [
    ("mcp-lang", mcp_lang),
    ("fluent-langneg-filtering", fluent_langneg_filtering),
    ("fluent-langneg-lookup", fluent_langneg_lookup),
    ("accept-language", accept_language_peer),
];

fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = [5, 20, 100]
        .into_iter()
        .map(|n| {
            Case::new(
                format!("negotiate/typical-{n}"),
                TYPICAL.into(),
                supported(n),
            )
        })
        .collect();
    for (name, bytes) in [("64k", 64 << 10), ("400k", 400 << 10), ("4m", 4 << 20)] {
        cases.push(Case::new(
            format!("negotiate/hostile-{name}-100"),
            hostile(bytes),
            supported(100),
        ));
    }
    cases
}

/// Every implementation gives the same answer on every case, or the run
/// stops: a row compares the cost of one answer.
fn check_answers(cases: &[Case]) {
    for case in cases {
        let ours = mcp_lang(case, &case.header).language();
        for (id, run) in IMPLEMENTATIONS {
            let theirs = run(case, &case.header).language();
            assert_eq!(theirs, ours, "{}: {id} answers differently", case.name);
        }
        println!("answer, {}: {ours} (every implementation)", case.name);
    }
}

fn bench(c: &mut Criterion, cases: &[Case]) {
    check_answers(cases);
    for case in cases {
        let mut group = c.benchmark_group(&case.name);
        group.throughput(Throughput::Bytes(case.header.len() as u64));
        if case.is_large() {
            group.sample_size(10);
        }
        for (id, run) in IMPLEMENTATIONS {
            group.bench_function(id, |b| b.iter(|| run(case, black_box(&case.header))));
        }
        group.finish();
    }
}

impl Answer<'_> {
    /// A cheap function of the answer, to keep the optimiser from dropping it.
    fn language_len(&self) -> usize {
        match self {
            Answer::Tag(tag) => tag.len(),
            Answer::Identifier(id) => usize::from(id.is_some()),
            Answer::Owned(tag) => tag.as_ref().map_or(0, String::len),
        }
    }
}

/// The operations `--callgrind` counts: every implementation on every case, and
/// `GROUP/mcp-lang-negotiate-only` (counted, never timed): our `negotiate` on a header
/// parsed beforehand, to tell the matcher's instructions from the parser's.
fn operations(cases: &[Case]) -> Vec<Operation<'_>> {
    let mut operations = Vec::new();
    for case in cases {
        for (imp, run) in IMPLEMENTATIONS {
            operations.push(Operation::new(
                format!("{}/{imp}", case.name),
                Some(case.header.len()),
                move || black_box(run(case, black_box(&case.header))).language_len(),
            ));
        }
    }
    for case in cases {
        let header = mcp_lang_grammar::AcceptLanguage::parse(&case.header).expect("well-formed");
        operations.push(Operation::new(
            format!("{}/mcp-lang-negotiate-only", case.name),
            Some(case.header.len()),
            move || case.server.negotiate(black_box(&header)).tag().len(),
        ));
    }
    operations
}

fn main() {
    let cases = cases();
    if callgrind::hook(|| operations(&cases)) {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &cases);
    c.final_summary();
}
