//! Opening books: the builder (deterministic, resumable), the file format (checked, never a
//! panic on bad bytes), the built-in books (only legal moves, every position reachable by
//! replay, variety from the start) and the engine's use of them.

use kondavo::book::build::{self, Config};
use kondavo::book::{self, Book};
use kondavo::engine::{Engine, GameSpec, Options, build_game};
use kondavo::eval::Eval;
use kondavo::matches::openings;
use kondavo::position::Position;
use kondavo::rules::English;
use kondavo::search::{Control, Limits, Mode};
use kondavo::variant::{Base, Variant};
use kondavo::with_rules;
use proptest::prelude::*;
use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

fn config(dir: &Path, file: &str, expansions: usize, threads: usize) -> Config {
    Config {
        variant: Variant::new(Base::English),
        expansions,
        nodes: 1_000,
        width: 6,
        openings: false,
        batch: 4,
        threads,
        out: dir.join(file),
        checkpoint: Duration::from_secs(3600),
    }
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("kondavo-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A small english book, built once per test that needs one.
fn small_book(dir: &Path) -> Book {
    build::build(&config(dir, "small.kdb", 30, 2), &mut |_| {}).unwrap()
}

#[test]
fn build_is_deterministic_whatever_the_threads_and_resumes_where_it_stopped() {
    let dir = tempdir("resume");
    let one = build::build(&config(&dir, "one.kdb", 24, 1), &mut |_| {}).unwrap();
    let two = build::build(&config(&dir, "two.kdb", 24, 2), &mut |_| {}).unwrap();
    assert_eq!(one, two, "the same book on one thread and on two");
    let expanded = one.records().iter().filter(|r| r.expanded()).count();
    assert!((24..28).contains(&expanded), "{expanded} expanded for 24 in batches of 4");

    // Stopped at 12 and resumed to 24: the same book, with fewer searches in the second run.
    let mut searches = 0;
    build::build(&config(&dir, "resumed.kdb", 12, 2), &mut |_| {}).unwrap();
    let resumed =
        build::build(&config(&dir, "resumed.kdb", 24, 2), &mut |p| searches = p.searches).unwrap();
    assert_eq!(resumed, one, "a resumed build ends where an uninterrupted one does");
    let fresh = one.records().len();
    assert!(searches > 0 && searches < fresh, "resumed: {searches} searches of {fresh}");
    // The file is what the builder returned.
    assert_eq!(Book::load::<English>(&dir.join("resumed.kdb")).unwrap(), one);
    // Other settings do not resume a file.
    let mut other = config(&dir, "resumed.kdb", 30, 2);
    other.nodes = 2_000;
    let err = build::build(&other, &mut |_| {}).unwrap_err();
    assert!(err.0.contains("other settings"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_values_are_negamax_of_their_children() {
    let dir = tempdir("negamax");
    let b = small_book(&dir);
    let mut checked = 0;
    for_each_expanded::<English>(&b, &[Position::start()], &mut |pos| {
        let moves = b.moves(pos);
        let best = moves.iter().map(|m| m.value).max().unwrap();
        assert_eq!(i32::from(b.get(pos.key()).unwrap().value), best);
        checked += 1;
    });
    assert!(checked >= 30, "{checked} expanded positions");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Calls `f` with every expanded position reachable from `roots` through the book's moves.
fn for_each_expanded<R: Eval>(b: &Book, roots: &[Position<R>], f: &mut dyn FnMut(&Position<R>)) {
    let mut seen = HashSet::new();
    let mut todo: Vec<Position<R>> = roots.to_vec();
    while let Some(pos) = todo.pop() {
        if !seen.insert(pos.key()) || !b.get(pos.key()).is_some_and(|r| r.expanded()) {
            continue;
        }
        let legal = pos.legal_moves();
        let moves = b.moves(&pos);
        assert_eq!(moves.len(), legal.len(), "an expanded position has every move");
        for m in &moves {
            assert!(legal.contains(&m.mv), "the book proposes an illegal move");
            todo.push(pos.after(m.mv));
        }
        f(&pos);
    }
}

fn replay_builtin<R: Eval>(variant: Variant) {
    let Some(b) = book::builtin(variant) else { return };
    let options = Options { variant, ..Options::default() };
    let mut roots = vec![Position::<R>::start()];
    for o in openings::builtin(variant).unwrap() {
        let spec = GameSpec { start: o.start.clone(), moves: o.moves.clone() };
        roots.push(*build_game::<R>(&spec, &options).unwrap().position());
    }
    let mut reached = 0;
    for_each_expanded::<R>(&b, &roots, &mut |pos| {
        reached += 1;
        for seed in 0..4 {
            let m = b.choose(pos, 50, 0, seed).expect("an expanded position has a book move");
            assert!(pos.legal_moves().contains(&m.mv));
        }
    });
    let expanded = b.records().iter().filter(|r| r.expanded()).count();
    assert_eq!(reached, expanded, "{variant}: every expanded position of the file is reached");
}

#[test]
fn builtin_books_never_return_an_illegal_move_checked_by_replay() {
    let mut with_book = 0;
    for base in Base::ALL {
        let variant = Variant::new(base);
        if book::builtin(variant).is_some() {
            with_book += 1;
        }
        with_rules!(variant, R => replay_builtin::<R>(variant));
        if let Ok(optional) = Variant::with_optional_capture(base, true) {
            assert!(book::builtin(optional).is_none(), "the optional-capture option has no book");
        }
    }
    assert!(with_book >= 12, "{with_book} rule sets have a built-in book");
}

/// Plays `games` openings of `plies` plies with the engine as both sides, seeds 1..=games.
fn openings_from_the_start(variant: Variant, games: u64, plies: usize) -> usize {
    let mut positions = HashSet::new();
    for seed in 1..=games {
        let engine = Engine::new(Options {
            variant,
            seed,
            hash_mib: 1,
            egdb_pieces: 0,
            ..Options::default()
        });
        let mut spec = GameSpec::start();
        for _ in 0..plies {
            let limits = Limits { nodes: Some(1_000), ..Limits::default() };
            let done =
                engine.search(&spec, &limits, Mode::Think, &Control::new(), &mut |_| {}).unwrap();
            let Some(best) = done.best else { break };
            spec.moves.push(best.hub);
        }
        positions.insert(spec.moves.join(" "));
    }
    positions.len()
}

#[test]
fn book_gives_thirty_openings_in_a_hundred_games_from_the_start() {
    let mut counts = Vec::new();
    for base in Base::ALL {
        let variant = Variant::new(base);
        if book::builtin(variant).is_none() {
            continue;
        }
        counts.push((variant, openings_from_the_start(variant, 100, 6)));
    }
    eprintln!("different games after 6 plies in 100: {counts:?}");
    assert!(
        counts.iter().all(|&(_, n)| n >= 30),
        "different games after 6 plies in 100: {counts:?}"
    );
}

#[test]
fn book_plays_instantly_and_only_for_moves_to_play() {
    let dir = tempdir("engine");
    small_book(&dir);
    let file = dir.join("small.kdb").to_string_lossy().to_string();
    let variant = Variant::new(Base::English);
    let options = Options {
        variant,
        book_file: Some(file.clone()),
        book_margin: Some(0),
        seed: 1,
        hash_mib: 1,
        ..Options::default()
    };
    let engine = Engine::try_new(options.clone()).unwrap();
    let b = engine.book().unwrap().clone();
    let start = Position::<English>::start();
    let best = b.moves(&start)[0];
    let limits = Limits { nodes: Some(5_000), ..Limits::default() };
    let mut reports = Vec::new();
    let done = engine
        .search(&GameSpec::start(), &limits, Mode::Think, &Control::new(), &mut |r| reports.push(r))
        .unwrap();
    assert_eq!(done.nodes, 0, "a book move is not searched");
    assert_eq!(done.score.0, best.value);
    assert_eq!(
        done.best.unwrap().hub,
        kondavo::notation::move_to_hub::<English>(best.mv),
        "margin 0 plays the best book move"
    );
    assert_eq!(reports.len(), 1, "one report, of depth 0");
    assert_eq!((reports[0].depth, reports[0].nodes), (0, 0));
    // Analysis searches.
    let done = engine
        .search(&GameSpec::start(), &limits, Mode::Analyze, &Control::new(), &mut |_| {})
        .unwrap();
    assert!(done.nodes > 0, "analysis ignores the book");
    // book = false searches.
    let off = Engine::try_new(Options { book: false, ..options }).unwrap();
    let done =
        off.search(&GameSpec::start(), &limits, Mode::Think, &Control::new(), &mut |_| {}).unwrap();
    assert!(done.nodes > 0, "book off");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_or_foreign_book_files_are_refused_with_a_reason() {
    let dir = tempdir("damaged");
    let b = small_book(&dir);
    let bytes = b.to_bytes::<English>();
    assert_eq!(Book::from_bytes::<English>(&bytes).unwrap(), b);
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x10;
    let err = Book::from_bytes::<English>(&flipped).unwrap_err();
    assert!(err.0.contains("checksum"), "{err}");
    let err = Book::from_bytes::<English>(&bytes[..bytes.len() - 20]).unwrap_err();
    assert!(err.0.contains("checksum") || err.0.contains("truncated"), "{err}");
    let err = Book::from_bytes::<kondavo::rules::Russian>(&bytes).unwrap_err();
    assert!(err.0.contains("for english, not russian"), "{err}");
    // The engine refuses the file through try_new, and plays on without a book through new.
    let bad = dir.join("bad.kdb");
    std::fs::write(&bad, &flipped).unwrap();
    let options = Options {
        variant: Variant::new(Base::English),
        book_file: Some(bad.to_string_lossy().to_string()),
        hash_mib: 1,
        ..Options::default()
    };
    assert!(Engine::try_new(options.clone()).is_err());
    let engine = Engine::new(options);
    assert!(engine.book().is_none());
    let limits = Limits { nodes: Some(2_000), ..Limits::default() };
    let done = engine
        .search(&GameSpec::start(), &limits, Mode::Think, &Control::new(), &mut |_| {})
        .unwrap();
    assert!(done.best.is_some() && done.nodes > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Untrusted book bytes: an error or a valid book, never a panic.
    #[test]
    fn book_parser_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = Book::from_bytes::<English>(&bytes);
    }

    /// A valid file with a byte changed is refused.
    #[test]
    fn book_parser_refuses_any_changed_byte(at in any::<prop::sample::Index>(), x in 1u8..=255) {
        let b = Book::new(
            Variant::new(Base::English),
            "test".into(),
            (0..20u64)
                .map(|k| book::Record { key: k * 7919, value: k as i16 - 10, flags: (k % 2) as u8 })
                .collect(),
        );
        let mut bytes = b.to_bytes::<English>();
        let i = at.index(bytes.len());
        bytes[i] ^= x;
        prop_assert!(Book::from_bytes::<English>(&bytes).is_err());
    }
}

#[test]
fn a_weaker_level_chooses_among_book_moves_within_its_own_margin() {
    let first = |level: u8, seed: u64| {
        let engine = Engine::new(Options {
            variant: Variant::new(Base::International),
            level,
            seed,
            book_margin: Some(0),
            hash_mib: 1,
            ..Options::default()
        });
        let limits = Limits { nodes: Some(1_000), ..Limits::default() };
        let done = engine
            .search(&GameSpec::start(), &limits, Mode::Think, &Control::new(), &mut |_| {})
            .unwrap();
        assert_eq!(done.nodes, 0, "the start is in the book");
        done.best.unwrap().hub
    };
    let full: HashSet<String> = (1..=20).map(|s| first(20, s)).collect();
    assert_eq!(full.len(), 1, "full strength with margin 0 plays the best book move: {full:?}");
    let weak: HashSet<String> = (1..=20).map(|s| first(1, s)).collect();
    assert!(weak.len() >= 3, "level 1 (margin 200) varies its book moves: {weak:?}");
}

/// Without a set seed, one engine varies its book moves from search to search (a match or a
/// server bot keeps one engine for many games), not only from engine to engine.
#[test]
fn one_engine_without_a_seed_varies_its_book_moves_game_after_game() {
    let engine = Engine::new(Options {
        variant: Variant::new(Base::International),
        hash_mib: 1,
        ..Options::default()
    });
    let limits = Limits { nodes: Some(1_000), ..Limits::default() };
    let moves: HashSet<String> = (0..30)
        .map(|_| {
            let done = engine
                .search(&GameSpec::start(), &limits, Mode::Think, &Control::new(), &mut |_| {})
                .unwrap();
            assert_eq!(done.nodes, 0, "the start is in the book");
            done.best.unwrap().hub
        })
        .collect();
    assert!(moves.len() >= 3, "30 games from one engine opened with {moves:?}");
}

/// `book-margin` varies the first plies from the start position only: it shrinks to nothing
/// by ply `VARIETY_PLIES`; a game from another position plays the best book move; and after
/// the first `FREE_PLIES` (a three-move ballot's worth, inside the variety plies) the book plays
/// only moves with `MIN_LINE` plies of book under them.
#[test]
fn book_varies_the_first_plies_only_and_later_plays_only_deep_lines() {
    assert_eq!(book::margin_at(10, Some(0)), 10);
    assert_eq!(book::margin_at(10, Some(book::VARIETY_PLIES)), 0);
    assert_eq!(book::margin_at(10, None), 0);
    assert!((1..book::VARIETY_PLIES).all(|p| {
        let (before, now) = (book::margin_at(10, Some(p - 1)), book::margin_at(10, Some(p)));
        now > 0 && now <= before
    }));
    const { assert!(book::FREE_PLIES > 0 && book::FREE_PLIES < book::VARIETY_PLIES) };
    assert!((0..book::FREE_PLIES).all(|p| book::min_line_at(Some(p)) == 0));
    assert!(
        (book::FREE_PLIES..=book::VARIETY_PLIES + 1)
            .all(|p| book::min_line_at(Some(p)) == book::MIN_LINE)
    );
    assert_eq!(book::min_line_at(None), book::MIN_LINE);

    // A narrow book (width 0: best first) with a deep main line.
    let dir = tempdir("deep");
    let cfg = Config { width: 0, ..config(&dir, "deep.kdb", 150, 2) };
    let b = build::build(&cfg, &mut |_| {}).unwrap();
    let file = dir.join("deep.kdb").to_string_lossy().to_string();
    let hub = kondavo::notation::move_to_hub::<English>;
    // The main line to ply VARIETY_PLIES, and the position there.
    let mut pos = Position::<English>::start();
    let mut line = Vec::new();
    for _ in 0..book::VARIETY_PLIES {
        let best = b.moves(&pos)[0];
        line.push(hub(best.mv));
        pos = pos.after(best.mv);
    }
    assert!(
        b.line_depth(&pos, book::MIN_LINE) >= book::MIN_LINE,
        "the main line runs {} plies past ply {}",
        book::MIN_LINE,
        book::VARIETY_PLIES
    );
    let choices = b.moves(&pos);
    assert!(
        choices.len() >= 2 && choices[1].value >= choices[0].value - 300,
        "a second move within the margin"
    );
    let best = hub(choices[0].mv);
    let played = |spec: &GameSpec, seed: u64| {
        let engine = Engine::try_new(Options {
            variant: Variant::new(Base::English),
            seed,
            book_margin: Some(300),
            book_file: Some(file.clone()),
            hash_mib: 1,
            ..Options::default()
        })
        .unwrap();
        let limits = Limits { nodes: Some(1_000), ..Limits::default() };
        let done = engine.search(spec, &limits, Mode::Think, &Control::new(), &mut |_| {}).unwrap();
        (done.nodes == 0).then(|| done.best.unwrap().hub)
    };
    let at_start: HashSet<_> = (1..=20).map(|s| played(&GameSpec::start(), s)).collect();
    assert!(at_start.len() >= 3 && !at_start.contains(&None), "variety first: {at_start:?}");
    let from_start = GameSpec { start: "start".into(), moves: line.clone() };
    let later: HashSet<_> = (1..=20).map(|s| played(&from_start, s)).collect();
    assert_eq!(later, HashSet::from([Some(best.clone())]), "at ply {}", book::VARIETY_PLIES);
    let fen = kondavo::notation::to_hub_position(&pos);
    let elsewhere = GameSpec { start: fen.clone(), moves: vec![] };
    let set: HashSet<_> = (1..=20).map(|s| played(&elsewhere, s)).collect();
    assert_eq!(set, HashSet::from([Some(best)]), "a game from another position");
    // At the end of the main line, where the book is one search deep, the engine searches.
    let mut shallow = pos;
    while b.line_depth(&shallow, 2) >= 2 {
        shallow = shallow.after(b.moves(&shallow)[0].mv);
    }
    assert_eq!(b.line_depth(&shallow, 2), 1, "the main line's last expanded position");
    let spec = GameSpec { start: kondavo::notation::to_hub_position(&shallow), moves: vec![] };
    assert_eq!(played(&spec, 1), None, "a shallow book line is searched");
    let _ = std::fs::remove_dir_all(&dir);
}
