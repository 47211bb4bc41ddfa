//! The reference MCP server of SEP-2792 "Per-Request User Language
//! Preference", on rmcp.
//!
//! It exists so that anyone evaluating the SEP, an SDK maintainer or a
//! conformance suite can see every behaviour of the SEP on a real server:
//! localized `tools/list` titles with stable names, a localized `serverInfo`
//! title, an elicitation and progress messages in the request's language, an
//! explicit `language` argument that wins for the content it controls, list
//! results with `ttlMs` and `cacheScope`, and
//! `io.modelcontextprotocol/contentLanguage` on every result, localized error
//! and notification. Catalogs are Fluent files in `data/catalogs/` (English —
//! the default —, French, Canadian French, German, Japanese, Irish).
//!
//! Use it to try the SEP, as the target of `mcp-lang conformance`, or as an
//! example of `mcp-lang-rmcp`. It is not a framework: a real server keeps its
//! own catalogs and handlers and uses `mcp-lang-rmcp` the way [`server`] does.
//!
//! ```
//! use mcp_lang_reference::ReferenceServer;
//!
//! let server = ReferenceServer::new().unwrap();
//! let language = server.languages().negotiate_raw(Some("fr-CA,fr;q=0.9,en;q=0.5"));
//! let tools = server.tools(&language);
//! let weather = tools.iter().find(|t| t.name == "weather_current").unwrap();
//! assert_eq!(weather.title.as_deref(), Some("Météo actuelle"));
//! ```
//!
//! Serve it with `mcp-lang serve --stdio` or `mcp-lang serve --http ADDR`.
//!
//! [`ReferenceServer::with_conformance_fixtures`] (`mcp-lang serve
//! --conformance-fixtures`) adds the fixtures of the official MCP conformance
//! suite ([`fixtures`]: its `test_*` tools and prompts, `test://` resources,
//! logging, completions and subscriptions). Apart from the four tools the
//! SEP-2792 scenario contributed to that suite calls
//! ([`fixtures::LanguageFixture`]), they are not SEP-2792; they are off by
//! default, and `cargo xtask conformance --official` turns them on.
//!
//! # Features
//!
//! All on by default; without them the crate is the server's handlers and catalogs.
//!
//! - `stdio`: [`serve`]'s stdio transport (`serve::serve_stdio`).
//! - `http`: [`serve`]'s Streamable HTTP router and accept loop, behind
//!   `mcp-lang-http`'s layer and with connection limits.
//! - `demo` (implies `http`): [`demo`], the terminal story of `mcp-lang demo`.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod catalog;
#[cfg(feature = "demo")]
#[cfg_attr(docsrs, doc(cfg(feature = "demo")))]
pub mod demo;
// The official MCP suite's fixtures (opt-in; not SEP-2792 but for four tools).
pub mod fixtures;
#[cfg(any(feature = "stdio", feature = "http"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "stdio", feature = "http"))))]
pub mod serve;
pub mod server;

pub use server::ReferenceServer;
