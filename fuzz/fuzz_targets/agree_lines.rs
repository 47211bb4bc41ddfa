//! Agreement on arbitrary inputs: never panics, and equals the obvious model
//! (trim SP/HTAB around each line, join with ", ", compare bytes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_lang_agree::{Agreement, JoinedLines, MetaValue, agree, trim_field_line};

fuzz_target!(|data: &[u8]| {
    // Layout: first byte picks the _meta kind; the rest is split on 0x00 into the _meta
    // string (first part, lossily made UTF-8) and the field lines.
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    let mut parts = rest.split(|&b| b == 0);
    let meta_text = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let lines: Vec<&[u8]> = parts.collect();
    let meta = match kind % 3 {
        0 => MetaValue::Absent,
        1 => MetaValue::String(&meta_text),
        _ => MetaValue::NotString,
    };
    let answer = agree(meta, lines.iter().copied());

    let mut joined = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if i > 0 {
            joined.extend_from_slice(b", ");
        }
        joined.extend_from_slice(trim_field_line(l));
    }
    let expected = match meta {
        _ if lines.is_empty() => "header-absent",
        MetaValue::Absent => "bare-header",
        MetaValue::NotString => "mismatch",
        MetaValue::String(s) if s.as_bytes() == joined => "agree",
        MetaValue::String(_) => "mismatch",
    };
    assert_eq!(answer.as_str(), expected);
    if let Agreement::Mismatch(m) = answer {
        if let Some(offset) = m.offset() {
            let common = meta_text
                .bytes()
                .zip(joined.iter())
                .take_while(|(a, b)| a == *b)
                .count();
            assert_eq!(offset, common);
        }
        let _ = m.to_string();
    }
    assert_eq!(JoinedLines::new(lines.iter().copied()).len(), joined.len());
});
