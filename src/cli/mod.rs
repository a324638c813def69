//! One file per subcommand of the command line: its arguments and the `run` function that
//! `main.rs` dispatches to. `hub` and `dxp` have no file: each is one call into the library
//! (the DXP arguments live in `kondavo::protocol::dxp`).

pub mod analyze;
pub mod annotate;
pub mod bench;
pub mod book;
pub mod calibrate;
pub mod egdb;
pub mod matches;
pub mod perft;
pub mod ratings;
pub mod selfplay;
pub mod show;
pub mod train;
pub mod wdl;
pub mod weights;

/// Writes to standard output, as `print!` does. When the reader has gone (`kondavo … | head`),
/// the program ends at once, quietly and with success, as Unix filters do: neither a panic nor
/// work on for nobody. Any other write error ends it with the error on standard error.
pub fn emit(args: std::fmt::Arguments) {
    use std::io::Write as _;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        end_if_closed(&e);
        eprintln!("kondavo: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// Ends the program quietly, with success, if `e` says that the reader of standard output has
/// gone (see [`emit`]).
pub fn end_if_closed(e: &std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
}

/// `print!` through [`emit`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::emit(format_args!($($arg)*)) };
}

/// `println!` through [`emit`].
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::emit(format_args!("{}\n", format_args!($($arg)*))) };
}
pub(crate) use {out, outln};

/// A progress bar of `len` steps on standard error when it is a terminal (hidden otherwise,
/// so that pipes and logs stay clean).
pub fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
