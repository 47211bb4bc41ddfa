//! The `features` gate: every published crate, alone (`-p NAME`, so no other workspace
//! member's features are unified into its dependencies), builds and is clippy-clean with no
//! default features, with each feature alone, with its default features, and with all
//! features; and all its targets (tests, examples, benches) with all features.
//!
//! The feature list comes from `cargo metadata`, so a new feature is checked without
//! touching this file. Only the library and binaries are checked in the single-feature
//! combinations: building tests would unify the dev-dependencies' features into the
//! crate's own dependencies (resolver 2 and later do that only for targets that need the
//! dev-dependencies), and hide a feature the library forgot to enable. Everything is
//! `cargo clippy` with the `dev` profile in the repository's target directory, so the
//! `clippy` step's dependencies are reused wherever their features agree.

use crate::package::{self, Published};
use crate::process::Cmd;
use crate::workspace::{Metadata, Package};
use crate::{Result, bail};

/// One `cargo clippy` of one crate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Combination {
    /// The package (`-p`).
    pub(crate) package: String,
    /// The feature flags, as cargo takes them.
    pub(crate) flags: Vec<String>,
    /// `--all-targets`: tests, examples and benches too.
    pub(crate) all_targets: bool,
}

impl Combination {
    fn describe(&self) -> String {
        let flags = if self.flags.is_empty() {
            "default features".to_owned()
        } else {
            self.flags.join(" ")
        };
        let targets = if self.all_targets {
            ", all targets"
        } else {
            ""
        };
        format!("{} ({flags}{targets})", self.package)
    }
}

/// Every combination the gate checks for one package.
pub(crate) fn combinations(package: &Package) -> Vec<Combination> {
    let one = |flags: &[&str], all_targets| Combination {
        package: package.name.clone(),
        flags: flags.iter().map(|f| (*f).to_owned()).collect(),
        all_targets,
    };
    let mut out = vec![one(&[], false)];
    if !package.features.is_empty() || package.has_default_features {
        out.push(one(&["--no-default-features"], false));
        for feature in &package.features {
            out.push(one(
                &["--no-default-features", "--features", feature],
                false,
            ));
        }
        out.push(one(&["--all-features"], false));
    }
    out.push(one(&["--all-features"], true));
    out
}

/// Runs the gate; every combination runs even after one fails, and the failures are named
/// at the end.
pub(crate) fn check() -> Result<()> {
    let metadata = Metadata::load()?;
    let published: Vec<Published> = package::published(&metadata);
    let mut failed = Vec::new();
    let mut count = 0;
    for member in metadata
        .packages
        .iter()
        .filter(|p| published.iter().any(|q| q.name == p.name))
    {
        for combination in combinations(member) {
            count += 1;
            println!("-- {}", combination.describe());
            let mut cmd = Cmd::cargo()
                .args(["clippy", "-p", &combination.package])
                .args(&combination.flags);
            if combination.all_targets {
                cmd = cmd.arg("--all-targets");
            }
            if cmd.args(["--", "-D", "warnings"]).run().is_err() {
                failed.push(combination.describe());
            }
        }
    }
    if !failed.is_empty() {
        bail!(
            "{} of {count} feature combination(s) failed: {}",
            failed.len(),
            failed.join("; ")
        );
    }
    println!("features: {count} combination(s) clean");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(features: &[&str], has_default_features: bool) -> Package {
        Package {
            name: "p".into(),
            version: "0.1.0".into(),
            benches: Vec::new(),
            publishable: true,
            features: features.iter().map(|f| (*f).to_owned()).collect(),
            has_default_features,
        }
    }

    fn flags(combinations: &[Combination]) -> Vec<String> {
        combinations
            .iter()
            .map(|c| {
                format!(
                    "{}{}",
                    c.flags.join(" "),
                    if c.all_targets { " +all" } else { "" }
                )
            })
            .collect()
    }

    #[test]
    fn a_crate_without_features_is_checked_alone_and_with_all_targets() {
        assert_eq!(
            flags(&combinations(&package(&[], false))),
            ["", "--all-features +all"]
        );
    }

    #[test]
    fn each_feature_alone_none_default_and_all() {
        assert_eq!(
            flags(&combinations(&package(&["client", "server"], true))),
            [
                "",
                "--no-default-features",
                "--no-default-features --features client",
                "--no-default-features --features server",
                "--all-features",
                "--all-features +all",
            ]
        );
    }
}
