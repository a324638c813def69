//! Opening sets for matches: the published ballots where they exist, kondavo's own balanced
//! three-ply openings elsewhere, or a file of PDN games or FEN lines.

use crate::bail;
use crate::engine::{Engine, GameSpec, Options};
use crate::error::{Error, Result};
use crate::eval::Eval;
use crate::moves::MoveList;
use crate::notation;
use crate::pdn;
use crate::position::Position;
use crate::search::{Control, Limits, Mode};
use crate::variant::{Base, Variant};
use crate::with_rules;
use std::collections::HashSet;

/// An opening: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A name (ballot name, or the moves).
    pub name: String,
    /// Start position: `start`, a FEN or a Hub string.
    pub start: String,
    /// Moves from the start position, in Hub notation (as `GameSpec` takes them).
    pub moves: Vec<String>,
}

/// Ballot data built into the binary (see `data/ballots/README.md`).
fn ballot_json(base: Base) -> Option<&'static str> {
    match base {
        Base::English => Some(include_str!("../../data/ballots/3move_english.json")),
        Base::Italian => Some(include_str!("../../data/ballots/11_italian.json")),
        Base::Russian | Base::Ukrainian => Some(include_str!("../../data/ballots/russian.json")),
        Base::Brazilian => Some(include_str!("../../data/ballots/brazilian.json")),
        _ => None,
    }
}

fn from_ballot_json(text: &str) -> Result<Vec<Opening>> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error(format!("bad ballot file: {e}")))?;
    let all = v
        .get("all")
        .and_then(|a| a.as_object())
        .ok_or_else(|| Error("ballot file has no \"all\"".into()))?;
    let lost: HashSet<&str> = v
        .get("lost")
        .and_then(|l| l.as_array())
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str())
        .collect();
    let names: Vec<&str> = match v.get("standard").and_then(|s| s.as_array()) {
        Some(list) => list.iter().filter_map(|x| x.as_str()).collect(),
        None => all.keys().map(String::as_str).collect(),
    };
    Ok(names
        .into_iter()
        .filter(|n| !lost.contains(n))
        .filter_map(|n| {
            let fen = all.get(n)?.as_str()?;
            Some(Opening { name: n.to_string(), start: fen.to_string(), moves: Vec::new() })
        })
        .collect())
}

/// Every distinct position `plies` plies from the start whose shallow search (depth 4) keeps
/// the score within `margin` centi-men of equal, in generation order. The search uses the
/// hand-set evaluation, so the opening set does not move with every new weights file.
fn generated<R: Eval>(plies: usize, margin: i32) -> Result<Vec<Opening>> {
    let mut seen = HashSet::new();
    // Each line: the position, its moves in native and in Hub notation.
    type Line<R> = (Position<R>, Vec<String>, Vec<String>);
    let mut lines: Vec<Line<R>> = vec![(Position::start(), Vec::new(), Vec::new())];
    for _ in 0..plies {
        let mut next = Vec::new();
        for (pos, native, hub) in &lines {
            let list: MoveList = pos.legal_moves();
            for &m in &list {
                let child = pos.after(m);
                if seen.insert((child.key(), native.len())) {
                    let (mut n, mut h) = (native.clone(), hub.clone());
                    n.push(notation::move_to_native(pos, m));
                    h.push(notation::move_to_hub::<R>(m));
                    next.push((child, n, h));
                }
            }
        }
        lines = next;
    }
    let mut engine =
        Engine::new(Options { variant: R::variant(), hash_mib: 4, ..Options::default() });
    engine.use_hand_eval();
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let mut out = Vec::new();
    for (pos, native, hub) in lines {
        if pos.legal_moves().is_empty() {
            continue;
        }
        let spec = GameSpec { start: notation::to_fen(&pos), moves: Vec::new() };
        let done = engine.search(&spec, &limits, Mode::Analyze, &Control::new(), &mut |_| {})?;
        if done.score.0.abs() <= margin {
            out.push(Opening { name: native.join(" "), start: "start".into(), moves: hub });
        }
    }
    Ok(out)
}

/// Plies and balance margin (centi-men) of kondavo's generated openings.
const PLIES: usize = 3;
const MARGIN: i32 = 30;

/// kondavo's generated openings, computed once by `generated` and kept in `data/openings`
/// (a test checks the files against the generator), so a match starts at once.
fn generated_file(base: Base) -> Option<&'static str> {
    match base {
        Base::International => Some(include_str!("../../data/openings/international.txt")),
        Base::Spanish => Some(include_str!("../../data/openings/spanish.txt")),
        Base::Czech => Some(include_str!("../../data/openings/czech.txt")),
        Base::Turkish => Some(include_str!("../../data/openings/turkish.txt")),
        Base::Frisian => Some(include_str!("../../data/openings/frisian.txt")),
        Base::Frysk => Some(include_str!("../../data/openings/frysk.txt")),
        _ => None,
    }
}

/// Openings written one per line as native moves from the start (`#` lines are comments).
fn from_move_lines(text: &str, variant: Variant) -> Result<Vec<Opening>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let native: Vec<String> = l.split_whitespace().map(str::to_string).collect();
            let moves = with_rules!(variant, R => native_to_hub::<R>("start", &native))?;
            Ok(Opening { name: l.to_string(), start: "start".into(), moves })
        })
        .collect()
}

/// The generated openings of `variant` in the format of `data/openings` (for regenerating
/// the files: `cargo test --release -- --ignored write_generated_openings`).
pub fn generated_lines(variant: Variant) -> Result<String> {
    let list = with_rules!(variant, R => generated::<R>(PLIES, MARGIN)?);
    let mut out = format!(
        "# {variant}: every position {PLIES} plies from the start that a depth-4 search finds within \
         {:.2} of equal;\n# generated by kondavo (src/matches/openings.rs). One opening per line.\n",
        f64::from(MARGIN) / 100.0
    );
    for o in list {
        out.push_str(&o.name);
        out.push('\n');
    }
    Ok(out)
}

/// The built-in openings of `variant`: the published ballots (english 3-move deck, italian
/// eleven-man ballots, russian and brazilian tables; ukrainian uses the russian one) or, for
/// international, spanish, czech, turkish, frisian and frysk!, kondavo's balanced three-ply
/// openings.
pub fn builtin(variant: Variant) -> Result<Vec<Opening>> {
    let openings = match (ballot_json(variant.base), generated_file(variant.base)) {
        (Some(text), _) => from_ballot_json(text)?,
        (None, Some(text)) => from_move_lines(text, variant)?,
        (None, None) => with_rules!(variant, R => generated::<R>(PLIES, MARGIN)?),
    };
    if openings.is_empty() {
        bail!("no built-in openings for {variant}");
    }
    Ok(openings)
}

/// Openings from a file: PDN games (their `FEN` tag or the start, then their moves) or one
/// position per line (FEN or Hub string; `#` lines are comments). Every opening is checked.
pub fn from_file(text: &str, variant: Variant) -> Result<Vec<Opening>> {
    let looks_pdn = text.lines().any(|l| l.trim_start().starts_with('['))
        || text
            .split_whitespace()
            .any(|t| t.ends_with('.') && t[..t.len() - 1].bytes().all(|b| b.is_ascii_digit()));
    let openings: Vec<Opening> = if looks_pdn {
        pdn::parse_pdn(text)?
            .into_iter()
            .enumerate()
            .map(|(i, g)| Opening {
                name: g.tag("Event").map_or_else(|| format!("game {}", i + 1), str::to_string),
                start: g.tag("FEN").unwrap_or("start").to_string(),
                moves: g.moves,
            })
            .collect()
    } else {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .enumerate()
            .map(|(i, l)| Opening {
                name: format!("line {}", i + 1),
                start: l.to_string(),
                moves: Vec::new(),
            })
            .collect()
    };
    if openings.is_empty() {
        bail!("the openings file holds no opening");
    }
    // PDN moves are in native notation: replay them and keep them in Hub notation.
    openings
        .into_iter()
        .enumerate()
        .map(|(i, mut o)| {
            o.moves = with_rules!(variant, R => native_to_hub::<R>(&o.start, &o.moves))
                .map_err(|e| Error(format!("opening {} ({}): {e}", i + 1, o.name)))?;
            Ok(o)
        })
        .collect()
}

/// `moves` (native notation) played from `start`, in Hub notation.
fn native_to_hub<R: Eval>(start: &str, moves: &[String]) -> Result<Vec<String>> {
    let mut pos = notation::parse_position::<R>(start)?;
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let mv = notation::parse_native_move(&pos, m)?;
        out.push(notation::move_to_hub::<R>(mv));
        pos = pos.after(mv);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ballots_load_and_skip_lost_ones() {
        let english = builtin(Variant::new(Base::English)).unwrap();
        assert_eq!(english.len(), 157);
        let russian = builtin(Variant::new(Base::Russian)).unwrap();
        assert_eq!(russian.len(), 745);
        let italian = builtin(Variant::new(Base::Italian)).unwrap();
        assert_eq!(italian.len(), 2400);
    }

    const GENERATED: [Base; 6] = [
        Base::International,
        Base::Spanish,
        Base::Czech,
        Base::Turkish,
        Base::Frisian,
        Base::Frysk,
    ];

    #[test]
    #[cfg_attr(debug_assertions, ignore = "searches hundreds of positions")]
    fn generated_opening_files_match_the_generator() {
        for base in GENERATED {
            let v = Variant::new(base);
            assert_eq!(
                generated_file(base).unwrap(),
                generated_lines(v).unwrap(),
                "{base:?}: regenerate data/openings"
            );
            let n = builtin(v).unwrap().len();
            assert!(n >= 50, "{base:?}: only {n} openings");
        }
    }

    #[test]
    #[ignore = "writes data/openings"]
    fn write_generated_openings() {
        for base in GENERATED {
            let path = format!("{}/data/openings/{}.txt", env!("CARGO_MANIFEST_DIR"), base.id());
            std::fs::write(path, generated_lines(Variant::new(base)).unwrap()).unwrap();
        }
    }

    #[test]
    fn files_of_fens_and_pdn() {
        let v = Variant::new(Base::International);
        let fens = from_file(
            "# two\nW:W31-50:B1-20\nWbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n",
            v,
        )
        .unwrap();
        assert_eq!(fens.len(), 2);
        let games =
            from_file("[Event \"a\"]\n1. 32-28 19-23 *\n\n[Event \"b\"]\n1. 33-28 *\n", v).unwrap();
        assert_eq!(games[0].moves, vec!["32-28", "19-23"]);
        // English: native 11-15 is Hub 22-18.
        let english =
            from_file("[Event \"e\"]\n1. 11-15 *\n", Variant::new(Base::English)).unwrap();
        assert_eq!(english[0].moves, vec!["22-18"]);
        assert_eq!(games[1].name, "b");
        assert!(from_file("[Event \"x\"]\n1. 31-22 *\n", v).is_err());
        assert!(from_file("\n# nothing\n", v).is_err());
    }
}
