//! The trainer: fits a [`Model`]'s weights to self-play data by logistic regression.
//!
//! The model's score `s` (centi-men, White's view) predicts White's expected result through
//! `p = sigmoid(s / K)`. The target is `lambda * result + (1 - lambda) * sigmoid(score / K)`
//! (the game result blended with the search score of the position); the loss is the cross
//! entropy, plus L2 on every weight but material. `K` is fitted once so that the data's own
//! search scores predict its results best, which keeps the learned weights on the engine's
//! centi-man scale (search margins stay meaningful).
//!
//! Optimiser: Adam on mini-batches with lazy (sparse) updates: only the weights a batch
//! touches move. Games, not positions, are split between training and validation, so
//! positions of one game never sit on both sides. Deterministic for a seed: batches are cut
//! and summed in a fixed order whatever the number of threads.

use super::data;
use crate::bail;
use crate::error::{Error, Result};
use crate::eval::model::{self, Model};
use crate::eval::{Eval, layout};
use crate::position::splitmix;
use crate::variant::{Base, Variant};
use crate::with_rules;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Rule set.
    pub base: Base,
    /// Data files.
    pub files: Vec<PathBuf>,
    /// Windows of the model (`None`: the board's default layout, or the initial model's).
    pub windows: Option<Vec<Vec<u8>>>,
    /// Windows read with kings too (`None`: the initial model's, else none).
    pub king_windows: Option<Vec<Vec<u8>>>,
    /// Start from these weights (same windows) instead of material only.
    pub init: Option<Model>,
    /// Add a material table (see [`model`]); kept from the initial weights when they have one.
    pub material: bool,
    /// Passes over the training data.
    pub epochs: u32,
    /// Positions per update.
    pub batch: usize,
    /// Adam's step size, in centi-men.
    pub lr: f64,
    /// Step size factor per epoch.
    pub lr_decay: f64,
    /// L2 penalty per weight (in the loss's units per centi-man squared).
    pub l2: f64,
    /// Weight of the game result in the target; the rest is the search score.
    pub lambda: f64,
    /// Fraction of games held out for validation.
    pub valid: f64,
    /// Seed of the split and the shuffles.
    pub seed: u64,
    /// Threads.
    pub threads: usize,
    /// The sigmoid scale `K` in centi-men (`None`: fitted on the data).
    pub scale: Option<f64>,
    /// Weight units per centi-man in the saved file.
    pub unit: i32,
}

impl Config {
    /// Defaults for `base` on `files`.
    pub fn new(base: Base, files: Vec<PathBuf>) -> Config {
        Config {
            base,
            files,
            windows: None,
            king_windows: None,
            init: None,
            material: false,
            epochs: 30,
            batch: 16_384,
            lr: 1.0,
            lr_decay: 0.92,
            l2: 1e-7,
            lambda: 0.7,
            valid: 0.05,
            seed: 1,
            threads: rayon::current_num_threads(),
            scale: None,
            unit: model::DEFAULT_UNIT,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct Epoch {
    /// 1-based epoch.
    pub epoch: u32,
    /// Mean training loss (cross entropy against the blended target).
    pub train_loss: f64,
    /// Mean validation loss.
    pub valid_loss: f64,
    /// Seconds since training started.
    pub seconds: f64,
}

/// What a training run did.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Training positions.
    pub train_positions: usize,
    /// Validation positions.
    pub valid_positions: usize,
    /// Records that were not legal positions of the rule set (skipped).
    pub skipped: usize,
    /// The sigmoid scale used.
    pub scale: f64,
    /// Validation loss of the initial weights.
    pub initial_valid_loss: f64,
    /// Best validation loss and its epoch (whose weights are returned).
    pub best_valid_loss: f64,
    /// Epoch of the best validation loss (0: the initial weights).
    pub best_epoch: u32,
    /// Validation loss of the saved (quantised) weights.
    pub saved_valid_loss: f64,
    /// Seconds.
    pub seconds: f64,
}

/// A gradient contribution: parameter, middlegame and endgame parts.
type Grad = (u32, f32, f32);

/// Positions as sparse feature lists.
struct Set {
    /// Feature list of position `i`: `start[i]..start[i + 1]`.
    start: Vec<u32>,
    param: Vec<u32>,
    coef: Vec<i16>,
    /// Endgame share of the stage blend.
    phi: Vec<f32>,
    target: Vec<f32>,
}

impl Set {
    fn new() -> Set {
        Set {
            start: vec![0],
            param: Vec::new(),
            coef: Vec::new(),
            phi: Vec::new(),
            target: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.phi.len()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross entropy of prediction `p` against target `y`.
fn cross_entropy(y: f64, p: f64) -> f64 {
    let p = p.clamp(1e-7, 1.0 - 1e-7);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Trains; `report` is called after every epoch. Returns the model of the best validation
/// loss, quantised.
pub fn train(cfg: &Config, report: &mut dyn FnMut(&Epoch)) -> Result<(Model, Summary)> {
    with_rules!(Variant::new(cfg.base), R => train_typed::<R>(cfg, report))
}

fn train_typed<R: Eval>(cfg: &Config, report: &mut dyn FnMut(&Epoch)) -> Result<(Model, Summary)> {
    let started = Instant::now();
    let windows = match (&cfg.windows, &cfg.init) {
        (Some(w), _) => w.clone(),
        (None, Some(m)) => m.windows().to_vec(),
        (None, None) => layout::default_windows(model::shape_of(cfg.base)),
    };
    let king_windows = match (&cfg.king_windows, &cfg.init) {
        (Some(w), _) => w.clone(),
        (None, Some(m)) => m.king_windows().to_vec(),
        (None, None) => Vec::new(),
    };
    if let Some(init) = &cfg.init {
        init.check_rule_set(cfg.base)?;
        if init.windows() != windows.as_slice() || init.king_windows() != king_windows.as_slice() {
            bail!("the initial weights have other windows than the ones asked for");
        }
    }
    let material = cfg.material || cfg.init.as_ref().is_some_and(Model::has_material);
    let skeleton =
        Model::zero_with(cfg.base, windows.clone(), king_windows.clone(), material, cfg.unit)?;
    let n_params = skeleton.params();
    let t0 = f64::from(skeleton.start_tempo().max(1));

    // Read the data; split by game.
    let mut records = Vec::new();
    for (f, path) in cfg.files.iter().enumerate() {
        let file = data::read(path)?;
        if file.header.base != cfg.base {
            bail!(
                "{} holds {} positions, not {}",
                path.display(),
                file.header.base.id(),
                cfg.base.id()
            );
        }
        records.extend(file.records.into_iter().map(|r| (f as u64, r)));
    }
    if records.is_empty() {
        bail!("the data files hold no positions");
    }
    let scale = match cfg.scale {
        Some(k) if k > 0.0 => k,
        Some(k) => bail!("--scale must be positive, not {k}"),
        None => fit_scale(records.iter().map(|(_, r)| r)),
    };
    let mut train = Set::new();
    let mut valid = Set::new();
    let mut skipped = 0;
    for (f, r) in &records {
        let Ok(pos) = r.position::<R>() else {
            skipped += 1;
            continue;
        };
        let game_hash = splitmix(cfg.seed ^ (f << 40) ^ u64::from(r.game)).1;
        let set = if (game_hash % 10_000) as f64 <= cfg.valid * 10_000.0 && cfg.valid > 0.0 {
            &mut valid
        } else {
            &mut train
        };
        skeleton.visit(&pos, |p, c| {
            set.param.push(p as u32);
            set.coef.push(c.clamp(-32_000, 32_000) as i16);
        });
        set.start.push(set.param.len() as u32);
        set.phi.push((f64::from(skeleton.stage(&pos)) / t0) as f32);
        let result = r.white_result();
        let searched = sigmoid(f64::from(r.score) / scale);
        set.target.push((cfg.lambda * result + (1.0 - cfg.lambda) * searched) as f32);
    }
    if train.len() == 0 {
        bail!("no training positions (all {} were held out or skipped)", records.len());
    }
    drop(records);

    // Weights in centi-men.
    let mut w: Vec<[f32; 2]> = vec![[0.0; 2]; n_params];
    match &cfg.init {
        Some(m) => {
            let u = m.unit() as f32;
            for (x, q) in w.iter_mut().zip(m.weights()) {
                *x = [f32::from(q[0]) / u, f32::from(q[1]) / u];
            }
        }
        None => {
            let hand = R::WEIGHTS;
            w[model::MEN] = [hand.man as f32; 2];
            w[model::FIRST_KING] = [hand.king as f32; 2];
            w[model::EXTRA_KINGS] = [hand.king as f32; 2];
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .build()
        .map_err(|e| Error(format!("cannot start {} threads: {e}", cfg.threads)))?;
    let eval_set = |set: &Set, w: &[[f32; 2]]| -> f64 {
        if set.len() == 0 {
            return f64::NAN;
        }
        let sums: Vec<f64> = pool.install(|| {
            (0..set.len())
                .collect::<Vec<_>>()
                .par_chunks(4096)
                .map(|chunk| {
                    chunk
                        .iter()
                        .map(|&i| {
                            let p = sigmoid(predict(set, w, i) / scale);
                            cross_entropy(f64::from(set.target[i]), p)
                        })
                        .sum::<f64>()
                })
                .collect()
        });
        sums.iter().sum::<f64>() / set.len() as f64
    };

    let initial_valid_loss = eval_set(&valid, &w);
    let mut best = (initial_valid_loss, 0u32, w.clone());
    let mut m = vec![[0f32; 2]; n_params];
    let mut v = vec![[0f32; 2]; n_params];
    let mut grad = vec![[0f32; 2]; n_params];
    let mut stamp = vec![u32::MAX; n_params];
    let mut touched: Vec<u32> = Vec::new();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = cfg.seed ^ 0x7472_6169_6e21;
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut step = 0u32;
    let mut lr = cfg.lr;
    for epoch in 1..=cfg.epochs {
        // Fisher-Yates with the run's own stream.
        for i in (1..order.len()).rev() {
            let (s, z) = splitmix(rng);
            rng = s;
            order.swap(i, (z % (i as u64 + 1)) as usize);
        }
        let mut train_loss = 0.0;
        for batch in order.chunks(cfg.batch.max(1)) {
            let parts: Vec<(f64, Vec<Grad>)> = pool.install(|| {
                batch
                    .par_chunks(1024)
                    .map(|chunk| {
                        let mut loss = 0.0;
                        let mut g = Vec::with_capacity(chunk.len() * 24);
                        for &i in chunk {
                            let i = i as usize;
                            let p = sigmoid(predict(&train, &w, i) / scale);
                            let y = f64::from(train.target[i]);
                            loss += cross_entropy(y, p);
                            let d = ((p - y) / scale) as f32;
                            let phi = train.phi[i];
                            let (a, b) = (d * (1.0 - phi), d * phi);
                            for k in train.start[i] as usize..train.start[i + 1] as usize {
                                let c = f32::from(train.coef[k]);
                                g.push((train.param[k], c * a, c * b));
                            }
                        }
                        (loss, g)
                    })
                    .collect()
            });
            step += 1;
            touched.clear();
            for (loss, g) in &parts {
                train_loss += loss;
                for &(p, a, b) in g {
                    let pi = p as usize;
                    if stamp[pi] != step {
                        stamp[pi] = step;
                        grad[pi] = [0.0; 2];
                        touched.push(p);
                    }
                    grad[pi][0] += a;
                    grad[pi][1] += b;
                }
            }
            let n = batch.len() as f32;
            let bc1 = 1.0 - b1.powi(step as i32);
            let bc2 = 1.0 - b2.powi(step as i32);
            let alpha = (lr * bc2.sqrt() / bc1) as f32;
            for &p in &touched {
                let pi = p as usize;
                let decay = if pi < model::KING_SQUARE { 0.0 } else { cfg.l2 as f32 };
                for k in 0..2 {
                    let g = grad[pi][k] / n + decay * w[pi][k];
                    m[pi][k] = b1 as f32 * m[pi][k] + (1.0 - b1 as f32) * g;
                    v[pi][k] = b2 as f32 * v[pi][k] + (1.0 - b2 as f32) * g * g;
                    w[pi][k] -= alpha * m[pi][k] / (v[pi][k].sqrt() + eps as f32);
                }
            }
        }
        lr *= cfg.lr_decay;
        let valid_loss = eval_set(&valid, &w);
        let tracked = if valid.len() > 0 { valid_loss } else { train_loss };
        if tracked < best.0 || best.0.is_nan() {
            best = (tracked, epoch, w.clone());
        }
        report(&Epoch {
            epoch,
            train_loss: train_loss / train.len() as f64,
            valid_loss,
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    let (best_valid_loss, best_epoch, w) = best;
    let unit = cfg.unit as f32;
    let q: Vec<[i16; 2]> = w
        .iter()
        .map(|x| {
            let f = |v: f32| (v * unit).round().clamp(-32_767.0, 32_767.0) as i16;
            [f(x[0]), f(x[1])]
        })
        .collect();
    let deq: Vec<[f32; 2]> =
        q.iter().map(|x| [f32::from(x[0]) / unit, f32::from(x[1]) / unit]).collect();
    let saved_valid_loss = eval_set(&valid, &deq);
    let description = format!(
        "kondavo train: {} positions ({} held out) from {}; epochs={} batch={} lr={} \
         lr-decay={} l2={} lambda={} seed={} scale={scale:.1}{}{}; best epoch {best_epoch}, \
         validation loss {best_valid_loss:.5} (initial {initial_valid_loss:.5})",
        train.len(),
        valid.len(),
        cfg.files
            .iter()
            .map(|p| p.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()))
            .collect::<Vec<_>>()
            .join(","),
        cfg.epochs,
        cfg.batch,
        cfg.lr,
        cfg.lr_decay,
        cfg.l2,
        cfg.lambda,
        cfg.seed,
        if material { " material-table" } else { "" },
        if king_windows.is_empty() { "" } else { " king-windows" },
    );
    let model =
        Model::from_parts_with_kings(cfg.base, cfg.unit, windows, king_windows, q, description)?;
    let summary = Summary {
        train_positions: train.len(),
        valid_positions: valid.len(),
        skipped,
        scale,
        initial_valid_loss,
        best_valid_loss,
        best_epoch,
        saved_valid_loss,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((model, summary))
}

/// The model's White score of position `i` in centi-men.
#[inline]
fn predict(set: &Set, w: &[[f32; 2]], i: usize) -> f64 {
    let phi = set.phi[i];
    let (mut mg, mut eg) = (0f32, 0f32);
    for k in set.start[i] as usize..set.start[i + 1] as usize {
        let c = f32::from(set.coef[k]);
        let x = w[set.param[k] as usize];
        mg += c * x[0];
        eg += c * x[1];
    }
    f64::from(mg * (1.0 - phi) + eg * phi)
}

/// The `K` (centi-men) for which `sigmoid(score / K)` best predicts the results (golden
/// section search on log K between 10 and 5000).
pub fn fit_scale<'a>(records: impl Iterator<Item = &'a data::Record> + Clone) -> f64 {
    let loss = |k: f64| -> f64 {
        let (mut s, mut n) = (0.0, 0usize);
        for r in records.clone() {
            s += cross_entropy(r.white_result(), sigmoid(f64::from(r.score) / k));
            n += 1;
        }
        s / n.max(1) as f64
    };
    let (mut a, mut b) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (loss(c.exp()), loss(d.exp()));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = loss(c.exp());
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = loss(d.exp());
        }
    }
    ((a + b) / 2.0).exp()
}
