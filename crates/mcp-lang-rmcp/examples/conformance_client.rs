//! This crate's client in the official MCP conformance suite's SEP-2792 client
//! scenario (`sep-2792-client-language`), following its everything-client
//! convention: the scenario in `MCP_CONFORMANCE_SCENARIO`, the server URL as
//! the last argument, the scenario's data in `MCP_CONFORMANCE_CONTEXT` and the
//! protocol version in `MCP_CONFORMANCE_PROTOCOL_VERSION` (`2026-07-28`: the
//! `server/discover` lifecycle; otherwise `initialize`).
//!
//! ```text
//! npx @modelcontextprotocol/conformance client --scenario sep-2792-client-language \
//!   --command "target/debug/examples/conformance_client"
//! ```
//!
//! The context's `preferences` are the user's language preference at each step
//! (`null`: none). At each step the client lists tools through
//! [`CachingClient`] (a cache keyed by the raw preference, so a changed
//! preference always reaches the server) and calls the first tool with
//! [`send_with_preference`]. [`LanguageHttpClient`] mirrors each request's
//! preference into one `Accept-Language` line; the requests rmcp sends itself
//! (`server/discover`, `initialize`) get the user's current preference from
//! [`WithPreference`], so every request carries it.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use mcp_lang_rmcp::ACCEPT_LANGUAGE_KEY;
use mcp_lang_rmcp::cache::CachingClient;
use mcp_lang_rmcp::client::{content_language, send_with_preference};
use mcp_lang_rmcp::reqwest_client::LanguageHttpClient;
use rmcp::RoleClient;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, GetMeta,
    ProtocolVersion, ServerJsonRpcMessage,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
use rmcp::transport::Transport;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransport, StreamableHttpClientTransportConfig,
};
use serde_json::Value;

/// The only scenario this client implements.
const SCENARIO: &str = "sep-2792-client-language";

/// The user's current language preference, shared by the application and
/// [`WithPreference`].
type Current = Arc<Mutex<Option<String>>>;

/// A transport that puts the user's current preference in the `_meta` of
/// every request that carries none, so the requests rmcp sends on its own
/// (the lifecycle's) carry it too.
struct WithPreference<T> {
    inner: T,
    current: Current,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for WithPreference<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        mut item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let current = self.current.lock().map(|c| c.clone()).unwrap_or_default();
        if let (ClientJsonRpcMessage::Request(request), Some(preference)) = (&mut item, current) {
            let meta = request.request.get_meta_mut();
            if !meta.contains_key(ACCEPT_LANGUAGE_KEY) {
                meta.insert(ACCEPT_LANGUAGE_KEY.to_owned(), Value::String(preference));
            }
        }
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<ServerJsonRpcMessage>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// Any error of a run: it ends the client with a non-zero status.
type Error = Box<dyn std::error::Error + Send + Sync>;

/// The user's preferences, step by step, from `MCP_CONFORMANCE_CONTEXT`.
fn preferences() -> Result<Vec<Option<String>>, Error> {
    let context: Value = serde_json::from_str(
        &std::env::var("MCP_CONFORMANCE_CONTEXT")
            .map_err(|_| "MCP_CONFORMANCE_CONTEXT is not set")?,
    )?;
    let list = context["preferences"]
        .as_array()
        .ok_or("MCP_CONFORMANCE_CONTEXT has no `preferences` array")?;
    list.iter()
        .map(|p| match p {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            other => Err(format!("a preference is neither a string nor null: {other}").into()),
        })
        .collect()
}

/// `server/discover` for the stateless protocol the runner names, `initialize`
/// otherwise.
fn lifecycle() -> Result<ClientLifecycleMode, Error> {
    match std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION") {
        Ok(version) if version.as_str() >= "2026-07-28" => {
            let version: ProtocolVersion = serde_json::from_value(Value::String(version))?;
            Ok(ClientLifecycleMode::Discover {
                preferred_versions: vec![version],
            })
        }
        _ => Ok(ClientLifecycleMode::Initialize),
    }
}

/// The scenario against the server at `url`: at each step of the user's preferences,
/// `tools/list` and then `tools/call` for the first tool listed.
async fn run(url: &str) -> Result<(), Error> {
    let preferences = preferences()?;
    let current: Current = Arc::new(Mutex::new(preferences.first().cloned().flatten()));
    let transport = WithPreference {
        inner: StreamableHttpClientTransport::with_client(
            LanguageHttpClient::new(reqwest::Client::new()),
            StreamableHttpClientTransportConfig::with_uri(url),
        ),
        current: current.clone(),
    };
    let client = ().serve_with_lifecycle(transport, lifecycle()?).await?;
    let cache = CachingClient::new(client.peer().clone());
    for (step, preference) in preferences.iter().enumerate() {
        *current.lock().map_err(|_| "poisoned")? = preference.clone();
        let preference = preference.as_deref();
        let tools = cache.list_tools(None, preference).await?;
        let tool = tools.tools.first().ok_or("tools/list listed no tool")?;
        let call = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new(tool.name.clone()),
        ));
        let result = send_with_preference(client.peer(), call, preference).await?;
        eprintln!(
            "step {}: preference {preference:?}, tool {:?}, answered in {:?}",
            step + 1,
            tool.title,
            content_language(&result)
        );
    }
    client.cancel().await?;
    Ok(())
}

/// Checks the scenario and the arguments, then runs it; exits non-zero on any error.
#[tokio::main]
async fn main() -> ExitCode {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let Some(url) = std::env::args().skip(1).last() else {
        eprintln!("usage: MCP_CONFORMANCE_SCENARIO={SCENARIO} conformance_client <server-url>");
        return ExitCode::FAILURE;
    };
    if scenario != SCENARIO {
        eprintln!("unknown scenario {scenario:?}; this client implements {SCENARIO}");
        return ExitCode::FAILURE;
    }
    match run(&url).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
