//! The Hub session: reads lines, keeps the engine's parameters and the game, runs searches
//! on a thread of their own, and prints every reply. This is the only code that writes to
//! standard output; every line is flushed.
//!
//! Searches report through a channel that also carries the input lines, so replies keep
//! their order: every `info` of a search comes before its one `done`.

use super::hub::{self, Line};
use crate::book;
use crate::engine::{
    Done, Engine, GameSpec, MAX_EGDB_CACHE_MIB, MAX_HASH_MIB, MoveText, Options, Report,
};
use crate::level;
use crate::notation::{self, MoveNumbering};
use crate::search::{Control, Limits, Mode};
use crate::variant::{Base, Variant};
use crate::with_rules;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// The engine's name and version as `hub` reports them.
pub const NAME: &str = "kondavo";
/// Version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Numbering of moves exchanged with the client.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Numbering {
    /// Internal, until a `moves=` list shows the client uses the rule set's own numbering.
    Auto,
    Fixed(MoveNumbering),
}

/// What reaches the session loop.
enum Msg {
    Line(String),
    Eof,
    Report(Report),
    Done(Done),
}

/// Parameters as the client set them.
#[derive(Clone, Debug)]
struct Params {
    base: Base,
    optional_capture: bool,
    threads: usize,
    hash_mib: usize,
    ponder: bool,
    multipv: usize,
    numbering: Numbering,
    fmjd_draws: bool,
    eval_file: Option<String>,
    wdl: bool,
    egdb_path: Option<String>,
    egdb_pieces: u32,
    egdb_build: bool,
    egdb_cache: usize,
    level: u8,
    /// A rating asked for: it picks the level on the rule set's ladder.
    elo: Option<i32>,
    seed: u64,
    book: bool,
    /// `None`: the rule set's default.
    book_margin: Option<i32>,
    book_file: Option<String>,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            base: Base::International,
            optional_capture: false,
            threads: 1,
            hash_mib: 64,
            ponder: false,
            multipv: 1,
            numbering: Numbering::Auto,
            fmjd_draws: false,
            eval_file: None,
            wdl: false,
            egdb_path: None,
            egdb_pieces: 8,
            egdb_build: true,
            egdb_cache: crate::egdb::DEFAULT_CACHE_MIB,
            level: level::FULL,
            elo: None,
            seed: 0,
            book: true,
            book_margin: None,
            book_file: None,
        }
    }
}

impl Params {
    fn variant(&self) -> Variant {
        Variant::with_optional_capture(self.base, self.optional_capture)
            .unwrap_or(Variant::new(self.base))
    }

    fn options(&self) -> Options {
        Options {
            variant: self.variant(),
            threads: self.threads,
            hash_mib: self.hash_mib,
            multipv: self.multipv,
            fmjd_draws: self.fmjd_draws,
            eval_file: self.eval_file.clone(),
            egdb_dir: self.egdb_path.clone(),
            egdb_pieces: self.egdb_pieces,
            egdb_build: self.egdb_build,
            egdb_cache_mib: self.egdb_cache,
            level: self.level(),
            seed: self.seed,
            book: self.book,
            book_margin: self.book_margin,
            book_file: self.book_file.clone(),
        }
    }

    /// The level in force: the one the rating picks when one was asked for.
    fn level(&self) -> u8 {
        match self.elo.map(|e| level::level_for_elo(self.base, e)) {
            Some(Ok((level, _))) => level,
            _ => self.level,
        }
    }

    fn numbering(&self) -> MoveNumbering {
        match self.numbering {
            Numbering::Auto => MoveNumbering::Internal,
            Numbering::Fixed(n) => n,
        }
    }
}

/// A search running on its own thread.
struct Running {
    control: Arc<Control>,
    thread: JoinHandle<Engine>,
    /// Lines reported per iteration (multi-PV analysis), 1 otherwise.
    lines: usize,
}

/// The Hub session.
pub struct Session<W: Write> {
    out: W,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    engine: Option<Engine>,
    params: Params,
    game: GameSpec,
    limits: Limits,
    running: Option<Running>,
    pending: VecDeque<String>,
    quit: bool,
}

/// Runs a Hub session on `input` and `output` until `quit` or the end of the input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write) {
    let mut session = Session::new(output);
    let tx = session.tx.clone();
    std::thread::Builder::new()
        .name("kondavo-input".into())
        .spawn(move || read_lines(input, tx))
        .map(|_| ())
        .unwrap_or_else(|e| log::error!("cannot start the input thread: {e}"));
    session.serve();
}

/// Reads lines (bytes up to `\n`, invalid UTF-8 replaced), refusing endless ones.
fn read_lines(mut input: impl BufRead, tx: Sender<Msg>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let mut too_long = false;
        loop {
            let chunk = match input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if chunk.is_empty() {
                break;
            }
            let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if buf.len() < hub::MAX_LINE + 2 {
                buf.extend_from_slice(&chunk[..take]);
            } else {
                too_long = true;
            }
            input.consume(take);
            if end {
                break;
            }
        }
        if buf.is_empty() && !too_long {
            let _ = tx.send(Msg::Eof);
            return;
        }
        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
        let line = if too_long { "x".repeat(hub::MAX_LINE + 1) } else { line };
        if tx.send(Msg::Line(line)).is_err() {
            return;
        }
    }
}

fn bad_number(what: &str, value: &str) -> String {
    let shown: String = value.chars().filter(|c| !c.is_control()).take(24).collect();
    format!("bad {what} \"{shown}\"")
}

/// Seconds as a duration; negative and tiny values clamp to zero.
fn seconds(value: &str) -> Option<Duration> {
    let s: f64 = value.trim().parse().ok()?;
    if !s.is_finite() {
        return None;
    }
    Some(Duration::from_secs_f64(s.clamp(0.0, 1e9)))
}

fn parse_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

impl<W: Write> Session<W> {
    /// A session writing to `out`.
    pub fn new(out: W) -> Session<W> {
        let (tx, rx) = channel();
        let params = Params::default();
        Session {
            out,
            tx,
            rx,
            engine: Some(Engine::new(params.options())),
            params,
            game: GameSpec::start(),
            limits: Limits::default(),
            running: None,
            pending: VecDeque::new(),
            quit: false,
        }
    }

    fn send(&mut self, line: &str) {
        // A closed output means the client is gone: nothing more to say.
        if writeln!(self.out, "{line}").and_then(|_| self.out.flush()).is_err() {
            self.quit = true;
        }
    }

    fn error(&mut self, message: &str) {
        let line = hub::format("error", &[("message", message.to_string())]);
        self.send(&line);
    }

    fn serve(&mut self) {
        while !self.quit {
            let msg = match self.pending.pop_front() {
                Some(line) => Msg::Line(line),
                None => match self.rx.recv() {
                    Ok(m) => m,
                    Err(_) => Msg::Eof,
                },
            };
            match msg {
                Msg::Line(line) => self.on_line(&line),
                Msg::Eof => {
                    self.finish_search(true);
                    self.quit = true;
                }
                Msg::Report(r) => self.on_report(&r),
                Msg::Done(d) => self.on_done(d),
            }
        }
        self.finish_search(true);
    }

    fn on_line(&mut self, text: &str) {
        let line = match hub::parse(text) {
            Ok(Some(l)) => l,
            Ok(None) => return,
            Err(e) => {
                if self.running.is_some() {
                    self.finish_search(true);
                }
                return self.error(&e.0);
            }
        };
        if let Some(running) = &self.running {
            match line.command.as_str() {
                "ping" => return self.send("pong"),
                "stop" => return running.control.stop(),
                "ponder-hit" => return running.control.ponder_hit(),
                // Any other line ends the search: `done` first, then the line is obeyed.
                _ => self.finish_search(true),
            }
        }
        self.command(&line);
    }

    fn command(&mut self, line: &Line) {
        match line.command.as_str() {
            "hub" => self.hub(),
            "init" => self.send("ready"),
            "ping" => self.send("pong"),
            "set-param" => self.set_param(line),
            "new-game" => {
                if let Some(e) = &self.engine {
                    e.new_game();
                }
            }
            "pos" => self.pos(line),
            "level" => self.level(line),
            "go" => self.go(line),
            "stop" | "ponder-hit" => {} // idle: nothing to stop
            "quit" => self.quit = true,
            other => {
                let shown: String = other.chars().filter(|c| !c.is_control()).take(24).collect();
                self.error(&format!("unknown command \"{shown}\""));
            }
        }
    }

    fn hub(&mut self) {
        let ids: String = Base::ALL.iter().map(|b| b.id()).collect::<Vec<_>>().join(" ");
        let p = self.params.clone();
        let lines = [
            hub::format(
                "id",
                &[
                    ("name", NAME.into()),
                    ("version", VERSION.into()),
                    ("author", "the kondavo developers".into()),
                ],
            ),
            hub::format(
                "param",
                &[
                    ("name", "variant".into()),
                    ("value", p.base.id().into()),
                    ("type", "enum".into()),
                    ("values", ids),
                ],
            ),
            hub::format(
                "param",
                &[
                    ("name", "optional-capture".into()),
                    ("value", p.optional_capture.to_string()),
                    ("type", "bool".into()),
                ],
            ),
            int_param("threads", p.threads, 1, 256),
            int_param("hash", p.hash_mib, 1, MAX_HASH_MIB),
            int_param("tt-size", tt_size_of(p.hash_mib), 16, 32),
            hub::format(
                "param",
                &[
                    ("name", "ponder".into()),
                    ("value", p.ponder.to_string()),
                    ("type", "bool".into()),
                ],
            ),
            int_param("multipv", p.multipv, 1, 64),
            hub::format(
                "param",
                &[
                    ("name", "move-numbering".into()),
                    (
                        "value",
                        match p.numbering {
                            Numbering::Auto => "auto",
                            Numbering::Fixed(MoveNumbering::Internal) => "internal",
                            Numbering::Fixed(MoveNumbering::Variant) => "variant",
                        }
                        .into(),
                    ),
                    ("type", "enum".into()),
                    ("values", "auto internal variant".into()),
                ],
            ),
            hub::format(
                "param",
                &[
                    ("name", "fmjd-draws".into()),
                    ("value", p.fmjd_draws.to_string()),
                    ("type", "bool".into()),
                ],
            ),
            hub::format(
                "param",
                &[
                    ("name", "eval-file".into()),
                    ("value", p.eval_file.clone().unwrap_or_else(|| "default".into())),
                    ("type", "string".into()),
                ],
            ),
            hub::format(
                "param",
                &[("name", "wdl".into()), ("value", p.wdl.to_string()), ("type", "bool".into())],
            ),
            hub::format(
                "param",
                &[
                    ("name", "egdb-path".into()),
                    ("value", p.egdb_path.clone().unwrap_or_else(|| "default".into())),
                    ("type", "string".into()),
                ],
            ),
            int_param("egdb-pieces", p.egdb_pieces as usize, 0, 8),
            hub::format(
                "param",
                &[
                    ("name", "egdb-build".into()),
                    ("value", p.egdb_build.to_string()),
                    ("type", "bool".into()),
                ],
            ),
            int_param("egdb-cache", p.egdb_cache, 1, MAX_EGDB_CACHE_MIB),
            int_param("level", usize::from(p.level()), 1, usize::from(level::FULL)),
            match level::ladder(p.base) {
                Some(ladder) => hub::format(
                    "param",
                    &[
                        ("name", "elo".into()),
                        (
                            "value",
                            p.elo.unwrap_or(ladder.elo[usize::from(p.level()) - 1]).to_string(),
                        ),
                        ("type", "int".into()),
                        ("min", ladder.elo[0].to_string()),
                        ("max", ladder.elo[19].to_string()),
                    ],
                ),
                None => hub::format(
                    "param",
                    &[("name", "elo".into()), ("value", "none".into()), ("type", "string".into())],
                ),
            },
            int_param("seed", p.seed as usize, 0, u32::MAX as usize),
            hub::format(
                "param",
                &[("name", "book".into()), ("value", p.book.to_string()), ("type", "bool".into())],
            ),
            int_param(
                "book-margin",
                p.book_margin.unwrap_or_else(|| book::default_margin(p.base)) as usize,
                0,
                book::MAX_MARGIN as usize,
            ),
            hub::format(
                "param",
                &[
                    ("name", "book-file".into()),
                    ("value", p.book_file.clone().unwrap_or_else(|| "default".into())),
                    ("type", "string".into()),
                ],
            ),
        ];
        for l in lines {
            self.send(&l);
        }
        self.send("wait");
    }

    fn set_param(&mut self, line: &Line) {
        let (Some(name), Some(value)) = (line.get("name"), line.get("value")) else {
            return self.error("set-param needs name=... and value=...");
        };
        let mut p = self.params.clone();
        let result: Result<(), String> = match name {
            "variant" => match value.parse::<Variant>() {
                Ok(v) => {
                    p.base = v.base;
                    if v.optional_capture {
                        p.optional_capture = true;
                    }
                    if p.base.is_10x10() {
                        p.optional_capture = false;
                    }
                    Ok(())
                }
                Err(e) => Err(e.0),
            },
            "optional-capture" => match parse_bool(value) {
                Some(true) if p.base.is_10x10() => {
                    Err("optional capture exists only for 8x8 rule sets".into())
                }
                Some(b) => {
                    p.optional_capture = b;
                    Ok(())
                }
                None => Err(bad_number("boolean", value)),
            },
            "threads" => int_in(value, 1, 256).map(|n| p.threads = n),
            "hash" => int_in(value, 1, MAX_HASH_MIB).map(|n| p.hash_mib = n),
            "tt-size" => int_in(value, 16, 32).map(|n| p.hash_mib = ((1usize << n) * 16) >> 20),
            "ponder" => parse_bool(value).map(|b| p.ponder = b).ok_or(bad_number("boolean", value)),
            "multipv" => int_in(value, 1, 64).map(|n| p.multipv = n),
            "move-numbering" => {
                let n = match value {
                    "auto" => Some(Numbering::Auto),
                    "internal" => Some(Numbering::Fixed(MoveNumbering::Internal)),
                    "variant" => Some(Numbering::Fixed(MoveNumbering::Variant)),
                    _ => None,
                };
                n.map(|n| p.numbering = n)
                    .ok_or(format!("bad move-numbering \"{value}\" (auto, internal or variant)"))
            }
            "fmjd-draws" => {
                parse_bool(value).map(|b| p.fmjd_draws = b).ok_or(bad_number("boolean", value))
            }
            "wdl" => parse_bool(value).map(|b| p.wdl = b).ok_or(bad_number("boolean", value)),
            "eval-file" => {
                let v = value.trim();
                p.eval_file =
                    (!v.is_empty() && v != "default" && v != "<empty>").then(|| v.to_string());
                Ok(())
            }
            "egdb-path" => {
                let v = value.trim();
                p.egdb_path =
                    (!v.is_empty() && v != "default" && v != "<empty>").then(|| v.to_string());
                Ok(())
            }
            "egdb-pieces" => int_in(value, 0, 8).map(|n| p.egdb_pieces = n as u32),
            "egdb-build" => {
                parse_bool(value).map(|b| p.egdb_build = b).ok_or(bad_number("boolean", value))
            }
            "egdb-cache" => int_in(value, 1, MAX_EGDB_CACHE_MIB).map(|n| p.egdb_cache = n),
            "level" => int_in(value, 1, usize::from(level::FULL)).map(|n| {
                p.level = n as u8;
                p.elo = None;
            }),
            "elo" => match value.trim().parse::<i32>() {
                Ok(e) => level::level_for_elo(p.base, e).map(|(_, clamped)| {
                    if let Some(m) = clamped {
                        self.error(&format!("elo: {m}"));
                    }
                    p.elo = Some(e);
                }),
                Err(_) => Err(bad_number("elo", value)),
            },
            "seed" => int_in(value, 0, u32::MAX as usize).map(|n| p.seed = n as u64),
            "book" => parse_bool(value).map(|b| p.book = b).ok_or(bad_number("boolean", value)),
            "book-margin" => {
                int_in(value, 0, book::MAX_MARGIN as usize).map(|n| p.book_margin = Some(n as i32))
            }
            "book-file" => {
                let v = value.trim();
                p.book_file =
                    (!v.is_empty() && v != "default" && v != "<empty>").then(|| v.to_string());
                Ok(())
            }
            _ => return, // unknown names are accepted silently (lidraughts sends initial-time)
        };
        if let Err(e) = result {
            return self.error(&format!("{name}: {e}"));
        }
        // Another rule set's weights file does not follow the variant: back to the built-in
        // weights of the new rule set.
        if name == "variant" && p.base != self.params.base && p.eval_file.is_some() {
            log::info!("variant changed: the weights file is dropped for the built-in weights");
            p.eval_file = None;
        }
        if name == "variant" && p.variant() != self.params.variant() && p.book_file.is_some() {
            log::info!("variant changed: the book file is dropped for the built-in book");
            p.book_file = None;
        }
        if let Some(engine) = &mut self.engine
            && let Err(e) = engine.set_options(p.options())
        {
            return self.error(&format!("{name}: {e}"));
        }
        if p.variant() != self.params.variant() {
            self.game = GameSpec::start();
        }
        self.params = p;
    }

    /// The client's moves rewritten in the internal Hub numbering.
    fn internal_moves(&self, moves: &[String], from: MoveNumbering) -> Result<Vec<String>, String> {
        with_rules!(self.params.variant(), R => {
            moves
                .iter()
                .map(|m| notation::renumber_hub_move::<R>(m, from, MoveNumbering::Internal).map_err(|e| e.0))
                .collect()
        })
    }

    fn pos(&mut self, line: &Line) {
        self.limits = Limits::default();
        let start = match line.get("pos") {
            Some(p) => p.to_string(),
            None => "start".to_string(),
        };
        let moves: Vec<String> =
            line.get("moves").unwrap_or("").split_whitespace().map(str::to_string).collect();
        let Some(engine) = &self.engine else { return };
        let try_numbering = |n: MoveNumbering| -> Result<GameSpec, String> {
            let internal = self.internal_moves(&moves, n)?;
            let spec = GameSpec { start: start.clone(), moves: internal };
            engine.validate(&spec).map(|_| spec).map_err(|e| e.0)
        };
        // The position alone first: a bad position string is its own error.
        if let Err(e) = engine.validate(&GameSpec { start: start.clone(), moves: Vec::new() }) {
            log::debug!("refused position: {e}");
            return self.error("bad position");
        }
        match try_numbering(self.params.numbering()) {
            Ok(spec) => self.game = spec,
            Err(e) => {
                let other = match self.params.numbering() {
                    MoveNumbering::Internal => MoveNumbering::Variant,
                    MoveNumbering::Variant => MoveNumbering::Internal,
                };
                // Auto: a list illegal in the internal numbering but legal in the rule set's
                // own (pydraughts 0.6) switches the session to that numbering.
                let detected = (self.params.numbering == Numbering::Auto && !moves.is_empty())
                    .then(|| try_numbering(other).ok())
                    .flatten();
                match detected {
                    Some(spec) => {
                        log::info!(
                            "kondavo: moves use the rule set's own square numbering; switching"
                        );
                        self.params.numbering = Numbering::Fixed(other);
                        self.game = spec;
                    }
                    None => {
                        log::debug!("refused moves: {e}");
                        self.error("illegal move");
                    }
                }
            }
        }
    }

    fn level(&mut self, line: &Line) {
        let mut errors = Vec::new();
        for arg in &line.args {
            let value = arg.value.as_deref().unwrap_or("");
            match (arg.key.as_str(), &arg.value) {
                ("infinite", _) => self.limits.infinite = true,
                ("depth", Some(_)) => match value.parse::<u32>() {
                    Ok(d) => self.limits.depth = Some(d.clamp(1, 100)),
                    Err(_) => errors.push(bad_number("depth", value)),
                },
                ("nodes", Some(_)) => match value.parse::<u64>() {
                    Ok(n) => self.limits.nodes = Some(n.max(1)),
                    Err(_) => errors.push(bad_number("nodes", value)),
                },
                ("move-time", Some(_)) => match seconds(value) {
                    Some(t) => self.limits.movetime = Some(t),
                    None => errors.push(bad_number("move-time", value)),
                },
                ("time", Some(_)) => match seconds(value) {
                    Some(t) => self.limits.time = Some(t),
                    None => errors.push(bad_number("time", value)),
                },
                ("inc", Some(_)) => match seconds(value) {
                    Some(t) => self.limits.inc = t,
                    None => errors.push(bad_number("inc", value)),
                },
                ("moves", Some(_)) => match value.parse::<i64>() {
                    Ok(m) if m > 0 => self.limits.moves_to_go = Some(m.min(1000) as u32),
                    Ok(_) => self.limits.moves_to_go = None,
                    Err(_) => errors.push(bad_number("moves", value)),
                },
                _ => {} // unknown arguments (lidraughts sends handicap, ply) are ignored
            }
        }
        for e in errors {
            self.error(&format!("level: {e}"));
        }
    }

    fn go(&mut self, line: &Line) {
        let kind = line.args.first().map(|a| a.key.as_str()).unwrap_or("think");
        let (mode, pondering) = match kind {
            "think" => (Mode::Think, false),
            "ponder" => (Mode::Think, true),
            "analyze" | "analyse" => (Mode::Analyze, false),
            other => {
                let shown: String = other.chars().filter(|c| !c.is_control()).take(24).collect();
                return self
                    .error(&format!("go: unknown mode \"{shown}\" (think, ponder or analyze)"));
            }
        };
        let Some(mut engine) = self.engine.take() else { return };
        let mut limits = std::mem::take(&mut self.limits);
        let unlimited = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.time.is_none();
        if mode == Mode::Analyze && unlimited {
            limits.infinite = true;
        }
        let mut options = self.params.options();
        if mode == Mode::Think {
            options.multipv = 1;
        }
        let lines = options.multipv;
        if let Err(e) = engine.set_options(options) {
            // Only the hash size could fail, and it was set (and allocated) before.
            log::warn!("search options: {e}");
        }
        let control = Arc::new(Control::new());
        control.set_pondering(pondering);
        control.restart_clock();
        let spec = self.game.clone();
        let tx = self.tx.clone();
        let ctl = Arc::clone(&control);
        let thread = std::thread::Builder::new()
            .name("kondavo-search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let report_tx = tx.clone();
                let result = engine.search(&spec, &limits, mode, &ctl, &mut |r| {
                    let _ = report_tx.send(Msg::Report(r));
                });
                let done = result.unwrap_or_else(|e| {
                    log::error!("search failed: {e}");
                    Done {
                        best: None,
                        ponder: None,
                        score: Default::default(),
                        depth: 0,
                        nodes: 0,
                        pv: vec![],
                        wdl: Default::default(),
                    }
                });
                let _ = tx.send(Msg::Done(done));
                engine
            });
        match thread {
            Ok(thread) => self.running = Some(Running { control, thread, lines }),
            Err(e) => {
                self.error(&format!("cannot start the search: {e}"));
                self.engine = Some(Engine::new(self.params.options()));
                self.send("done move=\"\"");
            }
        }
    }

    /// A move as the client numbers it.
    fn client_move(&self, m: &MoveText) -> String {
        let numbering = self.params.numbering();
        with_rules!(self.params.variant(), R => {
            notation::renumber_hub_move::<R>(&m.hub, MoveNumbering::Internal, numbering)
                .unwrap_or_else(|_| m.hub.clone())
        })
    }

    fn on_report(&mut self, r: &Report) {
        let Some(lines) = self.running.as_ref().map(|r| r.lines) else { return };
        let pv: Vec<String> = r.pv.iter().map(|m| self.client_move(m)).collect();
        let mut args: Vec<(&str, String)> = vec![
            ("depth", r.depth.to_string()),
            ("seldepth", r.seldepth.to_string()),
            ("score", r.score.to_hub()),
            ("nodes", r.nodes.to_string()),
            ("time", format!("{:.3}", r.time.as_secs_f64())),
            ("nps", format!("{:.2}", r.nps as f64 / 1e6)),
            ("hashfull", r.hashfull.to_string()),
        ];
        if lines > 1 {
            args.push(("multipv", r.multipv.to_string()));
        }
        if self.params.wdl {
            args.push(("wdl", r.wdl.to_string()));
        }
        let mut line = hub::format("info", &args);
        line.push(' ');
        line.push_str(&hub::quoted("pv", &pv.join(" ")));
        self.send(&line);
    }

    fn on_done(&mut self, d: Done) {
        let Some(running) = self.running.take() else { return };
        match running.thread.join() {
            Ok(engine) => self.engine = Some(engine),
            Err(_) => {
                log::error!("the search thread failed; starting a fresh engine");
                self.engine = Some(Engine::new(self.params.options()));
            }
        }
        let mut line = match &d.best {
            Some(m) => format!("done move={}", self.client_move(m)),
            None => "done move=\"\"".to_string(),
        };
        if let Some(p) = &d.ponder {
            line.push_str(&format!(" ponder={}", self.client_move(p)));
        }
        self.send(&line);
    }

    /// Stops a running search (if `stop`) and handles its messages until its `done`; input
    /// lines that arrive meanwhile wait their turn.
    fn finish_search(&mut self, stop: bool) {
        if stop && let Some(r) = &self.running {
            r.control.stop();
        }
        while self.running.is_some() {
            match self.rx.recv() {
                Ok(Msg::Report(r)) => self.on_report(&r),
                Ok(Msg::Done(d)) => self.on_done(d),
                Ok(Msg::Line(l)) => self.pending.push_back(l),
                Ok(Msg::Eof) => {
                    self.pending.push_back("quit".into());
                }
                Err(_) => break,
            }
        }
    }
}

fn int_in(value: &str, min: usize, max: usize) -> Result<usize, String> {
    match value.trim().parse::<i64>() {
        Ok(n) if n >= min as i64 && n <= max as i64 => Ok(n as usize),
        Ok(n) => Err(format!("{n} is out of range {min}..{max}")),
        Err(_) => Err(bad_number("number", value)),
    }
}

fn int_param(name: &str, value: usize, min: usize, max: usize) -> String {
    hub::format(
        "param",
        &[
            ("name", name.into()),
            ("value", value.to_string()),
            ("type", "int".into()),
            ("min", min.to_string()),
            ("max", max.to_string()),
        ],
    )
}

/// Scan's `tt-size`: log2 of the number of 16-byte entries.
fn tt_size_of(mib: usize) -> usize {
    let entries = (mib << 20) / 16;
    (usize::BITS - 1 - entries.max(1).leading_zeros()) as usize
}
