//! Exact, allocation-free parsers for the language fields of HTTP and MCP.
//!
//! This crate decides, for the whole mcp-lang project, whether a language
//! preference is well-formed. MCP SEP-2792 carries the user's preference in
//! `_meta["io.modelcontextprotocol/acceptLanguage"]` with the syntax of the
//! HTTP `Accept-Language` field, and says receivers **must** validate that
//! grammar before matching and ignore a malformed value as absent. So the
//! grammar here is strict and complete:
//!
//! | type | grammar |
//! |------|---------|
//! | [`AcceptLanguage`] | RFC 9110 §12.5.4, with the list rule of §5.6.1 and the weight of §12.4.2 |
//! | [`LanguageRange`] | RFC 4647 §2.1 basic language range, or `*` |
//! | [`Quality`] | RFC 9110 §12.4.2 `qvalue`, as thousandths (0..=1000) |
//! | [`ContentLanguage`] | RFC 9110 §8.5, one or more tags |
//! | [`LanguageTag`] | RFC 5646 §2.1 `Language-Tag`, well-formedness (see [`TagKind`]) |
//! | [`ExtendedRange`] | RFC 4647 §2.2 extended language range |
//! | [`serialize`] | builds an `Accept-Language` value that parses back to the same list |
//!
//! ```
//! use mcp_lang_grammar::AcceptLanguage;
//!
//! // One pass: each range as soon as it is validated, then the verdict.
//! let mut ranges = AcceptLanguage::validating("fr-CA,fr;q=0.9,en;q=0.5");
//! for weighted in ranges.by_ref() {
//!     println!("{} at q={}", weighted.range, weighted.quality); // fr-CA at q=1, …
//! }
//! assert_eq!(ranges.finish().map(|value| value.len()), Ok(3));
//!
//! // Malformed means: ignore the preference. The error says where and why.
//! let err = AcceptLanguage::validating("en;q=0.1234").finish().unwrap_err();
//! assert_eq!(err.offset(), 10);
//!
//! // A value kept and read more than once: validate it whole, then iterate.
//! let value = AcceptLanguage::parse("fr-CA,fr;q=0.9,en;q=0.5").unwrap();
//! assert_eq!(value.iter().nth(1).unwrap().quality.get(), 900);
//! ```
//!
//! [`AcceptLanguage::validating`] reads the bytes once; [`AcceptLanguage::parse`]
//! then [`AcceptLanguage::iter`] reads them twice (415 instructions against 325
//! on a typical value, see the crate's README), which is the price of keeping a
//! validated value to read again. Choosing a language reads the ranges once.
//!
//! # When to use it, and when not
//!
//! Use it to validate and read `Accept-Language` / `Content-Language` values
//! (from HTTP or from MCP `_meta`) and language tags, on a hot path: parsing
//! borrows from the input, never allocates, never panics, and runs in time
//! linear in the input, whatever the input. It is `#![no_std]`.
//!
//! It does not *match* ranges against tags (that is `mcp-lang-match`), does
//! not canonicalize or validate tags against the IANA registry (use a BCP 47
//! library such as `icu_locale` for that), and does not check that a `_meta`
//! value agrees with an HTTP field (`mcp-lang-agree`).
//!
//! # Decisions
//!
//! - **Strict** (decision D2): any deviation from the ABNF makes the whole
//!   value malformed; there is no "best effort" recovery of some ranges.
//! - **q in thousandths** (D1): `q=0.5` is [`Quality`] 500; no floats.
//! - **Lists** (RFC 9110 §5.6.1): empty elements and OWS (SP / HTAB only)
//!   around commas are accepted; `""` is a well-formed `Accept-Language`
//!   meaning "no preference" but not a well-formed `Content-Language` (which
//!   needs a tag). Whitespace not next to a comma is an error: a field value
//!   never starts or ends with whitespace (RFC 9110 §5.5), so `" en"` and
//!   `"en "` are malformed, while `"en , fr"` is fine.
//! - **Only `q`** (RFC 9110 §12.5.4 defines no other parameter): `en;level=1`
//!   is malformed, as is a second weight.
//! - **Bytes**: every grammar here is printable ASCII. Control characters
//!   (including CR, LF and NUL), DEL and non-ASCII bytes are errors at their
//!   offset; [`AcceptLanguage::parse_bytes`] takes raw header bytes.
//! - **Tags are well-formed, not valid**: see the [`LanguageTag`] docs;
//!   repeated variants or singletons are accepted, as the ABNF does.
//! - **Error offsets** are the length of the longest prefix that could still
//!   begin a well-formed value: see [`ParseError`].
//! - **Limits**: none by default (linear time makes them unnecessary for
//!   safety); [`AcceptLanguage::parse_with`] applies [`Limits`] as a policy.
//! - **One pass**: [`AcceptLanguage::validating`] yields the ranges while it
//!   validates them; what a caller builds from them counts only once
//!   [`Validating::finish`] says the value is well-formed, since a malformed
//!   value is no preference at all.
//!
//! # Modules
//!
//! Each grammar has its own module, whose documentation gives its ABNF and
//! how its corner cases are decided: [`accept`], [`quality`], [`range`],
//! [`content`], [`tag`], [`extended`], [`serialize`], [`error`]. Their types
//! are re-exported at the crate root.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(test)]
extern crate std;

pub mod accept;
mod chars;
pub mod content;
pub mod error;
pub mod extended;
mod list;
pub mod quality;
pub mod range;
mod scan;
pub mod serialize;
pub mod tag;

pub use accept::{AcceptLanguage, Limits, Ranges, Validating, WeightedRange};
pub use content::{ContentLanguage, Tags};
pub use error::{Expected, ParseError};
pub use extended::ExtendedRange;
pub use quality::Quality;
pub use range::{LanguageRange, Subtags};
pub use tag::{LanguageTag, TagKind};
