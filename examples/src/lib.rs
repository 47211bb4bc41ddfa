//! Runnable examples of the mcp-lang crates (in `examples/`), and the generator of
//! the exchanges shown in `docs/specification-chapter.md` ([`exchanges`]).
//!
//! Run an example with `cargo run -p mcp-lang-examples --example NAME`; regenerate the
//! chapter's exchanges with `cargo xtask docs` (or
//! `cargo run -p mcp-lang-examples --bin docs-exchanges -- --write`).

pub mod exchanges;
