//! Lazy SMP's help for the workers to spread over the tree.
//!
//! The workers of a search share the hash table and otherwise search alone. Two things keep
//! them from searching the same lines in step: a helper's iterations may aim past the main
//! worker's depth (`smp_ahead`, in the worker), and the [`Marks`] here: a worker that enters a
//! node near the root that another worker is searching reduces its late moves more
//! (`smp_marks`).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

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
