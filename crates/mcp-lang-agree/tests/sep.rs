//! One test per sentence of SEP-2792 that constrains agreement, named after it.
//! (The full edge-case list is data in testdata/agree/, run by `testdata.rs`.)

use mcp_lang_agree::{Agreement, MetaValue, agree};

fn lines<'a>(ls: &'a [&'a str]) -> impl Iterator<Item = &'a [u8]> {
    ls.iter().map(|l| l.as_bytes())
}

#[test]
fn implementation_must_not_trim_case_fold_reorder_or_normalize_the_meta_string() {
    for (meta, line) in [
        (" en", "en"),
        ("en ", "en"),
        ("EN", "en"),
        ("fr, en", "en, fr"),
        ("en;q=1", "en"),
    ] {
        assert!(
            agree(MetaValue::String(meta), lines(&[line])).is_mismatch(),
            "{meta:?} vs {line:?}"
        );
    }
}

#[test]
fn optional_whitespace_surrounding_a_field_line_is_not_part_of_the_field_value() {
    for line in [" en", "en ", "  en ", "\ten\t", " \t en \t "] {
        assert_eq!(
            agree(MetaValue::String("en"), lines(&[line])),
            Agreement::Agree,
            "{line:?}"
        );
    }
}

#[test]
fn repeated_field_lines_join_in_received_order_with_comma_space() {
    let two = ["en-US", "en;q=0.9"];
    assert_eq!(
        agree(MetaValue::String("en-US, en;q=0.9"), lines(&two)),
        Agreement::Agree
    );
    assert!(agree(MetaValue::String("en;q=0.9, en-US"), lines(&two)).is_mismatch());
    assert!(agree(MetaValue::String("en-US,en;q=0.9"), lines(&two)).is_mismatch());
}

#[test]
fn a_complete_combined_field_value_is_used_directly() {
    assert_eq!(
        agree(
            MetaValue::String("en-US, en;q=0.9"),
            lines(&["en-US, en;q=0.9"])
        ),
        Agreement::Agree
    );
}

#[test]
fn implementations_must_not_parse_normalize_or_reserialize_either_value() {
    // Equivalent to HTTP, different as strings.
    for (meta, line) in [
        ("en-US", "en-us"),
        ("en;q=0.9", "en;q=0.900"),
        ("en;q=0.5", "en;Q=0.5"),
        ("en-US,en", "en-US, en"),
    ] {
        assert!(
            agree(MetaValue::String(meta), lines(&[line])).is_mismatch(),
            "{meta:?} vs {line:?}"
        );
    }
}

#[test]
fn an_accessor_returning_only_the_first_value_is_not_sufficient() {
    // Passing all lines catches the conflicting second line that a first-value accessor hides.
    assert_eq!(
        agree(MetaValue::String("en"), lines(&["en"])),
        Agreement::Agree
    );
    assert!(agree(MetaValue::String("en"), lines(&["en", "fr"])).is_mismatch());
}

#[test]
fn server_may_tolerate_a_missing_or_stripped_accept_language_header() {
    assert_eq!(
        agree(MetaValue::String("en-US"), lines(&[])),
        Agreement::HeaderAbsent
    );
}

#[test]
fn if_both_are_present_and_do_not_agree_the_server_must_reject() {
    let answer = agree(MetaValue::String("fr"), lines(&["de"]));
    let m = answer.mismatch().expect("a mismatch");
    assert_eq!(m.meta(), MetaValue::String("fr"));
    assert_eq!(m.line(), b"de");
}

#[test]
fn a_bare_header_without_the_canonical_meta_field_does_not_create_a_preference() {
    assert_eq!(
        agree(MetaValue::Absent, lines(&["de"])),
        Agreement::BareHeader
    );
    assert_eq!(
        agree(MetaValue::Absent, lines(&["de", "fr"])),
        Agreement::BareHeader
    );
}

#[test]
fn agreement_is_evaluated_before_grammar_validation() {
    // Malformed but agreeing: agreement (the value is then ignored as malformed).
    assert_eq!(
        agree(MetaValue::String("en;q=2"), lines(&["en;q=2"])),
        Agreement::Agree
    );
    assert_eq!(agree(MetaValue::String(""), lines(&[""])), Agreement::Agree);
    // Well-formed but disagreeing: mismatch.
    assert!(agree(MetaValue::String("en"), lines(&["fr"])).is_mismatch());
}

#[test]
fn a_present_http_mirror_has_to_agree_exactly_whether_or_not_either_value_is_well_formed() {
    assert!(agree(MetaValue::String("en;q=2"), lines(&["en"])).is_mismatch());
    assert!(agree(MetaValue::String("en"), lines(&["en;q=2"])).is_mismatch());
    assert!(agree(MetaValue::String("en;q=2"), lines(&["en;q=3"])).is_mismatch());
}

#[test]
fn a_meta_value_that_is_not_a_string_beside_a_present_header_does_not_agree() {
    let answer = agree(MetaValue::NotString, lines(&["en"]));
    let m = answer.mismatch().expect("a mismatch (D5)");
    assert_eq!(m.offset(), None);
    assert_eq!(
        m.to_string(),
        r#"_meta value is not a string, so it cannot agree with field line 1 "en""#
    );
    assert_eq!(
        agree(MetaValue::NotString, lines(&[])),
        Agreement::HeaderAbsent
    );
}

#[test]
fn if_a_client_receives_both_content_language_values_and_they_do_not_agree_the_response_is_malformed()
 {
    assert!(agree(MetaValue::String("fr-CA"), lines(&["fr-ca"])).is_mismatch());
    assert!(agree(MetaValue::String("de"), lines(&["de", "de"])).is_mismatch());
    assert_eq!(
        agree(MetaValue::String("de, en"), lines(&["de", "en"])),
        Agreement::Agree
    );
}

#[test]
fn mismatch_message_shows_both_values() {
    let m = *agree(
        MetaValue::String("en-US, en;q=0.8"),
        lines(&["en-US", " en;q=0.9 "]),
    )
    .mismatch()
    .unwrap();
    assert_eq!(
        m.to_string(),
        r#"_meta value "en-US, en;q=0.8" does not agree with field line 2 "en;q=0.9" (first difference at byte 15)"#
    );
    let raw: [&[u8]; 1] = [b"fr-\xffCA"];
    let m = *agree(MetaValue::String("fr-CA"), raw).mismatch().unwrap();
    assert_eq!(
        m.to_string(),
        r#"_meta value "fr-CA" does not agree with field line 1 "fr-\xFFCA" (first difference at byte 4)"#
    );
}

/// SEP-2792 Conformance, item 7, sentence by sentence.
#[test]
fn conformance_item_7_exact_agreement_edge_cases() {
    // "Exact agreement edge cases, each of which MUST NOT agree: `en-US` and `en-us`;
    // `en-US,en;q=0.9` and `en-US, en;q=0.9`; `en;q=0.9` and `en;q=0.900`." In both
    // directions: either value may be the `_meta` one.
    for (a, b) in [
        ("en-US", "en-us"),
        ("en-US,en;q=0.9", "en-US, en;q=0.9"),
        ("en;q=0.9", "en;q=0.900"),
    ] {
        assert!(
            agree(MetaValue::String(a), lines(&[b])).is_mismatch(),
            "{a:?} vs {b:?}"
        );
        assert!(
            agree(MetaValue::String(b), lines(&[a])).is_mismatch(),
            "{b:?} vs {a:?}"
        );
    }
    // "A field line `Accept-Language:  en ` and a `_meta` value of `en` MUST agree,
    // because the surrounding whitespace is not part of the field value."
    assert_eq!(
        agree(MetaValue::String("en"), lines(&[" en "])),
        Agreement::Agree
    );
    // "Two field lines valued `en-US` and `en;q=0.9` combine to `en-US, en;q=0.9` and MUST
    // agree with exactly that `_meta` value."
    let two = ["en-US", "en;q=0.9"];
    assert_eq!(
        agree(MetaValue::String("en-US, en;q=0.9"), lines(&two)),
        Agreement::Agree
    );
    for other in [
        "en-US,en;q=0.9",
        "en-US,  en;q=0.9",
        "en;q=0.9, en-US",
        "en-US",
    ] {
        assert!(
            agree(MetaValue::String(other), lines(&two)).is_mismatch(),
            "{other:?}"
        );
    }
}
