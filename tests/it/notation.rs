//! Positions and moves as text: start positions, FEN and Hub strings in every accepted form,
//! square numberings, move notation, and errors that name the problem.

use crate::common::legal;
use kondavo::notation::*;
use kondavo::position::Position;
use kondavo::rules::*;
use kondavo::variant::{Base, Variant};
use kondavo::with_rules;

fn start_fen(v: &str) -> String {
    let v: Variant = v.parse().unwrap();
    with_rules!(v, R => to_fen(&Position::<R>::start()))
}

fn start_hub(v: &str) -> String {
    let v: Variant = v.parse().unwrap();
    with_rules!(v, R => to_hub_position(&Position::<R>::start()))
}

fn fen_error(v: &str, fen: &str) -> String {
    let v: Variant = v.parse().unwrap();
    with_rules!(v, R => parse_fen::<R>(fen).map(|p| to_fen(&p)).expect_err("must be refused").0)
}

#[test]
fn start_positions_as_fen() {
    assert_eq!(start_fen("international"), "W:W31-50:B1-20");
    assert_eq!(start_fen("english"), "B:W21-32:B1-12");
    assert_eq!(start_fen("italian"), "W:W21-32:B1-12");
    assert_eq!(start_fen("spanish"), "W:W1-12:B21-32");
    for v in ["russian", "ukrainian", "brazilian", "czech"] {
        assert_eq!(
            start_fen(v),
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
            "{v}"
        );
    }
    assert_eq!(
        start_fen("turkish"),
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
    );
}

#[test]
fn start_positions_as_hub_strings() {
    assert_eq!(start_hub("international"), "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    // 8x8: the side that moves first is `W`, on 21-32 (for english that is Black).
    let eight = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
    for v in ["english", "italian", "spanish", "russian", "ukrainian", "brazilian", "czech"] {
        assert_eq!(start_hub(v), eight, "{v}");
    }
    let turkish = format!(
        "W{}{}{}{}{}",
        "e".repeat(8),
        "b".repeat(16),
        "e".repeat(16),
        "w".repeat(16),
        "e".repeat(8)
    );
    assert_eq!(start_hub("turkish"), turkish);
}

#[test]
fn square_numberings_follow_each_rule_set() {
    fn same<R: Rules>(a: &str, b: &str) {
        assert_eq!(
            parse_square::<R>(a).unwrap(),
            parse_square::<R>(b).unwrap(),
            "{a} = {b} in {:?}",
            R::BASE
        );
    }
    same::<International>("46", "a1");
    same::<International>("1", "b10");
    same::<International>("5", "j10");
    same::<English>("1", "b8");
    same::<English>("29", "a1");
    same::<English>("32", "g1");
    same::<Italian>("1", "a8");
    same::<Italian>("4", "g8");
    same::<Italian>("29", "b1");
    same::<Italian>("32", "h1");
    same::<Spanish>("1", "h1");
    same::<Spanish>("4", "b1");
    same::<Spanish>("5", "g2");
    same::<Spanish>("32", "a8");
    // On algebraic boards, numbers are the Hub numbering (1 = b8, 29 = a1).
    same::<Russian>("29", "a1");
    same::<Russian>("1", "b8");
    assert_eq!(square_name::<Russian>(parse_square::<Russian>("c3").unwrap()), "c3");
    assert_eq!(square_name::<Turkish>(parse_square::<Turkish>("h8").unwrap()), "h8");
}

#[test]
fn fen_accepts_either_list_order_ranges_kings_and_algebraic() {
    let a = parse_fen::<International>("W:B1-20:W31-50").unwrap();
    assert_eq!(a, Position::start());
    let b = parse_fen::<International>(" \"W:W31,32,33-50:B1-20.\" ").unwrap();
    assert_eq!(b, Position::start());
    let c = parse_fen::<International>("[FEN \"W:WK46,a3:Bb10\"]").unwrap();
    assert_eq!(to_fen(&c), "W:W36,K46:B1");
    let d = parse_fen::<English>("B:W21-32:B1-12:H0:F1").unwrap();
    assert_eq!(d, Position::start());
    let e = parse_fen::<Russian>("W:WKa1,h2:Bb8").unwrap();
    assert_eq!(to_fen(&e), "W:WKa1,h2:Bb8");
}

#[test]
fn hub_strings_round_trip_with_colours_swapped_for_english() {
    let pos = parse_fen::<English>("W:WK1,30:B5,K26").unwrap();
    let hub = to_hub_position(&pos);
    // White to move is `B` in the Hub string; English 30 is Hub 3, English 1 is Hub 32.
    assert!(hub.starts_with('B'));
    assert_eq!(&hub[3..4], "b");
    assert_eq!(&hub[32..33], "B");
    assert_eq!(parse_hub_position::<English>(&hub).unwrap(), pos);
}

#[test]
fn native_notation_writes_full_path_only_when_needed() {
    // A unique capture is written from x to.
    assert_eq!(legal("international", "W:W32:B28"), vec!["32x23".to_string()]);
    // Russian always writes the landing squares.
    assert_eq!(legal("russian", "W:Wc3:Bd4,f6"), vec!["c3:e5:g7".to_string()]);
}

#[test]
fn full_path_tells_apart_captures_with_same_start_and_end() {
    // English (free choice): the man on c1 (30) reaches c5 (14) over b2 and b4 landing on a3
    // (21), or over d2 and d4 landing on e3 (23).
    let fen = "W:W30:B25,17,26,18";
    assert_eq!(legal("english", fen), vec!["30x21x14".to_string(), "30x23x14".to_string()]);
    let pos = parse_fen::<English>(fen).unwrap();
    let a = parse_native_move(&pos, "30x21x14").unwrap();
    let b = parse_native_move(&pos, "30x23x14").unwrap();
    assert_ne!(a, b);
    let err = parse_native_move(&pos, "30x14").unwrap_err();
    assert!(err.0.contains("ambiguous"), "{err}");
    // In Hub notation (33 - square) the captured squares tell them apart, in any order.
    assert_eq!(parse_hub_move(&pos, "3x19x16x8").unwrap(), a);
    assert_eq!(parse_hub_move(&pos, "3x19x7x15").unwrap(), b);
    assert_eq!(move_to_hub::<English>(a), "3x19x8x16");
}

#[test]
fn hub_notation_uses_hub_squares() {
    // English: Black's 11-15 is Hub 22-18.
    let pos = Position::<English>::start();
    let mv = parse_native_move(&pos, "11-15").unwrap();
    assert_eq!(move_to_hub::<English>(mv), "22-18");
    assert_eq!(parse_hub_move(&pos, "22-18").unwrap(), mv);
    assert_eq!(parse_hub_move(&pos, "22x18").unwrap(), mv);
    // Spanish: the Hub order is the italian one (33 - spanish square).
    let pos = Position::<Spanish>::start();
    let mv = parse_native_move(&pos, "10-14").unwrap();
    assert_eq!(move_to_hub::<Spanish>(mv), "23-19");
    // Turkish: a8 = 1 … h1 = 64.
    let pos = Position::<Turkish>::start();
    let mv = parse_native_move(&pos, "d3-d4").unwrap();
    assert_eq!(move_to_hub::<Turkish>(mv), "44-36");
}

// ---------------------------------------------------------------------------------------
// Bad input names the problem.

#[test]
fn fen_with_a_man_on_its_promotion_row_is_refused() {
    let e = fen_error("international", "W:W3:B20");
    assert!(e.contains("promotion row"), "{e}");
    let e = fen_error("russian", "B:Wc3:Bb2,a1");
    assert!(e.contains("promotion row"), "{e}");
}

#[test]
fn fen_with_13_men_in_a_list_is_refused() {
    let e = fen_error("russian", "W:W1-13:B20-32");
    assert!(e.contains("13 pieces"), "{e}");
}

#[test]
fn fen_with_square_0_or_51_is_refused() {
    let e = fen_error("international", "W:W0,31:B1");
    assert!(e.contains("square 0"), "{e}");
    let e = fen_error("international", "W:W51:B1");
    assert!(e.contains("square 51"), "{e}");
    let e = fen_error("english", "W:W33:B1");
    assert!(e.contains("square 33"), "{e}");
    let e = fen_error("russian", "W:Wa2:Bb8");
    assert!(e.contains("a2"), "{e}");
}

#[test]
fn fen_with_garbage_is_refused() {
    for bad in [
        "",
        "X:W1:B2",
        "W:W1:W2",
        "W:Q1",
        "W:W1,1:B2",
        "W:W5-2:B1",
        "\u{0}\u{ff}",
        "W:W1-99999999999999999999:B2",
    ] {
        let e = fen_error("international", bad);
        assert!(!e.is_empty(), "{bad:?}");
    }
    let e = fen_error("international", "W:W1,1:B2");
    assert!(e.contains("twice"), "{e}");
}

#[test]
fn hub_string_with_wrong_length_or_letters_is_refused() {
    let e = parse_hub_position::<International>("Wbbb").unwrap_err();
    assert!(e.0.contains("51 characters"), "{e}");
    let bad = format!("W{}x", "e".repeat(49));
    let e = parse_hub_position::<International>(&bad).unwrap_err();
    assert!(e.0.contains("'x'"), "{e}");
}

#[test]
fn unknown_rule_set_is_refused() {
    let e = "frisia".parse::<Variant>().unwrap_err();
    assert!(e.0.contains("frisia"), "{e}");
    assert!(Base::from_name("checkers") == Some(Base::English));
}

#[test]
fn illegal_or_garbled_moves_are_refused() {
    let pos = Position::<International>::start();
    let e = parse_native_move(&pos, "32-27x").unwrap_err();
    assert!(e.0.contains("bad move"), "{e}");
    let e = parse_native_move(&pos, "31-22").unwrap_err();
    assert!(e.0.contains("illegal move"), "{e}");
    let e = parse_native_move(&pos, "31-99").unwrap_err();
    assert!(e.0.contains("99"), "{e}");
    let e = parse_hub_move(&pos, "32-2\u{7f}8").unwrap_err();
    assert!(!e.0.is_empty());
    assert!(parse_move(&pos, "").is_err());
}
