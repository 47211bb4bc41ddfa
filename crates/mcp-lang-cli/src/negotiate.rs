//! `mcp-lang negotiate`: which supported language a server picks for a
//! preference, and why (`mcp-lang-match`'s `Negotiator`: RFC 4647 matching
//! where the best quality wins and ties go to the supported list's order).
//!
//! ```text
//! $ mcp-lang negotiate --supported 'en, fr, fr-CA' 'fr-BE, en;q=0.5'
//! fr (q=1): truncated: a range, shortened by RFC 4647 lookup, reached the tag
//! ```
//!
//! `--supported` takes a comma-separated list (spaces around the commas are
//! fine); `--default` defaults to its first tag. Without a value the
//! preference is absent. A malformed value is not an
//! error: like a server, the command answers with the default (reason
//! `malformed`). `--json` prints the `negotiate` answer of `mcp-lang match
//! --jsonl`. Exit status 2 when the supported list or the default is not made
//! of language tags; the message numbers the supported tags from 1.
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
use mcp_lang_grammar::ParseError;
use mcp_lang_match::{BuildError, Negotiator, Reason, SupportedTag};

use crate::jsonl::matching::negotiation;

/// Arguments of `mcp-lang negotiate`.
#[derive(Debug, Args)]
pub struct NegotiateArgs {
    /// The server's supported tags, best first, comma-separated ('en, fr' or en,fr).
    #[arg(long, value_name = "TAGS", value_delimiter = ',', value_parser = crate::list_item, required = true)]
    pub supported: Vec<String>,
    /// The server's default tag [default: the first supported tag].
    #[arg(long, value_name = "TAG", value_parser = crate::list_item)]
    pub default: Option<String>,
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
pub fn report<T: SupportedTag>(server: &Negotiator<T>, value: Option<&str>) -> String {
    let chosen = server.negotiate_header(value);
    let q = chosen.quality().get();
    let q = if q == 1000 {
        "1".to_owned()
    } else {
        format!("{}", f64::from(q) / 1000.0)
    };
    format!(
        "{} (q={q}): {}: {}\n",
        chosen.tag().as_ref(),
        chosen.reason(),
        explain(chosen.reason())
    )
}

/// A build error for people: supported tags numbered from 1, values quoted as
/// given.
///
/// ```
/// use mcp_lang_cli::negotiate::build_error;
/// use mcp_lang_match::Negotiator;
///
/// let error = Negotiator::new(["en", "fr_FR"], "en").unwrap_err();
/// assert_eq!(build_error(&error), "supported tag 2 \"fr_FR\" is not a language tag: at byte 3: expected '-' or end of tag");
/// let error = Negotiator::new(["en", "EN"], "en").unwrap_err();
/// assert_eq!(build_error(&error), "supported tag 2 \"EN\" repeats tag 1");
/// ```
pub fn build_error(error: &BuildError) -> String {
    let at = |e: &ParseError| {
        format!(
            "at byte {}: expected {}",
            e.offset() + 1,
            e.expected().as_str()
        )
    };
    match error {
        BuildError::InvalidTag { index, tag, error } => format!(
            "supported tag {} \"{tag}\" is not a language tag: {}",
            index + 1,
            at(error)
        ),
        BuildError::InvalidDefault { tag, error } => {
            format!("default \"{tag}\" is not a language tag: {}", at(error))
        }
        BuildError::DuplicateTag { first, second, tag } => format!(
            "supported tag {} \"{tag}\" repeats tag {}",
            second + 1,
            first + 1
        ),
        other => other.to_string(),
    }
}

/// Runs `mcp-lang negotiate`.
pub fn run(args: &NegotiateArgs) -> ExitCode {
    let default = match (&args.default, args.supported.first()) {
        (Some(default), _) | (None, Some(default)) => default,
        (None, None) => {
            eprintln!(
                "mcp-lang negotiate: --supported needs at least one tag, e.g. --supported en,fr"
            );
            return ExitCode::from(2);
        }
    };
    let server = match Negotiator::new(args.supported.iter().map(String::as_str), default.as_str())
    {
        Ok(server) => server,
        Err(e) => {
            eprintln!("mcp-lang negotiate: {}", build_error(&e));
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
