//! `kondavo egdb`: build, inspect, probe and verify the endgame databases.

use super::outln;
use clap::{Args, Subcommand};
use kondavo::egdb::build::{Built, Generator};
use kondavo::egdb::{self, Egdb, Slice, Stats, Value};
use kondavo::error::{Error, Result};
use kondavo::notation;
use kondavo::position::Position;
use kondavo::rules::Rules;
use kondavo::variant::Variant;
use kondavo::with_rules;

use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `kondavo egdb`.
#[derive(Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    command: EgdbCommand,
}

#[derive(Subcommand, Debug)]
enum EgdbCommand {
    /// Build every slice up to a number of pieces (slices already on disk are kept).
    Build(BuildArgs),
    /// List the slices present: positions, wins, draws, losses, longest conversions, sizes.
    Info(CommonArgs),
    /// The value of a position and of each of its moves.
    Probe(ProbeArgs),
    /// Re-derive positions' values from their successors and compare (exit status 1 on
    /// any difference).
    Verify(VerifyArgs),
}

#[derive(Args, Debug)]
struct CommonArgs {
    /// Rule set (add -optional for the optional-capture option on 8x8).
    #[arg(long, short = 'v', default_value = "international")]
    variant: Variant,
    /// Database directory (default: KONDAVO_EGDB, else ~/.cache/kondavo/egdb).
    #[arg(long)]
    dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct BuildArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Build every position with at most this many pieces.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=8))]
    pieces: u32,
    /// Threads (default: every core).
    #[arg(long, short = 't', value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
}

#[derive(Args, Debug)]
struct ProbeArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// The position (FEN or Hub string).
    #[arg(long)]
    fen: String,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Verify the slices with at most this many pieces (default: every one present).
    #[arg(long)]
    pieces: Option<u32>,
    /// Positions checked per slice, drawn at random (0: every position).
    #[arg(long, default_value_t = 10_000)]
    sample: u64,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs `kondavo egdb`.
pub fn run(a: EgdbArgs) -> Result<()> {
    match a.command {
        EgdbCommand::Build(b) => {
            let dir = b.common.dir.clone().unwrap_or_else(egdb::default_dir);
            let threads = b.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                |t| t as usize,
            );
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| Error(format!("cannot start {threads} threads: {e}")))?;
            pool.install(|| with_rules!(b.common.variant, R => build::<R>(&dir, b.pieces)))
        }
        EgdbCommand::Info(c) => {
            let dir = c.dir.unwrap_or_else(egdb::default_dir);
            with_rules!(c.variant, R => info::<R>(&dir))
        }
        EgdbCommand::Probe(p) => {
            let dir = p.common.dir.unwrap_or_else(egdb::default_dir);
            with_rules!(p.common.variant, R => probe::<R>(&dir, &p.fen))
        }
        EgdbCommand::Verify(v) => {
            let dir = v.common.dir.clone().unwrap_or_else(egdb::default_dir);
            with_rules!(v.common.variant, R => verify::<R>(&dir, v.pieces, v.sample, v.seed))
        }
    }
}

fn stats_line(s: Slice, st: &Stats, bytes: u64) -> String {
    format!(
        "{:<12} {:>13} {:>13} {:>13} {:>13} {:>5} {:>5} {:>12}",
        s.to_string(),
        st.positions(),
        st.wins,
        st.draws,
        st.losses,
        st.longest_win,
        st.longest_loss,
        bytes
    )
}

fn header() -> String {
    format!(
        "{:<12} {:>13} {:>13} {:>13} {:>13} {:>5} {:>5} {:>12}",
        "slice", "positions", "wins", "draws", "losses", "win", "loss", "bytes"
    )
}

fn build<R: Rules>(dir: &Path, pieces: u32) -> Result<()> {
    if !egdb::supported::<R>() {
        return Err(Error(format!("no endgame databases for {}", R::variant())));
    }
    let slices = Generator::<R>::slices_up_to(pieces);
    let mut g = Generator::<R>::new(Some(dir.to_path_buf()));
    let bar = crate::cli::progress_bar(
        slices.len() as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} slices {msg}",
    );
    outln!("{}   seconds", header());
    let start = Instant::now();
    let (mut total, mut bytes, mut built) = (Stats::default(), 0u64, 0usize);
    g.build(&slices, |b: &Built| {
        bar.inc(1);
        bar.set_message(b.slice.to_string());
        total.add(&b.stats);
        bytes += b.bytes;
        built += usize::from(!b.loaded);
        let secs = if b.loaded { "on disk".to_string() } else { format!("{:.1}", b.secs) };
        outln!("{} {secs:>9}", stats_line(b.slice, &b.stats, b.bytes));
    })?;
    bar.finish_and_clear();
    outln!(
        "{} up to {pieces} pieces: {} slices ({built} built), {} positions ({} wins, {} draws, {} losses), {bytes} bytes in {}, {:.1} s",
        R::variant(),
        slices.len(),
        total.positions(),
        total.wins,
        total.draws,
        total.losses,
        egdb::variant_dir(dir, R::variant()).display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn open<R: Rules>(dir: &Path) -> Egdb {
    let opened = Egdb::open::<R>(dir, 8);
    for p in &opened.problems {
        log::warn!("endgame database left out: {p}");
    }
    for p in &opened.outdated {
        log::warn!("endgame database left out: {} has an earlier format: rebuild it", p.display());
    }
    opened.egdb
}

fn info<R: Rules>(dir: &Path) -> Result<()> {
    let db = open::<R>(dir);
    let slices = db.slices();
    if slices.is_empty() {
        outln!(
            "no {} endgame databases in {}",
            R::variant(),
            egdb::variant_dir(dir, R::variant()).display()
        );
        return Ok(());
    }
    outln!("{}", header());
    let (mut total, mut bytes) = (Stats::default(), 0);
    for s in slices {
        if let Some(t) = db.table(s) {
            let b = t.compressed_bytes();
            total.add(&t.stats());
            bytes += b;
            outln!("{}", stats_line(s, &t.stats(), b));
        }
    }
    outln!(
        "{}: complete up to {} pieces; {} positions ({} wins, {} draws, {} losses), {bytes} bytes",
        R::variant(),
        db.pieces(),
        total.positions(),
        total.wins,
        total.draws,
        total.losses
    );
    Ok(())
}

fn probe<R: Rules>(dir: &Path, fen: &str) -> Result<()> {
    let pos: Position<R> = notation::parse_position(fen)?;
    let db = open::<R>(dir);
    let Some(v) = db.probe(&pos) else {
        return Err(Error(format!(
            "slice {} of {} is not in {}",
            Slice::of(&pos),
            R::variant(),
            egdb::variant_dir(dir, R::variant()).display()
        )));
    };
    outln!("{}: {v}", notation::to_fen(&pos));
    let mut moves: Vec<(String, Option<Value>)> = pos
        .legal_moves()
        .iter()
        .map(|&m| (notation::move_to_native(&pos, m), db.probe(&pos.after(m)).map(Value::flip)))
        .collect();
    // Best first: wins soonest, draws, losses latest.
    moves.sort_by_key(|(_, v)| match v {
        Some(Value::Win(d)) => (0, i32::from(*d)),
        Some(Value::Draw) => (1, 0),
        Some(Value::Loss(d)) => (2, -i32::from(*d)),
        None => (3, 0),
    });
    for (m, v) in moves {
        let after = match v {
            Some(Value::Win(d)) => format!("win, conversion in {d}"),
            Some(Value::Draw) => "draw".to_string(),
            Some(Value::Loss(d)) => format!("loss, conversion in {d}"),
            None => "not in the databases".to_string(),
        };
        outln!("  {m:<12} {after}");
    }
    Ok(())
}

fn verify<R: Rules>(dir: &Path, pieces: Option<u32>, sample: u64, seed: u64) -> Result<()> {
    let present = open::<R>(dir).slices();
    let slices: Vec<Slice> =
        present.into_iter().filter(|s| pieces.is_none_or(|n| s.pieces() <= n)).collect();
    if slices.is_empty() {
        return Err(Error(format!(
            "no {} endgame databases to verify in {}",
            R::variant(),
            egdb::variant_dir(dir, R::variant()).display()
        )));
    }
    let mut g = Generator::<R>::new(Some(dir.to_path_buf()));
    g.load(&Generator::<R>::closure(&slices))?;
    let mut failures = 0u64;
    for s in slices {
        let (checked, bad) = kondavo::egdb::build::verify_slice(&g, s, sample, seed);
        for (fen, why) in bad.iter().take(5) {
            outln!("  {fen}: {why}");
        }
        failures += bad.len() as u64;
        let verdict = if bad.is_empty() { "ok" } else { "DIFFERS" };
        outln!("{s:<12} {checked:>10} positions checked, {} differ: {verdict}", bad.len());
    }
    if failures > 0 {
        return Err(Error(format!("{failures} positions differ from their successors' values")));
    }
    Ok(())
}
