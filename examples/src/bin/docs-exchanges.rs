//! Regenerates the exchanges of `docs/specification-chapter.md` from the reference server.
//!
//! ```text
//! cargo run -p mcp-lang-examples --bin docs-exchanges -- --write   # rewrite the chapter
//! cargo run -p mcp-lang-examples --bin docs-exchanges -- --check   # exit 1 if it is stale
//! cargo run -p mcp-lang-examples --bin docs-exchanges -- --print   # print the exchanges
//! ```
//!
//! `cargo xtask docs` runs it with `--write`.

use std::process::ExitCode;

use mcp_lang_examples::exchanges;

fn main() -> ExitCode {
    let mode = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "--check".to_owned());
    let path = exchanges::chapter_path();
    let result = (|| -> Result<ExitCode, exchanges::BoxError> {
        let generated = exchanges::generate()?;
        if mode == "--print" {
            for (name, text) in &generated {
                println!("<!-- exchange: {name} -->\n{text}<!-- /exchange -->\n");
            }
            return Ok(ExitCode::SUCCESS);
        }
        let current = std::fs::read_to_string(&path)?;
        let fresh = exchanges::splice(&current, &generated)?;
        match mode.as_str() {
            "--write" => {
                if fresh != current {
                    std::fs::write(&path, &fresh)?;
                    eprintln!("docs-exchanges: rewrote {}", path.display());
                } else {
                    eprintln!("docs-exchanges: {} is current", path.display());
                }
                Ok(ExitCode::SUCCESS)
            }
            "--check" if fresh == current => Ok(ExitCode::SUCCESS),
            "--check" => {
                eprintln!(
                    "docs-exchanges: {} is stale; run `cargo xtask docs`",
                    path.display()
                );
                Ok(ExitCode::FAILURE)
            }
            other => {
                Err(format!("unknown option `{other}` (use --check, --write or --print)").into())
            }
        }
    })();
    result.unwrap_or_else(|e| {
        eprintln!("docs-exchanges: error: {e}");
        ExitCode::FAILURE
    })
}
