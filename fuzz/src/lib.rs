//! What the fuzz targets share: how one input's bytes become the parts a target needs.
//!
//! Each target in `fuzz_targets/` documents its own input layout; layouts used by more
//! than one target live here, so that a corpus input means the same thing to each.

use mcp_lang_grammar::LanguageTag;

/// A negotiation case read from lines of bytes: line 1 is the `Accept-Language` value
/// (raw bytes, well-formed or not), line 2 the server's default tag (`en` when it is not a
/// well-formed tag), the remaining lines the supported tags, of which those that are not
/// well-formed tags or repeat an earlier one (ignoring case) are dropped.
///
/// The result always builds a `Negotiator`: valid, distinct tags and a valid default.
#[derive(Debug)]
pub struct NegotiationInput<'a> {
    /// The `Accept-Language` field value.
    pub header: &'a [u8],
    /// The server's default tag.
    pub default: &'a str,
    /// The supported tags, in the server's preference order.
    pub supported: Vec<&'a str>,
}

impl<'a> NegotiationInput<'a> {
    /// Splits `data` as described on the type.
    pub fn split(data: &'a [u8]) -> Self {
        let mut lines = data.split(|&b| b == b'\n');
        let header = lines.next().unwrap_or_default();
        let default = lines
            .next()
            .and_then(|d| std::str::from_utf8(d).ok())
            .filter(|d| LanguageTag::parse(d).is_ok())
            .unwrap_or("en");
        let mut supported: Vec<&str> = Vec::new();
        for line in lines {
            let Ok(tag) = std::str::from_utf8(line) else {
                continue;
            };
            if LanguageTag::parse(tag).is_ok()
                && !supported.iter().any(|s| s.eq_ignore_ascii_case(tag))
            {
                supported.push(tag);
            }
        }
        NegotiationInput {
            header,
            default,
            supported,
        }
    }
}
