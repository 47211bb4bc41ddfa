//! One run of the suite against the reference server, altered or not, over
//! both transports: the stdio server a process of the fault server binary,
//! Streamable HTTP in this process on a loopback port.

use std::net::SocketAddr;
use std::path::PathBuf;

use mcp_lang_conformance::report::{Report, RunError};
use mcp_lang_conformance::{Config, Target, run};
use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::HttpMode;

use crate::{Alteration, spawn_http};

/// The reference server with at most one [`Alteration`], for one run of the
/// suite over stdio and Streamable HTTP (one report, a row per scenario and
/// transport).
///
/// The stdio half is `BINARY serve --stdio` (the fault server, whose path a
/// test gets from `env!("CARGO_BIN_EXE_mcp-lang-faults")`); an alteration
/// that acts on HTTP only is not passed to it, since it has nothing to act
/// on there. The HTTP half is served in this process and shut down when the
/// run ends.
///
/// ```no_run
/// use mcp_lang_conformance::{Config, Target, Verdict};
/// use mcp_lang_faults::{Bench, Fault};
///
/// # async fn example() -> Result<(), mcp_lang_conformance::report::RunError> {
/// let mut config = Config::new(Target::Url(String::new())); // the target is the bench's
/// config.only = vec!["cache.vary".into()];
/// let bench = Bench::new("target/debug/mcp-lang-faults").alteration(Fault::DropVary);
/// let report = bench.run(config).await?;
/// assert_eq!(report.verdict(), Verdict::Failed); // the injected fault is caught
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Bench {
    binary: PathBuf,
    alteration: Option<Alteration>,
    http_mode: HttpMode,
}

impl Bench {
    /// The unaltered reference server, stateless over HTTP; `binary` is the
    /// fault server that serves the stdio half.
    ///
    /// ```
    /// use mcp_lang_faults::Bench;
    ///
    /// let bench = Bench::new("/bin/mcp-lang-faults");
    /// assert_eq!(bench.stdio_command().unwrap(), "/bin/mcp-lang-faults serve --stdio");
    /// ```
    pub fn new(binary: impl Into<PathBuf>) -> Self {
        Self {
            binary: binary.into(),
            alteration: None,
            http_mode: HttpMode::Stateless,
        }
    }

    /// With one fault injected or one latitude taken.
    ///
    /// ```
    /// use mcp_lang_faults::{Bench, Fault, Latitude};
    ///
    /// let bench = Bench::new("/bin/mcp-lang-faults").alteration(Fault::IgnoreWeights);
    /// assert_eq!(bench.stdio_command().unwrap(), "/bin/mcp-lang-faults serve --stdio --fault ignore-weights");
    /// // An HTTP fault leaves the stdio half unaltered.
    /// let bench = Bench::new("/bin/mcp-lang-faults").alteration(Fault::DropVary);
    /// assert_eq!(bench.stdio_command().unwrap(), "/bin/mcp-lang-faults serve --stdio");
    /// let bench = Bench::new("/bin/mcp-lang-faults").alteration(Latitude::HandshakeOnly);
    /// assert!(bench.stdio_command().unwrap().ends_with("--latitude handshake-only"));
    /// ```
    #[must_use]
    pub fn alteration(mut self, alteration: impl Into<Alteration>) -> Self {
        self.alteration = Some(alteration.into());
        self
    }

    /// How the HTTP half keeps state (stateless by default).
    ///
    /// ```
    /// use mcp_lang_faults::Bench;
    /// use mcp_lang_reference::serve::HttpMode;
    ///
    /// let bench = Bench::new("/bin/mcp-lang-faults").http_mode(HttpMode::Sessions);
    /// # let _ = bench;
    /// ```
    #[must_use]
    pub fn http_mode(mut self, mode: HttpMode) -> Self {
        self.http_mode = mode;
        self
    }

    /// The command that serves the stdio half, quoted for
    /// [`Target::Stdio`].
    ///
    /// # Errors
    ///
    /// The binary's path cannot be quoted (it holds a NUL byte).
    pub fn stdio_command(&self) -> Result<String, String> {
        let quoted = shlex::try_quote(&self.binary.to_string_lossy())
            .map_err(|e| format!("cannot quote {}: {e}", self.binary.display()))?
            .into_owned();
        let mut command = format!("{quoted} serve --stdio");
        match self.alteration.filter(|a| a.layer().acts_on_stdio()) {
            Some(Alteration::Fault(f)) => command.push_str(&format!(" --fault {f}")),
            Some(Alteration::Latitude(l)) => command.push_str(&format!(" --latitude {l}")),
            None => {}
        }
        Ok(command)
    }

    /// Runs the suite as `config` asks, its target replaced by this bench's
    /// two transports.
    ///
    /// # Errors
    ///
    /// As [`run()`]; also when the reference server cannot start or bind a
    /// loopback port.
    pub async fn run(&self, mut config: Config) -> Result<Report, RunError> {
        let cannot = |message: String| RunError::new(Report::default(), message);
        let stdio = self.stdio_command().map_err(cannot)?;
        let server = ReferenceServer::new()
            .map_err(|e| cannot(format!("the reference server failed to start: {e}")))?;
        let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
        let http = spawn_http(server, loopback, self.http_mode, self.alteration)
            .await
            .map_err(|e| cannot(format!("cannot bind a loopback port: {e}")))?;
        config.target = Target::Both {
            stdio,
            url: http.url(),
        };
        let report = run(&config).await;
        http.shutdown().await;
        report
    }
}
