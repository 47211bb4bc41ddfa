//! Properties of agreement that hold for any input.

use mcp_lang_agree::{Agreement, JoinedLines, MetaValue, agree, trim_field_line};
use proptest::prelude::*;

/// The obviously-correct model: build the joined value, compare strings.
fn model(meta: &str, lines: &[Vec<u8>]) -> bool {
    let mut joined = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if i > 0 {
            joined.extend_from_slice(b", ");
        }
        joined.extend_from_slice(trim_field_line(l));
    }
    joined == meta.as_bytes()
}

fn field_char() -> impl Strategy<Value = u8> {
    prop_oneof![
        Just(b' '),
        Just(b'\t'),
        Just(b','),
        Just(b';'),
        Just(b'e'),
        Just(b'n'),
        Just(b'-'),
        any::<u8>()
    ]
}

proptest! {
    #[test]
    fn agreement_is_reflexive_for_any_single_line_without_surrounding_whitespace(s in "\\PC*") {
        let s = s.trim_matches([' ', '\t']);
        prop_assert_eq!(agree(MetaValue::String(s), [s.as_bytes()]), Agreement::Agree);
    }

    #[test]
    fn agreement_ignores_added_surrounding_ows(s in "[a-zA-Z0-9;=,.* -]*", pre in "[ \t]{0,3}", post in "[ \t]{0,3}") {
        let s = s.trim_matches(' ');
        let line = format!("{pre}{s}{post}");
        prop_assert_eq!(agree(MetaValue::String(s), [line.as_bytes()]), Agreement::Agree);
    }

    #[test]
    fn agree_equals_the_join_then_compare_model(
        meta in "[ \tenfr,;q=0.9-]{0,16}",
        lines in proptest::collection::vec(proptest::collection::vec(field_char(), 0..8), 1..4),
    ) {
        let answer = agree(MetaValue::String(&meta), lines.iter().map(Vec::as_slice));
        prop_assert_eq!(answer == Agreement::Agree, model(&meta, &lines));
        prop_assert!(matches!(answer, Agreement::Agree | Agreement::Mismatch(_)));
    }

    #[test]
    fn the_joined_lines_of_any_input_agree_with_themselves(
        lines in proptest::collection::vec("[ \ta-zA-Z;=.,-]{0,10}", 1..5),
    ) {
        let raw: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        let joined = JoinedLines::new(raw.iter().copied()).to_string();
        prop_assert_eq!(joined.len(), JoinedLines::new(raw.iter().copied()).len());
        prop_assert_eq!(agree(MetaValue::String(&joined), raw.iter().copied()), Agreement::Agree);
    }

    #[test]
    fn a_mismatch_offset_is_where_meta_and_the_joined_value_first_differ(
        meta in "[enfr, ;q=.0-9]{0,12}",
        lines in proptest::collection::vec("[enfr, ;q=.0-9]{0,6}", 1..4),
    ) {
        let raw: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        let joined = JoinedLines::new(raw.iter().copied()).to_string();
        if let Agreement::Mismatch(m) = agree(MetaValue::String(&meta), raw.iter().copied()) {
            let expected = meta.bytes().zip(joined.bytes()).take_while(|(a, b)| a == b).count();
            prop_assert_eq!(m.offset(), Some(expected));
            prop_assert_ne!(&meta, &joined);
        } else {
            prop_assert_eq!(&meta, &joined);
        }
    }

    #[test]
    fn no_lines_is_always_header_absent_and_no_meta_is_bare_or_absent(
        lines in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..6), 0..4),
    ) {
        let answer = agree(MetaValue::Absent, lines.iter().map(Vec::as_slice));
        let expected = if lines.is_empty() { Agreement::HeaderAbsent } else { Agreement::BareHeader };
        prop_assert_eq!(answer, expected);
    }
}
