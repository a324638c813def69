//! The protocols: Hub (version 2) on standard input and output. `hub` holds the pure line
//! parser and formatter; `session` runs the loop that turns lines into engine calls and
//! search events into lines. `dxp` is the DamExchange protocol over TCP (engine against
//! engine). Nothing else in the crate writes to standard output.

pub mod dxp;
pub mod hub;
pub mod session;
