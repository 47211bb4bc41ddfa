//! Serving an alteration on stdio: handler alterations in the handler,
//! message faults in a transport around the one `mcp-lang serve --stdio`
//! ships.

use mcp_lang_reference::ReferenceServer;
use mcp_lang_reference::serve::{serve_transport, stdio_transport, stream_transport};
use rmcp::RoleServer;
use rmcp::model::{ClientRequest, ErrorCode, ErrorData, JsonRpcMessage, ServerJsonRpcMessage};

use crate::{Alteration, AlteredServer, Fault, Latitude, message};

/// Serves one client on stdin/stdout with `alteration`, through the
/// transport `mcp-lang serve --stdio` ships.
///
/// # Errors
///
/// `alteration` acts on HTTP only (it has nothing to act on over stdio, and
/// serving the unaltered server under its name would mislead), or the
/// initialization failed or the transport broke.
///
/// `no_run`: it would take over the test's own stdin and stdout.
///
/// ```no_run
/// # async fn serve() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// use mcp_lang_reference::ReferenceServer;
/// use mcp_lang_faults::{Fault, serve_stdio};
///
/// serve_stdio(ReferenceServer::new()?, Some(Fault::ReportPreference.into())).await?;
/// # Ok(())
/// # }
/// ```
pub async fn serve_stdio(
    server: ReferenceServer,
    alteration: Option<Alteration>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    if let Some(alteration) = alteration.filter(|a| !a.layer().acts_on_stdio()) {
        return Err(format!(
            "{alteration} acts only on Streamable HTTP (serve --http), not on stdio"
        )
        .into());
    }
    serve_on(server, stdio_transport(), alteration).await
}

/// Serves one client on `io`, a byte stream carrying JSON-RPC lines (an
/// in-process pipe, a socket), with `alteration`: a handler alteration in the
/// handler, a message fault in the transport, an HTTP one not at all (there
/// is no HTTP here). It returns when the client goes away.
///
/// # Errors
///
/// The initialization failed or the transport broke.
///
/// ```no_run
/// use mcp_lang_reference::ReferenceServer;
/// use mcp_lang_faults::{Fault, serve_stream};
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// // Progress notifications lose their contentLanguage (`tests/fault_pieces.rs`).
/// let (server_io, client_io) = tokio::io::duplex(1 << 16);
/// tokio::spawn(serve_stream(ReferenceServer::new()?, server_io, Some(Fault::OmitNotificationLanguage.into())));
/// // ... write JSON-RPC lines on client_io, read the answers ...
/// # drop(client_io);
/// # Ok(()) }
/// ```
pub async fn serve_stream<S>(
    server: ReferenceServer,
    io: S,
    alteration: Option<Alteration>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + 'static,
{
    let (read, write) = tokio::io::split(io);
    serve_on(server, stream_transport(read, write), alteration).await
}

async fn serve_on<T>(
    server: ReferenceServer,
    transport: T,
    alteration: Option<Alteration>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    T: rmcp::transport::Transport<RoleServer> + 'static,
{
    let fault = match alteration {
        Some(Alteration::Fault(f)) if message::alters_messages(f) => Some(f),
        _ => None,
    };
    let transport = AlteredTransport {
        inner: transport,
        fault,
        default: server.languages().default_tag().to_owned(),
        handshake_only: alteration == Some(Alteration::Latitude(Latitude::HandshakeOnly)),
    };
    serve_transport(AlteredServer::new(server, alteration), transport).await
}

/// A server transport that applies a message fault to what the server sends,
/// or, under [`Latitude::HandshakeOnly`], answers `server/discover` as a
/// server before protocol 2026-07-28 does: it does not know the method.
struct AlteredTransport<T> {
    inner: T,
    fault: Option<Fault>,
    default: String,
    handshake_only: bool,
}

impl<T> rmcp::transport::Transport<RoleServer> for AlteredTransport<T>
where
    T: rmcp::transport::Transport<RoleServer>,
{
    type Error = T::Error;

    fn send(
        &mut self,
        item: rmcp::service::TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let item = match self.fault {
            Some(fault) => altered(fault, &self.default, item),
            None => item,
        };
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<rmcp::service::RxJsonRpcMessage<RoleServer>> {
        loop {
            let message = self.inner.receive().await?;
            if let JsonRpcMessage::Request(request) = &message
                && self.handshake_only
                && matches!(request.request, ClientRequest::DiscoverRequest(_))
            {
                let unknown = ErrorData::new(ErrorCode::METHOD_NOT_FOUND, "Method not found", None);
                let answer = ServerJsonRpcMessage::error(unknown, Some(request.id.clone()));
                self.inner.send(answer).await.ok()?;
                continue;
            }
            return Some(message);
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// The message with `fault` applied ([`message::alter`]).
fn altered(
    fault: Fault,
    default: &str,
    item: rmcp::service::TxJsonRpcMessage<RoleServer>,
) -> rmcp::service::TxJsonRpcMessage<RoleServer> {
    let Ok(mut value) = serde_json::to_value(&item) else {
        return item;
    };
    if !message::alter(fault, default, &mut value) {
        return item;
    }
    serde_json::from_value(value).unwrap_or(item)
}
