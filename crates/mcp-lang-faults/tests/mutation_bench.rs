//! The mutation bench: the suite against servers nobody here wrote in Rust,
//! each made to break one rule at a time by the fault proxy.
//!
//! The servers are the interop gate's: `sep2792_server.py` on the official
//! Python MCP SDK and `sep2792_server.mjs` on the official TypeScript SDK,
//! each run over stdio behind `mcp-lang-faults proxy --fault NAME` for every
//! fault the proxy applies, with the server's profile. A fault is caught
//! when a scenario its row names fails (or, for a SHOULD, warns) and the
//! same scenario does not fail or warn against the unaltered server. The
//! table, `mutation-bench.md` beside this crate's manifest, is published
//! and compared with every run; `MUTATION_BENCH_WRITE=1` rewrites it.
//!
//! Like the interop tests, it provisions the SDKs itself and is `#[ignore]`d
//! in a plain `cargo test`:
//!
//! ```text
//! cargo test -p mcp-lang-faults --test mutation_bench -- --ignored --nocapture
//! ```

#[path = "../../mcp-lang-cli/tests/common/listen.rs"]
mod listen;
#[allow(dead_code)]
#[path = "../../mcp-lang-cli/tests/common/node.rs"]
mod node;
#[allow(dead_code)]
#[path = "../../mcp-lang-cli/tests/common/process.rs"]
mod process;
#[allow(dead_code)]
#[path = "../../mcp-lang-cli/tests/common/python.rs"]
mod python;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mcp_lang_conformance::{Config, Profile, Report, Target, run};
use mcp_lang_faults::Fault;
use mcp_lang_faults::proxy::{Proxy, proxies_http, proxy_http};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-lang-faults");

/// The published table.
fn table_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("mutation-bench.md")
}

/// A server of the bench: its stdio command and its profile.
#[derive(Clone)]
struct Server {
    name: &'static str,
    /// Its stdio command, words quoted for the suite's `--stdio`.
    command: Vec<String>,
    /// Its program and arguments for Streamable HTTP on a free port.
    http: Vec<PathBuf>,
    profile: PathBuf,
}

fn word(path: &Path) -> String {
    shlex::try_quote(&path.to_string_lossy())
        .expect("a path without NUL")
        .into_owned()
}

impl Server {
    /// The command the suite runs: the server, behind the proxy with
    /// `fault`, which counts the messages it changes in `applied`.
    fn stdio(&self, fault: Option<(Fault, &Path)>) -> String {
        let server = self.command.join(" ");
        match fault {
            None => server,
            Some((fault, applied)) => format!(
                "{} proxy --fault {fault} --profile {} --applied {} -- {server}",
                word(Path::new(BIN)),
                word(&self.profile),
                word(applied)
            ),
        }
    }
}

/// What one case showed.
#[derive(Clone, Debug)]
enum Seen {
    /// Caught by these scenarios.
    Caught(Vec<&'static str>),
    /// No scenario of its row failed or warned; why, when the run said.
    Missed(String),
    /// The fault found nothing to change on this server (it lacks what the
    /// fault acts on, or speaks a protocol where it does not exist).
    NothingToChange,
}

async fn run_case(
    server: &Server,
    fault: Option<(Fault, &Path)>,
    profile: &Profile,
) -> Result<Report, String> {
    let mut config = Config::new(Target::Stdio(server.stdio(fault)));
    config.profile = Some(profile.clone());
    if let Some((fault, _)) = fault {
        config.only = fault.caught_by().iter().map(|s| (*s).to_owned()).collect();
    }
    run(&config).await.map_err(|e| e.to_string())
}

/// The scenarios that fail or warn in `report`.
fn flagged(report: &Report) -> Vec<&'static str> {
    report
        .rows
        .iter()
        .filter(|r| r.outcome.is_fail() || r.outcome.is_warn())
        .map(|r| r.scenario.id)
        .collect()
}

async fn bench(server: &Server) -> BTreeMap<&'static str, Seen> {
    let profile = Profile::from_file(&server.profile).expect("the server's profile");
    let baseline = run_case(server, None, &profile)
        .await
        .unwrap_or_else(|e| panic!("{} unaltered: {e}", server.name));
    let already = flagged(&baseline);
    let server = Arc::new(server.clone());
    let limit = Arc::new(tokio::sync::Semaphore::new(3));
    let mut tasks = tokio::task::JoinSet::new();
    for fault in Proxy::faults() {
        let (server, profile, limit, already) = (
            Arc::clone(&server),
            profile.clone(),
            Arc::clone(&limit),
            already.clone(),
        );
        tasks.spawn(async move {
            let _permit = limit.acquire_owned().await;
            let applied = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
                "mutation-bench-{}-{fault}",
                server.name.replace(' ', "-")
            ));
            let outcome = run_case(&server, Some((fault, &applied)), &profile).await;
            let changed = std::fs::read_to_string(&applied).unwrap_or_default();
            let _ = std::fs::remove_file(&applied);
            let seen = match outcome {
                Ok(_) if changed.trim() == "0" => Seen::NothingToChange,
                Ok(report) => judge(fault, &report, &already),
                Err(error) => Seen::Missed(format!("the run could not test: {error}")),
            };
            (fault.name(), seen)
        });
    }
    let mut seen = BTreeMap::new();
    while let Some(joined) = tasks.join_next().await {
        let (name, result) = joined.expect("a case panicked");
        seen.insert(name, result);
    }
    seen
}

/// The same over Streamable HTTP: the server started once, one proxy in this
/// process per fault in front of it. A fault no scenario of whose row runs
/// against the unaltered server (each skips there) has nothing to act on.
async fn bench_http(server: &Server) -> BTreeMap<&'static str, Seen> {
    let profile = Profile::from_file(&server.profile).expect("the server's profile");
    let mut command = std::process::Command::new(&server.http[0]);
    command.args(&server.http[1..]);
    let (_child, upstream) =
        listen::start_listening(command, server.name, std::time::Duration::from_secs(90));
    let mut config = Config::new(Target::Url(upstream.clone()));
    config.profile = Some(profile.clone());
    let baseline = run(&config)
        .await
        .unwrap_or_else(|e| panic!("{} over HTTP, unaltered: {e}", server.name));
    let already = flagged(&baseline);
    let ran: Vec<&'static str> = baseline
        .rows
        .iter()
        .filter(|r| r.outcome.as_str() != "skip")
        .map(|r| r.scenario.id)
        .collect();
    let limit = Arc::new(tokio::sync::Semaphore::new(3));
    let mut tasks = tokio::task::JoinSet::new();
    for fault in Fault::ALL.iter().copied().filter(|f| proxies_http(*f)) {
        let (profile, limit, already, ran, upstream) = (
            profile.clone(),
            Arc::clone(&limit),
            already.clone(),
            ran.clone(),
            upstream.clone(),
        );
        tasks.spawn(async move {
            let _permit = limit.acquire_owned().await;
            if !fault.caught_by().iter().any(|id| ran.contains(id)) {
                return (fault.name(), Seen::NothingToChange);
            }
            let any = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
            let proxy = proxy_http(fault, &profile, any, &upstream)
                .await
                .expect("the proxy listens");
            let mut config = Config::new(Target::Url(proxy.http.url()));
            config.profile = Some(profile);
            config.only = fault.caught_by().iter().map(|s| (*s).to_owned()).collect();
            let outcome = run(&config).await;
            let acted_on = proxy.acted_on();
            proxy.http.shutdown().await;
            let seen = match outcome {
                Ok(_) if !acted_on => Seen::NothingToChange,
                Ok(report) => judge(fault, &report, &already),
                Err(error) => Seen::Missed(format!("the run could not test: {error}")),
            };
            (fault.name(), seen)
        });
    }
    let mut seen = BTreeMap::new();
    while let Some(joined) = tasks.join_next().await {
        let (name, result) = joined.expect("a case panicked");
        seen.insert(name, result);
    }
    seen
}

/// Whether `report` shows `fault` caught: a scenario of its row fails or
/// warns that did neither against the unaltered server.
fn judge(fault: Fault, report: &Report, already: &[&'static str]) -> Seen {
    let caught: Vec<&'static str> = flagged(report)
        .into_iter()
        .filter(|id| fault.caught_by().contains(id) && !already.contains(id))
        .collect();
    if caught.is_empty() {
        let why = report
            .rows
            .iter()
            .map(|r| format!("{} {}", r.scenario.id, r.outcome.as_str()))
            .collect::<Vec<_>>()
            .join(", ");
        Seen::Missed(why)
    } else {
        Seen::Caught(caught)
    }
}

/// The class of a fault: what the scenarios that must catch it check.
fn class(fault: Fault) -> &'static str {
    let families: Vec<&str> = fault
        .caught_by()
        .iter()
        .map(|id| id.split('.').next().unwrap_or(id))
        .collect();
    let has = |family: &str| families.contains(&family);
    if has("identifiers") {
        "identifiers"
    } else if has("scope") {
        "request scope"
    } else if has("grammar") || has("match") {
        "reading the preference"
    } else if has("http") || has("agree") || has("sse") {
        "HTTP binding"
    } else if has("cache") {
        "caching"
    } else if has("elicitation") || has("explicit") || has("display") {
        "display text"
    } else {
        "reporting"
    }
}

fn markdown(results: &[(String, BTreeMap<&'static str, Seen>)]) -> String {
    let mut out = String::from(
        "# The mutation bench\n\n\
         The SEP-2792 suite against servers on the official SDKs (the interop gate's \
         `sep2792_server.py` and `sep2792_server.mjs`), over stdio and Streamable HTTP, \
         each behind `mcp-lang-faults proxy --fault NAME`, one fault at a time, with the \
         server's profile. Each cell names the scenarios that caught the fault (failed, or warned \
         for a SHOULD) and pass against the unaltered server. Written by \
         `tests/mutation_bench.rs` (`MUTATION_BENCH_WRITE=1`); the CI's `interop` step \
         requires each run to equal it.\n\n| fault | class |",
    );
    for (name, _) in results {
        out.push_str(&format!(" {name} |"));
    }
    out.push_str("\n|---|---|");
    for _ in results {
        out.push_str("---|");
    }
    out.push('\n');
    let mut by_class: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let benched = Fault::ALL
        .iter()
        .copied()
        .filter(|f| Proxy::proxies(*f) || proxies_http(*f));
    for fault in benched {
        out.push_str(&format!("| `{}` | {} |", fault.name(), class(fault)));
        for (server, seen) in results {
            let entry = by_class.entry((server, class(fault))).or_default();
            match seen.get(fault.name()) {
                None => out.push_str(" |"),
                Some(Seen::Caught(ids)) => {
                    entry.0 += 1;
                    entry.1 += 1;
                    out.push_str(&format!(" {} |", ids.join(", ")));
                }
                Some(Seen::NothingToChange) => out.push_str(" — |"),
                _ => {
                    entry.1 += 1;
                    out.push_str(" **missed** |");
                }
            }
        }
        out.push('\n');
    }
    out.push_str(
        "\n\"—\": the fault found nothing to act on there (over stdio the proxy changed no \
         message; over HTTP no scenario of its row runs against the unaltered server, or \
         no answer of the kind it acts on, JSON or event stream, passed): \
         what it acts on is absent there, or belongs to a protocol version the server does \
         not speak. It counts in no total. An empty cell: the proxy does not apply that \
         fault on that transport (over stdio it applies those of JSON-RPC messages, over \
         HTTP those of the HTTP stack).\n\n",
    );
    for (server, _) in results {
        let (caught, total) = by_class
            .iter()
            .filter(|((s, _), _)| s == server)
            .fold((0, 0), |(c, t), (_, (cc, tt))| (c + cc, t + tt));
        let classes: Vec<String> = by_class
            .iter()
            .filter(|((s, _), _)| s == server)
            .map(|((_, class), (c, t))| format!("{class} {c}/{t}"))
            .collect();
        out.push_str(&format!(
            "- {server}: {caught} of {total} caught ({})\n",
            classes.join("; ")
        ));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs python3, node and the package registries; run by `cargo xtask ci` with --ignored"]
async fn the_suite_catches_misreadings_in_servers_it_did_not_write() {
    let (Some(python), Some(node_dir)) = (python::venv(), node::node_dir()) else {
        return;
    };
    let interop = process::interop_file("");
    let servers = [
        Server {
            name: "Python SDK",
            command: vec![
                word(&python),
                word(&interop.join("sep2792_server.py")),
                "stdio".into(),
            ],
            http: vec![
                python.clone(),
                interop.join("sep2792_server.py"),
                "http".into(),
            ],
            profile: interop.join("sep2792_server.toml"),
        },
        Server {
            name: "TypeScript SDK",
            command: vec![
                "node".into(),
                word(&node_dir.join("sep2792_server.mjs")),
                "stdio".into(),
            ],
            http: vec![
                "node".into(),
                node_dir.join("sep2792_server.mjs"),
                "http".into(),
                "0".into(),
            ],
            profile: interop.join("sep2792_server_ts.toml"),
        },
    ];
    let mut results = Vec::new();
    for server in servers {
        let http = bench_http(&server).await;
        let stdio = bench(&server).await;
        for (transport, seen) in [("stdio", stdio), ("HTTP", http)] {
            let column = format!("{} {transport}", server.name);
            for (fault, result) in &seen {
                if let Seen::Missed(why) = result {
                    println!("{column}: {fault} missed ({why})");
                }
            }
            results.push((column, seen));
        }
    }
    let table = markdown(&results);
    println!("{table}");
    if std::env::var_os("MUTATION_BENCH_WRITE").is_some() {
        std::fs::write(table_file(), &table).expect("cannot write the table");
        return;
    }
    let published = std::fs::read_to_string(table_file()).unwrap_or_default();
    assert_eq!(
        published, table,
        "the mutation bench's table changed: check it, then rerun with MUTATION_BENCH_WRITE=1"
    );
}
