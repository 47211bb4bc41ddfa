//! The stdio transport: newline-delimited JSON-RPC on a pair of byte streams,
//! read and written with rmcp's own message types and encoder, and answering
//! what rmcp's `AsyncRwTransport` drops.
//!
//! rmcp 3.11's `AsyncRwTransport` (what `rmcp::transport::stdio` serves on)
//! reads each line into `RxJsonRpcMessage`, and when that fails:
//!
//! - a line that is not JSON (bad syntax, invalid UTF-8, a NUL or other control
//!   character in a string, nesting over 127 levels, serde_json's limit) is
//!   dropped with a debug log and no answer, to avoid "an error storm" with a
//!   peer that echoes errors back;
//! - a line that is JSON but not a message (a duplicated `_meta` key, a wrong
//!   type) is answered with `-32600` "Invalid request" and no `id` member;
//! - a notification with an unknown method is ignored;
//! - a line over `DEFAULT_MAX_LINE_LENGTH` (16 MiB) is dropped, with an error
//!   log, and no answer.
//!
//! So a request the client sent with an id could go unanswered. This transport
//! reads the lines itself, with the same limit, parses each into the same
//! `RxJsonRpcMessage`, and answers what cannot be read: `-32700` with
//! `"id": null` for text that is not JSON, `-32600` echoing the id exactly as
//! written for JSON that is not a message, `-32600` with `"id": null` for a
//! line over the limit; then it goes on with the next line. A notification or
//! a response that cannot be read is logged and not answered (JSON-RPC never
//! answers either, which is also what keeps two peers from trading errors).
//! Sending is rmcp's encoder (`JsonRpcMessageCodec`: the message, then a
//! newline).

use std::sync::Arc;

use bytes::{BufMut, Bytes, BytesMut};
use futures::{SinkExt, StreamExt};
use rmcp::{
    RoleServer,
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::async_rw::{DEFAULT_MAX_LINE_LENGTH, JsonRpcMessageCodec},
};
use tokio::{
    io::{AsyncRead, AsyncWrite},
    sync::Mutex,
};
use tokio_util::codec::{
    AnyDelimiterCodec, AnyDelimiterCodecError, Decoder, Encoder, FramedRead, FramedWrite,
};

use super::jsonrpc;

/// A UTF-8 byte order mark, which rmcp skips at the start of a line (RFC 8259
/// §8.1 lets a parser ignore it).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One line of input.
enum Line {
    /// A whole line, without its `\n`.
    Text(Bytes),
    /// A line longer than the limit, dropped unread.
    TooLong,
}

/// Lines in (bounded, an overlong line reported once and skipped, never an
/// error that would end the stream) and messages out.
#[derive(Debug)]
struct LineCodec {
    lines: AnyDelimiterCodec,
}

impl LineCodec {
    fn new(max_line_length: usize) -> Self {
        LineCodec {
            lines: AnyDelimiterCodec::new_with_max_length(
                b"\n".to_vec(),
                Vec::new(),
                max_line_length,
            ),
        }
    }
}

impl Decoder for LineCodec {
    type Item = Line;
    type Error = std::io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Line>, std::io::Error> {
        match self.lines.decode(buf) {
            Ok(line) => Ok(line.map(Line::Text)),
            Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => Ok(Some(Line::TooLong)),
            Err(AnyDelimiterCodecError::Io(e)) => Err(e),
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Line>, std::io::Error> {
        // As rmcp does: bytes after the last newline are an incomplete message.
        let line = self.decode(buf)?;
        if line.is_none() {
            buf.clear();
        }
        Ok(line)
    }
}

impl Encoder<TxJsonRpcMessage<RoleServer>> for LineCodec {
    type Error = std::io::Error;

    fn encode(
        &mut self,
        message: TxJsonRpcMessage<RoleServer>,
        buf: &mut BytesMut,
    ) -> Result<(), std::io::Error> {
        JsonRpcMessageCodec::default()
            .encode(message, buf)
            .map_err(Into::into)
    }
}

/// A message already serialized (one of this transport's own errors).
impl Encoder<Bytes> for LineCodec {
    type Error = std::io::Error;

    fn encode(&mut self, message: Bytes, buf: &mut BytesMut) -> Result<(), std::io::Error> {
        buf.reserve(message.len() + 1);
        buf.put_slice(&message);
        buf.put_u8(b'\n');
        Ok(())
    }
}

type Writer<W> = Arc<Mutex<FramedWrite<W, LineCodec>>>;

/// The stdio transport of the reference server (see the module docs).
pub(crate) struct LineTransport<R, W> {
    lines: FramedRead<R, LineCodec>,
    write: Writer<W>,
    /// An error answer not yet flushed, and whether it is in the writer's buffer.
    pending: Option<(Bytes, bool)>,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    pub(crate) fn new(read: R, write: W) -> Self {
        LineTransport {
            lines: FramedRead::new(read, LineCodec::new(DEFAULT_MAX_LINE_LENGTH)),
            write: Arc::new(Mutex::new(FramedWrite::new(
                write,
                LineCodec::new(DEFAULT_MAX_LINE_LENGTH),
            ))),
            pending: None,
        }
    }

    /// Writes the pending answer. Each step is kept in `pending`, so a
    /// `receive` dropped half-way (rmcp polls it in a `select!`) resumes where
    /// it was on the next call instead of losing or repeating the answer.
    async fn flush_pending(&mut self) -> std::io::Result<()> {
        let Some((answer, queued)) = self.pending.as_mut() else {
            return Ok(());
        };
        let mut write = self.write.lock().await;
        if !*queued {
            write.feed(answer.clone()).await?;
            *queued = true;
        }
        SinkExt::<Bytes>::flush(&mut *write).await?;
        self.pending = None;
        Ok(())
    }
}

impl<R, W> rmcp::transport::Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = Arc::clone(&self.write);
        async move { write.lock().await.send(item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Err(e) = self.flush_pending().await {
                tracing::error!("cannot write to the client: {e}");
                return None;
            }
            let text = match self.lines.next().await? {
                Ok(Line::Text(text)) => text,
                Ok(Line::TooLong) => {
                    tracing::warn!(
                        limit = DEFAULT_MAX_LINE_LENGTH,
                        "a message over the line limit was dropped and answered -32600"
                    );
                    self.pending =
                        Some((jsonrpc::too_long_response(DEFAULT_MAX_LINE_LENGTH), false));
                    continue;
                }
                Err(e) => {
                    tracing::error!("cannot read from the client: {e}");
                    return None;
                }
            };
            let line = text.strip_suffix(b"\r").unwrap_or(&text);
            let line = line.strip_prefix(BOM).unwrap_or(line);
            if line.is_empty() {
                continue;
            }
            match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
                Ok(message) => return Some(message),
                Err(error) => match jsonrpc::error_response(line, &error, false) {
                    Some((code, answer)) => {
                        tracing::debug!(code, "answering a message that cannot be read: {error}");
                        self.pending = Some((answer, false));
                    }
                    None => tracing::debug!(
                        "ignoring a notification or response that cannot be read: {error}"
                    ),
                },
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        SinkExt::<Bytes>::close(&mut *self.write.lock().await).await
    }
}
