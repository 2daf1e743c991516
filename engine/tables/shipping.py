"""The full-board values the package ships, so that ``master`` has them from its first move.

A board's full-board values (:mod:`engine.tables.fullboard`) are fixed as long as the
evaluation is, and small up to symmetry: 170,854 boards on shax. The package carries
them in ``engine/tables/shipped/<board>.fbv``: a header (:data:`HEADER`: magic, points,
depth, boards, entries, build seconds and the
:func:`~engine.tables.fullboard.evaluation_digest` they were searched with), then one
16-bit value a board up to symmetry, in the order of
:func:`~engine.tables.fullboard.orbits`, compressed (lzma). Read, they are expanded by
the table library to a value for every set of the remover's stones, as a built file
has them, once per process (a few tenths of a second for shax:
``benchmarks/bench_shipped.py``).

:func:`full_board_values` gives ``master``'s search its values: those built in the tables
folder for today's evaluation, else the shipped ones. A shipped file made with another
evaluation than today's is stale and not used: a test says so, and ``python -m
engine.tables full --variant <board>`` searches the values again and ships them.
``python -m engine.tables ship --variant <board> --from DIR`` ships the values a finished
search left in ``DIR``.
"""

from __future__ import annotations

import ctypes
import functools
import lzma
import random
import struct
import sys
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from pathlib import Path

from engine.tables.fullboard import (
    DEFAULT_DEPTH,
    FullBoardError,
    built_values,
    check_variant,
    evaluation_digest,
    full_board_path,
    has_full_board,
    orbits,
    parse_values,
    read_full_board_info,
    search_values,
    write_atomically,
)
from engine.tables.native import TablesUnavailableError, expand_classes
from engine.variants import Variant, get_variant

SHIPPED_DIR = Path(__file__).with_name("shipped")
"""Where the package keeps its full-board values (package data)."""

MAGIC = b"SHAXFV01"
HEADER = struct.Struct("<8s3IQd16s")
"""Magic, points, depth, boards (up to symmetry), entries (every set of the remover's
stones), the search's seconds and the evaluation's digest; the compressed values follow."""

CHECKS = 24
"""Boards searched again when values are shipped, to see that today's search gives them."""


def shipped_path(variant: Variant, folder: Path | None = None) -> Path:
    """The board's file in ``folder`` (default: :data:`SHIPPED_DIR`)."""
    return (folder if folder is not None else SHIPPED_DIR) / f"{variant.id}.fbv"


@dataclass(frozen=True)
class Shipped:
    """A shipped file: its figures, and one value a board up to symmetry."""

    variant: str
    path: Path
    depth: int
    boards: int
    seconds: float
    """How long the search took."""
    size: int
    """Bytes of the file."""
    stale: bool
    """Searched with another evaluation than today's: not used."""
    values: array[int]

    def describe(self) -> str:
        state = (
            "stale: searched with another evaluation; search them again with "
            f"python -m engine.tables full --variant {self.variant}"
            if self.stale
            else "for today's evaluation"
        )
        return (
            f"{self.variant} full boards shipped with the package: {self.boards:,} up to "
            f"symmetry, {self.depth} plies, searched in {self.seconds:,.0f} s, "
            f"{self.size:,} bytes ({state})"
        )


def read_shipped(variant: str | Variant, folder: Path | None = None) -> Shipped | None:
    """The file the package ships for a board, or ``None`` when there is none (or it is
    not one)."""
    v = get_variant(variant)
    path = shipped_path(v, folder)
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    if len(raw) < HEADER.size:
        return None
    magic, n, depth, boards, entries, seconds, digest = HEADER.unpack_from(raw)
    if magic != MAGIC or n != v.size or entries != comb(v.size, v.pieces):
        return None
    try:
        values = array("h", lzma.decompress(raw[HEADER.size :]))
    except (lzma.LZMAError, ValueError):
        return None
    if len(values) != boards:
        return None
    if sys.byteorder == "big":
        values.byteswap()
    stale = digest != evaluation_digest(v)
    return Shipped(v.id, path, depth, boards, seconds, len(raw), stale, values)


def write_shipped(
    variant: Variant, depth: int, seconds: float, values: array[int], folder: Path | None = None
) -> Shipped:
    """Write a board's values (one a board up to symmetry) as the package ships them."""
    body = array("h", values)
    if sys.byteorder == "big":
        body.byteswap()
    header = HEADER.pack(
        MAGIC,
        variant.size,
        depth,
        len(values),
        comb(variant.size, variant.pieces),
        seconds,
        evaluation_digest(variant),
    )
    path = shipped_path(variant, folder)
    write_atomically(path, header + lzma.compress(body.tobytes(), preset=9))
    shipped = read_shipped(variant, folder)
    if shipped is None:
        raise OSError(f"the new file {path} does not read back")
    return shipped


def c_values(values: array[int]) -> ctypes.Array[ctypes.c_int16]:
    """16-bit values as the table library reads them (sharing their memory)."""
    return (ctypes.c_int16 * len(values)).from_buffer(values)


@functools.cache
def _expanded(variant_id: str, path: str, mtime_ns: int) -> ctypes.Array[ctypes.c_int16] | None:
    v = get_variant(variant_id)
    shipped = read_shipped(v, Path(path).parent)
    if shipped is None or shipped.stale:
        return None
    try:
        return expand_classes(v, v.pieces, c_values(shipped.values))
    except (TablesUnavailableError, ValueError, MemoryError):
        return None


def shipped_values(
    variant: Variant, folder: Path | None = None
) -> ctypes.Array[ctypes.c_int16] | None:
    """The shipped values of a board for every set of the remover's stones, as the search
    reads them (expanded once per process), or ``None`` when the package ships none for
    today's evaluation (or the table library that expands them is missing)."""
    path = shipped_path(variant, folder)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return None
    return _expanded(variant.id, str(path), mtime)


def full_board_values(
    variant: str | Variant, directory: Path | None = None
) -> ctypes.Array[ctypes.c_int16] | None:
    """The full-board values of a board for the search (read once per process and file):
    those built in ``directory`` (default: the tables folder) for today's evaluation,
    else those the package ships for it, else ``None``."""
    from engine.tables import tables_dir

    v = get_variant(variant)
    if not has_full_board(v):
        return None
    built = built_values(v, directory if directory is not None else tables_dir())
    return built if built is not None else shipped_values(v)


def full_board_ready(directory: Path, variant: str | Variant) -> bool:
    """Whether ``master`` has the board's full-board values for today's evaluation: built
    in ``directory``, or shipped with the package (nothing to build then)."""
    v = get_variant(variant)
    info = read_full_board_info(directory, v)
    if info is not None and not info.stale:
        return True
    shipped = read_shipped(v)
    return shipped is not None and not shipped.stale


@dataclass(frozen=True)
class ShipReport:
    """What shipping a finished search did."""

    shipped: Shipped
    checked: int
    """Boards searched again, each giving the value shipped."""
    digest_matched: bool
    """Whether the search's file carried today's digest (else the boards searched again
    vouch for it, as for a search begun before the digest took in the code)."""


def ship(
    variant: str | Variant,
    directory: Path,
    *,
    folder: Path | None = None,
    checks: int = CHECKS,
    seconds: float | None = None,
) -> ShipReport:
    """Ship the values a finished search wrote into ``directory`` (its ``full-board.val``):
    one value a board up to symmetry, after checking that the boards of each class share
    it and that ``checks`` boards searched again by today's search give it. Raises
    :class:`FullBoardError` when there are none, they are damaged or differ from today's
    search, ``OSError`` when the package's folder cannot be written."""
    v = get_variant(variant)
    check_variant(v)
    path = full_board_path(directory, v)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise FullBoardError(
            f"no finished full-board values in {path.parent} ({exc.strerror or exc}); search "
            f"them with python -m engine.tables full --variant {v.id} --dir {directory}"
        ) from exc
    parsed = parse_values(raw, v)
    if parsed is None:
        raise FullBoardError(f"{path} is damaged or not a full-board file")
    depth, _, built_seconds, digest, values = parsed
    classes = list(orbits(v))
    per_class = array("h")
    for mask, ranks in classes:
        value = values[ranks[0]]
        if any(values[r] != value for r in ranks):
            raise FullBoardError(
                f"{path} is damaged: the boards like {mask:#x} under symmetry differ"
            )
        per_class.append(value)
    picked = sorted(random.Random(depth).sample(range(len(classes)), min(checks, len(classes))))
    again = search_values(v, depth, [classes[i][0] for i in picked])
    wrong = [i for i, value in zip(picked, again, strict=True) if value != per_class[i]]
    if wrong:
        raise FullBoardError(
            f"{path} holds other values than today's search gives ({len(wrong)} of "
            f"{len(picked)} boards searched again differ): it was searched with another "
            f"evaluation; search again with python -m engine.tables full --variant {v.id}"
        )
    shipped = write_shipped(
        v, depth, built_seconds if seconds is None else seconds, per_class, folder
    )
    return ShipReport(shipped, len(picked), digest == evaluation_digest(v))


def ship_words(report: ShipReport, say: Callable[[str], None]) -> None:
    """Say what :func:`ship` did, with its figures."""
    s = report.shipped
    say(
        f"shipped {s.variant}'s full-board values in {s.path}: {s.boards:,} boards up to "
        f"symmetry, {s.depth} plies, searched in {s.seconds:,.0f} s, "
        f"{s.size:,} bytes"
    )
    how = (
        "the search's file carries today's evaluation digest"
        if report.digest_matched
        else "the search's file carries another digest (searched before it took in the "
        "evaluation's code); today's digest is written"
    )
    say(f"{report.checked} boards searched again give the values shipped; {how}")
    if s.depth != DEFAULT_DEPTH:
        say(f"note: {s.depth} plies, not the {DEFAULT_DEPTH} that full searches by default")
