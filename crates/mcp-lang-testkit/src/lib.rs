//! Test support shared by the mcp-lang crates' tests and benchmarks.
//!
//! The one thing here is [`CountingAllocator`], a global allocator that wraps
//! the system allocator and counts allocations made *by the current thread*
//! while counting is switched on. The workspace's "hot paths do not allocate"
//! claims are proved with it:
//!
//! ```
//! use mcp_lang_testkit::CountingAllocator;
//!
//! #[global_allocator]
//! static ALLOC: CountingAllocator = CountingAllocator::new();
//!
//! let (allocations, sum) = ALLOC.count(|| (1..=10u32).sum::<u32>());
//! assert_eq!(sum, 55);
//! assert_eq!(allocations, 0);
//!
//! let (allocations, v) = ALLOC.count(|| vec![1u8; 16]);
//! assert_eq!(v.len(), 16);
//! assert_eq!(allocations, 1);
//! ```
//!
//! Counting is per thread, so a test harness running other tests in parallel
//! does not disturb the figure.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

/// A global allocator that counts the current thread's allocations (including
/// reallocations) while [`CountingAllocator::count`] runs a closure.
#[derive(Debug, Default)]
pub struct CountingAllocator {
    _private: (),
}

impl CountingAllocator {
    /// A new counting allocator, for use in a `#[global_allocator]` static.
    ///
    /// ```
    /// # use mcp_lang_testkit::CountingAllocator;
    /// #[global_allocator]
    /// static ALLOC: CountingAllocator = CountingAllocator::new();
    /// ```
    pub const fn new() -> Self {
        Self { _private: () }
    }

    /// Runs `f` and returns how many allocations and reallocations the current
    /// thread made while it ran, with its result.
    ///
    /// Only meaningful when this allocator is the `#[global_allocator]`;
    /// otherwise the count is always 0.
    ///
    /// ```
    /// # use mcp_lang_testkit::CountingAllocator;
    /// # #[global_allocator]
    /// # static ALLOC: CountingAllocator = CountingAllocator::new();
    /// let (n, s) = ALLOC.count(|| String::from("allocates"));
    /// assert_eq!((n, s.as_str()), (1, "allocates"));
    /// ```
    pub fn count<T>(&self, f: impl FnOnce() -> T) -> (u64, T) {
        let was = COUNTING.with(|c| c.replace(true));
        let before = COUNT.with(Cell::get);
        let out = f();
        let after = COUNT.with(Cell::get);
        COUNTING.with(|c| c.set(was));
        (after - before, out)
    }
}

fn note_allocation() {
    // `try_with`: thread-locals may already be destroyed during thread exit.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees carry over; the only extra work is
// updating `Cell`s in thread-locals with `const` initialisers, which never
// allocate (so there is no re-entrancy into the allocator).
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged; `ptr` came from `System` via this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded unchanged; `ptr` came from `System` via this allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
