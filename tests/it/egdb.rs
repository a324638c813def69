//! Endgame databases: exactness (every position agrees with its successors), position
//! counts against the published state counts, known endings, the file format against
//! damage, and the `kondavo egdb` commands.

use kondavo::egdb::build::{Generator, verify_slice};
use kondavo::egdb::{Egdb, Slice, Table, Value};
use kondavo::notation;
use kondavo::position::Position;
use kondavo::rules::{English, International, Rules, Russian};
use kondavo::variant::Variant;
use kondavo::with_rules;
use proptest::prelude::*;
use std::path::PathBuf;
use std::process::Command;

/// Builds `slices` (with what they need) in memory.
fn solved<R: Rules>(slices: &[Slice]) -> Generator<R> {
    let mut g = Generator::<R>::new(None);
    g.build(&Generator::<R>::closure(slices), |_| {}).expect("builds");
    g
}

fn value<R: Rules>(g: &Generator<R>, fen: &str) -> Value {
    let pos: Position<R> = notation::parse_position(fen).expect("a valid FEN");
    g.value(&pos).expect("the slice is solved")
}

/// Checks every position of every slice up to `pieces` against its successors; returns
/// the positions checked.
fn exact_up_to<R: Rules>(pieces: u32) -> u64 {
    let mut g = Generator::<R>::new(None);
    let slices = Generator::<R>::slices_up_to(pieces);
    g.build(&slices, |_| {}).expect("builds");
    let mut checked = 0;
    for s in slices {
        let (n, bad) = verify_slice(&g, s, 0, 1);
        assert!(bad.is_empty(), "{} {s}: {:?}", R::variant(), &bad[..bad.len().min(3)]);
        let t = g.table(s).expect("kept in memory");
        assert_eq!(n, t.stats().positions(), "{} {s}: every position checked", R::variant());
        checked += n;
    }
    checked
}

/// Local consistency of every position (its stored value is the one its moves give, with
/// captures and promotions looked up in the smaller slices) proves the whole database
/// exact by induction on the distances; the move generator is the one perft proves.
#[test]
fn every_position_up_to_three_pieces_agrees_with_its_successors_in_every_rule_set() {
    for v in [
        "international",
        "brazilian",
        "russian",
        "ukrainian",
        "english",
        "italian",
        "spanish",
        "czech",
        "turkish",
        "english-optional",
        "russian-optional",
        "italian-optional",
    ] {
        let v: Variant = v.parse().expect("a rule set");
        let n = with_rules!(v, R => exact_up_to::<R>(3));
        assert!(n > 100_000, "{v}: {n}");
    }
}

#[test]
fn every_four_piece_position_of_russian_and_english_agrees_with_its_successors() {
    assert_eq!(exact_up_to::<Russian>(4), 6_408_836);
    assert_eq!(exact_up_to::<English>(4), 6_408_836);
}

/// Legal positions with White to move are half the published counts of both sides to move
/// (`../shared/strength-research.md` 4.4, computed as `rhalbersma/dctl`'s `count_legal()`:
/// 8x8 2 pieces 6.98e3, 3 pieces 3.92e5; 10x10 1.77e4 and 1.61e6; turkish 2.47e4 and
/// 2.67e6, men on 48 squares).
#[test]
fn position_counts_match_the_published_state_counts() {
    fn count<R: Rules>(pieces: u32) -> u64 {
        let g = solved::<R>(&Generator::<R>::slices_up_to(pieces));
        Generator::<R>::slices_up_to(pieces)
            .iter()
            .filter(|s| s.pieces() == pieces)
            .map(|&s| g.table(s).expect("solved").stats().positions())
            .sum()
    }
    let close = |got: u64, published: f64| {
        let ratio = 2.0 * got as f64 / published;
        assert!((0.995..1.005).contains(&ratio), "{got} positions against {published}/2");
    };
    close(count::<Russian>(2), 6.98e3);
    close(count::<Russian>(3), 3.92e5);
    close(count::<International>(2), 1.77e4);
    close(count::<International>(3), 1.61e6);
    close(count::<kondavo::rules::Turkish>(2), 2.47e4);
    close(count::<kondavo::rules::Turkish>(3), 2.67e6);
}

/// Russian theory (Petrov's triangle; ru-checkers.ru endgame articles): three kings
/// against a lone king that holds the main road a1-h8 cannot win.
#[test]
fn russian_three_kings_against_a_lone_king_on_the_main_road_draw() {
    let g = solved::<Russian>(&[Slice::new(0, 3, 0, 1)]);
    assert_eq!(value(&g, "W:WKc1,Ke1,Kg1:BKa1"), Value::Draw);
    assert_eq!(value(&g, "B:WKc1,Ke1,Kg1:BKd4"), Value::Draw);
    // Every position with the lone king on the main road, to move, and no capture either
    // way is a draw.
    let road = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"];
    let t = g.table(Slice::new(0, 1, 0, 3)).expect("solved");
    assert!(t.stats().draws > 0);
    for sq in road {
        let fen = format!("B:WKc1,Ke1,Kg1:BK{sq}");
        let pos: Position<Russian> = notation::parse_position(&fen).expect("valid");
        if !pos.has_capture() && !pos.with_side(kondavo::color::Color::White).has_capture() {
            assert_eq!(g.value(&pos), Some(Value::Draw), "{fen}");
        }
    }
}

/// Russian theory (Petrov's triangle): three kings, one of them on the main road, win
/// against a lone king off it.
#[test]
fn russian_three_kings_holding_the_main_road_win() {
    let g = solved::<Russian>(&[Slice::new(0, 3, 0, 1)]);
    for fen in ["W:WKa1,Kc1,Ke1:BKh2", "W:WKb2,Kc1,Ke1:BKh2", "B:WKc3,Ke1,Kg1:BKh2"] {
        assert!(matches!(value(&g, fen), Value::Win(_) | Value::Loss(_)), "{fen}");
        let v = value(&g, fen);
        let white_wins = if fen.starts_with('W') { v.sign() == 1 } else { v.sign() == -1 };
        assert!(white_wins, "{fen}: {v}");
    }
}

/// International kings against kings up to four against one (and two against two), built once
/// for the tests that read them.
fn international_kings() -> &'static Generator<International> {
    static G: std::sync::OnceLock<Generator<International>> = std::sync::OnceLock::new();
    G.get_or_init(|| solved::<International>(&[Slice::new(0, 4, 0, 1), Slice::new(0, 2, 0, 2)]))
}

/// International theory (FMJD endgame basics, e.g. the "Trictrac" and Scan's bitbases):
/// three kings against a lone king on the long diagonal 46-5 draw; four kings against one
/// win.
#[test]
fn international_three_kings_draw_and_four_kings_win_against_a_lone_king_on_the_long_diagonal() {
    let g = international_kings();
    assert_eq!(value(g, "W:WK1,K2,K3:BK46"), Value::Draw);
    assert_eq!(value(g, "W:WK1,K2,K3:BK50"), Value::Draw);
    assert_eq!(value(g, "B:WK1,K2,K3:BK28"), Value::Draw);
    let v = value(g, "W:WK1,K2,K3,K4:BK46");
    assert!(matches!(v, Value::Win(_)), "{v}");
    let v = value(g, "B:WK1,K2,K3,K4:BK46");
    assert!(matches!(v, Value::Loss(_)), "{v}");
}

/// English checkers theory (any checkers primer: "two kings always beat one"): every
/// position of two kings against one with the two kings to move is a win, except those
/// where the lone king already attacks both (a fork).
#[test]
fn english_two_kings_against_one_win() {
    let g = solved::<English>(&[Slice::new(0, 2, 0, 1)]);
    assert!(matches!(value(&g, "W:WK1,K2:BK32"), Value::Win(_)));
    assert!(matches!(value(&g, "B:WK29,K32:BK4"), Value::Loss(_)));
    let st = g.table(Slice::new(0, 2, 0, 1)).expect("solved").stats();
    assert_eq!(st.losses, 0);
    assert!(st.draws * 100 < st.positions(), "{st:?}");
}

/// Turkish (C. Freeling, "Draughts dissected", mindsports.nl, King versus kings: "two kings
/// can trap a lone one ... in Turkish"): two kings against one win, with either side to move,
/// except where the lone king takes one of them at once.
#[test]
fn turkish_two_kings_against_a_lone_king_win() {
    use kondavo::rules::Turkish;
    let g = solved::<Turkish>(&[Slice::new(0, 2, 0, 1)]);
    let st = g.table(Slice::new(0, 2, 0, 1)).expect("solved").stats();
    assert_eq!(st.losses, 0, "{st:?}");
    assert!(st.wins * 100 > st.positions() * 99, "{st:?}");
    // With the lone king to move, it wins only by taking both kings at once (in one ply) and
    // draws only by taking one; every other position is lost.
    let st = g.table(Slice::new(0, 1, 0, 2)).expect("solved").stats();
    assert!(st.longest_win <= 1, "{st:?}");
    assert!(st.losses * 10 > st.positions() * 6, "{st:?}");
    // A lone king (turkish kings fly along rows and columns) against one: mostly drawn.
    let st = g.table(Slice::new(0, 1, 0, 1)).expect("solved").stats();
    assert!(st.draws * 10 > st.positions() * 8, "{st:?}");
}

/// Turkish (same source, King versus man + king: "the conversion and thus the win can be
/// secured ... the same holds for Turkish"): a king and a man against a lone king win but
/// for a few positions, and never lose.
#[test]
fn turkish_king_and_man_against_a_lone_king_win() {
    use kondavo::rules::Turkish;
    let g = solved::<Turkish>(&[Slice::new(1, 1, 0, 1)]);
    let st = g.table(Slice::new(1, 1, 0, 1)).expect("solved").stats();
    assert_eq!(st.losses, 0, "{st:?}");
    assert!(st.wins * 100 > st.positions() * 95, "{st:?}");
}

/// Italian kings move like checkers kings (one step, `../shared/rules.md`), so two kings beat
/// one as in checkers (same source as the turkish tests: "as in Checkers"); and a man cannot
/// capture a king (FID rules, art. 5), so a lone man next to a lone king wins in english and
/// not in italian.
#[test]
fn italian_two_kings_beat_one_and_a_man_cannot_take_a_king() {
    use kondavo::rules::Italian;
    let g = solved::<Italian>(&[Slice::new(0, 2, 0, 1), Slice::new(1, 0, 0, 1)]);
    let st = g.table(Slice::new(0, 2, 0, 1)).expect("solved").stats();
    assert_eq!(st.losses, 0);
    assert!(st.draws * 100 < st.positions(), "{st:?}");
    // Every position of a man against a king, man to move: english wins those where the man
    // can take; italian has no capture in any of them, so it wins fewer.
    let e = solved::<English>(&[Slice::new(1, 0, 0, 1)]);
    let english = e.table(Slice::new(1, 0, 0, 1)).expect("solved").stats();
    let italian = g.table(Slice::new(1, 0, 0, 1)).expect("solved").stats();
    assert_eq!(english.positions(), italian.positions());
    assert!(italian.wins < english.wins, "italian {italian:?}, english {english:?}");
    use kondavo::bitboard::Bitboard;
    use kondavo::geometry::Geometry;
    type G = <Italian as Rules>::Geo;
    let mut adjacent = 0;
    for &m in &G::BITS[..G::SQUARES] {
        for &k in &G::BITS[..G::SQUARES] {
            let (man, king) = (Bitboard(1 << m), Bitboard(1 << k));
            let white = kondavo::color::Color::White;
            let Ok(pos) = Position::<Italian>::new(man, king, king, white) else { continue };
            assert!(!pos.has_capture(), "{}", notation::to_fen(&pos));
            let Ok(e) = Position::<English>::new(man, king, king, white) else { continue };
            adjacent += usize::from(e.has_capture());
        }
    }
    assert!(adjacent > 0, "english men take kings");
}

/// How many positions of table `t` hold value `v`.
fn count_of(t: &Table, v: Value) -> u64 {
    (0..t.size()).filter(|&i| t.value(i) == Some(v)).count() as u64
}

/// Published slice report (Ed Trice, damforum.nl topic 2603, "2-piece database, 1 white king
/// 0 white checkers vs. 1 red king 0 red checkers"): 992 positions with White to move, 230
/// wins, 654 draws, 108 losses; 72 wins by a jump at once; with no jump for either side 140
/// wins, 650 draws and 108 losses; the longest win 11 plies. A generator of its own, so each
/// count could differ. (The report also says 32 wins of that length; this database has 34,
/// and every one of its positions agrees with its successors, so the report's count of the
/// last iteration is taken to count something else.)
#[test]
fn english_king_against_king_equals_the_published_slice_report() {
    use kondavo::color::Color;
    let s = Slice::new(0, 1, 0, 1);
    let g = solved::<English>(&[s]);
    let t = g.table(s).expect("solved");
    let st = t.stats();
    assert_eq!((st.positions(), st.wins, st.draws, st.losses), (992, 230, 654, 108), "{st:?}");
    assert_eq!(st.longest_win, 11, "{st:?}");
    assert_eq!(count_of(t, Value::Win(1)), 72);
    let ix = kondavo::egdb::index::Indexer::new::<English>(s);
    let mut quiet = [0u64; 3];
    for i in 0..t.size() {
        let Some(pos) = ix.position::<English>(i) else { continue };
        if !pos.has_capture() && !pos.with_side(Color::Black).has_capture() {
            quiet[(1 - t.value(i).expect("a position").sign()) as usize] += 1;
        }
    }
    assert_eq!(quiet, [140, 650, 108]);
}

/// Published longest conversions (Ed Gilbert's Kingsrow international databases,
/// `eygilbert/egdb_intl`, file `egdb_test/10x10 HighMtc.txt`, the highest moves-to-conversion
/// of each subdivision with a position that has it): three kings against one, the kings to
/// move, 13 plies (`db0301 black, mtc 13`, `B:WK35:BK1,K7,K18`), the lone king to move 14
/// (`db0301 white, mtc 14`, `W:WK21:BK14,K27,K32`); four kings against one 13 and 14 (`db0401`,
/// `B:WK5:BK4,K15,K36,K47` and `W:WK1:BK4,K15,K36,K47`); two kings against two, no entry (all
/// under the file's threshold of 10). Kingsrow counts to the end of a capture exchange: the
/// longest wins here end with a king given up, taken by the lone king, and the lone king taken
/// back at once. This database's conversion is the first capture, the lone king's, one ply
/// earlier; so each of its figures is the published one less one ply, for the slices and for
/// the very positions.
#[test]
fn international_kings_only_longest_conversions_equal_the_published_ones() {
    let g = international_kings();
    let st = |s: Slice| g.table(s).expect("solved").stats();
    for (kings, win, loss) in [(3, 13, 14), (4, 13, 14)] {
        let (strong, weak) = (st(Slice::new(0, kings, 0, 1)), st(Slice::new(0, 1, 0, kings)));
        assert_eq!(strong.longest_win + 1, win, "{kings} kings: {strong:?}");
        assert_eq!(weak.longest_loss + 1, loss, "{kings} kings: {weak:?}");
    }
    for (fen, published) in [
        ("B:WK35:BK1,K7,K18", Value::Win(13)),
        ("W:WK21:BK14,K27,K32", Value::Loss(14)),
        ("B:WK5:BK4,K15,K36,K47", Value::Win(13)),
        ("W:WK1:BK4,K15,K36,K47", Value::Loss(14)),
    ] {
        let ours = match value(g, fen) {
            Value::Win(d) => Value::Win(d + 1),
            Value::Loss(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
        };
        assert_eq!(ours, published, "{fen}");
    }
    let two = st(Slice::new(0, 2, 0, 2));
    assert!(two.longest_win < 10 && two.longest_loss < 10, "{two:?}");
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kondavo-egdb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn kondavo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kondavo")).args(args).output().expect("kondavo runs")
}

#[test]
fn egdb_commands_build_resume_list_probe_and_verify() {
    let dir = temp_dir("cli");
    let d = dir.to_str().expect("a text path");
    let out = kondavo(&["egdb", "build", "-v", "english", "--pieces", "3", "--dir", d]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("16 slices (16 built), 199520 positions"), "{text}");
    // A rerun keeps what is on disk.
    let out = kondavo(&["egdb", "build", "-v", "english", "--pieces", "3", "--dir", d]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(0 built)") && text.contains("on disk"), "{text}");
    let out = kondavo(&["egdb", "info", "-v", "english", "--dir", d]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("complete up to 3 pieces; 199520 positions"), "{text}");
    let out = kondavo(&["egdb", "probe", "-v", "english", "--dir", d, "--fen", "W:WK1,K2:BK32"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.starts_with("W:WK1,K2:BK32: win in "), "{text}");
    assert!(text.contains("1-5") && text.contains("win, conversion in"), "{text}");
    let out = kondavo(&["egdb", "verify", "-v", "english", "--dir", d, "--sample", "500"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    // A position beyond the databases is a clear error.
    let out = kondavo(&["egdb", "probe", "-v", "english", "--dir", d, "--fen", "W:W22,23:B9,10"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not in"));
    // A damaged file: left out with a warning when probing, named by verify, rebuilt by build.
    let file = dir.join("english").join("0201.kdb");
    let mut bytes = std::fs::read(&file).expect("the file is there");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&file, &bytes).expect("writes");
    let out = kondavo(&["egdb", "probe", "-v", "english", "--dir", d, "--fen", "W:WK1,K2:BK32"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"), "{:?}", out);
    let out = kondavo(&["egdb", "verify", "-v", "english", "--dir", d]);
    assert!(!out.status.success());
    let out = kondavo(&["egdb", "build", "-v", "english", "--pieces", "3", "--dir", d]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("(2 built)"));
    let out = kondavo(&["egdb", "probe", "-v", "english", "--dir", d, "--fen", "W:WK1,K2:BK32"]);
    assert!(out.status.success());
    // Bad arguments are errors, not crashes.
    let out = kondavo(&["egdb", "probe", "-v", "english", "--dir", d, "--fen", "nonsense"]);
    assert!(!out.status.success());
    let out = kondavo(&["egdb", "build", "-v", "english", "--pieces", "1", "--dir", d]);
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn opening_reads_only_sound_files_and_knows_the_complete_piece_count() {
    let dir = temp_dir("open");
    let mut g = Generator::<Russian>::new(Some(dir.clone()));
    g.build(&Generator::<Russian>::slices_up_to(3), |_| {}).expect("builds");
    let opened = Egdb::open::<Russian>(&dir, 8);
    assert!(opened.problems.is_empty());
    assert_eq!(opened.egdb.pieces(), 3);
    let pos: Position<Russian> = notation::parse_position("W:WKa1,Kc1:BKh2").expect("valid");
    assert!(matches!(opened.egdb.probe(&pos), Some(Value::Draw)));
    std::fs::write(dir.join("russian").join("0102.kdb"), b"KDVOEGDB garbage").expect("writes");
    let opened = Egdb::open::<Russian>(&dir, 8);
    assert_eq!(opened.problems.len(), 1, "{:?}", opened.problems);
    assert_eq!(opened.egdb.pieces(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The big sets are not read into memory: with a small memory budget most files are probed
/// from disk, a block at a time, through a cache that stays within its budget, and every
/// value read so is the value of the file read whole.
#[test]
fn databases_probed_from_disk_through_a_small_cache_read_the_same_values_as_whole_files() {
    let dir = temp_dir("cache");
    let mut g = Generator::<Russian>::new(Some(dir.clone()));
    g.build(&Generator::<Russian>::slices_up_to(4), |_| {}).expect("builds");
    let whole = Egdb::open_with_cache::<Russian>(&dir, 8, 1 << 30);
    let small = Egdb::open_with_cache::<Russian>(&dir, 8, 64 << 10);
    assert!(whole.problems.is_empty() && small.problems.is_empty());
    assert_eq!(small.egdb.pieces(), 4);
    let slices = small.egdb.slices();
    assert_eq!(slices.len(), 41);
    let on_disk = slices.iter().filter(|&&s| small.egdb.table(s).is_some_and(|t| t.on_disk()));
    assert!(on_disk.count() >= 20, "most slices are probed from disk");
    assert!(slices.iter().all(|&s| whole.egdb.table(s).is_some_and(|t| !t.on_disk())));
    for &s in &slices {
        let (a, b) = (whole.egdb.table(s).expect("open"), small.egdb.table(s).expect("open"));
        assert_eq!(a.stats(), b.stats());
        for i in (0..a.size()).step_by(5).chain((0..a.size()).rev().step_by(11)) {
            assert_eq!(a.code(i), b.code(i), "slice {s} index {i}");
        }
        assert!(a.codes().eq(b.codes()), "slice {s}");
    }
    let cache = small.egdb.cache();
    assert!(cache.bytes() <= cache.budget() && cache.blocks() > 0, "{cache:?}");
    let pos: Position<Russian> = notation::parse_position("W:WKa1,Kc1,Ke1:BKh2").expect("valid");
    assert_eq!(small.egdb.probe(&pos), whole.egdb.probe(&pos));
    assert!(matches!(small.egdb.probe(&pos), Some(Value::Win(_))));
    let _ = std::fs::remove_dir_all(&dir);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A damaged table file is an error, never a panic, whether it is read whole or probed
    /// from disk; a sound one reads back every value.
    #[test]
    fn damaged_table_files_are_errors(flips in prop::collection::vec((0usize..40_000, 1u8..=255), 0..4), cut in 0usize..40_000) {
        let codes: Vec<u16> = (0..10_000u32).map(|i| ((i * 7919) % 13) as u16 * 2).collect();
        let s = Slice::new(0, 2, 0, 1);
        let good = Table::new(s, &codes).to_bytes("english");
        let mut bytes = good.clone();
        for (at, x) in flips {
            let n = bytes.len();
            bytes[at % n] ^= x;
        }
        bytes.truncate(cut.max(1).min(bytes.len()));
        let path = temp_dir("proptest").with_extension("kdb");
        std::fs::write(&path, &bytes).expect("writes");
        let cache = std::sync::Arc::new(kondavo::egdb::BlockCache::new(4096));
        let tables = [
            Table::from_bytes(&bytes, "english", s, 10_000),
            Table::open(&path, "english", s, 10_000, &cache),
        ];
        let _ = std::fs::remove_file(&path);
        for table in tables {
            match table {
                Ok(t) => {
                    let read: Vec<u16> = (0..10_000).map(|i| t.code(i)).collect();
                    if bytes == good {
                        prop_assert_eq!(&read, &codes);
                    }
                }
                Err(e) => {
                    prop_assert!(bytes != good, "a sound file is read: {}", e);
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }
}

/// Two engines that start at once on a fresh directory: one builds the small sets while the
/// other waits for it, and both then search with them.
#[test]
fn engines_starting_together_build_the_small_sets_once_and_both_use_them() {
    let dir = temp_dir("first-use");
    let run = || {
        let dir = dir.clone();
        std::thread::spawn(move || {
            let mut child = Command::new(env!("CARGO_BIN_EXE_kondavo"))
                .args(["analyze", "-v", "english", "--depth", "6"])
                .env("KONDAVO_EGDB", &dir)
                .env("RUST_LOG", "info")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("kondavo runs");
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"W:WK1,K2:BK32\n").unwrap();
            child.wait_with_output().expect("kondavo ends")
        })
    };
    let (a, b) = (run(), run());
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    assert!(a.status.success() && b.status.success());
    assert_eq!(a.stdout, b.stdout, "the same search with the same databases");
    let out = String::from_utf8_lossy(&a.stdout);
    let score: f64 = out
        .split_whitespace()
        .find_map(|w| w.strip_prefix("score="))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a score in {out}"));
    assert!((90.0..99.0).contains(&score), "a database win: {out}");
    // Built once: one of them built the 41 slices, the other found them (after waiting for
    // the lock, or at once).
    let said: Vec<String> =
        [&a, &b].iter().map(|o| String::from_utf8_lossy(&o.stderr).into_owned()).collect();
    assert_eq!(said.iter().filter(|e| e.contains(" 41 slices built")).count(), 1, "{said:?}");
    assert!(
        said.iter().any(|e| e.contains(" 0 slices built") || !e.contains("slices built")),
        "{said:?}"
    );
    // Every slice up to 4 pieces, no half-written file left.
    let names: Vec<String> = std::fs::read_dir(dir.join("english"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.iter().filter(|n| n.ends_with(".kdb")).count(), 41, "{names:?}");
    assert!(names.iter().all(|n| n.ends_with(".kdb") || n == ".build-lock"), "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small deterministic random stream.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Random quiet positions of `pieces` pieces that the side to move wins by the database
/// (men and kings on random squares, each side at least one piece), the longest conversions
/// first: `count` of them, from the `count * 10` wins found first.
fn won_positions<R: Rules>(db: &Egdb, pieces: u32, count: usize, seed: u64) -> Vec<Position<R>> {
    use kondavo::bitboard::Bitboard;
    use kondavo::color::Color;
    use kondavo::geometry::Geometry;
    let mut rng = Rng(seed);
    let mut wins = Vec::new();
    let mut tries = 0;
    while wins.len() < count * 10 && tries < 2_000_000 {
        tries += 1;
        let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
        let strong = 1 + rng.below(u64::from(pieces - 1)) as u32;
        for k in 0..pieces {
            let sq = <R::Geo as Geometry>::BITS
                [rng.below(<R::Geo as Geometry>::SQUARES as u64) as usize];
            let bit = 1u64 << sq;
            if (white | black) & bit != 0 {
                continue;
            }
            if k < strong {
                white |= bit
            } else {
                black |= bit
            }
            if rng.below(2) == 0 {
                kings |= bit;
            }
        }
        if (white | black).count_ones() != pieces {
            continue;
        }
        let Ok(pos) =
            Position::<R>::new(Bitboard(white), Bitboard(black), Bitboard(kings), Color::White)
        else {
            continue;
        };
        if pos.has_capture() || pos.legal_moves().is_empty() {
            continue;
        }
        if let Some(Value::Win(d)) = db.probe(&pos) {
            wins.push((d, pos));
        }
    }
    wins.sort_by_key(|&(d, pos)| (std::cmp::Reverse(d), pos.key()));
    wins.dedup_by_key(|(_, pos)| pos.key());
    wins.into_iter().take(count).map(|(_, p)| p).collect()
}

/// The defender's move by the database: the one that keeps a draw if any (there should be
/// none), else the one that puts the conversion furthest off (a move that converts itself
/// counts as converting now).
fn best_defence<R: Rules>(db: &Egdb, pos: &Position<R>) -> kondavo::moves::Move {
    let pieces = pos.occupied().count();
    let kings = pos.all_kings().count();
    let score = |mv: kondavo::moves::Move| -> i64 {
        let next = pos.after(mv);
        let converts = next.occupied().count() < pieces || next.all_kings().count() > kings;
        match db.probe(&next).expect("a database position") {
            Value::Loss(_) => i64::MAX,
            Value::Draw => i64::MAX - 1,
            Value::Win(_) if converts => 0,
            Value::Win(d) => 1 + i64::from(d),
        }
    };
    let moves = pos.legal_moves();
    *moves.iter().max_by_key(|&&m| score(m)).expect("the defender has a move")
}

/// Plays `count` won positions of the piece limit out: kondavo (with the databases, a fixed
/// node budget per move) against the database's best defence. Every one whose conversion the
/// database puts inside the rule set's move counter must end in a win before a draw rule ends
/// the game.
fn conversions<R: kondavo::eval::Eval>(dir: &std::path::Path, pieces: u32, count: usize) {
    use kondavo::engine::{Engine, GameSpec, Options};
    use kondavo::game::{DrawRules, Game, Outcome};
    use kondavo::search::{Control, Limits, Mode};
    let variant = R::variant();
    kondavo::egdb::ensure::<R>(dir, pieces).expect("builds");
    let db = Egdb::open::<R>(dir, pieces).egdb;
    assert_eq!(db.pieces(), pieces);
    let engine = Engine::new(Options {
        variant,
        egdb_dir: Some(dir.display().to_string()),
        egdb_pieces: pieces,
        ..Options::default()
    });
    let rules = DrawRules::of(variant, false);
    let positions = won_positions::<R>(&db, pieces, count, 7 + pieces as u64);
    assert_eq!(positions.len(), count, "{variant}: not enough won positions found");
    let (mut played, mut plies, mut longest) = (0, 0, 0);
    for start in positions {
        let Some(Value::Win(d)) = db.probe(&start) else { unreachable!() };
        let mut game = Game::new(start, rules);
        if u32::from(d) >= game.counters().plies_left(&start, &rules) {
            continue; // the counter ends the game before the conversion
        }
        played += 1;
        let fen = notation::to_fen(&start);
        engine.new_game();
        let mut hub_moves = Vec::new();
        let outcome = loop {
            if let Some(o) = game.outcome() {
                break o;
            }
            assert!(game.moves().len() < 400, "{variant} {fen}: no end after 400 plies");
            let pos = *game.position();
            let mv = if pos.side() == start.side() {
                let spec = GameSpec { start: fen.clone(), moves: hub_moves.clone() };
                let limits = Limits { nodes: Some(20_000), ..Limits::default() };
                let done = engine
                    .search(&spec, &limits, Mode::Think, &Control::new(), &mut |_| {})
                    .expect("searches");
                let best = done.best.expect("a move");
                notation::parse_hub_move(&pos, &best.hub).expect("a legal move")
            } else {
                best_defence(&db, &pos)
            };
            hub_moves.push(notation::move_to_hub::<R>(mv));
            game.play(mv).expect("legal");
        };
        plies += game.moves().len();
        longest = longest.max(d);
        assert_eq!(
            outcome,
            Outcome::Win(start.side()),
            "{variant} {fen} (win, conversion in {d} plies): {outcome} after {}",
            hub_moves.join(" ")
        );
    }
    eprintln!(
        "{variant}: {played} of {count} won positions converted in {plies} plies (longest \
         conversion {longest} plies)"
    );
    assert!(
        played * 2 >= count,
        "{variant}: only {played} of {count} positions convertible in time"
    );
}

/// Issue 11's conversion check at the piece limit the tests build (4 pieces on the 8x8
/// diagonal board, 3 on the 10x10 and turkish boards): 20 won positions per rule set, the
/// longest conversions among random wins, converted against the best defence.
#[test]
fn won_database_positions_are_converted_against_the_best_defence_in_every_rule_set() {
    let dir = temp_dir("conversions");
    // Breakthrough and antidraughts have no databases (they are solved for the standard
    // goal), nor frisian and frysk! (the builder knows no orthogonal captures).
    for base in kondavo::variant::Base::ALL
        .into_iter()
        .filter(|&b| with_rules!(Variant::new(b), R => kondavo::egdb::supported::<R>()))
    {
        let pieces = kondavo::egdb::small_pieces(base);
        with_rules!(Variant::new(base), R => conversions::<R>(&dir, pieces, 20));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same check at the piece limit of a set built beforehand with `kondavo egdb build`
/// (too big for CI, so ignored by default):
///
/// ```sh
/// KONDAVO_EGDB_BIG=DIR KONDAVO_EGDB_BIG_VARIANT=english KONDAVO_EGDB_BIG_PIECES=6 \
///     cargo test --release --test egdb -- --ignored big_set
/// ```
#[test]
#[ignore = "needs a set built beforehand: KONDAVO_EGDB_BIG, _VARIANT, _PIECES"]
fn won_positions_of_a_big_set_are_converted_against_the_best_defence() {
    let dir = PathBuf::from(std::env::var("KONDAVO_EGDB_BIG").expect("KONDAVO_EGDB_BIG=DIR"));
    let variant: Variant = std::env::var("KONDAVO_EGDB_BIG_VARIANT")
        .expect("KONDAVO_EGDB_BIG_VARIANT=RULE SET")
        .parse()
        .expect("a rule set");
    let pieces: u32 = std::env::var("KONDAVO_EGDB_BIG_PIECES")
        .expect("KONDAVO_EGDB_BIG_PIECES=N")
        .parse()
        .expect("a number of pieces");
    let present = with_rules!(variant, R => Egdb::open::<R>(&dir, pieces).egdb.pieces());
    assert_eq!(present, pieces, "{variant}: build {pieces} pieces in {} first", dir.display());
    with_rules!(variant, R => conversions::<R>(&dir, pieces, 20));
}
