"""The tables' values follow the rules of engine.position, move by move."""

from __future__ import annotations

import random

import pytest

from engine.position import Kind, Position, Step
from engine.tables import Probe, Tables, table_action
from engine.tables.native import symmetries
from engine.variants import Color
from tests.engine.tables.positions import random_positions

COUNTS = {"jar": 600, "shax-small": 2000, "shax": 2000}


def value_after(tables: Tables, position: Position, child: Position) -> Probe:
    """What ``child`` is worth to the player who acted in ``position``, by the rules for
    the step itself and the tables after it."""
    me = position.turn
    if child.outcome is not None:
        if child.outcome.winner is None:
            return Probe("draw", 0)
        return Probe("win" if child.outcome.winner.value == me else "loss", 0)
    if child.step is Step.REMOVE:  # the mover's capture: the best removal for them
        values = [value_after(tables, child, child.play(r)) for r in child.legal_actions()]
        return max(values, key=Probe.rank)
    found = tables.probe(child)
    assert found is not None, child
    return found if child.turn == me else found.flipped()


@pytest.mark.parametrize("variant", list(COUNTS))
def test_each_value_is_the_best_of_the_legal_actions(
    small_tables: dict[str, Tables], variant: str
) -> None:
    tables = small_tables[variant]
    seen = set()
    for position in random_positions(variant, COUNTS[variant], seed=7):
        value = tables.probe(position)
        assert value is not None, position
        seen.add(value.result)
        after = [value_after(tables, position, position.play(a)) for a in position.legal_actions()]
        best = max(after, key=Probe.rank)
        assert best.result == value.result, position
        if value.result == "draw":
            assert value.moves == 0
        else:
            # A capture's removal rides with its move: one move, whatever it removes.
            assert best.moves == value.moves - 1, position
    assert seen == {"win", "draw", "loss"}


@pytest.mark.parametrize("variant", ["shax-small", "shax"])
def test_a_win_has_a_move_to_a_position_lost_for_the_opponent_one_move_shorter(
    small_tables: dict[str, Tables], variant: str
) -> None:
    tables = small_tables[variant]
    wins = 0
    for position in random_positions(variant, 800, seed=11):
        value = tables.probe(position)
        assert value is not None
        if value.result != "win":
            continue
        wins += 1
        answer = table_action(position, tables)
        assert answer is not None and answer.value == value
        after = position.play(answer.action)
        if after.step is Step.REMOVE:
            removal = table_action(after, tables)
            assert removal is not None
            after = after.play(removal.action)
        if value.moves == 1:
            assert after.outcome is not None and after.outcome.winner == Color(position.turn)
            continue
        found = tables.probe(after)
        assert found is not None
        mine = found if after.turn == position.turn else found.flipped()
        assert mine == Probe("win", value.moves - 1)
        if after.turn != position.turn:
            assert found == Probe("loss", value.moves - 1)
    assert wins > 200


def test_a_loss_lasts_as_long_as_its_distance_whatever_the_loser_plays(
    small_tables: dict[str, Tables],
) -> None:
    tables = small_tables["shax"]
    rng = random.Random(3)
    games = 0
    for position in random_positions("shax", 300, seed=5):
        value = tables.probe(position)
        assert value is not None
        if value.result != "loss" or games >= 40:
            continue
        games += 1
        loser = position.turn
        moves = 0
        while position.outcome is None:
            if position.turn == loser:
                action = rng.choice(position.legal_actions())
            else:
                answer = table_action(position, tables)
                assert answer is not None
                action = answer.action
            position = position.play(action)
            moves += action.kind is Kind.MOVE
        assert position.outcome is not None
        assert position.outcome.winner == Color(1 - loser)
        assert moves <= value.moves
    assert games == 40


@pytest.mark.parametrize("variant", ["shax-small", "shax", "jar"])
def test_symmetric_and_colour_swapped_positions_have_the_same_value(
    small_tables: dict[str, Tables], variant: str
) -> None:
    tables = small_tables[variant]
    for position in random_positions(variant, 150, seed=13):
        v = position.variant
        value = tables.probe(position)
        for image in symmetries(v):
            white = sum(1 << image[p] for p in range(v.size) if position.white >> p & 1)
            black = sum(1 << image[p] for p in range(v.size) if position.black >> p & 1)
            assert tables.probe_board(white, black, position.turn, position.step) == value
            assert tables.probe_board(black, white, 1 - position.turn, position.step) == value


def test_positions_outside_the_tables_have_no_value(small_tables: dict[str, Tables]) -> None:
    tables = small_tables["shax"]
    assert tables.probe(Position.initial("shax")) is None
    five = Position.setup("shax", "a7 d7 g7 b6 d6", "a1 d1 g1 b2", "white")
    assert tables.probe(five) is None
    capture = Position.setup("shax", "a7 d7 b6", "a1 d1 g1", "white", removal_due=True)
    assert tables.probe(capture) is None
    assert table_action(five, tables) is None


def test_probe_in_time_counts_the_moves_left_before_the_100_move_rule() -> None:
    assert Probe("win", 30).in_time(70)
    assert not Probe("win", 30).in_time(71)
    assert not Probe("loss", 5).in_time(96)
    assert Probe("draw", 0).in_time(100)
    assert Probe("win", 7).score == 29993 and Probe("loss", 7).score == -29993
