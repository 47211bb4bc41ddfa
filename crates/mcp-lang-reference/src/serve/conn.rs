//! Serving HTTP/1.1 connections with the limits of [`HttpLimits`]: hyper's
//! header-read timeout (with tokio's timer), a deadline on each request body,
//! and a semaphore on accepted connections.

use std::{
    io,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use hyper::{body::Incoming, server::conn::http1};
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    server::graceful::GracefulShutdown,
};
use pin_project_lite::pin_project;
use tokio::{
    net::TcpListener,
    sync::Semaphore,
    time::{Instant, Sleep, sleep_until},
};
use tokio_util::sync::CancellationToken;
use tower_service::Service;

use super::HttpLimits;

/// The error type of a request body.
type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Accepts connections on `listener` until `stop` is cancelled, each served by
/// `router` under `limits`; then stops accepting, asks every open connection to
/// finish (hyper's graceful shutdown: idle ones close at once, a request in
/// progress is answered first) and waits for them.
pub(super) async fn serve(
    mut listener: TcpListener,
    router: axum::Router,
    limits: HttpLimits,
    stop: CancellationToken,
) {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.get_header_read_timeout());
    let slots = Arc::new(Semaphore::new(limits.get_max_connections()));
    let graceful = GracefulShutdown::new();
    let body_timeout = limits.get_body_read_timeout();
    loop {
        // A free slot first: over the limit, new connections wait in the
        // kernel's accept queue, unread, until an open one closes.
        let slot = tokio::select! {
            biased;
            () = stop.cancelled() => break,
            slot = Arc::clone(&slots).acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break, // never closed
            },
        };
        let (stream, _) = tokio::select! {
            biased;
            () = stop.cancelled() => break,
            // axum's accept retries on errors (a connection reset before it
            // was accepted, too many open files) instead of failing.
            accepted = axum::serve::Listener::accept(&mut listener) => accepted,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |request: http::Request<Incoming>| {
            let deadline = Instant::now() + body_timeout;
            let request = request.map(|body| DeadlineBody::new(body, deadline, body_timeout));
            router.clone().call(request)
        });
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("connection closed: {e}");
            }
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

pin_project! {
    /// A request body that must arrive in full by a deadline, set when the
    /// request head has been read. Past it, the next read fails with an
    /// `io::Error` of kind `TimedOut`, which the language layer answers with
    /// `408 Request Timeout` and `Connection: close`.
    ///
    /// A total deadline rather than tower-http's `TimeoutBody`, which waits at
    /// most a given time for *each* frame: a client sending one byte per
    /// interval would never be cut off by that.
    struct DeadlineBody<B> {
        #[pin]
        body: B,
        deadline: Instant,
        timeout: Duration,
        // Made on the first read, so that a body nobody reads costs no timer.
        #[pin]
        sleep: Option<Sleep>,
        done: bool,
    }
}

impl<B> DeadlineBody<B> {
    fn new(body: B, deadline: Instant, timeout: Duration) -> Self {
        DeadlineBody {
            body,
            deadline,
            timeout,
            sleep: None,
            done: false,
        }
    }
}

impl<B> Body for DeadlineBody<B>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let mut this = self.project();
        if *this.done {
            return Poll::Ready(None);
        }
        // The deadline first: a body that trickles in is ready often, and
        // must still be cut off.
        if this.sleep.is_none() {
            this.sleep.set(Some(sleep_until(*this.deadline)));
        }
        if let Some(sleep) = this.sleep.as_mut().as_pin_mut()
            && sleep.poll(cx).is_ready()
        {
            *this.done = true;
            let error = io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "the whole body must arrive within {:?} of the request head",
                    this.timeout
                ),
            );
            return Poll::Ready(Some(Err(error.into())));
        }
        let frame = match this.body.poll_frame(cx) {
            Poll::Ready(frame) => frame,
            Poll::Pending => return Poll::Pending,
        };
        if frame.is_none() {
            // The end: no timer left running for a finished body.
            *this.done = true;
            this.sleep.set(None);
        }
        Poll::Ready(frame.map(|frame| frame.map_err(Into::into)))
    }

    fn is_end_stream(&self) -> bool {
        self.done || self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::{BodyExt, StreamBody};

    fn trickle(every: Duration) -> impl Body<Data = Bytes, Error = io::Error> {
        let frames = futures::stream::unfold((), move |()| async move {
            tokio::time::sleep(every).await;
            Some((
                Ok::<_, io::Error>(Frame::data(Bytes::from_static(b"x"))),
                (),
            ))
        });
        StreamBody::new(frames)
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_trickles_in_is_cut_off_at_the_deadline() {
        let timeout = Duration::from_secs(3);
        let start = Instant::now();
        let body = DeadlineBody::new(
            trickle(Duration::from_millis(500)),
            start + timeout,
            timeout,
        );
        let error = body.collect().await.unwrap_err();
        let io = error.downcast_ref::<io::Error>().unwrap();
        assert_eq!(io.kind(), io::ErrorKind::TimedOut);
        assert_eq!(Instant::now() - start, timeout);
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_arrives_in_time_is_untouched_and_leaves_no_timer() {
        let timeout = Duration::from_secs(3);
        let body = http_body_util::Full::new(Bytes::from_static(b"{}"));
        let mut body = std::pin::pin!(DeadlineBody::new(body, Instant::now() + timeout, timeout));
        assert_eq!(
            body.frame().await.unwrap().unwrap().into_data().unwrap(),
            "{}"
        );
        assert!(body.frame().await.is_none());
        assert!(body.is_end_stream() && body.sleep.is_none());
        // Long after the deadline, a finished body stays finished.
        tokio::time::sleep(timeout * 2).await;
        assert!(body.frame().await.is_none());
    }
}
