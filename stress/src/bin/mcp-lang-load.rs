//! `mcp-lang-load`: N concurrent clients on loopback against the SEP-2792
//! reference server, each request with its own random preference, every answer
//! checked (see `mcp_lang_stress::load`).
//!
//! ```text
//! mcp-lang-load [--clients N] [--requests N] [--seed N] [--url http://127.0.0.1:PORT/mcp]
//! ```
//!
//! Without `--url` it starts the reference server in this process twice, with
//! and without `mcp-lang-http`'s tower layer, and loads each in turn (same
//! run, same seed). With `--url` it loads that server (e.g. `mcp-lang serve
//! --http`), which must be on 127.0.0.1 and have the layer in front. It prints
//! a Markdown table and exits non-zero on any error or mismatched variant.

use std::{net::SocketAddr, process::ExitCode, sync::Arc};

use mcp_lang_stress::{
    Expectation,
    load::{self, LoadConfig, TABLE_HEADER},
    servers::{self, Stack},
};

struct Options {
    config: LoadConfig,
    url: Option<(SocketAddr, String)>,
}

fn parse_args() -> Result<Options, String> {
    let mut config = LoadConfig::default();
    let mut url = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--clients" => {
                config.clients = value()?.parse().map_err(|e| format!("--clients: {e}"))?
            }
            "--requests" => {
                config.requests_per_client =
                    value()?.parse().map_err(|e| format!("--requests: {e}"))?
            }
            "--seed" => config.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--url" => url = Some(parse_url(&value()?)?),
            "-h" | "--help" => {
                return Err("usage: mcp-lang-load [--clients N] [--requests N per client] [--seed N] [--url http://127.0.0.1:PORT/mcp]".into());
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    if config.clients == 0 || config.requests_per_client == 0 {
        return Err("--clients and --requests must be at least 1".into());
    }
    Ok(Options { config, url })
}

/// `http://127.0.0.1:PORT/PATH` only: the generator never leaves loopback.
fn parse_url(url: &str) -> Result<(SocketAddr, String), String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or("--url must start with http://")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let addr: SocketAddr = authority.parse().map_err(|e| format!("--url: {e}"))?;
    if !addr.ip().is_loopback() {
        return Err("--url must be a loopback address (127.0.0.1 or [::1])".into());
    }
    let path = if path.is_empty() { "/mcp" } else { path };
    Ok((addr, path.to_owned()))
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("mcp-lang-load: {message}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("mcp-lang-load: {error}");
            return ExitCode::FAILURE;
        }
    };
    let clean = runtime.block_on(async move {
        let expectation = match Expectation::for_reference_server() {
            Ok(expectation) => Arc::new(expectation),
            Err(error) => {
                eprintln!("mcp-lang-load: {error}");
                return false;
            }
        };
        let config = options.config;
        println!(
            "{} clients x {} requests, seed {}, every {}th request header-stripped, every {}th without a preference",
            config.clients, config.requests_per_client, config.seed, config.stripped_every, config.absent_every
        );
        println!("{TABLE_HEADER}");
        let mut clean = true;
        let mut runs: Vec<(String, load::LoadReport)> = Vec::new();
        if let Some((addr, path)) = options.url {
            let report = load::run(addr, &path, config, Arc::clone(&expectation)).await;
            runs.push((format!("{addr}{path}"), report));
        } else {
            for stack in [Stack::Layer, Stack::Bare] {
                let server = match servers::start(stack).await {
                    Ok(server) => server,
                    Err(error) => {
                        eprintln!("mcp-lang-load: cannot start the {} server: {error}", stack.name());
                        return false;
                    }
                };
                let config = LoadConfig {
                    check_headers: stack == Stack::Layer,
                    ..config
                };
                let report = load::run(server.addr(), servers::PATH, config, Arc::clone(&expectation)).await;
                server.shutdown().await;
                runs.push((stack.name().to_owned(), report));
            }
        }
        for (label, report) in &runs {
            println!("{}", load::table_row(label, report));
        }
        for (label, report) in &runs {
            for problem in &report.problems {
                eprintln!("{label}: {problem}");
            }
            clean &= report.errors == 0 && report.mismatches == 0;
        }
        clean
    });
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
