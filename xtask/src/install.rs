//! The `install` gate: `cargo install --path crates/mcp-lang-cli`, as a user runs it, gives a
//! working `mcp-lang`.
//!
//! The binary is installed into a scratch root under the target directory (never into
//! `~/.cargo/bin`), with `--locked` (the repository's `Cargo.lock`, which the crate's package
//! carries too) and the repository's target directory, so a later run reuses the optimized
//! build. The installed binary then tells the demo story, which needs nothing but itself (the
//! catalogs are compiled in): the run must succeed and show negotiated answers. Its size is
//! printed; the `release` profile (what `cargo install` uses) strips it.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::process::Cmd;
use crate::workspace::Metadata;
use crate::{Result, bail};

/// The package and binary users install.
const PACKAGE_DIR: &str = "crates/mcp-lang-cli";
const BINARY: &str = "mcp-lang";

/// Lines the demo prints only when the reference server negotiated real requests.
const DEMO_MARKS: [&str; 2] = [
    "contentLanguage \"fr-CA\"",
    "Every message above was produced by the reference server",
];

/// Runs the gate.
pub(crate) fn check() -> Result<()> {
    let metadata = Metadata::load()?;
    let root = metadata.target_dir.join("install-check");
    if root.exists() {
        fs::remove_dir_all(&root)?;
    }
    Cmd::cargo()
        .args(["install", "--locked", "--path", PACKAGE_DIR, "--root"])
        .arg(&root)
        .arg("--target-dir")
        .arg(&metadata.target_dir)
        .run()?;
    let binary = root
        .join("bin")
        .join(format!("{BINARY}{}", std::env::consts::EXE_SUFFIX));
    let size = fs::metadata(&binary)
        .map_err(|e| format!("cargo install wrote no {}: {e}", binary.display()))?
        .len();
    println!(
        "installed {} ({:.1} MiB)",
        binary.display(),
        size as f64 / (1024.0 * 1024.0)
    );
    Cmd::new(&binary).arg("--version").run()?;
    demo(&binary)
}

/// Runs `mcp-lang demo` from the installed binary and checks what it told.
fn demo(binary: &Path) -> Result<()> {
    println!("$ {} demo", binary.display());
    // Run from an empty directory: the binary must not need the repository.
    let cwd = binary.parent().unwrap_or(binary);
    let out = Command::new(binary)
        .arg("demo")
        .current_dir(cwd)
        .output()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!(
            "`{BINARY} demo` failed ({}):\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let missing: Vec<&str> = DEMO_MARKS
        .iter()
        .copied()
        .filter(|mark| !stdout.contains(mark))
        .collect();
    if !missing.is_empty() {
        bail!("`{BINARY} demo` succeeded but did not print {missing:?}:\n{stdout}");
    }
    println!(
        "{BINARY} demo: {} lines, negotiated answers shown",
        stdout.lines().count()
    );
    Ok(())
}
