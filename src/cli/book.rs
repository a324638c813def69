//! `kondavo book`: build an opening book, describe one, probe a position.

use super::outln;
use clap::{Args, Subcommand};
use kondavo::book::build::{self, Config, Progress};
use kondavo::book::{self, Book};
use kondavo::engine::{GameSpec, Options, build_game};
use kondavo::error::{Error, Result};
use kondavo::eval::Eval;
use kondavo::matches::openings;
use kondavo::notation;
use kondavo::position::Position;
use kondavo::variant::Variant;
use kondavo::with_rules;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Arguments of `kondavo book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Build a book by drop-out expansion from the start position and the rule set's
    /// openings, every position scored by a search (resumes from the file if it exists).
    Build(BuildArgs),
    /// Describe a book: positions, expanded positions, size, main line, variety.
    Info(CommonArgs),
    /// The book's moves in a position, best first, and which ones a margin lets it play.
    Probe(ProbeArgs),
}

#[derive(Args, Debug)]
struct CommonArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    variant: Variant,
    /// A book file (default: the rule set's built-in book).
    #[arg(long)]
    book: Option<String>,
}

#[derive(Args, Debug)]
struct BuildArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    variant: Variant,
    /// The book file to write (and to resume from). Default: `<rule set>.kdb`.
    #[arg(long, short = 'o')]
    out: Option<PathBuf>,
    /// Positions to expand.
    #[arg(long, default_value_t = 3_000)]
    expansions: usize,
    /// Nodes of the search scoring each new position (about what the engine searches for a
    /// move at a fast clock, so that the book's choices are no worse than its own).
    #[arg(long, default_value_t = 300_000)]
    nodes: u64,
    /// Cost of a ply of depth in the expansion order, centi-men: smaller grows deeper main
    /// lines, larger grows wider and shallower trees.
    #[arg(long, default_value_t = 6)]
    width: i32,
    /// Grow the book from the start position only, not from the rule set's openings.
    #[arg(long)]
    no_openings: bool,
    /// Positions expanded at once.
    #[arg(long, default_value_t = 16)]
    batch: usize,
    /// Threads (default: every core).
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// Seconds between writes of the file.
    #[arg(long, default_value_t = 60)]
    checkpoint: u64,
}

#[derive(Args, Debug)]
struct ProbeArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// The position: FEN, Hub string or `start`.
    #[arg(long, default_value = "start")]
    fen: String,
    /// Moves played from it (Hub or native notation, space separated).
    #[arg(long, default_value = "")]
    moves: String,
    /// Margin in centi-men: the moves the engine may play are marked (default: the rule
    /// set's default `book-margin`).
    #[arg(long)]
    margin: Option<i32>,
}

/// Runs `kondavo book`.
pub fn run(args: BookArgs) -> Result<()> {
    match args.command {
        BookCommand::Build(a) => run_build(a),
        BookCommand::Info(a) => {
            let b = open(&a)?;
            with_rules!(a.variant, R => info::<R>(&b))
        }
        BookCommand::Probe(a) => {
            let b = open(&a.common)?;
            let margin = a.margin.unwrap_or_else(|| book::default_margin(a.common.variant.base));
            with_rules!(a.common.variant, R => probe::<R>(&b, &a.fen, &a.moves, margin))
        }
    }
}

fn open(a: &CommonArgs) -> Result<Arc<Book>> {
    book::open(a.variant, a.book.as_deref())?.ok_or_else(|| {
        Error(format!("{} has no built-in opening book (give one with --book)", a.variant))
    })
}

fn run_build(a: BuildArgs) -> Result<()> {
    let threads = a.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let out = a.out.unwrap_or_else(|| PathBuf::from(format!("{}.kdb", a.variant.name())));
    let cfg = Config {
        variant: a.variant,
        expansions: a.expansions,
        nodes: a.nodes,
        width: a.width,
        openings: !a.no_openings,
        batch: a.batch,
        threads: threads.clamp(1, 256),
        out: out.clone(),
        checkpoint: Duration::from_secs(a.checkpoint),
    };
    let started = Instant::now();
    let bar = super::progress_bar(
        a.expansions as u64,
        "{elapsed_precise} [{bar:40}] {pos}/{len} positions expanded {msg}",
    );
    let mut last = Progress::default();
    let book = build::build(&cfg, &mut |p| {
        bar.set_position(p.expanded as u64);
        bar.set_message(format!("({} in the book)", p.positions));
        last = p;
    })?;
    bar.finish_and_clear();
    let bytes = std::fs::metadata(&out).map_or(0, |m| m.len());
    outln!(
        "{}: {} positions ({} expanded), {} bytes, {} searches in {:.1} s",
        out.display(),
        book.records().len(),
        book.records().iter().filter(|r| r.expanded()).count(),
        bytes,
        last.searches,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn info<R: Eval>(b: &Book) -> Result<()> {
    let expanded = b.records().iter().filter(|r| r.expanded()).count();
    outln!("rule set: {}", b.variant());
    outln!("built by: {}", b.settings());
    outln!("positions: {} ({} expanded)", b.records().len(), expanded);
    outln!("size: {} bytes", b.to_bytes::<R>().len());
    // The main line: the best book move, as far as the book goes.
    let mut pos = Position::<R>::start();
    let mut line = Vec::new();
    while let Some(m) = b.moves(&pos).first().copied() {
        line.push(notation::move_to_native(&pos, m.mv));
        pos = pos.after(m.mv);
        if line.len() >= 60 {
            break;
        }
    }
    outln!("main line ({} plies): {}", line.len(), line.join(" "));
    outln!("start value: {}", b.get(Position::<R>::start().key()).map_or(0, |r| r.value));
    // Positions the engine can reach from the start with the default margin, by ply.
    let margin = book::default_margin(R::BASE);
    let mut frontier = vec![Position::<R>::start()];
    let mut counts = Vec::new();
    for _ in 0..10 {
        let mut next = Vec::new();
        let mut seen = HashSet::new();
        for p in &frontier {
            let moves = b.moves(p);
            let Some(best) = moves.first().map(|m| m.value) else { continue };
            for m in moves.iter().filter(|m| best - m.value <= margin) {
                let c = p.after(m.mv);
                if seen.insert(c.key()) {
                    next.push(c);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        counts.push(next.len().to_string());
        frontier = next;
    }
    outln!(
        "positions reachable from the start within margin {margin} by ply: {}",
        counts.join(" ")
    );
    // Every opening of the rule set: in the book or not.
    let options = Options { variant: b.variant(), ..Options::default() };
    let all = openings::builtin(b.variant())?;
    let mut covered = 0;
    for o in &all {
        let spec = GameSpec { start: o.start.clone(), moves: o.moves.clone() };
        let game = build_game::<R>(&spec, &options)?;
        if !b.moves(game.position()).is_empty() {
            covered += 1;
        }
    }
    outln!("built-in openings with book moves: {covered} of {}", all.len());
    Ok(())
}

fn probe<R: Eval>(b: &Book, fen: &str, played: &str, margin: i32) -> Result<()> {
    let start: Position<R> = notation::parse_position(fen)?;
    let mut pos = start;
    let mut plies = 0;
    for m in played.split_whitespace() {
        pos = pos.after(notation::parse_move(&pos, m)?);
        plies += 1;
    }
    // What the engine would do here: the margin and the book line a move needs depend on the
    // ply from the start position (unknown when the game starts elsewhere).
    let ply = Book::ply(&start, plies);
    let (margin, min_line) = (book::margin_at(margin, ply), book::min_line_at(ply));
    let pos = &pos;
    outln!("fen: {}", notation::to_fen(pos));
    let moves = b.moves(pos);
    if moves.is_empty() {
        outln!("not in the book");
        return Ok(());
    }
    let playable: Vec<_> = b.playable(pos, margin, min_line).iter().map(|m| m.mv).collect();
    for m in &moves {
        let mark = if playable.contains(&m.mv) { "*" } else { " " };
        let line = 1 + b.line_depth(&pos.after(m.mv), 99);
        outln!("{mark} {:<12} {:+5}  line {line}", notation::move_to_native(pos, m.mv), m.value);
    }
    let at = ply.map_or("a game from another position".to_string(), |p| format!("ply {p}"));
    outln!(
        "* = playable at {at}: within {margin} of the best, on a book line of {} plies or more \
         (line = plies of book along the move's best line)",
        min_line.max(1)
    );
    Ok(())
}
