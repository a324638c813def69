//! A bounded cache of database blocks read from disk, shared by the search threads.
//!
//! The big sets (6 pieces on 8x8: gigabytes) are not read into memory: a probe reads the one
//! block it needs from its file, and the blocks read stay here until the byte budget pushes
//! them out. Shards (each its own lock) keep the threads out of each other's way; inside a
//! shard, eviction is the CLOCK approximation of least-recently-used: a block used since the
//! hand last passed it is spared once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Shards of the cache at most (each its own lock).
const SHARDS: usize = 16;
/// Bytes per shard at least (a small cache has fewer shards, so that each holds some blocks).
const SHARD_BYTES: usize = 256 << 10;
/// Bytes charged per cached block beyond its data (the slot, the map entry, the allocation).
const OVERHEAD: usize = 64;

/// Blocks by key (a table's number and the block's number), within a byte budget.
pub struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    budget: usize,
    /// Each shard's part of the budget.
    share: usize,
}

#[derive(Default)]
struct Shard {
    map: HashMap<u64, usize>,
    /// The blocks, in the order the hand visits them; an evicted block leaves a hole that
    /// the next insertion fills (so a new block is the last the hand reaches).
    slots: Vec<Option<Slot>>,
    holes: Vec<usize>,
    hand: usize,
    bytes: usize,
}

struct Slot {
    key: u64,
    data: Arc<[u8]>,
    used: bool,
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlockCache {{ budget: {}, held: {} }}", self.budget, self.bytes())
    }
}

impl BlockCache {
    /// A cache that holds at most `bytes` bytes (data and bookkeeping).
    pub fn new(bytes: usize) -> BlockCache {
        let n = (bytes / SHARD_BYTES).clamp(1, SHARDS);
        let shards = (0..n).map(|_| Mutex::new(Shard::default())).collect();
        BlockCache { shards, budget: bytes, share: bytes / n }
    }

    /// The byte budget.
    pub fn budget(&self) -> usize {
        self.budget
    }

    fn shard(&self, key: u64) -> MutexGuard<'_, Shard> {
        let i = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize % self.shards.len();
        // A thread that panicked while holding the lock left a consistent shard (every
        // change below completes before the guard drops), so a poisoned lock is used as is.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The block of `key`, if cached (it is then marked used).
    pub fn get(&self, key: u64) -> Option<Arc<[u8]>> {
        let mut s = self.shard(key);
        let i = *s.map.get(&key)?;
        let slot = s.slots[i].as_mut()?;
        slot.used = true;
        Some(Arc::clone(&slot.data))
    }

    /// Caches the block of `key`, evicting blocks not used lately while the shard is over
    /// its share of the budget (a block larger than the share is not cached).
    pub fn insert(&self, key: u64, data: Arc<[u8]>) {
        let cost = data.len() + OVERHEAD;
        if cost > self.share {
            return;
        }
        let mut s = self.shard(key);
        if s.map.contains_key(&key) {
            return;
        }
        while s.bytes + cost > self.share && !s.map.is_empty() {
            s.evict_one();
        }
        let slot = Some(Slot { key, data, used: false });
        let i = match s.holes.pop() {
            Some(i) => {
                s.slots[i] = slot;
                i
            }
            None => {
                s.slots.push(slot);
                s.slots.len() - 1
            }
        };
        s.map.insert(key, i);
        s.bytes += cost;
    }

    /// Bytes held (data and overhead).
    pub fn bytes(&self) -> usize {
        self.shards.iter().map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).bytes).sum()
    }

    /// Blocks held.
    pub fn blocks(&self) -> usize {
        self.shards.iter().map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).map.len()).sum()
    }
}

impl Shard {
    /// Evicts the first block the hand finds unused since its last pass (there must be a
    /// block: the hand goes round at most twice).
    fn evict_one(&mut self) {
        loop {
            if self.hand >= self.slots.len() {
                self.hand = 0;
            }
            let at = self.hand;
            self.hand += 1;
            match &mut self.slots[at] {
                None => {}
                Some(slot) if slot.used => slot.used = false,
                Some(_) => {
                    if let Some(gone) = self.slots[at].take() {
                        self.map.remove(&gone.key);
                        self.bytes -= gone.data.len() + OVERHEAD;
                        self.holes.push(at);
                    }
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(n: usize, x: u8) -> Arc<[u8]> {
        vec![x; n].into()
    }

    #[test]
    fn the_cache_keeps_within_its_budget_and_returns_what_it_holds() {
        let cache = BlockCache::new(160 * (100 + OVERHEAD));
        for k in 0..10_000u64 {
            cache.insert(k, block(100, k as u8));
            assert!(cache.bytes() <= cache.budget(), "{} > {}", cache.bytes(), cache.budget());
        }
        assert_eq!(cache.blocks(), 160);
        for k in 9_990..10_000u64 {
            let b = cache.get(k).expect("the newest blocks are held");
            assert_eq!(b[0], k as u8);
        }
        assert!(cache.get(0).is_none(), "the oldest block was evicted");
    }

    #[test]
    fn a_block_used_since_the_hand_passed_survives_eviction() {
        // A small cache has one shard: room for three blocks.
        let cache = BlockCache::new(3 * (10 + OVERHEAD));
        for k in 0..3 {
            cache.insert(k, block(10, 1));
        }
        // The first block is used; the next two inserts must evict the other two.
        assert!(cache.get(0).is_some());
        cache.insert(3, block(10, 2));
        cache.insert(4, block(10, 2));
        assert!(cache.get(0).is_some(), "the used block was kept");
        assert!(cache.get(1).is_none() && cache.get(2).is_none());
        assert!(cache.get(3).is_some() && cache.get(4).is_some());
        // A block larger than the cache is not kept.
        cache.insert(5, block(1000, 3));
        assert!(cache.get(5).is_none() && cache.bytes() <= cache.budget());
    }

    #[test]
    fn a_big_cache_is_sharded_and_each_shard_keeps_its_share() {
        let cache = BlockCache::new(SHARDS * SHARD_BYTES);
        assert_eq!(cache.shards.len(), SHARDS);
        for k in 0..100_000u64 {
            cache.insert(k, block(4000, k as u8));
        }
        assert!(cache.bytes() <= cache.budget());
        assert!(cache.bytes() > cache.budget() * 3 / 4, "{cache:?}");
        assert_eq!(cache.get(99_999).map(|b| b[0]), Some(99_999u64 as u8));
    }
}
