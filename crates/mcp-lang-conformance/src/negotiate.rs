//! Which protocol version a connection speaks.
//!
//! Unless told a version (`--protocol`), the suite negotiates as an MCP
//! client does: it offers the newest version it speaks, 2026-07-28, with a
//! `server/discover` request carrying that version in `_meta` (and, on
//! Streamable HTTP, in `MCP-Protocol-Version`), and continues on the newest
//! version both sides speak:
//!
//! - a `server/discover` result: its `supportedVersions` decide (the offered
//!   version when it is listed or when the list is missing);
//! - an "unsupported protocol version" error (-32022) names the versions the
//!   server supports in `error.data.supported`: the newest the suite also
//!   speaks is offered next;
//! - any other JSON-RPC error (a server before 2026-07-28 answers
//!   `server/discover` with -32601 "Method not found", or on Streamable HTTP
//!   refuses the version header with a 400), or an HTTP 4xx other than 401
//!   and 403: the server predates `server/discover`, and the `initialize`
//!   handshake follows, proposing the newest handshake version the suite
//!   speaks (one the refusal names, when it names one). The server's answer
//!   names the version of the run.
//!
//! What each request got is recorded, a line each, for the report.

use serde_json::Value;

use crate::report::ProtocolNote;
use crate::scenario::Connection;
use crate::wire::{
    Call, Exchange, PROTOCOL_HANDSHAKE, PROTOCOLS_SPOKEN, WireError, is_stateless,
    newest_in_common, versions_named,
};

/// The JSON-RPC code of "unsupported protocol version" (2026-07-28).
const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

fn set_protocol(connection: &mut Connection, protocol: &str) {
    match connection {
        Connection::Stdio(c) => c.set_protocol(protocol),
        Connection::Http(c) => c.set_protocol(protocol),
    }
}

async fn send(connection: &mut Connection, call: &Call) -> Result<Exchange, WireError> {
    match connection {
        Connection::Stdio(c) => c.send(call).await,
        Connection::Http(c) => c.send(call).await,
    }
}

async fn initialize(connection: &mut Connection) -> Result<Exchange, WireError> {
    match connection {
        Connection::Stdio(c) => c.initialize().await,
        Connection::Http(c) => c.initialize().await,
    }
}

/// The error a server refused a request with: the response's, or, on
/// Streamable HTTP, one sent before the request was read (`"id": null`).
fn refusal(exchange: &Exchange) -> Option<&Value> {
    exchange.error().or_else(|| {
        exchange
            .messages
            .iter()
            .filter(|m| m.get("id").is_none_or(Value::is_null))
            .find_map(|m| m.get("error"))
    })
}

/// What an exchange got, in a line: `HTTP 400; -32000 "Bad Request: …"`.
fn got(exchange: &Exchange) -> String {
    let status = exchange
        .status
        .map(|s| format!("HTTP {s}; "))
        .unwrap_or_default();
    match (exchange.result(), refusal(exchange)) {
        (Some(result), _) => match result.get("supportedVersions") {
            Some(versions) => format!("{status}a result with supportedVersions {versions}"),
            None => format!("{status}a result without supportedVersions"),
        },
        (None, Some(error)) => {
            let code = error
                .get("code")
                .map_or_else(|| "an error without a code".to_owned(), Value::to_string);
            let message = error
                .get("message")
                .map(|m| format!(" {m}"))
                .unwrap_or_default();
            format!("{status}{code}{message}")
        }
        (None, None) => exchange.summary(),
    }
}

/// The strings of a JSON array (protocol versions).
fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Opens `connection` on the protocol `forced` names, or on the one it
/// negotiates, recording in `note` what was offered, what each request got
/// and the version of the run.
///
/// # Errors
///
/// A request failed on the wire, the server answered nothing MCP, or no
/// version both sides speak could be established: the error says which,
/// and `note.tried` what was tried.
pub(crate) async fn open(
    connection: &mut Connection,
    forced: Option<&str>,
    note: &mut ProtocolNote,
) -> Result<(), String> {
    match forced {
        Some(version) => open_forced(connection, version, note).await,
        None => negotiate(connection, note).await,
    }
}

async fn open_forced(
    connection: &mut Connection,
    version: &str,
    note: &mut ProtocolNote,
) -> Result<(), String> {
    note.forced = true;
    version.clone_into(&mut note.offered);
    if versions_named(version) != [version] {
        return Err(format!(
            "--protocol takes a protocol version such as {PROTOCOL_HANDSHAKE} (YYYY-MM-DD), not `{version}`"
        ));
    }
    set_protocol(connection, version);
    if is_stateless(version) {
        note.tried.push(format!(
            "{version} as --protocol asks (stateless: no handshake)"
        ));
        note.version = Some(version.to_owned());
        return Ok(());
    }
    let exchange = match initialize(connection).await {
        Ok(exchange) => exchange,
        Err(e) => {
            let failed = format!("initialize proposing {version} failed on the wire: {e}");
            note.tried.push(failed.clone());
            return Err(failed);
        }
    };
    let Some(result) = exchange.result() else {
        note.tried.push(format!(
            "initialize proposing {version}: {}",
            got(&exchange)
        ));
        return Err(format!("initialize failed: {}", exchange.summary()));
    };
    let answered = result
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or("no protocolVersion")
        .to_owned();
    note.tried.push(format!(
        "initialize proposing {version}: the server answered {answered}"
    ));
    if answered != version {
        note.tried.push(format!(
            "the run speaks {version} all the same, as --protocol asks"
        ));
    }
    note.version = Some(version.to_owned());
    Ok(())
}

async fn negotiate(connection: &mut Connection, note: &mut ProtocolNote) -> Result<(), String> {
    let newest = PROTOCOLS_SPOKEN[0];
    newest.clone_into(&mut note.offered);
    let mut candidate = newest;
    let mut offered: Vec<&str> = Vec::new();
    loop {
        offered.push(candidate);
        set_protocol(connection, candidate);
        let exchange = match send(connection, &Call::new("server/discover")).await {
            Ok(exchange) => exchange,
            Err(e) => {
                let failed = format!("server/discover under {candidate} failed on the wire: {e}");
                note.tried.push(failed.clone());
                return Err(failed);
            }
        };
        note.tried.push(format!(
            "server/discover under {candidate}: {}",
            got(&exchange)
        ));
        let next = if let Some(result) = exchange.result() {
            let theirs = strings(result.get("supportedVersions"));
            if theirs.is_empty() || theirs.iter().any(|t| t == candidate) {
                note.version = Some(candidate.to_owned());
                return Ok(());
            }
            newest_in_common(&theirs).ok_or_else(|| no_common(&theirs))?
        } else if let Some(error) = refusal(&exchange) {
            let code = error.get("code").and_then(Value::as_i64);
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if code == Some(UNSUPPORTED_PROTOCOL_VERSION) {
                let mut theirs = strings(error.pointer("/data/supported"));
                if theirs.is_empty() {
                    theirs = versions_named(message);
                }
                newest_in_common(&theirs).ok_or_else(|| no_common(&theirs))?
            } else if matches!(exchange.status, Some(401 | 403)) {
                return Err(format!(
                    "the server refused server/discover: {}",
                    exchange.summary()
                ));
            } else {
                // A server before 2026-07-28: it does not know
                // server/discover, or refuses the version outright.
                legacy_version(message)
            }
        } else if exchange
            .status
            .is_some_and(|s| (400..500).contains(&s) && s != 401 && s != 403)
        {
            legacy_version("")
        } else {
            return Err(format!(
                "the target does not answer MCP: server/discover got {}",
                exchange.summary()
            ));
        };
        if offered.contains(&next) {
            return Err(format!(
                "the server refused {next}, then named it as a version it supports"
            ));
        }
        if is_stateless(next) {
            candidate = next;
            continue;
        }
        return handshake(connection, next, note).await;
    }
}

/// The handshake version to propose to a server that refused
/// `server/discover`: the newest one the suite speaks among those its
/// refusal names, else the suite's newest.
fn legacy_version(refusal: &str) -> &'static str {
    let named: Vec<String> = versions_named(refusal)
        .into_iter()
        .filter(|v| !is_stateless(v))
        .collect();
    newest_in_common(&named).unwrap_or(PROTOCOL_HANDSHAKE)
}

fn no_common(theirs: &[String]) -> String {
    format!(
        "the server supports protocol version(s) {}, none of which the suite speaks ({}); pass --protocol VERSION to run on one of them anyway",
        if theirs.is_empty() {
            "it did not name".to_owned()
        } else {
            theirs.join(", ")
        },
        PROTOCOLS_SPOKEN.join(", ")
    )
}

async fn handshake(
    connection: &mut Connection,
    version: &'static str,
    note: &mut ProtocolNote,
) -> Result<(), String> {
    set_protocol(connection, version);
    let exchange = match initialize(connection).await {
        Ok(exchange) => exchange,
        Err(e) => {
            let failed = format!("initialize proposing {version} failed on the wire: {e}");
            note.tried.push(failed.clone());
            return Err(failed);
        }
    };
    let Some(result) = exchange.result() else {
        note.tried.push(format!(
            "initialize proposing {version}: {}",
            got(&exchange)
        ));
        return Err(format!(
            "the target does not answer MCP: it answered neither server/discover nor initialize (initialize got {})",
            exchange.summary()
        ));
    };
    let Some(answered) = result.get("protocolVersion").and_then(Value::as_str) else {
        note.tried.push(format!(
            "initialize proposing {version}: a result without protocolVersion"
        ));
        return Err(format!(
            "the server answered initialize without a protocolVersion: {}",
            exchange.summary()
        ));
    };
    note.tried.push(format!(
        "initialize proposing {version}: the server answered {answered}"
    ));
    let Some(spoken) = PROTOCOLS_SPOKEN.iter().copied().find(|v| *v == answered) else {
        return Err(format!(
            "the server answered initialize with protocol version {answered}, which the suite does not speak ({}); pass --protocol {answered} to run on it anyway",
            PROTOCOLS_SPOKEN.join(", ")
        ));
    };
    set_protocol(connection, spoken);
    note.version = Some(spoken.to_owned());
    Ok(())
}
