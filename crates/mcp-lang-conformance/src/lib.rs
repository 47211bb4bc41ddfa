//! The conformance suite of MCP SEP-2792 "Per-Request User Language
//! Preference": a scenario for every item of the SEP's Conformance list, run
//! over the wire against any server, with proof that every scenario can fail
//! and that none fails a server that conforms.
//!
//! # What it is for
//!
//! The SEP reaches Final only with conformance scenarios. This crate is them,
//! language-neutral: it speaks JSON-RPC over stdio or Streamable HTTP, so the
//! TypeScript, Python, Go or any other SDK can run it against its own server
//! with the `mcp-lang` command:
//!
//! ```text
//! mcp-lang conformance --stdio "python -m my_server"          # discovers the languages
//! mcp-lang conformance --url http://127.0.0.1:8080/mcp --profile server.toml
//! mcp-lang conformance --stdio "node dist/server.js" --format junit --strict
//! mcp-lang conformance --list            # every scenario, with the SEP sentence it checks
//! mcp-lang conformance --requirements    # every normative sentence, and what checks it
//! ```
//!
//! Each scenario checks one rule and quotes the SEP sentence it checks, so a
//! failure says exactly what is broken. Use it to test a server. Do not use
//! it as a client library: it is a raw JSON-RPC client on purpose, because it
//! must see every `_meta` and every HTTP field line as sent.
//!
//! ```no_run
//! use mcp_lang_conformance::{Config, Target, Verdict, run};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! // Your server, over both transports; its languages are discovered.
//! let mut config = Config::new(Target::Both {
//!     stdio: "python -m my_server".into(),
//!     url: "http://127.0.0.1:8080/mcp".into(),
//! });
//! config.only = vec!["match.".into()]; // the matching scenarios only
//! let report = run(&config).await.unwrap();
//! assert_eq!(report.verdict(), Verdict::Passed, "{}", report.table());
//! # });
//! ```
//!
//! The scenarios, and the SEP sentence each one checks, are data:
//!
//! ```
//! use mcp_lang_conformance::scenarios;
//!
//! let weights = scenarios::find("match.weights").unwrap();
//! assert!(weights.sep.contains("including weights and wildcard semantics"));
//! assert!(scenarios::all().len() > 50);
//! ```
//!
//! The crate depends on nothing of a server: it is a client, so it can judge
//! any server without standing on one.
//!
//! # How a run goes
//!
//! 1. The [`Target`] is reached: a URL (one kept-alive HTTP/1.1 connection),
//!    a command (its stdin/stdout), or both (stdio first, one report), and
//!    each connection settles its protocol
//!    version (see [Protocol](#protocol-version)). A target that cannot be
//!    asked anything is an error, not a list of failures: an unreachable URL,
//!    a URL that does not answer MCP, a server that speaks no version the
//!    suite speaks, or a stdio server that exits (with its exit status and
//!    the last lines it wrote on stderr).
//! 2. The [`Profile`] (supported languages, default, the tools the display
//!    scenarios use) comes from flags, a TOML file, or discovery.
//! 3. Every [`Scenario`] runs on one shared connection per transport, so a
//!    server that keeps a preference between requests shows it. Scenarios
//!    that need HTTP are skipped, with the reason, on stdio.
//! 4. The [`Report`] is printed as a table, JSON or JUnit XML, and its
//!    [`Verdict`] is the command's exit status. Every report records the
//!    suite's version, the target, each transport's protocol version and how
//!    it was chosen, the profile (given or discovered, with its values) and
//!    whether the run is strict. When a stdio server is done with, it reads
//!    end of file on its stdin and has half a second to exit before it is
//!    killed. A server broken in one place can fail several scenarios (no
//!    agreement check fails every agreement scenario): the report shows such
//!    a failure once, with the others listed under it ("also fails, same
//!    cause") and counted once ([`report::SAME_CAUSES`]).
//!
//! # Protocol version
//!
//! Without `--protocol`, each connection negotiates, as an MCP client does:
//! the suite offers the newest version it speaks, `2026-07-28`, with a
//! `server/discover` request, and continues on the newest version both sides
//! speak. A server before `2026-07-28` does not know `server/discover` (on
//! stdio it answers -32601 "Method not found"; on Streamable HTTP it refuses
//! the `MCP-Protocol-Version` header with a 400 naming the versions it
//! supports); the suite then runs the `initialize` handshake proposing
//! `2025-11-25` (or the newest handshake version the refusal names), and the
//! server's answer is the version of the run. A server answering "unsupported
//! protocol version" (-32022) with the versions it supports is offered the
//! newest of them the suite speaks. The report says which version each
//! transport speaks, that it is older than the one offered when it is (a
//! line in the table's header; `protocol[].fell_back` in JSON), and every
//! request the negotiation made. `--protocol VERSION` speaks that version
//! without negotiating. A server that speaks no version the suite speaks
//! cannot be tested (exit status 2), and the message names its versions.
//! The latitude `handshake-only` is the reference server speaking only
//! the handshake versions, as a server on the TypeScript SDK 1.x does; the
//! suite must pass it with no flags, over both transports.
//!
//! # Discovery
//!
//! Without a profile the suite finds the server's languages from its answers
//! (a `tools/list`, else `prompts/list` or `resources/list`, under some forty
//! primary languages, then the region and script subtags of each language
//! found), and prints what it found and how. It is built not to be fooled:
//!
//! - Its first requests go without a preference, then with one naming many
//!   languages, then with an unmatched private-use language, then without
//!   again. A server that binds its first preference to the connection, the
//!   session or the process answers them inconsistently, and fails
//!   `scope.change` or `scope.omission` before anything is trusted.
//! - A language is trusted only when it is selected when asked for, the
//!   default when the default is asked for, and the language again after.
//! - A server that reports the preference back (an unmatched private-use
//!   language reported as itself) fails `discovery.content-language`.
//! - The default is what an unmatched preference gets; a server that answers
//!   a request without a preference in another language fails
//!   `match.fallback` (its default is one language).
//! - Region subtags of what it finds are tried, and `match.region-subtags`
//!   checks that excluding a region never excludes its language, which is
//!   how a server matching on the primary subtag only shows.
//!
//! When discovery cannot establish one supported language besides the
//! default, the verdict is **inconclusive** (exit status 3) with what it
//! tried and what to pass (`--profile`, `--supported`); when no answer
//! carries `contentLanguage` and the display text never changes, the server
//! **does not take part** in SEP-2792 (exit status 4). Neither is a pass.
//! Discovery does not know a server's tools: the elicitation, progress and
//! tool-error scenarios use the tools a profile names (by default the
//! reference server's), and skip, with the reason, when they are missing.
//!
//! # Which tools it calls
//!
//! A tool a profile names (`progress_tool = "count"`, or with its arguments
//! `progress_tool = { name = "count", arguments = { n = 3 } }`) is called
//! whatever its annotations say. Any other tool is called only when its
//! annotations say it is read-only (`annotations.readOnlyHint: true`); so
//! without a profile, a tool that changes something is never called, and
//! the scenario that needed it skips saying which profile key to give. The
//! arguments are the profile's, or built from the tool's `inputSchema` (a
//! value of each required property's type, honouring `const`, `default`,
//! `enum`, `examples`, bounds and formats); when the schema asks for what
//! the suite cannot build, the call is not made. A call the server refuses
//! (a JSON-RPC error, an `isError` result) before it could show the
//! behaviour under test is a skip quoting the server's error, never a
//! failure of that behaviour.
//!
//! # Verdicts and exit statuses
//!
//! | exit | verdict | what to do |
//! |---|---|---|
//! | 0 | passed | nothing: every scenario that could run passed (read the skips: each says why) |
//! | 1 | failed | each failing row names the rule, what was seen, and the SEP sentence; with `--strict`, a warning (a SHOULD not followed) fails too |
//! | 2 | could not test | the message says why: unreachable, not MCP, no protocol version in common, the server exited, a bad profile; `--format json` and `--format junit` still write their document, with the error, the target and what was tried |
//! | 3 | inconclusive | pass the server's languages: `--profile FILE` or `--supported TAGS --default TAG` |
//! | 4 | not participating | the server reports no `contentLanguage` and never changes its text: it ignores SEP-2792, which it MAY |
//!
//! # Decisions the scenarios make
//!
//! Where the SEP leaves room, the suite takes these positions (each is also
//! in the project's `docs/decisions.md` as C1–C28):
//!
//! - **Protocol.** The newest version is `2026-07-28`: stateless requests
//!   carrying their protocol `_meta`, elicitation as an `input_required`
//!   result, `server/discover` for the server's own title. On `2025-11-25`
//!   (negotiated with a server that does not speak `2026-07-28`, or named
//!   with `--protocol 2025-11-25`) the suite runs the `initialize` handshake
//!   instead, and an elicitation is then an
//!   `elicitation/create` request from the server, which the suite accepts
//!   (on stdio as a line; on Streamable HTTP, where it arrives on a POST's
//!   event stream, as a POST in the same session). A server that opened no
//!   session has no way to send one, so there the elicitation scenarios skip.
//! - **Which tag follows a range.** A range is followed by the tag it names
//!   or by any supported tag it basic-filters: `fr` may be answered with
//!   `fr-CA` when both are supported (RFC 4647 leaves the choice among
//!   equally acceptable tags to the server).
//! - **Weights.** `match.weights` and `match.exclusion` weigh two supported
//!   languages of which neither is a prefix of the other (`fr` and `de`, not
//!   `fr` and `fr-CA`) when the profile has them, so that they check only that
//!   q-values decide and q=0 excludes, not how a shorter range's q reaches a
//!   longer tag.
//! - **Wildcard.** The SEP lets a server "use lookup or filtering as
//!   appropriate", and the two read `*` differently: filtering (RFC 9110
//!   §12.5.4) has it match "every tag not matched by any other range
//!   present"; lookup (RFC 4647 §3.4) skips a `*` followed by other ranges
//!   and gives the default when `*` ends the list. `match.wildcard` accepts
//!   both: its first request (`*;q=0.5, fr;q=0.1`) shows which reading the
//!   server uses (filtering picks another language, lookup `fr`), and the
//!   next one (`en;q=0, *`, the default excluded) is held to that reading.
//!   Both readings refuse what it then checks: `*` never accepts a language
//!   another range excludes (`fr;q=0, *`), and `*;q=0` never excludes one
//!   another range names (`fr, *;q=0`). A server that ignores `*` answers
//!   exactly as lookup does, so it passes.
//! - **Test vectors.** `grammar.malformed-vectors` and `grammar.valid-edges`
//!   send the project's `Accept-Language` test vectors (`testdata/grammar`,
//!   read at build time), each element's language replaced by a supported
//!   one, and only those the profile's languages can decide: a malformed
//!   value when a server that salvaged it would select a language other than
//!   the default, a well-formed one when its right answer is not the default
//!   or when it has no ranges at all (no preference, never an error). Every
//!   answer RFC 4647 allows is accepted: lookup's, each tag filtering rates
//!   best, and the reference negotiation's.
//! - **Caching fields.** "Language-dependent responses remain cacheable" is
//!   checked as: when the default language's `tools/list` carries a positive
//!   `ttlMs` (or a `cacheScope`), every other language's does too. The values
//!   themselves may differ by language.
//! - **"Private".** `Cache-Control: private` or `no-store` satisfies the
//!   stripped-header rule; `Vary: *` counts as varying by `Accept-Language`.
//! - **SHOULD is not a MUST.** A declined SHOULD ends in a warning, which
//!   only a `--strict` run counts as a failure: a `tools/list` that reports a
//!   non-default language and changes no tool title, an elicitation or a
//!   progress message left in the default language, an explicit language
//!   argument that does not take precedence. Only languages whose primary
//!   subtag differs from the default's are looked at (`en-GB` text may equal
//!   `en` text). What the SEP requires fails: a report that is missing on
//!   translated text, or names neither the request's selection nor the
//!   default.
//! - **Several languages in one report.** `contentLanguage` may name "one or
//!   more" tags (`fr, en`: French titles, English descriptions). The language
//!   such a report says was selected is the tag the request's
//!   `acceptLanguage` ranks highest (the first, when it accepts none): that is
//!   what the matching checks compare, and it must be a supported language.
//!   A check that something is reported in a language accepts a list that
//!   includes it.
//! - **No preference.** An answer to a request without `acceptLanguage` may
//!   omit `contentLanguage`; when it does, the scenarios compare its text.
//! - **Errors.** The suite looks for an error the server localizes (an
//!   unknown tool, an unknown prompt, a missing resource, a prompt without its
//!   arguments); when it finds one, `error.data` must be an object carrying
//!   `contentLanguage` in `_meta` and `error.code` must not change. When the
//!   server localizes none, the error scenarios skip.
//! - **Explicit arguments.** The tool named in the profile is called with
//!   `language` set to a supported tag other than the preference's; the
//!   result should report that tag (a warning otherwise). The call without
//!   the argument is not judged.
//! - **Identifiers.** `identifiers.guard` compares exactly the positions the
//!   SEP names (method names, `name`s, URIs, MIME types, discriminators,
//!   codes, tokens and IDs, object keys, and in schemas property keys,
//!   `required`, `enum`, `const`, `type`, `format`); titles, descriptions and
//!   enum display names, in schemas too, and `ttlMs` may differ.
//! - **Labels describe the content** (C20). Two answers with the same text
//!   under labels whose primary subtags differ fail `reporting.labels`; only
//!   prose is judged (not resource contents of a non-`text/` type, JSON, or
//!   text of fewer than four words), since numbers, names and code are
//!   rightly the same in every language.
//! - **Every message** (C21). A notification sent for a request whose text
//!   differs from the default's carries `contentLanguage` in `params._meta`;
//!   a localized `input_required` result carries it in `result._meta`.
//! - **Retries and handshakes** (C22). A retry of an `input_required` result
//!   is answered like the same retry after a first call in its own language;
//!   after a `server/discover` or `initialize` with a preference, a request
//!   without one is answered as the default's.
//! - **Identifiers of results** (C23). `structuredContent` key paths and
//!   `serverInfo.name` are the same in every language.
//! - **HTTP on every response** (C24). `Content-Language` is checked for a
//!   preference naming an unsupported region (`de-AT` answered as `de`), and
//!   `Vary: Accept-Language` on a localized error response too.
//!
//! # Latitudes: what a conforming server may do, and passes
//!
//! Every liberty the SEP gives is listed here with how the scenarios treat
//! it. Each one marked "proven" is taken by a variant of the reference server
//! (a latitude of the workspace's unpublished fault bench, served by
//! `mcp-lang-faults serve --latitude NAME`) against which the self-test
//! requires zero failures.
//!
//! | the SEP allows | the scenarios | proven by |
//! |---|---|---|
//! | "A server MAY ignore the preference." | verdict "does not take part" (4), never a failure | `tests/verdicts.rs` |
//! | "A server that ignores acceptLanguage MAY omit contentLanguage." | no scenario requires a report on an answer to a request without a preference | `omit-unrequested-language` |
//! | "A server MAY translate Error.message" (or not) | the error scenarios look for a localized error and skip without one | `untranslated-errors` (and the reference, which translates) |
//! | "A server MAY translate other natural-language, model-facing, or returned content" (descriptions, content) | `identifiers.guard` allows descriptions, content text and `Error.message` to differ | `translate-descriptions` |
//! | the same, inside JSON Schemas: property `title`s, `description`s and enum display names (not keys, `enum`, `const`, `required`); a `ttlMs` per language | `identifiers.guard` compares only identifier positions; `cache.ttl-scope` requires a `ttlMs` in every language, not the same one | `translate-schema-labels` |
//! | "one or more BCP 47 language tags" in `contentLanguage` (RFC 9110 §8.5) | the selected language is read from the list by the preference; a reported-in check accepts a list that includes it | `several-content-languages` |
//! | "A server MAY omit Content-Language on text/event-stream" (or send one that describes every message) | `sse.header-agrees` compares when a header is sent and skips otherwise | the reference (omits), `stream-content-language` (sends) |
//! | which of several equally acceptable tags to pick (RFC 4647 §3.3) | a range is followed by any tag it basic-filters | `other-equal-choice` |
//! | "The server MAY tolerate a missing or stripped Accept-Language header" (or decline the request) | `http.missing-header` and the stripped-header scenarios skip on a refusal; a server that serves the request must use the `_meta` value (decision C31) | `reject-missing-header` (declines); fault `missing-header-default` |
//! | an explicit argument "MAY provide a fallback" when absent | `explicit.argument-wins` requires nothing of the call without it | the reference (falls back), `explicit-without-fallback` (does not) |
//! | the SHOULDs: translate titles, elicitation text and progress messages; let an explicit argument take precedence | a warning, not a failure (a `--strict` run fails on it) | the faults that decline them are caught by warnings |
//! | answering with an event stream rather than JSON | the JSON-mirror scenarios skip on a stream | the self-test's `http+sessions` runs |
//! | a protocol version before `2026-07-28` (SEP-2792 applies to every version that carries `_meta`) | the run negotiates `2025-11-25` and the `initialize` handshake, and says so | `handshake-only` |
//! | lookup instead of filtering (SEP: "can use lookup or filtering") | every check accepts either; `match.wildcard` finds which one the server uses and holds it to that one (see "Wildcard") | `wildcard-lookup` (pure RFC 4647 lookup), and the reference (filtering) |
//!
//! # The self-test
//!
//! A green report means something because the suite is tested against the
//! reference server with each fault of the workspace's fault bench injected
//! (each must be caught by one of the scenarios the fault's row names) and
//! each latitude taken (each must pass), as users run it: against the fault
//! server started as a separate process, over stdio and over Streamable HTTP
//! (stateless, and with sessions), with and without a profile
//! (`mcp-lang-faults self-test`; the CI runs it). The fault bench is a
//! crate of its own, not published: the suite a user installs holds no
//! server. This is the matrix
//! of the last run, each cell the scenarios that caught the fault ("(warning)"
//! where the fault declines a SHOULD, which warns rather than fails); "—"
//! where the fault has nothing to act on (an HTTP fault on stdio, a fault on
//! JSON responses where every answer is an event stream, a fault in the
//! reference's elicitation tool, which is not read-only, when no profile
//! names it):
//!
#![doc = include_str!("../self-test.md")]
//!
//! One rule has no fault: `Accept-Language:  en ` agreeing with `en`, because
//! an HTTP/1.1 parser strips a line's surrounding whitespace before any server
//! code sees it.
//!
//! # Traceability
//!
//! [`requirements::YAML`] maps every normative sentence of the SEP (each
//! MUST, MUST NOT, SHOULD, SHOULD NOT and MAY) to the scenarios that check it,
//! or says why none can; the crate's tests hold it to the SEP's text and to
//! the scenario list.

mod calls;
mod discovery;
mod http;
mod identifiers;
mod language;
mod negotiate;
pub mod profile;
mod quote;
pub mod report;
pub mod requirements;
pub mod run;
mod scenario;
pub mod scenarios;
mod stdio;
mod wire;

pub use profile::Profile;
pub use report::{DiscoveryNote, Format, Report, Row, RunError, Summary, Verdict};
pub use run::{Config, Target, run};
pub use scenario::{Needs, Outcome, Scenario};
