//! Display text from a catalog: what [`Localized`](super::Localized) reads titles,
//! error messages and progress messages from.
//!
//! A [`Catalog`] answers one question: the message `id`, with its arguments, in
//! exactly one language, or `None`. [`FluentCatalog`](super::FluentCatalog)
//! (feature `fluent`) reads Fluent files; [`catalog_fn`] turns a closure (over a map, a
//! database, another i18n library) into one.
//!
//! Titles are found by name, by the scheme [`Titles`] documents.
//!
//! ```
//! use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
//! use rmcp::model::Tool;
//!
//! let catalog = catalog_fn(|language: &str, id: &str, _args: &[(&str, Arg<'_>)]| match (language, id) {
//!     ("fr", "tool-divide") => Some("Division".to_owned()),
//!     _ => None,
//! });
//! let mut tool: Tool = serde_json::from_value(serde_json::json!({
//!     "name": "divide", "title": "Divide", "inputSchema": {"type": "object"}
//! })).unwrap();
//! assert!(Titles::new(&catalog, "fr").tool(&mut tool));
//! assert_eq!((tool.name.as_ref(), tool.title.as_deref()), ("divide", Some("Division")));
//! assert!(!Titles::new(&catalog, "de").tool(&mut tool)); // no German text: unchanged
//! ```

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use rmcp::model::{Implementation, Prompt, Resource, ResourceTemplate, Tool, ToolAnnotations};

/// A value a catalog message is formatted with: text, or a number. A number stays a
/// number on its way to the catalog, so that the catalog can select the message's plural
/// form by the language's rules (Fluent: `{ $n -> [one] … *[other] … }`, with the
/// categories of each language, six in Irish) and write it as the language writes
/// numbers.
///
/// Values convert with `into()`: text from `&str` and `&String`, numbers from the
/// integer and float types (`i64`, `u64` and `usize` beyond 2<sup>53</sup> lose
/// precision, as in JSON).
///
/// ```
/// use mcp_lang_rmcp::server::Arg;
///
/// let args: [(&str, Arg<'_>); 2] = [("city", "Zürich".into()), ("count", 3.into())];
/// assert_eq!(args[1].1, Arg::Number(3.0));
/// assert_eq!(args[0].1.to_string(), "Zürich");
/// assert_eq!(args[1].1.to_string(), "3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg<'a> {
    /// Text, substituted as it is.
    Text(&'a str),
    /// A number.
    Number(f64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Self {
        Arg::Text(text)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(text: &'a String) -> Self {
        Arg::Text(text)
    }
}

macro_rules! number_args {
    (exact: $($exact:ty),*; wide: $($wide:ty),*) => {
        $(impl From<$exact> for Arg<'_> {
            fn from(n: $exact) -> Self {
                Arg::Number(f64::from(n))
            }
        })*
        $(impl From<$wide> for Arg<'_> {
            #[allow(clippy::cast_precision_loss)] // documented: beyond 2^53, as JSON
            fn from(n: $wide) -> Self {
                Arg::Number(n as f64)
            }
        })*
    };
}

number_args!(exact: i8, i16, i32, u8, u16, u32, f32, f64; wide: i64, u64, isize, usize);

/// Text as it is; a number in its shortest form (`3`, `2.5`), for catalogs that do
/// not format numbers themselves.
impl fmt::Display for Arg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Text(text) => f.write_str(text),
            Arg::Number(n) => write!(f, "{n}"),
        }
    }
}

/// A source of display text: the message `id` in exactly `language`, with `args`
/// substituted, or `None` when this catalog has no such message in that language.
///
/// Implementations do not fall back to another language; the callers decide what a
/// missing message means (a listed item keeps its own title; [`Language::text`]
/// falls back to the server's default language, then to the id).
///
/// [`Language::text`]: super::Language::text
///
/// ```
/// use mcp_lang_rmcp::server::{Arg, Catalog};
///
/// struct Shouting;
///
/// impl Catalog for Shouting {
///     fn message(&self, language: &str, id: &str, _args: &[(&str, Arg<'_>)]) -> Option<String> {
///         (language == "en").then(|| id.to_uppercase())
///     }
/// }
///
/// assert_eq!(Shouting.message("en", "tool-divide", &[]).as_deref(), Some("TOOL-DIVIDE"));
/// assert_eq!(Shouting.message("fr", "tool-divide", &[]), None);
/// ```
pub trait Catalog: Send + Sync + 'static {
    /// The message `id` in `language` with `args` (name, value) substituted: text as
    /// it is, a number as `language` writes it, selecting plural forms where the
    /// message has them.
    fn message(&self, language: &str, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String>;
}

impl<C: Catalog + ?Sized> Catalog for Arc<C> {
    fn message(&self, language: &str, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
        (**self).message(language, id, args)
    }
}

impl<C: Catalog + ?Sized> Catalog for Box<C> {
    fn message(&self, language: &str, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
        (**self).message(language, id, args)
    }
}

/// A [`Catalog`] made of a closure; see [`catalog_fn`].
///
/// ```
/// use mcp_lang_rmcp::server::{Arg, Catalog, catalog_fn};
///
/// let catalog = catalog_fn(|_: &str, id: &str, _: &[(&str, Arg<'_>)]| Some(id.to_owned()));
/// assert_eq!(catalog.message("en", "server", &[]).as_deref(), Some("server"));
/// ```
#[derive(Clone, Copy)]
pub struct FnCatalog<F>(F);

impl<F> fmt::Debug for FnCatalog<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FnCatalog(..)")
    }
}

impl<F> Catalog for FnCatalog<F>
where
    F: Fn(&str, &str, &[(&str, Arg<'_>)]) -> Option<String> + Send + Sync + 'static,
{
    fn message(&self, language: &str, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
        (self.0)(language, id, args)
    }
}

/// A [`Catalog`] from a closure `(language, id, args) -> Option<String>`: the way to
/// plug in a map, a database or another i18n library.
///
/// ```
/// use std::collections::HashMap;
/// use mcp_lang_rmcp::server::{Arg, Catalog, catalog_fn};
///
/// let texts = HashMap::from([
///     (("fr", "tool-countdown"), "Compte à rebours"),
///     (("fr", "countdown-step"), "Plus que {n}…"),
/// ]);
/// let catalog = catalog_fn(move |language: &str, id: &str, args: &[(&str, Arg<'_>)]| {
///     let text = texts.get(&(language, id))?;
///     Some(args.iter().fold(text.to_string(), |t, (k, v)| t.replace(&format!("{{{k}}}"), &v.to_string())))
/// });
/// assert_eq!(catalog.message("fr", "countdown-step", &[("n", 3.into())]).as_deref(), Some("Plus que 3…"));
/// assert_eq!(catalog.message("de", "tool-countdown", &[]), None);
/// ```
pub fn catalog_fn<F>(f: F) -> FnCatalog<F>
where
    F: Fn(&str, &str, &[(&str, Arg<'_>)]) -> Option<String> + Send + Sync + 'static,
{
    FnCatalog(f)
}

/// One display field of a listed item (or of the server), and its message id in the
/// naming scheme of [`Titles`].
///
/// ```
/// use mcp_lang_rmcp::server::Field;
///
/// assert_eq!(Field::ToolTitle("weather_current").id(), "tool-weather_current");
/// assert_eq!(
///     Field::PromptArgumentTitle { prompt: "plan_trip", argument: "city" }.id(),
///     "prompt-plan_trip.arg-city"
/// );
/// assert_eq!(Field::ServerTitle.id(), "server");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field<'a> {
    /// `serverInfo.title`.
    ServerTitle,
    /// `serverInfo.description`.
    ServerDescription,
    /// `Tool.title` of the named tool.
    ToolTitle(&'a str),
    /// `ToolAnnotations.title` of the named tool.
    ToolAnnotationTitle(&'a str),
    /// `Tool.description` of the named tool.
    ToolDescription(&'a str),
    /// `Prompt.title` of the named prompt.
    PromptTitle(&'a str),
    /// `Prompt.description` of the named prompt.
    PromptDescription(&'a str),
    /// `PromptArgument.title` of one argument of a prompt.
    PromptArgumentTitle {
        /// The prompt's name.
        prompt: &'a str,
        /// The argument's name.
        argument: &'a str,
    },
    /// `PromptArgument.description` of one argument of a prompt.
    PromptArgumentDescription {
        /// The prompt's name.
        prompt: &'a str,
        /// The argument's name.
        argument: &'a str,
    },
    /// `Resource.title` of the named resource.
    ResourceTitle(&'a str),
    /// `Resource.description` of the named resource.
    ResourceDescription(&'a str),
    /// `ResourceTemplate.title` of the named template.
    TemplateTitle(&'a str),
    /// `ResourceTemplate.description` of the named template.
    TemplateDescription(&'a str),
}

impl Field<'_> {
    /// The message id: `KIND-NAME`, with `.attribute` for the fields other than a title.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::Field;
    ///
    /// assert_eq!(Field::ToolAnnotationTitle("divide").id(), "tool-divide.annotation-title");
    /// assert_eq!(Field::TemplateDescription("doc").id(), "template-doc.description");
    /// ```
    pub fn id(&self) -> String {
        match *self {
            Field::ServerTitle => "server".to_owned(),
            Field::ServerDescription => "server.description".to_owned(),
            Field::ToolTitle(name) => format!("tool-{name}"),
            Field::ToolAnnotationTitle(name) => format!("tool-{name}.annotation-title"),
            Field::ToolDescription(name) => format!("tool-{name}.description"),
            Field::PromptTitle(name) => format!("prompt-{name}"),
            Field::PromptDescription(name) => format!("prompt-{name}.description"),
            Field::PromptArgumentTitle { prompt, argument } => {
                format!("prompt-{prompt}.arg-{argument}")
            }
            Field::PromptArgumentDescription { prompt, argument } => {
                format!("prompt-{prompt}.arg-{argument}-description")
            }
            Field::ResourceTitle(name) => format!("resource-{name}"),
            Field::ResourceDescription(name) => format!("resource-{name}.description"),
            Field::TemplateTitle(name) => format!("template-{name}"),
            Field::TemplateDescription(name) => format!("template-{name}.description"),
        }
    }
}

/// Localizes the display fields of listed items and of `serverInfo` from a [`Catalog`],
/// in one language. Each method returns whether it replaced anything.
///
/// Titles are found by a fixed naming scheme, so that a server built with rmcp's
/// `#[tool_router]` / `#[prompt_router]` macros needs no hand-written `list_tools`: the
/// wrapper looks each listed item up by its name ([`Field::id`]).
///
/// | display field | message id |
/// |---|---|
/// | `serverInfo.title` (`initialize`, `server/discover`) | `server` |
/// | `serverInfo.description` | `server.description` |
/// | `Tool.title` | `tool-NAME` |
/// | `ToolAnnotations.title` | `tool-NAME.annotation-title` |
/// | `Tool.description` | `tool-NAME.description` |
/// | `Prompt.title` | `prompt-NAME` |
/// | `Prompt.description` | `prompt-NAME.description` |
/// | `PromptArgument.title` | `prompt-NAME.arg-ARGUMENT` |
/// | `PromptArgument.description` | `prompt-NAME.arg-ARGUMENT-description` |
/// | `Resource.title` | `resource-NAME` |
/// | `Resource.description` | `resource-NAME.description` |
/// | `ResourceTemplate.title` | `template-NAME` |
/// | `ResourceTemplate.description` | `template-NAME.description` |
///
/// `.x` is a Fluent attribute of the message; for other catalogs it is part of the id
/// string. Descriptions are model-facing (the SEP's "MAY" list) and are looked up only
/// when the server opts in ([`Titles::with_descriptions`]). Names (identifiers) are never
/// changed; an item the catalog has no text for keeps the text the handler gave it.
///
/// [`Localized`](super::Localized) does this to every list result and to `initialize`;
/// a server that builds its lists by hand can call it too.
///
/// ```
/// use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
/// use rmcp::model::Implementation;
///
/// let catalog = catalog_fn(|language: &str, id: &str, _: &[(&str, Arg<'_>)]| {
///     (language == "de" && id == "server").then(|| "Rechner".to_owned())
/// });
/// let mut info = Implementation::new("calculator", "1.0.0");
/// assert!(Titles::new(&catalog, "de").server(&mut info));
/// assert_eq!((info.name.as_str(), info.title.as_deref()), ("calculator", Some("Rechner")));
/// ```
#[derive(Clone, Copy)]
pub struct Titles<'a> {
    catalog: &'a dyn Catalog,
    language: &'a str,
    descriptions: bool,
}

impl fmt::Debug for Titles<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Titles")
            .field("language", &self.language)
            .field("descriptions", &self.descriptions)
            .finish_non_exhaustive()
    }
}

impl<'a> Titles<'a> {
    /// Titles (not descriptions) in `language` from `catalog`.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
    ///
    /// let catalog = catalog_fn(|_: &str, _: &str, _: &[(&str, Arg<'_>)]| None);
    /// let titles = Titles::new(&catalog, "ja");
    /// assert_eq!(titles.language(), "ja");
    /// ```
    pub fn new(catalog: &'a dyn Catalog, language: &'a str) -> Self {
        Self {
            catalog,
            language,
            descriptions: false,
        }
    }

    /// Also localize descriptions (model-facing text: the SEP's "MAY" list).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
    /// use rmcp::model::Tool;
    ///
    /// let catalog = catalog_fn(|_: &str, id: &str, _: &[(&str, Arg<'_>)]| {
    ///     (id == "tool-divide.description").then(|| "Divise a par b.".to_owned())
    /// });
    /// let mut tool: Tool = serde_json::from_value(serde_json::json!({
    ///     "name": "divide", "description": "Divides a by b.", "inputSchema": {"type": "object"}
    /// })).unwrap();
    /// assert!(!Titles::new(&catalog, "fr").tool(&mut tool)); // titles only: unchanged
    /// assert!(Titles::new(&catalog, "fr").with_descriptions(true).tool(&mut tool));
    /// assert_eq!(tool.description.as_deref(), Some("Divise a par b."));
    /// ```
    #[must_use]
    pub fn with_descriptions(mut self, descriptions: bool) -> Self {
        self.descriptions = descriptions;
        self
    }

    /// The language looked up.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
    ///
    /// let catalog = catalog_fn(|_: &str, _: &str, _: &[(&str, Arg<'_>)]| None);
    /// assert_eq!(Titles::new(&catalog, "fr-CA").language(), "fr-CA");
    /// ```
    pub fn language(&self) -> &str {
        self.language
    }

    fn text(&self, field: Field<'_>) -> Option<String> {
        self.catalog.message(self.language, &field.id(), &[])
    }

    /// Writes the catalog text of `field` into `slot` when there is one.
    fn set<T: From<String>>(&self, slot: &mut Option<T>, field: Field<'_>) -> bool {
        match self.text(field) {
            Some(text) => {
                *slot = Some(T::from(text));
                true
            }
            None => false,
        }
    }

    /// `serverInfo`: its title (and description when opted in).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
    /// use rmcp::model::Implementation;
    ///
    /// let catalog = catalog_fn(|_: &str, _: &str, _: &[(&str, Arg<'_>)]| None);
    /// let mut info = Implementation::new("calculator", "1.0.0");
    /// assert!(!Titles::new(&catalog, "de").server(&mut info)); // nothing to say: unchanged
    /// assert_eq!(info.title, None);
    /// ```
    pub fn server(&self, info: &mut Implementation) -> bool {
        let mut changed = self.set(&mut info.title, Field::ServerTitle);
        if self.descriptions {
            changed |= self.set(&mut info.description, Field::ServerDescription);
        }
        changed
    }

    /// A tool: its title and its annotations' title (and description when opted in).
    /// Its name, schemas and everything else stay as they are.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
    /// use rmcp::model::Tool;
    ///
    /// let catalog = catalog_fn(|_: &str, id: &str, _: &[(&str, Arg<'_>)]| match id {
    ///     "tool-divide" => Some("Teilen".to_owned()),
    ///     "tool-divide.annotation-title" => Some("Division (nur lesend)".to_owned()),
    ///     _ => None,
    /// });
    /// let mut tool: Tool = serde_json::from_value(serde_json::json!({
    ///     "name": "divide", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}
    /// })).unwrap();
    /// Titles::new(&catalog, "de").tool(&mut tool);
    /// let annotations = tool.annotations.as_ref().unwrap();
    /// assert_eq!(annotations.title.as_deref(), Some("Division (nur lesend)"));
    /// assert_eq!(annotations.read_only_hint, Some(true));
    /// ```
    pub fn tool(&self, tool: &mut Tool) -> bool {
        let name = tool.name.clone();
        let mut changed = self.set(&mut tool.title, Field::ToolTitle(&name));
        if let Some(title) = self.text(Field::ToolAnnotationTitle(&name)) {
            tool.annotations
                .get_or_insert_with(ToolAnnotations::default)
                .title = Some(title);
            changed = true;
        }
        if self.descriptions {
            let mut description: Option<String> = None;
            if self.set(&mut description, Field::ToolDescription(&name)) {
                tool.description = description.map(Cow::Owned);
                changed = true;
            }
        }
        changed
    }

    /// A prompt: its title and its arguments' titles (and descriptions when opted in).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
    /// use rmcp::model::{Prompt, PromptArgument};
    ///
    /// let catalog = catalog_fn(|_: &str, id: &str, _: &[(&str, Arg<'_>)]| match id {
    ///     "prompt-plan_trip" => Some("Planifier un voyage".to_owned()),
    ///     "prompt-plan_trip.arg-city" => Some("Ville".to_owned()),
    ///     _ => None,
    /// });
    /// let mut prompt = Prompt::new("plan_trip", Some("Plan a trip."), Some(vec![PromptArgument::new("city")]));
    /// Titles::new(&catalog, "fr").prompt(&mut prompt);
    /// assert_eq!(prompt.title.as_deref(), Some("Planifier un voyage"));
    /// assert_eq!(prompt.arguments.unwrap()[0].title.as_deref(), Some("Ville"));
    /// ```
    pub fn prompt(&self, prompt: &mut Prompt) -> bool {
        let name = prompt.name.clone();
        let mut changed = self.set(&mut prompt.title, Field::PromptTitle(&name));
        if self.descriptions {
            changed |= self.set(&mut prompt.description, Field::PromptDescription(&name));
        }
        for argument in prompt.arguments.iter_mut().flatten() {
            let field = Field::PromptArgumentTitle {
                prompt: &name,
                argument: &argument.name,
            };
            changed |= self.set(&mut argument.title, field);
            if self.descriptions {
                let field = Field::PromptArgumentDescription {
                    prompt: &name,
                    argument: &argument.name,
                };
                changed |= self.set(&mut argument.description, field);
            }
        }
        changed
    }

    /// A resource: its title (and description when opted in). The URI never changes.
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
    /// use rmcp::model::Resource;
    ///
    /// let catalog = catalog_fn(|_: &str, id: &str, _: &[(&str, Arg<'_>)]| {
    ///     (id == "resource-languages").then(|| "Langues prises en charge".to_owned())
    /// });
    /// let mut resource = Resource::new("mcp-lang://languages", "languages");
    /// Titles::new(&catalog, "fr").resource(&mut resource);
    /// assert_eq!(resource.title.as_deref(), Some("Langues prises en charge"));
    /// assert_eq!(resource.uri, "mcp-lang://languages");
    /// ```
    pub fn resource(&self, resource: &mut Resource) -> bool {
        let name = resource.name.clone();
        let mut changed = self.set(&mut resource.title, Field::ResourceTitle(&name));
        if self.descriptions {
            changed |= self.set(&mut resource.description, Field::ResourceDescription(&name));
        }
        changed
    }

    /// A resource template: its title (and description when opted in).
    ///
    /// ```
    /// use mcp_lang_rmcp::server::{Arg, Titles, catalog_fn};
    /// use rmcp::model::ResourceTemplate;
    ///
    /// let catalog = catalog_fn(|_: &str, id: &str, _: &[(&str, Arg<'_>)]| {
    ///     (id == "template-official_document").then(|| "Amtliches Dokument".to_owned())
    /// });
    /// let mut template = ResourceTemplate::new("doc://{id}", "official_document");
    /// Titles::new(&catalog, "de").template(&mut template);
    /// assert_eq!(template.title.as_deref(), Some("Amtliches Dokument"));
    /// ```
    pub fn template(&self, template: &mut ResourceTemplate) -> bool {
        let name = template.name.clone();
        let mut changed = self.set(&mut template.title, Field::TemplateTitle(&name));
        if self.descriptions {
            changed |= self.set(&mut template.description, Field::TemplateDescription(&name));
        }
        changed
    }
}
