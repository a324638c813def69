#!/usr/bin/env python3
"""Differential perft: kondavo against pydraughts, an independent move generator.

Usage (from the repository root, after `.ci/pyenv.sh` and `cargo build --release`):

    .venv/pd067/bin/python tests/pydraughts/diff_perft.py --kondavo target/release/kondavo
    .venv/pd057/bin/python tests/pydraughts/diff_perft.py --kondavo target/release/kondavo --quick

What it does, per rule set that pydraughts implements (pydraughts name -> kondavo name):
standard -> international, english, italian, russian (-> russian and ukrainian: same move rules,
only the draw rules differ, rules.md section 2), brazilian, turkish, antidraughts, breakthrough
(international moves and captures; perft counts the move tree and ignores their game ends, in
pydraughts as in kondavo, whose `legal_moves` go on after a breakthrough king or in a won
antidraughts position alike), frisian and frysk (frysk! in pydraughts). spanish, czech and killer
have no pydraughts counterpart and are not checked here.

Frisian's king-move limit (the same king may make at most three quiet moves in a row while its
side has men) never shows at the depths compared here: pydraughts keeps it in its move history,
which starts empty for every position given as a Hub string, and kondavo's counters likewise
start at zero there; the limit first bites on the seventh ply of a tree. tests/it/rules.rs checks it.

1. Positions, all reproducible (fixed seed):
   - random playouts from the start position, played with pydraughts' own legal moves; every
     position on the way is kept, so the set spans openings, middle games and king endings;
   - random placements ("setups") of 4-22 pieces with many kings: flying-king multi-captures,
     crowded capture choices, men next to their promotion row;
   - the published positions of perft.md (start positions, Woldouby, FrontRows, italian
     Position1), whose published counts also check this script's pydraughts perft.
2. Every position is given to kondavo as a Hub position string (see "Numbering" below) and
   compared at depth 1 (all), depth 2 (a selection biased towards promotions, multi-captures and
   kings) and depth 3 (a few where pydraughts' tree is small); the published ones to depth 3-4.
3. Comparison: kondavo `perft --divide` against a perft computed here with pydraughts, which
   counts *unique* legal moves by (from, to, captured set, resulting position), i.e. kondavo's
   default `--duplicates drop`. Root moves are grouped by (from, to) in native notation and both
   the number of moves and the leaf counts of each group must agree.
4. On a mismatch: the position (Hub string, pydraughts' native FEN), both move lists at depth 1,
   the differing (from, to) groups, and exit status 1. Each rule set also reports what the root
   moves exercised (multi-captures, king captures, promotions, dropped duplicate routes ...).

Runtime on the 2-core machine: about 55 s by default (0.6.7), 13 s with --quick. Bug hunting:
--scale 3 --setups 1500 --setups-depth2 300 --seed N (about 6 minutes).

Numbering. pydraughts' core `Game` works on Hub position strings in its internal numbering,
which is exactly the Hub numbering kondavo reads: the side that moves first is `W` and sits at
the bottom, squares counted from the top left: 10x10 1 = b10 ... 50 = i1 (FMJD); 8x8 1 = b8,
4 = h8, 5 = a7 ... 29 = a1 (english: hub s = English 33 - s with colours swapped, since the first
mover is English Black; russian/brazilian: algebraic; italian: its own numbering, 1 = a8);
turkish 1 = a8 ... 8 = h8 ... 57 = a1 ... 64 = h1. `check_numbering()` verifies this on the start
positions and on hand-checked one-piece positions against both kondavo (`show`) and pydraughts'
own conversion to the native FEN (`fen_to_variant`) before anything else runs.

Known pydraughts bugs worked around (see /work/shared/perft.md and the comments at each place):
- turkish (0.5.7 and 0.6.7): a king's non-capturing slide passes through pieces. Such moves are
  filtered out of pydraughts' move list (rules.md section 2, turkish: "Kings move like rooks over
  empty squares").
- italian (0.5.7 and 0.6.7), precedence (4): pydraughts compares only where the *first* king is
  met; the rule goes on to the next kings (king-king-man beats king-man-king). The missing part
  is applied to pydraughts' list; details at PyDraughts._filter_known_bugs.
- frisian/frysk (0.6.7): pydraughts values a captured king at 1.501 men, lidraughts at 1.99
  (199 against 100) and dctl at "more than 2n - 1 men for n kings": they differ only when three or
  more kings are weighed against men (3 kings = 4.503 < 5 men in pydraughts, 5.97 > 5 in
  lidraughts). Positions where pydraughts' choice depends on that are recomputed with the
  lidraughts values (PyDraughts._filter_known_bugs); pydraughts also sums the values as floats,
  so equal values summed in another order may differ in the last bit; the same place compares
  them exactly.
- russian, 0.5.7 only: no rule that a king must land, after a jump, on a square from which the
  capture continues when there is one (rules.md section 2, russian). 0.6.x added it. With 0.5.7
  the russian/ukrainian comparison is skipped unless --force-russian-057 is given.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import subprocess
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

try:
    from draughts.core.game import Game
    from draughts.convert import fen_to_variant
except ImportError as exc:  # pragma: no cover - reported to the caller
    sys.stderr.write(f"diff_perft: cannot import pydraughts ({exc}); run .ci/pyenv.sh\n")
    sys.exit(3)

try:
    from importlib.metadata import version as _dist_version
    PYDRAUGHTS_VERSION = _dist_version("pydraughts")
except Exception:  # pragma: no cover
    import draughts
    PYDRAUGHTS_VERSION = getattr(draughts, "__version__", "0")

PD_VERSION = tuple(int(x) for x in re.findall(r"\d+", PYDRAUGHTS_VERSION)[:3])


# --------------------------------------------------------------------------------------------
# Squares: Hub (= pydraughts internal) number -> native notation of the rule set
# --------------------------------------------------------------------------------------------

def _diag8_algebraic(s: int) -> str:
    """8x8 Hub square (1 = b8, 4 = h8, 5 = a7, 29 = a1) -> algebraic, first mover at the bottom."""
    row, col = divmod(s - 1, 4)          # row 0 is rank 8
    file = 2 * col + 1 if row % 2 == 0 else 2 * col
    return "abcdefgh"[file] + str(8 - row)


def _turkish_algebraic(s: int) -> str:
    row, col = divmod(s - 1, 8)          # 1 = a8 ... 64 = h1
    return "abcdefgh"[col] + str(8 - row)


NATIVE = {
    "international": str,
    "antidraughts": str,
    "breakthrough": str,
    "italian": str,
    "english": lambda s: str(33 - s),
    "russian": _diag8_algebraic,
    "ukrainian": _diag8_algebraic,
    "brazilian": _diag8_algebraic,
    "turkish": _turkish_algebraic,
    "frisian": str,
    "frysk": str,
}

# kondavo name -> (pydraughts name, hub length, also compare these kondavo rule sets with the
# same pydraughts counts)
RULESETS = {
    "international": ("standard", 51, []),
    "english": ("english", 33, []),
    "italian": ("italian", 33, []),
    "russian": ("russian", 33, ["ukrainian"]),
    "brazilian": ("brazilian", 33, []),
    "turkish": ("turkish", 65, []),
    "antidraughts": ("antidraughts", 51, []),
    "breakthrough": ("breakthrough", 51, []),
    "frisian": ("frisian", 51, []),
    "frysk": ("frysk!", 51, []),
}

# Share of the work for rule sets whose pydraughts generator is slow (frisian: eight capture
# directions in Python); keeps the whole run near its old length.
WORK_SHARE = {"frisian": 0.5, "frysk": 0.6}

# Most pieces per side where a rule set starts with fewer than the board holds.
MEN_PER_SIDE = {"frysk": 5}

# Playout settings per rule set: (games, maximum plies per game). Each game contributes every
# position it passes through (deduplicated).
PLAYOUTS = {
    "international": (3, 110),
    "english": (5, 90),
    "italian": (5, 90),
    "russian": (5, 90),
    "brazilian": (5, 90),
    "turkish": (3, 110),
    "antidraughts": (2, 110),
    "breakthrough": (2, 110),
    "frisian": (3, 110),
    "frysk": (6, 90),
}


# --------------------------------------------------------------------------------------------
# pydraughts side
# --------------------------------------------------------------------------------------------

class Route:
    """One capture route or quiet move as pydraughts returns it (internal = Hub numbering)."""
    __slots__ = ("frm", "to", "caps", "cap_order", "path", "board_move")

    def __init__(self, board_move: List[List[int]], captures: Sequence[Optional[int]]):
        self.board_move = [list(step) for step in board_move]
        self.frm = board_move[0][0]
        self.to = board_move[-1][1]
        self.cap_order = [c for c in captures if c is not None]
        self.caps = frozenset(self.cap_order)
        self.path = [self.frm] + [step[1] for step in board_move]

    def native(self, native) -> str:
        if not self.caps:
            return f"{native(self.frm)}-{native(self.to)}"
        path = "x".join(native(s) for s in self.path)
        caps = ",".join(sorted(native(c) for c in self.caps))
        return f"{path} [takes {caps}]"


class PyDraughts:
    def __init__(self, kname: str):
        self.kname = kname
        self.pname = RULESETS[kname][0]
        self._moves: Dict[str, List[Route]] = {}
        self._raw: Dict[str, List[Route]] = {}
        self._child: Dict[Tuple[str, Tuple[int, ...]], str] = {}
        self._perft: Dict[Tuple[str, int], int] = {}
        # Positions where a known pydraughts bug changed the legal moves (worked around).
        self.fixed: set = set()

    def start(self) -> str:
        return Game(self.pname).get_fen()

    def native_fen(self, hub: str) -> str:
        """pydraughts' own conversion of the position to the rule set's native FEN."""
        return fen_to_variant(Game(self.pname, hub).get_li_fen(), self.pname)

    def child(self, hub: str, route: Route) -> str:
        key = (hub, tuple(route.path))
        res = self._child.get(key)
        if res is None:
            game = Game(self.pname, hub)
            game.push([list(step) for step in route.board_move])
            res = game.get_fen()
            self._child[key] = res
        return res

    def raw_routes(self, hub: str) -> List[Route]:
        """pydraughts' legal moves as it returns them: every capture route, no workaround."""
        cached = self._raw.get(hub)
        if cached is None:
            moves, captures = Game(self.pname, hub).legal_moves()
            cached = [Route(m, c) for m, c in zip(moves, captures)]
            if self.pname in ("frisian", "frysk!"):
                cached = self._frisian_values(hub, cached)
            self._raw[hub] = cached
        return cached

    def _frisian_values(self, hub: str, routes: List[Route]) -> List[Route]:
        """pydraughts bug (0.5.7 and 0.6.7), frisian capture values: a king counts 1.501 men
        (lidraughts 1.99; dctl, after the federation's art. 11: n kings outweigh 2n - 1 men), so
        three or more kings lose to men where the rule says they win; and the values are summed
        as floats, so equal values can differ in the last bit. Where pydraughts' choice differs
        from the rule *and* one of those two causes explains it, the choice is recomputed from
        pydraughts' own capture sequences (Game.get_moves) with the lidraughts values."""
        from fractions import Fraction
        moves, captures = Game(self.pname, hub).get_moves()
        caps = [r for r in (Route(m, c) for m, c in zip(moves, captures)) if r.caps]
        if not caps:
            return routes
        board = hub[1:]

        def select(king: Fraction) -> List[Route]:
            values = [sum(king if board[c - 1] in "WB" else 1 for c in r.cap_order) for r in caps]
            best = max(values)
            top = [r for r, v in zip(caps, values) if v == best]
            if any(board[r.frm - 1] in "WB" for r in top):
                top = [r for r in top if board[r.frm - 1] in "WB"]
            return top

        def key(rs: List[Route]) -> List[Tuple]:
            return sorted((tuple(r.path), tuple(sorted(r.caps))) for r in rs)

        rule = select(Fraction(199, 100))
        exact = select(Fraction(1501, 1000))
        if key(routes) != key(rule) and (key(exact) != key(rule) or key(routes) != key(exact)):
            self.fixed.add(hub)
            return rule
        return routes

    def moves(self, hub: str) -> List[Route]:
        """Unique legal moves: one per (from, to, captured set, resulting position)."""
        cached = self._moves.get(hub)
        if cached is not None:
            return cached
        routes = self._filter_known_bugs(hub, self.raw_routes(hub))
        groups: Dict[Tuple[int, int, frozenset], List[Route]] = {}
        for r in routes:
            groups.setdefault((r.frm, r.to, r.caps), []).append(r)
        unique: List[Route] = []
        for rs in groups.values():
            if len(rs) == 1:
                unique.append(rs[0])
                continue
            # Same squares and captured set: still two moves if the result differs (russian: a
            # route through the promotion row ends as a king, rules.md section 2).
            results: Dict[str, Route] = {}
            for r in rs:
                results.setdefault(self.child(hub, r), r)
            unique.extend(results.values())
        self._moves[hub] = unique
        return unique

    def _filter_known_bugs(self, hub: str, routes: List[Route]) -> List[Route]:
        if self.pname == "turkish":
            # pydraughts bug (0.5.7 and 0.6.7; perft.md "Known bugs"): a king's non-capturing
            # slide passes through pieces (Piece.get_directional_orthogonal_multiple_squares_
            # adjacent_positions never checks the squares in between). rules.md: "Kings move like
            # rooks over empty squares". Drop those slides; captures are generated correctly.
            board = hub[1:]
            kept = []
            for r in routes:
                if not r.caps and board[r.frm - 1] in "WB" and _turkish_blocked(board, r.frm, r.to):
                    continue
                kept.append(r)
            return kept
        if self.pname == "italian":
            # pydraughts bug (0.5.7 and 0.6.7), italian precedence (4): pydraughts only compares
            # the position of the *first* king met and lets everything that ties there through.
            # The rule (rules.md: "(4) the sequence that meets a king earliest"; FID rules art. 6.9;
            # the federation's short form: "capture where the stronger pieces are met first")
            # goes on comparing the next kings: with 3 pieces and 2 kings each, king-king-man
            # must be preferred to king-man-king. (dctl implements 6.9 the same way: a bit per
            # captured king, earliest capture = highest bit, larger pattern wins.) pydraughts'
            # rules 1-3 have already equalised count, capturing piece and number of kings, so
            # keeping the lexicographically largest king pattern completes rule 4.
            board = hub[1:]
            caps = [r for r in routes if r.caps]
            if len(caps) > 1:
                def pattern(r: Route) -> Tuple[bool, ...]:
                    return tuple(board[c - 1] in "WB" for c in r.cap_order)
                best = max(pattern(r) for r in caps)
                routes = [r for r in routes if not r.caps or pattern(r) == best]
            return routes
        return routes

    def perft(self, hub: str, depth: int) -> int:
        if depth == 0:
            return 1
        key = (hub, depth)
        if key in self._perft:
            return self._perft[key]
        ms = self.moves(hub)
        if depth == 1:
            n = len(ms)
        else:
            n = sum(self.perft(self.child(hub, r), depth - 1) for r in ms)
        self._perft[key] = n
        return n

    def divide(self, hub: str, depth: int) -> List[Tuple[Route, int]]:
        return [(r, self.perft(self.child(hub, r), depth - 1) if depth > 1 else 1)
                for r in self.moves(hub)]


def _turkish_blocked(board: str, a: int, b: int) -> bool:
    ra, ca = divmod(a - 1, 8)
    rb, cb = divmod(b - 1, 8)
    if ra != rb and ca != cb:
        return False  # not a rook line; leave it for the comparison to catch
    dr = (rb > ra) - (rb < ra)
    dc = (cb > ca) - (cb < ca)
    r, c = ra + dr, ca + dc
    while (r, c) != (rb, cb):
        if board[r * 8 + c] != "e":
            return True
        r, c = r + dr, c + dc
    return False


# --------------------------------------------------------------------------------------------
# kondavo side
# --------------------------------------------------------------------------------------------

class KondavoError(Exception):
    pass


def kondavo_divide(binary: str, variant: str, hub: str, depth: int) -> Tuple[List[Tuple[str, int]], int]:
    cmd = [binary, "perft", "--variant", variant, "--depth", str(depth), "--fen", hub, "--divide"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        raise KondavoError(f"timeout: {' '.join(cmd)}")
    except OSError as exc:
        raise KondavoError(f"cannot run {binary}: {exc}")
    if p.returncode != 0:
        raise KondavoError(f"exit {p.returncode}: {' '.join(cmd)}\n{p.stderr.strip()}")
    lines = [ln for ln in p.stdout.splitlines() if ln.strip()]
    if not lines or not lines[-1].startswith("perft "):
        raise KondavoError(f"unexpected output of {' '.join(cmd)}:\n{p.stdout}")
    m = re.search(r"nodes=(\d+)", lines[-1])
    if not m:
        raise KondavoError(f"no nodes= in {lines[-1]!r}")
    rows = []
    for ln in lines[:-1]:
        mv, cnt = ln.rsplit(None, 1)
        rows.append((mv, int(cnt)))
    return rows, int(m.group(1))


def kondavo_show_fen(binary: str, variant: str, hub: str) -> str:
    try:
        p = subprocess.run([binary, "show", "--variant", variant, "--fen", hub],
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise KondavoError(f"cannot run {binary} show: {exc}")
    if p.returncode != 0:
        raise KondavoError(f"show failed for {variant} {hub}: {p.stderr.strip()}")
    for ln in p.stdout.splitlines():
        if ln.startswith("fen:"):
            return ln.split(":", 1)[1].strip()
    raise KondavoError(f"no fen line in show output for {hub}")


def _from_to(native_move: str) -> Tuple[str, str]:
    parts = [p for p in re.split(r"[-x:]", native_move) if p]
    return parts[0], parts[-1]


# --------------------------------------------------------------------------------------------
# FEN comparison for the numbering check
# --------------------------------------------------------------------------------------------

def _expand(token: str) -> List[str]:
    m = re.fullmatch(r"(\d+)-(\d+)", token)
    if m:
        return [str(i) for i in range(int(m.group(1)), int(m.group(2)) + 1)]
    return [token]


def parse_fen_sets(fen: str) -> Tuple[str, frozenset]:
    """Native FEN -> (side to move, {(colour, square, king)}) taking list letters at face value."""
    fen = fen.strip().rstrip(".")
    parts = fen.split(":")
    side = parts[0].upper()
    pieces = set()
    for lst in parts[1:]:
        if not lst:
            continue
        colour = lst[0].upper()
        for tok in filter(None, lst[1:].split(",")):
            king = tok.startswith("K")
            tok = tok[1:] if king else tok
            for sq in _expand(tok):
                pieces.add((colour, sq.lower(), king))
    return side, frozenset(pieces)


def hand_checked() -> Dict[str, List[Tuple[str, str]]]:
    """Hub string -> expected native FEN, worked out by hand from rules.md section 4."""
    def hub(n: int, side: str, placed: Dict[int, str]) -> str:
        return side + "".join(placed.get(i, "e") for i in range(1, n + 1))
    # (men are never placed on their own promotion row: kondavo rejects such positions)
    return {
        # 10x10: Hub = FMJD numbering (46 = a1, 5 = j10, 45 = j2).
        "international": [(hub(50, "W", {46: "w", 5: "B"}), "W:W46:BK5"),
                          (hub(50, "B", {1: "W", 45: "b"}), "B:WK1:B45")],
        # The first mover (English Black) is Hub 'W' and sits at the bottom, so Hub s is English
        # 33 - s: Hub 5 (a7 seen from Black) is English 28, Hub 25 is English 8, Hub 1 is 32.
        "english": [(hub(32, "W", {5: "w", 25: "b"}), "B:B28:W8"),
                    (hub(32, "B", {1: "W", 32: "B"}), "W:BK32:WK1")],
        # italian: 1 = a8, 5 = b7, 28 = g2, 32 = h1 in both numberings.
        "italian": [(hub(32, "W", {1: "W", 5: "w", 28: "b", 32: "B"}), "W:WK1,5:BK32,28")],
        # Hub 29 = a1, Hub 4 = h8, Hub 5 = a7, Hub 32 = g1, Hub 28 = h2, Hub 1 = b8.
        "russian": [(hub(32, "W", {29: "w", 4: "b", 5: "W", 32: "B"}), "W:Wa1,Ka7:Bh8,Kg1")],
        "brazilian": [(hub(32, "B", {1: "b", 28: "w"}), "B:Wh2:Bb8")],
        # turkish: 1 = a8, 8 = h8, 57 = a1, 64 = h1.
        "turkish": [(hub(64, "W", {1: "W", 8: "b", 57: "w", 64: "B"}), "W:WKa8,a1:Bh8,Kh1")],
    }


def check_numbering(binary: str, kname: str, pd: PyDraughts, samples: List[str]) -> List[str]:
    """Verify Hub <-> native numbering with kondavo `show` and pydraughts' fen_to_variant."""
    errors = []
    try:
        return _check_numbering(binary, kname, pd, samples, errors)
    except KondavoError as exc:
        return errors + [str(exc)]


def _check_numbering(binary: str, kname: str, pd: PyDraughts, samples: List[str], errors: List[str]) -> List[str]:
    for hub, expected in hand_checked().get(kname, []):
        want = parse_fen_sets(expected)
        got_k = parse_fen_sets(kondavo_show_fen(binary, kname, hub))
        got_p = parse_fen_sets(pd.native_fen(hub))
        if got_k != want:
            errors.append(f"{kname}: kondavo reads hub {hub} as {got_k}, expected {expected}")
        if got_p != want:
            errors.append(f"{kname}: pydraughts converts hub {hub} to {got_p}, expected {expected}")
    for hub in samples:
        got_k = parse_fen_sets(kondavo_show_fen(binary, kname, hub))
        got_p = parse_fen_sets(pd.native_fen(hub))
        if got_k != got_p:
            errors.append(f"{kname}: hub {hub}: kondavo FEN {got_k} != pydraughts FEN {got_p}")
    return errors


# --------------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------------

# Published positions and counts (perft.md, drop convention), checked up to the given depth. They
# also check this script's pydraughts perft (e.g. Woldouby d2 = 12 needs the duplicate ring
# capture dropped; keep would give 13).
NAMED = {
    "international": [
        ("start", "start", [9, 81, 658]),
        ("Woldouby", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", [6, 12, 30, 73]),
        ("FrontRows", "W:B16,17,18,19,20:W31,32,33,34,35", [9, 81, 534]),
    ],
    "english": [("start", "start", [7, 49, 302])],
    "italian": [
        ("start", "start", [7, 49, 302]),
        ("Position1", "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3", [5, 13, 42, 107]),
    ],
    "russian": [("start", "start", [7, 49, 302])],
    "brazilian": [("start", "start", [7, 49, 302])],
    "turkish": [("start", "start", [8, 64, 708])],
    "frisian": [("start", "start", [9, 81, 658])],
}


def numeric_fen_to_hub(fen: str, squares: int) -> str:
    """Native numeric FEN -> Hub string, for the rule sets whose numbering is the Hub numbering
    (international, italian). Both list orders are accepted (pydraughts' own parser would take
    the first list as White whatever its letter, perft.md)."""
    side, pieces = parse_fen_sets(fen)
    board = ["e"] * squares
    for colour, sq, king in pieces:
        ch = "w" if colour == "W" else "b"
        board[int(sq) - 1] = ch.upper() if king else ch
    return side + "".join(board)


def playout_positions(pd: PyDraughts, rng: random.Random, games: int, max_plies: int) -> List[str]:
    seen = set()
    out = []
    start = pd.start()
    for g in range(games):
        hub = start
        # vary the length so that the sets of early positions differ between games
        plies = rng.randint(max_plies // 2, max_plies)
        for _ in range(plies):
            if hub not in seen:
                seen.add(hub)
                out.append(hub)
            ms = pd.moves(hub)
            if not ms:
                break
            hub = pd.child(hub, rng.choice(ms))
        else:
            if hub not in seen:
                seen.add(hub)
                out.append(hub)
    return out


def random_setups(pd: PyDraughts, rng: random.Random, count: int) -> List[str]:
    """Random placements with many kings: flying-king multi-captures, crowded capture choices.

    Not reachable from the start position in general, but perft is defined for any position
    with no man on its own promotion row (kondavo rejects those, as it should)."""
    start = pd.start()
    n = len(start) - 1
    rows = 10 if n == 50 else 8
    per_row = n // rows
    out = []
    seen = set()
    while len(out) < count:
        board = ["e"] * n
        most = min(22, n // 2, 2 * MEN_PER_SIDE.get(pd.kname, n))
        squares = rng.sample(range(1, n + 1), rng.randint(4, most))
        king_share = rng.choice([0.0, 0.2, 0.4, 0.7])
        for i, sq in enumerate(squares):
            colour = "w" if i % 2 == 0 else "b"
            row = (sq - 1) // per_row
            # Hub numbering: the first mover ('w') promotes on row 0, the other on the last row
            promo_row = 0 if colour == "w" else rows - 1
            king = rng.random() < king_share or row == promo_row
            board[sq - 1] = colour.upper() if king else colour
        hub = rng.choice("WB") + "".join(board)
        if hub in seen or not pd.moves(hub):
            continue
        seen.add(hub)
        out.append(hub)
    return out


def promotion_row(hub_len: int, colour: str) -> Tuple[int, int]:
    """(row of a square, promotion row) helpers: returns (squares per row, promotion row index)."""
    n = hub_len - 1
    per_row = {50: 5, 32: 4, 64: 8}[n]
    rows = n // per_row
    return per_row, (0 if colour == "w" else rows - 1)


def coverage(pd: PyDraughts, hub: str, cov: Dict[str, int]) -> None:
    """Count what the root moves of a compared position exercise (reported, not checked)."""
    board = hub[1:]
    raw = pd.raw_routes(hub)
    ms = pd.moves(hub)
    if len(pd._filter_known_bugs(hub, raw)) > len(ms):
        cov["duplicate routes dropped"] += 1
    for r in ms:
        piece = board[r.frm - 1]
        if len(r.caps) >= 2:
            cov["multi-captures"] += 1
        if len(r.caps) >= 4:
            cov["captures of 4+"] += 1
        if r.caps and piece in "WB":
            cov["king captures"] += 1
        if any(board[c - 1] in "WB" for c in r.caps):
            cov["kings captured"] += 1
        if piece in "wb":
            per_row, prow = promotion_row(len(hub), piece)
            rows = [(sq - 1) // per_row for sq in r.path[1:]]
            if rows[-1] == prow:
                cov["promotions"] += 1
            if r.caps and prow in rows[:-1]:
                cov["man crossing the promotion row mid-capture"] += 1


def features(pd: PyDraughts, hub: str) -> Dict[str, bool]:
    ms = pd.moves(hub)
    board = hub[1:]
    kings = any(ch in "WB" for ch in board)
    multi = any(len(r.caps) >= 2 for r in ms)
    capture = any(r.caps for r in ms)
    promo = False
    for r in ms:
        if board[r.frm - 1] in "wb" and pd.child(hub, r)[r.to] in "WB":
            promo = True
            break
    return {"kings": kings, "multi": multi, "capture": capture, "promotion": promo}


def select(rng: random.Random, pd: PyDraughts, positions: List[str], n: int) -> List[str]:
    """Pick n positions, biased towards kings, multi-captures and promotions."""
    feats = {h: features(pd, h) for h in positions}
    buckets = [
        [h for h in positions if feats[h]["promotion"]],
        [h for h in positions if feats[h]["multi"]],
        [h for h in positions if feats[h]["kings"] and feats[h]["capture"]],
        [h for h in positions if feats[h]["kings"]],
        [h for h in positions if feats[h]["capture"]],
        list(positions),
    ]
    chosen: List[str] = []
    per_bucket = max(1, n // len(buckets))
    for i, b in enumerate(buckets):
        b = [h for h in b if h not in chosen]
        rng.shuffle(b)
        quota = per_bucket if i < len(buckets) - 1 else n - len(chosen)
        chosen.extend(b[:max(0, quota)])
    # fill up if some buckets were short
    rest = [h for h in positions if h not in chosen]
    rng.shuffle(rest)
    chosen.extend(rest[:max(0, n - len(chosen))])
    return chosen[:n]


# --------------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------------

def compare(binary: str, kname: str, kvariants: List[str], pd: PyDraughts, hub: str, depth: int,
            cov: Optional[Dict[str, int]] = None) -> List[str]:
    native = NATIVE[kname]
    if cov is not None:
        coverage(pd, hub, cov)
    pdiv = pd.divide(hub, depth)
    ptotal = sum(c for _, c in pdiv)
    pgroups: Dict[Tuple[str, str], List[int]] = {}
    for r, c in pdiv:
        g = pgroups.setdefault((native(r.frm), native(r.to)), [0, 0])
        g[0] += 1
        g[1] += c
    reports = []
    for kv in kvariants:
        try:
            rows, ktotal = kondavo_divide(binary, kv, hub, depth)
        except KondavoError as exc:
            reports.append(_report(binary, kv, kname, pd, hub, depth, f"kondavo failed: {exc}", None))
            continue
        kgroups: Dict[Tuple[str, str], List[int]] = {}
        for mv, c in rows:
            g = kgroups.setdefault(_from_to(mv), [0, 0])
            g[0] += 1
            g[1] += c
        if ktotal == ptotal and kgroups == pgroups:
            continue
        diff = []
        for key in sorted(set(kgroups) | set(pgroups)):
            kg, pg = kgroups.get(key, [0, 0]), pgroups.get(key, [0, 0])
            if kg != pg:
                diff.append(f"    {key[0]}->{key[1]}: kondavo {kg[0]} move(s) {kg[1]} nodes, "
                            f"pydraughts {pg[0]} move(s) {pg[1]} nodes")
        head = (f"depth {depth}: kondavo {ktotal} nodes, pydraughts {ptotal} nodes\n"
                "  differing root groups (from->to):\n" + "\n".join(diff))
        reports.append(_report(binary, kv, kname, pd, hub, depth, head, rows))
    return reports


def _report(binary, kv, kname, pd, hub, depth, head, rows) -> str:
    native = NATIVE[kname]
    out = [f"MISMATCH [{kv} vs pydraughts {pd.pname} {PYDRAUGHTS_VERSION}] {head}",
           f"  hub:            {hub}"]
    try:
        out.append(f"  pydraughts FEN: {pd.native_fen(hub)}")
    except Exception as exc:  # pragma: no cover
        out.append(f"  pydraughts FEN: <error {exc}>")
    try:
        k1, _ = kondavo_divide(binary, kv, hub, 1)
        out.append(f"  kondavo moves ({len(k1)}): " + " ".join(m for m, _ in k1))
    except KondavoError as exc:
        out.append(f"  kondavo moves: <error {exc}>")
    ms = pd.moves(hub)
    out.append(f"  pydraughts moves ({len(ms)}): " + " | ".join(r.native(native) for r in ms))
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------------

def run_ruleset(args: Tuple[str, str, int, dict]) -> dict:
    kname, binary, seed, opts = args
    opts = dict(opts, scale=opts["scale"] * WORK_SHARE.get(kname, 1.0))
    t0 = time.time()
    pd = PyDraughts(kname)
    kvariants = [kname] + RULESETS[kname][2]
    rng = random.Random(f"{seed}:{kname}")
    games, plies = PLAYOUTS[kname]
    games = max(1, int(round(games * opts["scale"])))
    positions = playout_positions(pd, rng, games, plies)
    setups = random_setups(pd, rng, int(opts["setups"] * opts["scale"]))

    named = []
    for name, fen, counts_published in NAMED.get(kname, []):
        hub = pd.start() if fen == "start" else numeric_fen_to_hub(fen, RULESETS[kname][1] - 1)
        named.append((name, hub, counts_published))
    errors = check_numbering(binary, kname, pd, [positions[0]] + rng.sample(positions, min(4, len(positions))))
    mismatches: List[str] = []
    counts = {1: 0, 2: 0, 3: 0, 4: 0}
    cov = {k: 0 for k in ("multi-captures", "captures of 4+", "king captures", "kings captured",
                          "promotions", "man crossing the promotion row mid-capture",
                          "duplicate routes dropped")}
    nodes = 0
    if not errors:
        for name, hub, published in named:
            for depth, want in enumerate(published, 1):
                got = pd.perft(hub, depth)
                if got != want:
                    errors.append(f"{kname} {name}: this script's pydraughts perft({depth}) = {got}, "
                                  f"published {want}: the reference itself is off")
            mismatches += compare(binary, kname, kvariants, pd, hub, len(published))
            counts[len(published)] = counts.get(len(published), 0) + 1
        d1 = positions + setups
        d2 = (select(rng, pd, positions, int(opts["depth2"] * opts["scale"])) +
              select(rng, pd, setups, int(opts["setups_depth2"] * opts["scale"])))
        for hub in d1:
            mismatches += compare(binary, kname, kvariants, pd, hub, 1, cov)
            counts[1] += 1
        for hub in d2:
            mismatches += compare(binary, kname, kvariants, pd, hub, 2)
            counts[2] += 1
            nodes += pd.perft(hub, 2)
        # depth 3 where pydraughts' tree is small: at most `d3_nodes` positions at depth 2
        cheap = [h for h in d2 if pd.perft(h, 2) <= opts["d3_nodes"]]
        cheap.sort(key=lambda h: (pd.perft(h, 2), h))
        want3 = int(opts["depth3"] * opts["scale"])
        d3 = cheap[::max(1, len(cheap) // max(1, want3))][:want3] if want3 else []
        for hub in d3:
            mismatches += compare(binary, kname, kvariants, pd, hub, 3)
            counts[3] += 1
            nodes += pd.perft(hub, 3)
    if pd.pname in ("frisian", "frysk!"):
        cov["pydraughts value bug worked around"] = len(pd.fixed)
    return {"ruleset": kname, "kvariants": kvariants, "positions": len(positions),
            "setups": len(setups), "counts": counts, "coverage": cov,
            "nodes": nodes, "errors": errors, "mismatches": mismatches, "seconds": time.time() - t0}


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kondavo", required=True, help="path of the kondavo binary")
    ap.add_argument("--seed", type=int, default=20240607)
    ap.add_argument("--rulesets", default=",".join(RULESETS),
                    help="comma-separated kondavo names (default: all pydraughts supports)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--depth2", type=int, default=60, help="positions per rule set at depth 2")
    ap.add_argument("--setups", type=int, default=300,
                    help="random placements (many kings) per rule set, checked at depth 1")
    ap.add_argument("--setups-depth2", type=int, default=60, help="of which at depth 2")
    ap.add_argument("--depth3", type=int, default=6, help="positions per rule set at depth 3")
    ap.add_argument("--d3-nodes", type=int, default=120,
                    help="only positions with at most this many depth-2 nodes go to depth 3")
    ap.add_argument("--quick", action="store_true", help="about a quarter of the work (--scale 0.25)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply the number of playouts and of depth-2/3 positions (bug hunting)")
    ap.add_argument("--force-russian-057", action="store_true",
                    help="compare russian/ukrainian even with pydraughts < 0.6 (known to differ)")
    args = ap.parse_args(argv)

    binary = os.path.abspath(args.kondavo)
    if not os.access(binary, os.X_OK):
        sys.stderr.write(f"diff_perft: kondavo binary not found or not executable: {binary}\n")
        return 3
    names = [n.strip() for n in args.rulesets.split(",") if n.strip()]
    for n in names:
        if n not in RULESETS:
            sys.stderr.write(f"diff_perft: unknown rule set {n!r} (choose from {', '.join(RULESETS)})\n")
            return 3
    if PD_VERSION < (0, 6) and "russian" in names and not args.force_russian_057:
        # pydraughts 0.5.7 lets a russian king stop after a jump although another landing square
        # would let the capture continue (rules.md, russian: "if some landing squares allow the
        # capture to continue, the king must land on one of them"). 0.6.x fixed it.
        print("note: pydraughts < 0.6: russian/ukrainian skipped (known pydraughts bug, see --help)")
        names.remove("russian")

    opts = {"scale": 0.25 if args.quick else args.scale, "depth2": args.depth2, "setups": args.setups,
            "setups_depth2": args.setups_depth2, "depth3": args.depth3,
            "d3_nodes": args.d3_nodes}
    print(f"diff_perft: pydraughts {PYDRAUGHTS_VERSION}, kondavo {binary}, seed {args.seed}, "
          f"rule sets {', '.join(names)}", flush=True)
    t0 = time.time()
    tasks = [(n, binary, args.seed, opts) for n in names]
    # the slow ones first so that the two workers finish together
    order = ["international", "frisian", "antidraughts", "breakthrough", "turkish", "russian",
             "brazilian", "frysk", "english", "italian"]
    tasks.sort(key=lambda t: order.index(t[0]))
    if args.jobs > 1 and len(tasks) > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = list(pool.imap_unordered(run_ruleset, tasks))
    else:
        results = [run_ruleset(t) for t in tasks]
    results.sort(key=lambda r: names.index(r["ruleset"]))

    failed = False
    for r in results:
        c = r["counts"]
        status = "ok" if not r["errors"] and not r["mismatches"] else "FAIL"
        print(f"{r['ruleset']:13s} ({'+'.join(r['kvariants'])}): {r['positions']} playout positions + {r['setups']} setups; "
              f"depth1 {c[1]}, depth2 {c[2]}, depth3 {c[3]}, depth4 {c[4]} ({r['nodes']} nodes at d2/d3); "
              f"{len(r['mismatches'])} mismatches; {r['seconds']:.1f}s  {status}", flush=True)
        print("    root moves seen at depth 1: " + ", ".join(f"{k} {v}" for k, v in r["coverage"].items()))
        for e in r["errors"]:
            print("ERROR: " + e)
            failed = True
        for m in r["mismatches"]:
            print(m)
            failed = True
    total = sum(len(r["mismatches"]) + len(r["errors"]) for r in results)
    print(f"diff_perft: {len(results) - sum(1 for r in results if r['errors'] or r['mismatches'])} passed, "
          f"{sum(1 for r in results if r['errors'] or r['mismatches'])} failed "
          f"({total} mismatches) in {time.time() - t0:.1f}s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
