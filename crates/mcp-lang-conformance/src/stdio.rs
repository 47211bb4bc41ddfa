//! JSON-RPC over a byte stream, one message per line: the stdio transport.
//!
//! A [`StdioConnection`] writes one request line, then reads lines until the
//! response with the same id arrives, recording every notification and
//! server-to-client request in between (it answers those: an elicitation is
//! accepted, `ping` answered). It works over a child process's pipes
//! ([`StdioConnection::spawn`]) or any in-process pipe
//! ([`StdioConnection::new`]), which is how the embedded reference server is
//! reached without a process.
//!
//! ```
//! use mcp_lang_conformance::{stdio::StdioConnection, wire::Call};
//! use rmcp::ServiceExt;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! // The reference server on the other end of an in-process pipe.
//! let (server_io, client_io) = tokio::io::duplex(1 << 20);
//! let server = mcp_lang_reference::ReferenceServer::new().unwrap();
//! tokio::spawn(async move { if let Ok(s) = server.serve(server_io).await { let _ = s.waiting().await; } });
//! let (read, write) = tokio::io::split(client_io);
//! let mut stdio = StdioConnection::new(read, write, "2026-07-28");
//! let exchange = stdio.send(&Call::new("tools/list").preference("ja")).await.unwrap();
//! assert_eq!(exchange.content_language_str(), Some("ja"));
//! # });
//! ```

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

use crate::wire::{
    Call, Exchange, WireError, answer_server_request, is_server_request, is_stateless,
    stateless_meta,
};

type Reader = BufReader<Box<dyn AsyncRead + Unpin + Send>>;
type Writer = Box<dyn AsyncWrite + Unpin + Send>;

/// The longest line (one JSON-RPC message) the suite reads from a server:
/// a longer one fails the exchange instead of growing without bound.
///
/// ```
/// use mcp_lang_conformance::stdio::MAX_MESSAGE_BYTES;
///
/// assert_eq!(MAX_MESSAGE_BYTES, 16 * 1024 * 1024);
/// ```
pub const MAX_MESSAGE_BYTES: u64 = 16 << 20;

/// How long one request may take before the suite gives up on it.
///
/// ```
/// use mcp_lang_conformance::{run::SCENARIO_TIMEOUT, stdio::REQUEST_TIMEOUT};
///
/// // A scenario has room for several slow requests.
/// assert!(REQUEST_TIMEOUT * 5 < SCENARIO_TIMEOUT);
/// ```
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

/// One stdio connection (one logical client).
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
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use mcp_lang_conformance::wire::Call;
///
/// let mut stdio = embedded_stdio().await;
/// stdio.open().await.unwrap();
/// let exchange = stdio.send(&Call::new("tools/list").preference("ga")).await.unwrap();
/// assert_eq!(exchange.content_language_str(), Some("ga"));
/// stdio.close().await;
/// # });
/// ```
pub struct StdioConnection {
    reader: Reader,
    writer: Writer,
    next_id: i64,
    meta: Map<String, Value>,
    protocol: String,
    child: Option<Child>,
}

impl std::fmt::Debug for StdioConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StdioConnection")
            .field("next_id", &self.next_id)
            .field("protocol", &self.protocol)
            .finish_non_exhaustive()
    }
}

impl StdioConnection {
    /// A connection over a pipe; [`Self::open`] must run before requests.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_lang_conformance::stdio::StdioConnection;
    ///
    /// // Any pair of pipes will do; here, one end of an in-process duplex.
    /// let (_server_end, client_end) = tokio::io::duplex(4096);
    /// let (read, write) = tokio::io::split(client_end);
    /// let stdio = StdioConnection::new(read, write, "2025-11-25");
    /// assert_eq!(stdio.protocol(), "2025-11-25");
    /// # });
    /// ```
    pub fn new(
        reader: impl AsyncRead + Unpin + Send + 'static,
        writer: impl AsyncWrite + Unpin + Send + 'static,
        protocol: &str,
    ) -> Self {
        let meta = if is_stateless(protocol) {
            stateless_meta(protocol)
        } else {
            Map::new()
        };
        Self {
            reader: BufReader::new(Box::new(reader)),
            writer: Box::new(writer),
            next_id: 1,
            meta,
            protocol: protocol.to_owned(),
            child: None,
        }
    }

    /// Spawns `command` (split into words by [`split_command`]; the first
    /// word is the program) and connects to its stdin/stdout. Its stderr is
    /// discarded.
    ///
    /// # Errors
    ///
    /// The command is empty or cannot be started.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_lang_conformance::stdio::StdioConnection;
    ///
    /// assert!(StdioConnection::spawn("", "2026-07-28").is_err());
    /// assert!(StdioConnection::spawn("/no/such/mcp-server --stdio", "2026-07-28").is_err());
    /// # });
    /// ```
    pub fn spawn(command: &str, protocol: &str) -> Result<Self, WireError> {
        let words = split_command(command)?;
        let mut words = words.iter();
        let program = words
            .next()
            .ok_or_else(|| WireError("empty --stdio command".into()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| WireError(format!("cannot start {command:?}: {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| WireError("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| WireError("no stdout".into()))?;
        let mut connection = Self::new(stdout, stdin, protocol);
        connection.child = Some(child);
        Ok(connection)
    }

    /// Opens the session: the `initialize` handshake for handshake protocols,
    /// nothing for stateless ones (every request carries its own protocol
    /// `_meta`).
    ///
    /// # Errors
    ///
    /// The handshake failed.
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
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let mut stdio = embedded_stdio().await;
    /// // Stateless protocol: nothing to do; the first request carries its own protocol `_meta`.
    /// assert!(stdio.open().await.is_ok());
    /// # });
    /// ```
    pub async fn open(&mut self) -> Result<(), WireError> {
        if is_stateless(&self.protocol) {
            return Ok(());
        }
        let call = Call::new("initialize")
            .param("protocolVersion", json!(self.protocol))
            .param("capabilities", json!({ "elicitation": { "form": {} } }))
            .param(
                "clientInfo",
                json!({ "name": "mcp-lang-conformance", "version": env!("CARGO_PKG_VERSION") }),
            );
        let exchange = self.send(&call).await?;
        if exchange.result().is_none() {
            return Err(WireError(format!(
                "initialize failed: {}",
                exchange.summary()
            )));
        }
        self.write(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await
    }

    /// The protocol version this connection speaks.
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
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// assert_eq!(embedded_stdio().await.protocol(), "2026-07-28");
    /// # });
    /// ```
    pub fn protocol(&self) -> &str {
        &self.protocol
    }

    async fn write(&mut self, message: &Value) -> Result<(), WireError> {
        let mut line = message.to_string();
        line.push('\n');
        self.writer.write_all(line.as_bytes()).await?;
        self.writer.flush().await?;
        Ok(())
    }

    /// Sends one request and collects everything until its response.
    ///
    /// # Errors
    ///
    /// The stream closed, a line was not JSON, or the response took longer
    /// than [`REQUEST_TIMEOUT`].
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
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_lang_conformance::wire::Call;
    ///
    /// let mut stdio = embedded_stdio().await;
    /// let exchange = stdio.send(&Call::new("tools/list").preference("tlh")).await.unwrap();
    /// // Nothing acceptable: the server's default, not an error.
    /// assert_eq!(exchange.content_language_str(), Some("en"));
    /// assert_eq!(exchange.status, None); // no HTTP on stdio
    /// # });
    /// ```
    pub async fn send(&mut self, call: &Call) -> Result<Exchange, WireError> {
        let id = self.next_id;
        self.next_id += 1;
        let meta = if call.method == "initialize" {
            Map::new()
        } else {
            self.meta.clone()
        };
        let request = call.to_message(id, &meta);
        self.write(&request).await?;
        let mut exchange = Exchange {
            request,
            ..Exchange::default()
        };
        let deadline = tokio::time::Instant::now() + REQUEST_TIMEOUT;
        loop {
            let mut line = String::new();
            let mut bounded = (&mut self.reader).take(MAX_MESSAGE_BYTES);
            let read = tokio::time::timeout_at(deadline, bounded.read_line(&mut line))
                .await
                .map_err(|_| {
                    WireError(format!(
                        "no response to {} within {REQUEST_TIMEOUT:?}",
                        call.method
                    ))
                })??;
            if read as u64 >= MAX_MESSAGE_BYTES && !line.ends_with('\n') {
                return Err(WireError(format!(
                    "a message from the server exceeds {MAX_MESSAGE_BYTES} bytes"
                )));
            }
            if read == 0 {
                return Err(WireError(format!(
                    "the server closed the stream before answering {}",
                    call.method
                )));
            }
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let message: Value = serde_json::from_str(line)
                .map_err(|e| WireError(format!("a line is not JSON ({e}): {line}")))?;
            let is_response = message.get("id") == Some(&json!(id))
                && (message.get("result").is_some() || message.get("error").is_some());
            if is_server_request(&message) {
                let answer = answer_server_request(&message);
                exchange.messages.push(message);
                self.write(&answer).await?;
                continue;
            }
            exchange.messages.push(message);
            if is_response {
                return Ok(exchange);
            }
        }
    }

    /// Closes the pipes and, for a spawned process, waits briefly for it to
    /// exit, then kills it.
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
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let stdio = embedded_stdio().await;
    /// stdio.close().await; // ends the server's input: it stops
    /// # });
    /// ```
    pub async fn close(mut self) {
        let _ = self.writer.shutdown().await;
        if let Some(mut child) = self.child.take() {
            let exited = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
            if exited.is_err() {
                let _ = child.kill().await;
            }
        }
    }
}

/// Splits a `--stdio` command into words the way a POSIX shell would for
/// plain words and quoting, without expanding anything: whitespace separates
/// words; `'…'` keeps everything literally; `"…"` keeps everything but
/// `\"`, `\\`, `\$` and `` \` `` escapes; a backslash outside quotes
/// takes the next character literally.
///
/// # Errors
///
/// A quote is not closed, or the command ends in a lone backslash.
///
/// ```
/// use mcp_lang_conformance::stdio::split_command;
///
/// assert_eq!(split_command("node  dist/server.js --stdio").unwrap(), ["node", "dist/server.js", "--stdio"]);
/// assert_eq!(
///     split_command(r#"python -m srv --name "My Server" --root '/tmp/a b' c\ d"#).unwrap(),
///     ["python", "-m", "srv", "--name", "My Server", "--root", "/tmp/a b", "c d"],
/// );
/// assert_eq!(split_command(r#"say "a \"b\"" '' x"#).unwrap(), ["say", "a \"b\"", "", "x"]);
/// assert!(split_command("node 'unclosed").is_err());
/// assert!(split_command("").unwrap().is_empty());
/// ```
pub fn split_command(command: &str) -> Result<Vec<String>, WireError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word has started (so that `''` yields an empty word).
    let mut started = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '\'' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => {
                            return Err(WireError(format!("unclosed ' in --stdio {command:?}")));
                        }
                    }
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => {
                                return Err(WireError(format!(
                                    "unclosed \" in --stdio {command:?}"
                                )));
                            }
                        },
                        Some(c) => word.push(c),
                        None => {
                            return Err(WireError(format!("unclosed \" in --stdio {command:?}")));
                        }
                    }
                }
            }
            '\\' => {
                started = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => {
                        return Err(WireError(format!(
                            "lone \\ at the end of --stdio {command:?}"
                        )));
                    }
                }
            }
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    Ok(words)
}
