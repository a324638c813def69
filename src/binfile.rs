//! Little-endian binary files with a checksum: the reader and writer helpers shared by the
//! weights files (`eval::model`) and the endgame databases (`egdb`).

use crate::bail;
use crate::error::Result;

/// Appends `v` as a LEB128 varint.
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Splits a file into its body and the FNV-1a checksum of its last 8 bytes, and checks
/// the checksum; `what` names the file in the error.
pub fn checked_body<'a>(bytes: &'a [u8], what: &str) -> Result<&'a [u8]> {
    if bytes.len() < 8 {
        bail!("{what} is truncated");
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let mut sum = [0u8; 8];
    sum.copy_from_slice(tail);
    if u64::from_le_bytes(sum) != fnv1a(body) {
        bail!("{what} checksum mismatch: the file is truncated or corrupted");
    }
    Ok(body)
}

/// Reads fields from a byte slice; every error names the file (`what`).
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` from offset `at`.
    pub fn new(bytes: &'a [u8], at: usize, what: &'static str) -> Reader<'a> {
        Reader { bytes, at, what }
    }

    /// The offset of the next byte.
    pub fn at(&self) -> usize {
        self.at
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.bytes.len() - self.at < n {
            bail!("{} is truncated", self.what);
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> Result<u16> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self) -> Result<u64> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }

    /// A LEB128 varint.
    pub fn varint(&mut self) -> Result<u64> {
        let mut v = 0u64;
        for k in 0..10 {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << (7 * k);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        bail!("{}: a length field is malformed", self.what)
    }
}
