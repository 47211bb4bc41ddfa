//! A small command-line reader for the tasks (std only, no clap: xtask is compiled on every
//! cold machine before anything else, so it stays cheap to build).
//!
//! Options are `--name`, `--name VALUE` or `--name=VALUE`; everything after a bare `--` is
//! passed through untouched (for example to criterion).

use std::collections::VecDeque;

use crate::{Result, bail};

/// The arguments after the task name.
#[derive(Debug, Default)]
pub(crate) struct Args {
    items: VecDeque<String>,
    passthrough: Vec<String>,
}

impl Args {
    /// The process arguments without the program name.
    pub(crate) fn from_env() -> Args {
        Args::new(std::env::args().skip(1))
    }

    /// Arguments from any list (used by tests).
    pub(crate) fn new(items: impl IntoIterator<Item = String>) -> Args {
        let mut items: VecDeque<String> = items.into_iter().collect();
        let passthrough = match items.iter().position(|a| a == "--") {
            Some(at) => {
                let rest = items.split_off(at);
                rest.into_iter().skip(1).collect()
            }
            None => Vec::new(),
        };
        Args { items, passthrough }
    }

    /// Takes the first argument that is not an option.
    pub(crate) fn next_positional(&mut self) -> Option<String> {
        let at = self.items.iter().position(|a| !a.starts_with('-'))?;
        self.items.remove(at)
    }

    /// Takes every remaining argument that is not an option.
    pub(crate) fn positionals(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(p) = self.next_positional() {
            out.push(p);
        }
        out
    }

    /// Whether the flag `--name` was given (removing it).
    pub(crate) fn flag(&mut self, name: &str) -> bool {
        let before = self.items.len();
        self.items.retain(|a| a != name);
        self.items.len() != before
    }

    /// Every value of `--name VALUE` / `--name=VALUE` (removing them).
    pub(crate) fn values(&mut self, name: &str) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.items.len() {
            let item = &self.items[i];
            if item == name {
                let Some(value) = self.items.get(i + 1).cloned() else {
                    bail!("{name} needs a value");
                };
                self.items.drain(i..i + 2);
                out.push(value);
            } else if let Some(value) = item
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('='))
            {
                out.push(value.to_owned());
                self.items.remove(i);
            } else {
                i += 1;
            }
        }
        Ok(out)
    }

    /// The value of `--name`, if given (the last one wins).
    pub(crate) fn value(&mut self, name: &str) -> Result<Option<String>> {
        Ok(self.values(name)?.pop())
    }

    /// The value of `--name` parsed as a number.
    pub(crate) fn number(&mut self, name: &str) -> Result<Option<u64>> {
        match self.value(name)? {
            None => Ok(None),
            Some(v) => match v.parse() {
                Ok(n) => Ok(Some(n)),
                Err(_) => bail!("{name} expects a whole number, got `{v}`"),
            },
        }
    }

    /// The arguments after `--`.
    pub(crate) fn passthrough(&self) -> &[String] {
        &self.passthrough
    }

    /// Fails if anything was not consumed (an unknown option or a stray argument).
    pub(crate) fn finish(self) -> Result<()> {
        if let Some(extra) = self.items.front() {
            bail!("unexpected argument `{extra}` (see `cargo xtask help`)");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Args {
        Args::new(s.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn options_values_positionals_and_passthrough() {
        let mut a = args("--time 30 grammar_tag --jobs=2 --skip fmt --skip=doc x -- --noplot -v");
        assert_eq!(a.number("--time").unwrap(), Some(30));
        assert_eq!(a.number("--jobs").unwrap(), Some(2));
        assert_eq!(a.values("--skip").unwrap(), ["fmt", "doc"]);
        assert_eq!(a.positionals(), ["grammar_tag", "x"]);
        assert_eq!(a.passthrough(), ["--noplot", "-v"]);
        assert!(a.finish().is_ok());
    }

    #[test]
    fn unknown_options_and_missing_values_are_errors() {
        let mut a = args("--frobnicate");
        assert!(!a.flag("--quiet"));
        assert!(a.finish().is_err());
        assert!(args("--time").number("--time").is_err());
        assert!(args("--time soon").number("--time").is_err());
    }
}
