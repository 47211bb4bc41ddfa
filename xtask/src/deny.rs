//! The `deny` gate: the dependency policy of `deny.toml` (licences, banned crates, duplicate
//! versions, where crates come from), checked by cargo-deny.
//!
//! `cargo deny check licenses bans sources` reads only the crates cargo has fetched from
//! crates.io. The fourth check, `advisories`, needs the RustSec advisory database from the
//! network; the hosted workflow (`.github/workflows/ci.yml`) runs it, not this step.

use crate::Result;
use crate::tools::Tool;

/// cargo-deny, pinned (the newest release when the gate was written; it builds with the
/// workspace's toolchain).
pub(crate) const CARGO_DENY: Tool = Tool {
    krate: "cargo-deny",
    subcommand: "deny",
    version: "0.20.2",
};

/// Runs the gate.
pub(crate) fn check() -> Result<()> {
    CARGO_DENY
        .cargo()?
        .args([
            "check",
            "--hide-inclusion-graph",
            "licenses",
            "bans",
            "sources",
        ])
        .run()
}
