//! Runs the SEP-2792 demo story (what `mcp-lang demo` prints).

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut out = std::io::stdout();
    mcp_lang_reference::demo::run(&mut out).await
}
