//! `kondavo show`: a position as players see it, with its keys and legal moves.

use super::{out, outln};
use clap::Args;
use kondavo::error::Result;
use kondavo::notation;
use kondavo::position::Position;
use kondavo::rules::Rules;
use kondavo::variant::Variant;
use kondavo::with_rules;

/// Arguments of `kondavo show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// The position (FEN, Hub string or `start`).
    #[arg(long, default_value = "start")]
    pub fen: String,
    /// Moves to play first (native or Hub notation, separated by spaces).
    #[arg(long)]
    pub moves: Option<String>,
}

/// Runs `kondavo show`.
pub fn run(a: ShowArgs) -> Result<()> {
    with_rules!(a.variant, R => run_with::<R>(&a.fen, a.moves.as_deref()))
}

fn run_with<R: Rules>(fen: &str, moves: Option<&str>) -> Result<()> {
    let mut pos: Position<R> = notation::parse_position(fen)?;
    for m in moves.unwrap_or("").split_whitespace() {
        let mv = notation::parse_move(&pos, m)?;
        pos = pos.after(mv);
    }
    let legal = pos.legal_moves();
    let names: Vec<String> = legal.iter().map(|&m| notation::move_to_native(&pos, m)).collect();
    out!("{}", notation::diagram(&pos));
    outln!("rule set: {}", R::variant());
    outln!("side to move: {}", pos.side());
    outln!("fen: {}", notation::to_fen(&pos));
    outln!("hub: {}", notation::to_hub_position(&pos));
    outln!("key: {:016x}", pos.key());
    outln!("legal moves ({}): {}", names.len(), names.join(" "));
    Ok(())
}
