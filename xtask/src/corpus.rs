//! `cargo xtask seed-corpus`: fuzz seed corpora from the shared cases in `testdata/`.
//!
//! Every case in `testdata/**/*.json` is one request of the `mcp-lang match --jsonl`
//! protocol (see `testdata/README.md`). Its input strings become seeds for the fuzz targets
//! that read the same kind of input, routed by the target name's prefix:
//!
//! | target prefix | seed bytes |
//! |---------------|------------|
//! | `grammar_`    | each `header` and each `value` string, as is |
//! | `match_`      | lines: the `header` (empty when null), the `default` (`en` when absent or null), then each tag of `supported` or `tags` |
//! | `agree_`      | one byte for the kind of `meta` (0 absent, 1 string, 2 any other JSON value), the `meta` string (empty otherwise), then each field line of `lines`, each preceded by a `0x00` byte (a field value cannot hold NUL) |
//!
//! Targets with another prefix get no seeds from here (their inputs are not header
//! values). Seed files are named `seed-<16 hex digits>` after a hash of their content, so
//! rerunning is idempotent; stale `seed-*` files (from cases since removed) are deleted,
//! and every other file in the corpus is left alone.
//!
//! Seeds are generated, never checked in (`.gitignore` has `fuzz/corpus/*/seed-*`): what
//! git holds under `fuzz/corpus/<target>/` is the inputs a long run found beyond them
//! (`cargo xtask fuzz --merge`, minimized with `cargo fuzz cmin`) and hand-written
//! regression inputs. `cargo xtask fuzz` (and the CI's smoke run) writes the seeds into
//! its scratch corpus before every run, so a fresh clone fuzzes from them; this command
//! writes them into `fuzz/corpus/` for plain `cargo fuzz run`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::args::Args;
use crate::fuzz::{self, FuzzTarget};
use crate::{Result, bail, workspace};

pub(crate) const USAGE: &str = "  seed-corpus
      Writes fuzz/corpus/<target>/seed-* (not tracked by git) from the inputs in
      testdata/**/*.json, routed by target-name prefix (grammar_*, match_*, agree_*), for
      plain `cargo fuzz run`; `cargo xtask fuzz` generates them itself.";

/// Seeds larger than this are skipped: the corpora stay small and quick to replay.
const MAX_SEED_LEN: usize = 4096;

/// The file-name prefix of generated seeds.
const SEED_PREFIX: &str = "seed-";

pub(crate) fn run(args: Args) -> Result<()> {
    args.finish()?;
    let root = workspace::root();
    let cases = load_testdata(&root.join("testdata"))?;
    for target in fuzz::targets(root)? {
        let seeds = seeds_for(&target.name, &cases);
        if seeds.is_empty() {
            println!("{}: no testdata routes to this target", target.name);
            continue;
        }
        let dir = fuzz::corpus_dir(root, &target.name);
        let change = sync_seeds(&dir, &seeds)?;
        println!(
            "{}: {} seeds ({} added, {} removed)",
            target.name,
            seeds.len(),
            change.added,
            change.removed
        );
    }
    Ok(())
}

/// The seeds of one target from the test cases (empty for a prefix with no route).
pub(crate) fn seeds_for(target: &str, cases: &[Value]) -> BTreeSet<Vec<u8>> {
    let mut seeds = BTreeSet::new();
    for request in cases {
        if target.starts_with("grammar_") {
            for key in ["header", "value"] {
                if let Some(s) = request[key].as_str() {
                    seeds.insert(s.as_bytes().to_vec());
                }
            }
        } else if target.starts_with("match_")
            && let Some(seed) = match_seed(request)
        {
            seeds.insert(seed);
        } else if target.starts_with("agree_")
            && let Some(seed) = agree_seed(request)
        {
            seeds.insert(seed);
        }
    }
    seeds.retain(|s| s.len() <= MAX_SEED_LEN);
    seeds
}

/// A matching request (one with a `header`, even null) in the layout of the `match_*`
/// targets: `header \n default \n tag \n tag …`.
fn match_seed(request: &Value) -> Option<Vec<u8>> {
    let header = match request.get("header")? {
        Value::String(s) => s.as_str(),
        Value::Null => "",
        _ => return None,
    };
    let default = request["default"].as_str().unwrap_or("en");
    let mut seed = format!("{header}\n{default}");
    let tags = request["supported"]
        .as_array()
        .or(request["tags"].as_array());
    for tag in tags.into_iter().flatten().filter_map(Value::as_str) {
        seed.push('\n');
        seed.push_str(tag);
    }
    Some(seed.into_bytes())
}

/// An `agree` request in the layout of the `agree_*` targets:
/// `kind, meta-bytes, (0x00, line)*`.
fn agree_seed(request: &Value) -> Option<Vec<u8>> {
    let lines = request["lines"].as_array()?;
    let mut seed = match request.get("meta").unwrap_or(&Value::Null) {
        Value::Null => vec![0],
        Value::String(s) => [&[1][..], s.as_bytes()].concat(),
        _ => vec![2],
    };
    for line in lines {
        seed.push(0);
        seed.extend_from_slice(line.as_str()?.as_bytes());
    }
    Some(seed)
}

/// The `request` of every case in every `*.json` file under `dir`, in path order.
pub(crate) fn load_testdata(dir: &Path) -> Result<Vec<Value>> {
    let mut files = Vec::new();
    collect_json_files(dir, &mut files)?;
    files.sort();
    let mut requests = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file)?;
        let doc: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not JSON: {e}", file.display()))?;
        let Some(cases) = doc["cases"].as_array() else {
            bail!(
                "{}: no `cases` array (see testdata/README.md)",
                file.display()
            );
        };
        requests.extend(cases.iter().map(|c| c["request"].clone()));
    }
    Ok(requests)
}

fn collect_json_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_json_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// What [`sync_seeds`] changed.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Change {
    pub(crate) added: usize,
    pub(crate) removed: usize,
}

/// Makes the `seed-*` files of `dir` exactly `seeds`.
pub(crate) fn sync_seeds(dir: &Path, seeds: &BTreeSet<Vec<u8>>) -> Result<Change> {
    let wanted: BTreeSet<String> = seeds.iter().map(|s| seed_file_name(s)).collect();
    let mut change = Change::default();
    let mut present = BTreeSet::new();
    if dir.is_dir() {
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.starts_with(SEED_PREFIX) {
                continue;
            }
            if wanted.contains(&name) {
                present.insert(name);
            } else {
                change.removed += 1;
                fs::remove_file(entry.path())?;
            }
        }
    }
    for seed in seeds {
        let name = seed_file_name(seed);
        if present.contains(&name) {
            continue;
        }
        change.added += 1;
        fs::create_dir_all(dir)?;
        fs::write(dir.join(&name), seed)?;
    }
    Ok(change)
}

/// Writes `seeds` into `dir` (a scratch corpus) without removing anything.
pub(crate) fn write_seeds(dir: &Path, seeds: &BTreeSet<Vec<u8>>) -> Result<()> {
    fs::create_dir_all(dir)?;
    for seed in seeds {
        fs::write(dir.join(seed_file_name(seed)), seed)?;
    }
    Ok(())
}

/// `seed-` and the 64-bit FNV-1a hash of the content in hex: stable across runs and
/// machines, so regenerating an unchanged corpus changes no file.
fn seed_file_name(seed: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in seed {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{SEED_PREFIX}{hash:016x}")
}

/// The seeds for `target`, computed from `testdata/` (used by the fuzz runs, so they always
/// start from the current cases even when the checked-in corpus lags behind).
pub(crate) fn seeds_from_testdata(target: &FuzzTarget) -> Result<BTreeSet<Vec<u8>>> {
    let cases = load_testdata(&workspace::root().join("testdata"))?;
    Ok(seeds_for(&target.name, &cases))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cases() -> Vec<Value> {
        vec![
            json!({"op": "parse", "header": "fr-CA,fr;q=0.9"}),
            json!({"op": "tag", "value": "zh-Hant-TW"}),
            json!({"op": "negotiate", "header": null, "supported": ["en"], "default": "en"}),
            json!({"op": "filter", "header": "de, *;q=0.5", "tags": ["de"]}),
            json!({"op": "agree", "meta": "en-US", "lines": ["en-US ", "en;q=0.9"]}),
            json!({"op": "agree", "meta": null, "lines": ["fr"]}),
            json!({"op": "agree", "meta": 42, "lines": []}),
            json!({"op": "parse", "header": "x".repeat(MAX_SEED_LEN + 1)}),
        ]
    }

    fn strings(seeds: BTreeSet<Vec<u8>>) -> Vec<String> {
        seeds
            .into_iter()
            .map(|s| String::from_utf8(s).unwrap())
            .collect()
    }

    #[test]
    fn routes_inputs_by_target_prefix() {
        let cases = cases();
        assert_eq!(
            strings(seeds_for("grammar_accept_language", &cases)),
            ["de, *;q=0.5", "fr-CA,fr;q=0.9", "zh-Hant-TW"]
        );
        assert_eq!(
            strings(seeds_for("match_negotiate", &cases)),
            ["\nen\nen", "de, *;q=0.5\nen\nde", "fr-CA,fr;q=0.9\nen"]
        );
        assert_eq!(
            strings(seeds_for("agree_lines", &cases)),
            ["\0\0fr", "\u{1}en-US\0en-US \0en;q=0.9", "\u{2}"]
        );
        assert!(seeds_for("http_layer", &cases).is_empty());
    }

    #[test]
    fn sync_adds_missing_removes_stale_and_keeps_other_files() {
        let dir = std::env::temp_dir().join(format!("xtask-seeds-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("seed-0000000000000000"), "stale").unwrap();
        fs::write(
            dir.join("3f786850e387550fdab836ed7e6dc881de23001b"),
            "merged",
        )
        .unwrap();
        let seeds: BTreeSet<Vec<u8>> = [b"en".to_vec(), b"fr".to_vec()].into();

        assert_eq!(
            sync_seeds(&dir, &seeds).unwrap(),
            Change {
                added: 2,
                removed: 1
            }
        );
        assert_eq!(sync_seeds(&dir, &seeds).unwrap(), Change::default());
        let mut names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names.len(), 3);
        assert_eq!(names[0], "3f786850e387550fdab836ed7e6dc881de23001b");
        assert!(names[1..].iter().all(|n| n.starts_with(SEED_PREFIX)));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn seed_names_are_stable_content_hashes() {
        assert_eq!(seed_file_name(b""), "seed-cbf29ce484222325");
        assert_eq!(seed_file_name(b"a"), "seed-af63dc4c8601ec8c");
        assert_ne!(seed_file_name(b"en"), seed_file_name(b"ne"));
    }
}
