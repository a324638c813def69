//! Evaluation weights for brazilian draughts (8x8, flying kings): a king is worth about three men,
//! and a lone king draws against two kings.

use super::{Eval, Weights};
use crate::rules::Brazilian;

impl Eval for Brazilian {
    const WEIGHTS: Weights = Weights {
        man: 100,
        king: 300,
        advance: [0, 3, 6, 10, 14, 20, 30, 0, 0, 0],
        centre: 6,
        back_row: 8,
        runaway: 150,
        king_mobility: 3,
        main_diagonal: 20,
        drive: 8,
        lone_king_holds: 2,
    };
}
