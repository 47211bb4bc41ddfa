//! JSON-RPC over a byte stream, one message per line: the stdio transport.
//!
//! A `StdioConnection` writes one request line, then reads lines until the
//! response with the same id arrives, recording every notification and
//! server-to-client request in between (it answers those: an elicitation is
//! accepted, `ping` answered). It works over a child process's pipes
//! (`StdioConnection::spawn`, which also keeps the last lines the server
//! writes on stderr, to say why it stopped) or any in-process pipe
//! (`StdioConnection::new`).

use std::collections::VecDeque;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

use crate::wire::{
    Call, Exchange, WireError, answer_server_request, initialize_call, is_server_request,
    protocol_meta,
};

type Reader = BufReader<Box<dyn AsyncRead + Unpin + Send>>;
type Writer = Box<dyn AsyncWrite + Unpin + Send>;

/// The longest line (one JSON-RPC message) the suite reads from a server:
/// a longer one fails the exchange instead of growing without bound.
pub(crate) const MAX_MESSAGE_BYTES: u64 = 16 << 20;

/// How many of a server's last stderr lines are kept, to show why it stopped.
const STDERR_LINES: usize = 20;

/// How long one request may take before the suite gives up on it.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

/// How long a stdio server has to exit once its stdin is closed, before it
/// is killed.
pub(crate) const EXIT_GRACE: Duration = Duration::from_millis(500);

/// One stdio connection (one logical client).
pub(crate) struct StdioConnection {
    reader: Reader,
    writer: Writer,
    next_id: i64,
    meta: Map<String, Value>,
    protocol: String,
    child: Option<Child>,
    /// The last lines the child wrote on stderr.
    stderr: Arc<Mutex<VecDeque<String>>>,
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
    pub(crate) fn new(
        reader: impl AsyncRead + Unpin + Send + 'static,
        writer: impl AsyncWrite + Unpin + Send + 'static,
        protocol: &str,
    ) -> Self {
        Self {
            reader: BufReader::new(Box::new(reader)),
            writer: Box::new(writer),
            next_id: 1,
            meta: protocol_meta(protocol),
            protocol: protocol.to_owned(),
            child: None,
            stderr: Arc::default(),
        }
    }

    /// Spawns `command` (split into words as a POSIX shell would, quotes
    /// and backslashes included; the first word is the program) and connects
    /// to its stdin/stdout. The last lines of its stderr are kept for
    /// [`StdioConnection::exited`].
    ///
    /// # Errors
    ///
    /// The command is empty or cannot be started.
    pub(crate) fn spawn(command: &str, protocol: &str) -> Result<Self, WireError> {
        let words = shlex::split(command).ok_or_else(|| {
            WireError(format!(
                "unclosed quote or trailing backslash in --stdio `{command}`"
            ))
        })?;
        let mut words = words.iter();
        let program = words
            .next()
            .ok_or_else(|| WireError("empty --stdio command".into()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| WireError(format!("cannot start `{command}`: {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| WireError("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| WireError("no stdout".into()))?;
        let mut connection = Self::new(stdout, stdin, protocol);
        if let Some(stderr) = child.stderr.take() {
            let kept = Arc::clone(&connection.stderr);
            tokio::spawn(async move {
                let mut lines = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                    if kept.len() == STDERR_LINES {
                        kept.pop_front();
                    }
                    kept.push_back(line);
                }
            });
        }
        connection.child = Some(child);
        Ok(connection)
    }

    /// Speaks `protocol` from now on: a stateless protocol's requests carry
    /// its `_meta`, a handshake protocol's carry none.
    pub(crate) fn set_protocol(&mut self, protocol: &str) {
        protocol.clone_into(&mut self.protocol);
        self.meta = protocol_meta(protocol);
    }

    /// The `initialize` handshake proposing this connection's protocol: the
    /// exchange (the server's answer names the version it chose), then
    /// `notifications/initialized` when it succeeded.
    ///
    /// # Errors
    ///
    /// The request or the notification could not be sent or answered.
    pub(crate) async fn initialize(&mut self) -> Result<Exchange, WireError> {
        let exchange = self.send(&initialize_call(&self.protocol.clone())).await?;
        if exchange.result().is_some() {
            self.write(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
                .await?;
        }
        Ok(exchange)
    }

    /// The protocol version this connection speaks.
    pub(crate) fn protocol(&self) -> &str {
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
    pub(crate) async fn send(&mut self, call: &Call) -> Result<Exchange, WireError> {
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
                        "no response to {} within {} s",
                        call.method,
                        REQUEST_TIMEOUT.as_secs()
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

    /// When the child process has exited (waiting briefly for one that is
    /// on its way out): its exit status and the last lines of its stderr.
    /// `None` while it runs, and for an in-process pipe.
    pub(crate) async fn exited(&mut self) -> Option<String> {
        let child = self.child.as_mut()?;
        let status = match child.try_wait() {
            Ok(Some(status)) => status,
            _ => tokio::time::timeout(Duration::from_millis(500), child.wait())
                .await
                .ok()?
                .ok()?,
        };
        // Let the stderr reader take the last lines.
        tokio::time::sleep(Duration::from_millis(50)).await;
        Some(describe_exit(status, &self.stderr_tail()))
    }

    /// The last lines the child wrote on stderr.
    pub(crate) fn stderr_tail(&self) -> Vec<String> {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }

    /// Closes the server's stdin (it reads end of file, which tells a stdio
    /// server to exit) and, for a spawned process, gives it [`EXIT_GRACE`]
    /// to exit before killing it.
    pub(crate) async fn close(mut self) {
        let _ = self.writer.shutdown().await;
        // Dropping the pipe is what closes it: a shutdown alone leaves a
        // child's stdin open.
        drop(std::mem::replace(
            &mut self.writer,
            Box::new(tokio::io::sink()),
        ));
        if let Some(mut child) = self.child.take() {
            let exited = tokio::time::timeout(EXIT_GRACE, child.wait()).await;
            if exited.is_err() {
                let _ = child.kill().await;
            }
        }
    }
}

/// "the server exited with status 1; its last lines on stderr: …"
fn describe_exit(status: ExitStatus, stderr: &[String]) -> String {
    let how = match status.code() {
        Some(code) => format!("the server exited with status {code}"),
        None => format!("the server was stopped ({status})"),
    };
    if stderr.is_empty() {
        format!("{how}; it wrote nothing on stderr")
    } else {
        format!(
            "{how}; its last lines on stderr:\n    {}",
            stderr.join("\n    ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_server_that_exits_is_reported_with_its_status_and_stderr() {
        let mut stdio = StdioConnection::spawn(
            "sh -c 'echo starting >&2; echo \"no such module: srv\" >&2; exit 3'",
            "2026-07-28",
        )
        .unwrap();
        let error = stdio.send(&Call::new("tools/list")).await.unwrap_err();
        assert!(!error.0.is_empty());
        let exit = stdio.exited().await.unwrap();
        assert!(
            exit.starts_with("the server exited with status 3"),
            "{exit}"
        );
        assert!(exit.contains("no such module: srv"), "{exit}");
    }

    /// A server that exits when its stdin closes is not kept waiting; one
    /// that does not is killed after the grace period.
    #[tokio::test]
    async fn closing_gives_end_of_file_then_a_short_grace() {
        let started = std::time::Instant::now();
        let cat = StdioConnection::spawn("cat", "2026-07-28").unwrap();
        cat.close().await;
        let took = started.elapsed();
        assert!(took < Duration::from_millis(400), "{took:?}");

        let started = std::time::Instant::now();
        let deaf = StdioConnection::spawn("sleep 30", "2026-07-28").unwrap();
        deaf.close().await;
        let took = started.elapsed();
        assert!(
            took >= EXIT_GRACE && took < Duration::from_secs(2),
            "{took:?}"
        );
    }

    #[tokio::test]
    async fn a_command_that_cannot_start_is_an_error() {
        assert!(StdioConnection::spawn("", "2026-07-28").is_err());
        assert!(StdioConnection::spawn("/no/such/mcp-server --stdio", "2026-07-28").is_err());
        assert!(StdioConnection::spawn("node 'unclosed", "2026-07-28").is_err());
    }
}
