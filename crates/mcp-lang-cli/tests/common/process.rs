//! What every interop test needs, whatever the language on the other side:
//! the files under `tests/interop/`, whether we run on CI, whether a program
//! runs, and a guard that stops a child process when a test ends.
//!
//! The modules under `tests/common/` are declared at the root of each test
//! binary that uses them (`#[path = "common/process.rs"] mod process;`) and
//! refer to one another as `crate::process`, `crate::suite`: each binary
//! compiles only the modules it uses, so none has an unused item.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Whether we run on a CI machine (most CI systems set `CI=true`).
pub(crate) fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Whether `program --version` runs.
pub(crate) fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A file under the CLI's `tests/interop/`. (The fault bench's mutation
/// bench compiles these modules too, from the CLI's sibling directory.)
pub(crate) fn interop_file(name: &str) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let own = manifest.join("tests/interop");
    let dir = if own.is_dir() {
        own
    } else {
        manifest.join("../mcp-lang-cli/tests/interop")
    };
    dir.join(name)
}

/// Kills and reaps a child process when dropped, so a failing test leaves no
/// server behind.
pub(crate) struct KillOnDrop(pub(crate) Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
