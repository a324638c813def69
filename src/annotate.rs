//! Game analysis: every position of a PDN game searched, each move judged by what it cost in
//! expected score, and the game written back as PDN with the scores, NAGs and better lines.
//!
//! How a move is judged: the position before it is searched (the mover's best score `s₀`
//! and the best line) and so is the position after it (the opponent's score, negated: the
//! mover's score `s₁` after the move). Both become expected scores `E = win + draw/2` with the
//! rule set's win/draw/loss model ([`crate::wdl`]), which knows that in draughts a small
//! advantage is mostly a draw; the move's loss is `E(s₀) − E(s₁)` (zero when the move played
//! is the search's best move). Losses from the thresholds up are inaccuracies (`?!`), mistakes
//! (`?`) and blunders (`??`); each gets the best line as a variation.
//!
//! Positions are searched from the last to the first, so that the hash table carries what
//! the search learnt about later positions (where a game's tactics end) back to the earlier
//! ones. Every search sees the game's history (repetitions and the draw counters).

use crate::color::Color;
use crate::engine::{Engine, GameSpec};
use crate::error::{Error, Result};
use crate::eval::Eval;
use crate::game::{DrawRules, Game, Outcome};
use crate::matches::openings;
use crate::moves::Move;
use crate::notation;
use crate::pdn::{self, AnnotatedMove, PdnGame};
use crate::position::Position;
use crate::rules::Rules;
use crate::score::Score;
use crate::search::{Control, Limits, Mode};
use crate::variant::Variant;
use crate::wdl::{self, Wdl};
use crate::with_rules;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// What to analyse and how to judge it.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Search budget per position.
    pub limits: Limits,
    /// Judge only this side's moves (both sides' when `None`).
    pub side: Option<Color>,
    /// First move number judged.
    pub from_move: u32,
    /// Last move number judged.
    pub to_move: u32,
    /// Plies at the start of each game left alone.
    pub skip_plies: usize,
    /// Leave alone the plies that lead to one of the rule set's built-in openings.
    pub skip_book: bool,
    /// Expected-score losses (0..1) from which a move is an inaccuracy, a mistake, a blunder.
    pub thresholds: [f64; 3],
    /// Write the win/draw/loss chances in the comments.
    pub wdl: bool,
    /// Plies of a better line given as a variation.
    pub line_plies: usize,
    /// The rule set of games without a `GameType` or `Variant` tag.
    pub fallback: Variant,
    /// The `Annotator` tag written into each game.
    pub annotator: String,
    /// A weights file for the games of the `fallback` rule set (the file is for that rule set;
    /// games of another one use their built-in weights).
    pub eval_file: Option<String>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            limits: Limits { nodes: Some(500_000), ..Limits::default() },
            side: None,
            from_move: 1,
            to_move: u32::MAX,
            skip_plies: 0,
            skip_book: false,
            thresholds: [0.05, 0.10, 0.15],
            wdl: false,
            line_plies: 8,
            fallback: Variant::default(),
            eval_file: None,
            annotator: format!("kondavo {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// A judgement of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Judgement {
    /// The NAG written after the move.
    pub fn nag(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The judgement of a loss in expected score under `thresholds`.
    pub fn of(loss: f64, thresholds: &[f64; 3]) -> Option<Judgement> {
        if loss >= thresholds[2] {
            Some(Judgement::Blunder)
        } else if loss >= thresholds[1] {
            Some(Judgement::Mistake)
        } else if loss >= thresholds[0] {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// One side's figures in a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SideSummary {
    /// Moves judged.
    pub moves: usize,
    /// `?!` moves.
    pub inaccuracies: usize,
    /// `?` moves.
    pub mistakes: usize,
    /// `??` moves.
    pub blunders: usize,
    /// Mean loss in expected score per judged move (0..1).
    pub average_loss: f64,
}

/// One judged move, for the JSON summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveNote {
    /// Ply of the game (0 = the first move).
    pub ply: usize,
    /// Move number as written in the PDN.
    pub number: usize,
    /// The side that played it.
    pub side: String,
    /// The move.
    pub r#move: String,
    /// The search's best move in the position before it.
    pub best: Option<String>,
    /// The mover's score before (best play) and after the move, in men.
    pub score_before: f64,
    /// See `score_before`.
    pub score_after: f64,
    /// Loss in expected score (0..1).
    pub loss: f64,
    /// The judgement, if the loss reaches a threshold.
    pub judgement: Option<Judgement>,
}

/// The summary of one annotated game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Game number in the input (1-based).
    pub game: usize,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The rule set.
    pub variant: String,
    /// The result token.
    pub result: String,
    /// Plies in the game.
    pub plies: usize,
    /// Positions searched.
    pub positions: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// White's figures.
    pub white_side: SideSummary,
    /// Black's figures.
    pub black_side: SideSummary,
    /// Every judged move.
    pub moves: Vec<MoveNote>,
}

/// An annotated game.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotated {
    /// The game as PDN, with comments.
    pub pdn: String,
    /// Its summary.
    pub summary: Summary,
}

/// Position keys of the built-in openings, per rule set, made once and shared by the jobs.
#[derive(Default)]
pub struct BookCache(Mutex<HashMap<Variant, Arc<HashSet<u64>>>>);

impl BookCache {
    fn get<R: Rules>(&self) -> Result<Arc<HashSet<u64>>> {
        let variant = R::variant();
        let mut map = self.0.lock().map_err(|_| Error("the book cache is poisoned".into()))?;
        if let Some(set) = map.get(&variant) {
            return Ok(Arc::clone(set));
        }
        let mut set = HashSet::new();
        for o in openings::builtin(variant)? {
            let start = notation::parse_position::<R>(&o.start)?;
            let mut game = Game::new(start, DrawRules::of(variant, false));
            set.insert(game.position().key());
            for m in &o.moves {
                game.play_protocol(m)?;
                set.insert(game.position().key());
            }
        }
        let set = Arc::new(set);
        map.insert(variant, Arc::clone(&set));
        Ok(set)
    }
}

/// The search result of one position of the game.
#[derive(Clone, Debug)]
struct Searched {
    /// Score for the side to move.
    score: Score,
    depth: u32,
    nodes: u64,
    wdl: Wdl,
    /// Best line, native notation (empty at a game end).
    pv: Vec<String>,
}

/// The rule set of a game: its `Variant` or `GameType` tag, else `fallback`.
pub fn variant_of(game: &PdnGame, fallback: Variant) -> Result<Variant> {
    if let Some(v) = game.variant() {
        return Ok(v);
    }
    if let Some(t) = game.tag("Variant") {
        return Err(Error(format!("unknown Variant \"{t}\"")));
    }
    if let Some(t) = game.tag("GameType") {
        return Err(Error(format!("unknown GameType \"{t}\"")));
    }
    Ok(fallback)
}

/// The number of positions of a game, at most the searches `annotate` makes for it (for a
/// progress bar).
pub fn positions_of(game: &PdnGame) -> usize {
    game.moves.len() + 1
}

/// Annotates one game (`number` is its place in the input, for the summary). `engine` is
/// switched to the game's rule set; `tick` is called after every position searched.
pub fn annotate(
    engine: &mut Engine,
    game: &PdnGame,
    number: usize,
    settings: &Settings,
    book: &BookCache,
    tick: &mut dyn FnMut(),
) -> Result<Annotated> {
    let variant = variant_of(game, settings.fallback)?;
    if engine.options().variant != variant {
        let mut options = engine.options().clone();
        options.variant = variant;
        options.eval_file =
            settings.eval_file.clone().filter(|_| variant.base == settings.fallback.base);
        engine.set_options(options)?;
    }
    engine.new_game();
    with_rules!(variant, R => annotate_typed::<R>(engine, game, number, settings, book, tick))
}

fn annotate_typed<R: Eval>(
    engine: &Engine,
    g: &PdnGame,
    number: usize,
    s: &Settings,
    book: &BookCache,
    tick: &mut dyn FnMut(),
) -> Result<Annotated> {
    let base = R::variant().base;
    let start_text = g.tag("FEN").unwrap_or("start").to_string();
    let start =
        notation::parse_position::<R>(&start_text).map_err(|e| Error(format!("FEN tag: {e}")))?;
    let first_mover_starts = start.side() == R::FIRST;
    let offset = usize::from(!first_mover_starts);
    let move_number = |ply: usize| (ply + offset) / 2 + 1;
    let label = |ply: usize| {
        let dots = if (ply + offset).is_multiple_of(2) { "." } else { "..." };
        format!("{}{dots}", move_number(ply))
    };

    // Replay: every move must be legal.
    let mut game = Game::new(start, DrawRules::of(R::variant(), engine.options().fmjd_draws));
    let mut moves: Vec<Move> = Vec::with_capacity(g.moves.len());
    let mut natives = Vec::with_capacity(g.moves.len());
    let mut hubs = Vec::with_capacity(g.moves.len());
    let mut positions: Vec<Position<R>> = vec![start];
    for (ply, text) in g.moves.iter().enumerate() {
        let before = *game.position();
        if game.outcome().is_some() && before.legal_moves().is_empty() {
            return Err(Error(format!(
                "move {} {}: the game is over (no legal move)",
                label(ply),
                text
            )));
        }
        let mv = game
            .play_text(text)
            .map_err(|e| Error(format!("move {} {}: {e}", label(ply), text)))?;
        moves.push(mv);
        natives.push(notation::move_to_native(&before, mv));
        hubs.push(notation::move_to_hub::<R>(mv));
        positions.push(*game.position());
    }
    let n = moves.len();

    // Which plies are judged.
    let book_end = if s.skip_book {
        let set = book.get::<R>()?;
        (0..n).filter(|&i| set.contains(&positions[i + 1].key())).max().map_or(0, |i| i + 1)
    } else {
        0
    };
    let judged: Vec<bool> = (0..n)
        .map(|i| {
            let number = move_number(i) as u64;
            i >= s.skip_plies
                && i >= book_end
                && s.side.is_none_or(|c| positions[i].side() == c)
                && number >= u64::from(s.from_move)
                && number <= u64::from(s.to_move)
        })
        .collect();
    let mut needed = vec![false; n + 1];
    for i in (0..n).filter(|&i| judged[i]) {
        needed[i] = true;
        needed[i + 1] = true;
    }

    // Search the positions, last first.
    let final_outcome = game.outcome();
    let mut evals: Vec<Option<Searched>> = vec![None; n + 1];
    for j in (0..=n).rev().filter(|&j| needed[j]) {
        let pos = positions[j];
        // A game end is scored by the rules, not searched.
        let end = |score: Score| Searched {
            score,
            depth: 0,
            nodes: 0,
            wdl: wdl::of(base, score, pos.occupied().count()),
            pv: vec![],
        };
        let e = if pos.legal_moves().is_empty() {
            end(Score::loss_in(0))
        } else if j == n
            && matches!(final_outcome, Some(Outcome::Repetition | Outcome::MoveCounter))
        {
            end(Score::DRAW)
        } else {
            let spec = GameSpec { start: start_text.clone(), moves: hubs[..j].to_vec() };
            let done =
                engine.search(&spec, &s.limits, Mode::Analyze, &Control::new(), &mut |_| {})?;
            Searched {
                score: done.score,
                depth: done.depth,
                nodes: done.nodes,
                wdl: done.wdl,
                pv: done.pv.iter().map(|m| m.native.clone()).collect(),
            }
        };
        evals[j] = Some(e);
        tick();
    }

    // Judge the moves and write the game.
    let white_view = |score: Score, side: Color| if side == Color::White { score } else { -score };
    let comment = |e: &Searched, side: Color| {
        let w = white_view(e.score, side);
        let mut c = format!("{}/{}", score_text(w), e.depth);
        if s.wdl {
            let chances = if side == Color::White { e.wdl } else { e.wdl.flip() };
            c.push_str(&format!(" wdl={chances}"));
        }
        c
    };
    let mut out_moves = Vec::with_capacity(n);
    let mut notes = Vec::new();
    let mut sides = [SideSummary::default(), SideSummary::default()];
    let mut loss_sums = [0.0f64; 2];
    for i in 0..n {
        let mut am = AnnotatedMove { text: natives[i].clone(), ..AnnotatedMove::default() };
        if let (true, Some(before), Some(after)) = (judged[i], &evals[i], &evals[i + 1]) {
            let mover = positions[i].side();
            let best = before.pv.first().cloned();
            let played_best = best.as_deref() == Some(natives[i].as_str());
            let e_before = before.wdl.expected();
            let e_after = after.wdl.flip().expected();
            let loss = if played_best { 0.0 } else { (e_before - e_after).max(0.0) };
            let judgement = Judgement::of(loss, &s.thresholds);
            if after.depth > 0 {
                am.comment = Some(comment(after, positions[i + 1].side()));
            }
            if let Some(j) = judgement {
                am.nag = j.nag();
                let line: Vec<String> =
                    before.pv.iter().take(s.line_plies.max(1)).cloned().collect();
                am.variation = line
                    .into_iter()
                    .enumerate()
                    .map(|(k, m)| (m, (k == 0).then(|| comment(before, mover))))
                    .collect();
            }
            let k = usize::from(mover == Color::Black);
            sides[k].moves += 1;
            loss_sums[k] += loss;
            match judgement {
                Some(Judgement::Inaccuracy) => sides[k].inaccuracies += 1,
                Some(Judgement::Mistake) => sides[k].mistakes += 1,
                Some(Judgement::Blunder) => sides[k].blunders += 1,
                None => {}
            }
            notes.push(MoveNote {
                ply: i,
                number: move_number(i),
                side: mover.to_string(),
                r#move: natives[i].clone(),
                best,
                score_before: men(before.score),
                score_after: men(-after.score),
                loss: (loss * 1e4).round() / 1e4,
                judgement,
            });
        }
        out_moves.push(am);
    }
    for k in 0..2 {
        if sides[k].moves > 0 {
            sides[k].average_loss = (loss_sums[k] / sides[k].moves as f64 * 1e4).round() / 1e4;
        }
    }

    let mut tags: Vec<(String, String)> =
        g.tags.iter().filter(|(k, _)| !k.eq_ignore_ascii_case("Annotator")).cloned().collect();
    let annotator = format!("{}, {}", s.annotator, budget_text(&s.limits));
    let at = tags
        .iter()
        .position(|(k, _)| k.eq_ignore_ascii_case("Result"))
        .map_or(tags.len(), |p| p + 1);
    tags.insert(at, ("Annotator".to_string(), annotator));
    let result = g.result.to_pdn(base);
    let pdn = pdn::write_annotated(&tags, &out_moves, first_mover_starts, result);
    let [white_side, black_side] = sides;
    let summary = Summary {
        game: number,
        white: g.tag("White").unwrap_or("?").to_string(),
        black: g.tag("Black").unwrap_or("?").to_string(),
        variant: R::variant().name(),
        result: result.to_string(),
        plies: n,
        positions: needed.iter().filter(|&&x| x).count(),
        nodes: evals.iter().flatten().map(|e| e.nodes).sum(),
        white_side,
        black_side,
        moves: notes,
    };
    Ok(Annotated { pdn, summary })
}

/// A score in men as the comments write it: `+0.35`, or `#+12` / `#-12` for a forced end in
/// so many plies (won for White / for Black).
pub fn score_text(white: Score) -> String {
    match white.plies_to_end() {
        Some(n) if white.0 > 0 => format!("#+{n}"),
        Some(n) => format!("#-{n}"),
        None => format!("{:+.2}", f64::from(white.0) / 100.0),
    }
}

fn men(s: Score) -> f64 {
    if s.is_decisive() { if s.0 > 0 { 99.0 } else { -99.0 } } else { f64::from(s.0) / 100.0 }
}

/// The search budget as the `Annotator` tag states it.
pub fn budget_text(l: &Limits) -> String {
    if let Some(d) = l.depth {
        format!("depth {d} per position")
    } else if let Some(n) = l.nodes {
        format!("{n} nodes per position")
    } else if let Some(t) = l.movetime {
        format!("{} s per position", t.as_secs_f64())
    } else {
        "unlimited".to_string()
    }
}

/// One line for a person: `game 3 (A - B): white 1 ?!, 0 ?, 1 ??, average loss 2.1%; black …`.
pub fn summary_line(s: &Summary) -> String {
    let side = |name: &str, x: &SideSummary| {
        format!(
            "{name} {} ?!, {} ?, {} ?? in {} moves, average loss {:.1}%",
            x.inaccuracies,
            x.mistakes,
            x.blunders,
            x.moves,
            x.average_loss * 100.0
        )
    };
    format!(
        "game {} ({} - {}, {}): {}; {}",
        s.game,
        s.white,
        s.black,
        s.result,
        side("white", &s.white_side),
        side("black", &s.black_side)
    )
}
