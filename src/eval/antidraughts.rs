//! Evaluation for antidraughts (10x10, the side without a move wins). Material is turned
//! around: each own piece is a burden (a king most, since it can always move and is hard to
//! give away), and men near the crowning row are a burden, as they become kings. Men's
//! mobility and men in the centre are worth something, though: a side with free men chooses
//! where to give them away and when, while a cramped side must play the moves it has left
//! (which the screen against a material-only evaluation confirmed; a bonus for having *few*
//! moves lost to it).

use super::{Eval, Tables, Weights, king_reach, tables};
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::geometry::Geometry;
use crate::position::Position;
use crate::rules::{Antidraughts, Rules};

type Geo = <Antidraughts as Rules>::Geo;

/// Each forward step a man of the side can make. Screened at fixed nodes against a
/// material-only evaluation: -3 scored -31 Elo, 0 -9, +3 +111, +10 +164 (+222 with the centre
/// term); see README "Rule sets".
const MAN_MOBILITY: i32 = 10;

impl Eval for Antidraughts {
    const WEIGHTS: Weights = Weights {
        man: -100,
        king: -250,
        advance: [0, 0, 0, 0, 0, -2, -4, -8, -20, 0],
        centre: 8,
        back_row: 0,
        runaway: 0,
        king_mobility: -2,
        main_diagonal: 0,
        drive: 0,
        lone_king_holds: 0,
    };

    fn hand(pos: &Position<Self>) -> i32 {
        let t = tables::<Geo>();
        side(pos, Color::White, t) - side(pos, Color::Black, t)
    }
}

/// Man moves of colour `c` (forward steps onto empty squares).
fn man_moves(pos: &Position<Antidraughts>, c: Color) -> i32 {
    let men = pos.men(c);
    let empty = pos.empty();
    let dirs = Antidraughts::man_move_dirs(c);
    (0..4)
        .filter(|d| dirs & (1 << d) != 0)
        .map(|d| (Geo::step(men, d) & empty).count() as i32)
        .sum()
}

/// Colour `c`'s score: its burdens, negative.
fn side(pos: &Position<Antidraughts>, c: Color, t: &Tables) -> i32 {
    let w = &Antidraughts::WEIGHTS;
    let size = Geo::SIZE as i32;
    let men = pos.men(c);
    let mut s = w.man * men.count() as i32 + w.king * pos.kings(c).count() as i32;
    for m in men {
        let row = i32::from(t.row[m as usize]);
        let advanced = if c == Color::White { size - 1 - row } else { row };
        s += w.advance[advanced as usize];
    }
    let occupied = pos.occupied().0;
    let empty = pos.empty().0;
    for k in pos.kings(c) {
        s += w.king_mobility * king_reach::<Antidraughts>(k, occupied, empty) as i32;
    }
    s += MAN_MOBILITY * man_moves(pos, c);
    s += w.centre * (men & Bitboard(t.centre)).count() as i32;
    s
}
