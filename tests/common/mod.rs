//! Helpers shared by the integration tests.
#![allow(dead_code)]

use kondavo::movegen;
use kondavo::moves::{Move, MoveList};
use kondavo::notation::{move_to_native, parse_move, parse_position};
use kondavo::position::Position;
use kondavo::rules::Rules;
use kondavo::variant::Variant;
use kondavo::with_rules;

/// The legal moves of `fen` in `variant`, in native notation, sorted.
pub fn legal(variant: &str, fen: &str) -> Vec<String> {
    let v: Variant = variant.parse().expect("known variant");
    with_rules!(v, R => {
        let pos = parse_position::<R>(fen).expect("valid position");
        let mut out: Vec<String> =
            pos.legal_moves().iter().map(|&m| move_to_native(&pos, m)).collect();
        out.sort();
        out
    })
}

/// `expected` sorted, as owned strings.
pub fn sorted(expected: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The FEN after playing `moves` (any accepted notation) from `fen`.
pub fn fen_after(variant: &str, fen: &str, moves: &[&str]) -> String {
    let v: Variant = variant.parse().expect("known variant");
    with_rules!(v, R => {
        let mut pos = parse_position::<R>(fen).expect("valid position");
        for m in moves {
            let mv = parse_move(&pos, m).unwrap_or_else(|e| panic!("{m}: {e}"));
            pos = pos.after(mv);
        }
        kondavo::notation::to_fen(&pos)
    })
}

/// Every legal move of `pos` together with its capture routes kept (the "keep" list).
pub fn keep_list<R: Rules>(pos: &Position<R>) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate_with(pos, &mut list, false);
    list
}

/// The legal move named `text` in `pos`.
pub fn find<R: Rules>(pos: &Position<R>, text: &str) -> Move {
    parse_move(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves (native, sorted) after playing `moves` from `fen` in `variant`; the
/// moves are played through the positions, so counters a position carries (the frisian
/// king-move count) are kept.
pub fn legal_after(variant: &str, fen: &str, moves: &[&str]) -> Vec<String> {
    let v: Variant = variant.parse().expect("known variant");
    with_rules!(v, R => {
        let mut pos = parse_position::<R>(fen).expect("valid position");
        for m in moves {
            let mv = parse_move(&pos, m).unwrap_or_else(|e| panic!("{m}: {e}"));
            pos = pos.after(mv);
        }
        let mut out: Vec<String> =
            pos.legal_moves().iter().map(|&m| move_to_native(&pos, m)).collect();
        out.sort();
        out
    })
}
