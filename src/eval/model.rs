//! The learned evaluation: a linear model over sparse features, with two weights per feature
//! (opening-middlegame and endgame) blended by the game stage, as Scan does it.
//!
//! Features, each counted for White and subtracted for Black (so the model is
//! colour-symmetric by construction):
//!
//! | parameters | feature |
//! |---|---|
//! | `MEN` | men |
//! | `FIRST_KING` | having at least one king (the first king is worth far more than the next) |
//! | `EXTRA_KINGS` | kings beyond the first |
//! | `KING_MOBILITY` | empty squares the kings can move to |
//! | `BALANCE` | left-right imbalance of the men, `abs(sum of (2 col - size + 1))` |
//! | `RUNAWAYS` | men in the far half with nothing in their forward cone while the opponent has no king |
//! | `KING_SQUARE + s` | a king on square `s` (Black's on the rotated square) |
//! | tables | one table per [window](super::layout), `3^n` entries indexed by its men |
//! | king tables (optional) | one table per king window, `5^n` entries indexed by its men and kings, read only while a king is on the board |
//! | material (optional) | one entry per material signature (own men, own kings up to 3, their men, their kings up to 3), read from both sides |
//!
//! The material table lets a linear model see what one man or king more is worth with the
//! material left (exchanges when ahead, the drawn king endings of the flying-king rule sets).
//! It comes after the window tables (and the king tables); a file has it when its parameter
//! count says so. A king window is marked in the file by the high bit of its length byte.
//!
//! The stage is Scan's: `tempo` is the sum over all men of the rows each still has to go,
//! `stage = start tempo - tempo`, and a score is `(mg (T - stage) + eg stage) / T`.
//!
//! The same [`Model::visit`] lists the features for the evaluation and for the trainer, so
//! they cannot disagree. Window indices are gathered byte by byte from the men bit sets with
//! lookup tables built when the model loads (portable, no `pext`).

use super::layout::{self, MAX_WINDOW};
use crate::bail;
pub use crate::binfile::fnv1a;
use crate::binfile::{Reader, put_varint};
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::error::{Error, Result};
use crate::geometry::{Geometry, Shape};
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::Base;

/// Men.
pub const MEN: usize = 0;
/// The first king.
pub const FIRST_KING: usize = 1;
/// Kings beyond the first.
pub const EXTRA_KINGS: usize = 2;
/// King mobility.
pub const KING_MOBILITY: usize = 3;
/// Left-right balance of the men.
pub const BALANCE: usize = 4;
/// Runaway men.
pub const RUNAWAYS: usize = 5;
/// First king-square parameter.
pub const KING_SQUARE: usize = 6;

/// Names of the fixed scalar parameters (for reports).
pub const SCALAR_NAMES: [&str; KING_SQUARE] =
    ["men", "first-king", "extra-kings", "king-mobility", "balance", "runaways"];

/// Number of scalar parameters of a shape.
pub const fn scalar_count(shape: Shape) -> usize {
    KING_SQUARE + layout::squares_of(shape)
}

/// Bit of internal square `i` in the shape's bit layout (see [`crate::geometry`]).
pub fn bit_of(shape: Shape, i: usize) -> u32 {
    u32::from(match shape {
        Shape::Diagonal10 => crate::geometry::Diag10::BITS[i],
        Shape::Diagonal8 => crate::geometry::Diag8::BITS[i],
        Shape::Orthogonal8 => crate::geometry::Ortho8::BITS[i],
    })
}

/// Shape code in the weights file.
pub const fn shape_code(shape: Shape) -> u8 {
    match shape {
        Shape::Diagonal10 => 0,
        Shape::Diagonal8 => 1,
        Shape::Orthogonal8 => 2,
    }
}

fn shape_of_code(code: u8) -> Option<Shape> {
    match code {
        0 => Some(Shape::Diagonal10),
        1 => Some(Shape::Diagonal8),
        2 => Some(Shape::Orthogonal8),
        _ => None,
    }
}

/// The board shape of a rule set.
pub const fn shape_of(base: Base) -> Shape {
    match base {
        Base::Turkish => Shape::Orthogonal8,
        b if b.is_10x10() => Shape::Diagonal10,
        _ => Shape::Diagonal8,
    }
}

/// How one reading of a window becomes a table index.
#[derive(Clone, Copy, Debug)]
struct Plan {
    /// Parameter of the table's entry 0.
    offset: u32,
    /// +1 for White's reading, -1 for Black's.
    sign: i32,
    /// White's reading: own men are White's.
    white: bool,
    /// Bytes of the bit set that hold window squares: (byte number, lookup table).
    parts: [(u8, u16); 8],
    len: u8,
}

/// Window indices by `pext` (x86-64 with BMI2, detected when the model is built): for each
/// plan, the mask of its squares and a table from the bits `pext` extracts (in bit order) to
/// the window's base-3 digits (in window order). Two extractions and two loads per reading
/// instead of two loads per byte of the board the window touches.
#[derive(Clone, Debug, Default)]
struct Pext {
    masks: Vec<u64>,
    /// Where each plan's table starts in `tables`.
    starts: Vec<u32>,
    tables: Vec<u32>,
}

/// Whether this processor has BMI2's `pext` (and `KONDAVO_NO_PEXT` is not set).
fn has_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2") && std::env::var_os("KONDAVO_NO_PEXT").is_none()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A learned evaluation for one rule set: windows and weights.
#[derive(Clone, Debug)]
pub struct Model {
    base: Base,
    shape: Shape,
    /// Weight units per centi-man.
    unit: i32,
    windows: Vec<Vec<u8>>,
    /// Windows read with kings too (base 5: empty, own man, their man, own king, their
    /// king), scored only while a king is on the board.
    king_windows: Vec<Vec<u8>>,
    /// Plans of `king_windows` start here in `plans`.
    king_plans: usize,
    /// Parameter of the material table's entry 0 (`None`: no material table).
    material: Option<u32>,
    /// (mg, eg) per parameter.
    weights: Vec<[i16; 2]>,
    description: String,
    plans: Vec<Plan>,
    luts: Vec<[u32; 256]>,
    /// The same gather by `pext`, where the processor has it.
    pext: Option<Pext>,
    /// Rows-to-go masks: `rows[c][k]` = squares where a man of colour `c` has `k` rows to go.
    rows: [[u64; 10]; 2],
    /// Squares of each column.
    cols: [u64; 10],
    /// Per colour: the squares less than half the board from promotion (where a runaway can
    /// be).
    far: [u64; 2],
    /// Tempo of the start position.
    start_tempo: i32,
}

/// Magic bytes at the start of a weights file.
pub const MAGIC: &[u8; 8] = b"KDVOEVAL";
/// Version of the weights file format.
pub const VERSION: u32 = 1;
/// The default weight unit: weights are stored in 1/8 centi-man.
pub const DEFAULT_UNIT: i32 = 8;

impl Model {
    /// A model of `base` with `windows` and all weights zero.
    pub fn zero(base: Base, windows: Vec<Vec<u8>>, unit: i32) -> Result<Model> {
        Model::zero_with(base, windows, Vec::new(), false, unit)
    }

    /// A model of `base` with `windows`, a material table if `material`, and all weights
    /// zero.
    pub fn zero_with(
        base: Base,
        windows: Vec<Vec<u8>>,
        king_windows: Vec<Vec<u8>>,
        material: bool,
        unit: i32,
    ) -> Result<Model> {
        let shape = shape_of(base);
        let n = param_count(shape, &windows)?
            + king_param_count(&king_windows)?
            + if material { material_size(base) } else { 0 };
        Model::from_parts_with_kings(
            base,
            unit,
            windows,
            king_windows,
            vec![[0; 2]; n],
            String::new(),
        )
    }

    /// A model from its parts, checked.
    pub fn from_parts(
        base: Base,
        unit: i32,
        windows: Vec<Vec<u8>>,
        weights: Vec<[i16; 2]>,
        description: String,
    ) -> Result<Model> {
        Model::from_parts_with_kings(base, unit, windows, Vec::new(), weights, description)
    }

    /// A model from its parts with king windows, checked.
    pub fn from_parts_with_kings(
        base: Base,
        unit: i32,
        windows: Vec<Vec<u8>>,
        king_windows: Vec<Vec<u8>>,
        weights: Vec<[i16; 2]>,
        description: String,
    ) -> Result<Model> {
        let shape = shape_of(base);
        if king_windows.iter().any(|w| !squares_in_order(shape, w)) {
            bail!("a king window lists squares that are not on the board in order");
        }
        let n = param_count(shape, &windows)? + king_param_count(&king_windows)?;
        let material = if weights.len() == n {
            None
        } else if weights.len() == n + material_size(base) {
            Some(n as u32)
        } else {
            bail!(
                "the model has {} weights; its windows need {n} ({} with a material table)",
                weights.len(),
                n + material_size(base)
            );
        };
        if !(1..=1000).contains(&unit) {
            bail!("weight unit {unit} is out of range (1 to 1000 per centi-man)");
        }
        let mut m = Model {
            base,
            shape,
            unit,
            windows,
            king_windows,
            king_plans: 0,
            material,
            weights,
            description,
            plans: Vec::new(),
            luts: Vec::new(),
            pext: None,
            rows: [[0; 10]; 2],
            cols: [0; 10],
            far: [0; 2],
            start_tempo: 0,
        };
        m.build();
        Ok(m)
    }

    fn build(&mut self) {
        let shape = self.shape;
        let n = layout::squares_of(shape);
        let size = layout::size_of(shape);
        // Rows to go, tempo of the start.
        for i in 0..n {
            let bit = bit_of(shape, i);
            let row = match shape {
                Shape::Orthogonal8 => i / 8,
                _ => i / (size / 2),
            };
            self.rows[Color::White.index()][row] |= 1 << bit;
            self.rows[Color::Black.index()][size - 1 - row] |= 1 << bit;
            let col = super::tables_for(shape).col[bit as usize] as usize;
            self.cols[col] |= 1 << bit;
            if row < size / 2 {
                self.far[Color::White.index()] |= 1 << bit;
            } else {
                self.far[Color::Black.index()] |= 1 << bit;
            }
        }
        let start = match shape {
            Shape::Diagonal10 => {
                crate::position::Position::<crate::rules::International>::start().occupied().0
            }
            Shape::Diagonal8 => {
                crate::position::Position::<crate::rules::Russian>::start().occupied().0
            }
            Shape::Orthogonal8 => {
                crate::position::Position::<crate::rules::Turkish>::start().occupied().0
            }
        };
        // Both sides start symmetric: twice White's half.
        let white_half = start & self.lower_half();
        self.start_tempo = 2 * self.tempo_of(Color::White, white_half);
        // Gather plans.
        let mut offset = scalar_count(shape) as u32;
        let readings: Vec<(Vec<u8>, u32)> =
            self.readings().map(|(w, radix)| (w.clone(), radix)).collect();
        self.king_plans = 2 * self.windows.len();
        for (w, radix) in readings {
            for white in [true, false] {
                let mut luts = [[0u32; 256]; 8];
                for (j, &s) in w.iter().enumerate() {
                    let s = if white { s as usize } else { n - 1 - s as usize };
                    let bit = bit_of(shape, s);
                    let (byte, b) = ((bit / 8) as usize, bit % 8);
                    for (v, e) in luts[byte].iter_mut().enumerate() {
                        if v >> b & 1 == 1 {
                            *e += radix.pow(j as u32);
                        }
                    }
                }
                let mut plan = Plan {
                    offset,
                    sign: if white { 1 } else { -1 },
                    white,
                    parts: [(0, 0); 8],
                    len: 0,
                };
                for (byte, lut) in luts.iter().enumerate() {
                    if lut.iter().any(|&x| x != 0) {
                        plan.parts[plan.len as usize] = (byte as u8, self.luts.len() as u16);
                        plan.len += 1;
                        self.luts.push(*lut);
                    }
                }
                self.plans.push(plan);
            }
            offset += radix.pow(w.len() as u32);
        }
        self.pext = has_pext().then(|| self.pext_tables());
    }

    /// Every window with the radix of its digits: the men windows (base 3), then the king
    /// windows (base 5), in plan order.
    fn readings(&self) -> impl Iterator<Item = (&Vec<u8>, u32)> {
        let men = self.windows.iter().map(|w| (w, 3));
        men.chain(self.king_windows.iter().map(|w| (w, 5)))
    }

    /// The `pext` masks and tables of the plans, in plan order.
    fn pext_tables(&self) -> Pext {
        let n = layout::squares_of(self.shape);
        let mut p = Pext::default();
        for (w, radix) in self.readings() {
            for white in [true, false] {
                // (bit, digit value) of each square, in bit order: the order pext extracts.
                let mut bits: Vec<(u32, u32)> = w
                    .iter()
                    .enumerate()
                    .map(|(j, &s)| {
                        let s = if white { s as usize } else { n - 1 - s as usize };
                        (bit_of(self.shape, s), radix.pow(j as u32))
                    })
                    .collect();
                bits.sort_unstable();
                p.masks.push(bits.iter().fold(0u64, |m, &(b, _)| m | 1 << b));
                p.starts.push(p.tables.len() as u32);
                for pattern in 0..1u32 << bits.len() {
                    let digits = bits.iter().enumerate().filter(|&(k, _)| pattern >> k & 1 == 1);
                    p.tables.push(digits.map(|(_, &(_, d))| d).sum());
                }
            }
        }
        p
    }

    /// The same model gathering window indices with byte tables only (no `pext`): for tests
    /// that compare the two.
    pub fn without_pext(&self) -> Model {
        Model { pext: None, ..self.clone() }
    }

    /// Whether window indices are gathered with `pext`.
    pub fn uses_pext(&self) -> bool {
        self.pext.is_some()
    }

    fn lower_half(&self) -> u64 {
        let n = layout::squares_of(self.shape);
        (n / 2..n).fold(0u64, |b, i| b | 1 << bit_of(self.shape, i))
    }

    #[inline(always)]
    fn tempo_of(&self, c: Color, men: u64) -> i32 {
        let rows = &self.rows[c.index()];
        let mut t = 0;
        for (k, &mask) in rows.iter().enumerate().skip(1) {
            t += k as i32 * (men & mask).count_ones() as i32;
        }
        t
    }

    /// The rule set.
    pub fn base(&self) -> Base {
        self.base
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Weight units per centi-man.
    pub fn unit(&self) -> i32 {
        self.unit
    }

    /// The windows (White's side).
    pub fn windows(&self) -> &[Vec<u8>] {
        &self.windows
    }

    /// The windows read with kings too (White's side).
    pub fn king_windows(&self) -> &[Vec<u8>] {
        &self.king_windows
    }

    /// The (mg, eg) weights per parameter.
    pub fn weights(&self) -> &[[i16; 2]] {
        &self.weights
    }

    /// What the file says about how it was made.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Whether the model has a material table.
    pub fn has_material(&self) -> bool {
        self.material.is_some()
    }

    /// Number of parameters.
    pub fn params(&self) -> usize {
        self.weights.len()
    }

    /// The start position's tempo (the stage's range).
    pub fn start_tempo(&self) -> i32 {
        self.start_tempo
    }

    /// The stage of `pos`: 0 at the start, [`start_tempo`](Self::start_tempo) with no men.
    #[inline(always)]
    pub fn stage<R: Rules>(&self, pos: &Position<R>) -> i32 {
        let tempo = self.tempo_of(Color::White, pos.men(Color::White).0)
            + self.tempo_of(Color::Black, pos.men(Color::Black).0);
        (self.start_tempo - tempo).clamp(0, self.start_tempo)
    }

    /// Calls `f(parameter, count)` for every active feature of `pos`, White's counted
    /// positive and Black's negative. A parameter may come more than once.
    #[inline(always)]
    pub fn visit<R: Rules>(&self, pos: &Position<R>, mut f: impl FnMut(usize, i32)) {
        let (w, b) = (Color::White, Color::Black);
        let (wm, bm) = (pos.men(w), pos.men(b));
        let (wk, bk) = (pos.kings(w), pos.kings(b));
        let (nwk, nbk) = (wk.count() as i32, bk.count() as i32);
        f(MEN, wm.count() as i32 - bm.count() as i32);
        if (nwk > 0) != (nbk > 0) {
            f(FIRST_KING, i32::from(nwk > 0) - i32::from(nbk > 0));
        }
        let extra = (nwk - 1).max(0) - (nbk - 1).max(0);
        if extra != 0 {
            f(EXTRA_KINGS, extra);
        }
        if (wk | bk).is_any() {
            let occupied = pos.occupied().0;
            let empty = pos.empty().0;
            let n = layout::squares_of(self.shape);
            let mut mobility = 0;
            for k in wk {
                mobility += super::king_reach::<R>(k, occupied, empty) as i32;
                f(KING_SQUARE + <R::Geo as Geometry>::INDEX[k as usize] as usize, 1);
            }
            for k in bk {
                mobility -= super::king_reach::<R>(k, occupied, empty) as i32;
                f(KING_SQUARE + n - 1 - <R::Geo as Geometry>::INDEX[k as usize] as usize, -1);
            }
            if mobility != 0 {
                f(KING_MOBILITY, mobility);
            }
        }
        let balance = self.skew(wm).abs() - self.skew(bm).abs();
        if balance != 0 {
            f(BALANCE, balance);
        }
        let runaways = self.runaways::<R>(pos, w) - self.runaways::<R>(pos, b);
        if runaways != 0 {
            f(RUNAWAYS, runaways);
        }
        if let Some(offset) = self.material {
            let (nwm, nbm) = (wm.count(), bm.count());
            let (nwk, nbk) = (nwk as u32, nbk as u32);
            let base = self.base;
            f(offset as usize + material_index(base, nwm, nwk, nbm, nbk), 1);
            f(offset as usize + material_index(base, nbm, nbk, nwm, nwk), -1);
        }
        let kings = (wk | bk).is_any() && !self.king_windows.is_empty();
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.pext {
            // SAFETY: `pext` is set only when the processor has BMI2 (`has_pext`).
            unsafe {
                self.windows_by_pext(p, wm.0, bm.0, &mut f);
                if kings {
                    self.king_windows_by_pext(p, [wm.0, bm.0, wk.0, bk.0], &mut f);
                }
            }
            return;
        }
        for plan in &self.plans[..self.king_plans] {
            let (own, opp) = if plan.white { (wm.0, bm.0) } else { (bm.0, wm.0) };
            let mut idx = 0u32;
            for &(byte, lut) in &plan.parts[..plan.len as usize] {
                let t = &self.luts[lut as usize];
                let shift = 8 * u32::from(byte);
                idx += t[((own >> shift) & 255) as usize] + 2 * t[((opp >> shift) & 255) as usize];
            }
            f((plan.offset + idx) as usize, plan.sign);
        }
        if kings {
            let gather = |plan: &Plan, own: u64| {
                let mut idx = 0u32;
                for &(byte, lut) in &plan.parts[..plan.len as usize] {
                    idx += self.luts[lut as usize][((own >> (8 * u32::from(byte))) & 255) as usize];
                }
                idx
            };
            for plan in &self.plans[self.king_plans..] {
                let [om, tm, ok, tk] =
                    if plan.white { [wm, bm, wk, bk] } else { [bm, wm, bk, wk] }.map(|b| b.0);
                let idx = gather(plan, om)
                    + 2 * gather(plan, tm)
                    + 3 * gather(plan, ok)
                    + 4 * gather(plan, tk);
                f((plan.offset + idx) as usize, plan.sign);
            }
        }
    }

    /// The window features of `visit`, by `pext`.
    ///
    /// # Safety
    /// The processor must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn windows_by_pext(&self, p: &Pext, wm: u64, bm: u64, f: &mut impl FnMut(usize, i32)) {
        use std::arch::x86_64::_pext_u64;
        for (k, plan) in self.plans[..self.king_plans].iter().enumerate() {
            let (own, opp) = if plan.white { (wm, bm) } else { (bm, wm) };
            let (mask, start) = (p.masks[k], p.starts[k] as usize);
            let table = &p.tables[start..];
            let idx =
                table[_pext_u64(own, mask) as usize] + 2 * table[_pext_u64(opp, mask) as usize];
            f((plan.offset + idx) as usize, plan.sign);
        }
    }

    /// The king-window features of `visit`, by `pext`; `pieces` are White's men, Black's
    /// men, White's kings and Black's kings.
    ///
    /// # Safety
    /// The processor must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn king_windows_by_pext(
        &self,
        p: &Pext,
        pieces: [u64; 4],
        f: &mut impl FnMut(usize, i32),
    ) {
        use std::arch::x86_64::_pext_u64;
        let [wm, bm, wk, bk] = pieces;
        for (k, plan) in self.plans.iter().enumerate().skip(self.king_plans) {
            let [om, tm, ok, tk] = if plan.white { [wm, bm, wk, bk] } else { [bm, wm, bk, wk] };
            let (mask, start) = (p.masks[k], p.starts[k] as usize);
            let t = &p.tables[start..];
            let idx = t[_pext_u64(om, mask) as usize]
                + 2 * t[_pext_u64(tm, mask) as usize]
                + 3 * t[_pext_u64(ok, mask) as usize]
                + 4 * t[_pext_u64(tk, mask) as usize];
            f((plan.offset + idx) as usize, plan.sign);
        }
    }

    /// Sum over men of `2 col - (size - 1)`.
    #[inline(always)]
    fn skew(&self, men: Bitboard) -> i32 {
        let size = layout::size_of(self.shape);
        let mut s = 0;
        for c in 0..size {
            s += (2 * c as i32 - (size as i32 - 1)) * (men.0 & self.cols[c]).count_ones() as i32;
        }
        s
    }

    #[inline(always)]
    fn runaways<R: Rules>(&self, pos: &Position<R>, c: Color) -> i32 {
        if pos.kings(!c).is_any() || self.shape == Shape::Orthogonal8 {
            return 0;
        }
        let t = super::tables_for(self.shape);
        let occupied = pos.occupied().0;
        let candidates = pos.men(c) & Bitboard(self.far[c.index()]);
        candidates.filter(|&m| t.cone[c.index()][m as usize] & occupied == 0).count() as i32
    }

    /// The model's score of `pos` for White, in centi-men (before endgame scaling).
    #[inline]
    pub fn white_score<R: Rules>(&self, pos: &Position<R>) -> i32 {
        let (mut mg, mut eg) = (0i32, 0i32);
        let weights = &self.weights[..];
        self.visit(pos, |p, c| {
            let [a, b] = weights[p];
            mg += c * i32::from(a);
            eg += c * i32::from(b);
        });
        let stage = self.stage(pos);
        let t = self.start_tempo;
        let blended = (i64::from(mg) * i64::from(t - stage) + i64::from(eg) * i64::from(stage))
            / i64::from(t.max(1));
        (blended / i64::from(self.unit)) as i32
    }

    /// The weights file of this model.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let id = self.base.id().as_bytes();
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.push(shape_code(self.shape));
        out.extend_from_slice(&(self.unit as u16).to_le_bytes());
        let count = self.windows.len() + self.king_windows.len();
        out.extend_from_slice(&(count as u16).to_le_bytes());
        for w in &self.windows {
            out.push(w.len() as u8);
            out.extend_from_slice(w);
        }
        for w in &self.king_windows {
            out.push(w.len() as u8 | KING_WINDOW);
            out.extend_from_slice(w);
        }
        out.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        let desc = self.description.as_bytes();
        let desc = &desc[..desc.len().min(u16::MAX as usize)];
        out.extend_from_slice(&(desc.len() as u16).to_le_bytes());
        out.extend_from_slice(desc);
        // Weights: (zero run, literal count, literals) until every parameter is written.
        let w = &self.weights;
        let mut i = 0;
        while i < w.len() {
            let zeros = w[i..].iter().take_while(|x| **x == [0, 0]).count();
            i += zeros;
            let lits = w[i..].iter().take_while(|x| **x != [0, 0]).count();
            put_varint(&mut out, zeros as u64);
            put_varint(&mut out, lits as u64);
            for x in &w[i..i + lits] {
                out.extend_from_slice(&x[0].to_le_bytes());
                out.extend_from_slice(&x[1].to_le_bytes());
            }
            i += lits;
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a weights file, checking everything: magic, version, checksum, rule set, board
    /// shape, windows and sizes. The error names what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model> {
        if bytes.len() < MAGIC.len() + 4 + 8 || &bytes[..MAGIC.len()] != MAGIC {
            bail!("not a kondavo weights file (it does not start with KDVOEVAL)");
        }
        let mut r = Reader::new(bytes, MAGIC.len(), "weights file");
        let version = r.u32()?;
        if version != VERSION {
            bail!("weights file version {version} is not supported (this engine reads {VERSION})");
        }
        let body = crate::binfile::checked_body(bytes, "weights file")?;
        let mut r = Reader::new(body, r.at(), "weights file");
        let id_len = r.u8()? as usize;
        let id = std::str::from_utf8(r.take(id_len)?)
            .map_err(|_| Error::new("weights file: rule set name is not text"))?;
        let base = Base::ALL
            .into_iter()
            .find(|b| b.id() == id)
            .ok_or_else(|| Error(format!("weights file is for an unknown rule set \"{id}\"")))?;
        let shape = shape_of_code(r.u8()?)
            .ok_or_else(|| Error::new("weights file: unknown board shape"))?;
        if shape != shape_of(base) {
            bail!("weights file: the board shape does not match rule set {id}");
        }
        let unit = i32::from(r.u16()?);
        let nwin = r.u16()? as usize;
        let mut windows = Vec::with_capacity(nwin.min(256));
        let mut king_windows = Vec::new();
        for k in 0..nwin {
            let code = r.u8()?;
            let kings = code & KING_WINDOW != 0;
            let len = usize::from(code & !KING_WINDOW);
            let w = r.take(len)?.to_vec();
            let most = if kings { MAX_KING_WINDOW } else { MAX_WINDOW };
            if w.is_empty() || w.len() > most {
                bail!("weights file: window {k} has {len} squares (1 to {most} allowed)");
            }
            if !squares_in_order(shape, &w) {
                bail!("weights file: window {k} lists squares that are not on the board in order");
            }
            if kings {
                king_windows.push(w);
            } else if !king_windows.is_empty() {
                bail!("weights file: window {k} (men only) comes after the king windows");
            } else {
                windows.push(w);
            }
        }
        let n = r.u32()? as usize;
        let want = param_count(shape, &windows)? + king_param_count(&king_windows)?;
        if n != want && n != want + material_size(base) {
            bail!(
                "weights file: {n} parameters, but its windows need {want} ({} with a material \
                 table)",
                want + material_size(base)
            );
        }
        let desc_len = r.u16()? as usize;
        let description = String::from_utf8_lossy(r.take(desc_len)?).into_owned();
        let mut weights = Vec::with_capacity(n);
        while weights.len() < n {
            let zeros = r.varint()? as usize;
            let lits = r.varint()? as usize;
            if zeros + lits == 0 || weights.len() + zeros + lits > n {
                bail!("weights file: the weights do not add up to {n} parameters");
            }
            weights.resize(weights.len() + zeros, [0, 0]);
            for _ in 0..lits {
                let a = r.u16()? as i16;
                let b = r.u16()? as i16;
                weights.push([a, b]);
            }
        }
        if r.at() != body.len() {
            bail!("weights file: {} unexpected bytes after the weights", body.len() - r.at());
        }
        Model::from_parts_with_kings(base, unit, windows, king_windows, weights, description)
    }

    /// Reads a weights file from disk.
    pub fn load(path: &std::path::Path) -> Result<Model> {
        let bytes = std::fs::read(path)
            .map_err(|e| Error(format!("cannot read weights file {}: {e}", path.display())))?;
        Model::from_bytes(&bytes).map_err(|e| Error(format!("{}: {e}", path.display())))
    }

    /// The same model with every weight multiplied by `factor` (rounded, and clamped to the
    /// file's 16 bits), and the number of weights the clamp changed: its scores are `factor`
    /// times this model's. The scale of a model is a choice of training (the sigmoid's `K`)
    /// that the search's margins, counted in centi-men, see; this tries another without
    /// retraining. The description records the factor.
    pub fn scaled(&self, factor: f64) -> Result<(Model, usize)> {
        if !factor.is_finite() || !(0.01..=100.0).contains(&factor) {
            bail!("scale factor {factor} is out of range (0.01 to 100)");
        }
        let mut clamped = 0;
        let weights = self
            .weights
            .iter()
            .map(|w| {
                w.map(|x| {
                    let v = (f64::from(x) * factor).round();
                    if v.abs() > 32_767.0 {
                        clamped += 1;
                    }
                    v.clamp(-32_767.0, 32_767.0) as i16
                })
            })
            .collect();
        let description = format!("{}; weights scaled by {factor}", self.description);
        let model = Model::from_parts_with_kings(
            self.base,
            self.unit,
            self.windows.clone(),
            self.king_windows.clone(),
            weights,
            description,
        )?;
        Ok((model, clamped))
    }

    /// Checks that this model is for `base` (the optional-capture options use their base
    /// rule set's models).
    pub fn check_rule_set(&self, base: Base) -> Result<()> {
        if self.base != base {
            bail!(
                "the weights file is for {}, not for {} (the engine keeps its previous weights)",
                self.base.id(),
                base.id()
            );
        }
        Ok(())
    }
}

/// Kings per side the material table tells apart (more count as this many).
pub const MATERIAL_KINGS: u32 = 3;

/// Entries of the material table of a rule set (men counted up to the rule set's men per
/// side).
pub const fn material_size(base: Base) -> usize {
    let m = (base.men_per_side() + 1) as usize;
    let k = (MATERIAL_KINGS + 1) as usize;
    m * k * m * k
}

/// The material table entry of a side with `men` and `kings` against `their_men` and
/// `their_kings`.
#[inline(always)]
pub fn material_index(base: Base, men: u32, kings: u32, their_men: u32, their_kings: u32) -> usize {
    let m = base.men_per_side();
    let (mm, kk) = ((m + 1) as usize, (MATERIAL_KINGS + 1) as usize);
    let k = |x: u32| x.min(MATERIAL_KINGS) as usize;
    ((men.min(m) as usize * kk + k(kings)) * mm + their_men.min(m) as usize) * kk + k(their_kings)
}

/// Number of parameters of a shape with `windows` (without a material table); an error if a
/// window is too big.
pub fn param_count(shape: Shape, windows: &[Vec<u8>]) -> Result<usize> {
    let mut n = scalar_count(shape);
    for (k, w) in windows.iter().enumerate() {
        if w.is_empty() || w.len() > MAX_WINDOW {
            bail!("window {k} has {} squares (1 to {MAX_WINDOW} allowed)", w.len());
        }
        n += 3usize.pow(w.len() as u32);
    }
    Ok(n)
}

/// The flag on a window's length byte in a weights file that makes it a king window.
const KING_WINDOW: u8 = 0x80;
/// The largest king window: 5^8 = 390,625 entries per table.
pub const MAX_KING_WINDOW: usize = 8;

/// Whether a window's squares are on the board and in increasing order.
fn squares_in_order(shape: Shape, w: &[u8]) -> bool {
    w.iter().all(|&s| usize::from(s) < layout::squares_of(shape))
        && w.windows(2).all(|p| p[0] < p[1])
}

/// Number of parameters of `king_windows` (5^n entries each); an error if one is too big.
pub fn king_param_count(king_windows: &[Vec<u8>]) -> Result<usize> {
    let mut n = 0;
    for (k, w) in king_windows.iter().enumerate() {
        if w.is_empty() || w.len() > MAX_KING_WINDOW {
            bail!("king window {k} has {} squares (1 to {MAX_KING_WINDOW} allowed)", w.len());
        }
        n += 5usize.pow(w.len() as u32);
    }
    Ok(n)
}

/// The window index of `window` read from White's side by looking at each square (the slow
/// reference that the byte-table gather is tested against).
pub fn reference_index<G: Geometry>(window: &[u8], white: Bitboard, black: Bitboard) -> u32 {
    let mut idx = 0;
    for (j, &s) in window.iter().enumerate() {
        let bit = G::BITS[s as usize] as u32;
        let d = if white.has(bit) {
            1
        } else if black.has(bit) {
            2
        } else {
            0
        };
        idx += d * 3u32.pow(j as u32);
    }
    idx
}
