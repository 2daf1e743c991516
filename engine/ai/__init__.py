"""The Shax AI: levels from friendly to the strongest player the time budget allows.

:func:`choose_action` is a pure function of (variant, record, level, time budget, seed,
depth) to an action, safe to call in a process pool (``spawn`` or ``fork``): it keeps no
state between calls. The search runs in a compiled core (``_core.c``, loaded by
:mod:`engine.ai.core`); the readable engine in :mod:`engine.position` is the reference
it is tested against (``tests/engine/ai/test_core.py``).

Where the core cannot be built (no C compiler), the same search runs in pure Python
(:mod:`engine.ai.python_search`): the same answers at a fixed depth, tens of times
slower, so shallower in a level's time. :func:`backend` says which one is in use
(``SHAX_AI_BACKEND=c|python`` forces one), :func:`announce_backend` logs once how to get
the fast one when the Python search stands in for it.

Levels (see :data:`engine.ai.levels.LEVEL_TABLE`):

- ``easy``: two plies, then a softmax over every action's score (temperature 45
  centi-stones), with a jare at hand looking a stone better than it is: it takes an
  obvious jare about four times in five and otherwise plays like a beginner.
- ``medium``: four plies, a little noise (temperature 12).
- ``hard``: nine plies, no noise; within 1.8 s (it usually needs a tenth of that).
- ``master``: iterative deepening until the 4.5 s budget runs out; where the endgame
  tables are built (:mod:`engine.tables`) it plays endings by them, perfectly, and its
  search takes their values as exact; where the full-board values are built
  (:mod:`engine.tables.fullboard`) its search ends the placement on them, a deep
  search's value of every board the placement can end on.

Scores are in centi-stones (100 = one stone) from the point of view of the player to
act; a forced win in n plies scores ``30000 - n``, a forced loss ``-(30000 - n)``.

A process that will answer moves can call :func:`warm_up` once at start-up (for
example as a ``ProcessPoolExecutor`` initializer): it loads the core and, in a checkout
where ``pip install`` has not built it, compiles it (a second or two, once), and reads
the full-board values.
"""

from __future__ import annotations

from engine.ai.core import (
    BACKEND_ENV,
    BACKENDS,
    Backend,
    announce_backend,
    backend,
    fast_core_advice,
)
from engine.ai.player import (
    DEFAULT_MOVETIME,
    LEVELS,
    LONGEST_MOVETIME,
    SearchResult,
    check_level,
    choose_action,
    warm_up,
)

__all__ = [
    "BACKENDS",
    "BACKEND_ENV",
    "DEFAULT_MOVETIME",
    "LEVELS",
    "LONGEST_MOVETIME",
    "Backend",
    "SearchResult",
    "announce_backend",
    "backend",
    "check_level",
    "choose_action",
    "fast_core_advice",
    "warm_up",
]
