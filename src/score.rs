//! `Score`: a search score in centi-men from the side to move's point of view, with wins and
//! losses as distances to the end of the game.

use std::fmt;
use std::ops::{Add, Neg, Sub};

/// A score in centi-men (a man is worth about 100) from the side to move's point of view.
/// Scores beyond ±[`Score::WIN_THRESHOLD`] are won or lost games: `WIN - n` wins in `n` plies.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(pub i32);

impl Score {
    /// A draw.
    pub const DRAW: Score = Score(0);
    /// A win at the root (never reached: a win is always some plies away).
    pub const WIN: Score = Score(30_000);
    /// Above this, a score is a won game.
    pub const WIN_THRESHOLD: Score = Score(30_000 - 1_000);
    /// Larger than any score: the initial search window.
    pub const INFINITE: Score = Score(32_000);

    /// Database wins are at most this: below every found win, above every evaluation.
    pub const DATABASE_WIN: Score = Score(28_000);
    /// Database wins are at least this.
    pub const DATABASE_WIN_MIN: Score = Score(28_000 - Self::DATABASE_SPAN);
    const DATABASE_SPAN: i32 = 8 * 2048 + 8 * 200 + 199;

    /// The score of a database result in a position with `pieces` pieces of which `men`
    /// are men, `plies` from its next conversion. Fewer pieces, then fewer men, then a
    /// nearer conversion score higher, so that the winner always makes progress (each
    /// conversion on a won line leaves a smaller slice; inside one, the distance falls) and
    /// the loser holds out. Independent of the distance from the root, as the hash table
    /// needs. Beyond 8 pieces or 199 plies the order is approximate.
    pub const fn database(result: i32, pieces: u32, men: u32, plies: u32) -> Score {
        let pieces = if pieces > 8 { 8 } else { pieces } as i32;
        let men = if men > 8 { 8 } else { men } as i32;
        let plies = if plies > 199 { 199 } else { plies } as i32;
        let s = Self::DATABASE_WIN.0 - (pieces * 2048 + men * 200 + plies);
        Score(if result > 0 {
            s
        } else if result < 0 {
            -s
        } else {
            0
        })
    }

    /// A win in `ply` plies from the root.
    pub const fn win_in(ply: usize) -> Score {
        Score(Self::WIN.0 - ply as i32)
    }

    /// A loss in `ply` plies from the root.
    pub const fn loss_in(ply: usize) -> Score {
        Score(-Self::WIN.0 + ply as i32)
    }

    /// True for a won or lost game score.
    pub const fn is_decisive(self) -> bool {
        self.0.abs() > Self::WIN_THRESHOLD.0
    }

    /// Plies to the end of the game for a decisive score.
    pub const fn plies_to_end(self) -> Option<i32> {
        if self.is_decisive() { Some(Self::WIN.0 - self.0.abs()) } else { None }
    }

    /// The score as stored in the hash table: decisive scores count plies from the stored
    /// node, not from the root (`ply` is the node's distance from the root).
    pub const fn to_tt(self, ply: usize) -> Score {
        if self.0 > Self::WIN_THRESHOLD.0 {
            Score(self.0 + ply as i32)
        } else if self.0 < -Self::WIN_THRESHOLD.0 {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// The inverse of [`to_tt`](Self::to_tt) at distance `ply` from the root.
    pub const fn from_tt(self, ply: usize) -> Score {
        if self.0 > Self::WIN_THRESHOLD.0 {
            Score(self.0 - ply as i32)
        } else if self.0 < -Self::WIN_THRESHOLD.0 {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }

    /// The Hub protocol's form: men with two decimals; a win in `n` plies is
    /// `±(100 - n/100)`, e.g. `99.97` (clients read |score| > 90 as a win); a database
    /// win is between 90 and 98 men, nearer wins higher.
    pub fn to_hub(self) -> String {
        let sign = if self.0 > 0 { 1.0 } else { -1.0 };
        match self.plies_to_end() {
            Some(n) => format!("{:.2}", sign * (100.0 - f64::from(n.min(999)) / 100.0)),
            None if self.is_database() => {
                let above = f64::from(self.0.abs() - Self::DATABASE_WIN_MIN.0);
                format!("{:.2}", sign * (90.0 + 8.0 * above / f64::from(Self::DATABASE_SPAN)))
            }
            None => format!("{:.2}", f64::from(self.0) / 100.0),
        }
    }

    /// True for a database win or loss (not a found one).
    pub const fn is_database(self) -> bool {
        self.0.abs() >= Self::DATABASE_WIN_MIN.0 && !self.is_decisive()
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

impl fmt::Display for Score {
    /// `+1.25` style in men, or `win in N` / `loss in N` plies.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(n) if self.0 > 0 => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {n}"),
            None => write!(f, "{:+.2}", f64::from(self.0) / 100.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisive_scores_survive_the_hash_table_round_trip() {
        for ply in [0usize, 1, 7, 100] {
            for s in [Score::win_in(ply + 5), Score::loss_in(ply + 3), Score(123), Score(-50)] {
                assert_eq!(s.to_tt(ply).from_tt(ply), s);
            }
        }
        // Stored at ply 4 as "win in 5 from the root", read at ply 2: win in 3 from the root.
        let stored = Score::win_in(5).to_tt(4);
        assert_eq!(stored.from_tt(2), Score::win_in(3));
    }

    #[test]
    fn hub_form_is_men_with_two_decimals() {
        assert_eq!(Score(125).to_hub(), "1.25");
        assert_eq!(Score(-7).to_hub(), "-0.07");
        assert_eq!(Score::win_in(3).to_hub(), "99.97");
        assert_eq!(Score::loss_in(12).to_hub(), "-99.88");
    }
}
