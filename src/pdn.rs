//! PDN (Portable Draughts Notation) games: writing and reading.
//!
//! Writing follows PDN 3.0 as draughts programs read it: tags (`Event`, `White`, `Black`,
//! `Result`, `GameType` with the rule set's code, `FEN` when not the start position, and
//! whatever else the caller adds), then the moves in native notation with move numbers, then
//! the result. Results are `2-0`, `1-1`, `0-2` (FMJD style) except in english, which uses
//! `1-0`, `1/2-1/2`, `0-1`; both styles are read everywhere.
//!
//! Reading is tolerant: comments `{…}`, variations `(…)`, NAGs `$n`, `!`/`?`, move numbers in
//! any of `1.`, `1...`, `1. ...`, and several games in one text.

use crate::color::Color;
use crate::error::Result;
use crate::game::Outcome;
use crate::variant::{Base, Variant};

/// The result of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
    /// Not finished or not known (`*`).
    Unknown,
}

impl GameResult {
    /// The result when `c` wins.
    pub fn win(c: Color) -> GameResult {
        if c == Color::White { GameResult::WhiteWins } else { GameResult::BlackWins }
    }

    /// The result of a game that is over.
    pub fn of(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Win(c) => GameResult::win(c),
            Outcome::Repetition | Outcome::MoveCounter => GameResult::Draw,
        }
    }

    /// White's points (1, 0.5 or 0); none when the result is not known.
    pub fn white_points(self) -> Option<f64> {
        match self {
            GameResult::WhiteWins => Some(1.0),
            GameResult::BlackWins => Some(0.0),
            GameResult::Draw => Some(0.5),
            GameResult::Unknown => None,
        }
    }

    /// The PDN token for `base`.
    pub fn to_pdn(self, base: Base) -> &'static str {
        let english = base == Base::English;
        match (self, english) {
            (GameResult::WhiteWins, false) => "2-0",
            (GameResult::BlackWins, false) => "0-2",
            (GameResult::Draw, false) => "1-1",
            (GameResult::WhiteWins, true) => "1-0",
            (GameResult::BlackWins, true) => "0-1",
            (GameResult::Draw, true) => "1/2-1/2",
            (GameResult::Unknown, _) => "*",
        }
    }

    /// Reads a result token in either style.
    pub fn from_pdn(token: &str) -> Option<GameResult> {
        Some(match token {
            "2-0" | "1-0" => GameResult::WhiteWins,
            "0-2" | "0-1" => GameResult::BlackWins,
            "1-1" | "1/2-1/2" | "0-0" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// One game: its tags in order, its moves as written, and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Moves in the order played (native notation as written).
    pub moves: Vec<String>,
    /// The result token at the end of the moves, or the `Result` tag.
    pub result: GameResult,
}

impl PdnGame {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The rule set, from the `Variant` tag or the `GameType` code.
    pub fn variant(&self) -> Option<Variant> {
        if let Some(v) = self.tag("Variant").and_then(|v| v.parse::<Variant>().ok()) {
            return Some(v);
        }
        let code: u32 = self.tag("GameType")?.split(',').next()?.trim().parse().ok()?;
        Base::ALL
            .into_iter()
            .find(|b| b.pdn_gametype().starts_with(&format!("{code},")))
            .map(Variant::new)
    }
}

/// The `Variant` tag a game of `variant` needs besides its `GameType`: a rule set sharing an
/// earlier one's code (ukrainian the russian one, killer the international one), and the
/// optional-capture option, have none of their own.
pub fn variant_tag(variant: Variant) -> Option<(String, String)> {
    let code = variant.base.pdn_gametype();
    let first = Base::ALL.into_iter().find(|b| b.pdn_gametype() == code);
    (first != Some(variant.base) || variant.optional_capture)
        .then(|| ("Variant".to_string(), variant.name()))
}

/// Writes one game. `tags` come first in the given order (the caller includes `Result`);
/// `first_mover_starts` tells whether the first move is by the side that moves first in the
/// rule set (`1. a b`) or by the other (`1... a`). Moves are native notation except that
/// captures use `x`, PDN 3.0's only capture separator (russian `c3:e5` is written `c3xe5`;
/// pydraughts and other readers reject `:`).
pub fn write_game(
    tags: &[(String, String)],
    moves: &[String],
    first_mover_starts: bool,
    result: &str,
) -> String {
    let plain: Vec<AnnotatedMove> = moves
        .iter()
        .map(|m| AnnotatedMove { text: m.clone(), nag: "", comment: None, variation: Vec::new() })
        .collect();
    write_annotated(tags, &plain, first_mover_starts, result)
}

/// Appends the movetext tokens as lines of at most 79 characters (a longer token on its own),
/// then the blank line that ends a game.
fn wrap_movetext(out: &mut String, tokens: Vec<String>) {
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
}

/// Removes `{…}` comments and `(…)` variations (nested ones too).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut braces, mut parens) = (0usize, 0usize);
    for c in text.chars() {
        match c {
            '{' => braces += 1,
            '}' if braces > 0 => braces -= 1,
            '(' if braces == 0 => parens += 1,
            ')' if braces == 0 && parens > 0 => parens -= 1,
            _ if braces == 0 && parens == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Reads every game of a PDN text; the first game that does not read is the error.
pub fn parse_pdn(text: &str) -> Result<Vec<PdnGame>> {
    parse_pdn_games(text).into_iter().collect()
}

/// Reads every game of a PDN text, each on its own: a game that does not read (a bad tag
/// line) is an error in its place and the games after it are still read.
pub fn parse_pdn_games(text: &str) -> Vec<Result<PdnGame>> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut bad: Option<String> = None;
    let flush = |tags: &mut Vec<(String, String)>,
                 movetext: &mut String,
                 bad: &mut Option<String>,
                 games: &mut Vec<Result<PdnGame>>| {
        if tags.is_empty() && movetext.trim().is_empty() && bad.is_none() {
            return;
        }
        if let Some(why) = bad.take() {
            tags.clear();
            movetext.clear();
            games.push(Err(crate::error::Error(why)));
            return;
        }
        let body = strip_comments(movetext);
        let mut moves = Vec::new();
        let mut result = None;
        for raw in body.split_whitespace() {
            // "12.32-28" and "12...19-23" carry their number glued on.
            let t = match raw.rfind('.') {
                Some(i) if raw[..i].bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
                    &raw[i + 1..]
                }
                _ => raw,
            };
            if t.is_empty() || t.starts_with('$') {
                continue;
            }
            if let Some(r) = GameResult::from_pdn(t) {
                result = Some(r);
                continue;
            }
            let t = t.trim_end_matches(['!', '?']);
            if !t.is_empty() {
                moves.push(t.to_string());
            }
        }
        let result = result
            .or_else(|| {
                tags.iter().find(|(k, _)| k == "Result").and_then(|(_, v)| GameResult::from_pdn(v))
            })
            .unwrap_or(GameResult::Unknown);
        games.push(Ok(PdnGame { tags: std::mem::take(tags), moves, result }));
        movetext.clear();
    };
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            if !movetext.trim().is_empty() {
                flush(&mut tags, &mut movetext, &mut bad, &mut games);
            }
            let inner = l.trim_start_matches('[').trim_end_matches(']');
            match inner.split_once(char::is_whitespace) {
                Some((name, rest)) => {
                    let value = rest.trim().trim_matches('"').to_string();
                    tags.push((name.to_string(), value));
                }
                None => {
                    bad.get_or_insert_with(|| {
                        format!("bad PDN tag line: {}", l.chars().take(40).collect::<String>())
                    });
                }
            }
        } else {
            movetext.push_str(l);
            movetext.push('\n');
            // A result ends the game (outside comments).
            if strip_comments(l).split_whitespace().any(|t| GameResult::from_pdn(t).is_some()) {
                flush(&mut tags, &mut movetext, &mut bad, &mut games);
            }
        }
    }
    flush(&mut tags, &mut movetext, &mut bad, &mut games);
    games
}

/// One move of an annotated game: its text, a NAG (`?!`, `?`, `??` or empty), a comment
/// after it, and a variation that replaces it (moves with optional comments).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnnotatedMove {
    /// The move, native notation.
    pub text: String,
    /// Suffix NAG (empty for none).
    pub nag: &'static str,
    /// Comment after the move (without braces; `}` is not allowed in it).
    pub comment: Option<String>,
    /// A line to play instead of this move, each move with an optional comment.
    pub variation: Vec<(String, Option<String>)>,
}

/// Writes one game with comments, NAGs and variations, numbered as [`write_game`] numbers
/// moves. A move by the second mover after a comment or a variation is *not* numbered again
/// (`12...`), which PDN allows: pydraughts' `PDNReader` fails on a move number that occurs
/// twice in the main line once numbers reach two digits. Variations start with their number.
pub fn write_annotated(
    tags: &[(String, String)],
    moves: &[AnnotatedMove],
    first_mover_starts: bool,
    result: &str,
) -> String {
    let mut out = String::new();
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
    }
    out.push('\n');
    let comment = |c: &str| format!("{{{}}}", c.replace(['{', '}'], ""));
    let mut tokens: Vec<String> = Vec::new();
    let offset = usize::from(!first_mover_starts);
    let number = |ply: usize| (ply + offset) / 2 + 1;
    let first_of_pair = |ply: usize| (ply + offset).is_multiple_of(2);
    let mut renumber = true;
    for (i, m) in moves.iter().enumerate() {
        if first_of_pair(i) {
            tokens.push(format!("{}.", number(i)));
        } else if renumber {
            tokens.push(format!("{}...", number(i)));
        }
        tokens.push(format!("{}{}", m.text.replace(':', "x"), m.nag));
        renumber = false;
        if let Some(c) = &m.comment {
            tokens.push(comment(c));
        }
        if !m.variation.is_empty() {
            let mut inner: Vec<String> = Vec::new();
            let mut again = true;
            for (k, (text, c)) in m.variation.iter().enumerate() {
                let ply = i + k;
                if first_of_pair(ply) {
                    inner.push(format!("{}.", number(ply)));
                } else if again {
                    inner.push(format!("{}...", number(ply)));
                }
                inner.push(text.replace(':', "x"));
                again = false;
                if let Some(c) = c {
                    inner.push(comment(c));
                    again = true;
                }
            }
            if let Some(first) = inner.first_mut() {
                first.insert(0, '(');
            }
            if let Some(last) = inner.last_mut() {
                last.push(')');
            }
            tokens.extend(inner);
        }
    }
    tokens.push(result.to_string());
    wrap_movetext(&mut out, tokens);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_games_read_back() {
        let tags = vec![
            ("Event".to_string(), "test".to_string()),
            ("GameType".to_string(), Base::Russian.pdn_gametype().to_string()),
            ("Result".to_string(), "2-0".to_string()),
        ];
        let moves: Vec<String> =
            ["c3-d4", "f6-e5", "d4:f6", "g7:e5"].iter().map(|s| s.to_string()).collect();
        let text = write_game(&tags, &moves, true, "2-0");
        // PDN captures use `x`, also for russian.
        assert!(text.contains("1. c3-d4 f6-e5 2. d4xf6 g7xe5 2-0"), "{text}");
        let moves: Vec<String> = moves.iter().map(|m| m.replace(':', "x")).collect();
        let twice = format!("{text}{}", write_game(&tags, &moves[1..], false, "*"));
        let games = parse_pdn(&twice).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, moves);
        assert_eq!(games[0].result, GameResult::WhiteWins);
        assert_eq!(games[0].variant(), Some(Variant::new(Base::Russian)));
        assert_eq!(games[1].moves, moves[1..].to_vec());
        assert!(twice.contains("1... f6-e5"));
    }

    #[test]
    fn reader_skips_comments_variations_and_numbers() {
        let text = "[GameType \"20\"]\n1.32-28 {a comment} 19-23 (2. 28x19 14x23) 2. 28x19!? $1 14x23 3... 1/2-1/2\n";
        let games = parse_pdn(text).unwrap();
        assert_eq!(games[0].moves, vec!["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(games[0].result, GameResult::Draw);
        assert_eq!(games[0].variant(), Some(Variant::new(Base::International)));
    }
}
