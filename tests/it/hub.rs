//! Hub protocol transcripts: the engine runs as a child process, as clients run it.

use kondavo::notation::{parse_hub_move, parse_position};
use kondavo::position::Position;
use kondavo::variant::Variant;
use kondavo::with_rules;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

const WAIT: Duration = Duration::from_secs(20);

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kondavo"))
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kondavo starts");
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        let tx2 = tx.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        // Standard error is merged, as pydraughts does: nothing there may look like protocol.
        std::thread::spawn(move || {
            for l in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx2.send(format!("stderr: {l}"));
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn next(&mut self) -> String {
        let line = self.lines.recv_timeout(WAIT).expect("a line from the engine");
        assert!(!line.starts_with("stderr:"), "unexpected log line: {line}");
        line
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.next();
            let stop = l.starts_with(prefix);
            out.push(l);
            if stop {
                return out;
            }
        }
    }

    fn handshake(&mut self) {
        self.send("hub");
        self.until("wait");
        self.send("init");
        assert_eq!(self.next(), "ready");
    }

    fn close(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let start = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            assert!(start.elapsed() < WAIT, "engine did not quit on end of input");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Splits a Hub line as pydraughts does: tokens outside quotes, each `key=value`.
fn fields(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.split_once(' ').map(|(_, r)| r).unwrap_or("");
    while !rest.is_empty() {
        rest = rest.trim_start();
        let (key, after) = rest.split_once('=').unwrap_or_else(|| panic!("bare token in {line}"));
        assert!(!key.contains(' ') && !key.is_empty(), "bad key in {line}");
        let (value, next) = if let Some(q) = after.strip_prefix('"') {
            let end = q.find('"').unwrap_or_else(|| panic!("unterminated quote in {line}"));
            (q[..end].to_string(), &q[end + 1..])
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        assert!(!value.contains('='), "'=' inside a value in {line}");
        out.push((key.to_string(), value));
        rest = next;
    }
    out
}

fn get<'a>(f: &'a [(String, String)], key: &str) -> Option<&'a str> {
    f.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// Checks an `info` line as clients read it.
fn check_info(line: &str) {
    assert!(line.starts_with("info "), "{line}");
    assert!(line.contains(" pv=\""), "pv must be quoted: {line}");
    let f = fields(line);
    for key in ["depth", "nodes"] {
        get(&f, key).unwrap_or_else(|| panic!("no {key}: {line}")).parse::<u64>().expect("integer");
    }
    for key in ["score", "time", "nps"] {
        get(&f, key).unwrap_or_else(|| panic!("no {key}: {line}")).parse::<f64>().expect("number");
    }
    let score = get(&f, "score").unwrap();
    assert!(score.split_once('.').is_some_and(|(_, d)| d.len() == 2), "two decimals: {line}");
}

/// The `move=` and `ponder=` of a `done` line.
fn done(line: &str) -> (String, Option<String>) {
    assert!(line.starts_with("done move="), "{line}");
    let f = fields(line);
    assert!(f.len() <= 2 && f[0].0 == "move", "{line}");
    (f[0].1.clone(), get(&f, "ponder").map(str::to_string))
}

#[test]
fn handshake_declares_params_with_variant_first_and_values_last() {
    let mut e = Engine::start();
    e.send("hub");
    let lines = e.until("wait");
    assert!(lines[0].starts_with("id name=kondavo "), "{lines:?}");
    let variant = lines.iter().find(|l| l.contains("name=variant")).expect("variant param");
    assert!(
        variant.starts_with("param name=variant value=international type=enum values=\""),
        "{variant}"
    );
    assert!(variant.ends_with(
        "international brazilian russian ukrainian english italian spanish czech turkish killer \
         breakthrough antidraughts frisian frysk\""
    ));
    for l in &lines {
        fields(l);
    }
    for name in
        ["optional-capture", "threads", "hash", "tt-size", "ponder", "multipv", "move-numbering"]
    {
        assert!(lines.iter().any(|l| l.starts_with(&format!("param name={name} "))), "{name}");
    }
    e.send("init");
    assert_eq!(e.next(), "ready");
    e.send("quit");
    assert!(e.close().success());
}

#[test]
fn every_rule_set_thinks_and_plays_a_legal_move() {
    let mut e = Engine::start();
    e.handshake();
    for name in [
        "normal",
        "brazilian",
        "russian",
        "ukrainian",
        "american",
        "italian",
        "spanish",
        "czech",
        "turkish",
    ] {
        e.send(&format!("set-param name=variant value={name}"));
        e.send("new-game");
        e.send("pos");
        e.send("level depth=5");
        e.send("go think");
        let lines = e.until("done");
        let (infos, last) = lines.split_at(lines.len() - 1);
        assert!(!infos.is_empty(), "{name}: no info");
        infos.iter().for_each(|l| check_info(l));
        let (mv, ponder) = done(&last[0]);
        let v: Variant = name.parse().unwrap();
        with_rules!(v, R => {
            let start = Position::<R>::start();
            let m = parse_hub_move(&start, &mv).unwrap_or_else(|err| panic!("{name}: {mv}: {err}"));
            if let Some(p) = ponder {
                parse_hub_move(&start.after(m), &p).unwrap_or_else(|err| panic!("{name}: ponder {p}: {err}"));
            }
        });
    }
}

#[test]
fn positions_with_moves_and_captures_in_any_order() {
    let mut e = Engine::start();
    e.handshake();
    // International: after 32-28 19-23, white must take: 28x19 (captured square last).
    e.send("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"");
    e.send("level depth=3");
    e.send("go think");
    let (mv, _) = done(e.until("done").last().unwrap());
    assert_eq!(mv, "28x19x23");
    // Russian game written with captured squares in any order.
    e.send("set-param name=variant value=russian");
    e.send("pos moves=\"22-18 11-15 18x11x15\"");
    e.send("level depth=2");
    e.send("go think");
    let (mv, _) = done(e.until("done").last().unwrap());
    let v: Variant = "russian".parse().unwrap();
    with_rules!(v, R => {
        let mut pos = Position::<R>::start();
        for m in ["22-18", "11-15", "18x11x15"] {
            pos = pos.after(parse_hub_move(&pos, m).unwrap());
        }
        parse_hub_move(&pos, &mv).unwrap();
    });
}

#[test]
fn pondering_never_ends_by_itself() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos");
    e.send("level depth=3");
    e.send("go ponder");
    // Depth 3 takes milliseconds, but a ponder search waits for ponder-hit or stop.
    let until = Instant::now() + Duration::from_millis(400);
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match e.lines.recv_timeout(left) {
            Ok(l) => assert!(l.starts_with("info "), "{l}"),
            Err(_) => break,
        }
    }
    e.send("stop");
    let lines = e.until("done");
    assert_eq!(lines.iter().filter(|l| l.starts_with("done")).count(), 1);
}

#[test]
fn pondering_ends_on_ponder_hit_with_the_time_limit_or_on_stop() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos");
    e.send("level move-time=0.3");
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(300));
    let hit = Instant::now();
    e.send("ponder-hit");
    let lines = e.until("done");
    assert!(hit.elapsed() < Duration::from_secs(5), "{:?}", hit.elapsed());
    assert_eq!(lines.iter().filter(|l| l.starts_with("done")).count(), 1);
    // And with stop instead.
    e.send("pos");
    e.send("level move-time=0.3");
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let (mv, _) = done(e.until("done").last().unwrap());
    assert!(!mv.is_empty());
    e.send("ping");
    assert_eq!(e.next(), "pong");
}

#[test]
fn ping_is_answered_during_a_search() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ping");
    let lines = e.until("pong");
    assert!(lines.iter().all(|l| l.starts_with("info") || l == "pong"), "{lines:?}");
    e.send("stop");
    let lines = e.until("done");
    assert_eq!(lines.iter().filter(|l| l.starts_with("done")).count(), 1);
}

#[test]
fn idle_stop_and_ponder_hit_print_nothing() {
    let mut e = Engine::start();
    e.handshake();
    e.send("stop");
    e.send("ponder-hit");
    e.send("set-param name=initial-time value=300");
    e.send("");
    e.send("ping");
    assert_eq!(e.next(), "pong");
}

#[test]
fn another_line_during_a_search_ends_it_first() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.send("hub");
    let lines = e.until("wait");
    let done_at = lines.iter().position(|l| l.starts_with("done")).expect("done");
    let id_at = lines.iter().position(|l| l.starts_with("id ")).expect("id");
    assert!(done_at < id_at, "{lines:?}");
}

#[test]
fn multipv_analysis_reports_each_line() {
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=multipv value=3");
    e.send("pos");
    e.send("level depth=6");
    e.send("go analyze");
    let lines = e.until("done");
    for k in 1..=3 {
        let tag = format!("multipv={k} ");
        let depth6 = lines.iter().filter(|l| l.contains(&tag) && l.contains("depth=6 ")).count();
        assert_eq!(depth6, 1, "line {k}: {lines:?}");
    }
    let first_moves: Vec<String> = lines
        .iter()
        .filter(|l| l.contains("depth=6 "))
        .map(|l| get(&fields(l), "pv").unwrap().split(' ').next().unwrap().to_string())
        .collect();
    assert_eq!(first_moves.len(), 3);
    assert!(
        first_moves[0] != first_moves[1]
            && first_moves[1] != first_moves[2]
            && first_moves[0] != first_moves[2]
    );
}

#[test]
fn wdl_param_adds_win_draw_loss_chances_to_info() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos");
    e.send("level depth=4");
    e.send("go analyze");
    let lines = e.until("done");
    assert!(lines.iter().all(|l| !l.contains("wdl=")), "off by default: {lines:?}");
    e.send("set-param name=wdl value=true");
    // Levels last until the next `pos`.
    e.send("pos");
    e.send("level depth=4");
    e.send("go analyze");
    let lines = e.until("done");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for line in infos {
        check_info(line);
        let f = fields(line);
        let w: Vec<u32> = get(&f, "wdl")
            .unwrap_or_else(|| panic!("no wdl: {line}"))
            .split(',')
            .map(|x| x.parse().expect("per mille"))
            .collect();
        assert_eq!((w.len(), w.iter().sum::<u32>()), (3, 1000), "{line}");
    }
    // A position with a forced win: 1000,0,0 for the side to move.
    let board: String = (1..=50)
        .map(|sq| {
            if sq == 28 {
                'b'
            } else if sq == 32 {
                'w'
            } else {
                'e'
            }
        })
        .collect();
    e.send(&format!("pos pos=W{board}"));
    e.send("level depth=4");
    e.send("go analyze");
    let lines = e.until("done");
    let last = lines.iter().rfind(|l| l.starts_with("info ")).expect("an info line");
    assert_eq!(get(&fields(last), "wdl"), Some("1000,0,0"), "{last}");
    e.send("set-param name=wdl value=maybe");
    assert!(e.next().starts_with("error "), "a bad boolean is an error");
}

#[test]
fn bad_input_gets_an_error_and_the_engine_keeps_going() {
    let mut e = Engine::start();
    e.handshake();
    let cases: [(&str, &str); 9] = [
        ("pos pos=Wbbb", "bad position"),
        ("pos moves=\"32-28 32-28\"", "illegal move"),
        ("frobnicate now", "unknown command"),
        ("set-param name=threads value=lots", "threads"),
        ("set-param name=hash value=0", "hash"),
        ("set-param name=variant value=frisia", "frisia"),
        ("pos moves=\"32-28", "unterminated"),
        ("level depth=deep", "depth"),
        ("go sideways", "go"),
    ];
    for (line, needle) in cases {
        e.send(line);
        let reply = e.next();
        assert!(reply.starts_with("error message="), "{line}: {reply}");
        assert!(reply.contains(needle), "{line}: {reply}");
        fields(&reply);
    }
    // Binary bytes and a huge line.
    e.send_bytes(b"\xff\xfe\x00\x01 go\n");
    assert!(e.next().starts_with("error message="));
    e.send(&"x".repeat(2 << 20));
    assert!(e.next().starts_with("error message="));
    // The old values were kept: the variant is still international, threads 1.
    e.send("hub");
    let lines = e.until("wait");
    assert!(lines.iter().any(|l| l.starts_with("param name=variant value=international ")));
    assert!(lines.iter().any(|l| l.starts_with("param name=threads value=1 ")));
    // The previous position was kept: white to move at the start.
    e.send("level depth=2");
    e.send("go think");
    let (mv, _) = done(e.until("done").last().unwrap());
    parse_hub_move(&parse_position::<kondavo::rules::International>("start").unwrap(), &mv)
        .unwrap();
    e.send("quit");
    assert!(e.close().success());
}

#[test]
fn end_of_input_quits_even_during_a_search() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.close().success());
}

#[test]
fn pydraughts_06_numbering_is_detected_from_an_illegal_move_list() {
    // Russian in the rule set's own numbering (1 = a1): c3-d4 is 10-14 (internally 22-18).
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=variant value=russian");
    e.send("pos moves=\"10-14\"");
    e.send("level depth=4");
    e.send("go think");
    let (mv, _) = done(e.until("done").last().unwrap());
    // The reply is in the same numbering: Black's men stand on 21-32 there.
    let from: usize = mv.split(['-', 'x']).next().unwrap().parse().unwrap();
    assert!((21..=32).contains(&from), "{mv}");
    // Set explicitly, it works from the first move.
    e.send("set-param name=move-numbering value=variant");
    e.send("pos");
    e.send("level depth=4");
    e.send("go think");
    let (mv, _) = done(e.until("done").last().unwrap());
    let from: usize = mv.split(['-', 'x']).next().unwrap().parse().unwrap();
    assert!((9..=12).contains(&from), "{mv}");
}

/// The `score` of the last `info` line of a fixed-depth search of `pos`.
fn score_at_depth(e: &mut Engine, pos: &str, depth: u32) -> String {
    e.send(&format!("pos pos={pos}"));
    e.send(&format!("level depth={depth}"));
    e.send("go analyze");
    let lines = e.until("done");
    let info = lines.iter().rev().find(|l| l.starts_with("info")).expect("an info line");
    get(&fields(info), "score").expect("a score").to_string()
}

#[test]
fn eval_file_loads_weights_and_a_bad_file_is_an_error_that_keeps_the_old_ones() {
    use kondavo::eval::{Model, layout, model};
    use kondavo::variant::Base;
    let dir = std::env::temp_dir().join(format!("kondavo-hub-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let windows = layout::default_windows(model::shape_of(Base::International));
    let zero = dir.join("zero.kdw");
    std::fs::write(&zero, Model::zero(Base::International, windows, 8).unwrap().to_bytes())
        .unwrap();
    let corrupt = dir.join("corrupt.kdw");
    let mut bytes = std::fs::read(&zero).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    std::fs::write(&corrupt, &bytes).unwrap();
    let english = dir.join("english.kdw");
    let w8 = layout::default_windows(model::shape_of(Base::English));
    std::fs::write(&english, Model::zero(Base::English, w8, 8).unwrap().to_bytes()).unwrap();
    // Hub position string of W:W31-44,46-50:B1-8,10-12,14-20,23 (White a man up).
    let pos = with_rules!("international".parse::<Variant>().unwrap(), R => {
        kondavo::notation::to_hub_position(
            &parse_position::<R>("W:W31-44,46-50:B1-8,10-12,14-20,23").unwrap(),
        )
    });

    let mut e = Engine::start();
    e.handshake();
    let built_in = score_at_depth(&mut e, &pos, 3);
    assert_ne!(built_in, "0.00");
    e.send(&format!("set-param name=eval-file value={}", zero.display()));
    assert_eq!(score_at_depth(&mut e, &pos, 3), "0.00", "all-zero weights score nothing");
    for (file, needle) in [
        (corrupt.display().to_string(), "checksum"),
        (english.display().to_string(), "english"),
        (dir.join("missing.kdw").display().to_string(), "cannot read"),
    ] {
        e.send(&format!("set-param name=eval-file value={file}"));
        let reply = e.next();
        assert!(reply.starts_with("error message=") && reply.contains(needle), "{reply}");
        fields(&reply);
        assert_eq!(score_at_depth(&mut e, &pos, 3), "0.00", "the loaded weights stay");
    }
    e.send("hub");
    let lines = e.until("wait");
    let shown = format!("param name=eval-file value={} type=string", zero.display());
    assert!(lines.contains(&shown), "{lines:?}");
    e.send("set-param name=eval-file value=default");
    assert_eq!(score_at_depth(&mut e, &pos, 3), built_in);
    // Another rule set drops a file made for the old one.
    e.send(&format!("set-param name=eval-file value={}", zero.display()));
    e.send("set-param name=variant value=english");
    e.send("hub");
    let lines = e.until("wait");
    assert!(lines.iter().any(|l| l == "param name=eval-file value=default type=string"));
    e.send("quit");
    assert!(e.close().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn endgame_databases_are_probed_from_egdb_path_up_to_egdb_pieces() {
    use kondavo::egdb::build::Generator;
    use kondavo::rules::English;
    let dir = std::env::temp_dir().join(format!("kondavo-hub-egdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut g = Generator::<English>::new(Some(dir.clone()));
    g.build(&Generator::<English>::slices_up_to(3), |_| {}).expect("builds");
    let pos = kondavo::notation::to_hub_position(
        &parse_position::<English>("W:WK1,K2:BK32").expect("valid"),
    );
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=variant value=english");
    e.send(&format!("set-param name=egdb-path value={}", dir.display()));
    let with: f64 = score_at_depth(&mut e, &pos, 4).parse().expect("a number");
    assert!((90.0..99.0).contains(&with), "a database win shows between 90 and 99: {with}");
    e.send("set-param name=egdb-pieces value=0");
    let without: f64 = score_at_depth(&mut e, &pos, 4).parse().expect("a number");
    assert!(without < 90.0, "{without}");
    e.send("set-param name=egdb-pieces value=9");
    let reply = e.next();
    assert!(reply.starts_with("error message=") && reply.contains("egdb-pieces"), "{reply}");
    e.send("set-param name=egdb-pieces value=3");
    e.send("hub");
    let lines = e.until("wait");
    let shown = format!("param name=egdb-path value={} type=string", dir.display());
    assert!(lines.contains(&shown), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("param name=egdb-pieces value=3 ")), "{lines:?}");
    let with: f64 = score_at_depth(&mut e, &pos, 4).parse().expect("a number");
    assert!(with >= 90.0, "{with}");
    // A directory without databases (and no building): the engine plays on without them.
    e.send("set-param name=egdb-build value=false");
    e.send("set-param name=egdb-path value=/nonexistent/kondavo");
    let without: f64 = score_at_depth(&mut e, &pos, 4).parse().expect("a number");
    assert!(without < 90.0, "{without}");
    e.send("quit");
    assert!(e.close().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn small_endgame_databases_are_built_on_first_use_unless_egdb_build_is_off() {
    let dir = std::env::temp_dir().join(format!("kondavo-hub-egdb-build-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pos = kondavo::notation::to_hub_position(
        &parse_position::<kondavo::rules::Russian>("W:WKa1,Kc1,Ke1:BKh2").expect("valid"),
    );
    // Off: nothing is built and the search does not know the win.
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=egdb-build value=false");
    e.send("set-param name=variant value=russian");
    e.send(&format!("set-param name=egdb-path value={}", dir.display()));
    let without: f64 = score_at_depth(&mut e, &pos, 4).parse().expect("a number");
    assert!(without < 90.0, "{without}");
    assert!(!dir.join("russian").join("0003.kdb").exists(), "built although egdb-build is off");
    e.send("hub");
    let lines = e.until("wait");
    assert!(lines.iter().any(|l| l == "param name=egdb-build value=false type=bool"), "{lines:?}");
    // On (the default): every slice up to 4 pieces is built and probed.
    e.send("set-param name=egdb-build value=true");
    let with: f64 = score_at_depth(&mut e, &pos, 4).parse().expect("a number");
    assert!((90.0..99.0).contains(&with), "a database win shows between 90 and 99: {with}");
    e.send("quit");
    assert!(e.close().success());
    let files = std::fs::read_dir(dir.join("russian")).expect("the rule set's directory").count();
    // 41 slices up to 4 pieces, and the lock file.
    assert_eq!(
        files,
        42,
        "{:?}",
        std::fs::read_dir(dir.join("russian")).unwrap().collect::<Vec<_>>()
    );
    // A new engine finds them: no rebuild (the files keep their times).
    let stamp = |p: &std::path::Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let first = stamp(&dir.join("russian").join("0103.kdb"));
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=variant value=russian");
    e.send(&format!("set-param name=egdb-path value={}", dir.display()));
    let again: f64 = score_at_depth(&mut e, &pos, 4).parse().expect("a number");
    assert_eq!(again, with);
    e.send("quit");
    assert!(e.close().success());
    assert_eq!(stamp(&dir.join("russian").join("0103.kdb")), first);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `level` handicaps `go think` (one honest `info`, a legal move); `elo` picks a level on the
/// rule set's own ladder, clamped with an error line outside it; bad values are errors.
#[test]
fn level_elo_and_seed_params() {
    let mut e = Engine::start();
    e.send("hub");
    let params = e.until("wait");
    for name in ["level", "elo", "seed"] {
        assert!(
            params.iter().any(|l| l.starts_with(&format!("param name={name} "))),
            "no {name} param in {params:?}"
        );
    }
    e.send("init");
    assert_eq!(e.next(), "ready");
    e.send("set-param name=level value=3");
    e.send("set-param name=seed value=7");
    // The level's own search, not the book.
    e.send("set-param name=book value=false");
    for _ in 0..3 {
        e.send("pos");
        e.send("level move-time=5");
        e.send("go think");
        let lines = e.until("done");
        let (infos, last) = lines.split_at(lines.len() - 1);
        assert_eq!(infos.len(), 1, "one info line for the move played: {infos:?}");
        check_info(&infos[0]);
        let nodes: u64 = get(&fields(&infos[0]), "nodes").unwrap().parse().unwrap();
        assert!(nodes <= 154 + 1, "level 3 searches 154 nodes, not {nodes}");
        let (mv, _) = done(&last[0]);
        let start = Position::<kondavo::rules::International>::start();
        parse_hub_move(&start, &mv).unwrap_or_else(|err| panic!("{mv}: {err}"));
        let pv = get(&fields(&infos[0]), "pv").unwrap().to_string();
        assert_eq!(pv.split(' ').next(), Some(mv.as_str()), "the info line is the move played");
    }
    for (name, value) in [("level", "0"), ("level", "21"), ("level", "x"), ("seed", "-1")] {
        e.send(&format!("set-param name={name} value={value}"));
        let l = e.next();
        assert!(l.starts_with(&format!("error message=\"{name}:")), "{name}={value}: {l}");
    }
    // A rule set with a measured ladder: a rating in range picks a level silently, one outside
    // it is clamped with an error line, and the engine plays on at the clamped level.
    e.send("set-param name=variant value=international");
    let (low, high) = {
        let l = kondavo::level::ladder(kondavo::variant::Base::International).expect("a ladder");
        (l.elo[0], l.elo[19])
    };
    e.send(&format!("set-param name=elo value={}", (low + high) / 2));
    e.send("ping");
    assert_eq!(e.next(), "pong", "a rating inside the ladder is no error");
    for elo in [low - 500, high + 500] {
        e.send(&format!("set-param name=elo value={elo}"));
        let l = e.next();
        assert!(l.starts_with("error message=\"elo:"), "elo {elo}: {l}");
        assert!(l.contains("outside") && l.contains("using"), "elo {elo}: {l}");
        e.send("pos");
        e.send("level nodes=2000");
        e.send("go think");
        let lines = e.until("done");
        let (mv, _) = done(lines.last().unwrap());
        let start = Position::<kondavo::rules::International>::start();
        parse_hub_move(&start, &mv).unwrap_or_else(|err| panic!("{mv}: {err}"));
    }
    // Every rule set rates on its own ladder (or the one it shares): frisian's lowest level here.
    e.send("set-param name=variant value=frisian");
    let low = kondavo::level::ladder(kondavo::variant::Base::Frisian).expect("a ladder").elo[0];
    e.send(&format!("set-param name=elo value={}", low - 1));
    let l = e.next();
    assert!(l.starts_with("error message=\"elo:"), "elo below frisian's ladder: {l}");
    assert!(l.contains("frisian") && l.contains(&format!("using {low}")), "{l}");
    e.send("set-param name=elo value=x");
    let l = e.next();
    assert!(l.starts_with("error message=\"elo:"), "elo=x: {l}");
    e.send("quit");
}

#[test]
fn book_params_play_book_moves_at_once_and_bad_book_files_are_errors() {
    let mut e = Engine::start();
    e.send("hub");
    let params = e.until("wait");
    for (name, value) in [("book", "true"), ("book-margin", "10"), ("book-file", "default")] {
        assert!(
            params.iter().any(|l| l.starts_with(&format!("param name={name} value={value} "))),
            "no {name}={value} param in {params:?}"
        );
    }
    e.send("init");
    assert_eq!(e.next(), "ready");
    let start = Position::<kondavo::rules::International>::start();
    // From the start the built-in book answers at once: one line of depth 0, no nodes.
    e.send("pos");
    e.send("level time=60 inc=1");
    e.send("go think");
    let lines = e.until("done");
    assert_eq!(lines.len(), 2, "one info line and done: {lines:?}");
    check_info(&lines[0]);
    let f = fields(&lines[0]);
    assert_eq!((get(&f, "depth"), get(&f, "nodes")), (Some("0"), Some("0")), "{}", lines[0]);
    let (mv, _) = done(&lines[1]);
    parse_hub_move(&start, &mv).unwrap_or_else(|err| panic!("{mv}: {err}"));
    // Analysis never uses the book.
    e.send("pos");
    e.send("level depth=3");
    e.send("go analyze");
    let lines = e.until("done");
    let depths: Vec<u32> =
        lines.iter().filter_map(|l| get(&fields(l), "depth").map(|d| d.parse().unwrap())).collect();
    assert!(depths.contains(&3), "analysis searched: {lines:?}");
    // book=false: the move is searched.
    e.send("set-param name=book value=false");
    e.send("pos");
    e.send("level nodes=3000");
    e.send("go think");
    let lines = e.until("done");
    let nodes: u64 = get(&fields(&lines[lines.len() - 2]), "nodes").unwrap().parse().unwrap();
    assert!(nodes > 0, "book off: searched");
    e.send("set-param name=book value=true");
    // A missing, damaged or foreign book file is an error and changes nothing; play goes on.
    let dir = std::env::temp_dir().join(format!("kondavo-hub-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.kdb");
    std::fs::write(&garbage, b"KDVBOOK1 and then nothing that makes sense").unwrap();
    for file in [dir.join("missing.kdb"), garbage] {
        e.send(&format!("set-param name=book-file value=\"{}\"", file.display()));
        let l = e.next();
        assert!(l.starts_with("error message=\"book-file:"), "{l}");
    }
    for (name, value) in [("book", "maybe"), ("book-margin", "-1"), ("book-margin", "100000")] {
        e.send(&format!("set-param name={name} value={value}"));
        let l = e.next();
        assert!(l.starts_with(&format!("error message=\"{name}:")), "{name}={value}: {l}");
    }
    e.send("pos");
    e.send("level nodes=3000");
    e.send("go think");
    let lines = e.until("done");
    let (mv, _) = done(lines.last().unwrap());
    parse_hub_move(&start, &mv).unwrap_or_else(|err| panic!("{mv}: {err}"));
    e.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}
