"""Full-board values: every board the placement can end on, searched ahead of time.

Every shax game passes through a full board: the placement fills every point, half with
each colour, and the opening removals begin with the player who formed the first jare
(black when nobody did). That position is what the whole placement plays for, and
there are few of them: C(24, 12) = 2,704,156 on the shax board, 170,854 up to the
board's 16 symmetries (8 on shax-small). The value for the first remover depends only
on the remover's stones, since the other player holds every other point.

``python -m engine.tables full`` searches each of them once, to a fixed depth
(:data:`DEFAULT_DEPTH`) with the evaluation of the day, and writes one file per board:
a header, then a 16-bit value per set of the remover's stones in colex order. With it,
``master``'s search stops at a full board with the value of a search many plies deeper
than its own horizon there, so from the middle of the placement it sees to the end of it.
The values belong to the evaluation they were searched with (:func:`evaluation_digest`:
its weights and the compiled search's code): a file built with another is not used
(``python -m engine.tables info`` says it is stale). The package ships them too
(:mod:`engine.tables.shipping`, which gives ``master`` its values), so ``master`` has them
from its first move; a file in the tables folder comes first.

Only the compiled search core reads them, as with the endgame tables.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import signal
import struct
import sys
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from math import comb
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING

from engine.position import WHITE, Phase, Position, Step
from engine.tables.lock import PARTIAL_SUFFIX, build_lock
from engine.tables.native import symmetries
from engine.variants import Variant, get_variant

if TYPE_CHECKING:
    from engine.ai.core import CoreParams

DEFAULT_DEPTH = 11
"""Plies searched from each full board: about 80 minutes of processor time for shax
(measured on a busy two-core machine; 10 plies take about half as long; in the proof
match ``master`` scored +127 Elo with 11, +80 with 10)."""

MAGIC = b"SHAXFB01"
HEADER = struct.Struct("<8s2I2Qd16s")
"""Magic, points, depth, entries, boards searched (up to symmetry), build seconds and the
digest of the evaluation searched with; a little-endian int16 per entry follows."""

TT_LOG2 = 18
"""The transposition table of each board's search: 2**18 entries."""

FILE_NAME = "full-board.val"

Progress = Callable[[int, int], None]
"""``progress(searched, total)`` during a build: first with the boards already searched
(0, or where a resumed build starts), then after each job."""


class FullBoardError(ValueError):
    """A board without a full-board position (jar), or a depth out of range."""


def full_board_path(directory: Path, variant: Variant) -> Path:
    return directory / variant.id / FILE_NAME


def has_full_board(variant: Variant) -> bool:
    """Whether the placement ends on a full board with opening removals (not jar)."""
    return variant.family == "shax" and 2 * variant.pieces == variant.size


def check_variant(variant: Variant) -> None:
    if not has_full_board(variant):
        raise FullBoardError(
            f"{variant.id} has no full board with opening removals; choose shax or shax-small"
        )


def search_params(variant: Variant, depth: int) -> CoreParams:
    """The compiled search's settings for each full board: today's weights, ``depth``
    plies, a table of :data:`TT_LOG2`."""
    from engine.ai import core
    from engine.ai.levels import weights_for

    return core.make_params(weights_for(variant.id), max_depth=depth, tt_log2=TT_LOG2)


def _fields(struct: ctypes.Structure) -> str:
    """A structure's fields as text, the same on every machine."""

    def plain(value: object) -> object:
        return [plain(x) for x in value] if isinstance(value, ctypes.Array) else value

    return ";".join(f"{field[0]}={plain(getattr(struct, field[0]))}" for field in struct._fields_)


def evaluation_digest(variant: Variant) -> bytes:
    """What a full board's value depends on, besides the depth stored beside it: the
    evaluation's weights for the board, the settings each board is searched with, the
    board, and the source of the compiled search (``engine/ai/_core.c``, the evaluation
    and the search that together give a value: a change to either can change it)."""
    from engine.ai import core
    from engine.ai.common import WEIGHT_NAMES
    from engine.ai.levels import weights_for

    weights = weights_for(variant.id)
    vector = ",".join(f"{name}={weights[name]}" for name in WEIGHT_NAMES)
    digest = hashlib.sha256(f"{variant.id}:{vector}".encode())
    digest.update(_fields(search_params(variant, 0)).encode())
    digest.update(_fields(core.core_board(variant.id)).encode())
    try:  # line ends as a checkout on any system has them
        digest.update(core.SOURCE.read_bytes().replace(b"\r\n", b"\n"))
    except OSError:
        digest.update(b"no source")
    return digest.digest()[:16]


def colex_rank(mask: int) -> int:
    """The index of a set of points among the sets of its size, in colex order (the order
    of the masks as numbers): the sum of C(p, i) over its i-th point p, from i = 1."""
    rank, i = 0, 0
    while mask:
        low = mask & -mask
        i += 1
        rank += comb(low.bit_length() - 1, i)
        mask ^= low
    return rank


def _image(mask: int, image: Sequence[int]) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << image[low.bit_length() - 1]
        mask ^= low
    return out


def orbits(variant: Variant) -> Iterator[tuple[int, list[int]]]:
    """Each full board up to symmetry: the remover's stones on one board of the class,
    and the colex ranks of every board of the class."""
    check_variant(variant)
    n, k = variant.size, variant.pieces
    syms = symmetries(variant)
    seen = bytearray(comb(n, k))
    mask, rank = (1 << k) - 1, 0
    top = 1 << n
    while mask < top:  # the sets of k points in colex order: rank counts them
        if not seen[rank]:
            ranks = sorted({colex_rank(_image(mask, s)) for s in syms})
            for r in ranks:
                seen[r] = 1
            yield mask, ranks
        # The next set of k points in colex order (Gosper's hack).
        low = mask & -mask
        ripple = mask + low
        mask = ripple | (((mask ^ ripple) >> 2) // low)
        rank += 1


def full_board_position(variant: Variant, remover: int) -> Position:
    """The position where the opening removals begin: the remover's stones on
    ``remover``, the other player's everywhere else, white to remove first."""
    rest = variant.all_points & ~remover
    return Position(variant, remover, rest, (0, 0), WHITE, Phase.REMOVAL, Step.REMOVE, WHITE)


def _start_worker(initializer: Callable[[], None] | None) -> None:
    """Worker: Ctrl-C in a terminal reaches every process of it; the build stops its
    workers itself, so they ignore it (and print no traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer()


def _search_boards(job: tuple[str, int, list[int]]) -> list[int]:
    """Worker: the search's value, for the remover, of each board in ``job``."""
    variant_id, depth, masks = job
    return search_values(get_variant(variant_id), depth, masks)


def search_values(v: Variant, depth: int, masks: Sequence[int]) -> list[int]:
    """The search's value, for the remover, of the full board of each of ``masks``."""
    from engine.ai import core

    params = search_params(v, depth)
    return [int(core.c_search(full_board_position(v, m), params).score) for m in masks]


@dataclass(frozen=True)
class FullBoardInfo:
    """What a full-board file holds (from its header and values)."""

    variant: str
    path: Path
    depth: int
    boards: int
    """Boards searched: the full boards up to symmetry."""
    entries: int
    size: int
    """Bytes on disk."""
    seconds: float
    stale: bool
    """Searched with another evaluation than today's: not used."""
    ahead: int
    even: int
    behind: int
    """Entries where the first remover's value is above, within or below one stone."""


def read_full_board_info(directory: Path, variant: str | Variant) -> FullBoardInfo | None:
    v = get_variant(variant)
    path = full_board_path(directory, v)
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    parsed = parse_values(raw, v)
    if parsed is None:
        return None
    depth, boards, seconds, digest, values = parsed
    counts = [0, 0, 0]
    for value in values:
        counts[0 if value > 100 else 2 if value < -100 else 1] += 1
    return FullBoardInfo(
        v.id,
        path,
        depth,
        boards,
        len(values),
        len(raw),
        seconds,
        digest != evaluation_digest(v),
        *counts,
    )


def parse_values(raw: bytes, v: Variant) -> tuple[int, int, float, bytes, array[int]] | None:
    """A full-board file's depth, boards, seconds, digest and values, or ``None`` when it
    is not one for the board."""
    if len(raw) < HEADER.size:
        return None
    magic, n, depth, entries, boards, seconds, digest = HEADER.unpack_from(raw)
    if magic != MAGIC or n != v.size or entries != comb(v.size, v.pieces):
        return None
    values = array("h", raw[HEADER.size :])
    if len(values) != entries or len(raw) != HEADER.size + 2 * entries:
        return None
    if sys.byteorder == "big":
        values.byteswap()
    return depth, boards, seconds, digest, values


@functools.cache
def _load(variant_id: str, path: str, mtime_ns: int) -> ctypes.Array[ctypes.c_int16] | None:
    v = get_variant(variant_id)
    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None
    parsed = parse_values(raw, v)
    if parsed is None or parsed[3] != evaluation_digest(v):
        return None
    values = parsed[4]
    return (ctypes.c_int16 * len(values)).from_buffer(values)


def built_values(variant: Variant, directory: Path) -> ctypes.Array[ctypes.c_int16] | None:
    """The full-board values built in ``directory`` for today's evaluation, as the search
    reads them (read once per process and file), or ``None``. What ``master`` uses, the
    shipped ones when none are built, is :func:`engine.tables.shipping.full_board_values`."""
    path = full_board_path(directory, variant)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return None
    return _load(variant.id, str(path), mtime)


PROGRESS_MAGIC = b"SHAXFP01"
PROGRESS_HEADER = struct.Struct("<8s2I2Qd16s")
"""A build's progress file: magic, points, depth, boards searched so far (the first ones
of :func:`orbits`), boards in all, seconds spent so far and the weights' digest; a
little-endian int16 per board searched follows."""

PROGRESS_FILE = "full-board.progress"

CHUNK = 256
"""Boards per job of the build."""

SAVE_SECONDS = 15.0
"""How often a build writes its progress file (a restarted build resumes from it)."""


def progress_path(directory: Path, variant: Variant) -> Path:
    return directory / variant.id / PROGRESS_FILE


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader (or a crash) sees the old file or the
    new one, never a part: a temporary file beside it, then :func:`os.replace`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + PARTIAL_SUFFIX)
    partial.write_bytes(data)
    os.replace(partial, path)


def _resumed(path: Path, v: Variant, depth: int, total: int) -> tuple[array[int], float]:
    """The values and seconds of an earlier build of the same board, depth and weights
    that stopped part way (empty when there is none to resume)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return array("h"), 0.0
    if len(raw) >= PROGRESS_HEADER.size:
        magic, n, d, done, boards, seconds, digest = PROGRESS_HEADER.unpack_from(raw)
        values = array("h", raw[PROGRESS_HEADER.size :])
        if sys.byteorder == "big":
            values.byteswap()
        if (magic, n, d, boards, digest) == (
            PROGRESS_MAGIC,
            v.size,
            depth,
            total,
            evaluation_digest(v),
        ) and len(values) == done <= total:
            return values, seconds
    return array("h"), 0.0


def _save_progress(
    path: Path, v: Variant, depth: int, total: int, values: array[int], seconds: float
) -> None:
    body = array("h", values)
    if sys.byteorder == "big":
        body.byteswap()
    header = PROGRESS_HEADER.pack(
        PROGRESS_MAGIC, v.size, depth, len(values), total, seconds, evaluation_digest(v)
    )
    write_atomically(path, header + body.tobytes())


def build_full_board(
    variant: str | Variant,
    depth: int = DEFAULT_DEPTH,
    directory: Path | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    *,
    initializer: Callable[[], None] | None = None,
    save_seconds: float = SAVE_SECONDS,
) -> FullBoardInfo:
    """Search every full board of ``variant`` up to symmetry to ``depth`` plies and write
    the values (replacing a file already there, only once the new one is complete).

    Every ``save_seconds`` the boards searched so far go to a progress file, so that a
    build stopped part way (a restart, a crash) resumes there when it is asked for again
    with the same depth and weights. ``initializer`` runs in each worker process first.
    Holds the folder's build lock (waiting for another builder first). Ctrl-C (or a
    ``KeyboardInterrupt`` from a signal) stops it at once: the worker processes end, the
    progress file keeps what was searched. Raises :class:`FullBoardError` for a board
    without one or a depth below 1, and ``CoreUnavailableError`` without the compiled
    core."""
    from engine.ai import core
    from engine.tables import tables_dir

    v = get_variant(variant)
    check_variant(v)
    if not 1 <= depth <= 40:
        raise FullBoardError(f"the depth must be between 1 and 40 plies, not {depth}")
    core.library()  # the compiled core, or CoreUnavailableError before any work
    where = directory if directory is not None else tables_dir()
    with build_lock(where):
        return _build_locked(v, depth, where, workers, progress, initializer, save_seconds)


def _build_locked(
    v: Variant,
    depth: int,
    where: Path,
    workers: int | None,
    progress: Progress | None,
    initializer: Callable[[], None] | None,
    save_seconds: float,
) -> FullBoardInfo:
    classes = list(orbits(v))
    saved = progress_path(where, v)
    found, before = _resumed(saved, v, depth, len(classes))
    start = time.perf_counter() - before
    jobs = [
        (v.id, depth, [mask for mask, _ in classes[i : i + CHUNK]])
        for i in range(len(found), len(classes), CHUNK)
    ]
    if progress is not None:
        progress(len(found), len(classes))  # where the build starts: 0, or resumed
    nworkers = max(1, workers or os.cpu_count() or 1)
    last_save = time.monotonic()
    if jobs:
        pool = ProcessPoolExecutor(
            nworkers,
            mp_context=get_context("spawn"),
            initializer=functools.partial(_start_worker, initializer),
        )
        # Futures of its own, not map's: map cancels the jobs left when it is left part
        # way, and on Python 3.11 the pool's manager then fails on them as its workers end.
        futures = [pool.submit(_search_boards, job) for job in jobs]
        try:
            for future in futures:
                found.extend(future.result())
                if time.monotonic() - last_save >= save_seconds and len(found) < len(classes):
                    _save_progress(
                        saved, v, depth, len(classes), found, time.perf_counter() - start
                    )
                    last_save = time.monotonic()
                if progress is not None:
                    progress(len(found), len(classes))
        except BaseException:
            for worker in list(pool._processes.values()):  # mid-search: not worth waiting for
                worker.kill()
            pool.shutdown(wait=False)  # the jobs left fail with the pool, as it is broken
            raise
        pool.shutdown()
    values = [0] * comb(v.size, v.pieces)
    for (_, ranks), value in zip(classes, found, strict=True):
        for r in ranks:
            values[r] = value
    seconds = time.perf_counter() - start
    path = full_board_path(where, v)
    header = HEADER.pack(
        MAGIC, v.size, depth, len(values), len(classes), seconds, evaluation_digest(v)
    )
    write_atomically(path, header + struct.pack(f"<{len(values)}h", *values))
    saved.unlink(missing_ok=True)
    info = read_full_board_info(where, v)
    if info is None:
        raise OSError(f"the new file {path} does not read back")
    return info
