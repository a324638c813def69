//! `Bitboard`: a set of board squares as one `u64`, with set operations and iteration.
//!
//! It knows nothing about rules or geometry: bit `i` is whatever square the geometry puts
//! there (see `geometry`). Iteration goes from the lowest bit to the highest.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, one bit per square of the geometry's bit layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only bit `bit`.
    #[inline(always)]
    pub const fn from_bit(bit: u32) -> Bitboard {
        Bitboard(1u64 << bit)
    }

    /// True when the set holds no square.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set holds at least one square.
    #[inline(always)]
    pub const fn is_any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when bit `bit` is in the set.
    #[inline(always)]
    pub const fn has(self, bit: u32) -> bool {
        (self.0 >> bit) & 1 != 0
    }

    /// The lowest bit of a non-empty set.
    #[inline(always)]
    pub const fn lowest(self) -> u32 {
        self.0.trailing_zeros()
    }

    /// The highest bit of a non-empty set.
    #[inline(always)]
    pub const fn highest(self) -> u32 {
        63 - self.0.leading_zeros()
    }

    /// True when the two sets share a square.
    #[inline(always)]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }
}

impl Iterator for Bitboard {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let bit = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(bit)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_visits_every_bit_in_order() {
        let b = Bitboard(0b1010_0001);
        assert_eq!(b.collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(b.count(), 3);
        assert_eq!(b.lowest(), 0);
        assert_eq!(b.highest(), 7);
    }
}
