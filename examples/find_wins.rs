//! Generator of the "known forced wins" suite (`tests/wins/<ruleset>.txt`).
//!
//! Usage: `cargo run --release --example find_wins -- <ruleset> [games] [seed] [--write]`
//!
//! Candidates come from noisy self-play: games start from published opening ballots
//! (/work/shared/ballots) where there are some, else from the start position plus a few random
//! moves, and are played by the engine at a small depth with a share of uniformly random moves,
//! so that both sides blunder into shots. Every position of every game is handed to the
//! exhaustive prover (`tests/common_wins`, no evaluation, no pruning beyond proof cut-offs)
//! which looks for the shortest forced win of the side to move within `MAX_N` plies under a
//! node budget. Kept candidates have: N >= 5 plies, at least two legal moves and not all of
//! them winning within N, a proof that no win within N - 2 exists, and cheap proofs (so the
//! test stays fast). At most one position per game (the first one found: the longest line of
//! that combination). The selection then prefers sacrifices (after the winning move the
//! loser must capture), positions where the winner is not ahead in material, few winning
//! moves, and a mix of men and kings.
//!
//! Without `--write` the selection is printed; with it, `tests/wins/<ruleset>.txt` is written.

#[path = "../tests/common_wins/mod.rs"]
mod common_wins;

use common_wins::{Proof, Prover};
use kondavo::color::Color;
use kondavo::engine::{Engine, GameSpec, Options};
use kondavo::notation::{move_to_native, parse_hub_move, parse_position, to_fen};
use kondavo::position::Position;
use kondavo::rules::Rules;
use kondavo::score::Score;
use kondavo::search::{Control, Limits, Mode};
use kondavo::variant::{Base, Variant};
use kondavo::with_rules;
use std::collections::HashSet;
use std::fmt::Write as _;

/// Longest win looked for, in plies (draw rules cannot trigger this fast; see the prover).
const MAX_N: u32 = 13;
/// Node budget of one search for a shortest win.
const FIND_NODES: u64 = 300_000;
/// Proofs (win within N, and no win within N - 2) must each fit this budget.
const KEEP_NODES: u64 = 150_000;
/// Positions kept per rule set.
const KEEP: usize = 12;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Clone, Debug)]
struct Candidate {
    fen: String,
    n: u32,
    legal: usize,
    winning: usize,
    sacrifice: bool,
    /// Winner's material minus loser's (man 2, king 5, in half-units).
    lead: i32,
    men: u32,
    kings: u32,
    nodes: u64,
    first: String,
    game: usize,
}

impl Candidate {
    fn score(&self) -> i64 {
        let mut s = 0i64;
        if self.sacrifice {
            s += 40;
        }
        s += 4 * self.n.min(9) as i64;
        if self.winning == 1 {
            s += 15;
        }
        s -= 3 * self.lead.max(0) as i64;
        if self.kings > 0 && self.men > 0 {
            s += 10;
        }
        s -= (self.nodes / 20_000) as i64;
        s
    }
}

fn ballots(base: Base) -> Vec<String> {
    let dir = "/work/shared/ballots/";
    let files: &[&str] = match base {
        Base::International => &["international_2move.fen", "international_3move.fen"],
        Base::Brazilian => &["brazilian.json"],
        Base::Russian | Base::Ukrainian | Base::Czech => &["russian.json"],
        Base::English => &["3move_english.json"],
        Base::Italian => &["11_italian.json"],
        _ => &[],
    };
    let mut out = Vec::new();
    for f in files {
        let Ok(text) = std::fs::read_to_string(format!("{dir}{f}")) else { continue };
        // Every quoted string (or line) that looks like a FEN.
        for piece in text.split(['"', '\n']) {
            let p = piece.trim();
            if (p.starts_with("W:") || p.starts_with("B:")) && p.len() > 10 {
                out.push(p.to_string());
            }
        }
    }
    out
}

fn material<R: Rules>(pos: &Position<R>, c: Color) -> i32 {
    2 * pos.men(c).count() as i32 + 5 * pos.kings(c).count() as i32
}

/// Analyses one position; `Some` when it is a keepable candidate.
fn examine<R: Rules>(pos: &Position<R>, game: usize) -> Option<Candidate> {
    let legal = pos.legal_moves();
    if legal.len() < 2 {
        return None;
    }
    let mut p = Prover::<R>::new(FIND_NODES);
    let n = p.shortest_win(pos, MAX_N).ok()??;
    if n < 5 {
        return None;
    }
    // Fresh provers: what the test will have to pay.
    let mut p1 = Prover::<R>::new(KEEP_NODES);
    if p1.wins_within(pos, n) != Proof::Yes {
        return None;
    }
    let mut p2 = Prover::<R>::new(KEEP_NODES);
    if p2.wins_within(pos, n - 2) != Proof::No {
        return None;
    }
    let winning = p.winning_moves(pos, n).ok()?;
    if winning.is_empty() || winning.len() == legal.len() {
        return None;
    }
    let sacrifice = winning.iter().any(|&m| {
        let next = pos.after(m);
        let replies = next.legal_moves();
        !replies.is_empty() && replies.iter().all(|r| r.is_capture())
    });
    let me = pos.side();
    let all = pos.pieces(Color::White) | pos.pieces(Color::Black);
    let kings = pos.all_kings().count();
    Some(Candidate {
        fen: to_fen(pos),
        n,
        legal: legal.len(),
        winning: winning.len(),
        sacrifice,
        lead: material(pos, me) - material(pos, !me),
        men: all.count() - kings,
        kings,
        nodes: p1.nodes + p2.nodes,
        first: move_to_native(pos, winning[0]),
        game,
    })
}

fn run<R: Rules>(variant: Variant, games: usize, seed: u64) -> Vec<Candidate> {
    let engine = Engine::new(Options { variant, threads: 1, hash_mib: 16, ..Options::default() });
    let mut rng = Rng(seed | 1);
    let starts = ballots(R::BASE);
    let mut found: Vec<Candidate> = Vec::new();
    let mut seen = HashSet::new();
    let mut audits = (0usize, 0usize);
    for g in 0..games {
        let mut pos: Position<R> = if starts.is_empty() {
            Position::start()
        } else {
            match parse_position::<R>(&starts[rng.below(starts.len())]) {
                Ok(p) => p,
                Err(_) => continue,
            }
        };
        let opening = if starts.is_empty() { 4 + rng.below(4) } else { 0 };
        let noise = 10 + rng.below(20); // percent of random moves
        let depth = 2 + rng.below(4) as u32;
        engine.new_game();
        let mut have = false;
        for ply in 0..240 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply >= opening
                && !have
                && seen.insert(pos.key())
                && let Some(c) = examine(&pos, g)
            {
                eprintln!(
                    "game {g} ply {ply}: {} ; win in {} ({}/{} win, sac {}, lead {}, nodes {}) {}",
                    c.fen, c.n, c.winning, c.legal, c.sacrifice, c.lead, c.nodes, c.first
                );
                found.push(c);
                have = true; // one position per game: the start of its combination
            }
            let mv = if ply < opening || rng.below(100) < noise {
                moves[rng.below(moves.len())]
            } else {
                let spec = GameSpec { start: to_fen(&pos), moves: vec![] };
                let limits = Limits { depth: Some(depth), ..Limits::default() };
                let done = engine
                    .search(&spec, &limits, Mode::Think, &Control::new(), &mut |_| {})
                    .expect("search");
                match done.best.and_then(|b| parse_hub_move(&pos, &b.hub).ok()) {
                    Some(m) => {
                        audit(&pos, m, done.score, &mut audits);
                        m
                    }
                    None => break,
                }
            };
            pos = pos.after(mv);
            // After a combination is found, let the game go on: the next one starts fresh.
            if have && mv.is_capture() && rng.below(3) == 0 {
                have = false;
            }
        }
    }
    eprintln!(
        "audit: {} decisive engine scores checked by the prover, {} refuted",
        audits.0, audits.1
    );
    found
}

/// Checks a decisive score of the engine (and its move) against the prover: a "win in M"
/// must be a forced win within M plies kept by the move; a "loss in M" a forced loss.
fn audit<R: Rules>(
    pos: &Position<R>,
    mv: kondavo::moves::Move,
    score: Score,
    audits: &mut (usize, usize),
) {
    let Some(m) = score.plies_to_end() else { return };
    let m = m as u32;
    if m > MAX_N + 2 {
        return;
    }
    let mut p = Prover::<R>::new(FIND_NODES);
    let verdict = if score.0 > 0 {
        (p.wins_within(pos, m), p.loses_within(&pos.after(mv), m.saturating_sub(1)))
    } else {
        (p.loses_within(pos, m), Proof::Yes)
    };
    if verdict.0 == Proof::Unknown || verdict.1 == Proof::Unknown {
        return;
    }
    audits.0 += 1;
    if verdict != (Proof::Yes, Proof::Yes) {
        audits.1 += 1;
        eprintln!(
            "AUDIT: engine says {score} with {} in {} — prover: position {:?}, after the move {:?}",
            move_to_native(pos, mv),
            to_fen(pos),
            verdict.0,
            verdict.1
        );
    }
}

fn select(mut found: Vec<Candidate>) -> Vec<Candidate> {
    found.sort_by_key(|c| std::cmp::Reverse(c.score()));
    let mut out: Vec<Candidate> = Vec::new();
    let mut fens = HashSet::new();
    // First pass: at most one per game and no duplicates; second pass fills up.
    for pass in 0..2 {
        for c in &found {
            if out.len() >= KEEP {
                break;
            }
            if fens.contains(&c.fen) {
                continue;
            }
            if pass == 0 && out.iter().any(|o| o.game == c.game) {
                continue;
            }
            // Keep the suite varied and cheap: at most a third of the lines at the longest N.
            if pass == 0 && c.n >= MAX_N && out.iter().filter(|o| o.n >= MAX_N).count() >= KEEP / 3
            {
                continue;
            }
            fens.insert(c.fen.clone());
            out.push(c.clone());
        }
    }
    out.sort_by(|a, b| a.n.cmp(&b.n).then(a.fen.cmp(&b.fen)));
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant: Variant = args.get(1).expect("rule set").parse().expect("known rule set");
    let games: usize = args.get(2).map_or(40, |s| s.parse().expect("games"));
    let seed: u64 = args.get(3).map_or(0x5eed, |s| s.parse().expect("seed"));
    let write = args.iter().any(|a| a == "--write");
    let found = with_rules!(variant, R => run::<R>(variant, games, seed));
    let chosen = select(found.clone());
    let mut text = String::new();
    let source = if ballots(variant.base).is_empty() {
        "the start position plus random opening moves"
    } else {
        "published opening ballots (/work/shared/ballots)"
    };
    let _ = writeln!(
        text,
        "# Known forced wins, {variant}: one position per line, `<FEN> ; win in N`.\n\
         # N = the shortest forced win of the side to move, in plies (the opponent is left\n\
         # without a legal move). Produced by `cargo run --release --example find_wins --\n\
         # {variant} {games} {seed} --write` (noisy self-play from {source};\n\
         # the games depend on the engine version). Each N is proven by the exhaustive AND/OR\n\
         # prover of tests/common_wins (a win within N plies, none within N - 2) and checked\n\
         # again, with the engine's answer, by tests/it/search_wins.rs.\n\
         # Selection: N >= 5, not every legal move wins, sacrifices preferred."
    );
    for c in &chosen {
        let _ = writeln!(text, "{} ; win in {}", c.fen, c.n);
        eprintln!(
            "keep: win in {:2} {}/{} win sac {} lead {:3} men {:2} kings {} nodes {:6} first {}  {}",
            c.n,
            c.winning,
            c.legal,
            c.sacrifice as u8,
            c.lead,
            c.men,
            c.kings,
            c.nodes,
            c.first,
            c.fen
        );
    }
    eprintln!("{} candidates, {} kept", found.len(), chosen.len());
    if write {
        let path = format!("tests/wins/{}.txt", variant);
        std::fs::create_dir_all("tests/wins").expect("mkdir");
        std::fs::write(&path, &text).expect("write");
        eprintln!("wrote {path}");
    } else {
        print!("{text}");
    }
}
