//! The official MCP conformance suite's fixtures (`mcp_lang_reference::fixtures`),
//! in process over a duplex pipe, without npm: absent by default (the server
//! the demo, the tests and the SEP-2792 suite see is unchanged), present with
//! `with_conformance_fixtures`, and still under the SEP-2792 machinery — every
//! request negotiated, `contentLanguage` on results, errors and notifications.

#![allow(deprecated)] // sampling and logging: legacy in rmcp, what the official suite checks

use mcp_lang_rmcp::CONTENT_LANGUAGE_KEY;
use std::sync::{Arc, Mutex};

use mcp_lang_reference::{
    ReferenceServer,
    fixtures::{LanguageFixture, PROMPT_NAMES, STATIC_BINARY_URI, STATIC_TEXT_URI, TOOL_NAMES},
};
use mcp_lang_rmcp::client::{content_language, send_with_preference};
use rmcp::{
    ClientHandler, RoleClient, ServiceExt,
    model::{
        CallToolRequest, CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest,
        CompleteRequest, CompleteRequestParams, CreateMessageRequestParams, CreateMessageResult,
        ElicitRequestParams, ElicitResult, ElicitationAction, GetPromptRequest,
        GetPromptRequestParams, ListPromptsRequest, ListResourcesRequest, ListToolsRequest,
        LoggingLevel, LoggingMessageNotificationParam, NotificationMetaObject,
        ProgressNotificationParam, ReadResourceRequest, ReadResourceRequestParams, Reference,
        SamplingMessage, ServerResult, SetLevelRequest, SetLevelRequestParams,
    },
    service::{NotificationContext, RequestContext, RunningService},
};
use serde_json::{Value, json};

/// A client with sampling and elicitation that records what the server sends
/// it, with each message's `_meta`.
#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<(f64, Value)>>>,
    logs: Arc<Mutex<Vec<(Value, Value)>>>,
    elicitations: Arc<Mutex<Vec<Value>>>,
    samplings: Arc<Mutex<usize>>,
}

/// rmcp 3.11 leaves a received notification's `_meta` in the context's
/// extensions (see tests/in_process.rs).
fn notification_meta(context: &NotificationContext<RoleClient>) -> Value {
    context
        .extensions
        .get::<NotificationMetaObject>()
        .map_or(Value::Null, |m| serde_json::to_value(m).unwrap())
}

impl ClientHandler for Recorder {
    async fn create_message(
        &self,
        _params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, rmcp::ErrorData> {
        *self.samplings.lock().unwrap() += 1;
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text("Bonjour from the model"),
            "test-model".to_owned(),
        ))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        self.elicitations
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        let mut result = ElicitResult::new(ElicitationAction::Accept);
        result.content = Some(json!({ "username": "ada", "email": "ada@example.org" }));
        Ok(result)
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        context: NotificationContext<RoleClient>,
    ) {
        let meta = notification_meta(&context);
        self.progress.lock().unwrap().push((params.progress, meta));
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        context: NotificationContext<RoleClient>,
    ) {
        let meta = notification_meta(&context);
        self.logs.lock().unwrap().push((params.data, meta));
    }

    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.capabilities = ClientCapabilities::builder()
            .enable_elicitation()
            .enable_sampling()
            .build();
        info
    }
}

async fn connect(
    server: ReferenceServer,
    recorder: Recorder,
) -> (RunningService<RoleClient, Recorder>, Value) {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = recorder.serve(client_io).await.unwrap();
    let capabilities = serde_json::to_value(&client.peer_info().unwrap().capabilities).unwrap();
    (client, capabilities)
}

fn call(name: &str, arguments: Value) -> ClientRequest {
    let params = CallToolRequestParams::new(name.to_owned())
        .with_arguments(arguments.as_object().cloned().unwrap_or_default());
    ClientRequest::CallToolRequest(CallToolRequest::new(params))
}

fn get_prompt(name: &str, arguments: Value) -> ClientRequest {
    let mut params = GetPromptRequestParams::new(name);
    params.arguments = arguments.as_object().cloned();
    ClientRequest::GetPromptRequest(GetPromptRequest::new(params))
}

fn read(uri: &str) -> ClientRequest {
    ClientRequest::ReadResourceRequest(ReadResourceRequest::new(ReadResourceRequestParams::new(
        uri,
    )))
}

fn wire(result: &ServerResult) -> Value {
    serde_json::to_value(result).unwrap()
}

/// The names (or URIs) of a list result's items under `key`.
fn listed(result: &ServerResult, key: &str, field: &str) -> Vec<String> {
    wire(result)[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item[field].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn the_fixtures_are_absent_by_default() {
    let (client, capabilities) =
        connect(ReferenceServer::new().unwrap(), Recorder::default()).await;
    let peer = client.peer();
    for optional in ["logging", "completions"] {
        assert!(
            capabilities.get(optional).is_none(),
            "{optional}: {capabilities}"
        );
    }
    assert!(capabilities["resources"].get("subscribe").is_none());

    let tools = send_with_preference(
        peer,
        ClientRequest::ListToolsRequest(ListToolsRequest::default()),
        Some("de"),
    )
    .await
    .unwrap();
    let tools = listed(&tools, "tools", "name");
    assert!(
        tools.iter().all(|n| !TOOL_NAMES.contains(&n.as_str())),
        "{tools:?}"
    );
    let prompts = send_with_preference(
        peer,
        ClientRequest::ListPromptsRequest(ListPromptsRequest::default()),
        None,
    )
    .await
    .unwrap();
    let prompts = listed(&prompts, "prompts", "name");
    assert!(
        prompts.iter().all(|n| !PROMPT_NAMES.contains(&n.as_str())),
        "{prompts:?}"
    );
    let resources = send_with_preference(
        peer,
        ClientRequest::ListResourcesRequest(ListResourcesRequest::default()),
        None,
    )
    .await
    .unwrap();
    let resources = listed(&resources, "resources", "uri");
    assert!(
        resources.iter().all(|uri| !uri.starts_with("test://")),
        "{resources:?}"
    );

    // Calling a fixture is calling an unknown tool: the localized error.
    let error = send_with_preference(peer, call("test_simple_text", json!({})), Some("fr"))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("Outil inconnu"), "{error}");
    // The fixture resource and the optional methods are not there either.
    assert!(
        send_with_preference(peer, read(STATIC_TEXT_URI), None)
            .await
            .is_err()
    );
    let set_level = ClientRequest::SetLevelRequest(SetLevelRequest::new(
        SetLevelRequestParams::new(LoggingLevel::Info),
    ));
    let error = send_with_preference(peer, set_level, None)
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("-32601") || error.to_string().contains("not found"),
        "{error}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn the_fixtures_are_present_with_the_option_and_report_their_language() {
    let server = ReferenceServer::new().unwrap().with_conformance_fixtures();
    let recorder = Recorder::default();
    let (client, capabilities) = connect(server, recorder.clone()).await;
    let peer = client.peer();
    assert!(capabilities.get("logging").is_some(), "{capabilities}");
    assert!(capabilities.get("completions").is_some(), "{capabilities}");
    assert_eq!(capabilities["resources"]["subscribe"], true);

    // The list is negotiated as ever: the showcase titles in German, the
    // fixtures beside them, the list stamped `de`.
    let tools = send_with_preference(
        peer,
        ClientRequest::ListToolsRequest(ListToolsRequest::default()),
        Some("de"),
    )
    .await
    .unwrap();
    assert_eq!(content_language(&tools), Some("de"));
    let names = listed(&tools, "tools", "name");
    assert!(names.contains(&"weather_current".to_owned()));
    assert!(
        TOOL_NAMES.iter().all(|t| names.iter().any(|n| n == t)),
        "{names:?}"
    );

    // A fixture's output is English whatever the preference, and says so (R4).
    let result = send_with_preference(peer, call("test_simple_text", json!({})), Some("ja"))
        .await
        .unwrap();
    assert_eq!(content_language(&result), Some("en"));
    assert_eq!(
        wire(&result)["content"][0]["text"],
        "This is a simple text response for testing."
    );
    let error = send_with_preference(peer, call("test_error_handling", json!({})), Some("ga"))
        .await
        .unwrap();
    assert_eq!(wire(&error)["isError"], true);
    assert_eq!(content_language(&error), Some("en"));

    // Progress 0, 50, 100 of 100, each notification stamped `en`.
    let result = send_with_preference(peer, call("test_tool_with_progress", json!({})), Some("fr"))
        .await
        .unwrap();
    assert_eq!(content_language(&result), Some("en"));
    let progress = recorder.progress.lock().unwrap().clone();
    assert_eq!(
        progress.iter().map(|p| p.0).collect::<Vec<_>>(),
        [0.0, 50.0, 100.0]
    );
    for (_, meta) in &progress {
        assert_eq!(meta[CONTENT_LANGUAGE_KEY], "en", "{meta}");
    }

    // Three info log messages, stamped `en`; none once the level is above info.
    let result = send_with_preference(peer, call("test_tool_with_logging", json!({})), None)
        .await
        .unwrap();
    assert_eq!(content_language(&result), Some("en"));
    let logs = recorder.logs.lock().unwrap().clone();
    assert_eq!(logs.len(), 3, "{logs:?}");
    assert_eq!(logs[0].0, "Tool execution started");
    for (_, meta) in &logs {
        assert_eq!(meta[CONTENT_LANGUAGE_KEY], "en", "{meta}");
    }
    let set_level = ClientRequest::SetLevelRequest(SetLevelRequest::new(
        SetLevelRequestParams::new(LoggingLevel::Warning),
    ));
    send_with_preference(peer, set_level, None).await.unwrap();
    send_with_preference(peer, call("test_tool_with_logging", json!({})), None)
        .await
        .unwrap();
    assert_eq!(
        recorder.logs.lock().unwrap().len(),
        3,
        "info is below warning"
    );

    // Sampling and elicitation go back to the client.
    let result = send_with_preference(
        peer,
        call("test_sampling", json!({ "prompt": "Say hello" })),
        Some("de"),
    )
    .await
    .unwrap();
    assert_eq!(*recorder.samplings.lock().unwrap(), 1);
    assert_eq!(
        wire(&result)["content"][0]["text"],
        "LLM response: Bonjour from the model"
    );
    assert_eq!(content_language(&result), Some("en"));
    send_with_preference(
        peer,
        call("test_elicitation_sep1034_defaults", json!({})),
        None,
    )
    .await
    .unwrap();
    send_with_preference(
        peer,
        call("test_elicitation_sep1330_enums", json!({})),
        None,
    )
    .await
    .unwrap();
    let elicitations = recorder.elicitations.lock().unwrap().clone();
    let defaults = &elicitations[0]["requestedSchema"]["properties"];
    assert_eq!(defaults["name"]["default"], "John Doe");
    assert_eq!(defaults["age"]["default"], 30);
    assert_eq!(defaults["score"]["default"], 95.5);
    assert_eq!(defaults["status"]["default"], "active");
    assert_eq!(defaults["verified"]["default"], true);
    let enums = &elicitations[1]["requestedSchema"]["properties"];
    assert_eq!(
        enums["legacyEnum"]["enumNames"].as_array().unwrap().len(),
        3
    );
    assert_eq!(
        enums["titledMulti"]["items"]["anyOf"][0]["title"],
        "First Choice"
    );
    assert_eq!(enums["titledSingle"]["oneOf"][1]["const"], "value2");

    // Prompts, resources, the template and completion: English, stamped `en`.
    let prompt = send_with_preference(
        peer,
        get_prompt(
            "test_prompt_with_arguments",
            json!({ "arg1": "a1", "arg2": "a2" }),
        ),
        Some("fr-CA"),
    )
    .await
    .unwrap();
    assert_eq!(content_language(&prompt), Some("en"));
    assert!(wire(&prompt).to_string().contains("arg1='a1', arg2='a2'"));
    for uri in [
        STATIC_TEXT_URI,
        STATIC_BINARY_URI,
        "test://template/123/data",
    ] {
        let result = send_with_preference(peer, read(uri), Some("ja"))
            .await
            .unwrap();
        assert_eq!(content_language(&result), Some("en"), "{uri}");
        assert_eq!(wire(&result)["contents"][0]["uri"], uri);
    }
    let complete =
        ClientRequest::CompleteRequest(CompleteRequest::new(CompleteRequestParams::new(
            Reference::for_prompt("test_prompt_with_arguments"),
            rmcp::model::ArgumentInfo::new("arg1", "PA"),
        )));
    let result = send_with_preference(peer, complete, None).await.unwrap();
    assert_eq!(content_language(&result), Some("en"));
    assert_eq!(
        wire(&result)["completion"]["values"],
        json!(["paris", "park", "party"])
    );

    // A user-facing error inside a fixture is still in the request's language.
    let error = send_with_preference(peer, call("test_sampling", json!({})), Some("de"))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("Fehlendes Argument"), "{error}");
    let error = send_with_preference(peer, read("test://template//data"), Some("fr"))
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("test://template//data"),
        "{error}"
    );
    client.cancel().await.unwrap();
}

/// The four fixtures of the official suite's SEP-2792 scenario localize as the
/// reference's own tools do: each answer in the request's language, reported.
#[tokio::test(flavor = "current_thread")]
async fn the_language_fixtures_localize_and_report_their_language() {
    let plain = ReferenceServer::new().unwrap();
    let (client, _) = connect(plain, Recorder::default()).await;
    let tools = send_with_preference(
        client.peer(),
        ClientRequest::ListToolsRequest(ListToolsRequest::default()),
        None,
    )
    .await
    .unwrap();
    let names = listed(&tools, "tools", "name");
    for fixture in LanguageFixture::ALL {
        assert!(!names.iter().any(|n| n == fixture.name()), "{names:?}");
    }
    client.cancel().await.unwrap();

    let server = ReferenceServer::new().unwrap().with_conformance_fixtures();
    let recorder = Recorder::default();
    let (client, _) = connect(server, recorder.clone()).await;
    let peer = client.peer();

    // The elicitation's message and labels in German, its key unchanged
    // (this handshake protocol sends it to the client as elicitation/create).
    send_with_preference(
        peer,
        call("test_localized_elicitation", json!({})),
        Some("de"),
    )
    .await
    .unwrap();
    let elicitation = recorder.elicitations.lock().unwrap()[0].clone();
    assert_eq!(
        elicitation["message"],
        "Bitte geben Sie Ihre E-Mail-Adresse ein."
    );
    assert_eq!(
        elicitation["requestedSchema"]["properties"]["email"]["title"],
        "E-Mail-Adresse"
    );

    // Each progress notification in French reports it.
    send_with_preference(peer, call("test_localized_progress", json!({})), Some("fr"))
        .await
        .unwrap();
    let progress = recorder.progress.lock().unwrap().clone();
    assert_eq!(progress.len(), 4, "{progress:?}");
    for (_, meta) in &progress {
        assert_eq!(meta[CONTENT_LANGUAGE_KEY], "fr", "{meta}");
    }

    // The explicit argument wins over the preference, both ways.
    for (preference, explicit, text) in [
        ("de", "fr", "Tous les êtres humains"),
        ("fr", "de", "Alle Menschen"),
    ] {
        let result = send_with_preference(
            peer,
            call("test_explicit_language", json!({ "language": explicit })),
            Some(preference),
        )
        .await
        .unwrap();
        assert_eq!(content_language(&result), Some(explicit));
        let content = wire(&result)["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(content.starts_with(text), "{content}");
    }
    // Without it, the fixture says what it needs, in the request's language.
    let error = send_with_preference(peer, call("test_explicit_language", json!({})), Some("de"))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("Fehlendes Argument"), "{error}");

    // The error: its message in each language, reported in error.data._meta,
    // its code the same.
    for (preference, message) in [
        (
            "fr",
            "L'outil test_localized_error échoue toujours, volontairement.",
        ),
        (
            "en",
            "The tool test_localized_error always fails, on purpose.",
        ),
    ] {
        let error = send_with_preference(
            peer,
            call("test_localized_error", json!({})),
            Some(preference),
        )
        .await
        .unwrap_err();
        let mcp_lang_rmcp::client::SendError::Service(rmcp::service::ServiceError::McpError(data)) =
            error
        else {
            panic!("expected a JSON-RPC error, got {error:?}");
        };
        assert_eq!(data.code.0, -32603);
        assert_eq!(data.message, message);
        assert_eq!(
            data.data.unwrap()["_meta"][CONTENT_LANGUAGE_KEY],
            preference
        );
    }
    client.cancel().await.unwrap();
}

/// On protocol 2026-07-28, which the official suite's SEP-2792 scenario speaks,
/// the elicitation fixture is the SEP's `input_required` result.
#[tokio::test(flavor = "current_thread")]
async fn the_elicitation_fixture_is_an_input_required_result_on_2026_07_28() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = ReferenceServer::new().unwrap().with_conformance_fixtures();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = rmcp::service::serve_client_with_lifecycle(
        Recorder::default(),
        client_io,
        rmcp::service::ClientLifecycleMode::Discover {
            preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
        },
    )
    .await
    .unwrap();
    let result = send_with_preference(
        client.peer(),
        call("test_localized_elicitation", json!({})),
        Some("fr"),
    )
    .await
    .unwrap();
    let value = wire(&result);
    assert_eq!(value["resultType"], "input_required");
    let request = &value["inputRequests"]["contact"];
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(
        request["params"]["message"],
        "Veuillez saisir votre adresse e-mail."
    );
    assert_eq!(
        request["params"]["requestedSchema"]["properties"]["email"]["description"],
        "Adresse pour la confirmation"
    );
    assert_eq!(value["_meta"][CONTENT_LANGUAGE_KEY], "fr");
    client.cancel().await.unwrap();
}
