//! The crate map of `docs/architecture.md` against the `Cargo.toml` files, as
//! `cargo metadata` reads them: one row per workspace package, in layer order,
//! naming exactly the package's dependencies (workspace and third-party), the
//! workspace crates among its dev-dependencies, and whether it is published.
//! Then the layering rule: a row names only crates of earlier rows, and no
//! published crate depends on an unpublished one. And every package's
//! `description` (what crates.io, `cargo info` and the CLI's `--help` show) is
//! there and says whether the package is published as the map does.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// One row of the map, or what `cargo metadata` says of the same package.
#[derive(Debug, Default, PartialEq, Eq)]
struct Row {
    published: bool,
    depends_on: BTreeSet<String>,
    built_on: BTreeSet<String>,
    tests_use: BTreeSet<String>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ is in the workspace root")
}

/// The names in backticks in one table cell.
fn names(cell: &str) -> BTreeSet<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The rows of the table under `## The crate map`, in order.
fn map_rows(markdown: &str) -> Vec<(String, Row)> {
    let section = markdown
        .split("\n## ")
        .find(|s| s.starts_with("The crate map"))
        .expect("docs/architecture.md has a section `## The crate map`");
    let mut rows = Vec::new();
    let lines = section.lines().filter(|l| l.starts_with('|'));
    for line in lines.skip(2) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 6, "a crate map row has six cells: {line}");
        let crate_name = names(cells[0])
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no crate name in {line}"));
        let published = match cells[1] {
            "yes" => true,
            "no" => false,
            other => panic!("{crate_name}: published is `yes` or `no`, not {other:?}"),
        };
        rows.push((
            crate_name,
            Row {
                published,
                depends_on: names(cells[3]),
                built_on: names(cells[4]),
                tests_use: names(cells[5]),
            },
        ));
    }
    rows
}

/// Every workspace package's entry in `cargo metadata`, by name.
fn packages() -> BTreeMap<String, Value> {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--manifest-path",
        ])
        .arg(root().join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("cargo metadata's JSON");
    let packages = metadata["packages"].as_array().expect("packages");
    packages
        .iter()
        .map(|package| {
            let name = package["name"].as_str().expect("a name").to_owned();
            (name, package.clone())
        })
        .collect()
}

/// Whether `cargo metadata` says a package is published: `publish = false` is an
/// empty list of registries.
fn is_published(package: &Value) -> bool {
    package["publish"].as_array().is_none_or(|r| !r.is_empty())
}

/// Every workspace package as `cargo metadata` sees it, as a row of the map.
fn metadata() -> BTreeMap<String, Row> {
    let packages = packages();
    let mut found = BTreeMap::new();
    for (name, package) in &packages {
        let mut row = Row {
            published: is_published(package),
            ..Row::default()
        };
        for dependency in package["dependencies"].as_array().into_iter().flatten() {
            let dependency_name = dependency["name"].as_str().expect("a dependency name");
            let ours = packages.contains_key(dependency_name);
            let set = match (dependency["kind"].as_str(), ours) {
                (None | Some("build"), true) => &mut row.depends_on,
                (None | Some("build"), false) => &mut row.built_on,
                (Some("dev"), true) => &mut row.tests_use,
                _ => continue,
            };
            set.insert(dependency_name.to_owned());
        }
        found.insert(name.clone(), row);
    }
    found
}

/// What is wrong with a package's `description`, if anything: it must be there,
/// and say "not published" exactly when the package is not (crates.io shows only
/// published ones; a reader of `cargo info` or of the `Cargo.toml` of one that is
/// not must not go looking for it there).
fn description_problem(name: &str, description: Option<&str>, published: bool) -> Option<String> {
    let description = description.map(str::trim).unwrap_or_default();
    if description.is_empty() {
        return Some(format!("{name}: Cargo.toml has no `description`"));
    }
    let lower = description.to_lowercase();
    let says_unpublished = lower.contains("not published") || lower.contains("unpublished");
    match (published, says_unpublished) {
        (false, false) => Some(format!(
            "{name}: `publish = false`, but its description does not say it is not published: \"{description}\""
        )),
        (true, true) => Some(format!(
            "{name}: published, but its description says it is not: \"{description}\""
        )),
        _ => None,
    }
}

fn architecture() -> String {
    std::fs::read_to_string(root().join("docs/architecture.md"))
        .expect("docs/architecture.md is readable")
}

#[test]
fn the_crate_map_matches_every_cargo_toml() {
    let rows = map_rows(&architecture());
    let mut mapped = BTreeMap::new();
    for (name, row) in rows {
        assert!(
            mapped.insert(name.clone(), row).is_none(),
            "{name} has two rows in the crate map"
        );
    }
    let found = metadata();
    let mapped_names: BTreeSet<&String> = mapped.keys().collect();
    let found_names: BTreeSet<&String> = found.keys().collect();
    assert_eq!(
        mapped_names, found_names,
        "the crate map's crates (left) are not the workspace's packages (right)"
    );
    for (name, row) in &found {
        assert_eq!(
            &mapped[name], row,
            "{name}: the crate map (left) says otherwise than its Cargo.toml (right)"
        );
    }
}

#[test]
fn every_crate_depends_only_on_crates_above_it() {
    let rows = map_rows(&architecture());
    let published: BTreeMap<&str, bool> = rows
        .iter()
        .map(|(name, row)| (name.as_str(), row.published))
        .collect();
    let mut above = BTreeSet::new();
    for (name, row) in &rows {
        for dependency in row.depends_on.iter().chain(&row.tests_use) {
            assert!(
                above.contains(dependency.as_str()),
                "{name} uses {dependency}, which is not above it in the crate map"
            );
        }
        if row.published {
            for dependency in &row.depends_on {
                assert!(
                    published[dependency.as_str()],
                    "{name} is published but depends on {dependency}, which is not"
                );
            }
        }
        above.insert(name.as_str());
    }
}

#[test]
fn every_package_describes_itself_and_says_whether_it_is_published() {
    // Whether the map's `published` cell agrees is the first test's business.
    let mut problems = Vec::new();
    for (name, package) in packages() {
        problems.extend(description_problem(
            &name,
            package["description"].as_str(),
            is_published(&package),
        ));
    }
    assert!(
        problems.is_empty(),
        "descriptions to fix:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_missing_or_wrong_description_is_caught() {
    assert!(description_problem("a", None, true).is_some());
    assert!(description_problem("a", Some("  "), false).is_some());
    assert!(description_problem("a", Some("Build tasks."), false).is_some());
    assert!(description_problem("a", Some("Build tasks. Not published."), true).is_some());
    assert!(description_problem("a", Some("Parsers (unpublished)."), true).is_some());
    assert_eq!(
        description_problem("a", Some("Build tasks (not published)."), false),
        None
    );
    assert_eq!(
        description_problem("a", Some("Parsers of language tags."), true),
        None
    );
}

#[test]
fn a_row_is_read_cell_by_cell() {
    let markdown = "# A\n\n## The crate map\n\nText.\n\n\
        | crate | published | job | depends on | built on | tests |\n\
        |---|---|---|---|---|---|\n\
        | `a` | yes | the `b` job | | `serde` | |\n\
        | `c` | no | c | `a` | | `a` |\n\n## Next\n\n| x | y |\n";
    let rows = map_rows(markdown);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].0, "a");
    assert!(rows[0].1.published && rows[0].1.depends_on.is_empty());
    assert_eq!(rows[0].1.built_on, BTreeSet::from(["serde".to_owned()]));
    assert_eq!(rows[1].1.depends_on, BTreeSet::from(["a".to_owned()]));
    assert_eq!(rows[1].1.tests_use, BTreeSet::from(["a".to_owned()]));
    assert!(!rows[1].1.published);
}
