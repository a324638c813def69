//! Evaluation weights for english draughts (short kings, men capture forward): a king is
//! worth about 1.4 men, and two kings beat one, so only king against king is held.

use super::{Eval, Weights};
use crate::rules::English;

impl Eval for English {
    const WEIGHTS: Weights = Weights {
        man: 100,
        king: 140,
        advance: [0, 2, 4, 7, 10, 14, 20, 0, 0, 0],
        centre: 6,
        back_row: 10,
        runaway: 60,
        king_mobility: 4,
        main_diagonal: 0,
        drive: 10,
        lone_king_holds: 1,
    };
}
