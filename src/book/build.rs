//! Building an opening book (offline): drop-out expansion (Lincke 2001) from the start
//! position and the rule set's built-in openings, every new position scored by a search at a
//! fixed node budget, values backed up by negamax.
//!
//! The next positions to expand are the unexpanded ones of lowest priority, where the
//! priority of a position is the cheapest way to reach it from a root: `width` centi-men per
//! ply, plus, for every move on the way, how much worse it is than the best move there (for
//! the side playing it). A small width grows deep main lines; a large one grows wide and
//! shallow trees. The openings are roots of their own, costed as main-line positions of their
//! depth, so that a match from a ballot finds book moves too.
//!
//! The build is deterministic for given settings, whatever the number of threads: every
//! search starts from an empty hash table of its own. It writes the book every `checkpoint`
//! and at the end; rerun on the same file, it goes on from what the file holds.

use super::{Book, EXPANDED, Record};
use crate::bail;
use crate::engine::{GameSpec, Options, build_game};
use crate::error::Result;
use crate::eval::{Eval, Model};
use crate::game::DrawRules;
use crate::matches::openings;
use crate::position::Position;
use crate::search::{self, Control, Limits, Mode, SearchInput};
use crate::tt::Table;
use crate::variant::Variant;
use crate::with_rules;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Settings of a book build.
#[derive(Clone, Debug)]
pub struct Config {
    /// Rule set.
    pub variant: Variant,
    /// Positions to expand in all (the last batch may go a little past it; the book holds
    /// about this many times the branching factor).
    pub expansions: usize,
    /// Nodes of the search that scores a new position.
    pub nodes: u64,
    /// Cost of one ply of depth in the expansion priority, centi-men.
    pub width: i32,
    /// Also grow the book from the rule set's built-in openings (ballots).
    pub openings: bool,
    /// Positions expanded at once (in parallel; the build is the same for any thread count).
    pub batch: usize,
    /// Search threads.
    pub threads: usize,
    /// The book file: written as the build goes, read back to resume.
    pub out: PathBuf,
    /// Time between writes of the file.
    pub checkpoint: Duration,
}

/// Where a build stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Positions expanded.
    pub expanded: usize,
    /// Positions in the book.
    pub positions: usize,
    /// Searches run by this build (not counting a resumed file's).
    pub searches: usize,
}

/// Builds (or goes on building) the book of `cfg`; `progress` hears after every batch.
pub fn build(cfg: &Config, progress: &mut dyn FnMut(Progress)) -> Result<Book> {
    if cfg.expansions == 0 || cfg.nodes == 0 || cfg.batch == 0 {
        bail!("expansions, nodes and batch must be positive");
    }
    if cfg.variant.optional_capture {
        bail!("books are built for the standard rules, not the optional-capture option");
    }
    with_rules!(cfg.variant, R => build_typed::<R>(cfg, progress))
}

struct Node<R: Eval> {
    pos: Position<R>,
    /// The search's value of the position (side to move).
    eval: i32,
    /// Negamax of the children's values, or `eval` for a leaf.
    value: i32,
    /// Child node indices, once expanded.
    children: Option<Vec<usize>>,
}

struct Tree<R: Eval> {
    nodes: Vec<Node<R>>,
    index: HashMap<u64, usize>,
    /// Root nodes and their priority offset.
    roots: Vec<(usize, i32)>,
}

impl<R: Eval> Tree<R> {
    fn add(&mut self, pos: Position<R>, eval: i32) -> usize {
        if let Some(&i) = self.index.get(&pos.key()) {
            return i;
        }
        let i = self.nodes.len();
        self.nodes.push(Node { pos, eval, value: eval, children: None });
        self.index.insert(pos.key(), i);
        i
    }

    fn expanded(&self) -> usize {
        self.nodes.iter().filter(|n| n.children.is_some()).count()
    }

    /// Recomputes every value by negamax from the leaves.
    fn back_up(&mut self) {
        // 0: not visited, 1: on the stack, 2: done.
        let mut state = vec![0u8; self.nodes.len()];
        let roots: Vec<usize> = self.roots.iter().map(|r| r.0).collect();
        for r in roots {
            self.value_of(r, &mut state);
        }
    }

    fn value_of(&mut self, i: usize, state: &mut [u8]) -> i32 {
        match state[i] {
            2 => return self.nodes[i].value,
            // A cycle (kings shuffling): the position's own search value.
            1 => return self.nodes[i].eval,
            _ => {}
        }
        state[i] = 1;
        let value = match self.nodes[i].children.clone() {
            Some(children) if !children.is_empty() => {
                children.iter().map(|&c| -self.value_of(c, state)).max().unwrap_or(0)
            }
            _ => self.nodes[i].eval,
        };
        self.nodes[i].value = value;
        state[i] = 2;
        value
    }

    /// The `n` unexpanded positions of lowest priority (Dijkstra from the roots; ties go by
    /// key, so that the order does not depend on how the tree was loaded).
    fn frontier(&self, n: usize, width: i32) -> Vec<usize> {
        let mut best = vec![i64::MAX; self.nodes.len()];
        let mut heap = BinaryHeap::new();
        for &(r, cost) in &self.roots {
            let cost = i64::from(cost);
            if cost < best[r] {
                best[r] = cost;
                heap.push(Reverse((cost, self.nodes[r].pos.key(), r)));
            }
        }
        let mut out = Vec::new();
        while let Some(Reverse((cost, _, i))) = heap.pop() {
            if cost > best[i] {
                continue;
            }
            let node = &self.nodes[i];
            match &node.children {
                None => {
                    out.push(i);
                    if out.len() == n {
                        break;
                    }
                }
                Some(children) => {
                    for &c in children {
                        // How much worse this move is than the best one, for the mover.
                        let gap = i64::from(node.value - (-self.nodes[c].value)).max(0);
                        let next = cost + i64::from(width) + gap;
                        if next < best[c] {
                            best[c] = next;
                            heap.push(Reverse((next, self.nodes[c].pos.key(), c)));
                        }
                    }
                }
            }
        }
        out
    }

    fn to_book(&self, settings: &str) -> Book {
        let records = self
            .nodes
            .iter()
            .map(|n| Record {
                key: n.pos.key(),
                value: n.value.clamp(-32_000, 32_000) as i16,
                flags: if n.children.is_some() { EXPANDED } else { 0 },
            })
            .collect();
        Book::new(R::variant(), settings.to_string(), records)
    }
}

/// Scores positions by searches at a fixed node budget, on `threads` threads, each search
/// from an empty hash table (so that the result does not depend on the threads).
fn score_all<R: Eval>(
    positions: &[Position<R>],
    nodes: u64,
    tables: &[Table],
    model: Option<&Model>,
) -> Vec<i32> {
    let next = AtomicUsize::new(0);
    let mut out = vec![0i32; positions.len()];
    let results: Vec<Vec<(usize, i32)>> = std::thread::scope(|s| {
        let handles: Vec<_> = tables
            .iter()
            .map(|tt| {
                let next = &next;
                s.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&pos) = positions.get(i) else { break };
                        tt.clear();
                        let control = Control::new();
                        let input = SearchInput {
                            root: pos,
                            history: Vec::new(),
                            counters: Default::default(),
                            draw_rules: DrawRules::of(R::variant(), false),
                            limits: Limits { nodes: Some(nodes), ..Limits::default() },
                            mode: Mode::Analyze,
                            threads: 1,
                            multipv: 1,
                            tt,
                            control: &control,
                            model,
                            egdb: None,
                            noise: Default::default(),
                        };
                        mine.push((i, search::run(input, |_| {}).score.0));
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    for (i, v) in results.into_iter().flatten() {
        out[i] = v;
    }
    out
}

fn build_typed<R: Eval>(cfg: &Config, progress: &mut dyn FnMut(Progress)) -> Result<Book> {
    let model = crate::eval::builtin_model(R::variant().base);
    let model = model.as_deref();
    let tables: Vec<Table> = (0..cfg.threads.max(1)).map(|_| Table::new(4)).collect();
    let settings = format!(
        "kondavo {} book build: nodes {} width {} openings {}",
        env!("CARGO_PKG_VERSION"),
        cfg.nodes,
        cfg.width,
        cfg.openings
    );
    let mut tree = Tree::<R> { nodes: Vec::new(), index: HashMap::new(), roots: Vec::new() };
    let mut stats = Progress::default();

    // The roots: the start, then the openings as main-line positions of their depth.
    let mut roots: Vec<(Position<R>, i32)> = vec![(Position::<R>::start(), 0)];
    if cfg.openings {
        let options = Options { variant: cfg.variant, ..Options::default() };
        for o in openings::builtin(cfg.variant)? {
            let spec = GameSpec { start: o.start.clone(), moves: o.moves.clone() };
            let game = build_game::<R>(&spec, &options)?;
            let plies = if o.start == "start" { o.moves.len() } else { 3 };
            roots.push((*game.position(), cfg.width * plies as i32));
        }
    }

    // Resume from the file if it holds a book of these settings.
    let previous = if cfg.out.exists() { Some(Book::load::<R>(&cfg.out)?) } else { None };
    if let Some(b) = &previous
        && b.settings() != settings
    {
        bail!(
            "{} was built with other settings ({}); remove it or build to another file",
            cfg.out.display(),
            b.settings()
        );
    }
    match &previous {
        Some(book) => {
            for &(pos, cost) in &roots {
                let Some(rec) = book.get(pos.key()) else {
                    bail!("{} lacks a root position; remove it to rebuild", cfg.out.display());
                };
                let i = tree.add(pos, i32::from(rec.value));
                tree.roots.push((i, cost));
            }
            // Every expanded position's children are in the file.
            let mut todo: Vec<usize> = tree.roots.iter().map(|r| r.0).collect();
            while let Some(i) = todo.pop() {
                let pos = tree.nodes[i].pos;
                if tree.nodes[i].children.is_some()
                    || !book.get(pos.key()).is_some_and(Record::expanded)
                {
                    continue;
                }
                let mut children = Vec::new();
                for &mv in pos.legal_moves().iter() {
                    let child = pos.after(mv);
                    let Some(rec) = book.get(child.key()) else {
                        bail!("{} is inconsistent; remove it to rebuild", cfg.out.display());
                    };
                    let c = tree.add(child, i32::from(rec.value));
                    children.push(c);
                    todo.push(c);
                }
                tree.nodes[i].children = Some(children);
            }
        }
        None => {
            let positions: Vec<Position<R>> = roots.iter().map(|r| r.0).collect();
            let evals = score_all(&positions, cfg.nodes, &tables, model);
            stats.searches += positions.len();
            for (&(pos, cost), eval) in roots.iter().zip(evals) {
                let i = tree.add(pos, eval);
                tree.roots.push((i, cost));
            }
        }
    }
    tree.back_up();
    stats.expanded = tree.expanded();
    stats.positions = tree.nodes.len();
    progress(stats);

    let mut saved = Instant::now();
    while stats.expanded < cfg.expansions {
        // Whole batches, even past the target: the batches (and so the book) of a resumed
        // build are those of an uninterrupted one.
        let leaves = tree.frontier(cfg.batch, cfg.width);
        if leaves.is_empty() {
            break; // every reachable position is expanded
        }
        // The new children of the batch, scored together.
        let mut fresh: Vec<Position<R>> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &leaf in &leaves {
            let pos = tree.nodes[leaf].pos;
            for &mv in pos.legal_moves().iter() {
                let child = pos.after(mv);
                if !tree.index.contains_key(&child.key()) && seen.insert(child.key()) {
                    fresh.push(child);
                }
            }
        }
        let evals = score_all(&fresh, cfg.nodes, &tables, model);
        stats.searches += fresh.len();
        for (pos, eval) in fresh.into_iter().zip(evals) {
            tree.add(pos, eval);
        }
        for &leaf in &leaves {
            let pos = tree.nodes[leaf].pos;
            let children =
                pos.legal_moves().iter().map(|&mv| tree.index[&pos.after(mv).key()]).collect();
            tree.nodes[leaf].children = Some(children);
        }
        tree.back_up();
        stats.expanded += leaves.len();
        stats.positions = tree.nodes.len();
        progress(stats);
        if saved.elapsed() >= cfg.checkpoint {
            tree.to_book(&settings).save::<R>(&cfg.out)?;
            saved = Instant::now();
        }
    }
    let book = tree.to_book(&settings);
    book.save::<R>(&cfg.out)?;
    Ok(book)
}
