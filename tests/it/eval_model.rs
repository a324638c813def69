//! The learned evaluation: colour symmetry, window indices, the weights file format and its
//! failures, and loading weights through the engine.

use kondavo::bitboard::Bitboard;
use kondavo::color::Color;
use kondavo::engine::{Engine, GameSpec, Options};
use kondavo::eval::model::{self, Model};
use kondavo::eval::{Eval, builtin_model, evaluate, layout};
use kondavo::geometry::Geometry;
use kondavo::position::Position;
use kondavo::search::{Control, Limits, Mode};
use kondavo::variant::{Base, Variant};
use kondavo::with_rules;
use proptest::prelude::*;

/// A small deterministic random stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// A model of `base` with the default windows and random weights.
fn random_model(base: Base, seed: u64) -> Model {
    random_model_with(base, seed, false)
}

/// A model of `base` with the default windows, a material table if `material`, and random
/// weights.
fn random_model_with(base: Base, seed: u64, material: bool) -> Model {
    let shape = model::shape_of(base);
    let windows = layout::default_windows(shape);
    let n = model::param_count(shape, &windows).unwrap()
        + if material { model::material_size(base) } else { 0 };
    let mut rng = Rng(seed);
    let weights = (0..n)
        .map(|_| [(rng.next() % 2001) as i16 - 1000, (rng.next() % 2001) as i16 - 1000])
        .collect();
    Model::from_parts(base, 8, windows, weights, "random".into()).unwrap()
}

/// Positions of random games of `R` from the start.
fn random_positions<R: Eval>(seed: u64, games: usize) -> Vec<Position<R>> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::<R>::start();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.after(moves[(rng.next() % moves.len() as u64) as usize]);
            out.push(pos);
        }
    }
    out
}

/// The bit set rotated by 180 degrees.
fn rotate<G: Geometry>(b: Bitboard) -> Bitboard {
    let mut out = 0u64;
    for bit in b {
        let i = G::INDEX[bit as usize] as usize;
        out |= 1 << G::BITS[G::SQUARES - 1 - i];
    }
    Bitboard(out)
}

/// `pos` with the board turned round and the colours swapped: the same position for the
/// other side.
fn mirror<R: Eval>(pos: &Position<R>) -> Position<R> {
    let w = rotate::<R::Geo>(pos.pieces(Color::Black));
    let b = rotate::<R::Geo>(pos.pieces(Color::White));
    let k = rotate::<R::Geo>(pos.all_kings());
    Position::new(w, b, k, !pos.side()).expect("a mirrored position is legal")
}

fn check_symmetry<R: Eval>(seed: u64) {
    let models = [
        Some(random_model(R::BASE, seed)),
        Some(random_model_with(R::BASE, seed, true)),
        builtin_model(R::BASE).as_deref().cloned(),
    ];
    for m in models.iter() {
        for pos in random_positions::<R>(seed, 6) {
            let a = evaluate(&pos, m.as_ref());
            let b = evaluate(&mirror(&pos), m.as_ref());
            assert_eq!(a, b, "{} {:?}: {a:?} against its mirror {b:?}", R::BASE.id(), pos);
        }
    }
    // The hand-set evaluation too.
    for pos in random_positions::<R>(seed + 1, 3) {
        assert_eq!(evaluate(&pos, None), evaluate(&mirror(&pos), None), "{pos:?}");
    }
}

#[test]
fn evaluation_is_colour_symmetric_in_every_rule_set() {
    for base in Base::ALL {
        with_rules!(Variant::new(base), R => check_symmetry::<R>(base as u64 + 11));
    }
}

fn check_indices<R: Eval>(seed: u64) {
    let m = random_model(R::BASE, seed);
    let n = <R::Geo as Geometry>::SQUARES;
    let windows = m.windows().to_vec();
    let mut offsets = Vec::new();
    let mut at = model::scalar_count(m.shape());
    for w in &windows {
        offsets.push(at);
        at += 3usize.pow(w.len() as u32);
    }
    // Both gathers: by pext (where the processor has it) and by byte tables.
    let models = [m.clone(), m.without_pext()];
    assert!(!models[1].uses_pext());
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") && std::env::var_os("KONDAVO_NO_PEXT").is_none()
    {
        assert!(models[0].uses_pext(), "BMI2 is there: the pext gather should be in use");
    }
    for (pos, m) in
        random_positions::<R>(seed, 4).iter().flat_map(|p| models.iter().map(move |m| (p, m)))
    {
        let mut seen = Vec::new();
        m.visit(pos, |p, c| seen.push((p, c)));
        let patterns = &seen[seen.len() - 2 * windows.len()..];
        let (wm, bm) = (pos.men(Color::White), pos.men(Color::Black));
        for (k, w) in windows.iter().enumerate() {
            let white = offsets[k] + model::reference_index::<R::Geo>(w, wm, bm) as usize;
            let rotated: Vec<u8> = w.iter().map(|&s| (n - 1 - s as usize) as u8).collect();
            let black = offsets[k] + model::reference_index::<R::Geo>(&rotated, bm, wm) as usize;
            assert_eq!(patterns[2 * k], (white, 1), "{} window {k}", R::BASE.id());
            assert_eq!(patterns[2 * k + 1], (black, -1), "{} window {k}", R::BASE.id());
        }
    }
}

/// The gathers of window indices (byte tables, and pext where the processor has it) equal
/// reading the window square by square, in
/// positions of random games (the index is computed from scratch at every node, so this is
/// the check that it is right wherever a game goes).
#[test]
fn window_indices_equal_the_square_by_square_reference_after_random_games() {
    for base in Base::ALL {
        with_rules!(Variant::new(base), R => check_indices::<R>(base as u64 + 3));
    }
}

/// A model of `base` with the `kings` layout (the small windows read with and without kings),
/// a material table and random weights.
fn random_king_model(base: Base, seed: u64) -> Model {
    let shape = model::shape_of(base);
    let windows = layout::windows_named(shape, "kings").unwrap();
    let kings = layout::king_windows_named(shape, "kings").unwrap();
    assert!(!kings.is_empty());
    let n = model::param_count(shape, &windows).unwrap()
        + model::king_param_count(&kings).unwrap()
        + model::material_size(base);
    let mut rng = Rng(seed);
    let weights = (0..n)
        .map(|_| [(rng.next() % 2001) as i16 - 1000, (rng.next() % 2001) as i16 - 1000])
        .collect();
    Model::from_parts_with_kings(base, 8, windows, kings, weights, "random".into()).unwrap()
}

/// A king window's index read square by square: base 5, own man 1, their man 2, own king 3,
/// their king 4.
fn reference_king_index<G: Geometry>(
    window: &[u8],
    own: Bitboard,
    their: Bitboard,
    kings: Bitboard,
) -> usize {
    let mut idx = 0;
    for (j, &s) in window.iter().enumerate() {
        let bit = G::BITS[s as usize] as u32;
        let d = match (own.has(bit), their.has(bit), kings.has(bit)) {
            (true, _, false) => 1,
            (_, true, false) => 2,
            (true, _, true) => 3,
            (_, true, true) => 4,
            _ => 0,
        };
        idx += d * 5usize.pow(j as u32);
    }
    idx
}

fn check_king_windows<R: Eval>(seed: u64) {
    let m = random_king_model(R::BASE, seed);
    let n = <R::Geo as Geometry>::SQUARES;
    let mut first = model::param_count(m.shape(), m.windows()).unwrap();
    let mut offsets = Vec::new();
    for w in m.king_windows() {
        offsets.push(first);
        first += 5usize.pow(w.len() as u32);
    }
    let end = first;
    let start = offsets[0];
    let models = [m.clone(), m.without_pext()];
    let (mut with, mut without) = (0, 0);
    for pos in random_positions::<R>(seed, 6) {
        // Colour symmetry with king windows.
        assert_eq!(evaluate(&pos, Some(&m)), evaluate(&mirror(&pos), Some(&m)), "{pos:?}");
        let kings = pos.all_kings();
        for m in &models {
            let mut seen = Vec::new();
            m.visit(&pos, |p, c| seen.push((p, c)));
            let table: Vec<(usize, i32)> =
                seen.into_iter().filter(|&(p, _)| (start..end).contains(&p)).collect();
            if kings.is_empty() {
                assert!(table.is_empty(), "king windows are read only with a king on the board");
                without += 1;
                continue;
            }
            with += 1;
            let (w, b) = (pos.pieces(Color::White), pos.pieces(Color::Black));
            let mut want = Vec::new();
            for (k, win) in m.king_windows().iter().enumerate() {
                let rotated: Vec<u8> = win.iter().map(|&s| (n - 1 - s as usize) as u8).collect();
                want.push((offsets[k] + reference_king_index::<R::Geo>(win, w, b, kings), 1));
                want.push((offsets[k] + reference_king_index::<R::Geo>(&rotated, b, w, kings), -1));
            }
            assert_eq!(table, want, "{} {pos:?}", R::BASE.id());
        }
    }
    assert!(with > 0 && without > 0, "{}: {with} with kings, {without} without", R::BASE.id());
    // The file keeps the king windows.
    let bytes = m.to_bytes();
    let back = Model::from_bytes(&bytes).unwrap();
    assert_eq!(back.king_windows(), m.king_windows());
    assert_eq!(back.weights(), m.weights());
    assert_eq!(back.to_bytes(), bytes);
}

/// The `kings` layout: its windows read kings as their own digits (checked square by square,
/// by pext and by byte tables), only while a king is on the board, colour-symmetrically, and
/// its files round-trip. The orthogonal board has no such layout.
#[test]
fn king_windows_read_men_and_kings_square_by_square_and_round_trip() {
    for base in [Base::Russian, Base::Brazilian, Base::English, Base::International] {
        with_rules!(Variant::new(base), R => check_king_windows::<R>(base as u64 + 31));
    }
    assert!(layout::king_windows_named(model::shape_of(Base::Turkish), "kings").is_none());
    assert_eq!(layout::king_windows_named(model::shape_of(Base::Russian), "small"), Some(vec![]));
}

/// The material table's two entries in a position: White's signature counted for White, Black's
/// counted against it, each read from the men and kings on the board.
fn check_material_entries<R: Eval>(seed: u64) {
    let m = random_model_with(R::BASE, seed, true);
    assert!(m.has_material());
    let shape = m.shape();
    let offset = model::param_count(shape, m.windows()).unwrap();
    let mut seen_kings = false;
    for pos in random_positions::<R>(seed, 4) {
        let (w, b) = (Color::White, Color::Black);
        let count = |c: Color| (pos.men(c).count(), pos.kings(c).count());
        let ((wm, wk), (bm, bk)) = (count(w), count(b));
        seen_kings |= wk + bk > 0;
        let mut seen = Vec::new();
        m.visit(&pos, |p, c| seen.push((p, c)));
        let table: Vec<(usize, i32)> = seen.into_iter().filter(|&(p, _)| p >= offset).collect();
        let white = offset + model::material_index(R::BASE, wm, wk, bm, bk);
        let black = offset + model::material_index(R::BASE, bm, bk, wm, wk);
        assert_eq!(table, vec![(white, 1), (black, -1)], "{} {pos:?}", R::BASE.id());
    }
    assert!(seen_kings, "{}: the random games should reach kings", R::BASE.id());
    // Every signature has its own entry, and the table is exactly the size it says.
    let men = R::BASE.men_per_side();
    let mut entries = std::collections::HashSet::new();
    for a in 0..=men {
        for k in 0..=model::MATERIAL_KINGS {
            for c in 0..=men {
                for l in 0..=model::MATERIAL_KINGS {
                    let i = model::material_index(R::BASE, a, k, c, l);
                    assert!(i < model::material_size(R::BASE));
                    assert!(entries.insert(i), "{a} {k} {c} {l} share entry {i}");
                }
            }
        }
    }
    assert_eq!(entries.len(), model::material_size(R::BASE));
    // More kings than the table tells apart count as its largest number.
    assert_eq!(
        model::material_index(R::BASE, 1, 7, 0, 1),
        model::material_index(R::BASE, 1, 3, 0, 1)
    );
}

#[test]
fn material_table_entries_are_the_signatures_of_both_sides() {
    for base in Base::ALL {
        with_rules!(Variant::new(base), R => check_material_entries::<R>(base as u64 + 21));
    }
}

#[test]
fn weights_files_with_a_material_table_round_trip_and_a_wrong_count_is_refused() {
    for base in [Base::International, Base::Russian, Base::Turkish] {
        let m = random_model_with(base, 6, true);
        let bytes = m.to_bytes();
        let back = Model::from_bytes(&bytes).unwrap();
        assert!(back.has_material());
        assert_eq!(back.weights(), m.weights());
        assert_eq!(back.to_bytes(), bytes);
        assert!(!random_model(base, 6).has_material());
    }
    let shape = model::shape_of(Base::Russian);
    let windows = layout::default_windows(shape);
    let n = model::param_count(shape, &windows).unwrap() + 1;
    let err =
        Model::from_parts(Base::Russian, 8, windows, vec![[0; 2]; n], String::new()).unwrap_err().0;
    assert!(err.contains("with a material table"), "{err}");
}

#[test]
fn weights_files_round_trip() {
    for base in [Base::International, Base::English, Base::Turkish] {
        let m = random_model(base, 5);
        let bytes = m.to_bytes();
        let back = Model::from_bytes(&bytes).unwrap();
        assert_eq!(back.weights(), m.weights());
        assert_eq!(back.windows(), m.windows());
        assert_eq!(back.base(), base);
        assert_eq!(back.to_bytes(), bytes);
    }
}

#[test]
fn corrupted_weights_files_fail_with_a_message_that_names_the_problem() {
    let bytes = random_model(Base::Russian, 9).to_bytes();
    let err = |b: &[u8]| Model::from_bytes(b).unwrap_err().0;
    assert!(err(&bytes[..bytes.len() / 2]).contains("checksum"), "{}", err(&bytes[..100]));
    assert!(err(&bytes[..10]).contains("not a kondavo weights file"));
    assert!(err(b"hello world, this is not a weights file").contains("not a kondavo"));
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x40;
    assert!(err(&flipped).contains("checksum"));
    let mut version = bytes.clone();
    version[8] = 7;
    assert!(err(&version).contains("version 7"));
    // A file for another rule set loads, but not for this one.
    let m = Model::from_bytes(&bytes).unwrap();
    assert!(m.check_rule_set(Base::Brazilian).unwrap_err().0.contains("russian"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Arbitrary bytes, and valid files with bytes changed, never panic the reader.
    #[test]
    fn weights_reader_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..300),
                                   at in any::<usize>(), value in any::<u8>(), cut in any::<usize>()) {
        let _ = Model::from_bytes(&bytes);
        let mut good = random_model(Base::English, 2).to_bytes();
        let i = at % good.len();
        good[i] = value;
        let _ = Model::from_bytes(&good);
        // With the checksum recomputed, the structure itself is checked.
        let body = good.len() - 8;
        let sum = model::fnv1a(&good[..body]);
        good[body..].copy_from_slice(&sum.to_le_bytes());
        let _ = Model::from_bytes(&good);
        let _ = Model::from_bytes(&good[..cut % good.len()]);
    }
}

fn search_score(engine: &Engine, fen: &str) -> (String, i32) {
    let spec = GameSpec { start: fen.into(), moves: vec![] };
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let done = engine.search(&spec, &limits, Mode::Analyze, &Control::new(), &mut |_| {}).unwrap();
    (done.best.map(|m| m.hub).unwrap_or_default(), done.score.0)
}

#[test]
fn an_eval_file_replaces_the_weights_and_a_bad_one_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("kondavo-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("russian.kdw");
    std::fs::write(&good, random_model(Base::Russian, 4).to_bytes()).unwrap();
    let bad = dir.join("bad.kdw");
    std::fs::write(&bad, b"KDVOEVAL garbage").unwrap();
    let other = dir.join("english.kdw");
    std::fs::write(&other, random_model(Base::English, 4).to_bytes()).unwrap();

    let variant: Variant = "russian".parse().unwrap();
    let options = Options { variant, hash_mib: 4, ..Options::default() };
    let mut engine = Engine::new(options.clone());
    let fen = "W:Wa1,c1,e1,g1,b2,d2,h2,a3,e3,g3,b4:Bh4,e5,b6,h6,a7,c7,g7,b8,d8,f8,h8";
    let before = search_score(&engine, fen);
    let with_file = Options { eval_file: Some(good.display().to_string()), ..options.clone() };
    engine.set_options(with_file.clone()).unwrap();
    assert!(engine.model().is_some());
    let after = search_score(&engine, fen);
    assert_ne!(before.1, after.1, "random weights score differently");
    for wrong in [&bad, &other, &dir.join("missing.kdw")] {
        let e = engine
            .set_options(Options {
                eval_file: Some(wrong.display().to_string()),
                ..options.clone()
            })
            .unwrap_err();
        assert!(!e.0.is_empty());
        assert_eq!(engine.options(), &with_file, "options unchanged after {e}");
        assert_eq!(search_score(&engine, fen), after, "weights unchanged after {e}");
    }
    assert!(
        Engine::try_new(Options { eval_file: Some(bad.display().to_string()), ..options.clone() })
            .is_err()
    );
    // `hand` is the hand-set evaluation: no model, and the score of a search without one.
    engine.set_options(Options { eval_file: Some("hand".into()), ..options.clone() }).unwrap();
    assert!(engine.model().is_none());
    let hand = search_score(&engine, fen);
    assert_ne!(hand.1, after.1);
    engine.set_options(options).unwrap();
    assert!(engine.model().is_some(), "the default brings the built-in weights back");
    assert_eq!(search_score(&engine, fen), before);
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_scaling<R: Eval>(base: Base) {
    let m = random_model(base, 12);
    let (double, clamped) = m.scaled(2.0).unwrap();
    assert_eq!(clamped, 0);
    assert!(double.description().ends_with("weights scaled by 2"), "{}", double.description());
    let back = Model::from_bytes(&double.to_bytes()).unwrap();
    assert_eq!(back.weights(), double.weights());
    for pos in random_positions::<R>(12, 4) {
        let (a, b) = (m.white_score(&pos), double.white_score(&pos));
        // Twice the weights, then the stage blend's and the unit's integer divisions.
        assert!((b - 2 * a).abs() <= 2, "{a} scaled to {b}");
    }
    let (big, clamped) = m.scaled(50.0).unwrap();
    assert!(clamped > 0, "weights up to 1000 times 50 leave the 16 bits");
    assert!(big.weights().iter().all(|w| w[0] != i16::MIN && w[1] != i16::MIN));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1000.0] {
        assert!(m.scaled(bad).unwrap_err().0.contains("out of range"), "{bad}");
    }
}

#[test]
fn scaling_a_model_multiplies_its_scores_and_records_the_factor() {
    for base in [Base::Russian, Base::International, Base::Turkish] {
        with_rules!(Variant::new(base), R => check_scaling::<R>(base));
    }
}
