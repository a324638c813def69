//! Strength levels: weaker levels are weaker, every level plays only legal moves, the seed
//! makes a level's choices reproducible and varied.

use kondavo::engine::{Engine, GameSpec, Options};
use kondavo::eval::Eval;
use kondavo::game::{DrawRules, Game, Outcome};
use kondavo::matches::openings;
use kondavo::notation;
use kondavo::rules::{English, International, Russian};
use kondavo::search::{Control, Limits, Mode};
use kondavo::variant::Variant;

/// An engine at `level`, without the opening book (these tests are about the level's search;
/// the book and the levels together are in tests/book.rs).
fn engine(variant: Variant, level: u8, seed: u64) -> Engine {
    Engine::new(Options { variant, level, seed, hash_mib: 8, book: false, ..Options::default() })
}

/// Plays one game between `white` and `black` (each at most `nodes` a move) from `opening`,
/// checking every move against the rules; the winner's index (0 white, 1 black) or `None`
/// for a draw (the draw rules, or 300 plies).
fn play<R: Eval>(
    engines: [&Engine; 2],
    opening: &openings::Opening,
    nodes: u64,
) -> Result<Option<usize>, String> {
    let start = notation::parse_position::<R>(&opening.start).map_err(|e| e.0)?;
    let mut game = Game::new(start, DrawRules::of(R::variant(), false));
    let mut spec = GameSpec { start: opening.start.clone(), moves: Vec::new() };
    for m in &opening.moves {
        game.play_protocol(m).map_err(|e| e.0)?;
        spec.moves.push(m.clone());
    }
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    for _ in 0..300 {
        if let Some(outcome) = game.outcome() {
            return Ok(match outcome {
                Outcome::Win(c) => Some(usize::from(c != start.side())),
                _ => None,
            });
        }
        let mover = usize::from(game.position().side() != start.side());
        let done = engines[mover]
            .search(&spec, &limits, Mode::Think, &Control::new(), &mut |_| {})
            .map_err(|e| e.0)?;
        let best = done.best.ok_or("no move although the game is not over")?;
        game.play_protocol(&best.hub)
            .map_err(|e| format!("illegal move {} after {:?}: {}", best.hub, spec.moves, e.0))?;
        spec.moves.push(best.hub);
    }
    Ok(None)
}

/// Points of `strong` against `weak` over `pairs` game pairs of the built-in openings.
fn points<R: Eval>(strong: &Engine, weak: &Engine, pairs: usize, nodes: u64) -> (f64, usize) {
    let openings = openings::builtin(R::variant()).expect("built-in openings");
    let mut points = 0.0;
    let mut games = 0;
    for opening in openings.iter().step_by(openings.len() / pairs).take(pairs) {
        for strong_side in 0..2 {
            let mut engines = [weak, weak];
            engines[strong_side] = strong;
            strong.new_game();
            weak.new_game();
            points += match play::<R>(engines, opening, nodes).expect("a legal game") {
                Some(w) if w == strong_side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            games += 1;
        }
    }
    (points, games)
}

fn level_one_loses_most_games_to_level_twenty<R: Eval>() {
    let v = R::variant();
    let (p, n) = points::<R>(&engine(v, 20, 1), &engine(v, 1, 1), 4, 2_000);
    assert!(p >= 0.75 * n as f64, "{v}: level 20 scored only {p} of {n} against level 1");
}

#[test]
fn level_one_loses_most_games_to_level_twenty_in_international() {
    level_one_loses_most_games_to_level_twenty::<International>();
}

#[test]
fn level_one_loses_most_games_to_level_twenty_in_english() {
    level_one_loses_most_games_to_level_twenty::<English>();
}

#[test]
fn level_one_loses_most_games_to_level_twenty_in_russian() {
    level_one_loses_most_games_to_level_twenty::<Russian>();
}

/// Every level of every rule set plays whole legal games (moves checked by [`Game`]).
#[test]
fn every_level_plays_only_legal_moves() {
    fn run<R: Eval>() {
        let v = R::variant();
        let opening = &openings::builtin(v).expect("openings")[0];
        for level in 1..=20 {
            let e = engine(v, level, u64::from(level));
            play::<R>([&e, &e], opening, 1_500)
                .unwrap_or_else(|e| panic!("{v} level {level}: {e}"));
        }
    }
    for b in kondavo::variant::Base::ALL {
        kondavo::with_rules!(Variant::new(b), R => run::<R>());
    }
}

/// The same seed gives the same moves; other seeds give other games (variety).
#[test]
fn a_level_is_reproducible_with_its_seed_and_varies_with_others() {
    let v = Variant::new(kondavo::variant::Base::International);
    let spec = GameSpec::start();
    let limits = Limits::default();
    let first = |seed: u64| {
        let e = engine(v, 6, seed);
        e.search(&spec, &limits, Mode::Think, &Control::new(), &mut |_| {})
            .expect("search")
            .best
            .expect("a move")
            .hub
    };
    assert_eq!(first(5), first(5));
    let moves: std::collections::BTreeSet<String> = (1..=30).map(first).collect();
    assert!(moves.len() >= 3, "level 6 played only {moves:?} from the start in 30 seeds");
    // Full strength does not depend on the seed.
    let full = |seed: u64| {
        engine(v, 20, seed)
            .search(
                &spec,
                &Limits { depth: Some(6), ..limits.clone() },
                Mode::Think,
                &Control::new(),
                &mut |_| {},
            )
            .expect("search")
            .best
    };
    assert_eq!(full(1), full(2));
}

/// Analysis is never handicapped: `go analyze` at a low level is full-strength analysis.
#[test]
fn analysis_ignores_the_level() {
    let v = Variant::new(kondavo::variant::Base::International);
    let spec = GameSpec::start();
    let limits = Limits { depth: Some(5), ..Limits::default() };
    let run = |level: u8| {
        let mut depths = Vec::new();
        let done = engine(v, level, 3)
            .search(&spec, &limits, Mode::Analyze, &Control::new(), &mut |r| depths.push(r.depth))
            .expect("search");
        (done.best, done.nodes, depths)
    };
    assert_eq!(run(1), run(20));
}
