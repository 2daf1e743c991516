"""The tables against the compiled search: its proofs agree, and it probes them."""

from __future__ import annotations

import pytest

from engine.ai import core
from engine.ai.levels import weights_for
from engine.position import MOVE_LIMIT, Position, Step
from engine.tables import Tables, probe_hits, probing
from engine.tables.verify import check_against_search
from engine.variants import Color
from tests.engine.tables.positions import random_positions

DEPTH = {"shax-small": 7, "shax": 7}
COUNT = {"shax-small": 1500, "shax": 1500}


@pytest.mark.parametrize("variant", list(DEPTH))
def test_every_result_a_deep_search_proves_is_the_tables_result(
    small_tables: dict[str, Tables], variant: str
) -> None:
    positions = random_positions(variant, COUNT[variant], seed=17)
    found = check_against_search(small_tables[variant], positions, DEPTH[variant])
    assert found.disagreements == []
    assert found.wins >= 300 and found.losses >= 100, found


def test_the_search_treats_table_positions_as_exact_leaves(
    small_tables: dict[str, Tables],
) -> None:
    tables = small_tables["shax"]
    params = core.make_params(weights_for("shax"), max_depth=4, tt_log2=16)
    for position in random_positions("shax", 200, seed=19):
        value = tables.probe(position)
        assert value is not None
        with probing(tables) as on:
            assert on
            found = core.search(position, params)
            assert probe_hits() > 0
        if value.result == "draw":
            assert found.score == 0, position
        else:
            assert (found.score > core.MATE_BOUND) == (value.result == "win"), position
            assert abs(found.score) > core.MATE_BOUND, position


def test_a_capture_into_the_tables_is_scored_exactly(small_tables: dict[str, Tables]) -> None:
    # Four against five: outside the tables, but a4-b4 closes b2 b4 b6 and the removal
    # of c3 leaves four against four, lost for black in 8 moves.
    tables = small_tables["shax"]
    position = Position.setup("shax", "b2 b6 a4 g7", "d1 g1 c3 f2 e5", "white")
    params = core.make_params(weights_for("shax"), max_depth=3, tt_log2=16)
    with probing(tables):
        found = core.search(position, params)
        hits = probe_hits()
    assert hits > 0
    assert found.score > core.MATE_BOUND
    plain = core.search(position, params)
    assert plain.score < core.MATE_BOUND


def test_without_tables_nothing_is_probed() -> None:
    with probing(None) as on:
        assert not on


def test_a_table_result_that_the_100_move_rule_would_cut_off_is_not_exact(
    small_tables: dict[str, Tables],
) -> None:
    tables = small_tables["shax"]
    params = core.make_params(weights_for("shax"), max_depth=1, tt_log2=14)
    checked = 0
    for position in random_positions("shax", 400, seed=37):
        value = tables.probe(position)
        assert value is not None
        captures = any(position.jare_formed(a) for a in position.legal_actions())
        # A win, so that no capture inside the one-ply search resets the clock for us.
        if value.result != "win" or value.moves < 4 or captures or position.step is Step.FREE:
            continue
        checked += 1
        with probing(tables):
            assert core.search(position, params).score == value.score
            # Each reply is decided in moves - 1 more: one clock tick too many.
            late = Position.setup(
                "shax",
                position.variant.names(position.white),
                position.variant.names(position.black),
                Color(position.turn),
                clock=MOVE_LIMIT + 1 - value.moves,
            )
            found = core.search(late, params)
        assert abs(found.score) < core.MATE_BOUND, position
    assert checked >= 30
