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
//! | `negotiate --supported TAGS --default TAG [--json] [VALUE]` | the supported language a server picks, and why |
//! | `agree (--meta VALUE\|--no-meta) [--line LINE]… [--json]` | whether a `_meta` value and HTTP field lines agree exactly |
//! | `serve --stdio` / `serve --http ADDR` | the SEP-2792 reference server (stdio, or Streamable HTTP at `/mcp`) |
//! | `demo` | the SEP walked through against the reference server, in the terminal |
//! | `conformance [--url URL\|--stdio CMD] [--format table\|json\|junit]` | the SEP-2792 conformance suite against a server (default: the embedded reference server); `--self-test` checks every injected fault is caught |
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
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse a value and print it, or the error with a caret under the offset.
    Parse(parse::ParseArgs),
    /// Batch mode for comparing implementations (see testdata/README.md).
    Match(jsonl::MatchArgs),
    /// Pick the supported language for a preference, and say why (RFC 4647, D4).
    Negotiate(negotiate::NegotiateArgs),
    /// Check that a `_meta` value and HTTP field lines agree exactly (SEP-2792, D5).
    Agree(agree::AgreeArgs),
    /// Run the SEP-2792 reference server over stdio or Streamable HTTP.
    Serve(serve::ServeArgs),
    /// Walk through SEP-2792 against the reference server, in the terminal.
    Demo(demo::DemoArgs),
    /// Run the SEP-2792 conformance suite against a server (default: the reference server).
    Conformance(conformance::ConformanceArgs),
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
