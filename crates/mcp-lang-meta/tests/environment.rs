//! `PreferenceBuilder::with_environment` reads the real process environment (`LANGUAGE`,
//! `LC_ALL`, `LC_MESSAGES`, `LANG`), not only a lookup closure.
//!
//! Setting variables in this process would need `unsafe` (`std::env::set_var`) and would
//! race with other tests, so each case runs this test binary again as a child process with
//! exactly the variables of the case, and the child checks what it builds.

use std::process::Command;

use mcp_lang_meta::PreferenceBuilder;

/// Set in the child: the value the child must build (`-` for none).
const EXPECTED: &str = "MCP_LANG_META_TEST_EXPECTED_PREFERENCE";
const TEST_NAME: &str = "with_environment_reads_the_process_environment";
const VARIABLES: [&str; 4] = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"];

#[test]
fn with_environment_reads_the_process_environment() {
    if let Ok(expected) = std::env::var(EXPECTED) {
        // The child: build from the environment it was given.
        let built = PreferenceBuilder::new().with_environment().build();
        assert_eq!(built.as_deref().unwrap_or("-"), expected);
        return;
    }
    let cases: [(&[(&str, &str)], &str); 7] = [
        (&[("LANG", "fr_CA.UTF-8")], "fr-CA"),
        (
            &[("LANG", "de_DE.UTF-8"), ("LC_MESSAGES", "ja_JP.UTF-8")],
            "ja-JP",
        ),
        (
            &[
                ("LANG", "de_DE"),
                ("LC_MESSAGES", "ja_JP"),
                ("LC_ALL", "ga_IE.UTF-8"),
            ],
            "ga-IE",
        ),
        (
            &[("LANG", "en_US.UTF-8"), ("LANGUAGE", "pt_BR:pt:en")],
            "pt-BR,pt;q=0.9,en;q=0.8",
        ),
        (&[("LC_ALL", "C.UTF-8"), ("LANGUAGE", "fr")], "-"),
        (&[("LANGUAGE", "fr")], "-"),
        (&[], "-"),
    ];
    let this_test = std::env::current_exe().expect("the test binary's path");
    for (variables, expected) in cases {
        let mut child = Command::new(&this_test);
        child.args(["--exact", TEST_NAME, "--test-threads=1", "--nocapture"]);
        for name in VARIABLES {
            child.env_remove(name);
        }
        child
            .envs(variables.iter().copied())
            .env(EXPECTED, expected);
        let out = child.output().expect("the test binary runs again");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{variables:?} should build {expected}:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Make sure the child ran this test rather than filtering everything out.
        assert!(stdout.contains("1 passed"), "{variables:?}: {stdout}");
    }
}
