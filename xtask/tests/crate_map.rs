//! The crate map of `docs/architecture.md` against the `Cargo.toml` files, as
//! `cargo metadata` reads them: one row per workspace package, in layer order,
//! naming exactly the package's dependencies (workspace and third-party), the
//! workspace crates among its dev-dependencies, and whether it is published.
//! Then the layering rule: a row names only crates of earlier rows, and no
//! published crate depends on an unpublished one.

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

/// Every workspace package as `cargo metadata` sees it.
fn metadata() -> BTreeMap<String, Row> {
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
    let workspace: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut found = BTreeMap::new();
    for package in packages {
        let mut row = Row {
            // `publish = false` is an empty list of registries.
            published: package["publish"].as_array().is_none_or(|r| !r.is_empty()),
            ..Row::default()
        };
        for dependency in package["dependencies"].as_array().into_iter().flatten() {
            let name = dependency["name"].as_str().expect("a dependency name");
            let ours = workspace.contains(name);
            let set = match (dependency["kind"].as_str(), ours) {
                (None | Some("build"), true) => &mut row.depends_on,
                (None | Some("build"), false) => &mut row.built_on,
                (Some("dev"), true) => &mut row.tests_use,
                _ => continue,
            };
            set.insert(name.to_owned());
        }
        found.insert(package["name"].as_str().expect("a name").to_owned(), row);
    }
    found
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
