//! A Hub engine as a child process: start, handshake, one move at a time, with deadlines on
//! every reply so that a hung or crashed engine can never stop a match.

use crate::protocol::hub;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How to start an engine and what to tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name (PDN `White`/`Black`, rating lists).
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    /// `set-param` pairs sent after the variant.
    pub options: Vec<(String, String)>,
}

/// Splits a command line into words: whitespace separates, `"…"` and `'…'` group.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut has_word = false;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                has_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if has_word {
                    words.push(std::mem::take(&mut word));
                    has_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                has_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unterminated quote in engine command \"{text}\""));
    }
    if has_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

/// Why an engine failed: the game is lost for it, with this reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It did not reply in time.
    Timeout(String),
    /// Its process ended (or could not start).
    Crash(String),
    /// It replied with something that is not protocol.
    Malformed(String),
}

/// The reply to one `go think`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move as sent (Hub notation).
    pub mv: String,
    /// The last score it reported, in centi-men for the side to move.
    pub score: Option<i32>,
    /// Wall time from `go` to `done`.
    pub elapsed: Duration,
}

/// A running engine.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines other than `info`, each with the last `info` score before it.
    lines: Receiver<(String, Option<i32>)>,
}

impl Client {
    /// Starts `spec` for `variant` (a Hub variant name) and completes the handshake
    /// (`hub` … `wait`, `set-param`s, `init` … `ready`) within `timeout`.
    pub fn start(
        spec: &EngineSpec,
        variant: &str,
        optional_capture: bool,
        timeout: Duration,
    ) -> Result<Client, Failure> {
        let (program, args) =
            spec.command.split_first().ok_or_else(|| Failure::Crash("empty command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::Crash(format!("cannot start {program}: {e}")))?;
        let stdout = child.stdout.take().ok_or_else(|| Failure::Crash("no stdout".into()))?;
        let (tx, lines) = channel();
        // The reader keeps `info` lines to itself (only their score matters) and passes on the
        // rest with the last score seen: one wake-up of the game thread per move, not per line.
        std::thread::Builder::new()
            .name("kondavo-match-reader".into())
            .spawn(move || {
                let mut score: Option<i32> = None;
                let mut reader = BufReader::with_capacity(1 << 16, stdout);
                let mut buf = Vec::with_capacity(256);
                loop {
                    buf.clear();
                    // At most one byte past the longest line Hub allows: a longer line is
                    // passed on cut (and rejected as malformed), never buffered without end.
                    let limit = hub::MAX_LINE as u64 + 1;
                    match (&mut reader).take(limit).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    // `info` lines are scanned in place, without allocating.
                    if buf.starts_with(b"info ") {
                        if let Some(s) = info_score(&buf) {
                            score = Some(s);
                        }
                        continue;
                    }
                    let l =
                        String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                    if tx.send((l, score.take())).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| Failure::Crash(format!("cannot start a reader thread: {e}")))?;
        let stdin = child.stdin.take();
        let mut client = Client { child, stdin, lines };
        let deadline = Instant::now() + timeout;
        client.send("hub")?;
        client.wait_for("wait", deadline)?;
        client.send(&hub::format(
            "set-param",
            &[("name", "variant".into()), ("value", variant.into())],
        ))?;
        if optional_capture {
            client.send("set-param name=optional-capture value=true")?;
        }
        for (k, v) in &spec.options {
            client.send(&hub::format("set-param", &[("name", k.clone()), ("value", v.clone())]))?;
        }
        client.send("init")?;
        client.wait_for("ready", deadline)?;
        Ok(client)
    }

    /// Sends a line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.send_lines(&[line])
    }

    /// Sends lines in one write (the engine wakes once for them).
    fn send_lines(&mut self, lines: &[&str]) -> Result<(), Failure> {
        let stdin = self.stdin.as_mut().ok_or_else(|| Failure::Crash("input closed".into()))?;
        let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        stdin
            .write_all(text.as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|e| Failure::Crash(format!("write failed: {e}")))
    }

    fn recv(&mut self, deadline: Instant) -> Result<(String, Option<i32>), Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => {
                Err(Failure::Timeout(format!("{:.1} s", left.as_secs_f64())))
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .child
                    .try_wait()
                    .ok()
                    .flatten()
                    .map_or("output closed".into(), |s| s.to_string());
                Err(Failure::Crash(status))
            }
        }
    }

    fn wait_for(&mut self, word: &str, deadline: Instant) -> Result<(), Failure> {
        loop {
            let (l, _) = self.recv(deadline)?;
            if l.split_whitespace().next() == Some(word) {
                return Ok(());
            }
        }
    }

    /// Asks for a move: sends `pos`, `level` and `go think`, and reads to `done` by `deadline`.
    pub fn think(&mut self, pos: &str, level: &str, deadline: Instant) -> Result<Reply, Failure> {
        let started = Instant::now();
        self.send_lines(&[pos, level, "go think"])?;
        let mut score = None;
        loop {
            let (l, last_score) = self.recv(deadline)?;
            score = last_score.or(score);
            let parsed = match hub::parse(&l) {
                Ok(Some(p)) => p,
                Ok(None) => continue,
                Err(e) => return Err(Failure::Malformed(format!("{e}: {}", shorten(&l)))),
            };
            // Free text, errors and other lines are tolerated; `done` ends the search.
            if parsed.command == "done" {
                let elapsed = started.elapsed();
                return match parsed.get("move") {
                    Some(m) if !m.is_empty() => Ok(Reply { mv: m.to_string(), score, elapsed }),
                    _ => Err(Failure::Malformed(format!("done without a move: {}", shorten(&l)))),
                };
            }
        }
    }

    /// Tells the engine a new game starts.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.send("new-game")
    }

    /// Asks the engine to quit, and kills it if it does not within a second.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        drop(self.stdin.take());
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn shorten(s: &str) -> String {
    let t: String = s.chars().filter(|c| !c.is_control()).take(60).collect();
    if s.chars().count() > 60 { format!("{t}…") } else { t }
}

/// The `score` of an `info` line in centi-men (`score=0.35` → 35), read without a full parse;
/// none when the line has no readable score.
fn info_score(line: &[u8]) -> Option<i32> {
    let at = line.windows(7).position(|w| w == b" score=")? + 7;
    let rest = &line[at..];
    let end = rest.iter().position(|b| b.is_ascii_whitespace()).unwrap_or(rest.len());
    let value: f64 = std::str::from_utf8(&rest[..end]).ok()?.parse().ok()?;
    value.is_finite().then(|| (value * 100.0).round() as i32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn info_scores_are_read_in_place() {
        assert_eq!(super::info_score(b"info depth=3 score=0.35 nodes=10 pv=\"32-28\"\n"), Some(35));
        assert_eq!(super::info_score(b"info depth=3 score=-99.97\n"), Some(-9997));
        assert_eq!(super::info_score(b"info depth=3 nodes=10\n"), None);
        assert_eq!(super::info_score(b"info score=x\n"), None);
        assert_eq!(super::info_score(b"info score=inf\n"), None);
    }

    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(split_command("kondavo hub").unwrap(), vec!["kondavo", "hub"]);
        assert_eq!(
            split_command("'my engine' --opt \"a b\" ''").unwrap(),
            vec!["my engine", "--opt", "a b", ""]
        );
        assert!(split_command("  ").is_err());
        assert!(split_command("a \"b").is_err());
    }
}
