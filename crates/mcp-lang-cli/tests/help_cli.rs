//! Every `--help` stands alone: it has an example, explains itself in words
//! (no decision ids), and names no file an installed binary does not have.

use std::process::Command;

const SUBCOMMANDS: [&str; 7] = [
    "parse",
    "match",
    "negotiate",
    "agree",
    "serve",
    "demo",
    "conformance",
];

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// A decision id such as `D4` or `D4a`: a `D`, digits, at a word's start.
fn decision_id(text: &str) -> Option<&str> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .find(|word| {
            word.strip_prefix('D').is_some_and(|rest| {
                rest.starts_with(|c: char| c.is_ascii_digit())
                    && rest
                        .trim_end_matches(|c: char| c.is_ascii_lowercase())
                        .bytes()
                        .all(|b| b.is_ascii_digit())
            })
        })
}

#[test]
fn every_subcommand_help_has_an_example_and_stands_alone() {
    for name in SUBCOMMANDS {
        let text = help(&[name]);
        assert!(
            text.contains("Example"),
            "{name} --help has no example:\n{text}"
        );
        assert!(
            text.contains(&format!("mcp-lang {name}")),
            "{name}:\n{text}"
        );
        assert_eq!(decision_id(&text), None, "{name}:\n{text}");
        for file in ["testdata", "README", ".md", "docs/"] {
            assert!(
                !text.contains(file),
                "{name} --help points at {file}:\n{text}"
            );
        }
    }
    let top = help(&[]);
    assert_eq!(decision_id(&top), None, "{top}");
    assert!(!top.contains("testdata"), "{top}");
}

#[test]
fn the_decision_id_finder_finds_them() {
    assert_eq!(decision_id("RFC 4647, D4)"), Some("D4"));
    assert_eq!(decision_id("order (D4a)"), Some("D4a"));
    assert_eq!(decision_id("DELETE and Default"), None);
}

#[test]
fn serve_help_documents_rust_log_and_the_address_forms() {
    let text = help(&["serve"]);
    assert!(text.contains("RUST_LOG"), "{text}");
    assert!(text.contains("info,rmcp=warn"), "{text}");
    assert!(text.contains("--http 8080"), "{text}");
}

#[test]
fn match_help_lists_every_op() {
    let text = help(&["match"]);
    for op in mcp_lang_cli::jsonl::OP_TABLES
        .iter()
        .flat_map(|table| table.iter())
        .map(|(op, _)| *op)
    {
        assert!(
            text.contains(&format!("\n  {op} ")),
            "op {op} missing:\n{text}"
        );
    }
}
