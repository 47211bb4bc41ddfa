//! `mcp-lang agree` through the real binary: human output, `--json`, exit status.

use std::process::Command;

fn agree(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
        .arg("agree")
        .args(args)
        .output()
        .expect("mcp-lang runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8"),
    )
}

#[test]
fn case_differences_are_a_mismatch_with_exit_status_1() {
    let (code, out) = agree(&["--meta", "en-US", "--line", "en-us"]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "mismatch: _meta value \"en-US\" does not agree with field line 1 \"en-us\" (first difference at byte 4)\n"
    );
}

#[test]
fn two_lines_combine_with_comma_space() {
    let (code, out) = agree(&[
        "--meta",
        "en-US, en;q=0.9",
        "--line",
        "en-US",
        "--line",
        "  en;q=0.9\t",
    ]);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "agree: the field lines combine to \"en-US, en;q=0.9\", equal to the _meta value\n"
        )
    );
}

#[test]
fn json_output_is_the_oracle_answer() {
    for (args, expected) in [
        (
            &["--meta", "en", "--line", " en ", "--json"][..],
            r#"{"agreement":"agree"}"#,
        ),
        (
            &["--meta", "en;q=0.9", "--line", "en;q=0.900", "--json"][..],
            r#"{"agreement":"mismatch"}"#,
        ),
        (
            &["--meta", "en", "--json"][..],
            r#"{"agreement":"header-absent"}"#,
        ),
        (
            &["--no-meta", "--line", "en", "--json"][..],
            r#"{"agreement":"bare-header"}"#,
        ),
    ] {
        let (_, out) = agree(args);
        assert_eq!(out.trim_end(), expected, "{args:?}");
    }
}

#[test]
fn header_absent_and_bare_header_are_explained() {
    let (code, out) = agree(&["--meta", "fr"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("header-absent: "), "{out}");
    let (code, out) = agree(&["--no-meta", "--line", "fr"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("bare-header: "), "{out}");
}

#[test]
fn meta_or_no_meta_is_required_and_exclusive() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
        .args(["agree", "--line", "en"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
        .args(["agree", "--meta", "en", "--no-meta"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
