//! `mcp-lang agree`: do a `_meta` language value and the HTTP field lines that mirror it
//! agree exactly (SEP-2792 "Exact field value agreement")?
//!
//! ```text
//! $ mcp-lang agree --meta 'en-US, en;q=0.9' --line 'en-US' --line 'en;q=0.9'
//! agree: the field lines combine to "en-US, en;q=0.9", equal to the _meta value
//! $ mcp-lang agree --meta 'en-US' --line 'en-us'
//! mismatch: _meta value "en-US" does not agree with field line 1 "en-us" (first difference at byte 4)
//! ```
//!
//! Give the `_meta` value with `--meta`, or say it is absent with `--no-meta`; give each
//! field line, in received order, with `--line` (none: the header is absent). The same
//! check serves `Accept-Language` and `Content-Language`. `--json` prints the `agree`
//! answer of `mcp-lang match --jsonl`. Exit status 1 on a mismatch (a server answers it
//! with 400 and HeaderMismatch, -32020), 0 otherwise. Field lines and bytes are numbered
//! from 1 (the JSON answer has no positions).
//!
//! ```
//! use mcp_lang_agree::{agree, MetaValue};
//! use mcp_lang_cli::agree::report;
//!
//! let lines: [&[u8]; 1] = [b"  en "];
//! assert_eq!(
//!     report(&agree(MetaValue::String("en"), lines), &lines),
//!     "agree: the field value is \"en\", equal to the _meta value\n"
//! );
//! ```

use std::process::ExitCode;

use clap::Args;
use mcp_lang_agree::{Agreement, JoinedLines, MetaValue, Mismatch, agree};

use crate::jsonl::agree::answer;

/// Arguments of `mcp-lang agree`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("meta-value").required(true).args(["meta", "no_meta"]))]
pub struct AgreeArgs {
    /// The decoded `_meta` string (acceptLanguage or contentLanguage), untouched.
    #[arg(long, allow_hyphen_values = true)]
    pub meta: Option<String>,
    /// The `_meta` key is absent.
    #[arg(long)]
    pub no_meta: bool,
    /// One HTTP field line value, as received (repeat for each line, in order).
    #[arg(long = "line", allow_hyphen_values = true)]
    pub lines: Vec<String>,
    /// Print the JSON answer of `mcp-lang match --jsonl` instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The human-readable report of one agreement.
pub fn report(agreement: &Agreement<'_>, lines: &[&[u8]]) -> String {
    let joined = JoinedLines::new(lines.iter().copied());
    match agreement {
        Agreement::Agree if lines.len() > 1 => {
            format!("agree: the field lines combine to \"{joined}\", equal to the _meta value\n")
        }
        Agreement::Agree => {
            format!("agree: the field value is \"{joined}\", equal to the _meta value\n")
        }
        Agreement::Mismatch(m) if lines.len() > 1 => {
            format!(
                "mismatch: {}; the field lines combine to \"{joined}\"\n",
                mismatch(m)
            )
        }
        Agreement::Mismatch(m) => format!("mismatch: {}\n", mismatch(m)),
        Agreement::HeaderAbsent => "header-absent: no field line; a server may use the _meta \
             value alone (a missing or stripped header is tolerated)\n"
            .to_owned(),
        Agreement::BareHeader => "bare-header: no _meta value; the header alone creates no MCP \
             preference\n"
            .to_owned(),
    }
}

/// A mismatch for people: the field line and the byte numbered from 1, each
/// value quoted as given (unprintable bytes escaped).
fn mismatch(m: &Mismatch<'_>) -> String {
    let line = JoinedLines::new(std::iter::once(m.line()));
    match (m.meta(), m.offset()) {
        (MetaValue::String(meta), Some(offset)) => format!(
            "_meta value \"{}\" does not agree with field line {} \"{line}\" (first difference at byte {})",
            meta.escape_debug(),
            m.line_number(),
            offset + 1
        ),
        _ => format!(
            "_meta value is not a string, so it cannot agree with field line {} \"{line}\"",
            m.line_number()
        ),
    }
}

/// Runs `mcp-lang agree`.
pub fn run(args: &AgreeArgs) -> ExitCode {
    let meta = match (&args.meta, args.no_meta) {
        (Some(s), false) => MetaValue::String(s),
        _ => MetaValue::Absent,
    };
    let lines: Vec<&[u8]> = args.lines.iter().map(|l| l.as_bytes()).collect();
    let agreement = agree(meta, lines.iter().copied());
    if args.json {
        println!("{}", answer(&agreement));
    } else {
        print!("{}", report(&agreement, &lines));
    }
    if agreement.is_mismatch() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
