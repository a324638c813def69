//! The `kondavo` command line.

mod cli;

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
        /// Evaluate with this weights file instead of the built-in weights (needs --variant).
        #[arg(long, requires = "variant")]
        eval: Option<String>,
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
        /// Evaluate with this weights file instead of the built-in weights.
        #[arg(long)]
        eval: Option<String>,
    },
    /// Play other engines over DXP (DamExchange, TCP): follow their game requests (the
    /// default, as a server on 127.0.0.1:27531) or start a match as the initiator.
    Dxp(kondavo::protocol::dxp::DxpArgs),
    /// Play an engine-against-engine match of Hub engines (game pairs, clocks, PDN, Elo, SPRT).
    Match(Box<MatchArgs>),
    /// Compute a rating list from PDN files (maximum-likelihood Elo with error bars).
    Ratings {
        /// Rule set of the games to rate (others in the files are skipped).
        #[arg(long, short = 'v', default_value = "international")]
        variant: Variant,
        /// Weight of the virtual draw against the pool's average that keeps perfect scores finite.
        #[arg(long, default_value_t = 0.5)]
        prior: f64,
        /// PDN files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
    /// Generate training data: games of the engine against itself at a fixed node budget,
    /// written as quiet positions with results and scores.
    Selfplay(Box<cli::selfplay::SelfplayArgs>),
    /// Fit a weights file to self-play data (logistic regression on the game results).
    Train(Box<cli::train::TrainArgs>),
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
        Command::Dxp(args) => kondavo::protocol::dxp::run(&args),
        Command::Match(args) => run_match(*args),
        Command::Selfplay(args) => cli::selfplay::run(*args),
        Command::Train(args) => cli::train::run(*args),
        Command::Ratings { variant, prior, files } => run_ratings(variant, prior, &files),
        Command::Show { variant, fen, moves } => {
            with_rules!(variant, R => run_show::<R>(&fen, moves.as_deref()))
        }
        Command::Bench { variant, depth, threads, hash, eval } => {
            run_bench(variant, depth, threads, hash, eval.as_deref())
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
            eval,
        } => {
            let options = Options {
                variant,
                threads: threads as usize,
                hash_mib: hash as usize,
                multipv: multipv as usize,
                eval_file: eval,
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

fn run_bench(
    variant: Option<Variant>,
    depth: u32,
    threads: u32,
    hash: u64,
    eval: Option<&str>,
) -> Result<()> {
    let variants: Vec<Variant> = match variant {
        Some(v) => vec![v],
        None => Base::ALL.into_iter().map(Variant::new).collect(),
    };
    let mut out = std::io::stdout().lock();
    let (nodes, time) =
        kondavo::bench::run(&variants, depth, threads as usize, hash as usize, eval, &mut |l| {
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
    let engine = Engine::try_new(options)?;
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

/// `kondavo match` arguments.
#[derive(clap::Args)]
struct MatchArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    variant: Variant,
    /// An engine command line ("CMD ARGS"); give it twice. Results are for the first.
    #[arg(long = "engine", required_unless_present = "merge")]
    engines: Vec<String>,
    /// Engine names, in the order of --engine (default: the program names).
    #[arg(long = "name")]
    names: Vec<String>,
    /// An engine parameter NAME=VALUE sent to both engines (E1:NAME=VALUE or E2:NAME=VALUE for one).
    #[arg(long = "option")]
    options: Vec<String>,
    /// Games to play (rounded up to whole pairs).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
    /// Time control: T+I (seconds per game plus increment), movetime=S, depth=D or nodes=N.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Openings: builtin, or a file of PDN games or FEN lines.
    #[arg(long, default_value = "builtin")]
    openings: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    concurrency: u64,
    /// Append every game to this PDN file.
    #[arg(long)]
    pdn: Option<std::path::PathBuf>,
    /// SPRT: elo0,elo1[,alpha,beta]; the match stops when it is decided.
    #[arg(long)]
    sprt: Option<String>,
    /// Play shard K of N (K/N): a deterministic share of the game pairs.
    #[arg(long)]
    shard: Option<String>,
    /// Seed of the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adjudication: draw=MOVES:SCORE,win=MOVES:SCORE (scores in men, both engines agreeing).
    #[arg(long)]
    adjudicate: Option<String>,
    /// Moves (each side) after which a game is drawn.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_moves: u32,
    /// Clock grace for process and pipe latency, in milliseconds.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    margin: u64,
    /// Seconds an engine may take to start, or to answer under depth and node limits.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    timeout: u64,
    /// Also write the summary as JSON to this file.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Combine the results of these PDN files (from shards) instead of playing.
    #[arg(long, num_args = 1..)]
    merge: Vec<std::path::PathBuf>,
    /// PDN Event tag.
    #[arg(long, default_value = "kondavo match")]
    event: String,
}

fn run_match(a: MatchArgs) -> Result<()> {
    use kondavo::matches::{
        self, Adjudication, MatchConfig, TimeControl, client, openings, stats::Sprt,
    };
    if !a.merge.is_empty() {
        let texts = a
            .merge
            .iter()
            .map(|p| {
                std::fs::read_to_string(p)
                    .map_err(|e| Error(format!("cannot read {}: {e}", p.display())))
            })
            .collect::<Result<Vec<_>>>()?;
        let summary = matches::merge(&texts, a.variant, a.names.first().map(String::as_str))?;
        return print_summary(&summary, a.json.as_deref());
    }
    if a.engines.len() != 2 {
        return Err(Error(format!("give exactly two --engine, not {}", a.engines.len())));
    }
    let mut specs = Vec::new();
    for (i, cmd) in a.engines.iter().enumerate() {
        let command = client::split_command(cmd).map_err(Error)?;
        let default_name = std::path::Path::new(&command[0])
            .file_name()
            .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned());
        let name = a.names.get(i).cloned().unwrap_or(default_name);
        specs.push(client::EngineSpec { name, command, options: Vec::new() });
    }
    if specs[0].name == specs[1].name {
        specs[0].name.push_str("-1");
        specs[1].name.push_str("-2");
    }
    for o in &a.options {
        let (target, pair) = match o.split_once(':') {
            Some(("E1", rest)) => (Some(0), rest),
            Some(("E2", rest)) => (Some(1), rest),
            _ => (None, o.as_str()),
        };
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| Error(format!("--option takes NAME=VALUE, not \"{o}\"")))?;
        for (i, s) in specs.iter_mut().enumerate() {
            if target.is_none_or(|t| t == i) {
                s.options.push((k.to_string(), v.to_string()));
            }
        }
    }
    let openings = if a.openings == "builtin" {
        openings::builtin(a.variant)?
    } else {
        let text = std::fs::read_to_string(&a.openings)
            .map_err(|e| Error(format!("cannot read {}: {e}", a.openings)))?;
        openings::from_file(&text, a.variant)?
    };
    let shard = match &a.shard {
        Some(s) => {
            let (k, n) = s
                .split_once('/')
                .ok_or_else(|| Error(format!("--shard takes K/N, not \"{s}\"")))?;
            let (k, n): (usize, usize) = (
                k.parse().map_err(|_| Error(format!("bad shard \"{s}\"")))?,
                n.parse().map_err(|_| Error(format!("bad shard \"{s}\"")))?,
            );
            if n == 0 || k == 0 || k > n {
                return Err(Error(format!("--shard K/N needs 1 <= K <= N, not {s}")));
            }
            Some((k, n))
        }
        None => None,
    };
    let cfg = MatchConfig {
        variant: a.variant,
        engines: [specs[0].clone(), specs[1].clone()],
        games: a.games as usize,
        tc: TimeControl::parse(&a.tc)?,
        openings,
        concurrency: a.concurrency as usize,
        pdn: a.pdn.clone(),
        sprt: a.sprt.as_deref().map(Sprt::parse).transpose().map_err(Error)?,
        shard,
        seed: a.seed,
        adjudicate: a
            .adjudicate
            .as_deref()
            .map(Adjudication::parse)
            .transpose()?
            .unwrap_or_default(),
        max_moves: a.max_moves,
        margin: Duration::from_millis(a.margin),
        timeout: Duration::from_secs(a.timeout),
        event: a.event.clone(),
    };
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(0)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let summary = matches::run(&cfg, &mut |p| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
        let e = p.summary.elo();
        let w = &p.summary.wdl;
        bar.set_message(format!(
            "+{} ={} -{}  elo {:.1} +/- {:.1}",
            w.wins, w.draws, w.losses, e.elo, e.interval
        ));
    })?;
    bar.finish_and_clear();
    print_summary(&summary, a.json.as_deref())
}

fn print_summary(
    summary: &kondavo::matches::Summary,
    json: Option<&std::path::Path>,
) -> Result<()> {
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(summary)
            .map_err(|e| Error(format!("cannot write JSON: {e}")))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| Error(format!("cannot write {}: {e}", path.display())))?;
    }
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "{}", summary.to_text());
    Ok(())
}

fn run_ratings(variant: Variant, prior: f64, files: &[std::path::PathBuf]) -> Result<()> {
    use kondavo::matches::ratings::{RatedGame, rate};
    use kondavo::pdn::parse_pdn;
    if !prior.is_finite() || prior < 0.0 {
        return Err(Error(format!("--prior must be zero or positive, not {prior}")));
    }
    let mut games = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Error(format!("cannot read {}: {e}", f.display())))?;
        for g in parse_pdn(&text)? {
            if g.variant().is_some_and(|v| v != variant) {
                continue;
            }
            let Some(score) = g.result.white_points() else { continue };
            let (Some(w), Some(b)) = (g.tag("White"), g.tag("Black")) else { continue };
            games.push(RatedGame { white: w.to_string(), black: b.to_string(), score });
        }
    }
    if games.is_empty() {
        return Err(Error(format!("no finished {variant} games in the files")));
    }
    let list = rate(&games, prior);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "rating list {variant}: {} games, {} players", games.len(), list.len());
    let _ = writeln!(
        out,
        "{:>4}  {:<24} {:>8} {:>7} {:>6} {:>7}",
        "rank", "name", "elo", "+/-", "games", "score"
    );
    for (i, r) in list.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>4}  {:<24} {:>8.1} {:>7.1} {:>6} {:>6.1}%",
            i + 1,
            r.name,
            r.elo,
            r.error,
            r.games,
            100.0 * r.points / r.games.max(1) as f64
        );
    }
    Ok(())
}
