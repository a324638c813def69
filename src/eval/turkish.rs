//! Evaluation weights for turkish draughts (orthogonal, rook-like kings): a king is worth
//! several men; men gain by advancing (they move sideways, so there is no runaway cone) and
//! kings by the lines they command.

use super::{Eval, Weights};
use crate::rules::Turkish;

impl Eval for Turkish {
    const WEIGHTS: Weights = Weights {
        man: 100,
        king: 350,
        advance: [0, 0, 3, 6, 10, 16, 26, 0, 0, 0],
        centre: 4,
        back_row: 0,
        runaway: 0,
        king_mobility: 3,
        main_diagonal: 0,
        drive: 8,
        lone_king_holds: 1,
    };
}
