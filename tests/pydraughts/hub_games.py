#!/usr/bin/env python3
"""Complete kondavo-vs-kondavo games through pydraughts' HubEngine, with real clocks.

Usage (from the repository root, after `.ci/pyenv.sh` and `cargo build --release`):

    .venv/pd057/bin/python tests/pydraughts/hub_games.py --kondavo target/release/kondavo
    .venv/pd067/bin/python tests/pydraughts/hub_games.py --kondavo target/release/kondavo --figure

What it does, for the pydraughts version of the interpreter that runs it:

1. For every rule set pydraughts knows that kondavo plays (standard, russian, brazilian,
   english, italian, turkish, antidraughts, breakthrough, frisian, frysk) and for each mode (`think`: no pondering; `ponder`: both engines
   ponder), one complete game between two kondavo processes driven by pydraughts' own
   `HubEngine`: the first mover runs `kondavo hub`, the second plain `kondavo` (Hub on a pipe).
   Each engine is set up the way lidraughts-bot does it: `hub`, `set-param` lines
   (variant = pydraughts' variant name, `ponder`, and for pydraughts 0.6.x
   `move-numbering=variant`, see below), `init`; then every move goes through
   `HubEngine.play(board, Limit(time=clock, inc=inc), ponder)`, which sends
   `pos pos=<start> moves="<game>"`, `level time=<clock - inc> inc=<inc>` and `go think`/`go ponder`.
2. Clocks (Fischer, lidraughts style): each side starts with --base seconds, the time the engine
   takes for a move is subtracted and --inc added after the move. A clock below zero is a time
   forfeit and fails the run. The time charged is the engine's time measured at the pipe: from
   the first line sent for the move (`pos`, or `ponder-hit`, or `stop` of a missed ponder search)
   to the `done` that answers it. pydraughts' own work around it (parsing the move with its rules,
   which takes milliseconds in Python) is measured too and reported as "client", not charged.
3. Pondering (mode `ponder`), the way lidraughts-bot does it: after an engine moves with a
   `ponder=` move, a thread calls `play(board + move + ponder move, Limit(time=own clock,
   inc=inc), ponder=True)` (`go ponder`) while the opponent thinks; when the opponent's move
   arrives, `ponder-hit` if it is the expected one (the thread's result is the move), otherwise
   `stop` (the stopped search's `done` is read and must still be a legal move of the pondered
   position) and a normal `play`. A ponder move after which the game is over is not pondered
   (kondavo would answer `done move=""` at once, which pydraughts cannot parse).
4. Every `done` is checked against pydraughts' rules: the move must be legal in the game position
   (pydraughts' Move() raises otherwise), `ponder=` must be legal after it, a `done` line must
   read `done move=<m>[ ponder=<m>]`, no `error` lines, `info` lines must have `score` and a
   quoted `pv`. A game ends when pydraughts says so (`is_over`) or after --max-plies plies.
5. Everything has a timeout (a search that is not answered within its clock + --grace seconds is
   a hang); any failure prints the last lines exchanged with both engines. Full transcripts
   (timestamped, `<<` = to the engine, `>>` = from it) go to --transcripts.
6. --figure adds the time-use figure for the notes: international, both clocks at 5 s + 0.1 s per
   move (the first command is `level time=5.0 inc=0.1`), 100 moves per side (200 plies; if the
   game ends earlier, a new game starts with the clocks carried over), no pondering. It prints
   the longest single move and the lowest clock left.

Move numbering. pydraughts 0.5.7 sends and reads moves in the Hub position-string numbering;
kondavo's default `move-numbering=auto` starts there, so nothing is set (as lidraughts bots do).
pydraughts 0.6.x sends and reads moves in the rule set's own numbering for russian, brazilian,
english and turkish, so the script sets `move-numbering=variant` there (--numbering default).
`auto` cannot serve 0.6.x on its own: the engine that moves first gets an empty move list for its
first move, answers in the internal numbering, and pydraughts 0.6 cannot parse that move (run
with --numbering auto to see it).

Defaults: 1.5 s + 0.04 s per move, 150 plies at most, one game per rule set and mode, hash
16 MiB and 1 thread per engine. Runtime on the 2-core machine (shared with other jobs): about
2 minutes per pydraughts version, plus about 30 s for --figure.

Exit status: 0 when every game finished without a failure, 1 otherwise, 3 when pydraughts is
missing.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading
import time
import traceback
from typing import Any, Callable, Dict, List, Optional, Tuple

try:
    import draughts
    from draughts.engine import HubEngine, Limit
except ImportError as exc:  # pragma: no cover - reported to the caller
    sys.stderr.write(f"hub_games: cannot import pydraughts ({exc}); run .ci/pyenv.sh\n")
    sys.exit(3)

try:
    from importlib.metadata import version as _dist_version
    PYDRAUGHTS_VERSION = _dist_version("pydraughts")
except Exception:  # pragma: no cover
    PYDRAUGHTS_VERSION = getattr(draughts, "__version__", "0")

PD_VERSION = tuple(int(x) for x in re.findall(r"\d+", PYDRAUGHTS_VERSION)[:3])
PD06 = PD_VERSION >= (0, 6)

# pydraughts variant name -> kondavo rule set (for the report; the engine gets pydraughts' name,
# as a pydraughts user would send it).
VARIANTS = {
    "standard": "international",
    "russian": "russian",
    "brazilian": "brazilian",
    "english": "english",
    "italian": "italian",
    "turkish": "turkish",
    "antidraughts": "antidraughts",
    "breakthrough": "breakthrough",
    "frisian": "frisian",
    "frysk": "frysk",
}
# Rule sets where pydraughts 0.6 numbers moves its own way.
OWN_NUMBERING_06 = {"russian", "brazilian", "english", "turkish"}

DONE_RE = re.compile(r"^done move=(\S+)( ponder=(\S+))?$")


class Failure(Exception):
    """A problem found in kondavo's behaviour (or the harness gave up on it)."""


# --------------------------------------------------------------------------------------------
# pydraughts board, both API generations
# --------------------------------------------------------------------------------------------

class PdBoard:
    """The game position by pydraughts' rules (0.5.x `Game`, 0.6.x `Board`)."""

    def __init__(self, variant: str, board: Any = None) -> None:
        self.variant = variant
        if board is not None:
            self.b = board
        elif PD06:
            self.b = draughts.Board(variant)
        else:
            self.b = draughts.Game(variant)

    def copy(self) -> "PdBoard":
        return PdBoard(self.variant, self.b.copy())

    def legal_board_moves(self) -> List[List[List[int]]]:
        if PD06:
            moves, _ = self.b._legal_moves_board()
        else:
            moves, _ = self.b.legal_moves()
        return moves

    def push(self, move: Any) -> None:
        if PD06:
            self.b.push(move)
        else:
            self.b.push(move.board_move)

    def is_over(self) -> bool:
        return self.b.is_over()

    def winner(self) -> Optional[int]:
        return self.b.winner() if PD06 else self.b.get_winner()

    def turn(self) -> int:
        return self.b.turn if PD06 else self.b.whose_turn()

    def hub_fen(self) -> str:
        return self.b._game.get_fen() if PD06 else self.b.get_fen()

    def plies(self) -> int:
        return len(self.b.move_stack)


def move_key(move: Any) -> str:
    return repr(move.board_move)


def move_text(move: Any) -> str:
    return getattr(move, "hub_move", None) or repr(move.board_move)


# --------------------------------------------------------------------------------------------
# The engine: pydraughts' HubEngine with a timestamped transcript and protocol checks
# --------------------------------------------------------------------------------------------

class LoggedHub(HubEngine):
    def __init__(self, command: List[str], label: str, t0: float) -> None:
        self.label = label
        self.t0 = t0
        self.tlog: List[Tuple[float, str, str]] = []
        self.problems: List[str] = []
        self._log_lock = threading.Lock()
        self._hub_deferred = True  # HubEngine.__init__ sends `hub` and waits for `wait` without
        super().__init__(command)  # a timeout: done by handshake() instead
        self._hub_deferred = False

    def hub(self) -> Any:
        if self._hub_deferred:
            return None
        return super().hub()

    def handshake(self, timeout: float) -> None:
        ok, _, exc, _ = run_with_timeout(self.hub, timeout)
        if not ok or exc is not None:
            self.kill()
            raise Failure(f"{self.label}: no `wait` within {timeout} s after `hub` ({exc!r}):\n  "
                          + "\n  ".join(self.transcript()))

    def _note(self, direction: str, line: str) -> None:
        with self._log_lock:
            self.tlog.append((time.monotonic(), direction, line))

    def send(self, line: str) -> None:
        # Timestamped before the write, so that no reply is logged before the line it answers
        # (pydraughts' own send() spins for `ponder-hit` until `go ponder` went out: done here
        # first so that the timestamp is that of the write).
        if line == "ponder-hit":
            while self._last_sent != "go ponder":
                time.sleep(0.0002)
        self._note("<<", line)
        super().send(line)

    def recv(self) -> str:
        line = super().recv()
        self._note(">>", line)
        self._check(line)
        return line

    def _check(self, line: str) -> None:
        cmd = line.split(None, 1)[0]
        if cmd == "error":
            self.problems.append(f"error line: {line!r} (after {self.last_sent()!r})")
        elif cmd == "done":
            if not DONE_RE.match(line):
                self.problems.append(f"malformed done line: {line!r}")
        elif cmd == "info":
            if " score=" not in line:
                self.problems.append(f"info without score: {line!r}")
            if re.search(r"\bpv=(?!\")", line):
                self.problems.append(f"info with an unquoted pv: {line!r}")
        elif cmd not in ("id", "param", "wait", "ready", "pong"):
            self.problems.append(f"unexpected line: {line!r} (after {self.last_sent()!r})")

    def last_sent(self) -> str:
        with self._log_lock:
            for _, d, l in reversed(self.tlog):
                if d == "<<":
                    return l
        return ""

    def mark(self) -> int:
        with self._log_lock:
            return len(self.tlog)

    def since(self, mark: int) -> List[Tuple[float, str, str]]:
        with self._log_lock:
            return list(self.tlog[mark:])

    def transcript(self, last: Optional[int] = None, infos: bool = True) -> List[str]:
        with self._log_lock:
            rows = list(self.tlog)
        if not infos:
            rows = [r for r in rows if not r[2].startswith("info ")]
        if last is not None:
            rows = rows[-last:]
        return [f"{t - self.t0:9.3f} {self.label} {d} {l}" for t, d, l in rows]

    def kill(self) -> None:
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.p.wait(timeout=5)
        except Exception:
            pass


def run_with_timeout(fn: Callable[[], Any], timeout: float) -> Tuple[bool, Any, Optional[BaseException], float]:
    """Runs fn on a thread: (finished, result, exception, monotonic time it returned)."""
    box: Dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = fn()
        except BaseException as e:  # noqa: BLE001 - reported
            box["exc"] = e
            box["tb"] = traceback.format_exc()
        box["end"] = time.monotonic()

    th = threading.Thread(target=target, daemon=True)
    th.start()
    th.join(timeout)
    if th.is_alive():
        return False, None, None, time.monotonic()
    exc = box.get("exc")
    if exc is not None:
        exc.tb_text = box.get("tb", "")  # type: ignore[attr-defined]
    return True, box.get("result"), exc, box["end"]


def rejected(eng: LoggedHub, board: PdBoard, what: str, exc: BaseException) -> str:
    """Why pydraughts' play() raised: usually a `done` move (or ponder move) that is not legal
    by pydraughts' rules in the position the client sent."""
    done = next((l for _, d, l in reversed(eng.tlog) if d == ">>" and l.startswith("done")), None)
    pos = next((l for _, d, l in reversed(eng.tlog) if d == "<<" and l.startswith("pos")), None)
    if isinstance(exc, KeyError):
        why = (f"pydraughts found no legal move {exc.args[0]!r} (from, to, captured squares) "
               f"for the reply")
    else:
        why = f"pydraughts raised {exc!r}\n{getattr(exc, 'tb_text', '') or ''.join(traceback.format_exception(type(exc), exc, exc.__traceback__))}"
    return (f"{eng.label}: reply {what} refused: {why}\n  reply: {done}\n  position sent: {pos}\n"
            f"  position by pydraughts: {board.hub_fen()}")


class PonderJob:
    """A `go ponder` running on its own thread, as lidraughts-bot runs it."""

    def __init__(self, engine: LoggedHub, board: PdBoard, expected: Any, limit: Any) -> None:
        self.engine = engine
        self.board = board  # the pondered position (game + move + expected reply)
        self.expected = expected
        self.box: Dict[str, Any] = {}
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.limit = limit
        self.thread.start()

    def _run(self) -> None:
        try:
            self.box["result"] = self.engine.play(self.board.b, self.limit, True)
        except BaseException as e:  # noqa: BLE001 - reported
            e.tb_text = traceback.format_exc()  # type: ignore[attr-defined]
            self.box["exc"] = e
        self.box["end"] = time.monotonic()

    def wait_go_sent(self, timeout: float) -> bool:
        """pydraughts' ponderhit() spins until `go ponder` went out; stop() does not wait, so a
        `stop` sent before it would be lost and the ponder search would never end."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.engine._last_sent == "go ponder":
                return True
            if not self.thread.is_alive():
                return False
            time.sleep(0.0005)
        return False


# --------------------------------------------------------------------------------------------
# One game
# --------------------------------------------------------------------------------------------

class Side:
    def __init__(self, clock: float) -> None:
        self.clock = clock
        self.min_clock = clock
        self.moves = 0
        self.max_move = 0.0       # longest engine time for one move (s)
        self.max_ratio = 0.0      # longest engine time / clock before the move
        self.max_client = 0.0     # longest wall time of the whole client call (s)
        self.max_stop = 0.0       # longest stop -> done of a missed ponder search
        self.ponder_hits = 0
        self.ponder_misses = 0
        self.used = 0.0


class GameResult:
    def __init__(self, variant: str, mode: str) -> None:
        self.variant = variant
        self.mode = mode
        self.plies = 0
        self.outcome = "?"
        self.sides: List[Side] = []
        self.failures: List[str] = []
        self.wall = 0.0
        self.transcript_files: List[str] = []


def engine_time(entries: List[Tuple[float, str, str]]) -> Tuple[float, float]:
    """(engine time, longest stop -> done) of one move from its transcript slice: from the first
    line sent to each `done`, summed over the searches of the move (ponder miss: the stopped
    ponder search, then the real one)."""
    total = 0.0
    stop_latency = 0.0
    start: Optional[float] = None
    start_line = ""
    for t, d, l in entries:
        if d == "<<" and start is None:
            start, start_line = t, l
        elif d == ">>" and l.startswith("done") and start is not None:
            total += t - start
            if start_line == "stop":
                stop_latency = max(stop_latency, t - start)
            start = None
    return total, stop_latency


class Match:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.kondavo = os.path.realpath(args.kondavo)

    def numbering_for(self, variant: str) -> Optional[str]:
        n = self.args.numbering
        if n == "default":
            return "variant" if PD06 and variant in OWN_NUMBERING_06 else None
        return n

    def start_engine(self, variant: str, ponder: bool, label: str, no_args: bool, t0: float) -> LoggedHub:
        cmd = [self.kondavo] if no_args else [self.kondavo, "hub"]
        eng = LoggedHub(cmd, label, t0)
        eng.handshake(10)
        if not eng.variants:
            # pydraughts sends `set-param name=variant` only when it read the variant list.
            raise Failure(f"{label}: pydraughts read no variant list from `hub` ({eng.transcript()})")
        eng.setoption("variant", variant)
        eng.setoption("threads", self.args.threads)
        eng.setoption("hash", self.args.hash)
        eng.setoption("ponder", ponder)
        numbering = self.numbering_for(variant)
        if numbering is not None:
            eng.setoption("move-numbering", numbering)
        ok, _, exc, _ = run_with_timeout(eng.init, 10)
        if not ok or exc is not None:
            eng.kill()
            raise Failure(f"{label}: no `ready` within 10 s after init ({exc!r})")
        return eng

    def play_game(self, variant: str, mode: str, clocks: List[float], inc: float, max_plies: int,
                  tag: str, result: Optional[GameResult] = None) -> GameResult:
        args = self.args
        ponder = mode == "ponder"
        res = result or GameResult(variant, mode)
        if not res.sides:
            res.sides = [Side(clocks[0]), Side(clocks[1])]
        t0 = time.monotonic()
        engines: List[LoggedHub] = []
        jobs: List[Optional[PonderJob]] = [None, None]
        board = PdBoard(variant)
        first = board.turn()
        try:
            engines.append(self.start_engine(variant, ponder, "A", False, t0))
            engines.append(self.start_engine(variant, ponder, "B", True, t0))
            last_key: Optional[str] = None
            while True:
                if board.is_over():
                    w = board.winner()
                    res.outcome = ("draw" if w == 0 else
                                   "first mover wins" if w == first else "second mover wins")
                    break
                if board.plies() >= max_plies:
                    res.outcome = f"unfinished after {max_plies} plies"
                    break
                s = board.plies() % 2
                self.one_move(board, engines[s], res.sides[s], jobs, s, last_key, inc, ponder)
                last_key = self._last_key
                res.plies += 1
                for e in engines:
                    if e.problems:
                        raise Failure(f"{e.label}: " + "; ".join(e.problems))
        except Failure as f:
            res.failures.append(str(f))
        except Exception as e:  # noqa: BLE001 - a harness or pydraughts crash: still report
            res.failures.append(f"harness exception: {e!r}\n{traceback.format_exc()}")
        finally:
            self.shutdown(engines, jobs, res)
            for i, side in enumerate(res.sides):
                clocks[i] = side.clock
            res.wall += time.monotonic() - t0
            self.save_transcripts(engines, tag, res)
            if res.failures:
                for e in engines:
                    res.failures.append(f"last lines exchanged with {e.label} "
                                        f"({'kondavo hub' if e.label == 'A' else 'kondavo'}), "
                                        f"`info` lines left out:\n  "
                                        + "\n  ".join(e.transcript(last=args.tail, infos=False)))
        return res

    def one_move(self, board: PdBoard, eng: LoggedHub, side: Side, jobs: List[Optional[PonderJob]],
                 s: int, last_key: Optional[str], inc: float, ponder: bool) -> None:
        args = self.args
        clock = side.clock
        limit = Limit(time=clock, inc=inc)
        job = jobs[s]
        jobs[s] = None
        mark = eng.mark()
        t_start = time.monotonic()
        result = None
        if job is not None and job.expected == last_key:
            if not job.wait_go_sent(5):
                raise Failure(f"{eng.label}: ponder thread never sent `go ponder` ({job.box.get('exc')!r})")
            eng.ponderhit()
            job.thread.join(clock + args.grace)
            if job.thread.is_alive():
                raise Failure(f"{eng.label}: no `done` within clock + {args.grace} s after ponder-hit (hang)")
            if "exc" in job.box:
                raise Failure(rejected(eng, job.board, "after ponder-hit", job.box["exc"]))
            result = job.box["result"]
            t_end = job.box["end"]
            side.ponder_hits += 1
        else:
            if job is not None:
                if not job.wait_go_sent(5):
                    raise Failure(f"{eng.label}: ponder thread never sent `go ponder` ({job.box.get('exc')!r})")
                eng.stop()
                job.thread.join(args.grace)
                if job.thread.is_alive():
                    raise Failure(f"{eng.label}: no `done` within {args.grace} s after `stop` of a ponder search (hang)")
                if "exc" in job.box:
                    raise Failure(rejected(eng, job.board, "of a stopped ponder search", job.box["exc"]))
                stopped = job.box["result"]
                if stopped.move is None or stopped.move.board_move not in (stopped.move.possible_moves or []):
                    raise Failure(f"{eng.label}: stopped ponder search answered an illegal move")
                side.ponder_misses += 1
            ok, result, exc, t_end = run_with_timeout(lambda: eng.play(board.b, limit, False),
                                                      max(clock, 0) + args.grace)
            if not ok:
                raise Failure(f"{eng.label}: no `done` within clock + {args.grace} s (hang)")
            if exc is not None:
                raise Failure(rejected(eng, board, "", exc))
        client = t_end - t_start
        used, stop_latency = engine_time(eng.since(mark))
        side.max_stop = max(side.max_stop, stop_latency)
        side.max_client = max(side.max_client, client)
        side.max_move = max(side.max_move, used)
        side.used += used
        if clock > 0:
            side.max_ratio = max(side.max_ratio, used / clock)
        side.clock = clock - used
        side.moves += 1
        if side.clock < 0:
            raise Failure(f"{eng.label}: lost on time: {used:.3f} s for a move with {clock:.3f} s "
                          f"on the clock (ply {board.plies() + 1})")
        side.min_clock = min(side.min_clock, side.clock)
        side.clock += inc

        # The move, by pydraughts' rules: Move() already refused anything that is not in
        # pydraughts' legal list of the position (`possible_moves`); checked again here.
        move = result.move
        if move is None or not move.possible_moves or move.board_move not in move.possible_moves:
            raise Failure(f"{eng.label}: illegal move {move_text(move) if move else None} in {board.hub_fen()}")
        fen_before = board.hub_fen()
        board.push(move)
        self._last_key = move_key(move)
        if result.ponder is not None:
            legal = result.ponder.possible_moves
            if not legal or result.ponder.board_move not in legal:
                raise Failure(f"{eng.label}: ponder move {move_text(result.ponder)} is not legal after "
                              f"{move_text(move)} (from {fen_before})")
        if ponder and result.ponder is not None and not board.is_over():
            pboard = board.copy()
            pboard.push(result.ponder)
            # A pondered position where the game is over would be answered `done move=""`, which
            # pydraughts cannot parse (it would raise in the ponder thread): not pondered.
            if not pboard.is_over():
                jobs[s] = PonderJob(eng, pboard, move_key(result.ponder),
                                    Limit(time=side.clock, inc=inc))

    def shutdown(self, engines: List[LoggedHub], jobs: List[Optional[PonderJob]], res: GameResult) -> None:
        for s, job in enumerate(jobs):
            if job is None:
                continue
            if job.wait_go_sent(5):
                job.engine.stop()
            job.thread.join(self.args.grace)
            if job.thread.is_alive():
                res.failures.append(f"{job.engine.label}: no `done` after `stop` of a ponder search at the end of the game (hang)")
            elif "exc" in job.box:
                res.failures.append(rejected(job.engine, job.board, "of a stopped ponder search at the end "
                                             "of the game", job.box["exc"]))
        for e in engines:
            try:
                e.quit()
                e.p.wait(timeout=5)
            except Exception:
                res.failures.append(f"{e.label}: did not exit within 5 s of `quit`")
                e.kill()
            try:
                rest = e.p.stdout.read() if e.p.stdout else ""
            except Exception:
                rest = ""
            for line in (rest or "").splitlines():
                if line.strip():
                    e._note(">>", line.rstrip())
                    e.problems.append(f"output after quit: {line!r}")
            if e.p.returncode not in (0, None):
                res.failures.append(f"{e.label}: exit status {e.p.returncode}")
            for pipe in (e.p.stdin, e.p.stdout):
                try:
                    if pipe:
                        pipe.close()
                except Exception:
                    pass
        for e in engines:
            if e.problems and not any(p in " ".join(res.failures) for p in e.problems):
                res.failures.append(f"{e.label}: " + "; ".join(e.problems))

    def save_transcripts(self, engines: List[LoggedHub], tag: str, res: GameResult) -> None:
        d = self.args.transcripts
        if not d:
            return
        os.makedirs(d, exist_ok=True)
        for e in engines:
            path = os.path.join(d, f"{tag}-{e.label}.log")
            with open(path, "w") as f:
                f.write("\n".join(e.transcript()) + "\n")
            res.transcript_files.append(path)


# --------------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------------

def side_summary(name: str, s: Side) -> str:
    hits = f", ponder hits {s.ponder_hits}/{s.ponder_hits + s.ponder_misses}" if s.ponder_hits + s.ponder_misses else ""
    stop = f", slowest stop {s.max_stop * 1000:.0f} ms" if s.max_stop else ""
    return (f"{name}: {s.moves} moves, used {s.used:.2f} s, longest move {s.max_move:.3f} s "
            f"({s.max_ratio * 100:.1f}% of its clock), lowest clock {s.min_clock:.3f} s, "
            f"client call {s.max_client:.3f} s max{hits}{stop}")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kondavo", required=True, help="path of the kondavo binary")
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help="pydraughts variant names (default: all eight)")
    ap.add_argument("--modes", default="think,ponder", help="think, ponder or both")
    ap.add_argument("--base", type=float, default=1.5, help="seconds on each clock at the start")
    ap.add_argument("--inc", type=float, default=0.04, help="increment per move (s)")
    ap.add_argument("--max-plies", type=int, default=150)
    ap.add_argument("--numbering", choices=["default", "auto", "internal", "variant"], default="default",
                    help="move-numbering to set (default: variant for 0.6.x own-numbering rule sets, "
                         "nothing otherwise)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16, help="hash MiB per engine")
    ap.add_argument("--grace", type=float, default=10.0, help="seconds past the clock before a hang")
    ap.add_argument("--tail", type=int, default=12,
                    help="transcript lines (other than info) shown per engine on failure")
    ap.add_argument("--transcripts", default="", help="folder for the full transcripts")
    ap.add_argument("--figure", action="store_true",
                    help="also the time-use figure: international, 5 s + 0.1 s, 100 moves per side")
    ap.add_argument("--no-games", action="store_true", help="only the figure")
    args = ap.parse_args(argv)

    for v in args.variants.split(","):
        if v not in VARIANTS:
            ap.error(f"unknown variant {v}")
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in ("think", "ponder"):
            ap.error(f"unknown mode {m}")

    match = Match(args)
    t_all = time.monotonic()
    print(f"hub_games: pydraughts {PYDRAUGHTS_VERSION}, kondavo {match.kondavo}, "
          f"clock {args.base:g} s + {args.inc:g} s per move, cap {args.max_plies} plies", flush=True)
    failures = 0
    games = 0
    results: List[GameResult] = []
    if not args.no_games:
        for mode in modes:
            for variant in args.variants.split(","):
                tag = f"pd{''.join(map(str, PD_VERSION))}-{variant}-{mode}"
                clocks = [args.base, args.base]
                res = match.play_game(variant, mode, clocks, args.inc, args.max_plies, tag)
                results.append(res)
                games += 1
                numbering = match.numbering_for(variant) or "(not set)"
                status = "FAILED" if res.failures else "ok"
                print(f"{variant:9} {mode:6} move-numbering={numbering:9} {res.plies:3} plies  "
                      f"{res.outcome:28} {res.wall:5.1f} s  {status}", flush=True)
                for i, s in enumerate(res.sides):
                    print("    " + side_summary("A (kondavo hub)" if i == 0 else "B (kondavo)    ", s))
                for f in res.failures:
                    print("    FAILURE: " + f.replace("\n", "\n    "))
                if res.failures:
                    failures += 1
                    if res.transcript_files:
                        print("    transcripts: " + " ".join(res.transcript_files))

    if args.figure:
        inc = 0.1
        clocks = [5.0 + inc, 5.0 + inc]  # the first level line reads `level time=5.0 inc=0.1`
        res = GameResult("standard", "think")
        games_played = 0
        while res.plies < 200 and not res.failures and games_played < 5:
            games_played += 1
            before = res.plies
            match.play_game("standard", "think", clocks, inc, 200 - res.plies,
                            f"pd{''.join(map(str, PD_VERSION))}-figure-{games_played}", res)
            if res.plies == before:
                break
        results.append(res)
        games += 1
        worst_ratio = max(s.max_ratio for s in res.sides)
        print(f"figure: international, level time=5 inc=0.1 (clock 5.1 s at the first move, +0.1 s "
              f"per move), {res.plies} plies in {games_played} game(s), {res.wall:.1f} s: "
              f"longest move {max(s.max_move for s in res.sides):.3f} s, "
              f"lowest clock left {min(s.min_clock for s in res.sides):.3f} s, "
              f"largest share of the clock used by one move {worst_ratio * 100:.1f}%"
              + ("  FAILED" if res.failures else ""), flush=True)
        for i, s in enumerate(res.sides):
            print("    " + side_summary("A (kondavo hub)" if i == 0 else "B (kondavo)    ", s))
        for f in res.failures:
            print("    FAILURE: " + f.replace("\n", "\n    "))
        if res.failures:
            failures += 1

    print(f"hub_games: pydraughts {PYDRAUGHTS_VERSION}: {games} games, {failures} failed, "
          f"{time.monotonic() - t_all:.1f} s", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
