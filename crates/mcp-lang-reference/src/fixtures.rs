//! The fixtures of the official MCP conformance suite, behind an opt-in.
//!
//! `@modelcontextprotocol/conformance` (server mode) does not only check what a
//! server says about itself: most of its scenarios call tools, prompts and
//! resources by fixed names that it expects from its own "everything" test
//! server — `test_simple_text`, `test_prompt_with_arguments`,
//! `test://static-text` and so on — and the optional capabilities `logging`,
//! `completions` and `resources.subscribe`. This module is those fixtures, with
//! the names, contents and sequences the suite's scenarios check (progress
//! `0 → 50 → 100` of 100, three `info` log messages 50 ms apart, a sampling and
//! three elicitations sent back to the client, ...).
//!
//! **They are for the official suite only.** All but four are not part of
//! SEP-2792 and show none of it; the four of [`LanguageFixture`] are the tools
//! the fixture contract of the SEP-2792 scenario this project contributes to
//! that suite (`sep-2792-language`) names, each one of the reference's own
//! SEP-2792 tools under that name. They are off by default, so the demo, the tests and the
//! SEP-2792 conformance suite (`mcp-lang conformance`) see the reference server
//! unchanged; [`ReferenceServer::with_conformance_fixtures`] (and
//! `mcp-lang serve --conformance-fixtures`) adds them beside the showcase.
//!
//! The SEP machinery stays on top of them: every request is negotiated as for
//! any other method (a disagreeing HTTP mirror is still rejected with -32020),
//! and errors meant for the user come from the catalogs in the request's
//! language. The other fixtures' own output is fixed English text, model-facing
//! like the reference's tool output, so results, log and progress notifications
//! report [`FIXTURE_LANGUAGE`] (decision R4 in `docs/decisions.md`). The fixture
//! tools and prompts carry no `title`, so there is no display text to localize
//! in their definitions.
//!
//! Two results cannot carry `contentLanguage`: `logging/setLevel` and
//! `resources/subscribe`/`unsubscribe` answer `{}`, which rmcp models as
//! `EmptyResult`, without a `_meta` slot.
//!
//! ```
//! use mcp_lang_reference::{ReferenceServer, fixtures::TOOL_NAMES};
//!
//! let plain = ReferenceServer::new().unwrap();
//! let english = plain.languages().negotiate_raw(None);
//! assert!(plain.tools(&english).iter().all(|t| !TOOL_NAMES.contains(&t.name.as_ref())));
//!
//! let suite = plain.with_conformance_fixtures();
//! let names: Vec<String> = suite.tools(&english).iter().map(|t| t.name.to_string()).collect();
//! assert!(TOOL_NAMES.iter().all(|name| names.iter().any(|n| n == name)));
//! ```
//!
//! [`ReferenceServer::with_conformance_fixtures`]: crate::ReferenceServer::with_conformance_fixtures

// Sampling, logging and `resources/subscribe` are deprecated in rmcp by
// SEP-2577 (protocol 2026-07-28), but they are what the suite checks for the
// protocol versions up to 2025-11-25 it runs.
#![allow(deprecated)]

use std::{
    sync::{
        Arc,
        atomic::{AtomicU8, Ordering},
    },
    time::Duration,
};

use mcp_lang_rmcp::server::{Language, content_language_meta, form_elicitation, stamp};
use rmcp::{
    ErrorData, RoleServer,
    model::{
        ArgumentInfo, CallToolRequestParams, CallToolResponse, CallToolResult,
        CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock,
        CreateMessageRequestParams, ElicitResult, ErrorCode, GetPromptRequestParams,
        GetPromptResult, JsonObject, LoggingLevel, LoggingMessageNotificationParam,
        NotificationMetaObject, ProgressNotificationParam, Prompt, PromptMessage,
        ReadResourceResult, Reference, Resource, ResourceContents, ResourceTemplate, Role,
        SamplingMessage, Tool,
    },
    service::RequestContext,
};
use serde_json::{Value, json};

/// The language of every fixture's output: fixed English text.
///
/// ```
/// assert_eq!(mcp_lang_reference::fixtures::FIXTURE_LANGUAGE, "en");
/// ```
pub const FIXTURE_LANGUAGE: &str = "en";

/// The fixture tools, by the names the official suite calls.
///
/// ```
/// use mcp_lang_reference::fixtures::TOOL_NAMES;
///
/// assert!(TOOL_NAMES.contains(&"test_simple_text"));
/// assert!(TOOL_NAMES.iter().all(|name| name.starts_with("test_")));
/// ```
pub const TOOL_NAMES: &[&str] = &[
    "test_simple_text",
    "test_image_content",
    "test_audio_content",
    "test_embedded_resource",
    "test_multiple_content_types",
    "test_tool_with_logging",
    "test_error_handling",
    "test_tool_with_progress",
    "test_sampling",
    "test_elicitation",
    "test_elicitation_sep1034_defaults",
    "test_elicitation_sep1330_enums",
    "test_localized_elicitation",
    "test_localized_progress",
    "test_explicit_language",
    "test_localized_error",
];

/// A tool of the official suite's SEP-2792 scenario (`sep-2792-language`),
/// which localizes: the scenario's fixture contract names four, and each is
/// answered as the reference's own tool that does the same.
///
/// ```
/// use mcp_lang_reference::fixtures::{LanguageFixture, TOOL_NAMES};
///
/// assert_eq!(LanguageFixture::named("test_localized_progress"), Some(LanguageFixture::Progress));
/// assert_eq!(LanguageFixture::named("prepare_report"), None);
/// for fixture in LanguageFixture::ALL {
///     assert!(TOOL_NAMES.contains(&fixture.name()));
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LanguageFixture {
    /// `test_localized_elicitation`: `send_confirmation`'s elicitation of an
    /// e-mail address, its message and property labels in the request's
    /// language (an `input_required` result from protocol 2026-07-28 on).
    Elicitation,
    /// `test_localized_progress`: `prepare_report`, whose progress messages
    /// are in the request's language and each report it.
    Progress,
    /// `test_explicit_language`: `get_official_document` for the first
    /// official document, its edition chosen by the `language` argument
    /// whatever the preference (the SEP's explicit language argument).
    ExplicitLanguage,
    /// `test_localized_error`: a JSON-RPC error (`-32603`) whose message is in
    /// the request's language and reports it in `error.data._meta`.
    Error,
}

impl LanguageFixture {
    /// Every one, in the order of [`TOOL_NAMES`].
    pub const ALL: [Self; 4] = [
        Self::Elicitation,
        Self::Progress,
        Self::ExplicitLanguage,
        Self::Error,
    ];

    /// The name the scenario calls it by.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Elicitation => "test_localized_elicitation",
            Self::Progress => "test_localized_progress",
            Self::ExplicitLanguage => "test_explicit_language",
            Self::Error => "test_localized_error",
        }
    }

    /// The fixture called `name`, if one is.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// The fixture prompts, by the names the official suite gets.
///
/// ```
/// use mcp_lang_reference::fixtures::PROMPT_NAMES;
///
/// assert!(PROMPT_NAMES.contains(&"test_prompt_with_arguments"));
/// ```
pub const PROMPT_NAMES: &[&str] = &[
    "test_simple_prompt",
    "test_prompt_with_arguments",
    "test_prompt_with_embedded_resource",
    "test_prompt_with_image",
];

/// URI of the fixture text resource.
///
/// ```
/// assert_eq!(mcp_lang_reference::fixtures::STATIC_TEXT_URI, "test://static-text");
/// ```
pub const STATIC_TEXT_URI: &str = "test://static-text";

/// URI of the fixture binary resource (a PNG).
///
/// ```
/// assert_eq!(mcp_lang_reference::fixtures::STATIC_BINARY_URI, "test://static-binary");
/// ```
pub const STATIC_BINARY_URI: &str = "test://static-binary";

/// URI template of the fixture resource template; `{id}` is substituted.
///
/// ```
/// use mcp_lang_reference::fixtures::DATA_TEMPLATE;
///
/// assert_eq!(DATA_TEMPLATE.replace("{id}", "123"), "test://template/123/data");
/// ```
pub const DATA_TEMPLATE: &str = "test://template/{id}/data";

const TEMPLATE_PREFIX: &str = "test://template/";
const TEMPLATE_SUFFIX: &str = "/data";

/// The longest `{id}` the template accepts: the id is echoed into the content,
/// so it is bounded like any other input.
const MAX_TEMPLATE_ID: usize = 256;

/// A 1×1 red PNG.
const RED_PIXEL_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

/// A WAV file: 8 kHz, mono, 8-bit, eight samples of silence.
const SILENT_WAV: &str = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

/// The pause between the steps of the logging and progress tools, as the suite
/// describes them (~50 ms), so that the client sees several notifications
/// arrive during one call.
const STEP_DELAY: Duration = Duration::from_millis(50);

/// Suggestions `completion/complete` offers for `test_prompt_with_arguments`
/// arguments, filtered by the prefix typed so far.
const ARGUMENT_SUGGESTIONS: &[&str] = &["paris", "park", "party", "test", "testing"];

/// Per-session fixture state: the minimum level of log notifications, set by
/// `logging/setLevel`. Each session (each stdio connection, each HTTP session,
/// each stateless HTTP request) gets its own through
/// [`ReferenceServer::for_session`](crate::ReferenceServer::for_session).
#[derive(Clone, Debug)]
pub(crate) struct FixtureSession {
    min_level: Arc<AtomicU8>,
}

impl FixtureSession {
    /// A fresh session: every level is sent until the client sets one.
    pub(crate) fn new() -> Self {
        Self {
            min_level: Arc::new(AtomicU8::new(severity(LoggingLevel::Debug))),
        }
    }

    pub(crate) fn set_level(&self, level: LoggingLevel) {
        self.min_level.store(severity(level), Ordering::Relaxed);
    }

    fn sends(&self, level: LoggingLevel) -> bool {
        severity(level) >= self.min_level.load(Ordering::Relaxed)
    }
}

/// RFC 5424 order, least severe first (MCP's logging levels).
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

fn parse_all<T: serde::de::DeserializeOwned>(defs: Vec<Value>) -> Vec<T> {
    defs.into_iter()
        .filter_map(|def| serde_json::from_value(def).ok())
        .collect()
}

fn no_arguments() -> Value {
    json!({ "type": "object", "properties": {} })
}

/// The fixture tool definitions (no titles: nothing to localize).
pub(crate) fn tools() -> Vec<Tool> {
    let simple = |name: &str, description: &str| json!({ "name": name, "description": description, "inputSchema": no_arguments() });
    parse_all(vec![
        simple("test_simple_text", "Returns one text content block."),
        simple(
            "test_image_content",
            "Returns one image content block (a PNG).",
        ),
        simple(
            "test_audio_content",
            "Returns one audio content block (a WAV).",
        ),
        simple(
            "test_embedded_resource",
            "Returns one embedded text resource.",
        ),
        simple(
            "test_multiple_content_types",
            "Returns text, image and embedded resource content together.",
        ),
        simple(
            "test_tool_with_logging",
            "Sends three info log notifications, 50 ms apart, while it runs.",
        ),
        simple("test_error_handling", "Always fails, with isError: true."),
        simple(
            "test_tool_with_progress",
            "Reports progress 0, 50 and 100 of 100, 50 ms apart.",
        ),
        json!({
            "name": "test_sampling",
            "description": "Asks the client's LLM (sampling/createMessage) and returns its answer.",
            "inputSchema": {
                "type": "object",
                "properties": { "prompt": { "type": "string", "description": "The prompt to send to the LLM" } },
                "required": ["prompt"]
            }
        }),
        json!({
            "name": "test_elicitation",
            "description": "Asks the user (elicitation/create) for a username and an e-mail address.",
            "inputSchema": {
                "type": "object",
                "properties": { "message": { "type": "string", "description": "The message to show the user" } },
                "required": ["message"]
            }
        }),
        simple(
            "test_elicitation_sep1034_defaults",
            "Elicits a form whose fields all have default values (SEP-1034).",
        ),
        simple(
            "test_elicitation_sep1330_enums",
            "Elicits a form with the five enum shapes of SEP-1330.",
        ),
        simple(
            "test_localized_elicitation",
            "Asks the user for an e-mail address, in the request's language (SEP-2792).",
        ),
        simple(
            "test_localized_progress",
            "Reports progress with messages in the request's language (SEP-2792).",
        ),
        json!({
            "name": "test_explicit_language",
            "description": "Returns an official document in the edition `language` names, whatever the preference (SEP-2792).",
            "inputSchema": {
                "type": "object",
                "properties": { "language": { "type": "string", "description": "Edition language, e.g. fr" } },
                "required": ["language"]
            }
        }),
        simple(
            "test_localized_error",
            "Always fails with a JSON-RPC error in the request's language (SEP-2792).",
        ),
    ])
}

/// The fixture prompt definitions.
pub(crate) fn prompts() -> Vec<Prompt> {
    parse_all(vec![
        json!({ "name": "test_simple_prompt", "description": "A prompt without arguments." }),
        json!({
            "name": "test_prompt_with_arguments",
            "description": "A prompt that substitutes two arguments.",
            "arguments": [
                { "name": "arg1", "description": "First test argument", "required": true },
                { "name": "arg2", "description": "Second test argument", "required": true }
            ]
        }),
        json!({
            "name": "test_prompt_with_embedded_resource",
            "description": "A prompt that embeds a resource.",
            "arguments": [
                { "name": "resourceUri", "description": "URI of the resource to embed", "required": true }
            ]
        }),
        json!({ "name": "test_prompt_with_image", "description": "A prompt with an image." }),
    ])
}

/// The fixture resources.
pub(crate) fn resources() -> Vec<Resource> {
    parse_all(vec![
        json!({
            "uri": STATIC_TEXT_URI, "name": "static-text",
            "description": "A static text resource.", "mimeType": "text/plain"
        }),
        json!({
            "uri": STATIC_BINARY_URI, "name": "static-binary",
            "description": "A static binary resource (a PNG).", "mimeType": "image/png"
        }),
    ])
}

/// The fixture resource template.
pub(crate) fn templates() -> Vec<ResourceTemplate> {
    parse_all(vec![json!({
        "uriTemplate": DATA_TEMPLATE, "name": "template-data",
        "description": "JSON data for an id.", "mimeType": "application/json"
    })])
}

fn english(mut result: CallToolResult) -> CallToolResponse {
    stamp(&mut result.meta, FIXTURE_LANGUAGE);
    result.into()
}

fn internal(error: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

fn string_argument<'a>(
    language: &Language,
    arguments: Option<&'a JsonObject>,
    name: &str,
) -> Result<&'a str, ErrorData> {
    arguments
        .and_then(|a| a.get(name))
        .and_then(Value::as_str)
        .ok_or_else(|| {
            language.error(
                ErrorCode::INVALID_PARAMS,
                "error-missing-argument",
                &[("name", name.into())],
            )
        })
}

/// Runs the fixture tool `request.name`, or `None` when it is not one.
pub(crate) async fn call_tool(
    session: &FixtureSession,
    language: &Language,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResponse, ErrorData>> {
    let arguments = request.arguments.as_ref();
    let image = || ContentBlock::image(RED_PIXEL_PNG, "image/png");
    Some(match request.name.as_ref() {
        "test_simple_text" => Ok(english(CallToolResult::success(vec![ContentBlock::text(
            "This is a simple text response for testing.",
        )]))),
        "test_image_content" => Ok(english(CallToolResult::success(vec![image()]))),
        "test_audio_content" => Ok(english(CallToolResult::success(vec![ContentBlock::audio(
            SILENT_WAV,
            "audio/wav",
        )]))),
        "test_embedded_resource" => Ok(english(CallToolResult::success(vec![
            ContentBlock::embedded_text(
                "test://embedded-resource",
                "This is an embedded resource content.",
            ),
        ]))),
        "test_multiple_content_types" => {
            let data = json!({ "test": "data", "value": 123 }).to_string();
            Ok(english(CallToolResult::success(vec![
                ContentBlock::text("Multiple content types test:"),
                image(),
                ContentBlock::resource(
                    ResourceContents::text(data, "test://mixed-content-resource")
                        .with_mime_type("application/json"),
                ),
            ])))
        }
        "test_tool_with_logging" => with_logging(session, context).await,
        "test_error_handling" => Ok(english(CallToolResult::error(vec![ContentBlock::text(
            "This tool intentionally returns an error for testing",
        )]))),
        "test_tool_with_progress" => with_progress(context).await,
        "test_sampling" => match string_argument(language, arguments, "prompt") {
            Ok(prompt) => sampling(prompt, context).await,
            Err(error) => Err(error),
        },
        "test_elicitation" => match string_argument(language, arguments, "message") {
            Ok(message) => {
                let schema = json!({
                    "type": "object",
                    "properties": {
                        "username": { "type": "string", "description": "User's response" },
                        "email": { "type": "string", "description": "User's email address" }
                    },
                    "required": ["username", "email"]
                });
                elicit(language, message, schema, "User response", context).await
            }
            Err(error) => Err(error),
        },
        "test_elicitation_sep1034_defaults" => {
            let schema = json!({
                "type": "object",
                "properties": {
                    "name": { "type": "string", "description": "Name", "default": "John Doe" },
                    "age": { "type": "integer", "description": "Age", "default": 30 },
                    "score": { "type": "number", "description": "Score", "default": 95.5 },
                    "status": {
                        "type": "string", "description": "Status",
                        "enum": ["active", "inactive", "pending"], "default": "active"
                    },
                    "verified": { "type": "boolean", "description": "Verified", "default": true }
                }
            });
            let message = "Please review the pre-filled values.";
            elicit(language, message, schema, "Elicitation completed", context).await
        }
        "test_elicitation_sep1330_enums" => {
            let schema = json!({
                "type": "object",
                "properties": {
                    "untitledSingle": { "type": "string", "enum": ["option1", "option2", "option3"] },
                    "titledSingle": {
                        "type": "string",
                        "oneOf": [
                            { "const": "value1", "title": "First Option" },
                            { "const": "value2", "title": "Second Option" },
                            { "const": "value3", "title": "Third Option" }
                        ]
                    },
                    "legacyEnum": {
                        "type": "string", "enum": ["opt1", "opt2", "opt3"],
                        "enumNames": ["Option One", "Option Two", "Option Three"]
                    },
                    "untitledMulti": {
                        "type": "array",
                        "items": { "type": "string", "enum": ["option1", "option2", "option3"] }
                    },
                    "titledMulti": {
                        "type": "array",
                        "items": {
                            "anyOf": [
                                { "const": "value1", "title": "First Choice" },
                                { "const": "value2", "title": "Second Choice" },
                                { "const": "value3", "title": "Third Choice" }
                            ]
                        }
                    }
                }
            });
            let message = "Please choose from each list.";
            elicit(language, message, schema, "Elicitation completed", context).await
        }
        _ => return None,
    })
}

async fn with_logging(
    session: &FixtureSession,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let messages = [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ];
    for (index, message) in messages.into_iter().enumerate() {
        if index > 0 {
            tokio::time::sleep(STEP_DELAY).await;
        }
        if session.sends(LoggingLevel::Info) {
            let mut params =
                LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(message));
            params.logger = Some("test_tool_with_logging".to_owned());
            params.meta = Some(NotificationMetaObject::from(content_language_meta(
                FIXTURE_LANGUAGE,
            )));
            context
                .peer
                .notify_logging_message(params)
                .await
                .map_err(internal)?;
        }
    }
    Ok(english(CallToolResult::success(vec![ContentBlock::text(
        "Tool with logging executed: 3 log messages sent.",
    )])))
}

async fn with_progress(
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let token = context.meta.get_progress_token();
    for (index, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if index > 0 {
            tokio::time::sleep(STEP_DELAY).await;
        }
        if let Some(token) = &token {
            let mut params = ProgressNotificationParam::new(token.clone(), progress);
            params.total = Some(100.0);
            params.meta = Some(NotificationMetaObject::from(content_language_meta(
                FIXTURE_LANGUAGE,
            )));
            context
                .peer
                .notify_progress(params)
                .await
                .map_err(internal)?;
        }
    }
    Ok(english(CallToolResult::success(vec![ContentBlock::text(
        "Tool with progress executed: 0, 50 and 100 of 100.",
    )])))
}

async fn sampling(
    prompt: &str,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let can_sample = context
        .client_capabilities()
        .is_some_and(|c| c.sampling.is_some());
    if !can_sample {
        return Ok(english(CallToolResult::error(vec![ContentBlock::text(
            "This client does not support sampling.",
        )])));
    }
    let params = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
    let answer = context
        .peer
        .create_message(params)
        .await
        .map_err(internal)?;
    let content = serde_json::to_value(&answer.message.content).map_err(internal)?;
    let blocks = match &content {
        Value::Array(blocks) => blocks.iter().collect(),
        block => vec![block],
    };
    let text: Vec<&str> = blocks
        .into_iter()
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    Ok(english(CallToolResult::success(vec![ContentBlock::text(
        format!("LLM response: {}", text.join(" ")),
    )])))
}

async fn elicit(
    language: &Language,
    message: &str,
    schema: Value,
    answer_prefix: &str,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let can_elicit = context
        .client_capabilities()
        .is_some_and(|c| c.elicitation.is_some());
    if !can_elicit {
        // The one user-facing message here: from the catalogs, in the
        // request's language.
        let mut result = CallToolResult::error(vec![ContentBlock::text(
            language.text("error-elicitation-unsupported"),
        )]);
        stamp(&mut result.meta, language.tag());
        return Ok(result.into());
    }
    // The schema's labels are the suite's English; the message is the
    // caller's own text, reported as English like the rest of the fixture.
    let params = form_elicitation(message, schema, FIXTURE_LANGUAGE).map_err(internal)?;
    let answer: ElicitResult = context
        .peer
        .create_elicitation(params)
        .await
        .map_err(internal)?;
    let action = serde_json::to_value(&answer.action).map_err(internal)?;
    let action = action.as_str().unwrap_or_default();
    let content = answer.content.unwrap_or(Value::Null);
    Ok(english(CallToolResult::success(vec![ContentBlock::text(
        format!("{answer_prefix}: action={action}, content={content}"),
    )])))
}

/// Gets the fixture prompt `request.name`, or `None` when it is not one.
pub(crate) fn get_prompt(
    language: &Language,
    request: &GetPromptRequestParams,
) -> Option<Result<GetPromptResult, ErrorData>> {
    let arguments = request.arguments.as_ref();
    let messages = match request.name.as_str() {
        "test_simple_prompt" => Ok(vec![PromptMessage::new_text(
            Role::User,
            "This is a simple prompt for testing.",
        )]),
        "test_prompt_with_arguments" => {
            string_argument(language, arguments, "arg1").and_then(|arg1| {
                let arg2 = string_argument(language, arguments, "arg2")?;
                Ok(vec![PromptMessage::new_text(
                    Role::User,
                    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"),
                )])
            })
        }
        "test_prompt_with_embedded_resource" => string_argument(language, arguments, "resourceUri")
            .map(|uri| {
                vec![
                    PromptMessage::new(
                        Role::User,
                        ContentBlock::embedded_text(uri, "Embedded resource content for testing."),
                    ),
                    PromptMessage::new_text(
                        Role::User,
                        "Please process the embedded resource above.",
                    ),
                ]
            }),
        "test_prompt_with_image" => Ok(vec![
            PromptMessage::new(Role::User, ContentBlock::image(RED_PIXEL_PNG, "image/png")),
            PromptMessage::new_text(Role::User, "Please analyze the image above."),
        ]),
        _ => return None,
    };
    Some(messages.map(|messages| {
        let mut result = GetPromptResult::new(messages);
        stamp(&mut result.meta, FIXTURE_LANGUAGE);
        result
    }))
}

/// Reads the fixture resource at `uri`, or `None` when it is not one.
pub(crate) fn read_resource(
    language: &Language,
    uri: &str,
) -> Option<Result<ReadResourceResult, ErrorData>> {
    let contents = match uri {
        STATIC_TEXT_URI => ResourceContents::text(
            "This is the content of the static text resource.",
            STATIC_TEXT_URI,
        ),
        STATIC_BINARY_URI => {
            ResourceContents::blob(RED_PIXEL_PNG, STATIC_BINARY_URI).with_mime_type("image/png")
        }
        _ => {
            let id = uri
                .strip_prefix(TEMPLATE_PREFIX)?
                .strip_suffix(TEMPLATE_SUFFIX)?;
            let valid = !id.is_empty() && id.len() <= MAX_TEMPLATE_ID && !id.contains('/');
            if !valid {
                return Some(Err(language.error(
                    ErrorCode::RESOURCE_NOT_FOUND,
                    "error-unknown-resource",
                    &[("uri", uri.into())],
                )));
            }
            let data =
                json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") });
            ResourceContents::text(data.to_string(), uri).with_mime_type("application/json")
        }
    };
    let mut result = ReadResourceResult::new(vec![contents]);
    stamp(&mut result.meta, FIXTURE_LANGUAGE);
    Some(Ok(result))
}

/// `completion/complete` for the fixture prompt's arguments and the template's
/// `{id}`: the suggestions starting with what was typed (ASCII case-insensitive).
pub(crate) fn complete(
    language: &Language,
    request: &CompleteRequestParams,
) -> Result<CompleteResult, ErrorData> {
    let ArgumentInfo { name, value, .. } = &request.argument;
    let candidates: &[&str] = match &request.r#ref {
        Reference::Prompt(prompt) => {
            if !PROMPT_NAMES.contains(&prompt.name.as_str()) {
                return Err(language.error(
                    ErrorCode::INVALID_PARAMS,
                    "error-unknown-prompt",
                    &[("name", prompt.name.as_str().into())],
                ));
            }
            match (prompt.name.as_str(), name.as_str()) {
                ("test_prompt_with_arguments", "arg1" | "arg2") => ARGUMENT_SUGGESTIONS,
                _ => &[],
            }
        }
        Reference::Resource(resource) => {
            if resource.uri != DATA_TEMPLATE {
                return Err(language.error(
                    ErrorCode::RESOURCE_NOT_FOUND,
                    "error-unknown-resource",
                    &[("uri", resource.uri.as_str().into())],
                ));
            }
            match name.as_str() {
                "id" => &["1", "2", "3", "123"],
                _ => &[],
            }
        }
        // A reference kind this rmcp model does not know yet: nothing to offer.
        _ => &[],
    };
    let values: Vec<String> = candidates
        .iter()
        .filter(|candidate| {
            candidate
                .get(..value.len())
                .is_some_and(|prefix| prefix.eq_ignore_ascii_case(value))
        })
        .map(|candidate| (*candidate).to_owned())
        .collect();
    // At most `ARGUMENT_SUGGESTIONS.len()` values: far below rmcp's limit of 100.
    let completion = CompletionInfo::with_all_values(values).map_err(internal)?;
    let mut result = CompleteResult::new(completion);
    stamp(&mut result.meta, FIXTURE_LANGUAGE);
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_definition_parses_into_rmcp_types() {
        assert_eq!(tools().len(), TOOL_NAMES.len());
        assert_eq!(prompts().len(), PROMPT_NAMES.len());
        assert_eq!(resources().len(), 2);
        assert_eq!(templates().len(), 1);
        let names: Vec<String> = tools().iter().map(|t| t.name.to_string()).collect();
        assert_eq!(names, TOOL_NAMES);
    }

    #[test]
    fn the_elicitation_schemas_keep_defaults_and_enum_shapes() {
        // rmcp's typed schema must not drop what the suite checks.
        let params = form_elicitation(
            "m",
            json!({ "type": "object", "properties": {
                "age": { "type": "integer", "default": 30 },
                "legacyEnum": { "type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"] },
                "titledMulti": { "type": "array", "items": { "anyOf": [ { "const": "v", "title": "V" } ] } }
            }}),
            FIXTURE_LANGUAGE,
        )
        .unwrap();
        let wire = serde_json::to_value(&params).unwrap();
        let properties = &wire["requestedSchema"]["properties"];
        assert_eq!(properties["age"]["default"], 30);
        assert_eq!(properties["legacyEnum"]["enumNames"], json!(["A", "B"]));
        assert_eq!(properties["titledMulti"]["items"]["anyOf"][0]["const"], "v");
    }

    #[test]
    fn log_levels_filter_by_severity() {
        let session = FixtureSession::new();
        assert!(session.sends(LoggingLevel::Debug));
        session.set_level(LoggingLevel::Warning);
        assert!(!session.sends(LoggingLevel::Info));
        assert!(session.sends(LoggingLevel::Error));
    }
}
