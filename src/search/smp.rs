//! Lazy SMP's help for the workers to spread over the tree.
//!
//! The workers of a search share the hash table and otherwise search alone. Two things keep
//! them from searching the same lines in step: a helper's iterations may aim past the main
//! worker's depth (`smp_ahead`, in the worker), and the [`Marks`] here: a worker that enters a
//! node near the root that another worker is searching reduces its late moves more
//! (`smp_marks`). When the search ends, [`best_thread`] picks whose move is played.

use super::SearchResult;
use crate::moves::Move;
use crate::score::Score;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The result to play out of the workers' results: `results[0]` is the main worker's, and
/// there is always one.
///
/// With `vote` 0, the deepest completed iteration, then the best score. With `vote` > 0,
/// Stockfish's vote: every worker gives its move `(score - lowest score + vote) × depth`
/// votes, and the worker whose move has the most plays it; a found win (or database win)
/// is taken over any vote, and among won results the fastest, among lost ones the slowest.
/// The main worker wins every tie, so one thread is deterministic either way.
pub(crate) fn best_thread(mut results: Vec<SearchResult>, vote: i32) -> SearchResult {
    let mut best = 0;
    if vote <= 0 {
        for (i, r) in results.iter().enumerate().skip(1) {
            let b = &results[best];
            if r.best.is_some() && (r.depth > b.depth || (r.depth == b.depth && r.score > b.score))
            {
                best = i;
            }
        }
    } else {
        let lowest = results.iter().filter(|r| r.best.is_some()).map(|r| r.score.0).min();
        let mut votes: HashMap<Move, i64> = HashMap::new();
        for r in &results {
            if let (Some(m), Some(lowest)) = (r.best, lowest) {
                let weight = i64::from(r.score.0 - lowest + vote) * i64::from(r.depth.max(1));
                *votes.entry(m).or_default() += weight;
            }
        }
        let votes_of = |r: &SearchResult| r.best.map_or(i64::MIN, |m| votes[&m]);
        let won = |s: Score| s.0 >= Score::DATABASE_WIN_MIN.0;
        let lost = |s: Score| s.0 <= -Score::DATABASE_WIN_MIN.0;
        for (i, r) in results.iter().enumerate().skip(1) {
            let b = &results[best];
            let take = if r.best.is_none() {
                false
            } else if b.best.is_none() {
                true
            } else if won(b.score) || lost(b.score) {
                r.score > b.score
            } else {
                won(r.score) || (!lost(r.score) && votes_of(r) > votes_of(b))
            };
            if take {
                best = i;
            }
        }
    }
    results.swap_remove(best)
}

/// Nodes near the root being searched, one slot per key hash: a worker that enters a node
/// another worker is searching reduces its late moves one ply more, so that the threads
/// spread over the tree instead of searching the same lines in step (Stockfish's
/// "breadcrumbs").
pub(crate) struct Marks {
    keys: Vec<AtomicU64>,
    /// The worker holding each slot, plus one (0: free).
    owners: Vec<AtomicUsize>,
}

/// Slots of [`Marks`] (a power of two).
const MARK_SLOTS: usize = 1024;

/// What [`Marks::enter`] found: a slot this worker now holds (and frees on drop), and whether
/// another worker is searching the node.
pub(crate) struct Mark<'s> {
    held: Option<&'s AtomicUsize>,
    /// Another worker is in this node.
    pub busy: bool,
}

impl Drop for Mark<'_> {
    fn drop(&mut self) {
        if let Some(owner) = self.held {
            owner.store(0, Ordering::Release);
        }
    }
}

impl Marks {
    pub fn new(threads: usize) -> Marks {
        let n = if threads > 1 { MARK_SLOTS } else { 0 };
        Marks {
            keys: (0..n).map(|_| AtomicU64::new(0)).collect(),
            owners: (0..n).map(|_| AtomicUsize::new(0)).collect(),
        }
    }

    /// Worker `id` enters the node of `key`.
    #[inline]
    pub fn enter(&self, key: u64, id: usize) -> Mark<'_> {
        let free = Mark { held: None, busy: false };
        if self.keys.is_empty() {
            return free;
        }
        let slot = key as usize & (MARK_SLOTS - 1);
        let owner = &self.owners[slot];
        match owner.load(Ordering::Acquire) {
            0 => {
                if owner.compare_exchange(0, id + 1, Ordering::AcqRel, Ordering::Relaxed).is_ok() {
                    self.keys[slot].store(key, Ordering::Release);
                    return Mark { held: Some(owner), busy: false };
                }
                free
            }
            o if o != id + 1 && self.keys[slot].load(Ordering::Acquire) == key => {
                Mark { held: None, busy: true }
            }
            _ => free,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;

    fn quiet(from: u32, to: u32) -> Move {
        Move::new(from, to, Bitboard::default(), false, false)
    }

    fn result(from_to: (u32, u32), score: i32, depth: u32) -> SearchResult {
        SearchResult {
            best: Some(quiet(from_to.0, from_to.1)),
            ponder: None,
            score: Score(score),
            depth,
            nodes: 0,
        }
    }

    #[test]
    fn without_a_vote_the_deepest_then_the_best_score_plays_and_the_main_worker_wins_ties() {
        let r = best_thread(vec![result((1, 2), 10, 12), result((3, 4), 5, 13)], 0);
        assert_eq!(r.best, Some(quiet(3, 4)), "the deeper helper");
        let r = best_thread(vec![result((1, 2), 10, 12), result((3, 4), 20, 12)], 0);
        assert_eq!(r.best, Some(quiet(3, 4)), "same depth, better score");
        let r = best_thread(vec![result((1, 2), 10, 12), result((3, 4), 10, 12)], 0);
        assert_eq!(r.best, Some(quiet(1, 2)), "a tie is the main worker's");
    }

    #[test]
    fn the_vote_plays_the_move_most_depth_agrees_on() {
        // One deeper helper alone against two workers that agree: the pair outvotes it.
        let results = vec![result((1, 2), 10, 12), result((1, 2), 10, 12), result((3, 4), 12, 13)];
        assert_eq!(best_thread(results.clone(), 10).best, Some(quiet(1, 2)));
        assert_eq!(best_thread(results, 0).best, Some(quiet(3, 4)), "without it");
        // A much better score carries its move.
        let results = vec![result((1, 2), 10, 12), result((1, 2), 10, 12), result((3, 4), 60, 12)];
        assert_eq!(best_thread(results, 10).best, Some(quiet(3, 4)));
    }

    #[test]
    fn the_vote_gives_way_to_a_found_win_and_picks_the_fastest() {
        let win = |plies| Score::win_in(plies).0;
        let results =
            vec![result((1, 2), 10, 14), result((1, 2), 10, 14), result((3, 4), win(9), 6)];
        assert_eq!(best_thread(results, 10).best, Some(quiet(3, 4)), "a win is taken");
        let results = vec![result((1, 2), win(9), 14), result((3, 4), win(7), 12)];
        assert_eq!(best_thread(results, 10).best, Some(quiet(3, 4)), "the faster win");
        let results = vec![result((1, 2), -win(7), 14), result((3, 4), -win(9), 12)];
        assert_eq!(best_thread(results, 10).best, Some(quiet(3, 4)), "the slower loss");
        // A lost helper never outvotes a main worker that is not lost.
        let results = vec![result((1, 2), -50, 10), result((3, 4), -win(9), 20)];
        assert_eq!(best_thread(results, 10).best, Some(quiet(1, 2)));
    }

    #[test]
    fn a_worker_without_a_move_never_plays() {
        let none = SearchResult { best: None, ..result((1, 2), 0, 20) };
        let r = best_thread(vec![result((1, 2), 0, 3), none.clone()], 0);
        assert_eq!(r.best, Some(quiet(1, 2)));
        let r = best_thread(vec![result((1, 2), 0, 3), none], 10);
        assert_eq!(r.best, Some(quiet(1, 2)));
    }

    #[test]
    fn a_node_another_worker_holds_is_busy_until_it_leaves() {
        let marks = Marks::new(2);
        let held = marks.enter(42, 0);
        assert!(!held.busy && held.held.is_some(), "the first worker holds the slot");
        let other = marks.enter(42, 1);
        assert!(other.busy && other.held.is_none(), "the second finds it busy");
        assert!(!marks.enter(42, 0).busy, "a worker is never busy with itself");
        // Another key in the same slot is not busy (and cannot take the slot).
        let same_slot = marks.enter(42 + MARK_SLOTS as u64, 1);
        assert!(!same_slot.busy && same_slot.held.is_none());
        // Another slot is free.
        assert!(marks.enter(43, 1).held.is_some());
        drop(held);
        let again = marks.enter(42, 1);
        assert!(!again.busy && again.held.is_some(), "freed when the holder leaves");
    }

    #[test]
    fn one_worker_marks_nothing() {
        let marks = Marks::new(1);
        let a = marks.enter(7, 0);
        let b = marks.enter(7, 1);
        assert!(a.held.is_none() && !b.busy);
    }
}
