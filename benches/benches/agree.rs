//! Exact agreement (mcp-lang-agree) on one and on three field lines.
//!
//! Groups: `agree/one-line`, `agree/three-lines`; function `mcp-lang`. No peer crate
//! implements SEP-2792 agreement, so there is nothing to put beside it.
//!
//! `--callgrind list` and `--callgrind ID N` (see `mcp_lang_benches::callgrind`) count
//! both, ids `agree/INPUT/mcp-lang`.

use std::hint::black_box;

use criterion::Criterion;
use mcp_lang_agree::{Agreement, MetaValue, agree};
use mcp_lang_benches::callgrind::{self, Operation};

/// One input: the `_meta` value and the `Accept-Language` field lines that agree with it.
struct Case {
    name: &'static str,
    meta: &'static str,
    lines: &'static [&'static [u8]],
}

const CASES: [Case; 2] = [
    Case {
        name: "one-line",
        meta: "fr-CA,fr;q=0.9,en;q=0.5",
        lines: &[b"fr-CA,fr;q=0.9,en;q=0.5"],
    },
    Case {
        name: "three-lines",
        meta: "fr-CA, fr;q=0.9, en;q=0.5",
        lines: &[b"fr-CA", b" fr;q=0.9", b"en;q=0.5 "],
    },
];

fn run(case: &Case) -> Agreement<'static> {
    agree(
        MetaValue::String(black_box(case.meta)),
        black_box(case.lines).iter().copied(),
    )
}

fn bench(c: &mut Criterion) {
    for case in &CASES {
        assert_eq!(run(case), Agreement::Agree, "{}", case.name);
        let mut group = c.benchmark_group(format!("agree/{}", case.name));
        group.bench_function("mcp-lang", |b| b.iter(|| run(case)));
        group.finish();
    }
}

fn operations() -> Vec<Operation<'static>> {
    CASES
        .iter()
        .map(|case| {
            Operation::new(format!("agree/{}/mcp-lang", case.name), None, move || {
                usize::from(run(case) == Agreement::Agree)
            })
        })
        .collect()
}

fn main() {
    if callgrind::hook(operations) {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
