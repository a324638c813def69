//! Slices and the index of a position inside its slice.
//!
//! Positions are stored with the side to move as White: a position with Black to move is
//! turned half a turn and its colours swapped first ([`normalise`]), which is a symmetry of
//! every rule set here (each is left-right and colour symmetric). A slice is the set of
//! positions with given counts of men and kings per side; every capture or promotion leaves
//! the slice for one built before it (fewer pieces, or as many pieces with fewer men).
//!
//! Inside a slice, a position's index is a mixed-radix number of four combinatorial ranks
//! (the combinatorial number system): White's men among the squares a White man may stand
//! on, Black's men among Black's, then White's kings among the squares left empty by the men,
//! then Black's kings among those still empty. The kings' ranks are exact; the men's are not
//! (a White man and a Black man may be given the same square), so a few indices are not
//! positions: [`Indexer::position`] returns `None` for them and the builder marks them.
//!
//! Squares are handled here as internal square numbers (`0..SQUARES`, row by row from the top
//! left, see [`crate::geometry`]) packed in a `u64`, where the half-turn is a bit reversal.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::geometry::Geometry;
use crate::position::Position;
use crate::rules::Rules;
use std::fmt;

/// Binomial coefficients `C(n, k)` for `n, k <= 64`.
static BINOMIAL: [[u64; 65]; 65] = binomials();

const fn binomials() -> [[u64; 65]; 65] {
    let mut t = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            // C(64, 32) < 2^63: no overflow.
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// `C(n, k)` (0 when `k > n`).
#[inline(always)]
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > n { 0 } else { BINOMIAL[n as usize][k as usize] }
}

/// Piece counts of a slice: the side to move is White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slice {
    /// White's (the side to move's) men.
    pub wm: u8,
    /// White's kings.
    pub wk: u8,
    /// Black's men.
    pub bm: u8,
    /// Black's kings.
    pub bk: u8,
}

impl Slice {
    /// A slice from its four counts.
    pub const fn new(wm: u8, wk: u8, bm: u8, bk: u8) -> Slice {
        Slice { wm, wk, bm, bk }
    }

    /// The slice of a position (by its counts, from the side to move's point of view).
    pub fn of<R: Rules>(pos: &Position<R>) -> Slice {
        let (us, them) = (pos.side(), !pos.side());
        Slice {
            wm: pos.men(us).count() as u8,
            wk: pos.kings(us).count() as u8,
            bm: pos.men(them).count() as u8,
            bk: pos.kings(them).count() as u8,
        }
    }

    /// Pieces on the board.
    pub fn pieces(self) -> u32 {
        u32::from(self.wm + self.wk + self.bm + self.bk)
    }

    /// Men on the board.
    pub fn men(self) -> u32 {
        u32::from(self.wm + self.bm)
    }

    /// The slice with the colours swapped: where a move inside this slice leads.
    pub fn partner(self) -> Slice {
        Slice { wm: self.bm, wk: self.bk, bm: self.wm, bk: self.wk }
    }

    /// Every slice with at most `n` pieces and at least one piece per side, in an order in
    /// which every slice comes after the slices its captures and promotions lead to (fewer
    /// pieces first, then fewer men), a slice and its partner next to each other.
    pub fn all_up_to(n: u32, men_per_side: u32) -> Vec<Slice> {
        let mut out = Vec::new();
        for total in 2..=n {
            for men in 0..=total {
                let mut group = Vec::new();
                for wm in 0..=men.min(men_per_side) {
                    let bm = men - wm;
                    if bm > men_per_side {
                        continue;
                    }
                    for wk in 0..=(total - men) {
                        let bk = total - men - wk;
                        let s = Slice::new(wm as u8, wk as u8, bm as u8, bk as u8);
                        let (w, b) = (wm + wk, bm + bk);
                        if w == 0 || b == 0 || w > men_per_side || b > men_per_side {
                            continue;
                        }
                        group.push(s);
                    }
                }
                // Each slice next to its partner (the smaller of the two first).
                group.sort_by_key(|s| ((*s).min(s.partner()), *s));
                out.extend(group);
            }
        }
        out
    }

    /// The slice as a file stem: `wm wk bm bk` digits, e.g. `2101`.
    pub fn name(self) -> String {
        format!("{}{}{}{}", self.wm, self.wk, self.bm, self.bk)
    }

    /// Parses [`Slice::name`].
    pub fn parse(s: &str) -> Option<Slice> {
        let d: Vec<u8> = s.bytes().map(|b| b.wrapping_sub(b'0')).collect();
        (d.len() == 4 && d.iter().all(|&x| x <= 9)).then(|| Slice::new(d[0], d[1], d[2], d[3]))
    }
}

impl fmt::Display for Slice {
    /// `1 man 2 kings against 1 king` style.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}m{}k-{}m{}k", self.wm, self.wk, self.bm, self.bk)
    }
}

/// Internal-square set of a bit set. The internal squares are the board's bits in order
/// with the ghost bits left out, so this is a `pext` by the board mask.
#[inline(always)]
pub fn to_squares<G: Geometry>(b: Bitboard) -> u64 {
    compress(b.0, G::BOARD.0)
}

/// Bit set of an internal-square set (`pdep` by the board mask).
#[inline(always)]
pub fn from_squares<G: Geometry>(m: u64) -> Bitboard {
    Bitboard(expand(m, G::BOARD.0))
}

/// The half turn of an internal-square set (square `i` to `SQUARES - 1 - i`).
#[inline(always)]
pub fn half_turn<G: Geometry>(m: u64) -> u64 {
    m.reverse_bits() >> (64 - G::SQUARES)
}

/// The position with the side to move as White: itself when White is to move, else turned
/// half a turn with the colours swapped.
pub fn normalise<R: Rules>(pos: &Position<R>) -> Position<R> {
    if pos.side() == Color::White {
        return *pos;
    }
    let turn = |b: Bitboard| from_squares::<R::Geo>(half_turn::<R::Geo>(to_squares::<R::Geo>(b)));
    Position::from_trusted(
        turn(pos.pieces(Color::Black)),
        turn(pos.pieces(Color::White)),
        turn(pos.all_kings()),
        Color::White,
    )
}

/// `pext`: the bits of `x` at the places of `mask`'s bits, packed to the bottom (one
/// instruction where the build targets BMI2, as the release build does on this project's
/// machines).
#[inline(always)]
fn compress(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    // SAFETY: compiled only when the build targets BMI2, so the instruction exists.
    unsafe {
        std::arch::x86_64::_pext_u64(x, mask)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        compress_portable(x, mask)
    }
}

/// `pdep`: the low bits of `x` spread to the places of `mask`'s bits.
#[inline(always)]
fn expand(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    // SAFETY: compiled only when the build targets BMI2, so the instruction exists.
    unsafe {
        std::arch::x86_64::_pdep_u64(x, mask)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        expand_portable(x, mask)
    }
}

/// [`compress`] without BMI2.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
#[inline(always)]
fn compress_portable(x: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut k = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= 1 << k;
        }
        k += 1;
        mask &= mask - 1;
    }
    out
}

/// [`expand`] without BMI2.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
#[inline(always)]
fn expand_portable(mut x: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    while x != 0 && mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & 1 != 0 {
            out |= low;
        }
        x >>= 1;
        mask &= mask - 1;
    }
    out
}

/// Combinatorial rank of a set of small numbers: `sum C(p_j, j)` over its members in order.
#[inline(always)]
fn rank(mut set: u64) -> u64 {
    let mut r = 0;
    let mut j = 1;
    while set != 0 {
        r += binomial(set.trailing_zeros(), j);
        j += 1;
        set &= set - 1;
    }
    r
}

/// The `k`-member set of rank `r` (inverse of [`rank`]).
#[inline(always)]
fn unrank(mut r: u64, k: u32, n: u32) -> u64 {
    let mut set = 0u64;
    let mut top = n;
    for j in (1..=k).rev() {
        // The largest p < top with C(p, j) <= r, by bisection: C(p, j) grows with p from
        // C(j - 1, j) = 0.
        let (mut lo, mut hi) = (j - 1, top - 1);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if binomial(mid, j) <= r {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        r -= binomial(lo, j);
        set |= 1 << lo;
        top = lo;
    }
    set
}

/// The index of the positions of one slice of rule set `R`.
#[derive(Clone, Copy, Debug)]
pub struct Indexer {
    slice: Slice,
    squares: u32,
    all: u64,
    white_men: u64,
    black_men: u64,
    /// Radices: Black's men, White's kings, Black's kings.
    radix: [u64; 3],
    size: u64,
}

impl Indexer {
    /// The indexer of `slice` on `R`'s board.
    pub fn new<R: Rules>(slice: Slice) -> Indexer {
        let n = <R::Geo as Geometry>::SQUARES as u32;
        let row = <R::Geo as Geometry>::ROW_LEN as u32;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let top = (1u64 << row) - 1;
        let bottom = top << (n - row);
        // Men never stand on their promotion row; on the orthogonal board, where men never
        // move backward, not on their own first row either.
        let (white_men, black_men) = match <R::Geo as Geometry>::SHAPE {
            crate::geometry::Shape::Orthogonal8 => (all & !top & !bottom, all & !top & !bottom),
            _ => (all & !top, all & !bottom),
        };
        let (wm, wk, bm, bk) =
            (u32::from(slice.wm), u32::from(slice.wk), u32::from(slice.bm), u32::from(slice.bk));
        let c1 = binomial(white_men.count_ones(), wm);
        let c2 = binomial(black_men.count_ones(), bm);
        let c3 = binomial(n.saturating_sub(wm + bm), wk);
        let c4 = binomial(n.saturating_sub(wm + bm + wk), bk);
        Indexer {
            slice,
            squares: n,
            all,
            white_men,
            black_men,
            radix: [c2, c3, c4],
            size: c1 * c2 * c3 * c4,
        }
    }

    /// The slice.
    pub fn slice(&self) -> Slice {
        self.slice
    }

    /// Number of indices (positions and the few non-positions).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// True when the men stand where this index places men (a position with a man where
    /// none can come, as on a turkish man's own first row, has no index).
    #[inline(always)]
    pub fn holds(&self, wm: u64, bm: u64) -> bool {
        wm & !self.white_men == 0 && bm & !self.black_men == 0
    }

    /// Index of a position given by its internal-square sets, White to move; the counts
    /// must be the slice's.
    #[inline]
    pub fn index_of_squares(&self, wm: u64, bm: u64, wk: u64, bk: u64) -> u64 {
        let i1 = rank(compress(wm, self.white_men));
        let i2 = rank(compress(bm, self.black_men));
        let free = self.all & !(wm | bm);
        let i3 = rank(compress(wk, free));
        let i4 = rank(compress(bk, free & !wk));
        ((i1 * self.radix[0] + i2) * self.radix[1] + i3) * self.radix[2] + i4
    }

    /// Index of `pos`, which must have White to move and the slice's counts; `None` when
    /// a man stands where the index places none.
    #[inline]
    pub fn index<R: Rules>(&self, pos: &Position<R>) -> Option<u64> {
        let sq = |b: Bitboard| to_squares::<R::Geo>(b);
        let (wm, bm) = (sq(pos.men(Color::White)), sq(pos.men(Color::Black)));
        self.holds(wm, bm).then(|| {
            self.index_of_squares(wm, bm, sq(pos.kings(Color::White)), sq(pos.kings(Color::Black)))
        })
    }

    /// The internal-square sets (White's men, Black's men, White's kings, Black's kings) at
    /// `index`, or `None` when the index is not a position (two men on one square).
    #[inline]
    pub fn squares_at(&self, index: u64) -> Option<[u64; 4]> {
        let s = self.slice;
        let i4 = index % self.radix[2];
        let rest = index / self.radix[2];
        let i3 = rest % self.radix[1];
        let rest = rest / self.radix[1];
        let i2 = rest % self.radix[0];
        let i1 = rest / self.radix[0];
        let nw = self.white_men.count_ones();
        let nb = self.black_men.count_ones();
        let wm = expand(unrank(i1, u32::from(s.wm), nw), self.white_men);
        let bm = expand(unrank(i2, u32::from(s.bm), nb), self.black_men);
        if wm & bm != 0 {
            return None;
        }
        let free = self.all & !(wm | bm);
        let left = self.squares - u32::from(s.wm + s.bm);
        let wk = expand(unrank(i3, u32::from(s.wk), left), free);
        let bk = expand(unrank(i4, u32::from(s.bk), left - u32::from(s.wk)), free & !wk);
        Some([wm, bm, wk, bk])
    }

    /// The position at `index` (White to move), or `None` when the index is not a position.
    #[inline]
    pub fn position<R: Rules>(&self, index: u64) -> Option<Position<R>> {
        let [wm, bm, wk, bk] = self.squares_at(index)?;
        let b = |m: u64| from_squares::<R::Geo>(m);
        Some(Position::from_trusted(b(wm | wk), b(bm | bk), b(wk | bk), Color::White))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{International, Russian, Turkish};

    #[test]
    fn rank_and_unrank_are_inverse() {
        for n in [1u32, 5, 10, 28, 32, 48, 50, 64] {
            for k in 0..=n.min(7) {
                let count = binomial(n, k);
                let step = (count / 3000).max(1);
                let ranks = (0..count).step_by(step as usize).chain([count - 1]);
                for r in ranks {
                    let set = unrank(r, k, n);
                    assert_eq!(set.count_ones(), k);
                    assert!(n == 64 || set < 1 << n);
                    assert_eq!(rank(set), r, "n {n} k {k}");
                }
            }
        }
    }

    fn round_trip<R: Rules>(slice: Slice) {
        let ix = Indexer::new::<R>(slice);
        let mut seen = 0;
        let step = (ix.size() / 5000).max(1);
        let mut i = 0;
        while i < ix.size() {
            if let Some(p) = ix.position::<R>(i) {
                assert_eq!(Slice::of(&p), slice);
                assert_eq!(ix.index(&p), Some(i), "{p:?}");
                seen += 1;
            }
            i += step;
        }
        assert!(seen > 0);
    }

    #[test]
    fn index_round_trips_on_every_board() {
        round_trip::<Russian>(Slice::new(2, 1, 1, 1));
        round_trip::<International>(Slice::new(1, 1, 2, 0));
        round_trip::<Turkish>(Slice::new(2, 0, 1, 1));
        round_trip::<Russian>(Slice::new(0, 3, 0, 1));
    }

    #[test]
    fn normalise_is_an_involution_up_to_the_side() {
        let p = crate::notation::parse_position::<Russian>("B:W18,K22:B5,K30")
            .expect("a valid position");
        let n = normalise(&p);
        assert_eq!(n.side(), Color::White);
        assert_eq!(n.pieces(Color::White).count(), 2);
        let back = normalise(&n.with_side(Color::Black));
        assert_eq!(back.with_side(Color::Black), p);
    }

    /// The gathers the index uses (by `pext`/`pdep` where the build has BMI2) equal the
    /// portable loops, and the square sets equal the geometry's square tables bit by bit.
    #[test]
    fn gathers_equal_the_portable_loops_and_the_square_tables() {
        fn squares<G: Geometry>(mut seed: u64) {
            for _ in 0..2000 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let b = Bitboard(seed & G::BOARD.0);
                let reference = b.fold(0u64, |m, bit| m | 1 << G::INDEX[bit as usize]);
                assert_eq!(to_squares::<G>(b), reference);
                assert_eq!(from_squares::<G>(reference), b);
                let mask = seed.rotate_left(17) ^ seed;
                assert_eq!(compress(seed, mask), compress_portable(seed, mask));
                let low = seed >> (64 - mask.count_ones().max(1));
                assert_eq!(expand(low, mask), expand_portable(low, mask));
            }
        }
        squares::<crate::geometry::Diag8>(1);
        squares::<crate::geometry::Diag10>(2);
        squares::<crate::geometry::Ortho8>(3);
    }

    #[test]
    fn slices_come_after_what_they_lead_to() {
        let all = Slice::all_up_to(4, 12);
        for (i, s) in all.iter().enumerate() {
            let later = &all[i + 1..];
            // Promotions and captures lead to slices listed earlier.
            for t in [
                Slice { wm: s.wm.wrapping_sub(1), wk: s.wk + 1, ..*s },
                Slice { bm: s.bm.wrapping_sub(1), bk: s.bk + 1, ..*s },
                Slice { bk: s.bk.wrapping_sub(1), ..*s },
            ] {
                assert!(!later.contains(&t) && !later.contains(&t.partner()), "{s} before {t}");
            }
        }
        assert!(all.contains(&Slice::new(0, 3, 0, 1)));
        assert!(!all.contains(&Slice::new(0, 2, 0, 0)));
    }
}
