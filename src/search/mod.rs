//! The search: iterative deepening principal-variation alpha-beta with aspiration windows,
//! rule-aware quiescence over forced captures, a shared lock-free transposition table, and
//! Lazy SMP threads. It reports through events and never prints.
//!
//! One search is one call of [`run`]: the calling thread is the main worker (it keeps the
//! time and reports), helpers are scoped threads that share the table and the stop flag.

mod smp;
mod time;
mod tune;
mod worker;

pub use time::{Budget, clock_moves, margin};

use crate::eval::Eval;
use crate::game::{Counters, DrawRules};
use crate::moves::Move;
use crate::position::Position;
use crate::score::Score;
use crate::tt::Table;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use worker::Worker;

/// Deepest ply the search reaches (search path plus quiescence).
pub const MAX_PLY: usize = 128;

/// What limits a search. All `None`/false means: search until stopped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Time left on the side to move's clock.
    pub time: Option<Duration>,
    /// Increment per move.
    pub inc: Duration,
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
}

/// How the result will be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// A move to play: a single legal move is played at once.
    #[default]
    Think,
    /// Analysis: always searched, reported, never cut short.
    Analyze,
}

/// One report of the search: after every iteration, and on a new best move.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Completed (or current) depth.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Score for the side to move at the root.
    pub score: Score,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Hash table use in permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// 1-based line number in multi-PV analysis (1 otherwise).
    pub multipv: usize,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 { (self.nodes as f64 / s) as u64 } else { 0 }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play (`None` when the side to move has no legal move).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
}

/// State shared with the caller while a search runs: it may stop it, or turn a ponder search
/// into a timed one.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// A ponder search became a timed one.
    pondered: AtomicBool,
    /// Nanoseconds after `epoch` when the search started.
    search_start: AtomicU64,
    /// Nanoseconds after `epoch` when the clock of this move started.
    clock_start: AtomicU64,
    epoch: Instant,
}

impl Default for Control {
    fn default() -> Self {
        Control::new()
    }
}

impl Control {
    /// A fresh control: not stopped, not pondering, clock starting now.
    pub fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            pondered: AtomicBool::new(false),
            search_start: AtomicU64::new(0),
            clock_start: AtomicU64::new(0),
            epoch: Instant::now(),
        }
    }

    /// Asks the search to stop as soon as it can (it still returns its best move).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// True once a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Marks the search as pondering: no time limit applies until [`ponder_hit`](Self::ponder_hit).
    pub fn set_pondering(&self, pondering: bool) {
        self.pondering.store(pondering, Ordering::Release);
    }

    /// True while pondering.
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: from now on the time limits apply. The hard
    /// limit counts from now (it protects the clock); the soft one counts from the start of
    /// the search, so a long ponder does not buy a long think as well.
    pub fn ponder_hit(&self) {
        self.clock_start.store(self.epoch.elapsed().as_nanos() as u64, Ordering::Release);
        self.pondered.store(true, Ordering::Release);
        self.pondering.store(false, Ordering::Release);
    }

    /// True once a ponder search received `ponder-hit`.
    pub fn was_pondered(&self) -> bool {
        self.pondered.load(Ordering::Relaxed)
    }

    /// Starts the search and this move's clock now.
    pub fn restart_clock(&self) {
        let now = self.epoch.elapsed().as_nanos() as u64;
        self.search_start.store(now, Ordering::Release);
        self.clock_start.store(now, Ordering::Release);
    }

    /// Time on this move's clock.
    pub fn clock(&self) -> Duration {
        let start = Duration::from_nanos(self.clock_start.load(Ordering::Acquire));
        self.epoch.elapsed().saturating_sub(start)
    }

    /// Time since the search started (pondering included).
    pub fn since_start(&self) -> Duration {
        let start = Duration::from_nanos(self.search_start.load(Ordering::Acquire));
        self.epoch.elapsed().saturating_sub(start)
    }
}

/// Everything a search needs.
pub struct SearchInput<'a, R: Eval> {
    /// The position to search.
    pub root: Position<R>,
    /// Keys of the game's positions before the root that it could repeat, oldest first.
    pub history: Vec<u64>,
    /// The root's draw counters.
    pub counters: Counters,
    /// The rule set's draw rules.
    pub draw_rules: DrawRules,
    /// Limits.
    pub limits: Limits,
    /// Think or analyze.
    pub mode: Mode,
    /// Threads (1 = deterministic).
    pub threads: usize,
    /// Number of best lines to report (1 = normal search).
    pub multipv: usize,
    /// The shared hash table.
    pub tt: &'a Table,
    /// Stop and ponder control.
    pub control: &'a Control,
    /// The learned evaluation (`None`: the rule set's hand-set weights).
    pub model: Option<&'a crate::eval::Model>,
    /// Endgame databases to probe (`None`: none).
    pub egdb: Option<&'a crate::egdb::Egdb>,
    /// Noise on the evaluation (a handicap of the weaker levels; none by default).
    pub noise: EvalNoise,
}

/// A deterministic noise added to every evaluation ([`crate::level::noise`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalNoise {
    /// Largest noise in centi-men (0: none).
    pub amplitude: i32,
    /// Seed: another seed, other noise.
    pub seed: u64,
}

/// Shared among the workers of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a Table,
    pub control: &'a Control,
    pub nodes: AtomicU64,
    pub started: Instant,
    /// The depth the main worker is searching (helpers may aim past it).
    pub main_depth: AtomicI32,
    /// The nodes near the root that a worker is searching now.
    pub marks: smp::Marks,
}

/// Runs a search and calls `report` with every [`Info`]. Returns the best move and the
/// expected reply. The calling thread is the main worker; `threads - 1` helpers run beside
/// it and stop when it does (a helper that completes a depth limit stops it first).
pub fn run<R: Eval>(input: SearchInput<'_, R>, mut report: impl FnMut(&Info)) -> SearchResult {
    let threads = input.threads.clamp(1, 256);
    let shared = Shared {
        tt: input.tt,
        control: input.control,
        nodes: AtomicU64::new(0),
        started: Instant::now(),
        main_depth: AtomicI32::new(0),
        marks: smp::Marks::new(threads),
    };
    input.tt.new_search();
    let input = &input;
    let mut results = Vec::new();
    std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for id in 1..threads {
            let shared = &shared;
            let handle = std::thread::Builder::new()
                .name(format!("kondavo-search-{id}"))
                .stack_size(64 << 20)
                .spawn_scoped(s, move || Worker::new(id, input, shared).iterate(&mut |_| {}));
            match handle {
                Ok(h) => helpers.push(h),
                Err(e) => log::warn!("search thread {id} could not start: {e}"),
            }
        }
        let main = Worker::new(0, input, &shared).iterate(&mut report);
        // The main worker decides when the search ends (or a helper that completes a depth
        // limit, by stopping it); helpers follow.
        shared.control.stop();
        results.push(main);
        for h in helpers {
            if let Ok(r) = h.join() {
                results.push(r);
            }
        }
    });
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let mut best = smp::best_thread(results, tune::params().smp_vote);
    best.nodes = nodes;
    best
}
