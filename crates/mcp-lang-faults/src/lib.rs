//! The test bench of the SEP-2792 conformance suite: the reference server
//! made to break one SEP-2792 rule on purpose (a [`Fault`]), so that the
//! suite can prove each of its scenarios fails when its rule is broken, and
//! server variants that take a liberty the SEP gives (a [`Latitude`]), so
//! that it can prove it does not fail a server that conforms. The
//! [`self_test`] runs the suite against every one of them.
//!
//! This crate is not published: the suite (`mcp-lang-conformance`) is a
//! client that depends on no server, and this crate holds the servers it is
//! tested against. Use it to work on the suite: to add a scenario, add the
//! fault it must catch; to accept a reading the SEP allows, add the latitude
//! it must pass.
//!
//! `mcp-lang-faults serve --fault NAME` runs the reference server with one
//! fault, `mcp-lang-faults serve --latitude NAME` with one latitude,
//! `mcp-lang-faults self-test` runs the matrix, `mcp-lang-faults list`
//! names them all, and `mcp-lang-faults proxy --fault NAME --profile FILE --
//! COMMAND` applies a fault to any stdio server from outside it ([`proxy`];
//! the mutation bench of `tests/mutation_bench.rs` runs the suite through it
//! against servers on the official Python and TypeScript SDKs and publishes
//! what it catches in `mutation-bench.md`). Every alteration wraps exactly
//! what `mcp-lang serve`
//! ships (`mcp_lang_reference::serve`: one HTTP router, one stdio
//! transport); nothing here is a second server. [`Bench`] is one run of the
//! suite against an altered server over both transports:
//!
//! ```no_run
//! use mcp_lang_conformance::{Config, Target, Verdict};
//! use mcp_lang_faults::{Bench, Fault};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let mut config = Config::new(Target::Url(String::new())); // the bench sets the target
//! config.only = Fault::IgnoreWeights.caught_by().iter().map(|s| s.to_string()).collect();
//! let bench = Bench::new("target/debug/mcp-lang-faults").alteration(Fault::IgnoreWeights);
//! let report = bench.run(config).await.unwrap();
//! assert_eq!(report.verdict(), Verdict::Failed, "{}", report.table());
//! # });
//! ```
//!
//! # Where a fault acts
//!
//! A fault lives where the behaviour it breaks lives ([`FaultLayer`]):
//!
//! - **Handler** faults wrap the reference server's rmcp `ServerHandler` in
//!   another one that alters the request before the real handler runs (the
//!   preference it sees, the arguments) or the result after it (names, keys,
//!   `contentLanguage`). They act on every transport.
//! - **HTTP** faults wrap the Streamable HTTP stack (the `mcp-lang-http`
//!   language layer in front of rmcp's service) in a tower service that alters
//!   requests before the language layer sees them (which is how a server that
//!   skips or loosens the agreement check behaves from the wire) or responses
//!   after it (headers, a language-keyed response cache). They act on
//!   Streamable HTTP only.
//! - **Message** faults alter the JSON-RPC messages the server sends, after
//!   the handler: in the stdio transport, and in the event streams of
//!   Streamable HTTP. They act on every transport.
//!
//! # The table
//!
//! [`Fault::ALL`] is the table: each row gives the fault's name, its layer,
//! what it breaks ([`Fault::description`]) and the scenarios of which at
//! least one must fail when it is injected ([`Fault::caught_by`]). The
//! self-test ([`self_test`]) reads nothing else.
//!
//! ```
//! use mcp_lang_faults::{Fault, FaultLayer};
//!
//! let fault: Fault = "drop-vary".parse().unwrap();
//! assert_eq!(fault.layer(), FaultLayer::Http);
//! assert_eq!(fault.caught_by(), ["cache.vary", "sse.vary"]);
//! assert!("no-such-fault".parse::<Fault>().is_err());
//! ```

mod bench;
mod handler;
mod http;
mod latitude;
mod message;
mod misreading;
pub mod proxy;
mod relay;
pub mod self_test;
mod stdio;

use std::str::FromStr;

pub use bench::Bench;
pub use handler::AlteredServer;
pub use http::{AlterationService, http_router, spawn_http};
pub use latitude::Latitude;
pub use relay::Served;
pub use stdio::{serve_stdio, serve_stream};

/// What the served reference server is made to do: break one rule, or take
/// one latitude.
///
/// ```
/// use mcp_lang_faults::{Alteration, Fault, FaultLayer, Latitude};
///
/// let alteration: Alteration = Fault::DropVary.into();
/// assert_eq!(alteration.layer(), FaultLayer::Http);
/// assert_eq!(alteration.to_string(), "fault drop-vary");
/// assert_eq!(Alteration::from(Latitude::UntranslatedErrors).layer(), FaultLayer::Handler);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alteration {
    /// A broken rule: the suite must catch it.
    Fault(Fault),
    /// A liberty the SEP gives: the suite must pass it.
    Latitude(Latitude),
}

impl Alteration {
    /// Where it acts.
    ///
    /// ```
    /// use mcp_lang_faults::{Alteration, Fault, FaultLayer};
    ///
    /// assert_eq!(Alteration::Fault(Fault::IgnoreWeights).layer(), FaultLayer::Handler);
    /// ```
    pub fn layer(self) -> FaultLayer {
        match self {
            Self::Fault(f) => f.layer(),
            Self::Latitude(l) => l.layer(),
        }
    }

    /// Its name (the fault's or the latitude's).
    ///
    /// ```
    /// use mcp_lang_faults::{Alteration, Latitude};
    ///
    /// assert_eq!(Alteration::Latitude(Latitude::OtherEqualChoice).name(), "other-equal-choice");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Self::Fault(f) => f.name(),
            Self::Latitude(l) => l.name(),
        }
    }
}

impl From<Fault> for Alteration {
    fn from(fault: Fault) -> Self {
        Self::Fault(fault)
    }
}

impl From<Latitude> for Alteration {
    fn from(latitude: Latitude) -> Self {
        Self::Latitude(latitude)
    }
}

impl std::fmt::Display for Alteration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Fault(fault) => write!(f, "fault {fault}"),
            Self::Latitude(latitude) => write!(f, "latitude {latitude}"),
        }
    }
}

/// Where a fault acts.
///
/// ```
/// use mcp_lang_faults::{Fault, FaultLayer};
///
/// assert_eq!(Fault::IgnoreWeights.layer(), FaultLayer::Handler);
/// assert_eq!(Fault::SkipAgreementCheck.layer(), FaultLayer::Http);
/// assert_eq!(Fault::OmitNotificationLanguage.layer(), FaultLayer::Message);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultLayer {
    /// In the MCP handler: every transport.
    Handler,
    /// Around the Streamable HTTP stack: HTTP only.
    Http,
    /// Around the Streamable HTTP stack, on its JSON responses: HTTP only,
    /// and not where every answer is an event stream (a server with
    /// sessions answers every POST with one).
    HttpJson,
    /// In the MCP handler, on what reaches the client on the request's own
    /// stream only without sessions: an `input_required` result and its
    /// retry (protocol 2026-07-28 has them, the handshake protocol a session
    /// speaks has not), a log message (rmcp sends it on a session's
    /// standalone stream, not the request's). Every transport but HTTP with
    /// sessions.
    HandlerSessionless,
    /// On the messages the server sends, after the handler: every transport
    /// (in the stdio transport, and in the event streams of Streamable HTTP).
    Message,
    /// On the request's bytes, before any HTTP library reads them (a relay
    /// in front of the server): HTTP only.
    Wire,
}

impl FaultLayer {
    /// Whether a fault of this layer acts on stdio (every layer acts on
    /// Streamable HTTP).
    ///
    /// ```
    /// use mcp_lang_faults::FaultLayer;
    ///
    /// assert!(FaultLayer::Handler.acts_on_stdio());
    /// assert!(!FaultLayer::Http.acts_on_stdio());
    /// ```
    pub fn acts_on_stdio(self) -> bool {
        !matches!(self, Self::Http | Self::HttpJson | Self::Wire)
    }
}

macro_rules! faults {
    ($( $variant:ident = $name:literal, $layer:ident, [$($catcher:literal),+], $what:literal; )*) => {
        /// One broken rule. Each variant's name is its `--fault` spelling.
        ///
        /// ```
        /// use mcp_lang_faults::Fault;
        ///
        /// let fault: Fault = "trim-meta".parse().unwrap();
        /// assert_eq!(fault, Fault::TrimMeta);
        /// assert_eq!(fault.to_string(), "trim-meta");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Fault {
            $( #[doc = concat!("The fault that ", $what, ".")] $variant, )*
        }

        impl Fault {
            /// Every fault, in table order.
            ///
            /// ```
            /// use mcp_lang_faults::Fault;
            ///
            /// // Every name parses back to its fault: `--fault NAME` reaches each one.
            /// for fault in Fault::ALL {
            ///     assert_eq!(fault.name().parse::<Fault>(), Ok(*fault));
            /// }
            /// ```
            pub const ALL: &'static [Fault] = &[ $( Fault::$variant, )* ];

            /// The `--fault` name.
            ///
            /// ```
            /// use mcp_lang_faults::Fault;
            ///
            /// assert_eq!(Fault::FirstLineOnly.name(), "first-line-only");
            /// ```
            pub fn name(self) -> &'static str {
                match self { $( Fault::$variant => $name, )* }
            }

            /// Where the fault acts.
            ///
            /// ```
            /// use mcp_lang_faults::{Fault, FaultLayer};
            ///
            /// let http_only = Fault::ALL.iter().filter(|f| f.layer() == FaultLayer::Http).count();
            /// assert!(http_only > 0 && http_only < Fault::ALL.len());
            /// ```
            pub fn layer(self) -> FaultLayer {
                match self { $( Fault::$variant => FaultLayer::$layer, )* }
            }

            /// What the fault does, in one line.
            ///
            /// ```
            /// use mcp_lang_faults::Fault;
            ///
            /// assert_eq!(Fault::IgnoreWeights.description(), "ignores q-values: the first range wins");
            /// ```
            pub fn description(self) -> &'static str {
                match self { $( Fault::$variant => $what, )* }
            }

            /// The scenarios that check the rule the fault breaks: when it is
            /// injected, at least one of them must fail (or, for a rule the
            /// SEP states as a SHOULD, warn) on every transport it acts on,
            /// with and without a profile.
            ///
            /// ```
            /// use mcp_lang_faults::Fault;
            /// use mcp_lang_conformance::scenarios::find;
            ///
            /// assert_eq!(Fault::IgnoreWeights.caught_by(), ["match.weights"]);
            /// // Every name is a real scenario.
            /// for fault in Fault::ALL {
            ///     assert!(fault.caught_by().iter().all(|id| find(id).is_some()), "{fault}");
            /// }
            /// ```
            pub fn caught_by(self) -> &'static [&'static str] {
                match self { $( Fault::$variant => &[$($catcher),+], )* }
            }
        }
    };
}

faults! {
    ReusePreference = "reuse-preference", Handler, ["scope.omission"],
        "uses the previous request's preference when a request omits it";
    StickyPreference = "sticky-preference", Handler, ["scope.change", "scope.omission"],
        "binds the first preference to the server: later preferences are ignored";
    IgnoreWeights = "ignore-weights", Handler, ["match.weights"],
        "ignores q-values: the first range wins";
    WildcardCoversNamed = "wildcard-covers-named", Handler, ["match.wildcard"],
        "lets `*` rate the languages other ranges name too (`fr;q=0, *` accepts `fr`)";
    WildcardZeroExcludesAll = "wildcard-zero-excludes-all", Handler, ["match.wildcard"],
        "lets `*;q=0` exclude every language, the ones other ranges name included";
    CaseSensitiveMatch = "case-sensitive-match", Handler, ["match.case-insensitive"],
        "matches ranges to tags case-sensitively (byte for byte)";
    ErrorOnUnmatched = "error-on-unmatched", Handler, ["match.fallback"],
        "returns an error when no supported language matches";
    ErrorOnMalformed = "error-on-malformed", Handler, ["match.malformed-ignored"],
        "returns an error for a malformed preference";
    ReportPreference = "report-preference", Handler, ["discovery.content-language", "discovery.titles-localized"],
        "reports the preference's first range instead of the language used";
    OmitContentLanguage = "omit-content-language", Handler, ["discovery.content-language", "reporting.initialize", "reporting.prompts", "reporting.resources", "reporting.tool-results"],
        "omits contentLanguage from results";
    UntranslatedTitles = "untranslated-titles", Handler, ["discovery.titles-localized"],
        "leaves tool titles in the default language while reporting the selected one";
    TranslateToolNames = "translate-tool-names", Handler, ["discovery.names-stable", "identifiers.guard"],
        "translates tool names";
    TranslateSchemaKeys = "translate-schema-keys", Handler, ["identifiers.guard"],
        "translates the property keys of tool input schemas";
    TranslateElicitationKey = "translate-elicitation-key", Handler, ["elicitation.stable-keys", "identifiers.guard"],
        "translates the elicitation's property key";
    ElicitationDefaultLanguage = "elicitation-default-language", Handler, ["elicitation.localized"],
        "builds elicitations in the default language";
    ProgressDefaultLanguage = "progress-default-language", Handler, ["progress.localized"],
        "reports progress in the default language";
    IgnoreExplicitLanguage = "ignore-explicit-language", Handler, ["explicit.argument-wins"],
        "lets the preference override an explicit `language` argument";
    OmitErrorLanguage = "omit-error-language", Handler, ["error.localized-meta"],
        "localizes error messages without contentLanguage in error.data._meta";
    LanguageDependentTtl = "language-dependent-ttl", Handler, ["cache.ttl-scope"],
        "drops ttlMs from localized results: they stop being cacheable";
    QZeroAcceptable = "q-zero-acceptable", Handler, ["match.exclusion"],
        "treats q=0 as the lowest acceptable weight instead of \"not acceptable\"";
    PrimaryLanguageOnly = "primary-language-only", Handler, ["match.supported", "match.region-subtags"],
        "matches ranges on their primary language subtag only (`fr-CA` is served as `fr`)";
    RewriteProgressToken = "rewrite-progress-token", Handler, ["progress.stable-tokens"],
        "reports progress under a token of its own, not the client's";
    SkipAgreementCheck = "skip-agreement-check", Http, ["http.mismatch"],
        "accepts any Accept-Language without checking agreement";
    CaseInsensitiveAgreement = "case-insensitive-agreement", Http, ["agree.case"],
        "checks agreement ignoring ASCII case";
    WhitespaceInsensitiveAgreement = "whitespace-insensitive-agreement", Http, ["agree.list-whitespace"],
        "checks agreement ignoring whitespace inside the value";
    SemanticAgreement = "semantic-agreement", Http, ["agree.q-spelling"],
        "checks agreement on parsed ranges and q-values (semantic equality)";
    FirstLineOnly = "first-line-only", Http, ["agree.every-line"],
        "looks only at the first Accept-Language field line";
    GrammarBeforeAgreement = "grammar-before-agreement", Http, ["agree.before-grammar"],
        "checks grammar before agreement: a malformed value is dropped first";
    MissingHeaderDefault = "missing-header-default", Http, ["http.missing-header"],
        "serves a request whose _meta preference has no Accept-Language, but in its default language: the canonical _meta value is not used";
    BareHeaderPreference = "bare-header-preference", Http, ["http.bare-header"],
        "takes a bare Accept-Language (no _meta) as the preference";
    DropVary = "drop-vary", Http, ["cache.vary", "sse.vary"],
        "drops Vary";
    ContentLanguageDiffers = "content-language-differs", HttpJson, ["http.response-mirror"],
        "sends a Content-Language that differs from contentLanguage (case-folded)";
    TwoContentLanguageLines = "two-content-language-lines", HttpJson, ["http.response-one-line"],
        "sends Content-Language as two field lines";
    OmitContentLanguageHeader = "omit-content-language-header", HttpJson, ["http.response-mirror"],
        "omits Content-Language on JSON responses";
    OmitErrorContentLanguageHeader = "omit-error-content-language-header", HttpJson, ["http.error-mirror"],
        "omits Content-Language on error responses only";
    SseContentLanguage = "sse-content-language", Http, ["sse.header-agrees"],
        "declares the preference as the Content-Language of event streams";
    PublicWhenStripped = "public-when-stripped", Http, ["cache.stripped-header", "sse.stripped-header"],
        "drops Cache-Control: private when the header was stripped";
    CacheByNegotiatedLanguage = "cache-by-negotiated-language", HttpJson, ["cache.stripped-header"],
        "keys a response cache by the negotiated language, not the preference";
    WrongMismatchCode = "wrong-mismatch-code", Http, ["http.mismatch"],
        "answers a mismatch with 400 but a JSON-RPC code other than -32020";
    TrimMeta = "trim-meta", Http, ["agree.meta-untrimmed"],
        "trims the _meta value before comparing it with the header";
    JoinWithoutSpace = "join-without-space", Http, ["agree.two-lines"],
        "joins repeated Accept-Language lines with \",\" instead of \", \"";
    RejectAcceptLanguage = "reject-accept-language", Http, ["http.request-mirror"],
        "rejects every request that carries Accept-Language, agreeing or not";
    RepairMalformed = "repair-malformed", Handler, ["grammar.malformed-vectors"],
        "repairs a malformed preference by dropping the elements that are not well-formed and using the rest";
    LenientQValue = "lenient-q-value", Handler, ["grammar.malformed-vectors"],
        "reads any number as a q-value (`q=0.1234`, `q=1.5`, `q=.5`) instead of ignoring the malformed value";
    UnderscoreSeparator = "underscore-separator", Handler, ["grammar.malformed-vectors"],
        "reads `_` as `-` in a range (`fr_CA` as `fr-CA`) instead of ignoring the malformed value";
    RejectEmptyElements = "reject-empty-elements", Handler, ["grammar.valid-edges"],
        "takes a list with empty elements (`, fr`, `fr,,de`) for a malformed value";
    RejectUppercaseQ = "reject-uppercase-q", Handler, ["grammar.valid-edges"],
        "takes `Q=` for an unknown parameter: `fr;Q=0.5` is ignored as malformed";
    ErrorOnEmptyValue = "error-on-empty-value", Handler, ["grammar.valid-edges"],
        "returns an error for an empty preference (a list with no ranges)";
    DefaultNotNegotiated = "default-not-negotiated", Handler, ["match.default-negotiated"],
        "negotiates among its non-default languages only: the default is only the fallback (`en, fr;q=0.5` gets `fr`)";
    FirstRangesOnly = "first-ranges-only", Handler, ["match.long-lists"],
        "reads the first 64 ranges of a preference and ignores the rest";
    QAsInteger = "q-as-integer", Handler, ["match.q-decimals"],
        "reads the digits of a q-value after the point as an integer (`q=0.5` as 5, `q=0.45` as 45)";
    QZeroExcludesPrefix = "q0-excludes-prefix", Handler, ["match.exclusion-prefix", "match.region-subtags"],
        "lets a `q=0` range exclude its prefixes too (`en-US;q=0` excludes `en`)";
    OmitNotificationLanguage = "omit-notification-language", Message, ["notification.per-message-meta"],
        "drops contentLanguage from the notifications the server sends";
    ContentLanguageFromPreference = "content-language-from-preference", HttpJson, ["http.response-mirror"],
        "mirrors the preference's first range into Content-Language (`de-AT`) instead of the contentLanguage the body reports (`de`)";
    DropErrorVary = "drop-error-vary", HttpJson, ["cache.vary"],
        "drops Vary from error responses only";
    LogWithoutLanguage = "log-without-language", HandlerSessionless, ["reporting.every-message"],
        "sends a log message in the request's language without contentLanguage in its params._meta";
    NestedElicitationLanguage = "nested-elicitation-language", HandlerSessionless, ["reporting.every-message"],
        "reports an input_required result's language only inside its nested elicitation, not in result._meta";
    MislabelPromptText = "mislabel-prompt-text", Handler, ["reporting.labels"],
        "labels prompt text with the selected language while the text stays the default's";
    RetryFirstLanguage = "retry-first-language", HandlerSessionless, ["scope.retry"],
        "answers the retry of an input_required result in the first call's language";
    BindHandshakePreference = "bind-handshake-preference", Handler, ["scope.handshake"],
        "binds the preference of initialize (or server/discover) to later requests without one";
    TranslateResultKeys = "translate-result-keys", Handler, ["identifiers.result-keys"],
        "translates the property keys of a tool result's structuredContent";
    TranslateServerName = "translate-server-name", Handler, ["identifiers.server-name"],
        "translates serverInfo.name";
    FallbackFirstSupported = "fallback-first-supported", Handler, ["match.fallback"],
        "answers a preference nothing matches in its first supported language other than the default, not in the default";
    ErrorLanguageOutsideMeta = "error-language-outside-meta", Handler, ["error.localized-meta"],
        "puts a localized error's contentLanguage in error.data itself rather than in error.data._meta";
    PreferenceBeatsArgument = "preference-beats-argument", Handler, ["explicit.argument-wins"],
        "lets the preference override an explicit language argument when a request carries both";
    TrimAnyWhitespace = "trim-any-whitespace", Handler, ["grammar.malformed-vectors"],
        "trims elements with a Unicode-aware trim: CR, LF, VT, NBSP and spaces around the value pass as OWS";
    SpaceSeparatedRanges = "space-separated-ranges", Handler, ["grammar.malformed-vectors"],
        "reads ranges separated by spaces (`fr de`) as a list";
    SemicolonSeparatedRanges = "semicolon-separated-ranges", Handler, ["grammar.malformed-vectors"],
        "reads ranges separated by `;` (`fr;de`) as a list";
    StrayHyphensTolerated = "stray-hyphens-tolerated", Handler, ["grammar.malformed-vectors"],
        "drops empty subtags and hyphens at a range's ends (`fr-`, `-fr`, `fr--CA`)";
    LongSubtagsAccepted = "long-subtags-accepted", Handler, ["grammar.malformed-vectors"],
        "accepts subtags longer than eight characters (`fr-123456789`)";
    ExtendedRanges = "extended-ranges", Handler, ["grammar.malformed-vectors"],
        "reads RFC 4647 extended ranges (`fr-*`, `fr-*-CA`), which the field's basic ranges do not allow";
    UnknownParametersIgnored = "unknown-parameters-ignored", Handler, ["grammar.malformed-vectors"],
        "ignores parameters other than the weight (`fr;level=1`, `fr;q=0.5;x=y`, `fr;`)";
    LastWeightWins = "last-weight-wins", Handler, ["grammar.malformed-vectors"],
        "reads a range with several weights (`fr;q=0.5;q=0.4`) by its last one";
    WeightSpacesTolerated = "weight-spaces-tolerated", Handler, ["grammar.malformed-vectors"],
        "allows spaces around `=` and after the weight (`fr;q= 0.5`)";
    EmptyWeightAsOne = "empty-weight-as-one", Handler, ["grammar.malformed-vectors"],
        "reads a weight with no value (`fr;q=`, `fr;q`) as 1";
    QAboveOneClamped = "q-above-one-clamped", Handler, ["grammar.malformed-vectors"],
        "reads a q-value above 1 (`q=2`, `q=1.001`) as 1";
    ExtraDecimalsRounded = "extra-decimals-rounded", Handler, ["grammar.malformed-vectors"],
        "rounds a q-value of more than three decimals (`q=0.1234`) instead of ignoring the malformed value";
    NonAsciiStripped = "non-ascii-stripped", Handler, ["grammar.malformed-vectors"],
        "removes the characters that are not ASCII (`fré` is read as `fr`)";
    HtabNotOws = "htab-not-ows", Handler, ["grammar.valid-edges"],
        "takes a horizontal tab for a defect: only spaces are OWS";
    NoOwsAroundSemicolon = "no-ows-around-semicolon", Handler, ["grammar.valid-edges"],
        "takes whitespace around `;` (`fr ; q=0.5`) for a defect";
    QTrailingDotRejected = "q-trailing-dot-rejected", Handler, ["grammar.valid-edges"],
        "takes a q-value ending in a point (`q=1.`) for a defect";
    QOneDecimalOnly = "q-one-decimal-only", Handler, ["grammar.valid-edges"],
        "accepts q-values of at most one decimal: `q=0.05` and `q=1.000` are taken for a defect";
    LowestWeightWins = "lowest-weight-wins", Handler, ["match.weights"],
        "sorts ranges by ascending weight: the least preferred acceptable range wins";
    QTenthsOnly = "q-tenths-only", Handler, ["match.q-decimals"],
        "keeps one decimal of each weight (`q=0.45` is read as 0.4, `q=0.05` as 0)";
    LongValueIgnored = "long-value-ignored", Handler, ["match.long-lists"],
        "ignores a preference longer than 1 KiB as if it were absent";
    LastLineOnly = "last-line-only", Http, ["agree.two-lines"],
        "looks only at the last Accept-Language field line";
    LinesJoinedInReverse = "lines-joined-in-reverse", Http, ["agree.two-lines"],
        "joins repeated Accept-Language lines last first before comparing";
    ReserializedMetaAgreement = "reserialized-meta-agreement", Http, ["http.request-mirror", "agree.two-lines"],
        "compares the header with _meta as it writes it back (`fr,*;q=0.1`), not with _meta as sent";
    FirstRangeAgreement = "first-range-agreement", Http, ["agree.list-whitespace", "agree.q-spelling"],
        "compares only the first range of the header and of _meta";
    HeaderWinsOnMismatch = "header-wins-on-mismatch", Http, ["http.mismatch"],
        "answers a mismatch with the header's value as the preference instead of HTTP 400";
    DefaultContentLanguageLine = "default-content-language-line", HttpJson, ["http.response-one-line", "http.response-mirror"],
        "adds its default language as a second Content-Language line beside the one used";
    StreamDefaultLanguage = "stream-default-language", Http, ["sse.header-agrees"],
        "declares its default language as the Content-Language of every event stream";
    VaryContentLanguage = "vary-content-language", Http, ["cache.vary", "sse.vary"],
        "sends `Vary: Content-Language` instead of `Vary: Accept-Language`";
    MismatchAnsweredOk = "mismatch-answered-ok", Http, ["http.mismatch"],
        "answers a mismatch with the HeaderMismatch error but HTTP 200";
    AgreementIgnoringWeights = "agreement-ignoring-weights", Http, ["agree.q-spelling", "agree.list-whitespace"],
        "checks agreement on the ranges alone, their weights left out";
    MismatchUnprocessable = "mismatch-unprocessable", Http, ["http.mismatch"],
        "answers a mismatch with HTTP 422 instead of 400";
    PublicCacheControl = "public-cache-control", Http, ["cache.stripped-header", "sse.stripped-header"],
        "marks every answer `Cache-Control: public, max-age=60`, stripped header or not";
    ContentLanguageEchoesPreference = "content-language-echoes-preference", HttpJson, ["http.response-mirror"],
        "echoes the request's whole preference (`fr, *;q=0.1`) as Content-Language";
    RawFieldValue = "raw-field-value", Wire, ["agree.surrounding-whitespace"],
        "reads a field value as all that follows `: `, so whitespace around it takes part in the comparison";
    TrailingOwsKept = "trailing-ows-kept", Wire, ["agree.surrounding-whitespace"],
        "strips the whitespace before a field value but keeps the whitespace after it";
}

impl Fault {
    /// Whether the fault acts only in a tool that is not annotated read-only
    /// (the reference server's elicitation tool, `send_confirmation`), which
    /// the suite calls only when a profile names it: without a profile it
    /// has nothing to act on.
    ///
    /// ```
    /// use mcp_lang_faults::Fault;
    ///
    /// assert!(Fault::ElicitationDefaultLanguage.needs_profile());
    /// assert!(Fault::RetryFirstLanguage.needs_profile());
    /// assert!(!Fault::ProgressDefaultLanguage.needs_profile()); // `prepare_report` is read-only
    /// ```
    pub fn needs_profile(self) -> bool {
        matches!(
            self,
            Self::ElicitationDefaultLanguage
                | Self::TranslateElicitationKey
                | Self::NestedElicitationLanguage
                | Self::RetryFirstLanguage
        )
    }
}

/// A name that is not a fault (or not a latitude).
///
/// ```
/// use mcp_lang_faults::{Fault, UnknownName};
///
/// let err = "drop-every-header".parse::<Fault>().unwrap_err();
/// assert_eq!(err.name, "drop-every-header");
/// assert!(err.to_string().contains("known: reuse-preference"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// The name given.
    pub name: String,
    /// What it was meant to name: `"fault"` or `"latitude"`.
    pub kind: &'static str,
    /// The known names, space-separated.
    pub known: String,
}

impl std::fmt::Display for UnknownName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown {} `{}`; known: {}",
            self.kind, self.name, self.known
        )
    }
}

impl std::error::Error for UnknownName {}

impl FromStr for Fault {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Fault::ALL
            .iter()
            .copied()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownName {
                name: s.to_owned(),
                kind: "fault",
                known: Fault::ALL
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(" "),
            })
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
