//! Starting a server that says where it listens: the Streamable HTTP servers
//! of the interop tests (`sep2792_server.py http`, `sep2792_server.mjs http
//! 0`) write `listening URL` as the first line of their stdout once they
//! accept connections.

use std::process::{Command, Stdio};

use crate::process::KillOnDrop;

/// Starts `command`, a server that writes `listening URL` as the first line
/// of its stdout once it accepts connections, and returns it with that URL.
/// Panics, naming `name`, when it does not start or does not say so within
/// `timeout`.
pub(crate) fn start_listening(
    mut command: Command,
    name: &str,
    timeout: std::time::Duration,
) -> (KillOnDrop, String) {
    command.stdin(Stdio::null()).stdout(Stdio::piped());
    let mut child = KillOnDrop(
        command
            .spawn()
            .unwrap_or_else(|e| panic!("the {name} server did not start: {e}")),
    );
    let stdout = child.0.stdout.take().expect("no stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(timeout).unwrap_or_default();
    let url = line
        .trim()
        .strip_prefix("listening ")
        .unwrap_or_else(|| {
            let exit = child.0.try_wait().ok().flatten();
            panic!("the {name} server did not say where it listens (got {line:?}; exit {exit:?})")
        })
        .to_owned();
    (child, url)
}
