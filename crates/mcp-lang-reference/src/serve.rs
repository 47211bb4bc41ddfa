//! Serving the reference server: stdio, and Streamable HTTP behind the
//! SEP-2792 tower layer.
//!
//! On HTTP the stack is, outermost first: the connection limits of
//! [`HttpLimits`] (hyper's header-read timeout, a deadline on each request
//! body, a cap on open connections) → axum's router → `mcp-lang-http`'s
//! [`LanguageLayer`] (exact agreement, 400/-32020, `Content-Language`, `Vary`,
//! `Cache-Control: private`) → the JSON-RPC answer to a body rmcp cannot read
//! → rmcp's [`StreamableHttpService`] → the [`ReferenceServer`] handler. rmcp's
//! service is a plain tower service, so the layer wraps it like any other; the
//! handler then finds the same request's HTTP parts in its `RequestContext`,
//! and in them the layer's verdict, which it negotiates from without reading the
//! preference or checking agreement again (decision R2).
//!
//! # Logs
//!
//! Over HTTP an access log in front of the router writes one `tracing` line per
//! request at `info`: the HTTP method, the JSON-RPC method, the status, the
//! `Content-Language` chosen and the time taken. A request refused with
//! HeaderMismatch is a `warn` line quoting both values it compared (at most 64
//! bytes of each, escaped). On stdio each request's negotiation is its `info`
//! line (the method and the language chosen); over HTTP that line is `debug`.
//!
//! By default the HTTP server is stateless with JSON responses (rmcp's
//! `json_response`), as SEP-2575 stateless MCP recommends: each POST is
//! answered by one JSON body whose `contentLanguage` the layer mirrors into
//! `Content-Language`. A request whose handler sends notifications first (a
//! tool reporting progress) is answered as an event stream, where the
//! language travels in each message's `_meta` only.
//!
//! # Messages that cannot be read
//!
//! rmcp answers a POST body it cannot parse with a plain-text `415`; on stdio
//! it drops a line that is not JSON without an answer, and answers JSON that is
//! not a message with `-32600` and no `id`. The reference server answers both
//! transports the JSON-RPC way instead: `-32700` ("Parse error") with
//! `"id": null` for text that is not JSON (bad syntax, invalid UTF-8, a
//! control character in a string, nesting over 127), `-32600` ("Invalid
//! Request") echoing the id exactly as written for JSON that is not a message
//! (a duplicated `_meta` key, a wrong type), then goes on. Over HTTP the
//! answer is `400 Bad Request` with that body, as the MCP transport says of
//! input the server cannot accept. On stdio a notification or a response that
//! cannot be read is not answered (JSON-RPC never answers those), and a line
//! over rmcp's 16 MiB limit is answered `-32600` with `"id": null`.
//!
//! ```no_run
//! use std::net::SocketAddr;
//! use mcp_lang_reference::{ReferenceServer, serve::{HttpMode, spawn_http}};
//!
//! # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! let http = spawn_http(ReferenceServer::new()?, SocketAddr::from(([127, 0, 0, 1], 8080)), HttpMode::Stateless).await?;
//! println!("serving on {}", http.url()); // http://127.0.0.1:8080/mcp
//! http.wait().await?;
//! # Ok(()) }
//! ```
//!
//! The crate's `tests/serving.rs` runs each of these functions.

#[cfg(feature = "http")]
mod access;
#[cfg(feature = "http")]
mod conn;
#[cfg(any(feature = "stdio", feature = "http"))]
mod jsonrpc;
#[cfg(feature = "stdio")]
mod stdio;

#[cfg(feature = "http")]
use std::{net::SocketAddr, sync::Arc, time::Duration};

#[cfg(feature = "http")]
use mcp_lang_http::LanguageLayer;
#[cfg(feature = "http")]
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
#[cfg(feature = "http")]
use tokio::net::TcpListener;
#[cfg(feature = "http")]
use tokio_util::sync::CancellationToken;
#[cfg(feature = "http")]
use tower_layer::Layer;

use crate::ReferenceServer;

#[cfg(feature = "http")]
/// The path the MCP endpoint is mounted at.
///
/// ```
/// use mcp_lang_reference::serve::MCP_PATH;
///
/// assert_eq!(MCP_PATH, "/mcp");
/// ```
pub const MCP_PATH: &str = "/mcp";

#[cfg(feature = "http")]
/// How the Streamable HTTP endpoint keeps state.
///
/// ```
/// use mcp_lang_reference::serve::HttpMode;
///
/// assert_eq!(HttpMode::default(), HttpMode::Stateless);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum HttpMode {
    /// No sessions; JSON responses where possible (the default).
    #[default]
    Stateless,
    /// rmcp's legacy sessions (`Mcp-Session-Id`), SSE responses: needed for
    /// server-to-client requests (the `elicitation/create` of protocol
    /// versions before 2026-07-28) over HTTP.
    Sessions,
}

#[cfg(feature = "stdio")]
/// Serves one client on stdin/stdout until it disconnects.
///
/// The same as [`serve_transport`] with [`stdio_transport`].
///
/// # Errors
///
/// The initialization failed or the transport broke.
///
/// `no_run`: it would take over the test's own stdin and stdout until the
/// client disconnects.
///
/// ```no_run
/// # async fn serve() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// use mcp_lang_reference::{ReferenceServer, serve::serve_stdio};
///
/// serve_stdio(ReferenceServer::new()?).await?;
/// # Ok(())
/// # }
/// ```
pub async fn serve_stdio(
    server: ReferenceServer,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    serve_transport(server, stdio_transport()).await
}

#[cfg(feature = "stdio")]
/// The transport [`serve_stdio`] serves on: JSON-RPC lines on stdin and
/// stdout.
///
/// Exposed so that a wrapper around the transport (a test harness that
/// alters the messages the server sends) serves through exactly what
/// `mcp-lang serve --stdio` ships.
///
/// ```no_run
/// # async fn serve() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// use mcp_lang_reference::{ReferenceServer, serve::{serve_transport, stdio_transport}};
///
/// serve_transport(ReferenceServer::new()?, stdio_transport()).await?;
/// # Ok(())
/// # }
/// ```
pub fn stdio_transport() -> impl rmcp::transport::Transport<rmcp::RoleServer> + 'static {
    let (stdin, stdout) = rmcp::transport::stdio();
    stream_transport(stdin, stdout)
}

#[cfg(feature = "stdio")]
/// The transport of [`serve_stdio`] on any pair of byte streams carrying
/// JSON-RPC lines (an in-process pipe, a socket).
///
/// rmcp's message types and encoder, with lines read here so that a line rmcp
/// cannot read is answered (see the module docs): `-32700` with `"id": null`
/// for text that is not JSON, `-32600` with the id as written for JSON that is
/// not a message, and the session goes on.
///
/// ```no_run
/// use mcp_lang_reference::{ReferenceServer, serve::{serve_transport, stream_transport}};
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// // The server on one end of an in-process pipe; a client writes JSON-RPC
/// // lines on the other.
/// let (server_io, client_io) = tokio::io::duplex(1 << 16);
/// let (read, write) = tokio::io::split(server_io);
/// tokio::spawn(serve_transport(ReferenceServer::new()?, stream_transport(read, write)));
/// # drop(client_io);
/// # Ok(()) }
/// ```
pub fn stream_transport<R, W>(
    read: R,
    write: W,
) -> impl rmcp::transport::Transport<rmcp::RoleServer> + 'static
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    stdio::LineTransport::new(read, write)
}

#[cfg(feature = "stdio")]
/// Serves any rmcp server handler on `transport` until the client goes away.
///
/// # Errors
///
/// The initialization failed or the transport broke.
///
/// See [`stream_transport`] for an example.
pub async fn serve_transport<H, T>(
    handler: H,
    transport: T,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    H: rmcp::ServerHandler,
    T: rmcp::transport::Transport<rmcp::RoleServer> + 'static,
{
    use rmcp::ServiceExt;
    let running = handler.serve(transport).await?;
    running.waiting().await?;
    Ok(())
}

#[cfg(feature = "http")]
/// The axum router with the MCP endpoint at [`MCP_PATH`], behind the
/// SEP-2792 layer. `cancel` stops rmcp's open streams on shutdown.
///
/// A tower service like any other: serve it with [`spawn_router`], or drive
/// it in process with `tower_service::Service::call` (as
/// `tests/serving.rs` does).
///
/// ```
/// use mcp_lang_reference::{ReferenceServer, serve::{HttpMode, MCP_PATH, http_router}};
/// use tokio_util::sync::CancellationToken;
///
/// let router = http_router(ReferenceServer::new().unwrap(), HttpMode::Stateless, CancellationToken::new());
/// let app: axum::Router = axum::Router::new().nest_service("/v1", router); // the endpoint is now /v1/mcp
/// # let _ = (app, MCP_PATH);
/// ```
pub fn http_router(
    server: ReferenceServer,
    mode: HttpMode,
    cancel: CancellationToken,
) -> axum::Router {
    http_router_for(move || server.for_session(), mode, cancel)
}

#[cfg(feature = "http")]
/// The router of [`http_router`] for any rmcp server handler: `new_session`
/// makes the handler of each session (of each request, when stateless).
///
/// It is exactly the stack `mcp-lang serve --http` ships, so a wrapper
/// around the handler (or a tower layer around the router) tests what users
/// run.
///
/// ```
/// use mcp_lang_reference::{ReferenceServer, serve::{HttpMode, http_router_for}};
/// use tokio_util::sync::CancellationToken;
///
/// let server = ReferenceServer::new().unwrap();
/// let router = http_router_for(move || server.for_session(), HttpMode::Sessions, CancellationToken::new());
/// # drop(router);
/// ```
pub fn http_router_for<H, F>(
    new_session: F,
    mode: HttpMode,
    cancel: CancellationToken,
) -> axum::Router
where
    H: rmcp::ServerHandler,
    F: Fn() -> H + Send + Sync + 'static,
{
    let mut config = StreamableHttpServerConfig::default();
    config.cancellation_token = cancel;
    match mode {
        HttpMode::Stateless => {
            config.legacy_session_mode = false;
            config.json_response = true;
        }
        HttpMode::Sessions => config.legacy_session_mode = true,
    }
    let service = StreamableHttpService::new(
        move || Ok(new_session()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let service = axum::middleware::from_fn(jsonrpc::answer_unreadable_bodies).layer(service);
    axum::Router::new()
        .nest_service(MCP_PATH, LanguageLayer::new().layer(service))
        .layer(axum::middleware::from_fn(access::log_request))
}

#[cfg(feature = "http")]
/// A running HTTP server: its address and a handle to stop it.
///
/// ```no_run
/// use std::net::SocketAddr;
/// use mcp_lang_reference::{ReferenceServer, serve::{HttpMode, HttpServer, spawn_http}};
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// let any_port = SocketAddr::from(([127, 0, 0, 1], 0));
/// let http: HttpServer = spawn_http(ReferenceServer::new()?, any_port, HttpMode::Stateless).await?;
/// println!("{} on port {}", http.url(), http.local_addr().port());
/// http.shutdown().await;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct HttpServer {
    addr: SocketAddr,
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

#[cfg(feature = "http")]
impl HttpServer {
    /// The bound address (useful with port 0).
    ///
    /// ```no_run
    /// # async fn example(http: mcp_lang_reference::serve::HttpServer) {
    /// let port = http.local_addr().port(); // never 0, even when port 0 was asked for
    /// # let _ = port; }
    /// ```
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The endpoint URL, `http://ADDR/mcp`.
    ///
    /// ```no_run
    /// # async fn example(http: mcp_lang_reference::serve::HttpServer) {
    /// assert_eq!(http.url(), format!("http://{}/mcp", http.local_addr()));
    /// # }
    /// ```
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.addr)
    }

    /// Stops accepting, ends open streams, and waits for the server task.
    ///
    /// ```no_run
    /// # async fn example(http: mcp_lang_reference::serve::HttpServer) {
    /// let addr = http.local_addr();
    /// http.shutdown().await;
    /// assert!(tokio::net::TcpStream::connect(addr).await.is_err()); // no longer listening
    /// # }
    /// ```
    pub async fn shutdown(self) {
        self.cancel.cancel();
        let _ = self.task.await;
    }

    /// Waits until the server stops (it runs until [`HttpServer::shutdown`]
    /// or a fatal accept error).
    ///
    /// # Errors
    ///
    /// The accept loop's I/O error.
    ///
    /// `no_run`: it serves until the process is stopped.
    ///
    /// ```no_run
    /// use std::net::SocketAddr;
    /// use mcp_lang_reference::{ReferenceServer, serve::{HttpMode, spawn_http}};
    ///
    /// # async fn serve() -> std::io::Result<()> {
    /// let server = ReferenceServer::new().expect("catalogs");
    /// let http = spawn_http(server, SocketAddr::from(([127, 0, 0, 1], 8080)), HttpMode::Stateless).await?;
    /// println!("listening on {}", http.url());
    /// http.wait().await
    /// # }
    /// ```
    pub async fn wait(self) -> std::io::Result<()> {
        self.task.await.unwrap_or(Ok(()))
    }
}

#[cfg(feature = "http")]
/// Binds `addr` and serves the reference server over Streamable HTTP in a
/// background task.
///
/// # Errors
///
/// The address cannot be bound.
///
/// A `tools/list` over loopback, with [`mcp_lang_wire`]:
///
/// ```no_run
/// use std::net::SocketAddr;
/// use mcp_lang_reference::{ReferenceServer, serve::{HttpMode, MCP_PATH, spawn_http}};
/// use mcp_lang_wire::post;
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// let http = spawn_http(ReferenceServer::new()?, SocketAddr::from(([127, 0, 0, 1], 0)), HttpMode::Stateless).await?;
/// let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr"}}}"#;
/// let exchange = post(http.local_addr(), MCP_PATH, &[("Accept-Language", "fr")], list).await?;
/// assert_eq!(exchange.header_values("content-language"), ["fr"]);
/// http.shutdown().await;
/// # Ok(()) }
/// ```
pub async fn spawn_http(
    server: ReferenceServer,
    addr: SocketAddr,
    mode: HttpMode,
) -> std::io::Result<HttpServer> {
    spawn_router(addr, move |cancel| http_router(server, mode, cancel)).await
}

#[cfg(feature = "http")]
/// Binds `addr` and serves the router that `make` builds in a background
/// task, the way [`spawn_http`] serves the reference server's, with the
/// default [`HttpLimits`]: the token `make` receives is cancelled on
/// [`HttpServer::shutdown`].
///
/// # Errors
///
/// The address cannot be bound.
///
/// ```no_run
/// use std::net::SocketAddr;
/// use mcp_lang_reference::{ReferenceServer, serve::{HttpMode, http_router, spawn_router}};
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// let server = ReferenceServer::new()?;
/// let any_port = SocketAddr::from(([127, 0, 0, 1], 0));
/// let http = spawn_router(any_port, move |cancel| http_router(server, HttpMode::Stateless, cancel)).await?;
/// # http.shutdown().await;
/// # Ok(()) }
/// ```
pub async fn spawn_router(
    addr: SocketAddr,
    make: impl FnOnce(CancellationToken) -> axum::Router,
) -> std::io::Result<HttpServer> {
    spawn_router_with(addr, HttpLimits::default(), make).await
}

#[cfg(feature = "http")]
/// [`spawn_router`] with other connection limits: what `mcp-lang serve --http`
/// runs with its `--header-timeout`, `--body-timeout` and `--max-connections`.
///
/// # Errors
///
/// The address cannot be bound.
///
/// A client that sends its request head too slowly is cut off after 2 s
/// (`tests/limits.rs` shows each limit at work):
///
/// ```no_run
/// use std::{net::SocketAddr, time::Duration};
/// use mcp_lang_reference::{ReferenceServer, serve::{HttpLimits, HttpMode, http_router, spawn_router_with}};
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// let server = ReferenceServer::new()?;
/// let limits = HttpLimits::new().header_read_timeout(Duration::from_secs(2));
/// let any_port = SocketAddr::from(([127, 0, 0, 1], 0));
/// let http = spawn_router_with(any_port, limits, move |cancel| http_router(server, HttpMode::Stateless, cancel)).await?;
/// # http.shutdown().await;
/// # Ok(()) }
/// ```
pub async fn spawn_router_with(
    addr: SocketAddr,
    limits: HttpLimits,
    make: impl FnOnce(CancellationToken) -> axum::Router,
) -> std::io::Result<HttpServer> {
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let cancel = CancellationToken::new();
    let router = make(cancel.child_token());
    let stop = cancel.clone();
    let task = tokio::spawn(async move {
        conn::serve(listener, router, limits, stop).await;
        Ok(())
    });
    Ok(HttpServer { addr, cancel, task })
}

#[cfg(feature = "http")]
/// Limits on each HTTP connection, so that no client holds one forever: how
/// long the request head and the request body may take to arrive, and how many
/// connections may be open at once.
///
/// | limit | default | beyond it |
/// |-------|---------|-----------|
/// | [`HttpLimits::header_read_timeout`] | 10 s | the connection is closed without an answer (hyper's `header_read_timeout`); the clock starts when the connection opens and again after each answer, so it also closes an idle keep-alive connection |
/// | [`HttpLimits::body_read_timeout`] | 30 s | `408 Request Timeout` with a JSON-RPC error (`-32600`) and `Connection: close`; the clock starts when the request head has arrived and covers the whole body, however it trickles in |
/// | [`HttpLimits::max_connections`] | 256 | the next connection is not accepted until an open one closes: it waits, unread, in the kernel's accept queue |
///
/// Neither timeout limits the answer: a tool that works for minutes, or an
/// event stream that stays open, is never cut off by them.
///
/// ```
/// use std::time::Duration;
/// use mcp_lang_reference::serve::HttpLimits;
///
/// let limits = HttpLimits::new()
///     .header_read_timeout(Duration::from_secs(5))
///     .max_connections(64);
/// assert_eq!(limits.get_header_read_timeout(), Duration::from_secs(5));
/// assert_eq!(limits.get_body_read_timeout(), HttpLimits::DEFAULT_BODY_READ_TIMEOUT);
/// assert_eq!(limits.get_max_connections(), 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HttpLimits {
    header_read_timeout: Duration,
    body_read_timeout: Duration,
    max_connections: usize,
}

#[cfg(feature = "http")]
impl Default for HttpLimits {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(feature = "http")]
impl HttpLimits {
    /// The default time for a request head to arrive: 10 s.
    ///
    /// ```
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// assert_eq!(HttpLimits::new().get_header_read_timeout(), HttpLimits::DEFAULT_HEADER_READ_TIMEOUT);
    /// ```
    pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default time for a request body to arrive after its head: 30 s.
    ///
    /// ```
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// assert_eq!(HttpLimits::new().get_body_read_timeout(), HttpLimits::DEFAULT_BODY_READ_TIMEOUT);
    /// ```
    pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);
    /// The default number of connections open at once: 256.
    ///
    /// ```
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// assert_eq!(HttpLimits::new().get_max_connections(), HttpLimits::DEFAULT_MAX_CONNECTIONS);
    /// ```
    pub const DEFAULT_MAX_CONNECTIONS: usize = 256;

    /// The default limits.
    ///
    /// ```
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// assert_eq!(HttpLimits::new(), HttpLimits::default());
    /// ```
    pub const fn new() -> Self {
        HttpLimits {
            header_read_timeout: Self::DEFAULT_HEADER_READ_TIMEOUT,
            body_read_timeout: Self::DEFAULT_BODY_READ_TIMEOUT,
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
        }
    }

    /// How long a request head (the request line and every field line) may take
    /// to arrive, counted from when the connection opens or its previous answer
    /// ends. A zero duration is taken as 1 ms.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// let limits = HttpLimits::new().header_read_timeout(Duration::from_secs(3));
    /// assert_eq!(limits.get_header_read_timeout(), Duration::from_secs(3));
    /// ```
    pub const fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = at_least_a_millisecond(timeout);
        self
    }

    /// How long a request body may take to arrive in full, counted from when its
    /// head has arrived. A zero duration is taken as 1 ms.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// let limits = HttpLimits::new().body_read_timeout(Duration::from_secs(60));
    /// assert_eq!(limits.get_body_read_timeout(), Duration::from_secs(60));
    /// ```
    pub const fn body_read_timeout(mut self, timeout: Duration) -> Self {
        self.body_read_timeout = at_least_a_millisecond(timeout);
        self
    }

    /// How many connections may be open at once; 0 is taken as 1.
    ///
    /// ```
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// assert_eq!(HttpLimits::new().max_connections(0).get_max_connections(), 1);
    /// ```
    pub const fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = if connections == 0 { 1 } else { connections };
        self
    }

    /// The header-read timeout.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// assert_eq!(HttpLimits::new().get_header_read_timeout(), Duration::from_secs(10));
    /// ```
    pub const fn get_header_read_timeout(&self) -> Duration {
        self.header_read_timeout
    }

    /// The body-read timeout.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// assert_eq!(HttpLimits::new().get_body_read_timeout(), Duration::from_secs(30));
    /// ```
    pub const fn get_body_read_timeout(&self) -> Duration {
        self.body_read_timeout
    }

    /// The connection limit.
    ///
    /// ```
    /// use mcp_lang_reference::serve::HttpLimits;
    ///
    /// assert_eq!(HttpLimits::new().get_max_connections(), 256);
    /// ```
    pub const fn get_max_connections(&self) -> usize {
        self.max_connections
    }
}

#[cfg(feature = "http")]
const fn at_least_a_millisecond(timeout: Duration) -> Duration {
    if timeout.is_zero() {
        Duration::from_millis(1)
    } else {
        timeout
    }
}
