//! Fluent catalogs (feature `fluent`): one [`fluent_bundle`] bundle per language, built
//! from `.ftl` sources, as a [`Catalog`].
//!
//! Unicode isolation marks are turned off, so that an identifier passed as an argument
//! (a tool name, a city) reaches the client byte for byte.
//!
//! A number argument ([`Arg::Number`]) selects plural forms by the language's plural
//! rules and is written the way the language writes numbers (ICU4X's decimal formatting,
//! from CLDR): `1234.5` is `1,234.5` in English, `1 234,5` in French (a narrow no-break
//! space), `1.234,5` in German. Fluent's `NUMBER()` options for fraction digits and
//! grouping are applied first.

use std::borrow::Cow;
use std::fmt;

use fixed_decimal::{Decimal, FloatPrecision, SignedRoundingMode, UnsignedRoundingMode};
use fluent_bundle::{FluentArgs, FluentResource, FluentValue, concurrent::FluentBundle};
use fluent_syntax::ast;
use icu_decimal::DecimalFormatter;
use icu_decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use intl_memoizer::Memoizable;
use intl_memoizer::concurrent::IntlLangMemoizer;
use unic_langid::LanguageIdentifier;

use super::{Arg, Catalog, LanguagesError, ServerLanguages};

/// Why a Fluent source was refused.
///
/// ```
/// use mcp_lang_rmcp::server::{FluentCatalog, FluentError};
///
/// let error = FluentCatalog::new().add("fr", "tool-divide = ").unwrap_err();
/// assert!(matches!(error, FluentError::Syntax { ref language, .. } if language == "fr"));
/// let error = FluentCatalog::new().add("en_US", "server = Calculator").unwrap_err();
/// assert!(matches!(error, FluentError::Tag(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FluentError {
    /// The language is not a well-formed language tag (RFC 5646).
    Tag(String),
    /// The source does not parse as Fluent.
    Syntax {
        /// The language the source was added for.
        language: String,
        /// The parser's messages.
        detail: String,
    },
    /// The source defines a message the language already has.
    Duplicate {
        /// The language the source was added for.
        language: String,
        /// The bundle's messages.
        detail: String,
    },
}

impl fmt::Display for FluentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FluentError::Tag(tag) => write!(f, "{tag:?} is not a well-formed language tag"),
            FluentError::Syntax { language, detail } => {
                write!(
                    f,
                    "the Fluent source for {language} does not parse: {detail}"
                )
            }
            FluentError::Duplicate { language, detail } => {
                write!(
                    f,
                    "the Fluent source for {language} redefines a message: {detail}"
                )
            }
        }
    }
}

impl std::error::Error for FluentError {}

/// A language's decimal formatter, built once per bundle by Fluent's memoizer; the
/// argument says whether digits are grouped (Fluent's `useGrouping`).
struct LocaleNumbers(DecimalFormatter);

impl Memoizable for LocaleNumbers {
    type Args = (bool,);
    type Error = ();

    fn construct(language: LanguageIdentifier, (grouping,): (bool,)) -> Result<Self, ()> {
        let locale: icu_locale_core::Locale = language.to_string().parse().map_err(|_| ())?;
        let mut options = DecimalFormatterOptions::default();
        options.grouping_strategy = Some(if grouping {
            GroupingStrategy::Auto
        } else {
            GroupingStrategy::Never
        });
        DecimalFormatter::try_new(locale.into(), options)
            .map(LocaleNumbers)
            .map_err(|_| ())
    }
}

/// Fluent's formatter hook: a number in the bundle's language, after the fraction-digit
/// options of `NUMBER()`; `None` (Fluent's own writing) for anything else.
fn write_number(value: &FluentValue, memoizer: &IntlLangMemoizer) -> Option<String> {
    let FluentValue::Number(number) = value else {
        return None;
    };
    let mut decimal = Decimal::try_from_f64(number.value, FloatPrecision::RoundTrip).ok()?;
    let options = &number.options;
    if let Some(most) = options.maximum_fraction_digits {
        // Half away from zero, as ECMA-402's `Intl.NumberFormat` rounds.
        decimal.round_with_mode(
            -i16::try_from(most).ok()?,
            SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand),
        );
        decimal.absolute.trim_end();
    }
    if let Some(least) = options.minimum_fraction_digits {
        decimal.pad_end(-i16::try_from(least).ok()?);
    }
    memoizer
        .with_try_get::<LocaleNumbers, _, _>((options.use_grouping,), |numbers| {
            numbers.0.format(&decimal).to_string()
        })
        .ok()
}

struct Language {
    tag: String,
    bundle: FluentBundle<FluentResource>,
    /// Every message id and `id.attribute` the sources define, in source order.
    ids: Vec<String>,
}

/// Fluent catalogs, one language at a time, in the order they were added (the
/// server's order of preference when it builds its [`ServerLanguages`] from them).
///
/// Message ids follow the naming scheme of [`Titles`](super::Titles): a
/// title is a message's value, `.description` and the other fields are its attributes.
///
/// ```
/// use mcp_lang_rmcp::server::{Catalog, FluentCatalog};
///
/// let catalog = FluentCatalog::new()
///     .add("en", "tool-divide = Divide\ndivide-by-zero = Division by zero is not defined.")?
///     .add("fr", "tool-divide = Diviser\n    .annotation-title = Division (lecture seule)\nstep = Plus que { $n }…")?;
/// assert_eq!(catalog.message("fr", "tool-divide", &[]).as_deref(), Some("Diviser"));
/// assert_eq!(catalog.message("fr", "tool-divide.annotation-title", &[]).as_deref(), Some("Division (lecture seule)"));
/// assert_eq!(catalog.message("fr", "step", &[("n", 3.into())]).as_deref(), Some("Plus que 3…"));
/// assert_eq!(catalog.message("fr", "divide-by-zero", &[]), None); // no fallback here
///
/// // Numbers are written as each language writes them.
/// let catalog = FluentCatalog::new()
///     .add("en", "total = { $n } km")?
///     .add("fr", "total = { $n } km")?
///     .add("de", "total = { $n } km")?;
/// let n = [("n", 12345.5.into())];
/// assert_eq!(catalog.message("en", "total", &n).as_deref(), Some("12,345.5 km"));
/// assert_eq!(catalog.message("fr", "total", &n).as_deref(), Some("12\u{202F}345,5 km"));
/// assert_eq!(catalog.message("de", "total", &n).as_deref(), Some("12.345,5 km"));
/// # Ok::<(), mcp_lang_rmcp::server::FluentError>(())
/// ```
#[derive(Default)]
pub struct FluentCatalog {
    languages: Vec<Language>,
}

impl fmt::Debug for FluentCatalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FluentCatalog")
            .field("languages", &self.languages().collect::<Vec<_>>())
            .finish()
    }
}

impl FluentCatalog {
    /// An empty catalog.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::FluentCatalog;
    ///
    /// assert_eq!(FluentCatalog::new().languages().count(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// One `.ftl` file per language, in the server's order of preference:
    /// `[(tag, source), …]`. [`include_fluent!`](crate::include_fluent) builds this from
    /// files at compile time.
    ///
    /// # Errors
    ///
    /// As [`add`](Self::add).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::FluentCatalog;
    ///
    /// let catalog = FluentCatalog::from_sources([("en", "server = Calculator"), ("de", "server = Rechner")])?;
    /// assert_eq!(catalog.languages().collect::<Vec<_>>(), ["en", "de"]);
    /// # Ok::<(), mcp_lang_rmcp::server::FluentError>(())
    /// ```
    pub fn from_sources<'a>(
        sources: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, FluentError> {
        sources
            .into_iter()
            .try_fold(Self::new(), |catalog, (tag, source)| {
                catalog.add(tag, source)
            })
    }

    /// Adds a Fluent source for `tag`; a language may have several (they share one
    /// bundle, and a message may be defined only once). A new language goes last in the
    /// order.
    ///
    /// # Errors
    ///
    /// [`FluentError::Tag`] when `tag` is not a well-formed language tag,
    /// [`FluentError::Syntax`] when the source does not parse, and
    /// [`FluentError::Duplicate`] when it redefines a message of that language.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Catalog, FluentCatalog, FluentError};
    ///
    /// let catalog = FluentCatalog::new()
    ///     .add("ga", "server = Áireamhán")?
    ///     .add("ga", "tool-divide = Roinn")?; // a second file for the same language
    /// assert_eq!(catalog.message("ga", "tool-divide", &[]).as_deref(), Some("Roinn"));
    /// assert!(matches!(catalog.add("ga", "server = Eile"), Err(FluentError::Duplicate { .. })));
    /// # Ok::<(), FluentError>(())
    /// ```
    pub fn add(mut self, tag: &str, source: impl Into<String>) -> Result<Self, FluentError> {
        if mcp_lang_grammar::LanguageTag::parse(tag).is_err() {
            return Err(FluentError::Tag(tag.to_owned()));
        }
        let resource =
            FluentResource::try_new(source.into()).map_err(|(_, errors)| FluentError::Syntax {
                language: tag.to_owned(),
                detail: format!("{errors:?}"),
            })?;
        let ids = message_ids(&resource);
        let index = match self.position(tag) {
            Some(index) => index,
            None => {
                let locale: LanguageIdentifier =
                    tag.parse().map_err(|_| FluentError::Tag(tag.to_owned()))?;
                let mut bundle = FluentBundle::new_concurrent(vec![locale]);
                bundle.set_use_isolating(false);
                bundle.set_formatter(Some(write_number));
                // `NUMBER()`, Fluent's one built-in function; adding it to a new
                // bundle cannot clash with anything.
                let _ = bundle.add_builtins();
                self.languages.push(Language {
                    tag: tag.to_owned(),
                    bundle,
                    ids: Vec::new(),
                });
                self.languages.len() - 1
            }
        };
        let Some(language) = self.languages.get_mut(index) else {
            return Err(FluentError::Tag(tag.to_owned()));
        };
        language
            .bundle
            .add_resource(resource)
            .map_err(|errors| FluentError::Duplicate {
                language: tag.to_owned(),
                detail: format!("{errors:?}"),
            })?;
        language.ids.extend(ids);
        Ok(self)
    }

    fn position(&self, tag: &str) -> Option<usize> {
        self.languages
            .iter()
            .position(|l| l.tag.eq_ignore_ascii_case(tag))
    }

    /// The catalog's languages, in the order they were added.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::FluentCatalog;
    ///
    /// let catalog = FluentCatalog::from_sources([("fr", ""), ("fr-CA", ""), ("en", "")])?;
    /// assert_eq!(catalog.languages().collect::<Vec<_>>(), ["fr", "fr-CA", "en"]);
    /// # Ok::<(), mcp_lang_rmcp::server::FluentError>(())
    /// ```
    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.languages.iter().map(|l| l.tag.as_str())
    }

    /// The server's language set: the catalog's languages, in their order, and
    /// `default`.
    ///
    /// # Errors
    ///
    /// [`LanguagesError`]: the catalog is empty or `default` is not one of its languages.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::FluentCatalog;
    ///
    /// let catalog = FluentCatalog::from_sources([("en", ""), ("de", "")])?;
    /// let languages = catalog.server_languages("en").unwrap();
    /// assert_eq!(languages.negotiate_raw(Some("de-AT")).selected(), "de");
    /// assert!(catalog.server_languages("fr").is_err());
    /// # Ok::<(), mcp_lang_rmcp::server::FluentError>(())
    /// ```
    pub fn server_languages(&self, default: &str) -> Result<ServerLanguages, LanguagesError> {
        ServerLanguages::new(self.languages(), default)
    }

    /// Whether `tag` defines the message `id` (or `id.attribute`).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::FluentCatalog;
    ///
    /// let catalog = FluentCatalog::new().add("de", "tool-divide = Teilen\n    .description = Teilt a durch b.")?;
    /// assert!(catalog.has("de", "tool-divide"));
    /// assert!(catalog.has("de", "tool-divide.description"));
    /// assert!(!catalog.has("de", "tool-divide.annotation-title"));
    /// assert!(!catalog.has("ja", "tool-divide"));
    /// # Ok::<(), mcp_lang_rmcp::server::FluentError>(())
    /// ```
    pub fn has(&self, tag: &str, id: &str) -> bool {
        self.position(tag)
            .and_then(|i| self.languages.get(i))
            .is_some_and(|l| l.ids.iter().any(|known| known == id))
    }

    /// What the other languages lack: every `(language, id)` such that `reference`
    /// defines `id` (a message or `id.attribute`) and that language does not. Empty
    /// when every language is complete; a test of the server's catalogs asserts that.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::FluentCatalog;
    ///
    /// let catalog = FluentCatalog::from_sources([
    ///     ("en", "tool-divide = Divide\n    .annotation-title = Division\nserver = Calculator"),
    ///     ("fr", "tool-divide = Diviser\nserver = Calculatrice"),
    /// ])?;
    /// assert_eq!(catalog.missing("en"), [("fr".to_owned(), "tool-divide.annotation-title".to_owned())]);
    /// # Ok::<(), mcp_lang_rmcp::server::FluentError>(())
    /// ```
    pub fn missing(&self, reference: &str) -> Vec<(String, String)> {
        let Some(reference) = self.position(reference).and_then(|i| self.languages.get(i)) else {
            return Vec::new();
        };
        let mut missing = Vec::new();
        for language in self.languages.iter().filter(|l| l.tag != reference.tag) {
            for id in &reference.ids {
                if !language.ids.contains(id) {
                    missing.push((language.tag.clone(), id.clone()));
                }
            }
        }
        missing
    }
}

/// The message ids (`id` and `id.attribute`) a resource defines, in source order.
fn message_ids(resource: &FluentResource) -> Vec<String> {
    let mut ids = Vec::new();
    for entry in resource.entries() {
        if let ast::Entry::Message(message) = entry {
            if message.value.is_some() {
                ids.push(message.id.name.to_owned());
            }
            for attribute in &message.attributes {
                ids.push(format!("{}.{}", message.id.name, attribute.id.name));
            }
        }
    }
    ids
}

impl Catalog for FluentCatalog {
    fn message(&self, language: &str, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
        let language = self.languages.get(self.position(language)?)?;
        let (message_id, attribute) = match id.split_once('.') {
            Some((message, attribute)) => (message, Some(attribute)),
            None => (id, None),
        };
        let message = language.bundle.get_message(message_id)?;
        let pattern = match attribute {
            Some(attribute) => message.get_attribute(attribute)?.value(),
            None => message.value()?,
        };
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            let value = match *value {
                Arg::Text(text) => FluentValue::from(text),
                Arg::Number(n) => FluentValue::from(n),
            };
            fluent_args.set(Cow::Borrowed(*name), value);
        }
        let mut errors = Vec::new();
        let text = language.bundle.format_pattern(
            pattern,
            (!args.is_empty()).then_some(&fluent_args),
            &mut errors,
        );
        errors.is_empty().then(|| text.into_owned())
    }
}

/// A [`FluentCatalog`] from one `.ftl` file per language, read at compile time:
/// `include_fluent!("DIR", ["en", "fr", …])` reads `DIR/en.ftl`, `DIR/fr.ftl`, … (the
/// folder relative to the file that invokes it, as `include_str!` does), in that order.
/// It evaluates to `Result<FluentCatalog, FluentError>`.
///
/// ```
/// use mcp_lang_rmcp::server::Catalog;
///
/// // This crate's `tests/catalogs/en.ftl` and `fr.ftl`, from this file's folder.
/// let catalog = mcp_lang_rmcp::include_fluent!("../../tests/catalogs", ["en", "fr"])?;
/// assert_eq!(catalog.message("fr", "tool-divide", &[]).as_deref(), Some("Diviser"));
/// assert_eq!(catalog.server_languages("en").unwrap().default_tag(), "en");
/// # Ok::<(), mcp_lang_rmcp::server::FluentError>(())
/// ```
#[macro_export]
macro_rules! include_fluent {
    ($folder:literal, [$($tag:literal),+ $(,)?]) => {
        $crate::server::FluentCatalog::from_sources([
            $(($tag, include_str!(concat!($folder, "/", $tag, ".ftl")))),+
        ])
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(source: &str) -> FluentCatalog {
        ["en", "fr", "fr-CA", "de", "ga", "ja"]
            .into_iter()
            .fold(FluentCatalog::new(), |c, tag| c.add(tag, source).unwrap())
    }

    fn number(catalog: &FluentCatalog, tag: &str, n: f64) -> String {
        catalog.message(tag, "n", &[("n", Arg::Number(n))]).unwrap()
    }

    #[test]
    fn numbers_are_written_as_each_language_writes_them() {
        let catalog = catalog("n = { $n }");
        let cases = [
            ("en", "1,234,567.25"),
            ("fr", "1\u{202F}234\u{202F}567,25"),
            ("fr-CA", "1\u{A0}234\u{A0}567,25"),
            ("de", "1.234.567,25"),
            ("ga", "1,234,567.25"),
            ("ja", "1,234,567.25"),
        ];
        for (tag, want) in cases {
            assert_eq!(number(&catalog, tag, 1_234_567.25), want, "{tag}");
        }
        assert_eq!(number(&catalog, "de", -0.5), "-0,5");
        assert_eq!(number(&catalog, "fr", 3.0), "3");
    }

    #[test]
    fn number_options_apply_before_the_language_writes_the_number() {
        let catalog = catalog(
            "n = { NUMBER($n, minimumFractionDigits: 2) }\n\
             short = { NUMBER($n, maximumFractionDigits: 1) }\n\
             plain = { NUMBER($n, useGrouping: \"false\") }",
        );
        assert_eq!(number(&catalog, "de", 1234.0), "1.234,00");
        let short = |tag| {
            catalog
                .message(tag, "short", &[("n", Arg::Number(2.25))])
                .unwrap()
        };
        assert_eq!(short("fr"), "2,3");
        let plain = |tag| {
            catalog
                .message(tag, "plain", &[("n", Arg::Number(12345.0))])
                .unwrap()
        };
        assert_eq!(plain("en"), "12345");
    }

    #[test]
    fn plural_forms_still_follow_the_number() {
        let catalog = catalog("n = { $n ->\n    [one] { $n } file\n   *[other] { $n } files\n}");
        assert_eq!(number(&catalog, "en", 1.0), "1 file");
        assert_eq!(number(&catalog, "de", 1000.0), "1.000 files");
    }
}
