//! Runs every case of `testdata/agree/*.json` (op `agree`, format in testdata/README.md)
//! through [`mcp_lang_agree::agree`].

use std::collections::HashSet;
use std::path::PathBuf;

use mcp_lang_agree::{MetaValue, agree};
use serde_json::Value;

fn agree_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/agree")
}

/// The `meta` field of the protocol: null = absent, a string, anything else = not a string.
fn meta_value(v: &Value) -> MetaValue<'_> {
    match v {
        Value::Null => MetaValue::Absent,
        Value::String(s) => MetaValue::String(s),
        _ => MetaValue::NotString,
    }
}

#[test]
fn every_testdata_agree_case_gives_the_expected_answer() {
    let mut files: Vec<_> = std::fs::read_dir(agree_dir())
        .expect("testdata/agree exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no testdata/agree/*.json files");

    let mut total = 0;
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable file");
        let doc: Value = serde_json::from_str(&text).expect("valid JSON");
        assert!(
            doc["about"].is_string(),
            "{}: missing `about`",
            file.display()
        );
        let cases = doc["cases"].as_array().expect("`cases` array");
        assert!(!cases.is_empty(), "{}: no cases", file.display());
        let mut names = HashSet::new();
        for case in cases {
            let name = case["name"].as_str().expect("case name");
            assert!(
                names.insert(name),
                "{}: duplicate name {name}",
                file.display()
            );
            let request = &case["request"];
            assert_eq!(request["op"], "agree", "{name}: op");
            let lines: Vec<&[u8]> = request["lines"]
                .as_array()
                .expect("`lines` array")
                .iter()
                .map(|l| l.as_str().expect("line is a string").as_bytes())
                .collect();
            let answer = agree(meta_value(&request["meta"]), lines.iter().copied());
            let got = serde_json::json!({ "agreement": answer.as_str() });
            if got != case["response"] {
                failures.push(format!(
                    "{}: {name}: expected {}, got {got}",
                    file.display(),
                    case["response"]
                ));
            }
            total += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(total >= 50, "expected the full case set, ran {total}");
}
