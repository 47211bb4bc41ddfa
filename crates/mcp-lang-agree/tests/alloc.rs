//! Agreement does not allocate, however many field lines (the hot path of every request).

use mcp_lang_agree::{Agreement, MetaValue, agree};
use mcp_lang_testkit::CountingAllocator;

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator::new();

#[test]
fn agree_with_several_lines_allocates_nothing() {
    let lines: Vec<&[u8]> = vec![b" fr-CA", b"fr;q=0.9 ", b"\ten;q=0.5", b"*;q=0.1"];
    let meta = String::from("fr-CA, fr;q=0.9, en;q=0.5, *;q=0.1");
    let (n, answer) = ALLOC.count(|| agree(MetaValue::String(&meta), lines.iter().copied()));
    assert_eq!(answer, Agreement::Agree);
    assert_eq!(n, 0);

    let (n, answer) = ALLOC.count(|| {
        agree(
            MetaValue::String("fr-CA, fr;q=0.9, en;q=0.5, *;q=0.2"),
            lines.iter().copied(),
        )
    });
    assert!(answer.is_mismatch());
    assert_eq!(n, 0);

    let (n, answer) = ALLOC.count(|| agree(MetaValue::Absent, lines.iter().copied()));
    assert_eq!(answer, Agreement::BareHeader);
    assert_eq!(n, 0);
}

#[test]
fn agree_with_one_long_line_allocates_nothing() {
    let repeated = "en;q=0.5, ".repeat(6000);
    let value = repeated.trim_end();
    let (n, answer) = ALLOC.count(|| agree(MetaValue::String(value), [value.as_bytes()]));
    assert_eq!(answer, Agreement::Agree);
    assert_eq!(n, 0);
}
