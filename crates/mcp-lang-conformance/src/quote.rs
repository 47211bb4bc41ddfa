//! Values in messages shown to users, as the wire has them: a string in
//! JSON quotes, a list as its quoted items, an absent value as `absent`;
//! never Rust's debug formatting.
//!
//! ```text
//! q("fr")              → "fr"
//! q(&Some("fr"))       → "fr"
//! q(&None::<&str>)     → absent
//! q(&vec![" en-us"])   → " en-us"
//! ```

use std::collections::BTreeSet;

use serde_json::Value;

use crate::wire::Preference;

/// A value quoted for a message ([module docs](self)).
pub(crate) trait Quote {
    /// The value as a message shows it.
    fn quote(&self) -> String;
}

impl Quote for str {
    fn quote(&self) -> String {
        Value::from(self).to_string()
    }
}

impl Quote for String {
    fn quote(&self) -> String {
        self.as_str().quote()
    }
}

impl<T: Quote + ?Sized> Quote for &T {
    fn quote(&self) -> String {
        (**self).quote()
    }
}

impl<T: Quote> Quote for Option<T> {
    fn quote(&self) -> String {
        self.as_ref()
            .map_or_else(|| "absent".to_owned(), Quote::quote)
    }
}

impl<T: Quote> Quote for [T] {
    fn quote(&self) -> String {
        if self.is_empty() {
            return "none".to_owned();
        }
        self.iter().map(Quote::quote).collect::<Vec<_>>().join(", ")
    }
}

impl<T: Quote> Quote for Vec<T> {
    fn quote(&self) -> String {
        self.as_slice().quote()
    }
}

impl<T: Quote, const N: usize> Quote for [T; N] {
    fn quote(&self) -> String {
        self.as_slice().quote()
    }
}

impl<T: Quote> Quote for BTreeSet<T> {
    fn quote(&self) -> String {
        self.iter().collect::<Vec<_>>().quote()
    }
}

impl Quote for Value {
    fn quote(&self) -> String {
        self.to_string()
    }
}

impl Quote for Preference {
    fn quote(&self) -> String {
        self.to_string()
    }
}

impl Preference {
    /// The preference in a message: `acceptLanguage "fr"` (any JSON value
    /// as the wire has it), or `no acceptLanguage`.
    pub(crate) fn phrase(&self) -> String {
        match self {
            Self::Absent => "no acceptLanguage".to_owned(),
            Self::Value(value) => format!("acceptLanguage {value}"),
        }
    }
}

macro_rules! plain {
    ($($t:ty),*) => {$(
        impl Quote for $t {
            fn quote(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
plain!(u16, u64, i64, usize, bool);

/// A request's preference in a message: `acceptLanguage "fr"`, or
/// `no acceptLanguage` when it carried none.
pub(crate) fn accept_language<T: Quote>(preference: Option<T>) -> String {
    match preference {
        Some(p) => format!("acceptLanguage {}", p.quote()),
        None => "no acceptLanguage".to_owned(),
    }
}

/// `value` as a message shows it ([module docs](self)).
pub(crate) fn q<T: Quote + ?Sized>(value: &T) -> String {
    value.quote()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_as_the_wire_has_them() {
        assert_eq!(q("fr"), "\"fr\"");
        assert_eq!(q(&Some("fr")), "\"fr\"");
        assert_eq!(q(&None::<&str>), "absent");
        assert_eq!(q(&vec![" en-us", " de"]), "\" en-us\", \" de\"");
        assert_eq!(q(&Some(&serde_json::json!(42))), "42");
        assert_eq!(q("a\u{301}"), "\"a\u{301}\"");
        assert_eq!(accept_language(Some("fr")), "acceptLanguage \"fr\"");
        assert_eq!(accept_language(None::<&str>), "no acceptLanguage");
    }
}
