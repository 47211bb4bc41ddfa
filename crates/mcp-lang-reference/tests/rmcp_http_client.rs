//! An rmcp client over Streamable HTTP, through `mcp-lang-rmcp`'s
//! `MirroringClient`, against the reference server behind the SEP-2792 layer.
//!
//! The transport is configured with a *stale* `Accept-Language: en` custom
//! header. Without the wrapper it goes out beside `_meta` "de" and the layer
//! rejects the request (400/-32020); with the wrapper the header is replaced by
//! one line equal to `_meta`, so the request is accepted and localized.

use std::collections::HashMap;
use std::net::SocketAddr;

use mcp_lang_reference::{
    ReferenceServer,
    serve::{HttpMode, spawn_http},
};
use mcp_lang_rmcp::{
    client::{SendError, content_language, send_with_preference},
    http_client::MirroringClient,
};
use rmcp::{
    ServiceExt,
    model::{ClientRequest, ListToolsRequest, ServerResult},
    service::ServiceError,
    transport::streamable_http_client::{
        StreamableHttpClientTransport, StreamableHttpClientTransportConfig,
    },
};

fn config(url: String) -> StreamableHttpClientTransportConfig {
    let mut stale = HashMap::new();
    stale.insert(
        http::header::ACCEPT_LANGUAGE,
        http::HeaderValue::from_static("en"),
    );
    StreamableHttpClientTransportConfig::with_uri(url).custom_headers(stale)
}

fn list() -> ClientRequest {
    ClientRequest::ListToolsRequest(ListToolsRequest::default())
}

#[tokio::test(flavor = "current_thread")]
async fn the_wrapper_mirrors_meta_into_one_agreeing_header() {
    let http = spawn_http(
        ReferenceServer::new().unwrap(),
        SocketAddr::from(([127, 0, 0, 1], 0)),
        HttpMode::Stateless,
    )
    .await
    .unwrap();

    let transport = StreamableHttpClientTransport::with_client(
        MirroringClient::new(reqwest::Client::new()),
        config(http.url()),
    );
    let client = ().serve(transport).await.unwrap();
    for (preference, expected) in [("de", "de"), ("ja, en;q=0.5", "ja"), ("ga-IE", "ga")] {
        let result = send_with_preference(client.peer(), list(), Some(preference))
            .await
            .unwrap();
        assert_eq!(content_language(&result), Some(expected));
        let ServerResult::ListToolsResult(tools) = &result else {
            panic!("{result:?}")
        };
        assert!(tools.tools.iter().any(|t| t.name == "weather_current"));
    }
    // Without a preference the stale header is dropped too: no bare header.
    let result = send_with_preference(client.peer(), list(), None)
        .await
        .unwrap();
    assert_eq!(content_language(&result), Some("en"));
    // An unsendable preference is refused before anything is sent (D8).
    let refused = send_with_preference(client.peer(), list(), Some("de\u{0}")).await;
    assert!(matches!(refused, Err(SendError::Preference(_))));
    client.cancel().await.unwrap();

    // The same stale header without the wrapper: HeaderMismatch.
    let transport =
        StreamableHttpClientTransport::with_client(reqwest::Client::new(), config(http.url()));
    let client = ().serve(transport).await.unwrap();
    let error = send_with_preference(client.peer(), list(), Some("de"))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, SendError::Service(ServiceError::McpError(e)) if e.code.0 == -32020)
            || error.to_string().contains("400"),
        "{error}"
    );
    let _ = client.cancel().await;
    http.shutdown().await;
}
