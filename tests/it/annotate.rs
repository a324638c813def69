//! `kondavo annotate`: judged moves, better lines, summaries, bad input, parallel jobs.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn annotate(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kondavo"))
        .arg("annotate")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kondavo runs");
    // With bad options the engine exits before it reads: a broken pipe here is expected, and
    // the exit status and output are what the tests check.
    let written = child.stdin.take().expect("stdin").write_all(input.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "input written: {e}");
    }
    child.wait_with_output().expect("kondavo ends")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// An international game in which White's ninth move, 27-22, allows the shot 21-27 32x21
/// 16x18 and loses a man (a depth-10 search scores the position -0.13 before the move and
/// -1.74 after it; the quiet 40-34 keeps -0.17).
const BLUNDER: &str = "[Event \"planted blunder\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\
[GameType \"20\"]\n\n1. 32-27 17-21 2. 37-32 20-24 3. 33-29 24x33 4. 39x28 21-26 5. 34-30 26x37 \
6. 42x31 15-20 7. 41-37 18-22 8. 28x17 12x21 9. 27-22 21-27 10. 32x21 16x18 *\n";

/// An english game between two equal kondavo searches (30,000 nodes a move) drawn by
/// repetition: kings shuffle for the last twenty moves.
const DRAWN: &str = "[Event \"kondavo match\"]\n[White \"kondavo-1\"]\n[Black \"kondavo-2\"]\n\
[Result \"1/2-1/2\"]\n[GameType \"21,B,8,8,N1,0\"]\n[FEN \"W:W17,22-32:B1-9,12,15,16\"]\n\n\
1... 17-13 2. 8-11 25-21 3. 16-19 23x16 4. 11x20 24-19 5. 15x24 28x19 6. 9-14 \
26-23 7. 4-8 22-18 8. 8-11 18x9 9. 5x14 29-25 10. 11-15 19x10 11. 6x15 25-22 \
12. 1-6 31-26 13. 15-19 23x16 14. 12x19 32-28 15. 7-11 27-23 16. 11-16 22-17 \
17. 6-10 13-9 18. 2-7 30-25 19. 10-15 17x10 20. 7x14 25-22 21. 20-24 9-6 22. \
24-27 22-17 23. 14-18 23x14 24. 15-18 6-2 25. 18-22 14-9 26. 22x31 9-5 27. \
27-32 5-1 28. 32-27 17-14 29. 19-23 1-6 30. 23-26 14-10 31. 16-19 21-17 32. \
27-24 17-13 33. 26-30 13-9 34. 30-26 9-5 35. 26-23 6-9 36. 23-18 10-6 37. 24-27 \
6-1 38. 19-23 1-6 39. 18-15 9-14 40. 23-26 14-10 41. 27-23 10x19 42. 23x16 \
28-24 43. 31-27 24-20 44. 16-11 6-10 45. 26-31 5-1 46. 27-23 1-6 47. 3-8 6-9 \
48. 8-12 9-6 49. 23-19 10-14 50. 11-15 6-10 51. 15x6 2x9 52. 19-15 9-6 53. \
31-27 6-2 54. 27-23 2-6 55. 23-27 6-2 56. 27-23 2-6 57. 23-27 1/2-1/2\n";

/// The JSON summary lines of a run.
fn summaries(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("the summary file")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("annotate");
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn a_move_that_loses_a_man_gets_double_question_mark_and_the_better_line() {
    let json = tmp("blunder.jsonl");
    let o = annotate(&["--depth", "10", "--json", json.to_str().unwrap()], BLUNDER);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("9. 27-22??"), "{out}");
    // The better line replaces the move: it starts with White's ninth move, not 27-22.
    let after = &out[out.find("9. 27-22??").unwrap()..];
    let var = &after[after.find('(').expect("a variation") + 1..];
    assert!(var.starts_with("9. "), "{after}");
    let first = var[3..].split_whitespace().next().unwrap();
    assert_ne!(first, "27-22", "{after}");
    assert!(out.contains("[Annotator \"kondavo"), "{out}");
    let s = &summaries(&json)[0];
    assert_eq!(s["white_side"]["blunders"], 1, "{s}");
    let note =
        s["moves"].as_array().unwrap().iter().find(|m| m["ply"] == 16).expect("ply 16 judged");
    assert_eq!(note["move"], "27-22");
    assert_eq!(note["judgement"], "blunder");
    assert!(note["score_after"].as_f64().unwrap() < -1.0, "{note}");
    assert_eq!(note["best"].as_str(), Some(first));
    // The summary line on standard error.
    assert!(
        text(&o.stderr).contains("game 1 (A - B, *): white 0 ?!, 0 ?, 1 ??"),
        "{}",
        text(&o.stderr)
    );
}

/// The main-line moves of annotated PDN text with their marks (`?!`, `?`, `??`, `!`…):
/// comments, variations, move numbers and the result left out.
fn marked_moves(out: &str) -> Vec<(String, String)> {
    let body = &out[out.find("\n\n").expect("the move text")..];
    let mut plain = String::new();
    let (mut comment, mut variation) = (false, 0);
    for c in body.chars() {
        match c {
            '{' => comment = true,
            '}' => comment = false,
            '(' if !comment => variation += 1,
            ')' if !comment => variation -= 1,
            _ if !comment && variation == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && !t.contains('/') && *t != "*" && !t.contains("-0"))
        .map(|t| {
            let end = t.find(['?', '!']).unwrap_or(t.len());
            (t[..end].to_string(), t[end..].to_string())
        })
        .collect()
}

/// A drawn game between two equal engines: the marks in the text are exactly the JSON
/// judgements, move by move; the per-side counts add up; nothing from move 42 on (a dead draw
/// of shuffling kings) is marked; every move has its score comment.
#[test]
fn a_drawn_game_marks_agree_with_the_judgements_and_leave_the_dead_draw_unmarked() {
    let json = tmp("drawn.jsonl");
    let o = annotate(&["--depth", "10", "--json", json.to_str().unwrap()], DRAWN);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.ends_with("1/2-1/2\n\n"), "{out}");
    let s = &summaries(&json)[0];
    let judged = s["moves"].as_array().expect("moves");
    assert_eq!(s["plies"], 112);
    assert_eq!(judged.len(), 112, "{s}");
    let marked = marked_moves(&out);
    assert_eq!(marked.len(), 112, "{marked:?}");
    let mut counts = std::collections::BTreeMap::new();
    for (m, (mv, mark)) in judged.iter().zip(&marked) {
        assert_eq!(m["move"].as_str(), Some(mv.as_str()), "{m}");
        let judgement = m["judgement"].as_str().unwrap_or("none");
        let expected = match judgement {
            "none" => "",
            "inaccuracy" => "?!",
            "mistake" => "?",
            "blunder" => "??",
            other => panic!("unknown judgement {other}"),
        };
        assert_eq!(mark, expected, "{m}");
        *counts.entry((m["side"].as_str().unwrap().to_string(), judgement)).or_insert(0u64) += 1;
    }
    for (side, key) in [("white", "white_side"), ("black", "black_side")] {
        let n = |j: &str| counts.get(&(side.to_string(), j)).copied().unwrap_or(0);
        assert_eq!(s[key]["inaccuracies"].as_u64(), Some(n("inaccuracy")), "{s}");
        assert_eq!(s[key]["mistakes"].as_u64(), Some(n("mistake")), "{s}");
        assert_eq!(s[key]["blunders"].as_u64(), Some(n("blunder")), "{s}");
        assert_eq!(s[key]["moves"], 56, "{s}");
        // Two equal engines: neither side loses much on average.
        assert!(s[key]["average_loss"].as_f64().unwrap() < 0.05, "{s}");
    }
    // From move 42 the game is a dead draw: nothing there is marked.
    let from =
        judged.iter().position(|m| m["number"] == 42 && m["move"] == "23x16").expect("42. 23x16");
    assert!(judged[from..].iter().all(|m| m["judgement"].is_null()), "{s}");
    assert!(marked[from..].iter().all(|(_, mark)| mark.is_empty()), "{marked:?}");
    // Every move has its score comment (the game is over by repetition at the end: no search
    // there, but the moves before it are judged).
    assert!(out.matches('{').count() >= 111, "{out}");
}

#[test]
fn bad_games_are_reported_by_number_and_move_and_the_others_are_annotated() {
    let good = "[Event \"good\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n";
    let illegal = "[Event \"illegal\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-22 *\n\n";
    let unknown = "[Event \"unknown\"]\n[GameType \"99\"]\n\n1. 32-28 19-23 *\n\n";
    let bad_tag = "[Event \"bad tag\"]\n[Oops]\n\n1. 32-28 19-23 *\n\n";
    let truncated = "[Event \"truncated\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x1";
    let input = format!("{good}{illegal}{unknown}{bad_tag}{good}{truncated}");
    let o = annotate(&["--depth", "4"], &input);
    assert!(!o.status.success(), "bad games must fail the run");
    let err = text(&o.stderr);
    assert!(err.contains("game 2") && err.contains("move 2. 28-22"), "{err}");
    assert!(err.contains("game 3") && err.contains("unknown GameType \"99\""), "{err}");
    assert!(err.contains("game 4") && err.contains("bad PDN tag line"), "{err}");
    assert!(err.contains("game 6") && err.contains("move 2. 28x1"), "{err}");
    assert!(err.contains("4 of 6 game(s) could not be annotated"), "{err}");
    let out = text(&o.stdout);
    assert_eq!(out.matches("[Annotator ").count(), 2, "{out}");
    assert_eq!(out.matches("[Event \"good\"]").count(), 2, "{out}");
}

#[test]
fn jobs_keep_the_input_order_and_the_results() {
    let input = format!("{BLUNDER}\n{DRAWN}\n{BLUNDER}");
    let one = annotate(&["--depth", "6", "--jobs", "1"], &input);
    let two = annotate(&["--depth", "6", "--jobs", "2"], &input);
    assert!(one.status.success() && two.status.success(), "{}", text(&two.stderr));
    assert_eq!(text(&one.stdout), text(&two.stdout));
    let out = text(&one.stdout);
    let order: Vec<usize> = ["planted blunder", "kondavo match", "planted blunder"]
        .iter()
        .scan(0, |at, tag| {
            let p = out[*at..].find(tag).map(|p| p + *at).expect("every game, in order");
            *at = p + 1;
            Some(p)
        })
        .collect();
    assert_eq!(order.len(), 3);
}

#[test]
fn side_range_and_skip_options_limit_the_judged_moves() {
    let json = tmp("options.jsonl");
    let o = annotate(
        &[
            "--depth",
            "4",
            "--side",
            "black",
            "--from-move",
            "3",
            "--to-move",
            "6",
            "--json",
            json.to_str().unwrap(),
        ],
        BLUNDER,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = &summaries(&json)[0];
    let plies: Vec<u64> =
        s["moves"].as_array().unwrap().iter().map(|m| m["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, vec![5, 7, 9, 11]);
    let o = annotate(
        &["--depth", "4", "--skip-plies", "18", "--json", json.to_str().unwrap()],
        BLUNDER,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = &summaries(&json)[0];
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    let o = annotate(&["--depth", "4", "--side", "green"], BLUNDER);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("--side takes white or black"));
    let o = annotate(&["--depth", "4", "--thresholds", "0.2,0.1,0.3"], BLUNDER);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("--thresholds"));
}

#[test]
fn wdl_comments_add_up_to_a_thousand() {
    let o = annotate(&["--depth", "6", "--wdl"], BLUNDER);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let mut seen = 0;
    for part in out.split("wdl=").skip(1) {
        let triple: Vec<u32> = part
            .split(['}', ' '])
            .next()
            .unwrap()
            .split(',')
            .map(|x| x.parse().expect("a number"))
            .collect();
        assert_eq!(triple.len(), 3);
        assert_eq!(triple.iter().sum::<u32>(), 1000, "{part}");
        seen += 1;
    }
    assert!(seen >= 20, "{out}");
}

#[test]
fn an_eval_file_serves_every_game_of_its_rule_set_even_after_a_game_of_another() {
    use kondavo::eval::{Model, layout, model};
    use kondavo::variant::Base;
    let zero = tmp("zero.kdw");
    let windows = layout::default_windows(model::shape_of(Base::International));
    std::fs::write(&zero, Model::zero(Base::International, windows, 8).unwrap().to_bytes())
        .unwrap();
    let games = |out: &Output| -> Vec<String> {
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout).split("[Event ").skip(1).map(str::to_string).collect()
    };
    let zero_arg = zero.display().to_string();
    let input = format!("{BLUNDER}\n{DRAWN}\n{BLUNDER}");
    let with = games(&annotate(&["--depth", "4", "--eval", &zero_arg], &input));
    let without = games(&annotate(&["--depth", "4"], &input));
    assert_eq!(with.len(), 3);
    // An all-zero evaluation scores the quiet positions differently from the built-in one,
    // in the first international game and in the one after the english game alike.
    assert_ne!(with[0], without[0], "the file is used");
    assert_eq!(with[0], with[2], "the file is still used after the english game");
    assert_eq!(with[1], without[1], "the english game keeps its built-in weights");
}
