//! Exact agreement (mcp-lang-agree) on one and on three field lines.
//!
//! Groups: `agree/one-line`, `agree/three-lines`; function `mcp-lang`. No peer crate
//! implements SEP-2792 agreement, so there is nothing to put beside it.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_lang_agree::{MetaValue, agree};

fn one_line(c: &mut Criterion) {
    let meta = "fr-CA,fr;q=0.9,en;q=0.5";
    let lines: [&[u8]; 1] = [b"fr-CA,fr;q=0.9,en;q=0.5"];
    let mut group = c.benchmark_group("agree/one-line");
    group.bench_function("mcp-lang", |b| {
        b.iter(|| {
            agree(
                MetaValue::String(black_box(meta)),
                black_box(&lines).iter().copied(),
            )
        })
    });
    group.finish();
}

fn three_lines(c: &mut Criterion) {
    let meta = "fr-CA, fr;q=0.9, en;q=0.5";
    let lines: [&[u8]; 3] = [b"fr-CA", b" fr;q=0.9", b"en;q=0.5 "];
    let mut group = c.benchmark_group("agree/three-lines");
    group.bench_function("mcp-lang", |b| {
        b.iter(|| {
            agree(
                MetaValue::String(black_box(meta)),
                black_box(&lines).iter().copied(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, one_line, three_lines);
criterion_main!(benches);
