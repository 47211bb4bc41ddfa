//! The cargo subcommands the gates run, installed from crates.io with `cargo install
//! --locked` at a pinned version when the one on `PATH` is missing or another version, so a
//! fresh machine runs what was tested here.

use crate::process::Cmd;
use crate::{Result, bail};

/// A cargo subcommand from crates.io.
pub(crate) struct Tool {
    /// The crate to install.
    pub(crate) krate: &'static str,
    /// How cargo calls it (`cargo SUBCOMMAND`).
    pub(crate) subcommand: &'static str,
    /// The pinned version.
    pub(crate) version: &'static str,
}

impl Tool {
    /// The version `cargo SUBCOMMAND --version` reports, if it runs.
    fn installed_version(&self) -> Option<String> {
        let out = Cmd::cargo()
            .args([self.subcommand, "--version"])
            .read_stdout_quietly()?;
        out.split_whitespace()
            .find(|word| word.starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_owned)
    }

    /// Installs the pinned version unless it is the one installed.
    pub(crate) fn ensure(&self) -> Result<()> {
        match self.installed_version() {
            Some(v) if v == self.version => return Ok(()),
            Some(v) => println!(
                "{} {v} is installed; installing the pinned {}",
                self.krate, self.version
            ),
            None => println!("{} is missing: installing {}", self.krate, self.version),
        }
        Cmd::cargo()
            .args(["install", "--locked", self.krate, "--version", self.version])
            .run()?;
        match self.installed_version() {
            Some(v) if v == self.version => Ok(()),
            other => bail!(
                "installed {} {} but `cargo {} --version` says {other:?} (is ~/.cargo/bin first on PATH?)",
                self.krate,
                self.version,
                self.subcommand
            ),
        }
    }

    /// `cargo SUBCOMMAND`, after [`Tool::ensure`].
    pub(crate) fn cargo(&self) -> Result<Cmd> {
        self.ensure()?;
        Ok(Cmd::cargo().arg(self.subcommand))
    }
}
