//! The Node.js environment of the TypeScript SDK interop test: a directory
//! `target/tmp/ts-interop` holding the official TypeScript MCP SDK
//! (`@modelcontextprotocol/sdk` on npm, pinned with its whole dependency tree
//! by `tests/interop/node/package-lock.json`), the interop scripts beside its
//! `node_modules` (Node resolves an ES module's imports from the module's own
//! directory, so the scripts run from there).
//!
//! The first test to need it copies `package.json` and `package-lock.json`
//! there and runs `npm ci`; a marker file naming the lock's contents, written
//! only after npm succeeded, makes later runs reuse the install, and makes a
//! changed lock or an interrupted install start again. Nothing is written to
//! the source tree. Within one test binary a mutex makes the other tests wait
//! for it.
//!
//! Without `npm` [`node_dir`] fails the test when `CI` is set (a CI machine
//! must have it: a silent skip there would hide the interop checks) and
//! otherwise returns `None` after printing why, so the test can skip.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::process::{interop_file, on_ci, runs};

/// The SDK the interop server is written against (pinned in `package.json`).
pub(crate) const MCP_NPM: &str = "@modelcontextprotocol/sdk@1.32.2";

/// The scripts under `tests/interop/` the server needs beside `node_modules`.
const SCRIPTS: [&str; 2] = ["sep2792_server.mjs", "sep2792_lang.mjs"];

/// The first test of a binary to get here installs the SDK.
static INSTALL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The directory with the installed SDK and fresh copies of the interop
/// scripts, or `None` (after printing why) when `node` or `npm` is absent on a
/// developer machine. Panics on CI without them, and whenever provisioning
/// itself fails.
pub(crate) fn node_dir() -> Option<PathBuf> {
    let _guard = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if !(runs("node") && runs("npm")) {
        assert!(
            !on_ci(),
            "node or npm is not installed, and CI is set: the TypeScript SDK interop tests must run in CI"
        );
        eprintln!("SKIPPED typescript interop: node or npm is not installed (CI is not set)");
        return None;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ts-interop");
    let pinned = interop_file("node");
    let manifest =
        std::fs::read(pinned.join("package.json")).expect("tests/interop/node/package.json");
    let lock = std::fs::read(pinned.join("package-lock.json"))
        .expect("tests/interop/node/package-lock.json");
    let mut hasher = DefaultHasher::new();
    (&manifest, &lock).hash(&mut hasher);
    let marker = dir.join(format!(".installed-{:016x}", hasher.finish()));
    if !(marker.exists() && dir.join("node_modules").is_dir()) {
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("cannot clear the previous install");
        }
        std::fs::create_dir_all(&dir).expect("cannot create the install directory");
        std::fs::write(dir.join("package.json"), &manifest).expect("cannot copy package.json");
        std::fs::write(dir.join("package-lock.json"), &lock)
            .expect("cannot copy package-lock.json");
        let started = std::time::Instant::now();
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&dir)
            .status()
            .expect("npm did not start");
        assert!(
            status.success(),
            "npm ci of {MCP_NPM} in {} failed",
            dir.display()
        );
        println!(
            "npm ci of {MCP_NPM}: {:.1} s",
            started.elapsed().as_secs_f64()
        );
        std::fs::write(&marker, MCP_NPM).expect("cannot write the install marker");
    }
    for script in SCRIPTS {
        std::fs::copy(interop_file(script), dir.join(script))
            .unwrap_or_else(|e| panic!("cannot copy {script}: {e}"));
    }
    Some(dir)
}
