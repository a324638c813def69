//! The tests that play on a real clock: complete games through pydraughts' Hub and DXP
//! clients.
//!
//! They are a binary of their own so that no other test runs beside them (`cargo test` runs
//! test binaries one after another), and within it they take turns (`MACHINE`): a clock
//! shared with another test's search would mostly measure that test. The other integration
//! tests are `tests/it`.

#[path = "../pyvenv/mod.rs"]
mod pyvenv;

mod pydraughts_dxp;
mod pydraughts_games;

use std::sync::Mutex;

/// One timed run at a time, across both modules: a test holds it for its whole script.
static MACHINE: Mutex<()> = Mutex::new(());
