//! DXP over loopback: a scripted peer against `kondavo dxp` (start and `B` positions, both
//! colours, multi-piece captures, GAMEEND both ways, BACKREQ, coalesced and split messages,
//! garbage, refused requests, a peer that disconnects), a scripted follower against kondavo
//! as the initiator, and kondavo against kondavo.
//!
//! Every server binds port 0 and prints the port it got; every read has a timeout and every
//! child process is killed when its test ends.

use kondavo::color::Color;
use kondavo::game::{DrawRules, Game};
use kondavo::notation;
use kondavo::pdn;
use kondavo::position::Position;
use kondavo::protocol::dxp::codec::{self, Acceptance, EndReason, Frame, Framer, Message, Setup};
use kondavo::protocol::dxp::session::{move_message, position_field, resolve_move};
use kondavo::rules::{International, Rules, Russian, Ukrainian};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);

/// A `kondavo dxp` process, the lines of its standard output, and its log (shown when the
/// test fails).
struct Kondavo {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Kondavo {
    fn start(args: &[&str]) -> Kondavo {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kondavo"))
            .arg("dxp")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kondavo starts");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = std::sync::Arc::clone(&log);
        std::thread::spawn(move || {
            for l in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(l);
            }
        });
        Kondavo { child, lines, seen: Vec::new(), log }
    }

    /// A follower server on an ephemeral port; returns it and its address.
    fn server(extra: &[&str]) -> (Kondavo, String) {
        let mut args = vec!["--listen", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        let mut k = Kondavo::start(&args);
        let line = k.line("listening ");
        let addr = line.trim_start_matches("listening ").trim().to_string();
        (k, addr)
    }

    /// The next standard output line starting with `prefix` (earlier ones are kept in `seen`).
    fn line(&mut self, prefix: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no line \"{prefix}…\"; seen {:?}", self.seen));
            self.seen.push(l.clone());
            if l.starts_with(prefix) {
                return l;
            }
        }
    }

    /// Waits for the process to exit; its status.
    fn wait(&mut self, limit: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "kondavo did not exit within {limit:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Kondavo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking()
            && let Ok(log) = self.log.lock()
        {
            eprintln!("kondavo's log:\n{}", log.join("\n"));
        }
    }
}

/// The scripted side of a connection.
struct Peer {
    stream: TcpStream,
    framer: Framer,
    queue: std::collections::VecDeque<Vec<u8>>,
}

impl Peer {
    fn connect(addr: &str) -> Peer {
        Peer::on(TcpStream::connect(addr).expect("connects"))
    }

    fn on(stream: TcpStream) -> Peer {
        stream.set_read_timeout(Some(WAIT)).unwrap();
        stream.set_nodelay(true).unwrap();
        Peer { stream, framer: Framer::new(), queue: Default::default() }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).expect("send");
    }

    fn send(&mut self, m: &Message) {
        let mut bytes = m.to_string().into_bytes();
        bytes.push(0);
        self.send_raw(&bytes);
    }

    fn send_text(&mut self, text: &str) {
        self.send_raw(format!("{text}\0").as_bytes());
    }

    /// The next message's raw text; `None` when the connection closes.
    fn recv_raw(&mut self) -> Option<String> {
        let mut buf = [0u8; 4096];
        while self.queue.is_empty() {
            let n = match self.stream.read(&mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => 0,
                Err(e) => panic!("no message from kondavo: {e}"),
            };
            if n == 0 {
                return None;
            }
            for f in self.framer.push(&buf[..n]) {
                match f {
                    Frame::Message(m) => self.queue.push_back(m),
                    Frame::TooLong => panic!("kondavo sent an overlong message"),
                }
            }
        }
        self.queue.pop_front().map(|m| String::from_utf8(m).expect("ASCII"))
    }

    fn recv(&mut self) -> Message {
        let raw = self.recv_raw().expect("a message, not the end of the connection");
        assert!(raw.len() <= codec::MAX_MESSAGE, "too long: {raw}");
        codec::parse(raw.as_bytes()).unwrap_or_else(|e| panic!("kondavo sent \"{raw}\": {e}"))
    }

    fn expect_closed(&mut self) {
        if let Some(m) = self.recv_raw() {
            panic!("expected the connection to close, got \"{m}\"");
        }
    }

    fn expect_accept(&mut self) {
        match self.recv() {
            Message::GameAcc { name, code: Acceptance::Accepted } => {
                assert!(name.starts_with("kondavo"), "{name}")
            }
            other => panic!("expected GAMEACC 0, got {other:?}"),
        }
    }

    fn expect_refusal(&mut self, want: Acceptance) {
        match self.recv() {
            Message::GameAcc { code, .. } => assert_eq!(code, want),
            other => panic!("expected GAMEACC {want:?}, got {other:?}"),
        }
    }

    fn expect_gameend(&mut self) -> (EndReason, bool) {
        match self.recv() {
            Message::GameEnd { reason, stop } => (reason, stop),
            other => panic!("expected GAMEEND, got {other:?}"),
        }
    }
}

fn gamereq(follower: Color, minutes: u32, setup: Setup) -> Message {
    Message::GameReq(codec::GameReq {
        name: "scripted peer".into(),
        follower,
        minutes,
        moves: 0,
        setup,
    })
}

/// A game as the scripted peer tracks it.
struct Board<R: Rules> {
    history: Vec<Position<R>>,
}

impl<R: Rules> Board<R> {
    fn new(start: Position<R>) -> Board<R> {
        Board { history: vec![start] }
    }

    fn pos(&self) -> Position<R> {
        *self.history.last().unwrap()
    }

    /// Reads kondavo's MOVE and plays it; it must be legal.
    fn their_move(&mut self, peer: &mut Peer) {
        let pos = self.pos();
        match peer.recv() {
            Message::Move(m) => {
                let mv = resolve_move(&pos, &m).unwrap_or_else(|e| {
                    panic!("kondavo's move {m:?} in {}: {e}", notation::to_fen(&pos))
                });
                self.history.push(pos.after(mv));
            }
            other => panic!("expected a MOVE in {}, got {other:?}", notation::to_fen(&pos)),
        }
    }

    /// Plays the first legal move and sends it.
    fn our_move(&mut self, peer: &mut Peer) {
        let pos = self.pos();
        let mv = pos.legal_moves()[0];
        peer.send(&Message::Move(move_message::<R>(mv, 0)));
        self.history.push(pos.after(mv));
    }

    fn rewind(&mut self, plies: usize) {
        self.history.truncate(plies + 1);
    }
}

fn international(fen: &str) -> Position<International> {
    notation::parse_position(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn b_setup<R: Rules>(pos: &Position<R>) -> Setup {
    let (to_move, squares) = position_field(pos);
    Setup::Position { to_move, squares }
}

#[test]
fn follower_plays_both_colours_from_the_start_position() {
    let (mut k, addr) = Kondavo::server(&["--time", "0.02"]);
    let mut peer = Peer::connect(&addr);
    k.line("connected ");

    // kondavo plays White and moves first; thinking time 000: its own budget.
    peer.send(&gamereq(Color::White, 0, Setup::Start));
    peer.expect_accept();
    let mut board = Board::new(Position::<International>::start());
    for _ in 0..4 {
        board.their_move(&mut peer);
        board.our_move(&mut peer);
    }
    board.their_move(&mut peer);
    // The peer ends the game on its turn; kondavo confirms and wants more games.
    peer.send_text("E00");
    assert_eq!(peer.expect_gameend(), (EndReason::Unknown, false));
    let game = k.line("game 1 ");
    assert!(game.contains("white=\"kondavo") && game.contains("result=*"), "{game}");

    // The same connection, kondavo plays Black: the peer moves first.
    peer.send(&gamereq(Color::Black, 1, Setup::Start));
    peer.expect_accept();
    let mut board = Board::new(Position::<International>::start());
    for _ in 0..4 {
        board.our_move(&mut peer);
        board.their_move(&mut peer);
    }
    // "I lose": kondavo records its win; stop code 1 ends the match.
    peer.send_text("E11");
    assert_eq!(peer.expect_gameend(), (EndReason::Unknown, false));
    let game = k.line("game 2 ");
    assert!(game.contains("black=\"kondavo") && game.contains("result=0-2"), "{game}");
}

#[test]
fn follower_plays_b_positions_and_captures_several_pieces() {
    let (mut k, addr) = Kondavo::server(&["--time", "0.02"]);
    let mut peer = Peer::connect(&addr);

    // kondavo (White, to move) must take four pieces: 38x16 over 33, 23, 12 and 11.
    let start = international("W:W38:B33,23,12,11,1,2");
    peer.send(&gamereq(Color::White, 1, b_setup(&start)));
    peer.expect_accept();
    match peer.recv() {
        Message::Move(m) => {
            assert_eq!((m.from, m.to), (38, 16));
            let mut caps = m.captured.clone();
            caps.sort();
            assert_eq!(caps, vec![11, 12, 23, 33]);
        }
        other => panic!("expected the capture, got {other:?}"),
    }
    peer.send_text("E00");
    peer.expect_gameend();
    k.line("game 1 ");

    // The peer (Black, to move) takes three pieces, listed in no particular order.
    let start = international("B:W18,29,39,49,50:B12");
    peer.send(&gamereq(Color::White, 1, b_setup(&start)));
    peer.expect_accept();
    peer.send_text("M0001124303391829");
    let mut board = Board::new(start);
    let mv = notation::parse_hub_move(&start, "12x43x18x29x39").unwrap();
    board.history.push(start.after(mv));
    board.their_move(&mut peer);
    peer.send_text("E00");
    peer.expect_gameend();
    let game = k.line("game 2 ");
    assert!(game.contains("moves=2"), "{game}");
}

#[test]
fn kondavo_ends_the_game_when_it_has_no_move() {
    let (mut k, addr) = Kondavo::server(&["--time", "0.02"]);
    let mut peer = Peer::connect(&addr);
    // kondavo is White with one man; Black takes it: kondavo has no move and says it lost.
    let start = international("B:W28:B22");
    peer.send(&gamereq(Color::White, 1, b_setup(&start)));
    peer.expect_accept();
    // A MOVE cut short (one capture announced, none listed) is no move.
    peer.send_text("M0000223301");
    let (reason, _) = peer.expect_gameend();
    assert_eq!(reason, EndReason::Unknown);
    peer.send_text("E00");
    let game = k.line("game 1 ");
    assert!(game.contains("result=*"), "{game}");

    peer.send(&gamereq(Color::White, 1, b_setup(&start)));
    peer.expect_accept();
    peer.send_text("M000022330128");
    assert_eq!(peer.expect_gameend(), (EndReason::ILose, false));
    peer.send_text("E00");
    let game = k.line("game 2 ");
    assert!(game.contains("result=0-2") && game.contains("white has no legal move"), "{game}");
}

#[test]
fn backreq_rewinds_the_game_or_is_refused() {
    let (_k, addr) = Kondavo::server(&["--time", "0.02"]);
    let mut peer = Peer::connect(&addr);
    peer.send(&gamereq(Color::White, 1, Setup::Start));
    peer.expect_accept();
    let mut board = Board::new(Position::<International>::start());
    board.their_move(&mut peer); // ply 1
    board.our_move(&mut peer); // ply 2
    board.their_move(&mut peer); // ply 3: the peer's turn

    // Back to move 2, White to move: two plies undone, kondavo moves again from there.
    peer.send_text("B002W");
    assert_eq!(peer.recv(), Message::BackAcc(codec::BackAnswer::Accepted));
    board.rewind(2);
    board.their_move(&mut peer);

    // A move that was never played cannot be returned to.
    peer.send_text("B999Z");
    assert_eq!(peer.recv(), Message::BackAcc(codec::BackAnswer::NotSupported));

    // Back to move 1, Black to move (the peer's turn): the game goes on from there.
    peer.send_text("B001Z");
    assert_eq!(peer.recv(), Message::BackAcc(codec::BackAnswer::Accepted));
    board.rewind(1);
    board.our_move(&mut peer);
    board.their_move(&mut peer);
    peer.send_text("E00");
    peer.expect_gameend();
}

#[test]
fn coalesced_and_split_messages_are_read() {
    let (mut k, addr) = Kondavo::server(&["--time", "0.02"]);
    let mut peer = Peer::connect(&addr);
    // A GAMEREQ in three pieces.
    let req = format!("{}\0", gamereq(Color::Black, 1, Setup::Start));
    let bytes = req.as_bytes();
    for part in [&bytes[..7], &bytes[7..40], &bytes[40..]] {
        peer.send_raw(part);
        std::thread::sleep(Duration::from_millis(30));
    }
    peer.expect_accept();
    // A CHAT and a MOVE in one write.
    let mut board = Board::new(Position::<International>::start());
    let pos = board.pos();
    let mv = pos.legal_moves()[0];
    let both = format!("Chello kondavo\0{}\0", Message::Move(move_message::<International>(mv, 0)));
    peer.send_raw(both.as_bytes());
    board.history.push(pos.after(mv));
    board.their_move(&mut peer);
    k.line("chat scripted peer: hello kondavo");
    // A GAMEEND split in two, with a CHAT glued behind it.
    peer.send_raw(b"E0");
    std::thread::sleep(Duration::from_millis(30));
    peer.send_raw(b"0\0Cbye\0");
    peer.expect_gameend();
    k.line("game 1 ");
    k.line("chat scripted peer: bye");
}

#[test]
fn garbage_and_illegal_moves_end_the_game_and_the_connection_lives_on() {
    let (mut k, addr) = Kondavo::server(&["--time", "0.02"]);
    let mut peer = Peer::connect(&addr);
    // Garbage between games is ignored.
    peer.send_raw(b"\xff\xfe garbage\0");
    peer.send(&gamereq(Color::Black, 1, Setup::Start));
    peer.expect_accept();
    // Garbage on the peer's turn ends the game.
    peer.send_raw(b"\x01\x02junk\0");
    assert_eq!(peer.expect_gameend(), (EndReason::Unknown, false));
    peer.send_text("E00");
    let game = k.line("game 1 ");
    assert!(game.contains("malformed"), "{game}");

    // An illegal move ends the game too.
    peer.send(&gamereq(Color::Black, 1, Setup::Start));
    peer.expect_accept();
    peer.send_text("M0000011100");
    assert_eq!(peer.expect_gameend(), (EndReason::Unknown, false));
    peer.send_text("E00");
    let game = k.line("game 2 ");
    assert!(game.contains("illegal move"), "{game}");

    // An endless message (no \0 for 2000 bytes) is dropped with a reason.
    peer.send(&gamereq(Color::Black, 1, Setup::Start));
    peer.expect_accept();
    peer.send_raw(&[b'M'; 2000]);
    peer.send_raw(b"\0");
    assert_eq!(peer.expect_gameend(), (EndReason::Unknown, false));
    peer.send_text("E00");
    k.line("game 3 ");

    // And the connection still plays.
    peer.send(&gamereq(Color::White, 1, Setup::Start));
    peer.expect_accept();
    let mut board = Board::new(Position::<International>::start());
    board.their_move(&mut peer);
}

#[test]
fn bad_requests_are_refused_with_the_right_code() {
    let (_k, addr) = Kondavo::server(&["--time", "0.02"]);
    let mut peer = Peer::connect(&addr);
    peer.send_text("R02Other version                   W005000A");
    peer.expect_refusal(Acceptance::WrongVersion);
    // A white man on White's promotion row is not a legal position.
    let mut squares = "e".repeat(50);
    squares.replace_range(0..1, "w");
    squares.replace_range(49..50, "z");
    peer.send(&gamereq(Color::White, 1, Setup::Position { to_move: Color::White, squares }));
    peer.expect_refusal(Acceptance::NotThisGame);
    // An 8x8 position to a 10x10 engine.
    let (to_move, squares) = position_field(&Position::<Russian>::start());
    peer.send(&gamereq(Color::White, 1, Setup::Position { to_move, squares }));
    peer.expect_refusal(Acceptance::NotThisGame);
    // A position where the side to move has no move.
    let (to_move, squares) = position_field(&international("W:W46:B41,37"));
    peer.send(&gamereq(Color::White, 1, Setup::Position { to_move, squares }));
    peer.expect_refusal(Acceptance::NotThisGame);
    // A GAMEREQ too short to read.
    peer.send_text("R01short");
    peer.expect_refusal(Acceptance::NotThisGame);
    // Still willing.
    peer.send(&gamereq(Color::Black, 1, Setup::Start));
    peer.expect_accept();
}

#[test]
fn a_peer_that_disconnects_mid_game_does_not_stop_the_server() {
    let (mut k, addr) = Kondavo::server(&["--time", "0.05"]);
    {
        let mut peer = Peer::connect(&addr);
        peer.send(&gamereq(Color::White, 1, Setup::Start));
        peer.expect_accept();
        let mut board = Board::new(Position::<International>::start());
        board.their_move(&mut peer);
        board.our_move(&mut peer); // kondavo is thinking when the peer leaves
    }
    let game = k.line("game 1 ");
    assert!(game.contains("result=*"), "{game}");
    k.line("disconnected ");
    // A second peer, and a third at the same time.
    let mut second = Peer::connect(&addr);
    let mut third = Peer::connect(&addr);
    second.send(&gamereq(Color::White, 1, Setup::Start));
    third.send(&gamereq(Color::Black, 1, Setup::Start));
    second.expect_accept();
    third.expect_accept();
    let mut board = Board::new(Position::<International>::start());
    board.their_move(&mut second);
    let mut board = Board::new(Position::<International>::start());
    board.our_move(&mut third);
    board.their_move(&mut third);
}

#[test]
fn eight_by_eight_positions_use_the_hub_order() {
    let (_k, addr) = Kondavo::server(&["--time", "0.02", "--variant", "russian"]);
    let mut peer = Peer::connect(&addr);
    let start = Position::<Russian>::start();
    let (to_move, squares) = position_field(&start);
    assert_eq!(squares.len(), 32);
    peer.send(&gamereq(Color::White, 1, Setup::Position { to_move, squares }));
    peer.expect_accept();
    let mut board = Board::new(start);
    for _ in 0..3 {
        board.their_move(&mut peer);
        board.our_move(&mut peer);
    }
    board.their_move(&mut peer);
    peer.send_text("E00");
    peer.expect_gameend();
}

#[test]
fn initiator_requests_games_and_follows_the_stop_code() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let openings =
        std::env::temp_dir().join(format!("kondavo-dxp-openings-{}", std::process::id()));
    std::fs::write(&openings, "# one ballot\nB:W17,31,32,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,18,19,20\n").unwrap();
    let mut k = Kondavo::start(&[
        "--connect",
        &addr,
        "--initiator",
        "--games",
        "4",
        "--time",
        "0.02",
        "--moves",
        "50",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    let (stream, _) = listener.accept().unwrap();
    let mut peer = Peer::on(stream);

    // Game 1: kondavo White; the ballot has Black to move, so the follower moves first.
    let req = match peer.recv() {
        Message::GameReq(r) => r,
        other => panic!("expected GAMEREQ, got {other:?}"),
    };
    assert_eq!((req.follower, req.minutes, req.moves), (Color::Black, 1, 50));
    assert!(req.name.starts_with("kondavo"), "{}", req.name);
    let Setup::Position { to_move, squares } = &req.setup else {
        panic!("expected a B position");
    };
    assert_eq!(*to_move, Color::Black);
    let start: Position<International> =
        kondavo::protocol::dxp::session::parse_position_field(*to_move, squares).unwrap();
    peer.send(&Message::GameAcc { name: "Scripted follower".into(), code: Acceptance::Accepted });
    let mut board = Board::new(start);
    board.our_move(&mut peer);
    board.their_move(&mut peer);
    board.our_move(&mut peer);
    board.their_move(&mut peer);
    // The follower ends the game and wants no more: kondavo confirms and stops the match.
    peer.send_text("E01");
    assert_eq!(peer.expect_gameend(), (EndReason::Unknown, false));
    peer.expect_closed();
    assert!(k.wait(WAIT).success());
    let game = k.line("game 1 ");
    assert!(game.contains("black=\"Scripted follower\""), "{game}");
    let _ = std::fs::remove_file(&openings);
}

#[test]
fn initiator_stops_when_the_follower_refuses() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let mut k = Kondavo::start(&["--connect", &addr, "--initiator", "--games", "2"]);
    let (stream, _) = listener.accept().unwrap();
    let mut peer = Peer::on(stream);
    match peer.recv() {
        Message::GameReq(r) => {
            assert_eq!(r.setup, Setup::Start);
            assert_eq!((r.follower, r.minutes, r.moves), (Color::Black, 5, 0));
        }
        other => panic!("expected GAMEREQ, got {other:?}"),
    }
    peer.send(&Message::GameAcc { name: "Scripted follower".into(), code: Acceptance::NoGames });
    peer.expect_closed();
    assert!(!k.wait(WAIT).success(), "a refused match is an error");
}

#[test]
fn kondavo_plays_kondavo_to_the_end() {
    for variant in ["international", "russian", "english", "turkish"] {
        let (_server, addr) = Kondavo::server(&["--time", "0.03", "--variant", variant]);
        let pdn_path =
            std::env::temp_dir().join(format!("kondavo-dxp-{variant}-{}.pdn", std::process::id()));
        let _ = std::fs::remove_file(&pdn_path);
        let mut initiator = Kondavo::start(&[
            "--connect",
            &addr,
            "--initiator",
            "--games",
            "2",
            "--time",
            "0.03",
            "--variant",
            variant,
            "--name",
            "kondavo initiator",
            "--pdn",
            pdn_path.to_str().unwrap(),
        ]);
        assert!(initiator.wait(Duration::from_secs(60)).success());
        for n in 1..=2 {
            let line = initiator.line(&format!("game {n} "));
            assert!(!line.contains("result=*"), "{variant}: {line}");
        }
        let text = std::fs::read_to_string(&pdn_path).expect("the PDN file");
        let games = pdn::parse_pdn(&text).unwrap();
        assert_eq!(games.len(), 2, "{text}");
        assert_eq!(games[0].tag("White"), Some("kondavo initiator"));
        assert_eq!(games[1].tag("Black"), Some("kondavo initiator"));
        for g in &games {
            assert_ne!(g.result, pdn::GameResult::Unknown, "{text}");
            let v = g.variant().expect("GameType");
            assert_eq!(v.name(), variant);
            // The record replays legally to a finished game.
            kondavo::with_rules!(v, R => {
                let mut game = kondavo::game::Game::<R>::new(
                    Position::start(),
                    kondavo::game::DrawRules::of(v, false),
                );
                for m in &g.moves {
                    game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}\n{text}"));
                }
                assert!(game.outcome().is_some(), "unfinished: {text}");
            });
        }
        let _ = std::fs::remove_file(&pdn_path);
    }
}

#[test]
fn draws_by_the_rule_sets_rules_end_the_game() {
    // Ukrainian: 15 moves each without a capture or a man move draw. A lone king each; the
    // peer never leaves its king where kondavo could take it.
    let (mut k, addr) = Kondavo::server(&["--time", "0.05", "--variant", "ukrainian"]);
    let mut peer = Peer::connect(&addr);
    let start: Position<Ukrainian> = notation::parse_position("W:WKc1:BKf8").unwrap();
    peer.send(&gamereq(Color::White, 1, b_setup(&start)));
    peer.expect_accept();
    let mut game = Game::new(start, DrawRules::of(Ukrainian::variant(), false));
    let mut visited = vec![start.pieces(Color::Black).lowest()];
    let ended_by_kondavo = loop {
        // kondavo's turn.
        if game.outcome().is_some() {
            assert_eq!(peer.expect_gameend(), (EndReason::Draw, false));
            peer.send_text("E00");
            break true;
        }
        let pos = *game.position();
        match peer.recv() {
            Message::Move(m) => {
                let mv = resolve_move(&pos, &m).expect("a legal move");
                game.play(mv).unwrap();
            }
            other => panic!("expected a MOVE, got {other:?}"),
        }
        // The peer's turn.
        if let Some(outcome) = game.outcome() {
            assert!(!matches!(outcome, kondavo::game::Outcome::Win(_)), "{outcome}");
            peer.send_text("E20");
            assert_eq!(peer.expect_gameend(), (EndReason::Unknown, false));
            break false;
        }
        // A safe move to a square the peer's king has not stood on: no position repeats, so
        // the move counter draws after 30 plies, on kondavo's turn.
        let pos = *game.position();
        let legal = pos.legal_moves();
        let safe: Vec<_> = legal.iter().copied().filter(|&m| !pos.after(m).has_capture()).collect();
        let fresh = safe.iter().copied().find(|m| !visited.contains(&m.to()));
        let mv = fresh.or(safe.first().copied()).unwrap_or(legal[0]);
        visited.push(mv.to());
        peer.send(&Message::Move(move_message::<Ukrainian>(mv, 0)));
        game.play(mv).unwrap();
    };
    let line = k.line("game 1 ");
    assert!(line.contains("result=1-1") && line.contains("draw by"), "{line}");
    assert!(ended_by_kondavo, "the peer had to end the game after {} plies", game.moves().len());
    assert!(line.contains("move counter"), "{line}");
}

#[test]
fn follower_never_uses_more_time_than_it_was_given() {
    // The request gives 1 minute for the game; `--time 0.05` caps it at 3 s. The peer answers
    // at once with its first legal move, so nearly all the wall time of the game is kondavo's.
    const BUDGET: f64 = 3.0;
    let (_k, addr) = Kondavo::server(&["--time", "0.05"]);
    let mut peer = Peer::connect(&addr);
    peer.send(&gamereq(Color::White, 1, Setup::Start));
    peer.expect_accept();
    let mut board = Board::new(Position::<International>::start());
    let mut thinking = Duration::ZERO;
    let mut our_moves = 0;
    let mut asked = Instant::now();
    let ended = loop {
        // kondavo's turn.
        let pos = board.pos();
        match peer.recv() {
            Message::Move(m) => {
                thinking += asked.elapsed();
                our_moves += 1;
                let mv = resolve_move(&pos, &m).unwrap_or_else(|e| panic!("{m:?}: {e}"));
                board.history.push(pos.after(mv));
            }
            Message::GameEnd { .. } => break "kondavo",
            other => panic!("expected a MOVE, got {other:?}"),
        }
        // The peer's turn.
        if board.pos().legal_moves().is_empty() || board.history.len() > 400 {
            peer.send_text("E10");
            peer.expect_gameend();
            break "peer";
        }
        board.our_move(&mut peer);
        asked = Instant::now();
    };
    let used = thinking.as_secs_f64();
    println!("{our_moves} moves by kondavo in {used:.2} s, game ended by the {ended}");
    assert!(our_moves >= 10, "too short a game to tell: {our_moves} moves");
    // The measured time also holds loopback latency and the peer's bookkeeping for every
    // move (a few ms each, more when this machine runs the other tests at the same time).
    assert!(used <= BUDGET + 0.3, "kondavo thought {used:.2} s of a {BUDGET} s game");
    // And it used its time rather than moving at random.
    assert!(used >= BUDGET * 0.1, "kondavo thought only {used:.2} s of a {BUDGET} s game");
}
