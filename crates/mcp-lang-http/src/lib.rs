//! The Streamable HTTP binding of MCP SEP-2792 ("Per-Request User Language Preference").

mod client;
#[cfg(feature = "tower")]
mod layer;
mod response;
mod server;

pub use client::{
    EventStreamLanguage, FieldValueError, FieldValueErrorKind, MalformedResponse,
    check_json_response, set_accept_language, verify_content_language,
};
pub use mcp_lang_meta::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY, RawPreference};
#[cfg(feature = "tower")]
pub use layer::{LanguageBody, LanguageLayer, LanguageService};
pub use response::{
    Mirrored, add_vary_accept_language, is_event_stream, is_json, make_private,
    mirror_json_response, set_content_language,
};
pub use server::{
    HEADER_MISMATCH, HeaderMismatch, LanguagePreference, RejectedRequest, RequestAgreement,
    check_request, validate_request,
};
