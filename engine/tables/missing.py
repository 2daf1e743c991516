"""What a tables folder lacks for full strength, and building it, smallest first.

:func:`missing_work` lists the endgame tables (:data:`DEFAULT_STONES` a side), the
solved placement of the small boards (:mod:`engine.tables.solved`) and the full-board
values (:data:`~engine.tables.fullboard.DEFAULT_DEPTH` plies, for today's evaluation)
that are not in a folder yet, nor shipped with the package
(:mod:`engine.tables.shipping`); :func:`build_missing` builds them one after the other,
checking the free disk before each, and tells a ``say`` callback what it does.
The bot runs it in a background process at its first start (``bot.workers.tables``);
``python -m engine.tables missing`` lists it and ``python -m engine.tables build`` runs
it by hand. Each file appears whole (written beside and renamed), and ``master`` uses it
from its next move; a build stopped part way starts again where it stopped: the tables
inside the system it was solving (from its last checkpoint), the full-board values from
their progress file.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import ceil, comb
from pathlib import Path
from typing import Literal

from engine.tables import build, materials_up_to, read_header, table_path
from engine.tables.fullboard import DEFAULT_DEPTH, build_full_board, has_full_board
from engine.tables.lock import build_lock
from engine.tables.native import symmetries
from engine.tables.shipping import full_board_ready
from engine.tables.solved import SOLVED_BOARDS, read_solved_info, solve, solved_bytes
from engine.variants import Variant, get_variant

BOARDS: tuple[str, ...] = ("jar", "shax-small", "shax")
"""The boards in the order they are built: each takes longer than the one before."""

SMALL_BOARDS: tuple[str, ...] = ("jar", "shax-small")
"""The boards whose tables and values build in seconds."""

DEFAULT_STONES: dict[str, tuple[int, int]] = {
    "jar": (3, 6),
    "shax-small": (8, 16),
    "shax": (6, 11),
}
"""The endgame tables built for full strength: up to so many stones a side, so many in
all. On shax six against up to five: 291 MB and about 5 minutes of processor time; six
against six would add 156 MB (``python -m engine.tables build --max 6``)."""

TABLE_SECONDS_PER_BYTE = 5 * 60 / 291e6
"""Processor time the endgame tables take, per byte of table: shax's 291 MB took about
5 minutes (measured on a busy two-core machine; the small boards' take seconds)."""

FULL_BOARD_SECONDS = {"shax": 80 * 60, "shax-small": 2}
"""Processor time the full-board values take: about 80 minutes on shax (measured on a
busy two-core machine), 2 seconds on shax-small."""

SOLVED_SECONDS = 1
"""Processor time a small board's placement takes to solve, its tables built."""

RESERVE_BYTES = 64 * 1024 * 1024
"""Free disk left over after a build, for everything else on the machine."""

PROGRESS_SECONDS = 60.0
"""How often a long build says how far it is."""

Say = Callable[[str], None]


@dataclass(frozen=True)
class Work:
    """One thing to build: a board's endgame tables, its solved placement, or its
    full-board values."""

    variant: str
    kind: Literal["tables", "solved", "full-board"]
    stones: int
    """For tables: up to this many stones a side,"""
    total: int
    """and this many in all."""
    bytes_needed: int
    """About how much disk the files take."""

    @property
    def seconds(self) -> float:
        """About how much processor time it takes (:data:`TABLE_SECONDS_PER_BYTE`,
        :data:`FULL_BOARD_SECONDS`)."""
        if self.kind == "tables":
            return self.bytes_needed * TABLE_SECONDS_PER_BYTE
        if self.kind == "solved":
            return SOLVED_SECONDS
        return FULL_BOARD_SECONDS.get(self.variant, 0)

    def describe(self) -> str:
        if self.kind == "tables":
            cap = f" and {self.total} in all" if self.total < 2 * self.stones else ""
            return f"the {self.variant} endgame tables up to {self.stones} stones a side{cap}"
        if self.kind == "solved":
            return f"the solved {self.variant} placement"
        return f"the {self.variant} full-board values"


def _table_bytes(v: Variant, due: int, other: int) -> int:
    """About the size of a table file: its positions up to symmetry, a byte each."""
    classes = comb(v.size, due) // len(symmetries(v)) + 1
    return 128 + int(classes * 1.05) * comb(v.size - due, other)


def _missing_materials(
    v: Variant, directory: Path, stones: int, total: int
) -> list[tuple[int, int]]:
    out = []
    for a, b in materials_up_to(v, stones, total):
        for due, other in {(a, b), (b, a)}:
            if read_header(table_path(directory, v, due, other), v.id) is None:
                out.append((due, other))
    return out


def missing_work(directory: Path, boards: Sequence[str] = BOARDS) -> list[Work]:
    """What ``directory`` lacks of ``boards`` for full strength, in the order to build it."""
    out: list[Work] = []
    for board in BOARDS:
        if board not in boards:
            continue
        v = get_variant(board)
        stones, total = DEFAULT_STONES[board]
        lacking = _missing_materials(v, directory, stones, total)
        if lacking:
            size = sum(_table_bytes(v, due, other) for due, other in lacking)
            out.append(Work(v.id, "tables", stones, total, size))
        if v.id in SOLVED_BOARDS and read_solved_info(directory, v) is None:
            out.append(Work(v.id, "solved", 0, 0, solved_bytes(v)))
        if has_full_board(v) and not full_board_ready(directory, v):
            out.append(Work(v.id, "full-board", 0, 0, 2 * 2 * comb(v.size, v.pieces)))
    return out


def minutes(seconds: float) -> str:
    """Processor or wall time in words: ``about 43 minutes``, ``a minute or less``."""
    whole = ceil(seconds / 60)
    return "a minute or less" if whole <= 1 else f"about {whole} minutes"


def time_words(work: Sequence[Work], cores: int | None = None) -> str:
    """How long ``work`` takes on ``cores`` (default: this machine's) idle cores, and in
    processor time."""
    n = max(1, cores or os.cpu_count() or 1)
    cpu = sum(w.seconds for w in work)
    return (
        f"{minutes(cpu / n)} on {n} idle core{'s' if n > 1 else ''} ({minutes(cpu)} of "
        "processor time; longer while the cores are busy)"
    )


def announcement(work: Sequence[Work], cores: int | None = None) -> str:
    """The line that says a build of ``work`` starts in the background, and how long it
    takes."""
    return (
        "Building endgame tables in the background: master plays better as they land, "
        f"{time_words(work, cores)}."
    )


def _free_bytes(directory: Path) -> int:
    return shutil.disk_usage(directory).free


def size_words(size: int) -> str:
    """A size in megabytes or kilobytes (at least 1 kB)."""
    return f"{size / 1e6:,.0f} MB" if size >= 1e6 else f"{max(size / 1e3, 1):,.0f} kB"


def build_missing(
    directory: Path,
    boards: Sequence[str] = BOARDS,
    say: Say = print,
    *,
    warn: Say | None = None,
    threads: int | None = None,
    initializer: Callable[[], None] | None = None,
) -> list[Work]:
    """Build what :func:`missing_work` lists, smallest first, with ``threads`` (default:
    every core); returns what was built. Work that would leave less than
    :data:`RESERVE_BYTES` of free disk is not started (``warn``, default ``say``, tells
    why), and neither is anything after it. ``initializer`` runs first in each worker
    process of the full-board search. Holds the folder's build lock: while another
    process builds there, this one waits for it (and then builds only what is still
    missing). Ctrl-C stops it at once, keeping every whole file."""
    with build_lock(directory):
        return _build_missing(directory, boards, say, warn, threads, initializer)


def _build_missing(
    directory: Path,
    boards: Sequence[str],
    say: Say,
    warn: Say | None,
    threads: int | None,
    initializer: Callable[[], None] | None,
) -> list[Work]:
    done: list[Work] = []
    for work in missing_work(directory, boards):
        free = _free_bytes(directory)
        if free < work.bytes_needed + RESERVE_BYTES:
            (warn or say)(
                f"Not enough free disk for {work.describe()}: they need about "
                f"{size_words(work.bytes_needed + RESERVE_BYTES)} in {directory} and "
                f"{size_words(free)} are free, so master plays without them; free some space "
                "and start again to build them."
            )
            break
        say(f"Building {work.describe()} in {directory} (about {size_words(work.bytes_needed)}).")
        start = time.monotonic()
        if work.kind == "tables":
            _build_tables(work, directory, say, threads)
        elif work.kind == "solved":
            say(solve(work.variant, directory, threads).describe() + ".")
        else:
            _build_full_board(work, directory, say, threads, initializer)
        say(f"Built {work.describe()} in {time.monotonic() - start:,.0f} s.")
        done.append(work)
    return done


def _build_tables(work: Work, directory: Path, say: Say, threads: int | None) -> None:
    v = get_variant(work.variant)
    systems = {
        tuple(sorted(m, reverse=True))
        for m in _missing_materials(v, directory, work.stones, work.total)
    }
    built = 0
    last = time.monotonic()

    def built_one(name: str, seconds: float) -> None:
        nonlocal built
        built += 1
        if seconds >= 1.0:  # the many quick ones are told only in the total
            say(
                f"{v.id} endgame tables: {name} solved in {seconds:.0f} s "
                f"({built} of {len(systems)} done)."
            )

    def progress(name: str, level: int, done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last < PROGRESS_SECONDS:
            return
        last = now
        if level == 0:
            stage = f"reading its moves, {100 * done // max(total, 1)}%"
        else:
            stage = f"{done:,} of its {total:,} positions decided so far"
        say(f"{v.id} endgame tables: {name}, {stage} ({built} of {len(systems)} done).")

    build(v, work.stones, directory, threads, progress, built_one, work.total)


def _build_full_board(
    work: Work,
    directory: Path,
    say: Say,
    workers: int | None,
    initializer: Callable[[], None] | None,
) -> None:
    v = get_variant(work.variant)
    start = time.monotonic()
    last = start
    first: int | None = None

    def progress(searched: int, total: int) -> None:
        nonlocal last, first
        now = time.monotonic()
        if first is None:  # the first call tells where the build starts
            first = searched
            if searched:
                say(f"{v.id} full-board values: resuming at {searched:,} of {total:,} boards.")
            return
        if now - last < PROGRESS_SECONDS or searched >= total:
            return
        last = now
        rate = (searched - first) / max(now - start, 1e-9)
        left = (total - searched) / rate if rate > 0 else 0.0
        say(
            f"{v.id} full-board values: {searched:,} of {total:,} boards searched "
            f"({100 * searched // total}%), about {left / 60:.0f} min left."
        )

    build_full_board(v, DEFAULT_DEPTH, directory, workers, progress, initializer=initializer)
