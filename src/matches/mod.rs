//! `kondavo match`: engine-against-engine matches of Hub engines, per rule set, with opening
//! pairs, real clocks, an arbiter that knows the rules, adjudication, PDN, Elo and SPRT; and
//! `kondavo ratings`, rating lists from PDN files.
//!
//! The runner plays game pairs (each opening twice, colours reversed) on `concurrency`
//! worker threads, each with its own two engine processes. Every move an engine sends is
//! checked by the rules core; an illegal move, a crash, a reply past the clock or a malformed
//! reply loses that game with its reason, and the engine is restarted for the next game.
//! Results arrive in the main thread, which writes the PDN, keeps the statistics, stops an
//! SPRT when it is decided, and prints the summary.

pub mod client;
pub mod openings;
pub mod ratings;
pub mod stats;

use crate::bail;
use crate::color::Color;
use crate::engine::{GameSpec, Options, build_game};
use crate::error::{Error, Result};
use crate::eval::Eval;
use crate::game::Outcome;
use crate::notation;
use crate::pdn::{self, GameResult};
use crate::protocol::hub;
use crate::rules::Rules;
use crate::variant::Variant;
use crate::with_rules;
use client::{Client, EngineSpec, Failure};
use openings::Opening;
use serde::Serialize;
use stats::{Penta, Sprt, Verdict, Wdl};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock: seconds for the game plus an increment per move (Hub engines add the
    /// increment before they move).
    Clock {
        /// Time for the game.
        time: Duration,
        /// Increment per move.
        inc: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
}

impl TimeControl {
    /// Parses `T+I`, `T`, `movetime=S`, `depth=D` or `nodes=N` (seconds may be decimal).
    pub fn parse(text: &str) -> Result<TimeControl> {
        let t = text.trim();
        let secs = |s: &str| -> Result<Duration> {
            match s.trim().parse::<f64>() {
                Ok(v) if (0.0..1e7).contains(&v) => Ok(Duration::from_secs_f64(v)),
                _ => bail!("bad number of seconds \"{s}\" in --tc"),
            }
        };
        if let Some(v) = t.strip_prefix("movetime=") {
            return Ok(TimeControl::MoveTime(secs(v)?));
        }
        if let Some(v) = t.strip_prefix("depth=") {
            return v
                .parse()
                .map(TimeControl::Depth)
                .map_err(|_| Error(format!("bad depth \"{v}\" in --tc")));
        }
        if let Some(v) = t.strip_prefix("nodes=") {
            return v
                .parse()
                .map(TimeControl::Nodes)
                .map_err(|_| Error(format!("bad nodes \"{v}\" in --tc")));
        }
        let (time, inc) = t.split_once('+').unwrap_or((t, "0"));
        let time = secs(time)?;
        if time.is_zero() {
            bail!("--tc needs some time for the game");
        }
        Ok(TimeControl::Clock { time, inc: secs(inc)? })
    }

    fn describe(&self) -> String {
        match self {
            TimeControl::Clock { time, inc } => {
                format!("{}+{}", time.as_secs_f64(), inc.as_secs_f64())
            }
            TimeControl::MoveTime(t) => format!("movetime={}", t.as_secs_f64()),
            TimeControl::Depth(d) => format!("depth={d}"),
            TimeControl::Nodes(n) => format!("nodes={n}"),
        }
    }
}

/// Adjudication: a game ends early when both engines' scores agree for a number of moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// A draw after `moves` moves (each side) with every |score| at most this (centi-men).
    pub draw: Option<(u32, i32)>,
    /// A win after `moves` moves with every score at least this for the same side.
    pub win: Option<(u32, i32)>,
}

impl Adjudication {
    /// Parses `draw=MOVES:SCORE,win=MOVES:SCORE` (either part; scores in men).
    pub fn parse(text: &str) -> Result<Adjudication> {
        let mut a = Adjudication::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (kind, rest) = part
                .split_once('=')
                .ok_or_else(|| Error(format!("bad --adjudicate part \"{part}\"")))?;
            let (moves, score) = rest
                .split_once(':')
                .ok_or_else(|| Error(format!("--adjudicate {kind} takes MOVES:SCORE")))?;
            let moves: u32 =
                moves.trim().parse().map_err(|_| Error(format!("bad move count \"{moves}\"")))?;
            let score: f64 =
                score.trim().parse().map_err(|_| Error(format!("bad score \"{score}\"")))?;
            if moves == 0 || !score.is_finite() || score < 0.0 {
                bail!("--adjudicate needs a positive move count and score");
            }
            let v = Some((moves, (score * 100.0).round() as i32));
            match kind.trim() {
                "draw" => a.draw = v,
                "win" => a.win = v,
                other => bail!("unknown --adjudicate kind \"{other}\" (draw or win)"),
            }
        }
        Ok(a)
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Rule set.
    pub variant: Variant,
    /// The two engines; results are counted for the first.
    pub engines: [EngineSpec; 2],
    /// Games to play (rounded up to whole pairs).
    pub games: usize,
    /// Time control.
    pub tc: TimeControl,
    /// Openings (played in order, from a shuffled list).
    pub openings: Vec<Opening>,
    /// Games played at once.
    pub concurrency: usize,
    /// PDN output.
    pub pdn: Option<PathBuf>,
    /// SPRT, if any.
    pub sprt: Option<Sprt>,
    /// Play only pairs `p` with `p % n == k - 1`.
    pub shard: Option<(usize, usize)>,
    /// Seed of the opening order.
    pub seed: u64,
    /// Adjudication.
    pub adjudicate: Adjudication,
    /// Moves (each side) after which a game is drawn.
    pub max_moves: u32,
    /// Grace on the clock (process and pipe latency) before a time forfeit.
    pub margin: Duration,
    /// How long an engine may take to start, and to reply under depth or node limits.
    pub timeout: Duration,
    /// PDN `Event` tag.
    pub event: String,
    /// Continue the match of the `pdn` file: its games (the same engines, openings and time
    /// control) are counted and not played again.
    pub resume: bool,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Pair index (0-based).
    pub pair: usize,
    /// 0: the first engine has White; 1: colours reversed.
    pub game: usize,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: String,
    /// The first engine's points.
    pub points: f64,
    /// The game as PDN.
    pub pdn: String,
    /// Plies played.
    pub plies: usize,
    /// How each engine used its time.
    pub time: GameTime,
}

/// How the two engines (first engine first) used their time in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameTime {
    /// Seconds spent thinking.
    pub think: [f64; 2],
    /// Moves made.
    pub moves: [u64; 2],
    /// Seconds left on the clock at the end (clock time controls only).
    pub left: [Option<f64>; 2],
}

/// How the two engines (first engine first) used their time over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct TimeUse {
    /// Games counted.
    pub games: [u64; 2],
    /// Seconds spent thinking.
    pub think: [f64; 2],
    /// Moves made (read back from the moves of the games in merged PDN files).
    pub moves: [u64; 2],
    /// Seconds the clocks gave (starting time plus increments; 0 without a clock).
    pub given: [f64; 2],
    /// The lowest clock left at the end of a game, in seconds.
    pub lowest_left: [Option<f64>; 2],
}

impl TimeUse {
    fn add(&mut self, t: &GameTime) {
        for e in 0..2 {
            self.games[e] += 1;
            self.think[e] += t.think[e];
            self.moves[e] += t.moves[e];
            if let Some(left) = t.left[e] {
                self.given[e] += t.think[e] + left;
                self.lowest_left[e] = Some(self.lowest_left[e].map_or(left, |l| l.min(left)));
            }
        }
    }

    /// One engine's line: time per game and per move, share of its clock used, lowest
    /// clock left.
    fn describe(&self, e: usize) -> String {
        let mut parts = vec![format!("{:.2} s/game", self.think[e] / self.games[e].max(1) as f64)];
        if self.moves[e] > 0 {
            parts.push(format!("{:.3} s/move", self.think[e] / self.moves[e] as f64));
        }
        if self.given[e] > 0.0 {
            parts.push(format!("{:.0}% of its clock", 100.0 * self.think[e] / self.given[e]));
        }
        if let Some(l) = self.lowest_left[e] {
            parts.push(format!("lowest clock left {l:.2} s"));
        }
        parts.join(", ")
    }
}

/// The summary of a match (or of merged PDN files).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Rule set.
    pub variant: String,
    /// Engine names, first engine first.
    pub engines: [String; 2],
    /// Game results for the first engine.
    pub wdl: Wdl,
    /// Pair results.
    pub penta: Penta,
    /// Elo from games.
    pub elo_games: stats::EloEstimate,
    /// Elo from pairs (the headline figure when pairs were completed).
    pub elo_pairs: stats::EloEstimate,
    /// SPRT: parameters, LLR, verdict.
    pub sprt: Option<(Sprt, f64, Verdict)>,
    /// Termination reasons with counts.
    pub terminations: BTreeMap<String, u64>,
    /// Seconds of CPU used by the runner itself and by the engines, if known (in this run:
    /// not by the games a resumed match read back).
    pub cpu: Option<(f64, f64)>,
    /// How the engines used their time.
    pub time: TimeUse,
    /// Games read back from the PDN file by `--resume` (counted in the results above).
    pub resumed: u64,
}

impl Summary {
    fn new(variant: Variant, engines: [String; 2]) -> Summary {
        let zero = Wdl::default().elo();
        Summary {
            variant: variant.name(),
            engines,
            wdl: Wdl::default(),
            penta: Penta::default(),
            elo_games: zero,
            elo_pairs: zero,
            sprt: None,
            terminations: BTreeMap::new(),
            cpu: None,
            time: TimeUse::default(),
            resumed: 0,
        }
    }

    /// The headline Elo: from pairs when there are any, else from games.
    pub fn elo(&self) -> stats::EloEstimate {
        if self.penta.pairs() > 0 { self.elo_pairs } else { self.elo_games }
    }

    /// Counts one game: the first engine's points, why it ended, the time used. (Pairs are
    /// counted by the caller, which knows them.)
    fn count_game(&mut self, points: f64, termination: &str, time: Option<&GameTime>) {
        match points {
            p if p >= 1.0 => self.wdl.wins += 1,
            p if p <= 0.0 => self.wdl.losses += 1,
            _ => self.wdl.draws += 1,
        }
        if !termination.is_empty() {
            *self.terminations.entry(termination_kind(termination)).or_default() += 1;
        }
        if let Some(t) = time {
            self.time.add(t);
        }
    }

    fn update(&mut self, sprt: Option<Sprt>) {
        self.elo_games = self.wdl.elo();
        self.elo_pairs = self.penta.elo();
        self.sprt = sprt.map(|s| {
            let llr = self.penta.llr(s.elo0, s.elo1);
            (s, llr, s.verdict(llr))
        });
    }

    /// The summary as text; its last line contains `elo=<value> +/- <interval>`.
    pub fn to_text(&self) -> String {
        let w = &self.wdl;
        let e = self.elo();
        let mut out = format!(
            "match {}: {} vs {}, {} games, {} pairs\n",
            self.variant,
            self.engines[0],
            self.engines[1],
            w.games(),
            self.penta.pairs()
        );
        out.push_str(&format!(
            "results: {} wins, {} draws, {} losses for {} (score {:.1}%)\n",
            w.wins,
            w.draws,
            w.losses,
            self.engines[0],
            100.0 * self.elo_games.score
        ));
        out.push_str(&format!(
            "games: elo {:.1} +/- {:.1}, nelo {:.1}, los {:.1}%\n",
            tenths(self.elo_games.elo),
            self.elo_games.interval,
            tenths(self.elo_games.nelo),
            100.0 * self.elo_games.los
        ));
        let p = &self.penta;
        out.push_str(&format!(
            "pairs [LL LD DD+WL WD WW]: {} {} {} {} {}: elo {:.1} +/- {:.1}, nelo {:.1}, los {:.1}%\n",
            p.ll,
            p.ld,
            p.dd_wl,
            p.wd,
            p.ww,
            tenths(self.elo_pairs.elo),
            self.elo_pairs.interval,
            tenths(self.elo_pairs.nelo),
            100.0 * self.elo_pairs.los
        ));
        if let Some((s, llr, verdict)) = &self.sprt {
            out.push_str(&format!(
                "sprt elo0={} elo1={} alpha={} beta={}: llr {:.2} bounds ({:.2}, {:.2}): {}\n",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                llr,
                s.lower(),
                s.upper(),
                match verdict {
                    Verdict::H1 => "H1 accepted",
                    Verdict::H0 => "H0 accepted",
                    Verdict::Continue => "undecided",
                }
            ));
        }
        let ends: Vec<String> = self.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
        out.push_str(&format!("endings: {}\n", ends.join(", ")));
        if self.time.games[0] > 0 {
            out.push_str(&format!(
                "time: {} {}; {} {}\n",
                self.engines[0],
                self.time.describe(0),
                self.engines[1],
                self.time.describe(1)
            ));
        }
        if let Some((runner, engines)) = self.cpu {
            let share =
                if runner + engines > 0.0 { 100.0 * runner / (runner + engines) } else { 0.0 };
            let run = if self.resumed > 0 {
                format!(" (the games played in this run; {} were read back)", self.resumed)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "cpu: runner {runner:.2} s, engines {engines:.2} s (runner {share:.1}%){run}\n"
            ));
        }
        out.push_str(&format!("elo={:.1} +/- {:.1}\n", tenths(e.elo), e.interval));
        out
    }
}

/// `x` rounded to tenths, without a negative zero (`-0.04` prints as `0.0`, not `-0.0`).
fn tenths(x: f64) -> f64 {
    let r = (x * 10.0).round() / 10.0;
    if r == 0.0 { 0.0 } else { r }
}

/// CPU seconds of this process and of its waited-for children (Linux `/proc`).
fn cpu_seconds() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // After the command name in parentheses come fields 3, 4, …: utime, stime, cutime and
    // cstime (fields 14-17) are tokens 11-14. Linux counts them in 100ths of a second.
    let after = stat.rsplit_once(')')?.1;
    let tokens: Vec<&str> = after.split_whitespace().collect();
    let field = |i: usize| tokens.get(i).and_then(|t| t.parse::<f64>().ok());
    let tick = 100.0;
    Some(((field(11)? + field(12)?) / tick, (field(13)? + field(14)?) / tick))
}

/// A deterministic permutation of `0..n` from `seed`.
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    for i in (1..n).rev() {
        let (next, z) = crate::position::splitmix(state);
        state = next;
        order.swap(i, (z % (i as u64 + 1)) as usize);
    }
    order
}

/// The Hub name of a variant (base id) and whether optional capture is on.
fn hub_variant(v: Variant) -> (&'static str, bool) {
    (v.base.id(), v.optional_capture)
}

/// A worker's two engines, started on demand.
struct Seats {
    clients: [Option<Client>; 2],
}

impl Seats {
    fn get(&mut self, cfg: &MatchConfig, e: usize) -> std::result::Result<&mut Client, Failure> {
        if self.clients[e].is_none() {
            let (v, optional) = hub_variant(cfg.variant);
            self.clients[e] = Some(Client::start(&cfg.engines[e], v, optional, cfg.timeout)?);
        }
        self.clients[e].as_mut().ok_or_else(|| Failure::Crash("not started".into()))
    }

    fn restart(&mut self, e: usize) {
        if let Some(c) = self.clients[e].take() {
            c.quit();
        }
    }

    fn close(&mut self) {
        for e in 0..2 {
            self.restart(e);
        }
    }
}

/// Plays one game of `pair` (`game` 0: engine 0 has White).
fn play_game<R: Eval>(
    cfg: &MatchConfig,
    seats: &mut Seats,
    pair: usize,
    game: usize,
    opening: &Opening,
) -> GameRecord {
    let options = Options { variant: cfg.variant, hash_mib: 1, ..Options::default() };
    let spec = GameSpec { start: opening.start.clone(), moves: opening.moves.clone() };
    let engine_of = |c: Color| if (c == Color::White) == (game == 0) { 0 } else { 1 };
    // Openings were checked before the match started.
    let Ok(mut g) = build_game::<R>(&spec, &options) else {
        return record(
            cfg,
            pair,
            game,
            opening,
            &[],
            &GameTime::default(),
            GameResult::Unknown,
            "bad opening".into(),
            engine_of,
        );
    };
    let start_hub = notation::to_hub_position(g.start());
    let mut native: Vec<String> = Vec::new();
    let mut hub_moves: Vec<String> = Vec::new();
    {
        let mut pos = *g.start();
        for &m in g.moves() {
            native.push(notation::move_to_native(&pos, m));
            hub_moves.push(notation::move_to_hub::<R>(m));
            pos = pos.after(m);
        }
    }
    for e in 0..2 {
        if let Ok(c) = seats.get(cfg, e) {
            let _ = c.new_game();
        }
    }
    let mut clocks = [Duration::ZERO; 2];
    if let TimeControl::Clock { time, .. } = cfg.tc {
        clocks = [time; 2];
    }
    // Scores from White's point of view, one per ply, for adjudication.
    let mut white_scores: Vec<Option<i32>> = Vec::new();
    // Thinking time and moves per engine; the clocks left come from `clocks` at the end.
    let mut time = GameTime::default();
    let finish = |native: &[String],
                  time: &GameTime,
                  clocks: &[Duration; 2],
                  result: GameResult,
                  why: String| {
        let mut time = *time;
        if matches!(cfg.tc, TimeControl::Clock { .. }) {
            time.left = clocks.map(|c| Some(c.as_secs_f64()));
        }
        record(cfg, pair, game, opening, native, &time, result, why, engine_of)
    };
    let lose = |c: Color| GameResult::win(!c);
    loop {
        if let Some(outcome) = g.outcome() {
            let why = match outcome {
                Outcome::Win(_) if crate::rules::crowned_winner(g.position()).is_some() => {
                    "king crowned"
                }
                Outcome::Win(_) => "no legal move",
                Outcome::Repetition => "threefold repetition",
                Outcome::MoveCounter => "move counter",
            };
            return finish(&native, &time, &clocks, GameResult::of(outcome), why.into());
        }
        if g.moves().len() >= 2 * cfg.max_moves as usize {
            return finish(&native, &time, &clocks, GameResult::Draw, "move limit".into());
        }
        if let Some(verdict) = adjudicate(&cfg.adjudicate, &white_scores) {
            return finish(&native, &time, &clocks, verdict.0, verdict.1.into());
        }
        let pos = *g.position();
        let side = pos.side();
        let e = engine_of(side);
        let name = cfg.engines[e].name.clone();
        let now = Instant::now();
        let (level, deadline, allowed) = match cfg.tc {
            TimeControl::Clock { inc, .. } => {
                let available = clocks[e] + inc;
                let level = hub::format(
                    "level",
                    &[
                        ("time", format!("{:.3}", clocks[e].as_secs_f64())),
                        ("inc", format!("{:.3}", inc.as_secs_f64())),
                    ],
                );
                (level, now + available + cfg.margin, Some(available))
            }
            TimeControl::MoveTime(t) => {
                (format!("level move-time={:.3}", t.as_secs_f64()), now + t + cfg.margin, Some(t))
            }
            TimeControl::Depth(d) => (format!("level depth={d}"), now + cfg.timeout, None),
            TimeControl::Nodes(n) => (format!("level nodes={n}"), now + cfg.timeout, None),
        };
        let pos_line =
            hub::format("pos", &[("pos", start_hub.clone()), ("moves", hub_moves.join(" "))]);
        let reply = match seats.get(cfg, e) {
            Ok(client) => client.think(&pos_line, &level, deadline),
            Err(f) => Err(f),
        };
        let reply = match reply {
            Ok(r) => r,
            Err(f) => {
                time.think[e] += now.elapsed().as_secs_f64();
                clocks[e] = Duration::ZERO;
                seats.restart(e);
                let why = match f {
                    Failure::Timeout(_) if allowed.is_some() => format!("time forfeit by {name}"),
                    Failure::Timeout(s) => format!("hang of {name} ({s})"),
                    Failure::Crash(s) => format!("crash of {name} ({s})"),
                    Failure::Malformed(s) => format!("malformed reply from {name} ({s})"),
                };
                return finish(&native, &time, &clocks, lose(side), why);
            }
        };
        time.think[e] += reply.elapsed.as_secs_f64();
        time.moves[e] += 1;
        if let Some(a) = allowed
            && reply.elapsed > a + cfg.margin
        {
            clocks[e] = Duration::ZERO;
            seats.restart(e);
            return finish(&native, &time, &clocks, lose(side), format!("time forfeit by {name}"));
        }
        if let TimeControl::Clock { inc, .. } = cfg.tc {
            clocks[e] = (clocks[e] + inc).saturating_sub(reply.elapsed);
        }
        let mv = match notation::parse_hub_move(&pos, &reply.mv) {
            Ok(m) => m,
            Err(err) => {
                seats.restart(e);
                let shown: String = reply.mv.chars().take(40).collect();
                return finish(
                    &native,
                    &time,
                    &clocks,
                    lose(side),
                    format!("illegal move by {name} ({shown}: {err})"),
                );
            }
        };
        white_scores.push(reply.score.map(|s| if side == Color::White { s } else { -s }));
        native.push(notation::move_to_native(&pos, mv));
        hub_moves.push(notation::move_to_hub::<R>(mv));
        if g.play(mv).is_err() {
            return finish(&native, &time, &clocks, lose(side), format!("illegal move by {name}"));
        }
    }
}

/// The adjudicated result of the scores so far, if any.
fn adjudicate(
    a: &Adjudication,
    white_scores: &[Option<i32>],
) -> Option<(GameResult, &'static str)> {
    let last = |moves: u32| -> Option<Vec<i32>> {
        let n = 2 * moves as usize;
        if white_scores.len() < n {
            return None;
        }
        white_scores[white_scores.len() - n..].iter().copied().collect()
    };
    if let Some((moves, score)) = a.win
        && let Some(s) = last(moves)
    {
        if s.iter().all(|&x| x >= score) {
            return Some((GameResult::WhiteWins, "adjudicated win"));
        }
        if s.iter().all(|&x| x <= -score) {
            return Some((GameResult::BlackWins, "adjudicated win"));
        }
    }
    if let Some((moves, score)) = a.draw
        && let Some(s) = last(moves)
        && s.iter().all(|&x| x.abs() <= score)
    {
        return Some((GameResult::Draw, "adjudicated draw"));
    }
    None
}

#[allow(clippy::too_many_arguments)]
fn record(
    cfg: &MatchConfig,
    pair: usize,
    game: usize,
    opening: &Opening,
    native: &[String],
    time: &GameTime,
    result: GameResult,
    termination: String,
    engine_of: impl Fn(Color) -> usize,
) -> GameRecord {
    let white = engine_of(Color::White);
    // The first engine's points; an unknown result counts as a draw.
    let white_points = result.white_points().unwrap_or(0.5);
    let points = if white == 0 { white_points } else { 1.0 - white_points };
    let base = cfg.variant.base;
    let token = result.to_pdn(base);
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), cfg.event.clone()),
        ("Site".into(), "kondavo match".into()),
        ("Round".into(), format!("{}.{}", pair + 1, game + 1)),
        ("White".into(), cfg.engines[white].name.clone()),
        ("Black".into(), cfg.engines[1 - white].name.clone()),
        ("Result".into(), token.into()),
        ("GameType".into(), base.pdn_gametype().into()),
    ];
    tags.extend(pdn::variant_tag(cfg.variant));
    let first_mover_starts;
    let fen = with_rules!(cfg.variant, R => {
        let spec = GameSpec { start: opening.start.clone(), moves: Vec::new() };
        let options = Options { variant: cfg.variant, hash_mib: 1, ..Options::default() };
        match build_game::<R>(&spec, &options) {
            Ok(g) => {
                first_mover_starts = g.start().side() == R::FIRST;
                (*g.start() != crate::position::Position::<R>::start()).then(|| notation::to_fen(g.start()))
            }
            Err(_) => {
                first_mover_starts = true;
                None
            }
        }
    });
    if let Some(f) = fen {
        tags.push(("FEN".into(), f));
    }
    tags.push(("Opening".into(), opening.name.clone()));
    tags.push(("TimeControl".into(), cfg.tc.describe()));
    tags.push(("Termination".into(), termination.clone()));
    // Thinking time and the clock left at the end, by colour (read back by `merge`).
    for (colour, e) in [("White", white), ("Black", 1 - white)] {
        if time.moves[e] > 0 {
            tags.push((format!("{colour}Time"), format!("{:.3}", time.think[e])));
            if let Some(left) = time.left[e] {
                tags.push((format!("{colour}Clock"), format!("{left:.3}")));
            }
        }
    }
    let pdn = pdn::write_game(&tags, native, first_mover_starts, token);
    GameRecord { pair, game, result, termination, points, pdn, plies: native.len(), time: *time }
}

/// Groups a termination reason for the summary (engine names and details dropped).
fn termination_kind(t: &str) -> String {
    for kind in ["time forfeit", "hang", "crash", "malformed reply", "illegal move"] {
        if t.starts_with(kind) {
            return kind.to_string();
        }
    }
    t.to_string()
}

/// Progress of a running match.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Games finished.
    pub done: usize,
    /// Games scheduled.
    pub total: usize,
    /// The summary so far.
    pub summary: Summary,
}

/// Plays a match. `progress` is called after every game.
pub fn run(cfg: &MatchConfig, progress: &mut dyn FnMut(&Progress)) -> Result<Summary> {
    if cfg.openings.is_empty() {
        bail!("no openings");
    }
    let pairs_total = cfg.games.div_ceil(2);
    let order = shuffled(cfg.openings.len(), cfg.seed);
    let pairs: Vec<usize> =
        (0..pairs_total).filter(|p| cfg.shard.is_none_or(|(k, n)| p % n == k - 1)).collect();
    let mut jobs: VecDeque<(usize, usize)> = pairs.iter().flat_map(|&p| [(p, 0), (p, 1)]).collect();
    let total = jobs.len();
    let mut summary =
        Summary::new(cfg.variant, [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()]);
    summary.update(cfg.sprt);
    let mut pair_points: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    let mut done = 0;
    if cfg.resume
        && let Some(path) = &cfg.pdn
        && path.exists()
    {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
        let mut left: BTreeSet<(usize, usize)> = jobs.iter().copied().collect();
        for g in pdn::parse_pdn(&text)? {
            let (pair, game) = resumed_game(cfg, &order, &g)
                .map_err(|why| Error(format!("cannot resume from {}: {why}", path.display())))?;
            if !left.remove(&(pair, game)) {
                bail!(
                    "cannot resume from {}: game {}.{} is not one of this match's games \
                     (another --games or --shard, or a game twice?)",
                    path.display(),
                    pair + 1,
                    game + 1
                );
            }
            let r = read_game(&g, &cfg.engines[0].name, cfg.variant);
            summary.count_game(r.points, &r.termination, r.time.as_ref());
            let entry = pair_points.entry(pair).or_default();
            entry.push(r.points);
            if entry.len() == 2 {
                summary.penta.add(entry[0] + entry[1]);
            }
            done += 1;
        }
        jobs.retain(|j| left.contains(j));
        summary.resumed = done as u64;
        summary.update(cfg.sprt);
        if summary.sprt.is_some_and(|(_, _, v)| v != Verdict::Continue) {
            jobs.clear();
        }
        log::info!(
            "resuming: {done} games read back from {}, {} to play",
            path.display(),
            jobs.len()
        );
    }
    let jobs = Arc::new(Mutex::new(jobs));
    let stop = Arc::new(AtomicBool::new(false));
    let mut pdn_file = match &cfg.pdn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| Error(format!("cannot open {}: {e}", path.display())))?,
        ),
        None => None,
    };
    let cpu_before = cpu_seconds();
    let (tx, rx) = channel::<GameRecord>();
    std::thread::scope(|s| -> Result<()> {
        for w in 0..cfg.concurrency.clamp(1, 256) {
            let (jobs, stop, tx, order) =
                (Arc::clone(&jobs), Arc::clone(&stop), tx.clone(), &order);
            std::thread::Builder::new()
                .name(format!("kondavo-match-{w}"))
                .spawn_scoped(s, move || {
                    let mut seats = Seats { clients: [None, None] };
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let job = jobs.lock().ok().and_then(|mut q| q.pop_front());
                        let Some((pair, game)) = job else { break };
                        let opening = &cfg.openings[order[pair % order.len()]];
                        let rec = with_rules!(cfg.variant, R => play_game::<R>(cfg, &mut seats, pair, game, opening));
                        if tx.send(rec).is_err() {
                            break;
                        }
                    }
                    seats.close();
                })
                .map_err(|e| Error(format!("cannot start a match thread: {e}")))?;
        }
        drop(tx);
        for rec in rx {
            done += 1;
            if let Some(f) = pdn_file.as_mut() {
                f.write_all(rec.pdn.as_bytes())
                    .map_err(|e| Error(format!("cannot write the PDN file: {e}")))?;
            }
            summary.count_game(rec.points, &rec.termination, Some(&rec.time));
            let entry = pair_points.entry(rec.pair).or_default();
            entry.push(rec.points);
            if entry.len() == 2 {
                summary.penta.add(entry[0] + entry[1]);
            }
            summary.update(cfg.sprt);
            if let Some((_, _, v)) = summary.sprt
                && v != Verdict::Continue
            {
                stop.store(true, Ordering::Relaxed);
            }
            progress(&Progress { done, total, summary: summary.clone() });
        }
        Ok(())
    })?;
    if let (Some((r0, c0)), Some((r1, c1))) = (cpu_before, cpu_seconds()) {
        summary.cpu = Some((r1 - r0, c1 - c0));
    }
    Ok(summary)
}

/// A game read back from a match's PDN: its pair and game number (from the `Round` tag
/// `pair.game`, 0-based here, when it has one), the first engine's points, why it ended and
/// the time used (from the tags `WhiteTime`, `WhiteClock`, ...).
struct ReadGame {
    round: Option<(usize, usize)>,
    points: f64,
    termination: String,
    time: Option<GameTime>,
}

fn read_game(g: &pdn::PdnGame, first: &str, variant: Variant) -> ReadGame {
    let white_first = g.tag("White") == Some(first);
    let white_points = g.result.white_points().unwrap_or(0.5);
    let points = if white_first { white_points } else { 1.0 - white_points };
    let seconds = |tag: &str| g.tag(tag).and_then(|v| v.parse::<f64>().ok());
    let time = match (seconds("WhiteTime"), seconds("BlackTime")) {
        (Some(w), Some(b)) => {
            let mut t = GameTime::default();
            let (we, be) = if white_first { (0, 1) } else { (1, 0) };
            t.think[we] = w;
            t.think[be] = b;
            t.left[we] = seconds("WhiteClock");
            t.left[be] = seconds("BlackClock");
            // Moves by colour: the side to move at the start (the FEN's, else the rule
            // set's first mover) made the odd plies.
            let starts_white = match g.tag("FEN").and_then(|f| f.trim().chars().next()) {
                Some(c) => c.eq_ignore_ascii_case(&'W'),
                None => with_rules!(variant, R => R::FIRST == Color::White),
            };
            let plies = g.moves.len() as u64;
            let (odd, even) = (plies.div_ceil(2), plies / 2);
            (t.moves[we], t.moves[be]) = if starts_white { (odd, even) } else { (even, odd) };
            Some(t)
        }
        _ => None,
    };
    ReadGame {
        round: round_of(g),
        points,
        termination: g.tag("Termination").unwrap_or_default().to_string(),
        time,
    }
}

/// The pair and game of a game, 0-based, from its `Round` tag `pair.game` (1-based).
fn round_of(g: &pdn::PdnGame) -> Option<(usize, usize)> {
    let (p, k) = g.tag("Round")?.split_once('.')?;
    let number = |x: &str| x.trim().parse::<usize>().ok()?.checked_sub(1);
    Some((number(p)?, number(k)?))
}

/// The pair and game (0-based) of a game read back for `--resume`, when it belongs to the
/// match `cfg` describes: the same rule set, engines, time control, and the opening the
/// match gives its pair.
fn resumed_game(
    cfg: &MatchConfig,
    order: &[usize],
    g: &pdn::PdnGame,
) -> std::result::Result<(usize, usize), String> {
    let round = g.tag("Round").unwrap_or("?");
    let Some((pair, game)) = round_of(g).filter(|&(_, k)| k < 2) else {
        return Err(format!("a game's Round is \"{round}\", not PAIR.GAME of a kondavo match"));
    };
    let names = [g.tag("White").unwrap_or("?"), g.tag("Black").unwrap_or("?")];
    let (first, second) = (cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str());
    if names != [first, second] && names != [second, first] {
        return Err(format!(
            "game {round} is {} against {}, this match {first} against {second}",
            names[0], names[1]
        ));
    }
    if g.variant().is_some_and(|v| v != cfg.variant) {
        return Err(format!("game {round} is not {}", cfg.variant));
    }
    let tc = cfg.tc.describe();
    if let Some(t) = g.tag("TimeControl")
        && t != tc
    {
        return Err(format!("game {round} was played at {t}, this match at {tc}"));
    }
    let opening = &cfg.openings[order[pair % order.len()]].name;
    if let Some(o) = g.tag("Opening")
        && o != opening
    {
        return Err(format!(
            "game {round} was played from \"{o}\", this match plays \"{opening}\" there \
             (another --seed or --openings?)"
        ));
    }
    Ok((pair, game))
}

/// The summary of games read from PDN files: `first` names the first engine (default: White
/// of the first game). Pairs are recognised by their `Round` tags `pair.game`.
pub fn merge(texts: &[String], variant: Variant, first: Option<&str>) -> Result<Summary> {
    let mut games = Vec::new();
    for t in texts {
        games.extend(pdn::parse_pdn(t)?);
    }
    let games: Vec<pdn::PdnGame> =
        games.into_iter().filter(|g| g.variant().is_none_or(|v| v == variant)).collect();
    let Some(g0) = games.first() else { bail!("no {variant} games in the PDN files") };
    let first = first
        .map(str::to_string)
        .or_else(|| g0.tag("White").map(str::to_string))
        .unwrap_or_default();
    let second = games
        .iter()
        .flat_map(|g| [g.tag("White"), g.tag("Black")])
        .flatten()
        .find(|n| *n != first)
        .unwrap_or("?")
        .to_string();
    let mut summary = Summary::new(variant, [first.clone(), second]);
    let mut pair_points: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for g in &games {
        let r = read_game(g, &first, variant);
        summary.count_game(r.points, &r.termination, r.time.as_ref());
        if let Some((pair, _)) = r.round {
            let entry = pair_points.entry(pair).or_default();
            entry.push(r.points);
            if entry.len() == 2 {
                summary.penta.add(entry[0] + entry[1]);
            }
        }
    }
    summary.update(None);
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            TimeControl::parse("10+0.1").unwrap(),
            TimeControl::Clock { time: Duration::from_secs(10), inc: Duration::from_millis(100) }
        );
        assert_eq!(TimeControl::parse("depth=6").unwrap(), TimeControl::Depth(6));
        assert_eq!(TimeControl::parse("nodes=5000").unwrap(), TimeControl::Nodes(5000));
        assert_eq!(
            TimeControl::parse("movetime=0.5").unwrap(),
            TimeControl::MoveTime(Duration::from_millis(500))
        );
        for bad in ["", "x", "0+1", "-5", "depth=x", "1+y"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn adjudication_parses_and_decides() {
        let a = Adjudication::parse("draw=3:0.05,win=2:4").unwrap();
        assert_eq!(a.draw, Some((3, 5)));
        assert_eq!(a.win, Some((2, 400)));
        assert!(Adjudication::parse("lose=1:2").is_err());
        let w: Vec<Option<i32>> = vec![Some(500), Some(450), Some(420), Some(401)];
        assert_eq!(adjudicate(&a, &w).map(|x| x.0), Some(GameResult::WhiteWins));
        let d: Vec<Option<i32>> = [Some(1), Some(-2)].repeat(3);
        assert_eq!(adjudicate(&a, &d), Some((GameResult::Draw, "adjudicated draw")));
        let none: Vec<Option<i32>> = vec![None, Some(0), Some(0), Some(0), Some(0), Some(0)];
        assert_eq!(adjudicate(&Adjudication { win: None, ..a }, &none[..5]), None);
    }

    #[test]
    fn shuffles_are_permutations_and_seeded() {
        let a = shuffled(100, 7);
        let mut s = a.clone();
        s.sort();
        assert_eq!(s, (0..100).collect::<Vec<_>>());
        assert_eq!(a, shuffled(100, 7));
        assert_ne!(a, shuffled(100, 8));
    }
}
