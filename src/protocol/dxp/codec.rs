//! DXP messages as bytes: the parser and formatter of the seven message types (pure
//! functions), and the framer that cuts a TCP byte stream into messages.
//!
//! A message is 1–127 ASCII characters followed by one `\0`; the first character is its type.
//! Field layouts (offsets from 0, numbers zero-padded to their width):
//!
//! | type | layout |
//! |---|---|
//! | GAMEREQ `R` | version `01` · initiator name (32, blank-padded) · follower colour `W`/`Z` · minutes (3) · moves (3) · `A`, or `B` · colour to move · one character per field (`e w z W Z`) |
//! | GAMEACC `A` | follower name (32) · code `0`–`3` |
//! | MOVE `M` | seconds (4) · from (2) · to (2) · number captured (2) · captured fields (2 each) |
//! | GAMEEND `E` | reason `0`–`3` · stop code `0`/`1` |
//! | CHAT `C` | free text |
//! | BACKREQ `B` | move number (3) · colour to move |
//! | BACKACC `K` | code `0`–`2` |
//!
//! Colours are `W` (white) and `Z` (black, *zwart*). The position field has 50 characters on
//! 10x10; 32 (8x8) and 64 (turkish) are kondavo's extension. The parser checks the layout only:
//! whether the squares exist and the move is legal is the session's business. Nothing here
//! panics on any input (property-tested).

use crate::color::Color;
use std::fmt;

/// The protocol version kondavo speaks.
pub const VERSION: &str = "01";
/// Longest message the specification allows, without its `\0`.
pub const MAX_MESSAGE: usize = 127;
/// Longest message the framer accepts before giving up on it (peers that overrun the
/// specification a little are still understood).
pub const MAX_FRAME: usize = 1024;
/// Width of the name fields.
pub const NAME_LEN: usize = 32;
/// Longest chat text.
pub const MAX_CHAT: usize = MAX_MESSAGE - 1;

/// How a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// `A`: the rule set's start position.
    Start,
    /// `B`: this position.
    Position {
        /// The colour to move.
        to_move: Color,
        /// One character per field in field order: `e` empty, `w`/`z` men, `W`/`Z` kings.
        squares: String,
    },
}

/// A game request (initiator to follower).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReq {
    /// The initiator's name (trailing blanks removed).
    pub name: String,
    /// The colour the follower plays.
    pub follower: Color,
    /// Minutes per player for the whole game (0: not given).
    pub minutes: u32,
    /// Moves for the whole game (0: no limit).
    pub moves: u32,
    /// The start position.
    pub setup: Setup,
}

/// The follower's answer to a game request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    /// `0`: the game starts.
    Accepted,
    /// `1`: the protocol version is not supported.
    WrongVersion,
    /// `2`: not this game (position, time…), but another one is welcome.
    NotThisGame,
    /// `3`: no games at all.
    NoGames,
}

/// Why a GAMEEND is sent, as its sender sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: no reason given (always allowed; every confirmation uses it).
    Unknown,
    /// `1`: I lose.
    ILose,
    /// `2`: draw.
    Draw,
    /// `3`: I win.
    IWin,
}

/// The answer to a BACKREQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackAnswer {
    /// `0`: taken back as asked.
    Accepted,
    /// `1`: not supported (or not possible).
    NotSupported,
    /// `2`: the game goes on instead.
    Continue,
}

/// A move: fields in the DXP numbering (the Hub numbering).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveMsg {
    /// Seconds the sender used for the move.
    pub seconds: u32,
    /// The field the piece leaves.
    pub from: u8,
    /// The field it ends on.
    pub to: u8,
    /// The captured fields, in any order.
    pub captured: Vec<u8>,
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: start a game.
    GameReq(GameReq),
    /// `A`: the answer to a GAMEREQ.
    GameAcc {
        /// The follower's name.
        name: String,
        /// Accepted or why not.
        code: Acceptance,
    },
    /// `M`: a move.
    Move(MoveMsg),
    /// `E`: end the game (or confirm its end).
    GameEnd {
        /// Why, as the sender sees it.
        reason: EndReason,
        /// True: no further game is wanted.
        stop: bool,
    },
    /// `C`: free text.
    Chat(String),
    /// `B`: take moves back to this move number and colour to move.
    BackReq {
        /// The move number (the first move of the game is 1).
        move_number: u32,
        /// The colour to move at that point.
        to_move: Color,
    },
    /// `K`: the answer to a BACKREQ.
    BackAcc(BackAnswer),
}

impl Message {
    /// The message type's name as the specification writes it.
    pub fn kind(&self) -> &'static str {
        match self {
            Message::GameReq(_) => "GAMEREQ",
            Message::GameAcc { .. } => "GAMEACC",
            Message::Move(_) => "MOVE",
            Message::GameEnd { .. } => "GAMEEND",
            Message::Chat(_) => "CHAT",
            Message::BackReq { .. } => "BACKREQ",
            Message::BackAcc(_) => "BACKACC",
        }
    }
}

// ---------------------------------------------------------------------------------------
// Parsing

/// The raw message shown in a log line: printable ASCII as is, anything else escaped, long
/// ones cut.
pub fn shown(raw: &[u8]) -> String {
    let mut out = String::new();
    for &b in raw.iter().take(80) {
        if (0x20..0x7f).contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    if raw.len() > 80 {
        out.push('…');
    }
    out
}

fn colour(b: u8, what: &str) -> Result<Color, String> {
    match b {
        b'W' => Ok(Color::White),
        b'Z' => Ok(Color::Black),
        other => Err(format!("{what} must be W or Z, not '{}'", shown(&[other]))),
    }
}

fn colour_letter(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

fn number(field: &[u8], what: &str) -> Result<u32, String> {
    if field.is_empty() || !field.iter().all(u8::is_ascii_digit) {
        return Err(format!("{what} must be {} digits, not \"{}\"", field.len(), shown(field)));
    }
    Ok(field.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')))
}

fn text_field(field: &[u8]) -> String {
    let text: String =
        field.iter().map(|&b| if (0x20..0x7f).contains(&b) { b as char } else { '?' }).collect();
    text.trim().to_string()
}

fn expect_len(raw: &[u8], len: usize, kind: &str) -> Result<(), String> {
    if raw.len() != len {
        return Err(format!("a {kind} has {len} characters, this one {}", raw.len()));
    }
    Ok(())
}

/// The version field of a GAMEREQ, when `raw` looks like one (for answering a request that
/// does not parse with the right GAMEACC code).
pub fn gamereq_version(raw: &[u8]) -> Option<String> {
    (raw.first() == Some(&b'R') && raw.len() >= 3).then(|| shown(&raw[1..3]))
}

/// Parses one message (without its `\0`). The error names the problem.
pub fn parse(raw: &[u8]) -> Result<Message, String> {
    let Some(&kind) = raw.first() else {
        return Err("empty message".into());
    };
    if kind == b'C' {
        let text = String::from_utf8_lossy(&raw[1..]);
        return Ok(Message::Chat(text.chars().filter(|c| !c.is_control()).collect()));
    }
    // Trailing blanks (a peer that ends its messages with a newline) carry nothing.
    let end = raw.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
    let raw = &raw[..end];
    if let Some(i) = raw.iter().position(|b| !b.is_ascii() || b.is_ascii_control()) {
        return Err(format!(
            "byte {} of \"{}\" is not a printable ASCII character",
            i + 1,
            shown(raw)
        ));
    }
    match kind {
        b'R' => parse_gamereq(raw),
        b'A' => {
            expect_len(raw, 1 + NAME_LEN + 1, "GAMEACC")?;
            let code = match raw[1 + NAME_LEN] {
                b'0' => Acceptance::Accepted,
                b'1' => Acceptance::WrongVersion,
                b'2' => Acceptance::NotThisGame,
                b'3' => Acceptance::NoGames,
                other => {
                    return Err(format!("GAMEACC code must be 0-3, not '{}'", shown(&[other])));
                }
            };
            Ok(Message::GameAcc { name: text_field(&raw[1..1 + NAME_LEN]), code })
        }
        b'M' => {
            if raw.len() < 11 {
                return Err(format!("a MOVE has at least 11 characters, this one {}", raw.len()));
            }
            let seconds = number(&raw[1..5], "MOVE time")?;
            let from = number(&raw[5..7], "MOVE from field")? as u8;
            let to = number(&raw[7..9], "MOVE to field")? as u8;
            let count = number(&raw[9..11], "MOVE number captured")? as usize;
            if raw.len() != 11 + 2 * count {
                return Err(format!(
                    "a MOVE capturing {count} has {} characters, this one {}",
                    11 + 2 * count,
                    raw.len()
                ));
            }
            let captured = raw[11..]
                .chunks(2)
                .map(|c| number(c, "MOVE captured field").map(|n| n as u8))
                .collect::<Result<Vec<u8>, String>>()?;
            Ok(Message::Move(MoveMsg { seconds, from, to, captured }))
        }
        b'E' => {
            expect_len(raw, 3, "GAMEEND")?;
            let reason = match raw[1] {
                b'0' => EndReason::Unknown,
                b'1' => EndReason::ILose,
                b'2' => EndReason::Draw,
                b'3' => EndReason::IWin,
                other => {
                    return Err(format!("GAMEEND reason must be 0-3, not '{}'", shown(&[other])));
                }
            };
            let stop = match raw[2] {
                b'0' => false,
                b'1' => true,
                other => {
                    return Err(format!(
                        "GAMEEND stop code must be 0 or 1, not '{}'",
                        shown(&[other])
                    ));
                }
            };
            Ok(Message::GameEnd { reason, stop })
        }
        b'B' => {
            expect_len(raw, 5, "BACKREQ")?;
            let move_number = number(&raw[1..4], "BACKREQ move number")?;
            let to_move = colour(raw[4], "BACKREQ colour")?;
            Ok(Message::BackReq { move_number, to_move })
        }
        b'K' => {
            expect_len(raw, 2, "BACKACC")?;
            let code = match raw[1] {
                b'0' => BackAnswer::Accepted,
                b'1' => BackAnswer::NotSupported,
                b'2' => BackAnswer::Continue,
                other => {
                    return Err(format!("BACKACC code must be 0-2, not '{}'", shown(&[other])));
                }
            };
            Ok(Message::BackAcc(code))
        }
        other => Err(format!("unknown message type '{}'", shown(&[other]))),
    }
}

fn parse_gamereq(raw: &[u8]) -> Result<Message, String> {
    const FIXED: usize = 1 + 2 + NAME_LEN + 1 + 3 + 3 + 1;
    if raw.len() < 3 {
        return Err(format!("a GAMEREQ has at least {FIXED} characters, this one {}", raw.len()));
    }
    if &raw[1..3] != VERSION.as_bytes() {
        return Err(format!(
            "GAMEREQ version \"{}\" is not supported (kondavo speaks {VERSION})",
            shown(&raw[1..3])
        ));
    }
    if raw.len() < FIXED {
        return Err(format!("a GAMEREQ has at least {FIXED} characters, this one {}", raw.len()));
    }
    let name = text_field(&raw[3..3 + NAME_LEN]);
    let follower = colour(raw[35], "GAMEREQ follower colour")?;
    let minutes = number(&raw[36..39], "GAMEREQ thinking time")?;
    let moves = number(&raw[39..42], "GAMEREQ number of moves")?;
    let setup = match raw[42] {
        b'A' => {
            if raw.len() != FIXED {
                return Err(format!(
                    "a GAMEREQ with the start position (A) has {FIXED} characters, this one {}",
                    raw.len()
                ));
            }
            Setup::Start
        }
        b'B' => {
            if raw.len() < FIXED + 1 {
                return Err("a GAMEREQ with a position (B) lacks the colour to move".into());
            }
            let to_move = colour(raw[43], "GAMEREQ colour to move")?;
            let squares = &raw[44..];
            if ![32, 50, 64].contains(&squares.len()) {
                return Err(format!(
                    "a GAMEREQ position has 50 fields (32 or 64 on 8x8 boards), this one {}",
                    squares.len()
                ));
            }
            if let Some(i) = squares.iter().position(|b| !b"ewzWZ".contains(b)) {
                return Err(format!(
                    "field {} of the GAMEREQ position is '{}', not one of e w z W Z",
                    i + 1,
                    shown(&squares[i..i + 1])
                ));
            }
            Setup::Position { to_move, squares: text_field(squares) }
        }
        other => {
            return Err(format!(
                "GAMEREQ start position must be A or B, not '{}'",
                shown(&[other])
            ));
        }
    };
    Ok(Message::GameReq(GameReq { name, follower, minutes, moves, setup }))
}

// ---------------------------------------------------------------------------------------
// Formatting

/// A name as the 32-character field: printable ASCII, no leading blank, padded or cut.
pub fn name_field(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
        .collect::<String>()
        .trim_start()
        .chars()
        .take(NAME_LEN)
        .collect();
    format!("{clean:<NAME_LEN$}")
}

fn digits(n: u32, width: usize) -> String {
    let max = 10u32.saturating_pow(width as u32).saturating_sub(1);
    format!("{:0width$}", n.min(max))
}

impl fmt::Display for Message {
    /// The message as sent, without its `\0`. Numbers too large for their field are clamped;
    /// text is cut to fit and made printable ASCII.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::GameReq(r) => {
                write!(
                    f,
                    "R{VERSION}{}{}{}{}",
                    name_field(&r.name),
                    colour_letter(r.follower),
                    digits(r.minutes, 3),
                    digits(r.moves, 3)
                )?;
                match &r.setup {
                    Setup::Start => f.write_str("A"),
                    Setup::Position { to_move, squares } => {
                        write!(f, "B{}{squares}", colour_letter(*to_move))
                    }
                }
            }
            Message::GameAcc { name, code } => {
                let c = match code {
                    Acceptance::Accepted => '0',
                    Acceptance::WrongVersion => '1',
                    Acceptance::NotThisGame => '2',
                    Acceptance::NoGames => '3',
                };
                write!(f, "A{}{c}", name_field(name))
            }
            Message::Move(m) => {
                write!(
                    f,
                    "M{}{}{}{}",
                    digits(m.seconds, 4),
                    digits(m.from.into(), 2),
                    digits(m.to.into(), 2),
                    digits(m.captured.len() as u32, 2)
                )?;
                for &c in m.captured.iter().take(99) {
                    f.write_str(&digits(c.into(), 2))?;
                }
                Ok(())
            }
            Message::GameEnd { reason, stop } => {
                let r = match reason {
                    EndReason::Unknown => '0',
                    EndReason::ILose => '1',
                    EndReason::Draw => '2',
                    EndReason::IWin => '3',
                };
                write!(f, "E{r}{}", if *stop { '1' } else { '0' })
            }
            Message::Chat(text) => {
                let clean: String = text
                    .chars()
                    .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
                    .take(MAX_CHAT)
                    .collect();
                write!(f, "C{clean}")
            }
            Message::BackReq { move_number, to_move } => {
                write!(f, "B{}{}", digits(*move_number, 3), colour_letter(*to_move))
            }
            Message::BackAcc(code) => {
                let c = match code {
                    BackAnswer::Accepted => '0',
                    BackAnswer::NotSupported => '1',
                    BackAnswer::Continue => '2',
                };
                write!(f, "K{c}")
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Framing

/// What the framer cuts from the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// The bytes of one message, without its `\0`.
    Message(Vec<u8>),
    /// A message longer than [`MAX_FRAME`]: its bytes up to the next `\0` are dropped.
    TooLong,
}

/// Cuts a byte stream into messages at `\0`, whatever the reads look like: part of a message,
/// several messages, or both. Empty messages (two `\0` in a row) are skipped.
#[derive(Clone, Debug, Default)]
pub struct Framer {
    buf: Vec<u8>,
    skipping: bool,
}

impl Framer {
    /// An empty framer.
    pub fn new() -> Framer {
        Framer::default()
    }

    /// Feeds the bytes of one read; returns the messages they complete, in order.
    pub fn push(&mut self, data: &[u8]) -> Vec<Frame> {
        let mut out = Vec::new();
        for &b in data {
            if b == 0 {
                if self.skipping {
                    self.skipping = false;
                } else if !self.buf.is_empty() {
                    out.push(Frame::Message(std::mem::take(&mut self.buf)));
                }
            } else if !self.skipping {
                self.buf.push(b);
                if self.buf.len() > MAX_FRAME {
                    self.buf.clear();
                    self.skipping = true;
                    out.push(Frame::TooLong);
                }
            }
        }
        out
    }

    /// Bytes of an unfinished message held back.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specification_examples_parse() {
        let m = parse(b"R01Tornado voor Windows 4.0        W060065A").unwrap();
        assert_eq!(
            m,
            Message::GameReq(GameReq {
                name: "Tornado voor Windows 4.0".into(),
                follower: Color::White,
                minutes: 60,
                moves: 65,
                setup: Setup::Start,
            })
        );
        assert_eq!(
            parse(b"M001205250422122320").unwrap(),
            Message::Move(MoveMsg { seconds: 12, from: 5, to: 25, captured: vec![22, 12, 23, 20] })
        );
        assert_eq!(
            parse(b"ATornado voor Windows 4.0        0").unwrap(),
            Message::GameAcc {
                name: "Tornado voor Windows 4.0".into(),
                code: Acceptance::Accepted
            }
        );
        assert_eq!(
            parse(b"E00").unwrap(),
            Message::GameEnd { reason: EndReason::Unknown, stop: false }
        );
        assert_eq!(
            parse(b"B005Z").unwrap(),
            Message::BackReq { move_number: 5, to_move: Color::Black }
        );
        assert_eq!(parse(b"K1").unwrap(), Message::BackAcc(BackAnswer::NotSupported));
        assert_eq!(parse(b"Chello there").unwrap(), Message::Chat("hello there".into()));
    }

    #[test]
    fn formatting_matches_the_specification() {
        let req = Message::GameReq(GameReq {
            name: "Tornado voor Windows 4.0".into(),
            follower: Color::White,
            minutes: 60,
            moves: 65,
            setup: Setup::Start,
        });
        assert_eq!(req.to_string(), "R01Tornado voor Windows 4.0        W060065A");
        let mv = Message::Move(MoveMsg { seconds: 12, from: 5, to: 25, captured: vec![22, 12] });
        assert_eq!(mv.to_string(), "M00120525022212");
        assert_eq!(Message::GameEnd { reason: EndReason::Draw, stop: true }.to_string(), "E21");
    }

    #[test]
    fn bad_messages_name_the_problem() {
        for (raw, needle) in [
            (&b""[..], "empty"),
            (b"X12", "unknown message type 'X'"),
            (b"M00120525", "at least 11"),
            (b"M0012052501", "capturing 1"),
            (b"M00120a250100", "from field"),
            (b"M0012052a0100", "to field"),
            (b"E4", "3 characters"),
            (b"E40", "reason"),
            (b"R02Tornado voor Windows 4.0        W060065A", "version \"02\""),
            (b"R01Tornado voor Windows 4.0        X060065A", "follower colour"),
            (b"R01Tornado voor Windows 4.0        W060065C", "A or B"),
            (b"R01Tornado voor Windows 4.0        W060065BWeee", "50 fields"),
            (b"M\xff", "printable ASCII"),
        ] {
            let err = parse(raw).unwrap_err();
            assert!(err.contains(needle), "{}: {err}", shown(raw));
        }
    }

    #[test]
    fn framer_joins_and_splits() {
        let mut f = Framer::new();
        assert!(f.push(b"E0").is_empty());
        assert_eq!(f.pending(), 2);
        assert_eq!(
            f.push(b"0\0K1\0\0Cx"),
            vec![Frame::Message(b"E00".to_vec()), Frame::Message(b"K1".to_vec())]
        );
        let long = vec![b'C'; MAX_FRAME + 5];
        let frames = f.push(&[&long[..], b"\0E00\0"].concat());
        assert_eq!(frames, vec![Frame::TooLong, Frame::Message(b"E00".to_vec())]);
    }
}
