//! Legal move generation for every rule set, generic over [`Rules`].
//!
//! Quiet moves come from whole-board shifts (men) and rays (kings). Captures come from one
//! recursion per moving piece that knows every capture rule through `R`'s constants:
//!
//! - *Turkish strike* (every diagonal rule set): captured pieces stay on the board until the
//!   move ends; they block the path and cannot be jumped twice. *Immediate removal* (turkish):
//!   each captured piece leaves at once, so its square can be crossed again.
//! - A flying king lands on any empty square beyond the captured piece; if some of those
//!   landings let the capture go on, it must land on one of them. A king never turns back
//!   180° (under the strike the captured piece blocks it anyway; in turkish it is a rule).
//!   Continuing straight on is tried only from the farthest landing, so one straight sweep
//!   is never generated twice.
//! - A man crowned mid-capture continues as a king when `R::PROMOTE_MID_CAPTURE`; otherwise it
//!   jumps on as a man and is crowned only if it ends on its promotion row.
//! - Among complete captures only those with the greatest [`Rules::capture_key`] are legal
//!   (majority, Italian and Spanish order, Czech king-first).
//! - Duplicate routes (same from, to, captured set and result) are one move: they are equal
//!   [`Move`] values, dropped on insertion. A duplicate needs at least three captured pieces
//!   (with one or two, start, end and captured set fix the route), so only those are checked.
//!
//! The recursion is skipped in the most common case, where every legal capture is a single
//! jump of a man (see `single_jumps`): those are found for all men at once by whole-board
//! shifts, and emitted in the order the recursion would give.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::geometry::{Dir, Geometry, opposite, perpendicular};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{Precedence, Rules};
use std::marker::PhantomData;

/// Receives complete captures with their precedence key and landing path.
trait Sink {
    /// Records that the capturing piece lands on `sq` (the path of the route so far).
    #[inline(always)]
    fn push(&mut self, _sq: u32) {}
    /// Forgets the last landing square.
    #[inline(always)]
    fn pop(&mut self) {}
    /// Receives a complete capture with its precedence key.
    fn emit(&mut self, mv: Move, key: u32);
}

/// The fewest captured pieces a duplicate route can have: three on the diagonal board (with
/// one or two, start, end and captured set fix the route); with orthogonal captures this is
/// not proven, so every capture of two or more is checked.
#[inline(always)]
const fn min_duplicate<R: Rules>() -> u32 {
    if R::ORTHOGONAL_CAPTURE { 2 } else { 3 }
}

/// Collects the captures with the greatest key into a move list.
struct ListSink<'a, R> {
    list: &'a mut MoveList,
    start: usize,
    best: u32,
    dedupe: bool,
    rules: PhantomData<R>,
}

impl<R: Rules> Sink for ListSink<'_, R> {
    #[inline(always)]
    fn emit(&mut self, mv: Move, key: u32) {
        if key < self.best {
            return;
        }
        if key > self.best {
            self.list.truncate(self.start);
            self.best = key;
        }
        if self.dedupe
            && mv.captured().count() >= min_duplicate::<R>()
            && self.list[self.start..].contains(&mv)
        {
            return;
        }
        self.list.push(mv);
    }
}

/// Collects the captures with the greatest key together with their landing paths, one entry
/// per route (duplicates kept).
struct RouteSink {
    routes: Vec<(Move, Vec<u32>)>,
    path: Vec<u32>,
    best: u32,
}

impl Sink for RouteSink {
    fn push(&mut self, sq: u32) {
        self.path.push(sq);
    }

    fn pop(&mut self) {
        self.path.pop();
    }

    fn emit(&mut self, mv: Move, key: u32) {
        if key < self.best {
            return;
        }
        if key > self.best {
            self.routes.clear();
            self.best = key;
        }
        self.routes.push((mv, self.path.clone()));
    }
}

/// Counts the captures with the greatest key; keeps only those that could have duplicates.
struct CountSink<R> {
    count: u64,
    best: u32,
    dedupe: bool,
    long: MoveList,
    rules: PhantomData<R>,
}

impl<R: Rules> Sink for CountSink<R> {
    #[inline(always)]
    fn emit(&mut self, mv: Move, key: u32) {
        if key < self.best {
            return;
        }
        if key > self.best {
            self.count = 0;
            self.long.clear();
            self.best = key;
        }
        if self.dedupe && mv.captured().count() >= min_duplicate::<R>() {
            if self.long.contains(&mv) {
                return;
            }
            self.long.push(mv);
        }
        self.count += 1;
    }
}

/// The part of a capture in progress that changes from jump to jump.
#[derive(Clone, Copy)]
struct State {
    /// Squares captured so far.
    captured: u64,
    /// Squares the mover may cross or land on (grows under immediate removal).
    empty: u64,
    /// Italian order key: bit `15 - i` set when the `i`-th piece taken was a king.
    order: u32,
    /// A man crowned during this capture (`R::PROMOTE_MID_CAPTURE`).
    promoted: bool,
}

/// The capture recursion for one moving piece.
struct Capture<'a, R: Rules, S: Sink> {
    us: Color,
    from: u32,
    king: bool,
    them: u64,
    them_kings: u64,
    sink: &'a mut S,
    /// Continue straight on from every landing square, not only the farthest: each stop on a
    /// straight sweep is then a route of its own (kish's "keep" convention for turkish).
    every_stop: bool,
    rules: PhantomData<R>,
}

/// The square of `b` nearest along direction `d` (one of the eight capture directions).
#[inline(always)]
fn nearest<G: Geometry>(b: u64, d: Dir) -> u32 {
    if G::CSHIFT[d] > 0 { b.trailing_zeros() } else { 63 - b.leading_zeros() }
}

/// The square of `b` farthest along direction `d` (one of the eight capture directions).
#[inline(always)]
fn farthest<G: Geometry>(b: u64, d: Dir) -> u32 {
    if G::CSHIFT[d] > 0 { 63 - b.leading_zeros() } else { b.trailing_zeros() }
}

/// Empty squares a capturing king on `sq` crosses in capture direction `d` (one of eight),
/// up to the first piece.
#[inline(always)]
fn capture_slide<G: Geometry>(sq: u32, d: Dir, occupied: u64) -> u64 {
    let ray = G::CRAYS[d][sq as usize];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        let f = nearest::<G>(blockers, d);
        ray ^ (G::CRAYS[d][f as usize] | 1u64 << f)
    }
}

/// The directions a capturing king may go on in after a capture in direction `d`, besides
/// straight on: the two perpendicular ones, or with orthogonal captures every one but
/// straight on and straight back.
#[inline(always)]
fn turn_dirs<R: Rules>(d: Dir) -> u8 {
    if R::ORTHOGONAL_CAPTURE { !(1u8 << d | 1u8 << opposite(d)) } else { perpendicular(d) }
}

/// Empty squares a king on `sq` slides over in direction `d`, up to the first piece.
#[inline(always)]
fn slide<G: Geometry>(sq: u32, d: Dir, occupied: u64) -> u64 {
    let ray = G::RAYS[d][sq as usize];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        let f = nearest::<G>(blockers, d);
        ray ^ (G::RAYS[d][f as usize] | 1u64 << f)
    }
}

#[inline(always)]
fn step<G: Geometry>(b: u64, d: Dir) -> u64 {
    G::step(Bitboard(b), d).0
}

/// [`step`] in one of the eight capture directions.
#[inline(always)]
fn cstep<G: Geometry>(b: u64, d: Dir) -> u64 {
    G::cstep(Bitboard(b), d).0
}

impl<R: Rules, S: Sink> Capture<'_, R, S> {
    #[inline(always)]
    fn push(&mut self, sq: u32) {
        self.sink.push(sq);
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.sink.pop();
    }

    /// The state after taking the piece on `victim`.
    #[inline(always)]
    fn take(&self, st: State, victim: u32) -> State {
        let v = 1u64 << victim;
        let order = if R::PRECEDENCE == Precedence::Italian && self.them_kings & v != 0 {
            st.order | 1 << (15 - st.captured.count_ones())
        } else {
            st.order
        };
        State {
            captured: st.captured | v,
            empty: if R::IMMEDIATE_REMOVAL { st.empty | v } else { st.empty },
            order,
            promoted: st.promoted,
        }
    }

    #[inline(always)]
    fn emit(&mut self, to: u32, st: State) {
        let promote = !self.king && (st.promoted || R::promotion_row(self.us).has(to));
        let mv = Move::new(self.from, to, Bitboard(st.captured), self.king, promote);
        let key = R::capture_key(
            st.captured.count_ones(),
            self.king,
            (st.captured & self.them_kings).count_ones(),
            st.order,
        );
        self.sink.emit(mv, key);
    }

    /// The directions in which a man on `sq` can jump now, as a bit set (computed without
    /// branches: most captures are single jumps, and this answers "does it go on?" cheaply).
    #[inline(always)]
    fn man_dirs(&self, sq: u32, st: &State) -> u8 {
        let mut capturable = self.them & !st.captured;
        if !R::MEN_CAPTURE_KINGS {
            capturable &= !self.them_kings;
        }
        let jumps = |allowed: u8| {
            let mut dirs = 0u8;
            for d in 0..if R::ORTHOGONAL_CAPTURE { 8 } else { 4 } {
                if allowed & (1 << d) != 0 {
                    let can = (R::Geo::CSTEPS[d][sq as usize] & capturable != 0)
                        & (R::Geo::CJUMPS[d][sq as usize] & st.empty != 0);
                    dirs |= u8::from(can) << d;
                }
            }
            dirs
        };
        if R::MEN_CAPTURE_BACKWARD {
            jumps(R::capture_dirs())
        } else {
            with_color(self.us, |us| jumps(R::man_capture_dirs(us)))
        }
    }

    /// Jumps of a man standing on `sq` in the directions of `dirs` (from [`Self::man_dirs`]);
    /// emits each capture that ends.
    fn man(&mut self, sq: u32, st: State, dirs: u8) {
        let mut dirs = dirs;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let l = R::Geo::CJUMPS[d][sq as usize].trailing_zeros();
            let v = R::Geo::CSTEPS[d][sq as usize].trailing_zeros();
            let next = self.take(st, v);
            self.push(l);
            if R::PROMOTE_MID_CAPTURE && R::promotion_row(self.us).has(l) {
                let crowned = State { promoted: true, ..next };
                if !self.king(l, R::capture_dirs() & !(1 << opposite(d)), crowned) {
                    self.emit(l, crowned);
                }
            } else {
                let on = self.man_dirs(l, &next);
                if on == 0 {
                    self.emit(l, next);
                } else {
                    self.man(l, next, on);
                }
            }
            self.pop();
        }
    }

    /// Jumps of a king (or a man crowned mid-capture) on `sq` in the directions of `dirs`;
    /// emits each capture that ends. Returns whether any jump was possible.
    fn king(&mut self, sq: u32, dirs: u8, st: State) -> bool {
        let capturable = self.them & !st.captured;
        let mut found = false;
        let mut ds = dirs;
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            let (victim, landings) = if R::FLYING_KINGS {
                let blockers = R::Geo::CRAYS[d][sq as usize] & !st.empty;
                if blockers == 0 {
                    continue;
                }
                let v = nearest::<R::Geo>(blockers, d);
                if capturable & (1u64 << v) == 0 {
                    continue;
                }
                let landings = capture_slide::<R::Geo>(v, d, !st.empty);
                if landings == 0 {
                    continue;
                }
                (v, landings)
            } else {
                let victim = R::Geo::CSTEPS[d][sq as usize] & capturable;
                let land = R::Geo::CJUMPS[d][sq as usize] & st.empty;
                if victim == 0 || land == 0 {
                    continue;
                }
                (victim.trailing_zeros(), land)
            };
            found = true;
            let next = self.take(st, victim);
            let last = farthest::<R::Geo>(landings, d);
            let mut goes_on = false;
            for l in Bitboard(landings) {
                let on = turn_dirs::<R>(d) | if l == last || self.every_stop { 1 << d } else { 0 };
                self.push(l);
                goes_on |= self.king(l, on, next);
                self.pop();
            }
            if !goes_on {
                // Killer: a king ending its capture on a king lands directly behind it.
                let landings = if R::KING_TAKING_KING_LANDS_BEHIND
                    && self.them_kings & (1u64 << victim) != 0
                {
                    1u64 << nearest::<R::Geo>(landings, d)
                } else {
                    landings
                };
                for l in Bitboard(landings) {
                    self.push(l);
                    self.emit(l, next);
                    self.pop();
                }
            }
        }
        found
    }
}

/// Men among `men` that can jump in direction `d` (over a piece of `capturable` onto a
/// square of `empty`).
#[inline(always)]
fn jumpers_toward<R: Rules>(men: u64, capturable: u64, empty: u64, d: Dir) -> u64 {
    let od = opposite(d);
    men & cstep::<R::Geo>(capturable & cstep::<R::Geo>(empty, od), od)
}

/// Men among `men` that can jump in at least one direction of `dirs`.
#[inline(always)]
fn jumpers_in<R: Rules>(men: u64, capturable: u64, empty: u64, dirs: u8) -> u64 {
    let mut out = 0;
    for d in 0..if R::ORTHOGONAL_CAPTURE { 8 } else { 4 } {
        if dirs & (1 << d) != 0 {
            out |= jumpers_toward::<R>(men, capturable, empty, d);
        }
    }
    out
}

/// Men of `R` (of colour `us`) that can jump at least once.
#[inline(always)]
fn man_jumpers<R: Rules>(men: u64, capturable: u64, empty: u64, us: Color) -> u64 {
    if R::MEN_CAPTURE_BACKWARD {
        jumpers_in::<R>(men, capturable, empty, R::capture_dirs())
    } else {
        with_color(us, |us| jumpers_in::<R>(men, capturable, empty, R::man_capture_dirs(us)))
    }
}

/// The legal captures of the side to move when they are all single jumps of men, as the set
/// of men jumping in each direction; `None` when the full capture recursion is needed.
///
/// That is the case when the side to move has no king, no man can jump on from where a first
/// jump lands, and every single jump has the same precedence key (it may differ only where
/// men take kings under the italian or spanish order). A jump in direction `d` changes only
/// the two squares behind its landing square (the victim and the square the man left), which
/// a further jump could reach only by turning back, so the test "can jump on" is exact on the
/// unchanged board in the other directions. A man crowned mid-capture
/// (`R::PROMOTE_MID_CAPTURE`) goes on as a king: landings on the promotion row are left to
/// the recursion.
///
/// This is the common case (no kings yet, and most captures take one piece), and it costs
/// four pairs of shifts instead of a recursion per man.
#[inline(always)]
fn single_jumps<R: Rules>(pos: &Position<R>) -> Option<[u64; 4]> {
    let us = pos.side();
    // Orthogonal captures (frisian) take the recursion: their jumps are not among the four
    // directions, and a man taking a king outvalues one taking a man.
    if R::ORTHOGONAL_CAPTURE || pos.kings(us).is_any() {
        return None;
    }
    let keyed_by_kings = matches!(R::PRECEDENCE, Precedence::Italian | Precedence::Spanish);
    if keyed_by_kings && R::MEN_CAPTURE_KINGS && pos.kings(!us).is_any() {
        return None;
    }
    let capturable = men_capturable(pos, us);
    let empty = pos.empty().0;
    let men = pos.men(us).0;
    with_color(us, |us| {
        let dirs = R::man_capture_dirs(us);
        let mut jumps = [0u64; 4];
        for (d, jumps_d) in jumps.iter_mut().enumerate() {
            if dirs & (1 << d) == 0 {
                continue;
            }
            let j = jumpers_toward::<R>(men, capturable, empty, d);
            if j == 0 {
                continue;
            }
            let landings = step::<R::Geo>(step::<R::Geo>(j, d), d);
            if R::PROMOTE_MID_CAPTURE && landings & R::promotion_row(us).0 != 0 {
                return None;
            }
            let onward = dirs & !(1 << opposite(d));
            if jumpers_in::<R>(landings, capturable, empty, onward) != 0 {
                return None;
            }
            *jumps_d = j;
        }
        Some(jumps)
    })
}

/// Appends the single jumps of [`single_jumps`] in the order the capture recursion emits
/// them (by starting square, then by direction), so that move ordering cannot tell the two
/// apart.
#[inline(always)]
fn push_single_jumps<R: Rules>(us: Color, jumps: [u64; 4], list: &mut MoveList) {
    let promo = R::promotion_row(us);
    for f in Bitboard(jumps[0] | jumps[1] | jumps[2] | jumps[3]) {
        for (d, j) in jumps.iter().enumerate() {
            if j & (1u64 << f) != 0 {
                let v = R::Geo::STEPS[d][f as usize];
                let l = R::Geo::JUMPS[d][f as usize].trailing_zeros();
                list.push(Move::new(f, l, Bitboard(v), false, promo.has(l)));
            }
        }
    }
}

/// Calls `f` with `us` as a constant, so that loops over the directions of a colour's men
/// unroll into constant shifts.
#[inline(always)]
fn with_color<T>(us: Color, f: impl Fn(Color) -> T) -> T {
    match us {
        Color::White => f(Color::White),
        Color::Black => f(Color::Black),
    }
}

#[inline(always)]
fn men_capturable<R: Rules>(pos: &Position<R>, us: Color) -> u64 {
    let them = pos.pieces(!us);
    if R::MEN_CAPTURE_KINGS { them.0 } else { (them & !pos.all_kings()).0 }
}

/// True when the side to move can capture.
#[inline]
pub fn has_capture<R: Rules>(pos: &Position<R>) -> bool {
    can_capture(pos, pos.side())
}

/// True when colour `us` could capture if it were to move (a threat when `us` is not to
/// move).
pub fn can_capture<R: Rules>(pos: &Position<R>, us: Color) -> bool {
    let empty = pos.empty().0;
    if man_jumpers::<R>(pos.men(us).0, men_capturable(pos, us), empty, us) != 0 {
        return true;
    }
    let them = pos.pieces(!us).0;
    let occupied = pos.occupied().0;
    for k in pos.kings(us) {
        for d in 0..if R::ORTHOGONAL_CAPTURE { 8 } else { 4 } {
            if R::FLYING_KINGS {
                let blockers = R::Geo::CRAYS[d][k as usize] & occupied;
                if blockers == 0 {
                    continue;
                }
                let v = 1u64 << nearest::<R::Geo>(blockers, d);
                if v & them != 0 && cstep::<R::Geo>(v, d) & empty != 0 {
                    return true;
                }
            } else if R::Geo::CSTEPS[d][k as usize] & them != 0
                && R::Geo::CJUMPS[d][k as usize] & empty != 0
            {
                return true;
            }
        }
    }
    false
}

fn captures_into<R: Rules, S: Sink>(pos: &Position<R>, sink: &mut S, every_stop: bool) {
    let us = pos.side();
    let them = !us;
    let empty = pos.empty().0;
    let mut cap = Capture::<R, S> {
        us,
        from: 0,
        king: true,
        them: pos.pieces(them).0,
        them_kings: pos.kings(them).0,
        sink,
        every_stop,
        rules: PhantomData,
    };
    for k in pos.kings(us) {
        cap.from = k;
        let st = State { captured: 0, empty: empty | 1u64 << k, order: 0, promoted: false };
        cap.king(k, R::capture_dirs(), st);
    }
    cap.king = false;
    for m in Bitboard(man_jumpers::<R>(pos.men(us).0, men_capturable(pos, us), empty, us)) {
        cap.from = m;
        let st = State { captured: 0, empty: empty | 1u64 << m, order: 0, promoted: false };
        let dirs = cap.man_dirs(m, &st);
        cap.man(m, st, dirs);
    }
}

/// Calls `f` with every quiet (non-capturing) move of the side to move.
#[inline(always)]
pub fn for_each_quiet<R: Rules>(pos: &Position<R>, mut f: impl FnMut(Move)) {
    let us = pos.side();
    let empty = pos.empty().0;
    let occupied = pos.occupied().0;
    let promo = R::promotion_row(us);
    let men = pos.men(us).0;
    let dirs = R::man_move_dirs(us);
    for d in 0..4 {
        if dirs & (1 << d) != 0 {
            for t in Bitboard(step::<R::Geo>(men, d) & empty) {
                let f_sq = (t as i32 - R::Geo::SHIFT[d]) as u32;
                f(Move::new(f_sq, t, Bitboard::EMPTY, false, promo.has(t)));
            }
        }
    }
    for k in pos.kings(us) & !Bitboard(pos.blocked_king()) {
        for d in 0..4 {
            let run = if R::FLYING_KINGS {
                slide::<R::Geo>(k, d, occupied)
            } else {
                R::Geo::STEPS[d][k as usize] & empty
            };
            for t in Bitboard(run) {
                f(Move::new(k, t, Bitboard::EMPTY, true, false));
            }
        }
    }
}

/// Appends the quiet moves of the side to move that crown a man.
#[inline]
pub fn promotions<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    let us = pos.side();
    let promo = R::promotion_row(us).0;
    let men = pos.men(us).0;
    let targets = pos.empty().0 & promo;
    if men == 0 || targets == 0 {
        return;
    }
    let dirs = R::man_move_dirs(us);
    for d in 0..4 {
        if dirs & (1 << d) != 0 {
            for t in Bitboard(step::<R::Geo>(men, d) & targets) {
                let f_sq = (t as i32 - R::Geo::SHIFT[d]) as u32;
                list.push(Move::new(f_sq, t, Bitboard::EMPTY, false, true));
            }
        }
    }
}

/// Appends the quiet (non-capturing) moves of the side to move.
pub fn quiet_moves<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    for_each_quiet(pos, |m| list.push(m));
}

/// The number of quiet moves of the side to move, without generating them.
#[inline]
pub fn count_quiet<R: Rules>(pos: &Position<R>) -> u64 {
    let us = pos.side();
    let empty = pos.empty().0;
    let occupied = pos.occupied().0;
    let men = pos.men(us).0;
    let mut n = with_color(us, |us| {
        let dirs = R::man_move_dirs(us);
        let mut n = 0u64;
        for d in 0..4 {
            if dirs & (1 << d) != 0 {
                n += u64::from((step::<R::Geo>(men, d) & empty).count_ones());
            }
        }
        n
    });
    for k in pos.kings(us) & !Bitboard(pos.blocked_king()) {
        for d in 0..4 {
            let run = if R::FLYING_KINGS {
                slide::<R::Geo>(k, d, occupied)
            } else {
                R::Geo::STEPS[d][k as usize] & empty
            };
            n += u64::from(run.count_ones());
        }
    }
    n
}

/// What a separate route is under the "keep" convention differs between the published
/// tables: dctl (every diagonal rule set) counts a straight sweep over several pieces as one
/// route wherever the king stops on the way; kish (turkish) counts every stop as a route.
fn keeps_every_stop<R: Rules>(dedupe: bool) -> bool {
    !dedupe && R::IMMEDIATE_REMOVAL
}

/// Appends the legal captures of the side to move (after the precedence filter). With
/// `dedupe` false every route is kept (the perft "keep" convention, see `keeps_every_stop`).
pub fn captures<R: Rules>(pos: &Position<R>, list: &mut MoveList, dedupe: bool) {
    if let Some(jumps) = single_jumps(pos) {
        push_single_jumps::<R>(pos.side(), jumps, list);
        return;
    }
    let start = list.len();
    let mut sink = ListSink { list, start, best: 0, dedupe, rules: PhantomData::<R> };
    captures_into(pos, &mut sink, keeps_every_stop::<R>(dedupe));
}

/// Appends every legal move of the side to move; `dedupe` as in [`captures`].
pub fn generate_with<R: Rules>(pos: &Position<R>, list: &mut MoveList, dedupe: bool) {
    let start = list.len();
    captures(pos, list, dedupe);
    if R::OPTIONAL_CAPTURE || list.len() == start {
        quiet_moves(pos, list);
    }
}

/// Appends every legal move of the side to move, duplicate routes dropped.
#[inline]
pub fn generate<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    generate_with(pos, list, true);
}

/// The number of legal moves (bulk counting for perft); `dedupe` as in [`captures`].
#[inline]
pub fn count_moves<R: Rules>(pos: &Position<R>, dedupe: bool) -> u64 {
    if let Some(jumps) = single_jumps(pos) {
        let n: u64 = jumps.iter().map(|j| u64::from(j.count_ones())).sum();
        return if R::OPTIONAL_CAPTURE || n == 0 { n + count_quiet(pos) } else { n };
    }
    if !R::OPTIONAL_CAPTURE && !has_capture(pos) {
        return count_quiet(pos);
    }
    let mut sink =
        CountSink { count: 0, best: 0, dedupe, long: MoveList::new(), rules: PhantomData::<R> };
    captures_into(pos, &mut sink, keeps_every_stop::<R>(dedupe));
    if R::OPTIONAL_CAPTURE || sink.count == 0 { sink.count + count_quiet(pos) } else { sink.count }
}

/// Every legal capture route with its landing squares (bits, in order, ending with `to`);
/// one entry per route, so a move with several routes appears several times.
pub fn capture_routes<R: Rules>(pos: &Position<R>) -> Vec<(Move, Vec<u32>)> {
    let mut sink = RouteSink { routes: Vec::new(), path: Vec::new(), best: 0 };
    captures_into(pos, &mut sink, false);
    sink.routes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::splitmix;
    use crate::variant::Variant;

    /// The captures of the full recursion, bypassing the single-jump shortcut.
    fn recursive_captures<R: Rules>(pos: &Position<R>, dedupe: bool) -> MoveList {
        let mut list = MoveList::new();
        let mut sink =
            ListSink { list: &mut list, start: 0, best: 0, dedupe, rules: PhantomData::<R> };
        captures_into(pos, &mut sink, keeps_every_stop::<R>(dedupe));
        list
    }

    /// Calls `visit` with every position of `games` random games of at most `plies` plies
    /// from the start, drawn from `seed`.
    fn random_games<R: Rules>(
        games: usize,
        plies: usize,
        seed: u64,
        mut visit: impl FnMut(&Position<R>),
    ) {
        let mut seed = seed;
        for _ in 0..games {
            let mut pos = Position::<R>::start();
            for _ in 0..plies {
                visit(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let (next, r) = splitmix(seed);
                seed = next;
                pos = pos.after(moves[(r % moves.len() as u64) as usize]);
            }
        }
    }

    fn shortcut_agrees<R: Rules>(games: usize) -> usize {
        let mut taken = 0;
        random_games::<R>(games, 200, 0x005E_ED0F_CA97, |pos| {
            for dedupe in [true, false] {
                let mut fast = MoveList::new();
                captures(pos, &mut fast, dedupe);
                assert_eq!(fast, recursive_captures(pos, dedupe), "{pos:?}");
                let mut all = fast.clone();
                if R::OPTIONAL_CAPTURE || all.is_empty() {
                    quiet_moves(pos, &mut all);
                }
                assert_eq!(count_moves(pos, dedupe), all.len() as u64, "{pos:?}");
            }
            if single_jumps(pos).is_some_and(|j| j.iter().any(|&b| b != 0)) {
                taken += 1;
            }
        });
        taken
    }

    /// The single-jump shortcut gives the same captures, in the same order, as the capture
    /// recursion, and the same counts, in random games of every rule set; and it is taken.
    #[test]
    fn single_jump_shortcut_equals_the_capture_recursion_in_every_rule_set() {
        for v in Variant::all() {
            let taken = crate::with_rules!(v, R => shortcut_agrees::<R>(60));
            // Frisian captures always take the recursion (see `single_jumps`).
            let frisian = crate::with_rules!(v, R => R::ORTHOGONAL_CAPTURE);
            assert!(taken > 0 || frisian, "{v}: the shortcut was never taken");
        }
    }

    fn promotions_agree<R: Rules>(games: usize) -> usize {
        let mut found = 0;
        random_games::<R>(games, 300, 0x9E00_FC40, |pos| {
            let mut fast = MoveList::new();
            promotions(pos, &mut fast);
            let mut all = MoveList::new();
            quiet_moves(pos, &mut all);
            let mut slow: Vec<Move> = all.iter().copied().filter(|m| m.is_promotion()).collect();
            let mut fast: Vec<Move> = fast.to_vec();
            slow.sort_by_key(|m| (m.from(), m.to()));
            fast.sort_by_key(|m| (m.from(), m.to()));
            assert_eq!(fast, slow, "{pos:?}");
            found += fast.len();
        });
        found
    }

    /// `promotions` gives exactly the quiet moves that crown a man, in random games of every
    /// rule set (quiescence searches them), and the games reach some.
    #[test]
    fn promotions_are_the_quiet_moves_that_crown_in_every_rule_set() {
        for v in Variant::all() {
            let found = crate::with_rules!(v, R => promotions_agree::<R>(40));
            assert!(found > 0, "{v}: no promotion in the test games");
        }
    }
}
