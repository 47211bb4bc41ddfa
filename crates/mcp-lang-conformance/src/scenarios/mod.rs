//! Every scenario of the suite, grouped by the part of the SEP it checks.
//!
//! | module | SEP Conformance items |
//! |--------|-----------------------|
//! | `matching` | 1 (weights, wildcard, selection, fallback), 2 (request scope), Security's malformed value |
//! | `probes` | 1 and Security's malformed value, from the project's `Accept-Language` test vectors |
//! | `display` | 3 (titles, names, `contentLanguage`), 4 (elicitation, progress), 5 (identifiers, explicit arguments), 8 (notification `_meta`) |
//! | `reporting` | 3 (every method's report, labels that describe the content), 8 (every message of a request) |
//! | `stability` | 2 (input_required retries, the handshake), 5 (result keys, `serverInfo.name`) |
//! | `binding` | 6 (HTTP mirroring, missing header, HeaderMismatch), 7 (exact agreement), 8 (SSE), 9 (caching) |
//!
//! ```
//! use mcp_lang_conformance::scenarios::all;
//!
//! assert_eq!(all()[0].id, "match.supported");
//! ```

use crate::Scenario;

mod binding;
mod display;
mod matching;
mod probes;
mod reporting;
mod sep;
mod stability;

/// Every scenario, in report order.
///
/// ```
/// use std::collections::HashSet;
/// use mcp_lang_conformance::scenarios::all;
///
/// let scenarios = all();
/// let ids: HashSet<&str> = scenarios.iter().map(|s| s.id).collect();
/// assert_eq!(ids.len(), scenarios.len()); // ids are unique
/// assert!(scenarios.iter().all(|s| s.item <= 10));
/// ```
pub fn all() -> Vec<Scenario> {
    [
        matching::SCENARIOS,
        probes::SCENARIOS,
        display::SCENARIOS,
        reporting::SCENARIOS,
        stability::SCENARIOS,
        binding::SCENARIOS,
    ]
    .concat()
}

/// The scenario with this id.
///
/// ```
/// use mcp_lang_conformance::scenarios::find;
///
/// assert_eq!(find("http.mismatch").unwrap().item, 6);
/// assert!(find("no.such-scenario").is_none());
/// ```
pub fn find(id: &str) -> Option<Scenario> {
    all().into_iter().find(|s| s.id == id)
}
