//! The conformance suite of MCP SEP-2792 "Per-Request User Language
//! Preference": a scenario for every item of the SEP's Conformance list, run
//! over the wire against any server, with proof that every scenario can fail.
//!
//! # What it is for
//!
//! The SEP reaches Final only with conformance scenarios. This crate is them,
//! language-neutral: it speaks JSON-RPC over stdio or Streamable HTTP, so the
//! TypeScript, Python, Go or any other SDK can run it against its own server
//! (`mcp-lang conformance --url http://…` or `--stdio "command args"`). Each
//! scenario checks one rule and cites the SEP sentence it checks, so a
//! failure says exactly what is broken. Client-side scenarios check this
//! workspace's own client pieces against scripted servers.
//!
//! A green report means something because the suite is self-tested: the
//! reference server can be started with any of its injected faults
//! (`mcp-lang serve --fault NAME`, `mcp_lang_reference::fault`), each breaking
//! one rule, and the crate's tests check that the scenario for that rule
//! fails ([`faults::expected_failures`]).
//!
//! Use it to test a server. Do not use it as a client library: it is a raw
//! JSON-RPC client on purpose (see [`wire`]).
//!
//! # How a run goes
//!
//! 1. The [`run::Target`] is reached: a URL (one kept-alive HTTP/1.1
//!    connection), a command (its stdin/stdout), or the embedded reference
//!    server (both transports, in process).
//! 2. The [`profile::Profile`] — supported languages and default — comes from
//!    flags, a TOML file, or a probe.
//! 3. Every [`scenario::Scenario`] runs on one shared connection per
//!    transport; scenarios that need HTTP are skipped, with the reason, on
//!    stdio.
//! 4. The [`report::Report`] is printed as a table, JSON or JUnit XML; any
//!    failure makes the command exit non-zero.
//!
//! # Decisions the scenarios make
//!
//! Where the SEP leaves room, the suite takes these positions (each scenario's
//! failure message says which one it applied):
//!
//! - **Protocol.** The default is `2026-07-28`: stateless requests carrying
//!   their protocol `_meta`, elicitation as an `input_required` result.
//!   `--protocol 2025-11-25` runs the `initialize` handshake instead, and an
//!   elicitation is then an `elicitation/create` request from the server,
//!   which the suite accepts (on stdio as a line; on Streamable HTTP, where it
//!   arrives on a POST's event stream, as a POST to the endpoint in the same
//!   session). A server that opened no session (stateless HTTP) has no way to
//!   send one, so there the elicitation scenarios are skipped.
//! - **Weights.** `match.weights` and `match.exclusion` weigh two supported
//!   languages of which neither is a prefix of the other (`fr` and `de`, not
//!   `fr` and `fr-CA`) when the profile has them, so that they check only that
//!   q-values decide and q=0 excludes, not how a shorter range's q reaches a
//!   longer tag (RFC 2616's longest match, this project's D3).
//! - **Caching fields.** "Language-dependent responses remain cacheable" is
//!   checked as: when the default language's `tools/list` carries a positive
//!   `ttlMs` (or a `cacheScope`), every other language's does too. The values
//!   themselves may differ by language.
//! - **"Private".** `Cache-Control: private` or `no-store` satisfies the
//!   stripped-header rule; `Vary: *` counts as varying by `Accept-Language`.
//! - **Translation (SHOULD).** A `tools/list` that reports a non-default
//!   language must change at least one tool title; an elicitation must change
//!   its message and every property label. A server reporting a language
//!   while showing the default's text fails: `contentLanguage` must be the
//!   language actually used. Only languages whose primary subtag differs from
//!   the default's are held to this (`en-GB` text may equal `en` text).
//! - **No preference.** A response to a request without `acceptLanguage` may
//!   omit `contentLanguage` (nothing was honored); when it carries one, it is
//!   checked like any other, and `scope.omission` then compares the tools
//!   with the default's instead.
//! - **Errors.** A call of an unknown tool must keep its `error.code` in every
//!   language; when its message is localized, `error.data` must be an object
//!   carrying `contentLanguage` in `_meta`.
//! - **Explicit arguments.** The tool named in the profile is called with
//!   `language` set to a supported tag other than the preference's; the
//!   result must report that tag and differ from the call without it.
//! - **Self-test.** A handler or message fault must be caught on both transports, an
//!   HTTP fault on HTTP. One rule has no fault: `Accept-Language:  en ` agreeing
//!   with `en`, because an HTTP/1.1 parser strips a line's surrounding
//!   whitespace before any server code sees it.
//!
//! ```
//! use mcp_lang_conformance::run::{Config, Target, run};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let mut config = Config::new(Target::Embedded);
//! config.only = vec!["match.weights".into()];
//! config.client_side = false;
//! let report = run(&config).await.unwrap();
//! assert!(!report.failed(), "{}", report.table());
//! assert_eq!(report.rows.len(), 2); // stdio and HTTP
//! # });
//! ```

mod discovery;
pub mod faults;
mod http;
pub mod profile;
pub mod report;
pub mod requirements;
pub mod run;
mod scenario;
pub mod scenarios;
mod stdio;
mod wire;

pub use profile::Profile;
pub use report::{DiscoveryNote, Format, Report, Row, Summary, Verdict};
pub use run::{Config, Target, run};
pub use scenario::{Needs, Outcome, Scenario};
