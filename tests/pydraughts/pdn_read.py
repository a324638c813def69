#!/usr/bin/env python3
"""Reads a PDN file written by `kondavo match` with pydraughts' PDNReader and replays it.

Usage (from the repository root, after `.ci/pyenv.sh` and `cargo build --release`):

    target/release/kondavo match -v russian --engine "target/release/kondavo hub" \\
        --engine "target/release/kondavo hub" --games 4 --tc nodes=2000 --pdn /tmp/r.pdn
    .venv/pd067/bin/python tests/pydraughts/pdn_read.py --pdn /tmp/r.pdn --variant russian

What it checks, for every game of the file, with the pydraughts version of the interpreter that
runs it (0.5.x `Game` or 0.6.x `Board`):

1. Games and tags. pydraughts' `PDNReader(filename=...)` finds as many games as the file has
   `[Event` tags (and --games, when given). For every game the tags pydraughts read equal the
   ones in the file (read here with a plain regular expression), the tags kondavo always writes
   are there (Event, Site, Round, White, Black, Result, GameType, Opening, TimeControl,
   Termination; FEN only when the game does not start from the start position), White and Black
   are not empty, `GameType` maps to the expected pydraughts variant and is the exact string
   pydraughts' own PDNWriter writes for it, the result token is the rule set's style (`1-0`,
   `0-1`, `1/2-1/2` in english; `2-0`, `0-2`, `1-1` elsewhere) and the same in the `Result`
   tag and at the end of the moves (pydraughts' `game_ending`).
2. Moves. The moves pydraughts extracted from the movetext are exactly the moves of the file
   (move numbers, `...` and the result dropped). The game is set up on a pydraughts board of the
   variant from the `FEN` tag (or the start position); the side to move there must be the one
   the movetext's first move number says (`1.`: the rule set's first mover, `1...`: the
   other). Every move is then parsed by pydraughts itself from its PDN text
   (`Move(board, pdn_move=...)`: numeric or algebraic squares, the full path of an ambiguous
   capture) and pushed; a move pydraughts cannot match to one of its legal moves fails the game.
3. The end. Where pydraughts can tell, the final position must agree with the Result and the
   Termination tag:
   - `no legal move`: the side to move has no legal move in pydraughts, pydraughts says the
     game is over and names as winner the side the Result names (not a draw);
   - any other termination: the side to move has a legal move in pydraughts (kondavo checks
     "no legal move" before anything else, so the game cannot have been over by that rule);
   - `threefold repetition`, `move counter`, `move limit`, `adjudicated draw`: the Result is a
     draw. Whether pydraughts itself sees the draw is only reported (its draw rules and counters
     are not kondavo's, and a repetition across the FEN start is invisible to it);
   - forfeits (`time forfeit by X`, `hang of X`, `crash of X`, `malformed reply from X`,
     `illegal move by X`): the Result is a loss for the side to move, and X is that side's
     player tag. Other terminations fail the game.
4. Threefold repetition, counted on pydraughts' positions (Hub position string: every square
   and the side to move): the game must end at the first position that occurs for the third
   time, and then with `threefold repetition`; a final position that is not a third occurrence
   must not have that Termination. Threefold repetition is a draw in every rule set kondavo
   plays and kondavo checks it before its move counters, so this holds whatever the other draw
   rules. Failures with --strict-repetition; without it they are printed as notes.

Exit status: 0 when every game passes, 1 at the first failure (with the game, the move and the
position), 2 on bad arguments or an unreadable file, 3 when pydraughts is missing.
"""

from __future__ import annotations

import argparse
import re
import sys
import traceback
from typing import Any, Dict, List, Optional

try:
    import draughts
    from draughts.PDN import PDNReader, PDNWriter
    from draughts.convert import fen_from_variant, move_to_variant
except ImportError as exc:  # pragma: no cover - reported to the caller
    sys.stderr.write(f"pdn_read: cannot import pydraughts ({exc}); run .ci/pyenv.sh\n")
    sys.exit(3)

try:
    from importlib.metadata import version as _dist_version
    PYDRAUGHTS_VERSION = _dist_version("pydraughts")
except Exception:  # pragma: no cover
    PYDRAUGHTS_VERSION = getattr(draughts, "__version__", "0")

PD_VERSION = tuple(int(x) for x in re.findall(r"\d+", PYDRAUGHTS_VERSION)[:3])
PD06 = PD_VERSION >= (0, 6)

WHITE = 2  # pydraughts' colour numbers (both versions)
BLACK = 1
COLOUR = {WHITE: "White", BLACK: "Black"}

# kondavo rule set -> pydraughts variant.
VARIANTS = {
    "international": "standard",
    "russian": "russian",
    "brazilian": "brazilian",
    "english": "english",
    "italian": "italian",
    "turkish": "turkish",
}

REQUIRED_TAGS = ["Event", "Site", "Round", "White", "Black", "Result", "GameType", "Opening",
                 "TimeControl", "Termination"]

FMJD_RESULTS = {"2-0": WHITE, "0-2": BLACK, "1-1": 0}
ENGLISH_RESULTS = {"1-0": WHITE, "0-1": BLACK, "1/2-1/2": 0}
ALL_RESULTS = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"}

DRAW_TERMINATIONS = {"threefold repetition", "move counter", "move limit", "adjudicated draw"}
FORFEIT_PREFIXES = ["time forfeit by ", "hang of ", "crash of ", "malformed reply from ",
                    "illegal move by "]

TAG_RE = re.compile(r'^\[([A-Za-z0-9_]+) "(.*)"\]$')
NUMBER_RE = re.compile(r"^(\d+)\.(\.\.)?$")


class Failure(Exception):
    """A game that pydraughts does not read back as kondavo wrote it."""


# --------------------------------------------------------------------------------------------
# The file as written, read without pydraughts (the reference for what pydraughts must find)
# --------------------------------------------------------------------------------------------

class RawGame:
    def __init__(self) -> None:
        self.tags: Dict[str, str] = {}
        self.tag_order: List[str] = []
        self.tokens: List[str] = []
        self.movetext = ""
        self.comments = 0
        self.variations = 0
        self.nags = 0
        self.variation_at: Dict[int, List[List[str]]] = {}

    def finish(self) -> None:
        """Tokens of the main line (comments, variations and move suffixes such as ?! and ??
        dropped), and each top-level variation's moves under the ply of the main-line move it
        replaces."""
        out: List[str] = []
        braces = parens = 0
        inner: List[str] = []
        for ch in self.movetext:
            if ch == "{" and not braces:
                braces = 1
                if not parens:
                    self.comments += 1
            elif ch == "}" and braces:
                braces = 0
            elif braces:
                continue
            elif ch == "(":
                if not parens:
                    self.variations += 1
                    inner = []
                else:
                    inner.append(ch)
                parens += 1
            elif ch == ")" and parens:
                parens -= 1
                if parens:
                    inner.append(ch)
                else:
                    ply = len(bare_moves("".join(out).split())) - 1
                    self.variation_at.setdefault(ply, []).append(
                        bare_moves(strip_parens("".join(inner)).split()))
            elif parens:
                inner.append(ch)
            else:
                out.append(ch)
        for t in "".join(out).split():
            bare = t.rstrip("?!")
            if bare != t:
                self.nags += 1
            if bare:
                self.tokens.append(bare)

    def moves(self) -> List[str]:
        return [t for t in self.tokens if not NUMBER_RE.match(t) and t not in ALL_RESULTS]

    def ending(self) -> Optional[str]:
        return self.tokens[-1] if self.tokens and self.tokens[-1] in ALL_RESULTS else None

    def first_number(self) -> Optional[str]:
        return self.tokens[0] if self.tokens and NUMBER_RE.match(self.tokens[0]) else None


def strip_parens(text: str) -> str:
    out: List[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def bare_moves(tokens: List[str]) -> List[str]:
    """Moves among PDN tokens: move numbers and results dropped, ?! suffixes stripped."""
    out = []
    for t in tokens:
        m = re.match(r"^\d+\.(\.\.)?(.*)$", t)
        if m:
            t = m.group(2)
        t = t.rstrip("?!")
        if t and t not in ALL_RESULTS:
            out.append(t)
    return out


def read_raw(text: str) -> List[RawGame]:
    games: List[RawGame] = []
    current: Optional[RawGame] = None
    in_moves = False
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        m = TAG_RE.match(line)
        if m:
            if current is None or in_moves:
                current = RawGame()
                games.append(current)
                in_moves = False
            if m.group(1) in current.tags:
                raise Failure(f"line {lineno}: tag {m.group(1)} twice in one game")
            current.tags[m.group(1)] = m.group(2)
            current.tag_order.append(m.group(1))
        elif line.startswith("["):
            raise Failure(f"line {lineno}: malformed tag line {line!r}")
        else:
            if current is None:
                raise Failure(f"line {lineno}: moves before any tag: {line!r}")
            in_moves = True
            current.movetext += line + "\n"
    for g in games:
        g.finish()
    return games


# --------------------------------------------------------------------------------------------
# pydraughts board, both API generations; colours are the rule set's own (english: Black first)
# --------------------------------------------------------------------------------------------

class PdBoard:
    def __init__(self, variant: str, fen: Optional[str]) -> None:
        self.variant = variant
        if PD06:
            self.b = draughts.Board(variant, fen) if fen else draughts.Board(variant)
        else:
            # 0.5.x Game takes the internal FEN: convert the variant's own FEN first, as 0.6's
            # Board does.
            self.b = draughts.Game(variant, fen_from_variant(fen, variant)) if fen else draughts.Game(variant)

    def _real(self, colour: int) -> int:
        # 0.5.x numbers colours internally, where WHITE is the side that moves first: in
        # english that is Black. 0.6.x Board.turn and winner() already give english colours.
        if not PD06 and self.variant == "english" and colour in (WHITE, BLACK):
            return 3 - colour
        return colour

    def turn(self) -> int:
        return self.b.turn if PD06 else self._real(self.b.whose_turn())

    def winner(self) -> Optional[int]:
        """WHITE, BLACK, 0 for a draw, None when not over."""
        if PD06:
            return self.b.winner()
        w = self.b.get_winner()
        return self._real(w) if w else w

    def is_over(self) -> bool:
        return self.b.is_over()

    def parse(self, pdn_move: str) -> Any:
        if PD06:
            return draughts.Move(self.b, pdn_move=pdn_move)
        return draughts.Move(self.b, pdn_move=pdn_move, variant=self.variant)

    def push(self, move: Any) -> None:
        if PD06:
            self.b.push(move)
        else:
            self.b.push(move.board_move)

    def legal_pdn_moves(self) -> List[str]:
        """pydraughts' legal moves in its own PDN notation (for messages and counting)."""
        if PD06:
            return [m.pdn_move for m in self.b.legal_moves()]
        moves, captures = self.b.legal_moves()
        out = []
        for bm in moves:
            m = draughts.Move(board_move=bm, possible_moves=moves, possible_captures=captures,
                              variant=self.variant)
            out.append(move_to_variant(m.pdn_move, variant=self.variant))
        return out

    def fen(self) -> str:
        return self.b.fen if PD06 else self.b.get_li_fen()

    def key(self) -> str:
        """The position with the side to move (pydraughts' Hub position string)."""
        return self.b._game.get_fen() if PD06 else self.b.get_fen()


# --------------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------------

def check_variation(label: str, variant: str, fen: Optional[str], before: List[str],
                    line: List[str], ply: int, stats: Dict[str, int]) -> None:
    """A variation replacing main-line ply `ply` must be legal from the position before it."""
    board = PdBoard(variant, fen)
    for text in before:
        board.push(board.parse(text))
    if not line:
        raise Failure(f"{label}: an empty variation at ply {ply}")
    for k, text in enumerate(line):
        try:
            board.push(board.parse(text))
        except Exception as e:  # noqa: BLE001 - reported
            raise Failure(f"{label}: variation at ply {ply}, move {k + 1} {text!r}: pydraughts "
                          f"cannot play it ({e!r}); the line: {' '.join(line)}")
    stats["variation plies"] += len(line)


def check_game(index: int, raw: RawGame, pd: Any, variant: str, kvariant: str,
               strict_repetition: bool, stats: Dict[str, int]) -> str:
    label = f"game {index + 1}"
    tags = raw.tags
    for name in REQUIRED_TAGS:
        if name not in tags:
            raise Failure(f"{label}: tag {name} missing (tags: {raw.tag_order})")
    label = f"game {index + 1} (Round {tags['Round']}, Opening {tags['Opening']!r})"

    # Tags as pydraughts read them.
    for name, value in tags.items():
        got = pd.tags.get(name)
        if got != value:
            raise Failure(f"{label}: pydraughts read tag {name} as {got!r}, the file has {value!r}")
    extra = sorted(set(pd.tags) - set(tags))
    if extra:
        raise Failure(f"{label}: pydraughts read tags that are not in the file: {extra}")
    for name in ("White", "Black"):
        if not pd.tags[name].strip():
            raise Failure(f"{label}: empty {name} tag")

    # GameType: the variant pydraughts maps it to, and pydraughts' own long form.
    if pd.variant != variant:
        raise Failure(f"{label}: pydraughts reads GameType {tags['GameType']!r} as variant "
                      f"{pd.variant!r}, expected {variant!r}")
    code = tags["GameType"].split(",")[0]
    own = PDNWriter.SHORT_TO_LONG_GAMETYPE.get(code)
    if own != tags["GameType"]:
        raise Failure(f"{label}: GameType {tags['GameType']!r}; pydraughts writes {own!r} for "
                      f"{variant}")

    # Result: the rule set's style, the same in the tag, at the end of the moves, for pydraughts.
    styles = ENGLISH_RESULTS if variant == "english" else FMJD_RESULTS
    result = tags["Result"]
    if result not in styles:
        raise Failure(f"{label}: Result {result!r} is not one of {sorted(styles)} ({kvariant})")
    if raw.ending() != result:
        raise Failure(f"{label}: the movetext ends with {raw.ending()!r}, the Result tag is "
                      f"{result!r}")
    if pd.game_ending != result:
        raise Failure(f"{label}: pydraughts read the game ending as {pd.game_ending!r}, the "
                      f"Result tag is {result!r}")
    verdict = styles[result]

    # Moves as pydraughts extracted them.
    moves = raw.moves()
    if list(pd.moves) != moves:
        first = next((i for i, (a, b) in enumerate(zip(pd.moves, moves)) if a != b),
                     min(len(pd.moves), len(moves)))
        raise Failure(f"{label}: pydraughts read {len(pd.moves)} moves, the file has {len(moves)}; "
                      f"first difference at ply {first + 1}: pydraughts "
                      f"{pd.moves[first:first + 3]}, file {moves[first:first + 3]}")
    if not moves:
        raise Failure(f"{label}: no moves")

    # The start position and the side to move.
    fen = tags.get("FEN")
    try:
        board = PdBoard(variant, fen)
    except Exception as e:  # noqa: BLE001 - reported
        raise Failure(f"{label}: pydraughts cannot set up FEN {fen!r}: {e!r}")
    first_mover = BLACK if variant == "english" else WHITE
    number = raw.first_number()
    if number is None:
        raise Failure(f"{label}: the movetext does not start with a move number: {raw.tokens[:3]}")
    numbered_first = NUMBER_RE.match(number).group(2) is None
    expected_turn = first_mover if numbered_first else 3 - first_mover
    if board.turn() != expected_turn:
        raise Failure(f"{label}: the movetext starts with {number!r} ({COLOUR[expected_turn]} to "
                      f"move) but in FEN {fen or '(start)'} pydraughts has {COLOUR[board.turn()]} "
                      f"to move")
    if fen is None:
        stats["start"] += 1
    else:
        stats["fen"] += 1

    # Replay, counting the occurrences of every position (side to move included).
    seen: Dict[str, int] = {board.key(): 1}
    first_threefold: Optional[int] = None
    for ply, text in enumerate(moves, 1):
        for line in raw.variation_at.get(ply - 1, []):
            check_variation(label, variant, fen, moves[:ply - 1], line, ply, stats)
        try:
            move = board.parse(text)
            board.push(move)
        except Exception as e:  # noqa: BLE001 - reported
            legal = board.legal_pdn_moves()
            tb = "" if isinstance(e, KeyError) else "\n" + traceback.format_exc()
            raise Failure(f"{label}: ply {ply} {text!r}: pydraughts cannot play it ({e!r}) in "
                          f"{board.fen()} with {COLOUR.get(board.turn(), '?')} to move; its "
                          f"legal moves: {' '.join(legal)}{tb}")
        key = board.key()
        seen[key] = seen.get(key, 0) + 1
        if seen[key] == 3 and first_threefold is None:
            first_threefold = ply
        stats["plies"] += 1
        if "x" in text:
            stats["captures"] += 1
            if text.count("x") > 1:
                stats["paths"] += 1

    # The end.
    termination = tags["Termination"]
    turn = board.turn()
    legal = board.legal_pdn_moves()
    where = f"final position {board.fen()}, {COLOUR.get(turn, '?')} to move"

    # Threefold repetition, counted on pydraughts' positions: the game must end at the first
    # third occurrence, with that Termination (kondavo checks "no legal move" first, then
    # repetition, then its move counters).
    problem = None
    if first_threefold is not None and first_threefold < len(moves):
        problem = (f"a position occurs for the third time at ply {first_threefold} "
                   f"({moves[first_threefold - 1]!r}) but the game goes on to ply {len(moves)} "
                   f"and ends by {termination!r}")
    elif termination == "threefold repetition" and first_threefold != len(moves):
        problem = (f"Termination 'threefold repetition' but the final position occurs "
                   f"{seen[board.key()]} time(s) ({where})")
    elif first_threefold == len(moves) and termination not in ("threefold repetition",
                                                                "no legal move"):
        problem = (f"the final position occurs for the third time but the Termination is "
                   f"{termination!r} ({where})")
    note = ""
    if problem is not None:
        if strict_repetition:
            raise Failure(f"{label}: {problem}")
        stats["repetition notes"] += 1
        note = f" [note, not checked: {problem}]"
    if termination == "no legal move":
        if legal:
            raise Failure(f"{label}: Termination 'no legal move' but pydraughts has legal moves "
                          f"in the {where}: {' '.join(legal)}")
        if not board.is_over():
            raise Failure(f"{label}: Termination 'no legal move' but pydraughts says the game "
                          f"is not over ({where})")
        won = board.winner()
        if won != verdict or verdict == 0:
            raise Failure(f"{label}: Result {result} ({COLOUR.get(verdict, 'draw')}) but "
                          f"pydraughts' winner is {COLOUR.get(won, won)} ({where})")
        if won == turn:
            raise Failure(f"{label}: the side to move wins with no legal move ({where})")
        stats["no legal move"] += 1
        return f"{label}: {len(moves)} plies, {result}, no legal move: pydraughts agrees{note}"

    if not legal:
        raise Failure(f"{label}: Termination {termination!r} but the side to move has no legal "
                      f"move in pydraughts ({where}): the game was over by that rule")
    if termination in DRAW_TERMINATIONS:
        if verdict != 0:
            raise Failure(f"{label}: Termination {termination!r} with a decisive Result {result}")
        won = board.winner()
        seen_by = "pydraughts sees the draw" if won == 0 else (
            "pydraughts does not see it" if won is None else
            f"pydraughts says {COLOUR.get(won, won)} won")
        if won == 0:
            stats["draws seen"] += 1
        stats["draws"] += 1
        return f"{label}: {len(moves)} plies, {result}, {termination} ({seen_by}){note}"
    for prefix in FORFEIT_PREFIXES:
        if termination.startswith(prefix):
            name = termination[len(prefix):].split(" (")[0]
            if verdict != 3 - turn:
                raise Failure(f"{label}: Termination {termination!r} but Result {result} is not a "
                              f"loss for the side to move ({where})")
            if tags[COLOUR[turn]] != name:
                raise Failure(f"{label}: Termination {termination!r} names {name!r} but "
                              f"{COLOUR[turn]} (to move) is {tags[COLOUR[turn]]!r}")
            stats["forfeits"] += 1
            return f"{label}: {len(moves)} plies, {result}, {termination}{note}"
    if termination == "adjudicated win":
        if verdict == 0:
            raise Failure(f"{label}: Termination 'adjudicated win' with a drawn Result")
        return f"{label}: {len(moves)} plies, {result}, {termination}{note}"
    raise Failure(f"{label}: unknown Termination {termination!r}")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pdn", required=True, help="PDN file written by kondavo match")
    ap.add_argument("--variant", required=True, choices=sorted(VARIANTS),
                    help="kondavo rule set of the file")
    ap.add_argument("--games", type=int, default=None, help="games the file must hold")
    ap.add_argument("--strict-repetition", action="store_true",
                    help="fail (instead of noting) a game that does not end at its first threefold "
                         "repetition")
    ap.add_argument("--quiet", action="store_true", help="only the summary line")
    ap.add_argument("--annotated", action="store_true",
                    help="the file was annotated by `kondavo annotate`: every game must have an "
                         "Annotator tag and comments")
    args = ap.parse_args(argv)
    variant = VARIANTS[args.variant]

    try:
        with open(args.pdn, encoding="utf8") as f:
            text = f.read()
    except OSError as e:
        print(f"pdn_read: cannot read {args.pdn}: {e}")
        return 2

    head = (f"pdn_read: pydraughts {PYDRAUGHTS_VERSION}, {args.variant} (pydraughts {variant}), "
            f"{args.pdn}")
    stats: Dict[str, int] = {k: 0 for k in ("start", "fen", "plies", "captures", "paths",
                                           "no legal move", "draws", "draws seen", "forfeits",
                                           "repetition notes", "variation plies")}
    lines: List[str] = []
    try:
        raw = read_raw(text)
        if not raw:
            raise Failure("no games in the file")
        if args.games is not None and len(raw) != args.games:
            raise Failure(f"the file holds {len(raw)} games, expected {args.games}")
        reader = PDNReader(filename=args.pdn)
        if len(reader.games) != len(raw):
            raise Failure(f"pydraughts reads {len(reader.games)} games, the file has {len(raw)}")
        for i, (r, g) in enumerate(zip(raw, reader.games)):
            if args.annotated and ("Annotator" not in r.tags or r.comments == 0):
                raise Failure(f"game {i + 1}: no Annotator tag or no comment in an annotated file")
            lines.append(check_game(i, r, g, variant, args.variant, args.strict_repetition,
                                    stats))
    except Failure as e:
        print(head)
        for l in lines:
            print("  " + l)
        print(f"FAILURE: {e}")
        return 1
    except Exception:  # noqa: BLE001 - a crash of the reader is a failure too
        print(head)
        for l in lines:
            print("  " + l)
        print("FAILURE: pydraughts raised:\n" + traceback.format_exc())
        return 1

    print(head)
    if not args.quiet:
        for l in lines:
            print("  " + l)
    if stats["repetition notes"]:
        print(f"pdn_read: NOTE: {stats['repetition notes']} games do not end at their first "
              f"threefold repetition (not checked without --strict-repetition)")
    print(f"pdn_read: {len(raw)} games ({stats['start']} from the start, {stats['fen']} from a FEN), "
          f"{stats['plies']} plies ({stats['captures']} captures, {stats['paths']} with a path) "
          f"replayed; {stats['no legal move']} won by no legal move confirmed, {stats['draws']} "
          f"draws ({stats['draws seen']} seen by pydraughts), {stats['forfeits']} forfeits; "
          f"{len(raw)} ok, 0 failed")
    if args.annotated:
        print(f"pdn_read: annotations: {sum(r.comments for r in raw)} comments, "
              f"{sum(r.nags for r in raw)} NAGs, {sum(r.variations for r in raw)} variations "
              f"({stats['variation plies']} plies replayed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
