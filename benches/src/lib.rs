//! Criterion benchmarks of the mcp-lang crates beside peer crates; see `benches/` and the
//! package's README.
//!
//! Run them all with `cargo xtask bench`, which prints one table of ours against
//! each peer. Benchmark ids: group = operation and input, function = implementation
//! (`mcp-lang` for ours, `mcp-lang-…` for another way of ours, the crate name for a peer).
//!
//! Every bench executable also answers `--callgrind` (see [`callgrind`]), which
//! `cargo xtask bench` and the instruction-count gate (`cargo xtask callgrind`) drive under
//! valgrind.

pub mod callgrind;
pub mod layer_bodies;
pub mod typed_meta;
