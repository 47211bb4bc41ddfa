//! The `mcp-lang` binary; everything lives in the `mcp_lang_cli` library.

use std::process::ExitCode;

fn main() -> ExitCode {
    mcp_lang_cli::main()
}
