//! The forced-win prover shared by `tests/search_wins.rs` and `examples/find_wins.rs`.
//!
//! A plain exhaustive AND/OR search to the end of the game. "The side to move wins within `d`
//! plies" means: it has a move after which every reply (recursively) leads, within `d` plies in
//! all, to a position where the side to move has no legal move (no pieces counts as no move) —
//! which is the loss condition in every rule set. There is no evaluation, no move ordering
//! heuristic, no reduction and no pruning other than stopping at the first winning move (OR
//! node) or the first refuting reply (AND node). A transposition table keyed by the exact
//! position (pieces, kings, side to move; `Position: Eq`) remembers, per position, the largest
//! depth known to fail and the smallest depth known to succeed, for both questions ("wins
//! within d", "loses within d"); both are monotone in `d`, so those bounds decide every depth.
//!
//! Draw rules are ignored, which is sound for the short wins this suite uses (N <= 15 plies):
//! - the move counters start at zero at the test position and the shortest product default
//!   is 15 moves each (ukrainian: 30 plies), longer than any line searched here; (the FMJD
//!   option's 5-moves-each endgame counter, 10 plies, is off by default and not used);
//! - threefold repetition cannot interfere with a *shortest* win: along any line where the
//!   winner plays distance-optimally the remaining distance strictly decreases, so no
//!   position occurs twice, let alone three times.
#![allow(dead_code)]

use kondavo::moves::Move;
use kondavo::position::Position;
use kondavo::rules::Rules;
use std::collections::HashMap;

/// Bounds known for one position: `*_yes` = smallest depth proven true (u8::MAX: none),
/// `*_no` = largest depth proven false (0 is trivially false for `win`).
#[derive(Clone, Copy)]
struct Entry {
    win_yes: u8,
    win_no: u8,
    lose_yes: u8,
    lose_no: u8,
}

impl Default for Entry {
    fn default() -> Self {
        Entry { win_yes: u8::MAX, win_no: 0, lose_yes: u8::MAX, lose_no: 0 }
    }
}

/// The result of a proof attempt that may run out of its node budget.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proof {
    /// Proven true.
    Yes,
    /// Proven false.
    No,
    /// The node budget ran out.
    Unknown,
}

/// Ran out of nodes.
struct Abort;

/// Exhaustive forced-win prover for rule set `R`.
pub struct Prover<R: Rules> {
    tt: HashMap<Position<R>, Entry>,
    /// Positions expanded (legal move generations) so far.
    pub nodes: u64,
    /// Stop (answer `Unknown`) after this many nodes.
    pub limit: u64,
}

impl<R: Rules> Default for Prover<R> {
    fn default() -> Self {
        Self::new(u64::MAX)
    }
}

impl<R: Rules> Prover<R> {
    /// A prover with an empty table and a node budget.
    pub fn new(limit: u64) -> Self {
        Prover { tt: HashMap::new(), nodes: 0, limit }
    }

    /// Forgets the table (the node count is kept).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    fn expand(&mut self, pos: &Position<R>) -> Result<kondavo::moves::MoveList, Abort> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(Abort);
        }
        Ok(pos.legal_moves())
    }

    /// Does the side to move win within `d` plies?
    fn win(&mut self, pos: &Position<R>, d: u8) -> Result<bool, Abort> {
        if d == 0 {
            return Ok(false); // it is our move, so we have not won yet
        }
        let e = self.tt.get(pos).copied().unwrap_or_default();
        if e.win_yes <= d {
            return Ok(true);
        }
        if e.win_no >= d {
            return Ok(false);
        }
        let moves = self.expand(pos)?;
        let mut result = false;
        for &m in &moves {
            if self.lose(&pos.after(m), d - 1)? {
                result = true;
                break;
            }
        }
        let e = self.tt.entry(*pos).or_default();
        if result {
            e.win_yes = e.win_yes.min(d);
        } else {
            e.win_no = e.win_no.max(d);
        }
        Ok(result)
    }

    /// Does the side to move lose within `d` plies (whatever it plays)?
    fn lose(&mut self, pos: &Position<R>, d: u8) -> Result<bool, Abort> {
        let e = self.tt.get(pos).copied().unwrap_or_default();
        if e.lose_yes <= d {
            return Ok(true);
        }
        if d > 0 && e.lose_no >= d {
            return Ok(false);
        }
        let moves = self.expand(pos)?;
        let mut result = true;
        if !moves.is_empty() {
            if d < 2 {
                result = false; // we still have a move, and the opponent cannot win in 0 plies
            } else {
                for &m in &moves {
                    if !self.win(&pos.after(m), d - 1)? {
                        result = false;
                        break;
                    }
                }
            }
        }
        let e = self.tt.entry(*pos).or_default();
        if result {
            e.lose_yes = e.lose_yes.min(d);
        } else {
            e.lose_no = e.lose_no.max(d);
        }
        Ok(result)
    }

    /// Does the side to move of `pos` win within `d` plies? `Unknown` when out of nodes.
    pub fn wins_within(&mut self, pos: &Position<R>, d: u32) -> Proof {
        match self.win(pos, d.min(250) as u8) {
            Ok(true) => Proof::Yes,
            Ok(false) => Proof::No,
            Err(Abort) => Proof::Unknown,
        }
    }

    /// Does the side to move of `pos` lose within `d` plies, whatever it plays?
    pub fn loses_within(&mut self, pos: &Position<R>, d: u32) -> Proof {
        match self.lose(pos, d.min(250) as u8) {
            Ok(true) => Proof::Yes,
            Ok(false) => Proof::No,
            Err(Abort) => Proof::Unknown,
        }
    }

    /// The shortest forced win of the side to move, in plies, if it is at most `max`
    /// (`Ok(None)`: no win within `max`; `Err(())`: out of nodes). Tries 1, 3, 5, ... plies
    /// (a win always ends on the winner's move, so its length is odd).
    pub fn shortest_win(&mut self, pos: &Position<R>, max: u32) -> Result<Option<u32>, ()> {
        let mut d = 1;
        while d <= max {
            match self.wins_within(pos, d) {
                Proof::Yes => return Ok(Some(d)),
                Proof::No => {}
                Proof::Unknown => return Err(()),
            }
            d += 2;
        }
        Ok(None)
    }

    /// The root moves that keep a win within `d` plies (the opponent loses within `d - 1`).
    pub fn winning_moves(&mut self, pos: &Position<R>, d: u32) -> Result<Vec<Move>, ()> {
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            match self.loses_within(&pos.after(m), d.saturating_sub(1)) {
                Proof::Yes => out.push(m),
                Proof::No => {}
                Proof::Unknown => return Err(()),
            }
        }
        Ok(out)
    }
}
