//! The hosted workflows run what `.ci/run` runs here, and nothing it does not, unless a
//! job says why only a hosted runner can run it.
//!
//! - In `.github/workflows/ci.yml`, every job's commands are `.ci/run --only STEP…`
//!   (installers come from `uses:` actions, which run no command of ours), every step
//!   `cargo xtask ci --list` names is run by exactly one job, and no job names a step
//!   that does not exist.
//! - Any other job, in any workflow, has a comment starting `# Hosted only:` right above
//!   it, saying why.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The steps of `cargo xtask ci`, in order.
fn ci_steps() -> Vec<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["ci", "--list"])
        .current_dir(root())
        .output()
        .expect("xtask runs");
    assert!(output.status.success(), "xtask ci --list failed");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// A workflow file: its text and its parsed document.
struct Workflow {
    name: String,
    text: String,
    doc: Yaml,
}

fn workflows() -> Vec<Workflow> {
    let dir = root().join(".github/workflows");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the workflows directory")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "yml" || ext == "yaml")
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no workflow in {}", dir.display());
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a readable workflow");
            let mut docs = YamlLoader::load_from_str(&text).expect("a YAML workflow");
            assert_eq!(docs.len(), 1, "{}: one document", path.display());
            Workflow {
                name: path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                text,
                doc: docs.remove(0),
            }
        })
        .collect()
}

/// The job ids of a workflow, in order, with their definitions.
fn jobs(workflow: &Workflow) -> Vec<(String, &Yaml)> {
    let Some(jobs) = workflow.doc["jobs"].as_hash() else {
        panic!("{}: no jobs", workflow.name)
    };
    jobs.iter()
        .map(|(id, job)| (id.as_str().unwrap_or_default().to_owned(), job))
        .collect()
}

/// The commands a job runs: the `run:` of each step.
fn commands(job: &Yaml) -> Vec<String> {
    job["steps"]
        .as_vec()
        .map(|steps| {
            steps
                .iter()
                .filter_map(|step| step["run"].as_str())
                .map(|run| run.trim().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The comment lines right above a job's key (`  id:`), joined.
fn comment_above(workflow: &Workflow, id: &str) -> String {
    let key = format!("  {id}:");
    let lines: Vec<&str> = workflow.text.lines().collect();
    let Some(at) = lines.iter().position(|line| *line == key) else {
        return String::new();
    };
    let mut comment: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .take_while(|line| line.trim_start().starts_with('#'))
        .map(|line| line.trim_start().trim_start_matches('#').trim())
        .collect();
    comment.reverse();
    comment.join(" ")
}

/// The steps of a `.ci/run --only A --only B` command, or `None` for any other command.
fn only_steps(command: &str) -> Option<Vec<String>> {
    let mut words = command.split_whitespace();
    if words.next() != Some(".ci/run") {
        return None;
    }
    let mut steps = Vec::new();
    while let Some(word) = words.next() {
        if word != "--only" {
            return None;
        }
        steps.push(words.next()?.to_owned());
    }
    (!steps.is_empty()).then_some(steps)
}

#[test]
fn hosted_jobs_run_the_steps_of_ci_run_each_once() {
    let steps = ci_steps();
    assert!(steps.len() > 10, "too few steps listed: {steps:?}");
    let mut run_by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for workflow in workflows() {
        for (id, job) in jobs(&workflow) {
            let comment = comment_above(&workflow, &id);
            let hosted_only = comment.starts_with("Hosted only:");
            let commands = commands(job);
            if hosted_only {
                // It must say why, in more than the two words.
                if comment.split_whitespace().count() < 8 {
                    problems.push(format!(
                        "{}: job {id} does not say why it is hosted only",
                        workflow.name
                    ));
                }
                continue;
            }
            if commands.is_empty() {
                problems.push(format!("{}: job {id} runs nothing", workflow.name));
            }
            for command in commands {
                match only_steps(&command) {
                    Some(named) => {
                        for step in named {
                            run_by.entry(step).or_default().push(id.clone());
                        }
                    }
                    None => problems.push(format!(
                        "{}: job {id} runs `{command}`, which is not `.ci/run --only STEP…`; run it as a step of cargo xtask ci, or say above the job why only a hosted runner can (`# Hosted only: …`)",
                        workflow.name
                    )),
                }
            }
        }
    }
    for step in &steps {
        match run_by.get(step).map(Vec::as_slice) {
            None | Some([]) => problems.push(format!("no hosted job runs the step {step}")),
            Some([_]) => {}
            Some(jobs) => problems.push(format!("the step {step} runs in several jobs: {jobs:?}")),
        }
    }
    for (step, jobs) in &run_by {
        if !steps.contains(step) {
            problems.push(format!(
                "jobs {jobs:?} name a step {step} that cargo xtask ci does not have"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_conformance_job_checks_out_the_pinned_commit() {
    // The commit the contribution is pinned to, as its README states it.
    let readme = std::fs::read_to_string(root().join("contrib/conformance/README.md"))
        .expect("the contribution's README");
    let pinned: Vec<&str> = readme
        .split(|c: char| !c.is_ascii_hexdigit())
        .filter(|word| word.len() == 40)
        .collect();
    assert_eq!(
        pinned.len(),
        1,
        "the README names one pinned commit: {pinned:?}"
    );
    let workflows = workflows();
    let ci = workflows
        .iter()
        .find(|w| w.name == "ci.yml")
        .expect("ci.yml");
    let refs: Vec<&str> = jobs(ci)
        .iter()
        .flat_map(|(_, job)| job["steps"].as_vec().cloned().unwrap_or_default())
        .filter(|step| {
            step["with"]["repository"].as_str() == Some("modelcontextprotocol/conformance")
        })
        .filter_map(|step| step["with"]["ref"].as_str().map(str::to_owned))
        .map(|r| {
            if r == pinned[0] {
                pinned[0]
            } else {
                "another commit"
            }
        })
        .collect();
    assert_eq!(refs, [pinned[0]]);
}

/// The cargo tools xtask pins: each `Tool { krate: "…", …, version: "…" }` in its sources.
fn xtask_pins() -> BTreeMap<String, String> {
    let mut pins = BTreeMap::new();
    let dir = root().join("xtask/src");
    for entry in std::fs::read_dir(&dir).expect("xtask/src") {
        let text = std::fs::read_to_string(entry.expect("an entry").path()).unwrap_or_default();
        for declaration in text.split("Tool {").skip(1) {
            let field = |name: &str| {
                let (_, after) = declaration.split_once(&format!("{name}: \""))?;
                after.split('"').next().map(str::to_owned)
            };
            if let (Some(krate), Some(version)) = (field("krate"), field("version")) {
                pins.insert(krate, version);
            }
        }
    }
    pins
}

/// Every step of every job of every workflow.
fn all_steps() -> Vec<Yaml> {
    workflows()
        .iter()
        .flat_map(|w| jobs(w).into_iter().map(|(_, job)| job.clone()))
        .flat_map(|job| job["steps"].as_vec().cloned().unwrap_or_default())
        .collect()
}

/// Every `tool@version` that `taiki-e/install-action` installs in the workflows, and any
/// tool it installs without a version.
fn installed_tools() -> Vec<(String, Option<String>)> {
    all_steps()
        .into_iter()
        .filter(|step| {
            step["uses"]
                .as_str()
                .is_some_and(|uses| uses.starts_with("taiki-e/install-action"))
        })
        .filter_map(|step| step["with"]["tool"].as_str().map(str::to_owned))
        .flat_map(|tools| {
            tools
                .split(',')
                .map(|tool| match tool.trim().split_once('@') {
                    Some((name, version)) => (name.to_owned(), Some(version.to_owned())),
                    None => (tool.trim().to_owned(), None),
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every step of every workflow as the text of its `uses:`, its `with:` values and its
/// `run:`, one line each.
fn step_texts() -> Vec<String> {
    all_steps()
        .into_iter()
        .map(|step| {
            let mut text = vec![step["uses"].as_str().unwrap_or_default().to_owned()];
            if let Some(with) = step["with"].as_hash() {
                text.extend(with.values().filter_map(|v| v.as_str().map(str::to_owned)));
            }
            text.push(step["run"].as_str().unwrap_or_default().to_owned());
            text.join(" ").replace('\n', " ")
        })
        .collect()
}

/// The steps that bring a tool xtask pins some other way than `taiki-e/install-action`:
/// an action named for it (`EmbarkStudios/cargo-deny-action` runs a cargo-deny of its
/// own), another installer given its name, or a `run:` that installs it.
fn other_installers<'a>(steps: &'a [String], pins: &BTreeMap<String, String>) -> Vec<&'a str> {
    steps
        .iter()
        .map(String::as_str)
        .filter(|step| !step.starts_with("taiki-e/install-action"))
        .filter(|step| {
            let step = step.to_lowercase();
            pins.keys().any(|krate| step.contains(krate.as_str()))
        })
        .collect()
}

/// A hosted job installs each cargo tool at the version xtask pins, with one installer,
/// so that it runs what runs here and is not rebuilt from source by `cargo xtask ci`.
#[test]
fn hosted_jobs_install_the_tools_xtask_pins() {
    let pins = xtask_pins();
    for krate in [
        "cargo-deny",
        "cargo-fuzz",
        "cargo-hack",
        "cargo-semver-checks",
    ] {
        assert!(pins.contains_key(krate), "xtask pins {krate}: {pins:?}");
    }
    let installed = installed_tools();
    assert!(!installed.is_empty(), "the workflows install tools");
    let problems: Vec<String> = installed
        .iter()
        .filter_map(|(tool, version)| match (pins.get(tool), version) {
            (Some(pin), Some(v)) if pin == v => None,
            (Some(pin), v) => Some(format!("{tool}@{v:?} where xtask pins {pin}")),
            (None, _) => None,
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let steps = step_texts();
    assert!(
        steps
            .iter()
            .any(|s| s.starts_with("taiki-e/install-action")),
        "no step read"
    );
    let others = other_installers(&steps, &pins);
    assert!(
        others.is_empty(),
        "actions that bring their own version of a tool xtask pins (install it with taiki-e/install-action at the pinned version): {others:?}"
    );
}

#[test]
fn the_rules_catch_what_they_are_for() {
    assert_eq!(
        only_steps(".ci/run --only fmt --only clippy"),
        Some(vec!["fmt".to_owned(), "clippy".to_owned()])
    );
    assert_eq!(only_steps(".ci/run --skip fuzz"), None);
    assert_eq!(only_steps(".ci/run"), None);
    assert_eq!(only_steps("cargo test"), None);
    assert_eq!(only_steps(".ci/run --only"), None);
    let workflow = Workflow {
        name: "t.yml".into(),
        text: "jobs:\n  # Hosted only: needs a toolchain this machine cannot download.\n  a:\n    x: 1\n  b:\n    x: 2\n".into(),
        doc: Yaml::Null,
    };
    assert!(comment_above(&workflow, "a").starts_with("Hosted only:"));
    assert_eq!(comment_above(&workflow, "b"), "");
    let pins = BTreeMap::from([("cargo-deny".to_owned(), "0.20.2".to_owned())]);
    let steps = [
        "EmbarkStudios/cargo-deny-action@v2 check advisories ".to_owned(),
        "taiki-e/install-action@v2 cargo-deny@0.20.2 ".to_owned(),
        "baptiste0928/cargo-install@v3 cargo-deny ".to_owned(),
        " cargo install --locked cargo-deny".to_owned(),
        "actions/checkout@v4 ".to_owned(),
        " cargo deny check advisories".to_owned(),
    ];
    assert_eq!(
        other_installers(&steps, &pins),
        [
            "EmbarkStudios/cargo-deny-action@v2 check advisories ",
            "baptiste0928/cargo-install@v3 cargo-deny ",
            " cargo install --locked cargo-deny",
        ]
    );
}
