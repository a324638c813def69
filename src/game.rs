//! Games: the draw rules of each rule set (`../shared/rules.md` §3), the counters they need,
//! and a game record that knows when the game is over.
//!
//! Repetition needs the hash keys of earlier positions; positions can only repeat since the
//! last irreversible move (a capture, or a man move forward: every man move on the diagonal
//! boards, but not a turkish man's sideways step), so that is all a game keeps in its window. The move counters are per rule set:
//!
//! | rule set | draw after | counter reset by |
//! |---|---|---|
//! | international (product) | 60 moves each (120 plies) | capture or man move |
//! | international (FMJD option) | 25 moves each (50 plies); 16 / 5 moves each in the listed endgames | capture or man move; material change |
//! | frisian, frysk! | 60 moves each (120 plies); 7 moves each with two kings against one king, 2 moves each with a king against a king | capture or man move; material change |
//! | ukrainian | 15 moves each (30 plies) | capture or man move |
//! | every other rule set | 40 moves each (80 plies) | capture or promotion |

use crate::bail;
use crate::color::Color;
use crate::error::Result;
use crate::geometry::{Geometry, Shape};
use crate::moves::Move;
use crate::notation;
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::{Base, Variant};
use std::fmt;

/// The move-counter draw rules of a rule set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawRules {
    /// Plies without a counter reset after which the game is drawn.
    pub limit: u32,
    /// A man move resets the counter.
    pub reset_on_man_move: bool,
    /// A promotion resets the counter.
    pub reset_on_promotion: bool,
    /// The FMJD endgame counters (international only, as an option).
    pub fmjd_endgames: bool,
    /// The frisian endgame counters (frisian and frysk!).
    pub frisian_endgames: bool,
}

impl DrawRules {
    /// The product default of `variant`; `fmjd` selects the official FMJD counters on the
    /// 10x10 board (ignored elsewhere).
    pub fn of(variant: Variant, fmjd: bool) -> DrawRules {
        match variant.base {
            Base::International if fmjd => DrawRules {
                limit: 50,
                reset_on_man_move: true,
                reset_on_promotion: false,
                fmjd_endgames: true,
                frisian_endgames: false,
            },
            Base::Frisian | Base::Frysk => DrawRules {
                limit: 120,
                reset_on_man_move: true,
                reset_on_promotion: false,
                fmjd_endgames: false,
                frisian_endgames: true,
            },
            b if b.is_10x10() => DrawRules {
                limit: 120,
                reset_on_man_move: true,
                reset_on_promotion: false,
                fmjd_endgames: false,
                frisian_endgames: false,
            },
            Base::Ukrainian => DrawRules {
                limit: 30,
                reset_on_man_move: true,
                reset_on_promotion: false,
                fmjd_endgames: false,
                frisian_endgames: false,
            },
            _ => DrawRules {
                limit: 80,
                reset_on_man_move: false,
                reset_on_promotion: true,
                fmjd_endgames: false,
                frisian_endgames: false,
            },
        }
    }
}

/// The counters a position carries for the draw rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Counters {
    /// Plies since the last irreversible move (the repetition window; see [`irreversible`]).
    pub reversible: u32,
    /// Plies since the last reset of the rule set's move counter.
    pub counter: u32,
    /// FMJD or frisian endgame counter: plies since the current endgame material arose (0
    /// outside the listed endgames).
    pub endgame: u32,
}

/// True when no later position can equal one before `mv`: a capture, or a man move forward.
/// Men of the diagonal rule sets only move forward; a turkish man also steps sideways, and
/// such a step can be undone, so positions repeat across it.
pub fn irreversible<R: Rules>(mv: Move) -> bool {
    if mv.is_capture() || mv.is_promotion() {
        return true;
    }
    if mv.is_king_move() {
        return false;
    }
    match <R::Geo as Geometry>::SHAPE {
        // Bits are square indices on the orthogonal board, eight to a row.
        Shape::Orthogonal8 => mv.from() / 8 != mv.to() / 8,
        Shape::Diagonal10 | Shape::Diagonal8 => true,
    }
}

/// Plies allowed in the FMJD endgame of `pos`, if it is one: 3 kings, 2 kings + 1 man or
/// 1 king + 2 men against a lone king: 16 moves each; 2 kings, king + man or a king against a
/// lone king: 5 moves each.
pub fn fmjd_endgame_limit<R: Rules>(pos: &Position<R>) -> Option<u32> {
    let lone_king = |c: Color| pos.pieces(c).count() == 1 && pos.kings(c).count() == 1;
    let strong = if lone_king(Color::Black) {
        Color::White
    } else if lone_king(Color::White) {
        Color::Black
    } else {
        return None;
    };
    let (kings, men) = (pos.kings(strong).count(), pos.men(strong).count());
    match (kings, men) {
        (3, 0) | (2, 1) | (1, 2) => Some(32),
        (2, 0) | (1, 1) | (1, 0) => Some(10),
        _ => None,
    }
}

/// Plies allowed in the frisian endgame of `pos`, if it is one (lidraughts, "Frisian", after
/// the federation's rules): two kings against one king: 7 moves each; one king against one
/// king: 2 moves each. (The federation draws the king-against-king ending at once unless a
/// capture is forced; lidraughts, like this, always allows the 2 moves.)
pub fn frisian_endgame_limit<R: Rules>(pos: &Position<R>) -> Option<u32> {
    if pos.men(Color::White).is_any() || pos.men(Color::Black).is_any() {
        return None;
    }
    match (pos.kings(Color::White).count(), pos.kings(Color::Black).count()) {
        (1, 1) => Some(4),
        (2, 1) | (1, 2) => Some(14),
        _ => None,
    }
}

impl DrawRules {
    /// Plies allowed in the endgame of `pos` under these rules, if it is a listed one.
    pub fn endgame_limit<R: Rules>(&self, pos: &Position<R>) -> Option<u32> {
        if self.fmjd_endgames {
            fmjd_endgame_limit(pos)
        } else if self.frisian_endgames {
            frisian_endgame_limit(pos)
        } else {
            None
        }
    }
}

impl Counters {
    /// The counters after `mv` is played in `pos` (which they belong to).
    pub fn after<R: Rules>(
        self,
        pos: &Position<R>,
        mv: Move,
        next: &Position<R>,
        rules: &DrawRules,
    ) -> Counters {
        let man_move = !mv.is_king_move();
        let reset = mv.is_capture()
            || (rules.reset_on_man_move && man_move)
            || (rules.reset_on_promotion && mv.is_promotion());
        let material_changed = mv.is_capture() || mv.is_promotion();
        let endgame = if rules.endgame_limit(next).is_some() {
            if material_changed || rules.endgame_limit(pos).is_none() {
                0
            } else {
                self.endgame + 1
            }
        } else {
            0
        };
        Counters {
            reversible: if irreversible::<R>(mv) { 0 } else { self.reversible + 1 },
            counter: if reset { 0 } else { self.counter + 1 },
            endgame,
        }
    }

    /// Plies the game can still run before a draw counter ends it, if nothing resets the
    /// counters (every capture resets them, and so does every promotion).
    pub fn plies_left<R: Rules>(&self, pos: &Position<R>, rules: &DrawRules) -> u32 {
        let mut left = rules.limit.saturating_sub(self.counter);
        if let Some(limit) = rules.endgame_limit(pos) {
            left = left.min(limit.saturating_sub(self.endgame));
        }
        left
    }

    /// True when the rule set's move counter (or an FMJD endgame counter) declares a draw.
    pub fn is_draw<R: Rules>(&self, pos: &Position<R>, rules: &DrawRules) -> bool {
        if self.counter >= rules.limit {
            return true;
        }
        rules.endgame_limit(pos).is_some_and(|limit| self.endgame >= limit)
    }
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move has no legal move (or no pieces) and loses.
    Win(Color),
    /// Threefold repetition.
    Repetition,
    /// The rule set's move counter.
    MoveCounter,
}

impl Outcome {
    /// Why the game ended, in words, given its final position: the rule set's goal decides
    /// what a win was (no legal move; in antidraughts the winner's own lack of moves; in
    /// breakthrough a crowned king).
    pub fn describe<R: Rules>(self, pos: &Position<R>) -> String {
        match self {
            Outcome::Win(c) if crate::rules::crowned_winner(pos).is_some() => {
                format!("{c} crowned a king")
            }
            Outcome::Win(c) if R::GOAL == crate::rules::Goal::Losing => {
                format!("{c} has no legal move and wins")
            }
            Outcome::Win(c) => format!("{} has no legal move", !c),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(c) => write!(f, "{c} wins"),
            Outcome::Repetition => f.write_str("draw by threefold repetition"),
            Outcome::MoveCounter => f.write_str("draw by the move counter"),
        }
    }
}

/// A game: the start position, the moves played, and what the draw rules need.
/// `positions` and `counters` hold one entry per position of the game, the start first, so
/// they are never empty.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    moves: Vec<Move>,
    positions: Vec<Position<R>>,
    counters: Vec<Counters>,
    rules: DrawRules,
}

impl<R: Rules> Game<R> {
    /// A game from `start` under `rules`.
    pub fn new(start: Position<R>, rules: DrawRules) -> Game<R> {
        Game {
            moves: Vec::new(),
            positions: vec![start],
            counters: vec![Counters::default()],
            rules,
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position<R> {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position<R> {
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The draw rules in force.
    pub fn draw_rules(&self) -> &DrawRules {
        &self.rules
    }

    /// The current counters.
    pub fn counters(&self) -> Counters {
        self.counters[self.counters.len() - 1]
    }

    /// Hash keys of the positions before the current one that it could repeat (since the last
    /// irreversible move), oldest first.
    pub fn repetition_keys(&self) -> Vec<u64> {
        let n = self.positions.len();
        let window = (self.counters().reversible as usize).min(n - 1);
        self.positions[n - 1 - window..n - 1].iter().map(|p| p.key()).collect()
    }

    /// Plays `mv`, which must be legal.
    pub fn play(&mut self, mv: Move) -> Result<()> {
        let pos = *self.position();
        if !pos.legal_moves().contains(&mv) {
            bail!("illegal move");
        }
        self.push(mv);
        Ok(())
    }

    /// Plays `mv`, known to be legal (the notation parsers only return legal moves).
    fn push(&mut self, mv: Move) {
        let pos = *self.position();
        let next = pos.after(mv);
        let counters = self.counters().after(&pos, mv, &next, &self.rules);
        self.moves.push(mv);
        self.positions.push(next);
        self.counters.push(counters);
    }

    /// Plays a move typed by a person (native notation first, then Hub notation).
    pub fn play_text(&mut self, text: &str) -> Result<Move> {
        let mv = notation::parse_move(self.position(), text)?;
        self.push(mv);
        Ok(mv)
    }

    /// Plays a move sent by a protocol: Hub notation when numeric, native when algebraic
    /// (see [`notation::parse_protocol_move`]).
    pub fn play_protocol(&mut self, text: &str) -> Result<Move> {
        let mv = notation::parse_protocol_move(self.position(), text)?;
        self.push(mv);
        Ok(mv)
    }

    /// Takes the last move back; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.positions.pop();
        self.counters.pop();
        true
    }

    /// How many times the current position has occurred (1 if never before).
    pub fn occurrences(&self) -> usize {
        let key = self.position().key();
        1 + self.repetition_keys().iter().filter(|&&k| k == key).count()
    }

    /// The result if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if let Some(winner) = crate::rules::crowned_winner(pos) {
            return Some(Outcome::Win(winner));
        }
        if pos.legal_moves().is_empty() {
            return Some(Outcome::Win(crate::rules::winner_without_moves(pos)));
        }
        if self.occurrences() >= 3 {
            return Some(Outcome::Repetition);
        }
        if self.counters().is_draw(pos, &self.rules) {
            return Some(Outcome::MoveCounter);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Antidraughts, Breakthrough, International};

    fn ended<R: Rules>(fen: &str, base: Base) -> (Outcome, String) {
        let pos = notation::parse_fen::<R>(fen).expect("test FEN");
        let game = Game::new(pos, DrawRules::of(Variant::new(base), false));
        let outcome = game.outcome().expect("the game is over");
        (outcome, outcome.describe(game.position()))
    }

    #[test]
    fn game_end_is_described_by_the_rule_sets_goal() {
        let (white, black) = (Color::White, Color::Black);
        // International: Black to move has no pieces; White wins.
        let (o, why) = ended::<International>("B:W28:B", Base::International);
        assert_eq!(o, Outcome::Win(white));
        assert_eq!(why, format!("{black} has no legal move"));
        // Antidraughts: the side without a move wins.
        let (o, why) = ended::<Antidraughts>("B:W28:B", Base::Antidraughts);
        assert_eq!(o, Outcome::Win(black));
        assert_eq!(why, format!("{black} has no legal move and wins"));
        // Breakthrough: White has crowned; the game is over although Black can move.
        let (o, why) = ended::<Breakthrough>("B:WK3:B40", Base::Breakthrough);
        assert_eq!(o, Outcome::Win(white));
        assert_eq!(why, format!("{white} crowned a king"));
    }
}
