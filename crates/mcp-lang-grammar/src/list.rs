//! The `#` list rule of RFC 9110 §5.6.1, as a recipient parses it.
//!
//! ```text
//! #element => [ element ] *( OWS "," OWS [ element ] )
//! ```
//!
//! Empty elements are allowed anywhere (`,en`, `en,,fr`, `en, `), whitespace
//! (OWS: spaces and horizontal tabs only) is allowed around each comma, and a
//! value with no element at all is well-formed. Whitespace that is not next
//! to a comma (leading `" en"`, trailing `"en "`) is not part of the rule: a
//! field value never has it (RFC 9110 §5.5), so it is an error here.

use crate::chars::skip_ows;
use crate::error::{Expected, Fail, PResult, into_fail};

/// What a list parse found: the number of non-empty elements.
pub(crate) struct ListRule {
    /// Reported when a byte that can neither start an element nor be OWS or
    /// `,` sits where an element may start.
    pub(crate) element: Expected,
    /// At most this many elements; one more is an error at its start.
    pub(crate) max_elements: usize,
    /// Reported when `max_elements` is exceeded.
    pub(crate) limit: Expected,
}

impl ListRule {
    /// Parses the whole of `input` as a list. `element` is called wherever an
    /// element may start; it returns `None` (consuming nothing) when no
    /// element starts there, or what may follow the element it parsed.
    pub(crate) fn parse<'a>(
        &self,
        input: &'a [u8],
        mut element: impl FnMut(&'a [u8]) -> PResult<'a, Option<Expected>>,
    ) -> Result<usize, Fail<'a>> {
        let mut count = 0usize;
        let mut rest = input;
        loop {
            let start = rest;
            let (after, parsed) = element(rest).map_err(|e| into_fail(e, input))?;
            let expected_next = match parsed {
                Some(next) => {
                    count += 1;
                    if count > self.max_elements {
                        return Err(Fail {
                            rest: start,
                            expected: self.limit,
                        });
                    }
                    next
                }
                None => Expected::Comma,
            };
            let after_ows = skip_ows(after);
            match after_ows.split_first() {
                None if after_ows.len() == after.len() => return Ok(count),
                Some((b',', next)) => rest = skip_ows(next),
                _ if parsed.is_none() && after_ows.len() == start.len() => {
                    return Err(Fail {
                        rest: after_ows,
                        expected: self.element,
                    });
                }
                _ => {
                    return Err(Fail {
                        rest: after_ows,
                        expected: expected_next,
                    });
                }
            }
        }
    }
}
