//! Running commands: echoing them, timing them, and telling what failed.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::args::Args;
use crate::{Result, bail, workspace};

/// The path of this program, to start it again (`__measure`, the rustdoc wrapper).
///
/// A `cargo xtask ci` run builds the workspace, xtask included: when a step's build writes
/// a new `target/debug/xtask`, the running program's file is gone, and
/// `std::env::current_exe` names a path that no longer exists. Then the running program is
/// copied, once, from `/proc/self/exe` (which still reads it) to `xtask-self-PID` beside
/// it, and that copy is started instead.
pub(crate) fn self_exe() -> Result<std::path::PathBuf> {
    // Held while copying, so that no thread starts a half-written copy.
    static COPY: std::sync::Mutex<Option<std::path::PathBuf>> = std::sync::Mutex::new(None);
    let mut copied = COPY.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(copy) = copied.as_ref() {
        return Ok(copy.clone());
    }
    let exe = std::env::current_exe()?;
    if exe.is_file() {
        return Ok(exe);
    }
    let dir = exe.parent().unwrap_or(workspace::root());
    let copy = dir.join(format!("xtask-self-{}", std::process::id()));
    fs::copy("/proc/self/exe", &copy).map_err(|e| {
        format!(
            "{} was replaced while it ran, and it cannot be copied from /proc/self/exe: {e}",
            exe.display()
        )
    })?;
    *copied = Some(copy.clone());
    Ok(copy)
}

/// A command with a printable spelling (`NAME=value program args…`).
pub(crate) struct Cmd {
    command: Command,
    shown: String,
}

impl Cmd {
    /// `program`, run from the workspace root.
    pub(crate) fn new(program: impl AsRef<OsStr>) -> Cmd {
        let program = program.as_ref();
        let mut command = Command::new(program);
        command.current_dir(workspace::root());
        Cmd {
            command,
            shown: program.to_string_lossy().into_owned(),
        }
    }

    /// `cargo`, the one on `PATH` (the rustup proxy, so `+toolchain` works).
    pub(crate) fn cargo() -> Cmd {
        Cmd::new("cargo")
    }

    /// Adds one argument.
    pub(crate) fn arg(mut self, arg: impl AsRef<OsStr>) -> Cmd {
        let arg = arg.as_ref();
        let text = arg.to_string_lossy();
        self.shown.push(' ');
        if text.is_empty() || text.contains(|c: char| c.is_whitespace() || c == '"') {
            let _ = write!(self.shown, "{text:?}");
        } else {
            self.shown.push_str(&text);
        }
        self.command.arg(arg);
        self
    }

    /// Adds several arguments.
    pub(crate) fn args<I, S>(mut self, args: I) -> Cmd
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        for a in args {
            self = self.arg(a);
        }
        self
    }

    /// Sets an environment variable (shown before the program).
    pub(crate) fn env(mut self, key: &str, value: &str) -> Cmd {
        self.shown = format!("{key}={value:?} {}", self.shown);
        self.command.env(key, value);
        self
    }

    /// Runs in `dir` instead of the workspace root.
    pub(crate) fn dir(mut self, dir: &Path) -> Cmd {
        self.shown = format!("(cd {} && {})", dir.display(), self.shown);
        self.command.current_dir(dir);
        self
    }

    /// Removes an inherited environment variable.
    pub(crate) fn env_remove(mut self, key: &str) -> Cmd {
        self.command.env_remove(key);
        self
    }

    /// How the command is shown to the user.
    pub(crate) fn shown(&self) -> &str {
        &self.shown
    }

    /// Runs with inherited stdio; an error unless it exits with 0.
    pub(crate) fn run(self) -> Result<()> {
        let shown = self.shown.clone();
        check(&shown, self.status()?)
    }

    /// This command's program and arguments appended to `self`'s (its environment and
    /// working directory are `self`'s): `nice -n 10` followed by a cargo command.
    pub(crate) fn append(self, other: Cmd) -> Cmd {
        let program = other.command.get_program().to_owned();
        let args: Vec<_> = other.command.get_args().map(|a| a.to_owned()).collect();
        self.arg(program).args(args)
    }

    /// Runs with stdout and stderr appended to `log` (created if missing); an error unless
    /// it exits with 0.
    pub(crate) fn run_logged(mut self, log: &Path) -> Result<()> {
        let out = fs::OpenOptions::new().create(true).append(true).open(log)?;
        let err = out.try_clone()?;
        let status = self
            .command
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .status()
            .map_err(|e| format!("cannot start `{}`: {e}", self.shown))?;
        check(&self.shown, status)
    }

    /// Runs with inherited stdio and returns the exit status.
    pub(crate) fn status(mut self) -> Result<ExitStatus> {
        println!("$ {}", self.shown);
        self.command
            .status()
            .map_err(|e| format!("cannot start `{}`: {e}", self.shown).into())
    }

    /// Runs silently and says whether it exited with 0 (used to probe tools).
    pub(crate) fn succeeds_quietly(mut self) -> bool {
        self.command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Runs silently and returns its standard output when it exits with 0 (used to probe
    /// tools' versions).
    pub(crate) fn read_stdout_quietly(mut self) -> Option<String> {
        let out = self
            .command
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        String::from_utf8(out.stdout).ok()
    }

    /// Runs silently and returns its standard output; an error unless it exits with 0.
    pub(crate) fn read_stdout(mut self) -> Result<String> {
        let out = self
            .command
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("cannot start `{}`: {e}", self.shown))?;
        check(&self.shown, out.status)?;
        String::from_utf8(out.stdout)
            .map_err(|_| format!("`{}` printed something that is not UTF-8", self.shown).into())
    }

    /// Runs with stdout passed through line by line to the terminal and to `on_line`
    /// (stderr inherited); an error unless it exits with 0.
    pub(crate) fn run_tee(mut self, mut on_line: impl FnMut(&str)) -> Result<()> {
        println!("$ {}", self.shown);
        let mut child = self
            .command
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", self.shown))?;
        if let Some(stdout) = child.stdout.take() {
            for line in BufReader::new(stdout).lines() {
                let line = line?;
                println!("{line}");
                on_line(&line);
            }
        }
        let status = child.wait()?;
        check(&self.shown, status)
    }

    /// Runs through `cargo xtask __measure`, which reports the CPU time the command used
    /// (itself and every descendant it waited for). Output goes to `log`.
    pub(crate) fn run_measured(self, log: &Path) -> Result<Measured> {
        let cpu_file = log.with_extension("cpu");
        let log_file = fs::File::create(log)?;
        let mut outer = Command::new(self_exe()?);
        outer
            .arg(MEASURE_TASK)
            .arg(&cpu_file)
            .arg(self.command.get_program())
            .args(self.command.get_args())
            .current_dir(workspace::root())
            .stdout(log_file.try_clone()?)
            .stderr(log_file)
            .stdin(Stdio::null());
        for (key, value) in self.command.get_envs() {
            match value {
                Some(v) => outer.env(key, v),
                None => outer.env_remove(key),
            };
        }
        let started = Instant::now();
        let status = outer
            .status()
            .map_err(|e| format!("cannot start `{}`: {e}", self.shown))?;
        let wall = started.elapsed();
        let cpu = fs::read_to_string(&cpu_file)
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .map(Duration::from_secs_f64);
        Ok(Measured { status, wall, cpu })
    }
}

/// What [`Cmd::run_measured`] observed.
#[derive(Debug)]
pub(crate) struct Measured {
    pub(crate) status: ExitStatus,
    pub(crate) wall: Duration,
    /// User + system CPU time of the command and its descendants, when it could be read.
    pub(crate) cpu: Option<Duration>,
}

fn check(shown: &str, status: ExitStatus) -> Result<()> {
    if status.success() {
        Ok(())
    } else {
        bail!("`{shown}` failed ({status})")
    }
}

/// The hidden task behind [`Cmd::run_measured`].
pub(crate) const MEASURE_TASK: &str = "__measure";

/// `cargo xtask __measure CPU_FILE PROGRAM ARGS…`: runs the program, then writes the CPU
/// seconds of its process tree to `CPU_FILE` and exits with its status.
///
/// Linux only: the children's CPU time is read from `/proc/self/stat` (`cutime` + `cstime`,
/// in `USER_HZ` ticks, which Linux fixes at 100 for user space). Being its own process, it
/// measures one command even while others run in parallel.
pub(crate) fn measure_child(_: Args) -> Result<()> {
    // Read the raw arguments: the measured command may itself contain `--`.
    let raw: Vec<String> = std::env::args().skip(2).collect();
    let [cpu_file, program, rest @ ..] = raw.as_slice() else {
        bail!("usage: {MEASURE_TASK} CPU_FILE PROGRAM [ARGS…]");
    };
    let status = Command::new(program).args(rest).status()?;
    if let Some(seconds) = children_cpu_seconds() {
        fs::write(cpu_file, format!("{seconds:.2}\n"))?;
    }
    match status.code() {
        Some(0) => Ok(()),
        Some(code) => std::process::exit(code),
        None => bail!("`{program}` was killed ({status})"),
    }
}

/// CPU seconds used by this process's waited-for children, from `/proc/self/stat`.
fn children_cpu_seconds() -> Option<f64> {
    const USER_HZ: f64 = 100.0;
    let stat = fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; the fields after it start past the ')'.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Field 3 (state) is fields[0]; cutime and cstime are fields 16 and 17.
    let cutime: f64 = fields.get(13)?.parse().ok()?;
    let cstime: f64 = fields.get(14)?.parse().ok()?;
    Some((cutime + cstime) / USER_HZ)
}

/// A sequence of named steps, each printed with its duration; stops at the first failure.
pub(crate) struct Steps {
    title: &'static str,
    total: usize,
    done: Vec<(String, Duration, bool)>,
    started: Instant,
}

impl Steps {
    /// A sequence of `total` steps for the task `title`.
    pub(crate) fn new(title: &'static str, total: usize) -> Steps {
        Steps {
            title,
            total,
            done: Vec::new(),
            started: Instant::now(),
        }
    }

    /// Runs one step, printing its start, outcome and duration.
    pub(crate) fn run(&mut self, name: &str, step: impl FnOnce() -> Result<()>) -> Result<()> {
        let n = self.done.len() + 1;
        println!("\n==> {} [{n}/{}] {name}", self.title, self.total);
        let started = Instant::now();
        let outcome = step();
        let took = started.elapsed();
        let ok = outcome.is_ok();
        let verdict = if ok { "ok" } else { "FAILED" };
        println!(
            "<== {} [{n}/{}] {name}: {verdict} in {}",
            self.title,
            self.total,
            secs(took)
        );
        self.done.push((name.to_owned(), took, ok));
        outcome
    }

    /// Notes a step that was skipped on request.
    pub(crate) fn skip(&mut self, name: &str, why: &str) {
        let n = self.done.len() + 1;
        println!(
            "\n==> {} [{n}/{}] {name}: skipped ({why})",
            self.title, self.total
        );
        self.done
            .push((format!("{name} (skipped)"), Duration::ZERO, true));
    }

    /// The durations so far, as a small table.
    pub(crate) fn summary(&self) -> String {
        let mut out = String::new();
        let width = self.done.iter().map(|(n, ..)| n.len()).max().unwrap_or(0);
        for (name, took, ok) in &self.done {
            let verdict = if *ok { "ok" } else { "FAILED" };
            let _ = writeln!(out, "  {name:<width$}  {:>8}  {verdict}", secs(*took));
        }
        let _ = writeln!(
            out,
            "  {:<width$}  {:>8}",
            "total",
            secs(self.started.elapsed())
        );
        out
    }
}

/// A duration as seconds with one decimal.
pub(crate) fn secs(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}
