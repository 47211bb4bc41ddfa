//! The `features` gate: cargo-hack runs `cargo clippy -- -D warnings` on every published
//! crate alone (so no other member's features are unified into its dependencies) with its
//! default features, no default features, each feature alone and all features, checking the
//! library and binaries; then once more per crate with all features on all targets. Only the
//! library and binaries are checked per feature set because building tests would unify the
//! dev-dependencies' features into the crate's own dependencies and hide a feature the
//! library forgot to enable.

use crate::Result;
use crate::tools::Tool;

/// cargo-hack, pinned (the newest release when the gate was written; it builds with the
/// workspace's toolchain).
pub(crate) const CARGO_HACK: Tool = Tool {
    krate: "cargo-hack",
    subcommand: "hack",
    version: "0.6.46",
};

/// Runs the gate; both passes run even when the first fails, and cargo-hack names every
/// failed command (`--keep-going`).
pub(crate) fn check() -> Result<()> {
    let each_feature = hack(&["--each-feature", "--lib", "--bins"]);
    let all_targets = hack(&["--all-features", "--all-targets"]);
    each_feature.and(all_targets)
}

/// `cargo hack clippy` over the published members with `args`, warnings denied.
fn hack(args: &[&str]) -> Result<()> {
    CARGO_HACK
        .cargo()?
        .args(["clippy", "--workspace", "--ignore-private", "--keep-going"])
        .args(args)
        .args(["--", "-D", "warnings"])
        .run()
}
