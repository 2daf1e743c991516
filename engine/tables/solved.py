"""The small boards solved: every placement position and opening removal of ``jar`` and
``shax-small``, valued exactly.

The movement tables (:mod:`engine.tables`) value every position once the stones are
placed; placement only adds stones, so a placement position's value follows from its
children by minimax, down to the full board, the opening removals (shax) and the
movement start. ``python -m engine.tables solve --variant shax-small`` (or
:func:`solve`) computes them all (``solved_build`` in ``_tables.c``) into one file per
board, ``placement.tbl`` beside the tables: two bytes a position, up to symmetry, for
each first jare (none, white's, black's: it decides who removes or moves first).

A value is a :class:`~engine.tables.Probe` for the player who acts, its distance in
moves to the end under best play, where a placement counts as a move and a removal
(an opening one too) rides with the action before it. :func:`solved_action` picks the
best action by these values from the first stone on; :func:`solved_scores` scores every
action, as :func:`~engine.tables.table_scores` does in the movement phase.
"""

from __future__ import annotations

import ctypes
import struct
from dataclasses import dataclass
from math import comb
from pathlib import Path

from engine.position import Action, Phase, Position, Step
from engine.tables import (
    BUILD_ERRORS,
    Probe,
    Progress,
    TableAnswer,
    TableInfo,
    Tables,
    best_answer,
    build,
    end_value,
    native,
    open_tables,
    probe_of,
    read_header,
    score_actions,
    tables_dir,
)
from engine.tables.lock import build_lock
from engine.variants import Variant, get_variant

SOLVED_BOARDS: dict[str, int] = {"jar": 3, "shax-small": 8}
"""The boards solved whole, with the stones a side their movement tables need."""

FILENAME = "placement.tbl"

MAGIC = b"SHAXPL01"
"""A solved file begins as a table file does (``Header`` in ``_tables.c``), with this
mark; two bytes a value follow the header."""
START, START_OFFSET = struct.Struct("<I"), 88
"""The empty board's value, in the header's first spare bytes."""

__all__ = [
    "SOLVED_BOARDS",
    "Solved",
    "SolvedInfo",
    "open_solved",
    "read_solved_info",
    "solve",
    "solved_action",
    "solved_bytes",
    "solved_path",
    "solved_scores",
]


def solved_path(directory: Path, variant: Variant) -> Path:
    return directory / variant.id / FILENAME


def _decode(raw: int) -> Probe:
    """A stored value (as in the tables: 0 draw, d a win in d, 0x8000 | d a loss in d)."""
    if raw == 0:
        return Probe("draw", 0)
    return Probe("loss", raw & 0x7FFF) if raw & 0x8000 else Probe("win", raw)


@dataclass(frozen=True)
class SolvedInfo:
    """What a solved file holds (from its header)."""

    header: TableInfo
    """Its counts: the positions (placements and full boards up to symmetry, with a
    first jare that fits the board), entries, bytes, wins, draws, losses, the longest
    win and loss, and the seconds the solve took."""
    start: Probe
    """The empty board's value for white, who places first."""

    @property
    def verdict(self) -> str:
        """The start with perfect play: ``'a draw'``, ``'white wins in 41'`` or ``'white
        loses in 41'`` (moves)."""
        start = self.start
        if start.result == "draw":
            return "a draw"
        return f"white {'wins' if start.result == 'win' else 'loses'} in {start.moves}"

    def describe(self) -> str:
        """``'shax-small placement solved: 674,692 positions (4.2 MB) in 0.5 s; with
        perfect play, a draw'``."""
        h = self.header
        size = f"{h.size / 1e6:.1f} MB" if h.size >= 1e6 else f"{h.size / 1e3:.0f} kB"
        took = f"{h.seconds:.1f} s" if h.seconds >= 0.1 else f"{h.seconds * 1e3:.1f} ms"
        return (
            f"{h.variant} placement solved: {h.positions:,} positions ({size}) in {took}; "
            f"with perfect play, {self.verdict}"
        )


def solved_bytes(variant: str | Variant) -> int:
    """About the size of a board's solved file (two bytes a position up to symmetry, for
    each first jare)."""
    v = get_variant(variant)
    count = 0
    for k in range(2 * v.pieces + 1):
        w, b = (k + 1) // 2, k // 2
        count += 3 * (comb(v.size, w) // len(native.symmetries(v)) + 1) * comb(v.size - w, b)
    return 128 + 2 * int(count * 1.1)


def read_solved_info(directory: Path | None, variant: str | Variant) -> SolvedInfo | None:
    """The header of a board's solved file, or ``None`` when there is none (or it is not one)."""
    v = get_variant(variant)
    path = solved_path(directory if directory is not None else tables_dir(), v)
    header = read_header(path, v.id, MAGIC)
    if header is None:
        return None
    with path.open("rb") as f:
        f.seek(START_OFFSET)
        (start,) = START.unpack(f.read(START.size))
    return SolvedInfo(header, _decode(start))


class Solved:
    """A board's solved placement, open (memory-mapped) for probing, with its tables."""

    def __init__(self, tables: Tables, path: Path) -> None:
        self.tables = tables
        self.path = path
        self._lib = native.library()
        handle = self._lib.solved_open(tables.handle, str(path).encode())
        if not handle:
            raise ValueError(f"{path} is not a solved file of the {tables.variant.id} board")
        self.handle: int = handle

    def __del__(self) -> None:
        handle = getattr(self, "handle", None)
        if handle:
            self._lib.solved_close(handle)
            self.handle = 0

    def probe(self, position: Position) -> Probe | None:
        """The value for the player who acts of a placement position or an opening
        removal; ``None`` for any other position."""
        if position.outcome is not None or position.phase is Phase.MOVEMENT:
            return None
        dist = ctypes.c_int32(0)
        removal = 1 if position.phase is Phase.REMOVAL else 0
        rc = self._lib.solved_probe(
            self.tables.handle,
            self.handle,
            position.white,
            position.black,
            position.first_jare_index,
            removal,
            ctypes.byref(dist),
        )
        return probe_of(rc, int(dist.value))

    def value(self, position: Position) -> Probe | None:
        """The value of any position of the board for the player who acts (the movement
        tables for the movement phase); ``None`` when the game is over."""
        if position.outcome is not None:
            return None
        if position.phase is Phase.MOVEMENT:
            if position.step is Step.REMOVE:
                return None
            return self.tables.probe(position)
        return self.probe(position)


_OPEN: dict[tuple[str, str], tuple[int, Solved | None]] = {}


def open_solved(variant: str | Variant, directory: Path | None = None) -> Solved | None:
    """A board's solved placement in ``directory`` (default :func:`tables_dir`), opened
    once per process and again when the file was rewritten; ``None`` when the board is
    not solved there (or its tables are missing)."""
    v = get_variant(variant)
    if v.id not in SOLVED_BOARDS:
        return None
    where = directory if directory is not None else tables_dir()
    path = solved_path(where, v)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return None
    tables = open_tables(v, where)
    if tables is None:
        return None
    key = (v.id, str(where))
    seen = _OPEN.get(key)
    if seen is not None and seen[0] == stamp and seen[1] is not None and seen[1].tables is tables:
        return seen[1]
    try:
        found: Solved | None = Solved(tables, path)
    except ValueError:
        found = None
    _OPEN[key] = (stamp, found)
    return found


def solve(
    variant: str | Variant,
    directory: Path | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> SolvedInfo:
    """Solve a small board whole into ``directory`` (default :func:`tables_dir`): its
    movement tables first where they are missing (``threads``, ``progress`` as for
    :func:`~engine.tables.build`), then every placement position (a second or less).
    Raises ``ValueError`` for a board too big to solve, ``RuntimeError`` when it fails."""
    v = get_variant(variant)
    if v.id not in SOLVED_BOARDS:
        raise ValueError(f"only {' and '.join(SOLVED_BOARDS)} are solved whole, not {v.id}")
    where = directory if directory is not None else tables_dir()
    with build_lock(where):
        build(v, SOLVED_BOARDS[v.id], where, threads=threads, progress=progress)
        tables = Tables(v, where)
        path = solved_path(where, v)
        build_solved = native.library().solved_build
        rc = native.stoppable(build_solved, tables.handle, v.pieces, str(path).encode())
    if rc != 0:
        raise RuntimeError(f"solving {v.id} failed: {BUILD_ERRORS.get(rc, rc)}")
    _OPEN.pop((v.id, str(where)), None)
    info = read_solved_info(where, v)
    if info is None:
        raise RuntimeError(f"the solved file {path} does not open")
    return info


# -- choosing an action by the solved values ---------------------------------------


def _after(solved: Solved, position: Position, child: Position) -> Probe | None:
    """The value of ``child`` for the player who acts in ``position``."""
    if child.outcome is not None:
        return end_value(child.outcome, position.turn)
    found = solved.value(child)
    if found is None:
        return None
    return found if child.turn == position.turn else found.flipped()


def solved_scores(
    position: Position, solved: Solved | None = None
) -> list[tuple[Action, Probe]] | None:
    """Every legal action of a placement position or an opening removal with the value
    it leads to for the player who acts (not counting the action itself), or ``None``
    where the board is not solved or the position is in the movement phase."""
    if position.outcome is not None or position.phase is Phase.MOVEMENT:
        return None
    if solved is None:
        solved = open_solved(position.variant)
    if solved is None:
        return None
    found = solved
    return score_actions(position, lambda child: _after(found, position, child))


def solved_action(position: Position, solved: Solved | None = None) -> TableAnswer | None:
    """The best placement or opening removal by the solved values: the quickest win,
    else a draw (the one the static evaluation likes best), else the longest loss, with
    the position's value; ``None`` where the board is not solved or the position is in
    the movement phase."""
    scored = solved_scores(position, solved)
    return best_answer(position, scored) if scored else None
