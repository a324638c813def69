//! What the tests that run pydraughts scripts share: finding the Python of a venv made by
//! `.ci/pyenv.sh` and running a script under a timeout with both outputs captured.
//!
//! A missing venv skips the calling test with a note on stderr, unless
//! `KONDAVO_REQUIRE_PYDRAUGHTS=1`, which turns it into a failure (CI sets it after running
//! `.ci/pyenv.sh`). `KONDAVO_VENV_DIR` points at another folder holding `pd057/` and `pd067/`
//! (default `.venv`).

// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn required() -> bool {
    std::env::var("KONDAVO_REQUIRE_PYDRAUGHTS").is_ok_and(|v| v.trim() == "1")
}

/// The Python of venv `name` (`pd057`, `pd067`); `None` (after a note) when it is missing and
/// not required. Panics when it is missing and required.
pub fn python(name: &str) -> Option<PathBuf> {
    let venvs = std::env::var_os("KONDAVO_VENV_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".venv"));
    let python = venvs.join(name).join("bin").join("python");
    if python.exists() {
        return Some(python);
    }
    let msg =
        format!("pydraughts venv missing: {} (create it with .ci/pyenv.sh)", python.display());
    if required() {
        panic!("{msg}; KONDAVO_REQUIRE_PYDRAUGHTS=1 makes this a failure");
    }
    eprintln!("skipped: {msg}");
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
