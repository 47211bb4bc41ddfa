//! The translation catalogs: Fluent files from `data/catalogs/`, one folder per
//! language, compiled into the binary. (The crate reaches them through its
//! `catalogs` symlink to `../../data/catalogs`, which `cargo package` follows,
//! so the published crate carries its catalogs.)
//!
//! Each language has two resources: `server.ftl` (display text only: titles,
//! elicitation text, progress and error messages) and `documents.ftl` (the
//! official editions `get_official_document` returns). They are loaded into
//! `mcp-lang-rmcp`'s [`FluentCatalog`], the catalog [`Localized`] reads the
//! titles of the listed tools, prompts and resources from (by the naming scheme
//! `tool-NAME`, `tool-NAME.annotation-title`, `prompt-NAME.arg-ARGUMENT`, …) and
//! the handlers read their messages from.
//!
//! [`Localized`]: mcp_lang_rmcp::server::Localized
//!
//! ```
//! use mcp_lang_reference::catalog::ReferenceCatalog;
//!
//! let catalog = ReferenceCatalog::load().unwrap();
//! assert_eq!(catalog.text("de", "tool-weather_current"), "Aktuelles Wetter");
//! assert_eq!(
//!     catalog.format("fr", "error-unknown-tool", &[("name", "forecast".into())]),
//!     "Outil inconnu : forecast"
//! );
//! ```

use mcp_lang_rmcp::server::{Arg, Catalog as _, FluentCatalog, FluentError};

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

/// Every message id of `server.ftl` (`id.attribute` for an attribute): the test
/// suite checks that each language defines each one, and the server only asks for
/// these. The titles follow `mcp-lang-rmcp`'s naming scheme, by tool, prompt,
/// argument, resource and template name.
///
/// ```
/// use mcp_lang_reference::catalog::{ReferenceCatalog, MESSAGE_IDS};
///
/// let catalog = ReferenceCatalog::load().unwrap();
/// // Every language defines every message (no silent fallback to English).
/// for tag in catalog.languages() {
///     assert!(MESSAGE_IDS.iter().all(|id| catalog.has(tag, id)), "{tag}");
/// }
/// ```
pub const MESSAGE_IDS: &[&str] = &[
    "server",
    "tool-weather_current",
    "tool-weather_current.annotation-title",
    "tool-get_official_document",
    "tool-get_official_document.annotation-title",
    "tool-send_confirmation",
    "tool-send_confirmation.annotation-title",
    "tool-prepare_report",
    "tool-prepare_report.annotation-title",
    "prompt-plan_trip",
    "prompt-plan_trip.arg-city",
    "prompt-plan_trip.arg-days",
    "resource-languages",
    "template-official_document",
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
    "error-tool-always-fails",
    "error-elicitation-unsupported",
];

/// The ids of the official documents in `documents.ftl`.
///
/// ```
/// use mcp_lang_reference::catalog::{ReferenceCatalog, DOCUMENT_IDS};
///
/// let catalog = ReferenceCatalog::load().unwrap();
/// let irish = catalog.text("ga", DOCUMENT_IDS[0]);
/// assert!(irish.starts_with("Saolaítear gach duine"));
/// ```
pub const DOCUMENT_IDS: &[&str] = &["udhr-article-1"];

/// A catalog failed to load: a Fluent syntax error or a bad folder name.
///
/// ```
/// use mcp_lang_reference::catalog::{ReferenceCatalog, CatalogError};
///
/// // The shipped catalogs always load; a broken one would name its language.
/// let loaded: Result<ReferenceCatalog, CatalogError> = ReferenceCatalog::load();
/// assert!(loaded.is_ok());
/// ```
#[derive(Debug)]
pub struct CatalogError(FluentError);

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "catalog: {}", self.0)
    }
}

impl std::error::Error for CatalogError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// The loaded catalogs of every language.
///
/// ```
/// use mcp_lang_reference::catalog::ReferenceCatalog;
///
/// let catalog = ReferenceCatalog::load().unwrap();
/// assert_eq!(catalog.text("fr-CA", "server"), "Serveur de référence des préférences linguistiques");
/// assert_eq!(catalog.format("ja", "error-unknown-city", &[("city", "Osaka".into())]), "不明な都市です: Osaka");
/// ```
pub struct ReferenceCatalog {
    fluent: FluentCatalog,
}

impl std::fmt::Debug for ReferenceCatalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReferenceCatalog")
            .field("languages", &self.languages().collect::<Vec<_>>())
            .finish()
    }
}

impl ReferenceCatalog {
    /// Parses every compiled-in catalog.
    ///
    /// # Errors
    ///
    /// A [`CatalogError`] naming the language when a file does not parse.
    ///
    /// ```
    /// use mcp_lang_reference::catalog::ReferenceCatalog;
    ///
    /// let catalog = ReferenceCatalog::load().unwrap();
    /// assert_eq!(catalog.languages().count(), 6);
    /// ```
    pub fn load() -> Result<Self, CatalogError> {
        let fluent = SOURCES
            .iter()
            .try_fold(FluentCatalog::new(), |catalog, source| {
                catalog
                    .add(source.tag, source.server)?
                    .add(source.tag, source.documents)
            })
            .map_err(CatalogError)?;
        Ok(Self { fluent })
    }

    /// The catalog languages, default first.
    ///
    /// ```
    /// use mcp_lang_reference::catalog::ReferenceCatalog;
    ///
    /// let catalog = ReferenceCatalog::load().unwrap();
    /// assert_eq!(catalog.languages().collect::<Vec<_>>(), ["en", "fr", "fr-CA", "de", "ja", "ga"]);
    /// ```
    pub fn languages(&self) -> impl Iterator<Item = &str> + '_ {
        self.fluent.languages()
    }

    /// The default language (English).
    ///
    /// ```
    /// use mcp_lang_reference::catalog::ReferenceCatalog;
    ///
    /// let catalog = ReferenceCatalog::load().unwrap();
    /// assert_eq!(catalog.default_language(), "en");
    /// assert_eq!(catalog.languages().next(), Some(catalog.default_language()));
    /// ```
    pub fn default_language(&self) -> &str {
        self.languages().next().unwrap_or("en")
    }

    /// The Fluent catalog itself: what the server's `Localized` wrapper reads.
    ///
    /// ```
    /// use mcp_lang_reference::catalog::ReferenceCatalog;
    ///
    /// let catalog = ReferenceCatalog::load().unwrap();
    /// // Every language defines everything English does.
    /// assert_eq!(catalog.fluent().missing("en"), []);
    /// ```
    pub fn fluent(&self) -> &FluentCatalog {
        &self.fluent
    }

    /// Whether `tag` has a message `id` (used for document editions).
    ///
    /// ```
    /// use mcp_lang_reference::catalog::ReferenceCatalog;
    ///
    /// let catalog = ReferenceCatalog::load().unwrap();
    /// assert!(catalog.has("de", "udhr-article-1"));
    /// assert!(!catalog.has("es", "udhr-article-1")); // no Spanish catalog
    /// assert!(!catalog.has("de", "no-such-message"));
    /// ```
    pub fn has(&self, tag: &str, id: &str) -> bool {
        self.fluent.has(tag, id)
    }

    /// A message without variables, in `tag`, falling back to the default
    /// language and then to the id itself (the tests make both fallbacks
    /// unreachable for the shipped catalogs).
    ///
    /// ```
    /// use mcp_lang_reference::catalog::ReferenceCatalog;
    ///
    /// let catalog = ReferenceCatalog::load().unwrap();
    /// assert_eq!(catalog.text("de", "server"), "Referenzserver für Sprachpräferenzen");
    /// // A language without a catalog falls back to English.
    /// assert_eq!(catalog.text("es", "server"), "Language Preference Reference Server");
    /// ```
    pub fn text(&self, tag: &str, id: &str) -> String {
        self.format(tag, id, &[])
    }

    /// A message with string variables, in `tag`, with the same fallbacks as
    /// [`ReferenceCatalog::text`].
    ///
    /// ```
    /// use mcp_lang_reference::catalog::ReferenceCatalog;
    ///
    /// let catalog = ReferenceCatalog::load().unwrap();
    /// // The argument is an identifier: it arrives byte for byte, without isolation marks.
    /// assert_eq!(catalog.format("de", "error-unknown-city", &[("city", "Zürich".into())]), "Unbekannte Stadt: Zürich");
    /// ```
    pub fn format(&self, tag: &str, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        self.exact(tag, id, args)
            .or_else(|| self.exact(self.default_language(), id, args))
            .unwrap_or_else(|| id.to_owned())
    }

    /// A message in `tag` only, or `None` when that language lacks it or a
    /// variable is missing: what the completeness tests use.
    ///
    /// ```
    /// use mcp_lang_reference::catalog::ReferenceCatalog;
    ///
    /// let catalog = ReferenceCatalog::load().unwrap();
    /// assert_eq!(catalog.exact("ga", "error-unknown-city", &[("city", "Cork".into())]).as_deref(), Some("Cathair anaithnid: Cork"));
    /// assert_eq!(catalog.exact("ga", "error-unknown-city", &[]), None); // variable missing
    /// assert_eq!(catalog.exact("es", "server", &[]), None);             // no fallback
    /// ```
    pub fn exact(&self, tag: &str, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
        self.fluent.message(tag, id, args)
    }
}

/// The server's display text for `mcp-lang-rmcp`: what `Localized` and the
/// per-request `Language` look up.
impl mcp_lang_rmcp::server::Catalog for ReferenceCatalog {
    fn message(&self, language: &str, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
        self.exact(language, id, args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_defines_every_message_and_document() {
        let catalog = ReferenceCatalog::load().unwrap();
        let args: [(&str, Arg<'_>); 7] = [
            ("name", "x".into()),
            ("city", "x".into()),
            ("id", "x".into()),
            ("language", "x".into()),
            ("uri", "x".into()),
            ("step", 1.into()),
            ("total", 4.into()),
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
        let catalog = ReferenceCatalog::load().unwrap();
        for tag in catalog.languages().filter(|t| *t != "en") {
            for id in MESSAGE_IDS {
                assert_ne!(
                    catalog.exact(
                        tag,
                        id,
                        &[
                            ("name", "x".into()),
                            ("city", "x".into()),
                            ("id", "x".into()),
                            ("language", "x".into()),
                            ("uri", "x".into()),
                            ("step", 1.into()),
                            ("total", 4.into())
                        ]
                    ),
                    catalog.exact(
                        "en",
                        id,
                        &[
                            ("name", "x".into()),
                            ("city", "x".into()),
                            ("id", "x".into()),
                            ("language", "x".into()),
                            ("uri", "x".into()),
                            ("step", 1.into()),
                            ("total", 4.into())
                        ]
                    ),
                    "{tag} {id} is still English"
                );
            }
        }
    }

    #[test]
    fn the_seps_german_elicitation_strings_word_for_word() {
        let catalog = ReferenceCatalog::load().unwrap();
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
            catalog.text("fr-CA", "tool-weather_current"),
            "Météo actuelle"
        );
    }

    #[test]
    fn identifiers_pass_through_variables_untouched() {
        let catalog = ReferenceCatalog::load().unwrap();
        // No Unicode isolation marks around placeables: the identifier is byte-exact.
        let text = catalog.format(
            "ja",
            "error-unknown-tool",
            &[("name", "weather_current".into())],
        );
        assert!(text.ends_with(": weather_current"), "{text:?}");
        assert!(!text.contains('\u{2068}'));
    }

    #[test]
    fn a_missing_message_falls_back_to_english_then_the_id() {
        let catalog = ReferenceCatalog::load().unwrap();
        assert_eq!(
            catalog.text("xx", "server"),
            "Language Preference Reference Server"
        );
        assert_eq!(catalog.text("de", "no-such-message"), "no-such-message");
        assert_eq!(catalog.exact("de", "no-such-message", &[]), None);
    }
}
