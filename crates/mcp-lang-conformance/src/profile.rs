//! What the suite must know about a target: the languages it supports, its
//! default, and which tools show elicitation, progress and an explicit
//! language argument.
//!
//! A profile comes from flags (`--supported en,fr --default en`), from a small
//! TOML file (`--profile target.toml`), or from a [`probe`]:
//!
//! ```toml
//! supported = ["en", "fr", "fr-CA", "de"]
//! default = "en"
//! # optional; these are the reference server's tools
//! elicitation_tool = "send_confirmation"
//! progress_tool = "prepare_report"
//! explicit_language_tool = "get_official_document"
//! ```
//!
//! The probe asks `tools/list` with no preference (the `contentLanguage` then
//! names the default) and then with each of a fixed list of common tags; every
//! tag reported for one of them is supported. It finds what a server offers
//! for common preferences, not necessarily its whole set: give the set
//! explicitly for a complete run.

use serde_json::Value;

use crate::scenario::{Connection, Ctx, Outcome};
use crate::wire::Call;

/// The reference server's elicitation tool.
///
/// ```
/// use mcp_lang_conformance::profile::{DEFAULT_ELICITATION_TOOL, Profile};
///
/// let profile = Profile::new(vec!["en".into()], "en".into()).unwrap();
/// assert_eq!(profile.elicitation_tool, DEFAULT_ELICITATION_TOOL);
/// ```
pub const DEFAULT_ELICITATION_TOOL: &str = "send_confirmation";
/// The reference server's progress tool.
///
/// ```
/// use mcp_lang_conformance::profile::{DEFAULT_PROGRESS_TOOL, Profile};
///
/// let profile = Profile::from_toml("supported = [\"en\"]\ndefault = \"en\"\nprogress_tool = \"build\"").unwrap();
/// assert_eq!(profile.progress_tool, "build");
/// assert_ne!(profile.progress_tool, DEFAULT_PROGRESS_TOOL);
/// ```
pub const DEFAULT_PROGRESS_TOOL: &str = "prepare_report";
/// The reference server's tool with an explicit `language` argument.
///
/// ```
/// use mcp_lang_conformance::profile::{DEFAULT_EXPLICIT_TOOL, Profile};
///
/// let profile = Profile::new(vec!["en".into(), "fr".into()], "en".into()).unwrap();
/// assert_eq!(profile.explicit_language_tool, DEFAULT_EXPLICIT_TOOL);
/// ```
pub const DEFAULT_EXPLICIT_TOOL: &str = "get_official_document";

/// Tags the probe tries, besides the default.
///
/// ```
/// use mcp_lang_conformance::profile::PROBE_TAGS;
///
/// assert!(PROBE_TAGS.contains(&"fr-CA") && PROBE_TAGS.contains(&"zh-Hant"));
/// ```
pub const PROBE_TAGS: &[&str] = &[
    "en", "en-US", "en-GB", "fr", "fr-CA", "fr-FR", "de", "de-DE", "es", "es-419", "it", "pt",
    "pt-BR", "nl", "sv", "da", "nb", "fi", "pl", "cs", "ru", "uk", "tr", "el", "he", "ar", "hi",
    "ja", "ko", "zh", "zh-Hans", "zh-Hant", "id", "vi", "th", "ga", "cy",
];

/// A target's languages and tools.
///
/// ```
/// use mcp_lang_conformance::profile::Profile;
///
/// let profile = Profile::from_toml("supported = [\"en\", \"de\"]\ndefault = \"en\"").unwrap();
/// assert_eq!(profile.supported, ["en", "de"]);
/// assert_eq!(profile.elicitation_tool, "send_confirmation");
/// assert!(Profile::from_toml("supported = []\ndefault = \"en\"").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Supported tags, as the server spells them.
    pub supported: Vec<String>,
    /// The server's default language.
    pub default: String,
    /// The tool that asks for user input through an elicitation.
    pub elicitation_tool: String,
    /// The tool that reports progress.
    pub progress_tool: String,
    /// The tool with an explicit `language` argument.
    pub explicit_language_tool: String,
}

impl Profile {
    /// A profile with the reference server's tool names.
    ///
    /// # Errors
    ///
    /// The set is empty, or a tag (the default included) is not a well-formed language tag
    /// (RFC 5646): a server selects and reports tags, so a profile that names something
    /// else could only produce failures that say nothing about the server.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::Profile;
    ///
    /// // The default joins the set when it is missing: a server supports its default.
    /// let profile = Profile::new(vec!["fr".into(), "de".into()], "en".into()).unwrap();
    /// assert_eq!(profile.supported, ["en", "fr", "de"]);
    /// assert!(Profile::new(Vec::new(), "en".into()).is_err());
    /// assert!(Profile::new(vec!["en".into()], "not a tag!!".into()).is_err());
    /// assert!(Profile::new(vec!["en_US".into()], "en".into()).is_err());
    /// ```
    pub fn new(supported: Vec<String>, default: String) -> Result<Self, String> {
        if supported.is_empty() {
            return Err("the profile lists no supported language".into());
        }
        let malformed = std::iter::once(&default)
            .chain(&supported)
            .find(|tag| mcp_lang_grammar::LanguageTag::parse(tag).is_err());
        if let Some(tag) = malformed {
            return Err(format!(
                "the profile names {tag:?}, which is not a well-formed language tag (RFC 5646)"
            ));
        }
        let mut supported = supported;
        if !supported.iter().any(|t| t.eq_ignore_ascii_case(&default)) {
            supported.insert(0, default.clone());
        }
        Ok(Self {
            supported,
            default,
            elicitation_tool: DEFAULT_ELICITATION_TOOL.into(),
            progress_tool: DEFAULT_PROGRESS_TOOL.into(),
            explicit_language_tool: DEFAULT_EXPLICIT_TOOL.into(),
        })
    }

    /// Reads a profile file's text.
    ///
    /// # Errors
    ///
    /// Not TOML, or `supported` / `default` missing or of the wrong type.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::Profile;
    ///
    /// let text = "supported = [\"en\", \"ja\"]\ndefault = \"en\"\nelicitation_tool = \"ask\"";
    /// let profile = Profile::from_toml(text).unwrap();
    /// assert_eq!((profile.default.as_str(), profile.elicitation_tool.as_str()), ("en", "ask"));
    /// assert!(Profile::from_toml("supported = \"en\"\ndefault = \"en\"").is_err());
    /// ```
    pub fn from_toml(text: &str) -> Result<Self, String> {
        let table: toml::Table = text.parse().map_err(|e| format!("profile: {e}"))?;
        let supported = table
            .get("supported")
            .and_then(toml::Value::as_array)
            .ok_or("profile: `supported` must be an array of language tags")?
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or("profile: `supported` must hold strings")?;
        let default = table
            .get("default")
            .and_then(toml::Value::as_str)
            .ok_or("profile: `default` must be a language tag")?
            .to_owned();
        let mut profile = Self::new(supported, default)?;
        let tool = |key: &str| {
            table
                .get(key)
                .and_then(toml::Value::as_str)
                .map(str::to_owned)
        };
        if let Some(t) = tool("elicitation_tool") {
            profile.elicitation_tool = t;
        }
        if let Some(t) = tool("progress_tool") {
            profile.progress_tool = t;
        }
        if let Some(t) = tool("explicit_language_tool") {
            profile.explicit_language_tool = t;
        }
        Ok(profile)
    }
}

/// Finds a target's default and the languages it offers for common
/// preferences (see the module docs).
///
/// # Errors
///
/// The target does not answer `tools/list` or does not report
/// `contentLanguage` (then it does not take part in SEP-2792, or the profile
/// must be given).
///
/// ```
/// # use mcp_lang_conformance::stdio::StdioConnection;
/// # async fn embedded_stdio() -> StdioConnection {
/// #     use rmcp::ServiceExt;
/// #     let (server_io, client_io) = tokio::io::duplex(1 << 20);
/// #     let server = mcp_lang_reference::ReferenceServer::new().unwrap();
/// #     tokio::spawn(async move { if let Ok(s) = server.serve(server_io).await { let _ = s.waiting().await; } });
/// #     let (read, write) = tokio::io::split(client_io);
/// #     StdioConnection::new(read, write, "2026-07-28")
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use mcp_lang_conformance::{profile::probe, scenario::Connection};
///
/// let (profile, _connection) = probe(Connection::Stdio(embedded_stdio().await)).await.unwrap();
/// assert_eq!(profile.default, "en");
/// assert!(profile.supported.iter().any(|t| t == "fr-CA"));
/// # });
/// ```
pub async fn probe(connection: Connection) -> Result<(Profile, Connection), String> {
    let placeholder = Profile {
        supported: Vec::new(),
        default: String::new(),
        elicitation_tool: DEFAULT_ELICITATION_TOOL.into(),
        progress_tool: DEFAULT_PROGRESS_TOOL.into(),
        explicit_language_tool: DEFAULT_EXPLICIT_TOOL.into(),
    };
    let mut ctx = Ctx {
        connection: Some(connection),
        profile: placeholder,
    };
    let describe = |o: Outcome| format!("probe: {}", o.reason());
    let (default, _) = ctx
        .language_of(Call::new("tools/list"))
        .await
        .map_err(describe)?;
    let mut supported = vec![default.clone()];
    for tag in PROBE_TAGS {
        let exchange = ctx
            .send(Call::new("tools/list").preference(*tag))
            .await
            .map_err(describe)?;
        // A malformed report is left out here; the scenarios judge the reporting.
        if let Some(Value::String(reported)) = exchange.content_language()
            && !supported.iter().any(|s| s.eq_ignore_ascii_case(reported))
            && mcp_lang_grammar::LanguageTag::parse(reported).is_ok()
        {
            supported.push(reported.clone());
        }
    }
    let profile = Profile::new(supported, default).map_err(|e| {
        format!("probe: {e}; name the languages with --supported and --default, or --profile")
    })?;
    let connection = ctx
        .connection
        .take()
        .ok_or_else(|| "probe: lost the connection".to_owned())?;
    Ok((profile, connection))
}
