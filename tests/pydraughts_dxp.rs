//! Complete games over DXP through a real DXP client: pydraughts' `DXPEngine`.
//!
//! Runs `tests/pydraughts/dxp_games.py` with the Python of the virtual environments that
//! `.ci/pyenv.sh` creates (`.venv/pd057`: pydraughts 0.5.7, the version lidraughts bots pin;
//! `.venv/pd067`: pydraughts 0.6.7) and the kondavo binary of this build. The script starts
//! `kondavo dxp` as a follower server on a free port and plays complete games against it through
//! `DXPEngine` (kondavo White and Black; international, and russian with 0.5.7), plus one game
//! that kondavo loses on its turn and must end with GAMEEND. Every kondavo move must be legal by
//! pydraughts' rules and kondavo's record of each result must agree with pydraughts.
//!
//! A missing venv skips the test with a note on stderr, unless `KONDAVO_REQUIRE_PYDRAUGHTS=1`,
//! which turns it into a failure (CI sets it after running `.ci/pyenv.sh`).
//! `KONDAVO_VENV_DIR` points at another folder holding `pd057/` and `pd067/` (default `.venv`).
//!
//! The two tests take turns (a lock): pydraughts busy-waits for every answer, and two runs at
//! once would starve kondavo's clock on a small machine. About 15 s each.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One run at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// The whole script, far beyond its expected run time (it has its own timeouts).
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(300);

fn required() -> bool {
    std::env::var("KONDAVO_REQUIRE_PYDRAUGHTS").is_ok_and(|v| v.trim() == "1")
}

fn run_games(venv: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let venvs = std::env::var_os("KONDAVO_VENV_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv"));
    let python = venvs.join(venv).join("bin").join("python");
    let script = root.join("tests").join("pydraughts").join("dxp_games.py");
    if !python.exists() {
        let msg =
            format!("pydraughts venv missing: {} (create it with .ci/pyenv.sh)", python.display());
        if required() {
            panic!("{msg}; KONDAVO_REQUIRE_PYDRAUGHTS=1 makes this a failure");
        }
        eprintln!("skipped: {msg}");
        return;
    }
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut child = Command::new(&python)
        .arg(&script)
        .arg("--kondavo")
        .arg(env!("CARGO_BIN_EXE_kondavo"))
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break Some(status);
        }
        if start.elapsed() > SCRIPT_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    println!("{stdout}");
    if !stderr.trim().is_empty() {
        eprintln!("{stderr}");
    }
    let status =
        status.unwrap_or_else(|| panic!("dxp_games.py with {venv} ran over {SCRIPT_TIMEOUT:?}"));
    assert!(status.success(), "dxp_games.py with {venv} failed ({status}); its output is above");
    assert!(
        stdout.contains("dxp_games: pydraughts") && stdout.contains(", 0 failed"),
        "dxp_games.py with {venv} exited 0 without its summary line"
    );
}

/// pydraughts 0.6.7 (international).
#[test]
fn pydraughts_067_plays_complete_games_over_dxp() {
    run_games("pd067");
}

/// pydraughts 0.5.7, as lidraughts bots pin it (international and russian).
#[test]
fn pydraughts_057_plays_complete_games_over_dxp() {
    run_games("pd057");
}
