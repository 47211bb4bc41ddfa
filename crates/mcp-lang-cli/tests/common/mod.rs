//! Helpers shared by the integration tests that include this module
//! (`mod common;`).

pub(crate) mod python;
