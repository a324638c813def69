//! Breakthrough draughts: the international moves and captures; the first side to crown a
//! king wins (lidraughts.org/variant/breakthrough; pydraughts `breakthrough`).

use super::{Goal, Precedence, Rules};
use crate::geometry::Diag10;
use crate::variant::Base;

/// Breakthrough draughts on the 10x10 board.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Breakthrough;

impl Rules for Breakthrough {
    type Geo = Diag10;
    const BASE: Base = Base::Breakthrough;
    /// As FMJD 3.9 (kings only exist in set-up positions: the first one ends the game).
    const FLYING_KINGS: bool = true;
    /// As FMJD 4.1: a man captures forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// As FMJD 4.13: a man that only passes the promotion row during a capture stays a man.
    const PROMOTE_MID_CAPTURE: bool = false;
    /// As FMJD 4.13: the capture taking the most pieces is compulsory.
    const PRECEDENCE: Precedence = Precedence::Majority;
    /// lidraughts, "Breakthrough": the player who makes a king first wins; a player without
    /// a legal move loses, as in international.
    const GOAL: Goal = Goal::FirstKing;
}
