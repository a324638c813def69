//! `Move`: from, to and the set of captured squares, plus a promotion flag; and `MoveList`.
//!
//! Two capture routes with the same start, end, captured set and result are the same value,
//! so duplicate routes vanish by equality. Squares are *bits* of the geometry's layout.

use crate::bitboard::Bitboard;
use smallvec::SmallVec;

/// A move: `from` and `to` bits, the captured squares, and whether the mover is crowned.
/// A king capture may end where it started (`from == to`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move {
    captured: Bitboard,
    from: u8,
    to: u8,
    flags: u8,
}

const PROMOTE: u8 = 1;
const KING: u8 = 2;

impl Move {
    /// A move of the piece on bit `from` to bit `to`, taking `captured`; `king` when the mover
    /// is a king, `promote` when a man is crowned by this move.
    #[inline(always)]
    pub fn new(from: u32, to: u32, captured: Bitboard, king: bool, promote: bool) -> Move {
        Move {
            captured,
            from: from as u8,
            to: to as u8,
            flags: (u8::from(promote) * PROMOTE) | (u8::from(king) * KING),
        }
    }

    /// Bit of the starting square.
    #[inline(always)]
    pub fn from(self) -> u32 {
        u32::from(self.from)
    }

    /// Bit of the final square.
    #[inline(always)]
    pub fn to(self) -> u32 {
        u32::from(self.to)
    }

    /// The captured squares (empty for a quiet move).
    #[inline(always)]
    pub fn captured(self) -> Bitboard {
        self.captured
    }

    /// True when the move takes at least one piece.
    #[inline(always)]
    pub fn is_capture(self) -> bool {
        self.captured.is_any()
    }

    /// True when a man is crowned by this move.
    #[inline(always)]
    pub fn is_promotion(self) -> bool {
        self.flags & PROMOTE != 0
    }

    /// True when the moving piece is a king.
    #[inline(always)]
    pub fn is_king_move(self) -> bool {
        self.flags & KING != 0
    }
}

/// A list of moves on the stack (it spills to the heap only past 128 moves, which takes
/// positions built for the purpose).
pub type MoveList = SmallVec<[Move; 128]>;
