//! What a correct answer to `tools/list` looks like for one preference,
//! computed independently of the server's request path: `mcp-lang-match`'s
//! [`Negotiator`] over the server's supported set and default, and the titles
//! read straight from the Fluent catalogs in `data/catalogs/`.

use mcp_lang_http::{ACCEPT_LANGUAGE_KEY, CONTENT_LANGUAGE_KEY};
use mcp_lang_match::Negotiator;
use mcp_lang_reference::{ReferenceServer, catalog::ReferenceCatalog};
use serde_json::Value;

/// Each tool of the reference server, by its stable name, and the catalog
/// message ids of its title and its annotations' title.
pub const TOOL_TITLES: &[(&str, &str, &str)] = &[
    (
        "weather_current",
        "tool-weather_current",
        "tool-weather_current.annotation-title",
    ),
    (
        "get_official_document",
        "tool-get_official_document",
        "tool-get_official_document.annotation-title",
    ),
    (
        "send_confirmation",
        "tool-send_confirmation",
        "tool-send_confirmation.annotation-title",
    ),
    (
        "prepare_report",
        "tool-prepare_report",
        "tool-prepare_report.annotation-title",
    ),
];

/// The expected answers: a negotiator over the server's languages and the
/// catalogs.
#[derive(Debug)]
pub struct Expectation {
    negotiator: Negotiator,
    catalog: ReferenceCatalog,
}

/// How one response failed its preference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The response was not a JSON-RPC result of `tools/list` (status, body).
    NotAResult(u16, String),
    /// `result._meta.contentLanguage` is not the expected tag.
    ContentLanguage {
        /// The negotiated tag.
        expected: String,
        /// What the response said.
        found: Option<String>,
    },
    /// The `Content-Language` field lines are not exactly one line equal to
    /// the expected tag.
    Header {
        /// The negotiated tag.
        expected: String,
        /// Every `Content-Language` line of the response.
        found: Vec<String>,
    },
    /// A title is not the catalog's text in the expected language.
    Title {
        /// The tool name.
        tool: String,
        /// The catalog text.
        expected: String,
        /// What the response said.
        found: Option<String>,
    },
    /// `Vary` does not name `Accept-Language`.
    Vary,
    /// A header-stripped request's response is not `Cache-Control: private`.
    NotPrivate,
}

impl Expectation {
    /// The expectation for the reference server's shipped languages.
    ///
    /// # Errors
    ///
    /// The catalogs or the language set do not load.
    pub fn for_reference_server() -> Result<Expectation, Box<dyn std::error::Error + Send + Sync>> {
        let server = ReferenceServer::new()?;
        let languages = server.languages();
        let negotiator = Negotiator::new(
            languages.supported().map(Box::<str>::from),
            languages.default_tag(),
        )?;
        Ok(Expectation {
            negotiator,
            catalog: ReferenceCatalog::load()?,
        })
    }

    /// The negotiator used for expectations.
    pub fn negotiator(&self) -> &Negotiator {
        &self.negotiator
    }

    /// The tag the server must answer in for `preference` (`None`: absent).
    ///
    /// ```
    /// let expect = mcp_lang_stress::Expectation::for_reference_server().unwrap();
    /// assert_eq!(expect.tag(Some("fr-BE, de;q=0.5")), "fr");
    /// assert_eq!(expect.tag(Some("fr;q=2")), "en");
    /// ```
    pub fn tag(&self, preference: Option<&str>) -> &str {
        self.negotiator.negotiate_header(preference).tag()
    }

    /// The catalog text of `id` in exactly `tag`.
    pub fn text(&self, tag: &str, id: &str) -> Option<String> {
        self.catalog.exact(tag, id, &[])
    }

    /// Checks one `tools/list` answer: `contentLanguage`, every tool's title and
    /// annotations title, and, when `headers` is given (the layer is in front),
    /// exactly one `Content-Language` line equal to the tag, `Vary:
    /// Accept-Language`, and `Cache-Control: private` when `stripped` (the
    /// preference was sent in `_meta` only).
    pub fn check_tools_list(
        &self,
        preference: Option<&str>,
        status: u16,
        body: &[u8],
        headers: Option<&http::HeaderMap>,
        stripped: bool,
    ) -> Result<(), Mismatch> {
        let tag = self.tag(preference);
        let json: Value =
            serde_json::from_slice(body).map_err(|_| self.not_a_result(status, body))?;
        let result = json
            .get("result")
            .filter(|_| status == 200)
            .ok_or_else(|| self.not_a_result(status, body))?;
        let reported = result
            .pointer("/_meta")
            .and_then(|m| m.get(CONTENT_LANGUAGE_KEY))
            .and_then(Value::as_str);
        if reported != Some(tag) {
            return Err(Mismatch::ContentLanguage {
                expected: tag.to_owned(),
                found: reported.map(str::to_owned),
            });
        }
        let tools = result.get("tools").and_then(Value::as_array);
        for (name, title_id, annotation_id) in TOOL_TITLES {
            let tool = tools.and_then(|t| t.iter().find(|t| t["name"] == *name));
            for (pointer, id) in [("/title", title_id), ("/annotations/title", annotation_id)] {
                let expected = self.text(tag, id).unwrap_or_default();
                let found = tool
                    .and_then(|t| t.pointer(pointer))
                    .and_then(Value::as_str);
                if found != Some(expected.as_str()) {
                    return Err(Mismatch::Title {
                        tool: (*name).to_owned(),
                        expected,
                        found: found.map(str::to_owned),
                    });
                }
            }
        }
        if let Some(headers) = headers {
            let lines: Vec<String> = headers
                .get_all(http::header::CONTENT_LANGUAGE)
                .iter()
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                .collect();
            if lines != [tag] {
                return Err(Mismatch::Header {
                    expected: tag.to_owned(),
                    found: lines,
                });
            }
            let vary = headers.get_all(http::header::VARY).iter().any(|v| {
                v.to_str().is_ok_and(|v| {
                    v.split(',')
                        .any(|f| f.trim().eq_ignore_ascii_case("accept-language"))
                })
            });
            if !vary {
                return Err(Mismatch::Vary);
            }
            let private = headers
                .get_all(http::header::CACHE_CONTROL)
                .iter()
                .any(|v| {
                    v.to_str().is_ok_and(|v| {
                        v.split(',')
                            .any(|d| d.trim().eq_ignore_ascii_case("private"))
                    })
                });
            if stripped && !private {
                return Err(Mismatch::NotPrivate);
            }
        }
        Ok(())
    }

    fn not_a_result(&self, status: u16, body: &[u8]) -> Mismatch {
        let shown = body.get(..body.len().min(200)).unwrap_or_default();
        Mismatch::NotAResult(status, String::from_utf8_lossy(shown).into_owned())
    }
}

/// A `tools/list` request with `preference` in `_meta` (none when `None`).
///
/// ```
/// let body = mcp_lang_stress::expect::tools_list(3, Some("fr"));
/// assert!(body.contains(r#""io.modelcontextprotocol/acceptLanguage":"fr""#));
/// ```
pub fn tools_list(id: u64, preference: Option<&str>) -> String {
    let mut params = serde_json::Map::new();
    if let Some(preference) = preference {
        let mut meta = serde_json::Map::new();
        meta.insert(ACCEPT_LANGUAGE_KEY.to_owned(), Value::from(preference));
        params.insert("_meta".to_owned(), Value::Object(meta));
    }
    serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params})
        .to_string()
}
