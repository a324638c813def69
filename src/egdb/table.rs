//! One slice's values, compressed, in memory (as built) or in its file (as probed).
//!
//! Values are cut into blocks of [`BLOCK`] values, each compressed on its own: a header of
//! [`SUBS`] `u16` offsets, one per sub-block of [`SUB`] values, then each sub-block's values
//! run-length encoded (`varint code, varint run` pairs; runs never cross a sub-block). A probe
//! reads one block and decodes one sub-block of it.
//!
//! A table opened from its file ([`Table::open`]) keeps only its index in memory (12 bytes per
//! block): a probe reads the block it needs from the file into the rule set's
//! [`BlockCache`], where it stays until the cache's byte budget pushes it out, so that the big
//! sets (gigabytes) are probed without being read into memory. Each block has its own
//! checksum, checked when the block is read; a damaged block is a warning and the slice is
//! left out from then on.
//!
//! File layout (little-endian), version 2: `KDVOEGDB`, version `u32`, rule set id (`u8`
//! length and text), the slice's four counts, index size `u64`, block and sub-block sizes
//! (`u32` x 2), block count `u32`, counts of wins, draws and losses and the longest win and
//! loss (`u64` x 3, `u16` x 2), block offsets from the start of the blocks (`u64` x (blocks +
//! 1)), block checksums (`u32` x blocks), an FNV-1a checksum of everything before it (`u64`),
//! then the blocks.

use super::cache::BlockCache;
use super::index::Slice;
use super::value::{self, Value};
use crate::bail;
use crate::binfile::{Reader, fnv1a, put_varint};
use crate::error::{Error, Result};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Values per block (what one probe reads).
pub const BLOCK: u64 = 4096;
/// Values per sub-block (what one probe decodes).
pub const SUB: u64 = 256;
/// Sub-blocks per block.
pub const SUBS: usize = (BLOCK / SUB) as usize;
/// Magic bytes of a database file.
pub const MAGIC: &[u8; 8] = b"KDVOEGDB";
/// Version of the file format.
pub const VERSION: u32 = 2;
/// Files whose blocks together take at most this many bytes have every block checked when
/// they are opened (so that a damaged small set is found, and rebuilt, at once).
pub const CHECK_AT_OPEN: u64 = 16 << 20;
const WHAT: &str = "endgame database file";

/// Win, draw and loss counts of a slice (positions only) and its longest distances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win, in plies to the conversion.
    pub longest_win: u16,
    /// The longest loss, in plies to the conversion.
    pub longest_loss: u16,
}

impl Stats {
    /// Positions counted.
    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds `other`'s counts (and keeps the longer distances).
    pub fn add(&mut self, other: &Stats) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.longest_win = self.longest_win.max(other.longest_win);
        self.longest_loss = self.longest_loss.max(other.longest_loss);
    }
}

/// A slice's values, compressed.
#[derive(Debug)]
pub struct Table {
    slice: Slice,
    size: u64,
    stats: Stats,
    /// Where each block starts among the blocks' bytes, and where the last ends.
    offsets: Vec<u64>,
    sums: Vec<u32>,
    source: Source,
}

/// Where a table's blocks are.
#[derive(Debug)]
enum Source {
    Memory(Vec<u8>),
    File(OnDisk),
}

/// A table file opened for probing.
#[derive(Debug)]
struct OnDisk {
    file: File,
    path: PathBuf,
    /// The file offset of the first block.
    base: u64,
    /// This table's number in the cache's keys.
    number: u64,
    cache: Arc<BlockCache>,
    damaged: AtomicBool,
}

/// The checksum of one block.
fn block_sum(bytes: &[u8]) -> u32 {
    let h = fnv1a(bytes);
    (h ^ (h >> 32)) as u32
}

/// Appends the compressed form of one block's codes (at most [`BLOCK`]). Indices that are
/// not positions (a man of each side given the same square) are never probed: they take the
/// code before them (at a sub-block's start, the first code that is a position) so that the
/// runs are longer.
fn encode_block(codes: &[u16], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + 2 * SUBS, 0);
    let mut subs = codes.chunks(SUB as usize);
    let mut sub = Vec::with_capacity(SUB as usize);
    for k in 0..SUBS {
        let at = (out.len() - start) as u16;
        out[start + 2 * k..start + 2 * k + 2].copy_from_slice(&at.to_le_bytes());
        let Some(raw) = subs.next() else { continue };
        let mut fill = raw.iter().copied().find(|&c| c != value::INVALID).unwrap_or(value::INVALID);
        sub.clear();
        sub.extend(raw.iter().map(|&c| {
            if c != value::INVALID {
                fill = c;
            }
            fill
        }));
        let mut i = 0;
        while i < sub.len() {
            let c = sub[i];
            let run = sub[i..].iter().take_while(|&&x| x == c).count();
            put_varint(out, u64::from(c));
            put_varint(out, run as u64);
            i += run;
        }
    }
}

/// Where sub-block `k` of a compressed block starts and ends (`None`: not in the block).
#[inline]
fn sub_range(block: &[u8], k: usize) -> Option<(usize, usize)> {
    let offset = |k: usize| -> Option<usize> {
        let b = block.get(2 * k..2 * k + 2)?;
        Some(usize::from(u16::from_le_bytes([b[0], b[1]])))
    };
    let start = offset(k)?;
    let end = if k + 1 < SUBS { offset(k + 1)? } else { block.len() };
    Some((start, end.min(block.len())))
}

/// The code at position `within` of a compressed block; [`value::INVALID`] when the block
/// does not hold it.
#[inline]
fn decode(block: &[u8], within: u64) -> u16 {
    let mut left = within % SUB;
    for (c, run) in runs(block, (within / SUB) as usize) {
        if left < run {
            return c;
        }
        left -= run;
    }
    value::INVALID
}

/// Appends every code of a compressed block of `n` values, in order (what the block does
/// not hold is [`value::INVALID`]).
fn decode_all(block: &[u8], n: usize, out: &mut Vec<u16>) {
    for k in 0..n.div_ceil(SUB as usize) {
        let want = out.len() + (n - k * SUB as usize).min(SUB as usize);
        for (c, run) in runs(block, k) {
            if out.len() >= want {
                break;
            }
            out.extend(std::iter::repeat_n(c, (run as usize).min(want - out.len())));
        }
        out.resize(want, value::INVALID);
    }
}

/// The `(code, run)` pairs of sub-block `k` of a compressed block, in order (none when the
/// block's header does not hold the sub-block; a code too big is [`value::INVALID`]).
#[inline]
fn runs(block: &[u8], k: usize) -> impl Iterator<Item = (u16, u64)> + '_ {
    let (mut at, end) = sub_range(block, k).unwrap_or((0, 0));
    std::iter::from_fn(move || {
        (at < end).then(|| {
            let (c, n1) = read_varint(block, at);
            let (run, n2) = read_varint(block, at + n1);
            at += n1 + n2;
            (u16::try_from(c).unwrap_or(value::INVALID), run)
        })
    })
}

/// The fields of a file's header.
struct Header {
    stats: Stats,
    offsets: Vec<u64>,
    sums: Vec<u32>,
    /// Bytes of the header (the blocks start here).
    len: usize,
}

/// The fixed part of a header up to the block count (from `bytes`, which may hold only its
/// start): the block count and the statistics; the reader is left at the block offsets.
fn fixed_fields(r: &mut Reader<'_>, id: &str, slice: Slice, size: u64) -> Result<(usize, Stats)> {
    let n = r.u8()? as usize;
    let file_id = String::from_utf8_lossy(r.take(n)?).into_owned();
    if file_id != id {
        bail!("endgame database file is for {file_id}, not {id}");
    }
    let c = r.take(4)?;
    let file_slice = Slice::new(c[0], c[1], c[2], c[3]);
    if file_slice != slice {
        bail!("endgame database file holds slice {file_slice}, not {slice}");
    }
    let file_size = r.u64()?;
    if file_size != size {
        bail!("endgame database file has {file_size} indices; slice {slice} has {size}");
    }
    let (block, sub) = (r.u32()?, r.u32()?);
    if u64::from(block) != BLOCK || u64::from(sub) != SUB {
        bail!("endgame database block size {block}/{sub} is not supported");
    }
    let blocks = r.u32()? as usize;
    if blocks as u64 != size.div_ceil(BLOCK) {
        bail!("endgame database file has {blocks} blocks for {size} indices");
    }
    let stats = Stats {
        wins: r.u64()?,
        draws: r.u64()?,
        losses: r.u64()?,
        longest_win: r.u16()?,
        longest_loss: r.u16()?,
    };
    Ok((blocks, stats))
}

/// True when the file at `path` is a database file of an earlier format version (to be
/// rebuilt, quietly: not a damaged file).
pub fn outdated(path: &Path) -> bool {
    let mut head = [0u8; 12];
    let read = File::open(path).and_then(|f| read_at(&f, &mut head, 0));
    read.is_ok()
        && &head[..8] == MAGIC
        && u32::from_le_bytes([head[8], head[9], head[10], head[11]]) < VERSION
}

/// Checks the magic bytes and the version and returns a reader after them.
fn start(bytes: &[u8]) -> Result<Reader<'_>> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        bail!("not a kondavo endgame database file (it does not start with KDVOEGDB)");
    }
    let mut r = Reader::new(bytes, MAGIC.len(), WHAT);
    let version = r.u32()?;
    if version != VERSION {
        bail!(
            "endgame database version {version} is not supported (this engine reads \
             {VERSION}; rebuild it with `kondavo egdb build`)"
        );
    }
    Ok(r)
}

/// Reads and checks a whole header from `bytes` (which may go on past it).
fn header(bytes: &[u8], id: &str, slice: Slice, size: u64) -> Result<Header> {
    let mut r = start(bytes)?;
    let (blocks, stats) = fixed_fields(&mut r, id, slice, size)?;
    let mut offsets = Vec::with_capacity(blocks + 1);
    for _ in 0..=blocks {
        offsets.push(r.u64()?);
    }
    let mut sums = Vec::with_capacity(blocks);
    for _ in 0..blocks {
        sums.push(r.u32()?);
    }
    let body = r.at();
    let sum = r.u64()?;
    if sum != fnv1a(&bytes[..body]) {
        bail!("{WHAT} checksum mismatch: the file is truncated or corrupted");
    }
    let ordered = offsets.windows(2).all(|w| w[0] <= w[1] && w[1] - w[0] <= 1 << 20);
    if offsets.first() != Some(&0) || !ordered {
        bail!("endgame database file: block offsets are inconsistent");
    }
    Ok(Header { stats, offsets, sums, len: r.at() })
}

/// The number each opened table gets in the cache's keys.
static TABLES: AtomicU64 = AtomicU64::new(0);

impl Table {
    /// Compresses the value codes of a whole slice (see [`value`]).
    pub fn new(slice: Slice, codes: &[u16]) -> Table {
        let mut stats = Stats::default();
        let blocks = codes.len().div_ceil(BLOCK as usize);
        let mut offsets = Vec::with_capacity(blocks + 1);
        let mut sums = Vec::with_capacity(blocks);
        let mut data = Vec::new();
        for block in codes.chunks(BLOCK as usize) {
            let at = data.len();
            offsets.push(at as u64);
            encode_block(block, &mut data);
            sums.push(block_sum(&data[at..]));
        }
        offsets.push(data.len() as u64);
        for &c in codes {
            match value::decode(c) {
                Some(Value::Win(d)) => {
                    stats.wins += 1;
                    stats.longest_win = stats.longest_win.max(d);
                }
                Some(Value::Loss(d)) => {
                    stats.losses += 1;
                    stats.longest_loss = stats.longest_loss.max(d);
                }
                Some(Value::Draw) => stats.draws += 1,
                None => {}
            }
        }
        Table {
            slice,
            size: codes.len() as u64,
            stats,
            offsets,
            sums,
            source: Source::Memory(data),
        }
    }

    /// The slice.
    pub fn slice(&self) -> Slice {
        self.slice
    }

    /// Number of indices.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Win, draw and loss counts.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Bytes of compressed values and their index.
    pub fn compressed_bytes(&self) -> u64 {
        self.offsets.last().copied().unwrap_or(0) + 12 * self.offsets.len() as u64
    }

    /// True when the table's blocks are read from its file as probes need them.
    pub fn on_disk(&self) -> bool {
        matches!(self.source, Source::File(_))
    }

    /// The bytes of block `b`, checked (`None`: unreadable or damaged).
    fn block(&self, b: usize) -> Option<BlockBytes<'_>> {
        let (start, end) = (*self.offsets.get(b)?, *self.offsets.get(b + 1)?);
        match &self.source {
            Source::Memory(data) => data.get(start as usize..end as usize).map(BlockBytes::Memory),
            Source::File(f) => {
                if f.damaged.load(Ordering::Relaxed) {
                    return None;
                }
                let key = f.number << 32 | b as u64;
                if let Some(bytes) = f.cache.get(key) {
                    return Some(BlockBytes::Cached(bytes));
                }
                let bytes = self.read_block(f, b, start, end)?;
                f.cache.insert(key, Arc::clone(&bytes));
                Some(BlockBytes::Cached(bytes))
            }
        }
    }

    /// Reads and checks block `b` from the file (a failure is a warning, once per table,
    /// and leaves the table out from then on).
    fn read_block(&self, f: &OnDisk, b: usize, start: u64, end: u64) -> Option<Arc<[u8]>> {
        let mut buf = vec![0u8; (end - start) as usize];
        let problem = match read_at(&f.file, &mut buf, f.base + start) {
            Err(e) => Some(format!("cannot read block {b}: {e}")),
            Ok(()) if self.sums.get(b) != Some(&block_sum(&buf)) => {
                Some(format!("block {b} is corrupted (checksum mismatch)"))
            }
            Ok(()) => None,
        };
        if let Some(p) = problem {
            if !f.damaged.swap(true, Ordering::Relaxed) {
                log::warn!("endgame database {}: {p}; the slice is left out", f.path.display());
            }
            return None;
        }
        Some(buf.into())
    }

    /// The value code at `index` ([`value::INVALID`] past the end or when its block cannot
    /// be read; any code at an index that is not a position).
    #[inline]
    pub fn code(&self, index: u64) -> u16 {
        if index >= self.size {
            return value::INVALID;
        }
        match self.block((index / BLOCK) as usize) {
            Some(b) => decode(b.bytes(), index % BLOCK),
            None => value::INVALID,
        }
    }

    /// Every code in index order, block by block ([`value::INVALID`] for a block that cannot
    /// be read; any code at an index that is not a position). A table on disk is read
    /// straight from its file, not through the cache.
    pub fn codes(&self) -> impl Iterator<Item = u16> + '_ {
        let blocks = self.offsets.len().saturating_sub(1);
        let mut buf = Vec::with_capacity(BLOCK as usize);
        (0..blocks).flat_map(move |b| {
            buf.clear();
            let n = (self.size - b as u64 * BLOCK).min(BLOCK) as usize;
            let bytes = match &self.source {
                Source::Memory(_) => self.block(b),
                Source::File(f) => {
                    let (s, e) = (self.offsets[b], self.offsets[b + 1]);
                    self.read_block(f, b, s, e).map(BlockBytes::Cached)
                }
            };
            match bytes {
                Some(bytes) => decode_all(bytes.bytes(), n, &mut buf),
                None => buf.resize(n, value::INVALID),
            }
            std::mem::take(&mut buf)
        })
    }

    /// The value at `index` (which must be a position's), `None` when it cannot be read.
    #[inline]
    pub fn value(&self, index: u64) -> Option<Value> {
        value::decode(self.code(index))
    }

    /// The file bytes of this table for rule set `id` (an in-memory table; a table on disk
    /// is its file).
    pub fn to_bytes(&self, id: &str) -> Vec<u8> {
        let data: &[u8] = match &self.source {
            Source::Memory(d) => d,
            Source::File(_) => &[],
        };
        let mut out = Vec::with_capacity(data.len() + 12 * self.offsets.len() + 128);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(id.len() as u8);
        out.extend_from_slice(id.as_bytes());
        let s = self.slice;
        out.extend_from_slice(&[s.wm, s.wk, s.bm, s.bk]);
        out.extend_from_slice(&self.size.to_le_bytes());
        out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
        out.extend_from_slice(&(SUB as u32).to_le_bytes());
        out.extend_from_slice(&((self.offsets.len() - 1) as u32).to_le_bytes());
        for x in [self.stats.wins, self.stats.draws, self.stats.losses] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.stats.longest_win.to_le_bytes());
        out.extend_from_slice(&self.stats.longest_loss.to_le_bytes());
        for o in &self.offsets {
            out.extend_from_slice(&o.to_le_bytes());
        }
        for s in &self.sums {
            out.extend_from_slice(&s.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out.extend_from_slice(data);
        out
    }

    /// Reads a whole table file of rule set `id` and slice `slice` with `size` indices into
    /// memory, checking everything (every block's checksum too); the error names what is
    /// wrong.
    pub fn from_bytes(bytes: &[u8], id: &str, slice: Slice, size: u64) -> Result<Table> {
        let h = header(bytes, id, slice, size)?;
        let data = &bytes[h.len..];
        if h.offsets.last() != Some(&(data.len() as u64)) {
            bail!("{WHAT} is truncated or has bytes past its end");
        }
        check_blocks(&h, |s, e, buf| {
            buf.extend_from_slice(&data[s as usize..e as usize]);
            Ok(())
        })?;
        Ok(Table::of(slice, size, h, Source::Memory(data.to_vec())))
    }

    /// Opens a table file for probing through `cache`: only its header and index are read
    /// (and, for a file of at most [`CHECK_AT_OPEN`] bytes of blocks, every block is checked).
    pub fn open(
        path: &Path,
        id: &str,
        slice: Slice,
        size: u64,
        cache: &Arc<BlockCache>,
    ) -> Result<Table> {
        let file = File::open(path).map_err(|e| Error(format!("cannot read: {e}")))?;
        let len = file.metadata().map_err(|e| Error(format!("cannot read: {e}")))?.len();
        // The fixed fields first (at most 8 + 4 + 1 + 255 + 4 + 8 + 12 + 28 bytes), to learn
        // how long the whole header is.
        let mut head = vec![0u8; len.min(320) as usize];
        read_at(&file, &mut head, 0).map_err(|e| Error(format!("cannot read: {e}")))?;
        let mut r = start(&head)?;
        let (blocks, _) = fixed_fields(&mut r, id, slice, size)?;
        let header_len = r.at() as u64 + 12 * blocks as u64 + 16;
        if header_len > len {
            bail!("{WHAT} is truncated");
        }
        let mut head = vec![0u8; header_len as usize];
        read_at(&file, &mut head, 0).map_err(|e| Error(format!("cannot read: {e}")))?;
        let h = header(&head, id, slice, size)?;
        if h.offsets.last().map(|&d| d + h.len as u64) != Some(len) {
            bail!("{WHAT} is truncated or has bytes past its end");
        }
        if len - header_len <= CHECK_AT_OPEN {
            let base = h.len as u64;
            check_blocks(&h, |s, e, buf| {
                buf.resize((e - s) as usize, 0);
                read_at(&file, buf, base + s).map_err(|e| Error(format!("cannot read: {e}")))
            })?;
        }
        let disk = OnDisk {
            file,
            path: path.to_path_buf(),
            base: h.len as u64,
            number: TABLES.fetch_add(1, Ordering::Relaxed),
            cache: Arc::clone(cache),
            damaged: AtomicBool::new(false),
        };
        Ok(Table::of(slice, size, h, Source::File(disk)))
    }

    fn of(slice: Slice, size: u64, h: Header, source: Source) -> Table {
        Table { slice, size, stats: h.stats, offsets: h.offsets, sums: h.sums, source }
    }
}

/// Checks every block's checksum, the bytes of each block put into an empty buffer by
/// `read(start, end, buffer)`.
fn check_blocks(
    h: &Header,
    mut read: impl FnMut(u64, u64, &mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    let mut bytes = Vec::new();
    for (b, w) in h.offsets.windows(2).enumerate() {
        bytes.clear();
        read(w[0], w[1], &mut bytes)?;
        if h.sums.get(b) != Some(&block_sum(&bytes)) {
            bail!("{WHAT}: block {b} is corrupted (checksum mismatch)");
        }
    }
    Ok(())
}

/// A block's bytes: borrowed from an in-memory table or shared with the cache.
enum BlockBytes<'a> {
    Memory(&'a [u8]),
    Cached(Arc<[u8]>),
}

impl BlockBytes<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            BlockBytes::Memory(b) => b,
            BlockBytes::Cached(b) => b,
        }
    }
}

/// Fills `buf` from `file` at `offset` (without moving a shared cursor: the search threads
/// read one file at once).
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, offset)
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let mut done = 0;
        while done < buf.len() {
            match file.seek_read(&mut buf[done..], offset + done as u64)? {
                0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                n => done += n,
            }
        }
        Ok(())
    }
}

/// A varint at `at` (a well-formed table always has one there) and its length.
#[inline(always)]
fn read_varint(data: &[u8], at: usize) -> (u64, usize) {
    let mut v = 0u64;
    let mut k = 0;
    while let Some(&b) = data.get(at + k) {
        v |= u64::from(b & 0x7f) << (7 * k);
        k += 1;
        if b & 0x80 == 0 || k == 10 {
            break;
        }
    }
    (v, k.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes with long and short runs, over several blocks and a partial last one.
    fn codes(n: u32) -> Vec<u16> {
        (0..n).map(|i| if i % 5000 < 3000 { 0 } else { ((i * 7919) % 13) as u16 * 3 }).collect()
    }

    fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
        let path = std::env::temp_dir().join(format!(
            "kondavo-table-{}-{name}-{}.kdb",
            std::process::id(),
            bytes.len()
        ));
        std::fs::write(&path, bytes).expect("writes");
        path
    }

    #[test]
    fn table_round_trips_and_rejects_damage() {
        let codes = codes(20_000);
        let s = Slice::new(1, 0, 0, 2);
        let t = Table::new(s, &codes);
        for (i, &c) in codes.iter().enumerate() {
            assert_eq!(t.code(i as u64), c);
        }
        assert_eq!(t.code(20_000), value::INVALID);
        assert!(t.codes().eq(codes.iter().copied()));
        let bytes = t.to_bytes("russian");
        let back = Table::from_bytes(&bytes, "russian", s, 20_000).expect("reads back");
        assert_eq!(back.code(19_999), codes[19_999]);
        assert_eq!(back.stats(), t.stats());
        let e = Table::from_bytes(&bytes, "english", s, 20_000).expect_err("wrong rule set");
        assert!(e.to_string().contains("russian"), "{e}");
        let mut bad = bytes.clone();
        bad[60] ^= 1;
        let e = Table::from_bytes(&bad, "russian", s, 20_000).expect_err("corrupted header");
        assert!(e.to_string().contains("checksum"), "{e}");
        let mut bad = bytes.clone();
        let n = bad.len();
        bad[n - 10] ^= 1;
        let e = Table::from_bytes(&bad, "russian", s, 20_000).expect_err("corrupted block");
        assert!(e.to_string().contains("block 4"), "{e}");
        let e = Table::from_bytes(&bytes[..bytes.len() / 2], "russian", s, 20_000)
            .expect_err("truncated");
        assert!(e.to_string().contains("truncated"), "{e}");
        assert!(Table::from_bytes(&bytes, "russian", Slice::new(0, 1, 0, 2), 20_000).is_err());
        let mut old = bytes.clone();
        old[8..12].copy_from_slice(&1u32.to_le_bytes());
        let e = Table::from_bytes(&old, "russian", s, 20_000).expect_err("version 1");
        assert!(e.to_string().contains("version 1") && e.to_string().contains("rebuild"), "{e}");
    }

    #[test]
    fn indices_that_are_not_positions_join_the_runs_beside_them() {
        // Every other index is not a position: the runs go on through them.
        let codes: Vec<u16> = (0..8192u32)
            .map(|i| match (i % 2, i / 1000) {
                (1, _) => value::INVALID,
                (_, r) => r as u16 * 2,
            })
            .collect();
        let t = Table::new(Slice::new(2, 0, 2, 0), &codes);
        for (i, &c) in codes.iter().enumerate() {
            if c != value::INVALID {
                assert_eq!(t.code(i as u64), c, "index {i}");
            }
        }
        // 32 sub-blocks of at most two runs each (and the run across a value change).
        let data = t.compressed_bytes() - 12 * t.offsets.len() as u64;
        assert!(data <= 2 * 32 + 32 * 2 * 2 * 2 + 9 * 4, "{data} bytes");
        assert_eq!(t.stats().positions(), 4096);
    }

    #[test]
    fn a_table_on_disk_is_probed_block_by_block_through_a_bounded_cache() {
        let codes = codes(1_000_000);
        let s = Slice::new(0, 2, 0, 1);
        let bytes = Table::new(s, &codes).to_bytes("english");
        let path = temp_file("disk", &bytes);
        // Room for a third of the blocks: the probes below must evict.
        let cache = Arc::new(BlockCache::new(256 << 10));
        assert!(bytes.len() > 3 * (256 << 10), "{} bytes", bytes.len());
        let t = Table::open(&path, "english", s, 1_000_000, &cache).expect("opens");
        assert!(t.on_disk());
        for i in (0..1_000_000).step_by(997).chain((0..1_000_000).rev().step_by(889)) {
            assert_eq!(t.code(i as u64), codes[i], "index {i}");
        }
        assert!(cache.bytes() <= cache.budget(), "{} > {}", cache.bytes(), cache.budget());
        assert!(t.codes().eq(codes.iter().copied()));
        assert_eq!(t.stats(), Table::new(s, &codes).stats());
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_damaged_block_of_a_big_file_is_found_by_the_probe_that_reads_it() {
        // More bytes of blocks than are checked at open: random codes compress badly.
        let n = 12_000_000u32;
        let codes: Vec<u16> =
            (0..n).map(|i| (i.wrapping_mul(2_654_435_761) >> 27) as u16 & !1).collect();
        let s = Slice::new(1, 1, 1, 1);
        let mut bytes = Table::new(s, &codes).to_bytes("russian");
        assert!(bytes.len() as u64 > CHECK_AT_OPEN, "{} bytes", bytes.len());
        let n_bytes = bytes.len();
        bytes[n_bytes - 5] ^= 0x40;
        let path = temp_file("damaged", &bytes);
        let cache = Arc::new(BlockCache::new(1 << 20));
        let t = Table::open(&path, "russian", s, u64::from(n), &cache).expect("header is sound");
        assert_eq!(t.code(5), codes[5], "a sound block reads");
        assert_eq!(t.code(u64::from(n) - 1), value::INVALID, "the damaged block is not trusted");
        assert_eq!(t.code(5), value::INVALID, "the slice is left out from then on");
        let _ = std::fs::remove_file(&path);
        // A small file is checked whole when it is opened.
        let mut small = Table::new(s, &codes[..100_000]).to_bytes("russian");
        let n_small = small.len();
        small[n_small - 5] ^= 0x40;
        let path = temp_file("damaged-small", &small);
        let e = Table::open(&path, "russian", s, 100_000, &cache).expect_err("checked at open");
        assert!(e.to_string().contains("corrupted"), "{e}");
        let _ = std::fs::remove_file(&path);
    }
}
