//! The `mcp-lang` command-line tool, as a library.
//!
//! The binary `mcp-lang` is a thin `main` over [`main`]: it parses the command
//! line with clap and runs one subcommand. The library exists so that the
//! pieces (the human and JSON renderings of a parse, the JSONL oracle) can be
//! tested and reused without spawning a process. Use the binary; depend on
//! this crate only to embed the oracle in another tool.
//!
//! | subcommand | what it does |
//! |------------|--------------|
//! | `parse [--content-language\|--tag\|--extended] [--json] VALUE` | checks a value against its grammar (default `Accept-Language`) |
//! | `negotiate --supported TAGS [--default TAG] [--json] [VALUE]` | the supported language a server picks, and why |
//! | `agree (--meta VALUE\|--no-meta) [--line LINE]… [--json]` | whether a `_meta` value and HTTP field lines agree exactly |
//! | `serve --stdio` / `serve --http ADDR` | the SEP-2792 reference server (stdio, or Streamable HTTP at `/mcp`) |
//! | `demo` | the SEP walked through against the reference server, in the terminal |
//! | `conformance [--url URL] [--stdio CMD] [--format table\|json\|junit]` | the SEP-2792 conformance suite against a server over one transport or both (default: the reference server over both) |
//! | `match --jsonl` | the test oracle: JSON requests on stdin, one JSON answer per line on stdout |
//!
//! ```
//! use mcp_lang_cli::jsonl;
//!
//! let answer = jsonl::answer_line(br#"{"op":"parse","header":"fr-CA,fr;q=0.9"}"#);
//! assert_eq!(answer.to_string(), r#"{"ranges":[["fr-CA",1000],["fr",900]],"valid":true}"#);
//! ```

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod agree;
pub mod conformance;
pub mod demo;
pub mod jsonl;
pub mod negotiate;
pub mod parse;
pub mod serve;

/// `mcp-lang`: language preferences for MCP (SEP-2792), from the command line.
#[derive(Debug, Parser)]
#[command(name = "mcp-lang", version, about, propagate_version = true)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. To add one: a variant here, its module, and an arm in [`run`].
///
/// Every subcommand's `--help` ends with examples. Positions in what the
/// commands print for people count from 1 (the first supported tag, field line
/// or byte is number 1); the JSON answers (`--json`, `match --jsonl`) keep the
/// test data's 0-based byte `offset`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse a value and print it, or the error with a caret under the offset.
    #[command(after_help = PARSE_EXAMPLES)]
    Parse(parse::ParseArgs),
    /// Answer JSON requests on stdin, one per line, to compare another implementation with this one.
    #[command(after_help = MATCH_EXAMPLES)]
    Match(jsonl::MatchArgs),
    /// Pick the supported language for a preference, and say why (RFC 4647 matching).
    #[command(after_help = NEGOTIATE_EXAMPLES)]
    Negotiate(negotiate::NegotiateArgs),
    /// Check that a `_meta` value and the HTTP field lines that mirror it are the same text.
    #[command(after_help = AGREE_EXAMPLES)]
    Agree(agree::AgreeArgs),
    /// Run the SEP-2792 reference server over stdio or Streamable HTTP.
    #[command(after_help = SERVE_EXAMPLES)]
    Serve(serve::ServeArgs),
    /// Walk through SEP-2792 against the reference server, in the terminal.
    #[command(after_help = DEMO_EXAMPLES)]
    Demo(demo::DemoArgs),
    /// Run the SEP-2792 conformance suite against a server (default: the reference server).
    #[command(after_help = conformance::AFTER_HELP)]
    Conformance(conformance::ConformanceArgs),
}

const PARSE_EXAMPLES: &str = "\
Examples:
  mcp-lang parse 'fr-CA,fr;q=0.9,en;q=0.5'    the ranges in header order, with their weights
  mcp-lang parse 'en;q=2'                      malformed: the error, a caret under byte 6 (exit 1)
  mcp-lang parse --tag zh-Hant-TW              the subtags of one language tag
  mcp-lang parse --content-language 'mi, en' --json

Byte positions count from 1; the --json answer keeps a 0-based \"offset\".";

const MATCH_EXAMPLES: &str = "\
Each input line is a JSON object with an \"op\"; each output line is the answer, in order,
flushed at once. A line that is not JSON or names an unknown op is answered {\"error\": \"...\"}
and the batch goes on.

  op                request fields                              answer
  parse             header (an Accept-Language value)           {\"valid\":true,\"ranges\":[[range,q],...]}
  content-language  value                                       {\"valid\":true,\"tags\":[...]}
  tag               value (one language tag)                    {\"valid\":true}
  extended          value (one extended language range)         {\"valid\":true}
  filter            header, tags                                {\"tags\":[...]}  (RFC 4647 basic filtering)
  xfilter           ranges (extended ranges), tags              {\"tags\":[...]}  (extended filtering)
  lookup            header, tags, default (string or null)      {\"tag\":...}     (RFC 4647 lookup)
  negotiate         header (string or null), supported, default {\"selected\":...,\"q\":N,\"reason\":...}
  agree             meta (string, null: absent), lines          {\"agreement\":\"agree\"|\"mismatch\"|...}

q is in thousandths (q=0.9 is 900). An invalid value is answered
{\"valid\":false,\"offset\":N,\"expected\":\"...\"}, N the 0-based byte where it stops being valid.

Example:
  $ printf '%s\\n' '{\"op\":\"parse\",\"header\":\"fr-CA,fr;q=0.9\"}' | mcp-lang match --jsonl
  {\"ranges\":[[\"fr-CA\",1000],[\"fr\",900]],\"valid\":true}";

const NEGOTIATE_EXAMPLES: &str = "\
Examples:
  $ mcp-lang negotiate --supported 'en, fr, fr-CA' 'fr-BE, en;q=0.5'
  fr (q=1): truncated: a range, shortened by RFC 4647 lookup, reached the tag
  $ mcp-lang negotiate --supported en,de --default de 'ja'
  de (q=0): default: no supported tag was acceptable, so the default

A malformed value is not an error: like a server, the command answers with the default.
Supported tags are numbered from 1 in messages.";

const AGREE_EXAMPLES: &str = "\
Examples:
  $ mcp-lang agree --meta 'en-US, en;q=0.9' --line 'en-US' --line 'en;q=0.9'
  agree: the field lines combine to \"en-US, en;q=0.9\", equal to the _meta value
  $ mcp-lang agree --meta 'en-US' --line 'en-us'
  mismatch: _meta value \"en-US\" does not agree with field line 1 \"en-us\" (first difference at byte 4)

Field lines and bytes count from 1. Exit status 1 on a mismatch (a server answers it with
HTTP 400 and JSON-RPC error -32020), 0 otherwise.";

const SERVE_EXAMPLES: &str = "\
Examples:
  mcp-lang serve --http 8080               Streamable HTTP at http://127.0.0.1:8080/mcp
  mcp-lang serve --http localhost:8080     the same
  mcp-lang serve --http 0.0.0.0:8080       every interface
  mcp-lang serve --stdio                   one client on stdin/stdout
  curl -s http://127.0.0.1:8080/mcp -H 'Content-Type: application/json' \\
    -H 'Accept: application/json, text/event-stream' -H 'Accept-Language: fr' \\
    -d '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",
         \"params\":{\"_meta\":{\"io.modelcontextprotocol/acceptLanguage\":\"fr\"}}}'

Logging (stderr): RUST_LOG sets what is shown, with tracing's filter syntax. The default,
info,rmcp=warn, prints one line per request (method, HTTP status, language chosen) and
every rejected request with both values; RUST_LOG=debug adds each negotiation and rmcp's
own messages; RUST_LOG=warn keeps only problems.";

const DEMO_EXAMPLES: &str = "\
Example:
  mcp-lang demo | less

It starts the reference server in this process (stdio, and HTTP on a free loopback port),
talks to it, and prints what comes back. Exit status 1 if a behaviour it shows does not hold.";

/// One item of a comma-separated list flag, such as `--supported 'en, fr'`:
/// the spaces and tabs around it are dropped; an empty item is refused.
///
/// ```
/// use mcp_lang_cli::list_item;
/// assert_eq!(list_item(" fr "), Ok("fr".to_owned()));
/// assert!(list_item(" ").is_err());
/// ```
///
/// # Errors
///
/// The item is empty (as in `en,,fr` or a trailing comma).
pub fn list_item(item: &str) -> Result<String, String> {
    let item = item.trim_matches([' ', '\t']);
    if item.is_empty() {
        return Err("an empty item: write the tags separated by commas, e.g. 'en, fr'".to_owned());
    }
    Ok(item.to_owned())
}

/// Runs one parsed command line.
///
/// ```
/// use clap::Parser;
/// use mcp_lang_cli::{Cli, run};
///
/// let cli = Cli::try_parse_from(["mcp-lang", "parse", "--tag", "en-US"]).unwrap();
/// assert_eq!(run(cli), std::process::ExitCode::SUCCESS);
/// ```
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Parse(args) => parse::run(&args),
        Command::Match(args) => jsonl::run(&args),
        Command::Negotiate(args) => negotiate::run(&args),
        Command::Agree(args) => agree::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Demo(args) => demo::run(&args),
        Command::Conformance(args) => conformance::run(&args),
    }
}

/// Parses `std::env::args` and runs the command: the binary's `main`.
pub fn main() -> ExitCode {
    run(Cli::parse())
}
