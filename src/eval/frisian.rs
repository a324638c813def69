//! Evaluation for frisian draughts and frysk! (10x10, flying kings, orthogonal captures,
//! capture by value). The international terms with frisian weights, and one term of its own:
//!
//! - A king is worth less than in international: the capture rules value it below two men
//!   (a capture of two men outranks one of a king), it moves only diagonally, and the same
//!   king may make only three quiet moves in a row while its side has men.
//! - Paired men: two men side by side in a row or one behind the other in a column (the
//!   next playable square of the line) cover each other's far side against an orthogonal
//!   jump, the frisian way of keeping a formation tight. Screened at 2000 nodes against
//!   material-only weights (man 100, king 180; `examples/material_model.rs`), 400 games:
//!   +84 Elo with the pair term (8), +82 with 4, +24 without it; +20 with the king at 180
//!   instead of 230, and -19 (200 games) with a term for pieces exposed to an orthogonal
//!   jump in place of the pairs.
//!
//! Frysk! starts with five men each; it shares these weights.

use super::{Eval, Weights, hand_score};
use crate::color::Color;
use crate::geometry::Geometry;
use crate::position::Position;
use crate::rules::{Frisian, Frysk, Rules};

const FRISIAN: Weights = Weights {
    man: 100,
    king: 230,
    advance: [0, 2, 4, 6, 8, 11, 15, 21, 30, 0],
    centre: 5,
    back_row: 8,
    runaway: 150,
    king_mobility: 2,
    main_diagonal: 10,
    drive: 6,
    lone_king_holds: 2,
};

/// Bonus per pair of men one behind the other in a column or side by side in a row.
const PAIRED: i32 = 8;

/// Pairs of colour `c`'s men next to each other along a column (one behind the other) or a
/// row: each covers the other's square behind it against an orthogonal jump from that side.
fn paired<R: Rules>(pos: &Position<R>, c: Color) -> i32 {
    let men = crate::bitboard::Bitboard(pos.men(c).0);
    let column = R::Geo::cstep(men, 7).0 & men.0;
    let row = R::Geo::cstep(men, 6).0 & men.0;
    (column.count_ones() + row.count_ones()) as i32
}

/// The frisian hand evaluation for White.
fn score<R: Eval>(pos: &Position<R>) -> i32 {
    hand_score(pos) + PAIRED * (paired(pos, Color::White) - paired(pos, Color::Black))
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
