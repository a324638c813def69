//! What the tests that run pydraughts scripts share: finding (or making) the Python of a venv
//! with the pinned pydraughts, and running a script under a timeout with both outputs captured.
//!
//! Where the venvs are looked for, in order: `KONDAVO_VENV_DIR` (a folder holding `pd057/` and
//! `pd067/`), `.venv/` in the repository (what `.ci/pyenv.sh` makes; CI uses it), and the cache
//! under the build's target folder (`target/pyvenv/`, or `$CARGO_TARGET_DIR/pyvenv/`). When
//! none has it, the test makes it in that cache (`python3 -m venv`, then `pip install
//! pydraughts==…`, about 10 s once), so a fresh clone runs the pydraughts tests with nothing
//! installed by hand; `KONDAVO_VENV_CREATE=0` turns that off.
//!
//! When the venv is missing and cannot be made (no `python3`, no `venv` module, or pip cannot
//! reach the package index), the test is skipped with a line written straight to the
//! terminal's standard error, past the test harness's capture, so it shows even though the
//! test passes: `pydraughts tests SKIPPED: …`. `KONDAVO_REQUIRE_PYDRAUGHTS=1` makes it a
//! failure instead (CI sets it).

// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn required() -> bool {
    std::env::var("KONDAVO_REQUIRE_PYDRAUGHTS").is_ok_and(|v| v.trim() == "1")
}

/// The pinned pydraughts version of venv `name`.
fn version_of(name: &str) -> Option<&'static str> {
    match name {
        "pd057" => Some("0.5.7"),
        "pd067" => Some("0.6.7"),
        _ => None,
    }
}

/// The cache of venvs made by the tests: `pyvenv/` in the target folder of this build.
fn cache_dir() -> PathBuf {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().map_or_else(|| repo_root().join("target"), Path::to_path_buf).join("pyvenv")
}

fn python_in(venv: &Path) -> PathBuf {
    venv.join("bin").join("python")
}

/// Writes `line` to the process's standard error directly: the harness captures only the
/// `print!` family, so this shows on the terminal even when the test passes.
fn tell(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// One venv is made at a time (the tests of one binary run in parallel).
static MAKING: Mutex<()> = Mutex::new(());

/// Makes venv `name` with pydraughts `version` at `dir` (built beside it, then renamed, so a
/// venv that exists is complete). Returns why it could not.
fn make_venv(dir: &Path, version: &str) -> Result<(), String> {
    let parent = dir.parent().ok_or("no parent folder")?;
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let tmp = parent.join(format!(
        "{}.making-{}",
        dir.file_name().and_then(|n| n.to_str()).unwrap_or("venv"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    let run = |cmd: &mut Command, what: &str| -> Result<(), String> {
        let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            let err = String::from_utf8_lossy(&out.stderr);
            let last = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
            Err(format!("{what} failed ({}): {}", out.status, last.trim()))
        }
    };
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let made = run(Command::new(&python).arg("-m").arg("venv").arg(&tmp), "python3 -m venv")
        .and_then(|()| {
            run(
                Command::new(python_in(&tmp)).args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "--timeout",
                    "20",
                    "--retries",
                    "1",
                    &format!("pydraughts=={version}"),
                ]),
                "pip install pydraughts",
            )
        })
        .and_then(|()| {
            std::fs::rename(&tmp, dir).map_err(|e| format!("moving the venv into place: {e}"))
        });
    if made.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    made
}

/// The Python of venv `name` (`pd057`, `pd067`): found, or made in the cache. `None` (after a
/// visible note) when it is missing and cannot be made, unless required: then a panic.
pub fn python(name: &str) -> Option<PathBuf> {
    let mut places = Vec::new();
    if let Some(d) = std::env::var_os("KONDAVO_VENV_DIR").filter(|d| !d.is_empty()) {
        places.push(PathBuf::from(d));
    } else {
        places.push(repo_root().join(".venv"));
        places.push(cache_dir());
    }
    for p in &places {
        let python = python_in(&p.join(name));
        if python.exists() {
            return Some(python);
        }
    }
    let target = places.last().expect("a place").join(name);
    let create = std::env::var("KONDAVO_VENV_CREATE").map_or(true, |v| v.trim() != "0");
    let why = match version_of(name) {
        Some(version) if create => {
            let _one = MAKING.lock().unwrap_or_else(|e| e.into_inner());
            if python_in(&target).exists() {
                return Some(python_in(&target));
            }
            tell(&format!(
                "pydraughts tests: making {} (pydraughts=={version}), once",
                target.display()
            ));
            match make_venv(&target, version) {
                Ok(()) => return Some(python_in(&target)),
                Err(e) => e,
            }
        }
        Some(_) => "KONDAVO_VENV_CREATE=0".to_string(),
        None => format!("unknown venv {name}"),
    };
    let msg = format!(
        "pydraughts venv {name} missing and not made ({why}); looked in {}; run .ci/pyenv.sh \
         or allow pip to reach the package index",
        places.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    );
    if required() {
        panic!("{msg}; KONDAVO_REQUIRE_PYDRAUGHTS=1 makes this a failure");
    }
    tell(&format!("pydraughts tests SKIPPED: {msg}"));
    None
}

/// How a script run ended.
pub struct Run {
    /// `None` when it was killed at the timeout.
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `tests/pydraughts/<script>` with `python` (unbuffered) and `args` from the repository
/// root, killing it after `timeout`. Both outputs are echoed for the test harness (shown on
/// failure and with `--nocapture`).
pub fn run_script(python: &Path, script: &str, args: &[OsString], timeout: Duration) -> Run {
    let root = repo_root();
    let path = root.join("tests").join("pydraughts").join(script);
    let mut child = Command::new(python)
        .arg("-u")
        .arg(&path)
        .args(args)
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = pipe.read_to_string(&mut s);
            s
        })
    };
    let out = reader(Box::new(child.stdout.take().expect("stdout piped")));
    let err = reader(Box::new(child.stderr.take().expect("stderr piped")));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => panic!("waiting for {script}: {e}"),
        }
    };
    let run = Run {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    };
    println!("{}", run.stdout);
    if !run.stderr.trim().is_empty() {
        eprintln!("{}", run.stderr);
    }
    if run.status.is_none() {
        panic!(
            "{script} did not finish within {} s (killed); its output is above",
            timeout.as_secs()
        );
    }
    run
}

/// The command-line arguments `args` as `OsString`s.
pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(args: I) -> Vec<OsString> {
    args.into_iter().map(Into::into).collect()
}
