"""Time where it pays: past its budget a move searches on only while the last iteration
changed the best move, up to the level's ``extend`` times the budget."""

from __future__ import annotations

import itertools

from engine.ai import LONGEST_MOVETIME, core, python_search
from engine.ai.levels import LEVEL_TABLE, weights_for
from engine.ai.python_search import iteration_limit
from engine.position import Position

MS = 1_000_000


def test_the_iteration_limit_is_the_same_in_c_and_python() -> None:
    lib = core.library()
    for stable, elapsed, budget, hard in itertools.product(
        (0, 1, 2, 5), (0, 200 * MS, 300 * MS, 450 * MS), (0, 300 * MS, 600 * MS), (600 * MS,)
    ):
        args = (stable, elapsed, budget, hard)
        assert lib.core_iteration_limit(*args) == python_search.iteration_limit(*args), args


def test_a_move_not_settled_searches_past_its_budget_and_a_held_one_stops_there() -> None:
    budget, hard = 300 * MS, 600 * MS
    assert iteration_limit(0, 350 * MS, budget, hard) == hard  # the best move just changed
    assert iteration_limit(1, 100 * MS, budget, hard) == budget  # held: up to the budget
    assert iteration_limit(1, 310 * MS, budget, hard) == -1  # held, budget spent: stop
    assert iteration_limit(4, 310 * MS, budget, hard) == -1


def test_without_a_budget_below_the_limit_the_limit_is_all() -> None:
    assert iteration_limit(3, 100 * MS, 0, 600 * MS) == 600 * MS
    assert iteration_limit(3, 100 * MS, 600 * MS, 600 * MS) == 600 * MS


def test_master_may_think_twice_its_budget_on_a_move_in_doubt_and_the_others_never() -> None:
    assert LONGEST_MOVETIME["master"] == 2 * LEVEL_TABLE["master"].movetime
    for name in ("easy", "medium", "hard"):
        assert LONGEST_MOVETIME[name] == LEVEL_TABLE[name].movetime


def test_a_search_with_a_budget_plays_a_legal_move_in_c_and_in_python() -> None:
    position = Position.initial("shax")
    params = core.make_params(
        weights_for("shax"), max_depth=99, time_limit=0.2, budget=0.1, eager_limit=0.1
    )
    found = core.c_search(position, params)
    assert found.depth >= 1 and found.action in position.legal_actions()
    weights = list(params.weights)
    slow = python_search.search(position, weights, max_depth=99, time_ms=200, budget_ms=100)
    assert slow.depth >= 1 and slow.action in position.legal_actions()
