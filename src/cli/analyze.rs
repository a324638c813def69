//! `kondavo analyze`: one line of analysis per position read.

use super::outln;
use clap::Args;
use kondavo::engine::{Engine, Options};
use kondavo::error::{Error, Result};
use kondavo::search::Limits;
use kondavo::variant::Variant;
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `kondavo analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// Search to this depth.
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=100), conflicts_with_all = ["nodes", "movetime"])]
    pub depth: Option<u32>,
    /// Search this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Search this many seconds per position (the default is 1).
    #[arg(long)]
    pub movetime: Option<f64>,
    /// Search threads.
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Report the K best moves of each position.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub multipv: u32,
    /// Write JSON lines instead of text lines.
    #[arg(long)]
    pub json: bool,
    /// Read positions from this file instead of standard input.
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Evaluate with this weights file instead of the built-in weights (`hand`: the rule
    /// set's hand-set evaluation).
    #[arg(long)]
    pub eval: Option<String>,
    /// Endgame database directory (default: KONDAVO_EGDB, else ~/.cache/kondavo/egdb).
    #[arg(long)]
    pub egdb_dir: Option<String>,
    /// Probe the endgame databases up to this many pieces (0: not at all).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub egdb_pieces: u32,
    /// Build the small endgame databases (4 pieces on 8x8, 3 on 10x10 and turkish) when they
    /// are missing: once, in seconds.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub egdb_build: bool,
    /// Size of the endgame databases' block cache in MiB (blocks are read from the files as
    /// the search needs them).
    #[arg(long, default_value_t = kondavo::egdb::DEFAULT_CACHE_MIB as u32,
          value_parser = clap::value_parser!(u32).range(1..=kondavo::engine::MAX_EGDB_CACHE_MIB as i64))]
    pub egdb_cache: u32,
    /// Playing strength 1-20 (20: full): answer with the move that level plays.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=20), conflicts_with = "elo")]
    pub level: Option<u8>,
    /// A rating on the rule set's ladder: the level nearest to it (clamped to the ladder; the
    /// lowest antidraughts levels rate below zero, so `--elo -140` is a rating, not an option).
    #[arg(long, allow_negative_numbers = true)]
    pub elo: Option<i32>,
    /// Seed of the weaker levels' choices (default: a new one each run).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs `kondavo analyze`.
pub fn run(args: AnalyzeArgs) -> Result<()> {
    let AnalyzeArgs {
        variant,
        depth,
        nodes,
        movetime,
        threads,
        hash,
        multipv,
        json,
        input,
        eval,
        egdb_dir,
        egdb_pieces,
        egdb_build,
        egdb_cache,
        level,
        elo,
        seed,
    } = args;
    let level = match (level, elo) {
        (Some(l), _) => l,
        (None, Some(e)) => {
            let (l, clamped) = kondavo::level::level_for_elo(variant.base, e).map_err(Error)?;
            if let Some(m) = clamped {
                log::warn!("{m}");
            }
            l
        }
        (None, None) => kondavo::level::FULL,
    };
    let options = Options {
        variant,
        threads: threads as usize,
        hash_mib: hash as usize,
        multipv: multipv as usize,
        eval_file: eval,
        egdb_dir,
        egdb_pieces,
        egdb_build,
        egdb_cache_mib: egdb_cache as usize,
        level,
        seed,
        // Analysis searches every position, also with --level (the book is for play).
        book: false,
        ..Options::default()
    };
    let mut limits = Limits { depth, nodes, ..Limits::default() };
    if depth.is_none() && nodes.is_none() {
        let secs = movetime.unwrap_or(1.0);
        if !secs.is_finite() || secs <= 0.0 || secs > 1e7 {
            return Err(Error(format!(
                "--movetime must be a positive number of seconds, not {secs}"
            )));
        }
        limits.movetime = Some(Duration::from_secs_f64(secs));
    }
    let lines: Box<dyn Iterator<Item = std::io::Result<String>>> = match &input {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
            Box::new(text.lines().map(|l| Ok(l.to_string())).collect::<Vec<_>>().into_iter())
        }
        None => Box::new(std::io::stdin().lock().lines()),
    };
    let total = input.as_ref().and_then(|p| std::fs::read_to_string(p).ok()).map(|t| {
        t.lines().filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#')).count() as u64
    });
    // The progress bar goes to standard error, and only to a terminal.
    let bar = if std::io::stderr().is_terminal() {
        match total {
            Some(n) => indicatif::ProgressBar::new(n),
            None => indicatif::ProgressBar::new_spinner(),
        }
    } else {
        indicatif::ProgressBar::hidden()
    };
    let engine = Engine::try_new(options)?;
    let mut failed = 0;
    for (n, line) in lines.enumerate() {
        let line = line.map_err(|e| Error(format!("cannot read the input: {e}")))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let printed = match kondavo::analyze::analyze(&engine, text, &limits) {
            Ok(a) if json => a.to_json(),
            Ok(a) => a.to_text(),
            Err(e) => {
                failed += 1;
                let message = e.0.replace('"', "'");
                if json {
                    serde_json::json!({ "position": text, "line": n + 1, "error": message })
                        .to_string()
                } else {
                    format!("error line={} message=\"{message}\"", n + 1)
                }
            }
        };
        bar.suspend(|| {
            outln!("{printed}");
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    if failed > 0 {
        return Err(Error(format!("{failed} position(s) could not be analysed")));
    }
    Ok(())
}
