//! `mcp-lang parse`: check one value against its grammar and show the result.
//!
//! By default the value is an `Accept-Language` field value; `--content-language`,
//! `--tag` and `--extended` select the other grammars of `mcp-lang-grammar`.
//! A well-formed value is printed as a list (exit status 0); a malformed one
//! is reported on stderr with a caret under the byte where it stops being
//! well-formed (exit status 1); bytes are numbered from 1. `--json` prints the `mcp-lang match --jsonl`
//! answer for the same value instead.
//!
//! ```
//! use mcp_lang_cli::parse::{Grammar, report};
//!
//! let report = report(Grammar::AcceptLanguage, "en;q=0.1234");
//! assert!(!report.well_formed);
//! assert_eq!(report.text, "malformed Accept-Language: at byte 11: expected qvalue\n  en;q=0.1234\n            ^\n");
//! ```

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use clap::Args;
use mcp_lang_grammar::{
    AcceptLanguage, ContentLanguage, ExtendedRange, LanguageTag, ParseError, TagKind,
};

use crate::jsonl::grammar;

/// Arguments of `mcp-lang parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The value is a Content-Language field value (RFC 9110 §8.5).
    #[arg(long, conflicts_with_all = ["tag", "extended"])]
    pub content_language: bool,
    /// The value is one language tag (RFC 5646 §2.1).
    #[arg(long, conflicts_with = "extended")]
    pub tag: bool,
    /// The value is one extended language range (RFC 4647 §2.2).
    #[arg(long)]
    pub extended: bool,
    /// Print the JSON answer of `mcp-lang match --jsonl` instead of text.
    #[arg(long)]
    pub json: bool,
    /// The value to parse (Accept-Language unless another grammar is chosen).
    #[arg(allow_hyphen_values = true)]
    pub value: String,
}

impl ParseArgs {
    /// The grammar the flags select.
    ///
    /// ```
    /// use clap::Parser;
    /// use mcp_lang_cli::{Cli, Command, parse::Grammar};
    ///
    /// let cli = Cli::try_parse_from(["mcp-lang", "parse", "--tag", "en"]).unwrap();
    /// let Command::Parse(args) = cli.command else { unreachable!() };
    /// assert_eq!(args.grammar(), Grammar::Tag);
    /// ```
    pub fn grammar(&self) -> Grammar {
        if self.content_language {
            Grammar::ContentLanguage
        } else if self.tag {
            Grammar::Tag
        } else if self.extended {
            Grammar::ExtendedRange
        } else {
            Grammar::AcceptLanguage
        }
    }
}

/// Which grammar `mcp-lang parse` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grammar {
    /// `Accept-Language` (RFC 9110 §12.5.4), the default.
    AcceptLanguage,
    /// `Content-Language` (RFC 9110 §8.5).
    ContentLanguage,
    /// One language tag (RFC 5646 §2.1).
    Tag,
    /// One extended language range (RFC 4647 §2.2).
    ExtendedRange,
}

impl Grammar {
    /// The name used in messages.
    ///
    /// ```
    /// use mcp_lang_cli::parse::Grammar;
    /// assert_eq!(Grammar::Tag.name(), "language tag");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Grammar::AcceptLanguage => "Accept-Language",
            Grammar::ContentLanguage => "Content-Language",
            Grammar::Tag => "language tag",
            Grammar::ExtendedRange => "extended language range",
        }
    }
}

/// A rendered parse: the text to print and whether the value was well-formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Whether the value is well-formed.
    pub well_formed: bool,
    /// The text, ending in a newline.
    pub text: String,
}

/// Parses `value` with `grammar` and renders the human-readable report.
///
/// ```
/// use mcp_lang_cli::parse::{Grammar, report};
///
/// let r = report(Grammar::AcceptLanguage, "fr-CA,fr;q=0.9");
/// assert!(r.well_formed);
/// assert!(r.text.contains("  fr-CA  q=1\n  fr     q=0.9\n"));
/// ```
pub fn report(grammar: Grammar, value: &str) -> Report {
    let rendered = match grammar {
        Grammar::AcceptLanguage => AcceptLanguage::parse(value).map(|v| accept_language(&v)),
        Grammar::ContentLanguage => ContentLanguage::parse(value).map(|v| content_language(&v)),
        Grammar::Tag => LanguageTag::parse(value).map(|t| tag(&t)),
        Grammar::ExtendedRange => ExtendedRange::parse(value).map(|r| {
            format!(
                "well-formed extended language range; subtags: {}\n",
                r.subtags().collect::<Vec<_>>().join(", ")
            )
        }),
    };
    match rendered {
        Ok(text) => Report {
            well_formed: true,
            text,
        },
        Err(e) => Report {
            well_formed: false,
            text: malformed(grammar, value, e),
        },
    }
}

fn accept_language(value: &AcceptLanguage<'_>) -> String {
    if value.is_empty() {
        return "well-formed Accept-Language with no ranges: no preference\n".to_owned();
    }
    let width = value
        .iter()
        .map(|w| w.range.as_str().len())
        .max()
        .unwrap_or(0);
    let plural = if value.len() == 1 { "" } else { "s" };
    let mut out = format!(
        "well-formed Accept-Language, {} range{plural} in header order:\n",
        value.len()
    );
    for w in value.iter() {
        let _ = writeln!(out, "  {:width$}  q={}", w.range.as_str(), w.quality);
    }
    out
}

fn content_language(value: &ContentLanguage<'_>) -> String {
    let plural = if value.len() == 1 { "" } else { "s" };
    let mut out = format!(
        "well-formed Content-Language, {} tag{plural}:\n",
        value.len()
    );
    for t in value.iter() {
        let _ = writeln!(out, "  {}", t.as_str());
    }
    out
}

fn tag(t: &LanguageTag<'_>) -> String {
    let kind = match t.kind() {
        TagKind::LangTag => "langtag",
        TagKind::PrivateUse => "private use",
        TagKind::IrregularGrandfathered => "irregular grandfathered",
        TagKind::RegularGrandfathered => "regular grandfathered",
    };
    let mut out = format!("well-formed language tag ({kind})");
    for (name, part) in [
        ("language", t.language()),
        ("extlang", t.extlangs()),
        ("script", t.script()),
        ("region", t.region()),
        ("variant", t.variants()),
        ("extension", t.extensions()),
        ("private use", t.private_use()),
    ] {
        if let Some(part) = part {
            let _ = write!(out, "\n  {name}: {part}");
        }
    }
    out.push('\n');
    out
}

/// The error line, the value (escaped where not printable ASCII) and a caret
/// under the byte at the error's offset. The byte is numbered from 1, like
/// every position the CLI prints for people.
fn malformed(grammar: Grammar, value: &str, e: ParseError) -> String {
    let mut shown = String::new();
    let mut pad = String::new();
    for (at, c) in value.char_indices() {
        let piece: String = if c.is_ascii_graphic() || c == ' ' {
            c.to_string()
        } else {
            c.escape_default().collect()
        };
        if at < e.offset() {
            pad.extend(std::iter::repeat_n(' ', piece.chars().count()));
        }
        shown.push_str(&piece);
    }
    format!(
        "malformed {}: at byte {}: expected {}\n  {shown}\n  {pad}^\n",
        grammar.name(),
        e.offset() + 1,
        e.expected().as_str()
    )
}

/// Runs `mcp-lang parse`: exit status 0 when well-formed, 1 when malformed.
pub fn run(args: &ParseArgs) -> ExitCode {
    let grammar = args.grammar();
    if args.json {
        let answer = match grammar {
            Grammar::AcceptLanguage => grammar::accept_language(&args.value),
            Grammar::ContentLanguage => grammar::content_language(&args.value),
            Grammar::Tag => grammar::tag(&args.value),
            Grammar::ExtendedRange => grammar::extended_range(&args.value),
        };
        let valid = answer["valid"] == serde_json::Value::Bool(true);
        let _ = writeln!(std::io::stdout(), "{answer}");
        return if valid {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let report = report(grammar, &args.value);
    if report.well_formed {
        let _ = std::io::stdout().write_all(report.text.as_bytes());
        ExitCode::SUCCESS
    } else {
        let _ = std::io::stderr().write_all(report.text.as_bytes());
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_sits_under_the_offset() {
        let r = report(Grammar::AcceptLanguage, "fr-CA,fr;q=2");
        let lines: Vec<&str> = r.text.lines().collect();
        assert_eq!(
            lines[0],
            "malformed Accept-Language: at byte 12: expected qvalue"
        );
        assert_eq!(lines[1].find('2'), lines[2].find('^'));
    }

    #[test]
    fn caret_at_the_end_of_a_truncated_value() {
        let r = report(Grammar::AcceptLanguage, "en;q=");
        assert_eq!(r.text.lines().nth(2), Some("       ^"));
    }

    #[test]
    fn unprintable_bytes_are_escaped_and_the_caret_follows() {
        let r = report(Grammar::AcceptLanguage, "en,\tfr\u{7f}");
        let lines: Vec<&str> = r.text.lines().collect();
        assert_eq!(lines[1], "  en,\\tfr\\u{7f}");
        assert_eq!(lines[2], "         ^");
    }

    #[test]
    fn tag_components() {
        let r = report(Grammar::Tag, "sr-Latn-RS");
        assert_eq!(
            r.text,
            "well-formed language tag (langtag)\n  language: sr\n  script: Latn\n  region: RS\n"
        );
    }
}
