//! English draughts (American checkers): Black moves first, men move and capture forward only,
//! kings move one square and capture by a short jump, free choice among captures, and
//! crowning ends the move.

use super::{Precedence, Rules};
use crate::color::Color;
use crate::geometry::Diag8;
use crate::variant::Base;

/// English draughts / American checkers.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct English;

impl Rules for English {
    type Geo = Diag8;
    const BASE: Base = Base::English;
    /// rules.md §2 english: **Black moves first**.
    const FIRST: Color = Color::Black;
    /// rules.md §2 english: kings move one square and capture by a short jump.
    const FLYING_KINGS: bool = false;
    /// rules.md §2 english: men capture forward only. Being forward-only, a man that reaches
    /// the king row cannot jump on, so "crowning ends the move" needs no flag of its own.
    const MEN_CAPTURE_BACKWARD: bool = false;
    /// rules.md §2 english: free choice among captures; a chosen capture is completed.
    const PRECEDENCE: Precedence = Precedence::Free;
}
