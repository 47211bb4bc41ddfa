//! Serving the reference server: stdio, and Streamable HTTP behind the
//! SEP-2792 tower layer.
//!
//! On HTTP the stack is, outermost first: axum's router → `mcp-lang-http`'s
//! [`LanguageLayer`] (exact agreement, 400/-32020, `Content-Language`, `Vary`,
//! `Cache-Control: private`) → rmcp's [`StreamableHttpService`] → the
//! [`ReferenceServer`] handler. rmcp's service is a plain tower service, so the
//! layer wraps it like any other; the handler then finds the same request's
//! HTTP parts in its `RequestContext` and re-checks agreement as a second line
//! of defence.
//!
//! By default the HTTP server is stateless with JSON responses (rmcp's
//! `json_response`), as SEP-2575 stateless MCP recommends: each POST is
//! answered by one JSON body whose `contentLanguage` the layer mirrors into
//! `Content-Language`. A request whose handler sends notifications first (a
//! tool reporting progress) is answered as an event stream, where the
//! language travels in each message's `_meta` only.

#[cfg(feature = "http")]
use std::{net::SocketAddr, sync::Arc};

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
pub const MCP_PATH: &str = "/mcp";

#[cfg(feature = "http")]
/// How the Streamable HTTP endpoint keeps state.
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
/// # Errors
///
/// The initialization failed or the transport broke.
pub async fn serve_stdio(
    server: ReferenceServer,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    use rmcp::ServiceExt;
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}

#[cfg(feature = "http")]
/// The axum router with the MCP endpoint at [`MCP_PATH`], behind the
/// SEP-2792 layer. `cancel` stops rmcp's open streams on shutdown.
pub fn http_router(
    server: ReferenceServer,
    mode: HttpMode,
    cancel: CancellationToken,
) -> axum::Router {
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
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    axum::Router::new().nest_service(MCP_PATH, LanguageLayer::new().layer(service))
}

#[cfg(feature = "http")]
/// A running HTTP server: its address and a handle to stop it.
#[derive(Debug)]
pub struct HttpServer {
    addr: SocketAddr,
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

#[cfg(feature = "http")]
impl HttpServer {
    /// The bound address (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The endpoint URL, `http://ADDR/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.addr)
    }

    /// Stops accepting, ends open streams, and waits for the server task.
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
pub async fn spawn_http(
    server: ReferenceServer,
    addr: SocketAddr,
    mode: HttpMode,
) -> std::io::Result<HttpServer> {
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let cancel = CancellationToken::new();
    let router = http_router(server, mode, cancel.child_token());
    let stop = cancel.clone();
    let task = tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async move { stop.cancelled().await })
            .await
    });
    Ok(HttpServer { addr, cancel, task })
}
