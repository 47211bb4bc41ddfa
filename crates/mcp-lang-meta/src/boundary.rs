//! The translation boundary (SEP-2792 "Translation boundary", decision D9): which strings
//! of an MCP message a server localizes, a [`Localizer`] that localizes exactly those,
//! and an [`IdentifierGuard`] that proves nothing else changed.
//!
//! # What is localized
//!
//! When a server honors the preference it SHOULD translate these display fields, and
//! [`display_fields`] finds exactly these (JSON Pointers from the message root):
//!
//! | field | where in a message |
//! |-------|--------------------|
//! | `Implementation.title` | `/result/serverInfo/title` (initialize), `/params/clientInfo/title` |
//! | `Tool.title`, `ToolAnnotations.title` | `/result/tools/N/title`, `/result/tools/N/annotations/title` |
//! | `Resource.title` | `/result/resources/N/title` |
//! | `ResourceTemplate.title` | `/result/resourceTemplates/N/title` |
//! | `Prompt.title`, `PromptArgument.title` | `/result/prompts/N/title`, `/result/prompts/N/arguments/M/title` |
//! | `PromptReference.title` | `/params/ref/title` of `completion/complete` when `ref.type` is `ref/prompt` |
//! | elicitation `message` (form and URL) | `/params/message` of `elicitation/create`, and `/result/inputRequests/K/params/message` of an input-required result |
//! | `requestedSchema` property `title`, `description` | `…/requestedSchema/properties/P/title` and `…/description`, same places |
//! | progress `message` | `/params/message` of `notifications/progress` |
//!
//! Only string values are localized. The MAY fields (`Error.message`, general
//! `description`s, content) are left alone, as decision D9 says the reference server does.
//! Everything on the SEP's MUST NOT list (method names, every `name`, URIs and URI
//! templates, MIME types, property keys, enum and `const` values, discriminators,
//! capability identifiers, versions, codes, `_meta` keys, ids, cursors, tokens) is outside
//! these paths and so never touched.
//!
//! # Proving it
//!
//! [`IdentifierGuard::check`] walks two variants of a message (the same response in two
//! languages, or a message before and after localization) and reports every difference
//! outside the display fields and the reported `contentLanguage`, naming its JSON Pointer.
//! The reported `contentLanguage` may also be present in one variant only (with a `_meta`,
//! or an `error.data`, that holds nothing else), since localizing a message adds it.
//!
//! ```
//! use std::collections::HashMap;
//! use mcp_lang_meta::{IdentifierGuard, Localizer};
//! use serde_json::json;
//!
//! let english = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{
//!     "name": "weather_current", "title": "Current weather",
//!     "description": "Current conditions for a city", "inputSchema": {"type": "object"}}]}});
//!
//! let catalog = HashMap::from([("Current weather".to_owned(), "Météo actuelle".to_owned())]);
//! let mut french = english.clone();
//! assert_eq!(Localizer::new(&catalog).localize(&mut french), 1);
//! assert_eq!(french["result"]["tools"][0]["title"], "Météo actuelle");
//! assert_eq!(french["result"]["tools"][0]["name"], "weather_current");
//! assert!(IdentifierGuard::new().check(&english, &french).is_empty());
//!
//! // Translating a name is caught, with its path.
//! french["result"]["tools"][0]["name"] = json!("meteo_actuelle");
//! let diffs = IdentifierGuard::new().check(&english, &french);
//! assert_eq!(diffs[0].path(), "/result/tools/0/name");
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde_json::Value;

use crate::CONTENT_LANGUAGE_KEY;

/// Which display field a string is, with the identifiers that say whose field it is (so a
/// catalog can key translations by tool name, property key…, not only by source text).
///
/// ```
/// use mcp_lang_meta::{DisplayField, Localizer};
/// use serde_json::json;
///
/// // A catalog keyed by the tool's name rather than by the English text.
/// let german = |field: &DisplayField, _: &str| match field {
///     DisplayField::ToolTitle { tool } if tool == "weather_current" => Some("Aktuelles Wetter".to_owned()),
///     _ => None,
/// };
/// let mut list = json!({"result": {"tools": [{"name": "weather_current", "title": "Current weather"}]}});
/// Localizer::new(&german).localize(&mut list);
/// assert_eq!(list["result"]["tools"][0]["title"], "Aktuelles Wetter");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DisplayField {
    /// `Implementation.title` (`serverInfo` or `clientInfo`).
    ImplementationTitle,
    /// `Tool.title` of the tool with this `name`.
    ToolTitle {
        /// The tool's `name` (empty when missing).
        tool: String,
    },
    /// `ToolAnnotations.title` of the tool with this `name`.
    ToolAnnotationsTitle {
        /// The tool's `name`.
        tool: String,
    },
    /// `Resource.title` of the resource with this `uri`.
    ResourceTitle {
        /// The resource's `uri`.
        uri: String,
    },
    /// `ResourceTemplate.title` of the template with this `uriTemplate`.
    ResourceTemplateTitle {
        /// The template's `uriTemplate`.
        uri_template: String,
    },
    /// `Prompt.title` of the prompt with this `name`.
    PromptTitle {
        /// The prompt's `name`.
        prompt: String,
    },
    /// `PromptArgument.title`.
    PromptArgumentTitle {
        /// The prompt's `name`.
        prompt: String,
        /// The argument's `name`.
        argument: String,
    },
    /// `PromptReference.title` (in `completion/complete`).
    PromptReferenceTitle {
        /// The referenced prompt's `name`.
        prompt: String,
    },
    /// The `message` of an elicitation (form or URL mode).
    ElicitationMessage,
    /// A `requestedSchema` property's `title`.
    SchemaPropertyTitle {
        /// The property key (which itself stays stable).
        property: String,
    },
    /// A `requestedSchema` property's `description`.
    SchemaPropertyDescription {
        /// The property key.
        property: String,
    },
    /// The `message` of a progress notification.
    ProgressMessage,
}

/// One display field found in a message: where it is, and what it is.
///
/// ```
/// use mcp_lang_meta::{display_fields, DisplayField};
/// use serde_json::json;
///
/// let prompts = json!({"result": {"prompts": [{"name": "summarize",
///     "arguments": [{"name": "text", "title": "Text"}]}]}});
/// let found = display_fields(&prompts);
/// assert_eq!(found[0].pointer(), "/result/prompts/0/arguments/0/title");
/// assert_eq!(found[0].field(), &DisplayField::PromptArgumentTitle {
///     prompt: "summarize".into(), argument: "text".into() });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisplayLocation {
    pointer: String,
    field: DisplayField,
}

impl DisplayLocation {
    /// The JSON Pointer (RFC 6901) of the string, from the message root.
    ///
    /// ```
    /// use mcp_lang_meta::display_fields;
    /// use serde_json::json;
    ///
    /// let init = json!({"result": {"serverInfo": {"name": "weather", "title": "Weather", "version": "1.0"}}});
    /// assert_eq!(display_fields(&init)[0].pointer(), "/result/serverInfo/title");
    /// ```
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// Which display field it is.
    ///
    /// ```
    /// use mcp_lang_meta::{display_fields, DisplayField};
    /// use serde_json::json;
    ///
    /// let resources = json!({"result": {"resources": [{"uri": "file:///a.txt", "name": "a", "title": "A"}]}});
    /// assert_eq!(display_fields(&resources)[0].field(),
    ///     &DisplayField::ResourceTitle { uri: "file:///a.txt".into() });
    /// ```
    pub fn field(&self) -> &DisplayField {
        &self.field
    }
}

/// Finds every localizable display field of a JSON-RPC message that holds a string (see
/// the [module docs](self) for the list).
///
/// ```
/// use mcp_lang_meta::{display_fields, DisplayField};
/// use serde_json::json;
///
/// let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
///     "params": {"progressToken": "abc", "progress": 1, "message": "Downloading"}});
/// let found = display_fields(&progress);
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].pointer(), "/params/message");
/// assert_eq!(found[0].field(), &DisplayField::ProgressMessage);
/// ```
pub fn display_fields(message: &Value) -> Vec<DisplayLocation> {
    let mut found = Finder { out: Vec::new() };
    found.message(message);
    found.out
}

struct Finder {
    out: Vec<DisplayLocation>,
}

impl Finder {
    fn push(&mut self, value: Option<&Value>, pointer: String, field: DisplayField) {
        if let Some(Value::String(_)) = value {
            self.out.push(DisplayLocation { pointer, field });
        }
    }

    fn message(&mut self, message: &Value) {
        if let Some(result) = message.get("result") {
            self.result(result);
        }
        let params = message.get("params");
        match message.get("method").and_then(Value::as_str) {
            Some("elicitation/create") => {
                if let Some(params) = params {
                    self.elicitation(params, "/params");
                }
            }
            Some("notifications/progress") => {
                self.push(
                    params.and_then(|p| p.get("message")),
                    "/params/message".into(),
                    DisplayField::ProgressMessage,
                );
            }
            Some("completion/complete") => {
                let reference = params.and_then(|p| p.get("ref"));
                if reference
                    .and_then(|r| r.get("type"))
                    .and_then(Value::as_str)
                    == Some("ref/prompt")
                {
                    let prompt = name_of(reference, "name");
                    self.push(
                        reference.and_then(|r| r.get("title")),
                        "/params/ref/title".into(),
                        DisplayField::PromptReferenceTitle { prompt },
                    );
                }
            }
            Some("initialize") => {
                let title = params
                    .and_then(|p| p.get("clientInfo"))
                    .and_then(|c| c.get("title"));
                self.push(
                    title,
                    "/params/clientInfo/title".into(),
                    DisplayField::ImplementationTitle,
                );
            }
            _ => {}
        }
    }

    fn result(&mut self, result: &Value) {
        let title = result.get("serverInfo").and_then(|s| s.get("title"));
        self.push(
            title,
            "/result/serverInfo/title".into(),
            DisplayField::ImplementationTitle,
        );

        for (i, tool) in array(result, "tools") {
            let name = name_of(Some(tool), "name");
            let base = format!("/result/tools/{i}");
            let annotations = tool.get("annotations").and_then(|a| a.get("title"));
            self.push(
                annotations,
                format!("{base}/annotations/title"),
                DisplayField::ToolAnnotationsTitle { tool: name.clone() },
            );
            self.push(
                tool.get("title"),
                format!("{base}/title"),
                DisplayField::ToolTitle { tool: name },
            );
        }
        for (i, resource) in array(result, "resources") {
            let uri = name_of(Some(resource), "uri");
            self.push(
                resource.get("title"),
                format!("/result/resources/{i}/title"),
                DisplayField::ResourceTitle { uri },
            );
        }
        for (i, template) in array(result, "resourceTemplates") {
            let uri_template = name_of(Some(template), "uriTemplate");
            let pointer = format!("/result/resourceTemplates/{i}/title");
            self.push(
                template.get("title"),
                pointer,
                DisplayField::ResourceTemplateTitle { uri_template },
            );
        }
        for (i, prompt) in array(result, "prompts") {
            let name = name_of(Some(prompt), "name");
            for (j, argument) in array(prompt, "arguments") {
                let field = DisplayField::PromptArgumentTitle {
                    prompt: name.clone(),
                    argument: name_of(Some(argument), "name"),
                };
                self.push(
                    argument.get("title"),
                    format!("/result/prompts/{i}/arguments/{j}/title"),
                    field,
                );
            }
            self.push(
                prompt.get("title"),
                format!("/result/prompts/{i}/title"),
                DisplayField::PromptTitle { prompt: name },
            );
        }
        if let Some(Value::Object(requests)) = result.get("inputRequests") {
            for (key, request) in requests {
                if request.get("method").and_then(Value::as_str) == Some("elicitation/create")
                    && let Some(params) = request.get("params")
                {
                    self.elicitation(
                        params,
                        &format!("/result/inputRequests/{}/params", escape(key)),
                    );
                }
            }
        }
    }

    /// `ElicitRequestFormParams` / `ElicitRequestURLParams` at `base`.
    fn elicitation(&mut self, params: &Value, base: &str) {
        self.push(
            params.get("message"),
            format!("{base}/message"),
            DisplayField::ElicitationMessage,
        );
        let properties = params
            .get("requestedSchema")
            .and_then(|s| s.get("properties"));
        if let Some(Value::Object(properties)) = properties {
            for (key, property) in properties {
                let at = format!("{base}/requestedSchema/properties/{}", escape(key));
                let property_key = key.clone();
                self.push(
                    property.get("title"),
                    format!("{at}/title"),
                    DisplayField::SchemaPropertyTitle {
                        property: property_key.clone(),
                    },
                );
                self.push(
                    property.get("description"),
                    format!("{at}/description"),
                    DisplayField::SchemaPropertyDescription {
                        property: property_key,
                    },
                );
            }
        }
    }
}

fn array<'v>(value: &'v Value, key: &str) -> impl Iterator<Item = (usize, &'v Value)> {
    value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

fn name_of(value: Option<&Value>, key: &str) -> String {
    value
        .and_then(|v| v.get(key))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Escapes one JSON Pointer reference token (RFC 6901 §3).
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A source of translations for display fields, for [`Localizer`] at a translation
/// boundary: it maps a field's current text to its translation. (Not a message catalog
/// keyed by id: that is `mcp-lang-rmcp`'s `Catalog`.)
///
/// Implemented for closures `Fn(&DisplayField, &str) -> Option<String>` and for a
/// `HashMap<String, String>` from source text to translation (gettext style). Return
/// `None` to leave a string as it is (no translation available).
///
/// ```
/// use mcp_lang_meta::{Translator, DisplayField};
///
/// // Key by identifier rather than by English text.
/// let catalog = |field: &DisplayField, _source: &str| match field {
///     DisplayField::ToolTitle { tool } if tool == "weather_current" => Some("Aktuelles Wetter".to_owned()),
///     _ => None,
/// };
/// let field = DisplayField::ToolTitle { tool: "weather_current".into() };
/// assert_eq!(catalog.translate(&field, "Current weather").as_deref(), Some("Aktuelles Wetter"));
/// ```
pub trait Translator {
    /// The translation of `source`, the current text of `field`; `None` leaves it.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use mcp_lang_meta::{Translator, DisplayField};
    ///
    /// // A `HashMap` catalog keys by source text, whatever the field.
    /// let catalog = HashMap::from([("Ping".to_owned(), "Pingen".to_owned())]);
    /// assert_eq!(catalog.translate(&DisplayField::ProgressMessage, "Ping").as_deref(), Some("Pingen"));
    /// assert_eq!(catalog.translate(&DisplayField::ProgressMessage, "Pong"), None);
    /// ```
    fn translate(&self, field: &DisplayField, source: &str) -> Option<String>;
}

impl<F> Translator for F
where
    F: Fn(&DisplayField, &str) -> Option<String>,
{
    fn translate(&self, field: &DisplayField, source: &str) -> Option<String> {
        self(field, source)
    }
}

impl<S: std::hash::BuildHasher> Translator for HashMap<String, String, S> {
    fn translate(&self, _field: &DisplayField, source: &str) -> Option<String> {
        self.get(source).cloned()
    }
}

/// Localizes the display fields of a message, and nothing else (decision D9).
///
/// ```
/// use mcp_lang_meta::{DisplayField, Localizer};
/// use serde_json::json;
///
/// let mut result = json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "input_required",
///   "inputRequests": {"contact": {"method": "elicitation/create", "params": {
///     "message": "Please enter your e-mail address.",
///     "requestedSchema": {"type": "object", "properties": {"email": {
///       "type": "string", "format": "email", "title": "E-mail address",
///       "description": "Address for the confirmation"}}, "required": ["email"]}}}}}});
///
/// let german = |_: &DisplayField, source: &str| match source {
///     "Please enter your e-mail address." => Some("Bitte geben Sie Ihre E-Mail-Adresse ein.".to_owned()),
///     "E-mail address" => Some("E-Mail-Adresse".to_owned()),
///     "Address for the confirmation" => Some("Adresse für die Bestätigung".to_owned()),
///     _ => None,
/// };
/// assert_eq!(Localizer::new(&german).localize(&mut result), 3);
/// let params = &result["result"]["inputRequests"]["contact"]["params"];
/// assert_eq!(params["requestedSchema"]["properties"]["email"]["title"], "E-Mail-Adresse");
/// assert_eq!(params["requestedSchema"]["properties"]["email"]["format"], "email");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Localizer<'c, C: ?Sized> {
    catalog: &'c C,
}

impl<'c, C: Translator + ?Sized> Localizer<'c, C> {
    /// A localizer drawing on `catalog` (one language's catalog: the request's selection).
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use mcp_lang_meta::Localizer;
    /// use serde_json::json;
    ///
    /// let japanese = HashMap::from([("Downloading".to_owned(), "ダウンロード中".to_owned())]);
    /// let mut progress = json!({"method": "notifications/progress",
    ///     "params": {"progressToken": 1, "progress": 5, "message": "Downloading"}});
    /// Localizer::new(&japanese).localize(&mut progress);
    /// assert_eq!(progress["params"]["message"], "ダウンロード中");
    /// ```
    pub fn new(catalog: &'c C) -> Self {
        Localizer { catalog }
    }

    /// Replaces each display field of `message` that the catalog translates; returns how
    /// many were replaced.
    ///
    /// ```
    /// use mcp_lang_meta::{DisplayField, Localizer};
    /// use serde_json::json;
    ///
    /// let upper = |_: &DisplayField, source: &str| Some(source.to_uppercase());
    /// let mut list = json!({"result": {"tools": [{"name": "ping", "title": "Ping",
    ///     "description": "Checks the server", "annotations": {"title": "Ping"}}]}});
    /// // Two display fields; the name and the (MAY) description are left alone.
    /// assert_eq!(Localizer::new(&upper).localize(&mut list), 2);
    /// assert_eq!(list["result"]["tools"][0]["name"], "ping");
    /// assert_eq!(list["result"]["tools"][0]["description"], "Checks the server");
    /// ```
    pub fn localize(&self, message: &mut Value) -> usize {
        let mut replaced = 0;
        for location in display_fields(message) {
            if let Some(Value::String(text)) = message.pointer_mut(&location.pointer)
                && let Some(translation) = self.catalog.translate(&location.field, text)
            {
                *text = translation;
                replaced += 1;
            }
        }
        replaced
    }
}

/// One difference the [`IdentifierGuard`] found between two variants of a message.
///
/// ```
/// use mcp_lang_meta::IdentifierGuard;
/// use serde_json::json;
///
/// let en = json!({"result": {"prompts": [{"name": "greet", "title": "Greet"}]}});
/// let fr = json!({"result": {"prompts": [{"name": "saluer", "title": "Saluer"}]}});
/// let diffs = IdentifierGuard::new().check(&en, &fr);
/// assert_eq!(diffs.len(), 1);
/// assert_eq!(diffs[0].to_string(), "/result/prompts/0/name: changed");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    path: String,
    kind: DifferenceKind,
}

/// What kind of difference.
///
/// ```
/// use mcp_lang_meta::{DifferenceKind, IdentifierGuard};
/// use serde_json::json;
///
/// let en = json!({"result": {"tools": [], "nextCursor": "c2"}});
/// let de = json!({"result": {"tools": [], "ttlMs": 1000}});
/// let kinds: Vec<_> = IdentifierGuard::new().check(&en, &de).iter().map(|d| d.kind()).collect();
/// assert!(kinds.contains(&DifferenceKind::OnlyInFirst));  // nextCursor dropped
/// assert!(kinds.contains(&DifferenceKind::OnlyInSecond)); // ttlMs added
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DifferenceKind {
    /// The value at the path differs (including a change of JSON type).
    Changed,
    /// The path exists only in the first variant (a key or array element was dropped).
    OnlyInFirst,
    /// The path exists only in the second variant.
    OnlyInSecond,
}

impl Difference {
    /// The JSON Pointer (RFC 6901) of the difference.
    ///
    /// ```
    /// use mcp_lang_meta::IdentifierGuard;
    /// use serde_json::json;
    ///
    /// let en = json!({"result": {"resources": [{"uri": "file:///notes.txt", "mimeType": "text/plain"}]}});
    /// let ja = json!({"result": {"resources": [{"uri": "file:///notes.txt", "mimeType": "テキスト"}]}});
    /// assert_eq!(IdentifierGuard::new().check(&en, &ja)[0].path(), "/result/resources/0/mimeType");
    /// ```
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What differs there.
    ///
    /// ```
    /// use mcp_lang_meta::{DifferenceKind, IdentifierGuard};
    /// use serde_json::json;
    ///
    /// // A display field must stay a string.
    /// let en = json!({"params": {"progressToken": 1, "progress": 1, "message": "Done"}, "method": "notifications/progress"});
    /// let xx = json!({"params": {"progressToken": 1, "progress": 1, "message": null}, "method": "notifications/progress"});
    /// assert_eq!(IdentifierGuard::new().check(&en, &xx)[0].kind(), DifferenceKind::Changed);
    /// ```
    pub fn kind(&self) -> DifferenceKind {
        self.kind
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            DifferenceKind::Changed => "changed",
            DifferenceKind::OnlyInFirst => "only in the first variant",
            DifferenceKind::OnlyInSecond => "only in the second variant",
        };
        write!(
            f,
            "{}: {what}",
            if self.path.is_empty() {
                "/"
            } else {
                &self.path
            }
        )
    }
}

/// Checks that two variants of a message differ only where localization may change them:
/// the display fields ([`display_fields`] of either variant) and the reported
/// `contentLanguage` in any `_meta` (`/result/_meta/…`, `/error/data/_meta/…`,
/// `/params/_meta/…`, and the `_meta` of requests nested in an `input_required` result),
/// which may also be present in one variant only, together with a `_meta` (or
/// `error.data`) created just to hold it.
///
/// Every other difference is reported with its path: identifiers, keys, structure, and
/// also the MAY fields unless [`allow`](Self::allow)ed. At a display field, both variants
/// must still hold a string.
///
/// ```
/// use mcp_lang_meta::{DifferenceKind, IdentifierGuard};
/// use serde_json::json;
///
/// let en = json!({"jsonrpc": "2.0", "id": 9, "error": {"code": -32602, "message": "Unknown city"}});
/// let fr = json!({"jsonrpc": "2.0", "id": 9, "error": {"code": -32602, "message": "Ville inconnue",
///     "data": {"_meta": {"io.modelcontextprotocol/contentLanguage": "fr"}}}});
/// let diffs = IdentifierGuard::new().check(&en, &fr);
/// // The MAY field `message` is reported; the `data` that only reports the language is not.
/// assert_eq!(diffs.len(), 1);
/// assert_eq!((diffs[0].path(), diffs[0].kind()), ("/error/message", DifferenceKind::Changed));
///
/// // A server that translates Error.message (a MAY field) says so:
/// let guard = IdentifierGuard::new().allow("/error/message");
/// assert!(guard.check(&en, &fr).is_empty());
///
/// // Anything else in the new `data` is still reported.
/// let mut traced = fr.clone();
/// traced["error"]["data"]["trace"] = json!("t-1");
/// let diffs = guard.check(&en, &traced);
/// assert_eq!((diffs[0].path(), diffs[0].kind()), ("/error/data", DifferenceKind::OnlyInSecond));
/// ```
#[derive(Clone, Debug, Default)]
pub struct IdentifierGuard {
    extra: Vec<String>,
}

impl IdentifierGuard {
    /// A guard that allows only the display fields and `contentLanguage`.
    ///
    /// ```
    /// use mcp_lang_meta::IdentifierGuard;
    /// use serde_json::json;
    ///
    /// let en = json!({"result": {"tools": [{"name": "ping", "title": "Ping"}]}});
    /// let fr = json!({"result": {"tools": [{"name": "ping", "title": "Ping (fr)"}],
    ///     "_meta": {"io.modelcontextprotocol/contentLanguage": "fr"}}});
    /// assert!(IdentifierGuard::new().check(&en, &fr).is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Also allows differences at (and below) this JSON Pointer.
    ///
    /// ```
    /// use mcp_lang_meta::IdentifierGuard;
    /// use serde_json::json;
    ///
    /// let en = json!({"result": {"tools": [{"name": "ping", "description": "Checks the server"}]}});
    /// let de = json!({"result": {"tools": [{"name": "ping", "description": "Prüft den Server"}]}});
    /// assert_eq!(IdentifierGuard::new().check(&en, &de).len(), 1);
    /// assert!(IdentifierGuard::new().allow("/result/tools/0/description").check(&en, &de).is_empty());
    /// ```
    pub fn allow(mut self, pointer: &str) -> Self {
        self.extra.push(pointer.to_owned());
        self
    }

    /// Every difference between `first` and `second` outside the allowed paths, in
    /// document order.
    ///
    /// ```
    /// use mcp_lang_meta::IdentifierGuard;
    /// use serde_json::json;
    ///
    /// let en = json!({"result": {"tools": [{"name": "a", "title": "A"}, {"name": "b", "title": "B"}]}});
    /// let fr = json!({"result": {"tools": [{"name": "a", "title": "A"}, {"name": "b2", "title": "B"}],
    ///     "cacheScope": "public"}});
    /// let mut paths: Vec<String> = IdentifierGuard::new().check(&en, &fr).iter().map(|d| d.path().to_owned()).collect();
    /// paths.sort();
    /// assert_eq!(paths, ["/result/cacheScope", "/result/tools/1/name"]);
    /// ```
    pub fn check(&self, first: &Value, second: &Value) -> Vec<Difference> {
        let mut display: HashSet<String> = HashSet::new();
        display.extend(display_fields(first).into_iter().map(|l| l.pointer));
        display.extend(display_fields(second).into_iter().map(|l| l.pointer));
        let mut walk = Walk {
            display,
            reported_suffix: format!("/_meta/{}", escape(CONTENT_LANGUAGE_KEY)),
            extra: &self.extra,
            out: Vec::new(),
        };
        let mut path = String::new();
        walk.compare(first, second, &mut path);
        walk.out
    }
}

struct Walk<'g> {
    display: HashSet<String>,
    /// How every pointer to a reported `contentLanguage` ends: `/_meta/<key>`.
    reported_suffix: String,
    extra: &'g [String],
    out: Vec<Difference>,
}

impl Walk<'_> {
    fn allowed_below(&self, path: &str) -> bool {
        self.extra.iter().any(|p| {
            path == p
                || path
                    .strip_prefix(p.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        })
    }

    /// Whether a member present in one variant only is the reported `contentLanguage`,
    /// or a container holding nothing else: localizing a message adds it, so its
    /// presence, like its value, may differ.
    fn is_reported_language(&self, path: &str, value: &Value) -> bool {
        if path.ends_with(&self.reported_suffix) {
            return true;
        }
        // A container created only to hold it (`_meta`, or `error.data` with its `_meta`).
        match value {
            Value::Object(members) if !members.is_empty() => members
                .iter()
                .all(|(k, v)| self.is_reported_language(&format!("{path}/{}", escape(k)), v)),
            _ => false,
        }
    }

    fn report(&mut self, path: &str, kind: DifferenceKind) {
        if !self.allowed_below(path) {
            self.out.push(Difference {
                path: path.to_owned(),
                kind,
            });
        }
    }

    fn compare(&mut self, a: &Value, b: &Value, path: &mut String) {
        if self.display.contains(path.as_str()) || path.ends_with(&self.reported_suffix) {
            // Two strings may differ (that is what localizing does); anything else there is
            // not display text and must be left exactly as it was.
            if a != b && !(a.is_string() && b.is_string()) {
                self.report(path, DifferenceKind::Changed);
            }
            return;
        }
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (key, va) in x {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&escape(key));
                    match y.get(key) {
                        Some(vb) => self.compare(va, vb, path),
                        None if self.is_reported_language(path, va) => {}
                        None => self.report(path, DifferenceKind::OnlyInFirst),
                    }
                    path.truncate(len);
                }
                for (key, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&escape(key));
                    if !self.is_reported_language(path, vb) {
                        self.report(path, DifferenceKind::OnlyInSecond);
                    }
                    path.truncate(len);
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                for i in 0..x.len().max(y.len()) {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&i.to_string());
                    match (x.get(i), y.get(i)) {
                        (Some(va), Some(vb)) => self.compare(va, vb, path),
                        (Some(_), None) => self.report(path, DifferenceKind::OnlyInFirst),
                        (None, _) => self.report(path, DifferenceKind::OnlyInSecond),
                    }
                    path.truncate(len);
                }
            }
            _ => {
                if a != b {
                    self.report(path, DifferenceKind::Changed);
                }
            }
        }
    }
}
