//! Frisian draughts (Fries dammen) as lidraughts plays it (lidraughts.org/variant/frisian;
//! the rules of the Frisian draughts federation, friesdammen.nl), and frysk!, the same rules
//! from five men each on the back row (lidraughts.org/variant/frysk).
//!
//! Both are 10x10 with flying kings; men and kings capture diagonally and orthogonally, the
//! capture of the greatest value is compulsory, and the same king may not make more than
//! three non-capturing moves in a row while its side has men.

use super::{Precedence, Rules};
use crate::geometry::Diag10;
use crate::variant::Base;

/// Frisian draughts on the 10x10 board.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Frisian;

/// Frysk!: frisian rules from five men each on the back row.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Frysk;

macro_rules! frisian_rules {
    ($name:ident, $base:expr) => {
        impl Rules for $name {
            type Geo = Diag10;
            const BASE: Base = $base;
            /// lidraughts, "Frisian" (`moveDirsAll` diagonal, `captureDirs` all eight): the king moves any distance
            /// along a diagonal and captures at any distance along a diagonal, a row or a
            /// column.
            const FLYING_KINGS: bool = true;
            /// lidraughts, "Frisian": a man captures forward and backward.
            const MEN_CAPTURE_BACKWARD: bool = true;
            /// As in international draughts (lidraughts): a man that only passes the last row
            /// during a capture stays a man.
            const PROMOTE_MID_CAPTURE: bool = false;
            /// Frisian rules art. 11 as dctl cites it (`Value<Frisian>`; lidraughts: man 100,
            /// king 199):
            /// the capture of the greatest value is compulsory; a king is worth more than one
            /// man and less than two; at equal value a king must capture rather than a man.
            const PRECEDENCE: Precedence = Precedence::Value;
            /// lidraughts, "Frisian" ("Pieces can also capture horizontally and vertically"): men and kings capture along rows and columns too, over the next
            /// playable square of the line.
            const ORTHOGONAL_CAPTURE: bool = true;
            /// lidraughts `KingMoves` and pydraughts `legal_moves` (dctl
            /// `max_same_king_moves`): while a side has men, the same king may make at most three non-capturing moves in a row.
            const KING_MOVE_LIMIT: u8 = 3;
        }
    };
}

frisian_rules!(Frisian, Base::Frisian);
frisian_rules!(Frysk, Base::Frysk);
