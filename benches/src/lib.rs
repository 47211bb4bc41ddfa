//! Criterion benchmarks of the mcp-lang crates beside peer crates; see `benches/`.
//!
//! Run them all with `cargo xtask bench`, which prints one table of ours against
//! each peer. Benchmark ids: group = operation and input, function = implementation
//! (`mcp-lang` for ours, the crate name for a peer).
