//! Rating lists: maximum-likelihood logistic Elo ratings of any number of players from their
//! games, with error bars, so that each rule set can rank its engines, versions and settings.
//!
//! Model: player i scores against j with expectation `1/(1 + 10^(−(Ri − Rj)/400))`; a draw
//! counts as half a win. The ratings maximize the likelihood with their mean fixed at zero
//! (Newton's method); the 95% error bars come from the inverse of the Fisher information.
//! A weak prior (by default half a virtual draw per player against the pool's average) keeps
//! perfect scores finite; it can be set to zero.

use serde::Serialize;
use std::collections::BTreeMap;

/// One rated player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// Player (engine) name.
    pub name: String,
    /// Rating relative to the pool's mean.
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub error: f64,
    /// Games played.
    pub games: u64,
    /// Points scored.
    pub points: f64,
}

/// A game result between two named players: `score` is White's (1, 0.5 or 0).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// One player.
    pub white: String,
    /// The other.
    pub black: String,
    /// White's score.
    pub score: f64,
}

/// The finished games of rule set `variant` in PDN `text` with both players named (games of
/// other rule sets are skipped).
pub fn rated_games(
    text: &str,
    variant: crate::variant::Variant,
) -> crate::error::Result<Vec<RatedGame>> {
    let mut games = Vec::new();
    for g in crate::pdn::parse_pdn(text)? {
        if g.variant().is_some_and(|v| v != variant) {
            continue;
        }
        let Some(score) = g.result.white_points() else { continue };
        let (Some(w), Some(b)) = (g.tag("White"), g.tag("Black")) else { continue };
        games.push(RatedGame { white: w.to_string(), black: b.to_string(), score });
    }
    Ok(games)
}

/// One pairing's results in two sets of games, from the side of its first player.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingComparison {
    /// The player whose score is counted.
    pub first: String,
    /// The opponent.
    pub second: String,
    /// Games of the pairing in each set.
    pub games: [usize; 2],
    /// `first`'s mean score in each set.
    pub score: [f64; 2],
    /// The difference of the two mean scores over its standard error (from each set's own
    /// spread): about normal, mean 0 and variance 1, when both sets come from players of the
    /// same strengths. Infinite when the scores differ and neither set has any spread.
    pub z: f64,
}

/// Compares the pairings `pairings` (first player, second player) in the games `x` and `y`:
/// one comparison per pairing that both sets have played, in the order given. The sum of the
/// squared `z` is a chi-square with as many degrees of freedom as comparisons when the two
/// sets were played by players of the same strengths (`stats::chi_square_sf` gives its p).
pub fn compare_pairings(
    x: &[RatedGame],
    y: &[RatedGame],
    pairings: &[(String, String)],
) -> Vec<PairingComparison> {
    // The count, mean score and variance of the mean of `first` against `second` in `games`.
    let moments = |games: &[RatedGame], first: &str, second: &str| {
        let scores: Vec<f64> = games
            .iter()
            .filter_map(|g| {
                if g.white == first && g.black == second {
                    Some(g.score)
                } else if g.white == second && g.black == first {
                    Some(1.0 - g.score)
                } else {
                    None
                }
            })
            .collect();
        let n = scores.len() as f64;
        let mean = scores.iter().sum::<f64>() / n.max(1.0);
        let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n.max(1.0);
        (scores.len(), mean, var / n.max(1.0))
    };
    pairings
        .iter()
        .filter_map(|(first, second)| {
            let (na, sa, va) = moments(x, first, second);
            let (nb, sb, vb) = moments(y, first, second);
            if na == 0 || nb == 0 {
                return None;
            }
            let se = (va + vb).sqrt();
            let z = if se > 0.0 {
                (sa - sb) / se
            } else if sa == sb {
                0.0
            } else {
                f64::INFINITY
            };
            Some(PairingComparison {
                first: first.clone(),
                second: second.clone(),
                games: [na, nb],
                score: [sa, sb],
                z,
            })
        })
        .collect()
}

const K: f64 = std::f64::consts::LN_10 / 400.0;

fn expected(d: f64) -> f64 {
    1.0 / (1.0 + (-K * d).exp())
}

/// The information matrix bordered by the constraint that the ratings sum to zero:
/// `[info 1; 1ᵀ 0]`.
fn bordered(info: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = info.len();
    let mut a: Vec<Vec<f64>> = info
        .iter()
        .map(|row| {
            let mut row = row.clone();
            row.push(1.0);
            row
        })
        .collect();
    let mut last = vec![1.0; n];
    last.push(0.0);
    a.push(last);
    a
}

/// Solves `a x = b` for a small dense symmetric system (Gaussian elimination).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-15 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in 0..n {
            if row != col {
                let f = a[row][col] / a[col][col];
                let pivot_row = a[col].clone();
                for (x, p) in a[row].iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    Some((0..n).map(|i| b[i] / a[i][i]).collect())
}

/// Rates the players of `games`; `prior` is the weight of the virtual draw each player gets
/// against the pool's average (0 for none). Sorted best first.
pub fn rate(games: &[RatedGame], prior: f64) -> Vec<Rating> {
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for g in games {
        let n = index.len();
        index.entry(&g.white).or_insert(n);
        let n = index.len();
        index.entry(&g.black).or_insert(n);
    }
    let names: Vec<&str> = {
        let mut v = vec![""; index.len()];
        for (name, &i) in &index {
            v[i] = name;
        }
        v
    };
    let n = names.len();
    let pairs: Vec<(usize, usize, f64)> =
        games.iter().map(|g| (index[g.white.as_str()], index[g.black.as_str()], g.score)).collect();
    let mut r = vec![0.0f64; n];
    // Newton iterations on all ratings, with the mean kept at zero by a Lagrange row.
    let fisher = |r: &[f64]| -> (Vec<f64>, Vec<Vec<f64>>) {
        let mut grad = vec![0.0; n];
        let mut info = vec![vec![0.0; n]; n];
        let mean = r.iter().sum::<f64>() / n.max(1) as f64;
        for &(i, j, s) in &pairs {
            let e = expected(r[i] - r[j]);
            grad[i] += K * (s - e);
            grad[j] -= K * (s - e);
            let w = K * K * e * (1.0 - e);
            info[i][i] += w;
            info[j][j] += w;
            info[i][j] -= w;
            info[j][i] -= w;
        }
        for i in 0..n {
            let e = expected(r[i] - mean);
            grad[i] += prior * K * (0.5 - e);
            info[i][i] += prior * K * K * e * (1.0 - e);
        }
        (grad, info)
    };
    for _ in 0..100 {
        let (grad, info) = fisher(&r);
        // [info 1; 1ᵀ 0] [Δ; λ] = [grad; 0] keeps Σ Δ = 0.
        let mut b = grad;
        b.push(0.0);
        let Some(step) = solve(bordered(&info), b) else { break };
        let mut biggest: f64 = 0.0;
        for i in 0..n {
            let d = step[i].clamp(-400.0, 400.0);
            r[i] += d;
            biggest = biggest.max(d.abs());
        }
        if biggest < 1e-9 {
            break;
        }
    }
    let mean = r.iter().sum::<f64>() / n.max(1) as f64;
    // Covariance of the mean-zero ratings: the inverse of the bordered information matrix.
    let (_, info) = fisher(&r);
    let errors: Vec<f64> = (0..n)
        .map(|i| {
            let mut e = vec![0.0; n + 1];
            e[i] = 1.0;
            solve(bordered(&info), e)
                .map_or(f64::NAN, |col| super::stats::Z95 * col[i].max(0.0).sqrt())
        })
        .collect();
    let mut out: Vec<Rating> = (0..n)
        .map(|i| {
            let (games, points) = pairs.iter().fold((0u64, 0.0), |(g, p), &(w, b, s)| {
                if w == i {
                    (g + 1, p + s)
                } else if b == i {
                    (g + 1, p + 1.0 - s)
                } else {
                    (g, p)
                }
            });
            Rating { name: names[i].to_string(), elo: r[i] - mean, error: errors[i], games, points }
        })
        .collect();
    out.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(a: &str, b: &str, wins: usize, draws: usize, losses: usize) -> Vec<RatedGame> {
        let g = |s: f64| RatedGame { white: a.into(), black: b.into(), score: s };
        std::iter::repeat_n(g(1.0), wins)
            .chain(std::iter::repeat_n(g(0.5), draws))
            .chain(std::iter::repeat_n(g(0.0), losses))
            .collect()
    }

    #[test]
    fn pairings_compare_by_their_scores_and_spread() {
        let pairings = [("A".to_string(), "B".to_string()), ("B".to_string(), "C".to_string())];
        // The same results (colours reversed in one set) differ by nothing.
        let mut x = games("A", "B", 30, 40, 30);
        let y = games("B", "A", 30, 40, 30);
        let c = compare_pairings(&x, &y, &pairings);
        assert_eq!(c.len(), 1, "only the pairing both sets played");
        assert_eq!(c[0].games, [100, 100]);
        assert!(c[0].z.abs() < 1e-12);
        // 60% against 40% over 100 games each: the difference is 0.2 over the root of the sum
        // of the variances of the means.
        x = games("A", "B", 40, 40, 20);
        let c = compare_pairings(&x, &games("B", "A", 40, 40, 20), &pairings);
        let var = |s: f64, w: f64, d: f64, l: f64| {
            (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s) / 100.0 / 100.0
        };
        let want = 0.2 / (var(0.6, 40.0, 40.0, 20.0) + var(0.4, 20.0, 40.0, 40.0)).sqrt();
        assert!((c[0].score[0] - 0.6).abs() < 1e-12 && (c[0].score[1] - 0.4).abs() < 1e-12);
        assert!((c[0].z - want).abs() < 1e-9, "{} {want}", c[0].z);
        // No spread in either set and different scores: certain.
        let c = compare_pairings(&games("A", "B", 5, 0, 0), &games("A", "B", 0, 0, 5), &pairings);
        assert_eq!(c[0].z, f64::INFINITY);
    }

    #[test]
    fn two_players_by_hand() {
        // A scores 75% over 400 games: R_A − R_B = 400·log10(3) = 190.85, each ±95.42 around
        // the mean. Fisher information of the difference: 400·0.75·0.25·K²; its σ is 20.06,
        // so each rating's σ is 10.03 and the 95% error 19.66.
        let r = rate(&games("A", "B", 250, 100, 50), 0.0);
        assert_eq!(r[0].name, "A");
        assert!((r[0].elo - 95.424_250_943_93).abs() < 1e-6, "{}", r[0].elo);
        assert!((r[1].elo + 95.424_250_943_93).abs() < 1e-6);
        let sigma_diff = 1.0 / (400.0 * 0.75 * 0.25 * K * K).sqrt();
        assert!(
            (r[0].error - 1.959_963_984_540_054 * sigma_diff / 2.0).abs() < 1e-6,
            "{}",
            r[0].error
        );
        assert_eq!(r[0].games, 400);
        assert!((r[0].points - 300.0).abs() < 1e-9);
    }

    #[test]
    fn three_players_are_consistent_and_perfect_scores_stay_finite() {
        let mut g = games("A", "B", 30, 40, 30);
        g.extend(games("B", "C", 60, 30, 10));
        g.extend(games("C", "D", 10, 0, 0));
        let r = rate(&g, 0.5);
        assert_eq!(r.len(), 4);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.error.is_finite()));
        let sum: f64 = r.iter().map(|x| x.elo).sum();
        assert!(sum.abs() < 1e-6);
        let find = |n: &str| r.iter().find(|x| x.name == n).unwrap().elo;
        assert!(find("A") > find("C") && find("B") > find("C") && find("C") > find("D"));
    }
}
