//! `cargo xtask conformance --official`: the official MCP conformance suite
//! (`@modelcontextprotocol/conformance` from npm, server mode) against
//! `mcp-lang serve --http --conformance-fixtures --sessions`, checked against a
//! baseline of expected failures (`crates/mcp-lang-reference/conformance-baseline.yml`,
//! each with its reason).
//!
//! `--conformance-fixtures` adds the tools, prompts, resources and optional
//! capabilities the suite expects from its own "everything" test server
//! (`mcp_lang_reference::fixtures`; not SEP-2792). `--sessions` is what its
//! server-to-client requests (sampling, elicitation) and
//! `server-sse-multiple-streams` need; no other scenario changes with it.
//!
//! Needs `npm`. The suite and, when the system `node` is older than 22 (the
//! suite uses `fs.globSync`), the `node@22` npm package are installed under
//! `target/conformance-npm/`. Results go to `target/conformance-results/`.
//! The exit status is the suite's baseline check: non-zero on an unexpected
//! failure or a baseline entry that now passes.

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::args::Args;
use crate::process::Cmd;
use crate::workspace::{Metadata, root};
use crate::{Result, bail};

pub(crate) const USAGE: &str = "  conformance --sep2792 [--write]
      the SEP-2792 suite: `mcp-lang conformance` against the embedded reference server, then its
      self-test (every fault caught, every latitude passed, against `mcp-lang serve` as a separate
      process over stdio and Streamable HTTP, with and without a profile), whose matrix must equal
      the one the crate docs publish (`crates/mcp-lang-conformance/self-test.md`; --write updates it)
  conformance --official   run the official MCP conformance suite (npm) against `mcp-lang serve --http`, with the baseline of expected failures";

/// The self-test matrix the conformance crate's docs publish.
const SELF_TEST_MATRIX: &str = "crates/mcp-lang-conformance/self-test.md";

/// The suite version the baseline was written against.
const SUITE: &str = "@modelcontextprotocol/conformance@0.1.16";

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn node_major(node: &Path) -> Option<u32> {
    let out = Command::new(node).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim()
        .trim_start_matches('v')
        .split('.')
        .next()?
        .parse()
        .ok()
}

pub(crate) fn run(mut args: Args) -> Result<()> {
    let official_suite = args.flag("--official");
    let sep = args.flag("--sep2792");
    let write = args.flag("--write");
    args.finish()?;
    match (official_suite, sep) {
        (true, false) if !write => official(),
        (false, true) => sep2792(write),
        _ => bail!("give one of --sep2792 [--write] or --official"),
    }
}

/// The SEP-2792 suite against the embedded reference server, then its
/// self-test against `mcp-lang serve` as separate processes; the self-test's
/// matrix must equal the published one (or, with `write`, replaces it).
pub(crate) fn sep2792(write: bool) -> Result<()> {
    Cmd::cargo().args(["build", "-p", "mcp-lang-cli"]).run()?;
    let binary = Metadata::load()?.target_dir.join("debug/mcp-lang");
    Cmd::new(&binary).arg("conformance").run()?;
    let matrix = Cmd::new(&binary)
        .args(["conformance", "--self-test", "--markdown"])
        .read_stdout()?;
    let published = root().join(SELF_TEST_MATRIX);
    if write {
        std::fs::write(&published, &matrix)?;
        println!("wrote {SELF_TEST_MATRIX}");
        return Ok(());
    }
    let expected = std::fs::read_to_string(&published)?;
    if expected != matrix {
        println!("the self-test's matrix is not the published one ({SELF_TEST_MATRIX}):");
        println!("--- published\n{expected}--- this run\n{matrix}");
        bail!(
            "the self-test matrix changed: check it, then `cargo xtask conformance --sep2792 --write`"
        );
    }
    println!("{matrix}self-test matrix: as published in {SELF_TEST_MATRIX}");
    Ok(())
}

/// Installs the suite (and Node 22 when the system's is older) if needed, serves the
/// reference server on a free loopback port, and runs the suite with the baseline; an
/// error when a scenario fails that the baseline does not list, or one it lists passes.
pub(crate) fn official() -> Result<()> {
    let root = root();
    let npm_dir = root.join("target/conformance-npm");
    std::fs::create_dir_all(&npm_dir)?;
    let suite_js = npm_dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    if !suite_js.exists() {
        if !npm_dir.join("package.json").exists() {
            std::fs::write(npm_dir.join("package.json"), "{\"private\": true}\n")?;
        }
        Cmd::new("npm")
            .args(["install", "--silent", "--prefix"])
            .arg(&npm_dir)
            .arg(SUITE)
            .run()?;
    }
    let mut node = std::path::PathBuf::from("node");
    if node_major(&node).is_none_or(|major| major < 22) {
        let local = npm_dir.join("node_modules/.bin/node");
        if !local.exists() {
            Cmd::new("npm")
                .args(["install", "--silent", "--prefix"])
                .arg(&npm_dir)
                .arg("node@22")
                .run()?;
        }
        node = local;
    }

    Cmd::cargo().args(["build", "-p", "mcp-lang-cli"]).run()?;
    let binary = Metadata::load()?.target_dir.join("debug/mcp-lang");
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let addr = format!("127.0.0.1:{port}");
    let _server = Server(
        Command::new(&binary)
            .args([
                "serve",
                "--http",
                &addr,
                "--conformance-fixtures",
                "--sessions",
            ])
            .env("RUST_LOG", "error")
            .stdout(Stdio::null())
            .spawn()?,
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(&addr).is_err() {
        if Instant::now() > deadline {
            bail!("mcp-lang serve did not listen on {addr}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let baseline = root.join("crates/mcp-lang-reference/conformance-baseline.yml");
    let status = Cmd::new(&node)
        .arg(&suite_js)
        .args(["server", "--url"])
        .arg(format!("http://{addr}/mcp"))
        .arg("--expected-failures")
        .arg(&baseline)
        .arg("-o")
        .arg(root.join("target/conformance-results"))
        .status()?;
    if !status.success() {
        bail!(
            "the official suite reported unexpected failures or a stale baseline entry (see above)"
        );
    }
    Ok(())
}
