//! What a scenario is, and how it ends.
//!
//! A [`Scenario`] checks one rule of SEP-2792 and cites the sentence it checks.
//! It runs against one open connection to the target (stdio or Streamable
//! HTTP) and the target's profile, and ends with an [`Outcome`]: pass, fail
//! (with what was seen), or skip (with why it could not provoke what it
//! checks). A scenario that could not provoke what it checks never passes.
//!
//! ```
//! use mcp_lang_conformance::scenarios::find;
//!
//! let scenario = find("match.weights").unwrap();
//! assert_eq!(scenario.item, 1); // the SEP's Conformance item
//! assert!(scenario.sep.contains("weights"));
//! ```

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use crate::http::HttpConnection;
use crate::profile::Profile;
use crate::stdio::StdioConnection;
use crate::wire::{Call, Exchange};

/// How a scenario ended.
///
/// A broken MUST or MUST NOT is a [`Fail`](Self::Fail); a declined SHOULD or
/// SHOULD NOT is a [`Warn`](Self::Warn), which the report lists but which
/// does not fail the run unless the run is strict (the official MCP
/// conformance suite's convention: FAILURE for a MUST, WARNING for a SHOULD).
///
/// ```
/// use mcp_lang_conformance::Outcome;
///
/// let outcome = Outcome::Fail("picked `fr` for `fr;q=0.1, de`".into());
/// assert!(outcome.is_fail());
/// assert_eq!((outcome.as_str(), outcome.reason()), ("fail", "picked `fr` for `fr;q=0.1, de`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The rule holds.
    Pass,
    /// The rule is broken; the text says what was seen.
    Fail(String),
    /// A SHOULD or SHOULD NOT is not followed; the text says what was seen.
    ///
    /// ```
    /// use mcp_lang_conformance::Outcome;
    ///
    /// let outcome = Outcome::Warn("the title is the same in fr and en".into());
    /// assert!(!outcome.is_fail() && outcome.is_warn());
    /// assert_eq!(outcome.as_str(), "warn");
    /// ```
    Warn(String),
    /// The scenario could not provoke what it checks on this target; the
    /// text says why.
    Skip(String),
}

impl Outcome {
    /// `"pass"`, `"fail"`, `"warn"` or `"skip"`.
    ///
    /// ```
    /// use mcp_lang_conformance::Outcome;
    ///
    /// assert_eq!(Outcome::Pass.as_str(), "pass");
    /// assert_eq!(Outcome::Skip("stdio".into()).as_str(), "skip");
    /// ```
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail(_) => "fail",
            Self::Warn(_) => "warn",
            Self::Skip(_) => "skip",
        }
    }

    /// What was seen (a failure or a warning) or why the scenario did not
    /// apply (a skip); empty for a pass.
    ///
    /// ```
    /// use mcp_lang_conformance::Outcome;
    ///
    /// assert_eq!(Outcome::Pass.reason(), "");
    /// assert_eq!(Outcome::Skip("needs HTTP".into()).reason(), "needs HTTP");
    /// ```
    pub fn reason(&self) -> &str {
        match self {
            Self::Pass => "",
            Self::Fail(r) | Self::Warn(r) | Self::Skip(r) => r,
        }
    }

    /// Whether the rule is broken.
    ///
    /// ```
    /// use mcp_lang_conformance::Outcome;
    ///
    /// assert!(!Outcome::Skip("no tool".into()).is_fail());
    /// ```
    pub fn is_fail(&self) -> bool {
        matches!(self, Self::Fail(_))
    }

    /// Whether a SHOULD or SHOULD NOT is not followed.
    ///
    /// ```
    /// use mcp_lang_conformance::Outcome;
    ///
    /// assert!(Outcome::Warn("untranslated".into()).is_warn());
    /// assert!(!Outcome::Fail("broken".into()).is_warn());
    /// ```
    pub fn is_warn(&self) -> bool {
        matches!(self, Self::Warn(_))
    }
}

/// What a scenario needs of the target.
///
/// ```
/// use mcp_lang_conformance::{Needs, scenarios::find};
///
/// assert_eq!(find("http.mismatch").unwrap().needs, Needs::Http);
/// assert_eq!(find("match.weights").unwrap().needs, Needs::Any);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Needs {
    /// Only `_meta`: it runs on stdio and on Streamable HTTP.
    Any,
    /// HTTP fields, status codes or caching headers: Streamable HTTP only.
    Http,
}

/// The transport a connection uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Transport {
    Stdio,
    Http,
}

impl Transport {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::Http => "http",
        }
    }
}

/// The future a scenario returns.
pub(crate) type ScenarioFuture<'a> = Pin<Box<dyn Future<Output = Outcome> + Send + 'a>>;

/// One check of one rule.
///
/// ```
/// use mcp_lang_conformance::scenarios::find;
///
/// let scenario = find("agree.before-grammar").unwrap();
/// assert_eq!(scenario.item, 7);
/// assert!(!scenario.sep.is_empty()); // the SEP sentence it checks
/// ```
#[derive(Clone, Copy)]
pub struct Scenario {
    /// A stable id, `area.rule` (`match.weights`).
    pub id: &'static str,
    /// The item of the SEP's Conformance list it covers (1–10).
    pub item: u8,
    /// The rule, in a line.
    pub rule: &'static str,
    /// The SEP sentence it checks, verbatim.
    pub sep: &'static str,
    /// What it needs of the target.
    pub needs: Needs,
    pub(crate) run: for<'a> fn(&'a mut Ctx) -> ScenarioFuture<'a>,
}

impl std::fmt::Debug for Scenario {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scenario")
            .field("id", &self.id)
            .field("item", &self.item)
            .field("needs", &self.needs)
            .finish_non_exhaustive()
    }
}

/// An open connection to the target.
#[derive(Debug)]
pub(crate) enum Connection {
    Stdio(StdioConnection),
    Http(HttpConnection),
}

/// What a scenario runs against.
#[derive(Debug)]
pub(crate) struct Ctx {
    pub(crate) connection: Connection,
    pub(crate) profile: Profile,
    /// Set when the server is gone (a stdio server that exited): why. Later
    /// scenarios are not run.
    pub(crate) gone: Option<String>,
    /// Whether `--protocol` chose the protocol (else it was negotiated).
    pub(crate) protocol_forced: bool,
}

/// A step of a scenario: `Err` ends it with that outcome.
pub(crate) type Step<T> = Result<T, Outcome>;

impl Ctx {
    pub(crate) fn new(connection: Connection, profile: Profile) -> Self {
        Self {
            connection,
            profile,
            gone: None,
            protocol_forced: false,
        }
    }

    pub(crate) fn transport(&self) -> Transport {
        match self.connection {
            Connection::Stdio(_) => Transport::Stdio,
            Connection::Http(_) => Transport::Http,
        }
    }

    pub(crate) fn protocol(&self) -> &str {
        match &self.connection {
            Connection::Stdio(c) => c.protocol(),
            Connection::Http(c) => c.protocol(),
        }
    }

    /// The skip for a check that needs protocol 2026-07-28 (`what` says
    /// why) on a connection that speaks an older one: when `--protocol`
    /// chose it, what to pass instead; when negotiation settled on it, that
    /// the server does not speak 2026-07-28, so no flag can help.
    pub(crate) fn needs_stateless(&self, what: &str) -> Outcome {
        let stateless = crate::wire::PROTOCOL_STATELESS;
        let spoken = self.protocol();
        Outcome::Skip(if self.protocol_forced {
            format!(
                "{what}; this run speaks {spoken} as --protocol asks: run with --protocol {stateless}"
            )
        } else {
            format!(
                "{what}; the server speaks {spoken}, and this check needs {stateless}, which it does not speak (negotiation fell back to {spoken})"
            )
        })
    }

    /// Sends `call`; a transport failure fails the scenario. When a stdio
    /// server has exited, the failure says with which status and what it
    /// last wrote on stderr, and the context remembers that it is gone.
    pub(crate) async fn send(&mut self, call: Call) -> Step<Exchange> {
        if let Some(gone) = &self.gone {
            return Err(Outcome::Skip(format!("not run: {gone}")));
        }
        let result = match &mut self.connection {
            Connection::Stdio(c) => c.send(&call).await,
            Connection::Http(c) => c.send(&call).await,
        };
        match result {
            Ok(exchange) => Ok(exchange),
            Err(e) => {
                if let Connection::Stdio(c) = &mut self.connection
                    && let Some(exit) = c.exited().await
                {
                    self.gone = Some(exit.clone());
                    return Err(Outcome::Fail(format!("{}: {exit}", call.method)));
                }
                Err(Outcome::Fail(format!(
                    "{} failed on the wire: {e}",
                    call.method
                )))
            }
        }
    }

    /// Sends `call` and requires a successful result.
    pub(crate) async fn result(&mut self, call: Call) -> Step<Exchange> {
        let preference = call.preference.phrase();
        let method = call.method.clone();
        let exchange = self.send(call).await?;
        if exchange.status.is_some_and(|s| s != 200) || exchange.result().is_none() {
            return Err(Outcome::Fail(format!(
                "{method} with {preference} did not succeed: {}",
                exchange.summary()
            )));
        }
        Ok(exchange)
    }

    /// Sends `call` and requires a result reporting a `contentLanguage`
    /// string; returns the language the report says the preference selected
    /// (one of several tags: [`crate::language::selected`]).
    pub(crate) async fn language_of(&mut self, call: Call) -> Step<(String, Exchange)> {
        let preference = call.preference.phrase();
        let method = call.method.clone();
        let exchange = self.result(call).await?;
        match exchange.content_language() {
            Some(Value::String(_)) => {
                let tag = exchange.selected_language().unwrap_or_default().to_owned();
                Ok((tag, exchange))
            }
            Some(other) => Err(Outcome::Fail(format!(
                "{method} with {preference}: contentLanguage is not a string: {other}"
            ))),
            None => Err(Outcome::Fail(format!(
                "{method} with {preference}: no io.modelcontextprotocol/contentLanguage in result._meta"
            ))),
        }
    }

    /// The supported languages besides the default; skips when there are
    /// fewer than `n`.
    pub(crate) fn others(&self, n: usize) -> Step<Vec<String>> {
        let others: Vec<String> = self
            .profile
            .supported
            .iter()
            .filter(|t| !t.eq_ignore_ascii_case(&self.profile.default))
            .cloned()
            .collect();
        if others.len() < n {
            return Err(Outcome::Skip(format!(
                "needs {n} supported language(s) besides the default; the profile has {}",
                others.len()
            )));
        }
        Ok(others)
    }

    /// The supported languages besides the default whose primary subtag
    /// differs from the default's: a translation into `en-GB` from `en` may
    /// rightly be identical, one into `fr` may not. Skips when there is none.
    pub(crate) fn translated_others(&self) -> Step<Vec<String>> {
        let primary = |t: &str| t.split('-').next().unwrap_or_default().to_ascii_lowercase();
        let default = primary(&self.profile.default);
        let others: Vec<String> = self
            .others(1)?
            .into_iter()
            .filter(|t| primary(t) != default)
            .collect();
        if others.is_empty() {
            return Err(Outcome::Skip(format!(
                "every supported language shares the default {}'s primary subtag; their texts may rightly be identical",
                Value::from(self.profile.default.as_str())
            )));
        }
        Ok(others)
    }

    /// The tool named `name` in `tools/list`; skips when there is none.
    pub(crate) async fn require_tool(&mut self, name: &str) -> Step<Value> {
        let exchange = self.result(Call::new("tools/list")).await?;
        exchange
            .items("tools")
            .into_iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
            .ok_or_else(|| {
                Outcome::Skip(format!(
                    "the target has no tool {} (name another in the profile)",
                    Value::from(name)
                ))
            })
    }
}

/// `Ok` when `condition` holds, else a failure with `message`.
pub(crate) fn ensure(condition: bool, message: impl FnOnce() -> String) -> Step<()> {
    if condition {
        Ok(())
    } else {
        Err(Outcome::Fail(message()))
    }
}

/// `Ok` when `condition` holds, else a warning with `message`: for a SHOULD
/// or SHOULD NOT, which a conforming server may decline.
pub(crate) fn should(condition: bool, message: impl FnOnce() -> String) -> Step<()> {
    if condition {
        Ok(())
    } else {
        Err(Outcome::Warn(message()))
    }
}

/// The outcome of a scenario's steps.
pub(crate) fn finish(step: Step<()>) -> Outcome {
    match step {
        Ok(()) => Outcome::Pass,
        Err(outcome) => outcome,
    }
}
