//! What a scenario is, what it may use, and how it ends.
//!
//! A [`Scenario`] checks one rule of SEP-2792 and cites the sentence it checks.
//! It runs against a [`Ctx`]: one open connection to the target (stdio or
//! Streamable HTTP), the target's [`Profile`], and helpers that turn transport
//! failures into failures of the scenario. It ends with an [`Outcome`]: pass,
//! fail (with what was seen), or skip (with why it does not apply).

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use crate::http::HttpConnection;
use crate::profile::Profile;
use crate::stdio::StdioConnection;
use crate::wire::{Call, Exchange};

/// How a scenario ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The rule holds.
    Pass,
    /// The rule is broken; the text says what was seen.
    Fail(String),
    /// The scenario does not apply to this target; the text says why.
    Skip(String),
}

impl Outcome {
    /// `"pass"`, `"fail"` or `"skip"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail(_) => "fail",
            Self::Skip(_) => "skip",
        }
    }

    /// The reason of a failure or a skip.
    pub fn reason(&self) -> &str {
        match self {
            Self::Pass => "",
            Self::Fail(r) | Self::Skip(r) => r,
        }
    }

    /// Whether this is a failure.
    pub fn is_fail(&self) -> bool {
        matches!(self, Self::Fail(_))
    }
}

/// What a scenario needs from the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Needs {
    /// Any transport: only `_meta` is looked at.
    Any,
    /// Streamable HTTP: field lines, status codes, caching headers. Skipped on stdio.
    Http,
    /// Nothing from the target: the scenario checks this project's client
    /// (`mcp-lang-rmcp`, `mcp-lang-http`, `mcp-lang-meta`) against a scripted server.
    Client,
}

/// The transport a run speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transport {
    /// JSON-RPC lines on a byte stream.
    Stdio,
    /// Streamable HTTP.
    Http,
}

impl Transport {
    /// `"stdio"` or `"http"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::Http => "http",
        }
    }
}

/// The future a scenario returns.
pub type ScenarioFuture<'a> = Pin<Box<dyn Future<Output = Outcome> + Send + 'a>>;

/// One check of one rule.
#[derive(Clone, Copy)]
pub struct Scenario {
    /// A stable identifier, `area.rule` (`match.weights`).
    pub id: &'static str,
    /// The item of the SEP's Conformance list it covers (1–10); 0 for a rule
    /// of the SEP outside that list (Security and Privacy's malformed value).
    pub item: u8,
    /// The rule, in a few words.
    pub rule: &'static str,
    /// The SEP sentence it checks, quoted.
    pub sep: &'static str,
    /// What it needs from the target.
    pub needs: Needs,
    /// The check.
    pub run: for<'a> fn(&'a mut Ctx) -> ScenarioFuture<'a>,
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

/// The open connection a scenario talks through.
#[derive(Debug)]
pub enum Connection {
    /// stdio (a process or an in-process pipe).
    Stdio(StdioConnection),
    /// Streamable HTTP.
    Http(HttpConnection),
}

/// Everything a scenario may use.
#[derive(Debug)]
pub struct Ctx {
    /// The connection to the target; `None` for client-side scenarios.
    pub connection: Option<Connection>,
    /// The target's languages and tools.
    pub profile: Profile,
}

/// A shortcut for scenarios: `Err(outcome)` ends the scenario with it.
pub type Step<T> = Result<T, Outcome>;

impl Ctx {
    /// The transport, if connected.
    pub fn transport(&self) -> Option<Transport> {
        match self.connection {
            Some(Connection::Stdio(_)) => Some(Transport::Stdio),
            Some(Connection::Http(_)) => Some(Transport::Http),
            None => None,
        }
    }

    /// The protocol version the connection speaks.
    pub fn protocol(&self) -> Option<&str> {
        match &self.connection {
            Some(Connection::Stdio(c)) => Some(c.protocol()),
            Some(Connection::Http(c)) => Some(c.protocol()),
            None => None,
        }
    }

    /// Sends `call`; a transport failure fails the scenario.
    pub async fn send(&mut self, call: Call) -> Step<Exchange> {
        let result = match &mut self.connection {
            Some(Connection::Stdio(c)) => c.send(&call).await,
            Some(Connection::Http(c)) => c.send(&call).await,
            None => return Err(Outcome::Skip("no target connection".into())),
        };
        result.map_err(|e| Outcome::Fail(format!("{} failed on the wire: {e}", call.method)))
    }

    /// Sends `call` and requires a JSON-RPC result (not an error, not an HTTP
    /// error status).
    pub async fn result(&mut self, call: Call) -> Step<Exchange> {
        let preference = call.preference.clone();
        let method = call.method.clone();
        let exchange = self.send(call).await?;
        if exchange.status.is_some_and(|s| s != 200) || exchange.result().is_none() {
            return Err(Outcome::Fail(format!(
                "{method} with acceptLanguage {preference:?} did not succeed: {}",
                exchange.summary()
            )));
        }
        Ok(exchange)
    }

    /// The `contentLanguage` string of a successful `call`, required.
    pub async fn language_of(&mut self, call: Call) -> Step<(String, Exchange)> {
        let preference = call.preference.clone();
        let method = call.method.clone();
        let exchange = self.result(call).await?;
        match exchange.content_language() {
            Some(Value::String(tag)) => Ok((tag.clone(), exchange)),
            Some(other) => Err(Outcome::Fail(format!(
                "{method} with acceptLanguage {preference:?}: contentLanguage is not a string: {other}"
            ))),
            None => Err(Outcome::Fail(format!(
                "{method} with acceptLanguage {preference:?}: no io.modelcontextprotocol/contentLanguage in result._meta"
            ))),
        }
    }

    /// Requires `n` supported languages besides the default, or skips.
    pub fn others(&self, n: usize) -> Step<Vec<String>> {
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

    /// Requires that the target lists a tool named `name`, or skips.
    pub async fn require_tool(&mut self, name: &str) -> Step<Value> {
        let exchange = self.result(Call::new("tools/list")).await?;
        exchange
            .result()
            .and_then(|r| r.get("tools"))
            .and_then(Value::as_array)
            .and_then(|tools| {
                tools
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
            })
            .cloned()
            .ok_or_else(|| {
                Outcome::Skip(format!(
                    "the target has no tool {name:?} (name another in the profile)"
                ))
            })
    }
}

/// Fails with `message` unless `condition` holds.
pub fn ensure(condition: bool, message: impl FnOnce() -> String) -> Step<()> {
    if condition {
        Ok(())
    } else {
        Err(Outcome::Fail(message()))
    }
}

/// Ends a scenario body: `Ok(())` passes, `Err(outcome)` is the outcome.
pub fn finish(step: Step<()>) -> Outcome {
    match step {
        Ok(()) => Outcome::Pass,
        Err(outcome) => outcome,
    }
}
