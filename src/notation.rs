//! Positions and moves as text: FEN (PDN 3.0), Hub position strings, each rule set's native
//! move notation, Hub move notation, and a board diagram.
//!
//! Square numberings (internal squares are described in `geometry`):
//!
//! | rule set | native squares | Hub squares |
//! |---|---|---|
//! | international | 1–50, FMJD | the same |
//! | english | 1–32, 1 = b8 (Black on 1–12) | 33 − native; `W` is English Black |
//! | italian | 1–32, 1 = a8 (mirrored board) | the same |
//! | spanish | 1–32, 1 = h1 (mirrored board) | 33 − native (the italian order) |
//! | russian, ukrainian, brazilian, czech | a1–h8 (a1 dark) | 1–32, 1 = b8 … 32 = g1 |
//! | turkish | a1–h8 | 1–64, 1 = a8 … 64 = h1 |
//!
//! Every parser takes untrusted text and returns an error naming the problem; none panics.

use crate::bail;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::error::{Error, Result};
use crate::geometry::Geometry;
use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::{Base, Squares};
use std::fmt::Write as _;

/// Longest text any parser looks at; longer input is refused before parsing.
const MAX_INPUT: usize = 4096;

/// Shows at most 24 characters of untrusted text in an error message, control bytes removed.
fn shown(s: &str) -> String {
    let mut out: String = s.chars().filter(|c| !c.is_control()).take(24).collect();
    if s.chars().count() > 24 {
        out.push('…');
    }
    out
}

fn check_length(s: &str, what: &str) -> Result<()> {
    if s.len() > MAX_INPUT {
        bail!("{what} is too long ({} bytes)", s.len());
    }
    Ok(())
}

/// Number of squares of `R`'s board.
fn squares<R: Rules>() -> usize {
    <R::Geo as Geometry>::SQUARES
}

fn bit_of<R: Rules>(i: usize) -> u32 {
    u32::from(<R::Geo as Geometry>::BITS[i])
}

fn index_of<R: Rules>(bit: u32) -> usize {
    usize::from(<R::Geo as Geometry>::INDEX[bit as usize])
}

/// The italian numbering (0-based) of internal square `i`: each row read in mirror. It is its
/// own inverse.
fn italian0(i: usize) -> usize {
    4 * (i / 4) + 3 - i % 4
}

/// The native square number (1-based) of internal square `i`, for numeric rule sets.
fn native_number(base: Base, i: usize) -> usize {
    match base {
        Base::Italian => italian0(i) + 1,
        Base::Spanish => 32 - italian0(i),
        _ => i + 1,
    }
}

/// The internal square of native number `n` (numeric rule sets), if it exists.
fn from_native_number<R: Rules>(n: usize) -> Option<usize> {
    if n == 0 || n > squares::<R>() {
        return None;
    }
    Some(match R::BASE {
        Base::Italian => italian0(n - 1),
        Base::Spanish => italian0(32 - n),
        _ => n - 1,
    })
}

/// The Hub square number (1-based) of internal square `i`.
fn hub_number(base: Base, i: usize) -> usize {
    match base {
        Base::English => 32 - i,
        Base::Italian | Base::Spanish => italian0(i) + 1,
        _ => i + 1,
    }
}

/// The internal square of Hub number `n`, if it exists.
fn from_hub_number<R: Rules>(n: usize) -> Option<usize> {
    if n == 0 || n > squares::<R>() {
        return None;
    }
    Some(match R::BASE {
        Base::English => 32 - n,
        Base::Italian | Base::Spanish => italian0(n - 1),
        _ => n - 1,
    })
}

/// In Hub strings, `W`/`w` is the side that moves first; for english that is Black.
fn hub_swaps_colors(base: Base) -> bool {
    base == Base::English
}

/// (file from `a`, rank from 1) of internal square `i` as the players see the board.
pub fn file_rank<R: Rules>(i: usize) -> (usize, usize) {
    let (r, c) = <R::Geo as Geometry>::coords(i);
    let size = <R::Geo as Geometry>::SIZE;
    let file = if R::BASE.is_mirrored() { size - 1 - c } else { c };
    (file, size - r)
}

fn at_file_rank<R: Rules>(file: usize, rank: usize) -> Option<usize> {
    let size = <R::Geo as Geometry>::SIZE;
    if file >= size || rank == 0 || rank > size {
        return None;
    }
    let c = if R::BASE.is_mirrored() { size - 1 - file } else { file };
    <R::Geo as Geometry>::at(size - rank, c)
}

/// The algebraic name (`c3`) of internal square `i`.
fn algebraic<R: Rules>(i: usize) -> String {
    let (file, rank) = file_rank::<R>(i);
    format!("{}{}", (b'a' + file as u8) as char, rank)
}

/// The native name of the square on `bit` (`32`, `c3`).
pub fn square_name<R: Rules>(bit: u32) -> String {
    let i = index_of::<R>(bit);
    match R::BASE.squares() {
        Squares::Numeric => native_number(R::BASE, i).to_string(),
        Squares::Algebraic => algebraic::<R>(i),
    }
}

/// The Hub number of the square on `bit`.
pub fn hub_square<R: Rules>(bit: u32) -> usize {
    hub_number(R::BASE, index_of::<R>(bit))
}

fn range_hint<R: Rules>() -> String {
    match R::BASE.squares() {
        Squares::Numeric => format!("1-{}", squares::<R>()),
        Squares::Algebraic => {
            let size = <R::Geo as Geometry>::SIZE;
            format!("a1-{}{}", (b'a' + size as u8 - 1) as char, size)
        }
    }
}

/// Parses one square: a native number (numeric rule sets; the Hub numbering on algebraic
/// ones) or an algebraic name on any rule set. Returns its bit.
pub fn parse_square<R: Rules>(s: &str) -> Result<u32> {
    let s = s.trim();
    let bytes = s.as_bytes();
    if !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit) {
        let n: usize = s.parse().map_err(|_| Error(format!("bad square \"{}\"", shown(s))))?;
        let i = match R::BASE.squares() {
            Squares::Numeric => from_native_number::<R>(n),
            Squares::Algebraic => from_hub_number::<R>(n),
        };
        return match i {
            Some(i) => Ok(bit_of::<R>(i)),
            None => bail!(
                "square {} does not exist in {} (squares {})",
                shown(s),
                R::BASE.id(),
                match R::BASE.squares() {
                    Squares::Numeric => format!("1-{}", squares::<R>()),
                    Squares::Algebraic => format!("a1-h8 or 1-{}", squares::<R>()),
                }
            ),
        };
    }
    if bytes.len() >= 2
        && bytes[0].is_ascii_alphabetic()
        && bytes[1..].iter().all(u8::is_ascii_digit)
    {
        let file = usize::from(bytes[0].to_ascii_lowercase() - b'a');
        let rank: usize = s[1..].parse().unwrap_or(0);
        return match at_file_rank::<R>(file, rank) {
            Some(i) => Ok(bit_of::<R>(i)),
            None => bail!(
                "square {} is not a playable square in {} ({})",
                shown(s),
                R::BASE.id(),
                range_hint::<R>()
            ),
        };
    }
    bail!("bad square \"{}\"", shown(s))
}

// ---------------------------------------------------------------------------------------
// FEN

/// The FEN of `pos` (PDN 3.0): side to move, then the White and Black lists in the rule set's
/// native squares, kings marked `K`, runs of three or more men as ranges on numeric boards.
pub fn to_fen<R: Rules>(pos: &Position<R>) -> String {
    let mut out = String::new();
    out.push(pos.side().letter());
    for c in Color::BOTH {
        out.push(':');
        out.push(c.letter());
        let mut items: Vec<(usize, bool, String)> = pos
            .pieces(c)
            .map(|b| {
                let i = index_of::<R>(b);
                let key = match R::BASE.squares() {
                    Squares::Numeric => native_number(R::BASE, i),
                    Squares::Algebraic => {
                        let (f, r) = file_rank::<R>(i);
                        r * 16 + f
                    }
                };
                (key, pos.all_kings().has(b), square_name::<R>(b))
            })
            .collect();
        items.sort();
        let numeric = R::BASE.squares() == Squares::Numeric;
        let mut parts: Vec<String> = Vec::new();
        let mut k = 0;
        while k < items.len() {
            let (n, king, ref name) = items[k];
            if king {
                parts.push(format!("K{name}"));
                k += 1;
                continue;
            }
            let mut end = k;
            while numeric
                && end + 1 < items.len()
                && !items[end + 1].1
                && items[end + 1].0 == items[end].0 + 1
            {
                end += 1;
            }
            if end >= k + 2 {
                parts.push(format!("{}-{}", n, items[end].0));
                k = end + 1;
            } else {
                parts.push(name.clone());
                k += 1;
            }
        }
        out.push_str(&parts.join(","));
    }
    out
}

/// Parses a FEN: `W:W31-50:B1-20`. Either list order; `K` marks kings; ranges; numeric or
/// algebraic squares; optional surrounding quotes, spaces, a final `.`, and `H`/`F` counters.
pub fn parse_fen<R: Rules>(text: &str) -> Result<Position<R>> {
    check_length(text, "FEN")?;
    let s: String = text.trim().trim_matches('"').chars().filter(|c| !c.is_whitespace()).collect();
    let s = s.strip_prefix("[FEN\"").and_then(|t| t.strip_suffix("\"]")).unwrap_or(&s);
    let s = s.strip_suffix('.').unwrap_or(s);
    let mut fields = s.split(':');
    let side_field = fields.next().unwrap_or("");
    let side = match side_field {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        "" => bail!("FEN is empty"),
        other => bail!("FEN must start with the side to move W or B, not \"{}\"", shown(other)),
    };
    let mut sets = [Bitboard::EMPTY; 2];
    let mut seen = [false; 2];
    let mut kings = Bitboard::EMPTY;
    let mut all = Bitboard::EMPTY;
    for field in fields {
        let mut chars = field.chars();
        let color = match chars.next() {
            Some(c) if Color::from_letter(c).is_some() && c.is_ascii_uppercase() => {
                Color::from_letter(c).unwrap_or(Color::White)
            }
            Some('H' | 'F') if field[1..].bytes().all(|b| b.is_ascii_digit()) => continue,
            Some(c) => {
                bail!("FEN piece list must start with W or B, not \"{}\"", shown(&c.to_string()))
            }
            None => bail!("FEN has an empty field"),
        };
        if seen[color.index()] {
            bail!("FEN has two {color} piece lists");
        }
        seen[color.index()] = true;
        let list = chars.as_str();
        for item in list.split(',').filter(|t| !t.is_empty()) {
            let (king, sq) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let bits: Vec<u32> = match sq.split_once('-') {
                Some((a, b)) => {
                    let is_num = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
                    if !is_num(a) || !is_num(b) {
                        bail!("bad range \"{}\" in FEN (ranges take square numbers)", shown(item));
                    }
                    // Both ends must be squares before the range is walked.
                    parse_square::<R>(a)?;
                    parse_square::<R>(b)?;
                    let (lo, hi): (usize, usize) = (a.parse().unwrap_or(0), b.parse().unwrap_or(0));
                    if lo > hi {
                        bail!("bad range \"{}\" in FEN (it runs backwards)", shown(item));
                    }
                    (lo..=hi).map(|n| parse_square::<R>(&n.to_string())).collect::<Result<_>>()?
                }
                None => vec![parse_square::<R>(sq)?],
            };
            for b in bits {
                if all.has(b) {
                    bail!("square {} appears twice in the FEN", square_name::<R>(b));
                }
                all |= Bitboard::from_bit(b);
                sets[color.index()] |= Bitboard::from_bit(b);
                if king {
                    kings |= Bitboard::from_bit(b);
                }
            }
        }
    }
    if !seen[0] && !seen[1] {
        bail!("FEN has no piece lists");
    }
    Position::new(sets[0], sets[1], kings, side)
}

// ---------------------------------------------------------------------------------------
// Hub position strings

/// The Hub position string of `pos`: the side to move, then one character per square in Hub
/// order (`w`/`b` men, `W`/`B` kings, `e` empty); `W` is the side that moves first.
pub fn to_hub_position<R: Rules>(pos: &Position<R>) -> String {
    let swap = hub_swaps_colors(R::BASE);
    let letter = |c: Color| if swap { (!c).letter() } else { c.letter() };
    let mut out = String::with_capacity(squares::<R>() + 1);
    out.push(letter(pos.side()));
    for n in 1..=squares::<R>() {
        let i = from_hub_number::<R>(n).unwrap_or(0);
        out.push(match pos.piece_at(bit_of::<R>(i)) {
            None => 'e',
            Some(p) if p.king => letter(p.color),
            Some(p) => letter(p.color).to_ascii_lowercase(),
        });
    }
    out
}

/// Parses a Hub position string (51 characters on 10x10, 33 on 8x8, 65 for turkish).
pub fn parse_hub_position<R: Rules>(text: &str) -> Result<Position<R>> {
    check_length(text, "position")?;
    let s = text.trim();
    let n = squares::<R>();
    if s.chars().count() != n + 1 {
        bail!(
            "a {} Hub position has {} characters (side to move + {} squares), not {}",
            R::BASE.id(),
            n + 1,
            n,
            s.chars().count()
        );
    }
    let swap = hub_swaps_colors(R::BASE);
    let color = |c: Color| if swap { !c } else { c };
    let mut chars = s.chars();
    let side = match chars.next() {
        Some('W') => color(Color::White),
        Some('B') => color(Color::Black),
        _ => bail!("a Hub position starts with W or B (the side to move)"),
    };
    let mut sets = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    for (k, ch) in chars.enumerate() {
        let i = from_hub_number::<R>(k + 1).unwrap_or(0);
        let b = Bitboard::from_bit(bit_of::<R>(i));
        let (c, king) = match ch {
            'e' | '.' => continue,
            'w' => (Color::White, false),
            'b' => (Color::Black, false),
            'W' => (Color::White, true),
            'B' => (Color::Black, true),
            other => bail!(
                "bad character '{}' at square {} of the Hub position",
                other.escape_default(),
                k + 1
            ),
        };
        sets[color(c).index()] |= b;
        if king {
            kings |= b;
        }
    }
    Position::new(sets[0], sets[1], kings, side)
}

/// Parses a position in any accepted form: `start`, a FEN, or a Hub position string.
pub fn parse_position<R: Rules>(text: &str) -> Result<Position<R>> {
    let s = text.trim();
    if s.eq_ignore_ascii_case("start") || s.eq_ignore_ascii_case("startpos") {
        return Ok(Position::start());
    }
    if s.contains(':') {
        return parse_fen(s);
    }
    if s.chars().count() == squares::<R>() + 1 {
        return parse_hub_position(s);
    }
    bail!(
        "\"{}\" is neither a FEN, a {}-character Hub position, nor \"start\"",
        shown(s),
        squares::<R>() + 1
    )
}

// ---------------------------------------------------------------------------------------
// Moves

/// `mv` (legal in `pos`) in the rule set's native notation: `32-28`, `28x19`, `c3:e5:c7`.
/// The full path (every square the piece lands on between jumps) is written when another
/// legal capture shares start and end, or always for the rule sets whose tradition writes it.
/// Where a king could stop anywhere between two pieces on a line, the path names the last
/// free square before the second piece.
pub fn move_to_native<R: Rules>(pos: &Position<R>, mv: Move) -> String {
    let name = |b: u32| square_name::<R>(b);
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from()), name(mv.to()));
    }
    let sep = R::BASE.capture_separator();
    let ambiguous = R::BASE.writes_capture_path()
        || pos.legal_moves().iter().any(|m| m.from() == mv.from() && m.to() == mv.to() && *m != mv);
    let route = ambiguous
        .then(|| movegen::capture_routes(pos).into_iter().find(|(m, _)| *m == mv))
        .flatten();
    let mut out = name(mv.from());
    match route {
        Some((_, path)) => {
            for p in path {
                out.push(sep);
                out.push_str(&name(p));
            }
        }
        None => {
            out.push(sep);
            out.push_str(&name(mv.to()));
        }
    }
    out
}

/// Splits move text into its square tokens and tells whether it used a capture separator.
fn move_tokens(s: &str) -> Result<(Vec<&str>, bool)> {
    let s = s.trim();
    if s.is_empty() {
        bail!("empty move");
    }
    let capture = s.contains(['x', 'X', ':']);
    let tokens: Vec<&str> = s.split(['-', 'x', 'X', ':']).map(str::trim).collect();
    if tokens.len() < 2 || tokens.iter().any(|t| t.is_empty()) {
        bail!("bad move \"{}\"", shown(s));
    }
    Ok((tokens, capture))
}

/// True when `wanted` appears in order within `path`.
fn is_subsequence(wanted: &[u32], path: &[u32]) -> bool {
    let mut it = path.iter();
    wanted.iter().all(|w| it.any(|p| p == w))
}

/// Parses a move in native notation (`32-28`, `28x19`, `28x19x10`, `c3:e5:c7`, `d4xd6`) and
/// returns the legal move it names. Intermediate squares, when given, must lie on the route.
pub fn parse_native_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move> {
    check_length(text, "move")?;
    let (tokens, capture) = move_tokens(text)?;
    let squares: Vec<u32> = tokens.iter().map(|t| parse_square::<R>(t)).collect::<Result<_>>()?;
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let via = &squares[1..squares.len() - 1];
    let legal = pos.legal_moves();
    let mut found: Vec<Move> =
        legal.iter().copied().filter(|m| m.from() == from && m.to() == to).collect();
    // With optional capture a king may have a quiet move and a capture between the same two
    // squares: the separator tells them apart.
    if found.iter().any(|m| m.is_capture() == capture) {
        found.retain(|m| m.is_capture() == capture);
    }
    if !via.is_empty() || found.len() > 1 {
        // A full path names its route exactly; a partial one (stops on a straight sweep left
        // out) must still lie on the route, in order.
        let routes = movegen::capture_routes(pos);
        let stops = |path: &[u32]| path[..path.len().saturating_sub(1)].to_vec();
        let exact: Vec<Move> = found
            .iter()
            .copied()
            .filter(|m| routes.iter().any(|(r, path)| r == m && stops(path) == via))
            .collect();
        if exact.len() == 1 {
            found = exact;
        } else {
            found.retain(|m| {
                routes.iter().any(|(r, path)| r == m && is_subsequence(via, &stops(path)))
            });
        }
    }
    match found.len() {
        0 => bail!("illegal move \"{}\"", shown(text.trim())),
        1 => Ok(found[0]),
        _ => bail!("ambiguous move \"{}\": give the full path", shown(text.trim())),
    }
}

/// `mv` in Hub notation: `32-28`, or `from x to x captured…` with every captured square.
pub fn move_to_hub<R: Rules>(mv: Move) -> String {
    let from = hub_square::<R>(mv.from());
    let to = hub_square::<R>(mv.to());
    if !mv.is_capture() {
        return format!("{from}-{to}");
    }
    let mut caps: Vec<usize> = mv.captured().map(hub_square::<R>).collect();
    caps.sort_unstable();
    let mut out = format!("{from}x{to}");
    for c in caps {
        let _ = write!(out, "x{c}");
    }
    out
}

/// Parses a move in Hub notation (numeric Hub squares; captured squares in any order; `x` or
/// `-` for a quiet move) and returns the legal move it names.
pub fn parse_hub_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move> {
    check_length(text, "move")?;
    let (tokens, _) = move_tokens(text)?;
    let mut bits = Vec::with_capacity(tokens.len());
    for t in &tokens {
        let n: usize = match t.parse() {
            Ok(n) if t.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => bail!("bad square \"{}\" in move \"{}\"", shown(t), shown(text.trim())),
        };
        match from_hub_number::<R>(n) {
            Some(i) => bits.push(bit_of::<R>(i)),
            None => bail!("square {n} does not exist (squares 1-{})", squares::<R>()),
        }
    }
    let (from, to) = (bits[0], bits[1]);
    let captured = bits[2..].iter().fold(Bitboard::EMPTY, |b, &s| b | Bitboard::from_bit(s));
    if captured.count() as usize != bits.len() - 2 {
        bail!("a captured square is listed twice in \"{}\"", shown(text.trim()));
    }
    let legal = pos.legal_moves();
    let mut matching: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            m.from() == from && m.to() == to && (captured.is_empty() || m.captured() == captured)
        })
        .collect();
    // `from-to` (or `fromxto`) with no captured squares: a quiet move first, if there is one
    // (optional capture can offer both between the same squares).
    if captured.is_empty() && matching.iter().any(|m| !m.is_capture()) {
        matching.retain(|m| !m.is_capture());
    }
    // A capture written without its captured squares is accepted when it is unique. Hub
    // notation cannot tell two moves apart that differ only in crowning; the rules never
    // make such a pair (a man is crowned mid-capture only by taking a piece on the row
    // before the last, which any route taking it must also do), so taking the crowning one
    // is only a safe default.
    match matching.len() {
        0 => bail!("illegal move \"{}\"", shown(text.trim())),
        1 => Ok(matching[0]),
        _ if matching.iter().all(|m| m.captured() == matching[0].captured()) => {
            Ok(matching.iter().copied().find(|m| m.is_promotion()).unwrap_or(matching[0]))
        }
        _ => bail!("ambiguous move \"{}\": list the captured squares", shown(text.trim())),
    }
}

/// Parses a move as protocols send it: numeric text is Hub notation (never the rule set's own
/// numbers, which differ in english and spanish), algebraic text is native notation.
pub fn parse_protocol_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move> {
    if text.chars().any(|c| c.is_ascii_alphabetic() && !matches!(c, 'x' | 'X')) {
        parse_native_move(pos, text)
    } else {
        parse_hub_move(pos, text)
    }
}

/// Parses a move in native or Hub notation (native first), for people typing moves.
pub fn parse_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move> {
    parse_native_move(pos, text)
        .or_else(|native_err| parse_hub_move(pos, text).map_err(|_| native_err))
}

// ---------------------------------------------------------------------------------------
// Diagram

/// A board diagram as the players see it (White at the bottom): `w`/`b` men, `W`/`B` kings,
/// `.` empty playable squares, with file letters and rank numbers.
pub fn diagram<R: Rules>(pos: &Position<R>) -> String {
    let size = <R::Geo as Geometry>::SIZE;
    let mut out = String::new();
    for rank in (1..=size).rev() {
        let _ = write!(out, "{rank:>3} ");
        for file in 0..size {
            let ch = match at_file_rank::<R>(file, rank) {
                None => ' ',
                Some(i) => match pos.piece_at(bit_of::<R>(i)) {
                    None => '.',
                    Some(p) => {
                        let l = p.color.letter();
                        if p.king { l } else { l.to_ascii_lowercase() }
                    }
                },
            };
            out.push(' ');
            out.push(ch);
        }
        out.push('\n');
    }
    out.push_str("    ");
    for file in 0..size {
        out.push(' ');
        out.push((b'a' + file as u8) as char);
    }
    out.push('\n');
    out
}

// ---------------------------------------------------------------------------------------
// Hub move numberings

/// The square numbering of Hub moves. `Internal` is the numbering of Hub position strings
/// (lidraughts, pydraughts 0.5); `Variant` is the rule set's own numbering that pydraughts
/// 0.6 uses for moves: on russian-style boards 1 = a1, 2 = c1 … 32 = h8; english its own
/// numbers; turkish 1 = a1 … 64 = h8; the same as `Internal` elsewhere.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveNumbering {
    /// The Hub position string order.
    Internal,
    /// The rule set's own numbering (pydraughts 0.6 moves).
    Variant,
}

/// The `Variant` number of Hub (internal) square `n`, if `n` exists.
pub fn hub_square_to_variant<R: Rules>(n: usize) -> Option<usize> {
    let i = from_hub_number::<R>(n)?;
    Some(match R::BASE {
        Base::English => i + 1,
        Base::Russian | Base::Ukrainian | Base::Brazilian | Base::Czech => {
            let (file, rank) = file_rank::<R>(i);
            (rank - 1) * 4 + file / 2 + 1
        }
        Base::Turkish => {
            let (file, rank) = file_rank::<R>(i);
            (rank - 1) * 8 + file + 1
        }
        _ => n,
    })
}

/// The Hub (internal) number of `Variant` square `v`, if `v` exists.
pub fn variant_square_to_hub<R: Rules>(v: usize) -> Option<usize> {
    (1..=squares::<R>()).find(|&n| hub_square_to_variant::<R>(n) == Some(v))
}

/// A Hub move written in numbering `from` rewritten in numbering `to`.
pub fn renumber_hub_move<R: Rules>(
    text: &str,
    from: MoveNumbering,
    to: MoveNumbering,
) -> Result<String> {
    if from == to {
        return Ok(text.to_string());
    }
    let mut out = String::with_capacity(text.len());
    let mut number = String::new();
    let flush = |number: &mut String, out: &mut String| -> Result<()> {
        if number.is_empty() {
            return Ok(());
        }
        let n: usize =
            number.parse().map_err(|_| Error(format!("bad square \"{}\"", shown(number))))?;
        let mapped = match from {
            MoveNumbering::Internal => hub_square_to_variant::<R>(n),
            MoveNumbering::Variant => variant_square_to_hub::<R>(n),
        };
        match mapped {
            Some(m) => out.push_str(&m.to_string()),
            None => bail!("square {n} does not exist (squares 1-{})", squares::<R>()),
        }
        number.clear();
        Ok(())
    };
    for c in text.trim().chars() {
        if c.is_ascii_digit() {
            number.push(c);
        } else {
            flush(&mut number, &mut out)?;
            out.push(c);
        }
    }
    flush(&mut number, &mut out)?;
    Ok(out)
}
