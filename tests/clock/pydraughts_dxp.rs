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
//! A missing venv is made under `target/pyvenv/` when pip can reach the package index; when it
//! cannot, the test is skipped with a `pydraughts tests SKIPPED` line that shows on the terminal
//! (or fails, with `KONDAVO_REQUIRE_PYDRAUGHTS=1`; CI sets it). See `tests/pyvenv` for the
//! places looked in and the environment variables.
//!
//! The tests of `tests/clock` take turns (its `MACHINE` lock): pydraughts busy-waits for
//! every answer, and two runs at once would starve kondavo's clock on a small machine. About
//! 15 s each.

use crate::pyvenv;
use std::time::Duration;

/// The whole script, far beyond its expected run time (it has its own timeouts).
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(300);

fn run_games(venv: &str) {
    let Some(python) = pyvenv::python(venv) else { return };
    let _turn = crate::MACHINE.lock().unwrap_or_else(|e| e.into_inner());
    let run = pyvenv::run_script(
        &python,
        "dxp_games.py",
        &pyvenv::args(["--kondavo", env!("CARGO_BIN_EXE_kondavo")]),
        SCRIPT_TIMEOUT,
    );
    let status = run.status.expect("finished");
    assert!(status.success(), "dxp_games.py with {venv} failed ({status}); its output is above");
    assert!(
        run.stdout.contains("dxp_games: pydraughts") && run.stdout.contains(", 0 failed"),
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
