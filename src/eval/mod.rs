//! Static evaluation, one set of weights per rule set (each in its own file), so that every
//! rule set is its own computer opponent.
//!
//! Terms, each from White's side then subtracted for Black: material (a king's worth is the
//! rule set's own); men advancement by rows; men in the centre; men guarding their own back
//! row while the opponent still has men to crown; runaway men (nothing in the forward cone and
//! no enemy king to catch them); king mobility and kings on the main diagonal; and, when one
//! side has only kings left, a drive towards the lone kings. Material that the rule set cannot
//! win (a lone king holds against a few kings) is scaled towards a draw.
//!
//! That hand-set evaluation is the fallback; a rule set with a trained [`Model`] (a weights
//! file in `data/eval/`, built into the binary, or one loaded at run time) is scored by the
//! model instead, with the same endgame drive and scaling on top (rule knowledge that a
//! linear model cannot express).
//!
//! The optional-capture variants use their base rule set's weights.

mod antidraughts;
mod brazilian;
mod breakthrough;
mod czech;
mod english;
mod frisian;
mod international;
mod italian;
mod killer;
pub mod layout;
pub mod model;
mod russian;
mod spanish;
mod turkish;
mod ukrainian;

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::geometry::{Geometry, Shape};
use crate::position::Position;
use crate::rules::{Goal, Optional, Rules};
use crate::score::Score;
use crate::variant::Base;
pub use model::Model;
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The weights of one rule set's evaluation (centi-men).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// A man's bonus by rows advanced from its own back row (index 0 = back row).
    pub advance: [i32; 10],
    /// A man on a central square.
    pub centre: i32,
    /// A man on its own back row while the opponent has men (it stops their crowning).
    pub back_row: i32,
    /// A runaway man (nothing ahead, no enemy king), before 12 per row still to go.
    pub runaway: i32,
    /// Each square a king can move to.
    pub king_mobility: i32,
    /// A king on the main diagonal (diagonal boards).
    pub main_diagonal: i32,
    /// Against lone kings: bonus per step the attacking kings are closer.
    pub drive: i32,
    /// How many kings a lone king holds off (the result is a draw): 1 = it holds off a single
    /// king only; 3 = it draws against three kings.
    pub lone_king_holds: u32,
}

/// A rule set with an evaluation.
pub trait Eval: Rules {
    /// The rule set's weights.
    const WEIGHTS: Weights;

    /// The hand-set evaluation of `pos` for White, before the endgame terms: the weighted
    /// terms, unless the rule set's goal asks for terms of its own (breakthrough,
    /// antidraughts).
    fn hand(pos: &Position<Self>) -> i32 {
        hand_score(pos)
    }
}

impl<R: Eval> Eval for Optional<R> {
    const WEIGHTS: Weights = R::WEIGHTS;
}

/// Per-geometry tables the evaluation reads.
struct Tables {
    /// Row of each bit from the top.
    row: [u8; 64],
    /// Column of each bit.
    col: [u8; 64],
    centre: u64,
    main_diagonal: u64,
    /// Forward cone of each bit per colour: the squares a man there could reach.
    cone: [[u64; 64]; 2],
}

fn tables_of<G: Geometry>() -> Tables {
    let mut t =
        Tables { row: [0; 64], col: [0; 64], centre: 0, main_diagonal: 0, cone: [[0; 64]; 2] };
    let n = G::SIZE;
    let diag = G::SHAPE != Shape::Orthogonal8;
    for i in 0..G::SQUARES {
        let b = G::BITS[i] as usize;
        let (r, c) = G::coords(i);
        t.row[b] = r as u8;
        t.col[b] = c as u8;
        if (n / 2 - 2..=n / 2 + 1).contains(&r) && (2..n - 2).contains(&c) {
            t.centre |= 1 << b;
        }
        if diag && r + c == n - 1 {
            t.main_diagonal |= 1 << b;
        }
    }
    for i in 0..G::SQUARES {
        let b = G::BITS[i] as usize;
        let (r, c) = G::coords(i);
        for j in 0..G::SQUARES {
            let (r2, c2) = G::coords(j);
            let lateral = c.abs_diff(c2);
            if r2 < r && (!diag || lateral <= r - r2) {
                t.cone[Color::White.index()][b] |= 1 << G::BITS[j];
            }
            if r2 > r && (!diag || lateral <= r2 - r) {
                t.cone[Color::Black.index()][b] |= 1 << G::BITS[j];
            }
        }
    }
    t
}

static TABLES: Lazy<[Tables; 3]> = Lazy::new(|| {
    [
        tables_of::<crate::geometry::Diag10>(),
        tables_of::<crate::geometry::Diag8>(),
        tables_of::<crate::geometry::Ortho8>(),
    ]
});

fn tables<G: Geometry>() -> &'static Tables {
    tables_for(G::SHAPE)
}

fn tables_for(shape: Shape) -> &'static Tables {
    &TABLES[match shape {
        Shape::Diagonal10 => 0,
        Shape::Diagonal8 => 1,
        Shape::Orthogonal8 => 2,
    }]
}

/// Empty squares a king on `sq` reaches in one move.
fn king_reach<R: Rules>(sq: u32, occupied: u64, empty: u64) -> u32 {
    (0..4)
        .map(|d| {
            if R::FLYING_KINGS {
                let ray = R::Geo::RAYS[d][sq as usize];
                let blockers = ray & occupied;
                if blockers == 0 {
                    ray.count_ones()
                } else {
                    let f = if R::Geo::SHIFT[d] > 0 {
                        blockers.trailing_zeros()
                    } else {
                        63 - blockers.leading_zeros()
                    };
                    (ray ^ (R::Geo::RAYS[d][f as usize] | 1 << f)).count_ones()
                }
            } else {
                (R::Geo::STEPS[d][sq as usize] & empty).count_ones()
            }
        })
        .sum()
}

/// The positional score of colour `c`'s pieces (without material).
fn side<R: Eval>(pos: &Position<R>, c: Color, t: &Tables) -> i32 {
    let w = &R::WEIGHTS;
    let size = <R::Geo as Geometry>::SIZE as i32;
    let men = pos.men(c);
    let them = !c;
    let occupied = pos.occupied().0;
    let empty = pos.empty().0;
    let mut s = 0;
    for m in men {
        let row = i32::from(t.row[m as usize]);
        let advanced = if c == Color::White { size - 1 - row } else { row };
        s += w.advance[advanced as usize];
        let ahead = t.cone[c.index()][m as usize];
        if w.runaway != 0 && pos.kings(them).is_empty() && ahead & (occupied & !(1u64 << m)) == 0 {
            s += w.runaway - 12 * (size - 1 - advanced);
        }
    }
    s += w.centre * (men & Bitboard(t.centre)).count() as i32;
    if pos.men(them).is_any() {
        s += w.back_row * (men & R::promotion_row(them)).count() as i32;
    }
    for k in pos.kings(c) {
        s += w.king_mobility * king_reach::<R>(k, occupied, empty) as i32;
    }
    s += w.main_diagonal * (pos.kings(c) & Bitboard(t.main_diagonal)).count() as i32;
    s
}

/// Distance in king steps between two bits (Chebyshev on the grid).
fn distance(t: &Tables, a: u32, b: u32) -> i32 {
    let dr = t.row[a as usize].abs_diff(t.row[b as usize]);
    let dc = t.col[a as usize].abs_diff(t.col[b as usize]);
    i32::from(dr.max(dc))
}

/// Colour `c`'s material by the hand-set weights.
fn material<R: Eval>(pos: &Position<R>, c: Color) -> i32 {
    let w = &R::WEIGHTS;
    w.man * pos.men(c).count() as i32 + w.king * pos.kings(c).count() as i32
}

/// The hand-set evaluation of `pos` for White, before the endgame terms.
fn hand_score<R: Eval>(pos: &Position<R>) -> i32 {
    let t = tables::<R::Geo>();
    material(pos, Color::White) - material(pos, Color::Black) + side(pos, Color::White, t)
        - side(pos, Color::Black, t)
}

/// The evaluation of `pos` for the side to move: by `model` when there is one, else by the
/// rule set's hand-set weights.
#[inline]
pub fn evaluate<R: Eval>(pos: &Position<R>, model: Option<&Model>) -> Score {
    let s = match model {
        Some(m) => m.white_score(pos),
        None => R::hand(pos),
    };
    // The drive against lone kings and the drawn-material scaling are for the standard goal.
    let s = if R::GOAL == Goal::Standard { endgame(pos, s) } else { s };
    Score(if pos.side() == Color::White { s } else { -s })
}

/// Endgames against lone kings: drive the attackers towards them, and scale what a lone king
/// holds towards a draw. `s` and the result are White's.
fn endgame<R: Eval>(pos: &Position<R>, mut s: i32) -> i32 {
    let w = &R::WEIGHTS;
    let t = tables::<R::Geo>();
    let material = |c: Color| material(pos, c);
    for (strong, weak, sign) in [(Color::White, Color::Black, 1), (Color::Black, Color::White, -1)]
    {
        let weak_pieces = pos.pieces(weak);
        if pos.men(weak).is_any() || weak_pieces.is_empty() || material(strong) <= material(weak) {
            continue;
        }
        let mut near = 0;
        for k in pos.kings(strong) {
            let d = weak_pieces.map(|x| distance(t, k, x)).min().unwrap_or(0);
            near += 8 - d.min(8);
        }
        s += sign * w.drive * near;
        let lone = weak_pieces.count() == 1;
        if lone && pos.men(strong).is_empty() && pos.kings(strong).count() <= w.lone_king_holds {
            s /= 8;
        }
    }
    s
}

/// The name that stands for the hand-set evaluation where a weights file is asked for (Hub
/// `eval-file`, `--eval`): the rule set plays without its learned weights.
pub const HAND: &str = "hand";

/// The trained weights files built into the binary (`data/eval/<rule set>.kdw`; each file
/// names the data and settings that made it). A rule set without one plays with its
/// hand-set weights.
const BUILTIN_FILES: &[(Base, &[u8])] = &[
    (Base::International, include_bytes!("../../data/eval/international.kdw")),
    (Base::Brazilian, include_bytes!("../../data/eval/brazilian.kdw")),
    (Base::Russian, include_bytes!("../../data/eval/russian.kdw")),
    (Base::Ukrainian, include_bytes!("../../data/eval/ukrainian.kdw")),
    (Base::English, include_bytes!("../../data/eval/english.kdw")),
    (Base::Italian, include_bytes!("../../data/eval/italian.kdw")),
    (Base::Spanish, include_bytes!("../../data/eval/spanish.kdw")),
    (Base::Czech, include_bytes!("../../data/eval/czech.kdw")),
    (Base::Turkish, include_bytes!("../../data/eval/turkish.kdw")),
    (Base::Frisian, include_bytes!("../../data/eval/frisian.kdw")),
    (Base::Frysk, include_bytes!("../../data/eval/frysk.kdw")),
    (Base::Breakthrough, include_bytes!("../../data/eval/breakthrough.kdw")),
    (Base::Antidraughts, include_bytes!("../../data/eval/antidraughts.kdw")),
];

/// The built-in weights file of a rule set, if it has been trained.
pub fn builtin_file(base: Base) -> Option<&'static [u8]> {
    BUILTIN_FILES.iter().find(|(b, _)| *b == base).map(|(_, f)| *f)
}

static BUILTIN: Lazy<Vec<Option<Arc<Model>>>> = Lazy::new(|| {
    Base::ALL
        .into_iter()
        .map(|b| {
            let bytes = builtin_file(b)?;
            match Model::from_bytes(bytes) {
                Ok(m) if m.base() == b => Some(Arc::new(m)),
                Ok(_) => {
                    log::error!("built-in weights of {} are for another rule set", b.id());
                    None
                }
                Err(e) => {
                    log::error!("built-in weights of {} do not load: {e}", b.id());
                    None
                }
            }
        })
        .collect()
});

/// The rule set whose learned models `base` plays with: its own, except killer, which differs
/// from international only in one rare king capture and uses the international models.
pub const fn model_base(base: Base) -> Base {
    match base {
        Base::Killer => Base::International,
        b => b,
    }
}

/// The weights file at `path`, checked to be for the rule set `base` plays with
/// ([`model_base`]).
pub fn load_model(base: Base, path: &std::path::Path) -> crate::error::Result<Arc<Model>> {
    let m = Model::load(path)?;
    m.check_rule_set(model_base(base))?;
    Ok(Arc::new(m))
}

/// The built-in model of a rule set (`None`: it plays with the hand-set weights).
pub fn builtin_model(base: Base) -> Option<Arc<Model>> {
    let base = model_base(base);
    let i = Base::ALL.iter().position(|&b| b == base)?;
    BUILTIN[i].clone()
}
