//! The `msrv` gate, and `cargo xtask msrv`: the minimum supported Rust version the crates
//! declare (`rust-version`), checked as far as the current toolchain can.
//!
//! - Every workspace member declares a `rust-version`, and every member declares the same
//!   one (the workspace's), so the policy is one number.
//! - No crate the published crates build with (normal, build and dev-dependencies, through
//!   every feature) declares a newer `rust-version` than ours. A crate that declares none
//!   cannot be checked here; they are counted.
//! - Standard-library items stabilized after our `rust-version` are clippy's
//!   `incompatible_msrv` lint, which reads `rust-version` and runs in the `clippy` and
//!   `features` steps with warnings denied.
//!
//! What only the old compiler can tell (syntax or inference newer than it, a dependency
//! that declares nothing) is left to the hosted workflow's MSRV job, which runs
//! `cargo xtask msrv --test` with that toolchain: `cargo test` of every published crate.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::Value;

use crate::args::Args;
use crate::package;
use crate::process::Cmd;
use crate::workspace::Metadata;
use crate::{Result, bail};

pub(crate) const USAGE: &str = "  msrv [--test]
      Checks that every member declares the same rust-version and that no dependency of the
      published crates declares a newer one; --test then runs `cargo test --locked` of every
      published crate with the toolchain cargo runs on (the hosted MSRV job sets
      RUSTUP_TOOLCHAIN=1.88 and runs `cargo xtask msrv --test`).";

/// A version as `major.minor.patch`, missing parts 0.
fn parse_version(text: &str) -> Option<(u64, u64, u64)> {
    let mut parts = text.trim().split('.').map(|p| p.parse::<u64>().ok());
    let major = parts.next()??;
    let minor = parts.next().unwrap_or(Some(0))?;
    let patch = parts.next().unwrap_or(Some(0))?;
    if parts.next().is_some() {
        return None;
    }
    Some((major, minor, patch))
}

/// What the check found.
#[derive(Debug, Default, PartialEq)]
struct Findings {
    /// The members' declared versions: version → members.
    declared: BTreeMap<String, Vec<String>>,
    /// Members that declare none.
    undeclared_members: Vec<String>,
    /// Dependencies newer than ours: `name version (rust-version X)`.
    newer: Vec<String>,
    /// Dependencies checked, and those of them that declare no rust-version.
    checked: usize,
    silent: usize,
}

/// Reads `cargo metadata --all-features` output: `published` are the roots.
fn examine(metadata: &Value, published: &[String]) -> Result<Findings> {
    let packages = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata: no packages")?;
    let by_id: BTreeMap<&str, &Value> = packages
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p)))
        .collect();
    let members: BTreeSet<&str> = metadata["workspace_members"]
        .as_array()
        .ok_or("cargo metadata: no workspace_members")?
        .iter()
        .filter_map(Value::as_str)
        .collect();

    let mut findings = Findings::default();
    for id in &members {
        let package = by_id.get(id).ok_or("cargo metadata: unknown member")?;
        let name = package["name"].as_str().unwrap_or_default().to_owned();
        match package["rust_version"].as_str() {
            Some(v) => findings
                .declared
                .entry(v.to_owned())
                .or_default()
                .push(name),
            None => findings.undeclared_members.push(name),
        }
    }
    let Some(ours) = findings
        .declared
        .keys()
        .next()
        .and_then(|v| parse_version(v))
    else {
        return Ok(findings);
    };

    let nodes: BTreeMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .ok_or("cargo metadata: no resolve (run without --no-deps)")?
        .iter()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    // Roots: the published members, with every kind of dependency; beyond them, only
    // what a build needs (normal and build dependencies).
    let mut queue: VecDeque<(&str, bool)> = members
        .iter()
        .filter(|id| {
            by_id[*id]["name"]
                .as_str()
                .is_some_and(|n| published.iter().any(|p| p == n))
        })
        .map(|id| (*id, true))
        .collect();
    let mut seen: BTreeSet<&str> = queue.iter().map(|(id, _)| *id).collect();
    while let Some((id, root)) = queue.pop_front() {
        let Some(node) = nodes.get(id) else { continue };
        for dep in node["deps"].as_array().into_iter().flatten() {
            let Some(dep_id) = dep["pkg"].as_str() else {
                continue;
            };
            let kinds = dep["dep_kinds"].as_array().into_iter().flatten();
            let wanted = kinds
                .map(|k| k["kind"].as_str())
                .any(|kind| root || kind != Some("dev"));
            if wanted && seen.insert(dep_id) {
                queue.push_back((dep_id, false));
            }
        }
    }
    for id in seen.iter().filter(|id| !members.contains(*id)) {
        let package = by_id.get(id).ok_or("cargo metadata: unknown package")?;
        findings.checked += 1;
        match package["rust_version"].as_str().and_then(parse_version) {
            Some(theirs) if theirs > ours => findings.newer.push(format!(
                "{} {} (rust-version {})",
                package["name"].as_str().unwrap_or_default(),
                package["version"].as_str().unwrap_or_default(),
                package["rust_version"].as_str().unwrap_or_default()
            )),
            Some(_) => {}
            None => findings.silent += 1,
        }
    }
    Ok(findings)
}

/// The declarations check; returns the declared rust-version.
pub(crate) fn check() -> Result<String> {
    let workspace = Metadata::load()?;
    let published: Vec<String> = package::published(&workspace)
        .into_iter()
        .map(|p| p.name)
        .collect();
    let json = Cmd::cargo()
        .args(["metadata", "--format-version", "1", "--all-features"])
        .read_stdout()?;
    let metadata: Value =
        serde_json::from_str(&json).map_err(|e| format!("cargo metadata: bad JSON: {e}"))?;
    let findings = examine(&metadata, &published)?;
    if !findings.undeclared_members.is_empty() {
        bail!(
            "no rust-version in {} (add `rust-version.workspace = true`)",
            findings.undeclared_members.join(", ")
        );
    }
    if findings.declared.len() != 1 {
        let list: Vec<String> = findings
            .declared
            .iter()
            .map(|(v, who)| format!("{v}: {}", who.join(", ")))
            .collect();
        bail!(
            "the members declare different rust-versions: {}",
            list.join("; ")
        );
    }
    let ours = findings.declared.keys().next().cloned().unwrap_or_default();
    if !findings.newer.is_empty() {
        bail!(
            "dependencies of the published crates need a newer Rust than {ours}: {}",
            findings.newer.join(", ")
        );
    }
    println!(
        "msrv: every member declares rust-version {ours}; {} dependencies of the published crates checked, none newer ({} declare none and are left to the MSRV build)",
        findings.checked, findings.silent
    );
    Ok(ours)
}

/// `cargo xtask msrv [--test]`.
pub(crate) fn run(mut args: Args) -> Result<()> {
    let test = args.flag("--test");
    args.finish()?;
    check()?;
    if !test {
        return Ok(());
    }
    let workspace = Metadata::load()?;
    let mut cmd = Cmd::cargo().args(["test", "--locked", "--no-fail-fast"]);
    for krate in package::published(&workspace) {
        cmd = cmd.args(["-p", &krate.name]);
    }
    Cmd::new("rustc").arg("--version").run()?;
    cmd.run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_short_and_full_versions() {
        assert_eq!(parse_version("1.88"), Some((1, 88, 0)));
        assert_eq!(parse_version("1.88.1"), Some((1, 88, 1)));
        assert_eq!(parse_version("1"), Some((1, 0, 0)));
        assert_eq!(parse_version("1.x"), None);
        assert_eq!(parse_version("1.2.3.4"), None);
    }

    fn metadata(member_rv: &[Option<&str>], deps: &[(&str, Option<&str>, &str)]) -> Value {
        // Member 0 is published and depends on every dep with the given kind; dep "t"
        // (if any) depends on "u" as a dev-dependency, which a build does not need.
        let mut packages = Vec::new();
        let mut members = Vec::new();
        let mut nodes = Vec::new();
        for (i, rv) in member_rv.iter().enumerate() {
            let id = format!("m{i}");
            packages.push(serde_json::json!({"id": id, "name": format!("m{i}"), "version": "0.1.0", "rust_version": rv}));
            members.push(id.clone());
            let node_deps: Vec<Value> = if i == 0 {
                deps.iter()
                    .filter(|(name, ..)| *name != "u")
                    .map(|(name, _, kind)| serde_json::json!({"pkg": name, "dep_kinds": [{"kind": if *kind == "normal" { Value::Null } else { Value::from(*kind) }}]}))
                    .collect()
            } else {
                Vec::new()
            };
            nodes.push(serde_json::json!({"id": id, "deps": node_deps}));
        }
        for (name, rv, _) in deps {
            packages.push(serde_json::json!({"id": name, "name": name, "version": "1.0.0", "rust_version": rv}));
            let node_deps = if *name == "t" {
                vec![serde_json::json!({"pkg": "u", "dep_kinds": [{"kind": "dev"}]})]
            } else {
                Vec::new()
            };
            nodes.push(serde_json::json!({"id": name, "deps": node_deps}));
        }
        serde_json::json!({"packages": packages, "workspace_members": members, "resolve": {"nodes": nodes}})
    }

    #[test]
    fn finds_newer_dependencies_of_every_kind_at_the_roots_only() {
        let m = metadata(
            &[Some("1.88"), Some("1.88")],
            &[
                ("a", Some("1.85"), "normal"),
                ("b", Some("1.89"), "dev"),
                ("c", None, "build"),
                ("t", Some("1.88.0"), "normal"),
                ("u", Some("1.99"), "dev"),
            ],
        );
        let f = examine(&m, &["m0".to_owned()]).unwrap();
        assert_eq!(f.newer, ["b 1.0.0 (rust-version 1.89)"]);
        assert_eq!(f.checked, 4);
        assert_eq!(f.silent, 1);
        assert_eq!(f.declared.len(), 1);
        assert!(f.undeclared_members.is_empty());
    }

    #[test]
    fn reports_members_that_disagree_or_declare_nothing() {
        let m = metadata(&[Some("1.88"), Some("1.90"), None], &[]);
        let f = examine(&m, &["m0".to_owned()]).unwrap();
        assert_eq!(f.declared.len(), 2);
        assert_eq!(f.undeclared_members, ["m2"]);
    }
}
