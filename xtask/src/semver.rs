//! The `semver` gate, and `cargo xtask semver`: the public API of every published crate,
//! compared by `cargo-semver-checks` with the API of the last release, so a breaking change
//! cannot land without the version bump that announces it.
//!
//! No crate is on crates.io yet, so the baseline is a git commit, named in
//! [`BASELINE_FILE`] (with the release's tag, `v0.2.0`, as a convenience: a fresh clone may
//! not have fetched tags, so the commit is what counts). Each crate's public API is read from
//! its rustdoc JSON (with all features), built here for the working tree and for the
//! baseline's sources (`git archive` of the commit, unpacked once under
//! `target/semver/`), then compared crate by crate. A change that needs a bigger version step
//! than the one between the baseline's versions and ours fails (`0.2.0` at the baseline and
//! in the workspace: an addition passes, a breaking change needs the move to `0.3.0`).
//!
//! The rustdoc JSON is built by `cargo doc` in the repository's target directory, so the
//! dependencies' metadata the `clippy` and `doc` steps compiled is reused, and the baseline
//! shares it too. (Left to itself, `cargo semver-checks --baseline-rev` builds every crate's
//! dependencies in a project of its own, twice: 19 minutes here where this takes under one.)
//! rustdoc's JSON output is unstable, so rustdoc, and only rustdoc, runs with
//! `RUSTC_BOOTSTRAP=1`: a two-line shell script in the target directory
//! (`rustdoc-json.sh`) is cargo's `RUSTDOC` for that build. Setting it for the whole build
//! would change how `proc-macro2` and the crates after it are built, and rebuild them.
//!
//! `cargo xtask semver --set-baseline TAG` makes a release the baseline: `TAG` is the
//! release's tag, `v` and the workspace's version (`v0.2.0`), created at `HEAD` (with a clean
//! work tree, so that the tagged commit has that version) when this clone does not have it;
//! the file's `tag` and `commit` lines are rewritten to name it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::args::Args;
use crate::package;
use crate::process::Cmd;
use crate::tools::Tool;
use crate::workspace::{self, Metadata};
use crate::{Result, bail};

pub(crate) const USAGE: &str = "  semver [--set-baseline TAG]
      cargo-semver-checks of every published crate against the release named in
      .ci/semver-baseline (a git commit). --set-baseline TAG makes the release TAG (`v` and
      the workspace's version; tagged at HEAD when missing) the baseline, then checks
      against it.";

/// The file that names the baseline release.
pub(crate) const BASELINE_FILE: &str = ".ci/semver-baseline";

/// cargo-semver-checks, pinned.
pub(crate) const CARGO_SEMVER_CHECKS: Tool = Tool {
    krate: "cargo-semver-checks",
    subcommand: "semver-checks",
    version: "0.51.0",
};

/// What [`BASELINE_FILE`] says.
#[derive(Debug, PartialEq)]
pub(crate) struct Baseline {
    /// The release's tag (`v0.2.0`).
    pub(crate) tag: String,
    /// The full commit hash the tag points at.
    pub(crate) commit: String,
}

impl Baseline {
    /// Reads `key = value` lines; `#` starts a comment.
    fn parse(text: &str) -> Result<Baseline> {
        let mut tag = None;
        let mut commit = None;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                bail!("{BASELINE_FILE}: `{line}` is not `key = value`");
            };
            let value = value.trim().to_owned();
            match key.trim() {
                "tag" => tag = Some(value),
                "commit" => commit = Some(value),
                other => bail!("{BASELINE_FILE}: unknown key `{other}`"),
            }
        }
        let (Some(tag), Some(commit)) = (tag, commit) else {
            bail!("{BASELINE_FILE} must set both `tag` and `commit`");
        };
        if commit.len() != 40 || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
            bail!("{BASELINE_FILE}: commit `{commit}` is not a full 40-digit hash");
        }
        Ok(Baseline { tag, commit })
    }

    fn load() -> Result<Baseline> {
        let path = workspace::root().join(BASELINE_FILE);
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Baseline::parse(&text)
    }
}

/// `text` with the values of its `tag = …` and `commit = …` lines replaced by `baseline`'s
/// (comments and other lines kept).
fn with_baseline(text: &str, baseline: &Baseline) -> Result<String> {
    let mut out = String::new();
    let (mut tags, mut commits) = (0, 0);
    for line in text.lines() {
        let key = line.split('=').next().unwrap_or_default().trim();
        let value = match key {
            _ if line.trim_start().starts_with('#') => None,
            "tag" => {
                tags += 1;
                Some(&baseline.tag)
            }
            "commit" => {
                commits += 1;
                Some(&baseline.commit)
            }
            _ => None,
        };
        match value {
            Some(value) => out.push_str(&format!("{key} = {value}")),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    if (tags, commits) != (1, 1) {
        bail!("{BASELINE_FILE} must have one `tag = …` and one `commit = …` line");
    }
    Ok(out)
}

fn git() -> Cmd {
    Cmd::new("git")
}

/// The full hash of the commit `rev` names, if this clone has it.
fn resolve(rev: &str) -> Option<String> {
    let out = git()
        .args(["rev-parse", "--verify", "--quiet"])
        .arg(format!("{rev}^{{commit}}"))
        .read_stdout_quietly()?;
    Some(out.trim().to_owned())
}

/// Makes sure this clone has the baseline commit (a shallow clone fetches it), and that the
/// local tag, if there is one, agrees with the file.
fn ensure_commit(baseline: &Baseline) -> Result<()> {
    if resolve(&baseline.commit).is_none() {
        println!(
            "the baseline commit {} is not in this clone: fetching it from origin",
            baseline.commit
        );
        let fetched = git()
            .args(["fetch", "--no-tags", "--quiet", "origin", &baseline.commit])
            .run();
        if fetched.is_err() || resolve(&baseline.commit).is_none() {
            bail!(
                "the baseline commit {} ({BASELINE_FILE}) is not in this clone and could not be fetched (clone the full history: `actions/checkout` with `fetch-depth: 0`)",
                baseline.commit
            );
        }
    }
    match resolve(&format!("refs/tags/{}", baseline.tag)) {
        Some(tagged) if tagged != baseline.commit => bail!(
            "the tag {} points at {tagged}, but {BASELINE_FILE} names {}: move the tag (`git tag --force {} {}`) or make the file follow it (`cargo xtask semver --set-baseline {}`)",
            baseline.tag,
            baseline.commit,
            baseline.tag,
            baseline.commit,
            baseline.tag
        ),
        Some(_) => println!("baseline: {} = {}", baseline.tag, baseline.commit),
        None => println!(
            "baseline: {} (the tag {} is not in this clone; the commit is what counts)",
            baseline.commit, baseline.tag
        ),
    }
    Ok(())
}

/// The rustdoc of the toolchain that runs cargo.
fn real_rustdoc() -> Result<PathBuf> {
    let sysroot = Cmd::new("rustc")
        .args(["--print", "sysroot"])
        .read_stdout()?;
    let rustdoc = Path::new(sysroot.trim())
        .join("bin")
        .join(format!("rustdoc{}", std::env::consts::EXE_SUFFIX));
    if !rustdoc.is_file() {
        bail!("no rustdoc at {}", rustdoc.display());
    }
    Ok(rustdoc)
}

/// The library name cargo gives a package's lib target (ours all use the default).
fn lib_name(package: &str) -> String {
    package.replace('-', "_")
}

/// Builds the rustdoc JSON of `packages` (libraries, all features) of the workspace at
/// `manifest` in `target_dir`, and moves each to `out/<lib>.json`.
///
/// Both workspaces write `target_dir/doc/<lib>.json`, so each file is moved out as soon as
/// its build ends, and one left there by an interrupted run is deleted first. A crate
/// cargo finds up to date is not documented again: the JSON its last build wrote is the one
/// already in `out` (each `out` only ever receives its own workspace's files). When that
/// one is gone too, the crate's source is touched so that cargo documents it again.
fn rustdoc_json(manifest: &Path, packages: &[String], target_dir: &Path, out: &Path) -> Result<()> {
    // rustdoc alone runs with RUSTC_BOOTSTRAP=1 (JSON output is unstable): set for all of
    // cargo, it would also change what build scripts probing for nightly features find.
    fs::create_dir_all(target_dir)?;
    let wrapper = target_dir.join("rustdoc-json.sh");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nRUSTC_BOOTSTRAP=1 exec '{}' \"$@\"\n",
            real_rustdoc()?.display()
        ),
    )?;
    fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )?;
    let build = |packages: &[String]| {
        let mut cmd = Cmd::cargo()
            .env("CARGO_TARGET_DIR", &target_dir.to_string_lossy())
            .env("RUSTDOC", &wrapper.to_string_lossy())
            .env("RUSTDOCFLAGS", "-Z unstable-options --output-format json")
            .arg("doc")
            .arg("--manifest-path")
            .arg(manifest)
            .args(["--no-deps", "--lib", "--all-features"]);
        for package in packages {
            cmd = cmd.args(["-p", package]);
        }
        cmd.run()
    };
    let json = |package: &str| format!("{}.json", lib_name(package));
    for package in packages {
        let left = target_dir.join("doc").join(json(package));
        if left.exists() {
            fs::remove_file(left)?;
        }
    }
    build(packages)?;
    fs::create_dir_all(out)?;
    // Moves the fresh files out; names the crates with neither a fresh nor a kept file.
    let take = |packages: &[String]| -> Result<Vec<String>> {
        let mut missing = Vec::new();
        for package in packages {
            let built = target_dir.join("doc").join(json(package));
            if built.exists() {
                fs::rename(&built, out.join(json(package)))?;
            } else if !out.join(json(package)).exists() {
                missing.push(package.clone());
            }
        }
        Ok(missing)
    };
    let missing = take(packages)?;
    if missing.is_empty() {
        return Ok(());
    }
    println!(
        "cargo found {} up to date, but the JSON of its last build is gone: documenting again",
        missing.join(", ")
    );
    for source in lib_sources(manifest, &missing)? {
        fs::File::options()
            .append(true)
            .open(&source)?
            .set_modified(std::time::SystemTime::now())?;
    }
    build(&missing)?;
    let still = take(&missing)?;
    if !still.is_empty() {
        bail!("rustdoc wrote no JSON for {}", still.join(", "));
    }
    Ok(())
}

/// The source files of the libraries of `packages` in the workspace at `manifest`.
fn lib_sources(manifest: &Path, packages: &[String]) -> Result<Vec<PathBuf>> {
    let v = crate::workspace::metadata_json(Some(manifest))?;
    Ok(crate::workspace::packages(&v)
        .filter(|p| packages.iter().any(|name| p["name"] == name.as_str()))
        .flat_map(|p| crate::workspace::targets_of_kind(p, "lib"))
        .filter_map(|t| t["src_path"].as_str().map(PathBuf::from))
        .collect())
}

/// The baseline commit's sources, unpacked (once) under `work`; returns its manifest.
fn baseline_sources(baseline: &Baseline, work: &Path) -> Result<PathBuf> {
    let dir = work.join(format!("baseline-{}", baseline.commit));
    let done = dir.join(".xtask-unpacked");
    if !done.exists() {
        if dir.exists() {
            fs::remove_dir_all(&dir)?;
        }
        fs::create_dir_all(&dir)?;
        let tar = work.join("baseline.tar");
        git()
            .args(["archive", "--format=tar", "-o"])
            .arg(&tar)
            .arg(&baseline.commit)
            .run()?;
        Cmd::new("tar")
            .arg("-xf")
            .arg(&tar)
            .arg("-C")
            .arg(&dir)
            .run()?;
        fs::remove_file(&tar)?;
        fs::write(&done, &baseline.commit)?;
    }
    Ok(dir.join("Cargo.toml"))
}

/// The names of the members of the workspace at `manifest`.
fn members(manifest: &Path) -> Result<Vec<String>> {
    let v = crate::workspace::metadata_json(Some(manifest))?;
    Ok(v["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect())
}

/// Runs the gate.
pub(crate) fn check() -> Result<()> {
    let baseline = Baseline::load()?;
    ensure_commit(&baseline)?;
    CARGO_SEMVER_CHECKS.ensure()?;
    let metadata = Metadata::load()?;
    let work = metadata.target_dir.join("semver");
    let base_manifest = baseline_sources(&baseline, &work)?;
    let in_baseline = members(&base_manifest)?;
    let published: Vec<String> = package::published(&metadata)
        .into_iter()
        .map(|p| p.name)
        .collect();
    let (compared, new): (Vec<String>, Vec<String>) = published
        .iter()
        .cloned()
        .partition(|name| in_baseline.contains(name));

    println!("-- rustdoc JSON of the baseline ({})", baseline.commit);
    rustdoc_json(
        &base_manifest,
        &compared,
        &metadata.target_dir,
        &work.join("baseline"),
    )?;
    println!("-- rustdoc JSON of the working tree");
    rustdoc_json(
        &workspace::root().join("Cargo.toml"),
        &compared,
        &metadata.target_dir,
        &work.join("current"),
    )?;
    let mut failed = Vec::new();
    for name in &compared {
        let json = format!("{}.json", lib_name(name));
        println!("-- {name}");
        let result = CARGO_SEMVER_CHECKS
            .cargo()?
            .arg("--baseline-rustdoc")
            .arg(work.join("baseline").join(&json))
            .arg("--current-rustdoc")
            .arg(work.join("current").join(&json))
            .run();
        if result.is_err() {
            failed.push(name.as_str());
        }
    }
    for name in &new {
        println!("{name}: not in the baseline (new since it), nothing to compare");
    }
    if !failed.is_empty() {
        bail!(
            "the public API of {} changed in a way its version does not allow (see above): bump the workspace version, and say why in CHANGELOG.md",
            failed.join(", ")
        );
    }
    println!(
        "semver: {} crate(s) compatible with {} ({})",
        compared.len(),
        baseline.tag,
        baseline.commit
    );
    Ok(())
}

/// `cargo xtask semver [--set-baseline TAG]`.
pub(crate) fn run(mut args: Args) -> Result<()> {
    let set = args.value("--set-baseline")?;
    args.finish()?;
    if let Some(tag) = set {
        set_baseline(&tag)?;
    }
    check()
}

/// Makes the release `tag` the baseline: the tag is created at `HEAD` when missing, and
/// must be `v` and the workspace's version, so the file never names a release by another
/// release's tag.
fn set_baseline(tag: &str) -> Result<()> {
    let metadata = Metadata::load()?;
    let versions: std::collections::BTreeSet<String> = package::published(&metadata)
        .into_iter()
        .map(|p| p.version)
        .collect();
    let version = match (versions.len(), versions.first()) {
        (1, Some(version)) => version,
        _ => bail!("the published crates do not share one version: {versions:?}"),
    };
    if tag != format!("v{version}") {
        bail!("the release tag is `v` and the workspace's version, `v{version}`, not `{tag}`");
    }
    let path = workspace::root().join(BASELINE_FILE);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Baseline::parse(&text)?;
    let tagged = resolve(&format!("refs/tags/{tag}"));
    let commit = match &tagged {
        Some(commit) => commit.clone(),
        None => {
            let changes = git().args(["status", "--porcelain"]).read_stdout()?;
            if !changes.trim().is_empty() {
                bail!(
                    "the work tree has uncommitted changes: commit the release before tagging it"
                );
            }
            resolve("HEAD").ok_or("HEAD names no commit")?
        }
    };
    let baseline = Baseline {
        tag: tag.to_owned(),
        commit,
    };
    let rewritten = with_baseline(&text, &baseline)?;
    if tagged.is_none() {
        git().args(["tag", tag, &baseline.commit]).run()?;
    } else if resolve("HEAD").as_ref() != Some(&baseline.commit) {
        println!(
            "the tag {tag} exists at {}: the baseline follows it",
            baseline.commit
        );
    }
    fs::write(&path, rewritten)?;
    println!(
        "{BASELINE_FILE} now names {tag} ({}); commit the file, and push the tag with `git push origin {tag}` when the release is public",
        baseline.commit
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# comment\ntag = v0.1.0   # the release\ncommit = 0123456789abcdef0123456789abcdef01234567\n";

    #[test]
    fn reads_the_baseline_file() {
        assert_eq!(
            Baseline::parse(FILE).unwrap(),
            Baseline {
                tag: "v0.1.0".into(),
                commit: "0123456789abcdef0123456789abcdef01234567".into()
            }
        );
        assert!(Baseline::parse("tag = v0.1.0\n").is_err());
        assert!(Baseline::parse("tag = v0.1.0\ncommit = 0123abc\n").is_err());
        assert!(Baseline::parse("tag = v0.1.0\ncommit = x\nother = 1\n").is_err());
    }

    #[test]
    fn moves_the_tag_and_commit_lines_only() {
        let next = Baseline {
            tag: "v0.2.0".into(),
            commit: "fedcba9876543210fedcba9876543210fedcba98".into(),
        };
        let moved = with_baseline(FILE, &next).unwrap();
        assert_eq!(
            moved,
            "# comment\ntag = v0.2.0\ncommit = fedcba9876543210fedcba9876543210fedcba98\n"
        );
        assert_eq!(Baseline::parse(&moved).unwrap(), next);
        assert!(with_baseline("# tag = v0.1.0\ncommit = 0\n", &next).is_err());
        assert!(with_baseline("tag = v0.1.0\ntag = v0.1.0\n", &next).is_err());
    }
}
