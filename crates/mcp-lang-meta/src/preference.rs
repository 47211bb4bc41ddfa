//! The client's side: building the preference to send, with no more detail than
//! configured.
//!
//! SEP-2792 (Security and Privacy): "`Accept-Language` can increase fingerprinting
//! entropy. Clients SHOULD follow the privacy guidance in RFC 9110 §12.5.4, including
//! sending only the detail needed for the interaction or omitting the preference when
//! appropriate." RFC 9110 §12.5.4 warns that a full list of preferences reveals
//! information about the user and recommends giving users control over it.
//!
//! [`PreferenceBuilder`] turns the user's languages (in order of preference) into a
//! well-formed `Accept-Language` value with descending q-values, and limits what it
//! reveals:
//!
//! - at most [`max_ranges`](PreferenceBuilder::max_ranges) ranges (default
//!   [`PreferenceBuilder::DEFAULT_MAX_RANGES`], 3; 0 sends no preference at all);
//! - optionally no region (`fr-CA` → `fr`) and/or no script (`zh-Hant-TW` → `zh-TW`);
//! - never variants, extensions or private-use subtags (`de-DE-1996`, `en-US-u-ca-buddhist`
//!   are sent as `de-DE`, `en-US`): they add entropy and almost never change which
//!   language a server picks;
//! - duplicates (after that trimming, ignoring case) are sent once, at their first place.
//!
//! q-values descend by 0.1 from 1 (`fr-CA,fr;q=0.9,en;q=0.8`), so at most
//! [`PreferenceBuilder::MAX_RANGES`] (10) ranges can be sent.
//!
//! # From the environment
//!
//! [`with_environment`](PreferenceBuilder::with_environment) appends the languages of the
//! POSIX locale environment, as GNU gettext reads it for messages:
//!
//! 1. the locale is the first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG`;
//! 2. if there is none, or it is `C` or `POSIX` (with or without a codeset, `C.UTF-8`),
//!    there is no preference, and `LANGUAGE` is ignored (as gettext ignores it);
//! 3. otherwise `LANGUAGE`, a colon-separated priority list (`fr_CA:fr:en`), when set and
//!    not empty, gives the languages; else the locale itself does.
//!
//! Locale names `language[_territory][.codeset][@modifier]` become language tags:
//! `fr_CA.UTF-8` → `fr-CA`, `es_419` → `es-419`, `sr_RS@latin` → `sr-Latn-RS`,
//! `uz_UZ@cyrillic` → `uz-Cyrl-UZ`; other modifiers and the codeset are dropped. Entries
//! that do not give a well-formed language range are skipped.
//!
//! ```
//! use mcp_lang_meta::PreferenceBuilder;
//!
//! let env = |name: &str| (name == "LANG").then(|| "sr_RS.UTF-8@latin".to_owned());
//! let value = PreferenceBuilder::new().with_environment_from(env).language("en").build();
//! assert_eq!(value.as_deref(), Some("sr-Latn-RS,en;q=0.9"));
//! ```

/// Builds a privacy-respecting `Accept-Language` value for
/// `io.modelcontextprotocol/acceptLanguage` (and its HTTP mirror).
///
/// ```
/// use mcp_lang_meta::PreferenceBuilder;
///
/// let value = PreferenceBuilder::new().languages(["fr-CA", "fr-FR", "en-GB", "de"]).build();
/// assert_eq!(value.as_deref(), Some("fr-CA,fr-FR;q=0.9,en-GB;q=0.8")); // 3 ranges by default
///
/// let coarse = PreferenceBuilder::new()
///     .languages(["fr-CA", "fr-FR", "en-GB"])
///     .drop_region(true)
///     .build();
/// assert_eq!(coarse.as_deref(), Some("fr,en;q=0.9"));
///
/// assert_eq!(PreferenceBuilder::new().languages(["de"]).max_ranges(0).build(), None);
/// ```
#[derive(Clone, Debug)]
pub struct PreferenceBuilder {
    languages: Vec<String>,
    max_ranges: usize,
    drop_region: bool,
    drop_script: bool,
}

impl Default for PreferenceBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl PreferenceBuilder {
    /// The most ranges a built value can have (q descends by 0.1 from 1).
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let many = ["aa", "bb", "cc", "dd", "ee", "ff", "gg", "hh", "ii", "jj", "kk"];
    /// let builder = PreferenceBuilder::new().languages(many).max_ranges(usize::MAX);
    /// assert_eq!(builder.ranges().len(), PreferenceBuilder::MAX_RANGES);
    /// assert!(builder.build().unwrap().ends_with(",jj;q=0.1"));
    /// ```
    pub const MAX_RANGES: usize = 10;

    /// How many ranges are sent unless [`max_ranges`](Self::max_ranges) says otherwise.
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let builder = PreferenceBuilder::new().languages(["de", "fr", "it", "rm"]);
    /// assert_eq!(builder.ranges().len(), PreferenceBuilder::DEFAULT_MAX_RANGES);
    /// ```
    pub const DEFAULT_MAX_RANGES: usize = 3;

    /// An empty builder: no languages, at most 3 ranges, regions and scripts kept.
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// // Nothing added, nothing sent.
    /// assert_eq!(PreferenceBuilder::new().build(), None);
    /// ```
    pub fn new() -> Self {
        PreferenceBuilder {
            languages: Vec::new(),
            max_ranges: Self::DEFAULT_MAX_RANGES,
            drop_region: false,
            drop_script: false,
        }
    }

    /// Adds one language, most preferred first: a BCP 47 tag (`fr-CA`) or a POSIX locale
    /// name (`fr_CA.UTF-8`). Entries that are not well-formed are skipped at build time.
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let value = PreferenceBuilder::new().language("pt_BR.UTF-8").language("pt").build();
    /// assert_eq!(value.as_deref(), Some("pt-BR,pt;q=0.9"));
    /// ```
    pub fn language(mut self, language: &str) -> Self {
        self.languages.push(language.to_owned());
        self
    }

    /// Adds several languages, most preferred first.
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let user_settings = vec!["nl-BE".to_owned(), "fr-BE".to_owned()];
    /// let value = PreferenceBuilder::new().languages(&user_settings).build();
    /// assert_eq!(value.as_deref(), Some("nl-BE,fr-BE;q=0.9"));
    /// ```
    pub fn languages<I, S>(mut self, languages: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.languages
            .extend(languages.into_iter().map(|s| s.as_ref().to_owned()));
        self
    }

    /// Appends the languages of the process environment (`LANGUAGE`, `LC_ALL`,
    /// `LC_MESSAGES`, `LANG`; see the [module docs](self)).
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// // Whatever the environment says comes after the languages already added.
    /// let builder = PreferenceBuilder::new().language("en-GB").with_environment();
    /// assert_eq!(builder.ranges()[0], "en-GB");
    /// ```
    pub fn with_environment(self) -> Self {
        self.with_environment_from(|name| std::env::var(name).ok())
    }

    /// Like [`with_environment`](Self::with_environment), reading variables through
    /// `lookup` (for tests, or a host that keeps its own environment).
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let env = |name: &str| match name {
    ///     "LANG" => Some("fr_CA.UTF-8".to_owned()),
    ///     "LANGUAGE" => Some("fr_CA:fr:en".to_owned()),
    ///     _ => None,
    /// };
    /// let value = PreferenceBuilder::new().with_environment_from(env).build();
    /// assert_eq!(value.as_deref(), Some("fr-CA,fr;q=0.9,en;q=0.8"));
    ///
    /// let c_locale = |name: &str| (name == "LC_ALL").then(|| "C".to_owned());
    /// assert_eq!(PreferenceBuilder::new().with_environment_from(c_locale).build(), None);
    /// ```
    pub fn with_environment_from<F>(mut self, lookup: F) -> Self
    where
        F: Fn(&str) -> Option<String>,
    {
        self.languages.extend(environment_languages(lookup));
        self
    }

    /// Sends at most `n` ranges (clamped to [`MAX_RANGES`](Self::MAX_RANGES)); `0` sends
    /// no preference.
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let value = PreferenceBuilder::new().languages(["sv", "nb", "da"]).max_ranges(1).build();
    /// assert_eq!(value.as_deref(), Some("sv"));
    /// ```
    pub fn max_ranges(mut self, n: usize) -> Self {
        self.max_ranges = n.min(Self::MAX_RANGES);
        self
    }

    /// Drops region subtags (`fr-CA` → `fr`, `es-419` → `es`).
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let builder = PreferenceBuilder::new().languages(["es-419", "es-ES", "en"]).drop_region(true);
    /// // `es-419` and `es-ES` both become `es`, sent once.
    /// assert_eq!(builder.build().as_deref(), Some("es,en;q=0.9"));
    /// ```
    pub fn drop_region(mut self, yes: bool) -> Self {
        self.drop_region = yes;
        self
    }

    /// Drops script subtags (`zh-Hant-TW` → `zh-TW`, `sr-Latn` → `sr`).
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let builder = PreferenceBuilder::new().language("zh-Hant-TW").drop_script(true);
    /// assert_eq!(builder.build().as_deref(), Some("zh-TW"));
    /// ```
    pub fn drop_script(mut self, yes: bool) -> Self {
        self.drop_script = yes;
        self
    }

    /// The ranges that would be sent, in order, after trimming and deduplication.
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let b = PreferenceBuilder::new().languages(["en-US-u-ca-buddhist", "EN-us", "not a tag", "ja"]);
    /// assert_eq!(b.ranges(), ["en-US", "ja"]);
    /// ```
    pub fn ranges(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for entry in &self.languages {
            if out.len() >= self.max_ranges {
                break;
            }
            let Some(tag) = to_language_tag(entry) else {
                continue;
            };
            let Some(range) = self.reduce(&tag) else {
                continue;
            };
            if !out.iter().any(|r| r.eq_ignore_ascii_case(&range)) {
                out.push(range);
            }
        }
        out
    }

    /// The `Accept-Language` value to send, or `None` when there is nothing to send (no
    /// usable language, or `max_ranges(0)`).
    ///
    /// ```
    /// use mcp_lang_meta::PreferenceBuilder;
    ///
    /// let value = PreferenceBuilder::new().languages(["ja-JP", "en"]).build();
    /// assert_eq!(value.as_deref(), Some("ja-JP,en;q=0.9"));
    /// assert_eq!(PreferenceBuilder::new().language("not a tag").build(), None);
    /// ```
    pub fn build(&self) -> Option<String> {
        let ranges = self.ranges();
        if ranges.is_empty() {
            return None;
        }
        let mut value = String::new();
        for (i, range) in ranges.iter().enumerate() {
            if i > 0 {
                value.push(',');
            }
            value.push_str(range);
            // i < MAX_RANGES = 10, so q stays in 0.1..=1.
            let q = 1000usize.saturating_sub(100 * i);
            if q < 1000 {
                value.push_str(";q=0.");
                value.push_str(format!("{q:03}").trim_end_matches('0'));
            }
        }
        Some(value)
    }

    /// Keeps language (with extlangs), script and region as configured; drops the rest.
    fn reduce(&self, tag: &str) -> Option<String> {
        let mut parts = tag.split('-');
        let language = parts
            .next()
            .filter(|p| (2..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphabetic()))?;
        let mut out = language.to_owned();
        let mut seen_script = false;
        let mut seen_region = false;
        for (i, part) in parts.enumerate() {
            let alpha = part.bytes().all(|b| b.is_ascii_alphabetic());
            let digit = part.bytes().all(|b| b.is_ascii_digit());
            let is_extlang = i < 3
                && !seen_script
                && !seen_region
                && part.len() == 3
                && alpha
                && language.len() <= 3;
            let is_script = !seen_script && !seen_region && part.len() == 4 && alpha;
            let is_region =
                !seen_region && ((part.len() == 2 && alpha) || (part.len() == 3 && digit));
            if is_extlang {
                out.push('-');
                out.push_str(part);
            } else if is_script {
                seen_script = true;
                if !self.drop_script {
                    out.push('-');
                    out.push_str(part);
                }
            } else if is_region {
                seen_region = true;
                if !self.drop_region {
                    out.push('-');
                    out.push_str(part);
                }
            } else {
                // A variant, an extension or private use: never sent.
                break;
            }
        }
        Some(out)
    }
}

/// A BCP 47-looking tag from a tag or a POSIX locale name, if it has the shape of a basic
/// language range (RFC 4647 §2.1: `1*8ALPHA *("-" 1*8alphanum)`).
fn to_language_tag(entry: &str) -> Option<String> {
    let entry = entry.trim();
    let (base, modifier) = match entry.split_once('@') {
        Some((base, modifier)) => (base, Some(modifier)),
        None => (entry, None),
    };
    let base = base.split_once('.').map_or(base, |(b, _codeset)| b);
    let mut tag = base.replace('_', "-");
    if let Some(script) = modifier.and_then(modifier_script) {
        // `sr-RS` + latin → `sr-Latn-RS`: the script goes right after the language.
        let insert_at = tag.find('-').unwrap_or(tag.len());
        tag.insert_str(insert_at, script);
    }
    let mut subtags = tag.split('-');
    let first_ok = subtags
        .next()
        .is_some_and(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphabetic()));
    let rest_ok =
        subtags.all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()));
    (first_ok && rest_ok).then_some(tag)
}

/// The script subtag a glibc locale modifier stands for.
fn modifier_script(modifier: &str) -> Option<&'static str> {
    match modifier {
        "latin" => Some("-Latn"),
        "cyrillic" => Some("-Cyrl"),
        "devanagari" => Some("-Deva"),
        _ => None,
    }
}

/// Whether a locale name means "no localization" (`C`, `POSIX`, `C.UTF-8`).
fn is_c_locale(locale: &str) -> bool {
    let base = locale.split(['.', '@']).next().unwrap_or_default();
    base == "C" || base == "POSIX"
}

/// The languages of the gettext message environment, most preferred first.
fn environment_languages<F>(lookup: F) -> Vec<String>
where
    F: Fn(&str) -> Option<String>,
{
    let set = |name: &str| lookup(name).filter(|v| !v.is_empty());
    let Some(locale) = set("LC_ALL")
        .or_else(|| set("LC_MESSAGES"))
        .or_else(|| set("LANG"))
    else {
        return Vec::new();
    };
    if is_c_locale(&locale) {
        return Vec::new();
    }
    match set("LANGUAGE") {
        Some(list) => list
            .split(':')
            .filter(|e| !e.is_empty() && !is_c_locale(e))
            .map(str::to_owned)
            .collect(),
        None => vec![locale],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_names_become_tags() {
        assert_eq!(to_language_tag("fr_CA.UTF-8").as_deref(), Some("fr-CA"));
        assert_eq!(
            to_language_tag("sr_RS@latin").as_deref(),
            Some("sr-Latn-RS")
        );
        assert_eq!(to_language_tag("sr@latin").as_deref(), Some("sr-Latn"));
        assert_eq!(
            to_language_tag("de_DE.ISO-8859-15@euro").as_deref(),
            Some("de-DE")
        );
        assert_eq!(to_language_tag("es_419").as_deref(), Some("es-419"));
        assert_eq!(to_language_tag("zh-Hant-TW").as_deref(), Some("zh-Hant-TW"));
        assert_eq!(to_language_tag(""), None);
        assert_eq!(to_language_tag("en US"), None);
        assert_eq!(to_language_tag("*"), None);
        assert_eq!(to_language_tag("1en"), None);
    }

    #[test]
    fn c_and_posix_mean_none() {
        for c in ["C", "POSIX", "C.UTF-8", "C.utf8"] {
            assert!(is_c_locale(c), "{c}");
        }
        assert!(!is_c_locale("ca_ES"));
    }
}
