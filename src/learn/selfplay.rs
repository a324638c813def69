//! Self-play data generation: games of the engine against itself at a fixed node budget per
//! move, from the rule set's openings plus a few random plies, written as quiet positions with
//! the game's result and the search score (see [`super::data`]).
//!
//! Reproducible: game `g` depends only on the seed, `g`, the settings and the binary (each
//! game has its own hash table and random stream), and games are written in order whatever
//! the number of threads. Resumable: run the same command again and it continues after the
//! last whole game in the file.

use super::data::{self, Header, Record};
use crate::bail;
use crate::color::Color;
use crate::engine::{GameSpec, Options, build_game};
use crate::error::{Error, Result};
use crate::eval::{Eval, Model, evaluate};
use crate::game::{Game, Outcome};
use crate::matches::openings::Opening;
use crate::position::{Position, splitmix};
use crate::score::Score;
use crate::search::{self, Control, Limits, Mode, SearchInput};
use crate::tt::Table;
use crate::variant::Variant;
use crate::with_rules;
use rayon::prelude::*;
use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Settings of a self-play run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Rule set.
    pub variant: Variant,
    /// Games in the file when the run ends.
    pub games: u32,
    /// Nodes per move.
    pub nodes: u64,
    /// Games played at once.
    pub threads: usize,
    /// Seed of the random plies and opening choice.
    pub seed: u64,
    /// Openings to start from.
    pub openings: Vec<Opening>,
    /// Name of the openings for the file's description (`builtin` or a path).
    pub openings_name: String,
    /// At most this many random plies after the opening.
    pub random_plies: u32,
    /// A start is kept when a search finds it within this many centi-men of equal.
    pub balance: i32,
    /// A game is adjudicated a win once the score stays beyond this (centi-men) for
    /// [`WIN_PLIES`] plies.
    pub win_score: i32,
    /// A game is adjudicated a draw once the score stays within +-[`DRAW_SCORE`] for this many
    /// plies (after ply 60).
    pub draw_plies: u32,
    /// A game still running at this ply is a draw.
    pub max_plies: u32,
    /// Keep a position only when its static evaluation is within this many centi-men of its
    /// search score (`None`: every quiet position).
    pub max_gap: Option<i32>,
    /// The evaluation that plays (`None`: hand-set weights).
    pub model: Option<Arc<Model>>,
    /// Name of the evaluation for the description (`builtin` or a path).
    pub eval_name: String,
    /// Output file.
    pub out: PathBuf,
}

/// Plies the win margin must hold.
pub const WIN_PLIES: u32 = 4;
/// The score band of a dead draw.
pub const DRAW_SCORE: i32 = 8;
/// Hash table per game (MiB).
const TT_MIB: usize = 4;

impl Config {
    /// The file description: every setting that changes the games (not their number).
    pub fn description(&self) -> String {
        format!(
            "kondavo selfplay variant={} nodes={} seed={} openings={} random-plies={} \
             balance={} win-score={} draw-plies={} max-plies={} max-gap={} eval={} version={}",
            self.variant,
            self.nodes,
            self.seed,
            self.openings_name,
            self.random_plies,
            self.balance,
            self.win_score,
            self.draw_plies,
            self.max_plies,
            self.max_gap.map_or_else(|| "none".to_string(), |g| g.to_string()),
            self.eval_name,
            env!("CARGO_PKG_VERSION")
        )
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games in the file.
    pub games: u64,
    /// Games played by this run.
    pub played: u64,
    /// Positions written by this run.
    pub positions: u64,
    /// Results of this run's games: White wins, draws, Black wins.
    pub results: [u64; 3],
    /// Games of this run decided by adjudication.
    pub adjudicated: u64,
    /// Seconds.
    pub seconds: f64,
}

/// One finished game.
struct Played {
    records: Vec<Record>,
    /// White's result: 0 loss, 1 draw, 2 win.
    result: u8,
    adjudicated: bool,
}

/// Runs self-play; `progress(games in the file, positions written this run)` is called as
/// games finish.
pub fn run(cfg: &Config, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Summary> {
    if cfg.openings.is_empty() {
        bail!("no openings to start from");
    }
    if cfg.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let header = Header { base: cfg.variant.base, description: cfg.description() };
    let (mut file, first) = open_output(cfg, &header)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .build()
        .map_err(|e| Error(format!("cannot start {} threads: {e}", cfg.threads)))?;
    let start = Instant::now();
    let mut summary = Summary::default();
    let done = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let batch = (cfg.threads.max(1) * 8) as u32;
    let mut g = first;
    while g < cfg.games {
        let hi = (g + batch).min(cfg.games);
        let games: Vec<Played> = pool.install(|| {
            (g..hi)
                .into_par_iter()
                .map(|n| {
                    let p = with_rules!(cfg.variant, R => play::<R>(cfg, n));
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    let k = positions.fetch_add(p.records.len() as u64, Ordering::Relaxed)
                        + p.records.len() as u64;
                    progress(u64::from(first) + d, k);
                    p
                })
                .collect()
        });
        let mut records = Vec::new();
        for p in &games {
            records.extend_from_slice(&p.records);
            summary.results[2 - p.result as usize] += 1;
            summary.adjudicated += u64::from(p.adjudicated);
            summary.positions += p.records.len() as u64;
            summary.played += 1;
        }
        data::write_records(&mut file, &records)
            .and_then(|_| file.flush())
            .map_err(|e| Error(format!("cannot write {}: {e}", cfg.out.display())))?;
        g = hi;
    }
    summary.games = u64::from(g.max(first));
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// Opens the output: a new file with `header`, or an existing one with the same header, cut
/// back to before its last game (which may be incomplete). Returns it and the first game to
/// play.
fn open_output(cfg: &Config, header: &Header) -> Result<(std::fs::File, u32)> {
    let path = &cfg.out;
    let err = |e: std::io::Error| Error(format!("{}: {e}", path.display()));
    if path.exists() && std::fs::metadata(path).map_err(err)?.len() > 0 {
        let existing = data::read(path)?;
        if existing.header != *header {
            bail!(
                "{} was made with other settings ({}); use another --out to start a new file",
                path.display(),
                existing.header.description
            );
        }
        let last = existing.records.last().map_or(0, |r| r.game);
        let keep = existing.records.iter().take_while(|r| r.game < last).count();
        let len = (existing.header_len + keep * data::RECORD) as u64;
        let mut f = std::fs::OpenOptions::new().write(true).open(path).map_err(err)?;
        f.set_len(len).map_err(err)?;
        f.seek(SeekFrom::End(0)).map_err(err)?;
        log::info!("resuming {} at game {last} ({keep} positions kept)", path.display());
        return Ok((f, last));
    }
    let mut f = std::fs::File::create(path).map_err(err)?;
    f.write_all(&header.to_bytes()).map_err(err)?;
    Ok((f, 0))
}

/// A random number stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let (s, z) = splitmix(self.0);
        self.0 = s;
        z
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A search of `game`'s position with `nodes` nodes.
fn think<R: Eval>(
    game: &Game<R>,
    nodes: u64,
    tt: &Table,
    model: Option<&Model>,
) -> search::SearchResult {
    let control = Control::new();
    let input = SearchInput {
        root: *game.position(),
        history: game.repetition_keys(),
        counters: game.counters(),
        draw_rules: *game.draw_rules(),
        limits: Limits { nodes: Some(nodes), ..Limits::default() },
        mode: Mode::Think,
        threads: 1,
        multipv: 1,
        tt,
        control: &control,
        model,
        egdb: None,
        noise: Default::default(),
    };
    search::run(input, |_| {})
}

/// A start for game `n`: an opening, random plies, balanced by a search.
fn start_of<R: Eval>(cfg: &Config, rng: &mut Rng, tt: &Table) -> Game<R> {
    let options = Options { variant: cfg.variant, fmjd_draws: true, ..Options::default() };
    let mut fallback = None;
    for _ in 0..32 {
        let o = &cfg.openings[rng.below(cfg.openings.len())];
        let spec = GameSpec { start: o.start.clone(), moves: o.moves.clone() };
        let Ok(mut game) = build_game::<R>(&spec, &options) else { continue };
        let plies = rng.below(cfg.random_plies as usize + 1);
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            if game.play(m).is_err() {
                break;
            }
        }
        if game.outcome().is_some() {
            continue;
        }
        tt.clear();
        let r = think(&game, cfg.nodes, tt, cfg.model.as_deref());
        if r.score.0.abs() <= cfg.balance {
            return game;
        }
        fallback.get_or_insert(game);
    }
    fallback.unwrap_or_else(|| {
        Game::new(Position::start(), crate::game::DrawRules::of(R::variant(), true))
    })
}

/// Plays game `n`.
fn play<R: Eval>(cfg: &Config, n: u32) -> Played {
    let mut rng = Rng(cfg.seed ^ u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let tt = Table::new(TT_MIB);
    let mut game = start_of::<R>(cfg, &mut rng, &tt);
    tt.clear();
    let model = cfg.model.as_deref();
    let mut kept: Vec<(Position<R>, usize, i32)> = Vec::new();
    let mut win_streak = 0i32; // +k: White ahead k plies in a row, -k: Black
    let mut draw_streak = 0u32;
    let (result, adjudicated) = loop {
        match game.outcome() {
            Some(Outcome::Win(c)) => break (if c == Color::White { 2 } else { 0 }, false),
            Some(_) => break (1, false),
            None => {}
        }
        let ply = game.moves().len();
        if ply as u32 >= cfg.max_plies {
            break (1, true);
        }
        let pos = *game.position();
        let r = think(&game, cfg.nodes, &tt, model);
        let Some(best) = r.best else {
            break (if pos.side() == Color::White { 0 } else { 2 }, false);
        };
        let white = if pos.side() == Color::White { r.score } else { -r.score };
        // Quiet: no capture for either side, which is where quiescence returns the static
        // evaluation itself.
        let quiet = !pos.has_capture() && !pos.with_side(!pos.side()).has_capture();
        let close =
            cfg.max_gap.is_none_or(|gap| (evaluate(&pos, model).0 - r.score.0).abs() <= gap);
        if quiet && close && r.depth > 0 && !white.is_decisive() {
            kept.push((pos, ply, white.0));
        }
        if white.is_decisive() && r.depth > 0 {
            break (if white > Score::DRAW { 2 } else { 0 }, true);
        }
        if white.0 >= cfg.win_score {
            win_streak = win_streak.max(0) + 1;
        } else if white.0 <= -cfg.win_score {
            win_streak = win_streak.min(0) - 1;
        } else {
            win_streak = 0;
        }
        if win_streak.unsigned_abs() >= WIN_PLIES {
            break (if win_streak > 0 { 2 } else { 0 }, true);
        }
        if ply >= 60 && white.0.abs() <= DRAW_SCORE && r.depth > 0 {
            draw_streak += 1;
        } else {
            draw_streak = 0;
        }
        if cfg.draw_plies > 0 && draw_streak >= cfg.draw_plies {
            break (1, true);
        }
        if game.play(best).is_err() {
            break (1, true);
        }
    };
    let records = kept.iter().map(|(p, ply, s)| Record::of(p, n, *ply, *s, result)).collect();
    Played { records, result, adjudicated }
}
