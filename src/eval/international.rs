//! Evaluation weights for international draughts (10x10, flying kings). A king is worth a
//! little over three men; a lone king on the main diagonal draws against three kings.

use super::{Eval, Weights};
use crate::rules::International;

impl Eval for International {
    const WEIGHTS: Weights = Weights {
        man: 100,
        king: 320,
        advance: [0, 2, 4, 6, 8, 11, 15, 21, 30, 0],
        centre: 5,
        back_row: 6,
        runaway: 150,
        king_mobility: 2,
        main_diagonal: 15,
        drive: 6,
        lone_king_holds: 3,
    };
}
