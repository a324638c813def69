//! `kondavo ratings`: a rating list from PDN files.

use super::outln;
use clap::Args;
use kondavo::error::{Error, Result};
use kondavo::matches::ratings::{rate, rated_games};
use kondavo::variant::Variant;

use std::path::PathBuf;

/// Arguments of `kondavo ratings`.
#[derive(Args, Debug)]
pub struct RatingsArgs {
    /// Rule set of the games to rate (others in the files are skipped).
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// Weight of the virtual draw against the pool's average that keeps perfect scores finite.
    #[arg(long, default_value_t = 0.5)]
    pub prior: f64,
    /// PDN files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Runs `kondavo ratings`.
pub fn run(args: RatingsArgs) -> Result<()> {
    let RatingsArgs { variant, prior, files } = args;
    if !prior.is_finite() || prior < 0.0 {
        return Err(Error(format!("--prior must be zero or positive, not {prior}")));
    }
    let mut games = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Error(format!("cannot read {}: {e}", f.display())))?;
        games.extend(rated_games(&text, variant)?);
    }
    if games.is_empty() {
        return Err(Error(format!("no finished {variant} games in the files")));
    }
    let list = rate(&games, prior);
    outln!("rating list {variant}: {} games, {} players", games.len(), list.len());
    outln!("{:>4}  {:<24} {:>8} {:>7} {:>6} {:>7}", "rank", "name", "elo", "+/-", "games", "score");
    for (i, r) in list.iter().enumerate() {
        outln!(
            "{:>4}  {:<24} {:>8.1} {:>7.1} {:>6} {:>6.1}%",
            i + 1,
            r.name,
            r.elo,
            r.error,
            r.games,
            100.0 * r.points / r.games.max(1) as f64
        );
    }
    Ok(())
}
