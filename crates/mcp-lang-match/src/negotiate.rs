//! The [`Negotiator`]: a server's supported languages, compiled once, and
//! one allocation-free choice per request (decision D4).
//!
//! # How a tag is scored
//!
//! Every supported tag gets a score from the request's ranges, in this order
//! of precedence (the first that applies is the score):
//!
//! 1. **Explicit**: the quality of the longest non-wildcard range that
//!    basic-filters the tag (decision D3, see [`basic`](crate::basic)). The
//!    match is *exact* when that range equals the tag and *more specific*
//!    when the tag extends it (`sr-Latn` → `sr-Latn-RS`).
//! 2. **Truncated**: the highest q of a range whose RFC 4647 lookup
//!    truncation reaches a prefix that equals or basic-filters the tag:
//!    `fr-CA` reaches `fr`, and from there `fr` and `fr-FR`. Ranges with
//!    `q=0` are exclusions and never reach anything by truncation. A
//!    truncation never crosses an explicit script subtag: past a prefix that
//!    dropped the range's script, or into a tag's script the prefix lacks,
//!    it reaches only the tag equal to the prefix, as lookup does. So
//!    `zh-Hans` reaches `zh` but never `zh-Hant` (Traditional script for a
//!    reader who asked for Simplified), while `pt-PT` still reaches `pt-BR`.
//! 3. **Wildcard**: the q of `*` (decision D3 among several `*`).
//!
//! A tag with score 0, or with no score, is never chosen. An explicit rating
//! always wins over truncation, so `en-US, de;q=0.5, en;q=0.1` with
//! `[en, de]` picks `de`: `en` is rated 0.1 by its own range, and the `en-US`
//! truncation cannot lift it.
//!
//! # How ties are broken
//!
//! Highest score first; then, in order: the earlier deciding range in the
//! header; the closer match (exact, more specific, truncated to a longer
//! prefix, truncated to a shorter one, wildcard; at equal prefix length the
//! tag *equal* to the prefix before tags extending it, so `fr-BE` with
//! `[fr-CA, fr]` picks `fr`); the server default; the server's own order of
//! supported tags. So `en` with `[en-US, en]` picks `en`, `sr-Latn` with
//! `[sr, sr-Latn-RS]` picks `sr-Latn-RS`, and `*` picks the default when the
//! default is supported.
//!
//! # When nothing is acceptable
//!
//! The server default is returned, never an error (SEP-2792: a server
//! "MUST use its server-defined default"). The [`Reason`] says why.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
#[cfg(target_has_atomic = "ptr")]
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use mcp_lang_grammar::{
    AcceptLanguage, LanguageTag, ParseError, Quality, Validating, WeightedRange,
};

use crate::basic::Decider;
use crate::subtags;

/// Why a [`Negotiation`] chose its tag.
///
/// ```
/// use mcp_lang_match::{Negotiator, Reason};
///
/// let n = Negotiator::new(["en", "en-GB", "de"], "en").unwrap();
/// assert_eq!(n.negotiate_header(Some("EN-gb")).reason(), Reason::Exact);
/// assert_eq!(n.negotiate_header(Some("de-CH")).reason(), Reason::Truncated);
/// assert_eq!(n.negotiate_header(Some("ja, *;q=0.1")).reason(), Reason::Wildcard);
/// assert_eq!(n.negotiate_header(Some("ja")).reason(), Reason::Default);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// A range equal to the tag (ignoring case) decided.
    Exact,
    /// A range that the tag extends decided (`en` chose `en-US`).
    MoreSpecific,
    /// Lookup truncation of a range reached the tag (`fr-CA` chose `fr`).
    Truncated,
    /// Only `*` matched the tag.
    Wildcard,
    /// No supported tag was acceptable, so the server default was used.
    Default,
    /// The preference was malformed, and so ignored as absent (SEP-2792).
    Malformed,
    /// There was no preference: no value, or a value with no ranges.
    Absent,
}

impl Reason {
    /// The kebab-case name used in JSON output (`"more-specific"`).
    ///
    /// ```
    /// use mcp_lang_match::Reason;
    ///
    /// assert_eq!(Reason::MoreSpecific.as_str(), "more-specific");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Exact => "exact",
            Reason::MoreSpecific => "more-specific",
            Reason::Truncated => "truncated",
            Reason::Wildcard => "wildcard",
            Reason::Default => "default",
            Reason::Malformed => "malformed",
            Reason::Absent => "absent",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The outcome of one negotiation: the chosen tag, its quality and why.
///
/// The tag is one of the server's own, spelled as the server spelled it,
/// whatever case the request used: the caller's `&str` when the
/// [`Negotiator`] was built from borrowed tags, else a borrow of the
/// negotiator's copy ([`SupportedTag`]). `T` is the negotiator's tag type.
///
/// ```
/// use mcp_lang_grammar::Quality;
/// use mcp_lang_match::{Negotiator, Reason};
///
/// let n = Negotiator::new(["en", "fr-CA"], "en").unwrap();
/// let chosen = n.negotiate_header(Some("fr;q=0.8, ja"));
/// assert_eq!((chosen.tag(), chosen.index()), ("fr-CA", Some(1)));
/// assert_eq!((chosen.quality(), chosen.reason()), (Quality::new(800).unwrap(), Reason::MoreSpecific));
/// ```
pub struct Negotiation<'n, T = Box<str>> {
    tag: &'n T,
    outcome: Outcome,
}

impl<T> Clone for Negotiation<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Negotiation<'_, T> {}

impl<T: SupportedTag> fmt::Debug for Negotiation<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Negotiation")
            .field("tag", &self.tag.as_ref())
            .field("index", &self.outcome.index)
            .field("quality", &self.outcome.quality)
            .field("reason", &self.outcome.reason)
            .finish()
    }
}

impl<T: SupportedTag> PartialEq for Negotiation<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.tag.as_ref() == other.tag.as_ref() && self.outcome == other.outcome
    }
}

impl<T: SupportedTag> Eq for Negotiation<'_, T> {}

impl<'n, T: SupportedTag> Negotiation<'n, T> {
    /// The chosen tag, in the server's spelling. For a negotiator built from
    /// borrowed tags (`&'static str` literals, say) this is the caller's own
    /// `&str`, which outlives the negotiator; for owned tags, a borrow of the
    /// negotiator's copy ([`SupportedTag`]).
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    ///
    /// let n = Negotiator::new(["en", "fr-CA"], "en").unwrap();
    /// assert_eq!(n.negotiate_header(Some("FR-ca")).tag(), "fr-CA");
    ///
    /// // Built per call from literals, and the answer still returned.
    /// fn page_language(value: Option<&str>) -> &'static str {
    ///     let pages = Negotiator::new(["en", "fr", "de"], "en").unwrap();
    ///     pages.negotiate_header(value).tag()
    /// }
    /// assert_eq!(page_language(Some("de-CH")), "de");
    /// ```
    pub fn tag(&self) -> T::Answer<'n> {
        self.tag.answer()
    }

    /// The chosen tag's position in the supported list, or `None` when it is
    /// the default and the default is not in that list. Handy for indexing a
    /// table of catalogs built in the same order.
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    ///
    /// let n = Negotiator::new(["fr", "de"], "en").unwrap();
    /// assert_eq!(n.negotiate_header(Some("de")).index(), Some(1));
    /// assert_eq!(n.negotiate_header(Some("ja")).index(), None);
    /// ```
    pub fn index(&self) -> Option<usize> {
        self.outcome.index
    }

    /// The chosen tag's score (decision D4). For [`Reason::Default`] it is
    /// 0, since the preference did not accept the default; for
    /// [`Reason::Absent`] and [`Reason::Malformed`] it is 1, since no
    /// preference means any language is acceptable (RFC 9110 §12.5.4).
    ///
    /// ```
    /// use mcp_lang_grammar::Quality;
    /// use mcp_lang_match::Negotiator;
    ///
    /// let n = Negotiator::new(["en", "fr"], "en").unwrap();
    /// assert_eq!(n.negotiate_header(Some("de, fr;q=0.4")).quality(), Quality::new(400).unwrap());
    /// ```
    pub fn quality(&self) -> Quality {
        self.outcome.quality
    }

    /// Why this tag was chosen.
    ///
    /// ```
    /// use mcp_lang_match::{Negotiator, Reason};
    ///
    /// let n = Negotiator::new(["en", "fr"], "en").unwrap();
    /// assert_eq!(n.negotiate_header(Some("fr-CA")).reason(), Reason::Truncated);
    /// assert_eq!(n.negotiate_header(Some("fr;;")).reason(), Reason::Malformed);
    /// assert_eq!(n.negotiate_header(None).reason(), Reason::Absent);
    /// ```
    pub fn reason(&self) -> Reason {
        self.outcome.reason
    }
}

/// A supported tag as the caller holds it, and what [`Negotiation::tag`]
/// answers for it.
///
/// A [`Negotiator`] keeps the tags it is built from. Built from borrowed
/// tags (`&'static str` literals, or `&str` borrowed from a configuration
/// that outlives it), it answers with the caller's own borrows, so an answer
/// lives as long as the caller's tags, not as long as the negotiator: a
/// negotiator built inside a handler can return its choice. Built from owned
/// tags (`String`, `Box<str>`, `Arc<str>`, `Rc<str>`, `Cow<str>`), it answers
/// with a borrow of its own copy.
///
/// ```
/// use mcp_lang_match::Negotiator;
///
/// // Borrowed tags: the answer is `&'static str`, and outlives `pages`.
/// fn page_language(value: Option<&str>) -> &'static str {
///     let pages = Negotiator::new(["en", "fr", "de"], "en").unwrap();
///     pages.negotiate_header(value).tag()
/// }
/// assert_eq!(page_language(Some("fr-CH, en;q=0.5")), "fr");
///
/// // Owned tags, read at start-up: the answer borrows the negotiator.
/// let configured: Vec<String> = "en fr-CA".split(' ').map(String::from).collect();
/// let server = Negotiator::new(configured, "en").unwrap();
/// assert_eq!(server.negotiate_header(Some("fr")).tag(), "fr-CA");
/// ```
pub trait SupportedTag: AsRef<str> {
    /// What [`Negotiation::tag`] returns for this tag when the negotiation
    /// borrows the negotiator for `'n`.
    type Answer<'n>: Copy + AsRef<str> + fmt::Debug + Eq
    where
        Self: 'n;

    /// The answer for this tag: itself for a borrowed `&str`, a borrow of it
    /// for an owned one.
    ///
    /// ```
    /// use mcp_lang_match::SupportedTag;
    ///
    /// let borrowed: &'static str = "fr";
    /// let answer: &'static str = borrowed.answer();
    /// assert_eq!(answer, String::from("fr").answer());
    /// ```
    fn answer(&self) -> Self::Answer<'_>;
}

impl<'t> SupportedTag for &'t str {
    type Answer<'n>
        = &'t str
    where
        Self: 'n;

    fn answer(&self) -> &'t str {
        self
    }
}

/// Owned tags answer with a borrow of the negotiator's copy.
macro_rules! owned_supported_tag {
    ($($owned:ty),*) => {$(
        impl SupportedTag for $owned {
            type Answer<'n>
                = &'n str
            where
                Self: 'n;

            fn answer(&self) -> &str {
                self.as_ref()
            }
        }
    )*};
}

owned_supported_tag!(String, Box<str>, Rc<str>, Cow<'_, str>);
#[cfg(target_has_atomic = "ptr")]
owned_supported_tag!(Arc<str>);

/// Why a [`Negotiator`] could not be built.
///
/// ```
/// use mcp_lang_match::{BuildError, Negotiator};
///
/// let error = Negotiator::new(["en", "fr", "EN"], "en").unwrap_err();
/// assert!(matches!(error, BuildError::DuplicateTag { first: 0, second: 2, .. }));
/// let error = Negotiator::new(["en", "fr_FR"], "en").unwrap_err();
/// assert!(matches!(error, BuildError::InvalidTag { index: 1, .. }));
/// assert!(matches!(Negotiator::new(["en"], "").unwrap_err(), BuildError::InvalidDefault { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// A supported tag is not a well-formed RFC 5646 language tag.
    InvalidTag {
        /// Its position in the supported list.
        index: usize,
        /// The tag as given.
        tag: String,
        /// What is wrong with it.
        error: ParseError,
    },
    /// The default is not a well-formed RFC 5646 language tag.
    InvalidDefault {
        /// The default as given.
        tag: String,
        /// What is wrong with it.
        error: ParseError,
    },
    /// Two supported tags are equal ignoring case.
    DuplicateTag {
        /// Position of the first.
        first: usize,
        /// Position of the repeat.
        second: usize,
        /// The repeat as given.
        tag: String,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::InvalidTag { index, tag, error } => {
                write!(
                    f,
                    "supported tag {index} ({tag:?}) is not a language tag: {error}"
                )
            }
            BuildError::InvalidDefault { tag, error } => {
                write!(f, "default {tag:?} is not a language tag: {error}")
            }
            BuildError::DuplicateTag { first, second, tag } => {
                write!(f, "supported tag {second} ({tag:?}) repeats tag {first}")
            }
        }
    }
}

impl core::error::Error for BuildError {}

/// One supported tag with what matching needs, computed once.
#[derive(Clone, Debug)]
struct Supported {
    /// ASCII lowercase copy.
    lower: Box<[u8]>,
    /// `singleton[k - 1]`: whether subtag `k` is a singleton.
    singleton: Box<[bool]>,
    /// The primary subtag, as [`primary_key`] packs it.
    key: u64,
    /// The index of its [`Group`] in `Negotiator::groups`.
    group: u32,
}

impl Supported {
    fn new(tag: &str) -> Supported {
        let lower: Box<[u8]> = tag.as_bytes().to_ascii_lowercase().into();
        let singleton = lower
            .split(|&b| b == b'-')
            .map(subtags::is_singleton)
            .collect();
        let key = primary_key(&lower);
        Supported {
            lower,
            singleton,
            key,
            group: 0,
        }
    }

    /// How close a truncation match is, for a range sharing `common`
    /// leading subtags with this tag (and having more): `2k + 1` when the
    /// longest prefix lookup visits (`k` subtags, a prefix not ending in a
    /// singleton) equals the tag, `2k` when it only
    /// basic-filters it. So a longer prefix is closer, and at equal length
    /// `fr-BE` reaches `fr` before `fr-CA`. Always ≥ 2.
    /// `None` when truncation cannot reach any of the `common` subtags: every
    /// prefix it could stop at ends in a singleton (`x-foo-bar` never reaches
    /// `x`, so it cannot reach `x-foo1`).
    fn truncation_closeness(&self, common: usize) -> Option<usize> {
        let mut k = common;
        while k > 0 && self.singleton.get(k - 1).copied().unwrap_or(false) {
            k -= 1;
        }
        (k > 0).then(|| 2 * k + usize::from(self.singleton.len() == k))
    }
}

/// Whether a truncation match crosses an explicit script subtag (decision
/// D4): the truncation stopped at a prefix of `closeness / 2` subtags (see
/// [`Supported::truncation_closeness`]) and reached a tag that extends the
/// prefix (an even closeness) rather than equals it, while the range had a
/// script subtag the truncation dropped or the tag has one beyond the
/// prefix. `zh-Hans` reaches `zh` but never `zh-Hant`; `pt-PT` still reaches
/// `pt-BR`, regions of one written language.
fn crosses_script(range: &[u8], tag: &[u8], closeness: usize) -> bool {
    let k = closeness / 2;
    closeness & 1 == 0 && (script_beyond(range, k) || script_beyond(tag, k))
}

/// Whether `bytes` has a script subtag (four letters, after the primary
/// subtag and before any singleton) at a subtag index of `k` or more.
fn script_beyond(bytes: &[u8], k: usize) -> bool {
    bytes
        .split(|&b| b == b'-')
        .enumerate()
        .skip(1)
        .take_while(|(_, s)| !subtags::is_singleton(s))
        .any(|(i, s)| i >= k && s.len() == 4 && s.iter().all(u8::is_ascii_alphabetic))
}

/// The primary subtag of a tag or range (what comes before the first `-`),
/// ASCII-lowercased and packed into a `u64`, one byte per letter.
///
/// A non-wildcard range can only rate a tag, explicitly or by truncation,
/// when the two share their primary subtag: a basic-filtering range is a
/// prefix of the tag that ends at a subtag boundary, and truncation never
/// goes below the primary subtag. Comparing keys is one integer comparison.
///
/// Primary subtags are 1 to 8 letters (RFC 4647 §2.1, RFC 5646 §2.1),
/// lowercased by setting bit 0x20, and letters are never zero, so equal keys
/// mean equal subtags. Were anything else to come (a longer subtag, whose
/// first bytes are shifted out, or a non-letter), subtags equal ignoring case
/// would still get equal keys, and the full comparison that follows a key
/// match sorts out the rest: the key only ever rules pairs out.
#[inline]
fn primary_key(bytes: &[u8]) -> u64 {
    let mut key = 0u64;
    for &b in bytes {
        if b == b'-' {
            break;
        }
        key = (key << 8) | u64::from(b | 0x20);
    }
    key
}

/// Where a primary subtag's key starts probing in `Negotiator::table`: the
/// top bits of a Fibonacci hash.
#[inline]
fn slot_of(key: u64, shift: u32) -> usize {
    // `shift` is at most 63; the result fits the table's length.
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

/// The supported tags that share one primary subtag.
#[derive(Clone, Debug)]
struct Group {
    /// Their primary subtag, as [`primary_key`] packs it.
    key: u64,
    /// Where their indices are in `Negotiator::members`.
    start: u32,
    end: u32,
}

/// One buffered non-wildcard range of the request, whose primary subtag
/// some supported tag has.
#[derive(Clone, Copy)]
struct Range<'h> {
    bytes: &'h [u8],
    /// The [`Group`] of the tags with its primary subtag, or [`DONE`] once
    /// an earlier range of the same group has had that group scored.
    group: u32,
    quality: u16,
    /// Its position among all the ranges of the header.
    position: usize,
}

/// Marks a buffered range whose group was already scored.
const DONE: u32 = u32::MAX;

const EMPTY: Range<'static> = Range {
    bytes: &[],
    group: DONE,
    quality: 0,
    position: 0,
};

/// How many ranges a negotiation buffers before it rates the supported tags
/// range by range instead (see [`Negotiator::negotiate`]): more than any
/// browser sends.
const BUFFERED: usize = 16;

/// The most supported tags rated in one pass over a value; a longer
/// supported list is rated in slices of this many, one pass each.
const CHUNK: usize = 512;

/// What the ranges read so far say about one supported tag: decision D3's
/// deciding range, and the best lookup truncation (D4). All zero means
/// nothing has rated the tag yet.
#[derive(Clone, Copy)]
struct Standing {
    /// The deciding range, as in D3; `len` 0 when no range basic-filters
    /// the tag (a range is never empty).
    explicit: Decider,
    /// The highest q (above 0) of a range whose truncation reaches the tag,
    /// the earliest such range on ties; 0 when none does.
    truncated_quality: u16,
    truncated_position: usize,
    /// See [`Supported::truncation_closeness`].
    truncated_closeness: usize,
}

impl Standing {
    const NONE: Standing = Standing {
        explicit: Decider {
            len: 0,
            quality: 0,
            position: 0,
        },
        truncated_quality: 0,
        truncated_position: 0,
        truncated_closeness: 0,
    };

    /// Takes one more range (in header order) of the tag's group into
    /// account: `bytes` is the range, with its q and header position.
    #[inline]
    fn update(&mut self, tag: &Supported, bytes: &[u8], quality: u16, position: usize) {
        // A range longer than the tag cannot basic-filter it; it can only
        // reach it by truncation, which needs a higher q than the best so
        // far. (A hostile value repeats such ranges: this skips them.)
        if bytes.len() > tag.lower.len() && quality <= self.truncated_quality {
            return;
        }
        let a = subtags::align(bytes, &tag.lower, true);
        if a.range_is_prefix {
            let d = Decider {
                len: bytes.len(),
                quality,
                position,
            };
            if self.explicit.len == 0 || d.beats(&self.explicit) {
                self.explicit = d;
            }
        } else if quality > self.truncated_quality {
            // Above 0 (a `q=0` range only excludes, M1) and above the best so
            // far: on equal q the earlier range keeps it.
            if let Some(closeness) = tag.truncation_closeness(a.common)
                && !crosses_script(bytes, &tag.lower, closeness)
            {
                self.truncated_quality = quality;
                self.truncated_position = position;
                self.truncated_closeness = closeness;
            }
        }
    }

    /// The tag's score (decision D4): explicit, else truncated, else `*`;
    /// `None` when nothing rates it.
    #[inline]
    fn score(&self, tag: &Supported, wildcard: Option<Decider>) -> Option<Score> {
        if self.explicit.len > 0 {
            let closeness = if self.explicit.len == tag.lower.len() {
                EXACT
            } else {
                MORE_SPECIFIC
            };
            return Some(Score {
                quality: self.explicit.quality,
                position: self.explicit.position,
                closeness,
            });
        }
        if self.truncated_quality > 0 {
            return Some(Score {
                quality: self.truncated_quality,
                position: self.truncated_position,
                closeness: self.truncated_closeness,
            });
        }
        wildcard.map(|d| Score {
            quality: d.quality,
            position: d.position,
            closeness: WILDCARD,
        })
    }
}

/// How close a match is, higher is closer (D4's second tie-break).
const EXACT: usize = usize::MAX;
const MORE_SPECIFIC: usize = usize::MAX - 1;
const WILDCARD: usize = 0;

/// A supported tag's score and what decided it.
#[derive(Clone, Copy, Debug)]
struct Score {
    quality: u16,
    position: usize,
    /// `EXACT`, `MORE_SPECIFIC`, a truncation closeness (see
    /// [`Supported::truncation_closeness`]), or
    /// `WILDCARD`.
    closeness: usize,
}

impl Score {
    fn reason(&self) -> Reason {
        match self.closeness {
            EXACT => Reason::Exact,
            MORE_SPECIFIC => Reason::MoreSpecific,
            WILDCARD => Reason::Wildcard,
            _ => Reason::Truncated,
        }
    }
}

/// A server's supported languages, compiled once and shared by every
/// request: [`negotiate`](Negotiator::negotiate) picks one per request, as
/// decision D4 says, from every range of the preference however many there
/// are, without allocating, in one pass over the value.
///
/// Build it from the supported tags in the server's order of preference and
/// the server's default. `T` is the type they are given in (`&str`,
/// `String`, `Box<str>`…; `Box<str>` when a type names no other), and the
/// answers are those tags ([`SupportedTag`]). Building validates them:
/// every tag, and the default, must be a well-formed RFC 5646 language
/// tag, and no two supported tags may be equal ignoring case
/// ([`BuildError`]). The default **need not** be
/// supported: when it is (ignoring case), it wins ties and is returned in
/// the supported spelling; when it is not, it is only ever the fallback.
///
/// Building also groups the tags by primary subtag (`fr` for `fr`, `fr-CA`,
/// `fr-FR`), since a range can only rate the tags that share its primary
/// subtag; so a range costs a hash lookup plus a comparison with each tag of
/// its group, and a range whose primary subtag no tag has costs only the
/// lookup. The time is linear in the value, and the memory a negotiation
/// uses is bounded by the supported list, never by the value.
///
/// ```
/// use mcp_lang_match::{Negotiator, Reason};
///
/// let server = Negotiator::new(["en", "fr", "fr-CA", "de"], "en").unwrap();
///
/// let n = server.negotiate_header(Some("fr-CA,fr;q=0.9,en;q=0.5"));
/// assert_eq!((n.tag(), n.quality().get(), n.reason()), ("fr-CA", 1000, Reason::Exact));
///
/// let n = server.negotiate_header(Some("de-AT"));
/// assert_eq!((n.tag(), n.reason()), ("de", Reason::Truncated));
///
/// let n = server.negotiate_header(Some("ja, *;q=0.1"));
/// assert_eq!((n.tag(), n.reason()), ("en", Reason::Wildcard));
///
/// let n = server.negotiate_header(Some("ja"));
/// assert_eq!((n.tag(), n.reason()), ("en", Reason::Default));
/// ```
#[derive(Clone)]
pub struct Negotiator<T = Box<str>> {
    /// The supported tags as the caller gave them, in its order.
    tags: Box<[T]>,
    /// The default as the caller gave it; [`Negotiator::default_entry`] is
    /// the one answered.
    default: T,
    /// The matching, compiled from `tags` and the default: the same code
    /// whatever `T` is.
    matcher: Matcher,
}

/// What matching needs of a negotiator's tags, whatever their type: it
/// decides by index into the supported list.
#[derive(Clone)]
struct Matcher {
    /// What matching needs of each supported tag, in the supported order.
    supported: Box<[Supported]>,
    /// The default's index in the supported list, when it is supported.
    default_index: Option<usize>,
    /// The distinct primary subtags of `supported`, sorted by key.
    groups: Box<[Group]>,
    /// Indices of `supported`, grouped as `groups` says (supported order
    /// within a group).
    members: Box<[u32]>,
    /// A hash table from primary subtag to group: open addressing, linear
    /// probing, indices into `groups` or [`DONE`] for an empty slot. Its
    /// length is a power of two, at least twice the number of groups.
    table: Box<[u32]>,
    /// `64 - log2(table.len())`: [`slot_of`] keeps the top bits of a hash.
    shift: u32,
}

impl<T: SupportedTag> fmt::Debug for Negotiator<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Negotiator")
            .field("supported", &self.supported().collect::<Vec<_>>())
            .field("default", &self.default_tag())
            .finish()
    }
}

impl<T: SupportedTag> Negotiator<T> {
    /// Compiles the supported tags (in the server's order of preference) and
    /// the default. The tags are kept as given, and [`Negotiation::tag`]
    /// answers with them ([`SupportedTag`]): `&str` tags take a `&str`
    /// default, owned ones (`String`, `Box<str>`…) anything that converts
    /// into them. From a `&[String]`, pass `tags.iter().map(String::as_str)`
    /// to borrow, or the strings themselves to own.
    ///
    /// ```
    /// use mcp_lang_match::{BuildError, Negotiator};
    ///
    /// assert!(Negotiator::new(["en", "fr"], "en").is_ok());
    /// assert!(Negotiator::new(Vec::<String>::new(), "en").is_ok()); // always the default
    /// let configured = vec![String::from("en"), String::from("de")];
    /// assert!(Negotiator::new(configured.iter().map(String::as_str), "en").is_ok());
    /// assert!(matches!(Negotiator::new(["en", "EN"], "en"), Err(BuildError::DuplicateTag { .. })));
    /// assert!(matches!(Negotiator::new(["en_US"], "en"), Err(BuildError::InvalidTag { .. })));
    /// assert!(matches!(Negotiator::new(["en"], "*"), Err(BuildError::InvalidDefault { .. })));
    /// ```
    pub fn new<I, D>(supported: I, default: D) -> Result<Negotiator<T>, BuildError>
    where
        I: IntoIterator<Item = T>,
        D: Into<T>,
    {
        let mut compiled: Vec<Supported> = Vec::new();
        let mut tags: Vec<T> = Vec::new();
        for (index, tag) in supported.into_iter().enumerate() {
            let text = tag.as_ref();
            LanguageTag::parse(text).map_err(|error| BuildError::InvalidTag {
                index,
                tag: text.into(),
                error,
            })?;
            compiled.push(Supported::new(text));
            tags.push(tag);
        }
        // Case-duplicates, found by sorting (O(n log n) for long lists); the
        // reported pair is the earliest repeat in supported order.
        let mut order: Vec<usize> = (0..compiled.len()).collect();
        order.sort_by(|&a, &b| {
            let key = |i: usize| compiled.get(i).map(|s| &s.lower);
            key(a).cmp(&key(b)).then(a.cmp(&b))
        });
        let repeat = order
            .windows(2)
            .filter_map(|w| match w {
                [a, b]
                    if compiled.get(*a).map(|s| &s.lower) == compiled.get(*b).map(|s| &s.lower) =>
                {
                    Some((*a, *b))
                }
                _ => None,
            })
            .min_by_key(|&(_, second)| second);
        if let Some((first, second)) = repeat {
            // `first` may itself repeat an earlier tag: report the earliest.
            let earliest = compiled
                .iter()
                .position(|s| compiled.get(first).is_some_and(|f| f.lower == s.lower))
                .unwrap_or(first);
            return Err(BuildError::DuplicateTag {
                first: earliest,
                second,
                tag: tags
                    .get(second)
                    .map_or_else(String::new, |t| t.as_ref().into()),
            });
        }
        let default: T = default.into();
        let text = default.as_ref();
        LanguageTag::parse(text).map_err(|error| BuildError::InvalidDefault {
            tag: text.into(),
            error,
        })?;
        let default_index = compiled
            .iter()
            .position(|s| s.lower.eq_ignore_ascii_case(text.as_bytes()));
        let mut members: Vec<u32> = (0..compiled.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        members.sort_by_key(|&i| (compiled.get(i as usize).map_or(0, |t| t.key), i));
        let mut groups: Vec<Group> = Vec::new();
        for (at, &i) in members.iter().enumerate() {
            let at = u32::try_from(at).unwrap_or(u32::MAX);
            let Some(tag) = compiled.get_mut(i as usize) else {
                continue;
            };
            match groups.last_mut() {
                Some(g) if g.key == tag.key => g.end = at + 1,
                _ => groups.push(Group {
                    key: tag.key,
                    start: at,
                    end: at + 1,
                }),
            }
            tag.group = u32::try_from(groups.len() - 1).unwrap_or(DONE);
        }
        let size = (2 * groups.len()).max(2).next_power_of_two();
        let shift = 64 - size.trailing_zeros();
        let mut table = alloc::vec![DONE; size];
        for (g, group) in groups.iter().enumerate() {
            let start = slot_of(group.key, shift);
            let free = (start..start.saturating_add(size))
                .map(|slot| slot & (size - 1))
                .find(|&slot| table.get(slot) == Some(&DONE));
            if let Some(empty) = free.and_then(|slot| table.get_mut(slot)) {
                *empty = u32::try_from(g).unwrap_or(DONE);
            }
        }
        Ok(Negotiator {
            tags: tags.into_boxed_slice(),
            default,
            matcher: Matcher {
                table: table.into_boxed_slice(),
                shift,
                groups: groups.into_boxed_slice(),
                members: members.into_boxed_slice(),
                supported: compiled.into_boxed_slice(),
                default_index,
            },
        })
    }

    /// The supported tags, in the server's order and spelling.
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    ///
    /// let n = Negotiator::new(["en", "fr-CA"], "en").unwrap();
    /// assert!(n.supported().eq(["en", "fr-CA"]));
    /// ```
    pub fn supported(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.tags.iter().map(AsRef::as_ref)
    }

    /// The default, in the supported spelling when it is supported.
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    ///
    /// assert_eq!(Negotiator::new(["en-US"], "EN-us").unwrap().default_tag(), "en-US");
    /// assert_eq!(Negotiator::new(["fr"], "en").unwrap().default_tag(), "en");
    /// ```
    pub fn default_tag(&self) -> &str {
        self.default_entry().as_ref()
    }

    /// The default in the supported spelling when it is supported, else as
    /// given.
    fn default_entry(&self) -> &T {
        self.entry(self.matcher.default_index)
    }

    /// The supported tag at `index`, or the default as given for `None`.
    fn entry(&self, index: Option<usize>) -> &T {
        index
            .and_then(|i| self.tags.get(i))
            .unwrap_or(&self.default)
    }

    /// Negotiates a raw `Accept-Language` value (or `_meta` preference):
    /// `None` gives the default with [`Reason::Absent`], a malformed value the
    /// default with [`Reason::Malformed`] (SEP-2792: a malformed value is
    /// ignored as absent). Never fails, never allocates.
    ///
    /// ```
    /// use mcp_lang_match::{Negotiator, Reason};
    ///
    /// let n = Negotiator::new(["en", "fr"], "en").unwrap();
    /// assert_eq!(n.negotiate_header(Some("fr;q=0.5")).tag(), "fr");
    /// assert_eq!(n.negotiate_header(Some("fr;q=2")).reason(), Reason::Malformed);
    /// assert_eq!(n.negotiate_header(None).reason(), Reason::Absent);
    /// ```
    pub fn negotiate_header(&self, value: Option<&str>) -> Negotiation<'_, T> {
        self.answer(match value {
            None => self.matcher.fallback(Reason::Absent),
            Some(value) => self
                .matcher
                .negotiate_validating(AcceptLanguage::validating(value)),
        })
    }

    /// [`negotiate_header`](Negotiator::negotiate_header) on field-value
    /// bytes, as `http::HeaderValue::as_bytes` gives them.
    ///
    /// ```
    /// use mcp_lang_match::Negotiator;
    ///
    /// let n = Negotiator::new(["en", "fr"], "en").unwrap();
    /// assert_eq!(n.negotiate_header_bytes(Some(b"fr")).tag(), "fr");
    /// ```
    pub fn negotiate_header_bytes(&self, value: Option<&[u8]>) -> Negotiation<'_, T> {
        self.answer(match value {
            None => self.matcher.fallback(Reason::Absent),
            Some(value) => self
                .matcher
                .negotiate_validating(AcceptLanguage::validating_bytes(value)),
        })
    }

    /// Negotiates a request's `Accept-Language` field lines, in the order
    /// received, as RFC 9110 combines them: each line without the SP and HTAB
    /// around it (§5.5), the lines joined with `", "` (§5.3) into one value,
    /// which is then read as [`negotiate_header_bytes`] reads one. No line is
    /// no preference; a malformed combined value is ignored as absent, even
    /// when one line alone would be well-formed.
    ///
    /// One line is read in place; only several are copied, into one buffer.
    /// Reading only the first line instead (`HeaderMap::get`) loses what the
    /// others say.
    ///
    /// [`negotiate_header_bytes`]: Negotiator::negotiate_header_bytes
    ///
    /// ```
    /// use http::{HeaderMap, header::ACCEPT_LANGUAGE};
    /// use mcp_lang_match::{Negotiator, Reason};
    ///
    /// let n = Negotiator::new(["en", "fr", "de"], "en").unwrap();
    /// let mut headers = HeaderMap::new();
    /// headers.append(ACCEPT_LANGUAGE, "ja".parse().unwrap());
    /// headers.append(ACCEPT_LANGUAGE, "fr;q=0.8".parse().unwrap());
    /// let lines = headers.get_all(ACCEPT_LANGUAGE).iter().map(|v| v.as_bytes());
    /// // Read as `ja, fr;q=0.8`: French, where the first line alone gives English.
    /// assert_eq!(n.negotiate_field_lines(lines).tag(), "fr");
    ///
    /// assert_eq!(n.negotiate_field_lines([]).reason(), Reason::Absent);
    /// let lines: [&[u8]; 2] = [b"de", b"fr;q=2"];
    /// assert_eq!(n.negotiate_field_lines(lines).reason(), Reason::Malformed);
    /// ```
    pub fn negotiate_field_lines<'a, I>(&self, lines: I) -> Negotiation<'_, T>
    where
        I: IntoIterator<Item = &'a [u8]>,
    {
        let mut lines = lines.into_iter();
        let Some(first) = lines.next() else {
            return self.answer(self.matcher.fallback(Reason::Absent));
        };
        let Some(second) = lines.next() else {
            return self.negotiate_header_bytes(Some(trim_ows(first)));
        };
        let mut combined = alloc::vec::Vec::with_capacity(first.len() + second.len() + 2);
        combined.extend_from_slice(trim_ows(first));
        for line in core::iter::once(second).chain(lines) {
            combined.extend_from_slice(b", ");
            combined.extend_from_slice(trim_ows(line));
        }
        self.negotiate_header_bytes(Some(&combined))
    }

    /// Picks the supported tag for a parsed preference (decision D4), or the
    /// default. A value without ranges means no preference
    /// ([`Reason::Absent`]).
    ///
    /// ```
    /// use mcp_lang_grammar::AcceptLanguage;
    /// use mcp_lang_match::{Negotiator, Reason};
    ///
    /// let n = Negotiator::new(["de", "en"], "en").unwrap();
    /// let header = AcceptLanguage::parse("en-US, de;q=0.5, en;q=0.1").unwrap();
    /// let chosen = n.negotiate(&header);
    /// assert_eq!((chosen.tag(), chosen.reason()), ("de", Reason::Exact));
    /// ```
    pub fn negotiate(&self, header: &AcceptLanguage<'_>) -> Negotiation<'_, T> {
        self.answer(self.matcher.negotiate(header))
    }

    /// The negotiation of an outcome: its index's tag, or the default.
    fn answer(&self, outcome: Outcome) -> Negotiation<'_, T> {
        Negotiation {
            tag: self.entry(outcome.index),
            outcome,
        }
    }
}

/// A negotiation by index: `index` is `None` for a default that is not
/// supported.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Outcome {
    index: Option<usize>,
    quality: Quality,
    reason: Reason,
}

impl Matcher {
    /// Negotiates while the value is validated, in one pass over its
    /// bytes; what was computed is dropped when the value turns out
    /// malformed (SEP-2792: then it is ignored as absent).
    fn negotiate_validating(&self, mut ranges: Validating<'_>) -> Outcome {
        let (mut best, unrated) = self.choose(&mut [EMPTY; BUFFERED], &mut ranges);
        let Ok(header) = ranges.finish() else {
            return self.fallback(Reason::Malformed);
        };
        if header.is_empty() {
            return self.fallback(Reason::Absent);
        }
        if unrated {
            self.rate_other_slices(&header, &mut best);
        }
        self.conclude(best)
    }

    /// [`Negotiator::negotiate`], by index.
    fn negotiate(&self, header: &AcceptLanguage<'_>) -> Outcome {
        if header.is_empty() {
            return self.fallback(Reason::Absent);
        }
        // A small buffer for the usual short header keeps the per-request
        // cost down.
        let (mut best, unrated) = if header.len() <= 8 {
            self.choose(&mut [EMPTY; 8], header.iter())
        } else {
            self.choose(&mut [EMPTY; BUFFERED], header.iter())
        };
        if unrated {
            self.rate_other_slices(header, &mut best);
        }
        self.conclude(best)
    }

    /// Reads the ranges once. Those whose primary subtag some supported tag
    /// has are buffered while `buffer` has room, then each group met is
    /// scored against its own ranges. A value with more such ranges than
    /// the buffer holds is handed, with what was buffered, to
    /// [`stream`](Matcher::stream), which carries on the same pass.
    /// Returns the best candidate, and whether slices of the supported list
    /// beyond the first are still to be rated (see
    /// [`rate_other_slices`](Matcher::rate_other_slices)).
    fn choose<'h, I>(&self, buffer: &mut [Range<'h>], mut all: I) -> (Option<(Score, usize)>, bool)
    where
        I: Iterator<Item = WeightedRange<'h>>,
    {
        // Only tags that share their primary subtag with a range can be rated
        // by it, explicitly or by truncation (see `primary_key`): a range
        // whose primary subtag no tag has is dropped here, and the others are
        // buffered with the group of tags they can rate.
        let mut len = 0;
        let mut wildcard: Option<Decider> = None;
        let mut position = 0;
        while let Some(wr) = all.next() {
            let at = position;
            position += 1;
            let quality = wr.quality.get();
            if wr.range.is_wildcard() {
                Decider::keep_best(
                    &mut wildcard,
                    Decider {
                        len: 0,
                        quality,
                        position: at,
                    },
                );
                continue;
            }
            let bytes = wr.range.as_str().as_bytes();
            let Some(group) = self.group_of(primary_key(bytes)) else {
                continue;
            };
            let range = Range {
                bytes,
                group,
                quality,
                position: at,
            };
            match buffer.get_mut(len) {
                Some(slot) => {
                    *slot = range;
                    len += 1;
                }
                None => {
                    let buffered = buffer.get(..len).unwrap_or(&[]);
                    let first = buffered.iter().copied().chain(Some(range));
                    return self.stream(first, all, position, wildcard);
                }
            }
        }
        let ranges = buffer.get_mut(..len).unwrap_or(&mut []);

        let mut best: Option<(Score, usize)> = None;
        // Each group met is scored once, against its ranges from here on;
        // its later ranges are then marked `DONE`. So every (tag, range)
        // pair is looked at once at most.
        //
        // A tag's score is the q of one of its group's ranges, or of `*`. So
        // when those are all below the best quality found so far, no tag of
        // the group can win or even tie, and the group is not scored (in the
        // usual header, q descending, the first group decides).
        let wildcard_quality = wildcard.map_or(0, |w| w.quality);
        for at in 0..ranges.len() {
            let Some(group) = ranges.get(at).map(|r| r.group).filter(|&g| g != DONE) else {
                continue;
            };
            let rest = ranges.get(at..).unwrap_or(&[]);
            if let Some((b, _)) = &best {
                let reachable = rest
                    .iter()
                    .filter(|r| r.group == group)
                    .fold(wildcard_quality, |q, r| q.max(r.quality));
                if reachable < b.quality {
                    mark_done(ranges, at, group);
                    continue;
                }
            }
            for &index in self.members_of(group) {
                let index = index as usize;
                let Some(tag) = self.supported.get(index) else {
                    continue;
                };
                let mut standing = Standing::NONE;
                for r in rest.iter().filter(|r| r.group == group) {
                    standing.update(tag, r.bytes, r.quality, r.position);
                }
                if let Some(score) = standing.score(tag, wildcard) {
                    self.consider(&mut best, score, index);
                }
            }
            mark_done(ranges, at, group);
        }
        // Every other tag can only be rated by `*`; they all tie, so the
        // default (if among them) or the first of them is the one to
        // consider. (A group's first range keeps its group, so the groups
        // scored are exactly those of the ranges not `DONE`.)
        // When `*` is below the best so far, its tags cannot win.
        let below_best = |w: &Decider| best.as_ref().is_some_and(|(b, _)| w.quality < b.quality);
        if let Some(w) = wildcard.filter(|w| w.quality > 0 && !below_best(w)) {
            let unseen = |i: usize| {
                self.supported
                    .get(i)
                    .is_some_and(|t| !ranges.iter().any(|r| r.group == t.group))
            };
            let pick = match self.default_index {
                Some(d) if unseen(d) => Some(d),
                _ => (0..self.supported.len()).find(|&i| unseen(i)),
            };
            if let Some(index) = pick {
                let score = Score {
                    quality: w.quality,
                    position: w.position,
                    closeness: WILDCARD,
                };
                self.consider(&mut best, score, index);
            }
        }
        (best, false)
    }

    /// Rates the supported tags range by range, for a value with more
    /// ranges than [`choose`](Matcher::choose) buffers: the ranges of
    /// `first`, then those left in `rest` (`position` is the header position
    /// of the next one, `wildcard` the deciding `*` so far). Each tag keeps
    /// a [`Standing`] on the stack, so the memory is bounded by the supported
    /// list, and each range updates only the tags of its group. Up to
    /// [`CHUNK`] supported tags, this finishes the one pass over the value;
    /// a longer list is rated in slices of `CHUNK` tags, the first finishing
    /// this pass and each other reading the value once more.
    fn stream<'h, I>(
        &self,
        first: impl Iterator<Item = Range<'h>>,
        rest: I,
        position: usize,
        wildcard: Option<Decider>,
    ) -> (Option<(Score, usize)>, bool)
    where
        I: Iterator<Item = WeightedRange<'h>>,
    {
        let tags = self.supported.len();
        let mut best: Option<(Score, usize)> = None;
        if tags <= 32 {
            self.rate::<32, _>(0..tags, first, rest, position, wildcard, &mut best);
        } else if tags <= 128 {
            self.rate::<128, _>(0..tags, first, rest, position, wildcard, &mut best);
        } else {
            let end = tags.min(CHUNK);
            self.rate::<CHUNK, _>(0..end, first, rest, position, wildcard, &mut best);
        }
        (best, tags > CHUNK)
    }

    /// Rates the supported tags beyond the first [`CHUNK`], a slice of
    /// `CHUNK` tags at a time, each reading the value once more.
    fn rate_other_slices(&self, header: &AcceptLanguage<'_>, best: &mut Option<(Score, usize)>) {
        let tags = self.supported.len();
        let mut start = CHUNK;
        while start < tags {
            let end = tags.min(start.saturating_add(CHUNK));
            let none = core::iter::empty();
            self.rate::<CHUNK, _>(start..end, none, header.iter(), 0, None, best);
            start = end;
        }
    }

    /// Rates the supported tags whose indices are in `chunk` (at most `N`)
    /// against the ranges of `first` and then of `rest`, and keeps the best
    /// of them in `best` (see [`stream`](Matcher::stream)).
    fn rate<'h, const N: usize, I>(
        &self,
        chunk: core::ops::Range<usize>,
        first: impl Iterator<Item = Range<'h>>,
        rest: I,
        mut position: usize,
        mut wildcard: Option<Decider>,
        best: &mut Option<(Score, usize)>,
    ) where
        I: Iterator<Item = WeightedRange<'h>>,
    {
        let mut standings = [Standing::NONE; N];
        let whole = chunk.len() == self.supported.len();
        for range in first {
            self.take(&mut standings, &chunk, whole, range);
        }
        // `for_each`, so that an iterator with its own `fold` (the ranges of
        // a parsed value) runs its tight loop.
        rest.for_each(|wr| {
            let at = position;
            position += 1;
            let quality = wr.quality.get();
            if wr.range.is_wildcard() {
                Decider::keep_best(
                    &mut wildcard,
                    Decider {
                        len: 0,
                        quality,
                        position: at,
                    },
                );
                return;
            }
            let bytes = wr.range.as_str().as_bytes();
            if let Some(group) = self.group_of(primary_key(bytes)) {
                let range = Range {
                    bytes,
                    group,
                    quality,
                    position: at,
                };
                self.take(&mut standings, &chunk, whole, range);
            }
        });
        for (index, standing) in chunk.zip(&standings) {
            if let Some(score) = self
                .supported
                .get(index)
                .and_then(|tag| standing.score(tag, wildcard))
            {
                self.consider(best, score, index);
            }
        }
    }

    /// Updates the standings of the tags of `range`'s group that are in
    /// `chunk` (all of them when `whole`).
    #[inline]
    fn take(
        &self,
        standings: &mut [Standing],
        chunk: &core::ops::Range<usize>,
        whole: bool,
        range: Range<'_>,
    ) {
        let mut members = self.members_of(range.group);
        if !whole {
            // A group's members are in supported order.
            let from = members.partition_point(|&i| (i as usize) < chunk.start);
            let to = members.partition_point(|&i| (i as usize) < chunk.end);
            members = members.get(from..to).unwrap_or(&[]);
        }
        for &index in members {
            let index = index as usize;
            let slot = index
                .checked_sub(chunk.start)
                .and_then(|at| standings.get_mut(at));
            if let (Some(tag), Some(standing)) = (self.supported.get(index), slot) {
                standing.update(tag, range.bytes, range.quality, range.position);
            }
        }
    }

    /// The negotiation for the best candidate found, or the default when
    /// there is none.
    fn conclude(&self, best: Option<(Score, usize)>) -> Outcome {
        match best.filter(|&(_, i)| i < self.supported.len()) {
            Some((score, index)) => Outcome {
                index: Some(index),
                quality: Quality::new(score.quality).unwrap_or(Quality::ONE),
                reason: score.reason(),
            },
            None => Outcome {
                index: self.default_index,
                quality: Quality::ZERO,
                reason: Reason::Default,
            },
        }
    }

    /// Keeps in `best` the better of it and the candidate (`score`, `index`),
    /// unless the candidate's score is 0.
    #[inline]
    fn consider(&self, best: &mut Option<(Score, usize)>, score: Score, index: usize) {
        let better = match best {
            None => true,
            Some((b, bi)) => self.beats(&score, index, b, *bi),
        };
        if score.quality > 0 && better {
            *best = Some((score, index));
        }
    }

    /// The group of the supported tags whose primary subtag has `key`.
    #[inline]
    fn group_of(&self, key: u64) -> Option<u32> {
        let mask = self.table.len().wrapping_sub(1);
        let start = slot_of(key, self.shift);
        // The table always has an empty slot; the bound is only a guard.
        for slot in start..start.saturating_add(self.table.len()) {
            let group = *self.table.get(slot & mask)?;
            if self.groups.get(group as usize)?.key == key {
                return Some(group);
            }
        }
        None
    }

    /// The indices of the supported tags of a group, in supported order.
    #[inline]
    fn members_of(&self, group: u32) -> &[u32] {
        let (start, end) = self
            .groups
            .get(group as usize)
            .map_or((0, 0), |g| (g.start, g.end));
        self.members
            .get(start as usize..end as usize)
            .unwrap_or(&[])
    }

    /// Whether candidate `a` (at supported index `ai`) beats `b` (at `bi`):
    /// decision D4's score and tie-breaks.
    fn beats(&self, a: &Score, ai: usize, b: &Score, bi: usize) -> bool {
        if a.quality != b.quality {
            return a.quality > b.quality;
        }
        if a.position != b.position {
            return a.position < b.position;
        }
        if a.closeness != b.closeness {
            return a.closeness > b.closeness;
        }
        let (a_default, b_default) = (
            self.default_index == Some(ai),
            self.default_index == Some(bi),
        );
        if a_default != b_default {
            return a_default;
        }
        ai < bi
    }

    fn fallback(&self, reason: Reason) -> Outcome {
        Outcome {
            index: self.default_index,
            quality: Quality::ONE,
            reason,
        }
    }
}

/// Marks the ranges of `group` after `at` as [`DONE`] (the group has been
/// dealt with at `at`).
fn mark_done(ranges: &mut [Range<'_>], at: usize, group: u32) {
    for later in ranges.iter_mut().skip(at + 1) {
        if later.group == group {
            later.group = DONE;
        }
    }
}

/// `line` without the SP and HTAB bytes around it (RFC 9110 §5.5: they are not
/// part of the field value).
fn trim_ows(line: &[u8]) -> &[u8] {
    let is_ows = |b: &u8| *b == b' ' || *b == b'\t';
    let start = line.iter().position(|b| !is_ows(b)).unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !is_ows(b))
        .map_or(start, |i| i + 1);
    line.get(start..end).unwrap_or_default()
}
