//! Endgame databases: every position with few pieces solved exactly, per rule set.
//!
//! - [`index`]: slices (piece counts per side, side to move normalised to White) and the
//!   index of a position in its slice.
//! - [`value`]: win, draw or loss, with the distance in plies to the next conversion
//!   (capture or promotion).
//! - [`table`]: one slice's values, block-compressed, in memory (as built) and in its file
//!   (as probed: a probe reads one block).
//! - [`cache`]: the bounded cache of blocks read from the files, shared by the threads.
//! - [`build`]: the generator (retrograde analysis; an offline tool) and the verifier.
//! - [`Egdb`]: the databases of one rule set opened for probing at play time.
//!
//! Files live in `<dir>/<rule set>/<slice>.kdb`, the directory being `--dir`, the
//! `KONDAVO_EGDB` environment variable, or the user's cache directory
//! (`$XDG_CACHE_HOME/kondavo/egdb`, else `~/.cache/kondavo/egdb`).
//!
//! The small sets ([`small_pieces`]: 4 pieces on the 8x8 diagonal board, 3 on the 10x10 and
//! turkish boards) take seconds to build, so the engine builds them on first use
//! ([`ensure`]) instead of asking the user to; larger sets are built by `kondavo egdb build`.

pub mod build;
pub mod cache;
pub mod index;
pub mod table;
pub mod value;

pub use cache::BlockCache;
pub use index::Slice;
pub use table::{Stats, Table};
pub use value::Value;

use crate::error::{Error, Result};
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::{Base, Variant};
use index::{Indexer, normalise};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The default memory for the databases of one rule set, in MiB (the `egdb-cache` Hub
/// parameter): half for the files read whole, half for the block cache of the others.
pub const DEFAULT_CACHE_MIB: usize = 256;

/// The default database directory: `KONDAVO_EGDB`, else the user's cache directory.
pub fn default_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("KONDAVO_EGDB").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
    match cache {
        Some(c) => c.join("kondavo").join("egdb"),
        None => PathBuf::from("kondavo-egdb"),
    }
}

/// The directory of one rule set's files under `dir`.
pub fn variant_dir(dir: &Path, variant: Variant) -> PathBuf {
    dir.join(variant.name())
}

/// The file of one slice under `dir`.
pub fn file_path(dir: &Path, variant: Variant, slice: Slice) -> PathBuf {
    variant_dir(dir, variant).join(format!("{}.kdb", slice.name()))
}

/// True when the databases can be built for rule set `R`: the standard goal (no move
/// loses), and no rule the builder's unmove generator does not know (frisian orthogonal
/// captures and king-move counters).
pub fn supported<R: Rules>() -> bool {
    R::GOAL == crate::rules::Goal::Standard && !R::ORTHOGONAL_CAPTURE && R::KING_MOVE_LIMIT == 0
}

/// The largest sets the engine builds by itself on first use: every position with up to 4
/// pieces on the 8x8 diagonal board (about 5 s on 2 cores), 3 on the 10x10 board (under a
/// second) and on the turkish board (its 4-piece set takes minutes).
pub fn small_pieces(base: Base) -> u32 {
    match base {
        Base::International | Base::Turkish => 3,
        _ => 4,
    }
}

/// Builds every slice of rule set `R` with at most `pieces` pieces that is missing under
/// `dir` (a damaged file is rebuilt). One process builds at a time: the others wait on a lock
/// file in the rule set's directory (released by the system if the builder dies), then find
/// the files there. Returns the slices built.
pub fn ensure<R: Rules>(dir: &Path, pieces: u32) -> Result<usize> {
    if !supported::<R>() {
        crate::bail!("no endgame databases for {}", R::variant());
    }
    let vdir = variant_dir(dir, R::variant());
    std::fs::create_dir_all(&vdir)
        .map_err(|e| Error(format!("cannot create {}: {e}", vdir.display())))?;
    let lock_path = vdir.join(".build-lock");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| Error(format!("cannot open {}: {e}", lock_path.display())))?;
    lock.lock().map_err(|e| Error(format!("cannot lock {}: {e}", lock_path.display())))?;
    if Egdb::open::<R>(dir, pieces).egdb.pieces() >= pieces {
        return Ok(0);
    }
    let slices = build::Generator::<R>::slices_up_to(pieces);
    let mut built = 0;
    build::Generator::<R>::new(Some(dir.to_path_buf())).build(&slices, |b| {
        built += usize::from(!b.loaded);
    })?;
    Ok(built)
}

/// The databases of one rule set, opened for probing: each table's index is in memory and
/// its blocks are read from its file into a bounded cache as the probes need them.
#[derive(Debug)]
pub struct Egdb {
    tables: HashMap<Slice, (Indexer, Table)>,
    pieces: u32,
    cache: Arc<BlockCache>,
}

impl Default for Egdb {
    fn default() -> Egdb {
        Egdb::empty(DEFAULT_CACHE_MIB << 20)
    }
}

/// What [`Egdb::open`] found.
#[derive(Debug, Default)]
pub struct Opened {
    /// The databases.
    pub egdb: Egdb,
    /// Files that could not be read, with the reason (the engine plays on without them).
    pub problems: Vec<String>,
    /// Files of an earlier format version (left out; `kondavo egdb build` replaces them).
    pub outdated: Vec<PathBuf>,
}

impl Egdb {
    fn empty(cache_bytes: usize) -> Egdb {
        Egdb { tables: HashMap::new(), pieces: 0, cache: Arc::new(BlockCache::new(cache_bytes)) }
    }

    /// Opens every slice of rule set `R` with at most `max_pieces` pieces found under `dir`,
    /// with a block cache of [`DEFAULT_CACHE_MIB`].
    pub fn open<R: Rules>(dir: &Path, max_pieces: u32) -> Opened {
        Egdb::open_with_cache::<R>(dir, max_pieces, DEFAULT_CACHE_MIB << 20)
    }

    /// Opens every slice of rule set `R` with at most `max_pieces` pieces found under `dir`,
    /// in about `memory` bytes: the files are read whole, smallest slices first, while they
    /// fit in half of it; the others are probed from disk through a block cache of the
    /// other half (only their indices are read now). A damaged file is left out and named in
    /// [`Opened::problems`]. The databases probe a position only when every slice of its
    /// piece count is present.
    pub fn open_with_cache<R: Rules>(dir: &Path, max_pieces: u32, memory: usize) -> Opened {
        let mut whole = (memory / 2) as u64;
        let mut egdb = Egdb::empty(memory - memory / 2);
        let (mut problems, mut outdated) = (Vec::new(), Vec::new());
        let all = Slice::all_up_to(max_pieces, R::BASE.men_per_side());
        let id = R::variant().name();
        for &s in &all {
            let path = file_path(dir, R::variant(), s);
            let Ok(meta) = std::fs::metadata(&path) else { continue };
            let ix = Indexer::new::<R>(s);
            let table = if meta.len() <= whole {
                whole -= meta.len();
                std::fs::read(&path)
                    .map_err(|e| Error(format!("cannot read: {e}")))
                    .and_then(|bytes| Table::from_bytes(&bytes, &id, s, ix.size()))
            } else {
                Table::open(&path, &id, s, ix.size(), &egdb.cache)
            };
            match table {
                Ok(t) => {
                    egdb.tables.insert(s, (ix, t));
                }
                Err(_) if table::outdated(&path) => outdated.push(path),
                Err(e) => problems.push(format!("{}: {e}", path.display())),
            }
        }
        // The complete piece counts.
        egdb.pieces = (2..=max_pieces)
            .take_while(|&n| {
                all.iter().filter(|s| s.pieces() == n).all(|s| egdb.tables.contains_key(s))
            })
            .last()
            .unwrap_or(0);
        Opened { egdb, problems, outdated }
    }

    /// The largest piece count probed (every slice up to it is present); 0 when none.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The block cache.
    pub fn cache(&self) -> &BlockCache {
        &self.cache
    }

    /// The slices present.
    pub fn slices(&self) -> Vec<Slice> {
        let mut v: Vec<Slice> = self.tables.keys().copied().collect();
        v.sort_by_key(|s| (s.pieces(), s.men(), *s));
        v
    }

    /// The table of a slice, if present.
    pub fn table(&self, s: Slice) -> Option<&Table> {
        self.tables.get(&s).map(|(_, t)| t)
    }

    /// The value of `pos` for its side to move, when its slice is present.
    #[inline]
    pub fn probe<R: Rules>(&self, pos: &Position<R>) -> Option<Value> {
        let p = normalise(pos);
        let s = Slice::of(&p);
        if s.wm + s.wk == 0 {
            return Some(Value::Loss(0));
        }
        let (ix, t) = self.tables.get(&s)?;
        t.value(ix.index(&p)?)
    }
}
