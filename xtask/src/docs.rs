//! `cargo xtask docs`: regenerates the exchanges in `docs/specification-chapter.md` from the
//! reference server.
//!
//! The generator lives in the `mcp-lang-examples` package (`src/exchanges.rs`), which
//! already depends on the reference server; this task only runs it, so xtask itself stays
//! free of the MCP stack. `--check` exits non-zero when the chapter is stale instead of
//! rewriting it (the same comparison as the package's `chapter_current` test).

use crate::Result;
use crate::args::Args;
use crate::process::Cmd;

pub(crate) const USAGE: &str = "  docs [--check]
      Records the specification chapter's example exchanges from the reference server and
      splices them into docs/specification-chapter.md (--check: fail if it is stale).";

pub(crate) fn run(mut args: Args) -> Result<()> {
    let mode = if args.flag("--check") {
        "--check"
    } else {
        "--write"
    };
    args.finish()?;
    Cmd::cargo()
        .args([
            "run",
            "--quiet",
            "-p",
            "mcp-lang-examples",
            "--bin",
            "docs-exchanges",
            "--",
        ])
        .arg(mode)
        .run()
}
