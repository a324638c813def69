//! Brazilian draughts: the international rules on the 8x8 board with 12 men a side.

use super::{Precedence, Rules};
use crate::geometry::Diag8;
use crate::variant::Base;

/// Brazilian draughts.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Brazilian;

impl Rules for Brazilian {
    type Geo = Diag8;
    const BASE: Base = Base::Brazilian;
    /// rules.md §2 brazilian, as FMJD 3.9: flying kings.
    const FLYING_KINGS: bool = true;
    /// rules.md §2 brazilian, as FMJD 4.1: men capture backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// rules.md §2 brazilian, as FMJD 4.13: passing the last row during a capture does not crown.
    const PROMOTE_MID_CAPTURE: bool = false;
    /// rules.md §2 brazilian, as FMJD 4.13: majority capture.
    const PRECEDENCE: Precedence = Precedence::Majority;
}
