//! The DXP game logic on one connection: the follower (answers GAMEREQ, plays, waits for the
//! next game) and the initiator (starts the games of a match and records them), both built
//! on one game loop.
//!
//! The loop is generic over the rule set. On kondavo's turn the search runs on a scoped
//! thread while the loop keeps reading the connection: a CHAT is logged, anything else stops
//! the search and is handled (a GAMEEND, a BACKREQ, a protocol error, a lost connection).
//!
//! Invariants: kondavo sends a GAMEEND only on its own turn (or to confirm one), except when
//! the peer sends something that is not a legal MOVE while it is the peer's turn: the peer then
//! believes it has moved, so kondavo ends the game at once rather than wait forever. A game
//! over on the peer's turn is left to the peer for [`PEER_GRACE`], then kondavo ends it.

use super::codec::{Acceptance, BackAnswer, EndReason, GameReq, Message, MoveMsg, Setup, VERSION};
use super::link::{Event, Link};
use super::{Config, say};
use crate::color::Color;
use crate::engine::{Engine, GameSpec, Options};
use crate::error::{Error, Result};
use crate::eval::Eval;
use crate::game::{DrawRules, Game, Outcome};
use crate::geometry::Geometry;
use crate::moves::Move;
use crate::notation;
use crate::pdn::{self, GameResult};
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Control, Limits, Mode};
use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long the initiator waits for a GAMEACC.
pub const ACCEPT_WAIT: Duration = Duration::from_secs(30);
/// How long kondavo waits for the confirmation of its GAMEEND.
pub const CONFIRM_WAIT: Duration = Duration::from_secs(10);
/// How long a game over on the peer's turn is left to the peer to end.
pub const PEER_GRACE: Duration = Duration::from_secs(10);

/// The DXP colour of `c`: `W` is the side that moves first (as in Hub position strings), so
/// in english DXP `W` is English Black.
fn to_dxp<R: Rules>(c: Color) -> Color {
    if c == R::FIRST { Color::White } else { Color::Black }
}

/// The colour of DXP colour `c`.
fn from_dxp<R: Rules>(c: Color) -> Color {
    if c == Color::White { R::FIRST } else { !R::FIRST }
}

/// The GAMEREQ position field of `pos`: its colour to move and one character per field.
pub fn position_field<R: Rules>(pos: &Position<R>) -> (Color, String) {
    let hub = notation::to_hub_position(pos);
    let squares = hub
        .chars()
        .skip(1)
        .map(|c| match c {
            'b' => 'z',
            'B' => 'Z',
            other => other,
        })
        .collect();
    (to_dxp::<R>(pos.side()), squares)
}

/// The position of a GAMEREQ position field.
pub fn parse_position_field<R: Rules>(to_move: Color, squares: &str) -> Result<Position<R>> {
    let want = <R::Geo as Geometry>::SQUARES;
    if squares.chars().count() != want {
        return Err(Error(format!(
            "the position has {} fields, but {} has {want}",
            squares.chars().count(),
            R::variant()
        )));
    }
    // DXP colours are Hub colours: only the letters of black differ.
    let side = if to_move == Color::White { 'W' } else { 'B' };
    let hub: String = std::iter::once(side)
        .chain(squares.chars().map(|c| match c {
            'z' => 'b',
            'Z' => 'B',
            other => other,
        }))
        .collect();
    notation::parse_hub_position::<R>(&hub)
}

/// `mv` as a DXP MOVE taking `seconds`.
pub fn move_message<R: Rules>(mv: Move, seconds: u32) -> MoveMsg {
    let field = |bit: u32| notation::hub_square::<R>(bit) as u8;
    let mut captured: Vec<u8> = mv.captured().map(field).collect();
    captured.sort_unstable();
    MoveMsg { seconds, from: field(mv.from()), to: field(mv.to()), captured }
}

/// The legal move of `pos` that a MOVE message names.
pub fn resolve_move<R: Rules>(pos: &Position<R>, m: &MoveMsg) -> Result<Move> {
    let mut text = format!("{}x{}", m.from, m.to);
    for c in &m.captured {
        text.push_str(&format!("x{c}"));
    }
    notation::parse_hub_move(pos, &text)
}

/// Our clock: the whole game's time, what we used of it, and when our turn began.
#[derive(Clone, Debug)]
struct Clock {
    budget: Duration,
    used: Duration,
    /// Moves for the whole game (0: no limit).
    moves: u32,
    turn_start: Instant,
}

impl Clock {
    fn limits(&self, our_moves: u32) -> Limits {
        let left = self.budget.saturating_sub(self.used + self.turn_start.elapsed());
        let moves_to_go = (self.moves > our_moves).then(|| self.moves - our_moves);
        Limits { time: Some(left), moves_to_go, ..Limits::default() }
    }
}

/// A game in progress.
struct Play<R: Rules> {
    game: Game<R>,
    /// The start position as the engine reads it (`start` or a FEN).
    start_text: String,
    /// The moves played, in native notation (for the PDN).
    native: Vec<String>,
    /// The colour kondavo plays.
    ours: Color,
    clock: Clock,
}

impl<R: Rules> Play<R> {
    fn new(start: Position<R>, ours: Color, budget: Duration, moves: u32) -> Play<R> {
        let start_text = if start == Position::<R>::start() {
            "start".to_string()
        } else {
            notation::to_fen(&start)
        };
        Play {
            game: Game::new(start, DrawRules::of(R::variant(), false)),
            start_text,
            native: Vec::new(),
            ours,
            clock: Clock { budget, used: Duration::ZERO, moves, turn_start: Instant::now() },
        }
    }

    fn our_turn(&self) -> bool {
        self.game.position().side() == self.ours
    }

    fn push(&mut self, mv: Move) -> Result<()> {
        let text = notation::move_to_native(self.game.position(), mv);
        self.game.play(mv)?;
        self.native.push(text);
        Ok(())
    }

    /// The side to move after `ply` plies, in DXP colours, and its move number (the first
    /// move of the game is 1; when `Z` starts, `W`'s first move is number 2).
    fn numbered(&self, ply: usize) -> (u32, Color) {
        let first = to_dxp::<R>(self.game.start().side());
        let side = if ply.is_multiple_of(2) { first } else { !first };
        let number = if first == Color::White { ply / 2 + 1 } else { ply.div_ceil(2) + 1 };
        (number as u32, side)
    }

    /// The game as the engine reads it: the start and every move in Hub notation (every
    /// captured square), which names exactly one legal move in every rule set.
    fn spec(&self) -> GameSpec {
        GameSpec {
            start: self.start_text.clone(),
            moves: self.game.moves().iter().map(|&mv| notation::move_to_hub::<R>(mv)).collect(),
        }
    }

    fn our_moves(&self) -> u32 {
        let first_is_ours = self.game.start().side() == self.ours;
        let n = self.game.moves().len() as u32;
        if first_is_ours { n.div_ceil(2) } else { n / 2 }
    }
}

/// How a game ended.
struct Ended {
    result: GameResult,
    why: String,
    /// The peer wants no further game.
    peer_stop: bool,
    /// The connection is gone.
    lost: bool,
    /// An event that belongs after the game (a GAMEREQ that replaced it).
    next: Option<Event>,
}

impl Ended {
    fn lost(why: String) -> Ended {
        Ended { result: GameResult::Unknown, why, peer_stop: true, lost: true, next: None }
    }
}

/// What came of kondavo's turn.
enum Thought {
    Move(Move),
    Interrupted(Event),
    Failed(String),
}

/// One connection's games.
pub struct Table<'a> {
    link: &'a mut Link,
    config: &'a Config,
    /// The peer's name, from its GAMEREQ or GAMEACC.
    peer_name: String,
}

/// Games recorded by this process (all connections): the number of the next one.
static GAMES: AtomicU32 = AtomicU32::new(1);

impl<'a> Table<'a> {
    /// A table on `link`.
    pub fn new(link: &'a mut Link, config: &'a Config) -> Table<'a> {
        Table { link, config, peer_name: "?".into() }
    }

    fn options(&self) -> Options {
        Options {
            variant: self.config.variant,
            threads: self.config.threads,
            hash_mib: self.config.hash_mib,
            book: self.config.book,
            ..Options::default()
        }
    }

    fn chat(&self, text: &str) {
        log::info!("dxp {}: chat from {}: {text}", self.link.peer, self.peer_name);
        say(&format!("chat {}: {text}", self.peer_name));
    }

    fn send(&mut self, m: &Message) -> std::result::Result<(), String> {
        self.link.send(m)
    }

    /// Follows: answers game requests and plays until the peer closes the connection (or,
    /// with `leave_on_stop`, until it asks for no further game).
    pub fn follow<R: Eval>(&mut self, leave_on_stop: bool) {
        let mut next: Option<Event> = None;
        loop {
            let event = match next.take() {
                Some(e) => e,
                None => match self.link.next(None) {
                    Some(e) => e,
                    None => continue,
                },
            };
            match event {
                Event::Closed(why) => {
                    log::info!("dxp {}: {why}", self.link.peer);
                    return;
                }
                Event::Message(Message::GameReq(req)) => {
                    self.peer_name = req.name.clone();
                    let mut play = match self.accept::<R>(&req) {
                        Ok(p) => p,
                        Err((code, why)) => {
                            log::warn!(
                                "dxp {}: game request from {} refused: {why}",
                                self.link.peer,
                                self.peer_name
                            );
                            let answer = Message::GameAcc { name: self.config.name.clone(), code };
                            if self.send(&answer).is_err() {
                                return;
                            }
                            continue;
                        }
                    };
                    let accept = Message::GameAcc {
                        name: self.config.name.clone(),
                        code: Acceptance::Accepted,
                    };
                    if let Err(e) = self.send(&accept) {
                        log::warn!("dxp: {e}");
                        return;
                    }
                    let engine = Engine::new(self.options());
                    let ended = self.play(&engine, &mut play, false);
                    self.record(&play, &ended);
                    if ended.lost {
                        return;
                    }
                    next = ended.next;
                    if ended.peer_stop && leave_on_stop && next.is_none() {
                        log::info!("dxp {}: the peer wants no further game", self.link.peer);
                        return;
                    }
                }
                Event::Bad { raw, reason, gamereq_version: Some(version) } => {
                    let code = if version == VERSION {
                        Acceptance::NotThisGame
                    } else {
                        Acceptance::WrongVersion
                    };
                    log::warn!(
                        "dxp {}: game request refused: {reason} (\"{raw}\")",
                        self.link.peer
                    );
                    let answer = Message::GameAcc { name: self.config.name.clone(), code };
                    if self.send(&answer).is_err() {
                        return;
                    }
                }
                Event::Bad { raw, reason, .. } => {
                    log::warn!(
                        "dxp {}: not a DXP message, ignored between games: {reason} (\"{raw}\")",
                        self.link.peer
                    );
                }
                Event::Message(Message::Chat(text)) => self.chat(&text),
                Event::Message(Message::GameEnd { stop, .. }) => {
                    log::info!("dxp {}: GAMEEND between games, ignored", self.link.peer);
                    if stop && leave_on_stop {
                        return;
                    }
                }
                Event::Message(Message::BackReq { .. }) => {
                    log::info!("dxp {}: BACKREQ between games: not possible", self.link.peer);
                    if self.send(&Message::BackAcc(BackAnswer::NotSupported)).is_err() {
                        return;
                    }
                }
                Event::Message(m) => {
                    log::warn!("dxp {}: {} between games, ignored", self.link.peer, m.kind());
                }
                Event::Searched(_) => {}
            }
        }
    }

    /// The game a request asks for, or the GAMEACC code that refuses it and why.
    fn accept<R: Eval>(&self, req: &GameReq) -> std::result::Result<Play<R>, (Acceptance, String)> {
        let start = match &req.setup {
            Setup::Start => Position::<R>::start(),
            Setup::Position { to_move, squares } => parse_position_field::<R>(*to_move, squares)
                .map_err(|e| {
                    (Acceptance::NotThisGame, format!("bad position for {}: {e}", R::variant()))
                })?,
        };
        if start.legal_moves().is_empty() {
            return Err((
                Acceptance::NotThisGame,
                "the side to move has no legal move in the requested position".into(),
            ));
        }
        let mut minutes = if req.minutes > 0 {
            f64::from(req.minutes)
        } else {
            self.config.time.unwrap_or(super::DEFAULT_MINUTES)
        };
        if let Some(cap) = self.config.time {
            minutes = minutes.min(cap);
        }
        let ours = from_dxp::<R>(req.follower);
        Ok(Play::new(start, ours, Duration::from_secs_f64(minutes * 60.0), req.moves))
    }

    /// Runs a match as the initiator: `config.games` games, colours alternating, from the
    /// start position or the openings (each opening twice). Errors when the connection is
    /// lost or the peer refuses to play.
    pub fn initiate<R: Eval>(&mut self) -> Result<()> {
        let openings: Vec<Position<R>> = self
            .config
            .openings
            .iter()
            .map(|text| notation::parse_position::<R>(text))
            .collect::<Result<_>>()?;
        let minutes = self.config.time.unwrap_or(super::DEFAULT_MINUTES);
        let engine = Engine::new(self.options());
        for i in 0..self.config.games {
            let start = if openings.is_empty() {
                Position::<R>::start()
            } else {
                openings[(i as usize / 2) % openings.len()]
            };
            let ours = if i % 2 == 0 { Color::White } else { Color::Black };
            let last = i + 1 == self.config.games;
            let setup = if openings.is_empty() {
                Setup::Start
            } else {
                let (to_move, squares) = position_field(&start);
                Setup::Position { to_move, squares }
            };
            let req = GameReq {
                name: self.config.name.clone(),
                follower: to_dxp::<R>(!ours),
                minutes: (minutes.ceil() as u32).clamp(1, 999),
                moves: self.config.moves.min(999),
                setup,
            };
            self.send(&Message::GameReq(req)).map_err(Error)?;
            match self.wait_accept()? {
                Acceptance::Accepted => {}
                Acceptance::NotThisGame => {
                    log::warn!(
                        "dxp {}: {} refused game {} (not this game); trying the next",
                        self.link.peer,
                        self.peer_name,
                        i + 1
                    );
                    continue;
                }
                code => {
                    return Err(Error(format!(
                        "{} refused to play ({})",
                        self.peer_name,
                        match code {
                            Acceptance::WrongVersion => "wrong protocol version",
                            _ => "no games",
                        }
                    )));
                }
            }
            let mut play =
                Play::new(start, ours, Duration::from_secs_f64(minutes * 60.0), self.config.moves);
            let ended = self.play(&engine, &mut play, last);
            self.record(&play, &ended);
            if ended.lost {
                return Err(Error(format!(
                    "the connection to {} was lost in game {} of {}",
                    self.link.peer,
                    i + 1,
                    self.config.games
                )));
            }
            if ended.peer_stop && !last {
                log::info!(
                    "dxp {}: {} wants no further game; the match ends after game {}",
                    self.link.peer,
                    self.peer_name,
                    i + 1
                );
                break;
            }
        }
        Ok(())
    }

    fn wait_accept(&mut self) -> Result<Acceptance> {
        let deadline = Instant::now() + ACCEPT_WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.link.next(Some(left)) {
                None => {
                    return Err(Error(format!(
                        "no GAMEACC from {} within {} s",
                        self.link.peer,
                        ACCEPT_WAIT.as_secs()
                    )));
                }
                Some(Event::Message(Message::GameAcc { name, code })) => {
                    self.peer_name = name;
                    return Ok(code);
                }
                Some(Event::Message(Message::Chat(text))) => self.chat(&text),
                Some(Event::Closed(why)) => {
                    return Err(Error(format!("{}: {why}", self.link.peer)));
                }
                Some(Event::Bad { raw, reason, .. }) => {
                    log::warn!(
                        "dxp {}: not a DXP message while waiting for GAMEACC: {reason} (\"{raw}\")",
                        self.link.peer
                    );
                }
                Some(Event::Message(m)) => {
                    log::warn!(
                        "dxp {}: {} while waiting for GAMEACC, ignored",
                        self.link.peer,
                        m.kind()
                    );
                }
                Some(Event::Searched(_)) => {}
            }
        }
    }

    /// Plays one game to its end. `we_stop` is the stop code of kondavo's GAMEEND.
    fn play<R: Eval>(&mut self, engine: &Engine, play: &mut Play<R>, we_stop: bool) -> Ended {
        engine.new_game();
        play.clock.turn_start = Instant::now();
        let ours = if play.ours == Color::White { "white" } else { "black" };
        log::info!(
            "dxp {}: game with {} starts, kondavo plays {ours} ({} minutes, {} moves)",
            self.link.peer,
            self.peer_name,
            play.clock.budget.as_secs_f64() / 60.0,
            play.clock.moves
        );
        loop {
            if play.our_turn() {
                if let Some(outcome) = play.game.outcome() {
                    return self.end_game(
                        end_reason(outcome, play.ours),
                        we_stop,
                        GameResult::of(outcome),
                        outcome.describe(play.game.position()),
                    );
                }
                let event = match self.think(engine, play) {
                    Thought::Move(mv) => {
                        let seconds = play.clock.turn_start.elapsed();
                        play.clock.used += seconds;
                        let message = move_message::<R>(mv, seconds.as_secs_f64().round() as u32);
                        if let Err(e) = play.push(mv) {
                            // The engine's own move is legal; this is a bug, not the peer's.
                            log::error!("dxp: kondavo's move is not legal: {e}");
                            return self.end_game(
                                EndReason::Unknown,
                                we_stop,
                                GameResult::Unknown,
                                e.0,
                            );
                        }
                        if let Err(e) = self.send(&Message::Move(message)) {
                            return Ended::lost(e);
                        }
                        continue;
                    }
                    Thought::Failed(why) => {
                        log::error!("dxp: the search failed: {why}");
                        return self.end_game(
                            EndReason::Unknown,
                            we_stop,
                            GameResult::Unknown,
                            why,
                        );
                    }
                    Thought::Interrupted(event) => event,
                };
                if let Some(ended) = self.on_event(play, event, we_stop) {
                    return ended;
                }
            } else {
                let over = play.game.outcome();
                let wait = over.map(|_| PEER_GRACE);
                let event = match self.link.next(wait) {
                    Some(e) => e,
                    None => {
                        let outcome = over.unwrap_or(Outcome::Repetition);
                        log::warn!(
                            "dxp {}: the game is over ({outcome}) but {} did not end it; kondavo does",
                            self.link.peer,
                            self.peer_name
                        );
                        return self.end_game(
                            end_reason(outcome, play.ours),
                            we_stop,
                            GameResult::of(outcome),
                            format!(
                                "{}; the peer did not end the game",
                                outcome.describe(play.game.position())
                            ),
                        );
                    }
                };
                if let Some(ended) = self.on_event(play, event, we_stop) {
                    return ended;
                }
            }
        }
    }

    /// Searches kondavo's move while listening to the connection.
    fn think<R: Eval>(&mut self, engine: &Engine, play: &Play<R>) -> Thought {
        if self.link.has_pending()
            && let Some(e) = self.link.next(None)
        {
            return Thought::Interrupted(e);
        }
        let spec = play.spec();
        let limits = play.clock.limits(play.our_moves());
        let control = Control::new();
        let tx = self.link.sender();
        let peer_name = self.peer_name.clone();
        let link = &mut *self.link;
        std::thread::scope(|s| {
            let search = std::thread::Builder::new()
                .name("kondavo-dxp-search".into())
                .stack_size(64 << 20)
                .spawn_scoped(s, || {
                    let r = engine.search(&spec, &limits, Mode::Think, &control, &mut |_| {});
                    let _ = tx.send(Event::Searched(r));
                });
            if let Err(e) = search {
                return Thought::Failed(format!("cannot start the search: {e}"));
            }
            let mut interrupt: Option<Event> = None;
            let mut later = Vec::new();
            loop {
                let Some(event) = link.next_new(None) else { continue };
                match event {
                    Event::Searched(result) => {
                        link.put_back(later);
                        if let Some(e) = interrupt {
                            return Thought::Interrupted(e);
                        }
                        let pos = play.game.position();
                        return match result {
                            Ok(done) => match done.best {
                                Some(best) => match notation::parse_hub_move(pos, &best.hub) {
                                    Ok(mv) => Thought::Move(mv),
                                    Err(e) => Thought::Failed(format!(
                                        "the engine's move {} does not parse: {e}",
                                        best.hub
                                    )),
                                },
                                None => Thought::Failed("the engine found no move".into()),
                            },
                            Err(e) => Thought::Failed(e.0),
                        };
                    }
                    Event::Message(Message::Chat(text)) if interrupt.is_none() => {
                        log::info!("dxp {}: chat from {peer_name}: {text}", link.peer);
                        say(&format!("chat {peer_name}: {text}"));
                    }
                    event if interrupt.is_none() => {
                        control.stop();
                        interrupt = Some(event);
                    }
                    event => later.push(event),
                }
            }
        })
    }

    /// Handles an event during a game; `Some` when the game is over.
    fn on_event<R: Eval>(
        &mut self,
        play: &mut Play<R>,
        event: Event,
        we_stop: bool,
    ) -> Option<Ended> {
        let peer = self.link.peer.clone();
        match event {
            Event::Closed(why) => {
                log::warn!("dxp {peer}: {why}; the game is abandoned");
                Some(Ended::lost(why))
            }
            Event::Searched(_) => None,
            Event::Message(Message::Chat(text)) => {
                self.chat(&text);
                None
            }
            Event::Message(Message::Move(m)) => {
                if play.our_turn() {
                    return Some(self.protocol_error(
                        format!("{} sent a MOVE on kondavo's turn", self.peer_name),
                        we_stop,
                    ));
                }
                if let Some(outcome) = play.game.outcome() {
                    log::warn!(
                        "dxp {peer}: the game was over ({outcome}), but {} sent a move; kondavo ends it",
                        self.peer_name
                    );
                    return Some(self.end_game(
                        end_reason(outcome, play.ours),
                        we_stop,
                        GameResult::of(outcome),
                        outcome.describe(play.game.position()),
                    ));
                }
                let mv = match resolve_move(play.game.position(), &m) {
                    Ok(mv) => mv,
                    Err(e) => {
                        let fen = notation::to_fen(play.game.position());
                        return Some(self.protocol_error(
                            format!(
                                "illegal move {} from {} in {fen}: {e}",
                                Message::Move(m),
                                self.peer_name
                            ),
                            we_stop,
                        ));
                    }
                };
                if let Err(e) = play.push(mv) {
                    return Some(self.protocol_error(format!("illegal move: {e}"), we_stop));
                }
                play.clock.turn_start = Instant::now();
                None
            }
            Event::Message(Message::GameEnd { reason, stop }) => {
                let confirm = Message::GameEnd { reason: EndReason::Unknown, stop: we_stop };
                let lost = self.send(&confirm).err();
                let (result, why) = match play.game.outcome() {
                    Some(outcome) => {
                        (GameResult::of(outcome), outcome.describe(play.game.position()))
                    }
                    None => {
                        let theirs = !play.ours;
                        let result = match reason {
                            EndReason::ILose => GameResult::win(play.ours),
                            EndReason::IWin => GameResult::win(theirs),
                            EndReason::Draw => GameResult::Draw,
                            EndReason::Unknown => GameResult::Unknown,
                        };
                        let said = match reason {
                            EndReason::ILose => "it loses",
                            EndReason::IWin => "it wins",
                            EndReason::Draw => "a draw",
                            EndReason::Unknown => "no reason given",
                        };
                        (result, format!("{} ended the game ({said})", self.peer_name))
                    }
                };
                Some(Ended { result, why, peer_stop: stop, lost: lost.is_some(), next: None })
            }
            Event::Message(Message::BackReq { move_number, to_move }) => {
                self.back(play, move_number, to_move);
                None
            }
            Event::Message(Message::GameReq(req)) => {
                log::warn!(
                    "dxp {peer}: a new GAMEREQ during a game; the game is abandoned for the new one"
                );
                Some(Ended {
                    result: GameResult::Unknown,
                    why: "abandoned for a new game request".into(),
                    peer_stop: false,
                    lost: false,
                    next: Some(Event::Message(Message::GameReq(req))),
                })
            }
            Event::Message(m) => {
                log::warn!("dxp {peer}: unexpected {} during a game, ignored", m.kind());
                None
            }
            Event::Bad { raw, reason, .. } => Some(self.protocol_error(
                format!("malformed message from {} (\"{raw}\"): {reason}", self.peer_name),
                we_stop,
            )),
        }
    }

    /// BACKREQ: rewinds to the given move number and colour to move, or says it cannot.
    fn back<R: Eval>(&mut self, play: &mut Play<R>, move_number: u32, to_move: Color) {
        let played = play.game.moves().len();
        let target = (0..=played).find(|&ply| play.numbered(ply) == (move_number, to_move));
        let answer = match target {
            Some(ply) => {
                while play.game.moves().len() > ply {
                    play.game.undo();
                    play.native.pop();
                }
                play.clock.turn_start = Instant::now();
                log::info!(
                    "dxp {}: moves taken back to move {move_number} ({} plies undone)",
                    self.link.peer,
                    played - ply
                );
                BackAnswer::Accepted
            }
            None => {
                log::info!(
                    "dxp {}: cannot take back to move {move_number} {}: the game has {played} plies",
                    self.link.peer,
                    if to_move == Color::White { 'W' } else { 'Z' }
                );
                BackAnswer::NotSupported
            }
        };
        if let Err(e) = self.send(&Message::BackAcc(answer)) {
            log::warn!("dxp: {e}");
        }
    }

    /// Logs a protocol error and ends the game.
    fn protocol_error(&mut self, why: String, we_stop: bool) -> Ended {
        log::warn!("dxp {}: {why}; the game ends", self.link.peer);
        self.end_game(EndReason::Unknown, we_stop, GameResult::Unknown, why)
    }

    /// Sends kondavo's GAMEEND and waits for its confirmation.
    fn end_game(
        &mut self,
        reason: EndReason,
        we_stop: bool,
        result: GameResult,
        why: String,
    ) -> Ended {
        let mut ended = Ended { result, why, peer_stop: false, lost: false, next: None };
        if let Err(e) = self.send(&Message::GameEnd { reason, stop: we_stop }) {
            log::warn!("dxp: {e}");
            ended.lost = true;
            return ended;
        }
        let deadline = Instant::now() + CONFIRM_WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.link.next(Some(left)) {
                None => {
                    log::warn!(
                        "dxp {}: no GAMEEND confirmation from {} within {} s",
                        self.link.peer,
                        self.peer_name,
                        CONFIRM_WAIT.as_secs()
                    );
                    return ended;
                }
                Some(Event::Message(Message::GameEnd { stop, .. })) => {
                    ended.peer_stop = stop;
                    return ended;
                }
                Some(Event::Message(Message::Chat(text))) => self.chat(&text),
                Some(Event::Closed(why)) => {
                    log::info!("dxp {}: {why}", self.link.peer);
                    ended.lost = true;
                    return ended;
                }
                Some(e @ Event::Message(Message::GameReq(_))) => {
                    ended.next = Some(e);
                    return ended;
                }
                Some(Event::Message(m)) => {
                    log::info!(
                        "dxp {}: {} after kondavo's GAMEEND, ignored",
                        self.link.peer,
                        m.kind()
                    );
                }
                Some(Event::Bad { raw, reason, .. }) => {
                    log::warn!(
                        "dxp {}: not a DXP message after GAMEEND: {reason} (\"{raw}\")",
                        self.link.peer
                    );
                }
                Some(Event::Searched(_)) => {}
            }
        }
    }

    /// Reports a finished game on standard output and appends it to the PDN file.
    fn record<R: Rules>(&mut self, play: &Play<R>, ended: &Ended) {
        let round = GAMES.fetch_add(1, Ordering::Relaxed);
        let ours = self.config.name.clone();
        let theirs =
            if self.peer_name.is_empty() { "?".to_string() } else { self.peer_name.clone() };
        let (white, black) =
            if play.ours == Color::White { (ours, theirs) } else { (theirs, ours) };
        let token = ended.result.to_pdn(R::BASE);
        say(&format!(
            "game {} white=\"{white}\" black=\"{black}\" result={token} moves={} reason=\"{}\"",
            round,
            play.game.moves().len(),
            ended.why.replace('"', "'")
        ));
        let Some(path) = &self.config.pdn else { return };
        let mut tags = vec![
            ("Event".to_string(), "kondavo DXP".to_string()),
            ("Site".to_string(), self.link.peer.clone()),
            ("Date".to_string(), today()),
            ("Round".to_string(), round.to_string()),
            ("White".to_string(), white),
            ("Black".to_string(), black),
            ("Result".to_string(), token.to_string()),
            ("GameType".to_string(), R::BASE.pdn_gametype().to_string()),
        ];
        if play.start_text != "start" {
            tags.push(("FEN".to_string(), play.start_text.clone()));
        }
        tags.extend(pdn::variant_tag(R::variant()));
        tags.push(("Termination".to_string(), ended.why.clone()));
        let first_mover_starts = play.game.start().side() == R::FIRST;
        let text = pdn::write_game(&tags, &play.native, first_mover_starts, token);
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()));
        if let Err(e) = written {
            log::error!("dxp: cannot write the game to {}: {e}", path.display());
        }
    }
}

/// The reason of kondavo's GAMEEND for a game that is over: a win is ours or the peer's by its
/// colour, whichever side is to move (in antidraughts the side without a move wins).
fn end_reason(outcome: Outcome, ours: Color) -> EndReason {
    match outcome {
        Outcome::Win(c) if c == ours => EndReason::IWin,
        Outcome::Win(_) => EndReason::ILose,
        _ => EndReason::Draw,
    }
}

/// Today's date as PDN writes it (`2024.05.17`, UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days to civil date (H. Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{English, International, Russian, Turkish};

    #[test]
    fn position_fields_round_trip() {
        fn check<R: Rules>() {
            let start = Position::<R>::start();
            let (to_move, squares) = position_field(&start);
            assert_eq!(to_move, Color::White, "{}", R::variant());
            assert_eq!(squares.len(), <R::Geo as Geometry>::SQUARES);
            let back = parse_position_field::<R>(to_move, &squares).unwrap();
            assert_eq!(notation::to_fen(&back), notation::to_fen(&start));
        }
        check::<International>();
        check::<Russian>();
        check::<English>();
        check::<Turkish>();
        let (_, squares) = position_field(&Position::<International>::start());
        assert_eq!(squares, format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20)));
    }

    #[test]
    fn moves_use_hub_fields() {
        let pos: Position<International> =
            notation::parse_position("W:W28:B23").unwrap_or_else(|e| panic!("{e}"));
        let mv = notation::parse_hub_move(&pos, "28x19x23").unwrap();
        let m = move_message::<International>(mv, 3);
        assert_eq!(Message::Move(m.clone()).to_string(), "M000328190123");
        assert_eq!(resolve_move(&pos, &m).unwrap(), mv);
    }

    #[test]
    fn dates_are_civil() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"), "{d}");
    }
}
