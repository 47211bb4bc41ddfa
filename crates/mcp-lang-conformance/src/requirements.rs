//! Traceability: every normative sentence of SEP-2792, mapped to the
//! scenarios that check it or to the reason none can.
//!
//! [`YAML`] is the data file `requirements.yaml`, in the shape the official
//! MCP conformance suite uses for a SEP's requirements: `sep`, `spec_url`, and
//! `requirements`, a list of `{ text, check }` (the scenario ids that check
//! the sentence) or `{ text, excluded }` (why no scenario can). The crate's
//! tests hold it to the SEP's text (every MUST, MUST NOT, SHOULD, SHOULD NOT
//! and MAY sentence appears) and to the scenario list (every id exists, and
//! every scenario checks some requirement). `mcp-lang conformance
//! --requirements` prints it.
//!
//! ```
//! use mcp_lang_conformance::requirements::YAML;
//!
//! assert!(YAML.contains("sep: 2792"));
//! ```

/// The traceability file, `requirements.yaml`.
pub const YAML: &str = include_str!("../requirements.yaml");
