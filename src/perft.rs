//! Perft: counting the leaf nodes of the legal-move tree, the proof of a move generator.
//!
//! Leaves are counted in bulk at the last ply (the number of legal moves, without playing
//! them). `dedupe = false` counts every capture route separately (the "keep" convention).

use crate::movegen;
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;
use rayon::prelude::*;

/// Leaf nodes at exactly `depth` plies from `pos`.
pub fn perft<R: Rules>(pos: &Position<R>, depth: u32, dedupe: bool) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_moves(pos, dedupe),
        _ => {
            let mut list = MoveList::new();
            movegen::captures(pos, &mut list, dedupe);
            let mut total: u64 =
                list.iter().map(|&m| perft(&pos.after_unkeyed(m), depth - 1, dedupe)).sum();
            if R::OPTIONAL_CAPTURE || list.is_empty() {
                // Quiet moves are played as they are generated, without a list.
                movegen::for_each_quiet(pos, |m| {
                    total += perft(&pos.after_unkeyed(m), depth - 1, dedupe);
                });
            }
            total
        }
    }
}

/// Perft split by root move: each legal move with its count, in generation order. With
/// `parallel`, root moves are counted on rayon's thread pool.
pub fn divide<R: Rules>(
    pos: &Position<R>,
    depth: u32,
    dedupe: bool,
    parallel: bool,
) -> Vec<(crate::moves::Move, u64)> {
    let mut list = MoveList::new();
    movegen::generate_with(pos, &mut list, dedupe);
    let count = |m: &crate::moves::Move| {
        let n = if depth <= 1 { 1 } else { perft(&pos.after_unkeyed(*m), depth - 1, dedupe) };
        (*m, n)
    };
    if parallel { list.par_iter().map(count).collect() } else { list.iter().map(count).collect() }
}
