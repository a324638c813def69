//! `Position<R>`: an immutable, `Copy` position of rule set `R`: pieces by colour, kings, side
//! to move and a Zobrist hash key kept up to date by [`Position::after`].
//!
//! Invariants (checked by [`Position::new`], kept by `after`): pieces lie on playable squares,
//! the colours do not overlap, kings are pieces, no man stands on its own promotion row, and
//! neither side has more pieces than it starts with. History (repetition, move counters)
//! lives beside the position in the game and search stacks.

use crate::bail;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::error::Result;
use crate::geometry::{Geometry, Shape};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::rules::Rules;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

/// A piece: its colour and whether it is a king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// True for a king, false for a man.
    pub king: bool,
}

impl Piece {
    /// Index into the hash key table: white man, white king, black man, black king.
    #[inline(always)]
    const fn index(self) -> usize {
        self.color.index() * 2 + self.king as usize
    }
}

/// One step of SplitMix64: the next state and its output.
pub(crate) const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn zobrist_table() -> [[u64; 64]; 4] {
    let mut out = [[0u64; 64]; 4];
    let mut state = 0x6B6F_6E64_6176_6F21; // "kondavo!"
    let mut p = 0;
    while p < 4 {
        let mut b = 0;
        while b < 64 {
            let (s, z) = splitmix(state);
            state = s;
            out[p][b] = z;
            b += 1;
        }
        p += 1;
    }
    out
}

/// Zobrist keys: `ZOBRIST[piece index][bit]`.
static ZOBRIST: [[u64; 64]; 4] = zobrist_table();
/// Key of "Black to move".
const ZOBRIST_SIDE: u64 = 0x5DEE_CE66_D1CE_4E5B;

/// Key of the king-move counters (frisian): 0 when neither side has a run.
#[inline(always)]
fn king_run_key(run: [u8; 2]) -> u64 {
    let packed = u64::from(run[0]) | u64::from(run[1]) << 8;
    if packed == 0 { 0 } else { splitmix(0x4B49_4E47_5255_4E53 ^ packed).1 }
}

/// A position of rule set `R`.
#[derive(Clone, Copy)]
pub struct Position<R: Rules> {
    pieces: [Bitboard; 2],
    kings: Bitboard,
    side: Color,
    /// Per side, the run of non-capturing moves of one king (`R::KING_MOVE_LIMIT`, frisian):
    /// 0 for none, else the count (1..=limit) times 64 plus the king's bit. Always 0 when
    /// the rule set has no limit, so it costs nothing there (it fits in the padding). FEN
    /// and Hub position strings do not carry it: a set-up position starts at zero, as in
    /// lidraughts and pydraughts, and the moves played from it rebuild it.
    king_run: [u8; 2],
    key: u64,
    rules: PhantomData<R>,
}

impl<R: Rules> PartialEq for Position<R> {
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces
            && self.kings == other.kings
            && self.side == other.side
            && self.king_run == other.king_run
    }
}

impl<R: Rules> Eq for Position<R> {}

impl<R: Rules> Hash for Position<R> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.key);
    }
}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position<{}>({})", R::variant(), crate::notation::to_fen(self))
    }
}

impl<R: Rules> Default for Position<R> {
    fn default() -> Self {
        Self::start()
    }
}

impl<R: Rules> Position<R> {
    /// The rule set's start position.
    pub fn start() -> Self {
        let (white, black) = match <R::Geo as Geometry>::SHAPE {
            Shape::Orthogonal8 => (0x00FF_FF00_0000_0000u64, 0x0000_0000_00FF_FF00u64),
            _ => {
                let n = <R::Geo as Geometry>::SQUARES;
                let men = R::BASE.men_per_side() as usize;
                let bits = <R::Geo as Geometry>::BITS;
                let black = (0..men).fold(0u64, |b, i| b | 1 << bits[i]);
                let white = (n - men..n).fold(0u64, |b, i| b | 1 << bits[i]);
                (white, black)
            }
        };
        Self::from_parts_unchecked(Bitboard(white), Bitboard(black), Bitboard::EMPTY, R::FIRST)
    }

    /// A position from its parts, checked against every invariant of the module docs.
    pub fn new(white: Bitboard, black: Bitboard, kings: Bitboard, side: Color) -> Result<Self> {
        let board = <R::Geo as Geometry>::BOARD;
        if !((white | black) & !board).is_empty() {
            bail!("a piece lies outside the playable squares");
        }
        if white.intersects(black) {
            bail!("a square holds both a white and a black piece");
        }
        if !(kings & !(white | black)).is_empty() {
            bail!("a king lies on an empty square");
        }
        let max = R::BASE.men_per_side();
        for (c, set) in [(Color::White, white), (Color::Black, black)] {
            if set.count() > max {
                bail!(
                    "{c} has {} pieces; at most {max} are possible in {}",
                    set.count(),
                    R::BASE.id()
                );
            }
            if (set & !kings).intersects(R::promotion_row(c)) {
                bail!("a {c} man stands on its promotion row (it would be a king)");
            }
        }
        Ok(Self::from_parts_unchecked(white, black, kings, side))
    }

    /// A position from parts known to be valid (the endgame databases' index makes only
    /// valid ones); not checked.
    pub(crate) fn from_trusted(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Self {
        Self::from_parts_unchecked(white, black, kings, side)
    }

    fn from_parts_unchecked(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Self {
        let mut p = Position {
            pieces: [white, black],
            kings,
            side,
            king_run: [0; 2],
            key: 0,
            rules: PhantomData,
        };
        p.key = p.compute_key();
        p
    }

    /// The run of non-capturing moves of one king of colour `c` (`R::KING_MOVE_LIMIT`):
    /// how many moves in a row, and the king's bit; `None` without a run.
    #[inline(always)]
    pub fn king_run(&self, c: Color) -> Option<(u8, u32)> {
        let r = self.king_run[c.index()];
        (r != 0).then(|| (r >> 6, u32::from(r & 63)))
    }

    /// The same position with colour `c`'s king run set to `count` moves of the king on bit
    /// `bit` (for set-up positions); an error when the rule set has no limit, the count is
    /// out of range, or no king of `c` stands there. A count of 0 clears the run.
    pub fn with_king_run(&self, c: Color, count: u8, bit: u32) -> Result<Self> {
        let mut p = *self;
        if count == 0 {
            p.king_run[c.index()] = 0;
        } else {
            if count > R::KING_MOVE_LIMIT {
                bail!("a king may make at most {} moves in a row here", R::KING_MOVE_LIMIT);
            }
            if !self.kings(c).has(bit) {
                bail!("no {c} king stands on the square of the king-move count");
            }
            if self.men(c).is_empty() {
                bail!("the king-move count applies only while {c} has men");
            }
            p.king_run[c.index()] = count << 6 | bit as u8;
        }
        p.key = p.compute_key();
        Ok(p)
    }

    /// The king of the side to move that may not make a non-capturing move now, having made
    /// `R::KING_MOVE_LIMIT` of them in a row (frisian), as a bit set (empty elsewhere).
    #[inline(always)]
    pub fn blocked_king(&self) -> u64 {
        if R::KING_MOVE_LIMIT == 0 {
            return 0;
        }
        let r = self.king_run[self.side.index()];
        if r >> 6 >= R::KING_MOVE_LIMIT { 1u64 << (r & 63) } else { 0 }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Every piece of colour `c`.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.pieces[c.index()]
    }

    /// The men of colour `c`.
    #[inline(always)]
    pub fn men(&self, c: Color) -> Bitboard {
        self.pieces[c.index()] & !self.kings
    }

    /// The kings of colour `c`.
    #[inline(always)]
    pub fn kings(&self, c: Color) -> Bitboard {
        self.pieces[c.index()] & self.kings
    }

    /// Every king of both sides.
    #[inline(always)]
    pub fn all_kings(&self) -> Bitboard {
        self.kings
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Every empty playable square.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        <R::Geo as Geometry>::BOARD & !self.occupied()
    }

    /// The piece on bit `bit`, if any.
    pub fn piece_at(&self, bit: u32) -> Option<Piece> {
        let color = Color::BOTH.into_iter().find(|&c| self.pieces(c).has(bit))?;
        Some(Piece { color, king: self.kings.has(bit) })
    }

    /// The Zobrist hash key (kept up to date by [`after`](Self::after)).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The hash key computed from scratch; equals [`key`](Self::key) (a tested invariant).
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black { ZOBRIST_SIDE } else { 0 };
        for c in Color::BOTH {
            for king in [false, true] {
                let set = if king { self.kings(c) } else { self.men(c) };
                let idx = Piece { color: c, king }.index();
                for b in set {
                    key ^= ZOBRIST[idx][b as usize];
                }
            }
        }
        key ^ king_run_key(self.king_run)
    }

    /// The position after `mv`, which must be legal here.
    #[inline]
    pub fn after(&self, mv: Move) -> Self {
        self.after_with::<true>(mv)
    }

    /// The position after `mv` without updating the hash key, which is left stale: for perft,
    /// which never reads it. Nothing else may use it.
    #[inline]
    pub(crate) fn after_unkeyed(&self, mv: Move) -> Self {
        self.after_with::<false>(mv)
    }

    #[inline(always)]
    fn after_with<const KEYED: bool>(&self, mv: Move) -> Self {
        let us = self.side;
        let them = !us;
        let from = Bitboard::from_bit(mv.from());
        let to = Bitboard::from_bit(mv.to());
        let captured = mv.captured();
        let king = mv.is_king_move();
        let mut p = *self;

        // Captured pieces go first: in turkish a king may end on the square of a piece it took.
        if captured.is_any() {
            let them_kings = self.kings(them) & captured;
            let (man_idx, king_idx) = (them.index() * 2, them.index() * 2 + 1);
            if KEYED {
                for b in captured & !them_kings {
                    p.key ^= ZOBRIST[man_idx][b as usize];
                }
                for b in them_kings {
                    p.key ^= ZOBRIST[king_idx][b as usize];
                }
            }
            p.pieces[them.index()] &= !captured;
            p.kings &= !captured;
        }
        p.pieces[us.index()] = (p.pieces[us.index()] & !from) | to;
        if KEYED {
            let before = Piece { color: us, king }.index();
            let after = Piece { color: us, king: king || mv.is_promotion() }.index();
            p.key ^= ZOBRIST[before][mv.from() as usize] ^ ZOBRIST[after][mv.to() as usize];
        }
        if king {
            p.kings = (p.kings & !from) | to;
        } else if mv.is_promotion() {
            p.kings |= to;
        }
        p.side = them;
        if KEYED {
            p.key ^= ZOBRIST_SIDE;
        }
        if R::KING_MOVE_LIMIT > 0 {
            p.update_king_runs(self, mv, KEYED);
        }
        p
    }

    /// The king-move counters after `mv`, played in `before` (frisian; lidraughts
    /// `KingMoves`): a non-capturing king move extends the mover's run when the same king
    /// moves again and starts a run of one otherwise; a man move or a capture ends it. A run
    /// ends too when its king is captured or its side has no men left.
    #[inline(always)]
    fn update_king_runs(&mut self, before: &Self, mv: Move, keyed: bool) {
        let us = before.side;
        let old = self.king_run;
        let mut run = old;
        run[us.index()] = if mv.is_king_move() && !mv.is_capture() {
            let count = match before.king_run(us) {
                Some((n, sq)) if sq == mv.from() => n + 1,
                _ => 1,
            };
            count << 6 | mv.to() as u8
        } else {
            0
        };
        if let Some((_, sq)) = before.king_run(!us)
            && mv.captured().has(sq)
        {
            run[(!us).index()] = 0;
        }
        for c in Color::BOTH {
            if self.men(c).is_empty() {
                run[c.index()] = 0;
            }
        }
        self.king_run = run;
        if keyed {
            self.key ^= king_run_key(old) ^ king_run_key(run);
        }
    }

    /// Every legal move (duplicate capture routes dropped).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        movegen::generate(self, &mut list);
        list
    }

    /// True when the side to move has a capture available.
    #[inline]
    pub fn has_capture(&self) -> bool {
        movegen::has_capture(self)
    }

    /// The same pieces with the other side to move (for tests and evaluation probes); the
    /// king-move counters are kept.
    pub fn with_side(&self, side: Color) -> Self {
        let mut p = Self::from_parts_unchecked(self.pieces[0], self.pieces[1], self.kings, side);
        p.king_run = self.king_run;
        p.key = p.compute_key();
        p
    }
}
