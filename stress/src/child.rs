//! `mcp-lang serve` as a child process: over stdio (newline-delimited
//! JSON-RPC on its stdin/stdout) or Streamable HTTP on a loopback port it picks
//! itself. Its stderr (the `tracing` log) is drained on a thread and counted,
//! so a chatty log can neither block the server nor go unnoticed; its peak
//! resident memory is read from `/proc/PID/status` (`VmHWM`, Linux).

use std::{
    io::Read,
    net::SocketAddr,
    path::Path,
    process::Stdio,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
        mpsc,
    },
    time::Duration,
};

use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    process::{Child, ChildStdin, ChildStdout, Command},
};

/// Errors of the child-process helpers.
pub type ChildError = Box<dyn std::error::Error + Send + Sync>;

/// How long any single exchange may take before the helpers give up: a guard
/// against a hang, never a performance assertion.
pub const HANG_GUARD: Duration = Duration::from_secs(120);

/// A running `mcp-lang serve` process.
#[derive(Debug)]
pub struct ServeProcess {
    child: Child,
    log_bytes: Arc<AtomicU64>,
}

impl ServeProcess {
    fn spawn(
        bin: &Path,
        args: &[&str],
        log: &str,
    ) -> Result<(ServeProcess, mpsc::Receiver<String>), ChildError> {
        let mut child = Command::new(bin)
            .args(args)
            .env("RUST_LOG", log)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let stderr = child.stderr.take().ok_or("no stderr")?.into_owned_fd()?;
        let log_bytes = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&log_bytes);
        let (lines, received) = mpsc::channel();
        std::thread::spawn(move || {
            let mut file = std::fs::File::from(stderr);
            let mut buffer = vec![0u8; 64 << 10];
            let mut first = Vec::new();
            while let Ok(n) = file.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                counter.fetch_add(n as u64, Ordering::Relaxed);
                // Hand over the first 64 KiB of log, line by line (the start-up line).
                if first.len() < 64 << 10 {
                    first.extend_from_slice(buffer.get(..n).unwrap_or_default());
                    while let Some(end) = first.iter().position(|&b| b == b'\n') {
                        let line: Vec<u8> = first.drain(..=end).collect();
                        let _ = lines.send(String::from_utf8_lossy(&line).into_owned());
                    }
                }
            }
        });
        Ok((ServeProcess { child, log_bytes }, received))
    }

    /// The process id.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Bytes the server has written to its log (stderr) so far.
    pub fn log_bytes(&self) -> u64 {
        self.log_bytes.load(Ordering::Relaxed)
    }

    /// Peak resident memory so far, in KiB (`VmHWM`).
    pub fn peak_rss_kib(&self) -> Option<u64> {
        self.status_kib("VmHWM:")
    }

    /// Current resident memory, in KiB (`VmRSS`).
    pub fn rss_kib(&self) -> Option<u64> {
        self.status_kib("VmRSS:")
    }

    fn status_kib(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()?)).ok()?;
        let line = status.lines().find(|l| l.starts_with(field))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the process and reaps it.
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

/// `mcp-lang serve --http 127.0.0.1:0`: the process and the address it bound
/// (read from its start-up log line).
///
/// # Errors
///
/// The process did not start or never logged its address.
pub async fn spawn_http(bin: &Path) -> Result<(ServeProcess, SocketAddr), ChildError> {
    spawn_http_with(bin, &[]).await
}

/// [`spawn_http`] with more arguments for `mcp-lang serve`, such as
/// `--header-timeout 2`.
///
/// # Errors
///
/// The process did not start or never logged its address.
pub async fn spawn_http_with(
    bin: &Path,
    extra: &[&str],
) -> Result<(ServeProcess, SocketAddr), ChildError> {
    let mut args = vec!["serve", "--http", "127.0.0.1:0"];
    args.extend_from_slice(extra);
    let (process, lines) = ServeProcess::spawn(bin, &args, "info")?;
    let addr = tokio::task::spawn_blocking(move || -> Result<SocketAddr, ChildError> {
        loop {
            let line = lines.recv_timeout(Duration::from_secs(60))?;
            if let Some(start) = line.find("http://127.0.0.1:") {
                let rest = line.get(start + "http://".len()..).unwrap_or_default();
                let end = rest.find('/').unwrap_or(rest.len());
                return Ok(rest.get(..end).unwrap_or_default().parse()?);
            }
        }
    })
    .await??;
    Ok((process, addr))
}

/// An MCP session with `mcp-lang serve --stdio`, initialized.
#[derive(Debug)]
pub struct StdioSession {
    /// The server process.
    pub process: ServeProcess,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl StdioSession {
    /// Starts `mcp-lang serve --stdio` and runs the MCP initialization.
    ///
    /// # Errors
    ///
    /// The process did not start or the initialization failed.
    pub async fn start(bin: &Path) -> Result<StdioSession, ChildError> {
        let (mut process, _lines) = ServeProcess::spawn(bin, &["serve", "--stdio"], "info")?;
        let stdin = process.child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(process.child.stdout.take().ok_or("no stdout")?);
        let mut session = StdioSession {
            process,
            stdin,
            stdout,
            next_id: 1,
        };
        let init = session
            .request(
                "initialize",
                json!({"protocolVersion": crate::client::PROTOCOL_VERSION, "capabilities": {},
                       "clientInfo": {"name": "mcp-lang-stress", "version": "0"}}),
            )
            .await?;
        if init.get("result").is_none() {
            return Err(format!("initialize failed: {init}").into());
        }
        session
            .send_line(
                &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
            )
            .await?;
        Ok(session)
    }

    /// Writes one line (a JSON-RPC message) to the server.
    ///
    /// # Errors
    ///
    /// The pipe broke.
    pub async fn send_line(&mut self, line: &str) -> Result<(), ChildError> {
        self.stdin.write_all(line.as_bytes()).await?;
        self.stdin.write_all(b"\n").await?;
        self.stdin.flush().await?;
        Ok(())
    }

    /// Sends a request and waits (at most [`HANG_GUARD`]) for the response
    /// with its id, skipping notifications.
    ///
    /// # Errors
    ///
    /// The pipe broke, the server closed stdout, or the guard expired.
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value, ChildError> {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_line(&message.to_string()).await?;
        self.response(id).await
    }

    /// Waits (at most [`HANG_GUARD`]) for the response with `id`.
    ///
    /// # Errors
    ///
    /// The server closed stdout or the guard expired.
    pub async fn response(&mut self, id: u64) -> Result<Value, ChildError> {
        tokio::time::timeout(HANG_GUARD, async {
            let mut line = String::new();
            loop {
                line.clear();
                if self.stdout.read_line(&mut line).await? == 0 {
                    return Err::<Value, ChildError>("the server closed stdout".into());
                }
                let Ok(message) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                if message.get("id") == Some(&json!(id)) {
                    return Ok(message);
                }
            }
        })
        .await
        .map_err(|_| -> ChildError {
            format!("no response to request {id} within {HANG_GUARD:?}").into()
        })?
    }

    /// Waits (at most [`HANG_GUARD`]) for the next message the server writes,
    /// whatever it is.
    ///
    /// # Errors
    ///
    /// The server closed stdout, wrote something that is not JSON, or the
    /// guard expired.
    pub async fn next_message(&mut self) -> Result<Value, ChildError> {
        let mut line = String::new();
        let read = tokio::time::timeout(HANG_GUARD, self.stdout.read_line(&mut line))
            .await
            .map_err(|_| -> ChildError { format!("no message within {HANG_GUARD:?}").into() })??;
        if read == 0 {
            return Err("the server closed stdout".into());
        }
        Ok(serde_json::from_str(&line)?)
    }

    /// A request id that the next [`StdioSession::request`] will not use.
    pub fn reserve_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }
}
