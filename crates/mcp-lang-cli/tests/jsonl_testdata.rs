//! Feeds every case of every `testdata/**/*.json` file through the real
//! `mcp-lang match --jsonl` binary and compares each answer as JSON.
//!
//! All files run, whatever their op: a case whose op is not registered gets
//! `{"error":"unknown op …"}`, which differs from its expected response, so
//! the test fails until the op exists and answers correctly.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// Runs one file's requests through one `mcp-lang match --jsonl` process.
/// `mcp-lang match --jsonl` with piped stdin and stdout.
fn spawn_batch() -> Child {
    Command::new(env!("CARGO_BIN_EXE_mcp-lang"))
        .args(["match", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

fn run_file(path: &Path) -> Vec<String> {
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = file["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("{}: no cases", path.display()));
    let mut child = spawn_batch();
    let mut stdin = child.stdin.take().unwrap();
    let requests: Vec<String> = cases
        .iter()
        .map(|c| serde_json::to_string(&c["request"]).unwrap())
        .collect();
    let writer = std::thread::spawn(move || {
        for r in requests {
            writeln!(stdin, "{r}").unwrap();
        }
    });
    let answers: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(
        answers.len(),
        cases.len(),
        "{}: one answer per request",
        path.display()
    );
    let mut failures = Vec::new();
    for (case, answer) in cases.iter().zip(&answers) {
        let got: Value = serde_json::from_str(answer).unwrap();
        if got != case["response"] {
            failures.push(format!(
                "{}: {}\n  request:  {}\n  expected: {}\n  got:      {got}",
                path.display(),
                case["name"],
                case["request"],
                case["response"]
            ));
        }
    }
    failures
}

#[test]
fn every_testdata_case_through_the_binary() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut files = Vec::new();
    json_files(&root, &mut files);
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("grammar/accept_language.json"))
    );
    let failures: Vec<String> = files.iter().flat_map(|f| run_file(f)).collect();
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn bad_lines_get_an_error_and_the_batch_goes_on() {
    let mut child = spawn_batch();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"{\"op\":\"frobnicate\"}\nnot json\n\xff\xfe\n{\"header\":\"en\"}\n[1]\n{\"op\":\"parse\"}\n{\"op\":\"parse\",\"header\":\"en\"}\r\n")
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7);
    for line in &lines[..6] {
        assert!(line["error"].is_string(), "{line}");
    }
    assert_eq!(lines[0]["error"], "unknown op \"frobnicate\"");
    assert_eq!(
        lines[6],
        serde_json::json!({"valid": true, "ranges": [["en", 1000]]})
    );
}

#[test]
fn answers_are_flushed_line_by_line() {
    let mut child = spawn_batch();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for value in ["en", "x-", "i-klingon"] {
        writeln!(stdin, "{{\"op\":\"tag\",\"value\":\"{value}\"}}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap(); // would block forever without a flush
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(answer["valid"], value != "x-");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
