//! The Python environment of the interop tests: a virtual environment under
//! `target/tmp/py-interop` with the official MCP SDK (`mcp` on PyPI, pinned).
//!
//! The first test to need it runs `python3 -m venv` and
//! `pip install mcp==2.3.0`; a marker file written only after pip succeeded
//! makes later runs (of any test binary) reuse the environment and makes an
//! interrupted install start again. Within one test binary a mutex makes the
//! other tests wait for it; `cargo test` runs test binaries one after the
//! other, so two never build it at once.
//!
//! Without python3 [`venv`] fails the test when `CI` is set (a CI machine must
//! have it: a silent skip there would hide the interop checks) and otherwise
//! returns `None` after printing why, so the test can skip.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::process::{on_ci, runs};

/// The SDK version the interop scripts were written against.
pub(crate) const MCP_PYPI: &str = "mcp==2.3.0";

/// The first test of a binary to get here builds the environment.
static VENV: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The venv's python, or `None` (after printing why) when python3 is absent
/// on a developer machine. Panics on CI without python3, and whenever
/// provisioning itself fails.
pub(crate) fn venv() -> Option<PathBuf> {
    let _guard = VENV.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("py-interop");
    let python = dir.join("bin").join("python");
    let marker = dir.join(format!(".installed-{MCP_PYPI}"));
    if marker.exists() && python.exists() {
        return Some(python);
    }
    if !runs("python3") {
        assert!(
            !on_ci(),
            "python3 is not installed, and CI is set: the Python SDK interop tests must run in CI"
        );
        eprintln!("SKIPPED python interop: python3 is not installed (CI is not set)");
        return None;
    }
    let status = Command::new("python3")
        .args(["-m", "venv", "--clear"])
        .arg(&dir)
        .status()
        .expect("python3 -m venv did not start");
    assert!(status.success(), "python3 -m venv {} failed", dir.display());
    let status = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            MCP_PYPI,
        ])
        .status()
        .expect("pip did not start");
    assert!(status.success(), "pip install {MCP_PYPI} failed");
    std::fs::write(&marker, MCP_PYPI).expect("cannot write the venv marker");
    Some(python)
}
