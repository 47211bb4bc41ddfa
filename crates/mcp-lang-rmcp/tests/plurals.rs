//! Numbers reach Fluent as numbers: each language's plural rules pick the variant,
//! in languages with two forms and in Irish, which has five.

use std::sync::Arc;

use mcp_lang_rmcp::server::{Catalog, FluentCatalog, Language, ServerLanguages};

const EN: &str = "left = { $n ->
    [one] { $n } step left
   *[other] { $n } steps left
}";
const FR: &str = "left = { $n ->
    [one] Plus qu'{ $n } étape
   *[other] Plus que { $n } étapes
}";
// Irish: one (1), two (2), few (3–6), many (7–10), other.
const GA: &str = "left = { $n ->
    [one] { $n } chéim fágtha
    [two] { $n } chéim fágtha (dhá)
    [few] { $n } chéim fágtha (cúpla)
    [many] { $n } gcéim fágtha
   *[other] { $n } céim fágtha
}";

fn catalog() -> FluentCatalog {
    FluentCatalog::new()
        .add("en", EN)
        .and_then(|c| c.add("fr", FR))
        .and_then(|c| c.add("ga", GA))
        .expect("valid Fluent")
}

#[test]
fn each_language_selects_its_own_plural_form() {
    let catalog = catalog();
    let left = |language: &str, n: u32| catalog.message(language, "left", &[("n", n.into())]);
    assert_eq!(left("en", 1).as_deref(), Some("1 step left"));
    assert_eq!(left("en", 0).as_deref(), Some("0 steps left"));
    // French puts 0 with 1.
    assert_eq!(left("fr", 0).as_deref(), Some("Plus qu'0 étape"));
    assert_eq!(left("fr", 2).as_deref(), Some("Plus que 2 étapes"));
    for (n, form) in [
        (1, "1 chéim fágtha"),
        (2, "2 chéim fágtha (dhá)"),
        (4, "4 chéim fágtha (cúpla)"),
        (8, "8 gcéim fágtha"),
        (11, "11 céim fágtha"),
    ] {
        assert_eq!(left("ga", n).as_deref(), Some(form), "{n}");
    }
}

#[test]
fn text_is_not_a_number() {
    // The same digits as text select no plural form: the default variant.
    let catalog = catalog();
    assert_eq!(
        catalog
            .message("en", "left", &[("n", "1".into())])
            .as_deref(),
        Some("1 steps left")
    );
}

#[test]
fn a_language_formats_with_numbers_too() {
    let languages = ServerLanguages::new(["en", "ga"], "en").unwrap();
    let irish = Language::new(
        languages.negotiate_raw(Some("ga")),
        &languages,
        Some(Arc::new(catalog())),
    );
    assert_eq!(
        irish.format("left", &[("n", 2_usize.into())]),
        "2 chéim fágtha (dhá)"
    );
}
