//! `mcp-lang demo`: the SEP-2792 story, told by the reference server started in
//! this process (stdio framing and Streamable HTTP on loopback).
//!
//! Every exchange printed is real; the demo checks what it shows and exits
//! non-zero at the first behaviour that does not hold. It is a few screens
//! at most 100 columns wide, ending with what to run next; piped into a
//! pager that quits early (`mcp-lang demo | head`), it stops quietly.

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
        // The reader stopped reading (`| head`): not a failure of the demo.
        Err(error)
            if error
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("mcp-lang demo: {error}");
            ExitCode::FAILURE
        }
    }
}
