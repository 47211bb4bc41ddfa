//! Runs the language-neutral cases of `testdata/match/*.json` against the
//! crate's API, answering each request exactly as `mcp-lang match --jsonl`
//! must (see `testdata/README.md`).

use std::path::PathBuf;

use mcp_lang_grammar::{AcceptLanguage, ExtendedRange};
use mcp_lang_match::{Negotiator, basic, extended, lookup};
use serde_json::{Value, json};

fn strings(v: &Value, field: &str) -> Vec<String> {
    v[field]
        .as_array()
        .unwrap_or_else(|| panic!("`{field}` must be an array"))
        .iter()
        .map(|s| s.as_str().expect("strings only").to_owned())
        .collect()
}

fn header_error(e: mcp_lang_grammar::ParseError) -> Value {
    json!({
        "error": format!("malformed Accept-Language: expected {}", e.expected().as_str()),
        "offset": e.offset(),
    })
}

/// The answer to one request line.
fn answer(request: &Value) -> Value {
    match request["op"].as_str() {
        Some("filter") => {
            let tags = strings(request, "tags");
            match AcceptLanguage::parse(request["header"].as_str().expect("header")) {
                Err(e) => header_error(e),
                Ok(h) => {
                    let out: Vec<&str> = basic::filter(&h, &tags).iter().map(|f| f.tag()).collect();
                    json!({ "tags": out })
                }
            }
        }
        Some("xfilter") => {
            let tags = strings(request, "tags");
            let raw = strings(request, "ranges");
            let mut ranges = Vec::new();
            for (i, r) in raw.iter().enumerate() {
                match ExtendedRange::parse(r) {
                    Ok(r) => ranges.push(r),
                    Err(e) => {
                        return json!({
                            "error": format!("malformed extended language range {i}: expected {}", e.expected().as_str()),
                            "offset": e.offset(),
                        });
                    }
                }
            }
            json!({ "tags": extended::filter(&ranges, &tags) })
        }
        Some("lookup") => {
            let tags = strings(request, "tags");
            let default = request["default"].as_str();
            match AcceptLanguage::parse(request["header"].as_str().expect("header")) {
                Err(e) => header_error(e),
                Ok(h) => json!({ "tag": lookup::lookup(&h, &tags, default) }),
            }
        }
        Some("negotiate") => {
            let supported = strings(request, "supported");
            let default = request["default"].as_str().expect("default");
            match Negotiator::new(supported.iter().map(String::as_str), default) {
                Err(e) => json!({ "error": e.to_string() }),
                Ok(n) => {
                    let chosen = n.negotiate_header(request["header"].as_str());
                    json!({
                        "selected": chosen.tag(),
                        "q": chosen.quality().get(),
                        "reason": chosen.reason().as_str(),
                    })
                }
            }
        }
        other => panic!("not a matching op: {other:?}"),
    }
}

#[test]
fn testdata_match() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/match");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testdata/match exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    let mut total = 0;
    for file in &files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        assert!(
            doc["about"].is_string(),
            "{}: `about` missing",
            file.display()
        );
        for case in doc["cases"].as_array().expect("cases") {
            total += 1;
            let got = answer(&case["request"]);
            if got != case["response"] {
                failures.push(format!(
                    "{} / {}: request {}\n  expected {}\n  got      {}",
                    file.file_name().unwrap().to_string_lossy(),
                    case["name"],
                    case["request"],
                    case["response"],
                    got
                ));
            }
        }
    }
    assert!(total > 90, "only {total} cases");
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
