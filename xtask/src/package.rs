//! The `package` gate: every published crate built and tested from its packaged `.crate`,
//! against the other packaged crates, as a user who downloads it (or crater) would.
//!
//! 1. `cargo package --workspace --no-verify` writes one `.crate` per publishable member to
//!    `target/package/` (cargo resolves the members' dependencies on each other through a
//!    local registry of the archives it just wrote, so a dependency version that only
//!    resolves through a path fails here).
//! 2. Each archive is unpacked into `target/package-check/crates/NAME-VERSION/`, which holds
//!    exactly what crates.io would serve: cargo's normalized manifest (path dependencies
//!    turned into registry dependencies, path-only dev-dependencies dropped) and only the
//!    files the archive carries.
//! 3. `target/package-check/Cargo.toml` makes the unpacked crates one workspace, with a
//!    `[patch.crates-io]` entry per crate pointing at its unpacked copy: each crate's
//!    registry dependency on another of ours resolves to that other crate's package, never
//!    to the repository's sources. The repository's `Cargo.lock` is copied in, so
//!    third-party crates have the same versions as in the `test` step.
//! 4. `cargo test --workspace --no-fail-fast` there: unit, integration and doc tests of
//!    every published crate, with the `dev` profile and the repository's target directory,
//!    so the third-party dependencies the `test` step compiled are reused where their
//!    features agree (the unpublished members, which this workspace lacks, add a few
//!    features to `libc`, `syn` and what depends on them, which are then built again).
//!    Only the packaged files that changed since the last run are rewritten (see
//!    [`sync_tree`]), so a warm run rebuilds only what changed.
//!
//! A file the archive lacks (an `include_str!` or test data outside the crate, a missing
//! README) or a dev-dependency that packaging drops fails the build or a test here; an
//! archive without both licence texts fails while unpacking. Cargo's own verification
//! (`cargo package` without `--no-verify`) is skipped: it builds each crate's library and
//! binaries from the same archives, which step 4 does too, with its tests.
//! `publish = false` members are left out: they are never uploaded.

use std::fs;
use std::path::Path;

use crate::process::Cmd;
use crate::workspace::{self, Metadata};
use crate::{Result, bail};

/// The licence texts every package carries (the crates are `MIT OR Apache-2.0`; each crate
/// folder links them from the repository's root, and cargo packages the files).
const LICENCE_FILES: [&str; 2] = ["LICENSE-MIT", "LICENSE-APACHE"];

/// Where the unpacked packages and their workspace go, under the target directory.
const CHECK_DIR: &str = "package-check";

/// A publishable member: its name and version, as `cargo metadata` gives them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Published {
    pub(crate) name: String,
    pub(crate) version: String,
}

impl Published {
    /// `NAME-VERSION`, the stem of its `.crate` and of the folder it unpacks to.
    fn stem(&self) -> String {
        format!("{}-{}", self.name, self.version)
    }
}

/// The members `cargo package --workspace` packages.
pub(crate) fn published(metadata: &Metadata) -> Vec<Published> {
    metadata
        .packages
        .iter()
        .filter(|p| p.publishable)
        .map(|p| Published {
            name: p.name.clone(),
            version: p.version.clone(),
        })
        .collect()
}

/// Runs the gate; `on_line` sees every line `cargo test` prints (for the tally).
pub(crate) fn check(on_line: impl FnMut(&str)) -> Result<()> {
    let metadata = Metadata::load()?;
    let crates = published(&metadata);
    if crates.is_empty() {
        bail!("no publishable member in the workspace: nothing to package");
    }
    let mut cmd = Cmd::cargo().args(["package", "--workspace", "--no-verify", "--allow-dirty"]);
    for package in metadata.packages.iter().filter(|p| !p.publishable) {
        cmd = cmd.args(["--exclude", &package.name]);
    }
    cmd.run()?;

    let archives = metadata.target_dir.join("package");
    let check_dir = metadata.target_dir.join(CHECK_DIR);
    let unpacked = check_dir.join("crates");
    let fresh = check_dir.join("unpacking");
    if fresh.exists() {
        fs::remove_dir_all(&fresh)?;
    }
    fs::create_dir_all(&fresh)?;
    for krate in &crates {
        let archive = archives.join(format!("{}.crate", krate.stem()));
        if !archive.is_file() {
            bail!("cargo package wrote no {}", archive.display());
        }
        Cmd::new("tar")
            .arg("-xzf")
            .arg(&archive)
            .arg("-C")
            .arg(&fresh)
            .run()?;
        if !fresh.join(krate.stem()).join("Cargo.toml").is_file() {
            bail!("{} did not unpack to {}/", archive.display(), krate.stem());
        }
        for licence in LICENCE_FILES {
            if !fresh.join(krate.stem()).join(licence).is_file() {
                bail!(
                    "{} carries no {licence}: both licences' texts must travel with the code",
                    archive.display()
                );
            }
        }
    }
    let changed = sync_tree(&fresh, &unpacked)?;
    fs::remove_dir_all(&fresh)?;
    println!("{changed} file(s) of the packages changed since the last run");
    fs::write(check_dir.join("Cargo.toml"), manifest(&crates))?;
    fs::copy(
        workspace::root().join("Cargo.lock"),
        check_dir.join("Cargo.lock"),
    )?;
    println!(
        "unpacked {} package(s) into {}; testing them there against each other",
        crates.len(),
        unpacked.display()
    );
    Cmd::cargo()
        .env("CARGO_TARGET_DIR", &metadata.target_dir.to_string_lossy())
        // One-shot builds of the unpacked crates: incremental state would only fill the disk.
        .env("CARGO_INCREMENTAL", "0")
        .arg("test")
        .arg("--manifest-path")
        .arg(check_dir.join("Cargo.toml"))
        .args(["--workspace", "--no-fail-fast"])
        .run_tee(on_line)
}

/// Makes `to` hold exactly the files of `from`, writing only those whose bytes differ (or
/// are new) and removing those `from` lacks; returns how many it wrote or removed.
///
/// cargo writes every file of a `.crate` with one fixed timestamp (archives are
/// reproducible), and cargo decides whether a path dependency needs rebuilding by comparing
/// its files' timestamps with the last build: unpacking over the previous run's files would
/// hide every change. A file rewritten here gets the current time, so exactly the crates
/// whose packaged files changed are rebuilt, and an unchanged one is not.
fn sync_tree(from: &Path, to: &Path) -> Result<usize> {
    let mut changed = 0;
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let source = entry.path();
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            if target.is_file() {
                fs::remove_file(&target)?;
            }
            changed += sync_tree(&source, &target)?;
        } else {
            let bytes = fs::read(&source)?;
            if target.is_dir() {
                fs::remove_dir_all(&target)?;
            }
            if fs::read(&target).ok().as_deref() != Some(bytes.as_slice()) {
                fs::write(&target, &bytes)?;
                changed += 1;
            }
        }
    }
    for entry in fs::read_dir(to)? {
        let entry = entry?;
        if !from.join(entry.file_name()).exists() {
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                fs::remove_dir_all(&path)?;
            } else {
                fs::remove_file(&path)?;
            }
            changed += 1;
        }
    }
    Ok(changed)
}

/// The manifest of the workspace of unpacked packages: every crate a member, and every
/// registry dependency on one of them patched to its unpacked copy.
fn manifest(crates: &[Published]) -> String {
    let mut out = String::from(
        "# Written by `cargo xtask ci --only package`: the published crates as unpacked from\n\
         # their .crate archives, each depending on the others' archives, never on the\n\
         # repository's sources.\n\
         [workspace]\nresolver = \"3\"\nmembers = [\n",
    );
    for krate in crates {
        out.push_str(&format!("    \"crates/{}\",\n", krate.stem()));
    }
    out.push_str("]\n\n[patch.crates-io]\n");
    for krate in crates {
        out.push_str(&format!(
            "{} = {{ path = \"crates/{}\" }}\n",
            krate.name,
            krate.stem()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sync_writes_only_what_changed_and_removes_what_is_gone() {
        let base = std::env::temp_dir().join(format!("xtask-sync-{}", std::process::id()));
        let (from, to) = (base.join("from"), base.join("to"));
        fs::create_dir_all(from.join("a/src")).unwrap();
        fs::write(from.join("a/src/lib.rs"), "one").unwrap();
        fs::write(from.join("a/Cargo.toml"), "toml").unwrap();
        assert_eq!(sync_tree(&from, &to).unwrap(), 2);
        assert_eq!(fs::read_to_string(to.join("a/src/lib.rs")).unwrap(), "one");
        let written = fs::metadata(to.join("a/Cargo.toml"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(sync_tree(&from, &to).unwrap(), 0);

        fs::write(from.join("a/src/lib.rs"), "two").unwrap();
        fs::create_dir_all(to.join("a/stale")).unwrap();
        fs::write(to.join("a/old.rs"), "gone").unwrap();
        assert_eq!(sync_tree(&from, &to).unwrap(), 3);
        assert_eq!(fs::read_to_string(to.join("a/src/lib.rs")).unwrap(), "two");
        assert!(!to.join("a/stale").exists() && !to.join("a/old.rs").exists());
        let kept = fs::metadata(to.join("a/Cargo.toml"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(written, kept, "an unchanged file keeps its timestamp");
        fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn manifest_makes_members_and_patches_of_every_package() {
        let crates = [
            Published {
                name: "a".into(),
                version: "0.1.0".into(),
            },
            Published {
                name: "b-c".into(),
                version: "1.2.3".into(),
            },
        ];
        let text = manifest(&crates);
        assert!(
            text.contains("members = [\n    \"crates/a-0.1.0\",\n    \"crates/b-c-1.2.3\",\n]")
        );
        assert!(text.contains(
            "[patch.crates-io]\na = { path = \"crates/a-0.1.0\" }\nb-c = { path = \"crates/b-c-1.2.3\" }\n"
        ));
    }
}
