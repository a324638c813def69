//! The search: draws by repetition and by each rule set's move counter, conversion of won
//! king endgames, stop, determinism, the single-move rule, and the pinned bench count.

use kondavo::engine::{Engine, GameSpec, Options, build_game};
use kondavo::game::{Counters, DrawRules, Game, Outcome};
use kondavo::notation::{parse_move, parse_position};
use kondavo::position::Position;
use kondavo::rules::*;
use kondavo::score::Score;
use kondavo::search::{self, Control, Limits, Mode, SearchInput};
use kondavo::tt::Table;
use kondavo::variant::{Base, Variant};
use kondavo::with_rules;
use std::time::{Duration, Instant};

/// A kings-only position per rule set and a four-ply cycle of king moves that repeats it.
fn shuffle(base: Base) -> (&'static str, [&'static str; 4]) {
    match base {
        Base::International => ("W:WK46:BK15", ["46-41", "15-20", "41-46", "20-15"]),
        Base::Italian | Base::Spanish => ("W:WKb1:BKa8", ["b1-a2", "a8-b7", "a2-b1", "b7-a8"]),
        Base::Turkish => ("W:WKa1:BKh8", ["a1-b1", "h8-g8", "b1-a1", "g8-h8"]),
        // Two kings each: a king against a king is drawn at once in frisian (after two moves
        // each), and with men the same king may not move four times in a row.
        Base::Frisian | Base::Frysk => ("W:WK46,K47:BK4,K5", ["47-42", "4-9", "42-47", "9-4"]),
        _ => ("W:WKa1:BKh6", ["a1-b2", "h6-g5", "b2-a1", "g5-h6"]),
    }
}

#[test]
fn threefold_repetition_is_a_draw_in_every_rule_set() {
    // Breakthrough has no kings to shuffle (the first one ends the game), and men never
    // repeat a position.
    for base in Base::ALL.into_iter().filter(|&b| b != Base::Breakthrough) {
        let v = Variant::new(base);
        with_rules!(v, R => {
            let (fen, cycle) = shuffle(base);
            let mut game = Game::new(parse_position::<R>(fen).unwrap(), DrawRules::of(v, false));
            for (i, m) in cycle.iter().chain(cycle.iter()).enumerate() {
                assert_eq!(game.outcome(), None, "{base:?} ply {i}");
                game.play_text(m).unwrap_or_else(|e| panic!("{base:?} {m}: {e}"));
            }
            // The start position now stands for the third time.
            assert_eq!(game.occurrences(), 3, "{base:?}");
            assert_eq!(game.outcome(), Some(Outcome::Repetition), "{base:?}");
        });
    }
}

#[test]
fn turkish_sideways_man_moves_can_repeat_a_position() {
    // Turkish men also step sideways, and a sideways step can be undone: men-only positions
    // repeat, and the third occurrence is a draw. A forward step can never be undone.
    let v: Variant = "turkish".parse().unwrap();
    let start = parse_position::<Turkish>("W:Wa3,d2:Bh6,e7").unwrap();
    let mut game = Game::new(start, DrawRules::of(v, false));
    let cycle = ["a3-b3", "h6-g6", "b3-a3", "g6-h6"];
    for (i, m) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert_eq!(game.outcome(), None, "ply {i}");
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_eq!(game.counters().reversible as usize, i + 1, "after {m}");
    }
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Repetition));
    game.play_text("d2-d3").unwrap();
    assert_eq!(game.counters().reversible, 0, "a forward man move is irreversible");
    assert_eq!(game.occurrences(), 1);
}

/// Applies `n` king moves to the counters.
fn king_moves<R: Rules>(pos: &Position<R>, mut c: Counters, n: u32, rules: &DrawRules) -> Counters {
    let mv = pos.legal_moves().into_iter().find(|m| m.is_king_move()).expect("a king move");
    let next = pos.after(mv);
    for _ in 0..n {
        c = c.after(pos, mv, &next, rules);
    }
    c
}

#[test]
fn move_counter_draws_follow_each_rule_set() {
    for base in Base::ALL {
        let v = Variant::new(base);
        let limit = match base {
            b if b.is_10x10() => 120, // 60 moves each
            Base::Ukrainian => 30,    // 15 moves each
            _ => 80,                  // 40 moves each
        };
        with_rules!(v, R => {
            let rules = DrawRules::of(v, false);
            assert_eq!(rules.limit, limit, "{base:?}");
            let (fen, _) = shuffle(base);
            let pos = parse_position::<R>(fen).unwrap();
            let c = king_moves(&pos, Counters::default(), limit - 1, &rules);
            assert!(!c.is_draw(&pos, &rules), "{base:?}");
            let c = king_moves(&pos, c, 1, &rules);
            assert!(c.is_draw(&pos, &rules), "{base:?}");
        });
    }
}

#[test]
fn move_counter_resets_as_each_rule_set_says() {
    // Russian (and the other 40-move rule sets): a man move does not reset, a capture does.
    let rules = DrawRules::of("russian".parse().unwrap(), false);
    let pos = parse_position::<Russian>("W:WKa1,c3:BKh6,e5").unwrap();
    let man = parse_move(&pos, "c3-b4").unwrap();
    let c = Counters { reversible: 10, counter: 10, endgame: 0 }.after(
        &pos,
        man,
        &pos.after(man),
        &rules,
    );
    assert_eq!((c.reversible, c.counter), (0, 11));
    let pos = parse_position::<Russian>("W:WKa1,c3:BKh6,d4").unwrap();
    let capture = parse_move(&pos, "c3:e5").unwrap();
    let c = Counters { reversible: 10, counter: 10, endgame: 0 }.after(
        &pos,
        capture,
        &pos.after(capture),
        &rules,
    );
    assert_eq!((c.reversible, c.counter), (0, 0));
    // Ukrainian: a man move resets.
    let rules = DrawRules::of("ukrainian".parse().unwrap(), false);
    let pos = parse_position::<Ukrainian>("W:WKa1,c3:BKh6,e5").unwrap();
    let man = parse_move(&pos, "c3-b4").unwrap();
    let c = Counters { reversible: 10, counter: 10, endgame: 0 }.after(
        &pos,
        man,
        &pos.after(man),
        &rules,
    );
    assert_eq!(c.counter, 0);
}

#[test]
fn fmjd_counters_are_an_option_for_international() {
    let v: Variant = "international".parse().unwrap();
    let fmjd = DrawRules::of(v, true);
    assert_eq!(fmjd.limit, 50); // 25 moves each with only kings moving
    // 2 kings against 1: drawn after 5 more moves each.
    let pos = parse_position::<International>("W:WK46,K47:BK5").unwrap();
    let c = king_moves(&pos, Counters::default(), 9, &fmjd);
    assert!(!c.is_draw(&pos, &fmjd));
    let c = king_moves(&pos, c, 1, &fmjd);
    assert!(c.is_draw(&pos, &fmjd));
    // 3 kings against 1: 16 moves each.
    let pos = parse_position::<International>("W:WK46,K47,K48:BK5").unwrap();
    let c = king_moves(&pos, Counters::default(), 31, &fmjd);
    assert!(!c.is_draw(&pos, &fmjd));
    assert!(king_moves(&pos, c, 1, &fmjd).is_draw(&pos, &fmjd));
    // The product default knows none of this.
    let product = DrawRules::of(v, false);
    assert!(!king_moves(&pos, Counters::default(), 40, &product).is_draw(&pos, &product));
}

fn search<R: kondavo::eval::Eval>(
    root: Position<R>,
    history: Vec<u64>,
    counters: Counters,
    limits: Limits,
    mode: Mode,
    threads: usize,
) -> search::SearchResult {
    let tt = Table::new(16);
    let control = Control::new();
    let model = kondavo::eval::builtin_model(R::BASE);
    let input = SearchInput {
        root,
        history,
        counters,
        draw_rules: DrawRules::of(R::variant(), false),
        limits,
        mode,
        threads,
        multipv: 1,
        tt: &tt,
        control: &control,
        model: model.as_deref(),
        egdb: None,
        noise: Default::default(),
    };
    search::run(input, |_| {})
}

#[test]
fn search_scores_a_running_out_move_counter_as_a_draw() {
    // Three kings against one are worth a lot, but every move ends the 40-move count.
    let root = parse_position::<Russian>("W:WKa1,Kc1,Ke1:BKh6").unwrap();
    let depth = Limits { depth: Some(6), ..Limits::default() };
    let fresh = search(root, vec![], Counters::default(), depth.clone(), Mode::Analyze, 1);
    assert!(fresh.score > Score(100), "{:?}", fresh.score);
    let counters = Counters { reversible: 79, counter: 79, endgame: 0 };
    let ending = search(root, vec![], counters, depth, Mode::Analyze, 1);
    assert_eq!(ending.score, Score::DRAW);
}

#[test]
fn search_claims_a_threefold_repetition_when_losing() {
    // English: two kings beat one, but Black can repeat a position for the third time.
    // The cycle 32-28 15-11 28-32 11-15 in Hub notation (33 − square).
    let opts = Options { variant: "english".parse().unwrap(), ..Options::default() };
    let cycle = ["1-5", "18-22", "5-1", "22-18"];
    let moves: Vec<String> = cycle.iter().chain(cycle.iter()).map(|s| s.to_string()).collect();
    let spec = GameSpec { start: "B:WK14,K15:BK32".into(), moves };
    let game: Game<English> = build_game(&spec, &opts).unwrap();
    let r = search(
        *game.position(),
        game.repetition_keys(),
        game.counters(),
        Limits { depth: Some(8), ..Limits::default() },
        Mode::Analyze,
        1,
    );
    let root = *game.position();
    assert_eq!(r.best, Some(parse_move(&root, "32-28").unwrap()));
    assert_eq!(r.score, Score::DRAW);
}

/// Plays `fen` out with the engine on both sides (`nodes` per move) and returns the outcome.
fn play_out(variant: &str, fen: &str, nodes: u64) -> Option<Outcome> {
    let opts = Options { variant: variant.parse().unwrap(), hash_mib: 16, ..Options::default() };
    let engine = Engine::new(opts.clone());
    let mut spec = GameSpec { start: fen.into(), moves: Vec::new() };
    for _ in 0..200 {
        let outcome =
            with_rules!(opts.variant, R => build_game::<R>(&spec, &opts).unwrap().outcome());
        if outcome.is_some() {
            return outcome;
        }
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        let done =
            engine.search(&spec, &limits, Mode::Think, &Control::new(), &mut |_| {}).unwrap();
        spec.moves.push(done.best.expect("a move").hub);
    }
    None
}

#[test]
fn won_king_endgames_are_converted() {
    use kondavo::color::Color;
    let cases = [
        ("english", "W:WK14,K15:BK32"),               // two kings against one
        ("russian", "W:WKc1,Ke1,Kg1:BKh4"),           // three kings, lone king off the main road
        ("international", "W:WK47,K48,K49,K50:BK36"), // four kings against one
        ("turkish", "W:WKa1,Kb1:BKh8"),
    ];
    for (variant, fen) in cases {
        assert_eq!(
            play_out(variant, fen, 200_000),
            Some(Outcome::Win(Color::White)),
            "{variant} {fen}"
        );
    }
}

#[test]
fn stop_during_an_infinite_search_returns_a_legal_move_quickly() {
    let engine = Engine::default();
    let control = Control::new();
    let limits = Limits { infinite: true, ..Limits::default() };
    std::thread::scope(|s| {
        let handle = s.spawn(|| {
            engine.search(&GameSpec::start(), &limits, Mode::Analyze, &control, &mut |_| {})
        });
        std::thread::sleep(Duration::from_millis(300));
        let stopped = Instant::now();
        control.stop();
        let done = handle.join().unwrap().unwrap();
        // The figure to beat is 20 ms; the test allows for a loaded machine.
        assert!(stopped.elapsed() < Duration::from_millis(500), "{:?}", stopped.elapsed());
        let best = done.best.expect("a move");
        let start = Position::<International>::start();
        assert!(parse_move(&start, &best.hub).is_ok());
    });
}

#[test]
fn one_thread_is_deterministic_and_threads_agree_on_legality() {
    let root = Position::<Brazilian>::start();
    let limits = Limits { depth: Some(9), ..Limits::default() };
    let a = search(root, vec![], Counters::default(), limits.clone(), Mode::Analyze, 1);
    let b = search(root, vec![], Counters::default(), limits.clone(), Mode::Analyze, 1);
    assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
    let c = search(root, vec![], Counters::default(), limits, Mode::Analyze, 3);
    assert!(root.legal_moves().contains(&c.best.unwrap()));
    // The first worker to complete the depth limit ends the search, helpers included, and
    // none goes past it.
    assert_eq!(c.depth, 9);
}

#[test]
fn single_legal_move_is_played_at_once_but_analysed_in_analysis() {
    let root = parse_position::<Russian>("W:Wc3:Bd4,h8").unwrap();
    assert_eq!(root.legal_moves().len(), 1);
    let think = search(root, vec![], Counters::default(), Limits::default(), Mode::Think, 1);
    assert_eq!(think.depth, 1);
    let limits = Limits { depth: Some(6), ..Limits::default() };
    let analyze = search(root, vec![], Counters::default(), limits, Mode::Analyze, 1);
    assert_eq!(analyze.depth, 6);
}

#[test]
fn node_limit_and_mate_scores() {
    let root = Position::<International>::start();
    let limits = Limits { nodes: Some(20_000), ..Limits::default() };
    let r = search(root, vec![], Counters::default(), limits, Mode::Analyze, 1);
    assert!(r.nodes >= 20_000 && r.nodes < 21_000, "{}", r.nodes);
    // A small limit is exact (a weak level's budget), but the first iteration always ends:
    // even one node gives a searched move.
    for n in [1, 100, 1000] {
        let limits = Limits { nodes: Some(n), ..Limits::default() };
        let r = search(root, vec![], Counters::default(), limits, Mode::Analyze, 1);
        assert!(r.depth >= 1 && r.best.is_some(), "{n} nodes: depth {}", r.depth);
        if n >= 100 {
            assert!(r.nodes >= n && r.nodes <= n + 1, "{n} nodes: {}", r.nodes);
        }
    }
    // White takes the last black piece: a win in one ply.
    let root = parse_position::<International>("W:W32:B28").unwrap();
    let limits = Limits { depth: Some(3), ..Limits::default() };
    let r = search(root, vec![], Counters::default(), limits, Mode::Analyze, 1);
    assert_eq!(r.score, Score::win_in(1));
    assert_eq!(r.score.to_hub(), "99.99");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "the bench runs in release builds")]
fn bench_node_count_is_pinned() {
    // Any change to this number changes search behaviour: quote it as `Bench: N`.
    const BENCH: u64 = 5_658_794;
    let variants: Vec<Variant> = Base::ALL.into_iter().map(Variant::new).collect();
    let (nodes, _) =
        kondavo::bench::run(&variants, kondavo::bench::DEFAULT_DEPTH, 1, 64, None, &mut |_| {})
            .unwrap();
    assert_eq!(nodes, BENCH);
}

/// The endgame databases decide a position, and a database win whose conversion comes
/// after the draw counter ends the game is a draw (rules.md section 3: the counters).
#[test]
fn search_uses_database_wins_only_when_they_convert_before_the_draw_counter() {
    use kondavo::egdb::build::Generator;
    let dir = std::env::temp_dir().join(format!("kondavo-search-egdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Three kings against one holding the main road: a win in 18 plies to conversion.
    let mut g = Generator::<Russian>::new(Some(dir.clone()));
    g.build(&Generator::<Russian>::slices_up_to(4), |_| {}).expect("builds");
    let opened = kondavo::egdb::Egdb::open::<Russian>(&dir, 4);
    assert!(opened.problems.is_empty());
    let db = opened.egdb;
    assert_eq!(db.pieces(), 4);
    let root = parse_position::<Russian>("W:WKa1,Kc1,Ke1:BKh2").unwrap();
    let tt = Table::new(16);
    let run = |counters: Counters, db: Option<&kondavo::egdb::Egdb>| {
        let control = Control::new();
        let input = SearchInput {
            root,
            history: vec![],
            counters,
            draw_rules: DrawRules::of(Russian::variant(), false),
            limits: Limits { depth: Some(4), ..Limits::default() },
            mode: Mode::Analyze,
            threads: 1,
            multipv: 1,
            tt: &tt,
            control: &control,
            model: None,
            egdb: db,
            noise: Default::default(),
        };
        tt.clear();
        search::run(input, |_| {})
    };
    let fresh = run(Counters::default(), Some(&db));
    assert!(fresh.score.is_database() && fresh.score > Score::DRAW, "{:?}", fresh.score);
    // 18 plies to the conversion with 70 of 80 plies gone: a draw.
    let late = Counters { reversible: 70, counter: 70, endgame: 0 };
    assert_eq!(run(late, Some(&db)).score, Score::DRAW);
    let without = run(Counters::default(), None);
    assert!(!without.score.is_database(), "{:?}", without.score);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Breakthrough (lidraughts): the first king wins, so the search scores a crowning move as a
/// win in one ply even though the opponent could go on (and prefers it to taking a man).
#[test]
fn breakthrough_search_scores_a_crowning_as_a_win() {
    let root = parse_position::<Breakthrough>("W:W7,32:B28,45").unwrap();
    let limits = Limits { depth: Some(4), ..Limits::default() };
    // The capture 32x23 is compulsory here, so White cannot crown yet: no win in one.
    let r = search(root, vec![], Counters::default(), limits.clone(), Mode::Analyze, 1);
    assert_ne!(r.score, Score::win_in(1), "{:?}", r.score);
    let root = parse_position::<Breakthrough>("W:W7:B45").unwrap();
    let r = search(root, vec![], Counters::default(), limits.clone(), Mode::Analyze, 1);
    assert_eq!(r.score, Score::win_in(1));
    // Black to move, White's man crowns next whatever Black does.
    let root = parse_position::<Breakthrough>("B:W7:B35").unwrap();
    let r = search(root, vec![], Counters::default(), limits, Mode::Analyze, 1);
    assert_eq!(r.score, Score::loss_in(2));
}

/// Antidraughts (lidraughts): the side without a move wins, so the search scores giving away
/// the last piece as a loss for the side that takes it, and blocking oneself as a win.
#[test]
fn antidraughts_search_scores_running_out_of_moves_as_a_win() {
    let limits = Limits { depth: Some(4), ..Limits::default() };
    // White must take the last black man: Black then has no move and wins.
    let root = parse_position::<Antidraughts>("W:W32:B28").unwrap();
    let r = search(root, vec![], Counters::default(), limits.clone(), Mode::Analyze, 1);
    assert_eq!(r.score, Score::loss_in(1));
    // White gives its only man away (28 must take it): White wins at once.
    let root = parse_position::<Antidraughts>("W:W33:B22").unwrap();
    let r = search(root, vec![], Counters::default(), limits, Mode::Analyze, 1);
    assert_eq!(r.score, Score::win_in(2));
}
