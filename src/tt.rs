//! The transposition table: shared by every search thread, lock-free and free of data races.
//!
//! Each entry is two `AtomicU64`s (16 bytes): the data word and `key ^ data`. A reader that
//! sees a torn entry (one word from one writer, the other from another) computes the wrong
//! key and treats it as a miss, so no lock is needed (Hyatt's lockless hashing). Four entries
//! make a 64-byte bucket. Replacement prefers the same position, then the entry that is
//! oldest (from an earlier search) and shallowest.
//!
//! Data word: score `0..16` (i16), depth `16..24`, bound `24..26`, age `26..32`, move index
//! `32..40`, from `40..46`, to `46..52`, has-move bit `52`.

use crate::score::Score;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at most this (all moves failed low).
    Upper,
    /// The true score is at least this (a move failed high).
    Lower,
    /// The true score.
    Exact,
}

/// A move as the table stores it: its index in the position's generated move list, checked
/// against its from and to squares before use (so a key collision can never play an illegal
/// move).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TtMove {
    /// Index in the move list of the position.
    pub index: u8,
    /// Bit of the starting square.
    pub from: u8,
    /// Bit of the final square.
    pub to: u8,
}

/// A table hit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The best or refutation move, if one was found.
    pub mv: Option<TtMove>,
    /// The score, in hash-table form (see [`Score::to_tt`]).
    pub score: Score,
    /// The remaining depth it was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

const BUCKET: usize = 4;
/// Entries are 16 bytes; tests check the layout.
pub const ENTRY_BYTES: usize = 16;

/// Four entries (eight words) on one 64-byte cache line: a probe costs one memory access.
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * BUCKET]);

/// The shared table.
pub struct Table {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

fn pack(e: &Entry, age: u8) -> u64 {
    let bound = match e.bound {
        Bound::Upper => 1u64,
        Bound::Lower => 2,
        Bound::Exact => 3,
    };
    let mut d = u64::from(e.score.0.clamp(-32_000, 32_000) as i16 as u16)
        | (e.depth.clamp(0, 255) as u64) << 16
        | bound << 24
        | u64::from(age & 63) << 26;
    if let Some(m) = e.mv {
        d |= u64::from(m.index) << 32
            | u64::from(m.from & 63) << 40
            | u64::from(m.to & 63) << 46
            | 1 << 52;
    }
    d
}

fn unpack(d: u64) -> Option<(Entry, u8)> {
    let bound = match (d >> 24) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = (d >> 52 & 1 == 1).then_some(TtMove {
        index: (d >> 32) as u8,
        from: (d >> 40 & 63) as u8,
        to: (d >> 46 & 63) as u8,
    });
    let entry = Entry {
        mv,
        score: Score(i32::from(d as u16 as i16)),
        depth: (d >> 16 & 255) as i32,
        bound,
    };
    Some((entry, (d >> 26 & 63) as u8))
}

/// Starts loading the cache line of `item` (a hint: nothing waits for it).
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is only a hint to the cache; it reads no memory that the
        // program can observe and cannot fault, and the address is a live reference's.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

impl Table {
    /// A table of `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Table {
        Table::try_new(mib).unwrap_or_else(|_| Table::try_new(1).expect("1 MiB"))
    }

    /// A table of `mib` MiB, or an error when the memory cannot be had.
    pub fn try_new(mib: usize) -> Result<Table, String> {
        let bytes = mib.saturating_mul(1 << 20);
        let n = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate a {mib} MiB hash table"))?;
        advise_huge_pages(buckets.as_ptr().cast(), n * std::mem::size_of::<Bucket>());
        buckets.extend(
            std::iter::repeat_with(|| Bucket(std::array::from_fn(|_| AtomicU64::new(0)))).take(n),
        );
        Ok(Table { buckets, age: AtomicU8::new(0) })
    }

    /// Size in MiB.
    pub fn mib(&self) -> usize {
        (self.buckets.len() * BUCKET * ENTRY_BYTES) >> 20
    }

    /// Empties the table (a new game).
    pub fn clear(&self) {
        use rayon::prelude::*;
        self.buckets
            .par_iter()
            .for_each(|b| b.0.iter().for_each(|w| w.store(0, Ordering::Relaxed)));
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of earlier searches become the first to be replaced.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store(a.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[AtomicU64; 2 * BUCKET] {
        let i = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i].0
    }

    /// Starts loading the bucket of `key` into the cache: called as soon as a child
    /// position's key is known, the probe at the child's node then finds its line there
    /// instead of waiting on main memory (the probe was a fifth of the search's time).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let words = self.bucket(key);
        for i in 0..BUCKET {
            let data = words[2 * i].load(Ordering::Relaxed);
            let check = words[2 * i + 1].load(Ordering::Relaxed);
            if check ^ data == key {
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores `entry` for `key`.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let words = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..BUCKET {
            let data = words[2 * i].load(Ordering::Relaxed);
            let check = words[2 * i + 1].load(Ordering::Relaxed);
            let Some((old, old_age)) = unpack(data) else {
                // An empty slot: take it.
                victim = i;
                break;
            };
            if check ^ data == key {
                // The same position: keep a deeper result of this search unless the new one
                // is exact, and keep the old move if the new result has none.
                if old_age == age && old.depth > entry.depth + 2 && entry.bound != Bound::Exact {
                    return;
                }
                let mut e = entry;
                if e.mv.is_none() {
                    e.mv = old.mv;
                }
                Self::write(words, 2 * i, key, pack(&e, age));
                return;
            }
            let stale = i32::from(age.wrapping_sub(old_age) & 63);
            let worth = old.depth - 8 * stale;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        Self::write(words, 2 * victim, key, pack(&entry, age));
    }

    #[inline(always)]
    fn write(words: &[AtomicU64; 2 * BUCKET], at: usize, key: u64, data: u64) {
        words[at].store(data, Ordering::Relaxed);
        words[at + 1].store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = (1000 / BUCKET).min(self.buckets.len()) * BUCKET;
        let used = (0..sample)
            .filter(|&i| {
                let d = self.buckets[i / BUCKET].0[2 * (i % BUCKET)].load(Ordering::Relaxed);
                unpack(d).is_some_and(|(_, a)| a == age)
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Asks the kernel to back `len` bytes at `ptr` (not yet touched) with transparent huge
/// pages: a table of many megabytes probed at random otherwise misses the TLB on nearly
/// every probe. Only a hint; where it is refused or unknown nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *const u8, len: usize) {
    const PAGE: usize = 4096;
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + len) / PAGE * PAGE;
    if end > start {
        // SAFETY: madvise only reads the address range, which lies inside the allocation
        // reserved by the caller (rounded inwards to whole pages); MADV_HUGEPAGE changes no
        // memory contents and its failure is harmless.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *const u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: i32, depth: i32, index: u8) -> Entry {
        Entry {
            mv: Some(TtMove { index, from: 33, to: 28 }),
            score: Score(score),
            depth,
            bound: Bound::Lower,
        }
    }

    #[test]
    fn entries_are_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<AtomicU64>() * 2, ENTRY_BYTES);
        let t = Table::new(1);
        assert_eq!(t.mib(), 1);
        assert_eq!(t.buckets.len() * std::mem::size_of::<Bucket>(), 1 << 20);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(t.buckets.as_ptr() as usize % 64, 0, "buckets sit on cache lines");
    }

    #[test]
    fn store_then_probe_returns_the_entry() {
        let t = Table::new(1);
        let e = entry(-1234, 17, 5);
        t.store(0xDEAD_BEEF_1234_5678, e);
        assert_eq!(t.probe(0xDEAD_BEEF_1234_5678), Some(e));
        assert_eq!(t.probe(0xDEAD_BEEF_1234_5679), None);
        let win = Entry { score: Score::win_in(9).to_tt(4), ..e };
        t.store(42, win);
        assert_eq!(t.probe(42).map(|x| x.score.from_tt(4)), Some(Score::win_in(9)));
    }

    #[test]
    fn concurrent_hammering_never_returns_a_corrupted_entry() {
        // Every writer stores entries whose fields are all derived from the key, so a reader
        // can tell a corrupted (torn) entry from a real one.
        let t = Table::new(1);
        let fields = |k: u64| entry((k % 20_000) as i32 - 10_000, (k % 97) as i32, (k % 251) as u8);
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    let mut x = thread.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = x % 5_000; // few keys: many collisions and overwrites
                        let key = key.wrapping_mul(0x2545_F491_4F6C_DD1D);
                        if x & 1 == 0 {
                            t.store(key, fields(key));
                        } else if let Some(e) = t.probe(key) {
                            assert_eq!(e, fields(key), "torn entry for {key:x}");
                        }
                    }
                });
            }
        });
    }
}
