//! Running commands: echoing them, timing them, and telling what failed.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::{Result, bail, workspace};

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

    /// This command under `nice -n 10` where `nice` exists (so that work beside the
    /// steps takes the CPU they leave), else unchanged; its environment and working
    /// directory are kept.
    pub(crate) fn niced(self) -> Cmd {
        if !Cmd::new("nice").arg("true").succeeds_quietly() {
            return self;
        }
        let mut niced = Cmd::new("nice")
            .args(["-n", "10"])
            .arg(self.command.get_program())
            .args(self.command.get_args());
        if let Some(dir) = self.command.get_current_dir() {
            niced.command.current_dir(dir);
        }
        for (key, value) in self.command.get_envs() {
            match value {
                Some(value) => niced.command.env(key, value),
                None => niced.command.env_remove(key),
            };
        }
        niced.shown = format!("nice -n 10 {}", self.shown);
        niced
    }

    /// Starts with no stdin and stdout and stderr appended to `log` (created if missing).
    pub(crate) fn spawn_logged(mut self, log: &Path) -> Result<Child> {
        let out = fs::OpenOptions::new().create(true).append(true).open(log)?;
        let err = out.try_clone()?;
        Ok(self
            .command
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", self.shown))?)
    }

    /// Runs with stdout and stderr appended to `log` (created if missing); an error unless
    /// it exits with 0.
    pub(crate) fn run_logged(self, log: &Path) -> Result<()> {
        let shown = self.shown.clone();
        check(&shown, self.spawn_logged(log)?.wait()?)
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

    /// Runs with stdout and stderr written to `log`, from the workspace root, and
    /// measures it: its wall time, and the CPU time it and every descendant it waited for
    /// used. The CPU time is read from `/proc/PID/stat` (Linux) once the command has
    /// exited and before it is reaped, so that commands measured in parallel do not mix.
    pub(crate) fn run_measured(mut self, log: &Path) -> Result<Measured> {
        let log_file = fs::File::create(log)?;
        self.command
            .current_dir(workspace::root())
            .stdout(log_file.try_clone()?)
            .stderr(log_file)
            .stdin(Stdio::null());
        let started = Instant::now();
        let mut child = self
            .command
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", self.shown))?;
        let stat = format!("/proc/{}/stat", child.id());
        let mut cpu = None;
        // Until it is a zombie: then its figures are final and still readable.
        while let Ok(text) = fs::read_to_string(&stat) {
            if let Some(seconds) = exited_cpu_seconds(&text) {
                cpu = Some(Duration::from_secs_f64(seconds));
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let status = child.wait()?;
        Ok(Measured {
            status,
            wall: started.elapsed(),
            cpu,
        })
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

/// The CPU seconds of an exited process and of the descendants it waited for, from the
/// text of its `/proc/PID/stat` (`utime`, `stime`, `cutime`, `cstime`, in `USER_HZ`
/// ticks, which Linux fixes at 100 for user space); `None` while it still runs.
fn exited_cpu_seconds(stat: &str) -> Option<f64> {
    const USER_HZ: f64 = 100.0;
    // The command name (field 2) may hold spaces; the fields after it start past the ')'.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Field 3 (state) is fields[0]; utime, stime, cutime and cstime are fields 14 to 17.
    if fields.first() != Some(&"Z") {
        return None;
    }
    let ticks: f64 = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<f64>().ok())
        .sum::<Option<f64>>()?;
    Some(ticks / USER_HZ)
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

    /// Records a step that ran elsewhere (its own output already shown) and took `took`.
    pub(crate) fn record(&mut self, name: &str, took: Duration, ok: bool) {
        self.done.push((name.to_owned(), took, ok));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_niced_command_keeps_its_arguments_environment_and_directory() {
        let dir = std::env::temp_dir();
        let cmd = Cmd::new("sh")
            .args(["-c", "printf '%s %s' \"$XTASK_NICED\" \"$(pwd)\""])
            .env("XTASK_NICED", "kept")
            .dir(&dir)
            .niced();
        let nice = Cmd::new("nice").arg("true").succeeds_quietly();
        assert_eq!(
            cmd.shown().starts_with("nice -n 10 "),
            nice,
            "{}",
            cmd.shown()
        );
        let out = cmd.read_stdout().expect("sh runs");
        let pwd = fs::canonicalize(&dir).expect("temp dir");
        assert_eq!(out, format!("kept {}", pwd.display()));
    }
}
