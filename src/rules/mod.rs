//! Rule sets as types. Each rule set is a zero-sized type implementing [`Rules`], declared in
//! its own short file with the rule-book article behind every constant; the move generator,
//! positions and the search are generic over it. The runtime choice of a rule set happens in
//! exactly one place: [`crate::with_rules!`].
//!
//! The optional-capture house option is the wrapper [`Optional<R>`]: the same rules with
//! capturing made a choice.

mod antidraughts;
mod brazilian;
mod breakthrough;
mod czech;
mod english;
mod frisian;
mod international;
mod italian;
mod killer;
mod russian;
mod spanish;
mod turkish;
mod ukrainian;

pub use antidraughts::Antidraughts;
pub use brazilian::Brazilian;
pub use breakthrough::Breakthrough;
pub use czech::Czech;
pub use english::English;
pub use frisian::{Frisian, Frysk};
pub use international::International;
pub use italian::Italian;
pub use killer::Killer;
pub use russian::Russian;
pub use spanish::Spanish;
pub use turkish::Turkish;
pub use ukrainian::Ukrainian;

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::geometry::{ALL_CAPTURE_DIRS, ALL_DIRS, Geometry, Shape};
use crate::position::Position;
use crate::variant::{Base, Variant};
use std::fmt::Debug;
use std::hash::Hash;
use std::marker::PhantomData;

/// Which capture must be chosen when several are available.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Precedence {
    /// Any capture may be chosen (russian, ukrainian, english).
    Free,
    /// The capture taking the most pieces, men and kings counting one each
    /// (international, brazilian, turkish).
    Majority,
    /// Italian order: most pieces; then a king capturing before a man; then most kings
    /// captured; then the capture meeting a king earliest.
    Italian,
    /// Spanish order: most pieces; then most kings captured.
    Spanish,
    /// Czech: if a king can capture, a king must; otherwise free choice.
    KingFirst,
    /// Frisian order: the greatest value, a king worth more than one man but less than two
    /// (n kings outweigh 2n - 1 men); at equal value a king capturing before a man.
    Value,
}

/// How a game is won (the draw rules aside).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Goal {
    /// The side left without a legal move (no pieces, or blocked) loses.
    Standard,
    /// The side left without a legal move wins (antidraughts).
    Losing,
    /// The first side to crown a king wins; a side without a legal move loses
    /// (breakthrough).
    FirstKing,
}

/// A rule set: the constants the move generator and the search are compiled for.
pub trait Rules: Copy + Send + Sync + Default + Debug + Eq + Hash + 'static {
    /// The board this rule set is played on.
    type Geo: Geometry;
    /// The rule set's runtime identity.
    const BASE: Base;
    /// Capturing is a choice, not compulsory (the optional-capture house option).
    const OPTIONAL_CAPTURE: bool = false;
    /// The side that moves first.
    const FIRST: Color = Color::White;
    /// Kings move and capture any distance along a line.
    const FLYING_KINGS: bool;
    /// Men capture backward as well as forward (diagonal boards only).
    const MEN_CAPTURE_BACKWARD: bool;
    /// Men may capture kings (false in italian).
    const MEN_CAPTURE_KINGS: bool = true;
    /// A man reaching the last row during a capture is crowned at once and continues as a
    /// king; otherwise it stays a man until the move ends.
    const PROMOTE_MID_CAPTURE: bool = false;
    /// Captured pieces leave the board after each jump (turkish); otherwise they stay until the
    /// capture ends, block the path and may not be jumped twice (the Turkish strike).
    const IMMEDIATE_REMOVAL: bool = false;
    /// Which capture must be chosen among the available ones.
    const PRECEDENCE: Precedence;
    /// A king whose capture ends by taking a king must land on the square directly behind
    /// it (killer draughts); otherwise it may land on any free square beyond.
    const KING_TAKING_KING_LANDS_BEHIND: bool = false;
    /// How the game is won.
    const GOAL: Goal = Goal::Standard;
    /// Men and kings also capture along the rows and columns of the diagonal board, over
    /// the next playable square of the line (frisian); kings still move only diagonally.
    const ORTHOGONAL_CAPTURE: bool = false;
    /// The most non-capturing moves in a row the same king may make while its side still
    /// has men (frisian: 3); 0 for no limit. The count is part of the position.
    const KING_MOVE_LIMIT: u8 = 0;

    /// The runtime identity, including the optional-capture option.
    fn variant() -> Variant {
        Variant { base: Self::BASE, optional_capture: Self::OPTIONAL_CAPTURE }
    }

    /// Directions a man of colour `c` moves in (forward; and sideways on the orthogonal board).
    #[inline(always)]
    fn man_move_dirs(c: Color) -> u8 {
        match (Self::Geo::SHAPE, c) {
            (Shape::Orthogonal8, Color::White) => 0b0111,
            (Shape::Orthogonal8, Color::Black) => 0b1110,
            (_, Color::White) => 0b0011,
            (_, Color::Black) => 0b1100,
        }
    }

    /// Directions a man of colour `c` captures in.
    #[inline(always)]
    fn man_capture_dirs(c: Color) -> u8 {
        if Self::ORTHOGONAL_CAPTURE {
            ALL_CAPTURE_DIRS
        } else if Self::MEN_CAPTURE_BACKWARD {
            0b1111
        } else {
            Self::man_move_dirs(c)
        }
    }

    /// Every direction a piece may capture in (the eight of `Geometry::CSHIFT` with
    /// orthogonal captures, else the four of the board).
    #[inline(always)]
    fn capture_dirs() -> u8 {
        if Self::ORTHOGONAL_CAPTURE { ALL_CAPTURE_DIRS } else { ALL_DIRS }
    }

    /// The row where men of colour `c` are crowned.
    #[inline(always)]
    fn promotion_row(c: Color) -> Bitboard {
        match c {
            Color::White => Self::Geo::TOP_ROW,
            Color::Black => Self::Geo::BOTTOM_ROW,
        }
    }

    /// The precedence key of a complete capture: among the available captures only those with
    /// the greatest key are legal. `order` has bit `15 - i` set when the `i`-th piece taken
    /// was a king (so a larger value meets a king earlier).
    #[inline(always)]
    fn capture_key(count: u32, mover_is_king: bool, kings: u32, order: u32) -> u32 {
        match Self::PRECEDENCE {
            Precedence::Free => 0,
            Precedence::Majority => count,
            Precedence::Italian => {
                (count << 24) | (u32::from(mover_is_king) << 23) | (kings << 16) | order
            }
            Precedence::Spanish => (count << 8) | kings,
            Precedence::KingFirst => u32::from(mover_is_king),
            // lidraughts: a man counts 100 and a king 199, so n kings (n < 100) outweigh
            // 2n - 1 men and not 2n.
            Precedence::Value => {
                ((count - kings) * 100 + kings * 199) << 1 | u32::from(mover_is_king)
            }
        }
    }
}

/// The optional-capture house option on rule set `R`: legal moves are `R`'s legal captures
/// (after its precedence) plus every quiet move. A capture once chosen is completed as `R` says.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Optional<R>(PhantomData<R>);

impl<R: Rules> Rules for Optional<R> {
    type Geo = R::Geo;
    const BASE: Base = R::BASE;
    const OPTIONAL_CAPTURE: bool = true;
    const FIRST: Color = R::FIRST;
    const FLYING_KINGS: bool = R::FLYING_KINGS;
    const MEN_CAPTURE_BACKWARD: bool = R::MEN_CAPTURE_BACKWARD;
    const MEN_CAPTURE_KINGS: bool = R::MEN_CAPTURE_KINGS;
    const PROMOTE_MID_CAPTURE: bool = R::PROMOTE_MID_CAPTURE;
    const IMMEDIATE_REMOVAL: bool = R::IMMEDIATE_REMOVAL;
    const PRECEDENCE: Precedence = R::PRECEDENCE;
    const KING_TAKING_KING_LANDS_BEHIND: bool = R::KING_TAKING_KING_LANDS_BEHIND;
    const GOAL: Goal = R::GOAL;
    const ORTHOGONAL_CAPTURE: bool = R::ORTHOGONAL_CAPTURE;
    const KING_MOVE_LIMIT: u8 = R::KING_MOVE_LIMIT;
}

/// The winner of a game that has ended on the board whatever the legal moves are: in
/// breakthrough, the side with a king (normally the side that just moved; in a set-up position
/// with kings on both sides, the side not to move, whose king came first). `None` elsewhere.
#[inline(always)]
pub fn crowned_winner<R: Rules>(pos: &Position<R>) -> Option<Color> {
    if R::GOAL != Goal::FirstKing || pos.all_kings().is_empty() {
        return None;
    }
    let them = !pos.side();
    Some(if pos.kings(them).is_any() { them } else { pos.side() })
}

/// The winner when the side to move has no legal move: the other side, except in
/// antidraughts, where it is the side to move.
#[inline(always)]
pub fn winner_without_moves<R: Rules>(pos: &Position<R>) -> Color {
    if R::GOAL == Goal::Losing { pos.side() } else { !pos.side() }
}
