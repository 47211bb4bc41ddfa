//! `mcp-lang demo` tells the whole story and checks what it shows: it ends
//! without an error, and the story is one a person reads: the SEP's name,
//! localized titles shown once in a table, cache separation, a localized
//! error, what to run next, at most 100 columns and no line twice.

use mcp_lang_reference::demo::{WIDTH, display_width};

async fn story() -> String {
    let mut out = Vec::new();
    mcp_lang_reference::demo::run(&mut out).await.unwrap();
    String::from_utf8(out).unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn the_demo_tells_the_story_to_the_end() {
    let story = story().await;
    assert!(story.contains("SEP-2792"), "{story}");
    assert_eq!(story.matches("Météo actuelle").count(), 1, "{story}");
    for shown in [
        "Vary",
        "Accept-Language",
        "ttlMs",
        "Ville inconnue : Atlantis",
        "Unbekanntes Werkzeug",
        "input_required",
        "-32020",
        "What to run next",
        "mcp-lang serve --http",
    ] {
        assert!(story.contains(shown), "{shown} missing:\n{story}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn the_demo_fits_100_columns_and_says_nothing_twice() {
    let story = story().await;
    assert_eq!(WIDTH, 100);
    for line in story.lines() {
        assert!(
            display_width(line) <= WIDTH,
            "{} columns: {line}",
            display_width(line)
        );
    }
    let mut seen = std::collections::HashSet::new();
    for line in story.lines().filter(|l| !l.trim().is_empty()) {
        assert!(seen.insert(line), "repeated: {line}");
    }
    assert!(
        story.lines().count() < 100,
        "a few screens, not {}",
        story.lines().count()
    );
    assert!(!story.contains("{\n"), "no JSON blob:\n{story}");
}

#[test]
fn wide_characters_take_two_columns() {
    assert_eq!(display_width("abc"), 3);
    assert_eq!(display_width("Bestätigung"), 11);
    assert_eq!(display_width("現在の天気"), 10);
    assert_eq!(display_width("e\u{301}"), 1);
}
