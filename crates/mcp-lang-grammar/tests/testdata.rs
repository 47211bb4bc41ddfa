//! Runs the language-neutral cases of `testdata/grammar/*.json` against the
//! parsers directly (the CLI's test runs the same files through the binary).

use std::path::PathBuf;

use mcp_lang_grammar::{AcceptLanguage, ContentLanguage, LanguageTag, ParseError};
use serde_json::{Value, json};

fn error(e: ParseError) -> Value {
    json!({ "valid": false, "offset": e.offset(), "expected": e.expected().as_str() })
}

fn answer(request: &Value) -> Value {
    let text = |key: &str| {
        request[key]
            .as_str()
            .unwrap_or_else(|| panic!("request without string {key:?}: {request}"))
    };
    match request["op"].as_str() {
        Some("parse") => match AcceptLanguage::parse(text("header")) {
            Ok(v) => {
                let ranges: Vec<Value> = v
                    .iter()
                    .map(|w| json!([w.range.as_str(), w.quality.get()]))
                    .collect();
                json!({ "valid": true, "ranges": ranges })
            }
            Err(e) => error(e),
        },
        Some("content-language") => match ContentLanguage::parse(text("value")) {
            Ok(v) => {
                json!({ "valid": true, "tags": v.iter().map(|t| t.as_str()).collect::<Vec<_>>() })
            }
            Err(e) => error(e),
        },
        Some("tag") => match LanguageTag::parse(text("value")) {
            Ok(_) => json!({ "valid": true }),
            Err(e) => error(e),
        },
        other => panic!("grammar testdata with op {other:?}"),
    }
}

fn testdata_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/grammar")
}

/// Every case of every file, with its file and name.
pub fn cases() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(testdata_dir())
        .expect("testdata/grammar")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for case in file["cases"].as_array().expect("cases") {
            out.push((
                format!("{name}: {}", case["name"].as_str().unwrap()),
                case.clone(),
            ));
        }
    }
    out
}

#[test]
fn grammar_testdata() {
    let cases = cases();
    assert!(cases.len() > 200, "only {} cases found", cases.len());
    let mut failures = Vec::new();
    for (name, case) in &cases {
        let got = answer(&case["request"]);
        if got != case["response"] {
            failures.push(format!(
                "{name}\n  request:  {}\n  expected: {}\n  got:      {got}",
                case["request"], case["response"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The offset rule, checked on the data: every proper prefix of a
/// well-formed value is either well-formed or fails exactly at its end.
#[test]
fn prefixes_of_valid_values_fail_at_their_end() {
    for (name, case) in cases() {
        if case["response"]["valid"] != json!(true) {
            continue;
        }
        let request = &case["request"];
        let value = request["header"]
            .as_str()
            .or(request["value"].as_str())
            .unwrap();
        if value.len() > 256 {
            continue; // the hostile cases: quadratic in this test, not in the parser
        }
        for cut in 0..value.len() {
            let Some(prefix) = value.get(..cut) else {
                continue;
            };
            let mut req = request.clone();
            let key = if req.get("header").is_some() {
                "header"
            } else {
                "value"
            };
            req[key] = json!(prefix);
            let got = answer(&req);
            if got["valid"] == json!(false) {
                assert_eq!(
                    got["offset"],
                    json!(prefix.len()),
                    "{name}: prefix {prefix:?}"
                );
            }
        }
    }
}
