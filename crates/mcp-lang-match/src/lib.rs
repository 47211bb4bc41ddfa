//! Language-tag matching by RFC 4647, with HTTP weights, and a per-request
//! [`Negotiator`] that never allocates.
//!
//! MCP SEP-2792 says a server that honours a user's language preference
//! "MUST use matching behavior compatible with HTTP language negotiation and
//! RFC 4647, including weights and wildcard semantics", and must fall back to
//! its default, without an error, when nothing matches. This crate is that
//! matching. It takes preferences parsed by [`mcp_lang_grammar`] and offers:
//!
//! * [`basic`]: basic filtering (RFC 4647 §3.3.1), with each tag's quality
//!   decided as RFC 9110 and decision D3 say, and results ordered as decision
//!   D4a says;
//! * [`extended`]: extended filtering (RFC 4647 §3.3.2), where `de-*-DE`
//!   matches `de-Latn-DE`;
//! * [`lookup`](mod@lookup): lookup (RFC 4647 §3.4), progressive truncation
//!   down to a default;
//! * [`Negotiator`]: what a server runs on every request. It scores each
//!   supported tag with all three ideas at once (explicit ratings, then
//!   lookup truncation, then `*`; decision D4), from every range of the
//!   preference however many there are, picks one, says why ([`Reason`]),
//!   and falls back to the default for a malformed, absent or unmatched
//!   preference. No allocation, one pass over the value.
//!
//! # Example
//!
//! ```
//! use mcp_lang_match::{Negotiator, Reason};
//!
//! // Once, at start-up: the languages the server has, best first, and its default.
//! let server = Negotiator::new(["en", "fr", "fr-CA", "de"], "en")?;
//!
//! // Per request: the raw preference (the `_meta` value or Accept-Language).
//! let chosen = server.negotiate_header(Some("fr-BE, de;q=0.8"));
//! assert_eq!(chosen.tag(), "fr"); // `fr-BE` truncated to `fr` outranks `de`'s 0.8
//! assert_eq!(chosen.reason(), Reason::Truncated);
//!
//! // Unmatched, malformed or absent: the default, never an error.
//! assert_eq!(server.negotiate_header(Some("ja")).tag(), "en");
//! assert_eq!(server.negotiate_header(Some("en;q=1.5")).reason(), Reason::Malformed);
//! assert_eq!(server.negotiate_header(None).reason(), Reason::Absent);
//! # Ok::<(), mcp_lang_match::BuildError>(())
//! ```
//!
//! # In a web handler
//!
//! The chosen tag is the caller's own: a negotiator built from `&str` tags
//! answers with those `&str`s ([`SupportedTag`]), so with literals the
//! answer is `&'static str` and outlives the negotiator. Read every
//! `Accept-Language` field line, not only the first
//! ([`Negotiator::negotiate_field_lines`]).
//!
//! ```
//! use http::{HeaderMap, header::ACCEPT_LANGUAGE};
//! use mcp_lang_match::Negotiator;
//!
//! /// The language of a page: one of `en`, `fr`, `de`.
//! fn page_language(headers: &HeaderMap) -> &'static str {
//!     let pages = Negotiator::new(["en", "fr", "de"], "en").expect("valid tags");
//!     let lines = headers.get_all(ACCEPT_LANGUAGE).iter().map(|v| v.as_bytes());
//!     pages.negotiate_field_lines(lines).tag()
//! }
//!
//! let mut headers = HeaderMap::new();
//! headers.append(ACCEPT_LANGUAGE, "ja".parse().unwrap());
//! headers.append(ACCEPT_LANGUAGE, "fr".parse().unwrap());
//! assert_eq!(page_language(&headers), "fr");
//! assert_eq!(page_language(&HeaderMap::new()), "en");
//! ```
//!
//! Building validates and compiles the tags and allocates; negotiating
//! does neither. A busy server builds its negotiator once and shares it (a
//! `static` behind `std::sync::LazyLock`, or an `Arc` in its state).
//!
//! # When to use which
//!
//! Use the [`Negotiator`] to choose the one language of a response. Use
//! [`basic::filter`] when several representations may be returned (a
//! catalogue listing every acceptable translation), [`lookup::lookup`] when
//! you want RFC 4647's lookup exactly (it never picks `fr-FR` for `fr`), and
//! [`extended::filter`] for extended ranges from a non-HTTP source (a
//! configuration file, a search filter).
//!
//! This crate does not parse: malformed input is the grammar crate's
//! business ([`mcp_lang_grammar::AcceptLanguage::parse`]). It does not know
//! the IANA registry either: `en` and `eng` are different strings to it, and
//! it does no "best fit" guessing (CLDR likely subtags, macrolanguages). It
//! is `no_std` with `alloc`.
//!
//! # Cost
//!
//! [`Negotiator::new`] does the work that does not depend on the request:
//! it validates the tags, keeps lowercase copies and where their singletons
//! are, and groups them by primary subtag (`fr` for `fr`, `fr-CA`, `fr-FR`),
//! with a small hash table from primary subtag to group. No tag can be
//! rated by a range of another primary subtag, explicitly or by truncation,
//! so per request each range looks up its group and costs a comparison with
//! each tag of that group, or nothing more when no tag has its primary
//! subtag; `*` is one comparison. Every range is read, once (a raw value
//! given to [`Negotiator::negotiate_header`] is rated while it is validated,
//! so its bytes are walked once in all; decision G7): a preference of
//! a few ranges is buffered on the stack and each group met is scored
//! against its own ranges (skipping groups whose ranges cannot beat the best
//! so far); a longer one is rated range by range into one small record per
//! supported tag, also on the stack, so the memory is bounded by the
//! supported list and never by the preference (a list of more than 512
//! tags is rated 512 at a time, one pass over the value each). So the time
//! is linear in the value, and nothing is allocated (`tests/alloc.rs`
//! counts, up to a 4 MiB value). The free functions of [`basic`],
//! [`extended`] and [`lookup`](mod@lookup) allocate their result lists.
//!
//! # Decisions this crate makes (beyond the founding decisions of `docs/decisions.md`)
//!
//! * A range with `q=0` excludes; it never reaches a tag by truncation (in
//!   the [`Negotiator`] and in [`lookup::lookup`]), so `en-US;q=0, *` still
//!   accepts `en` through `*`.
//! * [`lookup::lookup`] never returns a tag that a `q=0` range excludes under
//!   D3, and `*;q=0` does not stop truncation (as in D4).
//! * A [`Negotiator`] answers with the caller's own tags, of the caller's
//!   type ([`SupportedTag`]): built from `&'static str`, its answers are
//!   `&'static str` and outlive it (decision M11).
//! * A [`Negotiator`] rejects supported tags that are not well-formed or that
//!   repeat another ignoring case; the default must be well-formed but need
//!   not be supported. Every range of a request counts, however many there
//!   are: a cap would change the answer, and the SEP lets no server
//!   interpret the field value differently.
//! * A value with no ranges (`""`, `" , "`) is no preference:
//!   [`Reason::Absent`], like a missing value. The quality reported for an
//!   absent or malformed preference is 1, for an unmatched one 0.
//! * Among tags reached by truncation from the same prefix length, the tag
//!   equal to the prefix comes before tags that extend it (`fr-BE` picks
//!   `fr` over `fr-CA`, whatever the server's order): D4's "`fr-CA` reaches
//!   `fr`, then `fr-FR`".
//! * A truncation never crosses an explicit script subtag: once it has
//!   dropped the range's script, or to reach a tag's script the prefix lacks,
//!   it reaches only the tag equal to the prefix. `zh-Hans` reaches `zh` but
//!   never `zh-Hant`; `pt-PT` still reaches `pt-BR`.
//! * The free functions compare tags as strings and do not validate them.

#![no_std]

extern crate alloc;

pub mod basic;
pub mod extended;
pub mod lookup;
mod negotiate;
mod subtags;

pub use negotiate::{BuildError, Negotiation, Negotiator, Reason, SupportedTag};
