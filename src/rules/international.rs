//! International draughts (also called Polish), FMJD rules: 10x10, flying kings, men capture
//! backward, majority capture, a man passing the last row during a capture stays a man.

use super::{Precedence, Rules};
use crate::geometry::Diag10;
use crate::variant::Base;

/// International draughts on the 10x10 board.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct International;

impl Rules for International {
    type Geo = Diag10;
    const BASE: Base = Base::International;
    /// FMJD 3.9: the king moves and captures any distance along a diagonal.
    const FLYING_KINGS: bool = true;
    /// FMJD 4.1: a man captures forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// FMJD 4.13 (rules.md §2): a man that only passes the promotion row during a capture stays a man.
    const PROMOTE_MID_CAPTURE: bool = false;
    /// FMJD 4.13 (rules.md §2): the capture taking the most pieces is compulsory; a king counts as one.
    const PRECEDENCE: Precedence = Precedence::Majority;
}
