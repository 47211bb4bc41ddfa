//! The cargo subcommands the gates run, installed from crates.io with `cargo install
//! --locked` at a pinned version when the one on `PATH` is missing or another version, so a
//! fresh machine runs what was tested here.

use std::path::PathBuf;
use std::thread::{self, JoinHandle};

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
        self.install_command().run()?;
        self.check_installed()
    }

    /// `cargo install --locked KRATE --version VERSION`.
    fn install_command(&self) -> Cmd {
        Cmd::cargo().args(["install", "--locked", self.krate, "--version", self.version])
    }

    /// An error unless `cargo SUBCOMMAND --version` reports the pinned version.
    fn check_installed(&self) -> Result<()> {
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

/// Tools installed on a background thread while other work goes on.
///
/// A fresh machine compiles each tool from source, minutes of CPU. Started at the beginning
/// of a CI run, under `nice` where it exists, the installs use the time the earlier steps
/// spend waiting on servers, the network and timeouts, and yield the CPU to the steps when
/// both want it. A step that runs a tool calls [`Prefetch::wait`] first.
pub(crate) struct Prefetch {
    handle: Option<JoinHandle<std::result::Result<(), String>>>,
    log: PathBuf,
}

impl Prefetch {
    /// Starts installing those of `tools` whose pinned version is not installed, writing
    /// cargo's output to `log`. Nothing starts when every tool is there.
    pub(crate) fn start(tools: Vec<&'static Tool>, log: PathBuf) -> Prefetch {
        let missing: Vec<&'static Tool> = tools
            .into_iter()
            .filter(|tool| tool.installed_version().as_deref() != Some(tool.version))
            .collect();
        if missing.is_empty() {
            return Prefetch { handle: None, log };
        }
        let names: Vec<String> = missing
            .iter()
            .map(|t| format!("{} {}", t.krate, t.version))
            .collect();
        println!(
            "installing {} in the background (output in {})",
            names.join(", "),
            log.display()
        );
        let file = log.clone();
        let handle = thread::spawn(move || {
            for tool in missing {
                let install = tool.install_command().niced();
                install.run_logged(&file).map_err(|e| e.to_string())?;
                tool.check_installed().map_err(|e| e.to_string())?;
            }
            Ok(())
        });
        Prefetch {
            handle: Some(handle),
            log,
        }
    }

    /// Waits for the installs to end; an error, with the log's last lines, if one failed.
    pub(crate) fn wait(&mut self) -> Result<()> {
        let Some(handle) = self.handle.take() else {
            return Ok(());
        };
        println!("waiting for the background tool installs");
        let outcome = handle
            .join()
            .unwrap_or_else(|_| Err("the install thread panicked".to_owned()));
        if let Err(e) = outcome {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            for line in tail.iter().rev() {
                println!("{line}");
            }
            bail!(
                "background install failed: {e} (log: {})",
                self.log.display()
            );
        }
        Ok(())
    }
}
