//! The `agree` op of `mcp-lang match --jsonl` through the real binary: the `meta` forms
//! the protocol allows (a string, `null` or missing for an absent key, any other JSON
//! value for a key that is present but not a string), and bad requests answered with an
//! error while the batch goes on. (The full case list is `testdata/agree/`, run by
//! `jsonl_testdata.rs`.)

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// Sends `requests` to one `mcp-lang match --jsonl` process; returns its answers.
fn oracle(requests: &[Value]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
        .args(["match", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mcp-lang runs");
    let mut stdin = child.stdin.take().expect("stdin");
    for request in requests {
        writeln!(stdin, "{request}").expect("write a request");
    }
    drop(stdin);
    let out = child.wait_with_output().expect("mcp-lang exits");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each answer is JSON"))
        .collect()
}

#[test]
fn every_form_of_meta_gets_its_agreement() {
    let cases = [
        (
            json!({"op": "agree", "meta": "en-US", "lines": ["en-us"]}),
            "mismatch",
        ),
        (
            json!({"op": "agree", "meta": "en", "lines": ["  en\t"]}),
            "agree",
        ),
        (
            json!({"op": "agree", "meta": "en-US, en;q=0.9", "lines": ["en-US", "en;q=0.9"]}),
            "agree",
        ),
        (
            json!({"op": "agree", "meta": "en", "lines": []}),
            "header-absent",
        ),
        (
            json!({"op": "agree", "meta": null, "lines": ["en"]}),
            "bare-header",
        ),
        (json!({"op": "agree", "lines": ["en"]}), "bare-header"),
        (json!({"op": "agree", "lines": []}), "header-absent"),
        (
            json!({"op": "agree", "meta": 42, "lines": ["42"]}),
            "mismatch",
        ),
        (
            json!({"op": "agree", "meta": ["en"], "lines": ["en"]}),
            "mismatch",
        ),
        (
            json!({"op": "agree", "meta": {"v": "en"}, "lines": ["en"]}),
            "mismatch",
        ),
        (
            json!({"op": "agree", "meta": true, "lines": []}),
            "header-absent",
        ),
        // Agreement before grammar: malformed but equal agrees.
        (
            json!({"op": "agree", "meta": "en;q=2", "lines": ["en;q=2"]}),
            "agree",
        ),
    ];
    let requests: Vec<Value> = cases.iter().map(|(r, _)| r.clone()).collect();
    let answers = oracle(&requests);
    assert_eq!(answers.len(), cases.len());
    for ((request, expected), answer) in cases.iter().zip(&answers) {
        assert_eq!(answer, &json!({"agreement": expected}), "{request}");
    }
}

#[test]
fn a_request_without_string_lines_is_an_error_and_the_batch_goes_on() {
    let answers = oracle(&[
        json!({"op": "agree", "meta": "en"}),
        json!({"op": "agree", "meta": "en", "lines": "en"}),
        json!({"op": "agree", "meta": "en", "lines": ["en", 7]}),
        json!({"op": "agree", "meta": "en", "lines": ["en"]}),
    ]);
    assert_eq!(answers.len(), 4);
    for answer in &answers[..3] {
        assert!(answer["error"].is_string(), "{answer}");
        assert!(answer.get("agreement").is_none(), "{answer}");
    }
    assert_eq!(answers[3], json!({"agreement": "agree"}));
}
