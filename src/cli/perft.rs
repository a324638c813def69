//! `kondavo perft`: count the leaves of the legal-move tree.

use super::outln;
use clap::{Args, ValueEnum};
use kondavo::error::{Error, Result};
use kondavo::notation;
use kondavo::perft;
use kondavo::position::Position;
use kondavo::rules::Rules;
use kondavo::variant::Variant;
use kondavo::with_rules;

use std::time::Instant;

/// How `kondavo perft` counts capture routes that end alike.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Duplicates {
    /// Capture routes with the same start, end, captured set and result are one move.
    Drop,
    /// Every capture route counts.
    Keep,
}

/// Arguments of `kondavo perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Rule set (international, brazilian, russian, ukrainian, english, italian, spanish,
    /// czech, turkish, killer, breakthrough, antidraughts; add -optional for the
    /// optional-capture option on 8x8).
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// Depth in plies.
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// Start from this position (FEN or Hub string) instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print one line per root move with its count.
    #[arg(long)]
    pub divide: bool,
    /// Duplicate capture routes: drop (one move) or keep (each route counts).
    #[arg(long, value_enum, default_value = "drop")]
    pub duplicates: Duplicates,
    /// Threads (root moves are split among them).
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

/// Runs `kondavo perft`.
pub fn run(a: PerftArgs) -> Result<()> {
    let dedupe = a.duplicates == Duplicates::Drop;
    with_rules!(a.variant, R => run_with::<R>(a.depth, a.fen.as_deref(), a.divide, dedupe, a.threads))
}

fn run_with<R: Rules>(
    depth: u32,
    fen: Option<&str>,
    divide: bool,
    dedupe: bool,
    threads: u32,
) -> Result<()> {
    let pos: Position<R> = match fen {
        Some(f) => notation::parse_position(f)?,
        None => Position::start(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .build()
        .map_err(|e| Error(format!("cannot start {threads} threads: {e}")))?;
    let start = Instant::now();
    let (nodes, lines) = pool.install(|| {
        if depth == 0 {
            (1, Vec::new())
        } else if divide || threads > 1 {
            let per_move = perft::divide(&pos, depth, dedupe, threads > 1);
            let total = per_move.iter().map(|&(_, n)| n).sum();
            (total, per_move)
        } else {
            (perft::perft(&pos, depth, dedupe), Vec::new())
        }
    });
    let secs = start.elapsed().as_secs_f64();
    if divide {
        for (m, n) in lines {
            outln!("{} {}", notation::move_to_native(&pos, m), n);
        }
    }
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    outln!("perft depth={depth} nodes={nodes} time={secs:.3} nps={nps:.0}");
    Ok(())
}
