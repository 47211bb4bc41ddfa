//! The translation catalogs: Fluent files from `data/catalogs/`, one folder per
//! language, compiled into the binary. (The crate reaches them through its
//! `catalogs` symlink to `../../data/catalogs`, which `cargo package` follows,
//! so the published crate carries its catalogs.)
//!
//! Each language has two resources: `server.ftl` (display text only: titles,
//! elicitation text, progress and error messages) and `documents.ftl` (the
//! official editions `get_official_document` returns). Formatting uses
//! [`fluent_bundle`]'s thread-safe bundle with Unicode isolation marks turned
//! off, so an interpolated identifier reaches the client byte for byte.
//!
//! ```
//! use mcp_lang_reference::catalog::Catalog;
//!
//! let catalog = Catalog::load().unwrap();
//! assert_eq!(catalog.text("de", "tool-weather-title"), "Aktuelles Wetter");
//! assert_eq!(
//!     catalog.format("fr", "error-unknown-tool", &[("name", "forecast")]),
//!     "Outil inconnu : forecast"
//! );
//! ```

use std::borrow::Cow;

use fluent_bundle::{FluentArgs, FluentResource, concurrent::FluentBundle};
use unic_langid::LanguageIdentifier;

/// One language's Fluent sources, as compiled into the binary.
struct Source {
    tag: &'static str,
    server: &'static str,
    documents: &'static str,
}

macro_rules! source {
    ($tag:literal) => {
        Source {
            tag: $tag,
            server: include_str!(concat!("../catalogs/", $tag, "/server.ftl")),
            documents: include_str!(concat!("../catalogs/", $tag, "/documents.ftl")),
        }
    };
}

/// The catalog languages, in the server's order of preference; the first is
/// the default.
const SOURCES: [Source; 6] = [
    source!("en"),
    source!("fr"),
    source!("fr-CA"),
    source!("de"),
    source!("ja"),
    source!("ga"),
];

/// Every message id of `server.ftl`: the test suite checks that each language
/// defines each one, and the server only asks for these.
///
/// ```
/// use mcp_lang_reference::catalog::{Catalog, MESSAGE_IDS};
///
/// let catalog = Catalog::load().unwrap();
/// // Every language defines every message (no silent fallback to English).
/// for tag in catalog.languages() {
///     assert!(MESSAGE_IDS.iter().all(|id| catalog.has(tag, id)), "{tag}");
/// }
/// ```
pub const MESSAGE_IDS: &[&str] = &[
    "server-title",
    "tool-weather-title",
    "tool-weather-annotation-title",
    "tool-document-title",
    "tool-document-annotation-title",
    "tool-contact-title",
    "tool-contact-annotation-title",
    "tool-report-title",
    "tool-report-annotation-title",
    "prompt-trip-title",
    "prompt-trip-city-title",
    "prompt-trip-days-title",
    "resource-languages-title",
    "template-document-title",
    "elicit-email-message",
    "elicit-email-title",
    "elicit-email-description",
    "progress-collect",
    "progress-analyse",
    "progress-write",
    "progress-done",
    "error-unknown-tool",
    "error-missing-argument",
    "error-unknown-city",
    "error-unknown-document",
    "error-document-language",
    "error-unknown-prompt",
    "error-unknown-resource",
    "error-email-declined",
    "error-elicitation-unsupported",
];

/// The ids of the official documents in `documents.ftl`.
///
/// ```
/// use mcp_lang_reference::catalog::{Catalog, DOCUMENT_IDS};
///
/// let catalog = Catalog::load().unwrap();
/// let irish = catalog.text("ga", DOCUMENT_IDS[0]);
/// assert!(irish.starts_with("Saolaítear gach duine"));
/// ```
pub const DOCUMENT_IDS: &[&str] = &["udhr-article-1"];

/// A catalog failed to load: a Fluent syntax error or a bad folder name.
///
/// ```
/// use mcp_lang_reference::catalog::{Catalog, CatalogError};
///
/// // The shipped catalogs always load; a broken one would name its language.
/// let loaded: Result<Catalog, CatalogError> = Catalog::load();
/// assert!(loaded.is_ok());
/// ```
#[derive(Debug)]
pub struct CatalogError {
    tag: &'static str,
    detail: String,
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "catalog {}: {}", self.tag, self.detail)
    }
}

impl std::error::Error for CatalogError {}

/// The loaded catalogs of every language.
///
/// ```
/// use mcp_lang_reference::catalog::Catalog;
///
/// let catalog = Catalog::load().unwrap();
/// assert_eq!(catalog.text("fr-CA", "server-title"), "Serveur de référence des préférences linguistiques");
/// assert_eq!(catalog.format("ja", "error-unknown-city", &[("city", "Osaka")]), "不明な都市です: Osaka");
/// ```
pub struct Catalog {
    bundles: Vec<(&'static str, FluentBundle<FluentResource>)>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog")
            .field("languages", &self.languages().collect::<Vec<_>>())
            .finish()
    }
}

impl Catalog {
    /// Parses every compiled-in catalog.
    ///
    /// # Errors
    ///
    /// A [`CatalogError`] naming the language when a file does not parse.
    ///
    /// ```
    /// use mcp_lang_reference::catalog::Catalog;
    ///
    /// let catalog = Catalog::load().unwrap();
    /// assert_eq!(catalog.languages().count(), 6);
    /// ```
    pub fn load() -> Result<Self, CatalogError> {
        let mut bundles = Vec::with_capacity(SOURCES.len());
        for source in &SOURCES {
            let langid: LanguageIdentifier = source.tag.parse().map_err(|e| CatalogError {
                tag: source.tag,
                detail: format!("folder name is not a language identifier: {e}"),
            })?;
            let mut bundle = FluentBundle::new_concurrent(vec![langid]);
            bundle.set_use_isolating(false);
            for text in [source.server, source.documents] {
                let resource =
                    FluentResource::try_new(text.to_owned()).map_err(|(_, errors)| {
                        CatalogError {
                            tag: source.tag,
                            detail: format!("{errors:?}"),
                        }
                    })?;
                bundle
                    .add_resource(resource)
                    .map_err(|errors| CatalogError {
                        tag: source.tag,
                        detail: format!("{errors:?}"),
                    })?;
            }
            bundles.push((source.tag, bundle));
        }
        Ok(Self { bundles })
    }

    /// The catalog languages, default first.
    ///
    /// ```
    /// use mcp_lang_reference::catalog::Catalog;
    ///
    /// let catalog = Catalog::load().unwrap();
    /// assert_eq!(catalog.languages().collect::<Vec<_>>(), ["en", "fr", "fr-CA", "de", "ja", "ga"]);
    /// ```
    pub fn languages(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.bundles.iter().map(|(tag, _)| *tag)
    }

    /// The default language (English).
    ///
    /// ```
    /// use mcp_lang_reference::catalog::Catalog;
    ///
    /// let catalog = Catalog::load().unwrap();
    /// assert_eq!(catalog.default_language(), "en");
    /// assert_eq!(catalog.languages().next(), Some(catalog.default_language()));
    /// ```
    pub fn default_language(&self) -> &'static str {
        self.bundles.first().map_or("en", |(tag, _)| tag)
    }

    fn bundle(&self, tag: &str) -> Option<&FluentBundle<FluentResource>> {
        self.bundles
            .iter()
            .find(|(t, _)| *t == tag)
            .map(|(_, bundle)| bundle)
    }

    /// Whether `tag` has a message `id` (used for document editions).
    ///
    /// ```
    /// use mcp_lang_reference::catalog::Catalog;
    ///
    /// let catalog = Catalog::load().unwrap();
    /// assert!(catalog.has("de", "udhr-article-1"));
    /// assert!(!catalog.has("es", "udhr-article-1")); // no Spanish catalog
    /// assert!(!catalog.has("de", "no-such-message"));
    /// ```
    pub fn has(&self, tag: &str, id: &str) -> bool {
        self.bundle(tag).is_some_and(|b| b.has_message(id))
    }

    fn format_in(&self, tag: &str, id: &str, args: Option<&FluentArgs<'_>>) -> Option<String> {
        let bundle = self.bundle(tag)?;
        let pattern = bundle.get_message(id)?.value()?;
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, args, &mut errors);
        errors.is_empty().then(|| text.into_owned())
    }

    /// A message without variables, in `tag`, falling back to the default
    /// language and then to the id itself (the tests make both fallbacks
    /// unreachable for the shipped catalogs).
    ///
    /// ```
    /// use mcp_lang_reference::catalog::Catalog;
    ///
    /// let catalog = Catalog::load().unwrap();
    /// assert_eq!(catalog.text("de", "server-title"), "Referenzserver für Sprachpräferenzen");
    /// // A language without a catalog falls back to English.
    /// assert_eq!(catalog.text("es", "server-title"), "Language Preference Reference Server");
    /// ```
    pub fn text(&self, tag: &str, id: &str) -> String {
        self.format(tag, id, &[])
    }

    /// A message with string variables, in `tag`, with the same fallbacks as
    /// [`Catalog::text`].
    ///
    /// ```
    /// use mcp_lang_reference::catalog::Catalog;
    ///
    /// let catalog = Catalog::load().unwrap();
    /// // The argument is an identifier: it arrives byte for byte, without isolation marks.
    /// assert_eq!(catalog.format("de", "error-unknown-city", &[("city", "Zürich")]), "Unbekannte Stadt: Zürich");
    /// ```
    pub fn format(&self, tag: &str, id: &str, args: &[(&str, &str)]) -> String {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(Cow::Borrowed(*name), Cow::Borrowed(*value));
        }
        let fluent_args = (!args.is_empty()).then_some(&fluent_args);
        self.format_in(tag, id, fluent_args)
            .or_else(|| self.format_in(self.default_language(), id, fluent_args))
            .unwrap_or_else(|| id.to_owned())
    }

    /// A message in `tag` only, or `None` when that language lacks it or a
    /// variable is missing: what the completeness tests use.
    ///
    /// ```
    /// use mcp_lang_reference::catalog::Catalog;
    ///
    /// let catalog = Catalog::load().unwrap();
    /// assert_eq!(catalog.exact("ga", "error-unknown-city", &[("city", "Cork")]).as_deref(), Some("Cathair anaithnid: Cork"));
    /// assert_eq!(catalog.exact("ga", "error-unknown-city", &[]), None); // variable missing
    /// assert_eq!(catalog.exact("es", "server-title", &[]), None);      // no fallback
    /// ```
    pub fn exact(&self, tag: &str, id: &str, args: &[(&str, &str)]) -> Option<String> {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(Cow::Borrowed(*name), Cow::Borrowed(*value));
        }
        self.format_in(tag, id, (!args.is_empty()).then_some(&fluent_args))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_defines_every_message_and_document() {
        let catalog = Catalog::load().unwrap();
        let args = [
            ("name", "x"),
            ("city", "x"),
            ("id", "x"),
            ("language", "x"),
            ("uri", "x"),
            ("step", "1"),
            ("total", "4"),
        ];
        for tag in catalog.languages() {
            for id in MESSAGE_IDS.iter().chain(DOCUMENT_IDS) {
                let text = catalog.exact(tag, id, &args);
                assert!(
                    text.is_some_and(|t| !t.trim().is_empty()),
                    "{tag} lacks {id}"
                );
            }
        }
    }

    #[test]
    fn every_display_string_is_translated() {
        // A language may share a string with English only where the word is
        // genuinely the same; there is none such in these catalogs, so every
        // non-English display string must differ from English.
        let catalog = Catalog::load().unwrap();
        for tag in catalog.languages().filter(|t| *t != "en") {
            for id in MESSAGE_IDS {
                assert_ne!(
                    catalog.exact(
                        tag,
                        id,
                        &[
                            ("name", "x"),
                            ("city", "x"),
                            ("id", "x"),
                            ("language", "x"),
                            ("uri", "x"),
                            ("step", "1"),
                            ("total", "4")
                        ]
                    ),
                    catalog.exact(
                        "en",
                        id,
                        &[
                            ("name", "x"),
                            ("city", "x"),
                            ("id", "x"),
                            ("language", "x"),
                            ("uri", "x"),
                            ("step", "1"),
                            ("total", "4")
                        ]
                    ),
                    "{tag} {id} is still English"
                );
            }
        }
    }

    #[test]
    fn the_seps_german_elicitation_strings_word_for_word() {
        let catalog = Catalog::load().unwrap();
        assert_eq!(
            catalog.text("de", "elicit-email-message"),
            "Bitte geben Sie Ihre E-Mail-Adresse ein."
        );
        assert_eq!(catalog.text("de", "elicit-email-title"), "E-Mail-Adresse");
        assert_eq!(
            catalog.text("de", "elicit-email-description"),
            "Adresse für die Bestätigung"
        );
        assert_eq!(
            catalog.text("fr-CA", "tool-weather-title"),
            "Météo actuelle"
        );
    }

    #[test]
    fn identifiers_pass_through_variables_untouched() {
        let catalog = Catalog::load().unwrap();
        // No Unicode isolation marks around placeables: the identifier is byte-exact.
        let text = catalog.format("ja", "error-unknown-tool", &[("name", "weather_current")]);
        assert!(text.ends_with(": weather_current"), "{text:?}");
        assert!(!text.contains('\u{2068}'));
    }

    #[test]
    fn a_missing_message_falls_back_to_english_then_the_id() {
        let catalog = Catalog::load().unwrap();
        assert_eq!(
            catalog.text("xx", "server-title"),
            "Language Preference Reference Server"
        );
        assert_eq!(catalog.text("de", "no-such-message"), "no-such-message");
        assert_eq!(catalog.exact("de", "no-such-message", &[]), None);
    }
}
