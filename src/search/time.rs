//! Time budgets: how long a search may run under the given limits.
//!
//! A clock game gets a *soft* budget (no new iteration starts after 60% of it) and a *hard*
//! one (the search stops), both inside a safety margin that keeps the engine off zero even
//! with slow pipes and process scheduling: the hard budget never exceeds 60% of what is left
//! on the clock after the margin, whatever the increment.

use super::Limits;
use std::time::Duration;

/// Soft and hard time budgets; `None` means unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Budget {
    /// Do not start a new iteration after 60% of this.
    pub soft: Option<Duration>,
    /// Stop the search at this.
    pub hard: Option<Duration>,
}

/// The safety margin kept on a clock of `remaining`.
pub fn margin(remaining: Duration) -> Duration {
    (Duration::from_millis(30) + remaining / 50).min(remaining / 2)
}

impl Budget {
    /// The budget of `limits` at game `phase` (0 at the start, 1 with no men left), ignoring
    /// pondering and infinite analysis, which the search handles itself: a clock is shared
    /// over `moves.0` moves at the start and `moves.1` with no men left, linearly in between
    /// (see `tm_moves_*` in `tune.rs` and [`clock_moves`]).
    pub fn at(limits: &Limits, phase: f64, moves: (i32, i32)) -> Budget {
        let mut b = Budget::default();
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(margin(mt).min(Duration::from_millis(20)));
            b.soft = Some(t);
            b.hard = Some(t);
        }
        if let Some(remaining) = limits.time {
            let available = remaining.saturating_sub(margin(remaining));
            let phase = phase.clamp(0.0, 1.0);
            let (open, end) = (f64::from(moves.0), f64::from(moves.1));
            let expected = (open + (end - open) * phase).round().max(1.0) as u32;
            let moves = limits.moves_to_go.unwrap_or(expected).clamp(1, 60);
            let soft = available / moves + limits.inc.mul_f64(0.75);
            let hard = (soft * 4).min(available.mul_f64(0.6));
            let soft = soft.min(hard);
            b.soft = Some(b.soft.map_or(soft, |s| s.min(soft)));
            b.hard = Some(b.hard.map_or(hard, |h| h.min(hard)));
        }
        b
    }
}

/// The moves a clock is shared over at the start and with no men left, by board: games on
/// the 32-square boards are short (about 45-55 moves a side in russian and english against
/// about 100 in international), so their clock is shared over fewer moves.
pub fn clock_moves(squares: usize) -> (i32, i32) {
    let p = super::tune::params();
    if squares <= 32 {
        (p.tm8_moves_open, p.tm8_moves_end)
    } else {
        (p.tm_moves_open, p.tm_moves_end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn hard_budget_stays_inside_the_clock() {
        for (t, inc) in [(5.0, 0.1), (0.05, 2.0), (0.0, 0.0), (300.0, 0.0), (1.0, 10.0)] {
            let limits = Limits { time: Some(secs(t)), inc: secs(inc), ..Limits::default() };
            let room = secs(t).saturating_sub(margin(secs(t)));
            for (phase, squares) in [(0.0, 50), (0.5, 32), (1.0, 64), (1.0, 32)] {
                let b = Budget::at(&limits, phase, clock_moves(squares));
                let hard = b.hard.unwrap();
                assert!(hard <= room, "{t}+{inc} at {phase}: {hard:?}");
                assert!(b.soft.unwrap() <= hard);
            }
        }
    }

    #[test]
    fn movetime_is_respected() {
        let limits = Limits { movetime: Some(secs(1.0)), ..Limits::default() };
        let b = Budget::at(&limits, 0.0, clock_moves(32));
        assert!(b.hard.unwrap() <= secs(1.0) && b.hard.unwrap() >= secs(0.95));
        assert_eq!(Budget::at(&Limits::default(), 1.0, clock_moves(50)), Budget::default());
    }

    #[test]
    fn the_short_games_of_the_small_boards_get_more_of_the_clock_per_move() {
        let limits = Limits { time: Some(secs(4.0)), inc: secs(0.04), ..Limits::default() };
        for phase in [0.0, 0.5, 1.0] {
            let small = Budget::at(&limits, phase, clock_moves(32));
            let large = Budget::at(&limits, phase, clock_moves(50));
            assert!(small.soft.unwrap() > large.soft.unwrap(), "phase {phase}");
            assert_eq!(large, Budget::at(&limits, phase, clock_moves(64)));
        }
        // Fewer moves to share over as the men come off.
        let open = Budget::at(&limits, 0.0, clock_moves(32)).soft.unwrap();
        assert!(Budget::at(&limits, 1.0, clock_moves(32)).soft.unwrap() > open);
        // A stated number of moves to the time control overrides the estimate.
        let stated = Limits { moves_to_go: Some(40), ..limits };
        assert_eq!(Budget::at(&stated, 0.0, clock_moves(32)), Budget::at(&stated, 0.0, (7, 3)));
    }
}
