//! `mcp-lang serve`: run the SEP-2792 reference server.
//!
//! `--stdio` serves one client on stdin/stdout (logs go to stderr, never to
//! stdout, which carries the protocol). `--http ADDR` serves Streamable HTTP at
//! `http://ADDR/mcp`, with `mcp-lang-http`'s tower layer in front of rmcp's
//! service: exact agreement (400/-32020), `Content-Language`, `Vary`,
//! `Cache-Control: private`. `ADDR` is a port (`8080`, on 127.0.0.1),
//! `HOST:PORT` (`localhost:8080`, `0.0.0.0:8080`) or `[IPv6]:PORT`.
//!
//! Logs use `tracing`, on stderr; `RUST_LOG` sets the filter (default
//! `info,rmcp=warn`: one line per request with its method, status and chosen
//! language, and each rejected request with both values it compared;
//! `RUST_LOG=debug` adds each negotiation and rmcp's own messages).
//!
//! Over HTTP no client holds a connection forever (`mcp_lang_reference::serve::HttpLimits`):
//! a request head must arrive within `--header-timeout` seconds (default 10;
//! the connection is closed otherwise, and an idle keep-alive connection too),
//! a request body within `--body-timeout` seconds of its head (default 30;
//! `408 Request Timeout` otherwise), and at most `--max-connections`
//! connections are open at once (default 256; the next one waits, unread,
//! until one closes). Neither timeout limits an answer: a slow tool or an open
//! event stream is never cut off.
//!
//! ```no_run
//! use clap::Parser;
//! let cli = mcp_lang_cli::Cli::try_parse_from([
//!     "mcp-lang", "serve", "--http", "127.0.0.1:8080", "--header-timeout", "5", "--max-connections", "64",
//! ]).unwrap();
//! mcp_lang_cli::run(cli);
//! ```

use std::{net::SocketAddr, process::ExitCode, time::Duration};

use clap::Args;
use mcp_lang_reference::{
    ReferenceServer,
    serve::{HttpLimits, HttpMode, http_router, serve_stdio, spawn_router_with},
};

/// Arguments of `mcp-lang serve`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("transport").required(true))]
pub struct ServeArgs {
    /// Serve one client on stdin/stdout.
    #[arg(long, group = "transport")]
    pub stdio: bool,
    /// Serve Streamable HTTP on this address (the endpoint is /mcp): a port
    /// (8080, on 127.0.0.1), HOST:PORT (localhost:8080, 0.0.0.0:8080) or `[IPv6]:PORT`.
    #[arg(long, value_name = "ADDR", group = "transport", value_parser = http_address)]
    pub http: Option<SocketAddr>,
    /// HTTP only: keep rmcp's legacy sessions (Mcp-Session-Id, SSE responses)
    /// instead of stateless JSON responses.
    #[arg(long, requires = "http")]
    pub sessions: bool,
    /// Add the fixtures of the official MCP conformance suite (its `test_*`
    /// tools and prompts, `test://` resources, logging, completions and
    /// resource subscriptions), four of whose tools the suite's SEP-2792
    /// scenario calls. Off by default.
    #[arg(long)]
    pub conformance_fixtures: bool,
    /// HTTP only: close a connection whose request head (the request line and
    /// every field line) has not arrived this many seconds after the
    /// connection opened or its previous answer ended.
    #[arg(long, value_name = "SECS", conflicts_with = "stdio", value_parser = seconds, default_value = "10")]
    pub header_timeout: Duration,
    /// HTTP only: answer `408 Request Timeout` when a request body has not
    /// arrived in full this many seconds after its head.
    #[arg(long, value_name = "SECS", conflicts_with = "stdio", value_parser = seconds, default_value = "30")]
    pub body_timeout: Duration,
    /// HTTP only: the most connections open at once; a further one waits,
    /// unread, until an open one closes.
    #[arg(long, value_name = "N", conflicts_with = "stdio", value_parser = clap::value_parser!(u32).range(1..), default_value = "256")]
    pub max_connections: u32,
}

/// A positive number of seconds, such as `10` or `0.5`.
fn seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if secs.is_nan() || secs <= 0.0 {
        return Err(format!("`{text}`: the timeout must be more than 0 seconds"));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| format!("`{text}`: {e}"))
}

/// An address to listen on: a bare port (on 127.0.0.1), `localhost:PORT`,
/// `IP:PORT` or `[IPv6]:PORT`; an `http://` in front and a `/` or `/mcp`
/// after are forgiven.
fn http_address(text: &str) -> Result<SocketAddr, String> {
    let wanted = || {
        format!(
            "`{text}` is not an address to listen on: give a port (8080), HOST:PORT \
             (127.0.0.1:8080, localhost:8080, 0.0.0.0:8080) or [IPv6]:PORT ([::1]:8080)"
        )
    };
    let bare = text.trim();
    let bare = bare.strip_prefix("http://").unwrap_or(bare);
    let bare = bare.strip_suffix("/mcp").unwrap_or(bare);
    let bare = bare.strip_suffix('/').unwrap_or(bare);
    if let Ok(port) = bare.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Some(port) = bare.strip_prefix("localhost:") {
        let port = port.parse::<u16>().map_err(|_| wanted())?;
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    bare.parse().map_err(|_| wanted())
}

/// What a failed bind means, with the address it was for.
fn bind_error(addr: SocketAddr, error: &std::io::Error) -> String {
    let hint = match error.kind() {
        std::io::ErrorKind::AddrInUse => {
            "; another program listens there: stop it or pick another port, e.g. --http 8081"
        }
        std::io::ErrorKind::PermissionDenied => {
            "; ports below 1024 need privileges: pick one above, e.g. --http 8080"
        }
        std::io::ErrorKind::AddrNotAvailable => {
            "; this machine has no such address: try 127.0.0.1 or 0.0.0.0"
        }
        _ => "",
    };
    format!("cannot listen on {addr}: {error}{hint}")
}

impl ServeArgs {
    /// The connection limits the flags ask for.
    fn limits(&self) -> HttpLimits {
        HttpLimits::new()
            .header_read_timeout(self.header_timeout)
            .body_read_timeout(self.body_timeout)
            .max_connections(usize::try_from(self.max_connections).unwrap_or(usize::MAX))
    }
}

/// The log filter when `RUST_LOG` is not set: a line per request, and rmcp's
/// own messages only when they are warnings.
pub const DEFAULT_LOG_FILTER: &str = "info,rmcp=warn";

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_LOG_FILTER));
    // Colours only for a terminal: a log piped to a file or a test stays plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .try_init();
}

/// Runs `mcp-lang serve`.
pub fn run(args: &ServeArgs) -> ExitCode {
    init_logging();
    let server = match ReferenceServer::new() {
        Ok(server) if args.conformance_fixtures => server.with_conformance_fixtures(),
        Ok(server) => server,
        Err(error) => {
            eprintln!("mcp-lang serve: {error}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("mcp-lang serve: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async {
        match args.http {
            Some(addr) => {
                let mode = if args.sessions {
                    HttpMode::Sessions
                } else {
                    HttpMode::Stateless
                };
                let limits = args.limits();
                let http = spawn_router_with(addr, limits, move |cancel| {
                    http_router(server, mode, cancel)
                })
                .await
                .map_err(|e| bind_error(addr, &e))?;
                tracing::info!(url = %http.url(), ?mode, ?limits, "serving Streamable HTTP");
                http.wait().await?;
                Ok(())
            }
            None => {
                tracing::info!("serving stdio");
                serve_stdio(server).await
            }
        }
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-lang serve: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cli, Command};
    use clap::Parser;

    fn serve_args(args: &[&str]) -> Result<ServeArgs, clap::Error> {
        let cli = Cli::try_parse_from(["mcp-lang", "serve"].iter().chain(args))?;
        match cli.command {
            Command::Serve(args) => Ok(args),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_address_can_be_a_port_or_localhost() {
        let addr = |text: &str| serve_args(&["--http", text]).map(|a| a.http);
        let local = Some(SocketAddr::from(([127, 0, 0, 1], 8080)));
        for text in [
            "8080",
            "localhost:8080",
            "127.0.0.1:8080",
            "http://localhost:8080/mcp",
        ] {
            assert_eq!(addr(text).unwrap(), local, "{text}");
        }
        assert_eq!(
            addr("[::1]:8080").unwrap(),
            Some("[::1]:8080".parse().unwrap())
        );
        for bad in ["", "localhost", "example:80", "99999", "localhost:x"] {
            let error = addr(bad).unwrap_err().to_string();
            assert!(error.contains("(127.0.0.1:8080, localhost:8080"), "{error}");
        }
    }

    #[test]
    fn a_bind_error_names_the_address() {
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = taken.local_addr().unwrap();
        let error = std::net::TcpListener::bind(addr).unwrap_err();
        let message = bind_error(addr, &error);
        assert!(
            message.starts_with(&format!("cannot listen on {addr}: ")),
            "{message}"
        );
        assert!(message.contains("--http 8081"), "{message}");
    }

    #[test]
    fn the_default_flags_are_the_default_limits() {
        let args = serve_args(&["--http", "127.0.0.1:0"]).unwrap();
        assert_eq!(args.limits(), HttpLimits::new());
    }

    #[test]
    fn the_limit_flags_set_the_limits() {
        let args = serve_args(&[
            "--http",
            "127.0.0.1:0",
            "--header-timeout",
            "0.5",
            "--body-timeout",
            "120",
            "--max-connections",
            "3",
        ])
        .unwrap();
        let limits = args.limits();
        assert_eq!(limits.get_header_read_timeout(), Duration::from_millis(500));
        assert_eq!(limits.get_body_read_timeout(), Duration::from_secs(120));
        assert_eq!(limits.get_max_connections(), 3);
    }

    #[test]
    fn bad_limits_and_http_limits_on_stdio_are_refused() {
        for bad in [
            &["--http", "127.0.0.1:0", "--header-timeout", "0"][..],
            &["--http", "127.0.0.1:0", "--body-timeout", "-1"],
            &["--http", "127.0.0.1:0", "--body-timeout", "NaN"],
            &["--http", "127.0.0.1:0", "--body-timeout", "1e300"],
            &["--http", "127.0.0.1:0", "--max-connections", "0"],
            &["--stdio", "--header-timeout", "5"],
            &["--stdio", "--max-connections", "5"],
        ] {
            assert!(serve_args(bad).is_err(), "{bad:?}");
        }
    }
}
