//! Perft against the published counts in `tests/perft/*.perft` (each file cites its source).
//!
//! File format: `#` comments, then `variant V`, `position start|FEN`, `duplicates drop|keep`,
//! `default-depth D`, and one `depth count` line per published count. `cargo test --release`
//! checks every count up to the default depth; `cargo test --release -- --ignored` checks
//! them all (minutes). Debug builds check two plies less, to stay quick.

use kondavo::notation::parse_position;
use kondavo::perft::perft;
use kondavo::variant::Variant;
use kondavo::with_rules;
use std::path::PathBuf;

struct Suite {
    file: String,
    variant: Variant,
    position: String,
    dedupe: bool,
    default_depth: u32,
    counts: Vec<(u32, u64)>,
}

fn suites() -> Vec<Suite> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/perft exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    assert!(files.len() >= 18, "perft data files are missing");
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable perft file");
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            let mut suite = Suite {
                file: file.clone(),
                variant: Variant::default(),
                position: "start".into(),
                dedupe: true,
                default_depth: 0,
                counts: Vec::new(),
            };
            assert!(text.starts_with("# Source:"), "{file} must cite its source on line 1");
            for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
                let (key, value) = line.split_once(' ').expect("key value");
                match key {
                    "variant" => suite.variant = value.parse().expect("variant"),
                    "position" => suite.position = value.to_string(),
                    "duplicates" => suite.dedupe = value == "drop",
                    "default-depth" => suite.default_depth = value.parse().expect("depth"),
                    depth => suite
                        .counts
                        .push((depth.parse().expect("depth"), value.parse().expect("count"))),
                }
            }
            assert!(!suite.counts.is_empty(), "{file} has no counts");
            suite
        })
        .collect()
}

fn check(max_depth: impl Fn(&Suite) -> u32) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for suite in suites() {
        let limit = max_depth(&suite);
        for &(depth, expected) in suite.counts.iter().filter(|(d, _)| *d <= limit) {
            let got = with_rules!(suite.variant, R => {
                let pos = parse_position::<R>(&suite.position).expect("valid position");
                perft(&pos, depth, suite.dedupe)
            });
            checked += 1;
            if got != expected {
                failures.push(format!("{} d{depth}: expected {expected}, got {got}", suite.file));
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert!(checked > 100, "only {checked} counts checked");
}

#[test]
fn perft_matches_published_counts() {
    let slack = if cfg!(debug_assertions) { 2 } else { 0 };
    check(|s| s.default_depth.saturating_sub(slack));
}

#[test]
#[ignore = "deep perft: minutes in release mode"]
fn perft_matches_published_counts_deep() {
    check(|_| u32::MAX);
}
