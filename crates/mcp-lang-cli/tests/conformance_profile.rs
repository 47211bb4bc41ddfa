//! `mcp-lang conformance --profile FILE`: the suite takes the target's
//! languages from a TOML profile instead of probing them. A profile that
//! matches the reference server passes; one that names a language the server
//! does not support, or the wrong default, fails the scenarios that rely on
//! it (so the file is really read); a malformed file stops the run with exit
//! status 2 and a message naming the file.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-lang");

/// Writes `text` to a profile file of its own under Cargo's temporary
/// directory for integration tests.
fn profile_file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance_profile");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `mcp-lang conformance --profile PROFILE ARGS…`: exit code, stdout, stderr.
fn conformance(profile: &PathBuf, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(BIN)
        .arg("conformance")
        .arg("--profile")
        .arg(profile)
        .args(args)
        .output()
        .expect("mcp-lang runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The embedded suite's matching scenarios (both transports) as JSON.
fn matching_report(profile: &PathBuf) -> (i32, Value) {
    let (code, stdout, stderr) = conformance(profile, &["--only", "match.", "--format", "json"]);
    let report = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    (code, report)
}

/// The rows of scenario `id`, one per transport: (transport, outcome, reason).
fn rows<'a>(report: &'a Value, id: &str) -> Vec<(&'a str, &'a str, &'a str)> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["id"] == id)
        .map(|r| {
            (
                r["transport"].as_str().unwrap(),
                r["outcome"].as_str().unwrap(),
                r["reason"].as_str().unwrap_or(""),
            )
        })
        .collect()
}

#[test]
fn a_profile_file_gives_the_languages_the_scenarios_check() {
    // A subset of the reference server's languages, its own default: passes.
    let good = profile_file(
        "good.toml",
        "supported = [\"en\", \"fr\", \"de\"]\ndefault = \"en\"\n",
    );
    let (code, report) = matching_report(&good);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["summary"]["failed"], 0, "{report:#}");
    assert_eq!(rows(&report, "match.supported").len(), 2, "{report:#}");

    // `it` is not the reference server's: match.supported asks for it and
    // gets the default, on both transports.
    let extra = profile_file(
        "unsupported-language.toml",
        "supported = [\"en\", \"fr\", \"it\"]\ndefault = \"en\"\n",
    );
    let (code, report) = matching_report(&extra);
    assert_eq!(code, 1, "{report:#}");
    let supported = rows(&report, "match.supported");
    assert_eq!(supported.len(), 2, "{report:#}");
    for (transport, outcome, reason) in supported {
        assert_eq!(outcome, "fail", "{transport}: {reason}");
        assert!(reason.contains("expected \"it\""), "{transport}: {reason}");
    }

    // The server's default is `en`, not `de`: an unmatched preference gets
    // `en`, which the profile calls wrong; every tag is still supported.
    let wrong_default = profile_file(
        "wrong-default.toml",
        "supported = [\"en\", \"fr\", \"de\"]\ndefault = \"de\"\n",
    );
    let (code, report) = matching_report(&wrong_default);
    assert_eq!(code, 1, "{report:#}");
    for (transport, outcome, reason) in rows(&report, "match.supported") {
        assert_eq!(outcome, "pass", "{transport}: {reason}");
    }
    let fallback = rows(&report, "match.fallback");
    assert_eq!(fallback.len(), 2, "{report:#}");
    for (transport, outcome, reason) in fallback {
        assert_eq!(outcome, "fail", "{transport}: {reason}");
        assert!(
            reason.contains("selected \"en\"") && reason.contains("not the default \"de\""),
            "{transport}: {reason}"
        );
    }

    // The same file against a real `serve --stdio` process: no probe
    // overrides it there either.
    let command = format!("{BIN} serve --stdio");
    let (code, stdout, stderr) = conformance(
        &wrong_default,
        &["--stdio", &command, "--only", "match.fallback"],
    );
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(stdout.contains("not the default \"de\""), "{stdout}");
}

#[test]
fn a_malformed_profile_file_stops_the_run_with_exit_status_2() {
    let cases = [
        (
            "not-toml.toml",
            "supported = [\"en\"\ndefault = \"en\"\n",
            "TOML parse error",
        ),
        (
            "supported-not-array.toml",
            "supported = \"en\"\ndefault = \"en\"\n",
            "`supported` must be an array",
        ),
        (
            "no-default.toml",
            "supported = [\"en\", \"fr\"]\n",
            "`default` must be a language tag",
        ),
        (
            "empty-supported.toml",
            "supported = []\ndefault = \"en\"\n",
            "no supported language",
        ),
        (
            "locale-name.toml",
            "supported = [\"en\", \"fr_CA\"]\ndefault = \"en\"\n",
            "\"fr_CA\", which is not a well-formed language tag",
        ),
        (
            "malformed-default.toml",
            "supported = [\"en\"]\ndefault = \"not a tag!!\"\n",
            "not a well-formed language tag",
        ),
    ];
    for (name, text, why) in cases {
        let path = profile_file(name, text);
        let (code, stdout, stderr) = conformance(&path, &["--only", "match."]);
        assert_eq!(code, 2, "{name}: {stdout}\n{stderr}");
        // The table of a run that could not test goes to stderr, as its error.
        assert!(stdout.is_empty(), "{name}: no report on stdout: {stdout}");
        assert!(
            stderr.contains("verdict: COULD NOT TEST (exit status 2)"),
            "{name}: {stderr}"
        );
        assert!(stderr.contains(name), "{name}: the file is named: {stderr}");
        assert!(stderr.contains(why), "{name}: {stderr}");
    }

    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-profile.toml");
    let (code, _, stderr) = conformance(&missing, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("cannot read"), "{stderr}");
    assert!(stderr.contains("no-such-profile.toml"), "{stderr}");
}
