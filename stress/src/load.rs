//! The load generator: N concurrent clients on loopback, each on its own
//! keep-alive connection, each request with its own random preference, every
//! answer checked against [`Expectation`].
//!
//! A request's preference travels the way a SEP-2792 client sends it: in
//! `_meta` and mirrored into one `Accept-Language` line. Every
//! [`LoadConfig::stripped_every`]-th request drops the header (a proxy that
//! strips it), and every [`LoadConfig::absent_every`]-th sends no preference at
//! all. What counts:
//!
//! - an **error** is a request that did not get a `200` JSON-RPC result
//!   (connection failure, other status, an error object);
//! - a **mismatch** is a `200` result in the wrong language: `contentLanguage`,
//!   a title, the `Content-Language` line, `Vary` or, for a stripped header,
//!   `Cache-Control: private` not what that request's own preference calls for.

use std::{
    net::SocketAddr,
    sync::Arc,
    time::{Duration, Instant},
};

use crate::{
    Expectation, Rng,
    client::Connection,
    expect::{Mismatch, tools_list},
    preference,
};

/// How much load, and of what shape.
#[derive(Clone, Copy, Debug)]
pub struct LoadConfig {
    /// Concurrent clients, one connection each.
    pub clients: usize,
    /// Requests each client sends, one after another.
    pub requests_per_client: usize,
    /// Seed of every client's preferences (client `i` uses `seed + i`).
    pub seed: u64,
    /// Every n-th request sends `_meta` without the header (0: never).
    pub stripped_every: usize,
    /// Every n-th request sends no preference at all (0: never).
    pub absent_every: usize,
    /// Check `Content-Language`, `Vary` and `Cache-Control` (the layer is in front).
    pub check_headers: bool,
}

impl Default for LoadConfig {
    fn default() -> LoadConfig {
        LoadConfig {
            clients: 16,
            requests_per_client: 500,
            seed: 2792,
            stripped_every: 7,
            absent_every: 11,
            check_headers: true,
        }
    }
}

/// The outcome of a run.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Requests sent.
    pub requests: usize,
    /// Requests without a `200` JSON-RPC result.
    pub errors: usize,
    /// `200` results in another preference's language.
    pub mismatches: usize,
    /// The first few problems, for the log.
    pub problems: Vec<String>,
    /// Wall time of the whole run.
    pub elapsed: Duration,
    /// Every request's latency, sorted ascending.
    pub latencies: Vec<Duration>,
}

impl LoadReport {
    /// Requests per second over the run.
    pub fn throughput(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.requests as f64 / secs
        } else {
            0.0
        }
    }

    /// The `p`-th percentile latency (`p` in 0..=100).
    pub fn percentile(&self, p: usize) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let rank = (self.latencies.len() * p.min(100)).div_ceil(100);
        let index = rank.saturating_sub(1).min(self.latencies.len() - 1);
        self.latencies.get(index).copied().unwrap_or_default()
    }

    fn merge(&mut self, other: ClientTally) {
        self.requests += other.requests;
        self.errors += other.errors;
        self.mismatches += other.mismatches;
        for problem in other.problems {
            if self.problems.len() < 10 {
                self.problems.push(problem);
            }
        }
        self.latencies.extend(other.latencies);
    }
}

#[derive(Default)]
struct ClientTally {
    requests: usize,
    errors: usize,
    mismatches: usize,
    problems: Vec<String>,
    latencies: Vec<Duration>,
}

impl ClientTally {
    fn note(&mut self, problem: String) {
        if self.problems.len() < 10 {
            self.problems.push(problem);
        }
    }
}

/// Runs `config` against the server at `addr` (endpoint `path`).
pub async fn run(
    addr: SocketAddr,
    path: &str,
    config: LoadConfig,
    expectation: Arc<Expectation>,
) -> LoadReport {
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(config.clients);
    for client in 0..config.clients {
        let expectation = Arc::clone(&expectation);
        let path = path.to_owned();
        tasks.push(tokio::spawn(async move {
            one_client(addr, &path, client, config, &expectation).await
        }));
    }
    let mut report = LoadReport::default();
    for task in tasks {
        match task.await {
            Ok(tally) => report.merge(tally),
            Err(error) => {
                report.errors += config.requests_per_client;
                report.problems.push(format!("client task failed: {error}"));
            }
        }
    }
    report.elapsed = started.elapsed();
    report.latencies.sort_unstable();
    report
}

async fn one_client(
    addr: SocketAddr,
    path: &str,
    client: usize,
    config: LoadConfig,
    expectation: &Expectation,
) -> ClientTally {
    let mut rng = Rng::new(config.seed.wrapping_add(client as u64));
    let mut tally = ClientTally::default();
    let mut connection: Option<Connection> = None;
    for n in 1..=config.requests_per_client {
        tally.requests += 1;
        let preference = if config.absent_every > 0 && n % config.absent_every == 0 {
            None
        } else {
            Some(preference::random(&mut rng))
        };
        let stripped = config.stripped_every > 0 && n % config.stripped_every == 0;
        let header: Vec<&str> = match (&preference, stripped) {
            (Some(p), false) => vec![p.as_str()],
            _ => Vec::new(),
        };
        let id = (client as u64) << 32 | n as u64;
        let body = tools_list(id, preference.as_deref());
        let conn = match connection.as_mut() {
            Some(conn) => conn,
            None => match Connection::open(addr, path).await {
                Ok(conn) => connection.insert(conn),
                Err(error) => {
                    tally.errors += 1;
                    tally.note(format!("client {client}: connect: {error}"));
                    continue;
                }
            },
        };
        let sent = Instant::now();
        let answer = conn.post(body, &header).await;
        tally.latencies.push(sent.elapsed());
        let answer = match answer {
            Ok(answer) => answer,
            Err(error) => {
                tally.errors += 1;
                tally.note(format!("client {client} request {n}: {error}"));
                connection = None;
                continue;
            }
        };
        let headers = config.check_headers.then_some(&answer.headers);
        match expectation.check_tools_list(
            preference.as_deref(),
            answer.status,
            &answer.body,
            headers,
            stripped && preference.is_some(),
        ) {
            Ok(()) => {}
            Err(Mismatch::NotAResult(status, body)) => {
                tally.errors += 1;
                tally.note(format!("{preference:?}: status {status}: {body}"));
            }
            Err(mismatch) => {
                tally.mismatches += 1;
                tally.note(format!(
                    "{preference:?} (stripped: {stripped}): {mismatch:?}"
                ));
            }
        }
    }
    tally
}

/// One line of the report table.
pub fn table_row(label: &str, report: &LoadReport) -> String {
    format!(
        "| {label} | {} | {} | {} | {:.0} | {:.2} | {:.2} |",
        report.requests,
        report.errors,
        report.mismatches,
        report.throughput(),
        report.percentile(50).as_secs_f64() * 1e3,
        report.percentile(99).as_secs_f64() * 1e3,
    )
}

/// The header of the report table.
pub const TABLE_HEADER: &str = "| stack | requests | errors | mismatched variants | req/s | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|---:|---:|";
