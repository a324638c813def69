//! Evaluation weights for italian draughts (short kings that men cannot capture): a king is
//! worth well over a man because men can never take it.

use super::{Eval, Weights};
use crate::rules::Italian;

impl Eval for Italian {
    const WEIGHTS: Weights = Weights {
        man: 100,
        king: 170,
        advance: [0, 2, 4, 7, 10, 14, 20, 0, 0, 0],
        centre: 6,
        back_row: 10,
        runaway: 70,
        king_mobility: 4,
        main_diagonal: 0,
        drive: 10,
        lone_king_holds: 1,
    };
}
