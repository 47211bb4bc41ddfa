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
  conformance --official   run the official MCP conformance suite (the pinned copy of its repository, its active server suite) against `mcp-lang serve --http`, with the baseline of expected failures";

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
    let write = args.flag("--write");
    args.finish()?;
    match (official_suite, sep) {
        (true, false) if !write => official(),
        (false, true) => sep2792(write),
        _ => bail!("give one of --sep2792 [--write] or --official"),
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

/// The scenarios the contribution adds; the runner runs only these.
const SEP_SCENARIOS: &[&str] = &["sep-2792-language"];

/// The files of the official repository the contribution adds or changes.
const CHANGED_FILES: &[&str] = &[
    "src/seps/sep-2792.yaml",
    "src/scenarios/server/sep-2792-language.ts",
    "src/scenarios/server/negative.test.ts",
    "src/scenarios/index.ts",
    "examples/servers/typescript/everything-server.ts",
    "examples/servers/typescript/sep-2792-broken-language.ts",
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
/// and its runner run with only the SEP-2792 scenarios against `mcp-lang serve --http
/// --conformance-fixtures`, stateless and with `--sessions`: any check other than a
/// success fails the step. Then the pull request is written into a scratch git
/// repository, `target/official-sep/pr/` (the pinned tree as base, the proposed tree on
/// top), with its `git format-patch` output and `PULL_REQUEST.md` beside it.
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
    let binary = Metadata::load()?.target_dir.join("debug/mcp-lang");
    let results = work.join("results");
    let _ = std::fs::remove_dir_all(&results);
    let mut verdicts = Vec::new();
    for (mode, extra) in [("stateless", None), ("sessions", Some("--sessions"))] {
        let (_server, addr) = reference_server(&binary, extra)?;
        for scenario in SEP_SCENARIOS {
            let out = results.join(mode);
            // The runner's own exit status counts FAILURE only; the checks are read below.
            let _ = node22()
                .args(["node_modules/.bin/tsx", "src/index.ts", "server", "--url"])
                .arg(format!("http://{addr}/mcp"))
                .args(["--scenario", scenario, "-o"])
                .arg(&out)
                .status()?;
            let mut checks = Vec::new();
            collect_checks(&out, &mut checks)?;
            verdicts.push((mode, *scenario, checks));
        }
    }
    let mut failed = Vec::new();
    for (mode, scenario, checks) in &verdicts {
        let passed = checks.iter().filter(|c| c.2 == "SUCCESS").count();
        println!(
            "{scenario} ({mode}): {passed}/{} checks passed",
            checks.len()
        );
        if checks.is_empty() {
            failed.push(format!("{scenario} ({mode}): no checks were recorded"));
        }
        for (_, id, status, message) in checks.iter().filter(|c| c.2 != "SUCCESS") {
            failed.push(format!("{scenario} ({mode}): {id} {status}: {message}"));
        }
    }
    if !failed.is_empty() {
        bail!(
            "the SEP-2792 scenarios did not pass against mcp-lang serve:\n  {}",
            failed.join("\n  ")
        );
    }
    write_pull_request(&upstream, &work, &verdicts)
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

type Verdicts<'a> = [(&'a str, &'a str, Vec<(String, String, String, String)>)];

/// The pull request: a scratch repository with the pinned tree committed as base and the
/// proposed tree on top, its `git format-patch` output and its description.
fn write_pull_request(upstream: &Path, work: &Path, verdicts: &Verdicts) -> Result<()> {
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
    let mut emitted: Vec<&str> = verdicts
        .iter()
        .flat_map(|(_, _, checks)| checks.iter().map(|c| c.1.as_str()))
        .collect();
    emitted.sort_unstable();
    emitted.dedup();
    let untested: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| !emitted.contains(id))
        .collect();
    let mut runs = String::new();
    for (mode, scenario, checks) in verdicts {
        let passed = checks.iter().filter(|c| c.2 == "SUCCESS").count();
        runs.push_str(&format!(
            "- `{scenario}` against `mcp-lang serve --http --conformance-fixtures` ({mode}): {passed}/{} passed\n",
            checks.len()
        ));
    }
    let description = format!(
        "Add SEP-2792 (per-request user language preference) server scenario and traceability\n\n\
         Coverage: `src/seps/sep-2792.yaml` has {rows} rows, one per normative sentence of the SEP: \
         {checked} with a check id, {excluded} excluded with a reason. The new scenario emits {} of \
         the {checked} check ids; {} are declared for follow-up scenarios: {}.\n\n\
         - `src/scenarios/server/sep-2792-language.ts`: one draft-suite scenario (left out of the \
         active suite; `introducedIn` the draft protocol version), fixture contract in its \
         description: matching (weights, q=0, case, both readings of `*`), default fallback, \
         malformed values, request scope over one connection, localized `tools/list` titles with \
         stable names, `Content-Language` and `Vary`, `HeaderMismatch` and the SEP's \
         exact-agreement edge cases.\n\
         - `src/scenarios/index.ts`: registers it.\n\
         - `examples/servers/typescript/sep-2792-broken-language.ts` and a case in \
         `src/scenarios/server/negative.test.ts`: a server that breaks the rules on purpose \
         (weights, malformed values, fallback, reuse, agreement, missing headers), each caught \
         as FAILURE.\n\
         - `examples/servers/typescript/everything-server.ts`: honors the preference on \
         `tools/list` (en default, fr, de) so it passes every new check.\n\n\
         Verified:\n{runs}",
        checked - untested.len(),
        untested.len(),
        untested.join(", "),
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
