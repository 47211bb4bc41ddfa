//! The reference server on loopback, in this process: as `mcp-lang serve
//! --http` runs it (with `mcp-lang-http`'s tower layer in front of rmcp), and
//! the same rmcp service with no layer, to measure what the layer costs.
//!
//! Without the layer nothing checks agreement or writes `Content-Language`,
//! `Vary` or `Cache-Control`; the handler still negotiates from `_meta` and
//! reports `contentLanguage`. So the load generator checks only the body
//! against a bare server.

use std::{net::SocketAddr, sync::Arc};

use mcp_lang_reference::{
    ReferenceServer,
    serve::{HttpMode, HttpServer, MCP_PATH, spawn_http},
};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Which stack serves the requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stack {
    /// axum → `LanguageLayer` → rmcp → the reference handler (`mcp-lang serve --http`).
    Layer,
    /// axum → rmcp → the reference handler: no SEP-2792 HTTP binding.
    Bare,
}

impl Stack {
    /// `"layer"` or `"bare"`.
    pub fn name(self) -> &'static str {
        match self {
            Stack::Layer => "layer",
            Stack::Bare => "bare",
        }
    }
}

/// A server running on loopback in a background task.
#[derive(Debug)]
pub enum Running {
    /// Started by `mcp_lang_reference::serve::spawn_http`.
    Layer(HttpServer),
    /// The bare rmcp service.
    Bare {
        /// The bound address.
        addr: SocketAddr,
        /// Stops the server.
        cancel: CancellationToken,
        /// The accept loop.
        task: tokio::task::JoinHandle<std::io::Result<()>>,
    },
}

impl Running {
    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        match self {
            Running::Layer(http) => http.local_addr(),
            Running::Bare { addr, .. } => *addr,
        }
    }

    /// Stops the server and waits for it.
    pub async fn shutdown(self) {
        match self {
            Running::Layer(http) => http.shutdown().await,
            Running::Bare { cancel, task, .. } => {
                cancel.cancel();
                let _ = task.await;
            }
        }
    }
}

/// The path of the MCP endpoint.
pub const PATH: &str = MCP_PATH;

/// Starts the reference server (stateless, JSON responses) on
/// `127.0.0.1:0` with `stack`.
///
/// # Errors
///
/// The catalogs do not load or the port cannot be bound.
pub async fn start(stack: Stack) -> Result<Running, Box<dyn std::error::Error + Send + Sync>> {
    let server = ReferenceServer::new()?;
    let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
    match stack {
        Stack::Layer => Ok(Running::Layer(
            spawn_http(server, loopback, HttpMode::Stateless).await?,
        )),
        Stack::Bare => {
            let cancel = CancellationToken::new();
            let mut config = StreamableHttpServerConfig::default();
            config.cancellation_token = cancel.child_token();
            config.legacy_session_mode = false;
            config.json_response = true;
            let service = StreamableHttpService::new(
                move || Ok(server.clone()),
                Arc::new(LocalSessionManager::default()),
                config,
            );
            let router = axum::Router::new().nest_service(MCP_PATH, service);
            let listener = TcpListener::bind(loopback).await?;
            let addr = listener.local_addr()?;
            let stop = cancel.clone();
            let task = tokio::spawn(async move {
                axum::serve(listener, router)
                    .with_graceful_shutdown(async move { stop.cancelled().await })
                    .await
            });
            Ok(Running::Bare { addr, cancel, task })
        }
    }
}
