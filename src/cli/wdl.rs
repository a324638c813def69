//! `kondavo wdl`: fit the win/draw/loss model of a rule set to self-play data.

use super::outln;
use clap::Args;
use kondavo::error::{Error, Result};
use kondavo::learn::data;
use kondavo::learn::wdl_fit::{self, Sample};
use kondavo::variant::Variant;
use kondavo::wdl::Wdl;
use std::path::PathBuf;

/// Arguments of `kondavo wdl`.
#[derive(Args, Debug)]
pub struct WdlArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// Data files made by `kondavo selfplay` (positions with search scores and results).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
}

/// Runs `kondavo wdl`: prints the fit, a few of its values, and the row for `src/wdl.rs`.
pub fn run(a: WdlArgs) -> Result<()> {
    let base = a.variant.base;
    let mut samples = Vec::new();
    for path in &a.data {
        let file = data::read(path)?;
        if file.header.base != base {
            return Err(Error(format!(
                "{} holds {} positions, not {}",
                path.display(),
                file.header.base.id(),
                base.id()
            )));
        }
        samples.extend(file.records.iter().map(|r| Sample::of(base, r)));
    }
    if samples.is_empty() {
        return Err(Error("the data files hold no position".into()));
    }
    let f = wdl_fit::fit(&samples);
    let p = f.params;
    outln!(
        "wdl variant={} positions={} used={} draws={:.3} loss={:.5} baseline={:.5} a0={:.4} a1={:.4} b0={:.4} b1={:.4}",
        base.id(),
        samples.len(),
        f.samples,
        f.draws,
        f.loss,
        f.baseline,
        p.a0,
        p.a1,
        p.b0,
        p.b1
    );
    let full = 2 * base.men_per_side();
    for pieces in [full, full / 2, 6] {
        let m = kondavo::wdl::material(base, pieces);
        let row: Vec<String> = [0.0, 0.25, 0.5, 1.0, 2.0]
            .iter()
            .map(|&men| format!("{men:+.2}: {}", Wdl::from_probabilities(p.probabilities(men, m))))
            .collect();
        outln!("pieces {pieces:2}  {}", row.join("  "));
    }
    outln!(
        "    (Base::{:?}, Params {{ a0: {:.4}, a1: {:.4}, b0: {:.4}, b1: {:.4} }}),",
        base,
        p.a0,
        p.a1,
        p.b0,
        p.b1
    );
    Ok(())
}
