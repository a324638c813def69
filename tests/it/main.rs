//! The integration tests, as one test binary.
//!
//! Every file here was its own binary under `tests/` until one binary was cheaper: each test
//! binary is linked with the release profile's fat LTO, and 22 such links took most of CI's
//! compile time. Run one group with a filter on its module, e.g.
//! `cargo test --release --test it search::` or `cargo test --release --test it egdb::`.
//!
//! The timed games through pydraughts are the other binary, `tests/clock`: there every test
//! has the machine to itself, which a clock needs.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common_wins/mod.rs"]
mod common_wins;
#[path = "../pyvenv/mod.rs"]
mod pyvenv;

mod annotate;
mod book;
mod cli;
mod dxp;
mod dxp_properties;
mod egdb;
mod eval_model;
mod hub;
mod hub_properties;
mod learn_pipeline;
mod levels;
mod matches;
mod notation;
mod perft;
mod properties;
mod pydraughts_diff;
mod pydraughts_pdn;
mod rules;
mod search;
mod search_wins;
