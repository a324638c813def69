//! Italian draughts: mirrored board, short kings, men capture forward only and never capture
//! kings, and the four-level precedence among captures.

use super::{Precedence, Rules};
use crate::geometry::Diag8;
use crate::variant::Base;

/// Italian draughts.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Italian;

impl Rules for Italian {
    type Geo = Diag8;
    const BASE: Base = Base::Italian;
    /// rules.md §2 italian: kings move one square and capture by short jumps.
    const FLYING_KINGS: bool = false;
    /// rules.md §2 italian: men capture forward only (so crowning ends the move).
    const MEN_CAPTURE_BACKWARD: bool = false;
    /// rules.md §2 italian: a man **may not capture a king**.
    const MEN_CAPTURE_KINGS: bool = false;
    /// rules.md §2 italian, precedence (1)–(4): most pieces; then a king before a man; then most kings; then a king
    /// met earliest.
    const PRECEDENCE: Precedence = Precedence::Italian;
}
