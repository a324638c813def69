//! Win/draw/loss estimates: what a search score means in games.
//!
//! Draughts has a very high draw rate, so "+0.40" says little to a player; "31% win, 66% draw,
//! 3% loss" says what the position is worth. The model turns a score `s` (centi-men, side to
//! move) and the material on the board into per-mille chances with two logistic curves, as
//! Stockfish's WDL model does for chess:
//!
//! ```text
//! win  = σ(( s − a) / b)        a = a0 + a1·m   (the score at which a win is as likely as not)
//! loss = σ((−s − a) / b)        b = b0 + b1·m   (how fast the chances change with the score)
//! draw = 1 − win − loss         m = pieces on the board / pieces at the start
//! ```
//!
//! With `a ≥ 0` the three are never negative (`win + loss ≤ 1` exactly when `a ≥ 0`), `win`
//! rises and `loss` falls with the score, and a position and its colour-swapped mirror get
//! swapped chances. A decisive score (a forced win or loss found by the search) is 1000-0-0.
//!
//! The parameters of each rule set are fitted to kondavo's own self-play games (positions with
//! their search score and the game's result) by `kondavo wdl` (maximum likelihood, see
//! `learn::wdl_fit`); `data/eval/README.md` gives the command and the data behind each row of
//! [`PARAMS`].

use crate::score::Score;
use crate::variant::Base;

/// The fitted parameters of one rule set, for scores in men (100 centi-men): `a0, a1, b0, b1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// `a` at an empty board, in men.
    pub a0: f64,
    /// Change of `a` from an empty to a full board, in men.
    pub a1: f64,
    /// `b` at an empty board, in men.
    pub b0: f64,
    /// Change of `b` from an empty to a full board, in men.
    pub b1: f64,
}

impl Params {
    /// The curves' `a` and `b` (in men) at the material fraction `m` (0..=1), kept in the
    /// range where the model is a distribution (`a ≥ 0`, `b ≥ 0.05`).
    pub fn at(&self, m: f64) -> (f64, f64) {
        ((self.a0 + self.a1 * m).max(0.0), (self.b0 + self.b1 * m).max(0.05))
    }

    /// Win, draw and loss probabilities (0..=1) for a score of `men` men at material `m`.
    pub fn probabilities(&self, men: f64, m: f64) -> [f64; 3] {
        let (a, b) = self.at(m);
        let win = sigmoid((men - a) / b);
        let loss = sigmoid((-men - a) / b);
        [win, (1.0 - win - loss).max(0.0), loss]
    }
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Per-mille chances for the side the score belongs to; the three add up to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Wdl {
    /// Win, per mille.
    pub win: u16,
    /// Draw, per mille.
    pub draw: u16,
    /// Loss, per mille.
    pub loss: u16,
}

impl Wdl {
    /// The chances of the other side.
    pub fn flip(self) -> Wdl {
        Wdl { win: self.loss, draw: self.draw, loss: self.win }
    }

    /// The expected score (win 1, draw ½), 0..=1.
    pub fn expected(self) -> f64 {
        (f64::from(self.win) + f64::from(self.draw) / 2.0) / 1000.0
    }

    /// Rounds probabilities to per mille so that the three add up to exactly 1000.
    pub fn from_probabilities(p: [f64; 3]) -> Wdl {
        let win = (p[0] * 1000.0).round().clamp(0.0, 1000.0) as u16;
        let loss = ((p[2] * 1000.0).round().clamp(0.0, 1000.0) as u16).min(1000 - win);
        Wdl { win, draw: 1000 - win - loss, loss }
    }
}

impl std::fmt::Display for Wdl {
    /// `W,D,L` as the Hub `info` line and `kondavo analyze` write it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", self.win, self.draw, self.loss)
    }
}

/// Parameters per rule set, fitted by `kondavo wdl` (see `data/eval/README.md` for the data
/// and the command behind each row). Optional capture uses its base rule set's row.
pub const PARAMS: [(Base, Params); 13] = [
    (Base::International, Params { a0: 2.1932, a1: -1.5344, b0: 0.4767, b1: 1.2509 }),
    (Base::Brazilian, Params { a0: 3.7698, a1: -1.6967, b0: 0.1700, b1: 2.8469 }),
    (Base::Russian, Params { a0: 3.2203, a1: -2.0726, b0: 0.1622, b1: 1.9709 }),
    (Base::Ukrainian, Params { a0: 3.4457, a1: -2.1359, b0: 0.3242, b1: 1.8826 }),
    (Base::English, Params { a0: 2.2114, a1: -1.9904, b0: 0.5493, b1: 0.1521 }),
    (Base::Italian, Params { a0: 2.9575, a1: -2.2584, b0: 0.3556, b1: 1.1838 }),
    (Base::Spanish, Params { a0: 3.2242, a1: -0.7261, b0: 0.0239, b1: 2.8714 }),
    (Base::Czech, Params { a0: 2.8501, a1: -0.3165, b0: 0.0301, b1: 2.6932 }),
    (Base::Turkish, Params { a0: 0.9851, a1: -0.6619, b0: 0.6348, b1: 0.4218 }),
    (Base::Frisian, Params { a0: 0.5931, a1: -0.4722, b0: 0.2079, b1: 0.6068 }),
    (Base::Frysk, Params { a0: 2.0277, a1: -1.4255, b0: 0.3700, b1: 0.4545 }),
    // Breakthrough has no draws (none in 10,000 self-play games): `a` is 0, the fit's `b`.
    (Base::Breakthrough, Params { a0: 0.0, a1: 0.0, b0: 0.7420, b1: 0.1260 }),
    (Base::Antidraughts, Params { a0: 0.6126, a1: -0.3846, b0: 1.9771, b1: 1.5134 }),
];

/// The rule set whose fitted row `base` uses: its own, except killer, which plays
/// international's evaluation and games (it differs only in one rare king capture).
pub const fn fitted_base(base: Base) -> Base {
    match base {
        Base::Killer => Base::International,
        b => b,
    }
}

/// The parameters of `base`.
pub fn params(base: Base) -> Params {
    let base = fitted_base(base);
    PARAMS.iter().find(|(b, _)| *b == base).map_or(PARAMS[0].1, |(_, p)| *p)
}

/// The material fraction `m` of a position with `pieces` pieces in rule set `base`.
pub fn material(base: Base, pieces: u32) -> f64 {
    (f64::from(pieces) / f64::from(2 * base.men_per_side())).clamp(0.0, 1.0)
}

/// The chances of the side to move in a position of `base` with `pieces` pieces on the board
/// whose search score is `score`.
pub fn of(base: Base, score: Score, pieces: u32) -> Wdl {
    if score.is_decisive() {
        return if score.0 > 0 {
            Wdl { win: 1000, draw: 0, loss: 0 }
        } else {
            Wdl { win: 0, draw: 0, loss: 1000 }
        };
    }
    let p = params(base).probabilities(f64::from(score.0) / 100.0, material(base, pieces));
    Wdl::from_probabilities(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_has_parameters_that_make_a_distribution() {
        for base in Base::ALL {
            let fitted = fitted_base(base);
            assert!(PARAMS.iter().any(|(b, _)| *b == fitted), "{base:?} has no row");
            for pieces in 0..=2 * base.men_per_side() {
                for s in (-3000..=3000).step_by(7) {
                    let w = of(base, Score(s), pieces);
                    assert_eq!(u32::from(w.win) + u32::from(w.draw) + u32::from(w.loss), 1000);
                }
            }
        }
    }

    #[test]
    fn chances_are_monotone_in_the_score_and_symmetric() {
        for base in Base::ALL {
            for pieces in [2, 8, 2 * base.men_per_side()] {
                let mut last = of(base, Score(-3000), pieces);
                for s in -2999..=3000 {
                    let w = of(base, Score(s), pieces);
                    assert!(w.win >= last.win && w.loss <= last.loss, "{base:?} {pieces} {s}");
                    assert_eq!(w.flip(), of(base, Score(-s), pieces), "{base:?} {pieces} {s}");
                    last = w;
                }
            }
        }
    }

    #[test]
    fn decisive_scores_are_certain() {
        let base = Base::International;
        assert_eq!(of(base, Score::win_in(7), 10), Wdl { win: 1000, draw: 0, loss: 0 });
        assert_eq!(of(base, Score::loss_in(4), 10), Wdl { win: 0, draw: 0, loss: 1000 });
    }

    #[test]
    fn fitted_rows_favour_the_side_a_man_up_and_draw_more_as_the_board_empties() {
        for base in Base::ALL {
            let full = 2 * base.men_per_side();
            let even = of(base, Score(0), full);
            assert_eq!(even.win, even.loss, "{base:?}");
            let up = of(base, Score(100), full);
            assert!(up.win > up.loss && up.expected() > 0.55, "{base:?} {up}");
            let ending = of(base, Score(0), 6);
            if base == Base::Breakthrough {
                // The first king wins: a game without a winner is all but impossible.
                assert_eq!((even.draw, ending.draw), (0, 0), "{base:?}");
            } else {
                assert!(ending.draw > even.draw, "{base:?} {ending} {even}");
            }
        }
    }

    #[test]
    fn per_mille_rounding_adds_up() {
        for p in [
            [0.4996, 0.0, 0.5004],
            [0.3334, 0.3333, 0.3333],
            [1.0, 0.0, 0.0],
            [0.0005, 0.999, 0.0005],
        ] {
            let w = Wdl::from_probabilities(p);
            assert_eq!(w.win + w.draw + w.loss, 1000, "{p:?}");
        }
    }
}
