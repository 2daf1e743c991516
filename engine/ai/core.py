"""The compiled core, loaded with ctypes: the rules on bitboards and the alpha-beta search.

The C source is ``engine/ai/_core.c``. ``pip install`` builds it (``setup.py``) as
``engine/ai/_core.<abi>.so``, a plain shared library without Python bindings. When that
file is missing or older than the source (a checkout that was not reinstalled), it is
compiled on first use with the system C compiler into ``__pycache__``.
Where neither is possible (no C compiler), :func:`backend` is ``"python"`` and
:func:`search`, :func:`evaluate` and :func:`features` run :mod:`engine.ai.python_search`
instead; ``SHAX_AI_BACKEND=c|python`` forces one.

Everything here is per process and read-only once loaded, so it is safe in a pool. The
C side keeps one transposition table per thread (32 MB at hard, 64 MB at master), reused
and emptied for every search, so a search never sees another's entries.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.machinery
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from engine.ai import common, python_board, python_search
from engine.ai.common import (
    FAMILY_JAR,
    FAMILY_SHAX,
    MAXLINES,
    MAXMOVES,
    MAXP,
    MAXTHROUGH,
    NW,
    OUTCOME_DRAW,
    OUTCOME_WHITE,
    PHASE_CODE,
    STEP_CODE,
    TERMINATIONS,
    WEIGHT_NAMES,
    CoreSearch,
    decode_action,
    encode_action,
    node_position,
)
from engine.build_flags import (
    SHARED_LIBRARY_FLAGS,
    BuildError,
    compile_cached,
    optimisation_flags,
)
from engine.position import Action, Position
from engine.variants import Variant, get_variant

CORE_ABI = 17
"""Must equal ``CORE_ABI`` in ``_core.c``."""

SOURCE = Path(__file__).with_name("_core.c")

# Also read from here by callers (they were first written down in this module).
FSCALE = common.FSCALE
MATE = common.MATE
MATE_BOUND = common.MATE_BOUND
MOVEMENT_FEATURES = common.MOVEMENT_FEATURES
PLACEMENT_FEATURES = common.PLACEMENT_FEATURES


class CoreBoard(ctypes.Structure):
    _fields_ = (
        ("n", ctypes.c_int32),
        ("family", ctypes.c_int32),
        ("pieces", ctypes.c_int32),
        ("nlines", ctypes.c_int32),
        ("all", ctypes.c_uint32),
        ("adj", ctypes.c_uint32 * MAXP),
        ("lines", ctypes.c_uint32 * MAXLINES),
        ("nthrough", ctypes.c_int32 * MAXP),
        ("through", (ctypes.c_uint32 * MAXTHROUGH) * MAXP),
        ("line_index", (ctypes.c_int32 * MAXTHROUGH) * MAXP),
    )


class CoreNode(ctypes.Structure):
    _fields_ = (
        ("bb", ctypes.c_uint32 * 2),
        ("hand", ctypes.c_int8 * 2),
        ("turn", ctypes.c_int8),
        ("phase", ctypes.c_int8),
        ("step", ctypes.c_int8),
        ("first", ctypes.c_int8),
        ("outcome", ctypes.c_int8),
        ("term", ctypes.c_int8),
        ("clock", ctypes.c_int16),
        ("hstart", ctypes.c_int16),
        ("hend", ctypes.c_int16),
    )


class CoreParams(ctypes.Structure):
    _fields_ = (
        ("max_depth", ctypes.c_int32),
        ("time_ms", ctypes.c_int32),
        ("tt_log2", ctypes.c_int32),
        ("all_scores", ctypes.c_int32),
        ("min_depth", ctypes.c_int32),
        ("soft_ms", ctypes.c_int32),
        ("tt_min_depth", ctypes.c_int32),
        ("keep_tt", ctypes.c_int32),
        ("eager_ms", ctypes.c_int32),
        ("weights", ctypes.c_int32 * NW),
        ("full_board", ctypes.c_void_p),
        ("budget_ms", ctypes.c_int32),
    )


class CoreResult(ctypes.Structure):
    _fields_ = (
        ("nodes", ctypes.c_int64),
        ("action", ctypes.c_int32),
        ("score", ctypes.c_int32),
        ("depth", ctypes.c_int32),
        ("nroot", ctypes.c_int32),
        ("seldepth", ctypes.c_int32),
        ("stopped", ctypes.c_int32),
        ("root_actions", ctypes.c_int32 * MAXMOVES),
        ("root_scores", ctypes.c_int32 * MAXMOVES),
    )


class CoreUnavailableError(RuntimeError):
    """The compiled core is neither installed nor buildable here (no C compiler)."""


# -- loading -------------------------------------------------------------------


def compile_flags() -> list[str]:
    """The flags that build the core as a shared library on this machine."""
    return [*optimisation_flags(), *SHARED_LIBRARY_FLAGS]


def _installed_library() -> Path | None:
    here = SOURCE.parent
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = here / f"_core{suffix}"
        if path.exists():
            return path
    return None


def _build_library() -> Path:
    """Compile ``_core.c`` into a cache file named after its contents; returns its path."""
    if not SOURCE.exists():
        raise CoreUnavailableError("it was not built when the game was installed")
    try:
        return compile_cached(SOURCE, compile_flags(), "shax-ai")
    except BuildError as exc:
        raise CoreUnavailableError(str(exc)) from exc


def _bind(lib: ctypes.CDLL) -> ctypes.CDLL:
    node_p = ctypes.POINTER(CoreNode)
    board_p = ctypes.POINTER(CoreBoard)
    lib.core_abi.restype = ctypes.c_int
    lib.core_abi.argtypes = ()
    lib.core_legal.restype = ctypes.c_int
    lib.core_legal.argtypes = (board_p, node_p, ctypes.POINTER(ctypes.c_int32))
    lib.core_play.restype = None
    lib.core_play.argtypes = (
        board_p,
        node_p,
        ctypes.c_int32,
        node_p,
        ctypes.POINTER(ctypes.c_uint64),
    )
    lib.core_search.restype = ctypes.c_int
    lib.core_search.argtypes = (
        board_p,
        node_p,
        ctypes.POINTER(ctypes.c_uint64),
        ctypes.c_int32,
        ctypes.POINTER(CoreParams),
        ctypes.POINTER(CoreResult),
    )
    lib.core_keep_going.restype = ctypes.c_int
    lib.core_keep_going.argtypes = (
        ctypes.c_int,
        ctypes.c_int,
        *[ctypes.c_int64] * 6,
    )
    lib.core_iteration_limit.restype = ctypes.c_int64
    lib.core_iteration_limit.argtypes = (ctypes.c_int, *[ctypes.c_int64] * 3)
    lib.core_features.restype = ctypes.c_int
    lib.core_features.argtypes = (board_p, node_p, ctypes.POINTER(ctypes.c_int32))
    lib.core_evaluate.restype = ctypes.c_int
    lib.core_evaluate.argtypes = (board_p, node_p, ctypes.POINTER(CoreParams))
    return lib


def load_core(path: Path) -> ctypes.CDLL:
    """A core built elsewhere (another revision's, for a benchmark), bound like the
    process's own; :class:`CoreUnavailableError` unless its ``CORE_ABI`` is this one's."""
    try:
        lib = _bind(ctypes.CDLL(str(path)))
    except AttributeError as exc:
        raise CoreUnavailableError(f"{path} is not an AI core ({exc})") from exc
    if lib.core_abi() != CORE_ABI:
        raise CoreUnavailableError(f"{path} has core ABI {lib.core_abi()}, not {CORE_ABI}")
    return lib


@functools.cache
def library() -> ctypes.CDLL:
    """The loaded core (built on first use if the installed one is missing or stale)."""
    installed = _installed_library()
    if installed is not None:
        fresh = not SOURCE.exists() or installed.stat().st_mtime >= SOURCE.stat().st_mtime
        try:
            lib: ctypes.CDLL | None = _bind(ctypes.CDLL(str(installed)))
        except (OSError, AttributeError):  # an older core, without a function of today's
            lib = None
        if lib is not None and fresh and lib.core_abi() == CORE_ABI:
            return lib
        if not SOURCE.exists():
            raise CoreUnavailableError("the installed AI core is out of date; reinstall")
    built = _bind(ctypes.CDLL(str(_build_library())))
    if built.core_abi() != CORE_ABI:
        raise CoreUnavailableError("the AI core does not match engine/ai/core.py (CORE_ABI)")
    return built


# -- boards and positions --------------------------------------------------------


@functools.cache
def core_board(variant: str) -> CoreBoard:
    """The C description of a variant's board (cached per process, never mutated)."""
    v = get_variant(variant)
    b = CoreBoard()
    b.n = v.size
    b.family = FAMILY_SHAX if v.family == "shax" else FAMILY_JAR
    b.pieces = v.pieces
    b.nlines = len(v.lines)
    b.all = v.all_points
    for i, mask in enumerate(v.adjacent):
        b.adj[i] = mask
    for i, line in enumerate(v.lines):
        b.lines[i] = line
    for i, through in enumerate(v.lines_through):
        b.nthrough[i] = len(through)
        for k, line in enumerate(through):
            b.through[i][k] = line
            b.line_index[i][k] = v.lines.index(line)
    return b


def core_node(position: Position) -> tuple[CoreNode, list[int]]:
    """The C node of a position and its repetition history."""
    node = CoreNode()
    node.bb[0] = position.white
    node.bb[1] = position.black
    node.hand[0], node.hand[1] = position.hand
    node.turn = position.turn
    node.phase = PHASE_CODE[position.phase]
    node.step = STEP_CODE[position.step]
    node.first = position.first_jare_index
    node.clock = position.clock
    node.hstart = 0
    node.hend = len(position.history)
    outcome = position.outcome
    if outcome is not None:
        winner = outcome.winner
        node.outcome = OUTCOME_DRAW if winner is None else OUTCOME_WHITE + winner.value
        node.term = TERMINATIONS.index(outcome.termination)
    return node, list(position.history)


def legal_codes(position: Position) -> list[int]:
    """The legal actions of the compiled core, as codes, in its order."""
    node, _ = core_node(position)
    out = (ctypes.c_int32 * MAXMOVES)()
    n = library().core_legal(ctypes.byref(core_board(position.variant.id)), node, out)
    return list(out[:n])


def legal_actions(position: Position) -> list[Action]:
    """The compiled core's legal actions (to check against ``Position.legal_actions``)."""
    return [decode_action(c) for c in legal_codes(position)]


def play(position: Position, action: Action) -> Position:
    """The position after ``action`` according to the compiled core (for tests)."""
    v = position.variant
    node, history = core_node(position)
    keys = (ctypes.c_uint64 * (len(history) + 2))(*history)
    out = CoreNode()
    library().core_play(
        ctypes.byref(core_board(v.id)), node, encode_action(action), ctypes.byref(out), keys
    )
    return node_position(v, out, list(keys))


# -- search ----------------------------------------------------------------------


def make_params(
    weights: Mapping[str, int],
    *,
    max_depth: int,
    time_limit: float | None = None,
    soft_limit: float | None = None,
    all_scores: bool = False,
    tt_log2: int = 20,
    min_depth: int = 1,
    tt_min_depth: int = 1,
    keep_tt: bool = False,
    eager_limit: float | None = None,
    full_board: ctypes.Array[ctypes.c_int16] | None = None,
    budget: float | None = None,
) -> CoreParams:
    p = CoreParams()
    p.max_depth = max_depth
    p.time_ms = 0 if time_limit is None else max(1, int(time_limit * 1000))
    p.soft_ms = 0 if soft_limit is None else max(1, int(soft_limit * 1000))
    p.tt_log2 = tt_log2
    p.all_scores = int(all_scores)
    p.min_depth = min_depth
    p.tt_min_depth = tt_min_depth
    p.keep_tt = int(keep_tt)
    p.eager_ms = 0 if eager_limit is None else max(1, int(eager_limit * 1000))
    p.budget_ms = 0 if budget is None else max(1, int(budget * 1000))
    for i, name in enumerate(WEIGHT_NAMES):
        p.weights[i] = int(weights[name])
    # The caller keeps the values alive (engine.tables.fullboard caches them per process).
    p.full_board = None if full_board is None else ctypes.addressof(full_board)
    return p


def search(position: Position, params: CoreParams) -> CoreSearch:
    """Iterative-deepening search from ``position`` (not over), by the backend in use.
    The Python search does not read ``params.full_board``: the full-board values, like the
    endgame tables, need the compiled core."""
    if backend() == "python":
        return python_search.search(
            position,
            list(params.weights),
            max_depth=params.max_depth,
            time_ms=params.time_ms,
            soft_ms=params.soft_ms,
            tt_log2=params.tt_log2,
            all_scores=bool(params.all_scores),
            min_depth=params.min_depth,
            tt_min_depth=params.tt_min_depth,
            keep_tt=bool(params.keep_tt),
            eager_ms=params.eager_ms,
            budget_ms=params.budget_ms,
        )
    return c_search(position, params)


def c_search(position: Position, params: CoreParams, lib: ctypes.CDLL | None = None) -> CoreSearch:
    """Run the compiled iterative-deepening search from ``position`` (not over), in ``lib``
    (a core bound by :func:`load_core`, e.g. another revision's for a benchmark) or the
    process's own."""
    node, history = core_node(position)
    keys = (ctypes.c_uint64 * max(1, len(history)))(*history)
    res = CoreResult()
    status = (library() if lib is None else lib).core_search(
        ctypes.byref(core_board(position.variant.id)),
        ctypes.byref(node),
        keys,
        len(history),
        ctypes.byref(params),
        ctypes.byref(res),
    )
    if status != 0:
        raise RuntimeError("the AI core could not search this position")
    root = tuple(
        (decode_action(res.root_actions[i]), int(res.root_scores[i])) for i in range(res.nroot)
    )
    return CoreSearch(
        decode_action(res.action),
        int(res.score),
        int(res.depth),
        int(res.nodes),
        int(res.seldepth),
        bool(res.stopped),
        root,
    )


def evaluate(position: Position, weights: Mapping[str, int]) -> int:
    """The static evaluation of a position, from the point of view of the player to act."""
    if backend() == "python":
        return python_board.evaluate(position, [int(weights[name]) for name in WEIGHT_NAMES])
    node, _ = core_node(position)
    params = make_params(weights, max_depth=1)
    return int(
        library().core_evaluate(
            ctypes.byref(core_board(position.variant.id)), ctypes.byref(node), ctypes.byref(params)
        )
    )


def features(position: Position) -> list[int]:
    """The evaluation's features of a position, in the order of :data:`WEIGHT_NAMES`."""
    if backend() == "python":
        return python_board.features(position)
    node, _ = core_node(position)
    out = (ctypes.c_int32 * NW)()
    n = library().core_features(
        ctypes.byref(core_board(position.variant.id)), ctypes.byref(node), out
    )
    return list(out[:n])


def warm_up(variants: Sequence[str | Variant] = ("shax", "shax-small", "jar")) -> None:
    """Choose the backend, and load (or build) the core and its boards now, so the first
    move pays nothing."""
    if backend() == "python":
        for v in variants:
            python_board.board(get_variant(v))
        return
    for v in variants:
        core_board(get_variant(v).id)


# -- the backend: the compiled core, or the Python search without a C compiler ---------

BACKEND_ENV = "SHAX_AI_BACKEND"
"""``c`` or ``python`` forces a backend (for tests and benchmarks); unset, the compiled core
is used when it loads or builds, else the Python search."""

Backend = Literal["c", "python"]
BACKENDS: tuple[Backend, ...] = ("c", "python")

FAST_CORE_ADVICE = (
    "The AI is thinking with its pure-Python search, which is slower and so plays weaker "
    "in the same time, because its compiled core could not be built: {reason}. For the "
    "fast one, install a C compiler (gcc or clang; on Windows the Microsoft C++ Build "
    "Tools) and reinstall: python3 -m pip install -e ."
)

log = logging.getLogger("engine.ai")


@dataclass(frozen=True)
class BackendChoice:
    """The search in use, whether ``SHAX_AI_BACKEND`` asked for it, and why the compiled
    core is not used (empty when it is)."""

    name: Backend
    forced: bool
    reason: str = ""


def choose_backend(wanted: str | None) -> BackendChoice:
    """The backend for a value of ``SHAX_AI_BACKEND`` (``None`` or empty: the best here)."""
    wanted = (wanted or "").strip().lower()
    if wanted not in ("", *BACKENDS):
        raise ValueError(
            f"{BACKEND_ENV}={wanted!r} is not a backend; choose one of: "
            f"{', '.join(BACKENDS)} (or leave it unset for the fastest one available)"
        )
    if wanted == "python":
        return BackendChoice("python", forced=True, reason=f"{BACKEND_ENV}=python")
    try:
        library()
    except (CoreUnavailableError, OSError) as exc:
        if wanted == "c":
            raise CoreUnavailableError(f"{BACKEND_ENV}=c, but {exc}") from exc
        return BackendChoice("python", forced=False, reason=str(exc).splitlines()[0])
    return BackendChoice("c", forced=wanted == "c")


@functools.cache
def backend_choice() -> BackendChoice:
    """The backend of this process, chosen once from ``SHAX_AI_BACKEND`` and the machine."""
    return choose_backend(os.environ.get(BACKEND_ENV))


def backend() -> Backend:
    """``"c"`` (the compiled core) or ``"python"`` (the pure-Python search)."""
    return backend_choice().name


def fast_core_advice() -> str | None:
    """How to get the compiled core, when the Python search stands in for it because the
    core could not be built (``None`` when the core is in use or the Python one was asked
    for)."""
    choice = backend_choice()
    if choice.name == "c" or choice.forced:
        return None
    return FAST_CORE_ADVICE.format(reason=choice.reason)


@functools.cache
def announce_backend() -> str | None:
    """Log :func:`fast_core_advice`, once per process (a console without logging set up
    shows it on stderr), and return it. A ``SHAX_AI_BACKEND`` that cannot be honoured is
    logged as an error instead (the bot then plays on with random moves)."""
    try:
        advice = fast_core_advice()
    except (ValueError, CoreUnavailableError) as exc:
        log.error("%s", exc)
        return str(exc)
    if advice is not None:
        log.warning("%s", advice)
    return advice
