//! The facade between the outside world (protocols, command line) and the search: options,
//! the hash table, the game to search, and searches that report in text-ready form.
//!
//! Positions of a runtime rule set are kept as text (a start position and moves) and become
//! typed positions inside the one dispatch, so nothing here is generic.

use crate::book::{self, Book};
use crate::egdb::Egdb;
use crate::error::{Error, Result};
use crate::eval::{self, Eval, Model};
use crate::game::{DrawRules, Game};
use crate::level;
use crate::moves::Move;
use crate::notation;
use crate::position::Position;
use crate::score::Score;
use crate::search::{self, Control, EvalNoise, Info, Limits, Mode, SearchInput};
use crate::tt::Table;
use crate::variant::Variant;
use crate::wdl::{self, Wdl};
use crate::with_rules;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// A move in both notations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Hub notation (numeric, every captured square).
    pub hub: String,
    /// The rule set's native notation.
    pub native: String,
}

/// A search report, ready to print.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// Hash table use, permille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<MoveText>,
    /// Line number (1-based) in multi-PV analysis.
    pub multipv: usize,
    /// Win/draw/loss chances of the side to move that the score stands for.
    pub wdl: Wdl,
}

/// The end of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Done {
    /// The best move, if the side to move has one.
    pub best: Option<MoveText>,
    /// The expected reply, if legal after the best move.
    pub ponder: Option<MoveText>,
    /// Score.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation of the last report (best move first).
    pub pv: Vec<MoveText>,
    /// Win/draw/loss chances of the side to move that the score stands for.
    pub wdl: Wdl,
}

/// A game to search: a start position (FEN, Hub string or `start`) and the moves played, in
/// Hub notation (numeric, internal numbering) or, on algebraic rule sets, native notation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSpec {
    /// The start position.
    pub start: String,
    /// Moves played from it: Hub notation, or algebraic native notation.
    pub moves: Vec<String>,
}

impl GameSpec {
    /// The rule set's start position, no moves.
    pub fn start() -> GameSpec {
        GameSpec { start: "start".into(), moves: Vec::new() }
    }
}

/// Engine options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The rule set.
    pub variant: Variant,
    /// Search threads.
    pub threads: usize,
    /// Hash table size in MiB.
    pub hash_mib: usize,
    /// Lines reported in analysis.
    pub multipv: usize,
    /// Official FMJD draw counters on the 10x10 board.
    pub fmjd_draws: bool,
    /// A weights file to evaluate with instead of the rule set's built-in weights.
    pub eval_file: Option<String>,
    /// The endgame database directory (`None`: [`crate::egdb::default_dir`]).
    pub egdb_dir: Option<String>,
    /// Probe the endgame databases up to this many pieces (0: not at all).
    pub egdb_pieces: u32,
    /// Build the small sets ([`crate::egdb::small_pieces`]) when they are missing.
    pub egdb_build: bool,
    /// The size of the databases' block cache, in MiB.
    pub egdb_cache_mib: usize,
    /// Playing strength, 1 to [`level::FULL`] (full strength): a handicap on the search of a
    /// move to play, never on analysis.
    pub level: u8,
    /// Seed of the weaker levels' and the book's choices (0: a new draw for every move, so
    /// that games vary).
    pub seed: u64,
    /// Play from the opening book when the position is in it (moves to play only, never
    /// analysis).
    pub book: bool,
    /// How far below the best book move a book move may be, in centi-men (variety; `None`:
    /// the rule set's [`book::default_margin`]).
    pub book_margin: Option<i32>,
    /// A book file to use instead of the rule set's built-in book.
    pub book_file: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: Variant::default(),
            threads: 1,
            hash_mib: 64,
            multipv: 1,
            fmjd_draws: false,
            eval_file: None,
            egdb_dir: None,
            egdb_pieces: 0,
            egdb_build: false,
            egdb_cache_mib: crate::egdb::DEFAULT_CACHE_MIB,
            level: level::FULL,
            seed: 0,
            book: true,
            book_margin: None,
            book_file: None,
        }
    }
}

/// The engine: options, the hash table and the evaluation's weights.
pub struct Engine {
    options: Options,
    tt: Table,
    model: Option<Arc<Model>>,
    egdb: Option<Arc<Egdb>>,
    book: Option<Arc<Book>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Options::default())
    }
}

/// Largest hash table accepted, in MiB (64 GiB).
pub const MAX_HASH_MIB: usize = 64 << 10;
/// The largest database block cache, in MiB.
pub const MAX_EGDB_CACHE_MIB: usize = 65_536;

impl Engine {
    /// An engine with `options`.
    pub fn new(options: Options) -> Engine {
        let tt = Table::new(options.hash_mib.clamp(1, MAX_HASH_MIB));
        let model = match model_of(&options) {
            Ok(m) => m,
            Err(e) => {
                log::error!("evaluation: {e}; using the built-in weights");
                eval::builtin_model(options.variant.base)
            }
        };
        let egdb = egdb_of(&options);
        let book = book::open(options.variant, options.book_file.as_deref()).unwrap_or_else(|e| {
            log::warn!("opening book: {e}; playing without it");
            None
        });
        Engine { options, tt, model, egdb, book }
    }

    /// An engine with `options`, or the error of its weights file.
    pub fn try_new(options: Options) -> Result<Engine> {
        let model = model_of(&options)?;
        let tt = Table::try_new(options.hash_mib.clamp(1, MAX_HASH_MIB)).map_err(Error)?;
        let egdb = egdb_of(&options);
        let book = book::open(options.variant, options.book_file.as_deref())?;
        Ok(Engine { options, tt, model, egdb, book })
    }

    /// Evaluates with the rule set's hand-set weights from now on, whatever weights are built in
    /// (for data that must not change when the weights do, such as generated openings). The
    /// next change of rule set or weights file restores a learned model.
    pub fn use_hand_eval(&mut self) {
        self.model = None;
    }

    /// The learned evaluation in use (`None`: the hand-set weights).
    pub fn model(&self) -> Option<&Model> {
        self.model.as_deref()
    }

    /// The opening book in use, if any (whether or not [`Options::book`] is on).
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// The endgame databases in use, if any.
    pub fn egdb(&self) -> Option<&Egdb> {
        self.egdb.as_deref()
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the options; the hash table is reallocated only when its size changes. When
    /// the new table cannot be allocated, the options and the table size stay as they were
    /// (the table is emptied) and the error says so.
    pub fn set_options(&mut self, options: Options) -> Result<()> {
        // The weights first: a file that does not load changes nothing.
        let model = if options.eval_file != self.options.eval_file
            || options.variant.base != self.options.variant.base
        {
            Some(model_of(&options)?)
        } else {
            None
        };
        // The book next: a book file that does not load changes nothing either.
        let book = if options.book_file != self.options.book_file
            || options.variant != self.options.variant
        {
            Some(book::open(options.variant, options.book_file.as_deref())?)
        } else {
            None
        };
        if options.hash_mib != self.options.hash_mib {
            // The old table goes first, so that its memory can serve the new one.
            self.tt = Table::new(1);
            match Table::try_new(options.hash_mib.clamp(1, MAX_HASH_MIB)) {
                Ok(t) => self.tt = t,
                Err(e) => {
                    self.tt = Table::new(self.options.hash_mib.clamp(1, MAX_HASH_MIB));
                    return Err(Error(e));
                }
            }
        }
        let reopen = options.variant != self.options.variant
            || options.egdb_dir != self.options.egdb_dir
            || options.egdb_pieces != self.options.egdb_pieces
            || options.egdb_build != self.options.egdb_build
            || options.egdb_cache_mib != self.options.egdb_cache_mib;
        self.options = options;
        if let Some(m) = model {
            // The table's scores are the old evaluation's: they go with it.
            self.tt.clear();
            self.model = m;
        }
        if let Some(b) = book {
            self.book = b;
        }
        if reopen {
            self.egdb = egdb_of(&self.options);
        }
        Ok(())
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&self) {
        self.tt.clear();
    }

    /// Checks that `spec` is a legal game of the current rule set.
    pub fn validate(&self, spec: &GameSpec) -> Result<()> {
        with_rules!(self.options.variant, R => build_game::<R>(spec, &self.options).map(|_| ()))
    }

    /// Searches the position at the end of `spec`. Calls `report` with every report; returns
    /// the best move. `control` can stop the search (or end pondering) from another thread.
    pub fn search(
        &self,
        spec: &GameSpec,
        limits: &Limits,
        mode: Mode,
        control: &Control,
        report: &mut dyn FnMut(Report),
    ) -> Result<Done> {
        with_rules!(self.options.variant, R => self.search_typed::<R>(spec, limits, mode, control, report))
    }

    fn search_typed<R: Eval>(
        &self,
        spec: &GameSpec,
        limits: &Limits,
        mode: Mode,
        control: &Control,
        report: &mut dyn FnMut(Report),
    ) -> Result<Done> {
        let game = build_game::<R>(spec, &self.options)?;
        let root = *game.position();
        let handicap =
            if mode == Mode::Think { level::handicap(R::BASE, self.options.level) } else { None };
        let mut limits = limits.clone();
        let mut multipv = self.options.multipv;
        let mut model = self.model.as_deref();
        let mut noise = EvalNoise::default();
        // The seed of this move's choices: a set seed mixed with the position and the moves so
        // far (reproducible); without one, a new draw for every move, so that an engine that
        // plays many games (a match, a server bot) does not repeat its choices game after game.
        let seed =
            level::mix(seed_of(&self.options) ^ root.key() ^ (spec.moves.len() as u64) << 48);
        if mode == Mode::Think
            && self.options.book
            && !control.is_pondering()
            && let Some(book) = &self.book
        {
            // The book varies its moves in the first plies from the start position only; a
            // weaker level chooses among the book's moves within its own margin throughout.
            let ply = Book::ply(game.start(), spec.moves.len());
            let own = self.options.book_margin.unwrap_or_else(|| book::default_margin(R::BASE));
            let own = book::margin_at(own, ply);
            let min_line = book::min_line_at(ply);
            let margin = handicap.map_or(0, |h| h.margin).max(own);
            if let Some(done) = book_move(book, &root, margin, min_line, seed, control, report) {
                return Ok(done);
            }
        }
        if let Some(h) = handicap {
            limits.nodes = Some(limits.nodes.map_or(h.nodes, |n| n.min(h.nodes)));
            multipv = h.lines;
            if h.hand_eval {
                model = None;
            }
            noise = EvalNoise { amplitude: h.noise, seed };
        }
        let input = SearchInput {
            root,
            history: game.repetition_keys(),
            counters: game.counters(),
            draw_rules: *game.draw_rules(),
            limits,
            mode,
            threads: self.options.threads,
            multipv,
            tt: &self.tt,
            control,
            model,
            egdb: self.egdb.as_deref(),
            noise,
        };
        let mut pv = Vec::new();
        // A weaker level hears of every line (by depth, then line) and tells the caller only of
        // the one it plays.
        let mut lines: BTreeMap<u32, BTreeMap<usize, Info>> = BTreeMap::new();
        let mut result = search::run(input, |info: &Info| {
            if handicap.is_some() && multipv > 1 {
                lines.entry(info.depth).or_default().insert(info.multipv, info.clone());
                return;
            }
            let r = report_of(&root, info);
            if r.multipv == 1 {
                pv.clone_from(&r.pv);
            }
            report(r)
        });
        // The deepest set reported is a whole iteration's lines, best first (or the one line of
        // a search stopped in its first iteration).
        if let (Some(h), Some((_, set))) = (handicap, lines.pop_last()) {
            let set: Vec<Info> = set.into_values().collect();
            let scores: Vec<Score> = set.iter().map(|i| i.score).collect();
            let chosen = &set[level::choose(&scores, h.margin, seed)];
            if let Some(&first) = chosen.pv.first() {
                result.best = Some(first);
                result.ponder = chosen.pv.get(1).copied();
                result.score = chosen.score;
            }
            let r = report_of(&root, &Info { multipv: 1, ..chosen.clone() });
            pv.clone_from(&r.pv);
            report(r);
        }
        let best = result.best.map(|m| text(&root, m));
        let ponder = match (result.best, result.ponder) {
            (Some(b), Some(p)) => {
                let next = root.after(b);
                next.legal_moves().contains(&p).then(|| text(&next, p))
            }
            _ => None,
        };
        // The reported line ends with the best move's line; keep them consistent.
        if pv.first() != best.as_ref() {
            pv = best.iter().cloned().chain(ponder.iter().cloned()).collect();
        }
        let wdl = wdl::of(R::variant().base, result.score, root.occupied().count());
        Ok(Done {
            best,
            ponder,
            score: result.score,
            depth: result.depth,
            nodes: result.nodes,
            pv,
            wdl,
        })
    }
}

/// The book's move in `root`, reported as a line of depth 0 and no nodes (the book's value and
/// its expected reply), if the book has one.
fn book_move<R: Eval>(
    book: &Book,
    root: &Position<R>,
    margin: i32,
    min_line: usize,
    seed: u64,
    control: &Control,
    report: &mut dyn FnMut(Report),
) -> Option<Done> {
    let chosen = book.choose(root, margin, min_line, seed)?;
    let next = root.after(chosen.mv);
    let reply = book.moves(&next).first().map(|m| m.mv);
    let score = Score(chosen.value);
    let mut line = vec![chosen.mv];
    line.extend(reply);
    let info = Info {
        depth: 0,
        seldepth: 0,
        score,
        nodes: 0,
        time: control.since_start(),
        hashfull: 0,
        pv: line,
        multipv: 1,
    };
    let r = report_of(root, &info);
    let pv = r.pv.clone();
    let wdl = r.wdl;
    report(r);
    Some(Done {
        best: Some(text(root, chosen.mv)),
        ponder: reply.map(|m| text(&next, m)),
        score,
        depth: 0,
        nodes: 0,
        pv,
        wdl,
    })
}

/// The seed `options` fix, or a new draw (from the clock and the process) for this move.
fn seed_of(options: &Options) -> u64 {
    if options.seed != 0 {
        return options.seed;
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    level::mix(now ^ u64::from(std::process::id()) << 32)
}

/// The weights `options` ask for: its file (which must be for its rule set) or the built-in
/// ones.
fn model_of(options: &Options) -> Result<Option<Arc<Model>>> {
    match &options.eval_file {
        Some(name) if name == eval::HAND => Ok(None),
        Some(path) => Ok(Some(eval::load_model(options.variant.base, path.as_ref())?)),
        None => Ok(eval::builtin_model(options.variant.base)),
    }
}

/// The endgame databases `options` ask for: those present up to `egdb_pieces` pieces in
/// its directory; a damaged file is a warning and is left out.
fn egdb_of(options: &Options) -> Option<Arc<Egdb>> {
    // The databases are built for the standard goal (no move loses) and the rules the builder
    // knows: not for antidraughts, breakthrough, frisian or frysk!.
    let supported = with_rules!(options.variant, R => crate::egdb::supported::<R>());
    if options.egdb_pieces < 2 || !supported {
        return None;
    }
    let dir = options.egdb_dir.as_ref().map_or_else(crate::egdb::default_dir, |d| d.into());
    let cache = options.egdb_cache_mib.max(1) << 20;
    let open = || with_rules!(options.variant, R => Egdb::open_with_cache::<R>(&dir, options.egdb_pieces, cache));
    let mut opened = open();
    let small = options.egdb_pieces.min(crate::egdb::small_pieces(options.variant.base));
    if options.egdb_build && opened.egdb.pieces() < small {
        let name = options.variant.name();
        log::info!(
            "endgame databases: building every {name} position with up to {small} pieces in {} \
             (once; seconds)",
            dir.display()
        );
        let started = std::time::Instant::now();
        match with_rules!(options.variant, R => crate::egdb::ensure::<R>(&dir, small)) {
            Ok(n) => {
                log::info!(
                    "endgame databases: {n} slices built in {:.1} s",
                    started.elapsed().as_secs_f64()
                );
                opened = open();
            }
            Err(e) => log::warn!("endgame databases not built: {e}"),
        }
    }
    for p in &opened.problems {
        log::warn!("endgame database left out: {p}");
    }
    if let Some(first) = opened.outdated.first() {
        log::warn!(
            "endgame databases: {} files of an earlier format left out (such as {}): rebuild \
             them with `kondavo egdb build`",
            opened.outdated.len(),
            first.display()
        );
    }
    (opened.egdb.pieces() >= 2).then(|| Arc::new(opened.egdb))
}

fn text<R: Eval>(pos: &Position<R>, mv: Move) -> MoveText {
    MoveText { hub: notation::move_to_hub::<R>(mv), native: notation::move_to_native(pos, mv) }
}

fn report_of<R: Eval>(root: &Position<R>, info: &Info) -> Report {
    let mut pos = *root;
    let mut pv = Vec::with_capacity(info.pv.len());
    for &m in &info.pv {
        // A line from the hash table is checked move by move; it stops at anything illegal.
        if !pos.legal_moves().contains(&m) {
            break;
        }
        pv.push(text(&pos, m));
        pos = pos.after(m);
    }
    Report {
        depth: info.depth,
        seldepth: info.seldepth,
        score: info.score,
        nodes: info.nodes,
        time: info.time,
        nps: info.nps(),
        hashfull: info.hashfull,
        pv,
        multipv: info.multipv,
        wdl: wdl::of(R::variant().base, info.score, root.occupied().count()),
    }
}

/// The game of `spec` under the rule set `R`.
pub fn build_game<R: Eval>(spec: &GameSpec, options: &Options) -> Result<Game<R>> {
    let start = notation::parse_position::<R>(&spec.start)?;
    let mut game = Game::new(start, DrawRules::of(R::variant(), options.fmjd_draws));
    for (i, m) in spec.moves.iter().enumerate() {
        game.play_protocol(m).map_err(|e| {
            Error(format!("move {} ({}): {}", i + 1, m.chars().take(24).collect::<String>(), e))
        })?;
    }
    Ok(game)
}
