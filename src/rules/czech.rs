//! Czech draughts: flying kings, men capture forward only, and if a king can capture a king
//! must capture; otherwise free choice.

use super::{Precedence, Rules};
use crate::geometry::Diag8;
use crate::variant::Base;

/// Czech draughts.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Czech;

impl Rules for Czech {
    type Geo = Diag8;
    const BASE: Base = Base::Czech;
    /// rules.md §2 czech: the king moves and captures any distance along a diagonal.
    const FLYING_KINGS: bool = true;
    /// rules.md §2 czech: men move and capture forward only.
    const MEN_CAPTURE_BACKWARD: bool = false;
    /// rules.md §2 czech: if any king can capture, a king capture must be played;
    /// otherwise free choice.
    const PRECEDENCE: Precedence = Precedence::KingFirst;
}
