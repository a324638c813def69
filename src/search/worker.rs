//! One search thread: iterative deepening over the root moves, principal-variation
//! alpha-beta, and rule-aware quiescence.

use super::tune::params;
use super::{Budget, Info, MAX_PLY, Mode, SearchInput, SearchResult, Shared, clock_moves};
use crate::eval::{Eval, evaluate};
use crate::game::Counters;
use crate::geometry::Geometry;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{self, Goal, Rules};
use crate::score::Score;
use crate::tt::{Bound, Entry, TtMove};
use once_cell::sync::Lazy;
use smallvec::SmallVec;
use std::sync::atomic::Ordering;

/// Late-move reductions by depth and move number: about ln(depth)·ln(moves)/2.2
/// (`lmr_div`).
static LMR: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (m as f64).ln() * 100.0 / f64::from(params().lmr_div))
                as i32;
        }
    }
    t
});

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: Score,
    previous: Score,
    pv: Vec<Move>,
}

pub(crate) struct Worker<'a, R: Eval> {
    id: usize,
    input: &'a SearchInput<'a, R>,
    shared: &'a Shared<'a>,
    budget: Budget,
    /// Keys of the game before the root, the root, then the current search path.
    keys: Vec<u64>,
    root_index: usize,
    root_moves: Vec<RootMove>,
    root_depth: i32,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// This worker has completed an iteration: a node limit stops the search only then, so
    /// that even a tiny budget (a weak level's) chooses among a whole iteration's lines.
    iterated: bool,
    /// The node limit is small enough to be checked at every node rather than every 256.
    exact_nodes: bool,
    /// ProbCut is off inside its own test search.
    probcut: bool,
    /// How much of the soft time budget this move may use: grows when the best move
    /// changes or the score drops between iterations (the main thread's).
    time_factor: f64,
    /// Static evaluations by position key (the key's high 48 bits and the score): the
    /// evaluation is a function of the position (the level's noise too, seeded by the key),
    /// and draughts lines transpose often, so a hit returns what evaluating would. A key of
    /// which the high 48 bits are zero never hits (0 is the empty entry).
    eval_cache: Vec<u64>,
}

/// Node limits below this are checked at every node (a weak level's budget of 60 nodes must
/// not become 256).
const EXACT_NODES: u64 = 1 << 16;

/// Entries of a worker's evaluation cache (a power of two; 8 bytes each).
const EVAL_CACHE: usize = 1 << 16;

/// The evaluation-cache slot of a position's key.
#[inline(always)]
fn eval_slot(key: u64) -> usize {
    key as usize & (EVAL_CACHE - 1)
}

impl<'a, R: Eval> Worker<'a, R> {
    pub fn new(id: usize, input: &'a SearchInput<'a, R>, shared: &'a Shared<'a>) -> Self {
        let mut keys = input.history.clone();
        let root_index = keys.len();
        keys.push(input.root.key());
        Worker {
            id,
            input,
            shared,
            budget: Budget::at(
                &input.limits,
                game_phase(&input.root),
                clock_moves(<R::Geo as Geometry>::SQUARES),
            ),
            keys,
            root_index,
            root_moves: Vec::new(),
            root_depth: 0,
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 64 * 64],
            pv: vec![[Move::default(); MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            iterated: false,
            exact_nodes: input.limits.nodes.is_some_and(|n| n < EXACT_NODES),
            probcut: true,
            time_factor: 1.0,
            eval_cache: vec![0; EVAL_CACHE],
        }
    }

    /// Starts loading the evaluation-cache line of a child position, as the table's
    /// prefetch does for its bucket: the cache (512 KiB) is as large as a core's L2 here,
    /// and the child's evaluation waited on the load (the slot's read was 8% of the search's
    /// time in perf).
    #[inline(always)]
    fn prefetch_eval(&self, key: u64) {
        crate::tt::prefetch(&self.eval_cache[eval_slot(key)]);
    }

    /// The static evaluation, with the level's noise if any.
    #[inline]
    fn evaluate(&mut self, pos: &Position<R>) -> Score {
        let key = pos.key();
        let slot = eval_slot(key);
        let e = self.eval_cache[slot];
        if e != 0 && (e ^ key) >> 16 == 0 {
            return Score(i32::from(e as u16 as i16));
        }
        let s = self.evaluate_uncached(pos);
        if let Ok(v) = i16::try_from(s.0) {
            self.eval_cache[slot] = (key & !0xFFFF) | u64::from(v as u16);
        }
        s
    }

    fn evaluate_uncached(&self, pos: &Position<R>) -> Score {
        let s = evaluate(pos, self.input.model);
        let noise = self.input.noise;
        if noise.amplitude > 0 {
            s + crate::level::noise(pos.key(), noise.seed, noise.amplitude)
        } else {
            s
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Time limits apply (not while pondering, not in infinite analysis).
    fn timed(&self) -> bool {
        !self.input.limits.infinite && !self.shared.control.is_pondering()
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes & 255)
    }

    /// Counts a node; every 256 nodes publishes the count and checks the limits (a small node
    /// limit at every node).
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            let total = self.shared.nodes.fetch_add(256, Ordering::Relaxed) + 256;
            if self.iterated && self.input.limits.nodes.is_some_and(|n| total >= n) {
                self.shared.control.stop();
            }
            let control = self.shared.control;
            if self.is_main()
                && self.timed()
                && (self.budget.hard.is_some_and(|h| control.clock() >= h)
                    || (control.was_pondered()
                        && self.budget.soft.is_some_and(|s| control.since_start() >= s)))
            {
                control.stop();
            }
        } else if self.exact_nodes
            && self.iterated
            && self.input.limits.nodes.is_some_and(|n| self.total_nodes() >= n)
        {
            self.shared.control.stop();
        }
        if self.shared.control.is_stopped() {
            self.stopped = true;
        }
    }

    fn info(&self, depth: u32, line: usize) -> Info {
        let rm = &self.root_moves[line];
        Info {
            depth,
            seldepth: self.seldepth as u32,
            score: if rm.score > -Score::INFINITE { rm.score } else { rm.previous },
            nodes: self.total_nodes(),
            time: self.shared.started.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
            multipv: line + 1,
        }
    }

    /// Iterative deepening; returns this worker's result.
    pub fn iterate(mut self, report: &mut dyn FnMut(&Info)) -> SearchResult {
        let root = self.input.root;
        let legal = root.legal_moves();
        let mut result = SearchResult {
            best: None,
            ponder: None,
            score: no_moves(&root, 0),
            depth: 0,
            nodes: 0,
        };
        if legal.is_empty() {
            self.wait_if_needed();
            return result;
        }
        self.root_moves = legal
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -Score::INFINITE,
                previous: -Score::INFINITE,
                pv: vec![mv],
            })
            .collect();
        let lines = self.input.multipv.clamp(1, self.root_moves.len());
        let single = legal.len() == 1
            && self.input.mode == Mode::Think
            && !self.shared.control.is_pondering();
        let max_depth = self
            .input
            .limits
            .depth
            .map_or(MAX_PLY as i32 - 8, |d| (d as i32).clamp(1, MAX_PLY as i32 - 8));
        // Helpers start one ply deeper every other thread, so the threads spread their work;
        // with `smp_ahead`, a helper's next iteration is at least that far past the main
        // worker's.
        let mut depth = (self.id % 2) as i32;
        while depth < max_depth {
            depth += 1;
            if self.is_main() {
                self.shared.main_depth.store(depth, Ordering::Relaxed);
            } else if params().smp_ahead > 0 {
                let ahead = self.shared.main_depth.load(Ordering::Relaxed) + params().smp_ahead;
                depth = depth.max(ahead.min(max_depth));
            }
            self.root_depth = depth;
            self.seldepth = 0;
            for rm in &mut self.root_moves {
                rm.previous = rm.score;
            }
            for line in 0..lines {
                self.aspiration(depth, line, report);
                if self.stopped {
                    break;
                }
                if single {
                    self.forced_move_score();
                }
                if self.is_main() && lines == 1 {
                    report(&self.info(depth as u32, line));
                }
            }
            if self.stopped {
                break;
            }
            if lines > 1 {
                // Each line was searched without the ones above it and with what the table
                // learnt since, so a later line can score higher: the set is shown best first.
                self.root_moves[..lines].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.is_main() {
                    for line in 0..lines {
                        report(&self.info(depth as u32, line));
                    }
                }
            }
            if depth >= 5
                && let Some(best) = result.best
            {
                self.adjust_time(best, result.score);
            }
            self.iterated = true;
            result.depth = depth as u32;
            result.score = self.root_moves[0].score;
            result.best = Some(self.root_moves[0].mv);
            result.ponder = self.root_moves[0].pv.get(1).copied();
            if depth == max_depth && self.ends_the_search() {
                // A helper holds a complete result at the depth limit: the deepest one,
                // which the search returns, so the main worker need not finish it too.
                self.shared.control.stop();
            }
            if single || !self.should_go_deeper(depth) {
                break;
            }
        }
        if result.best.is_none() {
            // Stopped inside the first iteration: the best root move found so far.
            let rm = &self.root_moves[0];
            result.best = Some(rm.mv);
            result.ponder = rm.pv.get(1).copied();
            result.score = if rm.score > -Score::INFINITE { rm.score } else { Score::DRAW };
            if self.is_main() && result.depth == 0 {
                let mut info = self.info(1, 0);
                info.score = result.score;
                report(&info);
            }
        } else if self.stopped && lines == 1 {
            // A move searched in the interrupted iteration may have beaten the last best; the
            // client then hears of it before `done`. (With several lines the last complete
            // iteration stands, so that the lines stay one consistent set.)
            let rm = &self.root_moves[0];
            if rm.score > result.score && Some(rm.mv) != result.best {
                result.best = Some(rm.mv);
                result.ponder = rm.pv.get(1).copied();
                result.score = rm.score;
                if self.is_main() {
                    report(&self.info(self.root_depth as u32, 0));
                }
            }
        }
        self.shared.nodes.fetch_add(self.nodes & 255, Ordering::Relaxed);
        self.nodes &= !255;
        if self.is_main() {
            self.wait_if_needed();
        }
        result
    }

    /// The only legal move is played at once; its score comes from the hash table when an
    /// earlier search saw the position after it (a depth-1 score would make a clock-watching
    /// client, which resigns or offers draws by the score, lose track).
    fn forced_move_score(&mut self) {
        let child = self.input.root.after(self.root_moves[0].mv);
        if let Some(e) = self.shared.tt.probe(child.key())
            && e.depth > 0
            && e.bound == Bound::Exact
        {
            self.root_moves[0].score = -e.score.from_tt(1);
        }
    }

    /// A ponder search or an infinite analysis does not end by itself: it waits for
    /// `stop` or `ponder-hit`.
    fn wait_if_needed(&self) {
        let control = self.shared.control;
        while !control.is_stopped() && (control.is_pondering() || self.input.limits.infinite) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// After an iteration: a new best move, or a score that fell by `tm_drop` or more since
    /// the last iteration (`best`, `score`), earns the move more time.
    fn adjust_time(&mut self, best: Move, score: Score) {
        let p = params();
        let rm = &self.root_moves[0];
        if p.tm_change > 0 && (rm.mv != best || rm.score.0 <= score.0 - p.tm_drop) {
            self.time_factor = (self.time_factor * (1.0 + f64::from(p.tm_change) / 100.0)).min(2.0);
        }
    }

    /// True when this worker, having completed the depth limit, ends the whole search: a
    /// helper, one line (several lines are reported from the main worker's iterations, which
    /// must stay one set), and a search that would end there anyway (not an analysis that
    /// waits for `stop`, nor a ponder search).
    fn ends_the_search(&self) -> bool {
        !self.is_main()
            && self.input.limits.depth.is_some()
            && self.input.multipv <= 1
            && !self.input.limits.infinite
            && !self.shared.control.is_pondering()
    }

    fn should_go_deeper(&self, depth: i32) -> bool {
        let best = self.root_moves[0].score;
        if !self.input.limits.infinite
            && !self.shared.control.is_pondering()
            && best.plies_to_end().is_some_and(|n| depth > n + 2)
        {
            return false; // a forced result found, and searched well past it
        }
        if !self.is_main() || !self.timed() {
            return true;
        }
        match self.budget.soft {
            Some(soft) => {
                let share = f64::from(params().tm_soft_pct) / 100.0 * self.time_factor;
                self.shared.control.since_start() < soft.mul_f64(share)
            }
            None => true,
        }
    }

    /// Searches root line `line` at `depth` with an aspiration window around its last score.
    fn aspiration(&mut self, depth: i32, line: usize, report: &mut dyn FnMut(&Info)) {
        let previous = self.root_moves[line].previous;
        let mut delta = params().asp_delta;
        let (mut alpha, mut beta) =
            if depth >= params().asp_depth && previous.0.abs() < Score::WIN_THRESHOLD.0 {
                (previous - delta, previous + delta)
            } else {
                (-Score::INFINITE, Score::INFINITE)
            };
        loop {
            let score = self.root_search(depth, alpha, beta, line, report);
            self.root_moves[line..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-Score::INFINITE);
            } else if score >= beta {
                beta = (beta + delta).min(Score::INFINITE);
            } else {
                return;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -Score::INFINITE;
                beta = Score::INFINITE;
            }
        }
    }

    fn root_search(
        &mut self,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        line: usize,
        report: &mut dyn FnMut(&Info),
    ) -> Score {
        let root = self.input.root;
        let counters = self.input.counters;
        let mut best = -Score::INFINITE;
        for i in line..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let child = root.after(mv);
            let child_counters = counters.after(&root, mv, &child, &self.input.draw_rules);
            self.keys.push(child.key());
            let score = if i == line {
                -self.search(&child, depth - 1, -beta, -alpha, 1, true, child_counters)
            } else {
                let s =
                    -self.search(&child, depth - 1, -alpha - 1, -alpha, 1, false, child_counters);
                if s > alpha && s < beta {
                    -self.search(&child, depth - 1, -beta, -alpha, 1, true, child_counters)
                } else {
                    s
                }
            };
            self.keys.pop();
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == line || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -Score::INFINITE;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                // A new best move inside an iteration is news on a long search.
                if i > line
                    && self.is_main()
                    && score < beta
                    && self.shared.started.elapsed() > std::time::Duration::from_secs(1)
                {
                    let mut info = self.info(depth as u32, i);
                    info.multipv = line + 1;
                    report(&info);
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    fn is_repetition(&self, reversible: u32) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let mut before_root = 0;
        let mut back = 2;
        while back <= reversible as usize && back < n {
            let idx = n - 1 - back;
            if self.keys[idx] == key {
                // Once after the root is enough (the side that repeats can repeat again);
                // before the root it takes two earlier occurrences (threefold).
                if idx >= self.root_index {
                    return true;
                }
                before_root += 1;
                if before_root >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1];
        head[ply][0] = mv;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Move ordering: hash move, then captures by size, promotions, killers, history.
    fn order(
        &self,
        pos: &Position<R>,
        moves: &MoveList,
        tt: Option<Move>,
        ply: usize,
    ) -> SmallVec<[i32; 128]> {
        let them_kings = pos.kings(!pos.side());
        moves
            .iter()
            .map(|&m| {
                if Some(m) == tt {
                    1 << 30
                } else if m.is_capture() {
                    (1 << 24)
                        + 1024 * m.captured().count() as i32
                        + 64 * (m.captured() & them_kings).count() as i32
                } else if m.is_promotion() {
                    1 << 23
                } else if self.killers[ply][0] == Some(m) {
                    (1 << 22) + 1
                } else if self.killers[ply][1] == Some(m) {
                    1 << 22
                } else {
                    self.history[(m.from() * 64 + m.to()) as usize]
                }
            })
            .collect()
    }

    fn history_update(&mut self, m: Move, bonus: i32) {
        let h = &mut self.history[(m.from() * 64 + m.to()) as usize];
        *h += bonus - *h * bonus.abs() / 16_384;
    }

    /// The hash move, if the table has one that is legal here.
    fn tt_move(moves: &MoveList, entry: Option<Entry>) -> Option<Move> {
        let m = entry?.mv?;
        let mv = *moves.get(m.index as usize)?;
        (mv.from() == u32::from(m.from) && mv.to() == u32::from(m.to)).then_some(mv)
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv_node: bool,
        counters: Counters,
    ) -> Score {
        // 1. Leaves go to quiescence.
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, true, params().qs_sacs, counters);
        }
        self.pv_len[ply] = 0;
        self.tick();
        if self.stopped {
            return Score::DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 8 {
            return self.evaluate(pos);
        }

        // 1b. The rule set's own game end: in breakthrough a king on the board has won.
        if let Some(winner) = rules::crowned_winner(pos) {
            return won_by(winner, pos, ply);
        }

        // 2. Draws by repetition or by the move counter.
        if self.is_repetition(counters.reversible) || counters.is_draw(pos, &self.input.draw_rules)
        {
            return Score::DRAW;
        }

        // 3. Mate distance: nothing here can beat a shorter win already found (in
        //    antidraughts the side to move wins here if it has no move).
        alpha = alpha.max(Score::loss_in(ply));
        beta = beta.min(Score::win_in(ply + usize::from(R::GOAL != Goal::Losing)));
        if alpha >= beta {
            return alpha;
        }

        // 3b. Endgame databases: an exact result ends the search here (never at the root,
        //     which must choose a move).
        if ply > 0
            && let Some(s) = self.probe_egdb(pos, &counters)
        {
            return s;
        }

        // 4. The hash table: a deep enough bound ends the search of non-PV nodes.
        let key = pos.key();
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
        {
            let s = e.score.from_tt(ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }

        // 5. Captures pending for either side (the moves themselves are generated after the
        //    pruning below, which most nodes that reach it end in).
        let capture_node = !R::OPTIONAL_CAPTURE && movegen::has_capture(pos);
        let threatened = !capture_node && movegen::can_capture(pos, !pos.side());
        // (A side without a move has lost: the pruning below stands only where a move exists.)
        let has_move = || {
            capture_node
                || movegen::count_quiet(pos) > 0
                || (R::OPTIONAL_CAPTURE && movegen::has_capture(pos))
        };

        // 6. Static pruning of quiet nodes far from the leaves' horizon: a static score far
        //    above beta stands (never with captures pending on either side, where the
        //    material can swing).
        let p = params();
        if !pv_node
            && !capture_node
            && !threatened
            && depth <= p.static_depth
            && !beta.is_decisive()
        {
            let eval = self.evaluate(pos);
            if eval - p.static_margin * depth >= beta && has_move() {
                return eval;
            }
        }

        // 6b. ProbCut (Scan's "prune"): in a non-PV node, a search at about 0.4 of the depth
        //     that holds a window raised by 0.10 man per ply of depth stands for the full
        //     search. Off inside that test search, and near database or found results.
        if !pv_node
            && self.probcut
            && depth >= p.pc_depth
            && beta.0.abs() < Score::DATABASE_WIN_MIN.0
            && pos.occupied().count() > p.pc_pieces as u32
            && has_move()
        {
            let margin = p.pc_margin * depth;
            let raised = beta + margin;
            self.probcut = false;
            let reduced = depth * p.pc_percent / 100;
            let s = self.search(pos, reduced, raised - 1, raised, ply, false, counters);
            self.probcut = true;
            if self.stopped {
                return Score::DRAW;
            }
            if s >= raised {
                // A win found by the test search stands as it is (less the margin it would
                // no longer be one).
                return if s.is_decisive() { s } else { s - margin };
            }
        }

        // 6c. No legal move: the side to move loses (wins in antidraughts). Where captures
        //     are compulsory, step 5 already knows which kind of move to generate.
        let mut moves = MoveList::new();
        if R::OPTIONAL_CAPTURE {
            movegen::generate(pos, &mut moves);
        } else if capture_node {
            movegen::captures(pos, &mut moves, true);
        } else {
            movegen::quiet_moves(pos, &mut moves);
        }
        if moves.is_empty() {
            return no_moves(pos, ply);
        }

        // 7. A forced move (the only legal one) is searched one ply deeper: forced
        //    sequences are how draughts tactics work.
        let extension = i32::from(moves.len() == 1 && (ply as i32) < 2 * self.root_depth);

        let tt_move = Self::tt_move(&moves, entry);

        // 7b. Singular extension: at a deep PV node, a hash move that alone keeps the
        //     table's score (every other move fails low against it less a margin, searched
        //     4 plies shallower) is searched one ply deeper.
        let mut singular = 0;
        if p.singular_depth > 0
            && pv_node
            && extension == 0
            && depth >= p.singular_depth
            && (ply as i32) < 2 * self.root_depth
            && let (Some(tm), Some(e)) = (tt_move, entry)
            && e.bound != Bound::Upper
            && e.depth >= depth - 4
        {
            let ts = e.score.from_tt(ply);
            if !ts.is_decisive()
                && self.others_fail_low(
                    pos,
                    &moves,
                    tm,
                    depth - 4,
                    ts - p.singular_margin,
                    ply,
                    counters,
                )
            {
                singular = 1;
            }
            if self.stopped {
                return Score::DRAW;
            }
        }

        // 7c. Threads: a node another worker is searching gets its late moves reduced more.
        let shared = self.shared;
        let mark = (p.smp_marks > 0 && ply < 8).then(|| shared.marks.enter(key, self.id));
        let busy = mark.as_ref().is_some_and(|m| m.busy);
        let mut scores = self.order(pos, &moves, tt_move, ply);
        let mut best = -Score::INFINITE;
        let mut best_index: Option<usize> = None;
        let mut searched = 0;
        let mut quiets_tried: SmallVec<[Move; 64]> = SmallVec::new();
        for _ in 0..moves.len() {
            // Pick the best-ordered move left.
            let (i, _) = scores.iter().enumerate().max_by_key(|&(_, s)| *s).unwrap_or((0, &0));
            scores[i] = i32::MIN;
            let mv = moves[i];
            let child = pos.after(mv);
            self.shared.tt.prefetch(child.key());
            self.prefetch_eval(child.key());
            let quiet = !mv.is_capture() && !mv.is_promotion();
            // A move after which the opponent must capture is a sacrifice or an exchange:
            // tactics, never pruned, and reduced like any late quiet move only with
            // `lmr_forcing` (as Scan does; screened positive, its clock SPRT is not done).
            // Only quiet moves out of quiet nodes can be reduced or pruned, so only they are
            // asked.
            let reducible = quiet && !capture_node;
            let forcing = reducible && child.has_capture();
            let killer = reducible && self.killers[ply].contains(&Some(mv));

            // 8. Late quiet moves near the horizon are pruned in non-PV nodes.
            if !pv_node
                && quiet
                && !forcing
                && !capture_node
                && depth <= 3
                && searched >= (p.lmp_base + depth * depth) as usize
                && best > -Score::WIN_THRESHOLD
            {
                continue;
            }

            let child_counters = counters.after(pos, mv, &child, &self.input.draw_rules);
            self.keys.push(child.key());
            let new_depth = depth - 1 + extension + if Some(mv) == tt_move { singular } else { 0 };
            let score = if searched == 0 {
                -self.search(&child, new_depth, -beta, -alpha, ply + 1, pv_node, child_counters)
            } else {
                // 9. Late-move reductions for quiet moves, then a null-window search and a
                //    full re-search when it surprises.
                let mut r = 0;
                if depth >= 3
                    && quiet
                    && (!forcing || p.lmr_forcing != 0)
                    && (!killer || p.lmr_killer != 0)
                    && !capture_node
                    && (!threatened || p.lmr_threat != 0)
                    && searched >= p.lmr_moves as usize
                {
                    r = LMR[depth.min(63) as usize][searched.min(63)] - i32::from(pv_node)
                        + if busy { p.smp_marks } else { 0 };
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    child_counters,
                );
                if s > alpha && r > 0 {
                    s = -self.search(
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        child_counters,
                    );
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.search(
                        &child,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        true,
                        child_counters,
                    );
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                return Score::DRAW;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_index = Some(i);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        // 10. A quiet refutation becomes a killer and gains history;
                        //     the quiet moves tried before it lose some.
                        if quiet {
                            if self.killers[ply][0] != Some(mv) {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = Some(mv);
                            }
                            let bonus = (depth * depth).min(400);
                            self.history_update(mv, bonus);
                            for &q in &quiets_tried {
                                self.history_update(q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }

        // 11. Store the result.
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best_index.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // (A move list longer than 256 cannot name its move by index: store the bound only.)
        let tt_mv = best_index.filter(|&i| i < 256).map(|i| TtMove {
            index: i as u8,
            from: moves[i].from() as u8,
            to: moves[i].to() as u8,
        });
        self.shared.tt.store(key, Entry { mv: tt_mv, score: best.to_tt(ply), depth, bound });
        best
    }

    /// True when every move of `moves` but `skip`, searched at `depth` - 1, scores below
    /// `bound`: the exclusion search of the singular extension.
    #[allow(clippy::too_many_arguments)]
    fn others_fail_low(
        &mut self,
        pos: &Position<R>,
        moves: &MoveList,
        skip: Move,
        depth: i32,
        bound: Score,
        ply: usize,
        counters: Counters,
    ) -> bool {
        for &mv in moves.iter().filter(|&&m| m != skip) {
            let child = pos.after(mv);
            let child_counters = counters.after(pos, mv, &child, &self.input.draw_rules);
            self.keys.push(child.key());
            let s =
                -self.search(&child, depth - 1, -bound, -bound + 1, ply + 1, false, child_counters);
            self.keys.pop();
            if self.stopped || s >= bound {
                return false;
            }
        }
        true
    }

    /// The endgame databases' score of `pos`, when it is in them. A win or loss whose
    /// conversion (which resets the draw counters) comes after `counters` end the game is a
    /// draw. (Quiescence passes its caller's counters on: its captures reset them, so that
    /// errs towards the win.)
    #[inline]
    fn probe_egdb(&self, pos: &Position<R>, counters: &Counters) -> Option<Score> {
        let db = self.input.egdb?;
        let pieces = pos.occupied().count();
        if pieces > db.pieces() {
            return None;
        }
        let v = db.probe(pos)?;
        // No move left: the game is over here, and the search scores that as a found loss
        // (a database score would rank the winner's last capture below a found win).
        if v == crate::egdb::Value::Loss(0) {
            return None;
        }
        let plies = match v {
            crate::egdb::Value::Win(d) | crate::egdb::Value::Loss(d) => u32::from(d),
            crate::egdb::Value::Draw => 0,
        };
        if plies > counters.plies_left(pos, &self.input.draw_rules) {
            return Some(Score::DRAW);
        }
        Some(Score::database(v.sign(), pieces, pos.all_kings().count().abs_diff(pieces), plies))
    }

    /// Quiescence: captures are forced, so when the side to move must capture every capture
    /// is searched with no stand-pat; in a quiet position the static score stands, unless the
    /// opponent threatens a capture, when every move is searched one ply further (once per
    /// line). With no kings on the board it may also offer `sacs` exchanges along the line
    /// (quiet moves after which the opponent must capture).
    #[allow(clippy::too_many_arguments)]
    fn qsearch(
        &mut self,
        pos: &Position<R>,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        threat_ok: bool,
        sacs: i32,
        counters: Counters,
    ) -> Score {
        self.pv_len[ply] = 0;
        self.tick();
        if self.stopped {
            return Score::DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        if let Some(winner) = rules::crowned_winner(pos) {
            return won_by(winner, pos, ply);
        }
        if let Some(s) = self.probe_egdb(pos, &counters) {
            return s;
        }
        let must_capture = movegen::has_capture(pos);
        let mut moves = MoveList::new();
        let mut best = -Score::INFINITE;
        let mut next_threat_ok = threat_ok;
        let mut offers = false;
        if must_capture && !R::OPTIONAL_CAPTURE {
            movegen::generate(pos, &mut moves);
        } else {
            let threatened = threat_ok && movegen::can_capture(pos, !pos.side());
            if threatened {
                movegen::generate(pos, &mut moves);
                if moves.is_empty() {
                    return no_moves(pos, ply);
                }
                next_threat_ok = false;
            } else {
                // The rule set's game ends that a static score would miss: a blocked side
                // wins antidraughts, and a man that crowns now wins breakthrough.
                if R::GOAL == Goal::Losing && !must_capture && movegen::count_quiet(pos) == 0 {
                    return Score::win_in(ply);
                }
                if R::GOAL == Goal::FirstKing && !must_capture && crowns_now(pos) {
                    return Score::win_in(ply + 1);
                }
                let stand = self.evaluate(pos);
                if stand >= beta {
                    return stand;
                }
                best = stand;
                alpha = alpha.max(stand);
                if must_capture {
                    movegen::captures(pos, &mut moves, true);
                }
                if params().qs_promotions != 0 {
                    movegen::promotions(pos, &mut moves);
                }
                if sacs > 0
                    && R::GOAL != Goal::Losing
                    && !must_capture
                    && pos.all_kings().is_empty()
                {
                    offers = true;
                    movegen::for_each_quiet(pos, |m| {
                        if !m.is_promotion() {
                            moves.push(m);
                        }
                    });
                }
            }
        }
        if moves.is_empty() && best == -Score::INFINITE {
            return no_moves(pos, ply);
        }
        // Bigger captures first.
        moves.sort_by_key(|m| std::cmp::Reverse(m.captured().count()));
        for &mv in &moves {
            let child = pos.after(mv);
            self.prefetch_eval(child.key());
            let mut child_sacs = sacs;
            if offers && !mv.is_capture() && !mv.is_promotion() {
                // An exchange offer: only a move that the opponent must answer by capturing.
                if !child.has_capture() {
                    continue;
                }
                child_sacs -= 1;
            }
            let score =
                -self.qsearch(&child, -beta, -alpha, ply + 1, next_threat_ok, child_sacs, counters);
            if self.stopped {
                return Score::DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The score of `pos` when the side to move has no legal move: a loss, or in antidraughts a
/// win.
#[inline]
fn no_moves<R: Rules>(pos: &Position<R>, ply: usize) -> Score {
    won_by(rules::winner_without_moves(pos), pos, ply)
}

/// The score of a game `winner` has won, for the side to move in `pos`.
#[inline]
fn won_by<R: Rules>(winner: crate::color::Color, pos: &Position<R>, ply: usize) -> Score {
    if winner == pos.side() { Score::win_in(ply) } else { Score::loss_in(ply) }
}

/// How far the game is from its start: 0 with every man on the board, 1 with none left.
fn game_phase<R: Rules>(pos: &Position<R>) -> f64 {
    let men = |p: &Position<R>| p.occupied().count() - p.all_kings().count();
    let start = men(&Position::<R>::start()).max(1);
    1.0 - f64::from(men(pos).min(start)) / f64::from(start)
}

/// True when the side to move has a quiet move that crowns a man.
fn crowns_now<R: Rules>(pos: &Position<R>) -> bool {
    let mut found = false;
    movegen::for_each_quiet(pos, |m| found |= m.is_promotion());
    found
}
