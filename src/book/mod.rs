//! Opening books: positions with the value a search gave them, built by kondavo itself
//! ([`build`], offline) and probed when a move is to be played.
//!
//! A book is a set of positions keyed by their Zobrist key, each with its value for the side
//! to move (centi-men, negamax of its children where it was expanded) and whether it was
//! expanded: every legal move of an expanded position leads to a position in the book. A
//! probe therefore generates the legal moves and looks their children up, so it can only
//! ever propose legal moves, and transpositions come for free.
//!
//! The file (`.kdb`): the magic `KDVBOOK1`, a format version, the rule set's name, the key of
//! its start position (the hash scheme the book was made with), a text line of build
//! settings, the records sorted by key (key `u64`, value `i16`, flags `u8`), and an FNV-1a
//! checksum of everything before it. Books are embedded in the binary for the rule sets in
//! [`builtin`]; `book-file` (Hub) and `--book` (command line) load another one.

pub mod build;

use crate::bail;
use crate::binfile::{Reader, checked_body, fnv1a};
use crate::error::Result;
use crate::level;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::score::Score;
use crate::variant::{Base, Variant};
use std::path::Path;
use std::sync::Arc;

const MAGIC: &[u8; 8] = b"KDVBOOK1";
const VERSION: u16 = 1;
/// Bit of [`Record::flags`]: every legal move of the position leads into the book.
pub(crate) const EXPANDED: u8 = 1;

/// The default `book-margin` of `base`: how far below the best book move (centi-men) a move
/// may be chosen, so that games vary (at least 30 different openings after 6 plies in 100
/// games from the start) while staying within a tenth of a man or so. Russian, brazilian and
/// ukrainian books offer fewer near-equal moves on deep lines in the first plies (100 games
/// gave 29, 23 and 26 openings at 10; 47, 41 and 36 at 15), so their margin is 15.
/// Antidraughts values swing more (its hand-set evaluation rewards giving men away), so its
/// margin is wider.
pub fn default_margin(base: Base) -> i32 {
    match base {
        Base::Antidraughts => 200,
        Base::Russian | Base::Brazilian | Base::Ukrainian => 15,
        _ => 10,
    }
}

/// Plies from the start position over which `book-margin` shrinks to nothing: the book
/// varies its first moves, where games are long and the choices nearly equal, and plays its
/// best move from this ply on (and in a game whose moves from the start are not known).
pub const VARIETY_PLIES: usize = 6;

/// The margin the book chooses within at `ply` plies from the start position (`None`: the
/// game started elsewhere): `margin` at the start, shrinking linearly to 0 at
/// [`VARIETY_PLIES`].
pub fn margin_at(margin: i32, ply: Option<usize>) -> i32 {
    match ply {
        Some(p) if p < VARIETY_PLIES => {
            let left = (VARIETY_PLIES - p) as i32;
            (margin * left + VARIETY_PLIES as i32 - 1) / VARIETY_PLIES as i32
        }
        _ => 0,
    }
}

/// Plies of book a move needs under it to be played outside the variety plies (see
/// [`Book::choose`] and [`min_line_at`]): the move itself and the book's best line after it,
/// through expanded positions. At the book's edge a value is one search of the build's node
/// budget, no better than the engine's own search at a playing clock (the english book
/// played to its edge lost 19 Elo against no book); four plies of backed-up values are.
pub const MIN_LINE: usize = 4;

/// Plies from the start position in which the book plays any of its moves within the
/// margin, however short its line: a three-move ballot's worth. From here on a move needs
/// [`MIN_LINE`] plies of book, in the rest of the variety plies too. A game from a three-ply
/// ballot (the built-in openings of international and others) is varied by its ballot; with
/// no line rule there the book drew plies 4-6 within 5 to 2 centi-men on lines of 2-3 plies
/// and cost 14 Elo in international (400 games at 4+0.04).
pub const FREE_PLIES: usize = 3;

/// The book line a move needs at `ply` plies from the start position (`None`: the game
/// started elsewhere): none in the first [`FREE_PLIES`], [`MIN_LINE`] after them.
pub fn min_line_at(ply: Option<usize>) -> usize {
    match ply {
        Some(p) if p < FREE_PLIES => 0,
        _ => MIN_LINE,
    }
}

/// Largest accepted `book-margin`, in centi-men.
pub const MAX_MARGIN: i32 = 1_000;

/// One position of a book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Zobrist key of the position.
    pub key: u64,
    /// Value for the side to move, centi-men.
    pub value: i16,
    /// [`EXPANDED`] and future bits.
    pub flags: u8,
}

impl Record {
    /// True when every legal move of the position leads into the book.
    pub fn expanded(&self) -> bool {
        self.flags & EXPANDED != 0
    }
}

/// A move the book knows, with its value for the side playing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Value of the move for the side to move (the negated value of the position after it).
    pub value: i32,
}

/// An opening book of one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    variant: Variant,
    /// How it was built (free text: command settings).
    settings: String,
    /// Sorted by key, keys unique.
    records: Vec<Record>,
}

impl Book {
    /// A book of `variant` from records (sorted here; a repeated key keeps its first record).
    pub fn new(variant: Variant, settings: String, mut records: Vec<Record>) -> Book {
        records.sort_by_key(|r| r.key);
        records.dedup_by_key(|r| r.key);
        Book { variant, settings, records }
    }

    /// The rule set it was built for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The build settings recorded in the file.
    pub fn settings(&self) -> &str {
        &self.settings
    }

    /// Every position, sorted by key.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The record of the position with key `key`.
    pub fn get(&self, key: u64) -> Option<&Record> {
        self.records.binary_search_by_key(&key, |r| r.key).ok().map(|i| &self.records[i])
    }

    /// The book's moves in `pos`, best first (empty when the position was not expanded).
    pub fn moves<R: Rules>(&self, pos: &Position<R>) -> Vec<BookMove> {
        if !self.get(pos.key()).is_some_and(Record::expanded) {
            return Vec::new();
        }
        let mut out: Vec<BookMove> = pos
            .legal_moves()
            .iter()
            .filter_map(|&mv| {
                let child = pos.after(mv);
                self.get(child.key()).map(|r| BookMove { mv, value: -i32::from(r.value) })
            })
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.value));
        out
    }

    /// How many plies the book's best line from `pos` runs through expanded positions, up to
    /// `max` (0: `pos` was not expanded). A value backed up through a deep line is worth more
    /// than one search; at the edge of the book a value is a single search of the build's
    /// node budget, shallower than the engine's own search at a playing clock.
    pub fn line_depth<R: Rules>(&self, pos: &Position<R>, max: usize) -> usize {
        let mut pos = *pos;
        for depth in 0..max {
            match self.moves(&pos).first() {
                Some(best) => pos = pos.after(best.mv),
                None => return depth,
            }
        }
        max
    }

    /// The moves the book may play in `pos`, best first: those within `margin` centi-men of
    /// the best (margin 0: the best one) whose value the book backed up through a line of at
    /// least `min_line` plies (the move and the book's best line after it; 0 or 1: every book
    /// move). Empty when the best move's line is shorter: the engine then searches.
    pub fn playable<R: Rules>(
        &self,
        pos: &Position<R>,
        margin: i32,
        min_line: usize,
    ) -> Vec<BookMove> {
        let need = min_line.saturating_sub(1);
        let deep = |m: &BookMove| self.line_depth(&pos.after(m.mv), need) >= need;
        let moves = self.moves(pos);
        let Some(&best) = moves.first() else { return moves };
        if !deep(&best) {
            return Vec::new();
        }
        let within = if margin > 0 { moves.len() } else { 1 };
        moves
            .into_iter()
            .take(within)
            .filter(|m| best.value - m.value <= margin && deep(m))
            .collect()
    }

    /// The move to play in `pos`: one of [`Book::playable`]'s moves, weighted towards the
    /// better ones, drawn reproducibly from `seed`.
    pub fn choose<R: Rules>(
        &self,
        pos: &Position<R>,
        margin: i32,
        min_line: usize,
        seed: u64,
    ) -> Option<BookMove> {
        let moves = self.playable(pos, margin, min_line);
        let scores: Vec<Score> = moves.iter().map(|m| Score(m.value)).collect();
        (!moves.is_empty()).then(|| moves[level::choose(&scores, margin, seed)])
    }

    /// Plies from the start position of a game that started at `start` and has `moves` moves
    /// (`None` when it started elsewhere): what [`margin_at`] and [`min_line_at`] take.
    pub fn ply<R: Rules>(start: &Position<R>, moves: usize) -> Option<usize> {
        (*start == Position::<R>::start()).then_some(moves)
    }

    /// The book as file bytes.
    pub fn to_bytes<R: Rules>(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.records.len() * 11);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        put_text(&mut out, self.variant.name().as_bytes());
        out.extend_from_slice(&Position::<R>::start().key().to_le_bytes());
        put_text(&mut out, self.settings.as_bytes());
        out.extend_from_slice(&(self.records.len() as u64).to_le_bytes());
        for r in &self.records {
            out.extend_from_slice(&r.key.to_le_bytes());
            out.extend_from_slice(&r.value.to_le_bytes());
            out.push(r.flags);
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A book from file bytes, checked: checksum, format, rule set `R` and its hash scheme,
    /// sorted unique keys.
    pub fn from_bytes<R: Rules>(bytes: &[u8]) -> Result<Book> {
        let body = checked_body(bytes, "opening book")?;
        let mut r = Reader::new(body, 0, "opening book");
        if r.take(8)? != MAGIC {
            bail!("not a kondavo opening book");
        }
        let version = r.u16()?;
        if version != VERSION {
            bail!("opening book format {version} is not supported (this kondavo reads {VERSION})");
        }
        let name = text(&mut r)?;
        let variant = R::variant();
        if name != variant.name() {
            bail!("the opening book is for {name}, not {}", variant.name());
        }
        if r.u64()? != Position::<R>::start().key() {
            bail!("the opening book was made with another hash scheme; rebuild it");
        }
        let settings = text(&mut r)?;
        let n = r.u64()?;
        if n > (body.len() as u64) / 11 {
            bail!("opening book is truncated");
        }
        let mut records = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let key = r.u64()?;
            let value = r.u16()? as i16;
            let flags = r.u8()?;
            if records.last().is_some_and(|p: &Record| p.key >= key) {
                bail!("opening book records are out of order");
            }
            records.push(Record { key, value, flags });
        }
        if r.at() != body.len() {
            bail!("opening book has trailing bytes");
        }
        Ok(Book { variant, settings, records })
    }

    /// Reads and checks a book file of rule set `R`.
    pub fn load<R: Rules>(path: &Path) -> Result<Book> {
        let bytes = std::fs::read(path)
            .map_err(|e| crate::error::Error(format!("{}: {e}", path.display())))?;
        Book::from_bytes::<R>(&bytes)
            .map_err(|e| crate::error::Error(format!("{}: {e}", path.display())))
    }

    /// Writes the book to `path` (through a temporary file, so that a reader never sees half
    /// a book).
    pub fn save<R: Rules>(&self, path: &Path) -> Result<()> {
        let tmp = path.with_extension("kdb.tmp");
        let io = |e: std::io::Error| crate::error::Error(format!("{}: {e}", path.display()));
        std::fs::write(&tmp, self.to_bytes::<R>()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

fn put_text(out: &mut Vec<u8>, s: &[u8]) {
    crate::binfile::put_varint(out, s.len() as u64);
    out.extend_from_slice(s);
}

fn text(r: &mut Reader<'_>) -> Result<String> {
    let n = r.varint()?;
    if n > 4096 {
        bail!("opening book header is malformed");
    }
    let bytes = r.take(n as usize)?;
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(_) => bail!("opening book header is malformed"),
    }
}

/// The book built into the binary for `variant` (`None` for rule sets without one, and for
/// the optional-capture option, whose play differs from the book's rules).
pub fn builtin(variant: Variant) -> Option<Arc<Book>> {
    use once_cell::sync::OnceCell;
    static BOOKS: [OnceCell<Option<Arc<Book>>>; Base::ALL.len()] =
        [const { OnceCell::new() }; Base::ALL.len()];
    if variant.optional_capture {
        return None;
    }
    let i = Base::ALL.iter().position(|&b| b == variant.base)?;
    BOOKS[i]
        .get_or_init(|| {
            let bytes = builtin_bytes(variant.base)?;
            match crate::with_rules!(variant, R => Book::from_bytes::<R>(bytes)) {
                Ok(b) => Some(Arc::new(b)),
                Err(e) => {
                    log::warn!("built-in opening book of {}: {e}", variant.name());
                    None
                }
            }
        })
        .clone()
}

/// The embedded book file of `base` (`data/book/`, built by `kondavo book build`, see the
/// README).
fn builtin_bytes(base: Base) -> Option<&'static [u8]> {
    let bytes: &'static [u8] = match base {
        Base::International => include_bytes!("../../data/book/international.kdb"),
        Base::Brazilian => include_bytes!("../../data/book/brazilian.kdb"),
        Base::Russian => include_bytes!("../../data/book/russian.kdb"),
        Base::Ukrainian => include_bytes!("../../data/book/ukrainian.kdb"),
        Base::English => include_bytes!("../../data/book/english.kdb"),
        Base::Italian => include_bytes!("../../data/book/italian.kdb"),
        Base::Spanish => include_bytes!("../../data/book/spanish.kdb"),
        Base::Czech => include_bytes!("../../data/book/czech.kdb"),
        Base::Turkish => include_bytes!("../../data/book/turkish.kdb"),
        Base::Killer => include_bytes!("../../data/book/killer.kdb"),
        Base::Breakthrough => include_bytes!("../../data/book/breakthrough.kdb"),
        Base::Antidraughts => include_bytes!("../../data/book/antidraughts.kdb"),
        Base::Frisian => include_bytes!("../../data/book/frisian.kdb"),
        Base::Frysk => include_bytes!("../../data/book/frysk.kdb"),
    };
    Some(bytes)
}

/// The book `book_file` names (`None`: the built-in one of `variant`); a file that does not
/// load is the error. The optional-capture option has no book.
pub fn open(variant: Variant, book_file: Option<&str>) -> Result<Option<Arc<Book>>> {
    if variant.optional_capture {
        return Ok(None);
    }
    match book_file {
        Some(path) => {
            let b = crate::with_rules!(variant, R => Book::load::<R>(Path::new(path)))?;
            Ok(Some(Arc::new(b)))
        }
        None => Ok(builtin(variant)),
    }
}
