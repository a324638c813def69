//! Complete games through a real Hub client: pydraughts' `HubEngine`, with clocks.
//!
//! Runs `tests/pydraughts/hub_games.py` with the Python of the virtual environments that
//! `.ci/pyenv.sh` creates (`.venv/pd057`: pydraughts 0.5.7, the version lidraughts bots pin;
//! `.venv/pd067`: pydraughts 0.6.7) and the kondavo binary of this build. For every rule set
//! pydraughts knows (standard, russian, brazilian, english, italian, turkish) the script plays
//! one kondavo-vs-kondavo game without and one with pondering, on Fischer clocks of 1.5 s +
//! 0.04 s per move (150 plies at most), checks every move and ponder move with pydraughts'
//! rules, and exits non-zero on an illegal or unparsable reply, an `error` line, a crash, a
//! search that is not answered (hang) or a clock below zero (time forfeit). The 0.5.7 run also
//! plays the time-use figure of the notes (international, `level time=5 inc=0.1`, 100 moves
//! per side) and prints its longest move and lowest clock.
//!
//! Full timestamped transcripts of every game go to `$CARGO_TARGET_TMPDIR/hub_games/<venv>/`.
//!
//! A missing venv is made under `target/pyvenv/` when pip can reach the package index; when it
//! cannot, the test is skipped with a `pydraughts tests SKIPPED` line that shows on the terminal
//! (or fails, with `KONDAVO_REQUIRE_PYDRAUGHTS=1`; CI sets it). See `tests/pyvenv` for the
//! places looked in and the environment variables.
//!
//! The tests of `tests/clock` take turns (its `MACHINE` lock): the games are timed, and two
//! matches at once on a small machine would mostly measure each other. About two minutes each
//! on 2 cores.

use crate::pyvenv;
use std::path::PathBuf;
use std::time::Duration;

/// The whole script, far beyond its expected run time: it has its own timeouts on every
/// search, this one catches anything else.
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(600);

fn run_games(venv: &str, extra: &[&str]) {
    let Some(python) = pyvenv::python(venv) else { return };
    let _turn = crate::MACHINE.lock().unwrap_or_else(|e| e.into_inner());
    let transcripts = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hub_games").join(venv);
    let mut args = pyvenv::args(["--kondavo", env!("CARGO_BIN_EXE_kondavo"), "--transcripts"]);
    args.push(transcripts.clone().into_os_string());
    args.extend(pyvenv::args(extra.iter().copied()));
    let run = pyvenv::run_script(&python, "hub_games.py", &args, SCRIPT_TIMEOUT);
    println!("transcripts: {}", transcripts.display());
    let status = run.status.expect("finished");
    assert!(
        status.success(),
        "hub_games.py with {venv} failed ({status}): an illegal or malformed reply, a crash, a hang \
         or a time forfeit; the FAILURE lines and the transcripts above say which"
    );
    assert!(
        run.stdout.contains("hub_games: pydraughts") && run.stdout.contains(" games, 0 failed"),
        "hub_games.py with {venv} exited 0 without its summary line"
    );
}

/// pydraughts 0.5.7 (lidraughts bots): moves in the Hub position numbering, kondavo's default
/// `move-numbering=auto`; also the time-use figure.
#[test]
fn games_through_pydraughts_057() {
    run_games("pd057", &["--figure"]);
}

/// pydraughts 0.6.7: moves in the rule sets' own numbering, `move-numbering=variant` set for
/// russian, brazilian, english and turkish.
#[test]
fn games_through_pydraughts_067() {
    run_games("pd067", &[]);
}
