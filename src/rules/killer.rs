//! Killer draughts: the international rules with one change to the king's capture, as
//! lidraughts plays it (lidraughts.org/variant/killer) and as Scan 3.1 implements it.

use super::{Precedence, Rules};
use crate::geometry::Diag10;
use crate::variant::Base;

/// Killer draughts on the 10x10 board.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Killer;

impl Rules for Killer {
    type Geo = Diag10;
    const BASE: Base = Base::Killer;
    /// As FMJD 3.9: the king moves and captures any distance along a diagonal.
    const FLYING_KINGS: bool = true;
    /// As FMJD 4.1: a man captures forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// As FMJD 4.13: a man that only passes the promotion row during a capture stays a man.
    const PROMOTE_MID_CAPTURE: bool = false;
    /// As FMJD 4.13: the capture taking the most pieces is compulsory; a king counts as one.
    const PRECEDENCE: Precedence = Precedence::Majority;
    /// The killer rule (lidraughts, "Killer"): a king that captures a king as the last
    /// piece of its capture must stop on the square directly behind it.
    const KING_TAKING_KING_LANDS_BEHIND: bool = true;
}
