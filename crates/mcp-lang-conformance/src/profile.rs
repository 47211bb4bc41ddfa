//! What the suite must know about a target: the languages it supports, its
//! default, and which tools show elicitation, progress, an explicit language
//! argument and a tool error.
//!
//! A profile comes from flags (`--supported en,fr --default en`), from a small
//! TOML file (`--profile target.toml`), or from discovery
//! ([`crate::run()`] discovers one when none is given):
//!
//! ```toml
//! supported = ["en", "fr", "fr-CA", "de"]
//! default = "en"
//! # optional; these are the reference server's tools
//! elicitation_tool = "send_confirmation"
//! progress_tool = "prepare_report"
//! explicit_language_tool = "get_official_document"
//! # a tools/call the server answers with an `isError` result
//! tool_error = { name = "weather_current", arguments = { city = "Atlantis" } }
//! # a tools/call the server answers with a JSON-RPC error it localizes
//! # (the suite also tries an unknown tool, prompt and resource)
//! error_call = { name = "divide", arguments = { a = 1, b = 0 } }
//! ```
//!
//! A profile names well-formed language tags (RFC 5646) only, and its default
//! joins its supported list (a server supports its own default).

use std::path::Path;

use serde_json::{Map, Value, json};

/// The reference server's elicitation tool, the profile's default.
///
/// ```
/// use mcp_lang_conformance::profile::{DEFAULT_ELICITATION_TOOL, Profile};
///
/// let profile = Profile::new(vec!["en".into()], "en".into()).unwrap();
/// assert_eq!(profile.elicitation_tool, DEFAULT_ELICITATION_TOOL);
/// ```
pub const DEFAULT_ELICITATION_TOOL: &str = "send_confirmation";

/// The reference server's progress tool, the profile's default.
///
/// ```
/// use mcp_lang_conformance::profile::{DEFAULT_PROGRESS_TOOL, Profile};
///
/// let profile = Profile::new(vec!["en".into()], "en".into()).unwrap();
/// assert_eq!(profile.progress_tool, DEFAULT_PROGRESS_TOOL);
/// ```
pub const DEFAULT_PROGRESS_TOOL: &str = "prepare_report";

/// The reference server's tool with an explicit `language` argument, the
/// profile's default.
///
/// ```
/// use mcp_lang_conformance::profile::{DEFAULT_EXPLICIT_TOOL, Profile};
///
/// let profile = Profile::new(vec!["en".into()], "en".into()).unwrap();
/// assert_eq!(profile.explicit_language_tool, DEFAULT_EXPLICIT_TOOL);
/// ```
pub const DEFAULT_EXPLICIT_TOOL: &str = "get_official_document";

/// A tool call: a tool's name and its arguments.
///
/// ```
/// use mcp_lang_conformance::profile::{Profile, ToolCall};
///
/// let profile = Profile::new(vec!["en".into()], "en".into()).unwrap();
/// assert_eq!(profile.tool_error, ToolCall::reference_error());
/// assert_eq!(profile.tool_error.name, "weather_current");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCall {
    /// The tool's name.
    pub name: String,
    /// Its arguments, a JSON object.
    pub arguments: Map<String, Value>,
}

impl ToolCall {
    /// The reference server's call that ends in an `isError` tool result: the
    /// weather of a city it does not know.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::ToolCall;
    ///
    /// assert_eq!(ToolCall::reference_error().arguments["city"], "Atlantis");
    /// ```
    pub fn reference_error() -> Self {
        let mut arguments = Map::new();
        arguments.insert("city".into(), json!("Atlantis"));
        Self {
            name: "weather_current".into(),
            arguments,
        }
    }
}

/// The target's languages and the tools the display scenarios use.
///
/// ```
/// use mcp_lang_conformance::profile::Profile;
///
/// let profile = Profile::new(vec!["fr".into(), "de".into()], "en".into()).unwrap();
/// assert_eq!(profile.supported, ["en", "fr", "de"]); // the default joins
/// assert!(Profile::new(vec!["fr_CA".into()], "en".into()).is_err()); // not a language tag
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Every supported language, the default included.
    pub supported: Vec<String>,
    /// The language used when nothing matches.
    pub default: String,
    /// A tool whose call elicits input from the user.
    pub elicitation_tool: String,
    /// A tool that reports progress when given a `progressToken`.
    pub progress_tool: String,
    /// A tool with an explicit `language` argument.
    pub explicit_language_tool: String,
    /// A tool call the server answers with an `isError` result.
    pub tool_error: ToolCall,
    /// A tool call the server answers with a JSON-RPC error whose message it
    /// localizes, when calling an unknown tool, prompt or resource does not
    /// give one.
    pub error_call: Option<ToolCall>,
}

impl Profile {
    /// A profile with these languages and the reference server's tool names.
    ///
    /// # Errors
    ///
    /// `supported` is empty, or a tag is not a well-formed language tag
    /// (RFC 5646).
    ///
    /// ```
    /// use mcp_lang_conformance::profile::Profile;
    ///
    /// let profile = Profile::new(vec!["en".into(), "ja".into()], "en".into()).unwrap();
    /// assert_eq!(profile.default, "en");
    /// assert!(Profile::new(vec![], "en".into()).is_err());
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
            tool_error: ToolCall::reference_error(),
            error_call: None,
        })
    }

    /// Reads a profile from TOML text.
    ///
    /// # Errors
    ///
    /// The text is not TOML, or a key is missing or of the wrong type, or a
    /// tag is not well-formed.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::Profile;
    ///
    /// let profile = Profile::from_toml(r#"
    ///     supported = ["en", "de"]
    ///     default = "en"
    ///     progress_tool = "long_task"
    ///     tool_error = { name = "lookup", arguments = { id = "none" } }
    /// "#).unwrap();
    /// assert_eq!(profile.progress_tool, "long_task");
    /// assert_eq!(profile.tool_error.arguments["id"], "none");
    /// assert!(Profile::from_toml("supported = 3").is_err());
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
        let tool = |key: &str| -> Result<Option<String>, String> {
            match table.get(key) {
                None => Ok(None),
                Some(toml::Value::String(name)) => Ok(Some(name.clone())),
                Some(_) => Err(format!("profile: `{key}` must be a tool name")),
            }
        };
        if let Some(t) = tool("elicitation_tool")? {
            profile.elicitation_tool = t;
        }
        if let Some(t) = tool("progress_tool")? {
            profile.progress_tool = t;
        }
        if let Some(t) = tool("explicit_language_tool")? {
            profile.explicit_language_tool = t;
        }
        if let Some(call) = table.get("tool_error") {
            profile.tool_error = tool_call(call, "tool_error")?;
        }
        if let Some(call) = table.get("error_call") {
            profile.error_call = Some(tool_call(call, "error_call")?);
        }
        Ok(profile)
    }

    /// Reads a profile file; errors name the file.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or [`Profile::from_toml`] refuses it.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::Profile;
    ///
    /// let path = std::env::temp_dir().join(format!("profile-doc-{}.toml", std::process::id()));
    /// std::fs::write(&path, "supported = [\"en\", \"ga\"]\ndefault = \"en\"\n").unwrap();
    /// assert_eq!(Profile::from_file(&path).unwrap().supported, ["en", "ga"]);
    /// std::fs::remove_file(&path).unwrap();
    /// let missing = Profile::from_file(std::path::Path::new("no-such-profile.toml")).unwrap_err();
    /// assert!(missing.contains("no-such-profile.toml"));
    /// ```
    pub fn from_file(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Self::from_toml(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The profile as a TOML file's text ([`Profile::from_toml`] reads it
    /// back).
    ///
    /// ```
    /// use mcp_lang_conformance::profile::Profile;
    ///
    /// let mut profile = Profile::new(vec!["en".into(), "fr".into()], "en".into()).unwrap();
    /// assert_eq!(Profile::from_toml(&profile.to_toml()).unwrap(), profile);
    /// profile.error_call = Some(profile.tool_error.clone());
    /// assert_eq!(Profile::from_toml(&profile.to_toml()).unwrap(), profile);
    /// ```
    pub fn to_toml(&self) -> String {
        let quote = |s: &str| Value::String(s.to_owned()).to_string();
        let tags: Vec<String> = self.supported.iter().map(|t| quote(t)).collect();
        let call = |call: &ToolCall| {
            let arguments: Vec<String> = call
                .arguments
                .iter()
                .map(|(k, v)| format!("{} = {}", quote(k), toml_value(v)))
                .collect();
            format!(
                "{{ name = {}, arguments = {{ {} }} }}",
                quote(&call.name),
                arguments.join(", ")
            )
        };
        let mut text = format!(
            "supported = [{}]\ndefault = {}\nelicitation_tool = {}\nprogress_tool = {}\nexplicit_language_tool = {}\ntool_error = {}\n",
            tags.join(", "),
            quote(&self.default),
            quote(&self.elicitation_tool),
            quote(&self.progress_tool),
            quote(&self.explicit_language_tool),
            call(&self.tool_error),
        );
        if let Some(error_call) = &self.error_call {
            text.push_str(&format!("error_call = {}\n", call(error_call)));
        }
        text
    }
}

/// A `{ name = "…", arguments = { … } }` table of a profile.
fn tool_call(value: &toml::Value, key: &str) -> Result<ToolCall, String> {
    let bad = || format!("profile: `{key}` must be {{ name = \"…\", arguments = {{ … }} }}");
    let call = value.as_table().ok_or_else(bad)?;
    let name = call
        .get("name")
        .and_then(toml::Value::as_str)
        .ok_or_else(bad)?;
    let arguments = match call.get("arguments") {
        None => Map::new(),
        Some(arguments) => match serde_json::to_value(arguments) {
            Ok(Value::Object(map)) => map,
            _ => return Err(bad()),
        },
    };
    Ok(ToolCall {
        name: name.to_owned(),
        arguments,
    })
}

/// A JSON value written as a TOML inline value (strings, numbers, booleans,
/// arrays and objects; TOML has no null, written as an empty string).
fn toml_value(value: &Value) -> String {
    match value {
        Value::Null => "\"\"".into(),
        Value::Bool(_) | Value::Number(_) | Value::String(_) => value.to_string(),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(toml_value).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) => format!(
            "{{ {} }}",
            map.iter()
                .map(|(k, v)| format!("{} = {}", Value::String(k.clone()), toml_value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
