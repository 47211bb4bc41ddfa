//! The SEP-2792 reference server (work in progress).
