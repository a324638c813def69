//! Known forced wins: for every rule set, positions from `tests/wins/<ruleset>.txt`
//! (`<FEN> ; win in N`, produced by `examples/find_wins.rs`) where the side to move has a
//! forced win of the game in exactly N plies.
//!
//! For every position:
//! (a) the exhaustive prover (`tests/common_wins`: plain AND/OR search to the end of the
//!     game, no evaluation, no pruning beyond proof cut-offs) proves the win within N plies
//!     and refutes any win within N - 2 (so N is the shortest win);
//! (b) the engine — fresh hash table, one thread, at most `NODES` nodes — returns a best move
//!     that the prover confirms keeps the win (the opponent loses within N - 1 plies);
//! (c) the engine's score is a win, and not a shorter one than the proven N (a "win in M"
//!     with M < N would be a false claim).
//!
//! The engine searches in `Mode::Think`, which stops by itself once a forced result has been
//! searched a few plies past its end; the node budget is the hard limit.

use crate::common_wins::{Proof, Prover};
use kondavo::engine::{Engine, GameSpec, Options};
use kondavo::eval::Eval;
use kondavo::notation::{parse_hub_move, parse_position, to_fen};
use kondavo::search::{Control, Limits, Mode};
use kondavo::variant::Variant;
use kondavo::with_rules;

/// The engine's node budget per position.
const NODES: u64 = 2_000_000;
/// The prover's budget per question (far above what any suite position needs).
const PROVER_NODES: u64 = 5_000_000;
/// Every rule set must have at least this many positions.
const MIN_POSITIONS: usize = 10;

fn positions(variant: &str) -> Vec<(String, u32)> {
    let path = format!("{}/tests/wins/{variant}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (fen, n) = l.split_once(';').unwrap_or_else(|| panic!("{path}: bad line {l}"));
            let n = n.trim().strip_prefix("win in").and_then(|n| n.trim().parse().ok());
            (fen.trim().to_string(), n.unwrap_or_else(|| panic!("{path}: bad line {l}")))
        })
        .collect()
}

fn check<R: Eval>(variant: Variant, fen: &str, n: u32, engine: &Engine) -> Result<(), String> {
    let fail = |what: String| Err(format!("{variant} `{fen}` (win in {n}): {what}"));
    let pos = match parse_position::<R>(fen) {
        Ok(p) => p,
        Err(e) => return fail(format!("bad FEN: {e}")),
    };
    if n.is_multiple_of(2) {
        return fail("a forced win has an odd number of plies".into());
    }
    // (a) The proof.
    match Prover::<R>::new(PROVER_NODES).wins_within(&pos, n) {
        Proof::Yes => {}
        other => return fail(format!("prover: win within {n} is {other:?}")),
    }
    if n >= 3 {
        match Prover::<R>::new(PROVER_NODES).wins_within(&pos, n - 2) {
            Proof::No => {}
            other => return fail(format!("prover: win within {} is {other:?}", n - 2)),
        }
    }
    // (b) The engine's move.
    engine.new_game();
    let spec = GameSpec { start: fen.to_string(), moves: vec![] };
    // Diagnostics: WINS_VERBOSE=1 prints every result; WINS_DEEP=1 does not let the engine
    // stop by itself: it searches the whole node budget (or to depth N + 12), so a false
    // decisive score found by deeper iterations would show.
    let deep = std::env::var_os("WINS_DEEP").is_some();
    let limits = Limits { nodes: Some(NODES), infinite: deep, ..Limits::default() };
    let control = Control::new();
    // Nodes spent when the engine first reported the proven win (for the verbose output).
    let mut found_at = None;
    let mut on_report = |r: kondavo::engine::Report| {
        if found_at.is_none() && r.score.0 > 0 && r.score.plies_to_end() == Some(n as i32) {
            found_at = Some(r.nodes);
        }
        if deep && r.depth >= n + 12 {
            control.stop();
        }
    };
    let done = match engine.search(&spec, &limits, Mode::Think, &control, &mut on_report) {
        Ok(d) => d,
        Err(e) => return fail(format!("search error: {e}")),
    };
    let Some(best) = done.best.clone() else { return fail("engine: no best move".into()) };
    let shown = format!(
        "engine move {} score {} depth {} nodes {}",
        best.native, done.score, done.depth, done.nodes
    );
    if std::env::var_os("WINS_VERBOSE").is_some() {
        eprintln!("{variant} `{fen}` win in {n}: {shown}; first seen at {found_at:?} nodes");
    }
    let mv = match parse_hub_move(&pos, &best.hub) {
        Ok(m) => m,
        Err(e) => return fail(format!("{shown}: move does not parse: {e}")),
    };
    let mut prover = Prover::<R>::new(PROVER_NODES);
    match prover.loses_within(&pos.after(mv), n - 1) {
        Proof::Yes => {}
        other => {
            // Tell a slower win from a lost win.
            let longer = (n + 2..=n + 8)
                .step_by(2)
                .find(|&m| prover.loses_within(&pos.after(mv), m - 1) == Proof::Yes);
            let how = match longer {
                Some(m) => format!("it only wins in {m}"),
                None => format!("no win within {} follows it", n + 8),
            };
            return fail(format!("{shown}: the move does not keep the win ({other:?}; {how})"));
        }
    }
    // (c) The engine's score.
    match done.score.plies_to_end() {
        Some(m) if done.score.0 > 0 && m as u32 >= n => Ok(()),
        Some(m) if done.score.0 > 0 => {
            fail(format!("{shown}: claims a win in {m}, shorter than the proven shortest {n}"))
        }
        _ => fail(format!("{shown}: the score is not a win")),
    }
}

fn run(variant: &str) {
    let v: Variant = variant.parse().expect("known rule set");
    let engine =
        Engine::new(Options { variant: v, threads: 1, hash_mib: 16, ..Options::default() });
    let list = positions(variant);
    assert!(list.len() >= MIN_POSITIONS, "{variant}: only {} positions", list.len());
    let mut seen = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for (fen, n) in &list {
        let canonical = with_rules!(v, R => parse_position::<R>(fen).map(|p| to_fen(&p)));
        let canonical = canonical.unwrap_or_else(|e| panic!("{variant}: bad FEN {fen}: {e}"));
        assert!(seen.insert(canonical), "{variant}: duplicate position {fen}");
        if let Err(e) = with_rules!(v, R => check::<R>(v, fen, *n, &engine)) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        list.len(),
        failures.join("\n")
    );
}

/// The prover itself on positions small enough to check by hand.
#[test]
fn prover_sanity() {
    type R = kondavo::rules::Russian;
    // White c3 must take d4 (c3:e5): Black has no piece left. A win in 1.
    let pos = parse_position::<R>("W:Wc3:Bd4").unwrap();
    let mut p = Prover::<R>::new(PROVER_NODES);
    assert_eq!(p.shortest_win(&pos, 9), Ok(Some(1)));
    assert_eq!(p.winning_moves(&pos, 1).map(|m| m.len()), Ok(1));
    // Black to move, its only man blocked (b4 taken, c3 behind it taken): lost now.
    let stuck = parse_position::<R>("B:Wb4,c3:Ba5").unwrap();
    assert!(stuck.legal_moves().is_empty());
    assert_eq!(p.loses_within(&stuck, 0), Proof::Yes);
    assert_eq!(p.wins_within(&stuck, 15), Proof::No);
    // Lone king against lone king on the 8x8 board: nobody can force anything quickly.
    let kings = parse_position::<R>("W:WKa1:BKh2").unwrap();
    assert_eq!(p.wins_within(&kings, 7), Proof::No);
    assert_eq!(p.loses_within(&kings, 7), Proof::No);
}

#[test]
fn international() {
    run("international");
}

#[test]
fn brazilian() {
    run("brazilian");
}

#[test]
fn russian() {
    run("russian");
}

#[test]
fn ukrainian() {
    run("ukrainian");
}

#[test]
fn english() {
    run("english");
}

#[test]
fn italian() {
    run("italian");
}

#[test]
fn spanish() {
    run("spanish");
}

#[test]
fn czech() {
    run("czech");
}

#[test]
fn turkish() {
    run("turkish");
}
