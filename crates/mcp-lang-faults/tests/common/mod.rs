//! What the tests share: the reference server, altered or not, over both
//! transports, its stdio half served by this crate's binary.

#![allow(dead_code, unreachable_pub)]

use mcp_lang_conformance::{Config, Target};
use mcp_lang_faults::Bench;

/// The bench of the unaltered reference server.
pub fn bench() -> Bench {
    Bench::new(env!("CARGO_BIN_EXE_mcp-lang-faults"))
}

/// A configuration for [`Bench::run`], which sets the target itself.
pub fn config() -> Config {
    Config::new(Target::Url(String::new()))
}
