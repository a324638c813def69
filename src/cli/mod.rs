//! One file per subcommand of the command line: its arguments and the `run` function that
//! `main.rs` dispatches to. `hub` and `dxp` have no file: each is one call into the library
//! (the DXP arguments live in `kondavo::protocol::dxp`).

pub mod analyze;
pub mod annotate;
pub mod bench;
pub mod matches;
pub mod perft;
pub mod ratings;
pub mod selfplay;
pub mod show;
pub mod train;
pub mod wdl;
