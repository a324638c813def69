//! Differential perft against pydraughts, an independent move generator.
//!
//! Runs `tests/pydraughts/diff_perft.py` with the Python of the virtual environments that
//! `.ci/pyenv.sh` creates (`.venv/pd067`: pydraughts 0.6.7, `.venv/pd057`: pydraughts 0.5.7) and
//! the kondavo binary of this build. The script compares kondavo's `perft --divide` with a perft
//! computed by pydraughts on a few hundred reproducible positions per rule set and exits non-zero
//! on any mismatch.
//!
//! A missing venv skips the test with a note on stderr, unless `KONDAVO_REQUIRE_PYDRAUGHTS=1`,
//! which turns it into a failure (CI sets it after running `.ci/pyenv.sh`).
//! `KONDAVO_VENV_DIR` points at another folder holding `pd057/` and `pd067/` (default `.venv`).

use std::path::PathBuf;
use std::process::Command;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn required() -> bool {
    std::env::var("KONDAVO_REQUIRE_PYDRAUGHTS").is_ok_and(|v| v.trim() == "1")
}

fn run_diff(venv: &str, extra: &[&str]) {
    let root = repo_root();
    let venvs = std::env::var_os("KONDAVO_VENV_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv"));
    let python = venvs.join(venv).join("bin").join("python");
    let script = root.join("tests").join("pydraughts").join("diff_perft.py");
    if !python.exists() {
        let msg =
            format!("pydraughts venv missing: {} (create it with .ci/pyenv.sh)", python.display());
        if required() {
            panic!("{msg}; KONDAVO_REQUIRE_PYDRAUGHTS=1 makes this a failure");
        }
        eprintln!("skipped: {msg}");
        return;
    }
    let kondavo = env!("CARGO_BIN_EXE_kondavo");
    let out = Command::new(&python)
        .arg(&script)
        .arg("--kondavo")
        .arg(kondavo)
        .args(extra)
        .current_dir(&root)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Shown by the test harness on failure (and with --nocapture).
    println!("{stdout}");
    if !stderr.trim().is_empty() {
        eprintln!("{stderr}");
    }
    assert!(
        out.status.success(),
        "diff_perft.py with {venv} failed ({}): kondavo and pydraughts disagree or the script \
         broke; its output is above",
        out.status
    );
    assert!(
        stdout.contains("diff_perft:") && stdout.contains(", 0 failed"),
        "diff_perft.py with {venv} exited 0 without its summary line"
    );
}

/// pydraughts 0.6.7: all six rule sets it has (plus ukrainian against its russian).
#[test]
fn perft_matches_pydraughts_067() {
    run_diff("pd067", &[]);
}

/// pydraughts 0.5.7 (the version lidraughts bots pin): a quarter of the work; russian is skipped
/// there by the script (known 0.5.7 bug, see the script's notes).
#[test]
fn perft_matches_pydraughts_057() {
    run_diff("pd057", &["--quick"]);
}
