//! The command line: `kondavo perft`, `show`, `analyze`, `calibrate`, `book` and `weights`,
//! their output and their errors.

use std::process::{Command, Output};

fn kondavo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kondavo")).args(args).output().expect("kondavo runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The `nodes=` value of the final `perft` line, which must have every field.
fn perft_nodes(out: &str) -> u64 {
    let last = out.lines().last().expect("a last line");
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(fields[0], "perft", "{last}");
    assert!(fields[1].starts_with("depth="), "{last}");
    assert!(fields[3].starts_with("time="), "{last}");
    assert!(fields[4].starts_with("nps="), "{last}");
    fields[2].strip_prefix("nodes=").expect("nodes field").parse().expect("a number")
}

#[test]
fn perft_prints_one_summary_line() {
    let o = kondavo(&["perft", "--variant", "russian", "--depth", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1);
    assert_eq!(perft_nodes(&stdout(&o)), 7482);
}

#[test]
fn perft_divide_prints_each_root_move_in_native_notation() {
    let o = kondavo(&["perft", "-v", "turkish", "-d", "3", "--divide"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9);
    let sum: u64 = lines[..8]
        .iter()
        .map(|l| {
            let (mv, n) = l.split_once(' ').expect("move count");
            assert!(mv.len() == 5 && mv.as_bytes()[2] == b'-', "{l}");
            n.parse::<u64>().expect("count")
        })
        .sum();
    assert_eq!(sum, 708);
    assert_eq!(perft_nodes(&out), 708);
    assert!(out.contains("d3-d4 "), "{out}");
}

#[test]
fn perft_with_threads_and_a_fen_counts_the_same() {
    let fen = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38";
    let o = kondavo(&["perft", "--fen", fen, "--depth", "6", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(perft_nodes(&stdout(&o)), 590);
    let o = kondavo(&["perft", "--fen", fen, "--depth", "2", "--duplicates", "keep"]);
    assert_eq!(perft_nodes(&stdout(&o)), 13);
}

#[test]
fn perft_bad_arguments_exit_2_with_a_message() {
    let cases: [(&[&str], &str); 5] = [
        (&["perft", "--variant", "frisia", "--depth", "3"], "frisia"),
        (&["perft", "--variant", "russian"], "--depth"),
        (&["perft", "--depth", "3", "--fen", "W:W51:B1"], "51"),
        (&["perft", "--depth", "x"], "x"),
        (&["perft", "--depth", "2", "--threads", "0"], "0"),
    ];
    for (args, needle) in cases {
        let o = kondavo(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn show_prints_diagram_fen_and_legal_moves() {
    let o = kondavo(&["show", "--variant", "english"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("side to move: black"), "{out}");
    assert!(out.contains("fen: B:W21-32:B1-12"), "{out}");
    assert!(out.contains("legal moves (7): "), "{out}");
    assert!(out.contains("11-15"), "{out}");
    // `d` is an alias; moves can be played first.
    let o = kondavo(&["d", "-v", "russian", "--moves", "c3-d4 f6-e5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("legal moves (1): d4:f6"), "{}", stdout(&o));
    let o = kondavo(&["d", "-v", "russian", "--moves", "c3-e5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("illegal move"), "{}", stderr(&o));
}

fn kondavo_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kondavo"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("kondavo runs");
    // An engine that exits before reading (bad options) breaks the pipe: its status and output
    // are what the tests check.
    if let Err(e) = child.stdin.take().expect("stdin").write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "input written: {e}");
    }
    child.wait_with_output().unwrap()
}

#[test]
fn analyze_writes_one_line_per_position() {
    let o = kondavo_stdin(&["analyze", "--depth", "6"], "start\n\n# a comment\nW:W32:B28\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("best=") && lines[0].contains(" pv=\""), "{out}");
    assert!(lines[1].starts_with("best=32x23 score=99.99 wdl=1000,0,0 "), "{out}");
    let wdl = lines[0].split(" wdl=").nth(1).and_then(|w| w.split(' ').next()).expect("wdl");
    let chances: Vec<u32> = wdl.split(',').map(|x| x.parse().expect("per mille")).collect();
    assert_eq!(chances.len(), 3, "{out}");
    assert_eq!(chances.iter().sum::<u32>(), 1000, "{out}");
    // The start is balanced: win and loss chances are equal within the score's rounding.
    assert!(chances[0].abs_diff(chances[2]) < 100, "{out}");
}

/// `--elo` picks a level on the rule set's ladder: a negative rating is a rating (antidraughts'
/// lowest levels rate below zero), one outside the ladder is clamped with a warning, and a rating
/// is not accepted together with `--level`.
#[test]
fn analyze_elo_takes_negative_ratings_and_clamps_outside_the_ladder() {
    let o = kondavo_stdin(
        &["analyze", "-v", "antidraughts", "--elo", "-140", "--nodes", "100"],
        "start\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("best="), "{}", stdout(&o));
    assert!(!stderr(&o).contains("outside"), "-140 is on the ladder: {}", stderr(&o));
    let o = kondavo_stdin(
        &["analyze", "-v", "antidraughts", "--elo=-5000", "--nodes", "100"],
        "start\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("best="), "{}", stdout(&o));
    assert!(stderr(&o).contains("outside"), "clamped: {}", stderr(&o));
    let o = kondavo_stdin(&["analyze", "--elo", "1500", "--level", "3"], "start\n");
    assert_eq!(o.status.code(), Some(2), "--elo with --level: {}", stderr(&o));
}

/// A node limit can stop an iteration between its lines; the lines shown must still be one
/// iteration's set: different moves, one depth, the best line first.
#[test]
fn multipv_lines_come_from_one_iteration_when_a_node_limit_stops_between_them() {
    for variant in ["russian", "english", "international"] {
        for nodes in (2_000..40_000).step_by(3_100) {
            let n = nodes.to_string();
            let o = kondavo_stdin(
                &["analyze", "-v", variant, "--nodes", &n, "--multipv", "3", "--json"],
                "start\n",
            );
            assert!(o.status.success(), "{}", stderr(&o));
            let a: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("JSON");
            let pvs = a["lines"].as_array().expect("lines");
            assert_eq!(pvs.len(), 3, "{variant} {nodes}: {a}");
            let moves: Vec<&str> = pvs.iter().map(|l| l["move"].as_str().unwrap()).collect();
            assert!(
                moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2],
                "{variant} {nodes}: {moves:?}"
            );
            assert_eq!(pvs[0]["move"], a["move"], "{variant} {nodes}");
            let ranks: Vec<u64> = pvs.iter().map(|l| l["multipv"].as_u64().unwrap()).collect();
            assert_eq!(ranks, [1, 2, 3], "{variant} {nodes}");
            let depths: Vec<u64> = pvs.iter().map(|l| l["depth"].as_u64().unwrap()).collect();
            assert!(depths.iter().all(|&d| d == depths[0]), "{variant} {nodes}: {depths:?}");
            let scores: Vec<f64> = pvs.iter().map(|l| l["score"].as_f64().unwrap()).collect();
            assert!(
                scores[0] >= scores[1] && scores[1] >= scores[2],
                "{variant} {nodes}: {scores:?}"
            );
        }
    }
}

#[test]
fn analyze_json_multipv_and_errors() {
    let o = kondavo_stdin(
        &["analyze", "-v", "russian", "--nodes", "20000", "--multipv", "3", "--json"],
        "start\nnonsense\n",
    );
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let lines: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(lines.len(), 2);
    let first = &lines[0];
    assert_eq!(first["position"], "start");
    let pvs = first["lines"].as_array().expect("lines");
    assert_eq!(pvs.len(), 3);
    assert_eq!(pvs[0]["move"], first["move"]);
    for wdl in std::iter::once(&first["wdl"]).chain(pvs.iter().map(|l| &l["wdl"])) {
        let w: Vec<u64> =
            wdl.as_array().expect("wdl").iter().map(|x| x.as_u64().unwrap()).collect();
        assert_eq!((w.len(), w.iter().sum::<u64>()), (3, 1000), "{first}");
    }
    let moves: Vec<&str> = pvs.iter().map(|l| l["move"].as_str().unwrap()).collect();
    assert!(moves[0] != moves[1] && moves[1] != moves[2], "{moves:?}");
    assert!(lines[1]["error"].as_str().unwrap().contains("nonsense"));
    // Input from a file.
    let dir = std::env::temp_dir().join(format!("kondavo-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("positions.txt");
    std::fs::write(&file, "start\nW:WK46:B28\n").unwrap();
    let o = kondavo(&["analyze", "--depth", "3", "--input", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2);
    let o = kondavo(&["analyze", "--input", "/nonexistent/file"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}

/// `kondavo calibrate` plays every neighbouring pair of levels (more games for the fast low
/// pairs), fits the ladder with full strength at the anchor, and a rerun plays nothing more (it
/// resumes from its PDN file).
#[test]
fn calibrate_plays_the_ladder_fits_it_and_resumes() {
    let dir = std::env::temp_dir().join(format!("kondavo-calibrate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn = dir.join("ladder.pdn");
    let args = [
        "calibrate",
        "-v",
        "english",
        "--games",
        "2",
        "--low-games",
        "4",
        "--full-games",
        "2",
        "--full-from",
        "18",
        "--tc",
        "nodes=300",
        "--anchor",
        "1800",
        "--pdn",
        pdn.to_str().unwrap(),
    ];
    let o = kondavo(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // 19 neighbouring pairs, 4 games each up to 14-15 and 2 above, and level 18 against full
    // strength, 2 games: 14 * 4 + 5 * 2 + 2.
    assert!(out.starts_with("ladder english: 68 games at nodes=300"), "{out}");
    let rows: Vec<&str> = out.lines().skip(2).filter(|l| !l.starts_with("elo:")).collect();
    assert_eq!(rows.len(), 20, "{out}");
    assert!(rows[19].split_whitespace().take(2).eq(["20", "1800"]), "{out}");
    // The figures for level.rs rise with the level (a fit this small has levels out of order,
    // which are pooled) and end at the anchor.
    let line = out.lines().find(|l| l.starts_with("elo: [")).expect("an elo: line");
    let inner = line["elo: [".len()..].split(']').next().unwrap_or_default();
    let elo: Vec<i32> = inner.split(", ").map(|x| x.parse().unwrap()).collect();
    assert_eq!(elo.len(), 20, "{line}");
    assert!(elo.windows(2).all(|w| w[0] <= w[1]) && elo[19] == 1800, "{line}");
    let before = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(before.matches("[Event ").count(), 68);
    let again = kondavo(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), before, "a rerun plays nothing");
    assert_eq!(stdout(&again), out);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kondavo calibrate --no-full` plays only levels 1-19 against each other (no game at full
/// strength), rated relative to level 19; `--like` compares every pair with another ladder's,
/// and bad `--like` values are errors.
#[test]
fn calibrate_without_full_strength_and_like_another_ladder() {
    let dir = std::env::temp_dir().join(format!("kondavo-calibrate-like-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn = dir.join("ladder.pdn");
    let pdn = pdn.to_str().unwrap();
    let args = ["calibrate", "-v", "english", "--games", "2", "--tc", "nodes=300", "--no-full"];
    let o = kondavo(&[&args[..], &["--pdn", pdn]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // 18 neighbouring pairs of 2 games, and none with level 20.
    assert!(
        out.starts_with(
            "ladder english: 36 games at nodes=300, no games at full strength: level 19 = 0"
        ),
        "{out}"
    );
    let text = std::fs::read_to_string(pdn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 36);
    assert!(!text.contains("level-20"), "no game at full strength");
    let rows: Vec<&str> = out.lines().skip(2).collect();
    assert_eq!(rows.len(), 19, "{out}");
    assert!(rows[18].split_whitespace().take(2).eq(["19", "0"]), "{out}");
    // Like itself: every pair scores the same, chi-square 0, p 1.
    let like = format!("english:{pdn}");
    let o = kondavo(&[&args[..], &["--pdn", pdn, "--like", &like]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let at = out.find("like english:").unwrap_or_else(|| panic!("{out}"));
    let table: Vec<&str> = out[at..].lines().skip(2).collect();
    assert_eq!(table.len(), 19, "18 pairs and the verdict: {out}");
    for row in &table[..18] {
        assert_eq!(row.split_whitespace().nth(5), Some("+0.00"), "{out}");
    }
    assert_eq!(table[18], "chi-square 0.0 over 18 pairs: p = 1.000", "{out}");
    // Playing into another rule set's ladder file is refused (fitting it is not).
    let o =
        kondavo(&["calibrate", "-v", "russian", "--games", "2", "--tc", "nodes=300", "--pdn", pdn]);
    assert!(!o.status.success(), "played a russian ladder into an english file");
    assert!(stderr(&o).contains("holds a english ladder"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(pdn).unwrap(), text, "the file is untouched");
    // Errors: no file part, an unknown rule set, a file without that rule set's ladder.
    for (bad, says) in [
        ("russian".to_string(), "VARIANT:FILE"),
        (format!("nosuch:{pdn}"), "nosuch"),
        (format!("russian:{pdn}"), "no finished russian ladder games"),
    ] {
        let o = kondavo(&[&args[..], &["--pdn", pdn, "--like", &bad]].concat());
        assert!(!o.status.success(), "--like {bad}");
        assert!(stderr(&o).contains(says), "--like {bad}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_build_info_and_probe() {
    let dir = std::env::temp_dir().join(format!("kondavo-cli-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("english.kdb");
    let f = file.to_str().unwrap();
    let build = ["book", "build", "-v", "english", "-o", f, "--expansions", "20", "--nodes", "500"];
    let o = kondavo(&build);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("expanded"), "{}", stdout(&o));
    let o = kondavo(&["book", "info", "-v", "english", "--book", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("positions: ") && out.contains("main line ("), "{out}");
    // The start's moves: all seven english first moves, best first, the best marked.
    let o = kondavo(&["book", "probe", "-v", "english", "--book", f, "--margin", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let moves: Vec<&str> =
        out.lines().filter(|l| l.starts_with("* ") || l.starts_with("  ")).collect();
    let moves = &moves[..moves.len() - 1]; // the last line is the legend
    assert_eq!(moves.len(), 7, "{out}");
    assert!(moves[0].starts_with('*'), "{out}");
    // Moves given: after 11-15 the book has white's replies; deep positions are not in it.
    let o = kondavo(&["book", "probe", "-v", "english", "--book", f, "--moves", "11-15"]);
    assert!(stdout(&o).lines().any(|l| l.starts_with('*')), "{}", stdout(&o));
    let o = kondavo(&["book", "probe", "-v", "english", "--book", f, "--fen", "W:W18,K30:B5,K12"]);
    assert!(o.status.success() && stdout(&o).contains("not in the book"), "{}", stdout(&o));
    // A book of another rule set, a damaged file: an error and a non-zero exit.
    let o = kondavo(&["book", "info", "-v", "russian", "--book", f]);
    assert!(
        !o.status.success() && stderr(&o).contains("for english, not russian"),
        "{}",
        stderr(&o)
    );
    let mut bytes = std::fs::read(&file).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    let o = kondavo(&["book", "info", "-v", "english", "--book", f]);
    assert!(!o.status.success() && stderr(&o).contains("checksum"), "{}", stderr(&o));
    let o = kondavo(&["book", "build", "-v", "english", "-o", f, "--expansions", "0"]);
    assert!(!o.status.success(), "zero expansions refused");
    let _ = std::fs::remove_dir_all(&dir);
}

/// DXP has no rule-set field and no DXP program plays frisian: `kondavo dxp` refuses frisian
/// and frysk! before it listens or connects.
#[test]
fn dxp_refuses_frisian_and_frysk() {
    for variant in ["frisian", "frysk"] {
        let o = kondavo(&["dxp", "--variant", variant, "--listen", "127.0.0.1:0"]);
        assert!(!o.status.success(), "{variant}");
        assert!(stderr(&o).contains(&format!("DXP has no {variant}")), "{}", stderr(&o));
        assert!(!stdout(&o).contains("listening"), "{}", stdout(&o));
    }
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    // `kondavo … | head -1`: the reader goes away; the program ends at once with success and
    // without a panic, whether it printed with one call or line by line.
    for args in [
        &["book", "info", "--variant", "english"][..],
        &["perft", "--variant", "english", "--depth", "6", "--divide"][..],
        &["show", "--variant", "international"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kondavo"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("kondavo runs");
        drop(child.stdout.take());
        let o = child.wait_with_output().expect("kondavo ends");
        assert!(o.status.success(), "{args:?}: {:?} {}", o.status, stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn weights_info_describes_and_scale_writes_a_file_that_info_and_the_engine_read() {
    let o = kondavo(&["weights", "info", "-v", "russian"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let info = stdout(&o);
    assert!(info.starts_with("rule set: russian\n"), "{info}");
    let men = |text: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with("men: ")).expect("a men line");
        line["men: ".len()..].split(' ').next().expect("a value").parse().expect("a number")
    };
    assert!(men(&info) > 0.0, "{info}");

    let dir = std::env::temp_dir().join(format!("kondavo-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let out = dir.join("russian-x2.kdw");
    let out_s = out.to_str().expect("a UTF-8 path");
    let o = kondavo(&["weights", "scale", "-v", "russian", "--by", "2", "-o", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("weights scaled variant=russian by=2 clamped=0 out="));
    let o = kondavo(&["weights", "info", "-v", "russian", "--file", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let scaled = stdout(&o);
    assert!((men(&scaled) - 2.0 * men(&info)).abs() < 0.3, "{info}\n{scaled}");
    assert!(scaled.contains("weights scaled by 2"), "{scaled}");
    // The engine plays with it.
    let o = kondavo(&["bench", "-v", "russian", "-d", "4", "--eval", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));

    // Errors: another rule set's file, a bad factor, an unreadable file.
    for args in [
        vec!["weights", "info", "-v", "english", "--file", out_s],
        vec!["weights", "scale", "-v", "russian", "--by", "0", "-o", out_s],
        vec!["weights", "scale", "-v", "russian", "--by", "nan", "-o", out_s],
        vec!["weights", "info", "-v", "russian", "--file", "/nonexistent/x.kdw"],
    ] {
        let o = kondavo(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("kondavo: "), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
