//! A validating JSON skimmer: walks a whole JSON text once, checks that it is valid
//! (RFC 8259), and captures only the few values the language binding needs.
//!
//! It never builds a tree. Strings are borrowed from the input unless they contain
//! escapes and are captured (then, and only then, one `String` is built). Nesting is
//! bounded by [`MAX_DEPTH`](crate::MAX_DEPTH); the values that are skipped are walked
//! without recursion (the open arrays and objects are a stack of bits), and every byte
//! is looked at a constant number of times, so time is linear in the input.
//!
//! Why a skimmer of its own rather than serde_json's typed deserialization with
//! `IgnoredAny`, and what each costs, is decision X10 in `docs/decisions.md`; the
//! figures are in `benches/` (`meta-extract/…`).
//!
//! The skimmer agrees with `serde_json::from_slice::<serde_json::Value>` on every input
//! that serde_json accepts: the same nesting limit, the same string rules (no control
//! characters, valid UTF-8, no lone surrogates), and the same "last duplicate key wins"
//! rule. It accepts a few texts that serde_json rejects for reasons of number *range*
//! (`1e400` is valid JSON, but does not fit an `f64`), since it never converts numbers.

use std::borrow::Cow;
use std::fmt;

use crate::extract::RawPreference;

/// The deepest nesting of arrays and objects the skimmer accepts: 127 levels, the same
/// as serde_json's default recursion limit, so both paths accept the same documents.
///
/// ```
/// use mcp_lang_meta::{extract_accept_language, ExtractErrorKind, MAX_DEPTH};
///
/// let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
/// let err = extract_accept_language(deep.as_bytes()).unwrap_err();
/// assert_eq!(err.kind(), ExtractErrorKind::TooDeep);
/// let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
/// assert!(extract_accept_language(ok.as_bytes()).is_ok());
/// ```
pub const MAX_DEPTH: usize = 127;

/// Why a body could not be skimmed: it is not one valid JSON text, or it nests deeper
/// than [`MAX_DEPTH`].
///
/// ```
/// use mcp_lang_meta::{extract_accept_language, ExtractErrorKind};
///
/// let err = extract_accept_language(br#"{"params": {"_meta": }"#).unwrap_err();
/// assert_eq!(err.offset(), 21);
/// assert_eq!(err.kind(), ExtractErrorKind::UnexpectedByte);
/// assert_eq!(err.to_string(), "invalid JSON at byte 21: unexpected byte, expected a JSON value");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtractError {
    offset: usize,
    kind: ExtractErrorKind,
    expected: &'static str,
}

/// What kind of error an [`ExtractError`] is.
///
/// ```
/// use mcp_lang_meta::{extract_accept_language, ExtractErrorKind};
///
/// let kind = |body: &[u8]| extract_accept_language(body).unwrap_err().kind();
/// assert_eq!(kind(br#"{"id":"#), ExtractErrorKind::UnexpectedEnd);
/// assert_eq!(kind(br#"{"id":1} {}"#), ExtractErrorKind::TrailingCharacters);
/// assert_eq!(kind(br#"{"id":"\q"}"#), ExtractErrorKind::InvalidEscape);
/// assert_eq!(kind(br#"{"id":"\ud800"}"#), ExtractErrorKind::LoneSurrogate);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExtractErrorKind {
    /// The input ended inside a value (or was empty).
    UnexpectedEnd,
    /// A byte that the JSON grammar does not allow here.
    UnexpectedByte,
    /// A control character (U+0000 to U+001F) inside a string.
    ControlCharacter,
    /// A backslash escape that JSON does not define, or a bad `\u` escape.
    InvalidEscape,
    /// A `\u` escape of a UTF-16 surrogate without its other half.
    LoneSurrogate,
    /// A string that is not valid UTF-8.
    InvalidUtf8,
    /// Arrays and objects nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// Something other than whitespace after the JSON text.
    TrailingCharacters,
}

impl ExtractError {
    fn new(offset: usize, kind: ExtractErrorKind, expected: &'static str) -> Self {
        ExtractError {
            offset,
            kind,
            expected,
        }
    }

    /// The byte offset in the body where the error was found.
    ///
    /// ```
    /// use mcp_lang_meta::extract_accept_language;
    ///
    /// assert_eq!(extract_accept_language(b"{}x").unwrap_err().offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What went wrong.
    ///
    /// ```
    /// use mcp_lang_meta::{extract_accept_language, ExtractErrorKind};
    ///
    /// let err = extract_accept_language(b"{\"id\":\"\xff\"}").unwrap_err();
    /// assert_eq!(err.kind(), ExtractErrorKind::InvalidUtf8);
    /// ```
    pub fn kind(&self) -> ExtractErrorKind {
        self.kind
    }
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ExtractErrorKind::UnexpectedEnd => "unexpected end of input",
            ExtractErrorKind::UnexpectedByte => "unexpected byte",
            ExtractErrorKind::ControlCharacter => "control character in a string",
            ExtractErrorKind::InvalidEscape => "invalid escape in a string",
            ExtractErrorKind::LoneSurrogate => "lone UTF-16 surrogate in a string escape",
            ExtractErrorKind::InvalidUtf8 => "string is not valid UTF-8",
            ExtractErrorKind::TooDeep => "arrays and objects nested more than 127 deep",
            ExtractErrorKind::TrailingCharacters => "trailing characters after the JSON value",
        };
        write!(f, "invalid JSON at byte {}: {what}", self.offset)?;
        if !self.expected.is_empty() {
            write!(f, ", expected {}", self.expected)?;
        }
        Ok(())
    }
}

impl std::error::Error for ExtractError {}

/// The scanner's own result: the error's details wait in [`Scanner::error`], so that every
/// step returns a small `Result` in registers rather than a whole [`ExtractError`].
type Step<T> = std::result::Result<T, Stop>;

/// The scanner stopped at an error (recorded in [`Scanner::error`]).
struct Stop;

/// What one pass over a JSON-RPC message captured.
#[derive(Debug, Default)]
pub(crate) struct Captured<'a> {
    /// Raw JSON text of the last top-level `id` (validated; UTF-8).
    pub(crate) id: Option<&'a [u8]>,
    /// The last top-level `method`, when it is a string: its UTF-8 bytes, borrowed from
    /// the input unless it had escapes.
    pub(crate) method: Option<Cow<'a, [u8]>>,
    /// `params._meta[key]`.
    pub(crate) params: RawPreference<'a>,
    /// `result._meta[key]`, and whether there is a top-level `result`.
    pub(crate) result: RawPreference<'a>,
    pub(crate) has_result: bool,
    /// `error.data._meta[key]`, and whether there is a top-level `error`.
    pub(crate) error: RawPreference<'a>,
    pub(crate) has_error: bool,
}

/// Which members of the message [`skim_message`] reads besides the `_meta` values.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fields {
    /// `id` and `method` too (a request).
    IdAndMethod,
    /// Only the `_meta` values (a response, whose `contentLanguage` is all that is read).
    MetaOnly,
}

/// Skims one JSON text, capturing the value of `key` under `params._meta`, `result._meta`
/// and `error.data._meta`, and `id` and `method` when `fields` asks for them.
pub(crate) fn skim_message<'a>(
    input: &'a [u8],
    key: &str,
    fields: Fields,
) -> Result<Captured<'a>, ExtractError> {
    let mut s = Scanner {
        input,
        pos: 0,
        error: None,
    };
    match s.message(key, fields) {
        Ok(out) => Ok(out),
        Err(Stop) => Err(s.error.unwrap_or(ExtractError::new(
            s.pos,
            ExtractErrorKind::UnexpectedByte,
            "",
        ))),
    }
}

struct Scanner<'a> {
    input: &'a [u8],
    pos: usize,
    /// The first error, once the scanner has stopped.
    error: Option<ExtractError>,
}

impl<'a> Scanner<'a> {
    fn message(&mut self, key: &str, fields: Fields) -> Step<Captured<'a>> {
        let mut out = Captured::default();
        self.skip_ws();
        if self.peek() == Some(b'{') {
            let depth = self.open(0)?;
            let mut first = true;
            while let Some(member) = self.next_key(&mut first)? {
                if fields == Fields::IdAndMethod && member.is("id") {
                    let start = self.pos;
                    self.skip_value(depth)?;
                    out.id = self.input.get(start..self.pos);
                } else if fields == Fields::IdAndMethod && member.is("method") {
                    out.method = if self.peek() == Some(b'"') {
                        Some(self.string_bytes()?)
                    } else {
                        self.skip_value(depth)?;
                        None
                    };
                } else if member.is("params") {
                    out.params = self.find(depth, &["_meta", key])?;
                } else if member.is("result") {
                    out.has_result = true;
                    out.result = self.find(depth, &["_meta", key])?;
                } else if member.is("error") {
                    out.has_error = true;
                    out.error = self.find(depth, &["data", "_meta", key])?;
                } else {
                    self.skip_member(depth)?;
                }
            }
        } else {
            self.skip_value(0)?;
        }
        self.skip_ws();
        if self.pos < self.input.len() {
            return Err(self.fail_at(self.pos, ExtractErrorKind::TrailingCharacters, ""));
        }
        Ok(out)
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Records an error of `kind` at the current position (an unexpected byte past the
    /// end is an unexpected end) and stops.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, kind: ExtractErrorKind, expected: &'static str) -> Stop {
        let kind = if self.pos >= self.input.len() && kind == ExtractErrorKind::UnexpectedByte {
            ExtractErrorKind::UnexpectedEnd
        } else {
            kind
        };
        self.fail_at(self.pos, kind, expected)
    }

    /// Records an error of `kind` at `offset` and stops.
    #[cold]
    #[inline(never)]
    fn fail_at(&mut self, offset: usize, kind: ExtractErrorKind, expected: &'static str) -> Stop {
        self.error = Some(ExtractError::new(offset, kind, expected));
        Stop
    }

    #[inline(always)]
    fn expect(&mut self, byte: u8, expected: &'static str) -> Step<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.fail(ExtractErrorKind::UnexpectedByte, expected))
        }
    }

    /// Opens an array or object (the current byte) inside `depth` containers: the new
    /// depth, or an error past [`MAX_DEPTH`].
    #[inline(always)]
    fn open(&mut self, depth: usize) -> Step<usize> {
        let depth = depth + 1;
        if depth > MAX_DEPTH {
            return Err(self.fail_at(self.pos, ExtractErrorKind::TooDeep, ""));
        }
        self.pos += 1;
        Ok(depth)
    }

    /// Inside an object: reads the next member's key and the `:` after it, leaving the
    /// scanner at the member's value, or the closing `}` (`None`). `first` is true until
    /// the first call.
    #[inline(always)]
    fn next_key(&mut self, first: &mut bool) -> Step<Option<Key<'a>>> {
        self.skip_ws();
        if *first {
            *first = false;
            if self.peek() == Some(b'}') {
                self.pos += 1;
                return Ok(None);
            }
        } else {
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws();
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(None);
                }
                _ => return Err(self.fail(ExtractErrorKind::UnexpectedByte, "`,` or `}`")),
            }
        }
        if self.peek() != Some(b'"') {
            return Err(self.fail(ExtractErrorKind::UnexpectedByte, "a string (an object key)"));
        }
        let key = self.key()?;
        self.skip_ws();
        self.expect(b':', "`:`")?;
        self.skip_ws();
        Ok(Some(key))
    }

    /// Consumes the value at the current position; when it is an object, follows `path`
    /// (the last element is the key whose value is captured). The last duplicate key
    /// wins, as in `serde_json::Value`.
    fn find(&mut self, depth: usize, path: &[&str]) -> Step<RawPreference<'a>> {
        let Some((first_name, rest)) = path.split_first() else {
            return self.skip_value(depth).map(|()| RawPreference::Absent);
        };
        if self.peek() != Some(b'{') {
            self.skip_value(depth)?;
            return Ok(RawPreference::Absent);
        }
        let depth = self.open(depth)?;
        let mut found = RawPreference::Absent;
        let mut first = true;
        while let Some(key) = self.next_key(&mut first)? {
            if !key.is(first_name) {
                self.skip_member(depth)?;
            } else if !rest.is_empty() {
                found = self.find(depth, rest)?;
            } else if self.peek() == Some(b'"') {
                found = RawPreference::String(self.string()?);
            } else {
                self.skip_value(depth)?;
                found = RawPreference::NotString;
            }
        }
        Ok(found)
    }

    /// Consumes and validates any JSON value inside `depth` containers, without
    /// recursion: the arrays and objects opened inside it are a stack of bits (one per
    /// level: object or array), which [`MAX_DEPTH`] keeps within a `u128`.
    fn skip_value(&mut self, depth: usize) -> Step<()> {
        // Bit `n` of `objects`: whether the container opened `n` levels above the current
        // one is an object. `level`: how many containers this call has opened.
        let mut objects: u128 = 0;
        let mut level = 0usize;
        loop {
            // A value starts here.
            match self.peek() {
                Some(b'{') => {
                    self.open(depth + level)?;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                    } else {
                        objects = (objects << 1) | 1;
                        level += 1;
                        self.member_key()?;
                        continue;
                    }
                }
                Some(b'[') => {
                    self.open(depth + level)?;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                    } else {
                        objects <<= 1;
                        level += 1;
                        continue;
                    }
                }
                Some(b'"') => self.skip_string()?,
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'n') => self.literal(b"null")?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(self.fail(ExtractErrorKind::UnexpectedByte, "a JSON value")),
            }
            // A value ended: close containers until one has another element.
            loop {
                if level == 0 {
                    return Ok(());
                }
                self.skip_ws();
                let in_object = objects & 1 == 1;
                match (self.peek(), in_object) {
                    (Some(b','), true) => {
                        self.pos += 1;
                        self.skip_ws();
                        self.member_key()?;
                        break;
                    }
                    (Some(b','), false) => {
                        self.pos += 1;
                        self.skip_ws();
                        break;
                    }
                    (Some(b'}'), true) | (Some(b']'), false) => {
                        self.pos += 1;
                        objects >>= 1;
                        level -= 1;
                    }
                    (_, true) => {
                        return Err(self.fail(ExtractErrorKind::UnexpectedByte, "`,` or `}`"));
                    }
                    (_, false) => {
                        return Err(self.fail(ExtractErrorKind::UnexpectedByte, "`,` or `]`"));
                    }
                }
            }
        }
    }

    /// Consumes the value of a member that is not needed: a string here (the usual
    /// case, without a call), anything else with [`Scanner::skip_value`].
    #[inline(always)]
    fn skip_member(&mut self, depth: usize) -> Step<()> {
        if self.peek() == Some(b'"') {
            self.skip_string()
        } else {
            self.skip_value(depth)
        }
    }

    /// In an object being skipped, at a member: its key, the `:` and the whitespace up to
    /// its value.
    #[inline(always)]
    fn member_key(&mut self) -> Step<()> {
        if self.peek() != Some(b'"') {
            return Err(self.fail(ExtractErrorKind::UnexpectedByte, "a string (an object key)"));
        }
        self.skip_string()?;
        self.skip_ws();
        self.expect(b':', "`:`")?;
        self.skip_ws();
        Ok(())
    }

    fn literal(&mut self, word: &'static [u8]) -> Step<()> {
        for &expected in word {
            if self.peek() != Some(expected) {
                return Err(self.fail(
                    ExtractErrorKind::UnexpectedByte,
                    "`true`, `false` or `null`",
                ));
            }
            self.pos += 1;
        }
        Ok(())
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Step<()> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.fail(ExtractErrorKind::UnexpectedByte, "a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.one_or_more_digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            self.one_or_more_digits()?;
        }
        Ok(())
    }

    #[inline(always)]
    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn one_or_more_digits(&mut self) -> Step<()> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.fail(ExtractErrorKind::UnexpectedByte, "a digit"));
        }
        self.digits();
        Ok(())
    }

    /// Consumes a string (the current byte must be `"`), checking its escapes, that it
    /// has no control characters, and that it is valid UTF-8: returns where its contents
    /// start and end (between the quotes) and whether it has escapes.
    ///
    /// The text between the bytes that need attention (`"`, `\\`, control characters, an
    /// invalid UTF-8 sequence) is skipped by [`plain_run`], which checks UTF-8 as it
    /// goes. As with `core::str::from_utf8` after the fact, a UTF-8 error is reported at
    /// the first invalid sequence, and only once the string turned out to be otherwise
    /// well-formed.
    #[inline(always)]
    fn scan_string(&mut self) -> Step<(usize, usize, bool)> {
        self.expect(b'"', "`\"`")?;
        let start = self.pos;
        // Most keys and many values end within the next eight bytes, none of which needs
        // attention before the closing quote: one word tells.
        if let Some(word) = self.input.get(start..).and_then(<[u8]>::first_chunk::<8>) {
            let x = u64::from_le_bytes(*word);
            let mask = attention(x);
            let k = mask.trailing_zeros() / 8;
            if mask != 0 && (x >> (8 * k)) as u8 == b'"' {
                let end = start + k as usize;
                self.pos = end + 1;
                return Ok((start, end, false));
            }
        }
        let mut escaped = false;
        let mut invalid_utf8: Option<usize> = None;
        loop {
            self.pos += plain_run(self.input.get(self.pos..).unwrap_or_default());
            match self.peek() {
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    self.escape()?;
                }
                Some(0x00..=0x1f) => {
                    return Err(self.fail(ExtractErrorKind::ControlCharacter, ""));
                }
                // `plain_run` stops at a non-ASCII byte only where a sequence is invalid.
                Some(_) => {
                    invalid_utf8.get_or_insert(self.pos);
                    self.pos += 1;
                }
                None => return Err(self.fail(ExtractErrorKind::UnexpectedEnd, "`\"`")),
            }
        }
        let end = self.pos;
        self.pos += 1;
        if let Some(at) = invalid_utf8 {
            return Err(self.fail_at(at, ExtractErrorKind::InvalidUtf8, ""));
        }
        Ok((start, end, escaped))
    }

    /// The contents of a scanned (hence valid UTF-8) string as text.
    fn contents(&mut self, start: usize, end: usize) -> Step<&'a str> {
        let bytes = self.input.get(start..end).unwrap_or_default();
        match core::str::from_utf8(bytes) {
            Ok(text) => Ok(text),
            Err(e) => Err(self.fail_at(start + e.valid_up_to(), ExtractErrorKind::InvalidUtf8, "")),
        }
    }

    /// Consumes and fully validates a string whose value is not needed.
    #[inline(always)]
    fn skip_string(&mut self) -> Step<()> {
        self.scan_string().map(|_| ())
    }

    /// Validates one escape (the current byte is the backslash) and moves past it.
    #[inline(always)]
    fn escape(&mut self) -> Step<()> {
        let at = self.pos;
        self.pos += 1;
        match self.peek() {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos += 1;
                Ok(())
            }
            Some(b'u') => {
                self.pos += 1;
                let unit = self.hex4()?;
                match unit {
                    0xD800..=0xDBFF => {
                        if self.input.get(self.pos..self.pos + 2) != Some(b"\\u") {
                            return Err(self.fail_at(at, ExtractErrorKind::LoneSurrogate, ""));
                        }
                        self.pos += 2;
                        match self.hex4()? {
                            0xDC00..=0xDFFF => Ok(()),
                            _ => Err(self.fail_at(at, ExtractErrorKind::LoneSurrogate, "")),
                        }
                    }
                    0xDC00..=0xDFFF => Err(self.fail_at(at, ExtractErrorKind::LoneSurrogate, "")),
                    _ => Ok(()),
                }
            }
            _ => Err(self.fail(
                ExtractErrorKind::InvalidEscape,
                "one of `\"\\/bfnrtu` after `\\`",
            )),
        }
    }

    fn hex4(&mut self) -> Step<u16> {
        let mut unit: u16 = 0;
        for _ in 0..4 {
            let digit = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                _ => {
                    return Err(self.fail(
                        ExtractErrorKind::InvalidEscape,
                        "four hex digits after `\\u`",
                    ));
                }
            };
            unit = (unit << 4) | u16::from(digit);
            self.pos += 1;
        }
        Ok(unit)
    }

    /// Consumes an object key (without decoding it).
    #[inline(always)]
    fn key(&mut self) -> Step<Key<'a>> {
        let (start, end, escaped) = self.scan_string()?;
        let text = self.input.get(start..end).unwrap_or_default();
        Ok(Key { text, escaped })
    }

    /// Consumes a string and returns its decoded value as UTF-8 bytes (checked), borrowed
    /// when it has no escapes; for values that are turned into text only when asked for.
    #[inline(always)]
    fn string_bytes(&mut self) -> Step<Cow<'a, [u8]>> {
        let (start, end, escaped) = self.scan_string()?;
        let raw = self.input.get(start..end).unwrap_or_default();
        if !escaped {
            return Ok(Cow::Borrowed(raw));
        }
        let text = self.contents(start, end)?;
        match decode(text) {
            Some(decoded) => Ok(Cow::Owned(decoded.into_bytes())),
            None => Err(self.fail_at(start, ExtractErrorKind::InvalidEscape, "")),
        }
    }

    /// Consumes a string and returns its decoded value: borrowed when it has no escapes.
    #[inline(always)]
    fn string(&mut self) -> Step<Cow<'a, str>> {
        let (start, end, escaped) = self.scan_string()?;
        let text = self.contents(start, end)?;
        if !escaped {
            return Ok(Cow::Borrowed(text));
        }
        match decode(text) {
            Some(decoded) => Ok(Cow::Owned(decoded)),
            None => Err(self.fail_at(start, ExtractErrorKind::InvalidEscape, "")),
        }
    }
}

/// Whether a byte inside a JSON string needs a closer look: `"`, `\\`, a control
/// character (U+0000 to U+001F), or any byte of a non-ASCII character.
const fn needs_attention(b: u8) -> bool {
    // `|`, not `||`: no branch per byte, so that a block of them vectorizes; one
    // unsigned compare tells both ends of printable ASCII (0x20..=0x7f) from the rest.
    (b == b'"') | (b == b'\\') | (b.wrapping_sub(0x20) > 0x5f)
}

/// The length of the leading run of a JSON string's bytes that need no attention from
/// the scanner: printable ASCII other than `"` and `\\`, and well-formed UTF-8 sequences
/// of non-ASCII characters. It ends at a `"`, a `\\`, a control character, the first byte
/// of an invalid UTF-8 sequence, or the end of `bytes`.
///
/// Three gears. Eight bytes at a time as SWAR words (see [`attention`]), whose mask gives
/// the exact position of the first byte that needs attention: most keys and values end
/// within a few words. A non-ASCII character is checked where it stands
/// ([`utf8_width`]) and the words go on after it, so text in most languages costs a
/// word or two per character. After [`WORDS_BEFORE_BLOCKS`] words without any such byte
/// the run is a long one, and [`long_run`] goes on [`BLOCK`] bytes at a time. Only the
/// last few bytes of the input are looked at one by one.
#[inline(always)]
fn plain_run(bytes: &[u8]) -> usize {
    let mut at = 0;
    let mut plain_words = 0;
    loop {
        match bytes.get(at..at + 8).map(<[u8; 8]>::try_from) {
            Some(Ok(word)) => {
                let mask = attention(u64::from_le_bytes(word));
                if mask == 0 {
                    at += 8;
                    plain_words += 1;
                    if plain_words == WORDS_BEFORE_BLOCKS {
                        at += long_run(bytes.get(at..).unwrap_or_default());
                        plain_words = 0;
                    }
                    continue;
                }
                at += (mask.trailing_zeros() / 8) as usize;
            }
            _ => {
                // The last few bytes, one by one.
                match bytes.get(at) {
                    Some(&b) if !needs_attention(b) => {
                        at += 1;
                        continue;
                    }
                    Some(_) => {}
                    None => return at,
                }
            }
        }
        // `bytes[at]` needs attention: go on past a well-formed non-ASCII character,
        // stop at anything else.
        match bytes.get(at) {
            Some(&b) if b >= 0x80 => match utf8_width(bytes.get(at..).unwrap_or_default()) {
                Some(width) => {
                    at += width;
                    plain_words = 0;
                }
                None => return at,
            },
            _ => return at,
        }
    }
}

/// How many words without a byte that needs attention [`plain_run`] reads before it
/// takes a run for a long one.
const WORDS_BEFORE_BLOCKS: usize = 4;

/// How many bytes a block of [`long_run`] holds.
const BLOCK: usize = 64;

/// The length of the leading whole [`BLOCK`]s of `bytes` in which no byte needs
/// attention, each block tested without a branch per byte, which the compiler turns into
/// vector compares on targets that have them (SSE2 on x86-64, NEON on aarch64; no
/// `unsafe` here). Kept out of line so that the short path stays small where it is
/// inlined.
#[inline(never)]
fn long_run(bytes: &[u8]) -> usize {
    let mut skipped = 0;
    for block in bytes.chunks_exact(BLOCK) {
        let hits = block
            .iter()
            .fold(0u8, |hits, &b| hits | u8::from(needs_attention(b)));
        if hits != 0 {
            break;
        }
        skipped += BLOCK;
    }
    skipped
}

/// For eight bytes read little-endian, a mask whose lowest set bit is the high bit of
/// the first byte that [`needs_attention`] (zero when none does).
///
/// A byte equal to `c` is a zero byte of `x ^ (0x01…01 * c)`, and for any `y`,
/// `(y - 0x01…01) & !y` sets the high bit of `y`'s first zero byte and of none before it.
/// `(x - 0x20…20) | x` sets the high bit of the first byte below 0x20 or above 0x7F and
/// of none before it (the bytes before it are in 0x20..=0x7F: no borrow, high bit clear).
/// Bits above the first hit may be set spuriously by borrows, which is why only the
/// lowest one is used.
const fn attention(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const fn first_zero(y: u64) -> u64 {
        y.wrapping_sub(ONES) & !y
    }
    let quote = first_zero(x ^ (ONES * b'"' as u64));
    let backslash = first_zero(x ^ (ONES * b'\\' as u64));
    let outside = x.wrapping_sub(ONES * 0x20) | x;
    (quote | backslash | outside) & HIGH
}

/// The length of the UTF-8 sequence that `bytes` starts with, or `None` when it does not
/// start with a valid one (Unicode 15, table 3-7: no overlong forms, no surrogates,
/// nothing above U+10FFFF, no truncated sequence).
#[inline(always)]
fn utf8_width(bytes: &[u8]) -> Option<usize> {
    let (width, second) = match bytes.first()? {
        0x00..=0x7f => return Some(1),
        0xc2..=0xdf => (2, 0x80..=0xbf),
        0xe0 => (3, 0xa0..=0xbf),
        0xe1..=0xec | 0xee..=0xef => (3, 0x80..=0xbf),
        0xed => (3, 0x80..=0x9f),
        0xf0 => (4, 0x90..=0xbf),
        0xf1..=0xf3 => (4, 0x80..=0xbf),
        0xf4 => (4, 0x80..=0x8f),
        _ => return None,
    };
    let tail = bytes.get(1..width)?;
    let (first, rest) = tail.split_first()?;
    (second.contains(first) && rest.iter().all(|b| matches!(b, 0x80..=0xbf))).then_some(width)
}

/// An object key as written: compared with a name by decoding its escapes on the fly, so
/// that no key is ever allocated.
pub(crate) struct Key<'a> {
    /// The key's bytes between the quotes (valid UTF-8: the scanner checked it).
    text: &'a [u8],
    escaped: bool,
}

impl Key<'_> {
    /// Whether the decoded key equals `name`.
    ///
    /// Inlined so that, with `name` a literal, the usual unescaped key costs a length
    /// test and a compare of a few bytes.
    #[inline]
    fn is(&self, name: &str) -> bool {
        if !self.escaped {
            // The last byte first: keys of the same length usually differ there
            // (`tools` and `_meta`), and then the full compare is not called.
            let name = name.as_bytes();
            return self.text.len() == name.len()
                && self.text.last() == name.last()
                && self.text == name;
        }
        self.is_escaped(name)
    }

    /// [`Key::is`] for a key written with escapes (rare: decoded on the fly).
    #[cold]
    fn is_escaped(&self, name: &str) -> bool {
        let Ok(text) = core::str::from_utf8(self.text) else {
            return false;
        };
        let mut want = name.chars();
        for c in Unescape::new(text) {
            match c {
                Some(c) if want.next() == Some(c) => {}
                _ => return false,
            }
        }
        want.next().is_none()
    }
}

/// The characters of a validated JSON string body with escapes decoded; `Some(None)`
/// (then the end) for an escape that validation would have rejected.
struct Unescape<'a> {
    rest: &'a str,
    failed: bool,
}

impl<'a> Unescape<'a> {
    fn new(text: &'a str) -> Self {
        Unescape {
            rest: text,
            failed: false,
        }
    }

    fn escape(&mut self) -> Option<char> {
        let mut chars = self.rest.chars();
        let c = chars.next()?;
        self.rest = chars.as_str();
        Some(match c {
            '"' => '"',
            '\\' => '\\',
            '/' => '/',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                let hi = hex_unit(self.rest)?;
                self.rest = self.rest.get(4..)?;
                let code = if (0xD800..0xDC00).contains(&hi) {
                    let lo = self.rest.strip_prefix("\\u").and_then(hex_unit)?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return None;
                    }
                    self.rest = self.rest.get(6..)?;
                    0x10000 + ((u32::from(hi) - 0xD800) << 10) + (u32::from(lo) - 0xDC00)
                } else {
                    u32::from(hi)
                };
                char::from_u32(code)?
            }
            _ => return None,
        })
    }
}

impl Iterator for Unescape<'_> {
    type Item = Option<char>;

    fn next(&mut self) -> Option<Option<char>> {
        if self.failed {
            return None;
        }
        let mut chars = self.rest.chars();
        let c = chars.next()?;
        self.rest = chars.as_str();
        if c != '\\' {
            return Some(Some(c));
        }
        let decoded = self.escape();
        self.failed = decoded.is_none();
        Some(decoded)
    }
}

/// Decodes the escapes of a validated string body; `None` for an escape that validation
/// would have rejected.
fn decode(text: &str) -> Option<String> {
    // Decoding never lengthens a string, so this is the only allocation.
    let mut out = String::with_capacity(text.len());
    for c in Unescape::new(text) {
        out.push(c?);
    }
    Some(out)
}

fn hex_unit(s: &str) -> Option<u16> {
    let digits = s.get(..4)?;
    u16::from_str_radix(digits, 16)
        .ok()
        .filter(|_| digits.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::{BLOCK, WORDS_BEFORE_BLOCKS, needs_attention, plain_run, utf8_width};

    /// The run `plain_run` must find, byte by byte: up to a `"`, a `\\`, a control
    /// character or the start of an invalid UTF-8 sequence (by the standard library).
    fn naive_run(bytes: &[u8]) -> usize {
        let mut at = 0;
        while let Some(&b) = bytes.get(at) {
            if b < 0x80 {
                if needs_attention(b) {
                    return at;
                }
                at += 1;
                continue;
            }
            let width = (2..=4).find(|&w| {
                bytes
                    .get(at..at + w)
                    .is_some_and(|s| core::str::from_utf8(s).is_ok())
            });
            match width {
                Some(w) => at += w,
                None => return at,
            }
        }
        at
    }

    #[test]
    fn plain_run_stops_at_the_first_byte_that_needs_attention() {
        // Every byte value at every position of buffers around the word and block sizes,
        // after plain ASCII and before bytes that would also stop the run.
        for len in 0..=WORDS_BEFORE_BLOCKS * 8 + 2 * BLOCK + 9 {
            for at in 0..len {
                for b in 0..=u8::MAX {
                    let mut buffer = vec![b'a'; len];
                    if let Some(slot) = buffer.get_mut(at) {
                        *slot = b;
                    }
                    for later in buffer.iter_mut().skip(at + 1).step_by(3) {
                        *later = if b % 2 == 0 { b'"' } else { 0xff };
                    }
                    assert_eq!(plain_run(&buffer), naive_run(&buffer), "{buffer:?}");
                }
            }
        }
    }

    #[test]
    fn plain_run_goes_on_through_text_in_any_script() {
        let texts = [
            "Le comité a adopté le rapport « Perspectives 2025 » à l'unanimité.",
            "Следующий шаг: утвердить план",
            "次のステップ：計画を承認する",
            "emoji 😀 and math ∑ at the end of a word😀",
        ];
        for text in texts {
            for cut in 0..=text.len() {
                let mut buffer = text.as_bytes().to_vec();
                buffer.truncate(cut);
                assert_eq!(
                    plain_run(&buffer),
                    naive_run(&buffer),
                    "{text} cut at {cut}"
                );
                buffer.push(b'"');
                buffer.extend_from_slice(text.as_bytes());
                assert_eq!(
                    plain_run(&buffer),
                    naive_run(&buffer),
                    "{text} cut at {cut}"
                );
            }
            // A stray continuation byte, an overlong form or a surrogate stops the run.
            for bad in [
                &[0x80u8][..],
                &[0xc0, 0xaf],
                &[0xed, 0xa0, 0x80],
                &[0xf4, 0x90, 0x80, 0x80],
            ] {
                let mut buffer = text.as_bytes().to_vec();
                buffer.extend_from_slice(bad);
                buffer.extend_from_slice(text.as_bytes());
                assert_eq!(plain_run(&buffer), text.len(), "{text} then {bad:x?}");
            }
        }
    }

    #[test]
    fn utf8_width_agrees_with_the_standard_library() {
        let samples = [
            0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff,
        ];
        for first in 0..=u8::MAX {
            for second in 0..=u8::MAX {
                for third in samples {
                    for fourth in samples {
                        let bytes = [first, second, third, fourth];
                        let expected = (1..=4).find(|&w| {
                            bytes
                                .get(..w)
                                .is_some_and(|p| core::str::from_utf8(p).is_ok())
                        });
                        assert_eq!(utf8_width(&bytes), expected, "{bytes:x?}");
                        // A sequence cut short by the end of the input is invalid.
                        if let Some(w) = expected.filter(|&w| w > 1) {
                            assert_eq!(utf8_width(&bytes[..w - 1]), None, "{bytes:x?}");
                        }
                    }
                }
            }
        }
    }
}
