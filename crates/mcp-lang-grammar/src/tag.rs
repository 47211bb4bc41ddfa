//! Language tags (RFC 5646 §2.1), checked for well-formedness.
//!
//! ```text
//! Language-Tag  = langtag / privateuse / grandfathered
//! langtag       = language ["-" script] ["-" region] *("-" variant)
//!                 *("-" extension) ["-" privateuse]
//! language      = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA
//! extlang       = 3ALPHA *2("-" 3ALPHA)
//! script        = 4ALPHA
//! region        = 2ALPHA / 3DIGIT
//! variant       = 5*8alphanum / (DIGIT 3alphanum)
//! extension     = singleton 1*("-" (2*8alphanum))
//! singleton     = DIGIT / %x41-57 / %x61-77 / %x79-7A   ; any alphanum but "x"
//! privateuse    = "x" 1*("-" (1*8alphanum))
//! grandfathered = irregular / regular
//! ```
//!
//! # What "well-formed" covers, and what it does not
//!
//! [`LanguageTag::parse`] accepts exactly the strings this ABNF generates,
//! ignoring ASCII letter case (RFC 5646 §2.1.1): that is RFC 5646's definition
//! of *well-formed* (§2.2.9), and the one RFC 9110's `Content-Language`
//! grammar refers to. It does **not** check *validity*: whether subtags are
//! registered in the IANA Language Subtag Registry (`en-QQ` and `qaa-Xyzw`
//! are well-formed), whether a variant's prefix fits, or whether a variant or
//! extension singleton is repeated. RFC 5646 §2.2.5 and §2.2.6 make repeated
//! variants (`de-1901-1901`) and repeated singletons (`en-a-bbb-a-ccc`) *not
//! valid*, but the ABNF generates them, so they are well-formed and accepted
//! here. Checking validity needs the registry, which this crate does not carry.
//!
//! # How the ambiguities of the ABNF are resolved
//!
//! The subtag kinds are told apart by length and by letters versus digits
//! (`extlang` is 3 letters, `script` 4 letters, `region` 2 letters or 3
//! digits, `variant` 5–8 characters or a digit and 3 more, a singleton 1), and
//! each may only follow certain others, so a left-to-right scan decides every
//! subtag without backtracking:
//!
//! - `zh-min-nan`: two extlangs (at most three: `zh-abc-def-ghi-jkl` fails).
//! - `de-419-DE`: `DE` after a region can be nothing (a variant is longer), so
//!   the tag is malformed; the error is at the end, where a longer subtag
//!   (`de-419-DExyz`) would still have been possible.
//! - `en-a-bbb-x-a-ccc`: after `x`, everything is private use, so the second
//!   `a` is a private-use subtag, not a second extension.
//! - `x-whatever` and `X-A-B`: private-use tags.
//! - `i-klingon`, `en-GB-oed`, `sgn-BE-FR`: irregular grandfathered tags,
//!   accepted only whole. The regular grandfathered tags (`zh-min-nan`,
//!   `art-lojban`, …) also match `langtag`; [`LanguageTag::kind`] still
//!   reports them as grandfathered.

use core::fmt;
use core::hash::{Hash, Hasher};

use crate::chars::{ascii_str, is_alpha, is_alphanum, is_digit, split};
use crate::error::{Expected, ParseError};
use crate::range::Subtags;

/// The irregular grandfathered tags of RFC 5646 §2.1 (no `langtag` shape).
const IRREGULAR: [&str; 17] = [
    "en-GB-oed",
    "i-ami",
    "i-bnn",
    "i-default",
    "i-enochian",
    "i-hak",
    "i-klingon",
    "i-lux",
    "i-mingo",
    "i-navajo",
    "i-pwn",
    "i-tao",
    "i-tay",
    "i-tsu",
    "sgn-BE-FR",
    "sgn-BE-NL",
    "sgn-CH-DE",
];

/// The regular grandfathered tags of RFC 5646 §2.1 (they match `langtag`).
const REGULAR: [&str; 9] = [
    "art-lojban",
    "cel-gaulish",
    "no-bok",
    "no-nyn",
    "zh-guoyu",
    "zh-hakka",
    "zh-min",
    "zh-min-nan",
    "zh-xiang",
];

/// Which production of `Language-Tag` a tag matched.
///
/// ```
/// use mcp_lang_grammar::{LanguageTag, TagKind};
///
/// assert_eq!(LanguageTag::parse("fr-CA").unwrap().kind(), TagKind::LangTag);
/// assert_eq!(LanguageTag::parse("x-whatever").unwrap().kind(), TagKind::PrivateUse);
/// assert_eq!(LanguageTag::parse("i-klingon").unwrap().kind(), TagKind::IrregularGrandfathered);
/// assert_eq!(LanguageTag::parse("zh-min-nan").unwrap().kind(), TagKind::RegularGrandfathered);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TagKind {
    /// `langtag`: a primary language and optional further subtags.
    LangTag,
    /// `privateuse`: a tag starting with `x-`.
    PrivateUse,
    /// One of the `irregular` grandfathered tags (`i-klingon`, `en-GB-oed`, …).
    IrregularGrandfathered,
    /// One of the `regular` grandfathered tags (`zh-min-nan`, `art-lojban`, …),
    /// which also have the shape of a `langtag`.
    RegularGrandfathered,
}

/// A well-formed RFC 5646 language tag, borrowed.
///
/// Equality and hashing ignore ASCII case (RFC 5646 §2.1.1);
/// [`as_str`](LanguageTag::as_str) keeps the spelling given. The component
/// accessors describe a [`TagKind::LangTag`] and are `None` for the other
/// kinds.
///
/// ```
/// use mcp_lang_grammar::LanguageTag;
///
/// let tag = LanguageTag::parse("zh-yue-Hant-HK-u-co-pinyin-x-mine").unwrap();
/// assert_eq!(tag.language(), Some("zh"));
/// assert_eq!(tag.extlangs(), Some("yue"));
/// assert_eq!(tag.script(), Some("Hant"));
/// assert_eq!(tag.region(), Some("HK"));
/// assert_eq!(tag.variants(), None);
/// assert_eq!(tag.extensions(), Some("u-co-pinyin"));
/// assert_eq!(tag.private_use(), Some("x-mine"));
/// assert_eq!(tag, LanguageTag::parse("ZH-YUE-hant-hk-U-CO-PINYIN-X-MINE").unwrap());
/// ```
#[derive(Clone, Copy)]
pub struct LanguageTag<'a>(&'a str);

impl<'a> LanguageTag<'a> {
    /// Parses a tag; the whole string must be the tag.
    ///
    /// ```
    /// use mcp_lang_grammar::{Expected, LanguageTag};
    ///
    /// assert!(LanguageTag::parse("sl-rozaj-biske").is_ok());
    /// let err = LanguageTag::parse("en-a-x-foo").unwrap_err();
    /// assert_eq!((err.offset(), err.expected()), (6, Expected::ExtensionSubtag));
    /// ```
    pub fn parse(s: &'a str) -> Result<Self, ParseError> {
        check(s.as_bytes()).map(|_| LanguageTag(s))
    }

    /// Wraps bytes the caller has already validated as a tag.
    pub(crate) fn from_validated(bytes: &'a [u8]) -> LanguageTag<'a> {
        LanguageTag(ascii_str(bytes))
    }

    /// The tag as written.
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageTag;
    /// assert_eq!(LanguageTag::parse("en-us").unwrap().as_str(), "en-us");
    /// ```
    pub fn as_str(&self) -> &'a str {
        self.0
    }

    /// Which production the tag matched.
    ///
    /// ```
    /// use mcp_lang_grammar::{LanguageTag, TagKind};
    /// assert_eq!(LanguageTag::parse("EN-gb-OED").unwrap().kind(), TagKind::IrregularGrandfathered);
    /// ```
    pub fn kind(&self) -> TagKind {
        if one_of(self.0, &IRREGULAR) {
            TagKind::IrregularGrandfathered
        } else if one_of(self.0, &REGULAR) {
            TagKind::RegularGrandfathered
        } else if matches!(self.0.as_bytes().first(), Some(b'x' | b'X')) {
            TagKind::PrivateUse
        } else {
            TagKind::LangTag
        }
    }

    /// The subtags, in order.
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageTag;
    /// assert_eq!(LanguageTag::parse("x-a-b").unwrap().subtags().count(), 3);
    /// ```
    pub fn subtags(&self) -> Subtags<'a> {
        Subtags::new(self.0)
    }

    /// The primary language subtag.
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageTag;
    /// assert_eq!(LanguageTag::parse("de-CH").unwrap().language(), Some("de"));
    /// assert_eq!(LanguageTag::parse("x-de").unwrap().language(), None);
    /// ```
    pub fn language(&self) -> Option<&'a str> {
        self.part(Part::Language)
    }

    /// The extended language subtags, `-`-joined (`yue`, `min-nan`).
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageTag;
    /// assert_eq!(LanguageTag::parse("zh-gan").unwrap().extlangs(), Some("gan"));
    /// ```
    pub fn extlangs(&self) -> Option<&'a str> {
        self.part(Part::Extlang)
    }

    /// The script subtag.
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageTag;
    /// assert_eq!(LanguageTag::parse("sr-Latn-RS").unwrap().script(), Some("Latn"));
    /// ```
    pub fn script(&self) -> Option<&'a str> {
        self.part(Part::Script)
    }

    /// The region subtag.
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageTag;
    /// assert_eq!(LanguageTag::parse("es-419").unwrap().region(), Some("419"));
    /// ```
    pub fn region(&self) -> Option<&'a str> {
        self.part(Part::Region)
    }

    /// The variant subtags, `-`-joined (`rozaj-biske`).
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageTag;
    /// assert_eq!(LanguageTag::parse("de-CH-1901").unwrap().variants(), Some("1901"));
    /// ```
    pub fn variants(&self) -> Option<&'a str> {
        self.part(Part::Variant)
    }

    /// The extensions, `-`-joined with their singletons (`a-bbb-u-co-phonebk`).
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageTag;
    /// assert_eq!(LanguageTag::parse("de-DE-u-co-phonebk").unwrap().extensions(), Some("u-co-phonebk"));
    /// ```
    pub fn extensions(&self) -> Option<&'a str> {
        self.part(Part::Extension)
    }

    /// The private-use part of a `langtag`, from its `x` on (`x-private`).
    ///
    /// ```
    /// use mcp_lang_grammar::LanguageTag;
    /// assert_eq!(LanguageTag::parse("en-US-x-twain").unwrap().private_use(), Some("x-twain"));
    /// assert_eq!(LanguageTag::parse("x-whatever").unwrap().private_use(), None); // a private-use *tag*
    /// ```
    pub fn private_use(&self) -> Option<&'a str> {
        self.part(Part::PrivateUse)
    }

    /// The span of one component (the first and last subtag of that kind).
    fn part(&self, which: Part) -> Option<&'a str> {
        if self.kind() != TagKind::LangTag {
            return None;
        }
        let bytes = self.0.as_bytes();
        let mut span: Option<(usize, usize)> = None;
        let _ = scan(bytes, |part, start, end| {
            if part == which {
                span = Some(span.map_or((start, end), |(s, _)| (s, end)));
            }
        });
        let (start, end) = span?;
        self.0.get(start..end)
    }
}

fn one_of(s: &str, list: &[&str]) -> bool {
    list.iter().any(|t| t.eq_ignore_ascii_case(s))
}

impl PartialEq for LanguageTag<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for LanguageTag<'_> {}

impl Hash for LanguageTag<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for b in self.0.bytes() {
            state.write_u8(b.to_ascii_lowercase());
        }
        state.write_u8(0xff);
    }
}

impl fmt::Debug for LanguageTag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("LanguageTag").field(&self.0).finish()
    }
}

impl fmt::Display for LanguageTag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// Checks that all of `input` is a well-formed tag. The error offset is
/// relative to `input` and follows the crate's longest-viable-prefix rule.
pub(crate) fn check(input: &[u8]) -> Result<(), ParseError> {
    let langtag = scan(input, |_, _, _| {});
    let Err(langtag_err) = langtag else {
        return Ok(());
    };
    // `irregular` is a finite set: how far does the input follow one of them?
    let (mut irregular, mut complete) = (0, false);
    for tag in IRREGULAR {
        let common = tag
            .bytes()
            .zip(input)
            .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
            .count();
        if common == tag.len() && common == input.len() {
            return Ok(());
        }
        if common > irregular {
            (irregular, complete) = (common, common == tag.len());
        }
    }
    if irregular > langtag_err.offset() {
        let expected = if complete {
            Expected::TagEnd
        } else {
            Expected::Grandfathered
        };
        return Err(ParseError::new(irregular, expected));
    }
    Err(langtag_err)
}

/// The components of a `langtag`, as reported by [`scan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Language,
    Extlang,
    Script,
    Region,
    Variant,
    /// A singleton or an extension subtag.
    Extension,
    /// `x` or a private-use subtag.
    PrivateUse,
}

/// Where the scan is: which subtags may come next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Start,
    /// After a 2–3 letter language and `extlangs` extlangs.
    ShortLanguage {
        extlangs: u8,
    },
    /// After a 4–8 letter language.
    LongLanguage,
    Script,
    /// After a region or a variant.
    RegionOrVariant,
    Singleton,
    ExtensionSubtag,
    X,
    PrivateUseSubtag,
}

impl State {
    /// Whether a tag may end here.
    fn can_end(self) -> bool {
        !matches!(self, State::Start | State::Singleton | State::X)
    }

    /// What is expected where a subtag fails in this state.
    fn expected(self) -> Expected {
        match self {
            State::Start => Expected::LanguageTag,
            State::Singleton => Expected::ExtensionSubtag,
            State::X | State::PrivateUseSubtag => Expected::PrivateUseSubtag,
            _ => Expected::Subtag,
        }
    }

    /// The subtag kinds allowed next.
    fn allowed(self) -> &'static [Slot] {
        use Slot::*;
        match self {
            State::Start => &[Language, X],
            State::ShortLanguage { extlangs } if extlangs < 3 => {
                &[Extlang, Script, Region, Variant, Singleton, X]
            }
            State::ShortLanguage { .. } | State::LongLanguage => {
                &[Script, Region, Variant, Singleton, X]
            }
            State::Script => &[Region, Variant, Singleton, X],
            State::RegionOrVariant => &[Variant, Singleton, X],
            State::Singleton => &[ExtensionSubtag],
            State::ExtensionSubtag => &[ExtensionSubtag, Singleton, X],
            State::X | State::PrivateUseSubtag => &[PrivateUseSubtag],
        }
    }
}

/// A kind of subtag, with the shapes it may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Language,
    Extlang,
    Script,
    Region,
    Variant,
    Singleton,
    ExtensionSubtag,
    X,
    PrivateUseSubtag,
}

/// Which bytes a position of a subtag accepts.
#[derive(Clone, Copy, Debug)]
enum Class {
    Alpha,
    Digit,
    Alphanum,
    /// alphanum except `x`/`X`.
    NotX,
    /// `x`/`X`.
    X,
}

impl Class {
    fn accepts(self, b: u8) -> bool {
        match self {
            Class::Alpha => is_alpha(b),
            Class::Digit => is_digit(b),
            Class::Alphanum => is_alphanum(b),
            Class::NotX => is_alphanum(b) && b != b'x' && b != b'X',
            Class::X => b == b'x' || b == b'X',
        }
    }
}

/// A subtag shape: `min..=max` bytes, the first of class `first`, the rest `rest`.
#[derive(Clone, Copy, Debug)]
struct Shape {
    min: usize,
    max: usize,
    first: Class,
    rest: Class,
}

impl Shape {
    const fn new(min: usize, max: usize, first: Class, rest: Class) -> Shape {
        Shape {
            min,
            max,
            first,
            rest,
        }
    }

    /// How many leading bytes of `subtag` fit this shape (at most `max`).
    fn fitting(self, subtag: &[u8]) -> usize {
        subtag
            .iter()
            .enumerate()
            .take(self.max)
            .take_while(|&(i, &b)| {
                if i == 0 {
                    self.first.accepts(b)
                } else {
                    self.rest.accepts(b)
                }
            })
            .count()
    }

    fn matches(self, subtag: &[u8]) -> bool {
        subtag.len() >= self.min && self.fitting(subtag) == subtag.len()
    }
}

impl Slot {
    fn shapes(self) -> &'static [Shape] {
        use Class::*;
        const LANGUAGE: [Shape; 1] = [Shape::new(2, 8, Alpha, Alpha)];
        const EXTLANG: [Shape; 1] = [Shape::new(3, 3, Alpha, Alpha)];
        const SCRIPT: [Shape; 1] = [Shape::new(4, 4, Alpha, Alpha)];
        const REGION: [Shape; 2] = [
            Shape::new(2, 2, Alpha, Alpha),
            Shape::new(3, 3, Digit, Digit),
        ];
        const VARIANT: [Shape; 2] = [
            Shape::new(5, 8, Alphanum, Alphanum),
            Shape::new(4, 4, Digit, Alphanum),
        ];
        const SINGLETON: [Shape; 1] = [Shape::new(1, 1, NotX, NotX)];
        const EXTENSION_SUBTAG: [Shape; 1] = [Shape::new(2, 8, Alphanum, Alphanum)];
        const X_: [Shape; 1] = [Shape::new(1, 1, X, X)];
        const PRIVATE_USE_SUBTAG: [Shape; 1] = [Shape::new(1, 8, Alphanum, Alphanum)];
        match self {
            Slot::Language => &LANGUAGE,
            Slot::Extlang => &EXTLANG,
            Slot::Script => &SCRIPT,
            Slot::Region => &REGION,
            Slot::Variant => &VARIANT,
            Slot::Singleton => &SINGLETON,
            Slot::ExtensionSubtag => &EXTENSION_SUBTAG,
            Slot::X => &X_,
            Slot::PrivateUseSubtag => &PRIVATE_USE_SUBTAG,
        }
    }

    /// The state after a subtag of this kind (of length `len`) in `state`.
    fn next(self, state: State, len: usize) -> (State, Part) {
        match self {
            Slot::Language if len <= 3 => (State::ShortLanguage { extlangs: 0 }, Part::Language),
            Slot::Language => (State::LongLanguage, Part::Language),
            Slot::Extlang => {
                let extlangs = match state {
                    State::ShortLanguage { extlangs } => extlangs.saturating_add(1),
                    _ => 3,
                };
                (State::ShortLanguage { extlangs }, Part::Extlang)
            }
            Slot::Script => (State::Script, Part::Script),
            Slot::Region => (State::RegionOrVariant, Part::Region),
            Slot::Variant => (State::RegionOrVariant, Part::Variant),
            Slot::Singleton => (State::Singleton, Part::Extension),
            Slot::ExtensionSubtag => (State::ExtensionSubtag, Part::Extension),
            Slot::X => (State::X, Part::PrivateUse),
            Slot::PrivateUseSubtag => (State::PrivateUseSubtag, Part::PrivateUse),
        }
    }
}

/// Scans all of `input` as `langtag / privateuse`, calling `each` with the
/// kind and byte span of every subtag. Fails at the longest viable prefix.
fn scan(input: &[u8], mut each: impl FnMut(Part, usize, usize)) -> Result<(), ParseError> {
    let mut state = State::Start;
    let mut at = 0usize;
    loop {
        let (_, rest) = split(input, at);
        let len = rest.iter().take_while(|&&b| is_alphanum(b)).count();
        let (subtag, after) = split(rest, len);
        let mut found = None;
        let mut fitting = 0;
        for &slot in state.allowed() {
            for &shape in slot.shapes() {
                if shape.matches(subtag) {
                    found = Some(slot);
                }
                fitting = fitting.max(shape.fitting(subtag));
            }
        }
        let Some(slot) = found else {
            return Err(ParseError::new(at + fitting, state.expected()));
        };
        let (next, part) = slot.next(state, len);
        each(part, at, at + len);
        state = next;
        at += len;
        match after.first() {
            Some(b'-') => at += 1,
            None if state.can_end() => return Ok(()),
            None => return Err(ParseError::new(at, state.expected())),
            Some(_) if state.can_end() => return Err(ParseError::new(at, Expected::TagEnd)),
            Some(_) => return Err(ParseError::new(at, state.expected())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> bool {
        LanguageTag::parse(s).is_ok()
    }

    fn err(s: &str) -> (usize, Expected) {
        let e = LanguageTag::parse(s).unwrap_err();
        (e.offset(), e.expected())
    }

    /// RFC 5646 Appendix A, "Some Valid (and Some Invalid) Language Tags".
    #[test]
    fn rfc5646_appendix_a_well_formed() {
        for s in [
            "de",
            "fr",
            "ja",
            "i-enochian",
            "zh-Hant",
            "zh-Hans",
            "sr-Cyrl",
            "sr-Latn",
            "zh-cmn-Hans-CN",
            "cmn-Hans-CN",
            "zh-yue-HK",
            "yue-HK",
            "zh-Hans-CN",
            "sr-Latn-RS",
            "sl-rozaj",
            "sl-rozaj-biske",
            "sl-nedis",
            "de-CH-1901",
            "sl-IT-nedis",
            "hy-Latn-IT-arevela",
            "de-DE",
            "en-US",
            "es-419",
            "de-CH-x-phonebk",
            "az-Arab-x-AZE-derbend",
            "x-whatever",
            "qaa-Qaaa-QM-x-southern",
            "de-Qaaa",
            "sr-Latn-QM",
            "sr-Qaaa-RS",
            "en-US-u-islamcal",
            "zh-CN-a-myext-x-private",
            "en-a-myext-b-another",
            // Well-formed though not valid (Appendix A lists them as invalid, by registry or duplicates):
            "de-1901-1901",
            "en-a-bbb-a-ccc",
            "ar-a-aaa-b-bbb-a-ccc",
        ] {
            assert!(ok(s), "{s}");
        }
        // Appendix A's "de-419-DE" has two region tags: not well-formed.
        assert_eq!(err("de-419-DE"), (9, Expected::Subtag));
        // "a-DE": use of a single-character subtag in primary position.
        assert_eq!(err("a-DE"), (1, Expected::LanguageTag));
    }

    #[test]
    fn grandfathered() {
        for s in IRREGULAR.iter().chain(REGULAR.iter()) {
            assert!(ok(s), "{s}");
            assert!(ok(&s.to_ascii_uppercase_no_alloc()), "{s}");
        }
        assert_eq!(LanguageTag::parse("i-klingon").unwrap().language(), None);
        assert_eq!(err("i-klingonx"), (9, Expected::TagEnd));
        assert_eq!(err("i-klingon-x"), (9, Expected::TagEnd));
        assert_eq!(err("i-kx"), (3, Expected::Grandfathered));
        assert_eq!(err("i-"), (2, Expected::Grandfathered));
        assert_eq!(err("en-GB-oex"), (9, Expected::Subtag));
        assert_eq!(err("sgn-BE-FR-x"), (9, Expected::Subtag));
        assert!(ok("zh-min-nan-Hant-CN"));
        assert_eq!(
            LanguageTag::parse("zh-min-nan-Hant").unwrap().kind(),
            TagKind::LangTag
        );
    }

    #[test]
    fn extlang_rules() {
        assert!(ok("zh-min-nan"));
        assert!(ok("zh-abc-def-ghi"));
        assert_eq!(err("zh-abc-def-ghi-jkl"), (18, Expected::Subtag));
        assert_eq!(err("abcd-efg"), (8, Expected::Subtag)); // no extlang after a 4-letter language
        assert_eq!(err("en-Latn-abc"), (11, Expected::Subtag));
        assert!(ok("abcd-Latn"));
        assert!(ok("abcdefgh"));
        assert_eq!(err("abcdefghi"), (8, Expected::LanguageTag));
    }

    #[test]
    fn subtag_order() {
        assert!(ok("en-Latn-US-basiceng-1abc-a-bc-x-1"));
        assert_eq!(err("en-US-Latn"), (10, Expected::Subtag));
        assert_eq!(err("en-1abc-US"), (10, Expected::Subtag));
        assert_eq!(err("en-a"), (4, Expected::ExtensionSubtag));
        assert_eq!(err("en-a-b"), (6, Expected::ExtensionSubtag));
        assert_eq!(err("en-a-x-foo"), (6, Expected::ExtensionSubtag));
        assert!(ok("en-a-bbb-x-a-ccc"));
        assert_eq!(
            LanguageTag::parse("en-a-bbb-x-a-ccc")
                .unwrap()
                .private_use(),
            Some("x-a-ccc")
        );
        assert_eq!(err("en-x"), (4, Expected::PrivateUseSubtag));
        assert_eq!(err("x"), (1, Expected::PrivateUseSubtag));
        assert_eq!(err("x-123456789"), (10, Expected::PrivateUseSubtag));
        assert!(ok("x-1-2-3"));
        assert_eq!(err("en--US"), (3, Expected::Subtag));
        assert_eq!(err("en-"), (3, Expected::Subtag));
        assert_eq!(err("-en"), (0, Expected::LanguageTag));
        assert_eq!(err(""), (0, Expected::LanguageTag));
        assert_eq!(err("en_US"), (2, Expected::TagEnd));
        assert_eq!(err("en-US "), (5, Expected::TagEnd));
        assert_eq!(err("e1"), (1, Expected::LanguageTag));
        assert_eq!(err("en-12"), (5, Expected::Subtag));
        assert!(ok("en-123"));
        assert!(ok("en-1234"));
        assert_eq!(err("en-123456789"), (11, Expected::Subtag));
    }

    #[test]
    fn components() {
        let t = LanguageTag::parse("hy-Latn-IT-arevela").unwrap();
        assert_eq!(
            (
                t.language(),
                t.extlangs(),
                t.script(),
                t.region(),
                t.variants(),
                t.extensions(),
                t.private_use()
            ),
            (
                Some("hy"),
                None,
                Some("Latn"),
                Some("IT"),
                Some("arevela"),
                None,
                None
            )
        );
        let t = LanguageTag::parse("zh-min-nan-Hant").unwrap();
        assert_eq!(t.extlangs(), Some("min-nan"));
        let t = LanguageTag::parse("en-a-bbb-b-ccc-x-q").unwrap();
        assert_eq!(t.extensions(), Some("a-bbb-b-ccc"));
    }

    /// Upper-cases into a fixed buffer (the crate is `no_std`).
    trait Upper {
        fn to_ascii_uppercase_no_alloc(&self) -> Buf;
    }
    struct Buf([u8; 16], usize);
    impl core::ops::Deref for Buf {
        type Target = str;
        fn deref(&self) -> &str {
            core::str::from_utf8(&self.0[..self.1]).unwrap()
        }
    }
    impl Upper for &str {
        fn to_ascii_uppercase_no_alloc(&self) -> Buf {
            let mut b = Buf([0; 16], self.len());
            b.0[..self.len()].copy_from_slice(self.as_bytes());
            b.0[..self.len()].make_ascii_uppercase();
            b
        }
    }
}
