//! Training data files: quiet positions of self-play games with the game's result and the
//! search score.
//!
//! Layout (little-endian): the magic `KDVODATA`, a `u32` version, the rule set's id (`u8`
//! length + bytes), the board shape code (`u8`), a description of how the file was made
//! (`u16` length + UTF-8: the command's settings, checked on resume), then 32-byte records to
//! the end of the file:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8, 8..16, 16..24 | White's pieces, Black's pieces, kings (the geometry's bit layout) |
//! | 24..28 | game number (`u32`) |
//! | 28..30 | search score for White in centi-men (`i16`, clamped to +-3000) |
//! | 30 | ply of the game (saturating at 255) |
//! | 31 | bit 0: Black to move; bits 1-2: White's result (0 loss, 1 draw, 2 win) |

use crate::bail;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::error::{Error, Result};
use crate::eval::model::{shape_code, shape_of};
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::Base;
use std::io::{Read, Write};
use std::path::Path;

/// Magic bytes of a data file.
pub const MAGIC: &[u8; 8] = b"KDVODATA";
/// Data format version.
pub const VERSION: u32 = 1;
/// Size of one record.
pub const RECORD: usize = 32;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// Kings of both sides.
    pub kings: u64,
    /// Game number in its file.
    pub game: u32,
    /// Search score for White (centi-men).
    pub score: i16,
    /// Ply of the game.
    pub ply: u8,
    /// Black to move.
    pub black_to_move: bool,
    /// White's result: 0 loss, 1 draw, 2 win.
    pub result: u8,
}

impl Record {
    /// A record of `pos`.
    pub fn of<R: Rules>(
        pos: &Position<R>,
        game: u32,
        ply: usize,
        score: i32,
        result: u8,
    ) -> Record {
        Record {
            white: pos.pieces(Color::White).0,
            black: pos.pieces(Color::Black).0,
            kings: pos.all_kings().0,
            game,
            score: score.clamp(-3000, 3000) as i16,
            ply: ply.min(255) as u8,
            black_to_move: pos.side() == Color::Black,
            result,
        }
    }

    /// The position, checked.
    pub fn position<R: Rules>(&self) -> Result<Position<R>> {
        let side = if self.black_to_move { Color::Black } else { Color::White };
        Position::new(Bitboard(self.white), Bitboard(self.black), Bitboard(self.kings), side)
    }

    /// White's result as a fraction: 0, 0.5 or 1.
    pub fn white_result(&self) -> f64 {
        f64::from(self.result) / 2.0
    }

    fn to_bytes(self) -> [u8; RECORD] {
        let mut b = [0u8; RECORD];
        b[0..8].copy_from_slice(&self.white.to_le_bytes());
        b[8..16].copy_from_slice(&self.black.to_le_bytes());
        b[16..24].copy_from_slice(&self.kings.to_le_bytes());
        b[24..28].copy_from_slice(&self.game.to_le_bytes());
        b[28..30].copy_from_slice(&self.score.to_le_bytes());
        b[30] = self.ply;
        b[31] = u8::from(self.black_to_move) | (self.result << 1);
        b
    }

    fn from_bytes(b: &[u8]) -> Result<Record> {
        let u64_at = |i: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(a)
        };
        let result = (b[31] >> 1) & 3;
        if result > 2 || b[31] >> 3 != 0 {
            bail!("bad record flags {:#x}", b[31]);
        }
        Ok(Record {
            white: u64_at(0),
            black: u64_at(8),
            kings: u64_at(16),
            game: u32::from_le_bytes([b[24], b[25], b[26], b[27]]),
            score: i16::from_le_bytes([b[28], b[29]]),
            ply: b[30],
            black_to_move: b[31] & 1 == 1,
            result,
        })
    }
}

/// The header of a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Rule set.
    pub base: Base,
    /// How the file was made.
    pub description: String,
}

impl Header {
    /// The header's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        let id = self.base.id().as_bytes();
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.push(shape_code(shape_of(self.base)));
        let d = self.description.as_bytes();
        let d = &d[..d.len().min(u16::MAX as usize)];
        out.extend_from_slice(&(d.len() as u16).to_le_bytes());
        out.extend_from_slice(d);
        out
    }

    /// Reads a header; returns it and its length in bytes.
    pub fn from_bytes(b: &[u8]) -> Result<(Header, usize)> {
        if b.len() < 14 || &b[..8] != MAGIC {
            bail!("not a kondavo data file (it does not start with KDVODATA)");
        }
        let version = u32::from_le_bytes([b[8], b[9], b[10], b[11]]);
        if version != VERSION {
            bail!("data file version {version} is not supported (this build reads {VERSION})");
        }
        let n = b[12] as usize;
        let mut at = 13;
        let id = b
            .get(at..at + n)
            .and_then(|s| std::str::from_utf8(s).ok())
            .ok_or_else(|| Error::new("data file header is truncated"))?;
        let base = Base::ALL
            .into_iter()
            .find(|x| x.id() == id)
            .ok_or_else(|| Error(format!("data file is for an unknown rule set \"{id}\"")))?;
        at += n;
        let shape = *b.get(at).ok_or_else(|| Error::new("data file header is truncated"))?;
        if shape != shape_code(shape_of(base)) {
            bail!("data file: the board shape does not match rule set {id}");
        }
        at += 1;
        let len = b
            .get(at..at + 2)
            .map(|s| u16::from_le_bytes([s[0], s[1]]) as usize)
            .ok_or_else(|| Error::new("data file header is truncated"))?;
        at += 2;
        let description = b
            .get(at..at + len)
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .ok_or_else(|| Error::new("data file header is truncated"))?;
        Ok((Header { base, description }, at + len))
    }
}

/// A data file read whole.
#[derive(Clone, Debug)]
pub struct DataFile {
    /// Its header.
    pub header: Header,
    /// Its records.
    pub records: Vec<Record>,
    /// Bytes after the last whole record (a write cut short).
    pub trailing: usize,
    /// Length of the header in bytes.
    pub header_len: usize,
}

/// Reads a data file. A record cut short at the end (an interrupted write) is reported in
/// `trailing`, not an error.
pub fn read(path: &Path) -> Result<DataFile> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
    let (header, at) =
        Header::from_bytes(&bytes).map_err(|e| Error(format!("{}: {e}", path.display())))?;
    let body = &bytes[at..];
    let records = body
        .chunks_exact(RECORD)
        .enumerate()
        .map(|(i, c)| {
            Record::from_bytes(c).map_err(|e| Error(format!("{}: record {i}: {e}", path.display())))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(DataFile { header, records, trailing: body.len() % RECORD, header_len: at })
}

/// Appends records to a writer.
pub fn write_records(out: &mut impl Write, records: &[Record]) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(records.len() * RECORD);
    for r in records {
        buf.extend_from_slice(&r.to_bytes());
    }
    out.write_all(&buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::International;

    #[test]
    fn records_round_trip() {
        let pos = Position::<International>::start();
        let r = Record::of(&pos, 7, 300, -5000, 2);
        assert_eq!(r.score, -3000);
        assert_eq!(r.ply, 255);
        let back = Record::from_bytes(&r.to_bytes()).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.position::<International>().unwrap(), pos);
    }

    proptest::proptest! {
        /// Arbitrary bytes, and a valid header and record with bytes changed, never panic the
        /// readers: they return a record or an error.
        #[test]
        fn readers_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..120),
                               at in 0usize..200, value in proptest::num::u8::ANY) {
            let _ = Header::from_bytes(&bytes);
            let mut good = Header { base: Base::Czech, description: "x".into() }.to_bytes();
            good.extend_from_slice(&Record::of(&Position::<International>::start(), 1, 2, 3, 1).to_bytes());
            let i = at % good.len();
            good[i] = value;
            if let Ok((_, len)) = Header::from_bytes(&good)
                && good.len() >= len + RECORD
            {
                let _ = Record::from_bytes(&good[len..len + RECORD]);
            }
        }
    }

    #[test]
    fn headers_round_trip_and_reject_garbage() {
        let h = Header { base: Base::Turkish, description: "seed=1".into() };
        let b = h.to_bytes();
        assert_eq!(Header::from_bytes(&b).unwrap(), (h, b.len()));
        assert!(Header::from_bytes(&b[..b.len() - 1]).is_err());
        assert!(Header::from_bytes(b"KDVOEVAL").is_err());
        let mut wrong = b.clone();
        wrong[8] = 9;
        assert!(Header::from_bytes(&wrong).unwrap_err().0.contains("version"));
    }
}
