//! `server::Localized` around a server written with rmcp's `#[tool_router]` and
//! `#[prompt_router]` macros, driven by an rmcp client over an in-memory pipe (and, for
//! the HTTP mirror check, over Streamable HTTP without the tower layer): titles from
//! the catalog with no hand-written `list_tools`, the `Language` extractor, and the
//! language each kind of answer reports.

use std::sync::{Arc, Mutex};

use mcp_lang_rmcp::CONTENT_LANGUAGE_KEY;
use mcp_lang_rmcp::client::{SendError, content_language, send_with_preference};
use mcp_lang_rmcp::server::{
    Arg, Catalog, Language, Localized, ServerLanguages, catalog_fn, notify_progress, stamp,
};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, ErrorCode,
    GetPromptRequest, GetPromptRequestParams, GetPromptResult, ListPromptsRequest,
    ListToolsRequest, ListToolsResult, NotificationMetaObject, NumberOrString,
    PaginatedRequestParams, ProgressNotificationParam, ProgressToken, PromptMessage, Role,
    ServerCapabilities, ServerConfig, ServerResult,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::{
    ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt, prompt,
    prompt_handler, prompt_router, tool, tool_handler, tool_router,
};
use serde_json::{Value, json};

/// A calculator written as rmcp's macros expect, with English titles in the code and
/// no `list_tools` of its own.
#[derive(Clone)]
struct Calculator;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Operands {
    a: f64,
    b: f64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Steps {
    steps: u32,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Topic {
    topic: String,
}

#[tool_router]
impl Calculator {
    #[tool(
        title = "Divide",
        description = "Divides a by b.",
        annotations(title = "Division", read_only_hint = true)
    )]
    fn divide(
        &self,
        Parameters(o): Parameters<Operands>,
        language: Language,
    ) -> Result<String, ErrorData> {
        if o.b == 0.0 {
            return Err(language.error(ErrorCode::INVALID_PARAMS, "divide-by-zero", &[]));
        }
        Ok((o.a / o.b).to_string())
    }

    /// Reports progress by catalog id; its result is English and reads nothing.
    #[tool(title = "Count")]
    async fn count(
        &self,
        Parameters(s): Parameters<Steps>,
        language: Language,
    ) -> Result<String, ErrorData> {
        for step in 1..=s.steps {
            let left = s.steps - step;
            let total = f64::from(s.steps);
            language
                .progress(f64::from(step), total, "step", &[("n", left.into())])
                .await?;
        }
        Ok("Done.".to_owned())
    }

    /// Greets in the request's language: it reads the language.
    #[tool]
    fn greet(&self, language: Language) -> String {
        language.text("greeting")
    }

    /// Answers in English whatever the preference, and says so.
    #[tool]
    fn english(&self) -> CallToolResult {
        let mut result = CallToolResult::success(vec![rmcp::model::ContentBlock::text("Hi")]);
        stamp(&mut result.meta, "en");
        result
    }

    /// A plain English error, as any rmcp handler writes one.
    #[tool]
    fn plain_error(&self) -> Result<String, ErrorData> {
        Err(ErrorData::invalid_params("bad input", None))
    }

    /// An error whose `data` is a string: not an object, so it is left as it is.
    #[tool]
    fn string_data_error(&self) -> Result<String, ErrorData> {
        Err(ErrorData::internal_error("trace", Some(json!("trace-41"))))
    }
}

#[prompt_router]
impl Calculator {
    /// Takes the `Language` (a prompt extracts it too; outside `Localized` the call
    /// would fail) but writes English only.
    #[prompt(name = "explain", title = "Explain")]
    fn explain(&self, Parameters(t): Parameters<Topic>, _language: Language) -> GetPromptResult {
        GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Explain {}.", t.topic),
        )])
    }
}

#[tool_handler]
#[prompt_handler]
impl ServerHandler for Calculator {}

fn catalog() -> impl Catalog {
    catalog_fn(|language: &str, id: &str, args: &[(&str, Arg<'_>)]| {
        let text = match (language, id) {
            ("fr", "server") => "Calculatrice",
            ("fr", "tool-divide") => "Diviser",
            ("fr", "tool-divide.annotation-title") => "Division (lecture seule)",
            ("fr", "tool-count") => "Compter",
            ("fr", "divide-by-zero") => "La division par zéro n'est pas définie.",
            ("fr", "step") => "Plus que {n}… ({progress}/{total})",
            ("fr", "greeting") => "Bonjour",
            ("fr", "prompt-explain") => "Expliquer",
            ("fr", "prompt-explain.arg-topic") => "Sujet",
            ("en", "greeting") => "Hello",
            ("en", "step") => "{n} to go…",
            ("en", "divide-by-zero") => "Division by zero is not defined.",
            _ => return None,
        };
        Some(args.iter().fold(text.to_owned(), |t, (k, v)| {
            t.replace(&format!("{{{k}}}"), &v.to_string())
        }))
    })
}

fn server() -> Localized<Calculator> {
    let languages = ServerLanguages::new(["en", "fr", "de"], "en").unwrap();
    Localized::new(Calculator, languages).with_catalog(catalog())
}

/// A client that records the progress notifications it receives: (message,
/// contentLanguage).
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Received>>>);

/// A progress message and the `contentLanguage` it came with.
type Received = (String, Option<String>);

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        context: NotificationContext<RoleClient>,
    ) {
        // rmcp 3.11 hands a client the notification's `_meta` in the extensions.
        let language = context
            .extensions
            .get::<NotificationMetaObject>()
            .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let message = params.message.unwrap_or_default();
        self.0.lock().unwrap().push((message, language));
    }
}

async fn connect(recorder: Recorder) -> RunningService<RoleClient, Recorder> {
    connect_to(server(), recorder).await
}

/// `recorder`, connected over an in-memory pipe to `handler`.
async fn connect_to(
    handler: impl ServerHandler,
    recorder: Recorder,
) -> RunningService<RoleClient, Recorder> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    recorder.serve(client_io).await.unwrap()
}

/// A handler written without `Localized`, from the pieces it is built of: it
/// negotiates with `ServerLanguages::for_request`, reports progress with
/// `notify_progress` and stamps its result.
struct Plain(ServerLanguages);

impl ServerHandler for Plain {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let language = self.0.for_request(&context)?;
        let message = if language.selected() == "de" {
            "Halb fertig"
        } else {
            "Half done"
        };
        notify_progress(&context, &language, 1.0, Some(2.0), message)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let mut result = ListToolsResult::default();
        stamp(&mut result.meta, language.selected());
        Ok(result)
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::test(flavor = "current_thread")]
async fn the_pieces_negotiate_per_request_and_report_progress_in_its_language() {
    let languages = ServerLanguages::new(["en", "de"], "en").unwrap();
    let recorder = Recorder::default();
    let client = connect_to(Plain(languages), recorder.clone()).await;
    // rmcp's client gives every request a progress token.
    let list = ClientRequest::ListToolsRequest(ListToolsRequest::default());
    let list = send_with_preference(client.peer(), list, Some("de-AT, en;q=0.5"))
        .await
        .unwrap();
    // `for_request` negotiated from the request's `_meta`; `stamp` reported it.
    assert_eq!(content_language(&list), Some("de"));
    for _ in 0..1000 {
        if !recorder.0.lock().unwrap().is_empty() {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert_eq!(
        *recorder.0.lock().unwrap(),
        [("Halb fertig".to_owned(), Some("de".to_owned()))]
    );
    client.cancel().await.unwrap();
}

fn call(name: &str, arguments: Value) -> ClientRequest {
    let mut params = CallToolRequestParams::new(name.to_owned());
    params.arguments = arguments.as_object().cloned();
    ClientRequest::CallToolRequest(CallToolRequest::new(params))
}

fn wire(result: &ServerResult) -> Value {
    serde_json::to_value(result).unwrap()
}

fn error_of(outcome: Result<ServerResult, SendError>) -> Value {
    match outcome {
        Err(SendError::Service(rmcp::service::ServiceError::McpError(error))) => {
            serde_json::to_value(error).unwrap()
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test(flavor = "current_thread")]
async fn macro_titles_come_from_the_catalog_and_names_never_change() {
    let client = connect(Recorder::default()).await;
    let list = || ClientRequest::ListToolsRequest(ListToolsRequest::default());
    let french = wire(
        &send_with_preference(client.peer(), list(), Some("fr-CH, en;q=0.5"))
            .await
            .unwrap(),
    );
    let english = wire(
        &send_with_preference(client.peer(), list(), Some("en"))
            .await
            .unwrap(),
    );
    let tool = |list: &Value, name: &str| {
        list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(tool(&french, "divide")["title"], "Diviser");
    assert_eq!(
        tool(&french, "divide")["annotations"]["title"],
        "Division (lecture seule)"
    );
    assert_eq!(tool(&french, "divide")["annotations"]["readOnlyHint"], true);
    assert_eq!(tool(&french, "count")["title"], "Compter");
    // No French title in the catalog: the code's own title stays.
    assert_eq!(tool(&english, "divide")["title"], "Divide");
    assert_eq!(french["_meta"][CONTENT_LANGUAGE_KEY], "fr");
    // Identifiers and schemas are the same in every language.
    for name in ["divide", "count", "greet"] {
        assert_eq!(
            tool(&french, name)["inputSchema"],
            tool(&english, name)["inputSchema"]
        );
    }
    assert_eq!(
        french["tools"].as_array().unwrap().len(),
        english["tools"].as_array().unwrap().len()
    );
    // German: nothing in the catalog, nothing localized: reported as the default.
    let german = wire(
        &send_with_preference(client.peer(), list(), Some("de"))
            .await
            .unwrap(),
    );
    assert_eq!(tool(&german, "divide")["title"], "Divide");
    assert_eq!(german["_meta"][CONTENT_LANGUAGE_KEY], "en");

    let prompts = ClientRequest::ListPromptsRequest(ListPromptsRequest::default());
    let prompts = wire(
        &send_with_preference(client.peer(), prompts, Some("fr"))
            .await
            .unwrap(),
    );
    assert_eq!(prompts["prompts"][0]["name"], "explain");
    assert_eq!(prompts["prompts"][0]["title"], "Expliquer");
    assert_eq!(prompts["prompts"][0]["arguments"][0]["title"], "Sujet");
    assert_eq!(prompts["_meta"][CONTENT_LANGUAGE_KEY], "fr");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn each_result_reports_the_language_it_is_in() {
    let client = connect(Recorder::default()).await;
    let peer = client.peer();
    // A numeric result that read nothing: the default language, under any preference.
    let quotient = send_with_preference(peer, call("divide", json!({"a": 1, "b": 4})), Some("fr"))
        .await
        .unwrap();
    assert_eq!(content_language(&quotient), Some("en"));
    assert_eq!(wire(&quotient)["content"][0]["text"], "0.25");
    // A result built from what the handler read: the negotiated language.
    let greeting = send_with_preference(peer, call("greet", json!({})), Some("fr-CA, en;q=0.1"))
        .await
        .unwrap();
    assert_eq!(
        (
            wire(&greeting)["content"][0]["text"].as_str(),
            content_language(&greeting)
        ),
        (Some("Bonjour"), Some("fr"))
    );
    // What the handler stamped itself is kept.
    let english = send_with_preference(peer, call("english", json!({})), Some("fr"))
        .await
        .unwrap();
    assert_eq!(content_language(&english), Some("en"));
    // No preference at all: the default.
    let greeting = send_with_preference(peer, call("greet", json!({})), None)
        .await
        .unwrap();
    assert_eq!(
        (
            wire(&greeting)["content"][0]["text"].as_str(),
            content_language(&greeting)
        ),
        (Some("Hello"), Some("en"))
    );
    // A prompt that localizes nothing reports the default.
    let mut params = GetPromptRequestParams::new("explain");
    params.arguments = json!({"topic": "RFC 4647"}).as_object().cloned();
    let prompt = ClientRequest::GetPromptRequest(GetPromptRequest::new(params));
    let prompt = send_with_preference(peer, prompt, Some("fr"))
        .await
        .unwrap();
    assert_eq!(content_language(&prompt), Some("en"));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn every_error_reports_its_language_in_an_object_and_keeps_its_code() {
    let client = connect(Recorder::default()).await;
    let peer = client.peer();
    let localized = error_of(
        send_with_preference(peer, call("divide", json!({"a": 1, "b": 0})), Some("fr")).await,
    );
    assert_eq!(localized["code"], -32602);
    assert_eq!(
        localized["message"],
        "La division par zéro n'est pas définie."
    );
    assert_eq!(localized["data"]["_meta"][CONTENT_LANGUAGE_KEY], "fr");
    // The same error in English when that is what is asked.
    let english = error_of(
        send_with_preference(peer, call("divide", json!({"a": 1, "b": 0})), Some("de")).await,
    );
    assert_eq!(english["message"], "Division by zero is not defined.");
    assert_eq!(english["data"]["_meta"][CONTENT_LANGUAGE_KEY], "de");
    // A handler's plain English error: reported as English, data made an object.
    let plain =
        error_of(send_with_preference(peer, call("plain_error", json!({})), Some("fr")).await);
    assert_eq!(plain["code"], -32602);
    assert_eq!(
        plain["data"],
        json!({"_meta": {CONTENT_LANGUAGE_KEY: "en"}})
    );
    // `data` that is not an object is never overwritten.
    let string_data = error_of(
        send_with_preference(peer, call("string_data_error", json!({})), Some("fr")).await,
    );
    assert_eq!(string_data["data"], "trace-41");
    // rmcp's own error for an unknown tool, produced inside the router: reported too.
    let unknown =
        error_of(send_with_preference(peer, call("no_such_tool", json!({})), Some("fr")).await);
    assert_eq!(unknown["data"]["_meta"][CONTENT_LANGUAGE_KEY], "en");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn progress_is_localized_and_reported_per_notification() {
    let recorder = Recorder::default();
    let client = connect(recorder.clone()).await;
    let mut meta = mcp_lang_rmcp::client::preference_meta("fr").unwrap();
    meta.set_progress_token(ProgressToken(NumberOrString::Number(7)));
    let mut options = rmcp::service::PeerRequestOptions::no_options();
    options.meta = Some(meta);
    let result = client
        .peer()
        .send_request_with_option(call("count", json!({"steps": 2})), options)
        .await
        .unwrap()
        .await_response()
        .await
        .unwrap();
    // The notifications were localized; the result read nothing and is English.
    assert_eq!(content_language(&result), Some("en"));
    for _ in 0..1000 {
        if recorder.0.lock().unwrap().len() == 2 {
            break;
        }
        tokio::task::yield_now().await;
    }
    let received = recorder.0.lock().unwrap().clone();
    let fr = Some("fr".to_owned());
    assert_eq!(
        received,
        [
            ("Plus que 1… (1/2)".to_owned(), fr.clone()),
            ("Plus que 0… (2/2)".to_owned(), fr)
        ]
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn server_info_title_is_localized_at_initialize() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server().serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    // A raw initialize carrying a preference, as a client that sends it on every
    // request does.
    let (read, mut write) = tokio::io::split(client_io);
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
        "_meta": {"io.modelcontextprotocol/acceptLanguage": "fr"}}});
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    write
        .write_all(format!("{initialize}\n").as_bytes())
        .await
        .unwrap();
    let mut lines = tokio::io::BufReader::new(read).lines();
    let answer: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(answer["result"]["serverInfo"]["title"], "Calculatrice");
    assert_eq!(answer["result"]["serverInfo"]["name"], "rmcp");
    assert_eq!(answer["result"]["_meta"][CONTENT_LANGUAGE_KEY], "fr");
}

#[tokio::test(flavor = "current_thread")]
async fn a_handler_outside_localized_gets_a_typed_error() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = Calculator.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_io).await.unwrap();
    let error =
        error_of(send_with_preference(client.peer(), call("greet", json!({})), Some("fr")).await);
    assert_eq!(error["code"], -32603);
    assert!(
        error["message"].as_str().unwrap().contains("Localized"),
        "{error}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn without_the_tower_layer_a_disagreeing_header_is_still_refused() {
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    let mut config = StreamableHttpServerConfig::default();
    config.legacy_session_mode = false;
    config.json_response = true;
    let service = StreamableHttpService::new(
        || Ok(server()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let post = |header: &'static str| {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
            "io.modelcontextprotocol/acceptLanguage": "fr",
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}}}});
        reqwest::Client::new()
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/list")
            .header("accept-language", header)
            .body(body.to_string())
            .send()
    };
    let agreeing: Value = post("fr").await.unwrap().json().await.unwrap();
    assert_eq!(
        agreeing["result"]["_meta"][CONTENT_LANGUAGE_KEY], "fr",
        "{agreeing}"
    );
    let refused: Value = post("FR").await.unwrap().json().await.unwrap();
    assert_eq!(refused["error"]["code"], -32020, "{refused}");
    assert_eq!(refused["error"]["data"]["headerValue"], "FR");
}
