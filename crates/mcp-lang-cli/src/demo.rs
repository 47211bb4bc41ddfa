//! `mcp-lang demo`: the SEP-2792 story, told by the reference server started in
//! this process (stdio framing and Streamable HTTP on loopback).
//!
//! Every exchange printed is real; the demo checks what it shows and exits
//! non-zero at the first behaviour that does not hold.

use std::process::ExitCode;

use clap::Args;

/// Arguments of `mcp-lang demo` (none yet).
#[derive(Debug, Args)]
pub struct DemoArgs {}

/// Runs `mcp-lang demo`.
pub fn run(_args: &DemoArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("mcp-lang demo: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    match runtime.block_on(mcp_lang_reference::demo::run(&mut out)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-lang demo: {error}");
            ExitCode::FAILURE
        }
    }
}
