//! The match runner end to end: kondavo against itself with its PDN read back, and against
//! engines that misbehave (illegal move, crash, hang, garbage): each loses with the right
//! reason and the match completes. Also `--shard`/`--merge` and `kondavo ratings`.

use kondavo::pdn::{GameResult, parse_pdn};
use std::process::{Command, Output};

fn kondavo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kondavo")).args(args).output().expect("kondavo runs")
}

fn engine() -> String {
    format!("{} hub", env!("CARGO_BIN_EXE_kondavo"))
}

fn fixture(mode: &str) -> String {
    format!("python3 {}/tests/fixtures/bad_engine.py {mode}", env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kondavo-matches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// The value after `key` in the summary's last line `elo=V +/- I`.
fn last_line(out: &str) -> &str {
    out.lines().last().expect("a summary")
}

#[test]
fn kondavo_against_itself_writes_pdn_that_reads_back() {
    let pdn = temp("self.pdn");
    let json = temp("self.json");
    let o = kondavo(&[
        "match",
        "-v",
        "russian",
        "--engine",
        &engine(),
        "--engine",
        &engine(),
        "--name",
        "a",
        "--name",
        "b",
        "--games",
        "4",
        "--tc",
        "nodes=3000",
        "--concurrency",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(last_line(&out).starts_with("elo=") && last_line(&out).contains(" +/- "), "{out}");
    let games = parse_pdn(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("GameType"), Some("25,W,8,8,A0,0"));
        assert!(["a", "b"].contains(&g.tag("White").unwrap()));
        assert!(g.tag("Termination").is_some());
        assert_ne!(g.result, GameResult::Unknown);
        // The moves replay legally from the game's start.
        let v: kondavo::variant::Variant = "russian".parse().unwrap();
        let spec = kondavo::engine::GameSpec {
            start: g.tag("FEN").unwrap_or("start").to_string(),
            moves: g.moves.clone(),
        };
        kondavo::with_rules!(v, R => {
            kondavo::engine::build_game::<R>(&spec, &kondavo::engine::Options::default()).expect("legal game");
        });
    }
    // Each opening was played with both colours.
    let rounds: Vec<&str> = games.iter().map(|g| g.tag("Round").unwrap()).collect();
    for pair in ["1", "2"] {
        assert!(
            rounds.contains(&format!("{pair}.1").as_str())
                && rounds.contains(&format!("{pair}.2").as_str())
        );
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let w = &summary["wdl"];
    let played =
        w["wins"].as_u64().unwrap() + w["draws"].as_u64().unwrap() + w["losses"].as_u64().unwrap();
    assert_eq!(played, 4);
    assert_eq!(
        summary["penta"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum::<u64>(),
        2
    );
}

#[test]
fn misbehaving_engines_lose_with_their_reason_and_the_match_completes() {
    let cases = [
        ("illegal", "depth=2", "illegal move"),
        ("crash", "depth=2", "crash"),
        ("hang", "movetime=0.2", "time forfeit"),
        ("garbage", "depth=2", "malformed reply"),
    ];
    for (mode, tc, reason) in cases {
        let pdn = temp(&format!("{mode}.pdn"));
        let o = kondavo(&[
            "match",
            "--engine",
            &engine(),
            "--engine",
            &fixture(mode),
            "--name",
            "kondavo",
            "--name",
            mode,
            "--games",
            "4",
            "--tc",
            tc,
            "--timeout",
            "5",
            "--margin",
            "300",
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{mode}: {out}{}", String::from_utf8_lossy(&o.stderr));
        assert!(out.contains("results: 4 wins, 0 draws, 0 losses for kondavo"), "{mode}: {out}");
        assert!(out.contains(&format!("{reason} 4")), "{mode}: {out}");
        let games = parse_pdn(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
        assert_eq!(games.len(), 4, "{mode}");
        for g in games {
            let t = g.tag("Termination").unwrap();
            assert!(t.starts_with(reason) && t.contains(mode), "{mode}: {t}");
        }
    }
}

#[test]
fn shards_merge_into_one_result_and_rate() {
    let a = temp("shard1.pdn");
    let b = temp("shard2.pdn");
    for (shard, file) in [("1/2", &a), ("2/2", &b)] {
        let o = xy_match(file, &["--games", "6", "--shard", shard]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let n1 = parse_pdn(&std::fs::read_to_string(&a).unwrap()).unwrap().len();
    let n2 = parse_pdn(&std::fs::read_to_string(&b).unwrap()).unwrap().len();
    assert_eq!((n1, n2), (4, 2)); // pairs 1 and 3 in shard 1, pair 2 in shard 2
    let o = kondavo(&[
        "match",
        "-v",
        "english",
        "--merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--name",
        "x",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("6 games, 3 pairs"), "{out}");
    let o = kondavo(&["ratings", "-v", "english", a.to_str().unwrap(), b.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("6 games, 2 players"), "{out}");
}

/// An english match of kondavo as "x" against kondavo as "y" at 2,000 nodes a move, into
/// `pdn`, with `extra` arguments.
fn xy_match(pdn: &std::path::Path, extra: &[&str]) -> Output {
    let engine = engine();
    let mut args = vec![
        "match",
        "-v",
        "english",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--name",
        "x",
        "--name",
        "y",
        "--tc",
        "nodes=2000",
        "--pdn",
        pdn.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    kondavo(&args)
}

/// `kondavo match` with `--games` and `--resume`.
fn resumable_match(pdn: &std::path::Path, games: &str, seed: &str) -> Output {
    xy_match(pdn, &["--games", games, "--seed", seed, "--resume"])
}

#[test]
fn a_resumed_match_plays_only_the_missing_games_and_counts_all() {
    let pdn = temp("resume.pdn");
    // A first run of 4 games (nothing to resume: the file does not exist yet).
    let o = resumable_match(&pdn, "4", "7");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(parse_pdn(&first).unwrap().len(), 4);
    // Stopped after 4 of 8 games: the rerun adds 4 and reports all 8.
    let o = resumable_match(&pdn, "8", "7");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("8 games, 4 pairs"), "{out}");
    assert!(out.contains("4 were read back"), "{out}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.starts_with(&first), "the games played are kept as they were");
    let games = parse_pdn(&text).unwrap();
    let mut rounds: Vec<&str> = games.iter().filter_map(|g| g.tag("Round")).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2", "4.1", "4.2"]);
    // The summary equals the merge of the whole file.
    let merged =
        kondavo(&["match", "-v", "english", "--merge", pdn.to_str().unwrap(), "--name", "x"]);
    assert_eq!(
        last_line(&String::from_utf8_lossy(&merged.stdout)),
        last_line(&out),
        "resumed and merged summaries differ"
    );
    // A finished match resumed plays nothing.
    let o = resumable_match(&pdn, "8", "7");
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("8 games, 4 pairs"));
    assert_eq!(parse_pdn(&std::fs::read_to_string(&pdn).unwrap()).unwrap().len(), 8);
    // Another match's file is refused, and left as it was: other openings (another seed),
    // fewer games than the file holds.
    for (games, seed, why) in [("8", "8", "another --seed"), ("4", "7", "not one of this match")] {
        let o = resumable_match(&pdn, games, seed);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("cannot resume") && err.contains(why), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), text);
}

#[test]
fn bad_match_arguments_exit_2() {
    for args in [
        vec!["match", "--engine", "x"],
        vec!["match", "--engine", "a", "--engine", "b", "--tc", "fast"],
        vec!["match", "--engine", "a", "--engine", "b", "--sprt", "5,0"],
        vec!["match", "--engine", "a", "--engine", "b", "--shard", "3/2"],
        vec!["match", "--engine", "a", "--engine", "b", "--openings", "/nonexistent"],
        vec!["ratings", "/nonexistent.pdn"],
        // Numbers that would overflow a clock or exhaust memory are refused.
        vec!["match", "--engine", "a", "--engine", "b", "--games", "0"],
        vec!["match", "--engine", "a", "--engine", "b", "--games", "18446744073709551615"],
        vec!["match", "--engine", "a", "--engine", "b", "--timeout", "18446744073709551615"],
        vec!["match", "--engine", "a", "--engine", "b", "--margin", "18446744073709551615"],
        vec!["match", "--engine", "a", "--engine", "b", "--concurrency", "0"],
        // --resume needs the --pdn file it resumes.
        vec!["match", "--engine", "a", "--engine", "b", "--resume"],
    ] {
        let o = kondavo(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn a_decided_sprt_stops_the_match() {
    let o = kondavo(&[
        "match",
        "--engine",
        &engine(),
        "--engine",
        &fixture("illegal"),
        "--games",
        "1000",
        "--tc",
        "depth=1",
        "--sprt",
        "0,100",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("H1 accepted"), "{out}");
    let games: u64 = out
        .split(", ")
        .find_map(|p| p.strip_suffix(" games"))
        .and_then(|n| n.rsplit(' ').next()?.parse().ok())
        .unwrap();
    assert!(games < 1000, "{out}");
}

#[test]
fn clock_use_is_accounted_per_engine_and_reads_back_from_the_pdn() {
    let pdn = temp("clock.pdn");
    let json = temp("clock.json");
    let o = kondavo(&[
        "match",
        "-v",
        "english",
        "--engine",
        &engine(),
        "--engine",
        &engine(),
        "--name",
        "a",
        "--name",
        "b",
        "--games",
        "2",
        "--tc",
        "1+0.02",
        "--margin",
        "500",
        "--pdn",
        pdn.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("time: a ") && out.contains("% of its clock"), "{out}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let t = &summary["time"];
    let f = |key: &str, e: usize| t[key][e].as_f64().unwrap();
    for e in 0..2 {
        assert_eq!(t["games"][e].as_u64(), Some(2));
        let moves = t["moves"][e].as_u64().unwrap() as f64;
        assert!(moves > 0.0 && f("think", e) > 0.0, "{t}");
        // The clocks gave 1 s a game and 0.02 s a move: what was thought plus what was left.
        assert!((f("given", e) - (2.0 + 0.02 * moves)).abs() < 0.01, "{t}");
        assert!(f("think", e) <= f("given", e) && f("lowest_left", e) >= 0.0, "{t}");
    }
    // Every game carries both sides' thinking time and clock left.
    let games = parse_pdn(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    for g in &games {
        for tag in ["WhiteTime", "BlackTime", "WhiteClock", "BlackClock"] {
            assert!(g.tag(tag).is_some_and(|v| v.parse::<f64>().is_ok()), "{tag}: {:?}", g.tags);
        }
    }
    // Merging the PDN gives the same thinking times.
    let merged = temp("clock-merged.json");
    let o = kondavo(&[
        "match",
        "-v",
        "english",
        "--merge",
        pdn.to_str().unwrap(),
        "--name",
        "a",
        "--json",
        merged.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    for e in 0..2 {
        let (live, read) = (f("think", e), m["time"]["think"][e].as_f64().unwrap());
        assert!((live - read).abs() < 0.01, "engine {e}: {live} vs {read}");
        let given = m["time"]["given"][e].as_f64().unwrap();
        assert!((given - f("given", e)).abs() < 0.01, "engine {e}: {given}");
        assert_eq!(m["time"]["moves"][e], t["moves"][e], "engine {e}");
    }
}
