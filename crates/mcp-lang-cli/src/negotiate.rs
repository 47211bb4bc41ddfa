//! `mcp-lang negotiate`: which supported language a server picks for a
//! preference, and why (`mcp-lang-match`'s `Negotiator`, decision D4).
//!
//! ```text
//! $ mcp-lang negotiate --supported en,fr,fr-CA --default en 'fr-BE, en;q=0.5'
//! fr (q=1): truncated: a range, shortened by RFC 4647 lookup, reached the tag
//! ```
//!
//! Without a value the preference is absent. A malformed value is not an
//! error: like a server, the command answers with the default (reason
//! `malformed`). `--json` prints the `negotiate` answer of `mcp-lang match
//! --jsonl`. Exit status 2 when the supported list or the default is not made
//! of language tags.
//!
//! ```
//! use mcp_lang_cli::negotiate::report;
//! use mcp_lang_match::Negotiator;
//!
//! let server = Negotiator::new(["en", "fr", "fr-CA"], "en").unwrap();
//! assert_eq!(
//!     report(&server, Some("fr-BE, en;q=0.5")),
//!     "fr (q=1): truncated: a range, shortened by RFC 4647 lookup, reached the tag\n"
//! );
//! ```

use std::process::ExitCode;

use clap::Args;
use mcp_lang_match::{Negotiator, Reason};

use crate::jsonl::matching::negotiation;

/// Arguments of `mcp-lang negotiate`.
#[derive(Debug, Args)]
pub struct NegotiateArgs {
    /// The server's supported tags, best first, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub supported: Vec<String>,
    /// The server's default tag.
    #[arg(long)]
    pub default: String,
    /// Print the JSON answer of `mcp-lang match --jsonl` instead of text.
    #[arg(long)]
    pub json: bool,
    /// The preference (an Accept-Language value); absent when omitted.
    #[arg(allow_hyphen_values = true)]
    pub value: Option<String>,
}

/// What a reason means, for people.
fn explain(reason: Reason) -> &'static str {
    match reason {
        Reason::Exact => "a range equal to the tag decided",
        Reason::MoreSpecific => "a range the tag extends decided",
        Reason::Truncated => "a range, shortened by RFC 4647 lookup, reached the tag",
        Reason::Wildcard => "only `*` accepted the tag",
        Reason::Default => "no supported tag was acceptable, so the default",
        Reason::Malformed => "the value is malformed, so it is ignored (the default)",
        Reason::Absent => "no preference, so the default",
        _ => "",
    }
}

/// The human-readable line for one preference.
pub fn report(server: &Negotiator, value: Option<&str>) -> String {
    let chosen = server.negotiate_header(value);
    let q = chosen.quality().get();
    let q = if q == 1000 {
        "1".to_owned()
    } else {
        format!("{}", f64::from(q) / 1000.0)
    };
    format!(
        "{} (q={q}): {}: {}\n",
        chosen.tag(),
        chosen.reason(),
        explain(chosen.reason())
    )
}

/// Runs `mcp-lang negotiate`.
pub fn run(args: &NegotiateArgs) -> ExitCode {
    let server = match Negotiator::new(&args.supported, &args.default) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("mcp-lang negotiate: {e}");
            return ExitCode::from(2);
        }
    };
    let value = args.value.as_deref();
    if args.json {
        println!("{}", negotiation(&server, value));
    } else {
        print!("{}", report(&server, value));
    }
    ExitCode::SUCCESS
}
