#!/usr/bin/env python3
"""Complete games between pydraughts' DXPEngine (the DXP client lidraughts bots use) and
`kondavo dxp` on loopback.

Usage (from the repository root, after `.ci/pyenv.sh` and `cargo build --release`):

    .venv/pd057/bin/python tests/pydraughts/dxp_games.py --kondavo target/release/kondavo
    .venv/pd067/bin/python tests/pydraughts/dxp_games.py --kondavo target/release/kondavo

What it does, for the pydraughts version of the interpreter that runs it:

1. Starts `kondavo dxp --listen 127.0.0.1:0 --time T` (a follower server on a free port; the
   first line on its standard output is `listening ADDR`).
2. Plays --games complete games per rule set (international, and russian with pydraughts
   0.5.7, see below), kondavo taking White and Black in turn, each through a fresh
   `DXPEngine` connected to that port, used the way a bot uses it: `engine.play(board)` on
   kondavo's turn (which sends the script's last move and waits for kondavo's), `quit()` when
   pydraughts says the game is over. The script's own moves are random (seeded). pydraughts
   sends `000` minutes, so kondavo plays on its `--time`. Every move kondavo sends must be
   legal by pydraughts' rules (pydraughts drops illegal ones, and the script then times out).
3. One game where kondavo loses: a `B` position in which the script's first move takes
   kondavo's last piece. The script sends that move over pydraughts' connection and
   kondavo must end the game itself with GAMEEND "I lose", which pydraughts confirms.
4. kondavo's own record of every game (`game N … result=R`) must agree with pydraughts:
   the same winner, or `*` for a game the script stopped at --max-plies.

pydraughts quirks the script works around (not kondavo's): 0.5.x can drop the script's move
sent right after kondavo's reply (a race in its receiver, see `settle`), and confirms a late
GAMEEND of one game on the next game's connection (so each game waits for its GAMEEND to be
confirmed before the next starts); 0.6.x sleeps 7 s in
`MySocket.close()` after shutting the socket down, replaced here by the same close without the
sleep; 0.5.x keeps a non-daemon receiver thread blocked on its socket forever, so the script
ends with `os._exit`. pydraughts 0.6.x numbers the fields of 8x8 boards its own way (1 = a1), not
in the Hub order kondavo's 8x8 extension uses, so the russian games run with 0.5.7 only.

Exit status: 0 when every game finished as expected, 1 otherwise, 3 when pydraughts is missing.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
import traceback
from typing import Any, Callable, List, Optional, Tuple

try:
    import draughts
    from draughts.engine import DXPEngine
except ImportError as exc:  # pragma: no cover - reported to the caller
    sys.stderr.write(f"dxp_games: cannot import pydraughts ({exc}); run .ci/pyenv.sh\n")
    sys.exit(3)

try:
    from importlib.metadata import version as _dist_version
    PYDRAUGHTS_VERSION = _dist_version("pydraughts")
except Exception:  # pragma: no cover
    PYDRAUGHTS_VERSION = getattr(draughts, "__version__", "0")

PD06 = tuple(int(x) for x in re.findall(r"\d+", PYDRAUGHTS_VERSION)[:2]) >= (0, 6)

if PD06:
    from draughts.engines.dxp_communication import dxp_classes

    def _close_without_sleep(self: Any) -> None:
        if self.sock and not self.closed:
            self.closed = True
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.sock.close()
            self.sock = None

    dxp_classes.MySocket.close = _close_without_sleep
else:
    import draughts.engines.dxp as dxp_module  # 0.5.x keeps the connection state in a module


class Failure(Exception):
    """kondavo did something wrong (or did not answer in time)."""


def log(msg: str) -> None:
    print(msg, flush=True)


def with_timeout(fn: Callable[[], Any], timeout: float, what: str) -> Any:
    """Runs `fn` on a daemon thread (pydraughts busy-waits and never times out)."""
    box: List[Any] = []
    err: List[BaseException] = []

    def target() -> None:
        try:
            box.append(fn())
        except BaseException as e:  # noqa: BLE001 - reported below
            err.append(e)

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        raise Failure(f"{what}: no answer within {timeout} s")
    if err:
        raise Failure(f"{what}: {err[0]!r}")
    return box[0] if box else None


def wait_until(cond: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.time() + timeout
    while not cond():
        if time.time() > deadline:
            raise Failure(f"{what}: not within {timeout} s")
        time.sleep(0.01)


# --------------------------------------------------------------------------------------------
# pydraughts boards, both API generations
# --------------------------------------------------------------------------------------------

def new_board(variant: str, fen: Optional[str] = None) -> Any:
    if PD06:
        return draughts.Board(variant, fen=fen) if fen else draughts.Board(variant)
    return draughts.Game(variant, fen=fen) if fen else draughts.Game(variant)


def legal(board: Any) -> List[Any]:
    """Legal moves as board moves (lists of [from, to] steps)."""
    if PD06:
        return [m.board_move for m in board.legal_moves()]
    return board.legal_moves()[0]


def push(board: Any, board_move: List[List[int]]) -> None:
    if PD06:
        for m in board.legal_moves():
            if m.board_move == board_move:
                board.push(m)
                return
        raise Failure(f"not legal here: {board_move}")
    board.push(board_move)


def turn(board: Any) -> int:
    return board.turn if PD06 else board.whose_turn()


def winner(board: Any) -> Optional[int]:
    return board.winner() if PD06 else board.get_winner()


def send_last_move(engine: DXPEngine, board: Any) -> None:
    """Sends the script's last move without waiting for an answer (the game is over)."""
    if PD06:
        engine.sender.send_move(board.move_stack[-1])
    else:
        move = board.move_stack[-1].li_one_move
        steps = "-".join(move[i:i + 2] for i in range(0, len(move), 2))
        engine.console.run_command(f"sm {steps}")


def settle(engine: DXPEngine) -> None:
    """Waits until pydraughts 0.5.x has recorded kondavo's move in its own position.

    0.5.x's receiver thread publishes the move (`last_move`, which `engine.play` polls) before it
    pushes it on its position, both under its module lock; the `sm` command that sends the
    script's next move checks whose turn it is *before* taking that lock, so a reply sent while
    the receiver is between the two steps is silently dropped ("server has to move") and the game
    stalls. Taking and releasing the lock waits for the receiver to finish. 0.6.x has no such gap.
    """
    if not PD06:
        with dxp_module.dxp.lock:
            pass


def peer_result(engine: DXPEngine) -> Optional[str]:
    """The reason of a GAMEEND kondavo sent (pydraughts stores it when it confirms)."""
    current = engine.sender.current if PD06 else dxp_module.dxp.current
    return current.result


# --------------------------------------------------------------------------------------------
# kondavo
# --------------------------------------------------------------------------------------------

class Kondavo:
    """`kondavo dxp` as a follower server; its standard output lines are collected."""

    def __init__(self, path: str, variant: str, minutes: float) -> None:
        self.p = subprocess.Popen(
            [path, "dxp", "--listen", "127.0.0.1:0", "--time", str(minutes), "--variant", variant,
             "--hash", "16"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1)
        self.lines: List[str] = []
        self.log: List[str] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, args=(self.p.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._read, args=(self.p.stderr, self.log), daemon=True).start()
        wait_until(lambda: any(l.startswith("listening ") for l in self.lines), 10,
                   "kondavo's `listening` line")
        addr = next(l for l in self.lines if l.startswith("listening ")).split()[1]
        self.port = int(addr.rsplit(":", 1)[1])

    def _read(self, stream: Any, into: List[str]) -> None:
        for line in stream:
            with self.lock:
                into.append(line.rstrip("\n"))

    def game_line(self, n: int, timeout: float = 15) -> str:
        prefix = f"game {n} "
        wait_until(lambda: any(l.startswith(prefix) for l in self.lines), timeout,
                   f"kondavo's record of game {n}")
        return next(l for l in self.lines if l.startswith(prefix))

    def stop(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        if self.p.returncode not in (0, -9):
            raise Failure(f"kondavo exited with {self.p.returncode}")


def expected_token(board: Any) -> str:
    w = winner(board)
    if w == draughts.WHITE:
        return "2-0"
    if w == draughts.BLACK:
        return "0-2"
    return "1-1"


def play_game(k: Kondavo, variant: str, kondavo_white: bool, rng: random.Random,
              max_plies: int, move_timeout: float) -> Tuple[str, int]:
    """One game to the end; the result token pydraughts gives and the plies played."""
    board = new_board(variant)
    engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": k.port})
    ours = draughts.BLACK if kondavo_white else draughts.WHITE
    plies = 0
    while not board.is_over() and plies < max_plies:
        if turn(board) == ours:
            push(board, rng.choice(legal(board)))
        else:
            result = with_timeout(lambda: engine.play(board), move_timeout, f"kondavo's move {plies + 1}")
            if result is None or result.move is None:
                raise Failure(f"no move from kondavo at ply {plies + 1} (an illegal one is dropped)")
            push(board, result.move.board_move)
            settle(engine)
        plies += 1
    over = board.is_over()
    if over and winner(board) == ours:
        # The script's move ended the game: kondavo must say so with a GAMEEND.
        send_last_move(engine, board)
        wait_until(lambda: peer_result(engine) is not None, move_timeout, "kondavo's GAMEEND")
    with_timeout(engine.quit, 20, "DXPEngine.quit")
    if not PD06:
        # 0.5.x has one receiver thread and one socket for the whole process: a GAMEEND that
        # answers this quit and arrives after the next game's connection is open is confirmed
        # on that new connection, ending the next game. Wait for it here.
        wait_until(lambda: peer_result(engine) is not None, move_timeout, "kondavo's GAMEEND confirmation")
    return (expected_token(board) if over else "*"), plies


def lost_position(k: Kondavo, move_timeout: float) -> None:
    """kondavo (White, one man) loses it to Black's first move and must end the game."""
    board = new_board("standard", "B:W28:B22")
    engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": k.port})
    capture = legal(board)[0]
    push(board, capture)
    with_timeout(lambda: engine._start(board, 0), 20, "GAMEREQ")
    engine.game_started = True
    send_last_move(engine, board)
    wait_until(lambda: peer_result(engine) is not None, move_timeout, "kondavo's GAMEEND")
    if peer_result(engine) != "1":
        raise Failure(f"kondavo ended the lost game with reason {peer_result(engine)!r}, not 1")
    with_timeout(engine.quit, 20, "DXPEngine.quit")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kondavo", required=True)
    ap.add_argument("--games", type=int, default=2, help="games per rule set")
    ap.add_argument("--time", type=float, default=0.05, help="kondavo's minutes per game")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20240)
    ap.add_argument("--timeout", type=int, default=240, help="the whole run, seconds")
    args = ap.parse_args()

    threading.Timer(args.timeout, lambda: (log(f"dxp_games: FAILED: the run took over {args.timeout} s"),
                                           os._exit(1))).start()
    rng = random.Random(args.seed)
    variants = [("standard", "international")] + ([] if PD06 else [("russian", "russian")])
    failures = 0
    total = 0
    for pd_variant, kondavo_variant in variants:
        k = Kondavo(args.kondavo, kondavo_variant, args.time)
        n = 0
        try:
            for g in range(args.games):
                white = g % 2 == 0
                t0 = time.time()
                token, plies = play_game(k, pd_variant, white, rng, args.max_plies,
                                         move_timeout=args.time * 60 + 10)
                n += 1
                line = k.game_line(n)
                ok = f"result={token} " in line
                log(f"{pd_variant} game {g + 1}: kondavo {'white' if white else 'black'}, {plies} plies, "
                    f"pydraughts {token}, kondavo: {line} ({time.time() - t0:.1f} s)"
                    + ("" if ok else "  <-- MISMATCH"))
                failures += 0 if ok else 1
                total += 1
            if pd_variant == "standard":
                lost_position(k, move_timeout=20)
                n += 1
                line = k.game_line(n)
                ok = "result=0-2 " in line and "white has no legal move" in line
                log(f"standard lost position: kondavo: {line}" + ("" if ok else "  <-- MISMATCH"))
                failures += 0 if ok else 1
                total += 1
        except Failure as e:
            failures += 1
            log(f"dxp_games: FAILED ({pd_variant}): {e}")
            traceback.print_exc()
            with k.lock:
                log("kondavo's output:\n  " + "\n  ".join(k.lines[-20:]))
                log("kondavo's log:\n  " + "\n  ".join(k.log[-40:]))
        finally:
            k.stop()
        with k.lock:
            for line in k.log:
                if "warn" in line or "error" in line:
                    log(f"kondavo: {line}")
    log(f"dxp_games: pydraughts {PYDRAUGHTS_VERSION}: {total} games, {failures} failed")
    sys.stdout.flush()
    os._exit(1 if failures else 0)


if __name__ == "__main__":
    main()
