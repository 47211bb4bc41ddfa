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
//! # optional: the tools the scenarios call (these are the reference server's);
//! # a name alone lets the suite build the arguments from the tool's inputSchema
//! elicitation_tool = "send_confirmation"
//! progress_tool = { name = "prepare_report", arguments = { topic = "weather" } }
//! explicit_language_tool = "get_official_document"
//! # a tools/call the server answers with an `isError` result
//! tool_error = { name = "weather_current", arguments = { city = "Atlantis" } }
//! # a tools/call the server answers with a JSON-RPC error it localizes
//! # (the suite also tries an unknown tool, prompt and resource)
//! error_call = { name = "divide", arguments = { a = 1, b = 0 } }
//! # what the server leaves in one language on purpose: reporting.labels does
//! # not compare it across languages
//! untranslated = ["prompts/get brand_story", "resources/read docs://licence"]
//! ```
//!
//! A profile names well-formed language tags (RFC 5646) only, and its default
//! joins its supported list (a server supports its own default).
//!
//! # Which tools the suite calls
//!
//! A tool the profile names (`elicitation_tool`, `progress_tool`,
//! `explicit_language_tool`) is called whatever its annotations say: naming
//! it is the user's consent. Any other tool (the reference server's names,
//! which the suite looks for by default, or a tool recognized by its shape)
//! is called only when its annotations say it is read-only
//! (`annotations.readOnlyHint` is `true`). The arguments are the profile's,
//! or else built from the tool's `inputSchema` (a value of each required
//! property's type, honouring `const`, `default`, `enum`, `examples`, bounds
//! and formats); a schema the suite cannot satisfy means the call is not
//! made, and the scenario says which profile key to give.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value, json};

/// The reference server's elicitation tool, the profile's default.
pub(crate) const DEFAULT_ELICITATION_TOOL: &str = "send_confirmation";

/// The reference server's progress tool, the profile's default.
pub(crate) const DEFAULT_PROGRESS_TOOL: &str = "prepare_report";

/// The reference server's tool with an explicit `language` argument, the
/// profile's default.
pub(crate) const DEFAULT_EXPLICIT_TOOL: &str = "get_official_document";

/// What a tool does for the display scenarios: each is a key of the profile.
///
/// ```
/// use mcp_lang_conformance::profile::{Profile, ToolRole};
///
/// assert_eq!(ToolRole::Progress.key(), "progress_tool");
/// let profile = Profile::new(vec!["en".into()], "en".into()).unwrap();
/// assert_eq!(profile.tool(ToolRole::Progress), "prepare_report");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolRole {
    /// A tool whose call elicits input from the user.
    Elicitation,
    /// A tool that reports progress when given a `progressToken`.
    Progress,
    /// A tool with an explicit `language` argument.
    ExplicitLanguage,
}

impl ToolRole {
    /// Every role.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::ToolRole;
    ///
    /// assert_eq!(ToolRole::ALL.len(), 3);
    /// ```
    pub const ALL: [ToolRole; 3] = [Self::Elicitation, Self::Progress, Self::ExplicitLanguage];

    /// The profile key that names the role's tool.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::ToolRole;
    ///
    /// assert_eq!(ToolRole::ExplicitLanguage.key(), "explicit_language_tool");
    /// ```
    pub fn key(self) -> &'static str {
        match self {
            Self::Elicitation => "elicitation_tool",
            Self::Progress => "progress_tool",
            Self::ExplicitLanguage => "explicit_language_tool",
        }
    }
}

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
    /// The tools the profile names for a [`ToolRole`], each with the
    /// arguments it gives (`None`: the suite builds them from the tool's
    /// `inputSchema`). A tool named here is called whatever its annotations
    /// say; the suite calls any other only when it is annotated read-only.
    pub named_tools: BTreeMap<String, Option<Map<String, Value>>>,
    /// What the server leaves in one language on purpose, which
    /// `reporting.labels` does not compare across languages: each named as
    /// the scenario names it, `server/discover` (or `initialize`, the
    /// server's description), `prompts/get NAME`, `resources/read URI`,
    /// `tools/call NAME`. The profile key is `untranslated = [ … ]`.
    pub untranslated: Vec<String>,
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
                "the profile names {tag_q}, which is not a well-formed language tag (RFC 5646)",
                tag_q = crate::quote::q(&tag)
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
            named_tools: BTreeMap::new(),
            untranslated: Vec::new(),
        })
    }

    /// The tool the suite uses for `role`: the one the profile names, or the
    /// reference server's.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::{Profile, ToolRole};
    ///
    /// let profile = Profile::from_toml("supported = [\"en\"]\ndefault = \"en\"\nelicitation_tool = \"ask\"").unwrap();
    /// assert_eq!(profile.tool(ToolRole::Elicitation), "ask");
    /// ```
    pub fn tool(&self, role: ToolRole) -> &str {
        match role {
            ToolRole::Elicitation => &self.elicitation_tool,
            ToolRole::Progress => &self.progress_tool,
            ToolRole::ExplicitLanguage => &self.explicit_language_tool,
        }
    }

    /// Names `name` as the tool for `role`, with `arguments` (`None`: built
    /// from its `inputSchema`): the suite then calls it whatever its
    /// annotations say.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::{Profile, ToolRole};
    /// use serde_json::json;
    ///
    /// let mut profile = Profile::new(vec!["en".into()], "en".into()).unwrap();
    /// let arguments = json!({ "n": 3 }).as_object().cloned();
    /// profile.name_tool(ToolRole::Progress, "count", arguments.clone());
    /// assert_eq!(profile.progress_tool, "count");
    /// assert_eq!(profile.named_arguments("count"), Some(&arguments));
    /// assert_eq!(Profile::from_toml(&profile.to_toml()).unwrap(), profile);
    /// ```
    pub fn name_tool(&mut self, role: ToolRole, name: &str, arguments: Option<Map<String, Value>>) {
        let slot = match role {
            ToolRole::Elicitation => &mut self.elicitation_tool,
            ToolRole::Progress => &mut self.progress_tool,
            ToolRole::ExplicitLanguage => &mut self.explicit_language_tool,
        };
        *slot = name.to_owned();
        self.named_tools.insert(name.to_owned(), arguments);
    }

    /// Whether the profile names the tool `name` (and with which arguments):
    /// `None` when it does not, `Some(None)` when it names it without
    /// arguments.
    ///
    /// ```
    /// use mcp_lang_conformance::profile::Profile;
    ///
    /// let profile = Profile::from_toml("supported = [\"en\"]\ndefault = \"en\"\nprogress_tool = \"count\"").unwrap();
    /// assert_eq!(profile.named_arguments("count"), Some(&None));
    /// assert_eq!(profile.named_arguments("prepare_report"), None); // the default is not named
    /// ```
    pub fn named_arguments(&self, name: &str) -> Option<&Option<Map<String, Value>>> {
        self.named_tools.get(name)
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
    ///     elicitation_tool = { name = "subscribe", arguments = { list = "news" } }
    ///     tool_error = { name = "lookup", arguments = { id = "none" } }
    /// "#).unwrap();
    /// assert_eq!(profile.progress_tool, "long_task");
    /// assert_eq!(profile.named_arguments("subscribe").unwrap().as_ref().unwrap()["list"], "news");
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
        for role in ToolRole::ALL {
            let key = role.key();
            match table.get(key) {
                None => {}
                Some(toml::Value::String(name)) => profile.name_tool(role, name, None),
                Some(call @ toml::Value::Table(_)) => {
                    let call = tool_call(call, key)?;
                    profile.name_tool(role, &call.name, Some(call.arguments));
                }
                Some(_) => {
                    return Err(format!(
                        "profile: `{key}` must be a tool name, or {{ name = \"…\", arguments = {{ … }} }}"
                    ));
                }
            }
        }
        if let Some(call) = table.get("tool_error") {
            profile.tool_error = tool_call(call, "tool_error")?;
        }
        if let Some(call) = table.get("error_call") {
            profile.error_call = Some(tool_call(call, "error_call")?);
        }
        if let Some(items) = table.get("untranslated") {
            profile.untranslated = items
                .as_array()
                .and_then(|items| {
                    items
                        .iter()
                        .map(|v| v.as_str().map(str::to_owned))
                        .collect::<Option<Vec<_>>>()
                })
                .ok_or(
                    "profile: `untranslated` must be an array of strings such as \"prompts/get NAME\"",
                )?;
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
    /// profile.untranslated = vec!["prompts/get brand_story".into()];
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
            "supported = [{}]\ndefault = {}\ntool_error = {}\n",
            tags.join(", "),
            quote(&self.default),
            call(&self.tool_error),
        );
        // Only the tools the profile names: the others stay the defaults, to
        // be called only when read-only.
        for role in ToolRole::ALL {
            let name = self.tool(role);
            match self.named_tools.get(name) {
                None => {}
                Some(None) => text.push_str(&format!("{} = {}\n", role.key(), quote(name))),
                Some(Some(arguments)) => text.push_str(&format!(
                    "{} = {}\n",
                    role.key(),
                    call(&ToolCall {
                        name: name.to_owned(),
                        arguments: arguments.clone(),
                    })
                )),
            }
        }
        if let Some(error_call) = &self.error_call {
            text.push_str(&format!("error_call = {}\n", call(error_call)));
        }
        if !self.untranslated.is_empty() {
            let items: Vec<String> = self.untranslated.iter().map(|u| quote(u)).collect();
            text.push_str(&format!("untranslated = [{}]\n", items.join(", ")));
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
