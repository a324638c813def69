//! The `kondavo` command line.

use clap::{Parser, Subcommand, ValueEnum};
use kondavo::engine::{Engine, Options};
use kondavo::error::{Error, Result};
use kondavo::notation;
use kondavo::perft;
use kondavo::position::Position;
use kondavo::rules::Rules;
use kondavo::search::Limits;
use kondavo::variant::Base;
use kondavo::variant::Variant;
use kondavo::with_rules;
use std::io::Write;
use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "kondavo",
    version,
    about = "A draughts engine for every rule set of the draughts family",
    after_help = "With no command and standard input not a terminal, kondavo speaks the Hub protocol."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
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
    /// Speak the Hub protocol (version 2) on standard input and output.
    Hub,
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
    /// Search fixed positions to a fixed depth and print the node count (identifies the
    /// search's behaviour; commits that change it quote it as `Bench: N`).
    Bench {
        /// Only this rule set (default: all nine).
        #[arg(long, short = 'v')]
        variant: Option<Variant>,
        /// Depth of every search.
        #[arg(long, short = 'd', default_value_t = kondavo::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Search threads (more than one is not deterministic).
        #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash: u64,
    },
    /// Analyse positions read from standard input, one per line (FEN, Hub string or
    /// `start`), and print one line per position.
    Analyze {
        /// Rule set.
        #[arg(long, short = 'v', default_value = "international")]
        variant: Variant,
        /// Search to this depth.
        #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=100), conflicts_with_all = ["nodes", "movetime"])]
        depth: Option<u32>,
        /// Search this many nodes.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "movetime")]
        nodes: Option<u64>,
        /// Search this many seconds per position (the default is 1).
        #[arg(long)]
        movetime: Option<f64>,
        /// Search threads.
        #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash: u64,
        /// Report the K best moves of each position.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
        multipv: u32,
        /// Write JSON lines instead of text lines.
        #[arg(long)]
        json: bool,
        /// Read positions from this file instead of standard input.
        #[arg(long)]
        input: Option<std::path::PathBuf>,
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
    // Logs go to standard error, each line starting with the engine's name: some clients
    // merge standard error into standard output, and no log line may look like protocol.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format(|buf, record| {
            use std::io::Write as _;
            writeln!(buf, "kondavo {}: {}", record.level().as_str().to_lowercase(), record.args())
        })
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
    let command = match cli.command {
        Some(c) => c,
        None if !std::io::stdin().is_terminal() => Command::Hub,
        None => {
            let _ = <Cli as clap::CommandFactory>::command().print_help();
            return ExitCode::SUCCESS;
        }
    };
    let result = match command {
        Command::Hub => {
            kondavo::protocol::session::run(
                std::io::BufReader::new(std::io::stdin()),
                std::io::stdout(),
            );
            Ok(())
        }
        Command::Perft { variant, depth, fen, divide, duplicates, threads } => {
            with_rules!(variant, R => {
                run_perft::<R>(depth, fen.as_deref(), divide, duplicates == Duplicates::Drop, threads)
            })
        }
        Command::Show { variant, fen, moves } => {
            with_rules!(variant, R => run_show::<R>(&fen, moves.as_deref()))
        }
        Command::Bench { variant, depth, threads, hash } => {
            run_bench(variant, depth, threads, hash)
        }
        Command::Analyze {
            variant,
            depth,
            nodes,
            movetime,
            threads,
            hash,
            multipv,
            json,
            input,
        } => {
            let options = Options {
                variant,
                threads: threads as usize,
                hash_mib: hash as usize,
                multipv: multipv as usize,
                ..Options::default()
            };
            run_analyze(options, depth, nodes, movetime, json, input)
        }
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
    let _ = writeln!(out, "perft depth={depth} nodes={nodes} time={secs:.3} nps={nps:.0}");
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
    let names: Vec<String> = legal.iter().map(|&m| notation::move_to_native(&pos, m)).collect();
    let _ = write!(out, "{}", notation::diagram(&pos));
    let _ = writeln!(out, "rule set: {}", R::variant());
    let _ = writeln!(out, "side to move: {}", pos.side());
    let _ = writeln!(out, "fen: {}", notation::to_fen(&pos));
    let _ = writeln!(out, "hub: {}", notation::to_hub_position(&pos));
    let _ = writeln!(out, "key: {:016x}", pos.key());
    let _ = writeln!(out, "legal moves ({}): {}", names.len(), names.join(" "));
    Ok(())
}

fn run_bench(variant: Option<Variant>, depth: u32, threads: u32, hash: u64) -> Result<()> {
    let variants: Vec<Variant> = match variant {
        Some(v) => vec![v],
        None => Base::ALL.into_iter().map(Variant::new).collect(),
    };
    let mut out = std::io::stdout().lock();
    let (nodes, time) =
        kondavo::bench::run(&variants, depth, threads as usize, hash as usize, &mut |l| {
            let _ = writeln!(
                out,
                "position {} {} depth={} nodes={} score={} best={} time={:.3}",
                l.variant,
                l.index,
                l.depth,
                l.nodes,
                l.score.replace(' ', "-"),
                l.best,
                l.time.as_secs_f64()
            );
        })?;
    let secs = time.as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    let _ = writeln!(out, "bench nodes={nodes} time={secs:.3} nps={nps:.0}");
    Ok(())
}

fn run_analyze(
    options: Options,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    json: bool,
    input: Option<std::path::PathBuf>,
) -> Result<()> {
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
    let engine = Engine::new(options);
    let mut out = std::io::stdout().lock();
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
            let _ = writeln!(out, "{printed}");
            let _ = out.flush();
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    if failed > 0 {
        return Err(Error(format!("{failed} position(s) could not be analysed")));
    }
    Ok(())
}
