//! Parsing and iterating allocate nothing, on typical and hostile input.

use std::fmt::Write;

use mcp_lang_grammar::{
    AcceptLanguage, ContentLanguage, ExtendedRange, LanguageTag, Quality, serialize,
};
use mcp_lang_testkit::CountingAllocator;

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::new();

/// Parses, then walks every range, summing what it sees so nothing is optimized away.
fn parse_and_iterate(value: &str) -> (usize, u64) {
    match AcceptLanguage::parse(value) {
        Ok(v) => v.iter().fold((0, 0), |(n, q), w| {
            (n + w.range.as_str().len(), q + u64::from(w.quality.get()))
        }),
        Err(e) => (e.offset(), 0),
    }
}

/// The same in one pass: every range read while the value is validated.
fn one_pass(value: &[u8]) -> (usize, u64) {
    let mut ranges = AcceptLanguage::validating_bytes(value);
    let seen = ranges.by_ref().fold((0, 0), |(n, q), w| {
        (n + w.range.as_str().len(), q + u64::from(w.quality.get()))
    });
    match ranges.finish() {
        Ok(_) => seen,
        Err(e) => (e.offset(), 0),
    }
}

/// A `fmt::Write` into a fixed array.
struct Fixed {
    buf: [u8; 256],
    len: usize,
}

impl Write for Fixed {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.buf
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[test]
fn accept_language_parse_and_iterate_allocate_nothing() {
    let hostile_commas = ",".repeat(64 * 1024);
    let hostile_ranges = "en-US;q=0.5, ".repeat(64 * 1024 / 13);
    let hostile_bad = format!("{}x", "en ".repeat(20_000));
    for value in [
        "fr-CA,fr;q=0.9,en;q=0.5",
        "en-US,en;q=0.9,fr-FR;q=0.8,fr;q=0.7,de-DE;q=0.6,de;q=0.5,es-ES;q=0.4,es;q=0.3,it;q=0.2,ja;q=0.1,zh-CN;q=0.05,*;q=0.01",
        "",
        "en;q=0.1234",
        hostile_commas.as_str(),
        hostile_ranges.as_str(),
        hostile_bad.as_str(),
    ] {
        let (allocations, seen) = ALLOC.count(|| parse_and_iterate(value));
        assert_eq!(allocations, 0, "{} bytes", value.len());
        std::hint::black_box(seen);
        let (allocations, seen_once) = ALLOC.count(|| one_pass(value.as_bytes()));
        assert_eq!(allocations, 0, "one pass, {} bytes", value.len());
        assert_eq!(seen_once, seen);
    }
}

#[test]
fn other_parsers_allocate_nothing() {
    let (allocations, ()) = ALLOC.count(|| {
        let cl = ContentLanguage::parse("mi, en-US, zh-min-nan, i-klingon").unwrap();
        for tag in cl.iter() {
            std::hint::black_box((
                tag.kind(),
                tag.language(),
                tag.script(),
                tag.region(),
                tag.variants(),
            ));
        }
        let tag = LanguageTag::parse("zh-yue-Hant-HK-1901-u-co-pinyin-x-mine").unwrap();
        std::hint::black_box((
            tag.extlangs(),
            tag.extensions(),
            tag.private_use(),
            tag.subtags().count(),
        ));
        std::hint::black_box(LanguageTag::parse("de-419-DE").unwrap_err());
        std::hint::black_box(ExtendedRange::parse("de-*-DE").unwrap().subtags().count());
        std::hint::black_box(Quality::parse("0.125").unwrap());
    });
    assert_eq!(allocations, 0);
}

#[test]
fn serializing_into_a_fixed_buffer_allocates_nothing() {
    let value = AcceptLanguage::parse("fr-CA , fr;q=0.900, en;Q=0.5,*;q=0").unwrap();
    let mut out = Fixed {
        buf: [0; 256],
        len: 0,
    };
    let (allocations, result) =
        ALLOC.count(|| write!(out, "{}", serialize::serialize(value.iter())));
    result.unwrap();
    assert_eq!(allocations, 0);
    assert_eq!(
        std::str::from_utf8(&out.buf[..out.len]).unwrap(),
        "fr-CA,fr;q=0.9,en;q=0.5,*;q=0"
    );
}
