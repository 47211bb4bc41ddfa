//! What the workspace's document and configuration tests share: where the workspace is,
//! and which files git tracks there.

use std::path::Path;
use std::process::Command;

/// The workspace root (`xtask/` is in it).
pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ is in the workspace root")
}

/// The tracked files, relative to the workspace root; only those matching the git
/// pathspec `pattern` when one is given.
pub(crate) fn git_ls_files(pattern: Option<&str>) -> Vec<String> {
    let mut command = Command::new("git");
    command.current_dir(root()).args(["ls-files", "-z"]);
    if let Some(pattern) = pattern {
        command.arg(pattern);
    }
    let output = command.output().expect("git runs");
    assert!(
        output.status.success(),
        "git ls-files failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("tracked paths are UTF-8")
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}
