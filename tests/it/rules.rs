//! One test per rule of `shared/rules.md`, each on a hand-made position whose legal moves
//! were worked out by hand from the rule (the comment says how). Names say the rule.

use crate::common::{fen_after, find, keep_list, legal, legal_after, sorted};
use kondavo::color::Color;
use kondavo::game::{DrawRules, Game, Outcome};
use kondavo::notation::parse_position;
use kondavo::position::Position;
use kondavo::rules::{Antidraughts, Breakthrough, Frisian, International, Russian};

// ---------------------------------------------------------------------------------------
// international (FMJD)

/// rules.md §1: capturing is compulsory: the man on 40 may not move while 32 can take 28.
#[test]
fn international_capture_is_compulsory() {
    assert_eq!(legal("international", "W:W32,40:B28"), sorted(&["32x23"]));
}

/// FMJD 4.1: a man captures backward as well as forward (23 takes 28, landing on 32).
#[test]
fn international_man_captures_backward() {
    assert_eq!(legal("international", "W:W23:B28"), sorted(&["23x32"]));
}

/// FMJD majority rule: 32x21 (one piece) loses to 32x23x12 (two pieces).
#[test]
fn international_majority_capture_is_compulsory() {
    assert_eq!(legal("international", "W:W32:B18,27,28"), sorted(&["32x12"]));
}

/// Majority counts pieces, a king counting one: taking two men beats taking the king on 27.
#[test]
fn international_king_counts_one_in_majority() {
    assert_eq!(legal("international", "W:W32:BK27,28,18"), sorted(&["32x12"]));
}

/// FMJD 4.13: 13 takes 8 landing on 2 (the promotion row), then takes 7 backward to 11; it
/// only passed the row, so it stays a man.
#[test]
fn international_man_passing_promotion_row_stays_man() {
    assert_eq!(legal("international", "W:W13:B7,8"), sorted(&["13x11"]));
    assert_eq!(fen_after("international", "W:W13:B7,8", &["13x11"]), "B:W11:B");
}

/// A man ending its move on the far row is crowned.
#[test]
fn international_man_ending_on_last_row_is_crowned() {
    assert_eq!(legal("international", "W:W7:B45"), sorted(&["7-1", "7-2"]));
    assert_eq!(fen_after("international", "W:W7:B45", &["7-1"]), "B:WK1:B45");
}

/// FMJD 3.9: a king moves any distance along a free diagonal (46 to 5 is the long one).
#[test]
fn international_king_moves_any_distance() {
    let moves = ["46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10", "46-5"];
    assert_eq!(legal("international", "W:WK46:B1"), sorted(&moves));
}

/// FMJD 4.3: a king captures a piece at a distance and lands on any free square beyond it.
#[test]
fn international_flying_king_captures_at_distance() {
    let moves = ["46x23", "46x19", "46x14", "46x10", "46x5"];
    assert_eq!(legal("international", "W:WK46:B28"), sorted(&moves));
}

// ---------------------------------------------------------------------------------------
// brazilian

/// Brazilian = international rules on 8x8: the man on b6 takes c7 (reaching d8) and then e7
/// backward; having only passed the last row, it stays a man, on f6 (no flying on).
#[test]
fn brazilian_man_passing_promotion_row_stays_man() {
    assert_eq!(legal("brazilian", "W:Wb6:Bc7,e7"), sorted(&["b6xf6"]));
    assert_eq!(fen_after("brazilian", "W:Wb6:Bc7,e7", &["b6xf6"]), "B:Wf6:B");
}

/// Brazilian majority rule: c3xa5 (one piece) loses to c3xe5xg7 (two).
#[test]
fn brazilian_majority_capture_is_compulsory() {
    assert_eq!(legal("brazilian", "W:Wc3:Bb4,d4,f6"), sorted(&["c3xg7"]));
}

// ---------------------------------------------------------------------------------------
// russian and ukrainian

/// Russian 1.5.15: b6 takes c7 and is crowned on d8 at once; as a king it flies on over e7
/// and may land on f6, g5 or h4.
#[test]
fn russian_promotes_mid_capture_and_continues() {
    let moves = ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"];
    assert_eq!(legal("russian", "W:Wb6:Bc7,e7"), sorted(&moves));
    assert_eq!(fen_after("russian", "W:Wb6:Bc7,e7", &["b6:d8:f6"]), "B:WKf6:B");
}

/// Ukrainian shares the russian promotion rule.
#[test]
fn ukrainian_promotes_mid_capture_and_continues() {
    let moves = ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"];
    assert_eq!(legal("ukrainian", "W:Wb6:Bc7,e7"), sorted(&moves));
}

/// Russian 1.5.10: free choice: taking one piece (c3:a5) is as legal as taking two.
#[test]
fn russian_free_choice_among_captures() {
    assert_eq!(legal("russian", "W:Wc3:Bb4,d4,f6"), sorted(&["c3:a5", "c3:e5:g7"]));
}

/// Ukrainian has the russian free choice.
#[test]
fn ukrainian_free_choice_among_captures() {
    assert_eq!(legal("ukrainian", "W:Wc3:Bb4,d4,f6"), sorted(&["c3:a5", "c3:e5:g7"]));
}

/// After a king's jump, if some landing squares let the capture go on, it must land on one:
/// over c3 the king could stop on d4..h8's first squares, but only d4 (turn to f2) and e5
/// (straight on over f6) continue, so no capture ends on d4 or e5.
#[test]
fn russian_king_must_land_where_capture_continues() {
    assert_eq!(legal("russian", "W:WKa1:Bc3,f6,f2"), sorted(&["a1:d4:g1", "a1:e5:g7", "a1:e5:h8"]));
}

/// Turkish strike: captured pieces stay on the board until the capture ends. The king on c1
/// goes round the ring d2, d4, b4, b2 back to c1; d2 still stands there, so it cannot go on
/// over d2 to take f4 (it could if d2 had left the board).
#[test]
fn russian_captured_pieces_stay_until_the_capture_ends() {
    let fen = "W:WKc1:Bb2,d2,b4,d4,f4";
    let moves = legal("russian", fen);
    assert_eq!(moves.len(), 7, "{moves:?}");
    let pos: Position<Russian> = parse_position(fen).unwrap();
    let most = pos.legal_moves().iter().map(|m| m.captured().count()).max();
    assert_eq!(most, Some(4));
    let ring = find(&pos, "c1:e3:c5:a3:c1");
    assert_eq!(ring.captured().count(), 4);
    assert_eq!(ring.from(), ring.to());
}

/// Two routes with the same start, end, captured set and result are one move: the ring of
/// the previous test can be run both ways; with routes kept there is one move more.
#[test]
fn russian_duplicate_capture_routes_are_one_move() {
    let pos: Position<Russian> = parse_position("W:WKc1:Bb2,d2,b4,d4,f4").unwrap();
    let clockwise = find(&pos, "c1:e3:c5:a3:c1");
    let anticlockwise = find(&pos, "c1:a3:c5:e3:c1");
    assert_eq!(clockwise, anticlockwise);
    assert_eq!(pos.legal_moves().len(), 7);
    assert_eq!(keep_list(&pos).len(), 8);
}

/// The Woldouby position contains a ring capture by a man capturing backwards: with routes
/// kept, perft 2 is 13 (published); dropped, 12.
#[test]
fn international_duplicate_capture_routes_are_one_move() {
    let pos: Position<International> =
        parse_position("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38").unwrap();
    assert_eq!(kondavo::perft::perft(&pos, 2, true), 12);
    assert_eq!(kondavo::perft::perft(&pos, 2, false), 13);
}

// ---------------------------------------------------------------------------------------
// english

/// English: Black moves first, from 9-12 down the board.
#[test]
fn english_black_moves_first() {
    let moves = ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"];
    assert_eq!(legal("english", "start"), sorted(&moves));
    assert!(
        kondavo::notation::to_fen(&Position::<kondavo::rules::English>::start()).starts_with("B:")
    );
}

/// English men capture forward only: White's man on 22 may not take 26 behind it.
#[test]
fn english_men_capture_forward_only() {
    assert_eq!(legal("english", "W:W22:B26"), sorted(&["22-17", "22-18"]));
}

/// English kings move one square in any direction.
#[test]
fn english_king_moves_one_square() {
    assert_eq!(legal("english", "W:WK22:B4"), sorted(&["22-17", "22-18", "22-25", "22-26"]));
}

/// English kings capture by a short jump only: the man on 15 is two squares away.
#[test]
fn english_king_captures_by_short_jump_only() {
    assert_eq!(legal("english", "W:WK29:B15"), sorted(&["29-25"]));
    assert_eq!(legal("english", "W:WK22:B18"), sorted(&["22x15"]));
}

/// English: free choice among captures (one piece or two).
#[test]
fn english_free_choice_among_captures() {
    assert_eq!(legal("english", "W:W22:B17,18,11"), sorted(&["22x13", "22x8"]));
}

/// English: a man crowned by a capture stops there, though a king could jump on over 8.
#[test]
fn english_promotion_ends_the_move() {
    assert_eq!(legal("english", "W:W10:B7,8"), sorted(&["10x3"]));
    assert_eq!(fen_after("english", "W:W10:B7,8", &["10x3"]), "B:WK3:B8");
}

// ---------------------------------------------------------------------------------------
// italian (squares: 1 = a8 … 22 = d3, 30 = d1)

/// Italian: a man may not capture a king: d3 cannot take the king on e4, and must take the
/// man on c4 instead.
#[test]
fn italian_man_cannot_capture_king() {
    assert_eq!(legal("italian", "W:W22:BK19"), sorted(&["22-18"]));
    assert_eq!(legal("italian", "W:W22:BK19,18"), sorted(&["22x13"]));
}

/// Italian precedence 1: the capture taking most pieces.
#[test]
fn italian_most_pieces_first() {
    // d3 (22) takes c4 (18) to b5 (13), or e4 (19) to f5 (15) and then f6? no: g6 (12) to h7 (8).
    assert_eq!(legal("italian", "W:W22:B18,19,12"), sorted(&["22x8"]));
}

/// Italian precedence 2: with equal counts, a king must capture rather than a man: the king
/// on h1 (32) takes g2 (28) and the man on d3 (22) could take c4 (18), one piece each.
#[test]
fn italian_king_must_capture_before_man() {
    assert_eq!(legal("italian", "W:W22,K32:B18,28"), sorted(&["32x23"]));
}

/// Italian precedence 3: with equal counts, the capture taking most kings.
#[test]
fn italian_most_kings_captured() {
    assert_eq!(legal("italian", "W:WK22:B18,K19"), sorted(&["22x15"]));
}

/// Italian precedence 4: two pieces and one king either way; the sequence meeting the king
/// first (c4 king, then c2) beats the one meeting it second (e4, then the king on g2).
#[test]
fn italian_king_met_earliest() {
    assert_eq!(legal("italian", "W:WK14:BK18,26,19,K28"), sorted(&["14x30"]));
}

/// Italian kings move one square; the board is mirrored (square 1 is a8, d3 is 22 and its
/// neighbours are c4 = 18, e4 = 19, c2 = 26, e2 = 27).
#[test]
fn italian_king_moves_one_square_on_mirrored_board() {
    assert_eq!(legal("italian", "W:WKd3:Ba8"), sorted(&["22-18", "22-19", "22-26", "22-27"]));
}

// ---------------------------------------------------------------------------------------
// spanish (squares: 1 = h1 … 11 = d3, 14 = e4, 15 = c4, 18 = f5, 20 = b5)

/// Spanish precedence 2 (quality): with equal counts, the capture taking more kings.
#[test]
fn spanish_prefers_more_kings() {
    assert_eq!(legal("spanish", "W:W11:BK15,14"), sorted(&["11x20"]));
}

/// Spanish precedence 1 (quantity): most pieces.
#[test]
fn spanish_most_pieces_first() {
    // d3 takes c4 to b5, or e4 to f5 and then g6 (21) to h7 (25).
    assert_eq!(legal("spanish", "W:W11:B15,14,21"), sorted(&["11x25"]));
}

/// Spanish men capture forward only; kings fly.
#[test]
fn spanish_men_capture_forward_only() {
    // d3 (11) cannot take c2 (7) behind it; it moves to c4 (15) or e4 (14).
    assert_eq!(legal("spanish", "W:W11:B7"), sorted(&["11-14", "11-15"]));
    // The king on h1 (1) takes e4 (14) and lands anywhere up to a8 (32).
    assert_eq!(legal("spanish", "W:WK1:B14"), sorted(&["1x19", "1x23", "1x28", "1x32"]));
}

// ---------------------------------------------------------------------------------------
// czech

/// Czech: if a king can capture, a king must capture, even when men could take more.
#[test]
fn czech_king_must_capture() {
    assert_eq!(legal("czech", "W:WKh8,a3,e5:Bg7,b4,d6"), sorted(&["h8xf6"]));
}

/// Czech: with no king capture, free choice among the men's captures.
#[test]
fn czech_free_choice_when_no_king_can_capture() {
    assert_eq!(legal("czech", "W:Wa3,e5:Bb4,d6"), sorted(&["a3xe7", "e5xc7"]));
}

/// Czech men capture forward only.
#[test]
fn czech_men_capture_forward_only() {
    assert_eq!(legal("czech", "W:Wd4:Bc3"), sorted(&["d4-c5", "d4-e5"]));
}

// ---------------------------------------------------------------------------------------
// turkish

/// Turkish men move one square forward or sideways, never backward or diagonally.
#[test]
fn turkish_men_move_forward_and_sideways() {
    assert_eq!(legal("turkish", "W:Wd4:Ba8"), sorted(&["d4-c4", "d4-d5", "d4-e4"]));
}

/// Turkish men capture forward or sideways, not backward: d3 behind is safe.
#[test]
fn turkish_men_capture_forward_and_sideways_not_backward() {
    assert_eq!(legal("turkish", "W:Wd4:Bd3,c4"), sorted(&["d4xb4"]));
}

/// Turkish kings move like rooks over empty squares.
#[test]
fn turkish_king_flies_along_ranks_and_files() {
    assert_eq!(legal("turkish", "W:WKd4:Ba8").len(), 14);
}

/// Turkish: captured pieces leave at once, so the king, coming back along rank 2 from e2,
/// crosses c2 (taken first) and takes b2: c1xa2 takes four.
#[test]
fn turkish_captured_pieces_are_removed_at_once() {
    assert_eq!(legal("turkish", "W:WKc1:Bc2,d4,e3,b2"), sorted(&["c1xa2"]));
}

/// Turkish: a king may not turn back 180° between jumps (d4 takes d6 going up; it may not
/// come back down over the emptied squares to take d2 in the same move).
#[test]
fn turkish_no_180_turn() {
    assert_eq!(legal("turkish", "W:WKd4:Bd6,d2"), sorted(&["d4xd1", "d4xd7", "d4xd8"]));
}

/// Turkish majority rule: the capture taking most pieces must be played.
#[test]
fn turkish_majority_capture_is_compulsory() {
    // d4 takes d5 to d6 then e6 to f6 (two), or c4 to b4 (one).
    assert_eq!(legal("turkish", "W:Wd4:Bc4,d5,e6"), sorted(&["d4xf6"]));
}

/// Turkish: a man reaching the last row mid-capture finishes as a man (no flying jump over
/// e8) and is crowned when the move ends.
#[test]
fn turkish_man_reaching_last_row_mid_capture_finishes_as_man() {
    assert_eq!(legal("turkish", "W:Wc6:Bc7,e8"), sorted(&["c6xc8"]));
    assert_eq!(fen_after("turkish", "W:Wc6:Bc7,e8", &["c6xc8"]), "B:WKc8:Be8");
    // As a man it may still jump sideways along the last row.
    assert_eq!(legal("turkish", "W:Wc6:Bc7,d8"), sorted(&["c6xe8"]));
}

// ---------------------------------------------------------------------------------------
// optional capture

/// Optional capture: with a capture available, quiet moves are legal too.
#[test]
fn optional_capture_allows_quiet_moves() {
    assert_eq!(legal("russian-optional", "W:Wc3:Bd4"), sorted(&["c3-b4", "c3:e5"]));
    assert_eq!(legal("english-optional", "W:W22:B18"), sorted(&["22-17", "22x15"]));
}

/// Optional capture: a capture once chosen is completed.
#[test]
fn optional_capture_completes_a_chosen_capture() {
    assert_eq!(legal("russian-optional", "W:Wc3:Bd4,f6"), sorted(&["c3-b4", "c3:e5:g7"]));
}

/// Optional capture keeps the rule set's precedence among captures (brazilian majority).
#[test]
fn optional_capture_keeps_precedence() {
    assert_eq!(
        legal("brazilian-optional", "W:Wc3:Bb4,d4,f6"),
        sorted(&["c3xg7", "c3-d2"]).into_iter().filter(|m| m != "c3-d2").collect::<Vec<_>>()
    );
}

// ---------------------------------------------------------------------------------------
// killer

/// Killer (lidraughts, "Killer"): a king whose capture ends by taking a king lands on the
/// square directly behind it. International lets 46 land anywhere beyond the king on 28; in
/// killer only 23 remains.
#[test]
fn killer_king_taking_king_last_lands_directly_behind() {
    let international = ["46x23", "46x19", "46x14", "46x10", "46x5"];
    assert_eq!(legal("international", "W:WK46:BK28"), sorted(&international));
    assert_eq!(legal("killer", "W:WK46:BK28"), sorted(&["46x23"]));
}

/// The killer landing binds only the last piece taken: a king taking a man lands anywhere
/// beyond it, and a king taking the king on 37 and then the man on 22 lands on 17, 11 or 6.
#[test]
fn killer_landing_rule_binds_only_the_last_piece_taken() {
    let beyond_man = ["46x23", "46x19", "46x14", "46x10", "46x5"];
    assert_eq!(legal("killer", "W:WK46:B28"), sorted(&beyond_man));
    assert_eq!(legal("killer", "W:WK46:BK37,22"), sorted(&["46x17", "46x11", "46x6"]));
    // A man taking a king stops behind it in every rule set; a man is not bound further.
    assert_eq!(legal("killer", "W:W32:BK28"), sorted(&["32x23"]));
}

// ---------------------------------------------------------------------------------------
// breakthrough

/// The outcome of `fen` after `moves` under `R`, with the product draw rules.
fn outcome_after<R: kondavo::rules::Rules>(fen: &str, moves: &[&str]) -> Option<Outcome> {
    let start = parse_position::<R>(fen).expect("valid position");
    let mut game = Game::new(start, DrawRules::of(R::variant(), false));
    for m in moves {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game.outcome()
}

/// Breakthrough (lidraughts, "Breakthrough"): the first side to crown a king wins at once,
/// though the opponent still has moves (in international the game goes on).
#[test]
fn breakthrough_first_side_to_crown_a_king_wins() {
    assert_eq!(outcome_after::<International>("W:W7:B45", &["7-1"]), None);
    assert_eq!(
        outcome_after::<Breakthrough>("W:W7:B45", &["7-1"]),
        Some(Outcome::Win(Color::White))
    );
    assert_eq!(
        outcome_after::<Breakthrough>("B:W7:B45", &["45-50"]),
        Some(Outcome::Win(Color::Black))
    );
}

/// Breakthrough: a side left without a legal move (no pieces, or blocked) loses, as in
/// international; a man only passing the last row during a capture is not crowned and
/// does not win.
#[test]
fn breakthrough_side_without_a_move_loses_and_passing_the_row_does_not_crown() {
    assert_eq!(
        outcome_after::<Breakthrough>("W:W32:B28", &["32x23"]),
        Some(Outcome::Win(Color::White))
    );
    assert_eq!(fen_after("breakthrough", "W:W13:B7,8,45", &["13x11"]), "B:W11:B45");
    assert_eq!(outcome_after::<Breakthrough>("W:W13:B7,8,45", &["13x11"]), None);
}

// ---------------------------------------------------------------------------------------
// antidraughts

/// Antidraughts (lidraughts, "Antidraughts"): the side that has lost every piece wins. After
/// 32x23 Black has nothing left: Black wins (in international, White does).
#[test]
fn antidraughts_side_without_pieces_wins() {
    assert_eq!(
        outcome_after::<International>("W:W32:B28", &["32x23"]),
        Some(Outcome::Win(Color::White))
    );
    assert_eq!(
        outcome_after::<Antidraughts>("W:W32:B28", &["32x23"]),
        Some(Outcome::Win(Color::Black))
    );
}

/// Antidraughts: a blocked side wins too. Black's man on 36 can only go to 41, which White
/// holds, and cannot take it (47 behind it is occupied).
#[test]
fn antidraughts_blocked_side_wins() {
    assert_eq!(legal("antidraughts", "B:W41,47:B36"), Vec::<String>::new());
    assert_eq!(
        outcome_after::<Antidraughts>("B:W41,47:B36", &[]),
        Some(Outcome::Win(Color::Black))
    );
    assert_eq!(
        outcome_after::<International>("B:W41,47:B36", &[]),
        Some(Outcome::Win(Color::White))
    );
}

/// Antidraughts keeps the international capture rules: capturing is compulsory and the
/// majority capture must be played, though it gives the opponent the win sooner.
#[test]
fn antidraughts_majority_capture_is_compulsory() {
    assert_eq!(legal("antidraughts", "W:W32,40:B18,27,28"), sorted(&["32x12"]));
}

// ---------------------------------------------------------------------------------------
// frisian and frysk! (lidraughts "Frisian" and "Frysk!"; the federation's rules as dctl and
// lidraughts implement them)

/// Frisian: a man also captures along its column, over the next playable square of the
/// line (two rows away) onto the one beyond, forward and backward. International has no
/// such capture.
#[test]
fn frisian_man_captures_along_a_column() {
    assert_eq!(legal("frisian", "W:W33:B23"), sorted(&["33x13"]));
    assert_eq!(legal("frisian", "W:W23:B33"), sorted(&["23x43"]));
    assert_eq!(legal("international", "W:W23:B33"), sorted(&["23-18", "23-19"]));
}

/// Frisian: a man also captures along its row, over the next square of the row (two
/// columns away).
#[test]
fn frisian_man_captures_along_a_row() {
    assert_eq!(legal("frisian", "W:W31:B32"), sorted(&["31x33"]));
    assert_eq!(legal("international", "W:W31:B32"), sorted(&["31-26", "31-27"]));
}

/// Frisian: a king captures along rows and columns at a distance and lands on any free
/// square beyond (46 takes 26 up the a-file landing on 16 or 6; 36 takes 38 along the row
/// landing on 39 or 40).
#[test]
fn frisian_king_captures_along_rows_and_columns_at_distance() {
    assert_eq!(legal("frisian", "W:WK46:B26"), sorted(&["46x16", "46x6"]));
    assert_eq!(legal("frisian", "W:WK36:B38"), sorted(&["36x39", "36x40"]));
}

/// Frisian: a king moves only along diagonals (the same moves as in international).
#[test]
fn frisian_king_moves_only_diagonally() {
    let moves = ["46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10", "46-5"];
    assert_eq!(legal("frisian", "W:WK46:B1"), sorted(&moves));
}

/// Frisian capture by value: taking a king outweighs taking a man (33x22 takes the king on
/// 28, 33x42 the man on 38); international lets either be played.
#[test]
fn frisian_capture_of_a_king_outweighs_a_man() {
    assert_eq!(legal("frisian", "W:W33:BK28,38"), sorted(&["33x22"]));
    assert_eq!(legal("international", "W:W33:BK28,38"), sorted(&["33x22", "33x42"]));
}

/// Frisian capture by value: a king is worth more than one man and less than two, so n kings
/// outweigh 2n - 1 men and not 2n. 36x7 takes the kings on 26 and 11; 36x20 takes the men on
/// 37, 39 and 30 (three men lose to two kings), and with a man on 19 as well 36x18 takes four
/// (four men beat two kings).
#[test]
fn frisian_two_kings_outweigh_three_men_but_not_four() {
    assert_eq!(legal("frisian", "W:W36:B37,39,30,K26,K11"), sorted(&["36x7"]));
    assert_eq!(legal("frisian", "W:W36:B37,39,30,19,K26,K11"), sorted(&["36x18"]));
}

/// Frisian: at equal value a king must capture rather than a man (the king on 50 and the man
/// on 16 can each take one man; only the king may); international lets either capture.
#[test]
fn frisian_king_captures_before_man_at_equal_value() {
    assert_eq!(legal("frisian", "W:W16,33,K50:B11,44"), sorted(&["50x39"]));
    assert_eq!(legal("international", "W:W16,33,K50:B11,44"), sorted(&["16x7", "50x39"]));
}

/// Frisian: while its side has men, the same king may make at most three non-capturing moves
/// in a row. After 46-41, 41-46, 46-41 White must move the man; once it has, the king may
/// move again.
#[test]
fn frisian_king_makes_at_most_three_quiet_moves_in_a_row_while_men_remain() {
    let moves = ["46-41", "1-7", "41-46", "7-12", "46-41", "12-17"];
    assert!(legal_after("frisian", "W:WK46,35:B1", &moves[..4]).contains(&"46-41".to_string()));
    assert_eq!(legal_after("frisian", "W:WK46,35:B1", &moves), sorted(&["35-30"]));
    let later = [&moves[..], &["35-30", "17-22"]].concat();
    assert!(legal_after("frisian", "W:WK46,35:B1", &later).contains(&"41-46".to_string()));
    // The limit is on that king: another king may move.
    let with_two = legal_after("frisian", "W:WK46,K36,35:B1", &moves);
    assert!(with_two.contains(&"35-30".to_string()) && with_two.contains(&"36-31".to_string()));
    assert!(!with_two.iter().any(|m| m.starts_with("41-")), "{with_two:?}");
    // Without men the limit does not apply.
    assert!(legal_after("frisian", "W:WK46:B1", &moves).contains(&"41-46".to_string()));
}

/// Frisian draw rule (lidraughts, after the federation): a king against a king is drawn
/// after two moves each.
#[test]
fn frisian_king_against_king_is_drawn_after_two_moves_each() {
    let moves = ["46-41", "1-6", "41-46", "6-1"];
    assert_eq!(outcome_after::<Frisian>("W:WK46:BK1", &moves[..3]), None);
    assert_eq!(outcome_after::<Frisian>("W:WK46:BK1", &moves), Some(Outcome::MoveCounter));
    assert_eq!(outcome_after::<International>("W:WK46:BK1", &moves), None);
}

/// Frysk! (lidraughts): frisian rules from five men each on the back row, White to move.
#[test]
fn frysk_starts_with_five_men_each_on_the_back_row() {
    assert_eq!(fen_after("frysk", "start", &[]), "W:W46-50:B1-5");
    let moves = ["46-41", "47-41", "47-42", "48-42", "48-43", "49-43", "49-44", "50-44", "50-45"];
    assert_eq!(legal("frysk", "start"), sorted(&moves));
    assert_eq!(legal("frysk!", "W:W31:B32"), sorted(&["31x33"]));
}
