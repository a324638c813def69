//! Fits the win/draw/loss model ([`crate::wdl`]) to self-play positions: maximum likelihood of
//! the game results given the search scores and the material, by full-batch Adam on the four
//! parameters (a few hundred passes over at most [`MAX_SAMPLES`] positions).

use crate::learn::data::Record;
use crate::variant::Base;
use crate::wdl::{self, Params};
use rayon::prelude::*;

/// Positions used at most (an even sample of the data beyond that).
pub const MAX_SAMPLES: usize = 400_000;

/// One position: White's score in men, the material fraction and White's result (0, 1, 2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// White's search score, in men.
    pub men: f64,
    /// Pieces on the board over pieces at the start.
    pub m: f64,
    /// White's result: 0 loss, 1 draw, 2 win.
    pub result: u8,
}

impl Sample {
    /// The sample of a data record of rule set `base`.
    pub fn of(base: Base, r: &Record) -> Sample {
        let pieces = (r.white | r.black).count_ones();
        Sample { men: f64::from(r.score) / 100.0, m: wdl::material(base, pieces), result: r.result }
    }
}

/// The outcome of a fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// The fitted parameters.
    pub params: Params,
    /// Mean negative log-likelihood per position with the fitted parameters.
    pub loss: f64,
    /// The same with the result frequencies alone (no score): what the score explains is the
    /// difference.
    pub baseline: f64,
    /// Positions used.
    pub samples: usize,
    /// Share of draws among them.
    pub draws: f64,
}

/// Mean negative log-likelihood of `samples` under `p`, and its gradient in `(a0, a1, b0, b1)`.
fn loss_and_gradient(samples: &[Sample], p: &Params) -> (f64, [f64; 4]) {
    let (sum, g) = samples
        .par_chunks(4096)
        .map(|chunk| {
            let mut sum = 0.0;
            let mut g = [0.0; 4];
            for s in chunk {
                let (a, b) = p.at(s.m);
                let u = (s.men - a) / b;
                let v = (-s.men - a) / b;
                let w = wdl::sigmoid(u);
                let l = wdl::sigmoid(v);
                let d = (1.0 - w - l).max(1e-9);
                // d(-log P)/du and d(-log P)/dv for the observed result.
                let (du, dv, nll) = match s.result {
                    2 => (-(1.0 - w), 0.0, -w.max(1e-12).ln()),
                    0 => (0.0, -(1.0 - l), -l.max(1e-12).ln()),
                    _ => (w * (1.0 - w) / d, l * (1.0 - l) / d, -d.ln()),
                };
                // u = (s - a)/b, v = (-s - a)/b: du/da = dv/da = -1/b, du/db = -u/b, dv/db = -v/b.
                let ga = -(du + dv) / b;
                let gb = -(du * u + dv * v) / b;
                sum += nll;
                g[0] += ga;
                g[1] += ga * s.m;
                g[2] += gb;
                g[3] += gb * s.m;
            }
            (sum, g)
        })
        .reduce(
            || (0.0, [0.0; 4]),
            |(s1, g1), (s2, g2)| {
                (s1 + s2, [g1[0] + g2[0], g1[1] + g2[1], g1[2] + g2[2], g1[3] + g2[3]])
            },
        );
    let n = samples.len().max(1) as f64;
    (sum / n, g.map(|x| x / n))
}

/// Fits the model to `samples` (an even sample of at most [`MAX_SAMPLES`] is used).
pub fn fit(samples: &[Sample]) -> Fit {
    let step = samples.len().div_ceil(MAX_SAMPLES).max(1);
    let used: Vec<Sample> = samples.iter().step_by(step).copied().collect();
    let n = used.len().max(1) as f64;
    let freq = |r: u8| used.iter().filter(|s| s.result == r).count() as f64 / n;
    let (fw, fd, fl) = (freq(2), freq(1), freq(0));
    let baseline = -[fw, fd, fl].iter().filter(|&&f| f > 0.0).map(|f| f * f.ln()).sum::<f64>();

    let mut x = [1.0, 0.0, 0.5, 0.0];
    let (mut m1, mut m2) = ([0.0; 4], [0.0; 4]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let params = |x: &[f64; 4]| Params { a0: x[0], a1: x[1], b0: x[2], b1: x[3] };
    for t in 1..=600 {
        let lr = if t < 400 { 0.02 } else { 0.005 };
        let (_, g) = loss_and_gradient(&used, &params(&x));
        for i in 0..4 {
            m1[i] = beta1 * m1[i] + (1.0 - beta1) * g[i];
            m2[i] = beta2 * m2[i] + (1.0 - beta2) * g[i] * g[i];
            let mh = m1[i] / (1.0 - f64::powi(beta1, t));
            let vh = m2[i] / (1.0 - f64::powi(beta2, t));
            x[i] -= lr * mh / (vh.sqrt() + eps);
        }
    }
    let p = params(&x);
    let (loss, _) = loss_and_gradient(&used, &p);
    Fit { params: p, loss, baseline, samples: used.len(), draws: fd }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known model are fitted back to it.
    #[test]
    fn fit_recovers_the_parameters_of_generated_results() {
        let truth = Params { a0: 0.6, a1: 0.8, b0: 0.3, b1: 0.4 };
        let mut rng = 12345u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 11) as f64 / (1u64 << 53) as f64
        };
        let samples: Vec<Sample> = (0..200_000)
            .map(|_| {
                let men = (next() - 0.5) * 6.0;
                let m = next();
                let [w, d, _] = truth.probabilities(men, m);
                let r = next();
                let result = if r < w {
                    2
                } else if r < w + d {
                    1
                } else {
                    0
                };
                Sample { men, m, result }
            })
            .collect();
        let f = fit(&samples);
        for (got, want) in [
            (f.params.a0, truth.a0),
            (f.params.a1, truth.a1),
            (f.params.b0, truth.b0),
            (f.params.b1, truth.b1),
        ] {
            assert!((got - want).abs() < 0.08, "fitted {:?}, generated with {truth:?}", f.params);
        }
        assert!(f.loss < f.baseline);
    }
}
