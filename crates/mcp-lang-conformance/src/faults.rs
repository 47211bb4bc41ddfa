//! The suite's self-test: every injected fault must make the scenario for the
//! rule it breaks fail.
//!
//! [`expected_failures`] names, for each `mcp_lang_reference::fault::Fault`,
//! the scenarios that check the rule it breaks. [`check`] runs those
//! scenarios against the embedded reference server with the fault injected
//! and says whether they failed where the fault acts: on both transports for
//! a handler or message fault, on HTTP for an HTTP fault. [`check_all`] does it for every
//! fault and gives the suite's score, faults caught out of faults injected.
//!
//! ```no_run
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let score = mcp_lang_conformance::faults::check_all().await.unwrap();
//! println!("faults caught: {}/{}", score.caught(), score.checks.len());
//! # });
//! ```

use mcp_lang_reference::fault::{Fault, FaultLayer};

use crate::run::{Config, Target, run};

/// The scenarios that must fail when `fault` is injected. Empty for a fault
/// no scenario is known to catch (the self-test then reports it uncaught).
///
/// ```
/// use mcp_lang_conformance::{faults::expected_failures, scenarios::find};
/// use mcp_lang_reference::fault::Fault;
///
/// assert_eq!(expected_failures(Fault::DropVary), ["cache.vary"]);
/// // Every name is a real scenario.
/// for fault in Fault::ALL {
///     assert!(expected_failures(*fault).iter().all(|id| find(id).is_some()), "{fault}");
/// }
/// ```
pub fn expected_failures(fault: Fault) -> &'static [&'static str] {
    match fault {
        Fault::ReusePreference => &["scope.omission"],
        Fault::StickyPreference => &["scope.change"],
        Fault::IgnoreWeights => &["match.weights"],
        Fault::IgnoreWildcard => &["match.wildcard"],
        Fault::CaseSensitiveMatch => &["match.case-insensitive"],
        Fault::ErrorOnUnmatched => &["match.fallback"],
        Fault::ErrorOnMalformed => &["match.malformed-ignored"],
        Fault::ReportPreference => &["discovery.content-language"],
        Fault::OmitContentLanguage => &["discovery.content-language"],
        Fault::UntranslatedTitles => &["discovery.titles-localized"],
        Fault::TranslateToolNames => &["discovery.names-stable", "identifiers.guard"],
        Fault::TranslateSchemaKeys => &["identifiers.guard"],
        Fault::TranslateElicitationKey => &["elicitation.stable-keys", "identifiers.guard"],
        Fault::ElicitationDefaultLanguage => &["elicitation.localized"],
        Fault::ProgressDefaultLanguage => &["progress.localized"],
        Fault::IgnoreExplicitLanguage => &["explicit.argument-wins"],
        Fault::OmitErrorLanguage => &["error.localized-meta"],
        Fault::LanguageDependentTtl => &["cache.ttl-scope"],
        Fault::SkipAgreementCheck => &["http.mismatch"],
        Fault::CaseInsensitiveAgreement => &["agree.case"],
        Fault::WhitespaceInsensitiveAgreement => &["agree.list-whitespace"],
        Fault::SemanticAgreement => &["agree.q-spelling"],
        Fault::FirstLineOnly => &["agree.every-line"],
        Fault::GrammarBeforeAgreement => &["agree.before-grammar"],
        Fault::RejectMissingHeader => &["http.missing-header"],
        Fault::BareHeaderPreference => &["http.bare-header"],
        Fault::DropVary => &["cache.vary"],
        Fault::ContentLanguageDiffers => &["http.response-mirror"],
        Fault::TwoContentLanguageLines => &["http.response-one-line"],
        Fault::OmitContentLanguageHeader => &["http.response-mirror"],
        Fault::OmitErrorContentLanguageHeader => &["http.error-mirror"],
        Fault::SseContentLanguage => &["sse.header-agrees"],
        Fault::PublicWhenStripped => &["cache.stripped-header"],
        Fault::CacheByNegotiatedLanguage => &["cache.stripped-header"],
        Fault::WrongMismatchCode => &["http.mismatch"],
        Fault::QZeroAcceptable => &["match.exclusion"],
        Fault::PrimaryLanguageOnly => &["match.supported"],
        Fault::JoinWithoutSpace => &["agree.two-lines"],
        Fault::TrimMeta => &["agree.meta-untrimmed"],
        Fault::RejectAcceptLanguage => &["http.request-mirror"],
        Fault::OmitNotificationLanguage => &["notification.per-message-meta"],
        Fault::RewriteProgressToken => &["progress.stable-tokens"],
        _ => &[],
    }
}

/// The verdict on one fault.
///
/// ```
/// use mcp_lang_conformance::faults::check;
/// use mcp_lang_reference::fault::Fault;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let verdict = check(Fault::IgnoreWeights).await.unwrap();
/// assert!(verdict.caught, "{:?}", verdict.details);
/// assert_eq!(verdict.details.len(), 2); // match.weights on stdio and on HTTP
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct FaultCheck {
    /// The fault injected.
    pub fault: Fault,
    /// Whether every expected scenario failed on every transport the fault
    /// acts on.
    pub caught: bool,
    /// What each expected scenario did: `(scenario, transport, outcome, reason)`.
    pub details: Vec<(String, &'static str, &'static str, String)>,
}

/// The self-test's score.
///
/// ```
/// use mcp_lang_conformance::faults::{FaultCheck, Score};
/// use mcp_lang_reference::fault::Fault;
///
/// let score = Score { checks: vec![
///     FaultCheck { fault: Fault::DropVary, caught: true, details: Vec::new() },
///     FaultCheck { fault: Fault::TrimMeta, caught: false, details: Vec::new() },
/// ]};
/// assert_eq!((score.caught(), score.missed()), (1, vec![Fault::TrimMeta]));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Score {
    /// One verdict per fault.
    pub checks: Vec<FaultCheck>,
}

impl Score {
    /// Faults caught.
    ///
    /// ```
    /// use mcp_lang_conformance::faults::{FaultCheck, Score};
    /// use mcp_lang_reference::fault::Fault;
    ///
    /// let score = Score { checks: vec![FaultCheck { fault: Fault::DropVary, caught: true, details: Vec::new() }] };
    /// assert_eq!(score.caught(), 1);
    /// ```
    pub fn caught(&self) -> usize {
        self.checks.iter().filter(|c| c.caught).count()
    }

    /// The faults that got through.
    ///
    /// ```
    /// use mcp_lang_conformance::faults::Score;
    ///
    /// assert!(Score::default().missed().is_empty());
    /// ```
    pub fn missed(&self) -> Vec<Fault> {
        self.checks
            .iter()
            .filter(|c| !c.caught)
            .map(|c| c.fault)
            .collect()
    }
}

/// Injects `fault` into the embedded reference server and runs the scenarios
/// that should catch it.
///
/// # Errors
///
/// The embedded server could not be started.
///
/// ```
/// use mcp_lang_conformance::faults::check;
/// use mcp_lang_reference::fault::Fault;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// // An HTTP fault is looked for on HTTP only.
/// let verdict = check(Fault::DropVary).await.unwrap();
/// assert!(verdict.caught);
/// assert!(verdict.details.iter().all(|(_, transport, _, _)| *transport == "http"));
/// # });
/// ```
pub async fn check(fault: Fault) -> Result<FaultCheck, String> {
    let expected = expected_failures(fault);
    if expected.is_empty() {
        return Ok(FaultCheck {
            fault,
            caught: false,
            details: Vec::new(),
        });
    }
    let mut config = Config::new(Target::Embedded);
    config.fault = Some(fault);
    config.client_side = false;
    config.only = expected.iter().map(|s| (*s).to_owned()).collect();
    let report = run(&config).await?;
    let transports: &[&str] = match fault.layer() {
        FaultLayer::Handler | FaultLayer::Message => &["stdio", "http"],
        FaultLayer::Http => &["http"],
    };
    let mut caught = true;
    let mut details = Vec::new();
    for id in expected {
        for transport in transports {
            let row = report
                .rows
                .iter()
                .find(|r| r.scenario.id == *id && r.transport == *transport);
            let (outcome, reason) = row.map_or(("missing", String::new()), |r| {
                (r.outcome.as_str(), r.outcome.reason().to_owned())
            });
            caught &= outcome == "fail";
            details.push(((*id).to_owned(), *transport, outcome, reason));
        }
    }
    Ok(FaultCheck {
        fault,
        caught,
        details,
    })
}

/// [`check`] for every fault.
///
/// # Errors
///
/// The embedded server could not be started.
///
/// `no_run`: it starts the embedded server once per fault (about forty runs);
/// `cargo test -p mcp-lang-conformance` runs it as a test.
///
/// ```no_run
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let score = mcp_lang_conformance::faults::check_all().await.unwrap();
/// assert!(score.missed().is_empty(), "{:?}", score.missed());
/// # });
/// ```
pub async fn check_all() -> Result<Score, String> {
    let mut score = Score::default();
    for fault in Fault::ALL {
        score.checks.push(check(*fault).await?);
    }
    Ok(score)
}
