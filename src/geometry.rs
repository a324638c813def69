//! Board geometries: the three board shapes of the draughts family and their bit layouts.
//!
//! A geometry knows squares, neighbours and rays; it knows no rules. Every geometry keeps
//! White at the bottom moving *up*, which is towards lower bit numbers, and numbers its
//! internal squares row by row from the top left, as the FMJD and English diagrams do.
//! A mirrored board (italian, spanish) is only another numbering of these same squares:
//! the rules are left-right symmetric, so the move generator never sees the mirror.
//!
//! Directions are indexed `0..4` so that `3 - d` is the opposite of `d` and the two
//! directions perpendicular to `d` are the same two for `d` and `3 - d`:
//!
//! | index | diagonal boards | orthogonal board |
//! |---|---|---|
//! | 0 | up-left (NW)    | up (N)    |
//! | 1 | up-right (NE)   | left (W)  |
//! | 2 | down-left (SW)  | right (E) |
//! | 3 | down-right (SE) | down (S)  |
//!
//! Bit layouts (`.` = ghost bit, never a square; it stops shifts from wrapping):
//!
//! | geometry | squares | bit of internal square `i` | up-left, up-right, down-left, down-right |
//! |---|---|---|---|
//! | `Diag10` | 50 | `i + i / 10` (ghosts 10, 21, 32, 43) | -6, -5, +5, +6 |
//! | `Diag8`  | 32 | `i + i / 8` (ghosts 8, 17, 26)       | -5, -4, +4, +5 |
//! | `Ortho8` | 64 | `i` (a8 = 0 … h1 = 63; file masks stop wraps) | N -8, W -1, E +1, S +8 |

use crate::bitboard::Bitboard;
use std::fmt::Debug;

/// A direction index, `0..4` (see the module table).
pub type Dir = usize;

/// The direction opposite to `d` (also among the eight capture directions, where `4..8`
/// are up, left, right, down).
#[inline(always)]
pub const fn opposite(d: Dir) -> Dir {
    d ^ 3
}

/// Bit set of the two directions perpendicular to `d`.
#[inline(always)]
pub const fn perpendicular(d: Dir) -> u8 {
    if d == 0 || d == 3 { 0b0110 } else { 0b1001 }
}

/// All four directions as a bit set.
pub const ALL_DIRS: u8 = 0b1111;

/// All eight capture directions (`Geometry::CSHIFT`) as a bit set.
pub const ALL_CAPTURE_DIRS: u8 = 0xFF;

/// Which of the three board shapes a geometry is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// 10x10 diagonal board, 50 squares.
    Diagonal10,
    /// 8x8 diagonal board, 32 squares.
    Diagonal8,
    /// 8x8 orthogonal board, all 64 squares (turkish).
    Orthogonal8,
}

/// A board shape with its bit layout, neighbours and rays.
pub trait Geometry: Copy + Send + Sync + Default + Debug + 'static {
    /// Which shape this is.
    const SHAPE: Shape;
    /// Number of playable squares.
    const SQUARES: usize;
    /// Board width and height in squares.
    const SIZE: usize;
    /// Every playable square.
    const BOARD: Bitboard;
    /// Bit of each internal square index `0..SQUARES` (`NONE` beyond).
    const BITS: &'static [u8; 64];
    /// Internal square index of each bit, or `NONE`.
    const INDEX: &'static [u8; 64];
    /// Shift of each direction (negative = towards lower bits).
    const SHIFT: [i32; 4];
    /// Squares a one-step move in each direction may land on (the board minus wrapped files).
    const DEST: [u64; 4];
    /// `RAYS[d][bit]`: every square from `bit` (exclusive) to the edge in direction `d`.
    const RAYS: &'static [[u64; 64]; 4];
    /// `STEPS[d][bit]`: the square one step from `bit` in direction `d`, or nothing.
    const STEPS: &'static [[u64; 64]; 4];
    /// `JUMPS[d][bit]`: the square two steps from `bit` in direction `d` (a short jump's
    /// landing), or nothing.
    const JUMPS: &'static [[u64; 64]; 4];
    /// Shifts of the eight capture directions: the four of `SHIFT`, then (`4..8`) the four
    /// orthogonal lines of the 10x10 diagonal board, each step reaching the next playable
    /// square of that line (frisian); on the other boards those four are empty (`CDEST` 0).
    const CSHIFT: [i32; 8];
    /// Squares a one-step capture move in each of the eight directions may land on.
    const CDEST: [u64; 8];
    /// `CRAYS[d][bit]`: `RAYS` for the eight capture directions.
    const CRAYS: &'static [[u64; 64]; 8];
    /// `CSTEPS[d][bit]`: `STEPS` for the eight capture directions.
    const CSTEPS: &'static [[u64; 64]; 8];
    /// `CJUMPS[d][bit]`: `JUMPS` for the eight capture directions.
    const CJUMPS: &'static [[u64; 64]; 8];
    /// The top row (White's promotion row).
    const TOP_ROW: Bitboard;
    /// The bottom row (Black's promotion row).
    const BOTTOM_ROW: Bitboard;
    /// Width of the diagonal grid's rows in squares (5 or 4), or 8 for the orthogonal board.
    const ROW_LEN: usize;

    /// Every square one step from a square of `b` in direction `d`. Branch-free: one of the
    /// two shifts is by zero, so `d` may be a run-time value without a jump.
    #[inline(always)]
    fn step(b: Bitboard, d: Dir) -> Bitboard {
        let s = Self::SHIFT[d];
        let left = s.max(0) as u32;
        let right = (-s).max(0) as u32;
        Bitboard(((b.0 << left) >> right) & Self::DEST[d])
    }

    /// [`step`](Self::step) for the eight capture directions (`0..8`).
    #[inline(always)]
    fn cstep(b: Bitboard, d: Dir) -> Bitboard {
        let s = Self::CSHIFT[d];
        let left = s.max(0) as u32;
        let right = (-s).max(0) as u32;
        Bitboard(((b.0 << left) >> right) & Self::CDEST[d])
    }

    /// (row from the top, column from the left) of internal square `i`, in the internal
    /// orientation (White at the bottom, unmirrored).
    fn coords(i: usize) -> (usize, usize) {
        let r = i / Self::ROW_LEN;
        let k = i % Self::ROW_LEN;
        match Self::SHAPE {
            Shape::Orthogonal8 => (r, k),
            _ => (r, 2 * k + usize::from(r.is_multiple_of(2))),
        }
    }

    /// The internal square at (row from top, column from left), if that square is playable.
    fn at(row: usize, col: usize) -> Option<usize> {
        if row >= Self::SIZE || col >= Self::SIZE {
            return None;
        }
        match Self::SHAPE {
            Shape::Orthogonal8 => Some(row * 8 + col),
            _ => {
                let dark = (row + col) % 2 == 1;
                dark.then_some(row * Self::ROW_LEN + col / 2)
            }
        }
    }
}

/// Marker for "no square" in `Geometry::INDEX`.
pub const NONE: u8 = 255;

#[inline(always)]
const fn step_raw(b: u64, shift: i32, dest: u64) -> u64 {
    (if shift > 0 { b << shift } else { b >> -shift }) & dest
}

const fn bits_of(squares: usize, per_ghost: usize) -> [u8; 64] {
    let mut out = [NONE; 64];
    let mut i = 0;
    while i < squares {
        out[i] = (i + i / per_ghost) as u8;
        i += 1;
    }
    out
}

const fn index_of(bits: &[u8; 64], squares: usize) -> [u8; 64] {
    let mut out = [NONE; 64];
    let mut i = 0;
    while i < squares {
        out[bits[i] as usize] = i as u8;
        i += 1;
    }
    out
}

const fn mask_of(bits: &[u8; 64], squares: usize) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < squares {
        m |= 1u64 << bits[i];
        i += 1;
    }
    m
}

const fn row_mask(bits: &[u8; 64], first: usize, len: usize) -> u64 {
    let mut m = 0u64;
    let mut i = first;
    while i < first + len {
        m |= 1u64 << bits[i];
        i += 1;
    }
    m
}

const fn rays<const N: usize>(shift: [i32; N], dest: [u64; N]) -> [[u64; 64]; N] {
    let mut out = [[0u64; 64]; N];
    let mut d = 0;
    while d < N {
        let mut b = 0;
        while b < 64 {
            let mut cur = step_raw(1u64 << b, shift[d], dest[d]);
            let mut ray = 0u64;
            while cur != 0 {
                ray |= cur;
                cur = step_raw(cur, shift[d], dest[d]);
            }
            out[d][b] = ray;
            b += 1;
        }
        d += 1;
    }
    out
}

const fn steps<const N: usize>(shift: [i32; N], dest: [u64; N], n: u32) -> [[u64; 64]; N] {
    let mut out = [[0u64; 64]; N];
    let mut d = 0;
    while d < N {
        let mut b = 0;
        while b < 64 {
            let mut cur = 1u64 << b;
            let mut k = 0;
            while k < n {
                cur = step_raw(cur, shift[d], dest[d]);
                k += 1;
            }
            out[d][b] = cur;
            b += 1;
        }
        d += 1;
    }
    out
}

const D10_BITS: [u8; 64] = bits_of(50, 10);
const D10_BOARD: u64 = mask_of(&D10_BITS, 50);
const D10_DEST: [u64; 4] = [D10_BOARD; 4];
const D10_SHIFT: [i32; 4] = [-6, -5, 5, 6];
static D10_RAYS: [[u64; 64]; 4] = rays(D10_SHIFT, D10_DEST);
static D10_STEPS: [[u64; 64]; 4] = steps(D10_SHIFT, D10_DEST, 1);
static D10_JUMPS: [[u64; 64]; 4] = steps(D10_SHIFT, D10_DEST, 2);

/// Squares of the 10x10 board whose place in their row (of five) is `k`.
const fn d10_column(k: usize) -> u64 {
    let mut m = 0u64;
    let mut i = k;
    while i < 50 {
        m |= 1u64 << D10_BITS[i];
        i += 5;
    }
    m
}
/// Orthogonal lines of the 10x10 board: up and down a column is two rows (11 bits), along a
/// row the next square of the row (1 bit, never wrapping to the next row).
const D10_CSHIFT: [i32; 8] = [-6, -5, 5, 6, -11, -1, 1, 11];
const D10_CDEST: [u64; 8] = [
    D10_BOARD,
    D10_BOARD,
    D10_BOARD,
    D10_BOARD,
    D10_BOARD,
    D10_BOARD & !d10_column(4),
    D10_BOARD & !d10_column(0),
    D10_BOARD,
];
static D10_CRAYS: [[u64; 64]; 8] = rays(D10_CSHIFT, D10_CDEST);
static D10_CSTEPS: [[u64; 64]; 8] = steps(D10_CSHIFT, D10_CDEST, 1);
static D10_CJUMPS: [[u64; 64]; 8] = steps(D10_CSHIFT, D10_CDEST, 2);

/// The eight capture directions of a board without orthogonal captures: its four, then four
/// empty ones.
const fn diagonal_only<T: Copy>(four: [T; 4], none: T) -> [T; 8] {
    [four[0], four[1], four[2], four[3], none, none, none, none]
}

const D8_BITS: [u8; 64] = bits_of(32, 8);
const D8_BOARD: u64 = mask_of(&D8_BITS, 32);
const D8_DEST: [u64; 4] = [D8_BOARD; 4];
const D8_SHIFT: [i32; 4] = [-5, -4, 4, 5];
static D8_RAYS: [[u64; 64]; 4] = rays(D8_SHIFT, D8_DEST);
static D8_STEPS: [[u64; 64]; 4] = steps(D8_SHIFT, D8_DEST, 1);
static D8_JUMPS: [[u64; 64]; 4] = steps(D8_SHIFT, D8_DEST, 2);
const D8_CSHIFT: [i32; 8] = diagonal_only(D8_SHIFT, 0);
const D8_CDEST: [u64; 8] = diagonal_only(D8_DEST, 0);
static D8_CRAYS: [[u64; 64]; 8] = rays(D8_CSHIFT, D8_CDEST);
static D8_CSTEPS: [[u64; 64]; 8] = steps(D8_CSHIFT, D8_CDEST, 1);
static D8_CJUMPS: [[u64; 64]; 8] = steps(D8_CSHIFT, D8_CDEST, 2);

const O8_BITS: [u8; 64] = bits_of(64, 64);
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const O8_DEST: [u64; 4] = [!0, !FILE_H, !FILE_A, !0];
const O8_SHIFT: [i32; 4] = [-8, -1, 1, 8];
static O8_RAYS: [[u64; 64]; 4] = rays(O8_SHIFT, O8_DEST);
static O8_STEPS: [[u64; 64]; 4] = steps(O8_SHIFT, O8_DEST, 1);
static O8_JUMPS: [[u64; 64]; 4] = steps(O8_SHIFT, O8_DEST, 2);
const O8_CSHIFT: [i32; 8] = diagonal_only(O8_SHIFT, 0);
const O8_CDEST: [u64; 8] = diagonal_only(O8_DEST, 0);
static O8_CRAYS: [[u64; 64]; 8] = rays(O8_CSHIFT, O8_CDEST);
static O8_CSTEPS: [[u64; 64]; 8] = steps(O8_CSHIFT, O8_CDEST, 1);
static O8_CJUMPS: [[u64; 64]; 8] = steps(O8_CSHIFT, O8_CDEST, 2);

macro_rules! geometry {
    ($name:ident, $doc:literal, $shape:expr, $squares:expr, $size:expr, $row:expr, $bits:ident,
     $board:expr, $shift:ident, $dest:ident, $rays:ident, $steps:ident, $jumps:ident,
     $cshift:ident, $cdest:ident, $crays:ident, $csteps:ident, $cjumps:ident) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Geometry for $name {
            const SHAPE: Shape = $shape;
            const SQUARES: usize = $squares;
            const SIZE: usize = $size;
            const BOARD: Bitboard = Bitboard($board);
            const BITS: &'static [u8; 64] = &$bits;
            const INDEX: &'static [u8; 64] = &index_of(&$bits, $squares);
            const SHIFT: [i32; 4] = $shift;
            const DEST: [u64; 4] = $dest;
            const RAYS: &'static [[u64; 64]; 4] = &$rays;
            const STEPS: &'static [[u64; 64]; 4] = &$steps;
            const JUMPS: &'static [[u64; 64]; 4] = &$jumps;
            const CSHIFT: [i32; 8] = $cshift;
            const CDEST: [u64; 8] = $cdest;
            const CRAYS: &'static [[u64; 64]; 8] = &$crays;
            const CSTEPS: &'static [[u64; 64]; 8] = &$csteps;
            const CJUMPS: &'static [[u64; 64]; 8] = &$cjumps;
            const TOP_ROW: Bitboard = Bitboard(row_mask(&$bits, 0, $row));
            const BOTTOM_ROW: Bitboard = Bitboard(row_mask(&$bits, $squares - $row, $row));
            const ROW_LEN: usize = $row;
        }
    };
}

geometry!(
    Diag10,
    "The 10x10 diagonal board (international).",
    Shape::Diagonal10,
    50,
    10,
    5,
    D10_BITS,
    D10_BOARD,
    D10_SHIFT,
    D10_DEST,
    D10_RAYS,
    D10_STEPS,
    D10_JUMPS,
    D10_CSHIFT,
    D10_CDEST,
    D10_CRAYS,
    D10_CSTEPS,
    D10_CJUMPS
);
geometry!(
    Diag8,
    "The 8x8 diagonal board (every 8x8 rule set but turkish).",
    Shape::Diagonal8,
    32,
    8,
    4,
    D8_BITS,
    D8_BOARD,
    D8_SHIFT,
    D8_DEST,
    D8_RAYS,
    D8_STEPS,
    D8_JUMPS,
    D8_CSHIFT,
    D8_CDEST,
    D8_CRAYS,
    D8_CSTEPS,
    D8_CJUMPS
);
geometry!(
    Ortho8,
    "The 8x8 orthogonal board of all 64 squares (turkish).",
    Shape::Orthogonal8,
    64,
    8,
    8,
    O8_BITS,
    !0u64,
    O8_SHIFT,
    O8_DEST,
    O8_RAYS,
    O8_STEPS,
    O8_JUMPS,
    O8_CSHIFT,
    O8_CDEST,
    O8_CRAYS,
    O8_CSTEPS,
    O8_CJUMPS
);

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbours<G: Geometry>(i: usize) -> Vec<Option<usize>> {
        (0..4)
            .map(|d| {
                let b = G::step(Bitboard::from_bit(G::BITS[i] as u32), d);
                b.is_any().then(|| G::INDEX[b.lowest() as usize] as usize)
            })
            .collect()
    }

    /// Neighbours computed from the bit layout agree with neighbours from coordinates.
    fn check_geometry<G: Geometry>() {
        let deltas: [(isize, isize); 4] = match G::SHAPE {
            Shape::Orthogonal8 => [(-1, 0), (0, -1), (0, 1), (1, 0)],
            _ => [(-1, -1), (-1, 1), (1, -1), (1, 1)],
        };
        for i in 0..G::SQUARES {
            let (r, c) = G::coords(i);
            assert_eq!(G::at(r, c), Some(i));
            let got = neighbours::<G>(i);
            for d in 0..4 {
                let (nr, nc) = (r as isize + deltas[d].0, c as isize + deltas[d].1);
                let want = (nr >= 0 && nc >= 0).then(|| G::at(nr as usize, nc as usize)).flatten();
                assert_eq!(got[d], want, "square {i} direction {d}");
            }
        }
        assert_eq!(G::BOARD.count() as usize, G::SQUARES);
        assert_eq!(G::TOP_ROW.count() as usize, G::ROW_LEN);
    }

    #[test]
    fn bit_layouts_match_board_coordinates() {
        check_geometry::<Diag10>();
        check_geometry::<Diag8>();
        check_geometry::<Ortho8>();
    }

    /// The orthogonal capture lines of the 10x10 board (frisian) agree with coordinates: up
    /// and down two rows in the same column, left and right two columns in the same row; the
    /// first four capture directions are the diagonal ones.
    #[test]
    fn orthogonal_lines_of_the_10x10_board_match_coordinates() {
        let deltas: [(isize, isize); 4] = [(-2, 0), (0, -2), (0, 2), (2, 0)];
        for i in 0..Diag10::SQUARES {
            let (r, c) = Diag10::coords(i);
            let b = Diag10::BITS[i] as usize;
            for (d, &(dr, dc)) in deltas.iter().enumerate() {
                assert_eq!(Diag10::CSTEPS[d][b], Diag10::STEPS[d][b]);
                assert_eq!(Diag10::CRAYS[d][b], Diag10::RAYS[d][b]);
                let (nr, nc) = (r as isize + dr, c as isize + dc);
                let want = (nr >= 0 && nc >= 0)
                    .then(|| Diag10::at(nr as usize, nc as usize))
                    .flatten()
                    .map_or(0, |j| 1u64 << Diag10::BITS[j]);
                assert_eq!(Diag10::CSTEPS[4 + d][b], want, "square {i} direction {}", 4 + d);
                let stepped = Diag10::cstep(Bitboard::from_bit(b as u32), 4 + d).0;
                assert_eq!(stepped, want, "square {i} direction {}", 4 + d);
            }
            for d in 4..8 {
                assert_eq!(Diag8::CRAYS[d][b], 0);
                assert_eq!(Ortho8::CSTEPS[d][b], 0);
            }
        }
        // Square 23 (internal 22): its row is 21-25, its column 3, 13, 23, 33, 43.
        let b = Diag10::BITS[22] as usize;
        let squares = |m: u64| -> Vec<usize> {
            Bitboard(m).into_iter().map(|x| Diag10::INDEX[x as usize] as usize + 1).collect()
        };
        assert_eq!(squares(Diag10::CRAYS[4][b]), vec![3, 13]);
        assert_eq!(squares(Diag10::CRAYS[5][b]), vec![21, 22]);
        assert_eq!(squares(Diag10::CRAYS[6][b]), vec![24, 25]);
        assert_eq!(squares(Diag10::CRAYS[7][b]), vec![33, 43]);
    }

    #[test]
    fn rays_reach_the_edge() {
        // Internal square 45 is a1 on the 10x10 board: its up-right ray is the long diagonal.
        let b = Diag10::BITS[45] as usize;
        assert_eq!(Bitboard(Diag10::RAYS[1][b]).count(), 9);
        // a1 on the orthogonal board: 7 squares up, 7 right, none left or down.
        let b = Ortho8::BITS[56] as usize;
        let counts: Vec<u32> = (0..4).map(|d| Bitboard(Ortho8::RAYS[d][b]).count()).collect();
        assert_eq!(counts, vec![7, 0, 7, 0]);
    }
}
