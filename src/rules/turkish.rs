//! Turkish draughts (dama): all 64 squares, men move and capture forward and sideways, flying
//! orthogonal kings that may not turn back 180°, captured pieces removed after each jump,
//! majority capture, and promotion only when the move ends.

use super::{Precedence, Rules};
use crate::geometry::Ortho8;
use crate::variant::Base;

/// Turkish draughts.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Turkish;

impl Rules for Turkish {
    type Geo = Ortho8;
    const BASE: Base = Base::Turkish;
    /// rules.md §2 turkish: the king moves like a rook and captures at any distance along a line.
    const FLYING_KINGS: bool = true;
    /// rules.md §2 turkish: men capture forward and sideways, never backward (the orthogonal board's
    /// man directions already include sideways).
    const MEN_CAPTURE_BACKWARD: bool = false;
    /// rules.md §2 turkish: a man reaching the last row mid-capture finishes the capture as a man.
    const PROMOTE_MID_CAPTURE: bool = false;
    /// rules.md §2 turkish: each captured piece is removed at once; its square may be crossed again.
    /// With removal at once, the no-180°-turn rule is what stops a king from turning back.
    const IMMEDIATE_REMOVAL: bool = true;
    /// rules.md §2 turkish: the capture taking the most pieces is compulsory (men and kings alike).
    const PRECEDENCE: Precedence = Precedence::Majority;
}
