//! Rule sets as types. Each rule set is a zero-sized type implementing [`Rules`], declared in
//! its own short file with the rule-book article behind every constant; the move generator,
//! positions and the search are generic over it. The runtime choice of a rule set happens in
//! exactly one place: [`crate::with_rules!`].
//!
//! The optional-capture house option is the wrapper [`Optional<R>`]: the same rules with
//! capturing made a choice.

mod brazilian;
mod czech;
mod english;
mod international;
mod italian;
mod killer;
mod russian;
mod spanish;
mod turkish;
mod ukrainian;

pub use brazilian::Brazilian;
pub use czech::Czech;
pub use english::English;
pub use international::International;
pub use italian::Italian;
pub use killer::Killer;
pub use russian::Russian;
pub use spanish::Spanish;
pub use turkish::Turkish;
pub use ukrainian::Ukrainian;

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::geometry::{Geometry, Shape};
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
        if Self::MEN_CAPTURE_BACKWARD { 0b1111 } else { Self::man_move_dirs(c) }
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
}
