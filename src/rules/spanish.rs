//! Spanish draughts: mirrored board, flying kings, men capture forward only, and the capture
//! taking most pieces, then most kings, must be played.

use super::{Precedence, Rules};
use crate::geometry::Diag8;
use crate::variant::Base;

/// Spanish draughts.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Spanish;

impl Rules for Spanish {
    type Geo = Diag8;
    const BASE: Base = Base::Spanish;
    /// rules.md §2 spanish: the king (dama) moves and captures any distance along a diagonal.
    const FLYING_KINGS: bool = true;
    /// rules.md §2 spanish: men move and capture forward only.
    const MEN_CAPTURE_BACKWARD: bool = false;
    /// rules.md §2 spanish, precedence ("ley de cantidad", "ley de calidad"): most
    /// pieces, then most kings.
    const PRECEDENCE: Precedence = Precedence::Spanish;
}
