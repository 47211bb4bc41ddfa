//! `mcp-lang negotiate`, run as a process: forgiving lists, the default
//! default, and messages that number supported tags from 1.

use std::process::Command;

fn negotiate(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
        .arg("negotiate")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn spaces_around_commas_are_forgiven() {
    let spaced = negotiate(&["--supported", "en, fr , fr-CA", "--default", " en", "fr-BE"]);
    let tight = negotiate(&["--supported", "en,fr,fr-CA", "--default", "en", "fr-BE"]);
    assert_eq!(spaced, tight);
    assert_eq!(spaced.0, 0);
    assert!(spaced.1.starts_with("fr (q=1): truncated"), "{spaced:?}");
}

#[test]
fn the_default_is_the_first_supported_tag_unless_given() {
    let (code, out, _) = negotiate(&["--supported", "de, en", "ja"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("de (q=0): default"), "{out}");
    let (_, out, _) = negotiate(&["--supported", "de, en", "--default", "en", "ja"]);
    assert!(out.starts_with("en (q=0): default"), "{out}");
}

#[test]
fn a_bad_list_is_refused_with_positions_from_1() {
    let (code, _, err) = negotiate(&["--supported", "en, fr_FR", "fr"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "mcp-lang negotiate: supported tag 2 \"fr_FR\" is not a language tag: at byte 3"
        ),
        "{err}"
    );
    let (code, _, err) = negotiate(&["--supported", "en, fr, EN", "fr"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "mcp-lang negotiate: supported tag 3 \"EN\" repeats tag 1\n"
    );
    let (code, _, err) = negotiate(&["--supported", "en,,fr", "fr"]);
    assert_eq!(code, 2);
    assert!(err.contains("an empty item"), "{err}");
}
