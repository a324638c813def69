//! Russian draughts (shashki): flying kings, men capture backward, free choice among captures,
//! and a man crowned during a capture continues it as a king.

use super::{Precedence, Rules};
use crate::geometry::Diag8;
use crate::variant::Base;

/// Russian draughts.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Russian;

impl Rules for Russian {
    type Geo = Diag8;
    const BASE: Base = Base::Russian;
    /// Russian code 1.5.2: the king moves and captures any distance along a diagonal.
    const FLYING_KINGS: bool = true;
    /// Russian code 1.5.6: men capture forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// Russian code 1.5.15: a man reaching the last row during a capture is crowned at once
    /// and continues the capture as a king.
    const PROMOTE_MID_CAPTURE: bool = true;
    /// Russian code 1.5.10: when several captures are possible, any may be chosen.
    const PRECEDENCE: Precedence = Precedence::Free;
}
