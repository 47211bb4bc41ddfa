//! A validating JSON skimmer: walks a whole JSON text once, checks that it is valid
//! (RFC 8259), and captures only the few values the language binding needs.
//!
//! It never builds a tree. Strings are borrowed from the input unless they contain
//! escapes and are captured (then, and only then, one `String` is built). Nesting is
//! bounded by [`MAX_DEPTH`](crate::MAX_DEPTH), recursion is bounded by the same number,
//! and every byte is looked at a constant number of times, so time is linear in the
//! input.
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

type Result<T> = std::result::Result<T, ExtractError>;

/// What one pass over a JSON-RPC message captured.
#[derive(Debug, Default)]
pub(crate) struct Captured<'a> {
    /// Raw JSON text of the last top-level `id`.
    pub(crate) id: Option<&'a str>,
    /// The last top-level `method`, when it is a string.
    pub(crate) method: Option<Cow<'a, str>>,
    /// `params._meta[key]`.
    pub(crate) params: RawPreference<'a>,
    /// `result._meta[key]`, and whether there is a top-level `result`.
    pub(crate) result: RawPreference<'a>,
    pub(crate) has_result: bool,
    /// `error.data._meta[key]`, and whether there is a top-level `error`.
    pub(crate) error: RawPreference<'a>,
    pub(crate) has_error: bool,
}

/// Skims one JSON text, capturing `id`, `method` and the value of `key` under
/// `params._meta`, `result._meta` and `error.data._meta`.
pub(crate) fn skim_message<'a>(input: &'a [u8], key: &str) -> Result<Captured<'a>> {
    let mut s = Scanner { input, pos: 0 };
    let mut out = Captured::default();
    s.skip_ws();
    if s.peek() == Some(b'{') {
        s.object(0, |s, depth, member| {
            if member.is("id") {
                let start = s.pos;
                s.value(depth)?;
                out.id = Some(s.text(start)?);
            } else if member.is("method") {
                out.method = if s.peek() == Some(b'"') {
                    Some(s.string()?)
                } else {
                    s.value(depth)?;
                    None
                };
            } else if member.is("params") {
                out.params = s.find(depth, &["_meta", key])?;
            } else if member.is("result") {
                out.has_result = true;
                out.result = s.find(depth, &["_meta", key])?;
            } else if member.is("error") {
                out.has_error = true;
                out.error = s.find(depth, &["data", "_meta", key])?;
            } else {
                s.value(depth)?;
            }
            Ok(())
        })?;
    } else {
        s.value(0)?;
    }
    s.skip_ws();
    if s.pos < input.len() {
        return Err(ExtractError::new(
            s.pos,
            ExtractErrorKind::TrailingCharacters,
            "",
        ));
    }
    Ok(out)
}

struct Scanner<'a> {
    input: &'a [u8],
    pos: usize,
}

impl<'a> Scanner<'a> {
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

    fn error(&self, kind: ExtractErrorKind, expected: &'static str) -> ExtractError {
        let kind = if self.pos >= self.input.len() && kind == ExtractErrorKind::UnexpectedByte {
            ExtractErrorKind::UnexpectedEnd
        } else {
            kind
        };
        ExtractError::new(self.pos, kind, expected)
    }

    #[inline(always)]
    fn expect(&mut self, byte: u8, expected: &'static str) -> Result<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(ExtractErrorKind::UnexpectedByte, expected))
        }
    }

    /// The input from `start` to the current position, as text (already validated).
    fn text(&self, start: usize) -> Result<&'a str> {
        let bytes = self.input.get(start..self.pos).unwrap_or_default();
        core::str::from_utf8(bytes)
            .map_err(|_| ExtractError::new(start, ExtractErrorKind::InvalidUtf8, ""))
    }

    /// Walks an object (the current byte must be `{`), calling `member` with the
    /// scanner positioned at each member's value; `member` must consume the value.
    /// `depth` is the number of containers around this object.
    fn object<F>(&mut self, depth: usize, mut member: F) -> Result<()>
    where
        F: FnMut(&mut Self, usize, Key<'a>) -> Result<()>,
    {
        let depth = self.enter(depth)?;
        self.expect(b'{', "`{`")?;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(
                    self.error(ExtractErrorKind::UnexpectedByte, "a string (an object key)")
                );
            }
            let key = self.key()?;
            self.skip_ws();
            self.expect(b':', "`:`")?;
            self.skip_ws();
            member(self, depth, key)?;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.error(ExtractErrorKind::UnexpectedByte, "`,` or `}`")),
            }
        }
    }

    /// One more level of nesting, or an error past [`MAX_DEPTH`].
    #[inline(always)]
    fn enter(&self, depth: usize) -> Result<usize> {
        let depth = depth + 1;
        if depth > MAX_DEPTH {
            return Err(ExtractError::new(self.pos, ExtractErrorKind::TooDeep, ""));
        }
        Ok(depth)
    }

    /// Consumes the value at the current position; when it is an object, follows `path`
    /// (the last element is the key whose value is captured). The last duplicate key
    /// wins, as in `serde_json::Value`.
    fn find(&mut self, depth: usize, path: &[&str]) -> Result<RawPreference<'a>> {
        let Some((first, rest)) = path.split_first() else {
            return self.value(depth).map(|()| RawPreference::Absent);
        };
        if self.peek() != Some(b'{') {
            self.value(depth)?;
            return Ok(RawPreference::Absent);
        }
        let mut found = RawPreference::Absent;
        self.object(depth, |s, depth, key| {
            if !key.is(first) {
                return s.value(depth);
            }
            found = if !rest.is_empty() {
                s.find(depth, rest)?
            } else if s.peek() == Some(b'"') {
                RawPreference::String(s.string()?)
            } else {
                s.value(depth)?;
                RawPreference::NotString
            };
            Ok(())
        })?;
        Ok(found)
    }

    /// Consumes and validates any JSON value. `depth` is the number of containers
    /// around it.
    fn value(&mut self, depth: usize) -> Result<()> {
        match self.peek() {
            Some(b'{') => self.object(depth, |s, depth, _| s.value(depth)),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.skip_string(),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error(ExtractErrorKind::UnexpectedByte, "a JSON value")),
        }
    }

    fn array(&mut self, depth: usize) -> Result<()> {
        let depth = self.enter(depth)?;
        self.expect(b'[', "`[`")?;
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.skip_ws();
            self.value(depth)?;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.error(ExtractErrorKind::UnexpectedByte, "`,` or `]`")),
            }
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<()> {
        for &expected in word {
            if self.peek() != Some(expected) {
                return Err(self.error(
                    ExtractErrorKind::UnexpectedByte,
                    "`true`, `false` or `null`",
                ));
            }
            self.pos += 1;
        }
        Ok(())
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Result<()> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error(ExtractErrorKind::UnexpectedByte, "a digit")),
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

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn one_or_more_digits(&mut self) -> Result<()> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.error(ExtractErrorKind::UnexpectedByte, "a digit"));
        }
        self.digits();
        Ok(())
    }

    /// Consumes a string (the current byte must be `"`), checking its escapes, that it
    /// has no control characters, and that it is valid UTF-8: returns where its contents
    /// start and end (between the quotes) and whether it has escapes.
    ///
    /// ASCII text is skipped a word at a time ([`plain_run`]); only the bytes that need
    /// attention (`"`, `\\`, control characters, and the lead byte of each non-ASCII
    /// character) are looked at one by one, so the UTF-8 check costs nothing on ASCII
    /// and one table lookup per non-ASCII character. As with `core::str::from_utf8` after
    /// the fact, a UTF-8 error is reported at the first invalid sequence, and only once
    /// the string turned out to be otherwise well-formed.
    ///
    /// Always inlined: it is the scanner's innermost step, called for every key and
    /// string; the calls cost 234 instructions of a 1 KiB request's trip through the
    /// HTTP layer (callgrind, `benches/benches/http_layer.rs`).
    #[inline(always)]
    fn scan_string(&mut self) -> Result<(usize, usize, bool)> {
        self.expect(b'"', "`\"`")?;
        let start = self.pos;
        let mut escaped = false;
        let mut invalid_utf8: Option<usize> = None;
        loop {
            self.pos += plain_run(self.input.get(self.pos..).unwrap_or_default());
            let Some(b) = self.peek() else {
                return Err(self.error(ExtractErrorKind::UnexpectedEnd, "`\"`"));
            };
            match b {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.escape()?;
                }
                0x00..=0x1f => return Err(self.error(ExtractErrorKind::ControlCharacter, "")),
                0x80.. => match utf8_width(self.input.get(self.pos..).unwrap_or_default()) {
                    Some(width) => self.pos += width,
                    None => {
                        invalid_utf8.get_or_insert(self.pos);
                        self.pos += 1;
                    }
                },
                _ => self.pos += 1,
            }
        }
        let end = self.pos;
        self.pos += 1;
        if let Some(at) = invalid_utf8 {
            return Err(ExtractError::new(at, ExtractErrorKind::InvalidUtf8, ""));
        }
        Ok((start, end, escaped))
    }

    /// The contents of a scanned (hence valid UTF-8) string as text.
    fn contents(&self, start: usize, end: usize) -> Result<&'a str> {
        let bytes = self.input.get(start..end).unwrap_or_default();
        core::str::from_utf8(bytes).map_err(|e| {
            ExtractError::new(start + e.valid_up_to(), ExtractErrorKind::InvalidUtf8, "")
        })
    }

    /// Consumes and fully validates a string whose value is not needed.
    #[inline(always)]
    fn skip_string(&mut self) -> Result<()> {
        self.scan_string().map(|_| ())
    }

    /// Validates one escape (the current byte is the backslash) and moves past it.
    #[inline(always)]
    fn escape(&mut self) -> Result<()> {
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
                            return Err(ExtractError::new(at, ExtractErrorKind::LoneSurrogate, ""));
                        }
                        self.pos += 2;
                        match self.hex4()? {
                            0xDC00..=0xDFFF => Ok(()),
                            _ => Err(ExtractError::new(at, ExtractErrorKind::LoneSurrogate, "")),
                        }
                    }
                    0xDC00..=0xDFFF => {
                        Err(ExtractError::new(at, ExtractErrorKind::LoneSurrogate, ""))
                    }
                    _ => Ok(()),
                }
            }
            _ => Err(self.error(
                ExtractErrorKind::InvalidEscape,
                "one of `\"\\/bfnrtu` after `\\`",
            )),
        }
    }

    fn hex4(&mut self) -> Result<u16> {
        let mut unit: u16 = 0;
        for _ in 0..4 {
            let digit = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                _ => {
                    return Err(self.error(
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
    fn key(&mut self) -> Result<Key<'a>> {
        let (start, end, escaped) = self.scan_string()?;
        let text = self.input.get(start..end).unwrap_or_default();
        Ok(Key { text, escaped })
    }

    /// Consumes a string and returns its decoded value: borrowed when it has no escapes.
    #[inline(always)]
    fn string(&mut self) -> Result<Cow<'a, str>> {
        let (start, end, escaped) = self.scan_string()?;
        let text = self.contents(start, end)?;
        if escaped {
            decode(text, start).map(Cow::Owned)
        } else {
            Ok(Cow::Borrowed(text))
        }
    }
}

/// Whether a byte inside a JSON string needs a closer look: `"`, `\\`, a control
/// character (U+0000 to U+001F), or any byte of a non-ASCII character.
const fn needs_attention(b: u8) -> bool {
    // `|`, not `||`: no branch per byte, so that a block of them vectorizes.
    (b == b'"') | (b == b'\\') | (b < 0x20) | (b > 0x7f)
}

/// The length of the leading run of printable ASCII other than `"` and `\\`: the bytes
/// of a JSON string that need no attention.
///
/// Two gears. Eight bytes at a time as SWAR words (see [`attention`]), whose mask gives
/// the exact position of the first byte that needs attention: most keys and values, and
/// the runs between the non-ASCII letters of most languages' text, end within a few
/// words. After [`WORDS_BEFORE_BLOCKS`] plain words the run is a long one, and
/// [`long_run`] goes on [`BLOCK`] bytes at a time. Only the last few bytes of the input
/// are looked at one by one.
#[inline(always)]
fn plain_run(bytes: &[u8]) -> usize {
    match word_run::<{ WORDS_BEFORE_BLOCKS * 8 }>(bytes) {
        Ok(run) => run,
        Err(skipped) => skipped + long_run(bytes.get(skipped..).unwrap_or_default()),
    }
}

/// The leading run of `bytes` that needs no attention, eight bytes at a time, then the
/// last few one by one: `Ok` with the position of the first byte that needs attention
/// (or the length of `bytes` when none does), or `Err(LIMIT)` once `LIMIT` bytes (a
/// multiple of eight; 0 for no limit) turned out plain.
#[inline(always)]
fn word_run<const LIMIT: usize>(bytes: &[u8]) -> std::result::Result<usize, usize> {
    let mut words = bytes.chunks_exact(8);
    let mut skipped = 0;
    for word in &mut words {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let mask = attention(u64::from_le_bytes(word));
        if mask != 0 {
            return Ok(skipped + (mask.trailing_zeros() / 8) as usize);
        }
        skipped += 8;
        if LIMIT != 0 && skipped == LIMIT {
            return Err(skipped);
        }
    }
    let tail = words.remainder();
    Ok(skipped
        + tail
            .iter()
            .position(|&b| needs_attention(b))
            .unwrap_or(tail.len()))
}

/// How many plain words [`plain_run`] reads before it takes a run for a long one.
const WORDS_BEFORE_BLOCKS: usize = 4;

/// How many bytes a block of [`long_run`] holds.
const BLOCK: usize = 32;

/// [`plain_run`] past its first words: [`BLOCK`] bytes at a time, each block tested
/// without a branch per byte, which the compiler turns into vector compares on targets
/// that have them (SSE2 on x86-64, NEON on aarch64; no `unsafe` here); then the block
/// that holds the end of the run, and what is left after the last whole block, as words.
/// Kept out of line so that the short path stays small where it is inlined.
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
    // No limit: the run ends at a byte that needs attention or at the end of the input.
    let rest = word_run::<0>(bytes.get(skipped..).unwrap_or_default());
    skipped + rest.unwrap_or_else(|len| len)
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

/// Decodes the escapes of a validated string body (`offset` is where it starts, for
/// errors that validation already ruled out).
fn decode(text: &str, offset: usize) -> Result<String> {
    // Decoding never lengthens a string, so this is the only allocation.
    let mut out = String::with_capacity(text.len());
    for c in Unescape::new(text) {
        out.push(c.ok_or(ExtractError::new(
            offset,
            ExtractErrorKind::InvalidEscape,
            "",
        ))?);
    }
    Ok(out)
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

    #[test]
    fn plain_run_stops_at_the_first_byte_that_needs_attention() {
        // Every byte value at every position of buffers around the word size, after
        // plain ASCII and before bytes that would also stop the run.
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
                    let naive = buffer
                        .iter()
                        .position(|&b| needs_attention(b))
                        .unwrap_or(len);
                    assert_eq!(plain_run(&buffer), naive, "{buffer:?}");
                }
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
