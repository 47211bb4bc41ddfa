//! The `--callgrind` hook every bench executable of this package offers, for instruction
//! counts that the machine's load cannot blur.
//!
//! - `BENCH --callgrind list` prints one line per operation: its id (`group/function`, the
//!   criterion id, e.g. `parse/typical/mcp-lang`), then, after a tab, the size of its input
//!   in bytes when it has one;
//! - `BENCH --callgrind ID N` runs that operation once (a warm-up: lazy initialisation and
//!   first allocations are not counted), then `N` times inside [`callgrind_loop`], and exits
//!   without running criterion.
//!
//! Under `valgrind --tool=callgrind --toggle-collect='*callgrind_loop*'` only the loop is
//! counted, so its total `Ir` divided by `N` is the instruction count of one operation
//! (the loop's own increment and indirect call add a few instructions to each):
//!
//! ```text
//! valgrind --tool=callgrind --toggle-collect='*callgrind_loop*' \
//!     target/release/deps/grammar-HASH --callgrind parse/typical/mcp-lang 1000
//! ```
//!
//! `cargo xtask bench` counts every id this way; `cargo xtask callgrind` counts the gated
//! ones and compares them with the committed baselines.

use std::hint::black_box;

/// One operation the hook can count: an id, the size of its input, and a closure that
/// runs it once and returns something derived from its result (so that the optimizer
/// keeps the work).
pub struct Operation<'a> {
    id: String,
    bytes: Option<usize>,
    run: Box<dyn FnMut() -> usize + 'a>,
}

impl<'a> Operation<'a> {
    /// An operation with id `id` (`group/function`) on an input of `bytes` bytes.
    ///
    /// ```
    /// use mcp_lang_benches::callgrind::Operation;
    ///
    /// let input = "fr-CA,fr;q=0.9";
    /// let op = Operation::new("count/commas/mcp-lang", Some(input.len()), || {
    ///     input.bytes().filter(|&b| b == b',').count()
    /// });
    /// assert_eq!(op.id(), "count/commas/mcp-lang");
    /// ```
    pub fn new(
        id: impl Into<String>,
        bytes: Option<usize>,
        run: impl FnMut() -> usize + 'a,
    ) -> Self {
        Operation {
            id: id.into(),
            bytes,
            run: Box::new(run),
        }
    }

    /// The operation's id.
    ///
    /// ```
    /// use mcp_lang_benches::callgrind::Operation;
    ///
    /// assert_eq!(Operation::new("a/b/c", None, || 0).id(), "a/b/c");
    /// ```
    pub fn id(&self) -> &str {
        &self.id
    }
}

/// What the command line asked of the hook.
#[derive(Debug, PartialEq, Eq)]
pub enum Request {
    /// `--callgrind list`.
    List,
    /// `--callgrind ID N`.
    Count {
        /// The operation's id.
        id: String,
        /// How many times to run it inside [`callgrind_loop`].
        iterations: u64,
    },
}

/// Reads `--callgrind …` from `args` (the whole command line); `None` when it is not
/// there, so that the executable runs criterion.
///
/// ```
/// use mcp_lang_benches::callgrind::{Request, request};
///
/// let args = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
/// assert_eq!(request(&args("bench --bench")), Ok(None));
/// assert_eq!(request(&args("bench --callgrind list")), Ok(Some(Request::List)));
/// assert_eq!(
///     request(&args("bench --callgrind agree/one-line/mcp-lang 500")),
///     Ok(Some(Request::Count { id: "agree/one-line/mcp-lang".into(), iterations: 500 }))
/// );
/// assert!(request(&args("bench --callgrind agree/one-line/mcp-lang")).is_err());
/// ```
pub fn request(args: &[String]) -> Result<Option<Request>, String> {
    let Some(at) = args.iter().position(|a| a == "--callgrind") else {
        return Ok(None);
    };
    let arg = |i: usize| args.get(at + i).map(String::as_str);
    match (arg(1), arg(2)) {
        (Some("list"), _) => Ok(Some(Request::List)),
        (Some(id), Some(n)) => match n.parse() {
            Ok(iterations) => Ok(Some(Request::Count {
                id: id.to_owned(),
                iterations,
            })),
            Err(_) => Err(format!("--callgrind {id} {n}: N is not a number")),
        },
        _ => Err("usage: --callgrind list | --callgrind ID N".to_owned()),
    }
}

/// The hook: when the command line has `--callgrind …`, builds the operations, does what
/// was asked and returns `true` (the caller then exits); otherwise returns `false` without
/// building anything. An unknown id or a malformed request ends the process with an
/// error.
pub fn hook<'a>(operations: impl FnOnce() -> Vec<Operation<'a>>) -> bool {
    let args: Vec<String> = std::env::args().collect();
    let request = match request(&args) {
        Ok(Some(request)) => request,
        Ok(None) => return false,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let mut operations = operations();
    match request {
        Request::List => {
            for op in &operations {
                match op.bytes {
                    Some(bytes) => println!("{}\t{bytes}", op.id),
                    None => println!("{}", op.id),
                }
            }
        }
        Request::Count { id, iterations } => {
            let Some(op) = operations.iter_mut().find(|op| op.id == id) else {
                eprintln!("unknown id {id:?} (`--callgrind list` prints the ids)");
                std::process::exit(2);
            };
            black_box((op.run)());
            black_box(callgrind_loop(&mut op.run, iterations));
        }
    }
    true
}

/// Runs `run` `iterations` times; callgrind collects only in here.
#[inline(never)]
pub fn callgrind_loop(run: &mut dyn FnMut() -> usize, iterations: u64) -> usize {
    let mut sum = 0usize;
    for _ in 0..iterations {
        sum = sum.wrapping_add(black_box(run()));
    }
    sum
}
