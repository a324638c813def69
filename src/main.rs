//! The `kondavo` command line.

use clap::{Parser, Subcommand, ValueEnum};
use kondavo::error::Result;
use kondavo::notation;
use kondavo::perft;
use kondavo::position::Position;
use kondavo::rules::Rules;
use kondavo::variant::Variant;
use kondavo::with_rules;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "kondavo",
    version,
    about = "A draughts engine for every rule set of the draughts family"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Duplicates {
    /// Capture routes with the same start, end, captured set and result are one move.
    Drop,
    /// Every capture route counts.
    Keep,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (proves the move generator).
    Perft {
        /// Rule set (international, brazilian, russian, ukrainian, english, italian, spanish,
        /// czech, turkish; add -optional for the optional-capture option on 8x8).
        #[arg(long, short = 'v', default_value = "international")]
        variant: Variant,
        /// Depth in plies.
        #[arg(long, short = 'd')]
        depth: u32,
        /// Start from this position (FEN or Hub string) instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Print one line per root move with its count.
        #[arg(long)]
        divide: bool,
        /// Duplicate capture routes: drop (one move) or keep (each route counts).
        #[arg(long, value_enum, default_value = "drop")]
        duplicates: Duplicates,
        /// Threads (root moves are split among them).
        #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
    },
    /// Show a position: board diagram, side to move, FEN and legal moves.
    #[command(alias = "d")]
    Show {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "international")]
        variant: Variant,
        /// The position (FEN, Hub string or `start`).
        #[arg(long, default_value = "start")]
        fen: String,
        /// Moves to play first (native or Hub notation, separated by spaces).
        #[arg(long)]
        moves: Option<String>,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_target(false)
        .init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(2),
            };
        }
    };
    let result = match cli.command {
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
            duplicates,
            threads,
        } => with_rules!(variant, R => {
            run_perft::<R>(depth, fen.as_deref(), divide, duplicates == Duplicates::Drop, threads)
        }),
        Command::Show {
            variant,
            fen,
            moves,
        } => with_rules!(variant, R => run_show::<R>(&fen, moves.as_deref())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kondavo: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_perft<R: Rules>(
    depth: u32,
    fen: Option<&str>,
    divide: bool,
    dedupe: bool,
    threads: u32,
) -> Result<()> {
    let pos: Position<R> = match fen {
        Some(f) => notation::parse_position(f)?,
        None => Position::start(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .build()
        .map_err(|e| kondavo::error::Error(format!("cannot start {threads} threads: {e}")))?;
    let start = Instant::now();
    let (nodes, lines) = pool.install(|| {
        if depth == 0 {
            (1, Vec::new())
        } else if divide || threads > 1 {
            let per_move = perft::divide(&pos, depth, dedupe, threads > 1);
            let total = per_move.iter().map(|&(_, n)| n).sum();
            (total, per_move)
        } else {
            (perft::perft(&pos, depth, dedupe), Vec::new())
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if divide {
        for (m, n) in lines {
            let _ = writeln!(out, "{} {}", notation::move_to_native(&pos, m), n);
        }
    }
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    let _ = writeln!(
        out,
        "perft depth={depth} nodes={nodes} time={secs:.3} nps={nps:.0}"
    );
    Ok(())
}

fn run_show<R: Rules>(fen: &str, moves: Option<&str>) -> Result<()> {
    let mut pos: Position<R> = notation::parse_position(fen)?;
    for m in moves.unwrap_or("").split_whitespace() {
        let mv = notation::parse_move(&pos, m)?;
        pos = pos.after(mv);
    }
    let mut out = std::io::stdout().lock();
    let legal = pos.legal_moves();
    let names: Vec<String> = legal
        .iter()
        .map(|&m| notation::move_to_native(&pos, m))
        .collect();
    let _ = write!(out, "{}", notation::diagram(&pos));
    let _ = writeln!(out, "rule set: {}", R::variant());
    let _ = writeln!(out, "side to move: {}", pos.side());
    let _ = writeln!(out, "fen: {}", notation::to_fen(&pos));
    let _ = writeln!(out, "hub: {}", notation::to_hub_position(&pos));
    let _ = writeln!(out, "key: {:016x}", pos.key());
    let _ = writeln!(out, "legal moves ({}): {}", names.len(), names.join(" "));
    Ok(())
}
