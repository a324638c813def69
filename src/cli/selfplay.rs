//! `kondavo selfplay`: training data from games of the engine against itself.

use super::outln;
use clap::Args;
use kondavo::error::{Error, Result};
use kondavo::eval;
use kondavo::learn::selfplay::{self, Config};
use kondavo::matches::openings;
use kondavo::variant::Variant;
use std::path::PathBuf;

/// Arguments of `kondavo selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// Games in the file when the run ends (a rerun of the same command resumes).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub nodes: u64,
    /// Games played at once (one thread each).
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Seed of the opening choice and random plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Openings (PDN games or one FEN per line) instead of the built-in ones.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// At most this many random plies after the opening.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Keep a start only when a search finds it within this many centi-men of equal.
    #[arg(long, default_value_t = 60)]
    pub balance: i32,
    /// Adjudicate a win when the score stays beyond this many centi-men for 4 plies.
    #[arg(long, default_value_t = 400)]
    pub win_score: i32,
    /// Adjudicate a draw when the score stays within 0.08 for this many plies after ply 60
    /// (0: never).
    #[arg(long, default_value_t = 40)]
    pub draw_plies: u32,
    /// A game still running at this ply is a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Keep a position only when its static evaluation is within this many centi-men of the
    /// search score (default: every quiet position).
    #[arg(long)]
    pub max_gap: Option<i32>,
    /// Play with this weights file instead of the built-in evaluation (`hand`: the rule set's
    /// hand-set evaluation, as the first generation of a new rule set plays).
    #[arg(long)]
    pub eval: Option<PathBuf>,
    /// Output file (appended to when it was made by the same settings).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `kondavo selfplay`.
pub fn run(a: SelfplayArgs) -> Result<()> {
    let (model, eval_name) = match &a.eval {
        Some(path) if path.as_os_str() == eval::HAND => (None, eval::HAND.to_string()),
        Some(path) => (Some(eval::load_model(a.variant.base, path)?), path.display().to_string()),
        None => {
            let m = eval::builtin_model(a.variant.base);
            let name = if m.is_some() { "builtin" } else { "hand" };
            (m, name.to_string())
        }
    };
    let (list, openings_name) = match &a.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
            (openings::from_file(&text, a.variant)?, path.display().to_string())
        }
        None => (openings::builtin(a.variant)?, "builtin".to_string()),
    };
    let cfg = Config {
        variant: a.variant,
        games: a.games,
        nodes: a.nodes,
        threads: a.threads as usize,
        seed: a.seed,
        openings: list,
        openings_name,
        random_plies: a.random_plies,
        balance: a.balance,
        win_score: a.win_score,
        draw_plies: a.draw_plies,
        max_plies: a.max_plies,
        max_gap: a.max_gap,
        model,
        eval_name,
        out: a.out.clone(),
    };
    let bar = super::progress_bar(
        u64::from(a.games),
        "{bar:30} {pos}/{len} games {per_sec} eta {eta} {msg}",
    );
    let summary = selfplay::run(&cfg, &|games, positions| {
        bar.set_position(games);
        bar.set_message(format!("{positions} positions"));
    })?;
    bar.finish_and_clear();
    let [w, d, l] = summary.results;
    outln!(
        "selfplay variant={} games={} played={} positions={} white-wins={w} draws={d} \
         black-wins={l} adjudicated={} time={:.1} games/s={:.2} file={}",
        a.variant,
        summary.games,
        summary.played,
        summary.positions,
        summary.adjudicated,
        summary.seconds,
        summary.played as f64 / summary.seconds.max(1e-9),
        a.out.display()
    );
    Ok(())
}
