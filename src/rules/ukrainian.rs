//! Ukrainian draughts: russian capture and promotion rules (flying kings, free choice, a man
//! crowned mid-capture continues as a king); its own draw counter and rating list.

use super::{Precedence, Rules};
use crate::geometry::Diag8;
use crate::variant::Base;

/// Ukrainian draughts.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Ukrainian;

impl Rules for Ukrainian {
    type Geo = Diag8;
    const BASE: Base = Base::Ukrainian;
    /// rules.md §2 ukrainian, as russian 1.5.2: flying kings.
    const FLYING_KINGS: bool = true;
    /// rules.md §2 ukrainian, as russian 1.5.6: men capture backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// rules.md §2 ukrainian, as russian 1.5.15: a man crowned mid-capture continues as a king.
    const PROMOTE_MID_CAPTURE: bool = true;
    /// rules.md §2 ukrainian, as russian 1.5.10: free choice among captures.
    const PRECEDENCE: Precedence = Precedence::Free;
}
