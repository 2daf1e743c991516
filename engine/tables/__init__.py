"""Endgame tables: every movement-phase position with few stones, solved exactly.

``python -m engine.tables build --max K`` solves every material with 3 to K stones a
side by retrograde analysis (``_tables.c``) under RULES.md — the blockade and the
freeing move, oodan, two stones lose, endless play drawn — and writes one file per
material into :func:`tables_dir`. Each position's value is a win, a draw or a loss for
the player who acts, with the distance in moves (a removal rides with its move) to the
end of the game under best play: the winner the shortest way, the loser the longest.
The 100-move rule is not part of the value; a win is certain when it arrives before
the clock runs out (:meth:`Probe.in_time`).

:func:`open_tables` gives the tables a directory holds for a board, or ``None``;
:meth:`Tables.probe` answers for a position, :func:`table_action` picks the best action
by them, and :func:`probing` lets the compiled search use them as exact leaves.
"""

from __future__ import annotations

import ctypes
import os
import struct
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from engine.position import MOVE_LIMIT, Action, Phase, Position, Step
from engine.tables import native
from engine.tables.lock import build_lock
from engine.tables.native import MAXK, TablesUnavailableError
from engine.variants import Variant, get_variant
from engine.verdicts import Outcome

Result = Literal["win", "draw", "loss"]

HEADER = struct.Struct("<8s4I6Q2Id40x")
"""A table file's header (``Header`` in ``_tables.c``); a byte per position follows
(version 2, every distance below 128), else two bytes (version 1)."""

MIN_STONES = 3
"""A player with two stones has lost: tables start at three."""

TABLES_ENV = "SHAX_TABLES_DIR"
"""The environment variable naming the folder of the tables (:func:`tables_dir`)."""

__all__ = [
    "MIN_STONES",
    "TABLES_ENV",
    "Probe",
    "TableAnswer",
    "TableInfo",
    "Tables",
    "TablesUnavailableError",
    "build",
    "materials_up_to",
    "open_tables",
    "probe_hits",
    "probing",
    "read_info",
    "table_action",
    "table_scores",
    "tables_dir",
]


def tables_dir() -> Path:
    """Where the tables live: ``$SHAX_TABLES_DIR``, else the user's cache directory."""
    override = os.environ.get(TABLES_ENV)
    if override:
        return Path(override).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "shax" / "tables"


def table_path(directory: Path, variant: Variant, due: int, other: int) -> Path:
    return directory / variant.id / f"{due}v{other}.tbl"


CHECKPOINT_SUFFIX = ".resume"
"""A system's build checkpoint (no table: nothing reads it but the build of that system)."""

CHECKPOINT_SECONDS = 60.0
"""How often a build saves where it is in the system it solves (after its first pass or
a level), so that a build stopped part way goes on from there. A checkpoint takes three
bytes a position (456 MB for shax's six against five, the largest the bot builds) and
is written only while the disk has room for it and 64 MB more."""


def checkpoint_path(directory: Path, variant: Variant, a: int, b: int) -> Path:
    """Where the build of the system ``a`` v ``b`` keeps its checkpoint."""
    return directory / variant.id / f"{a}v{b}{CHECKPOINT_SUFFIX}"


def materials_up_to(
    variant: Variant, max_stones: int, max_total: int | None = None
) -> list[tuple[int, int]]:
    """The systems to solve for up to ``max_stones`` a side (and ``max_total`` stones in
    all), smallest first: pairs ``(a, b)`` with ``a >= b`` (the tables ``a`` v ``b`` and
    ``b`` v ``a`` together)."""
    if variant.family == "jar":
        return [(3, 3)] if max_stones >= 3 else []
    top = min(max_stones, variant.pieces, MAXK)
    total = min(variant.size, max_total if max_total is not None else variant.size)
    pairs = [
        (a, b)
        for a in range(MIN_STONES, top + 1)
        for b in range(MIN_STONES, a + 1)
        if a + b <= total
    ]
    return sorted(pairs, key=lambda ab: (ab[0] + ab[1], ab))


@dataclass(frozen=True)
class Probe:
    """A table's answer for a position, for the player who acts."""

    result: Result
    moves: int
    """Moves to the end of the game under best play (0 for a draw)."""

    def in_time(self, clock: int) -> bool:
        """Whether the result holds under the 100-move rule from a clock of ``clock``
        moves without capture (a draw always does; a win if it comes in time)."""
        return self.result == "draw" or clock + self.moves <= MOVE_LIMIT

    @property
    def score(self) -> int:
        """The search's score: ``30000 - moves`` for a win, its negative for a loss."""
        if self.result == "draw":
            return 0
        return 30000 - self.moves if self.result == "win" else -(30000 - self.moves)

    def flipped(self) -> Probe:
        """The same position seen by the other player."""
        flip: dict[Result, Result] = {"win": "loss", "loss": "win", "draw": "draw"}
        return Probe(flip[self.result], self.moves)

    def rank(self) -> tuple[int, int]:
        """An order: sooner wins, then draws, then later losses."""
        if self.result == "win":
            return (2, -self.moves)
        return (1, 0) if self.result == "draw" else (0, self.moves)


class Tables:
    """The tables found for one board, open (memory-mapped) for probing."""

    def __init__(self, variant: Variant, directory: Path) -> None:
        self.variant = variant
        self.directory = directory
        self._lib = native.library()
        self._geometry = native.geometry(variant)
        handle = self._lib.tables_new(ctypes.byref(self._geometry))
        if not handle:
            raise TablesUnavailableError("the table library could not start (out of memory?)")
        self.handle: int = handle
        self.materials: set[tuple[int, int]] = set()
        self.refresh()

    def refresh(self) -> None:
        """Open every table file present in the directory (a rebuilt one replaces the old)."""
        folder = self.directory / self.variant.id
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*v*.tbl")):
            try:
                due, other = (int(part) for part in path.stem.split("v"))
            except ValueError:
                continue
            if self.attach(due, other, path):
                self.materials.add((due, other))

    def attach(self, due: int, other: int, path: Path) -> bool:
        rc = self._lib.tables_attach(self.handle, due, other, str(path).encode())
        return bool(rc == 0)

    def __del__(self) -> None:
        handle = getattr(self, "handle", None)
        if handle:
            self._lib.tables_free(handle)
            self.handle = 0

    def covers(self, white: int, black: int) -> bool:
        """Whether positions with these stone counts are in the tables (either side due)."""
        return (white, black) in self.materials and (black, white) in self.materials

    def probe(self, position: Position) -> Probe | None:
        """The value of a movement-phase position for the player who acts, or ``None``
        when it is not in the tables (placement, a removal due, the game over, or
        material not built)."""
        if (
            position.outcome is not None
            or position.phase is not Phase.MOVEMENT
            or position.step is Step.REMOVE
        ):
            return None
        return self.probe_board(position.white, position.black, position.turn, position.step)

    def probe_board(self, white: int, black: int, turn: int, step: Step) -> Probe | None:
        dist = ctypes.c_int32(0)
        freeing = 1 if step is Step.FREE else 0
        rc = self._lib.tables_probe(self.handle, white, black, turn, freeing, ctypes.byref(dist))
        return probe_of(rc, int(dist.value))


def probe_of(rc: int, dist: int) -> Probe | None:
    """A probe's answer from the library's (1 win, -1 loss, 0 draw, -2 not held)."""
    if rc == -2:
        return None
    result: Result = "win" if rc == 1 else "loss" if rc == -1 else "draw"
    return Probe(result, dist)


_OPEN: dict[tuple[str, str], tuple[int, Tables | None]] = {}


def _folder_stamp(folder: Path) -> int:
    """When a board's folder last changed (a table written or replaced renames a file
    into it); -1 when there is none."""
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return -1


def open_tables(variant: str | Variant, directory: Path | None = None) -> Tables | None:
    """The tables of a board in ``directory`` (default :func:`tables_dir`), opened once
    per process and opened again when a table was written there since (a background
    build's tables are used as each is done); ``None`` when there are none or the table
    library is not available."""
    v = get_variant(variant)
    where = directory if directory is not None else tables_dir()
    key = (v.id, str(where))
    stamp = _folder_stamp(where / v.id)
    seen = _OPEN.get(key)
    if seen is not None and seen[0] == stamp:
        return seen[1]
    found = seen[1] if seen is not None else None
    if stamp == -1 or not native.available():
        found = None
    elif found is None:
        found = Tables(v, where)
    else:
        found.refresh()
    if found is not None and not found.materials:
        found = None
    _OPEN[key] = (stamp, found)
    return found


def forget_open_tables() -> None:
    """Close the tables opened so far (after a build, or between tests)."""
    _OPEN.clear()


# -- choosing an action by the tables ------------------------------------------------


@dataclass(frozen=True)
class TableAnswer:
    """The best action by the tables, and the position's value for the player who acts."""

    action: Action
    value: Probe
    probes: int


def _after(tables: Tables, position: Position, child: Position) -> Probe | None:
    """The value of ``child`` for the player who acts in ``position``."""
    me = position.turn
    if child.outcome is not None:
        return end_value(child.outcome, me)
    if child.step is Step.REMOVE:
        best: Probe | None = None
        for removal in child.legal_actions():
            value = _after(tables, child, child.play(removal))
            if value is None:
                return None
            if best is None or value.rank() > best.rank():
                best = value
        return best
    found = tables.probe(child)
    if found is None:
        return None
    return found if child.turn == me else found.flipped()


def end_value(outcome: Outcome, me: int) -> Probe:
    """A finished game's value for the player ``me`` (0 white, 1 black)."""
    if outcome.winner is None:
        return Probe("draw", 0)
    return Probe("win" if outcome.winner.value == me else "loss", 0)


def table_scores(position: Position, tables: Tables) -> list[tuple[Action, Probe]] | None:
    """Every legal action with the value it leads to for the player who acts (a move
    that closes a jare with its best removal), or ``None`` when the position or one of
    its successors is not in the tables."""
    if position.outcome is not None or position.phase is not Phase.MOVEMENT:
        return None
    if position.step is not Step.REMOVE and tables.probe(position) is None:
        return None
    return score_actions(position, lambda child: _after(tables, position, child))


def score_actions(
    position: Position, value_after: Callable[[Position], Probe | None]
) -> list[tuple[Action, Probe]] | None:
    """Every legal action with ``value_after`` of the position it leads to, or ``None``
    when one of them has none."""
    scored: list[tuple[Action, Probe]] = []
    for action in position.legal_actions():
        value = value_after(position.play(action))
        if value is None:
            return None
        scored.append((action, value))
    return scored


def table_action(position: Position, tables: Tables | None = None) -> TableAnswer | None:
    """The best action by the tables: the quickest win, else a draw (the one the static
    evaluation likes best), else the longest loss. ``None`` when the position or one of
    its successors is not in the tables."""
    if tables is None:
        tables = open_tables(position.variant)
    scored = None if tables is None else table_scores(position, tables)
    return best_answer(position, scored) if scored else None


def best_answer(position: Position, scored: list[tuple[Action, Probe]]) -> TableAnswer:
    """The best of the scored actions (each with the value after it for the player who
    acts): the quickest win, else a draw (the one the static evaluation likes best),
    else the longest loss; with the position's value, its own move counted (a removal
    rides with the action before it)."""
    top = max(value.rank() for _, value in scored)
    best = [(a, v) for a, v in scored if v.rank() == top]
    action, value = best[0]
    if value.result == "draw" and len(best) > 1:
        action = _liveliest(position, [a for a, _ in best])
    removal = position.step is Step.REMOVE
    moves = value.moves if removal or value.result == "draw" else value.moves + 1
    return TableAnswer(action, Probe(value.result, moves), len(scored))


def _liveliest(position: Position, actions: list[Action]) -> Action:
    """Among drawing actions, the one after which the static evaluation is best for us."""
    try:
        from engine.ai import core
        from engine.ai.levels import weights_for

        weights = weights_for(position.variant.id)

        def mine(action: Action) -> int:
            child = position.play(action)
            if child.outcome is not None:
                return 0
            score = core.evaluate(child, weights)
            return score if child.turn == position.turn else -score

        return max(actions, key=mine)
    except (ImportError, OSError, RuntimeError):
        return actions[0]


# -- the search's probe hook -------------------------------------------------------


@contextmanager
def probing(tables: Tables | None) -> Iterator[bool]:
    """While inside, the compiled search (this thread) treats positions in ``tables`` as
    exact leaves; yields whether it does (``False`` without tables or the search core)."""
    core = _core_hook() if tables is not None else None
    if tables is None or core is None:
        yield False
        return
    probe = ctypes.cast(native.library().tables_probe, ctypes.c_void_p)
    core.core_set_probe(probe, ctypes.c_void_p(tables.handle))
    try:
        yield True
    finally:
        core.core_set_probe(None, None)


def probe_hits() -> int:
    """Positions the search answered from the tables in the last :func:`probing` block
    (read it inside the block)."""
    core = _core_hook()
    return 0 if core is None else int(core.core_probe_hits())


def _core_hook() -> ctypes.CDLL | None:
    """The compiled search core, if it is there and has the probe hook."""
    try:
        from engine.ai import core

        lib = core.library()
    except (ImportError, OSError, RuntimeError):
        return None
    if getattr(lib, "core_set_probe", None) is None:
        return None
    lib.core_set_probe.restype = None
    lib.core_set_probe.argtypes = (ctypes.c_void_p, ctypes.c_void_p)
    lib.core_probe_hits.restype = ctypes.c_int64
    lib.core_probe_hits.argtypes = ()
    return lib


# -- building and describing -------------------------------------------------------


@dataclass(frozen=True)
class TableInfo:
    """What a table file holds (from its header)."""

    variant: str
    due: int
    other: int
    path: Path
    positions: int
    """Positions up to symmetry (board and player due to move)."""
    entries: int
    size: int
    """Bytes on disk."""
    wins: int
    draws: int
    losses: int
    longest_win: int
    longest_loss: int
    seconds: float
    """Build time of the system (this table and its mirror) it came from."""

    @property
    def material(self) -> str:
        return f"{self.due}v{self.other}"


def read_header(path: Path, variant: str, magic: bytes = b"SHAXTB01") -> TableInfo | None:
    """A file's header, or ``None`` when it is missing or not one (``magic`` names the
    kind: a table, or a solved placement)."""
    try:
        with path.open("rb") as f:
            raw = f.read(HEADER.size)
        size = path.stat().st_size
    except OSError:
        return None
    if len(raw) != HEADER.size:
        return None
    kind, _version, _n, a, b, _key, count, states, wins, draws, losses, mw, ml, secs = (
        HEADER.unpack(raw)
    )
    if kind != magic:
        return None
    return TableInfo(variant, a, b, path, states, count, size, wins, draws, losses, mw, ml, secs)


def read_info(directory: Path | None = None) -> list[TableInfo]:
    """Every table file in ``directory`` (default :func:`tables_dir`), by board and material."""
    where = directory if directory is not None else tables_dir()
    out: list[TableInfo] = []
    if not where.is_dir():
        return out
    for folder in sorted(p for p in where.iterdir() if p.is_dir()):
        for path in folder.glob("*v*.tbl"):
            info = read_header(path, folder.name)
            if info is not None:
                out.append(info)
    out.sort(key=lambda i: (i.variant, i.due + i.other, i.due, i.other))
    return out


Progress = Callable[[str, int, int, int], None]
"""``progress(material, level, done, total)`` during a build."""

BUILD_ERRORS = {
    -1: "bad arguments",
    -2: "out of memory",
    -3: "a smaller table it needs is missing",
    -4: "writing the file failed",
    native.STOPPED: "stopped",
}


def build(
    variant: str | Variant,
    max_stones: int,
    directory: Path | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    built_one: Callable[[str, float], None] | None = None,
    max_total: int | None = None,
    checkpoint_seconds: float = CHECKPOINT_SECONDS,
) -> list[tuple[str, float]]:
    """Solve every material up to ``max_stones`` a side (``max_total`` stones in all)
    that is not already in ``directory``; returns the systems built with their seconds (and tells
    ``built_one`` as each is done). Holds the folder's build lock (waiting for another
    builder to finish first: it may build what this one would). Ctrl-C (or
    ``KeyboardInterrupt`` from a signal) stops it at once, keeping the tables done and
    no file part way; every ``checkpoint_seconds`` the system being solved is saved in
    its checkpoint (:func:`checkpoint_path`), and a later build goes on from there.
    Raises :class:`TablesUnavailableError` when the library is missing,
    ``RuntimeError`` when a build fails, ``OSError`` when the folder cannot be written."""
    v = get_variant(variant)
    where = directory if directory is not None else tables_dir()
    native.library()  # TablesUnavailableError before anything else
    with build_lock(where):
        (where / v.id).mkdir(parents=True, exist_ok=True)
        return _build_locked(
            v, max_stones, where, threads, progress, built_one, max_total, checkpoint_seconds
        )


def _build_locked(
    v: Variant,
    max_stones: int,
    where: Path,
    threads: int | None,
    progress: Progress | None,
    built_one: Callable[[str, float], None] | None,
    max_total: int | None,
    checkpoint_seconds: float,
) -> list[tuple[str, float]]:
    lib = native.library()
    tables = Tables(v, where)
    nthreads = threads or os.cpu_count() or 1
    built: list[tuple[str, float]] = []
    for a, b in materials_up_to(v, max_stones, max_total):
        if (a, b) in tables.materials and (b, a) in tables.materials:
            checkpoint_path(where, v, a, b).unlink(missing_ok=True)  # stopped as it ended
            continue
        name = f"{a}v{b}" if a == b else f"{a}v{b}+{b}v{a}"

        def report(level: int, done: int, total: int, name: str = name) -> None:
            if progress is not None:
                progress(name, level, done, total)

        callback = native.PROGRESS(report)
        path_ab, path_ba = table_path(where, v, a, b), table_path(where, v, b, a)
        start = time.perf_counter()
        rc = native.stoppable(
            lib.tables_build,
            tables.handle,
            a,
            b,
            str(path_ab).encode(),
            str(path_ba).encode(),
            nthreads,
            callback,
            str(checkpoint_path(where, v, a, b)).encode(),
            native.library_key(),
            checkpoint_seconds,
        )
        if rc != 0:
            raise RuntimeError(f"building {v.id} {name} failed: {BUILD_ERRORS.get(rc, rc)}")
        for due, other, path in ((a, b, path_ab), (b, a, path_ba)):
            if not tables.attach(due, other, path):
                raise RuntimeError(f"the new table {path} does not open")
            tables.materials.add((due, other))
        built.append((name, time.perf_counter() - start))
        if built_one is not None:
            built_one(*built[-1])
    forget_open_tables()
    return built
