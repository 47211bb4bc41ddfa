//! Reading `params._meta["io.modelcontextprotocol/acceptLanguage"]` from a `tools/call`
//! request body: the raw skim of mcp-lang-meta beside a full `serde_json::Value` parse and
//! lookup of the same body.
//!
//! Groups: `meta-extract/tools-call-1k`, `meta-extract/tools-call-64k`; functions
//! `mcp-lang` (raw skim) and `serde_json-value`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcp_lang_meta::{accept_language_from_value, extract_accept_language};

/// A realistic `tools/call` body of about `size` bytes: a document-summary tool with a
/// text argument, some structured arguments, and the preference at the end of `params`.
fn tools_call(size: usize) -> Vec<u8> {
    // As JSON.stringify and serde_json write it: raw UTF-8, escapes only where needed.
    let sentence = "Le comité a adopté le rapport « Perspectives 2025 » à l'unanimité.\\n";
    let mut text = String::new();
    while text.len() + 420 < size {
        text.push_str(sentence);
    }
    format!(
        r#"{{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{{"name":"summarize_document","arguments":{{"title":"Rapport annuel 2025","text":"{text}","max_words":200,"style":{{"tone":"neutral","bullets":true,"sections":["summary","risks","next steps"]}},"source":{{"uri":"file:///reports/2025.pdf","mimeType":"application/pdf","pages":[1,2,3,5,8]}}}},"_meta":{{"progressToken":"p-17","io.modelcontextprotocol/acceptLanguage":"fr-CA,fr;q=0.9,en;q=0.5"}}}}}}"#
    )
    .into_bytes()
}

fn extract(c: &mut Criterion) {
    for (name, size) in [("tools-call-1k", 1024), ("tools-call-64k", 64 * 1024)] {
        let body = tools_call(size);
        let mut group = c.benchmark_group(format!("meta-extract/{name}"));
        group.throughput(Throughput::Bytes(body.len() as u64));
        group.bench_function("mcp-lang", |b| {
            b.iter(|| {
                let raw = extract_accept_language(black_box(&body)).expect("valid body");
                black_box(raw.as_str().map(str::len))
            })
        });
        group.bench_function("serde_json-value", |b| {
            b.iter(|| {
                let value: serde_json::Value =
                    serde_json::from_slice(black_box(&body)).expect("valid body");
                black_box(accept_language_from_value(&value).as_str().map(str::len))
            })
        });
        group.finish();
    }
}

criterion_group!(benches, extract);
criterion_main!(benches);
