"""choose_action: the AI's answer for a record, at a level, within a time budget."""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai import core
from engine.ai.levels import LEVEL_TABLE, Level, weights_for
from engine.errors import GameOverError
from engine.position import Action, Position, Step
from engine.record import replay
from engine.tables import (
    Tables,
    TablesUnavailableError,
    open_tables,
    probe_hits,
    probing,
    table_action,
)
from engine.tables.shipping import full_board_values
from engine.tables.solved import solved_action
from engine.variants import Variant, get_variant
from engine.verdicts import Refusal

LEVELS: tuple[str, ...] = tuple(LEVEL_TABLE)
DEFAULT_MOVETIME: dict[str, float] = {name: lv.movetime for name, lv in LEVEL_TABLE.items()}
LONGEST_MOVETIME: dict[str, float] = {
    name: lv.movetime * lv.extend for name, lv in LEVEL_TABLE.items()
}
"""The most a level thinks on one move at its default budget (a move not settled)."""

SAFETY = 0.015
"""Seconds kept back from the budget for returning the answer."""


@dataclass(frozen=True)
class SearchResult:
    """The AI's answer.

    ``score`` is in centi-stones (100 = one stone) from the point of view of the player
    to act; a forced win in n plies scores ``30000 - n`` (a loss, its negative).
    ``depth`` is the last completed search depth (a capture's removal rides with its
    move), ``nodes`` the positions searched, ``elapsed`` the seconds the call took.
    ``source`` is ``"table"`` when the answer was read from the endgame tables or, on
    the small boards, the solved placement (the score is then exact: ``30000 - n`` for
    a win in n moves), ``"search"`` otherwise;
    ``table_hits`` counts the positions inside the search that the tables answered.
    """

    action: str
    score: int
    depth: int
    nodes: int
    elapsed: float
    source: str = "search"
    table_hits: int = 0


def check_level(level: str) -> Level:
    """The level's settings, or a ``ValueError`` listing the levels."""
    try:
        return LEVEL_TABLE[level]
    except (KeyError, TypeError):
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(LEVELS)}") from None


def softmax_pick(
    scored: Sequence[tuple[Action, int]], temperature: float, rng: random.Random
) -> int:
    """Index of an action drawn with probability ∝ exp(score / temperature)."""
    top = max(s for _, s in scored)
    weights = [math.exp(max(-50.0, (s - top) / temperature)) for _, s in scored]
    return rng.choices(range(len(scored)), weights=weights)[0]


def choose_action(
    variant: str,
    record: str | Sequence[str],
    level: str = "hard",
    movetime: float | None = None,
    seed: int | None = None,
    depth: int | None = None,
) -> SearchResult:
    """The AI's action after ``record`` at ``level``.

    ``movetime`` (seconds, default :data:`DEFAULT_MOVETIME`) is the call's budget: a
    level with ``extend`` spends up to that multiple of it on a move not settled, and
    less on one that is (:data:`LONGEST_MOVETIME` at the default budgets);
    ``depth`` fixes the search depth instead (no time cut-off then, so the answer is a
    function of the arguments alone); ``seed`` drives the noise of easy and medium.
    Raises :class:`engine.errors.RecordError` for a bad record, ``ValueError`` for an
    unknown level and :class:`engine.errors.GameOverError` when the game is over.
    """
    start = time.perf_counter()
    lv = check_level(level)
    position = replay(get_variant(variant), record)
    return choose_for_position(position, lv, movetime, seed, depth, start)


def warm_up(variants: Sequence[str | Variant] = ("shax", "shax-small", "jar")) -> None:
    """Choose the backend, load (or build) the search core and its boards, and read the
    full-board values its search ends the placement on (:func:`full_board_values`: the
    shipped ones take a few tenths of a second to expand), so the first move pays nothing."""
    core.warm_up(variants)
    if core.backend() != "python":
        for v in variants:
            full_board_values(v)


def choose_for_position(
    position: Position,
    lv: Level,
    movetime: float | None = None,
    seed: int | None = None,
    depth: int | None = None,
    start: float | None = None,
) -> SearchResult:
    """:func:`choose_action` on a position already replayed."""
    if start is None:
        start = time.perf_counter()
    if position.outcome is not None:
        raise GameOverError("bestmove", Refusal.GAME_OVER, [], params={"outcome": position.outcome})
    if depth is not None and depth < 1:
        raise ValueError("depth must be at least 1")
    budget = lv.movetime if movetime is None else float(movetime)
    tables = endgame_tables(position) if lv.tables else None
    if tables is not None:
        answer = table_action(position, tables) or solved_action(position)
        if answer is not None:
            return SearchResult(
                answer.action.notation(position.variant),
                answer.value.score,
                0,
                answer.probes,
                time.perf_counter() - start,
                source="table",
            )
    warm_up((position.variant.id,))  # a first call's loading counts against the budget
    if depth is None:
        left = budget - (time.perf_counter() - start) - SAFETY
        time_limit: float | None = max(0.001, left * lv.extend)
        soft: float | None = max(0.001, left * lv.soft_fraction)
        eager: float | None = left * lv.eager_fraction or None
        nominal: float | None = max(0.001, left) if lv.extend > 1 else None
        max_depth = lv.max_depth
    else:
        time_limit = soft = eager = nominal = None
        max_depth = depth
    params = core.make_params(
        weights_for(position.variant.id),
        max_depth=max_depth,
        time_limit=time_limit,
        soft_limit=soft,
        eager_limit=eager,
        all_scores=lv.noisy,
        tt_log2=lv.tt_log2,
        keep_tt=lv.keep_tt and depth is None,
        full_board=full_board_values(position.variant) if lv.tables else None,
        budget=nominal,
    )
    with probing(tables) as probed:
        found = core.search(position, params)
        hits = probe_hits() if probed else 0
    action, score = found.action, found.score
    if lv.noisy and len(found.root) > 1:
        rng = random.Random(seed if seed is not None else int.from_bytes(os.urandom(8)))
        captures = position.step is not Step.FREE  # a freeing move never captures
        seen = [
            (a, s + (lv.jare_salience if captures and position.jare_formed(a) else 0))
            for a, s in found.root
        ]
        pick = softmax_pick(seen, lv.temperature, rng)
        action, score = found.root[pick]
    return SearchResult(
        action.notation(position.variant),
        score,
        found.depth,
        found.nodes,
        time.perf_counter() - start,
        table_hits=hits,
    )


def endgame_tables(position: Position) -> Tables | None:
    """The endgame tables for this board, if any are built (see :mod:`engine.tables`)."""
    try:
        return open_tables(position.variant)
    except (OSError, TablesUnavailableError):
        return None
