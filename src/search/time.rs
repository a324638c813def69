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
    /// over fewer moves as the men come off the board (see `tm_moves_*` in `tune.rs`).
    pub fn at(limits: &Limits, phase: f64) -> Budget {
        let mut b = Budget::default();
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(margin(mt).min(Duration::from_millis(20)));
            b.soft = Some(t);
            b.hard = Some(t);
        }
        if let Some(remaining) = limits.time {
            let available = remaining.saturating_sub(margin(remaining));
            let p = super::tune::params();
            let phase = phase.clamp(0.0, 1.0);
            let expected = f64::from(p.tm_moves_open)
                + (f64::from(p.tm_moves_end) - f64::from(p.tm_moves_open)) * phase;
            let expected = (expected.round() as u32).max(1);
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
            for phase in [0.0, 0.5, 1.0] {
                let b = Budget::at(&limits, phase);
                let hard = b.hard.unwrap();
                assert!(hard <= room, "{t}+{inc} at {phase}: {hard:?}");
                assert!(b.soft.unwrap() <= hard);
            }
        }
    }

    #[test]
    fn movetime_is_respected() {
        let b = Budget::at(&Limits { movetime: Some(secs(1.0)), ..Limits::default() }, 0.0);
        assert!(b.hard.unwrap() <= secs(1.0) && b.hard.unwrap() >= secs(0.95));
        assert_eq!(Budget::at(&Limits::default(), 1.0), Budget::default());
    }
}
