//! `kondavo bench`: fixed searches whose node count identifies the search's behaviour.

use super::outln;
use clap::Args;
use kondavo::error::Result;
use kondavo::variant::{Base, Variant};

/// Arguments of `kondavo bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Only this rule set (default: all).
    #[arg(long, short = 'v')]
    pub variant: Option<Variant>,
    /// Depth of every search.
    #[arg(long, short = 'd', default_value_t = kondavo::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Search threads (more than one is not deterministic).
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Evaluate with this weights file instead of the built-in weights (needs --variant;
    /// `hand`: the hand-set evaluation).
    #[arg(long, requires = "variant")]
    pub eval: Option<String>,
}

/// Runs `kondavo bench`.
pub fn run(a: BenchArgs) -> Result<()> {
    let variants: Vec<Variant> = match a.variant {
        Some(v) => vec![v],
        None => Base::ALL.into_iter().map(Variant::new).collect(),
    };
    let (nodes, time) = kondavo::bench::run(
        &variants,
        a.depth,
        a.threads as usize,
        a.hash as usize,
        a.eval.as_deref(),
        &mut |l| {
            outln!(
                "position {} {} depth={} nodes={} score={} best={} time={:.3}",
                l.variant,
                l.index,
                l.depth,
                l.nodes,
                l.score.replace(' ', "-"),
                l.best,
                l.time.as_secs_f64()
            );
        },
    )?;
    let secs = time.as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    outln!("bench nodes={nodes} time={secs:.3} nps={nps:.0}");
    Ok(())
}
