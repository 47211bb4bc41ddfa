//! The exchanges in `docs/specification-chapter.md` are what the reference server says:
//! regenerate them and compare with the checked-in chapter.

use mcp_lang_examples::exchanges;

#[test]
fn specification_chapter_exchanges_are_current() {
    let path = exchanges::chapter_path();
    let checked_in = std::fs::read_to_string(&path).expect("read the chapter");
    let generated = exchanges::generate().expect("record the exchanges");
    assert!(!generated.is_empty());
    let fresh = exchanges::splice(&checked_in, &generated).expect("every exchange has its place");
    if fresh != checked_in {
        let line = checked_in
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| checked_in.lines().count().min(fresh.lines().count()));
        panic!(
            "{} is stale from line {} on (checked in: {:?}, server now: {:?}); run `cargo xtask docs`",
            path.display(),
            line + 1,
            checked_in.lines().nth(line).unwrap_or(""),
            fresh.lines().nth(line).unwrap_or(""),
        );
    }
}

#[test]
fn every_exchange_shows_the_language_fields() {
    // Each recorded exchange is about the two fields: a generator that silently lost
    // them (say, because a request stopped reaching the handler) must not pass.
    for (name, text) in exchanges::generate().expect("record the exchanges") {
        assert!(
            text.contains("io.modelcontextprotocol/acceptLanguage")
                || text.contains("Accept-Language:"),
            "exchange `{name}` shows no preference"
        );
        assert!(
            text.contains("io.modelcontextprotocol/contentLanguage") || text.contains("-32020"),
            "exchange `{name}` shows neither a reported language nor a HeaderMismatch"
        );
    }
}
