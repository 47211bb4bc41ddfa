//! A keep-alive HTTP/1.1 client connection (hyper) that POSTs MCP messages,
//! one request at a time, as one Streamable HTTP client would.

use std::net::SocketAddr;

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request, header};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// The MCP protocol version the requests announce.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// The most response bytes read; a larger answer is an error.
pub const MAX_RESPONSE: usize = 16 << 20;

/// One answer: status, headers, body.
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// Every response field line.
    pub headers: HeaderMap,
    /// The body (at most [`MAX_RESPONSE`] bytes).
    pub body: Bytes,
}

/// A client errors: connecting, sending, or reading.
pub type ClientError = Box<dyn std::error::Error + Send + Sync>;

/// One TCP connection to the server, reused for every request.
#[derive(Debug)]
pub struct Connection {
    addr: SocketAddr,
    path: String,
    sender: SendRequest<Full<Bytes>>,
}

impl Connection {
    /// Connects to `addr`; requests go to `path` (e.g. `/mcp`).
    ///
    /// # Errors
    ///
    /// The TCP connection or the HTTP/1.1 handshake failed.
    pub async fn open(addr: SocketAddr, path: &str) -> Result<Connection, ClientError> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(Connection {
            addr,
            path: path.to_owned(),
            sender,
        })
    }

    /// POSTs `body` with the MCP headers, plus one `Accept-Language` line per
    /// element of `accept_language`.
    ///
    /// # Errors
    ///
    /// The connection broke, or the answer is larger than [`MAX_RESPONSE`].
    pub async fn post(
        &mut self,
        body: String,
        accept_language: &[&str],
    ) -> Result<Answer, ClientError> {
        let mut request = Request::post(&self.path)
            .header(header::HOST, self.addr.to_string())
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream")
            .header("mcp-protocol-version", PROTOCOL_VERSION)
            .body(Full::new(Bytes::from(body)))?;
        for line in accept_language {
            request
                .headers_mut()
                .append(header::ACCEPT_LANGUAGE, HeaderValue::from_str(line)?);
        }
        self.sender.ready().await?;
        let response = self.sender.send_request(request).await?;
        let (parts, incoming) = response.into_parts();
        let limited = http_body_util::Limited::new(incoming, MAX_RESPONSE);
        let body = limited.collect().await?.to_bytes();
        Ok(Answer {
            status: parts.status.as_u16(),
            headers: parts.headers,
            body,
        })
    }
}
