//! What the reference server's rmcp-client tests share.

use std::sync::{Arc, Mutex};

use rmcp::{
    ClientHandler, RoleClient,
    model::{
        ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
        ProgressNotificationParam,
    },
    service::{NotificationContext, RequestContext},
};
use serde_json::{Value, json};

/// A client that answers elicitations with a fixed address and records what it
/// was shown: the elicitation parameters and the progress notifications.
#[derive(Clone, Default)]
pub(crate) struct RecordingClient {
    pub(crate) elicitations: Arc<Mutex<Vec<(ElicitRequestParams, Value)>>>,
    pub(crate) progress: Arc<Mutex<Vec<(ProgressNotificationParam, Value)>>>,
    pub(crate) initialize_preference: Option<&'static str>,
}

impl ClientHandler for RecordingClient {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        // rmcp moves the received `params._meta` into the context.
        let meta = serde_json::to_value(&context.meta).unwrap();
        self.elicitations.lock().unwrap().push((request, meta));
        let mut result = ElicitResult::new(ElicitationAction::Accept);
        result.content = Some(json!({ "email": "ada@example.org" }));
        Ok(result)
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        context: NotificationContext<RoleClient>,
    ) {
        // rmcp 3.11 moves the notification's extensions into the context
        // before it takes `_meta` out of them, so `context.meta` stays empty
        // and the received `params._meta` is left in `context.extensions`.
        let meta = context
            .extensions
            .get::<rmcp::model::NotificationMetaObject>()
            .map_or(Value::Null, |m| serde_json::to_value(m).unwrap());
        self.progress.lock().unwrap().push((params, meta));
    }

    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.capabilities = ClientCapabilities::builder().enable_elicitation().build();
        if let Some(preference) = self.initialize_preference {
            info.meta = Some(mcp_lang_rmcp::client::preference_meta(preference).unwrap());
        }
        info
    }
}
