//! The `mcp-lang` command line, built inside this package so that its tests can
//! start `mcp-lang serve` as a child process (`CARGO_BIN_EXE_mcp-lang-under-test`).
//! It is `crates/mcp-lang-cli`'s `main`, unchanged.

use std::process::ExitCode;

fn main() -> ExitCode {
    mcp_lang_cli::main()
}
