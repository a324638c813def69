//! Evaluation for breakthrough (10x10, the first king wins). Kings end the game, so the
//! terms are about men only: material; advancement, worth more the nearer a man is to the
//! crowning row; men on their own back row, which stop the opponent's men; and the race of
//! the free men (no enemy piece in the cone ahead): the side whose free man crowns first,
//! counting whose move it is, is close to a win.

use super::{Eval, Tables, Weights, tables};
use crate::color::Color;
use crate::geometry::Geometry;
use crate::position::Position;
use crate::rules::{Breakthrough, Rules};

impl Eval for Breakthrough {
    const WEIGHTS: Weights = Weights {
        man: 100,
        king: 0,
        advance: [0, 2, 5, 9, 14, 21, 31, 46, 70, 0],
        centre: 4,
        back_row: 12,
        runaway: 300,
        king_mobility: 0,
        main_diagonal: 0,
        drive: 0,
        lone_king_holds: 0,
    };

    fn hand(pos: &Position<Self>) -> i32 {
        score(pos)
    }
}

/// Colour `c`'s men terms, and the plies its fastest free man needs to crown (`None`: none).
fn side(pos: &Position<Breakthrough>, c: Color, t: &Tables) -> (i32, Option<i32>) {
    let w = &Breakthrough::WEIGHTS;
    let size = <<Breakthrough as Rules>::Geo as Geometry>::SIZE as i32;
    let men = pos.men(c);
    let them = pos.pieces(!c).0;
    let mut s = w.man * men.count() as i32;
    let mut fastest: Option<i32> = None;
    for m in men {
        let row = i32::from(t.row[m as usize]);
        let advanced = if c == Color::White { size - 1 - row } else { row };
        s += w.advance[advanced as usize];
        if t.cone[c.index()][m as usize] & them == 0 {
            let to_go = size - 1 - advanced;
            fastest = Some(fastest.map_or(to_go, |f| f.min(to_go)));
        }
    }
    s += w.centre * (men & crate::bitboard::Bitboard(t.centre)).count() as i32;
    if pos.men(!c).is_any() {
        s += w.back_row * (men & Breakthrough::promotion_row(!c)).count() as i32;
    }
    (s, fastest)
}

/// The score of `pos` for White.
fn score(pos: &Position<Breakthrough>) -> i32 {
    let t = tables::<<Breakthrough as Rules>::Geo>();
    let (white, white_run) = side(pos, Color::White, t);
    let (black, black_run) = side(pos, Color::Black, t);
    let mut s = white - black;
    // The race: the side to move crowns first when its free man needs no more moves than
    // the opponent's. Captures can still change it, so it is a large bonus, not a win.
    let (mine, theirs) = match pos.side() {
        Color::White => (white_run, black_run),
        Color::Black => (black_run, white_run),
    };
    let winner = match (mine, theirs) {
        (Some(a), Some(b)) if a <= b => Some((pos.side(), a)),
        (Some(_), Some(b)) => Some((!pos.side(), b)),
        (Some(a), None) => Some((pos.side(), a)),
        (None, Some(b)) => Some((!pos.side(), b)),
        (None, None) => None,
    };
    if let Some((c, to_go)) = winner {
        let bonus = Breakthrough::WEIGHTS.runaway - 20 * to_go;
        s += if c == Color::White { bonus } else { -bonus };
    }
    s
}
