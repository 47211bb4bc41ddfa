//! `mcp-lang match --jsonl`: the test oracle.
//!
//! One JSON object per input line, one JSON object per output line, in order
//! (the protocol is specified in the repository's `testdata/README.md`). Each
//! request names an `op`; the answer is that op's response object. A line that
//! is not JSON, is not an object, has no string `op`, or names an op nobody
//! registered is answered with `{"error": "…"}`, and the batch goes on. Output
//! is flushed after every line, so a driver can talk to the process
//! interactively.
//!
//! # Adding ops
//!
//! Each module of ops exports a table `OPS: &[(&str, Op)]`; [`OP_TABLES`]
//! lists the tables. To add a module: write `src/jsonl/NAME.rs` with its
//! `pub(crate) const OPS`, declare `mod NAME;` below, and add `NAME::OPS` to
//! [`OP_TABLES`].
//!
//! ```
//! use mcp_lang_cli::jsonl::answer_line;
//!
//! assert_eq!(answer_line(br#"{"op":"tag","value":"en-GB-oed"}"#).to_string(), r#"{"valid":true}"#);
//! assert_eq!(answer_line(b"not json")["error"].as_str().unwrap().split(':').next(), Some("not JSON"));
//! assert_eq!(answer_line(br#"{"op":"nope"}"#).to_string(), r#"{"error":"unknown op \"nope\""}"#);
//! ```

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::Args;
use serde_json::{Value, json};

pub mod agree;
pub mod grammar;
pub mod matching;

/// An op: the request object in, the response object out.
pub type Op = fn(&Value) -> Value;

/// Every registered op table, searched in order. Register new modules here.
pub const OP_TABLES: &[&[(&str, Op)]] = &[grammar::OPS, matching::OPS, agree::OPS];

/// Arguments of `mcp-lang match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Read JSON requests from stdin, one per line; answer one per line on stdout.
    #[arg(long, required = true)]
    pub jsonl: bool,
}

/// The op registered under `name`, if any.
///
/// ```
/// use mcp_lang_cli::jsonl::find_op;
/// assert!(find_op("parse").is_some());
/// assert!(find_op("no-such-op").is_none());
/// ```
pub fn find_op(name: &str) -> Option<Op> {
    OP_TABLES
        .iter()
        .flat_map(|table| table.iter())
        .find(|(op, _)| *op == name)
        .map(|&(_, f)| f)
}

/// Answers one request line (without its line terminator).
///
/// ```
/// use mcp_lang_cli::jsonl::answer_line;
/// let answer = answer_line(br#"{"op":"content-language","value":"mi, en"}"#);
/// assert_eq!(answer.to_string(), r#"{"tags":["mi","en"],"valid":true}"#);
/// ```
pub fn answer_line(line: &[u8]) -> Value {
    let request: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return error(format!("not JSON: {e}")),
    };
    let Some(op) = request.get("op") else {
        return error("request has no \"op\"".to_owned());
    };
    let Some(name) = op.as_str() else {
        return error(format!("\"op\" is not a string: {op}"));
    };
    match find_op(name) {
        Some(f) => f(&request),
        None => error(format!("unknown op {op}")),
    }
}

/// An `{"error": …}` answer.
///
/// ```
/// assert_eq!(mcp_lang_cli::jsonl::error("bad".into()).to_string(), r#"{"error":"bad"}"#);
/// ```
pub fn error(message: String) -> Value {
    json!({ "error": message })
}

/// A required string field of a request, or the error answer to give.
///
/// ```
/// use mcp_lang_cli::jsonl::string_field;
/// use serde_json::json;
///
/// assert_eq!(string_field(&json!({"value": "en"}), "value"), Ok("en"));
/// assert!(string_field(&json!({"value": 1}), "value").is_err());
/// ```
pub fn string_field<'r>(request: &'r Value, key: &str) -> Result<&'r str, Value> {
    request
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| error(format!("request needs a string \"{key}\"")))
}

/// Answers every line of `input` on `output`, flushing after each answer.
///
/// ```
/// use mcp_lang_cli::jsonl::serve;
///
/// let mut out = Vec::new();
/// serve(&b"{\"op\":\"tag\",\"value\":\"x\"}\n[]\n"[..], &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines[0], r#"{"expected":"private-use subtag","offset":1,"valid":false}"#);
/// assert!(lines[1].starts_with(r#"{"error":"#));
/// ```
pub fn serve(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let request = line.strip_suffix(b"\n").unwrap_or(&line);
        let request = request.strip_suffix(b"\r").unwrap_or(request);
        writeln!(output, "{}", answer_line(request))?;
        output.flush()?;
    }
}

/// Runs `mcp-lang match --jsonl` on stdin and stdout.
pub fn run(_args: &MatchArgs) -> ExitCode {
    match serve(io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-lang match: {e}");
            ExitCode::FAILURE
        }
    }
}
