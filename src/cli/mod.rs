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
