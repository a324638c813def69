//! Match statistics: Elo with a 95% interval, normalized Elo and LOS from game results
//! (trinomial) and from game pairs (pentanomial), and the GSPRT log-likelihood ratio.
//!
//! The formulas are those of fishtest and fastchess: logistic Elo `-400·log10(1/s − 1)`; the
//! interval from the normal approximation of the mean score; normalized Elo
//! `(s − ½)/σ · 800/ln 10` (σ per game, or per pair divided by √2); and the log-likelihood
//! ratio of the generalized SPRT with the maximum-likelihood distributions of Michel Van den
//! Bergh ("Comments on normalized Elo"), zero counts regularized to 0.001.

use serde::Serialize;

/// z for a two-sided 95% interval.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// Win, draw and loss counts (from the first engine's side).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

/// Game-pair counts (each opening played with both colours): the pair's total score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Penta {
    /// Lost both.
    pub ll: u64,
    /// A loss and a draw.
    pub ld: u64,
    /// Two draws, or a win and a loss.
    pub dd_wl: u64,
    /// A win and a draw.
    pub wd: u64,
    /// Won both.
    pub ww: u64,
}

/// Logistic Elo of a score fraction.
pub fn elo_of_score(s: f64) -> f64 {
    let s = s.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Score fraction of a logistic Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The coefficients of the Chebyshev fit of `erfc` in [`erf`], after the constant term.
const ERFC_FIT: [f64; 9] = [
    1.000_023_68,
    0.374_091_96,
    0.096_784_18,
    -0.186_288_06,
    0.278_868_07,
    -1.135_203_98,
    1.488_515_87,
    -0.822_152_23,
    0.170_872_77,
];

fn erf(x: f64) -> f64 {
    // Numerical Recipes' Chebyshev fit of erfc (fractional error below 1.2e-7), its
    // polynomial in t by Horner's rule (a loop, not the nested expression of the book, which
    // rustfmt takes close to a minute to lay out).
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = ERFC_FIT[..8].iter().rev().fold(ERFC_FIT[8], |p, &c| c + t * p);
    let y = 1.0 - t * (-x * x - 1.265_512_23 + t * poly).exp();
    if x >= 0.0 { y } else { -y }
}

/// The upper tail `P(X ≥ x)` of a chi-square distribution with `k` degrees of freedom: the
/// regularized upper incomplete gamma function `Q(k/2, x/2)` (Numerical Recipes' series below
/// `a + 1`, Lentz's continued fraction above, both to 1e-12).
pub fn chi_square_sf(x: f64, k: u32) -> f64 {
    if k == 0 || x.is_nan() {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 1.0;
    }
    if x.is_infinite() {
        return 0.0;
    }
    let (a, x) = (f64::from(k) / 2.0, x / 2.0);
    let front = (a * x.ln() - x - ln_gamma(a)).exp();
    if x < a + 1.0 {
        // P(a, x) by its series.
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            n += 1.0;
            term *= x / n;
            sum += term;
            if term.abs() < sum.abs() * 1e-12 {
                break;
            }
        }
        (1.0 - sum * front).clamp(0.0, 1.0)
    } else {
        // Q(a, x) by its continued fraction (modified Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -f64::from(i) * (f64::from(i) - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let step = d * c;
            h *= step;
            if (step - 1.0).abs() < 1e-12 {
                break;
            }
        }
        (front * h).clamp(0.0, 1.0)
    }
}

/// The weighted least-squares non-decreasing fit of `values` (isotonic regression by pool
/// adjacent violators): where a value falls below the one before it, the run is replaced by
/// its weighted mean. A ladder's levels are stronger as they rise by construction; a fit that
/// puts two within their error bars the wrong way round is noise, and this removes it with
/// the least change. `weights` (same length, positive) are usually inverse variances.
pub fn monotone(values: &[f64], weights: &[f64]) -> Vec<f64> {
    // Blocks of (mean, weight, count), each mean above the one before.
    let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(values.len());
    for (&v, &w) in values.iter().zip(weights) {
        let mut block = (v, w, 1);
        while let Some(&(m, bw, n)) = blocks.last() {
            if m <= block.0 {
                break;
            }
            blocks.pop();
            let total = bw + block.1;
            block = ((m * bw + block.0 * block.1) / total, total, n + block.2);
        }
        blocks.push(block);
    }
    blocks.iter().flat_map(|&(m, _, n)| std::iter::repeat_n(m, n)).collect()
}

/// `ln Γ(a)` for `a > 0` (Lanczos, g = 7, 9 terms: about 15 digits).
fn ln_gamma(a: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if a < 0.5 {
        // Reflection: Γ(a) Γ(1 − a) = π / sin(πa).
        let pi = std::f64::consts::PI;
        return (pi / (pi * a).sin()).ln() - ln_gamma(1.0 - a);
    }
    let a = a - 1.0;
    let t = a + 7.5;
    let sum = G[1..].iter().enumerate().fold(G[0], |s, (i, g)| s + g / (a + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (a + 0.5) * t.ln() - t + sum.ln()
}

/// A summary of a score distribution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// Mean score fraction.
    pub score: f64,
    /// Elo difference.
    pub elo: f64,
    /// Half-width of the 95% interval, in Elo.
    pub interval: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
}

/// Mean and variance of outcomes `scores` with counts `counts`.
fn moments(scores: &[f64], counts: &[u64]) -> (f64, f64, f64) {
    let n: f64 = counts.iter().map(|&c| c as f64).sum();
    if n == 0.0 {
        // No outcome: an even score, which is Elo 0.
        return (0.0, 0.5, 0.0);
    }
    let mean = scores.iter().zip(counts).map(|(s, &c)| s * c as f64).sum::<f64>() / n;
    let var =
        scores.iter().zip(counts).map(|(s, &c)| c as f64 * (s - mean).powi(2)).sum::<f64>() / n;
    (n, mean, var)
}

fn estimate(n: f64, mean: f64, var: f64, per_game_sigma: f64) -> EloEstimate {
    let se = (var / n.max(1.0)).sqrt();
    let lo = elo_of_score(mean - Z95 * se);
    let hi = elo_of_score(mean + Z95 * se);
    let nelo = if per_game_sigma > 0.0 {
        (mean - 0.5) / per_game_sigma * 800.0 / std::f64::consts::LN_10
    } else {
        0.0
    };
    let los = if se > 0.0 {
        0.5 * (1.0 + erf((mean - 0.5) / (se * std::f64::consts::SQRT_2)))
    } else {
        // No spread at all: the sign of the result is certain.
        match mean.partial_cmp(&0.5) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        }
    };
    EloEstimate { score: mean, elo: elo_of_score(mean), interval: (hi - lo) / 2.0, nelo, los }
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Elo from the game results (trinomial model).
    pub fn elo(&self) -> EloEstimate {
        let (n, mean, var) = moments(&[1.0, 0.5, 0.0], &[self.wins, self.draws, self.losses]);
        estimate(n, mean, var, var.sqrt())
    }
}

impl Penta {
    /// Pairs played.
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.dd_wl + self.wd + self.ww
    }

    /// Adds a pair with total score `pair` (0, 0.5, 1, 1.5 or 2 points).
    pub fn add(&mut self, points: f64) {
        match (points * 2.0).round() as i64 {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 => self.dd_wl += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    fn counts(&self) -> [u64; 5] {
        [self.ll, self.ld, self.dd_wl, self.wd, self.ww]
    }

    /// Elo from the pairs (pentanomial model); the per-game σ for normalized Elo is the
    /// per-pair σ times √2 (a pair score is the mean of two games).
    pub fn elo(&self) -> EloEstimate {
        let (n, mean, var) = moments(&[0.0, 0.25, 0.5, 0.75, 1.0], &self.counts());
        estimate(n, mean, var, (2.0 * var).sqrt())
    }

    /// The GSPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), logistic Elo.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let reg = |c: u64| if c == 0 { 1e-3 } else { c as f64 };
        let counts: Vec<f64> = self.counts().iter().map(|&c| reg(c)).collect();
        let total: f64 = counts.iter().sum();
        let probs: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        llr_logistic(total, &scores, &probs, score_of_elo(elo0), score_of_elo(elo1))
    }
}

/// The maximum-likelihood distribution over `scores` with mean `s`, closest to `probs`
/// (Van den Bergh, proposition 1.1): `p_i = p̂_i / (1 + θ(a_i − s))` with θ solving
/// `Σ p̂_i (a_i − s)/(1 + θ(a_i − s)) = 0`.
fn mle(scores: &[f64], probs: &[f64], s: f64) -> Vec<f64> {
    let f = |theta: f64| -> f64 {
        scores.iter().zip(probs).map(|(a, p)| p * (a - s) / (1.0 + theta * (a - s))).sum()
    };
    let last = scores[scores.len() - 1];
    // θ lies strictly between the poles -1/(max − s) and -1/(min − s); f decreases on it.
    let mut lo = -1.0 / (last - s) + 1e-12;
    let mut hi = -1.0 / (scores[0] - s) - 1e-12;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    scores.iter().zip(probs).map(|(a, p)| p / (1.0 + theta * (a - s))).collect()
}

fn llr_logistic(total: f64, scores: &[f64], probs: &[f64], s0: f64, s1: f64) -> f64 {
    let p0 = mle(scores, probs, s0);
    let p1 = mle(scores, probs, s1);
    total
        * probs.iter().zip(p0.iter().zip(&p1)).map(|(p, (a, b))| p * (b.ln() - a.ln())).sum::<f64>()
}

/// SPRT parameters and bounds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What an SPRT says now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// H1 accepted: the first engine is stronger by about `elo1`.
    H1,
    /// H0 accepted: not stronger by `elo1`.
    H0,
    /// Keep playing.
    Continue,
}

impl Sprt {
    /// Parses `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<f64> = text
            .split(',')
            .map(|p| {
                p.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("bad number \"{}\" in --sprt", p.trim()))
            })
            .collect::<Result<_, _>>()?;
        let s = match parts.as_slice() {
            [e0, e1] => Sprt { elo0: *e0, elo1: *e1, alpha: 0.05, beta: 0.05 },
            [e0, e1, a, b] => Sprt { elo0: *e0, elo1: *e1, alpha: *a, beta: *b },
            _ => return Err("--sprt takes elo0,elo1[,alpha,beta]".into()),
        };
        if !s.elo0.is_finite() || !s.elo1.is_finite() || s.elo0 >= s.elo1 {
            return Err("--sprt needs elo0 < elo1".into());
        }
        if !(0.0 < s.alpha
            && s.alpha < 1.0
            && 0.0 < s.beta
            && s.beta < 1.0
            && s.alpha + s.beta < 1.0)
        {
            return Err("--sprt needs 0 < alpha, beta and alpha + beta < 1".into());
        }
        Ok(s)
    }

    /// The lower bound (accept H0 at or below).
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound (accept H1 at or above).
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The verdict for log-likelihood ratio `llr`.
    pub fn verdict(&self, llr: f64) -> Verdict {
        if llr >= self.upper() {
            Verdict::H1
        } else if llr <= self.lower() {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn monotone_fit_pools_only_the_values_out_of_order() {
        // In order: unchanged.
        assert_eq!(monotone(&[1.0, 2.0, 5.0], &[1.0, 1.0, 1.0]), vec![1.0, 2.0, 5.0]);
        // One pair the wrong way round becomes its weighted mean; the rest stays.
        assert_eq!(
            monotone(&[1.0, 2401.0, 2399.0, 2500.0], &[1.0, 1.0, 1.0, 1.0]),
            vec![1.0, 2400.0, 2400.0, 2500.0]
        );
        assert_eq!(monotone(&[0.0, 4.0, 1.0], &[1.0, 1.0, 3.0]), vec![0.0, 1.75, 1.75]);
        // A violation that reaches back pools the whole run: 3, 2, 1 -> 2, 2, 2.
        assert_eq!(monotone(&[3.0, 2.0, 1.0, 7.0], &[1.0; 4]), vec![2.0, 2.0, 2.0, 7.0]);
        // The result never decreases and keeps the weighted sum.
        let (v, w) = ([5.0, 1.0, 4.0, 2.0, 8.0, 0.0], [1.0, 2.0, 1.0, 3.0, 1.0, 1.0]);
        let m = monotone(&v, &w);
        assert!(m.windows(2).all(|p| p[0] <= p[1]), "{m:?}");
        let sum = |x: &[f64]| x.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>();
        assert!(close(sum(&m), sum(&v), 1e-9));
        assert!(monotone(&[], &[]).is_empty());
    }

    #[test]
    fn chi_square_tail_matches_closed_forms_and_tables() {
        // Even degrees of freedom have a closed form: Q(m, y) = e^-y Σ_{i<m} y^i / i!.
        for k in [2u32, 4, 10, 18, 30] {
            for x in [0.5, 3.0, 9.5, 17.0, 23.7, 40.0, 90.0] {
                let y: f64 = x / 2.0;
                let (mut term, mut sum) = (1.0, 0.0);
                for i in 0..k / 2 {
                    if i > 0 {
                        term *= y / f64::from(i);
                    }
                    sum += term;
                }
                let want = (-y).exp() * sum;
                let got = chi_square_sf(x, k);
                assert!(close(got, want, 1e-10 + 1e-9 * want), "k {k} x {x}: {got} {want}");
            }
        }
        // Odd ones against the tables' 5% and 1% points.
        assert!(close(chi_square_sf(3.841_458_820_694_124, 1), 0.05, 1e-9));
        assert!(close(chi_square_sf(6.634_896_601_021_214, 1), 0.01, 1e-9));
        assert!(close(chi_square_sf(27.587_111_638_275_33, 17), 0.05, 1e-9));
        assert!(close(chi_square_sf(28.869_299_430_392_62, 18), 0.05, 1e-9));
        assert_eq!(chi_square_sf(0.0, 5), 1.0);
        assert!(chi_square_sf(1000.0, 18) < 1e-100);
        assert!(chi_square_sf(1.0, 0).is_nan());
        assert_eq!(chi_square_sf(f64::INFINITY, 3), 0.0);
        assert!(close(ln_gamma(5.0), 24f64.ln(), 1e-12));
        assert!(close(ln_gamma(0.5), std::f64::consts::PI.sqrt().ln(), 1e-12));
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_of_score(0.5), 0.0, 1e-9));
        assert!(close(elo_of_score(0.75), 190.848_501_887_865, 1e-6));
        assert!(close(elo_of_score(0.25), -190.848_501_887_865, 1e-6));
        assert!(close(score_of_elo(elo_of_score(0.6)), 0.6, 1e-12));
    }

    #[test]
    fn no_games_is_an_even_score() {
        // An empty shard, or merged games without pairs, must not read as a huge loss.
        for e in [Wdl::default().elo(), Penta::default().elo()] {
            assert_eq!(e.score, 0.5, "{e:?}");
            assert_eq!(e.elo, 0.0, "{e:?}");
        }
    }

    #[test]
    fn trinomial_interval_by_hand() {
        // 60 wins, 20 draws, 20 losses: s = 0.7; per-game variance
        // (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16; se = 0.04.
        let e = Wdl { wins: 60, draws: 20, losses: 20 }.elo();
        assert!(close(e.score, 0.7, 1e-12));
        let lo = elo_of_score(0.7 - Z95 * 0.04);
        let hi = elo_of_score(0.7 + Z95 * 0.04);
        assert!(close(e.interval, (hi - lo) / 2.0, 1e-9));
        assert!(close(e.elo, 147.190_714_117_837_76, 1e-6));
        // nElo = (0.7 − 0.5)/0.4 · 800/ln 10 = 173.72…
        assert!(close(e.nelo, 0.5 * 800.0 / std::f64::consts::LN_10, 1e-9));
        // LOS from the normal approximation: Φ(0.2/0.04) = Φ(5).
        assert!(e.los > 0.999_999);
    }

    #[test]
    fn pentanomial_by_hand() {
        let mut p = Penta::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0] {
            p.add(points);
        }
        assert_eq!(p, Penta { ll: 1, ld: 1, dd_wl: 2, wd: 1, ww: 1 });
        let e = p.elo();
        assert!(close(e.score, 0.5, 1e-12));
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.los, 0.5, 1e-6));
    }

    #[test]
    fn llr_agrees_with_the_fishtest_approximation() {
        // For many pairs the exact GSPRT LLR approaches fishtest's classic approximation
        // N (s1 − s0)(2 s̄ − s0 − s1) / (2 σ²).
        let p = Penta { ll: 400, ld: 2600, dd_wl: 7000, wd: 2900, ww: 500 };
        let (n, mean, var) = moments(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.counts());
        let (s0, s1) = (score_of_elo(0.0), score_of_elo(5.0));
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = p.llr(0.0, 5.0);
        assert!(close(exact, approx, 0.02 * approx.abs().max(1.0)), "{exact} vs {approx}");
        // A score above elo1 favours H1, below elo0 favours H0.
        assert!(p.llr(0.0, 5.0) > 0.0);
        let worse = Penta { ww: 400, wd: 2600, dd_wl: 7000, ld: 2900, ll: 500 };
        assert!(worse.llr(0.0, 5.0) < 0.0);
    }

    #[test]
    fn sprt_bounds_and_parsing() {
        let s = Sprt::parse("0,5").unwrap();
        assert!(close(s.lower(), (0.05f64 / 0.95).ln(), 1e-12));
        assert!(close(s.upper(), (0.95f64 / 0.05).ln(), 1e-12));
        assert!(close(s.upper(), 2.944_438_979_166_44, 1e-9));
        assert_eq!(s.verdict(3.0), Verdict::H1);
        assert_eq!(s.verdict(-3.0), Verdict::H0);
        assert_eq!(s.verdict(0.0), Verdict::Continue);
        assert!(Sprt::parse("5,0").is_err());
        assert!(Sprt::parse("0,5,0.6,0.6").is_err());
        assert!(Sprt::parse("x,5").is_err());
    }
}
