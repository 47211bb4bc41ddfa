//! The request and response bodies of the HTTP layer's benchmark (`benches/http_layer.rs`),
//! also read alone by the `_meta` benchmark (`benches/meta.rs`), so that the cost of the
//! reads inside the layer can be told from the layer's own.

/// The preference the request carries, in `_meta` and in `Accept-Language`.
pub const PREFERENCE: &str = "fr-CA,fr;q=0.9,en;q=0.5";

/// The inner service's answer: a small JSON-RPC result reporting its language.
pub const RESPONSE: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[],"_meta":{"io.modelcontextprotocol/contentLanguage":"fr-CA"}}}"#;

/// A `tools/call` request of exactly 1024 bytes with the preference in `_meta`: a city
/// name with one non-ASCII letter, then ordinary ASCII text, as tool arguments usually
/// are.
///
/// ```
/// assert_eq!(mcp_lang_benches::layer_bodies::request_1k().len(), 1024);
/// ```
pub fn request_1k() -> String {
    let head = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"weather_current","_meta":{{"io.modelcontextprotocol/acceptLanguage":"{PREFERENCE}"}},"arguments":{{"city":""#
    );
    let tail = r#""}}}"#;
    let pad = 1024 - head.len() - tail.len();
    let city = "Montréal, ";
    let filler = "the quick brown fox jumps over the lazy dog ".repeat(pad / 44 + 1);
    format!("{head}{city}{}{tail}", &filler[..pad - city.len()])
}
