//! The cost of SEP-2792 inside an rmcp server: one `tools/call` through the same rmcp
//! server with `mcp-lang` (wrapped in `mcp_lang_rmcp::server::Localized`, and on HTTP
//! behind the language layer) and without it, over stateless Streamable HTTP and over a
//! byte stream as stdio carries it.
//!
//! The server is a plain rmcp `#[tool_router]` server with one tool. `mcp-lang` adds
//! what every request of an SEP-2792 server pays and nothing else: reading the
//! preference, checking the HTTP mirror, negotiating, handing the handler its
//! `Language`, reporting `contentLanguage`, and on HTTP `Vary` and `Content-Language`.
//! No catalog is installed, so no text is looked up: translation is the server's own
//! work, not the SEP's.
//!
//! - `rmcp-server/http-tools-call/{rmcp,mcp-lang}`: one request of protocol 2026-07-28
//!   (no session) through `StreamableHttpService` with `json_response`, called as a
//!   tower service on a current-thread runtime, its JSON answer collected. Each server
//!   is served the way its documentation shows: plain rmcp as rmcp's own tower service,
//!   `mcp-lang` as `mcp_lang_rmcp::http` shows it, the layer in front of
//!   `SharedStreamableHttpService` (which also spares rmcp's own copy of its service in
//!   every call, part of the difference);
//! - `rmcp-server/stdio-tools-call/{rmcp,mcp-lang}`: one request written as a line into
//!   an in-memory pipe to a server started with `rmcp::serve_server`, its answer line
//!   read back.
//!
//! `cargo xtask callgrind` reports the difference of each pair (`…/sep`) and holds it to
//! its baseline: it may fall, not rise.

use std::hint::black_box;
use std::sync::Arc;

use bytes::Bytes;
use criterion::{Criterion, criterion_group};
use http::Request;
use http::header::CONTENT_TYPE;
use http_body_util::{BodyExt, Full};
use mcp_lang_benches::callgrind::{self, Operation};
use mcp_lang_rmcp::http::{LanguageLayer, SharedStreamableHttpService};
use mcp_lang_rmcp::server::{Localized, ServerLanguages};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::runtime::Runtime;
use tower_layer::Layer;
use tower_service::Service;

/// The preference every request sends, in `_meta` and in `Accept-Language`.
const PREFERENCE: &str = "fr-CA, fr;q=0.9, en;q=0.5";

/// The plain rmcp server: one tool, as rmcp's documentation writes it, the router built
/// once and kept (not built again for every call).
#[derive(Clone)]
struct Greeter {
    tool_router: ToolRouter<Greeter>,
}

impl Greeter {
    fn new() -> Greeter {
        Greeter {
            tool_router: Greeter::tool_router(),
        }
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct GreetArgs {
    name: String,
}

#[tool_router]
impl Greeter {
    #[tool(title = "Greet", description = "Greets someone by name.")]
    fn greet(&self, Parameters(GreetArgs { name }): Parameters<GreetArgs>) -> String {
        format!("Hello, {name}!")
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Greeter {}

fn localized() -> Localized<Greeter> {
    let languages = ServerLanguages::new(["en", "fr"], "en").unwrap_or_else(|_| unreachable!());
    Localized::new(Greeter::new(), languages)
}

/// A `tools/call` of protocol 2026-07-28, with the preference in `_meta`.
const HTTP_BODY: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},"_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CA, fr;q=0.9, en;q=0.5","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"0"}}}}"#;

fn http_request() -> Request<Full<Bytes>> {
    Request::post("/mcp")
        .header(CONTENT_TYPE, "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("host", "localhost")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "greet")
        .header("accept-language", PREFERENCE)
        .body(Full::new(Bytes::from_static(HTTP_BODY.as_bytes())))
        .unwrap_or_default()
}

fn http_service<S: ServerHandler + Clone>(
    server: S,
) -> StreamableHttpService<S, LocalSessionManager> {
    let mut config = StreamableHttpServerConfig::default();
    config.legacy_session_mode = false;
    config.json_response = true;
    StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    )
}

/// One request through `service`: the answer's status and body.
async fn http_call<S, B>(service: &mut S) -> (u16, Bytes)
where
    S: Service<Request<Full<Bytes>>, Response = http::Response<B>>,
    B: http_body::Body<Data = Bytes>,
{
    let Ok(response) = service.call(http_request()).await else {
        unreachable!("the services here never fail")
    };
    let status = response.status().as_u16();
    let body = response
        .into_body()
        .collect()
        .await
        .map(|collected| collected.to_bytes())
        .unwrap_or_default();
    (status, body)
}

/// A `tools/call` line of protocol 2025-11-25, after `initialize` on the same stream.
const STDIO_LINE: &str = concat!(
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},"#,
    r#""_meta":{"io.modelcontextprotocol/acceptLanguage":"fr-CA, fr;q=0.9, en;q=0.5"}}}"#,
    "\n"
);

const INITIALIZE: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","#,
    r#""capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n"
);

/// The client's end of an in-memory stdio: lines go to the server, answer lines come back.
struct Stdio {
    to_server: WriteHalf<DuplexStream>,
    from_server: BufReader<ReadHalf<DuplexStream>>,
    line: String,
}

impl Stdio {
    /// Starts `server` on the runtime's pipe and initializes it.
    async fn start<S: ServerHandler>(server: S) -> Stdio {
        let (client, server_io) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            if let Ok(running) = rmcp::serve_server(server, server_io).await {
                let _ = running.waiting().await;
            }
        });
        let (read, write) = tokio::io::split(client);
        let mut stdio = Stdio {
            to_server: write,
            from_server: BufReader::new(read),
            line: String::new(),
        };
        let _ = stdio.to_server.write_all(INITIALIZE.as_bytes()).await;
        let _ = stdio.from_server.read_line(&mut stdio.line).await;
        stdio
    }

    /// One request: its answer line's length.
    async fn call(&mut self) -> usize {
        self.line.clear();
        let _ = self.to_server.write_all(STDIO_LINE.as_bytes()).await;
        let _ = self.from_server.read_line(&mut self.line).await;
        self.line.len()
    }
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|_| unreachable!("a current-thread runtime builds"))
}

/// Everything one measurement needs, on one runtime: the two HTTP services and the
/// two stdio pipes.
struct Servers {
    runtime: Runtime,
    http_plain: StreamableHttpService<Greeter, LocalSessionManager>,
    http_sep: mcp_lang_rmcp::http::LanguageService<
        SharedStreamableHttpService<Localized<Greeter>, LocalSessionManager>,
    >,
    stdio_plain: Stdio,
    stdio_sep: Stdio,
}

impl Servers {
    fn new() -> Servers {
        let runtime = runtime();
        let (stdio_plain, stdio_sep) = runtime.block_on(async {
            (
                Stdio::start(Greeter::new()).await,
                Stdio::start(localized()).await,
            )
        });
        Servers {
            runtime,
            http_plain: http_service(Greeter::new()),
            http_sep: LanguageLayer::new()
                .layer(SharedStreamableHttpService::new(http_service(localized()))),
            stdio_plain,
            stdio_sep,
        }
    }
}

/// Checks once that both servers answer, and that only the SEP one reports a language.
fn check(servers: &mut Servers) {
    let (status, plain) = servers.runtime.block_on(http_call(&mut servers.http_plain));
    assert_eq!(status, 200, "{plain:?}");
    assert!(!String::from_utf8_lossy(&plain).contains("contentLanguage"));
    let (status, sep) = servers.runtime.block_on(http_call(&mut servers.http_sep));
    assert_eq!(status, 200, "{sep:?}");
    let sep = String::from_utf8_lossy(&sep);
    assert!(
        sep.contains(r#""io.modelcontextprotocol/contentLanguage":"en""#),
        "{sep}"
    );
    let Servers {
        runtime,
        stdio_plain,
        stdio_sep,
        ..
    } = servers;
    runtime.block_on(stdio_plain.call());
    assert!(
        stdio_plain.line.contains("Hello, Ada!"),
        "{}",
        stdio_plain.line
    );
    assert!(!stdio_plain.line.contains("contentLanguage"));
    runtime.block_on(stdio_sep.call());
    assert!(
        stdio_sep.line.contains("contentLanguage"),
        "{}",
        stdio_sep.line
    );
}

fn rmcp_server(c: &mut Criterion) {
    let mut servers = Servers::new();
    check(&mut servers);
    let Servers {
        runtime,
        http_plain,
        http_sep,
        stdio_plain,
        stdio_sep,
    } = &mut servers;

    let mut group = c.benchmark_group("rmcp-server/http-tools-call");
    group.bench_function("rmcp", |b| {
        b.iter(|| black_box(runtime.block_on(http_call(http_plain))))
    });
    group.bench_function("mcp-lang", |b| {
        b.iter(|| black_box(runtime.block_on(http_call(http_sep))))
    });
    group.finish();

    let mut group = c.benchmark_group("rmcp-server/stdio-tools-call");
    group.bench_function("rmcp", |b| {
        b.iter(|| black_box(runtime.block_on(stdio_plain.call())))
    });
    group.bench_function("mcp-lang", |b| {
        b.iter(|| black_box(runtime.block_on(stdio_sep.call())))
    });
    group.finish();
}

criterion_group!(benches, rmcp_server);

/// The operations `--callgrind` counts (see `mcp_lang_benches::callgrind`): one request
/// through each server and transport.
fn operations(servers: &mut Servers) -> Vec<Operation<'_>> {
    let Servers {
        runtime,
        http_plain,
        http_sep,
        stdio_plain,
        stdio_sep,
    } = servers;
    let runtime: &Runtime = runtime;
    vec![
        Operation::new("rmcp-server/http-tools-call/rmcp", None, move || {
            usize::from(runtime.block_on(http_call(http_plain)).0)
        }),
        Operation::new("rmcp-server/http-tools-call/mcp-lang", None, move || {
            usize::from(runtime.block_on(http_call(http_sep)).0)
        }),
        Operation::new("rmcp-server/stdio-tools-call/rmcp", None, move || {
            runtime.block_on(stdio_plain.call())
        }),
        Operation::new("rmcp-server/stdio-tools-call/mcp-lang", None, move || {
            runtime.block_on(stdio_sep.call())
        }),
    ]
}

fn main() {
    let mut servers = Servers::new();
    check(&mut servers);
    if callgrind::hook(|| operations(&mut servers)) {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
