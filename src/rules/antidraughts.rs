//! Antidraughts (losing draughts, giveaway): the international moves and captures; the side
//! left without a legal move, having no pieces or being blocked, wins
//! (lidraughts.org/variant/antidraughts; pydraughts `antidraughts`).

use super::{Goal, Precedence, Rules};
use crate::geometry::Diag10;
use crate::variant::Base;

/// Antidraughts on the 10x10 board.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Antidraughts;

impl Rules for Antidraughts {
    type Geo = Diag10;
    const BASE: Base = Base::Antidraughts;
    /// As FMJD 3.9: the king moves and captures any distance along a diagonal.
    const FLYING_KINGS: bool = true;
    /// As FMJD 4.1: a man captures forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// As FMJD 4.13: a man that only passes the promotion row during a capture stays a man.
    const PROMOTE_MID_CAPTURE: bool = false;
    /// As FMJD 4.13: the capture taking the most pieces is compulsory; a king counts as one.
    const PRECEDENCE: Precedence = Precedence::Majority;
    /// lidraughts, "Antidraughts": a player who cannot move, having lost every piece or
    /// being blocked, wins.
    const GOAL: Goal = Goal::Losing;
}
