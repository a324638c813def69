//! One slice's values, compressed: blocks of [`BLOCK`] values, each run-length encoded
//! (`varint value, varint run` pairs), with an offset per block so that a probe decodes one
//! block only. The same form serves in memory and on disk.
//!
//! File layout (little-endian): `KDVOEGDB`, version `u32`, rule set id (`u8` length and
//! text), the slice's four counts, index size `u64`, block size `u32`, block count `u32`,
//! counts of wins, draws and losses and the longest win and loss (`u64` x 3, `u16` x 2),
//! block offsets (`u64` x (blocks + 1)), the blocks, and an FNV-1a checksum of everything
//! before it (`u64`).

use super::index::Slice;
use super::value::{self, Value};
use crate::bail;
use crate::binfile::{Reader, checked_body, fnv1a, put_varint};
use crate::error::Result;

/// Values per block.
pub const BLOCK: u64 = 128;
/// Magic bytes of a database file.
pub const MAGIC: &[u8; 8] = b"KDVOEGDB";
/// Version of the file format.
pub const VERSION: u32 = 1;

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
#[derive(Clone, Debug)]
pub struct Table {
    slice: Slice,
    size: u64,
    stats: Stats,
    offsets: Vec<u64>,
    data: Vec<u8>,
}

impl Table {
    /// Compresses the value codes of a whole slice (see [`value`]).
    pub fn new(slice: Slice, codes: &[u16]) -> Table {
        let mut stats = Stats::default();
        let mut offsets = Vec::with_capacity(codes.len() / BLOCK as usize + 2);
        let mut data = Vec::new();
        for block in codes.chunks(BLOCK as usize) {
            offsets.push(data.len() as u64);
            let mut i = 0;
            while i < block.len() {
                let c = block[i];
                let run = block[i..].iter().take_while(|&&x| x == c).count();
                put_varint(&mut data, u64::from(c));
                put_varint(&mut data, run as u64);
                i += run;
            }
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
        Table { slice, size: codes.len() as u64, stats, offsets, data }
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

    /// Bytes of compressed values.
    pub fn compressed_bytes(&self) -> u64 {
        self.data.len() as u64 + 8 * self.offsets.len() as u64
    }

    /// The value code at `index` (which must be below [`size`](Self::size)).
    #[inline]
    pub fn code(&self, index: u64) -> u16 {
        let block = (index / BLOCK) as usize;
        let mut left = index % BLOCK;
        let (start, end) = (self.offsets[block] as usize, self.offsets[block + 1] as usize);
        let mut at = start;
        while at < end {
            let (c, n1) = read_varint(&self.data, at);
            let (run, n2) = read_varint(&self.data, at + n1);
            if left < run {
                return c as u16;
            }
            left -= run;
            at += n1 + n2;
        }
        value::INVALID
    }

    /// Every code in index order (decoded in one sweep).
    pub fn codes(&self) -> impl Iterator<Item = u16> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            if at >= self.data.len() {
                return None;
            }
            let (c, n1) = read_varint(&self.data, at);
            let (run, n2) = read_varint(&self.data, at + n1);
            at += n1 + n2;
            Some(std::iter::repeat_n(c as u16, run as usize))
        })
        .flatten()
    }

    /// The value at `index`, `None` when the index is not a position.
    #[inline]
    pub fn value(&self, index: u64) -> Option<Value> {
        value::decode(self.code(index))
    }

    /// The file bytes of this table for rule set `id`.
    pub fn to_bytes(&self, id: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.data.len() + 8 * self.offsets.len() + 128);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(id.len() as u8);
        out.extend_from_slice(id.as_bytes());
        let s = self.slice;
        out.extend_from_slice(&[s.wm, s.wk, s.bm, s.bk]);
        out.extend_from_slice(&self.size.to_le_bytes());
        out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
        out.extend_from_slice(&((self.offsets.len() - 1) as u32).to_le_bytes());
        for x in [self.stats.wins, self.stats.draws, self.stats.losses] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.stats.longest_win.to_le_bytes());
        out.extend_from_slice(&self.stats.longest_loss.to_le_bytes());
        for o in &self.offsets {
            out.extend_from_slice(&o.to_le_bytes());
        }
        out.extend_from_slice(&self.data);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a table file of rule set `id` and slice `slice` with `size` indices, checking
    /// everything; the error names what is wrong.
    pub fn from_bytes(bytes: &[u8], id: &str, slice: Slice, size: u64) -> Result<Table> {
        const WHAT: &str = "endgame database file";
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            bail!("not a kondavo endgame database file (it does not start with KDVOEGDB)");
        }
        let mut r = Reader::new(bytes, MAGIC.len(), WHAT);
        let version = r.u32()?;
        if version != VERSION {
            bail!(
                "endgame database version {version} is not supported (this engine reads {VERSION})"
            );
        }
        let body = checked_body(bytes, WHAT)?;
        let mut r = Reader::new(body, r.at(), WHAT);
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
        let block = r.u32()?;
        if u64::from(block) != BLOCK {
            bail!("endgame database block size {block} is not supported");
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
        let mut offsets = Vec::with_capacity(blocks + 1);
        for _ in 0..=blocks {
            offsets.push(r.u64()?);
        }
        let data = body[r.at()..].to_vec();
        let ordered = offsets.windows(2).all(|w| w[0] <= w[1]);
        if offsets.first() != Some(&0) || offsets.last() != Some(&(data.len() as u64)) || !ordered {
            bail!("endgame database file: block offsets are inconsistent");
        }
        Ok(Table { slice, size, stats, offsets, data })
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

    #[test]
    fn table_round_trips_and_rejects_damage() {
        let codes: Vec<u16> = (0..2000u32).map(|i| ((i / 7) % 5) as u16 * 3).collect();
        let s = Slice::new(1, 0, 0, 2);
        let t = Table::new(s, &codes);
        for (i, &c) in codes.iter().enumerate() {
            assert_eq!(t.code(i as u64), c);
        }
        let bytes = t.to_bytes("russian");
        let back = Table::from_bytes(&bytes, "russian", s, 2000).expect("reads back");
        assert_eq!(back.code(1999), codes[1999]);
        assert_eq!(back.stats(), t.stats());
        let e = Table::from_bytes(&bytes, "english", s, 2000).expect_err("wrong rule set");
        assert!(e.to_string().contains("russian"), "{e}");
        let mut bad = bytes.clone();
        bad[60] ^= 1;
        let e = Table::from_bytes(&bad, "russian", s, 2000).expect_err("corrupted");
        assert!(e.to_string().contains("checksum"), "{e}");
        let e = Table::from_bytes(&bytes[..bytes.len() / 2], "russian", s, 2000)
            .expect_err("truncated");
        assert!(e.to_string().contains("checksum") || e.to_string().contains("truncated"));
        assert!(Table::from_bytes(&bytes, "russian", Slice::new(0, 1, 0, 2), 2000).is_err());
    }
}
