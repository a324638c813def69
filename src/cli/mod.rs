//! One file per subcommand of the command line that has its own arguments (the older ones
//! still live in `main.rs`).

pub mod selfplay;
pub mod train;
