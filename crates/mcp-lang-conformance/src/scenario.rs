//! What a scenario is, what it may use, and how it ends.
//!
//! A [`Scenario`] checks one rule of SEP-2792 and cites the sentence it checks.
//! It runs against a [`Ctx`]: one open connection to the target (stdio or
//! Streamable HTTP), the target's [`Profile`], and helpers that turn transport
//! failures into failures of the scenario. It ends with an [`Outcome`]: pass,
//! fail (with what was seen), or skip (with why it does not apply).
//!
//! ```
//! use mcp_lang_conformance::{profile::Profile, scenario::{Ctx, Outcome}, scenarios::find};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! // A client-side scenario needs no target: run it by hand.
//! let scenario = find("client.privacy").unwrap();
//! let mut ctx = Ctx { connection: None, profile: Profile::new(vec!["en".into()], "en".into()).unwrap() };
//! assert_eq!((scenario.run)(&mut ctx).await, Outcome::Pass);
//! # });
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
/// ```
/// use mcp_lang_conformance::scenario::Outcome;
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
    /// The scenario does not apply to this target; the text says why.
    Skip(String),
}

impl Outcome {
    /// `"pass"`, `"fail"` or `"skip"`.
    ///
    /// ```
    /// use mcp_lang_conformance::scenario::Outcome;
    ///
    /// assert_eq!(Outcome::Pass.as_str(), "pass");
    /// assert_eq!(Outcome::Skip("stdio".into()).as_str(), "skip");
    /// ```
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail(_) => "fail",
            Self::Skip(_) => "skip",
        }
    }

    /// The reason of a failure or a skip.
    ///
    /// ```
    /// use mcp_lang_conformance::scenario::Outcome;
    ///
    /// assert_eq!(Outcome::Pass.reason(), "");
    /// assert_eq!(Outcome::Skip("needs HTTP".into()).reason(), "needs HTTP");
    /// ```
    pub fn reason(&self) -> &str {
        match self {
            Self::Pass => "",
            Self::Fail(r) | Self::Skip(r) => r,
        }
    }

    /// Whether this is a failure.
    ///
    /// ```
    /// use mcp_lang_conformance::scenario::Outcome;
    ///
    /// assert!(!Outcome::Skip("no elicitation tool".into()).is_fail());
    /// ```
    pub fn is_fail(&self) -> bool {
        matches!(self, Self::Fail(_))
    }
}

/// What a scenario needs from the target.
///
/// ```
/// use mcp_lang_conformance::{scenario::Needs, scenarios::find};
///
/// assert_eq!(find("match.weights").unwrap().needs, Needs::Any);
/// assert_eq!(find("http.mismatch").unwrap().needs, Needs::Http);
/// ```
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
///
/// ```
/// use mcp_lang_conformance::scenario::Transport;
///
/// assert_eq!(Transport::Http.as_str(), "http");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transport {
    /// JSON-RPC lines on a byte stream.
    Stdio,
    /// Streamable HTTP.
    Http,
}

impl Transport {
    /// `"stdio"` or `"http"`.
    ///
    /// ```
    /// use mcp_lang_conformance::scenario::Transport;
    ///
    /// assert_eq!([Transport::Stdio, Transport::Http].map(Transport::as_str), ["stdio", "http"]);
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::Http => "http",
        }
    }
}

/// The future a scenario returns.
///
/// ```
/// use mcp_lang_conformance::scenario::{Ctx, Outcome, ScenarioFuture};
///
/// // The shape of `Scenario::run`: a plain `fn` returning a boxed future.
/// fn always_passes(_: &mut Ctx) -> ScenarioFuture<'_> {
///     Box::pin(async { Outcome::Pass })
/// }
/// # let _ = always_passes;
/// ```
pub type ScenarioFuture<'a> = Pin<Box<dyn Future<Output = Outcome> + Send + 'a>>;

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
///
/// ```
/// use mcp_lang_conformance::{http::HttpConnection, scenario::Connection};
///
/// let connection = Connection::Http(HttpConnection::new("http://127.0.0.1:3000/mcp", "2026-07-28").unwrap());
/// assert!(matches!(connection, Connection::Http(_)));
/// ```
#[derive(Debug)]
pub enum Connection {
    /// stdio (a process or an in-process pipe).
    Stdio(StdioConnection),
    /// Streamable HTTP.
    Http(HttpConnection),
}

/// Everything a scenario may use.
///
/// ```
/// use mcp_lang_conformance::{profile::Profile, scenario::Ctx};
///
/// // A client-side scenario's context: no target.
/// let ctx = Ctx { connection: None, profile: Profile::new(vec!["en".into()], "en".into()).unwrap() };
/// assert_eq!(ctx.transport(), None);
/// ```
#[derive(Debug)]
pub struct Ctx {
    /// The connection to the target; `None` for client-side scenarios.
    pub connection: Option<Connection>,
    /// The target's languages and tools.
    pub profile: Profile,
}

/// A shortcut for scenarios: `Err(outcome)` ends the scenario with it.
///
/// ```
/// use mcp_lang_conformance::scenario::{Outcome, Step, ensure, finish};
///
/// fn check(tag: &str) -> Step<()> {
///     ensure(tag == "fr-CA", || format!("contentLanguage {tag:?}, expected \"fr-CA\""))?;
///     Ok(())
/// }
/// assert_eq!(finish(check("fr-CA")), Outcome::Pass);
/// assert!(finish(check("fr")).is_fail());
/// ```
pub type Step<T> = Result<T, Outcome>;

impl Ctx {
    /// The transport, if connected.
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
    /// # async fn embedded_ctx() -> mcp_lang_conformance::scenario::Ctx {
    /// #     use mcp_lang_conformance::{profile::Profile, scenario::{Connection, Ctx}};
    /// #     let profile = Profile::new(vec!["en".into(), "fr".into(), "fr-CA".into(), "de".into(), "ja".into(), "ga".into()], "en".into()).unwrap();
    /// #     Ctx { connection: Some(Connection::Stdio(embedded_stdio().await)), profile }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_lang_conformance::scenario::Transport;
    ///
    /// let ctx = embedded_ctx().await;
    /// assert_eq!(ctx.transport(), Some(Transport::Stdio));
    /// # });
    /// ```
    pub fn transport(&self) -> Option<Transport> {
        match self.connection {
            Some(Connection::Stdio(_)) => Some(Transport::Stdio),
            Some(Connection::Http(_)) => Some(Transport::Http),
            None => None,
        }
    }

    /// The protocol version the connection speaks.
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
    /// # async fn embedded_ctx() -> mcp_lang_conformance::scenario::Ctx {
    /// #     use mcp_lang_conformance::{profile::Profile, scenario::{Connection, Ctx}};
    /// #     let profile = Profile::new(vec!["en".into(), "fr".into(), "fr-CA".into(), "de".into(), "ja".into(), "ga".into()], "en".into()).unwrap();
    /// #     Ctx { connection: Some(Connection::Stdio(embedded_stdio().await)), profile }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let ctx = embedded_ctx().await;
    /// assert_eq!(ctx.protocol(), Some("2026-07-28"));
    /// # });
    /// ```
    pub fn protocol(&self) -> Option<&str> {
        match &self.connection {
            Some(Connection::Stdio(c)) => Some(c.protocol()),
            Some(Connection::Http(c)) => Some(c.protocol()),
            None => None,
        }
    }

    /// Sends `call`; a transport failure fails the scenario.
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
    /// # async fn embedded_ctx() -> mcp_lang_conformance::scenario::Ctx {
    /// #     use mcp_lang_conformance::{profile::Profile, scenario::{Connection, Ctx}};
    /// #     let profile = Profile::new(vec!["en".into(), "fr".into(), "fr-CA".into(), "de".into(), "ja".into(), "ga".into()], "en".into()).unwrap();
    /// #     Ctx { connection: Some(Connection::Stdio(embedded_stdio().await)), profile }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_lang_conformance::wire::Call;
    ///
    /// let mut ctx = embedded_ctx().await;
    /// let exchange = ctx.send(Call::new("tools/list").preference("de")).await.unwrap();
    /// assert_eq!(exchange.content_language_str(), Some("de"));
    /// # });
    /// ```
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
    /// # async fn embedded_ctx() -> mcp_lang_conformance::scenario::Ctx {
    /// #     use mcp_lang_conformance::{profile::Profile, scenario::{Connection, Ctx}};
    /// #     let profile = Profile::new(vec!["en".into(), "fr".into(), "fr-CA".into(), "de".into(), "ja".into(), "ga".into()], "en".into()).unwrap();
    /// #     Ctx { connection: Some(Connection::Stdio(embedded_stdio().await)), profile }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_lang_conformance::wire::Call;
    /// use serde_json::json;
    ///
    /// let mut ctx = embedded_ctx().await;
    /// assert!(ctx.result(Call::new("tools/list")).await.is_ok());
    /// // A JSON-RPC error fails the scenario, saying what came back.
    /// let failed = ctx.result(Call::tool("no_such_tool", json!({}))).await.unwrap_err();
    /// assert!(failed.is_fail());
    /// # });
    /// ```
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
    /// # async fn embedded_ctx() -> mcp_lang_conformance::scenario::Ctx {
    /// #     use mcp_lang_conformance::{profile::Profile, scenario::{Connection, Ctx}};
    /// #     let profile = Profile::new(vec!["en".into(), "fr".into(), "fr-CA".into(), "de".into(), "ja".into(), "ga".into()], "en".into()).unwrap();
    /// #     Ctx { connection: Some(Connection::Stdio(embedded_stdio().await)), profile }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_lang_conformance::wire::Call;
    ///
    /// let mut ctx = embedded_ctx().await;
    /// let (tag, _) = ctx.language_of(Call::new("tools/list").preference("fr-CA,fr;q=0.9")).await.unwrap();
    /// assert_eq!(tag, "fr-CA");
    /// # });
    /// ```
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
    ///
    /// ```
    /// use mcp_lang_conformance::{profile::Profile, scenario::Ctx};
    ///
    /// let profile = Profile::new(vec!["en".into(), "de".into()], "en".into()).unwrap();
    /// let ctx = Ctx { connection: None, profile };
    /// assert_eq!(ctx.others(1).unwrap(), ["de"]);
    /// assert_eq!(ctx.others(2).unwrap_err().as_str(), "skip"); // not enough languages: skip, not fail
    /// ```
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
    /// # async fn embedded_ctx() -> mcp_lang_conformance::scenario::Ctx {
    /// #     use mcp_lang_conformance::{profile::Profile, scenario::{Connection, Ctx}};
    /// #     let profile = Profile::new(vec!["en".into(), "fr".into(), "fr-CA".into(), "de".into(), "ja".into(), "ga".into()], "en".into()).unwrap();
    /// #     Ctx { connection: Some(Connection::Stdio(embedded_stdio().await)), profile }
    /// # }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let mut ctx = embedded_ctx().await;
    /// let tool = ctx.require_tool("weather_current").await.unwrap();
    /// assert_eq!(tool["name"], "weather_current");
    /// assert_eq!(ctx.require_tool("teleport").await.unwrap_err().as_str(), "skip");
    /// # });
    /// ```
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
///
/// ```
/// use mcp_lang_conformance::scenario::{Outcome, ensure};
///
/// assert_eq!(ensure(true, || unreachable!()), Ok(()));
/// assert_eq!(ensure(false, || "no Vary".into()), Err(Outcome::Fail("no Vary".into())));
/// ```
pub fn ensure(condition: bool, message: impl FnOnce() -> String) -> Step<()> {
    if condition {
        Ok(())
    } else {
        Err(Outcome::Fail(message()))
    }
}

/// Ends a scenario body: `Ok(())` passes, `Err(outcome)` is the outcome.
///
/// ```
/// use mcp_lang_conformance::scenario::{Outcome, finish};
///
/// assert_eq!(finish(Ok(())), Outcome::Pass);
/// assert_eq!(finish(Err(Outcome::Skip("stdio".into()))), Outcome::Skip("stdio".into()));
/// ```
pub fn finish(step: Step<()>) -> Outcome {
    match step {
        Ok(()) => Outcome::Pass,
        Err(outcome) => outcome,
    }
}
