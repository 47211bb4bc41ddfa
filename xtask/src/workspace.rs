//! Where things are: the workspace root, cargo's target directory, and the packages and
//! targets the workspace has today (asked of `cargo metadata`, never listed by hand).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::Result;
use crate::process::Cmd;

/// The workspace root (the parent of this package).
pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or_else(|| Path::new("."))
}

/// A workspace member, as far as the tasks care.
#[derive(Debug)]
pub(crate) struct Package {
    /// The package name (`-p NAME`).
    pub(crate) name: String,
    /// Its version.
    pub(crate) version: String,
    /// Names of its `[[bench]]` targets.
    pub(crate) benches: Vec<String>,
    /// False for `publish = false` (cargo metadata's `"publish": []`).
    pub(crate) publishable: bool,
}

/// The workspace as `cargo metadata --no-deps` describes it.
#[derive(Debug)]
pub(crate) struct Metadata {
    /// cargo's target directory (honours `CARGO_TARGET_DIR` and config).
    pub(crate) target_dir: PathBuf,
    /// The members, in cargo's order.
    pub(crate) packages: Vec<Package>,
}

/// `cargo metadata --no-deps` of the workspace at `manifest` (`None`: this one), as JSON.
pub(crate) fn metadata_json(manifest: Option<&Path>) -> Result<Value> {
    let mut cmd = Cmd::cargo().args(["metadata", "--format-version", "1", "--no-deps"]);
    if let Some(manifest) = manifest {
        cmd = cmd.arg("--manifest-path").arg(manifest);
    }
    let json = cmd.read_stdout()?;
    Ok(serde_json::from_str(&json).map_err(|e| format!("cargo metadata: bad JSON: {e}"))?)
}

/// The packages of a `cargo metadata` answer.
pub(crate) fn packages(metadata: &Value) -> impl Iterator<Item = &Value> {
    metadata["packages"].as_array().into_iter().flatten()
}

/// The targets of `kind` (`lib`, `bin`, `bench`…) of one package of `cargo metadata`.
pub(crate) fn targets_of_kind<'p>(
    package: &'p Value,
    kind: &'p str,
) -> impl Iterator<Item = &'p Value> + 'p {
    package["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(move |t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == kind))
        })
}

impl Metadata {
    /// Asks cargo.
    pub(crate) fn load() -> Result<Metadata> {
        Metadata::from_value(&metadata_json(None)?)
    }

    fn from_value(v: &Value) -> Result<Metadata> {
        let target_dir = v["target_directory"]
            .as_str()
            .map(PathBuf::from)
            .ok_or("cargo metadata: no target_directory")?;
        let packages = v["packages"]
            .as_array()
            .ok_or("cargo metadata: no packages")?
            .iter()
            .map(|p| Package {
                name: p["name"].as_str().unwrap_or_default().to_owned(),
                version: p["version"].as_str().unwrap_or_default().to_owned(),
                benches: targets_of_kind(p, "bench")
                    .filter_map(|t| t["name"].as_str().map(str::to_owned))
                    .collect(),
                publishable: p["publish"]
                    .as_array()
                    .is_none_or(|registries| !registries.is_empty()),
            })
            .collect();
        Ok(Metadata {
            target_dir,
            packages,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_target_dir_and_bench_targets() {
        let json = r#"{
            "target_directory": "/w/target",
            "packages": [
                {"name": "a", "publish": null, "targets": [{"kind": ["lib"], "name": "a"}]},
                {"name": "b", "publish": [], "targets": [
                    {"kind": ["lib"], "name": "b"},
                    {"kind": ["bench"], "name": "parse"},
                    {"kind": ["bench"], "name": "negotiate"}
                ]}
            ]
        }"#;
        let m = Metadata::from_value(&serde_json::from_str(json).unwrap()).unwrap();
        assert_eq!(m.target_dir, PathBuf::from("/w/target"));
        assert_eq!(m.packages.len(), 2);
        assert!(m.packages[0].benches.is_empty());
        assert_eq!(m.packages[1].benches, ["parse", "negotiate"]);
        assert!(m.packages[0].publishable);
        assert!(!m.packages[1].publishable);
    }
}
