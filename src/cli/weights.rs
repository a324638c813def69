//! `kondavo weights`: describe a weights file, or write it scaled by a factor.

use super::outln;
use clap::{Args, Subcommand};
use kondavo::error::{Error, Result};
use kondavo::eval::model::{self, Model};
use kondavo::eval::{builtin_model, load_model};
use kondavo::variant::Variant;
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `kondavo weights`.
#[derive(Args, Debug)]
pub struct WeightsArgs {
    #[command(subcommand)]
    command: WeightsCommand,
}

#[derive(Subcommand, Debug)]
enum WeightsCommand {
    /// Describe a weights file: rule set, windows, parameters, the scalar terms and how the
    /// file was made.
    Info(Source),
    /// Write a weights file whose scores are FACTOR times the source's (every weight
    /// multiplied): tries another scale of a trained model against the search's margins.
    Scale(ScaleArgs),
}

#[derive(Args, Debug)]
struct Source {
    /// Rule set (its built-in weights when no file is given).
    #[arg(long, short = 'v', default_value = "international")]
    variant: Variant,
    /// A weights file (default: the rule set's built-in weights).
    #[arg(long)]
    file: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct ScaleArgs {
    #[command(flatten)]
    source: Source,
    /// The factor (0.01 to 100).
    #[arg(long)]
    by: f64,
    /// The weights file to write.
    #[arg(long, short = 'o')]
    out: PathBuf,
}

/// Runs `kondavo weights`.
pub fn run(a: WeightsArgs) -> Result<()> {
    match a.command {
        WeightsCommand::Info(s) => info(&*load(&s)?),
        WeightsCommand::Scale(s) => {
            let (scaled, clamped) = load(&s.source)?.scaled(s.by)?;
            std::fs::write(&s.out, scaled.to_bytes())
                .map_err(|e| Error(format!("cannot write {}: {e}", s.out.display())))?;
            outln!(
                "weights scaled variant={} by={} clamped={} out={}",
                scaled.base().id(),
                s.by,
                clamped,
                s.out.display()
            );
            Ok(())
        }
    }
}

/// The model of a file, checked against the rule set, or the rule set's built-in one.
fn load(s: &Source) -> Result<Arc<Model>> {
    let base = s.variant.base;
    match &s.file {
        Some(path) => load_model(base, path),
        None => builtin_model(base).ok_or_else(|| {
            Error(format!(
                "{} has no built-in weights (it plays its hand-set evaluation)",
                base.id()
            ))
        }),
    }
}

fn info(m: &Model) -> Result<()> {
    let unit = f64::from(m.unit());
    outln!("rule set: {}", m.base().id());
    outln!(
        "windows: {} ({} with kings), material table: {}, parameters: {}",
        m.windows().len() + m.king_windows().len(),
        m.king_windows().len(),
        if m.has_material() { "yes" } else { "no" },
        m.params()
    );
    for (i, name) in model::SCALAR_NAMES.iter().enumerate() {
        let [mg, eg] = m.weights()[i];
        outln!(
            "{name}: {:.1} / {:.1} centi-men (opening / endgame)",
            f64::from(mg) / unit,
            f64::from(eg) / unit
        );
    }
    outln!("made by: {}", m.description());
    Ok(())
}
