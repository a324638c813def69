//! Evaluation for frisian draughts and frysk! (10x10, flying kings, orthogonal captures,
//! capture by value). The international terms with frisian weights, and one term of its own:
//!
//! - A king is worth less than in international: the capture rules value it below two men
//!   (a capture of two men outranks one of a king), it moves only diagonally, and the same
//!   king may make only three quiet moves in a row while its side has men.
//! - Orthogonal exposure: a piece with an enemy man beside it along a row or column (the
//!   next playable square of the line) and an empty square on the other side can be taken
//!   by an orthogonal jump; each such line costs a little. Pieces side by side in a row or
//!   one behind another in a column cover each other against it, which is the frisian way
//!   of keeping a formation tight.
//!
//! Frysk! starts with five men each; it shares these weights.

use super::{Eval, Weights, hand_score};
use crate::color::Color;
use crate::geometry::{Geometry, opposite};
use crate::position::Position;
use crate::rules::{Frisian, Frysk, Rules};

/// Cost of each orthogonal line along which a piece can be jumped (centi-men).
const EXPOSED: i32 = 8;

const FRISIAN: Weights = Weights {
    man: 100,
    king: 180,
    advance: [0, 2, 4, 6, 8, 11, 15, 21, 30, 0],
    centre: 5,
    back_row: 8,
    runaway: 150,
    king_mobility: 2,
    main_diagonal: 10,
    drive: 6,
    lone_king_holds: 2,
};

/// Pieces of colour `c` that an enemy man could take by an orthogonal jump, counted once per
/// line (up to four per piece).
fn exposed<R: Rules>(pos: &Position<R>, c: Color) -> i32 {
    let mine = pos.pieces(c).0;
    let attackers = pos.men(!c).0;
    let empty = pos.empty().0;
    let mut n = 0;
    for d in 4..8 {
        // An attacker one step before the piece (in direction d) and an empty square one
        // step after it.
        let hit = R::Geo::cstep(crate::bitboard::Bitboard(attackers), d).0
            & R::Geo::cstep(crate::bitboard::Bitboard(empty), opposite(d)).0
            & mine;
        n += hit.count_ones() as i32;
    }
    n
}

/// The frisian hand evaluation for White.
fn score<R: Eval>(pos: &Position<R>) -> i32 {
    hand_score(pos) - EXPOSED * (exposed(pos, Color::White) - exposed(pos, Color::Black))
}

impl Eval for Frisian {
    const WEIGHTS: Weights = FRISIAN;

    fn hand(pos: &Position<Self>) -> i32 {
        score(pos)
    }
}

impl Eval for Frysk {
    const WEIGHTS: Weights = FRISIAN;

    fn hand(pos: &Position<Self>) -> i32 {
        score(pos)
    }
}
