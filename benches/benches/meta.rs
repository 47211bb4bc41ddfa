//! Reading the language values of a JSON-RPC message from its bytes: the raw skim of
//! mcp-lang-meta beside serde_json's typed, borrowed deserialization and beside a full
//! `serde_json::Value` parse and lookup, on the same bodies.
//!
//! Groups: `meta-extract/tools-call-1k` and `meta-extract/tools-call-64k` (a `tools/call`
//! request with French text in its arguments and the preference in `params._meta`: the
//! preference, the id and the method are read, as the HTTP layer does), and
//! `meta-extract/response-1k` (a `tools/call` result in French: its `contentLanguage` is
//! read, as the layer does to mirror it); and `meta-extract/layer-request-1k` and
//! `meta-extract/layer-response`, the two bodies of the HTTP layer's benchmark
//! (`mcp_lang_benches::layer_bodies`: mostly ASCII), read as the layer reads them.
//! Functions:
//!
//! - `mcp-lang`: `skim_request` / `extract_content_language`, one validating pass;
//! - `serde_json-typed`: `mcp_lang_benches::typed_meta` on the bytes: the members needed
//!   deserialized into borrowed types (`&RawValue` for the id, `Cow<str>` for strings),
//!   `serde::de::IgnoredAny` for the rest;
//! - `serde_json-typed-utf8`: the same after `core::str::from_utf8` on the whole body,
//!   which the typed path needs to reject invalid UTF-8 in the strings it skips, as the
//!   skim does;
//! - `serde_json-typed-validating`: every skipped value deserialized into a type that
//!   keeps nothing, so that serde_json checks it as it checks a `Value` (the typed path
//!   whose answers are the skim's; see `mcp_lang_benches::typed_meta`);
//! - `serde_json-value`: `serde_json::from_slice::<Value>`, then the lookup;
//! - `simd_json-borrowed`: `simd_json::to_borrowed_value`, simdjson's two stages (a
//!   structural index built with the vector instructions the CPU has, found at run
//!   time, then a tree), on a copy of the body, which it parses in place;
//! - `sonic_rs-value`: `sonic_rs::from_slice::<sonic_rs::Value>`, another SIMD parser
//!   into a tree, then the lookup.
//!
//! Before measuring, the bench checks that every implementation gives the same answers on
//! every body, and prints the allocations per read of each (`CountingAllocator`).
//!
//! `--callgrind list` and `--callgrind ID N` (see `mcp_lang_benches::callgrind`) count
//! every implementation on every body, ids `meta-extract/BODY/FUNCTION`.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use mcp_lang_benches::callgrind::{self, Operation};
use mcp_lang_benches::{layer_bodies, typed_meta};
use mcp_lang_meta::{
    ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY, RawPreference, accept_language_from_value,
    content_language_from_value, extract_content_language, skim_request,
};
use mcp_lang_testkit::CountingAllocator;
use serde_json::Value;
use simd_json::prelude::{ValueAsScalar, ValueObjectAccess, ValueObjectAccessAsScalar, Writable};
use sonic_rs::JsonValueTrait;

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::new();

/// French prose as JSON.stringify and serde_json write it: raw UTF-8, escapes only where
/// needed (here a `\n` per sentence).
const SENTENCE: &str = "Le comité a adopté le rapport « Perspectives 2025 » à l'unanimité.\\n";

/// `SENTENCE` repeated while the text stays `room` bytes short of `size`.
fn french(size: usize, room: usize) -> String {
    let mut text = String::new();
    while text.len() + room < size {
        text.push_str(SENTENCE);
    }
    text
}

/// A realistic `tools/call` body of about `size` bytes: a document-summary tool with a
/// text argument, some structured arguments, and the preference at the end of `params`.
fn tools_call(size: usize) -> Vec<u8> {
    let text = french(size, 420);
    format!(
        r#"{{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{{"name":"summarize_document","arguments":{{"title":"Rapport annuel 2025","text":"{text}","max_words":200,"style":{{"tone":"neutral","bullets":true,"sections":["summary","risks","next steps"]}},"source":{{"uri":"file:///reports/2025.pdf","mimeType":"application/pdf","pages":[1,2,3,5,8]}}}},"_meta":{{"progressToken":"p-17","io.modelcontextprotocol/acceptLanguage":"fr-CA,fr;q=0.9,en;q=0.5"}}}}}}"#
    )
    .into_bytes()
}

/// The result of that call, of about `size` bytes: text content and structured content in
/// French, the language reported in `result._meta`.
fn response(size: usize) -> Vec<u8> {
    let text = french(size, 330);
    format!(
        r#"{{"jsonrpc":"2.0","id":17,"result":{{"content":[{{"type":"text","text":"{text}"}}],"structuredContent":{{"words":187,"sections":["résumé","risques","prochaines étapes"]}},"isError":false,"_meta":{{"io.modelcontextprotocol/contentLanguage":"fr-CA"}}}}}}"#
    )
    .into_bytes()
}

/// What a read found: the language value, and for a request its id and method.
type Answer<'a> = (RawPreference<'a>, Option<String>, Option<String>);

/// A request's preference, raw id and method, as one implementation reads them.
type Read = for<'a> fn(&'a [u8]) -> Option<Answer<'a>>;

fn skim(body: &[u8]) -> Option<Answer<'_>> {
    if is_request(body) {
        let skim = skim_request(body).ok()?;
        let (id, method) = (
            skim.id().map(str::to_owned),
            skim.method().map(str::to_owned),
        );
        Some((skim.into_accept_language(), id, method))
    } else {
        Some((extract_content_language(body).ok()?, None, None))
    }
}

fn typed(body: &[u8]) -> Option<Answer<'_>> {
    if is_request(body) {
        let read = typed_meta::read_request(body).ok()?;
        let (id, method) = (read.id.map(str::to_owned), read.method.map(String::from));
        Some((read.accept_language, id, method))
    } else {
        Some((typed_meta::read_content_language(body).ok()?, None, None))
    }
}

fn typed_utf8(body: &[u8]) -> Option<Answer<'_>> {
    if is_request(body) {
        let read = typed_meta::read_request_utf8(body).ok()?;
        let (id, method) = (read.id.map(str::to_owned), read.method.map(String::from));
        Some((read.accept_language, id, method))
    } else {
        Some((
            typed_meta::read_content_language_utf8(body).ok()?,
            None,
            None,
        ))
    }
}

fn typed_validating(body: &[u8]) -> Option<Answer<'_>> {
    if is_request(body) {
        let read = typed_meta::read_request_validating(body).ok()?;
        let (id, method) = (read.id.map(str::to_owned), read.method.map(String::from));
        Some((read.accept_language, id, method))
    } else {
        Some((
            typed_meta::read_content_language_validating(body).ok()?,
            None,
            None,
        ))
    }
}

fn value(body: &[u8]) -> Option<Answer<'static>> {
    let value: Value = serde_json::from_slice(body).ok()?;
    if is_request(body) {
        let id = value.get("id").map(Value::to_string);
        let method = value["method"].as_str().map(str::to_owned);
        Some((accept_language_from_value(&value).into_owned(), id, method))
    } else {
        Some((content_language_from_value(&value).into_owned(), None, None))
    }
}

/// The bodies here are requests when they have a `method`.
fn is_request(body: &[u8]) -> bool {
    body.windows(9).any(|w| w == b"\"method\":")
}

/// The timed (and counted) operations: each reads what the HTTP layer needs, without
/// copying it (the answers are compared once, outside, by [`check_answers`]).
type Implementation = fn(&[u8]) -> usize;
const IMPLEMENTATIONS: [(&str, Implementation); 7] = [
    ("mcp-lang", |body| {
        if is_request_fast(body) {
            let skim = skim_request(body).expect("valid body");
            black_box(skim.id());
            black_box(skim.method());
            skim.accept_language().as_str().map_or(0, str::len)
        } else {
            let raw = extract_content_language(body).expect("valid body");
            raw.as_str().map_or(0, str::len)
        }
    }),
    ("serde_json-typed", |body| {
        if is_request_fast(body) {
            let read = typed_meta::read_request(body).expect("valid body");
            black_box(read.id);
            black_box(&read.method);
            read.accept_language.as_str().map_or(0, str::len)
        } else {
            let raw = typed_meta::read_content_language(body).expect("valid body");
            raw.as_str().map_or(0, str::len)
        }
    }),
    ("serde_json-typed-utf8", |body| {
        if is_request_fast(body) {
            let read = typed_meta::read_request_utf8(body).expect("valid body");
            black_box(read.id);
            black_box(&read.method);
            read.accept_language.as_str().map_or(0, str::len)
        } else {
            let raw = typed_meta::read_content_language_utf8(body).expect("valid body");
            raw.as_str().map_or(0, str::len)
        }
    }),
    ("serde_json-typed-validating", |body| {
        if is_request_fast(body) {
            let read = typed_meta::read_request_validating(body).expect("valid body");
            black_box(read.id);
            black_box(&read.method);
            read.accept_language.as_str().map_or(0, str::len)
        } else {
            let raw = typed_meta::read_content_language_validating(body).expect("valid body");
            raw.as_str().map_or(0, str::len)
        }
    }),
    ("serde_json-value", |body| {
        let value: Value = serde_json::from_slice(body).expect("valid body");
        if is_request_fast(body) {
            black_box(value.get("id"));
            black_box(value["method"].as_str());
            accept_language_from_value(&value)
                .as_str()
                .map_or(0, str::len)
        } else {
            content_language_from_value(&value)
                .as_str()
                .map_or(0, str::len)
        }
    }),
    ("simd_json-borrowed", |body| {
        let mut copy = body.to_vec();
        let value = simd_json::to_borrowed_value(&mut copy).expect("valid body");
        if is_request_fast(body) {
            black_box(value.get("id"));
            black_box(value.get_str("method"));
        }
        simd_language(&value, is_request_fast(body))
            .and_then(|v| v.as_str())
            .map_or(0, str::len)
    }),
    ("sonic_rs-value", |body| {
        let value: sonic_rs::Value = sonic_rs::from_slice(body).expect("valid body");
        if is_request_fast(body) {
            black_box(value.get("id"));
            black_box(value.get("method").and_then(|m| m.as_str()));
        }
        sonic_language(&value, is_request_fast(body))
            .and_then(|v| v.as_str())
            .map_or(0, str::len)
    }),
];

/// The language value of a parsed message, found as the layer finds it: the request's
/// preference, or the response's `contentLanguage` (`result._meta`, else
/// `error.data._meta`, else `params._meta`); `get` reads a member of an object.
fn find_language<'v, V>(
    value: &'v V,
    request: bool,
    get: impl Fn(&'v V, &str) -> Option<&'v V>,
) -> Option<&'v V> {
    let (container, key) = if request {
        (get(value, "params"), ACCEPT_LANGUAGE_KEY)
    } else if let Some(result) = get(value, "result") {
        (Some(result), CONTENT_LANGUAGE_KEY)
    } else if let Some(error) = get(value, "error") {
        (get(error, "data"), CONTENT_LANGUAGE_KEY)
    } else {
        (get(value, "params"), CONTENT_LANGUAGE_KEY)
    };
    get(get(container?, "_meta")?, key)
}

/// [`find_language`] in a message parsed by simd-json.
fn simd_language<'v>(
    value: &'v simd_json::BorrowedValue<'v>,
    request: bool,
) -> Option<&'v simd_json::BorrowedValue<'v>> {
    find_language(value, request, |object, member| object.get(member))
}

/// [`find_language`] in a message parsed by sonic-rs.
fn sonic_language(value: &sonic_rs::Value, request: bool) -> Option<&sonic_rs::Value> {
    find_language(value, request, |object, member| object.get(member))
}

/// A language value found by a peer, as a [`RawPreference`].
fn raw_preference(found: Option<Option<&str>>) -> RawPreference<'static> {
    match found {
        Some(Some(text)) => RawPreference::String(text.to_owned().into()),
        Some(None) => RawPreference::NotString,
        None => RawPreference::Absent,
    }
}

fn simd_borrowed(body: &[u8]) -> Option<Answer<'static>> {
    let mut copy = body.to_vec();
    let value = simd_json::to_borrowed_value(&mut copy).ok()?;
    let request = is_request(body);
    let language = raw_preference(simd_language(&value, request).map(|v| v.as_str()));
    if request {
        let id = value.get("id").map(|id| id.encode());
        let method = value.get_str("method").map(str::to_owned);
        Some((language, id, method))
    } else {
        Some((language, None, None))
    }
}

fn sonic_value(body: &[u8]) -> Option<Answer<'static>> {
    let value: sonic_rs::Value = sonic_rs::from_slice(body).ok()?;
    let request = is_request(body);
    let language = raw_preference(sonic_language(&value, request).map(|v| v.as_str()));
    if request {
        let id = value.get("id").and_then(|id| sonic_rs::to_string(id).ok());
        let method = value
            .get("method")
            .and_then(|m| m.as_str())
            .map(str::to_owned);
        Some((language, id, method))
    } else {
        Some((language, None, None))
    }
}

/// Which read a body gets, decided without scanning it (the bodies here start with
/// `{"jsonrpc":"2.0","id":N,` and then `"method"` or `"result"`).
fn is_request_fast(body: &[u8]) -> bool {
    let method: &[u8] = b"\"method\"";
    body.get(24..32) == Some(method) || body.get(25..33) == Some(method)
}

/// The bodies, by name.
fn bodies() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("tools-call-1k", tools_call(1024)),
        ("tools-call-64k", tools_call(64 * 1024)),
        ("response-1k", response(1024)),
        ("layer-request-1k", layer_bodies::request_1k().into_bytes()),
        ("layer-response", layer_bodies::RESPONSE.as_bytes().to_vec()),
    ]
}

/// Every implementation gives the same answers on every body, or the run stops; then the
/// allocations per read of each are printed.
fn check_answers(bodies: &[(&str, Vec<u8>)]) {
    let reads: [(&str, Read); 7] = [
        ("mcp-lang", skim),
        ("serde_json-typed", typed),
        ("serde_json-typed-utf8", typed_utf8),
        ("serde_json-typed-validating", typed_validating),
        ("serde_json-value", value),
        ("simd_json-borrowed", simd_borrowed),
        ("sonic_rs-value", sonic_value),
    ];
    for (name, body) in bodies {
        assert_eq!(is_request(body), is_request_fast(body), "{name}");
        let ours = skim(body).expect("valid body");
        assert!(ours.0.as_str().is_some(), "{name}: no language value");
        for (id, read) in reads {
            assert_eq!(read(body).as_ref(), Some(&ours), "{name}: {id} differs");
        }
        let counts: Vec<String> = IMPLEMENTATIONS
            .iter()
            .map(|(id, run)| format!("{id} {}", ALLOC.count(|| black_box(run(body))).0))
            .collect();
        println!(
            "allocations per read, meta-extract/{name} ({} bytes): {}",
            body.len(),
            counts.join(", ")
        );
    }
}

fn bench(c: &mut Criterion, bodies: &[(&str, Vec<u8>)]) {
    check_answers(bodies);
    for (name, body) in bodies {
        let mut group = c.benchmark_group(format!("meta-extract/{name}"));
        group.throughput(Throughput::Bytes(body.len() as u64));
        for (id, run) in IMPLEMENTATIONS {
            group.bench_function(id, |b| b.iter(|| run(black_box(body))));
        }
        group.finish();
    }
}

fn operations<'a>(bodies: &'a [(&str, Vec<u8>)]) -> Vec<Operation<'a>> {
    let mut operations = Vec::new();
    for (name, body) in bodies {
        for (id, run) in IMPLEMENTATIONS {
            operations.push(Operation::new(
                format!("meta-extract/{name}/{id}"),
                Some(body.len()),
                move || run(black_box(body)),
            ));
        }
    }
    operations
}

fn main() {
    let bodies = bodies();
    if callgrind::hook(|| operations(&bodies)) {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &bodies);
    c.final_summary();
}
