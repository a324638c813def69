//! `kondavo match` PDN output read back by a real PDN reader: pydraughts' `PDNReader`.
//!
//! For each virtual environment that `.ci/pyenv.sh` creates (`.venv/pd057`: pydraughts 0.5.7,
//! the version lidraughts bots pin; `.venv/pd067`: pydraughts 0.6.7) and each rule set
//! pydraughts knows (international = pydraughts `standard`, russian, brazilian, english,
//! italian, turkish), the test plays a short kondavo-vs-kondavo match (4 games, `nodes=2000`)
//! with `--pdn` into a fresh file and runs `tests/pydraughts/pdn_read.py` on it, which reads
//! the file with pydraughts and fails unless, for every game: the tags pydraughts reads are the
//! tags written (White, Black, Result, GameType, FEN, ...), GameType is the variant's and
//! pydraughts' own string, the result token is the rule set's style and the same in the tag and
//! after the moves, pydraughts extracts exactly the moves written, the FEN tag (or the start)
//! sets up a board whose side to move matches the first move number, every move replays legally
//! from its PDN text on pydraughts' board, and the end agrees with pydraughts where it can tell
//! (`Termination "no legal move"`: pydraughts' winner is the Result's; anything else: the side
//! to move still has a move; draws are draws). With `--strict-repetition` (every rule set but
//! turkish, below) a game must also end at the first position that occurs for the third time
//! on pydraughts' board, with `Termination "threefold repetition"`: rules.md makes threefold
//! repetition a draw in every rule set, and kondavo and pydraughts both see the exact position
//! and side to move, so this holds whatever their other draw rules. The script's docstring has
//! the details.
//!
//! For international, english, russian and turkish the test then annotates the match file with
//! `kondavo annotate --nodes 3000 --wdl` and reads the result back with `--annotated`: the same
//! checks on the moves, plus the Annotator tag, a score comment on the moves, and every
//! variation replayed legally on pydraughts' board from the position before the move it
//! replaces.
//!
//! Every rule set runs in both versions. Where a pydraughts bug would misread a correct file,
//! the run avoids the input that triggers it (`CASES_057`, `CASES_067`) rather than relax a check:
//! - english, both versions: the built-in openings are the 3-move ballots, which start from a
//!   FEN with White (the second mover) to move, so the moves read `1... 24-19 2. 15x24 ...` as
//!   PDN numbers them. `PDNReader` picks the move-number layout from the FEN tag's first letter
//!   alone (`W` means `1. a b`, whatever the rule set), reads the number `2` as a move and is one
//!   ply off from there. The english run uses openings given as moves from the start (no FEN
//!   tag; the moves start `1. 10-15 21-17`).
//! - russian and brazilian, 0.6.7 only: for a FEN with Black to move (`1... a 2. b c`), 0.6.7's
//!   `PDNReader` puts the first move in the list twice (0.5.7 does not). The built-in ballot
//!   tables have such positions, so 0.6.7 gets two White-to-move ballot positions instead; the
//!   0.5.7 runs keep the built-in openings.
//! - turkish: pydraughts 0.6.7 lets a king slide through pieces (/work/shared/perft.md). Such
//!   extra moves do not stop a replay of kondavo's legal moves; they could only make a
//!   `no legal move` ending look wrong, which did not happen in 60 games checked with each version.
//!
//! Every run is strict about repetitions, turkish too: turkish men also step sideways, and
//! kondavo counts the positions repeated across such steps (this test found that it did not).
//!
//! Files: `$CARGO_TARGET_TMPDIR/pydraughts_pdn/<venv>/<variant>.pdn` (kept for inspection).
//!
//! A missing venv skips the test (see `tests/pyvenv`).
//! About 16 s per pydraughts version on 2 cores (the two tests run side by side: about 20 s).

use crate::pyvenv;
use crate::pyvenv::repo_root;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Games per match: two opening pairs, colours reversed within each pair.
const GAMES: usize = 4;

/// Far beyond the expected run time of one match or one script run (a few seconds each).
const STEP_TIMEOUT: Duration = Duration::from_secs(180);

/// Openings of the english runs: two 3-move ballots (089 and 126) as moves from the start, so
/// that the PDN has no FEN tag (see the module notes).
const ENGLISH_FROM_START: &str = "\
[Event \"089 10-15 21-17 11-16\"]\n\n1. 10-15 21-17 2. 11-16 *\n\n\
[Event \"126 11-15 23-19 08-11\"]\n\n1. 11-15 23-19 2. 8-11 *\n";

/// Openings of the russian and brazilian runs under 0.6.7: two ballot positions (tables I-7 and
/// I-9) with White to move, as FEN lines (see the module notes).
const WHITE_TO_MOVE_FENS: &str = "\
# I-7: ab4 ba5 ba3 cb6 cb2 de5\n\
W:Wa1,c3,e3,g3,b4,e1,g1,b2,d2,f2,h2,a3:Ba5,e5,b6,f6,h6,a7,e7,g7,b8,d8,f8,h8\n\
# I-9: ab4 ba5 ba3 cb6 gh4 fe5\n\
W:Wa1,c3,e3,b4,h4,c1,e1,g1,d2,f2,h2,a3:Ba5,e5,b6,d6,h6,a7,e7,g7,b8,d8,f8,h8\n";

/// Rule sets whose match games are also annotated by `kondavo annotate` and read back with
/// `--annotated` (one per geometry and king kind: 10x10 flying, 8x8 short, 8x8 flying with men
/// capturing backwards, orthogonal).
const ANNOTATED: [&str; 4] = ["international", "english", "russian", "turkish"];

/// Where the openings of a run come from.
#[derive(Clone, Copy)]
enum Openings {
    /// kondavo's built-in openings (`--openings builtin`, the default).
    Builtin,
    /// A file with this text (name, text).
    File(&'static str, &'static str),
}

/// One run: the kondavo rule set, its openings, and two script options.
#[derive(Clone, Copy)]
struct Case {
    variant: &'static str,
    openings: Openings,
}

const fn case(variant: &'static str, openings: Openings) -> Case {
    Case { variant, openings }
}

const ENGLISH: Case = case("english", Openings::File("english_from_start.pdn", ENGLISH_FROM_START));

const RUSSIAN: Case = case("russian", Openings::Builtin);

const TURKISH: Case = case("turkish", Openings::Builtin);

const WHITE_TO_MOVE: Openings = Openings::File("white_to_move.txt", WHITE_TO_MOVE_FENS);

/// pydraughts 0.5.7: built-in openings everywhere but english.
const CASES_057: [Case; 6] = [
    case("international", Openings::Builtin),
    RUSSIAN,
    case("brazilian", Openings::Builtin),
    ENGLISH,
    case("italian", Openings::Builtin),
    TURKISH,
];

/// pydraughts 0.6.7: russian and brazilian from White-to-move ballot positions.
const CASES_067: [Case; 6] = [
    case("international", Openings::Builtin),
    Case { openings: WHITE_TO_MOVE, ..RUSSIAN },
    case("brazilian", WHITE_TO_MOVE),
    ENGLISH,
    case("italian", Openings::Builtin),
    TURKISH,
];

/// Output of a finished (or killed) command.
struct Run {
    /// `None` when it was killed at the timeout.
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
}

/// Runs `cmd` with a wall-clock limit, collecting its output.
fn run(mut cmd: Command, what: &str) -> Run {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let mut out_pipe = child.stdout.take().expect("stdout piped");
    let mut err_pipe = child.stderr.take().expect("stderr piped");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out_pipe.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err_pipe.read_to_string(&mut s);
        s
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > STEP_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("waiting for {what}: {e}"),
        }
    };
    Run {
        status,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    }
}

/// Plays the match of `case` into `dir/<variant>.pdn` and reads it with the script; the
/// script's report, or why it failed.
fn check(python: &Path, dir: &Path, case: Case) -> Result<String, String> {
    let root = repo_root();
    let kondavo = env!("CARGO_BIN_EXE_kondavo");
    let pdn = dir.join(format!("{}.pdn", case.variant));
    // `--pdn` appends: start from an empty file.
    let _ = std::fs::remove_file(&pdn);
    let openings = match case.openings {
        Openings::Builtin => "builtin".to_string(),
        Openings::File(name, text) => {
            let path = dir.join(name);
            std::fs::write(&path, text)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            path.display().to_string()
        }
    };
    let engine = format!("'{kondavo}' hub");
    let mut cmd = Command::new(kondavo);
    cmd.args(["match", "-v", case.variant, "--engine", &engine, "--engine", &engine])
        .args(["--games", &GAMES.to_string(), "--tc", "nodes=2000", "--openings", &openings])
        .arg("--pdn")
        .arg(&pdn)
        .current_dir(&root);
    let m = run(cmd, "kondavo match");
    match m.status {
        Some(s) if s.success() => {}
        Some(s) => {
            return Err(format!(
                "kondavo match -v {} failed ({s}):\n{}{}",
                case.variant, m.stdout, m.stderr
            ));
        }
        None => {
            return Err(format!(
                "kondavo match -v {} did not finish within {} s (killed):\n{}{}",
                case.variant,
                STEP_TIMEOUT.as_secs(),
                m.stdout,
                m.stderr
            ));
        }
    }

    let mut report = read_back(python, &pdn, case.variant, false)?;
    if ANNOTATED.contains(&case.variant) {
        // The same games annotated by `kondavo annotate`: NAGs, score comments and variations
        // must read back too, and every variation must replay on pydraughts' board.
        let annotated = dir.join(format!("{}-annotated.pdn", case.variant));
        let mut cmd = Command::new(kondavo);
        cmd.args(["annotate", "--nodes", "3000", "--wdl", "-o"])
            .arg(&annotated)
            .arg(&pdn)
            .current_dir(&root);
        let a = run(cmd, "kondavo annotate");
        if !a.status.is_some_and(|s| s.success()) {
            return Err(format!(
                "kondavo annotate {} failed ({:?}):\n{}{}",
                pdn.display(),
                a.status,
                a.stdout,
                a.stderr
            ));
        }
        report += &read_back(python, &annotated, case.variant, true)?;
    }
    Ok(report)
}

/// Runs `pdn_read.py` on `pdn`; `annotated` also requires the annotations.
fn read_back(python: &Path, pdn: &Path, variant: &str, annotated: bool) -> Result<String, String> {
    let root = repo_root();
    let script = root.join("tests").join("pydraughts").join("pdn_read.py");
    let mut cmd = Command::new(python);
    cmd.arg("-u")
        .arg(&script)
        .arg("--pdn")
        .arg(pdn)
        .args(["--variant", variant, "--games", &GAMES.to_string()])
        .current_dir(&root);
    cmd.arg("--strict-repetition");
    if annotated {
        cmd.arg("--annotated");
    }
    let r = run(cmd, "pdn_read.py");
    let report = format!("{}{}", r.stdout, r.stderr);
    match r.status {
        Some(s) if s.success() => {
            if r.stdout.contains(&format!("pdn_read: {GAMES} games"))
                && r.stdout.contains(" 0 failed")
            {
                Ok(report)
            } else {
                Err(format!("pdn_read.py exited 0 without its summary line:\n{report}"))
            }
        }
        Some(s) if s.code() == Some(3) => Err(format!(
            "pdn_read.py cannot import pydraughts with {} ({s}):\n{report}",
            python.display()
        )),
        Some(s) => Err(format!(
            "pdn_read.py rejects the PDN {} of rule set {variant} ({s}):\n{report}",
            pdn.display()
        )),
        None => Err(format!(
            "pdn_read.py did not finish within {} s (killed):\n{report}",
            STEP_TIMEOUT.as_secs()
        )),
    }
}

fn check_all(venv: &str, cases: &[Case]) {
    let Some(python) = pyvenv::python(venv) else { return };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pydraughts_pdn").join(venv);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let started = Instant::now();
    let mut failures = Vec::new();
    for &case in cases {
        let t = Instant::now();
        match check(&python, &dir, case) {
            // Shown by the test harness on failure (and with --nocapture).
            Ok(report) => println!("{report}({:.1} s)\n", t.elapsed().as_secs_f64()),
            Err(why) => {
                println!("FAILED {venv} {}:\n{why}\n", case.variant);
                failures.push(format!("{} ({why})", case.variant));
            }
        }
    }
    println!("{venv}: {} rule sets in {:.1} s", cases.len(), started.elapsed().as_secs_f64());
    assert!(
        failures.is_empty(),
        "pydraughts ({venv}) does not read kondavo's PDN back for: {}",
        failures.join("\n\n")
    );
}

/// pydraughts 0.5.7 (lidraughts bots).
#[test]
fn match_pdn_reads_back_with_pydraughts_057() {
    check_all("pd057", &CASES_057);
}

/// pydraughts 0.6.7.
#[test]
fn match_pdn_reads_back_with_pydraughts_067() {
    check_all("pd067", &CASES_067);
}
