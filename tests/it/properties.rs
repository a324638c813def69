//! Property tests: round trips (FEN, Hub strings, native and Hub move notation), the
//! incremental hash, optional capture against its base rule set, and parsers that never panic
//! on arbitrary input. Positions come from random games and from random piece placements.

use kondavo::bitboard::Bitboard;
use kondavo::color::Color;
use kondavo::geometry::Geometry;
use kondavo::movegen;
use kondavo::moves::MoveList;
use kondavo::notation::*;
use kondavo::position::Position;
use kondavo::rules::{Optional, Rules};
use kondavo::variant::{Base, Variant};
use kondavo::with_rules;
use proptest::prelude::*;

/// Positions met in a random game of up to `choices.len()` plies (each choice picks a move).
fn random_game<R: Rules>(choices: &[u16]) -> Vec<Position<R>> {
    let mut pos = Position::<R>::start();
    let mut out = vec![pos];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.after(moves[c as usize % moves.len()]);
        out.push(pos);
    }
    out
}

/// A random legal placement: `cells[i]` picks the piece on internal square `i`.
fn random_placement<R: Rules>(cells: &[u8], black_to_move: bool) -> Option<Position<R>> {
    let bits = <R::Geo as Geometry>::BITS;
    let (mut sets, mut kings) = ([Bitboard::EMPTY; 2], Bitboard::EMPTY);
    for (i, &c) in cells.iter().take(<R::Geo as Geometry>::SQUARES).enumerate() {
        let b = Bitboard::from_bit(u32::from(bits[i]));
        let (color, king) = match c % 10 {
            0 | 1 => (Color::White, false),
            2 | 3 => (Color::Black, false),
            4 => (Color::White, true),
            5 => (Color::Black, true),
            _ => continue,
        };
        let max = R::BASE.men_per_side();
        if sets[color.index()].count() >= max {
            continue;
        }
        // A man on its promotion row would be a king.
        let king = king || R::promotion_row(color).intersects(b);
        sets[color.index()] |= b;
        if king {
            kings |= b;
        }
    }
    let side = if black_to_move { Color::Black } else { Color::White };
    Position::new(sets[0], sets[1], kings, side).ok()
}

fn check_position<R: Rules>(pos: &Position<R>) {
    // Hash kept by `after` equals the hash from scratch.
    assert_eq!(pos.key(), pos.compute_key(), "{pos:?}");
    // FEN and Hub string round trips. Neither carries the frisian king-move counters (a
    // set-up position starts them at zero), so the board is compared without them.
    let board = pos
        .with_king_run(Color::White, 0, 0)
        .and_then(|p| p.with_king_run(Color::Black, 0, 0))
        .expect("clearing a run always works");
    let fen = to_fen(pos);
    assert_eq!(parse_fen::<R>(&fen).unwrap(), board, "{fen}");
    let hub = to_hub_position(pos);
    assert_eq!(parse_hub_position::<R>(&hub).unwrap(), board, "{hub}");
    assert_eq!(parse_position::<R>(&hub).unwrap(), board, "{hub}");
    // Every legal move survives native and Hub notation, and its successor's hash is right.
    let moves = pos.legal_moves();
    for &mv in &moves {
        let native = move_to_native(pos, mv);
        let parsed =
            parse_native_move(pos, &native).unwrap_or_else(|e| panic!("{fen} {native}: {e}"));
        assert_eq!(parsed, mv, "{fen} {native}");
        assert_eq!(parse_move(pos, &native).unwrap(), mv, "{fen} {native}");
        let hub = move_to_hub::<R>(mv);
        assert_eq!(parse_hub_move(pos, &hub).unwrap(), mv, "{fen} {hub}");
        let next = pos.after(mv);
        assert_eq!(next.key(), next.compute_key(), "{fen} {native}");
        assert_eq!(next.side(), !pos.side());
    }
    // No duplicates in the legal move list; each duplicate-free count agrees with perft 1.
    for (i, a) in moves.iter().enumerate() {
        assert!(!moves[i + 1..].contains(a), "{fen}: duplicate {a:?}");
    }
    assert_eq!(movegen::count_moves(pos, true), moves.len() as u64, "{fen}");
    let mut keep = MoveList::new();
    movegen::generate_with(pos, &mut keep, false);
    assert_eq!(movegen::count_moves(pos, false), keep.len() as u64, "{fen}");
    // Captures are compulsory: either every move captures or none does.
    if !R::OPTIONAL_CAPTURE {
        let captures = moves.iter().filter(|m| m.is_capture()).count();
        assert!(captures == 0 || captures == moves.len(), "{fen}");
        assert_eq!(pos.has_capture(), captures > 0, "{fen}");
    }
}

/// Optional capture = the base rule set's captures plus every quiet move.
fn check_optional<R: Rules>(pos: &Position<R>) {
    let opt = parse_fen::<Optional<R>>(&to_fen(pos)).unwrap();
    let base = pos.legal_moves();
    let with_option = opt.legal_moves();
    let mut quiet = MoveList::new();
    movegen::quiet_moves(pos, &mut quiet);
    for m in base.iter().filter(|m| m.is_capture()) {
        assert!(with_option.contains(m), "{pos:?}");
    }
    for m in &quiet {
        assert!(with_option.contains(m), "{pos:?}");
    }
    let captures = base.iter().filter(|m| m.is_capture()).count();
    assert_eq!(with_option.len(), captures + quiet.len(), "{pos:?}");
}

fn variant_of(i: usize) -> Variant {
    Variant::all()[i % Variant::all().len()]
}

proptest! {
    // 200 cases by default; PROPTEST_CASES=N for a longer run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(200)
    ))]

    #[test]
    fn random_games_round_trip(v in 0usize..17, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        with_rules!(variant_of(v), R => {
            for pos in random_game::<R>(&choices) {
                check_position(&pos);
            }
        });
    }

    #[test]
    fn random_placements_round_trip(v in 0usize..17, cells in prop::collection::vec(any::<u8>(), 64), black in any::<bool>()) {
        with_rules!(variant_of(v), R => {
            if let Some(pos) = random_placement::<R>(&cells, black) {
                check_position(&pos);
            }
        });
    }

    #[test]
    fn optional_capture_is_base_captures_plus_quiet_moves(b in 1usize..9, cells in prop::collection::vec(any::<u8>(), 64), black in any::<bool>()) {
        let v = Variant::new(Base::ALL[b]);
        with_rules!(v, R => {
            if let Some(pos) = random_placement::<R>(&cells, black) {
                check_optional(&pos);
            }
        });
    }

    #[test]
    fn parsers_never_panic_on_arbitrary_text(v in 0usize..17, text in ".{0,80}") {
        with_rules!(variant_of(v), R => {
            let pos = Position::<R>::start();
            let _ = parse_fen::<R>(&text);
            let _ = parse_hub_position::<R>(&text);
            let _ = parse_position::<R>(&text);
            let _ = parse_move(&pos, &text);
            let _ = parse_hub_move(&pos, &text);
            let _ = parse_square::<R>(&text);
        });
        let _ = text.parse::<Variant>();
    }

    #[test]
    fn parsers_never_panic_on_fen_like_text(v in 0usize..17, text in "[WBwbK]?:[WBK0-9a-j,:-]{0,60}") {
        with_rules!(variant_of(v), R => {
            let _ = parse_fen::<R>(&text);
            let pos = Position::<R>::start();
            let _ = parse_move(&pos, &text);
        });
    }

    #[test]
    fn parsers_never_panic_on_raw_bytes(v in 0usize..17, bytes in prop::collection::vec(any::<u8>(), 0..100)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        with_rules!(variant_of(v), R => {
            let _ = parse_position::<R>(&text);
            let pos = Position::<R>::start();
            let _ = parse_move(&pos, &text);
        });
    }
}
