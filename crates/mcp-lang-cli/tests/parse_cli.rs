//! `mcp-lang parse`, run as a process: output, caret placement, exit status.

use std::process::{Command, Output};

fn mcp_lang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn well_formed_accept_language_is_listed() {
    let out = mcp_lang(&["parse", "fr-CA,fr;q=0.9,en;q=0.5"]);
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "well-formed Accept-Language, 3 ranges in header order:\n  fr-CA  q=1\n  fr     q=0.9\n  en     q=0.5\n"
    );
}

#[test]
fn malformed_value_shows_a_caret_under_the_offset() {
    for (value, offset) in [
        ("en;q=0.1234", 10),
        ("en-US,fr;q=2", 11),
        ("de-*-DE", 3),
        ("en ", 3),
        ("", usize::MAX),
    ] {
        let out = mcp_lang(&["parse", value]);
        if offset == usize::MAX {
            assert!(out.status.success(), "the empty value is well-formed");
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "{value:?}");
        let err = text(&out.stderr);
        let lines: Vec<&str> = err.lines().collect();
        assert!(
            lines[0].starts_with(&format!(
                "malformed Accept-Language: at byte {}: expected ",
                offset + 1
            )),
            "{err}"
        );
        assert_eq!(lines[1], format!("  {value}"));
        assert_eq!(lines[2].find('^'), Some(2 + offset), "{err}");
        assert!(lines[2][..2 + offset].bytes().all(|b| b == b' '));
    }
}

#[test]
fn tag_and_content_language_and_extended() {
    let out = mcp_lang(&["parse", "--tag", "de-419-DE"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "malformed language tag: at byte 10: expected subtag\n  de-419-DE\n           ^\n"
    );

    let out = mcp_lang(&["parse", "--content-language", "mi, en"]);
    assert_eq!(
        text(&out.stdout),
        "well-formed Content-Language, 2 tags:\n  mi\n  en\n"
    );

    let out = mcp_lang(&["parse", "--extended", "de-*-DE"]);
    assert_eq!(
        text(&out.stdout),
        "well-formed extended language range; subtags: de, *, DE\n"
    );

    let out = mcp_lang(&["parse", "--tag", "--content-language", "en"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "the grammar flags exclude each other"
    );
}

#[test]
fn json_output_is_the_oracle_answer() {
    let out = mcp_lang(&["parse", "--json", "fr-CA,fr;q=0.9"]);
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "{\"ranges\":[[\"fr-CA\",1000],[\"fr\",900]],\"valid\":true}\n"
    );

    let out = mcp_lang(&["parse", "--json", "--tag", "-en"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "{\"expected\":\"language tag\",\"offset\":0,\"valid\":false}\n"
    );
}
