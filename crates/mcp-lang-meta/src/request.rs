//! The language of one request: what the client asked for, whether it was well formed,
//! and what the server chose.
//!
//! SEP-2792 makes the preference request-scoped: a server "MUST NOT bind it to a
//! connection or logical session" and "MUST NOT reuse a preference from an earlier
//! request". [`RequestLanguage`] is therefore built from one message and has no way to be
//! built from anything else: there is no setter, no default, and no state shared between
//! values. Keep it in the request's context (an HTTP request's extensions, a handler's
//! arguments) and drop it with the request. Everything produced while handling that
//! request (an input-required elicitation, a progress notification) uses its selection.
//!
//! ```
//! use mcp_lang_match::Negotiator;
//! use mcp_lang_meta::RequestLanguage;
//!
//! let negotiator = Negotiator::new(["en", "ja"], "en").unwrap();
//! // Two requests on the same connection: each has its own language.
//! let first = RequestLanguage::negotiate(Some("ja"), &negotiator);
//! let second = RequestLanguage::negotiate(None, &negotiator);
//! assert_eq!((first.selected(), second.selected()), ("ja", "en"));
//! ```

use mcp_lang_grammar::Quality;
use mcp_lang_match::{Negotiator, Reason, SupportedTag};
use serde_json::Value;

use crate::extract::{RawPreference, accept_language_from_value, extract_accept_language};
use crate::skim::ExtractError;

/// One request's language: the raw preference, whether it is well formed, and the
/// negotiated selection.
///
/// ```
/// use mcp_lang_match::{Negotiator, Reason};
/// use mcp_lang_meta::RequestLanguage;
///
/// let negotiator = Negotiator::new(["en", "fr", "fr-CA", "de"], "en").unwrap();
/// let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list",
///   "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CA,fr;q=0.9,en;q=0.5"}}}"#;
/// let lang = RequestLanguage::from_body(body, &negotiator).unwrap();
/// assert_eq!(lang.raw(), Some("fr-CA,fr;q=0.9,en;q=0.5")); // for cache keys (D10)
/// assert!(lang.is_well_formed());
/// assert_eq!(lang.selected(), "fr-CA");                    // for contentLanguage
/// assert_eq!(lang.reason(), Reason::Exact);
///
/// // A malformed preference is ignored as absent: the default, never an error.
/// let lang = RequestLanguage::negotiate(Some("fr;q=2"), &negotiator);
/// assert_eq!((lang.selected(), lang.reason()), ("en", Reason::Malformed));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestLanguage {
    raw: RawPreference<'static>,
    well_formed: bool,
    selected: Box<str>,
    quality: Quality,
    reason: Reason,
}

impl RequestLanguage {
    /// Negotiates a raw preference string (`None` when the request has none).
    ///
    /// ```
    /// use mcp_lang_match::{Negotiator, Reason};
    /// use mcp_lang_meta::RequestLanguage;
    ///
    /// let n = Negotiator::new(["en", "ja"], "en").unwrap();
    /// assert_eq!(RequestLanguage::negotiate(Some("ja-JP, en;q=0.1"), &n).selected(), "ja");
    /// assert_eq!(RequestLanguage::negotiate(None, &n).reason(), Reason::Absent);
    /// ```
    pub fn negotiate<T: SupportedTag>(
        raw: Option<&str>,
        negotiator: &Negotiator<T>,
    ) -> RequestLanguage {
        let raw = raw.map_or(RawPreference::Absent, |s| {
            RawPreference::String(s.to_owned().into())
        });
        Self::from_raw(raw, negotiator)
    }

    /// Negotiates a preference read from `_meta`. A value that is present but not a
    /// string is malformed, and so ignored as absent (SEP-2792, Security and Privacy).
    ///
    /// ```
    /// use mcp_lang_match::{Negotiator, Reason};
    /// use mcp_lang_meta::{RawPreference, RequestLanguage};
    ///
    /// let n = Negotiator::new(["en", "de"], "en").unwrap();
    /// let lang = RequestLanguage::from_raw(RawPreference::NotString, &n);
    /// assert_eq!((lang.selected(), lang.reason(), lang.is_well_formed()), ("en", Reason::Malformed, false));
    /// ```
    pub fn from_raw<T: SupportedTag>(
        raw: RawPreference<'_>,
        negotiator: &Negotiator<T>,
    ) -> RequestLanguage {
        let raw = raw.into_owned();
        let (well_formed, negotiation, reason) = match &raw {
            RawPreference::Absent => {
                let n = negotiator.negotiate_header(None);
                (true, n, n.reason())
            }
            // Not a string: malformed, so treated exactly like an absent preference.
            RawPreference::NotString => {
                (false, negotiator.negotiate_header(None), Reason::Malformed)
            }
            // One pass: the value is validated while it is negotiated, and a malformed
            // one gives the default with `Reason::Malformed`.
            RawPreference::String(s) => {
                let n = negotiator.negotiate_header(Some(s));
                (n.reason() != Reason::Malformed, n, n.reason())
            }
        };
        RequestLanguage {
            well_formed,
            selected: negotiation.tag().as_ref().into(),
            quality: negotiation.quality(),
            reason,
            raw,
        }
    }

    /// Reads the preference from a request body (raw bytes) and negotiates it.
    ///
    /// # Errors
    ///
    /// When the body is not valid JSON: that is not a language question, and the caller
    /// answers it the way it answers any unparsable request.
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    /// use mcp_lang_meta::RequestLanguage;
    ///
    /// let n = Negotiator::new(["en", "de"], "en").unwrap();
    /// let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call",
    ///     "params":{"name":"x","_meta":{"io.modelcontextprotocol/acceptLanguage":"de-AT, en;q=0.3"}}}"#;
    /// assert_eq!(RequestLanguage::from_body(body, &n).unwrap().selected(), "de");
    /// assert!(RequestLanguage::from_body(b"{\"jsonrpc\":", &n).is_err());
    /// ```
    pub fn from_body<T: SupportedTag>(
        body: &[u8],
        negotiator: &Negotiator<T>,
    ) -> Result<RequestLanguage, ExtractError> {
        extract_accept_language(body).map(|raw| Self::from_raw(raw, negotiator))
    }

    /// Reads the preference from a parsed request and negotiates it.
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    /// use mcp_lang_meta::RequestLanguage;
    /// use serde_json::json;
    ///
    /// let n = Negotiator::new(["en", "ga"], "en").unwrap();
    /// let req = json!({"jsonrpc":"2.0","id":5,"method":"prompts/list",
    ///     "params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"ga-IE"}}});
    /// assert_eq!(RequestLanguage::from_message(&req, &n).selected(), "ga");
    /// ```
    pub fn from_message<T: SupportedTag>(
        message: &Value,
        negotiator: &Negotiator<T>,
    ) -> RequestLanguage {
        Self::from_raw(accept_language_from_value(message), negotiator)
    }

    /// The raw preference exactly as the request carried it, or `None` when there was
    /// none or it was not a string. This, never the selection, goes into cache keys
    /// (decision D10).
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    /// use mcp_lang_meta::RequestLanguage;
    ///
    /// let n = Negotiator::new(["en", "fr"], "en").unwrap();
    /// // The raw value, not the selection: `FR-fr` and `fr` negotiate alike but are cached apart.
    /// assert_eq!(RequestLanguage::negotiate(Some("FR-fr"), &n).raw(), Some("FR-fr"));
    /// assert_eq!(RequestLanguage::negotiate(None, &n).raw(), None);
    /// ```
    pub fn raw(&self) -> Option<&str> {
        self.raw.as_str()
    }

    /// The raw preference, including "present but not a string".
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    /// use mcp_lang_meta::{RawPreference, RequestLanguage};
    /// use serde_json::json;
    ///
    /// let n = Negotiator::new(["en"], "en").unwrap();
    /// let req = json!({"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":7}}});
    /// let lang = RequestLanguage::from_message(&req, &n);
    /// assert_eq!(lang.raw(), None);
    /// assert_eq!(lang.raw_preference(), &RawPreference::NotString);
    /// ```
    pub fn raw_preference(&self) -> &RawPreference<'static> {
        &self.raw
    }

    /// Whether the preference is well formed (`Accept-Language` grammar, RFC 9110
    /// §12.5.4). An absent preference counts as well formed; a malformed one was ignored.
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    /// use mcp_lang_meta::RequestLanguage;
    ///
    /// let n = Negotiator::new(["en", "fr"], "en").unwrap();
    /// assert!(RequestLanguage::negotiate(Some("fr, en;q=0.5"), &n).is_well_formed());
    /// assert!(RequestLanguage::negotiate(None, &n).is_well_formed());
    /// assert!(!RequestLanguage::negotiate(Some("fr;q=2"), &n).is_well_formed());
    /// ```
    pub fn is_well_formed(&self) -> bool {
        self.well_formed
    }

    /// The negotiated language, in the server's spelling: the value to report as
    /// `contentLanguage` and to localize display text with.
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    /// use mcp_lang_meta::RequestLanguage;
    ///
    /// // The server's spelling of the tag, whatever case the client used.
    /// let n = Negotiator::new(["en", "zh-Hant"], "en").unwrap();
    /// assert_eq!(RequestLanguage::negotiate(Some("ZH-hant-TW"), &n).selected(), "zh-Hant");
    /// ```
    pub fn selected(&self) -> &str {
        &self.selected
    }

    /// The selection's quality (decision D4).
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    /// use mcp_lang_meta::RequestLanguage;
    ///
    /// let n = Negotiator::new(["en", "fr"], "en").unwrap();
    /// let lang = RequestLanguage::negotiate(Some("de, fr;q=0.7"), &n);
    /// assert_eq!((lang.selected(), lang.quality().get()), ("fr", 700));
    /// ```
    pub fn quality(&self) -> Quality {
        self.quality
    }

    /// Why the selection was made (`exact`, `truncated`, `default`, `malformed`…).
    ///
    /// ```
    /// use mcp_lang_match::{Negotiator, Reason};
    /// use mcp_lang_meta::RequestLanguage;
    ///
    /// let n = Negotiator::new(["en", "fr"], "en").unwrap();
    /// assert_eq!(RequestLanguage::negotiate(Some("fr"), &n).reason(), Reason::Exact);
    /// assert_eq!(RequestLanguage::negotiate(Some("fr-CH"), &n).reason(), Reason::Truncated);
    /// assert_eq!(RequestLanguage::negotiate(Some("ko"), &n).reason(), Reason::Default);
    /// ```
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// The language for content that a method or tool argument can select explicitly.
    ///
    /// SEP-2792: "If a method or tool has an explicit language argument, that argument
    /// SHOULD take precedence over the negotiated preference for the content it
    /// controls", and the preference "MAY provide a fallback when the explicit argument is
    /// absent". So an explicit argument wins; without one, the negotiated selection is
    /// used. Discovery and other display text keep using [`selected`](Self::selected).
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    /// use mcp_lang_meta::RequestLanguage;
    ///
    /// let n = Negotiator::new(["en", "ga"], "en").unwrap();
    /// let lang = RequestLanguage::negotiate(Some("en"), &n);
    /// assert_eq!(lang.for_content(Some("ga")), "ga"); // the Irish edition, as asked
    /// assert_eq!(lang.for_content(None), "en");
    /// assert_eq!(lang.selected(), "en");               // titles stay in the preference
    /// ```
    pub fn for_content<'a>(&'a self, explicit: Option<&'a str>) -> &'a str {
        explicit.unwrap_or(&self.selected)
    }
}
