//! `kondavo train`: fit a weights file to self-play data.

use super::outln;
use clap::Args;
use kondavo::error::{Error, Result};
use kondavo::eval::Model;
use kondavo::learn::train::{self, Config};
use kondavo::variant::Variant;
use std::path::PathBuf;

/// Arguments of `kondavo train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// Data files made by `kondavo selfplay`.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Start from these weights instead of material only (their windows are kept).
    #[arg(long, conflicts_with = "layout")]
    pub init: Option<PathBuf>,
    /// Window layout: small (8-9 squares per window), large (12 squares, Scan 3's) or kings
    /// (small, plus the same windows read with kings too; diagonal boards).
    #[arg(long)]
    pub layout: Option<String>,
    /// Add a material table: a weight per material signature (men and kings of each side).
    #[arg(long)]
    pub material: bool,
    /// Passes over the data.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub epochs: u32,
    /// Positions per update.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub batch: u64,
    /// Adam step size in centi-men.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Step size factor per epoch.
    #[arg(long, default_value_t = 0.92)]
    pub lr_decay: f64,
    /// L2 penalty on every weight but material.
    #[arg(long, default_value_t = 1e-7)]
    pub l2: f64,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f64,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.05)]
    pub valid: f64,
    /// Seed of the split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads.
    #[arg(long, short = 't', default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// The sigmoid scale K in centi-men (default: fitted on the data's search scores).
    #[arg(long)]
    pub scale: Option<f64>,
}

/// Runs `kondavo train`.
pub fn run(a: TrainArgs) -> Result<()> {
    let base = a.variant.base;
    for (name, v, lo, hi) in [
        ("--lr", a.lr, 1e-9, 1e4),
        ("--lr-decay", a.lr_decay, 1e-3, 1.0),
        ("--l2", a.l2, 0.0, 1.0),
        ("--lambda", a.lambda, 0.0, 1.0),
        ("--valid", a.valid, 0.0, 0.9),
    ] {
        if !(lo..=hi).contains(&v) {
            return Err(Error(format!("{name} must be between {lo} and {hi}, not {v}")));
        }
    }
    let mut cfg = Config::new(base, a.data.clone());
    cfg.init = a.init.as_deref().map(Model::load).transpose()?;
    if let Some(name) = &a.layout {
        let shape = kondavo::eval::model::shape_of(base);
        let unknown = || {
            Error(format!(
                "unknown --layout \"{name}\" for {} (small, large, or kings on the diagonal \
                 boards)",
                base.id()
            ))
        };
        cfg.windows = Some(kondavo::eval::layout::windows_named(shape, name).ok_or_else(unknown)?);
        cfg.king_windows =
            Some(kondavo::eval::layout::king_windows_named(shape, name).ok_or_else(unknown)?);
    }
    cfg.material = a.material;
    cfg.epochs = a.epochs;
    cfg.batch = a.batch as usize;
    cfg.lr = a.lr;
    cfg.lr_decay = a.lr_decay;
    cfg.l2 = a.l2;
    cfg.lambda = a.lambda;
    cfg.valid = a.valid;
    cfg.seed = a.seed;
    cfg.threads = a.threads as usize;
    cfg.scale = a.scale;
    let (model, s) = train::train(&cfg, &mut |e| {
        outln!(
            "epoch {} train-loss={:.5} valid-loss={:.5} time={:.1}",
            e.epoch,
            e.train_loss,
            e.valid_loss,
            e.seconds
        );
    })?;
    let bytes = model.to_bytes();
    std::fs::write(&a.out, &bytes)
        .map_err(|e| Error(format!("cannot write {}: {e}", a.out.display())))?;
    outln!(
        "train variant={} positions={} held-out={} skipped={} scale={:.1} initial-valid-loss={:.5} \
         best-valid-loss={:.5} best-epoch={} saved-valid-loss={:.5} params={} bytes={} time={:.1} \
         file={}",
        base.id(),
        s.train_positions,
        s.valid_positions,
        s.skipped,
        s.scale,
        s.initial_valid_loss,
        s.best_valid_loss,
        s.best_epoch,
        s.saved_valid_loss,
        model.params(),
        bytes.len(),
        s.seconds,
        a.out.display()
    );
    Ok(())
}
