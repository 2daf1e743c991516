"""The compiled table library, loaded with ctypes, and the board's description for it.

The C source is ``engine/tables/_tables.c``. ``pip install`` builds it (``setup.py``,
an optional extension) as ``engine/tables/_tables.<abi>.so``; a checkout that was not
reinstalled compiles it on first use into ``__pycache__``. Without a C compiler the
tables are simply not available (:class:`TablesUnavailableError`), and the AI plays on
without them.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import importlib.machinery
import math
import threading
from collections.abc import Callable
from pathlib import Path

from engine import build_flags
from engine.build_flags import BuildError, compile_cached
from engine.variants import Variant, iter_bits

TABLES_ABI = 5
"""Must equal ``TABLES_ABI`` in ``_tables.c``."""

MAXP = 24
MAXTHROUGH = 4
MAXSYM = 16
MAXK = 12
"""The most stones per side a table can hold."""

SOURCE = Path(__file__).with_name("_tables.c")

PROGRESS = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_int64, ctypes.c_int64)
"""``progress(level, done, total)``: level 0 while counting moves, then each distance."""

PROBE = ctypes.CFUNCTYPE(
    ctypes.c_int,
    ctypes.c_void_p,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_int32,
    ctypes.c_int32,
    ctypes.POINTER(ctypes.c_int32),
)
"""The signature of ``tables_probe``, which the search core calls through its hook."""


class TablesUnavailableError(RuntimeError):
    """The table library is neither installed nor buildable here (no C compiler)."""


class Geometry(ctypes.Structure):
    _fields_ = (
        ("n", ctypes.c_int32),
        ("family", ctypes.c_int32),
        ("nsym", ctypes.c_int32),
        ("pad", ctypes.c_int32),
        ("all", ctypes.c_uint32),
        ("adj", ctypes.c_uint32 * MAXP),
        ("nthrough", ctypes.c_int32 * MAXP),
        ("through", (ctypes.c_uint32 * MAXTHROUGH) * MAXP),
        ("sym", (ctypes.c_int8 * MAXP) * MAXSYM),
        ("key", ctypes.c_uint64),
    )


def compile_flags() -> list[str]:
    """The builder's flags for this machine (:mod:`engine.build_flags`), as a library."""
    return [*build_flags.tables_flags(), *build_flags.SHARED_LIBRARY_FLAGS]


def _installed_library() -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = SOURCE.parent / f"_tables{suffix}"
        if path.exists():
            return path
    return None


def _build_library() -> Path:
    """Compile ``_tables.c`` into a cache file named after its contents; returns its path."""
    try:
        return compile_cached(SOURCE, compile_flags(), "shax-tables")
    except BuildError as exc:
        raise TablesUnavailableError(
            f"the endgame-table library: {exc} (run `pip install -e .` where gcc is)"
        ) from exc


def _bind(lib: ctypes.CDLL) -> ctypes.CDLL:
    vp = ctypes.c_void_p
    lib.tables_abi.restype = ctypes.c_int
    lib.tables_abi.argtypes = ()
    lib.tables_new.restype = vp
    lib.tables_new.argtypes = (ctypes.POINTER(Geometry),)
    lib.tables_free.restype = None
    lib.tables_free.argtypes = (vp,)
    lib.tables_attach.restype = ctypes.c_int
    lib.tables_attach.argtypes = (vp, ctypes.c_int, ctypes.c_int, ctypes.c_char_p)
    lib.tables_stop.restype = None
    lib.tables_stop.argtypes = (vp, ctypes.c_int32)
    lib.tables_has.restype = ctypes.c_int
    lib.tables_has.argtypes = (vp, ctypes.c_int, ctypes.c_int)
    lib.tables_probe.restype = ctypes.c_int
    lib.tables_probe.argtypes = (
        vp,
        ctypes.c_uint32,
        ctypes.c_uint32,
        ctypes.c_int32,
        ctypes.c_int32,
        ctypes.POINTER(ctypes.c_int32),
    )
    lib.tables_build.restype = ctypes.c_int
    lib.tables_build.argtypes = (
        vp,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.c_int32,
        PROGRESS,
        ctypes.c_char_p,
        ctypes.c_uint64,
        ctypes.c_double,
    )
    lib.tables_expand_classes.restype = ctypes.c_int
    lib.tables_expand_classes.argtypes = (
        vp,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int16),
        ctypes.c_uint64,
        ctypes.POINTER(ctypes.c_int16),
    )
    lib.solved_build.restype = ctypes.c_int
    lib.solved_build.argtypes = (vp, ctypes.c_int, ctypes.c_char_p)
    lib.solved_open.restype = vp
    lib.solved_open.argtypes = (vp, ctypes.c_char_p)
    lib.solved_close.restype = None
    lib.solved_close.argtypes = (vp,)
    lib.solved_probe.restype = ctypes.c_int
    lib.solved_probe.argtypes = (vp, *lib.tables_probe.argtypes)  # its board, then as tables_probe
    lib.tables_bench_probe.restype = ctypes.c_double
    lib.tables_bench_probe.argtypes = (
        vp,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int64,
        ctypes.c_uint64,
    )
    return lib


@functools.cache
def library() -> ctypes.CDLL:
    """The loaded table library (built on first use if the installed one is missing or stale)."""
    installed = _installed_library()
    if installed is not None:
        fresh = not SOURCE.exists() or installed.stat().st_mtime >= SOURCE.stat().st_mtime
        try:
            lib = _bind(ctypes.CDLL(str(installed)))
        except (OSError, AttributeError):
            lib = None
        if lib is not None and fresh and lib.tables_abi() == TABLES_ABI:
            return lib
        if not SOURCE.exists():
            raise TablesUnavailableError("the installed table library is out of date; reinstall")
    try:
        lib = _bind(ctypes.CDLL(str(_build_library())))
    except OSError as exc:
        raise TablesUnavailableError(f"the table library does not load: {exc}") from exc
    if lib.tables_abi() != TABLES_ABI:
        raise TablesUnavailableError("the table library does not match engine/tables (ABI)")
    return lib


@functools.cache
def library_key() -> int:
    """A fingerprint of the loaded library: a build's checkpoint is taken up only by the
    library that wrote it (another one may solve differently)."""
    data = Path(library()._name).read_bytes()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "little")


def expand_classes(
    variant: Variant, stones: int, per_class: ctypes.Array[ctypes.c_int16]
) -> ctypes.Array[ctypes.c_int16]:
    """The value of every set of ``stones`` points in colex order, from one value per
    class of them under the board's symmetries, the classes in the order of their
    smallest sets. Raises ``ValueError`` when ``per_class`` is not one a class, and
    :class:`TablesUnavailableError` without the library."""
    lib = library()
    handle = lib.tables_new(ctypes.byref(geometry(variant)))
    if not handle:
        raise TablesUnavailableError("the table library could not start (out of memory?)")
    try:
        out = (ctypes.c_int16 * math.comb(variant.size, stones))()
        rc = lib.tables_expand_classes(handle, stones, per_class, len(per_class), out)
    finally:
        lib.tables_free(handle)
    if rc == -2:
        raise MemoryError("no memory for the classes of the board")
    if rc != 0:
        raise ValueError(f"{len(per_class)} values are not one for each class of {stones} points")
    return out


STOPPED = -5
"""What a build of the library returns when :func:`stoppable` stopped it."""


def stoppable(build: Callable[..., int], handle: int, *args: object) -> int:
    """Run ``build(handle, *args)`` (a build of the library on the context ``handle``) in
    a thread of its own while this thread waits, so that Ctrl-C and a signal turned into
    an exception reach this thread at once; then ask the build to stop
    (``tables_stop``), wait the moment it takes to end, writing no file part way, and
    raise the exception again. Returns what ``build`` returned."""
    lib = library()
    result: list[int] = []
    done = threading.Event()

    def run() -> None:
        try:
            result.append(int(build(handle, *args)))
        finally:
            done.set()

    # Not Thread.join: on Python 3.11 a Ctrl-C inside it can mark the thread ended while it
    # runs on, and the interpreter then ends under it.
    lib.tables_stop(handle, 0)
    threading.Thread(target=run, name="tables-build").start()
    try:
        while not done.wait(0.25):
            pass
    except BaseException:
        lib.tables_stop(handle, 1)
        _wait_through_interrupts(done)
        raise
    if not result:
        raise RuntimeError("the table library's build ended without an answer")
    return result[0]


def _wait_through_interrupts(done: threading.Event) -> None:
    """Wait for ``done`` (a moment: the build was asked to stop), past more Ctrl-C."""
    while not done.is_set():
        with contextlib.suppress(KeyboardInterrupt):
            done.wait(0.25)


def available() -> bool:
    """Whether the table library loads (or can be built) here."""
    try:
        library()
    except TablesUnavailableError:
        return False
    return True


# -- the board ---------------------------------------------------------------------


@functools.cache
def symmetries(variant: Variant) -> tuple[tuple[int, ...], ...]:
    """Every permutation of the points that keeps adjacency and the lines (identity first)."""
    n = variant.size
    adj = variant.adjacent
    lines = set(variant.lines)
    # Visit points in breadth-first order so each new point has a placed neighbour.
    order = [0]
    seen = 1
    for p in order:
        for q in iter_bits(adj[p]):
            if not seen >> q & 1:
                seen |= 1 << q
                order.append(q)
    found: list[tuple[int, ...]] = []
    image = [-1] * n

    def image_of(mask: int) -> int:
        out = 0
        for p in iter_bits(mask):
            out |= 1 << image[p]
        return out

    def extend(k: int, used: int) -> None:
        if k == n:
            if all(image_of(line) in lines for line in lines):
                found.append(tuple(image))
            return
        p = order[k]
        for q in range(n):
            if used >> q & 1 or adj[q].bit_count() != adj[p].bit_count():
                continue
            ok = True
            for r in order[:k]:
                if bool(adj[p] >> r & 1) != bool(adj[q] >> image[r] & 1):
                    ok = False
                    break
            if ok:
                image[p] = q
                extend(k + 1, used | 1 << q)
                image[p] = -1

    extend(0, 0)
    identity = tuple(range(n))
    found.sort(key=lambda s: s != identity)
    return tuple(found)


def geometry_key(variant: Variant) -> int:
    """A fingerprint of the board: a table file only fits the board it was built for."""
    text = repr((variant.id, variant.family, variant.size, variant.adjacent, variant.lines))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def geometry(variant: Variant) -> Geometry:
    """The C description of a board and its symmetries."""
    syms = symmetries(variant)
    if len(syms) > MAXSYM:
        raise ValueError(f"the {variant.id} board has {len(syms)} symmetries; at most {MAXSYM}")
    g = Geometry()
    g.n = variant.size
    g.family = 0 if variant.family == "shax" else 1
    g.nsym = len(syms)
    g.all = variant.all_points
    for i, mask in enumerate(variant.adjacent):
        g.adj[i] = mask
        through = variant.lines_through[i]
        g.nthrough[i] = len(through)
        for k, line in enumerate(through):
            g.through[i][k] = line
    for s, image in enumerate(syms):
        for p, q in enumerate(image):
            g.sym[s][p] = q
    g.key = geometry_key(variant)
    return g
