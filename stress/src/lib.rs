//! Hostile input, slow-client, error-body and load checks of the SEP-2792
//! reference server. Not published: this package holds the load generator
//! (`mcp-lang-load`), the library it and the tests share, and the tests that
//! run in `cargo xtask ci`.
//!
//! - [`preference`]: random everyday preferences and hostile ones of a given
//!   size (thousands of ranges, deep subtags, comma runs, malformed).
//! - [`expect`]: what a correct `tools/list` answer is for a preference,
//!   computed apart from the server (a `Negotiator` over its languages and the
//!   catalogs' texts).
//! - [`client`], [`servers`], [`load`]: keep-alive HTTP/1.1 clients, the
//!   reference server on loopback with and without the tower layer, and the
//!   concurrent run with its report.
//! - [`child`]: `mcp-lang serve` as a child process (stdio and HTTP), with its
//!   peak resident memory.
//!
//! Figures and how to rerun everything: `docs/reliability.md`.
//!
//! ```
//! use mcp_lang_stress::{Expectation, Rng, preference};
//!
//! let expect = Expectation::for_reference_server().unwrap();
//! let mut rng = Rng::new(9);
//! let value = preference::random(&mut rng);
//! let tag = expect.tag(Some(&value));
//! assert!(["en", "fr", "fr-CA", "de", "ja", "ga"].contains(&tag));
//! ```

pub mod child;
pub mod client;
pub mod expect;
pub mod load;
pub mod preference;
mod rng;
pub mod servers;

pub use expect::Expectation;
pub use rng::Rng;
