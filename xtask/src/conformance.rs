//! `cargo xtask conformance --official`: the official MCP conformance suite, from
//! the pinned copy of its repository (`MCP_CONFORMANCE_UPSTREAM`, default
//! `../shared/upstream/conformance` from the workspace root), its default (active)
//! server suite against `mcp-lang serve --http --conformance-fixtures --sessions`,
//! checked against a baseline of expected failures
//! (`crates/mcp-lang-reference/conformance-baseline.yml`, each with its reason).
//!
//! `--conformance-fixtures` adds the tools, prompts, resources and optional
//! capabilities the suite expects from its own "everything" test server
//! (`mcp_lang_reference::fixtures`; not SEP-2792, but for the four tools of the
//! `official-sep` step's scenario). `--sessions` is what its
//! server-to-client requests (sampling, elicitation) and
//! `server-sse-multiple-streams` need; no other scenario changes with it.
//!
//! Needs `npm`; the suite runs on Node 22 (it uses `fs.globSync`), which `npx`
//! fetches when the system's is older. The repository is copied to
//! `target/official-sep/conformance/` with this repository's SEP-2792
//! contribution laid over it (which adds scenarios outside the active suite), so
//! CI runs one version of the official suite. Results go to
//! `target/conformance-results/`. The exit status is the suite's baseline check:
//! non-zero on an unexpected failure or a baseline entry that now passes.
//!
//! [`official_sep`] (the `ci` step `official-sep`) checks the SEP-2792
//! contribution itself (`contrib/conformance/`) on the same tree, and writes the
//! pull request under `target/official-sep/`.

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::args::Args;
use crate::process::Cmd;
use crate::workspace::{Metadata, root};
use crate::{Result, bail};

pub(crate) const USAGE: &str = "  conformance --sep2792 [--write]
      the SEP-2792 suite: `mcp-lang conformance` against the reference server, then its self-test
      (`mcp-lang-faults self-test`: every fault caught, every latitude passed, against the fault
      server as a separate process over stdio and Streamable HTTP, with and without a profile), whose matrix must equal
      the one the crate docs publish (`crates/mcp-lang-conformance/self-test.md`; --write updates it)
  conformance --official   run the official MCP conformance suite (the pinned copy of its repository, its active server suite) against `mcp-lang serve --http`, with the baseline of expected failures
  conformance --official-faults [--write]
      the SEP-2792 contribution's server scenario (the pinned repository, the contribution laid over
      it) against the fault server (`mcp-lang-faults serve --http --conformance-fixtures`, stateless)
      with each fault and latitude of the self-test: a fault this suite catches must fail an official
      check claiming the same sentence, a latitude must pass every check; the table must equal the
      published one (`contrib/conformance/fault-agreement.md`; --write updates it)";

/// The self-test matrix the conformance crate's docs publish.
const SELF_TEST_MATRIX: &str = "crates/mcp-lang-conformance/self-test.md";

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn run(mut args: Args) -> Result<()> {
    let official_suite = args.flag("--official");
    let sep = args.flag("--sep2792");
    let faults = args.flag("--official-faults");
    let write = args.flag("--write");
    args.finish()?;
    match (official_suite, sep, faults) {
        (true, false, false) if !write => official(),
        (false, true, false) => sep2792(write),
        (false, false, true) => official_faults(write),
        _ => bail!("give one of --sep2792 [--write], --official or --official-faults [--write]"),
    }
}

/// The SEP-2792 suite against the reference server, then its self-test
/// against the fault server as separate processes; the self-test's matrix
/// must equal the published one (or, with `write`, replaces it).
pub(crate) fn sep2792(write: bool) -> Result<()> {
    Cmd::cargo()
        .args(["build", "-p", "mcp-lang-cli", "-p", "mcp-lang-faults"])
        .run()?;
    let target = Metadata::load()?.target_dir.join("debug");
    Cmd::new(target.join("mcp-lang")).arg("conformance").run()?;
    let matrix = Cmd::new(target.join("mcp-lang-faults"))
        .args(["self-test", "--markdown"])
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

/// The official suite's active server scenarios, from the pinned copy of its
/// repository, against the reference server with sessions; an error when a scenario
/// fails that the baseline does not list, or one it lists passes.
pub(crate) fn official() -> Result<()> {
    let Some(tree) = pinned_tree()? else {
        return Ok(());
    };
    Cmd::cargo().args(["build", "-p", "mcp-lang-cli"]).run()?;
    let binary = Metadata::load()?.target_dir.join("debug/mcp-lang");
    let (_server, addr) = reference_server(&binary, Some("--sessions"))?;
    let root = root();
    let baseline = root.join("crates/mcp-lang-reference/conformance-baseline.yml");
    let status = node22(&tree)
        .args(["node_modules/.bin/tsx", "src/index.ts", "server", "--url"])
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

/// Node 22 in `tree`: the suite needs it (`fs.globSync`), and `npx` fetches it when the
/// system's is older.
fn node22(tree: &Path) -> Cmd {
    Cmd::new("npx").args(["-y", "node@22"]).dir(tree)
}

/// A copy of the pinned official repository (`MCP_CONFORMANCE_UPSTREAM`, default
/// `../shared/upstream/conformance` from the workspace root) in
/// `target/official-sep/conformance/`, the SEP-2792 contribution laid over it and its
/// packages installed (`npm ci`, only when its lock file changed). `None` when there is
/// no pinned copy outside CI (the step is skipped with a message); an error on CI.
fn pinned_tree() -> Result<Option<std::path::PathBuf>> {
    let root = root();
    let upstream = upstream();
    if !upstream.join("package-lock.json").exists() {
        let why = format!(
            "no pinned copy of the official conformance repository at {} (set MCP_CONFORMANCE_UPSTREAM)",
            upstream.display()
        );
        if crate::actionlint::on_ci() {
            bail!("{why}, and CI is set");
        }
        println!("SKIPPED: {why}");
        return Ok(None);
    }
    let work = root.join("target/official-sep");
    let tree = work.join("conformance");
    // A fresh tree each run, but node_modules kept while the lock file is unchanged.
    if tree.exists() {
        for entry in std::fs::read_dir(&tree)? {
            let path = entry?.path();
            if path.file_name().is_some_and(|n| n != "node_modules") {
                if path.is_dir() {
                    std::fs::remove_dir_all(&path)?;
                } else {
                    std::fs::remove_file(&path)?;
                }
            }
        }
    }
    copy_tree(&upstream, &tree)?;
    lay_contribution(&tree)?;

    let lock = std::fs::read(tree.join("package-lock.json"))?;
    let stamp = work.join("installed-package-lock.json");
    if std::fs::read(&stamp).ok().as_deref() != Some(&lock[..]) {
        // The tree sits inside this repository's work tree: a git repository of its own
        // keeps the hooks its install script sets up (lefthook) out of this one.
        Cmd::new("git").args(["init", "--quiet"]).dir(&tree).run()?;
        Cmd::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .dir(&tree)
            .run()?;
        std::fs::write(&stamp, &lock)?;
    } else {
        println!("node_modules installed from the same package-lock.json: npm ci not needed");
    }
    Ok(Some(tree))
}

/// The pinned copy of the official repository.
fn upstream() -> std::path::PathBuf {
    std::env::var_os("MCP_CONFORMANCE_UPSTREAM")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/upstream/conformance"))
}

/// The server scenarios the contribution adds; the runner runs only these against servers.
const SEP_SCENARIOS: &[&str] = &["sep-2792-language"];

/// The client scenarios the contribution adds; the runner runs only these against clients.
const SEP_CLIENT_SCENARIOS: &[&str] = &["sep-2792-client-language"];

/// The everything-client, as the runner starts it (the server URL appended).
const EVERYTHING_CLIENT: &str =
    "npx -y node@22 node_modules/.bin/tsx examples/clients/typescript/everything-client.ts";

/// The files of the official repository the contribution adds or changes.
const CHANGED_FILES: &[&str] = &[
    "src/seps/sep-2792.yaml",
    "src/scenarios/server/sep-2792-language.ts",
    "src/scenarios/server/negative.test.ts",
    "src/scenarios/client/sep-2792-language.ts",
    "src/scenarios/client/sep-2792-language.test.ts",
    "src/scenarios/index.ts",
    "src/schemas/context.ts",
    "examples/servers/typescript/everything-server.ts",
    "examples/servers/typescript/sep-2792-broken-language.ts",
    "examples/clients/typescript/everything-client.ts",
    "examples/clients/typescript/sep-2792-broken-language.ts",
];

/// Where the contribution lives in this repository.
const CONTRIBUTION: &str = "contrib/conformance";

/// Copies the files under `from` into `to` (created as needed), leaving out
/// `node_modules` and `.git`; files already in `to` are overwritten.
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == "node_modules" || name == ".git" {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Lays the contribution over a copy of the pinned tree: its new files, then
/// `upstream.patch` with `patch -p1`.
fn lay_contribution(tree: &Path) -> Result<()> {
    let contribution = root().join(CONTRIBUTION);
    for dir in ["src", "examples"] {
        copy_tree(&contribution.join(dir), &tree.join(dir))?;
    }
    Cmd::new("patch")
        .args(["-p1", "--quiet", "--forward", "-i"])
        .arg(contribution.join("upstream.patch"))
        .dir(tree)
        .run()
}

/// Every check of every `checks.json` under `dir`, as `(scenario, id, status, message)`.
fn collect_checks(dir: &Path, into: &mut Vec<(String, String, String, String)>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_checks(&path, into)?;
        } else if path.file_name().is_some_and(|n| n == "checks.json") {
            let scenario = path
                .parent()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let checks: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path)?)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            for check in checks.as_array().into_iter().flatten() {
                let text = |key: &str| check[key].as_str().unwrap_or("").to_owned();
                into.push((
                    scenario.clone(),
                    text("id"),
                    text("status"),
                    text("errorMessage"),
                ));
            }
        }
    }
    Ok(())
}

/// One row of a traceability file: its `text`, and its `check` and `excluded` as written.
#[derive(Default)]
struct Row {
    text: String,
    check: Option<String>,
    excluded: Option<String>,
}

/// A one-line YAML scalar: double-quoted (read as JSON, which these files' double-quoted
/// strings are), single-quoted (`''` for a quote) or plain.
fn yaml_scalar(raw: &str) -> Result<String> {
    let raw = raw.trim();
    if raw.starts_with('"') {
        return serde_json::from_str(raw).map_err(|e| format!("{raw}: {e}").into());
    }
    if let Some(inner) = raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        return Ok(inner.replace("''", "'"));
    }
    Ok(raw.to_owned())
}

/// The rows of a traceability file (`requirements:` entries, one key a line).
fn rows(yaml: &str) -> Result<Vec<Row>> {
    let mut rows: Vec<Row> = Vec::new();
    for line in yaml
        .lines()
        .skip_while(|l| !l.starts_with("requirements:"))
        .skip(1)
    {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let entry = trimmed.strip_prefix("- ");
        if entry.is_some() {
            rows.push(Row::default());
        }
        let (key, value) = entry.unwrap_or(trimmed).split_once(':').unwrap_or_default();
        let Some(row) = rows.last_mut() else {
            bail!("a traceability file has `{trimmed}` before its first row");
        };
        match key {
            "text" => row.text = yaml_scalar(value)?,
            "check" => row.check = Some(value.trim().to_owned()),
            "excluded" => row.excluded = Some(yaml_scalar(value)?),
            _ => {}
        }
    }
    Ok(rows)
}

/// The contribution's traceability file quotes the same sentences, in any order, as this
/// project's suite (`crates/mcp-lang-conformance/requirements.yaml`), each once, and each
/// row has one `sep-2792-…` check id or an exclusion reason (never both). Returns the
/// rows.
fn official_rows() -> Result<Vec<Row>> {
    let read =
        |path: &str| std::fs::read_to_string(root().join(path)).map_err(|e| format!("{path}: {e}"));
    let official = rows(&read(&format!("{CONTRIBUTION}/src/seps/sep-2792.yaml"))?)?;
    let suite = rows(&read("crates/mcp-lang-conformance/requirements.yaml")?)?;
    let mut ours: Vec<&str> = official.iter().map(|r| r.text.as_str()).collect();
    let mut theirs: Vec<&str> = suite.iter().map(|r| r.text.as_str()).collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    if ours != theirs {
        let only = |a: &[&str], b: &[&str]| {
            a.iter()
                .filter(|t| !b.contains(t))
                .map(|t| format!("\n    \"{t}\""))
                .collect::<String>()
        };
        bail!(
            "sep-2792.yaml and requirements.yaml quote different sentences\n  only in sep-2792.yaml:{}\n  only in requirements.yaml:{}",
            only(&ours, &theirs),
            only(&theirs, &ours)
        );
    }
    for row in &official {
        let id_ok = row
            .check
            .as_deref()
            .is_some_and(|id| id.starts_with("sep-2792-") && !id.contains([' ', ',', '[']));
        if id_ok == row.excluded.is_some() {
            bail!(
                "sep-2792.yaml: \"{}\" needs one sep-2792-… check id or an exclusion reason",
                row.text
            );
        }
    }
    Ok(official)
}

/// `cargo xtask ci`'s `official-sep` step: the SEP-2792 contribution to the official
/// conformance repository (`contrib/conformance/`), laid over a copy of the pinned
/// repository (`MCP_CONFORMANCE_UPSTREAM`, default `../shared/upstream/conformance` from
/// the workspace root) in `target/official-sep/`, type-checked, its vitest suite run,
/// and its runner run with only the SEP-2792 scenarios: the server scenario against
/// `mcp-lang serve --http --conformance-fixtures`, stateless and with `--sessions`, and
/// the client scenario against the repository's everything-client and this workspace's
/// rmcp client (`mcp-lang-rmcp`'s `conformance_client` example). Any check other than a
/// success fails the step. The repository's traceability manifest is then built from
/// those results (`npm run traceability`): every `check:` row of `sep-2792.yaml` must be
/// tested. Then the pull request is written into a scratch git repository,
/// `target/official-sep/pr/` (the pinned tree as base, the proposed tree on top), with
/// its `git format-patch` output and `PULL_REQUEST.md` beside it.
///
/// Without the pinned copy the step is skipped with a message, or fails when `CI` is set.
pub(crate) fn official_sep() -> Result<()> {
    official_rows()?;
    let Some(tree) = pinned_tree()? else {
        return Ok(());
    };
    let work = root().join("target/official-sep");
    let upstream = upstream();
    let node22 = || node22(&tree);
    node22()
        .args(["node_modules/.bin/tsc", "--noEmit", "-p", "."])
        .run()?;
    // The repository's formatting, on the files the contribution adds or changes.
    node22()
        .args(["node_modules/.bin/prettier", "--check"])
        .args(CHANGED_FILES)
        .run()?;
    vitest(&tree)?;

    Cmd::cargo().args(["build", "-p", "mcp-lang-cli"]).run()?;
    Cmd::cargo()
        .args([
            "build",
            "-p",
            "mcp-lang-rmcp",
            "--features",
            "http-client-reqwest",
        ])
        .args(["--example", "conformance_client"])
        .run()?;
    let debug = Metadata::load()?.target_dir.join("debug");
    let binary = debug.join("mcp-lang");
    let rust_client = debug.join("examples/conformance_client");
    let results = work.join("results");
    let _ = std::fs::remove_dir_all(&results);
    let mut verdicts = Vec::new();
    for (mode, extra) in [("stateless", None), ("sessions", Some("--sessions"))] {
        let (_server, addr) = reference_server(&binary, extra)?;
        for scenario in SEP_SCENARIOS {
            let url = format!("http://{addr}/mcp");
            verdicts.push(run_scenario(
                node22(),
                ["server", "--url", url.as_str()],
                scenario,
                &results.join(mode),
                format!("`mcp-lang serve --http --conformance-fixtures` ({mode})"),
            )?);
        }
    }
    let clients = [
        (
            "everything-client",
            "the everything-client",
            EVERYTHING_CLIENT.to_owned(),
        ),
        (
            "mcp-lang-rmcp",
            "`mcp-lang-rmcp`'s rmcp client (its `conformance_client` example)",
            rust_client.to_string_lossy().into_owned(),
        ),
    ];
    for (dir, against, command) in clients {
        for scenario in SEP_CLIENT_SCENARIOS {
            verdicts.push(run_scenario(
                node22(),
                ["client", "--command", command.as_str()],
                scenario,
                &results.join(dir),
                against.to_owned(),
            )?);
        }
    }
    let mut failed = Vec::new();
    for verdict in &verdicts {
        let (scenario, against, checks) = (verdict.scenario, &verdict.against, &verdict.checks);
        let passed = checks.iter().filter(|c| c.2 == "SUCCESS").count();
        println!(
            "{scenario} against {against}: {passed}/{} checks passed",
            checks.len()
        );
        if checks.is_empty() {
            failed.push(format!(
                "{scenario} against {against}: no checks were recorded"
            ));
        }
        for (_, id, status, message) in checks.iter().filter(|c| c.2 != "SUCCESS") {
            failed.push(format!(
                "{scenario} against {against}: {id} {status}: {message}"
            ));
        }
    }
    if !failed.is_empty() {
        bail!(
            "the SEP-2792 scenarios did not pass:\n  {}",
            failed.join("\n  ")
        );
    }
    let tested = traceability(&tree, &results)?;
    // Both suites agree fault by fault as the published table says.
    Cmd::cargo()
        .args(["build", "-p", "mcp-lang-faults"])
        .run()?;
    fault_agreement(&tree, false)?;
    write_pull_request(&upstream, &work, &verdicts, &tested)
}

/// The repository's traceability manifest built from `results` (`npm run traceability`,
/// on Node 22), written into the copy's `src/seps/traceability.json` (the pull request
/// leaves that file to the repository's own workflow). Returns SEP-2792's check ids the
/// manifest marks tested; an error when a `check:` row of `sep-2792.yaml` is untested,
/// or a `sep-2792-…` id was emitted that no row declares.
fn traceability(tree: &Path, results: &Path) -> Result<Vec<String>> {
    Cmd::new("npx")
        .args([
            "-y",
            "-p",
            "node@22",
            "npm",
            "run",
            "traceability",
            "--",
            "--results",
        ])
        .arg(results)
        .dir(tree)
        .run()?;
    let path = tree.join("src/seps/traceability.json");
    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path)?)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let sep = &manifest["seps"]["2792"];
    let requirements = sep["requirements"]
        .as_array()
        .ok_or("the traceability manifest has no requirements for SEP-2792")?;
    let ids = |status: &str| -> Vec<String> {
        requirements
            .iter()
            .filter(|r| r["status"] == status)
            .filter_map(|r| r["check"].as_str().map(str::to_owned))
            .collect()
    };
    let (tested, untested) = (ids("tested"), ids("untested"));
    let untracked: Vec<&str> = sep["untracked"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str())
        .collect();
    println!(
        "traceability (SEP-2792): {} tested, {} untested, {} untracked",
        tested.len(),
        untested.len(),
        untracked.len()
    );
    if !untested.is_empty() || !untracked.is_empty() {
        bail!(
            "the traceability manifest does not cover sep-2792.yaml: untested {untested:?}, emitted without a row {untracked:?}"
        );
    }
    Ok(tested)
}

/// The official repository's vitest suite, in a process group of its own that is ended
/// once the suite exits: its negative tests stop the servers they start by signalling the
/// `npx` that started them, which leaves each server (a grandchild) running on its port.
fn vitest(tree: &Path) -> Result<()> {
    let mut command = Command::new("npx");
    command
        .args(["-y", "node@22", "node_modules/.bin/vitest", "run"])
        .current_dir(tree);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    println!(
        "$ (cd {} && npx -y node@22 node_modules/.bin/vitest run)",
        tree.display()
    );
    let mut child = command.spawn()?;
    let status = child.wait();
    #[cfg(unix)]
    let _ = Command::new("kill")
        .args(["-TERM", "--", &format!("-{}", child.id())])
        .stderr(Stdio::null())
        .status();
    if !status?.success() {
        bail!("the official repository's vitest suite failed (see above)");
    }
    Ok(())
}

/// `mcp-lang serve --http 127.0.0.1:PORT --conformance-fixtures [extra]` on a free port,
/// once it listens.
fn reference_server(binary: &Path, extra: Option<&str>) -> Result<(Server, String)> {
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let addr = format!("127.0.0.1:{port}");
    let mut command = Command::new(binary);
    command
        .args(["serve", "--http", &addr, "--conformance-fixtures"])
        .args(extra)
        .env("RUST_LOG", "error")
        .stdout(Stdio::null());
    let server = Server(command.spawn()?);
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(&addr).is_err() {
        if Instant::now() > deadline {
            bail!("mcp-lang serve did not listen on {addr}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok((server, addr))
}

/// The fault-by-fault agreement table the contribution publishes.
const FAULT_AGREEMENT: &str = "contrib/conformance/fault-agreement.md";

/// The official check ids that claim each of this suite's scenario ids: those of the
/// `sep-2792.yaml` rows whose sentence `requirements.yaml` checks with that scenario.
fn official_ids_by_scenario() -> Result<std::collections::BTreeMap<String, Vec<String>>> {
    let official = official_rows()?;
    let suite = rows(&std::fs::read_to_string(
        root().join("crates/mcp-lang-conformance/requirements.yaml"),
    )?)?;
    let mut map: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for row in &suite {
        let Some(list) = &row.check else { continue };
        let Some(id) = official
            .iter()
            .find(|r| r.text == row.text)
            .and_then(|r| r.check.clone())
        else {
            continue;
        };
        for scenario in list
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let ids = map.entry(scenario.to_owned()).or_default();
            if !ids.contains(&id) {
                ids.push(id.clone());
            }
        }
    }
    Ok(map)
}

/// The self-test matrix's rows as `(alteration, kind, this suite's verdict over
/// Streamable HTTP with a profile)`: the scenario ids that catch a fault, none for the
/// others.
fn self_test_rows() -> Result<Vec<(String, String, Vec<String>)>> {
    let matrix = std::fs::read_to_string(root().join(SELF_TEST_MATRIX))?;
    let mut out = Vec::new();
    for line in matrix.lines().skip(2) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // "", alteration, kind, stdio ×2, http (discovery), http (profile), …
        if cells.len() < 7 {
            continue;
        }
        let verdict = cells[6]
            .split(',')
            .map(|s| s.trim().trim_end_matches(" (warning)").to_owned())
            .filter(|s| !s.is_empty() && s != "passes" && s != "—")
            .collect();
        out.push((
            cells[1].trim_matches('`').to_owned(),
            cells[2].to_owned(),
            verdict,
        ));
    }
    Ok(out)
}

/// The official ids of `ids`, as a table cell.
fn id_cell(ids: &[&str]) -> String {
    if ids.is_empty() {
        return "—".to_owned();
    }
    ids.iter()
        .map(|id| format!("`{id}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The contribution's server scenario (on the pinned repository, the contribution laid
/// over it) against the fault server with each alteration of the self-test, stateless
/// HTTP with the official fixtures. A fault this suite catches over HTTP with a profile
/// agrees when the official run fails (FAILURE or WARNING) one of the official check
/// ids that claim the sentences of this suite's catching scenarios ("caught, by other
/// ids" when it fails only others, "NO" when it passes); a latitude and the unaltered
/// server agree when every official check passes. The table must equal
/// [`FAULT_AGREEMENT`] below its heading (or, with `write`, replaces it there).
pub(crate) fn official_faults(write: bool) -> Result<()> {
    let Some(tree) = pinned_tree()? else {
        return Ok(());
    };
    Cmd::cargo()
        .args(["build", "-p", "mcp-lang-faults"])
        .run()?;
    fault_agreement(&tree, write)
}

/// How many fault servers run at once while the runner goes through them.
const FAULT_SERVERS_AT_ONCE: usize = 16;

/// The agreement table of [`official_faults`], from one Node process that runs the
/// scenario against every fault server in turn (`xtask/assets/fault-runs.ts`), the
/// servers started [`FAULT_SERVERS_AT_ONCE`] at a time; compared with
/// [`FAULT_AGREEMENT`], or written there with `write`. Needs `mcp-lang-faults` built.
fn fault_agreement(tree: &Path, write: bool) -> Result<()> {
    let faults = Metadata::load()?.target_dir.join("debug/mcp-lang-faults");
    let claims = official_ids_by_scenario()?;
    let results = root().join("target/official-sep/fault-results");
    let _ = std::fs::remove_dir_all(&results);
    std::fs::write(
        tree.join("fault-runs.ts"),
        include_str!("../assets/fault-runs.ts"),
    )?;
    std::fs::create_dir_all(&results)?;
    let log = results.join("runs.log");
    let rows = self_test_rows()?;
    for batch in rows.chunks(FAULT_SERVERS_AT_ONCE) {
        let mut servers = Vec::new();
        let mut targets = Vec::new();
        for (name, kind, _) in batch {
            let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
            let addr = format!("127.0.0.1:{port}");
            let mut command = Command::new(&faults);
            command
                .args(["serve", "--http", &addr, "--conformance-fixtures"])
                .env("RUST_LOG", "error")
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            match kind.as_str() {
                "fault" => {
                    command.args(["--fault", name]);
                }
                "latitude" => {
                    command.args(["--latitude", name]);
                }
                _ => {}
            }
            servers.push(Server(command.spawn()?));
            targets.push((name, addr));
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        for (name, addr) in &targets {
            while TcpStream::connect(addr).is_err() {
                if Instant::now() > deadline {
                    bail!("mcp-lang-faults serve ({name}) did not listen on {addr}");
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        // The checks are read back below; a run that records none says so there.
        node22(tree)
            .args(["node_modules/.bin/tsx", "fault-runs.ts", SEP_SCENARIOS[0]])
            .arg(&results)
            .args(
                targets
                    .iter()
                    .map(|(name, addr)| format!("{name}=http://{addr}/mcp")),
            )
            .run_logged(&log)?;
        drop(servers);
    }
    let mut table = String::from(
        "| alteration | kind | this suite (HTTP, profile) | official ids claiming it | official run: not passed | agree |\n|---|---|---|---|---|---|\n",
    );
    let mut disagreements = 0;
    for (name, kind, ours) in rows {
        let mut checks = Vec::new();
        collect_checks(&results.join(&name), &mut checks)?;
        let mut failed: Vec<&str> = checks
            .iter()
            .filter(|c| c.2 == "FAILURE" || c.2 == "WARNING")
            .map(|c| c.1.as_str())
            .collect();
        failed.sort_unstable();
        failed.dedup();
        let mut claimed: Vec<&str> = ours
            .iter()
            .flat_map(|s| claims.get(s).into_iter().flatten())
            .map(String::as_str)
            .collect();
        claimed.sort_unstable();
        claimed.dedup();
        let agree = if checks.is_empty() {
            "no checks recorded"
        } else if kind != "fault" {
            if failed.is_empty() { "yes" } else { "NO" }
        } else if claimed.is_empty() {
            "no official check claims it"
        } else if failed.iter().any(|id| claimed.contains(id)) {
            "yes"
        } else if !failed.is_empty() {
            "caught, by other ids"
        } else {
            "NO"
        };
        if agree == "NO" || agree == "no checks recorded" {
            disagreements += 1;
        }
        let ours = if ours.is_empty() {
            "passes".to_owned()
        } else {
            ours.join(", ")
        };
        let row = format!(
            "| `{name}` | {kind} | {ours} | {} | {} | {agree} |\n",
            id_cell(&claimed),
            id_cell(&failed)
        );
        table.push_str(&row);
    }
    println!("fault agreement: {disagreements} disagreement(s)");
    let published = root().join(FAULT_AGREEMENT);
    let text = std::fs::read_to_string(&published).unwrap_or_default();
    let heading = text
        .find("| alteration |")
        .map_or(text.as_str(), |at| &text[..at]);
    let document = format!("{heading}{table}");
    if write {
        std::fs::write(&published, &document)?;
        println!("wrote {FAULT_AGREEMENT}");
        return Ok(());
    }
    if text != document {
        let old: Vec<&str> = text.lines().collect();
        for line in document.lines().filter(|l| !old.contains(l)) {
            println!("  now: {line}");
        }
        bail!(
            "the fault agreement table is not the published one ({FAULT_AGREEMENT}): check it, then `cargo xtask conformance --official-faults --write`"
        );
    }
    println!("fault agreement: as published in {FAULT_AGREEMENT}");
    Ok(())
}

/// One run of the runner: a scenario, what it ran against (for the description), and
/// every check it recorded as `(scenario directory, id, status, message)`.
struct Verdict<'a> {
    scenario: &'a str,
    against: String,
    checks: Vec<(String, String, String, String)>,
}

/// Runs one scenario of the official runner (`server --url URL` or `client --command
/// COMMAND` in `mode`) with its results under `out`, and reads back its checks. The
/// runner's own exit status counts FAILURE only, so the checks are what is judged.
fn run_scenario<'a, const N: usize>(
    runner: Cmd,
    mode: [&str; N],
    scenario: &'a str,
    out: &Path,
    against: String,
) -> Result<Verdict<'a>> {
    let _ = runner
        .args(["node_modules/.bin/tsx", "src/index.ts"])
        .args(mode)
        .args(["--scenario", scenario, "-o"])
        .arg(out)
        .status()?;
    let mut checks = Vec::new();
    collect_checks(out, &mut checks)?;
    Ok(Verdict {
        scenario,
        against,
        checks,
    })
}

/// The pull request: a scratch repository with the pinned tree committed as base and the
/// proposed tree on top, its `git format-patch` output and its description, coverage
/// first (`tested`: the check ids the traceability manifest marks tested).
fn write_pull_request(
    upstream: &Path,
    work: &Path,
    verdicts: &[Verdict],
    tested: &[String],
) -> Result<()> {
    let pr = work.join("pr");
    let _ = std::fs::remove_dir_all(&pr);
    copy_tree(upstream, &pr)?;
    let git = || {
        Cmd::new("git")
            .args([
                "-c",
                "user.name=mcp-lang xtask",
                "-c",
                "user.email=xtask@invalid",
            ])
            .args([
                "-c",
                "commit.gpgsign=false",
                "-c",
                "core.hooksPath=/dev/null",
            ])
            .dir(&pr)
    };
    git()
        .args(["init", "--quiet", "--initial-branch=main"])
        .run()?;
    git().args(["add", "--all"]).run()?;
    git()
        .args(["commit", "--quiet", "-m", "pinned upstream tree"])
        .run()?;
    lay_contribution(&pr)?;

    let official = official_rows()?;
    let rows = official.len();
    let ids: Vec<&str> = official.iter().filter_map(|r| r.check.as_deref()).collect();
    let checked = ids.len();
    let excluded = rows - checked;
    let distinct = |scenario: &str| {
        let mut emitted: Vec<&str> = verdicts
            .iter()
            .filter(|v| v.scenario == scenario)
            .flat_map(|v| v.checks.iter().map(|c| c.1.as_str()))
            .collect();
        emitted.sort_unstable();
        emitted.dedup();
        emitted
    };
    let server_ids = distinct(SEP_SCENARIOS[0]);
    let client_ids = distinct(SEP_CLIENT_SCENARIOS[0]);
    let checks_of = |scenario: &str| {
        verdicts
            .iter()
            .find(|v| v.scenario == scenario)
            .map_or(0, |v| v.checks.len())
    };
    let mut runs = String::new();
    for verdict in verdicts {
        let passed = verdict.checks.iter().filter(|c| c.2 == "SUCCESS").count();
        runs.push_str(&format!(
            "- `{}` against {}: {passed}/{} passed\n",
            verdict.scenario,
            verdict.against,
            verdict.checks.len()
        ));
    }
    let list = |ids: &[&str]| {
        ids.iter()
            .map(|id| format!("`{id}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let description = format!(
        "Add SEP-2792 (per-request user language preference) server and client scenarios and traceability\n\n\
         Coverage: `src/seps/sep-2792.yaml` has {rows} rows, one per normative sentence of the SEP: \
         {checked} with a check id, {excluded} excluded with a reason. The two new scenarios emit \
         {} of the {checked} check ids (the traceability manifest built from the runs below marks \
         every row tested): the server scenario {} ids in {} checks, the client scenario {} ids in \
         {} checks ({}).\n\n\
         - `src/scenarios/server/sep-2792-language.ts`: one draft-suite scenario (left out of the \
         active suite; `introducedIn` the draft protocol version), fixture contract in its \
         description: matching (weights, q=0, case, both readings of `*`), default fallback, \
         malformed values, request scope over one connection, localized `tools/list` titles with \
         stable names, errors, elicitation and progress text, the explicit language argument, \
         `Content-Language` and `Vary`, `HeaderMismatch` and the SEP's exact-agreement edge cases, \
         caching across preferences.\n\
         - `src/scenarios/client/sep-2792-language.ts`: one draft-suite client scenario, its \
         contract in its description: the scenario hands the client a sequence of user \
         preferences (`MCP_CONFORMANCE_CONTEXT`, schema in `src/schemas/context.ts`) and serves \
         localized, long-cacheable `tools/list` answers; per step it checks the current \
         preference on every request (SHOULD: WARNING), never an earlier one, its \
         `Accept-Language` grammar, one `Accept-Language` field line agreeing exactly with it, and \
         that no cached answer for one preference is used for another, including one selecting \
         the same language.\n\
         - `src/scenarios/index.ts`: registers both.\n\
         - `examples/servers/typescript/sep-2792-broken-language.ts` and a case in \
         `src/scenarios/server/negative.test.ts`: a server that breaks the rules on purpose, each \
         caught as FAILURE or WARNING.\n\
         - `examples/clients/typescript/sep-2792-broken-language.ts` and \
         `src/scenarios/client/sep-2792-language.test.ts`: a client that breaks each client rule \
         (a lifecycle request without the preference, a POSIX-spelled value, a stale header, one \
         field line per range, a cache keyed by method alone, a withdrawn preference still sent), \
         each caught as FAILURE or WARNING; the everything-client passing every check; a client \
         that never connects failing every check as not testable.\n\
         - `examples/servers/typescript/everything-server.ts` and \
         `examples/clients/typescript/everything-client.ts`: SEP-2792 on the TypeScript SDK, so \
         both pass every new check.\n\n\
         Verified:\n{runs}",
        tested.len(),
        server_ids.len(),
        checks_of(SEP_SCENARIOS[0]),
        client_ids.len(),
        checks_of(SEP_CLIENT_SCENARIOS[0]),
        list(&client_ids),
    );
    std::fs::write(work.join("PULL_REQUEST.md"), &description)?;
    git().args(["add", "--all"]).run()?;
    git()
        .args(["commit", "--quiet", "-F"])
        .arg(work.join("PULL_REQUEST.md"))
        .run()?;
    let patches = work.join("patches");
    let _ = std::fs::remove_dir_all(&patches);
    git()
        .args(["format-patch", "--quiet", "-1", "-o"])
        .arg(&patches)
        .run()?;
    println!(
        "pull request: {} (coverage: {rows} rows, {checked} checks, {excluded} exclusions), patch in {}",
        work.join("PULL_REQUEST.md").display(),
        patches.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_official_traceability_file_quotes_the_suites_sentences() {
        let rows = official_rows().unwrap();
        assert_eq!(rows.len(), 41);
        assert!(rows.iter().all(|r| !r.text.is_empty()));
    }

    #[test]
    fn faults_are_claimed_by_the_official_ids_of_their_sentences() {
        let claims = official_ids_by_scenario().unwrap();
        let weights = &claims["match.weights"];
        assert!(weights.contains(&"sep-2792-matching".to_owned()));
        assert!(weights.contains(&"sep-2792-field-interpretation".to_owned()));
        let rows = self_test_rows().unwrap();
        assert!(rows.iter().any(|(name, kind, ours)| {
            name == "ignore-weights" && kind == "fault" && ours == &["match.weights"]
        }));
        assert!(
            rows.iter()
                .any(|(name, kind, ours)| name == "none" && kind == "reference" && ours.is_empty())
        );
    }

    #[test]
    fn yaml_scalars_are_read_as_written() {
        assert_eq!(yaml_scalar(" 'it''s' ").unwrap(), "it's");
        assert_eq!(yaml_scalar(r#""a \"b\"""#).unwrap(), "a \"b\"");
        assert_eq!(
            yaml_scalar("sep-2792-matching").unwrap(),
            "sep-2792-matching"
        );
    }

    #[test]
    fn a_row_needs_exactly_one_of_check_and_excluded() {
        let yaml = "requirements:\n  - check: sep-2792-x\n    text: 'A'\n  - text: \"B\"\n    excluded: 'why'\n";
        let parsed = rows(yaml).unwrap();
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].check.as_deref(), Some("sep-2792-x"));
        assert_eq!(parsed[1].text, "B");
        assert_eq!(parsed[1].excluded.as_deref(), Some("why"));
    }
}
