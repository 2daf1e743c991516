"""The tactics suite: positions with one right answer, searched at a fixed depth.

Each position was built by hand or taken from a self-play game and checked: the answer
is the best action by a wide margin at this depth and at depth 13.
"""

from __future__ import annotations

import pytest

from engine.ai import choose_action
from engine.position import Position
from engine.record import replay
from engine.variants import Color
from tests.engine.ai.positions import movement, placement

W, B = Color.WHITE, Color.BLACK
DEPTH = 8


def best(position: Position, depth: int = DEPTH) -> tuple[str, int]:
    """The master level's action and score at a fixed depth, from a position."""
    from engine.ai.levels import LEVEL_TABLE
    from engine.ai.player import choose_for_position

    result = choose_for_position(position, LEVEL_TABLE["master"], depth=depth)
    return result.action, result.score


def best_after(variant: str, record: str, depth: int = DEPTH) -> str:
    return choose_action(variant, record, "master", depth=depth).action


# -- jare: take it, stop it ------------------------------------------------------


def test_takes_the_jare() -> None:
    # White closes a7-d7-g7 by stepping up from g4.
    position = movement("shax", "a7 d7 g4 c3 e3 b4", "b6 d6 c5 e5 b2 f2 g1", W)
    assert best(position)[0] == "g4-g7"


def test_removes_after_the_jare_then_moves_on() -> None:
    position = movement("shax", "a7 d7 g4 c3 e3 b4", "b6 d6 c5 e5 b2 f2 g1", W).apply("g4-g7")
    action, _ = best(position)
    assert action.startswith("x")


def test_stops_the_opponents_jare() -> None:
    # White threatens c4-b4, closing b2-b4-b6: black steps into b4 first.
    record = (
        "d3 f4 f2 e3 e5 g4 e4 d2 c5 d5 c4 c3 b4 a4 b6 b2 d6 f6 d1 a1 g1 d7 a7 g7 xf2 xd2 "
        "b2-d2 b4-b2"
    )
    assert best_after("shax", record) == "a4-b4"


def test_stops_a_running_jare() -> None:
    # White's f6 shuttles between b6-d6-f6 and e4-f4-g4; black fills f4 first.
    record = (
        "g1 d1 d6 c4 b6 f4 d3 f2 f6 b4 a4 d2 g4 a7 d5 d7 g7 b2 e4 c3 e3 c5 e5 a1 xf4 xa4 "
        "f6-f4 xb4 a1-a4 f4-f6 xa4"
    )
    assert best_after("shax", record) == "f2-f4"


def test_removes_the_stone_that_breaks_a_running_jare() -> None:
    # White's c4 runs between b4-c4-d4 and a5-c5-e5: black removes e5.
    record = (
        "c4 c2 a5 d2 d4 b4 b2 c1 c5 e5 b3 e1 a3 a1 d3 e3 xb2 xb4 c2-b2 b3-b4 xb2 c1-c2 "
        "b4-b3 c2-c1 xd3 b3-b4 xe5 c1-c2 c5-e5 c2-c1"
    )
    position = replay("shax-small", record)
    assert position.step.value == "remove"
    assert best(position)[0] == "xe5"


def test_capture_takes_the_stone_that_matters() -> None:
    record = (
        "a5 d2 c5 b3 e1 d3 e5 e3 d4 c4 a1 b4 c2 a3 c1 b2 xc4 xc5 a5-c5 b4-c4 c5-a5 b3-b4 "
        "e5-c5 a3-b3"
    )
    assert best_after("shax-small", record) == "xd4"


# -- blockade: free with the least harm, win with it -----------------------------


def test_frees_the_blocked_player_with_the_least_harmful_move() -> None:
    # Black is blocked; white must free it. d6-d5 would let d7-d6 close b6-d6-f6.
    position = movement(
        "shax",
        "d6 c5 e5 a7 g7 b4 f4 c3 e3 b2 f2 a1",
        "b6 f6 d7 c4 e4 a4 g4 d3 d2 d1 g1",
        B,
    )
    assert position.step.value == "free" and position.turn == W.value
    assert set(position.legal_notations()) == {"c5-d5", "d6-d5", "e5-d5"}
    assert best(position)[0] in {"c5-d5", "e5-d5"}


def test_frees_with_the_move_that_keeps_the_initiative() -> None:
    record = "e1 e3 a3 e5 b3 a1 d3 c5 b4 a5 b2 c1 c2 d2 d4 c4 xe1 xc4 c5-c4"
    position = replay("shax-small", record)
    assert position.step.value == "free"
    assert best(position)[0] == "c1-e1"


@pytest.mark.parametrize(
    ("record", "answer"),
    [
        (
            "c4 d3 b2 a1 a5 e1 c1 d2 d4 b4 b3 c2 e5 c5 e3 a3 xc1 xe1 a1-c1 e3-e1 c1-a1 e1-c1 "
            "d3-e3 d4-d3 e3-e1 e5-e3 c5-e5 a5-c5 a3-a5 b3-a3 b4-b3",
            "c4-b4",
        ),
        ("e1 e3 a3 e5 b3 a1 d3 c5 b4 a5 b2 c1 c2 d2 d4 c4 xe1 xc4", "c5-c4"),
    ],
)
def test_wins_with_a_blockade(record: str, answer: str) -> None:
    position = replay("shax-small", record)
    blocked = position.play(position.parse(answer))
    assert blocked.step.value == "free" and blocked.turn == position.turn  # the hārig
    action, score = best(position)
    assert action == answer
    assert score > 100


# -- placement --------------------------------------------------------------------


def test_places_the_first_jare() -> None:
    position = placement("shax", "a7 d7 b4 f4", "a1 c5 c3 e3")
    assert best(position)[0] == "g7"


def test_jar_places_the_last_stone_for_the_movement_the_first_line_opens() -> None:
    # White's a1 a2 a3 won nothing but moves first; only black's c2 wins the movement.
    position = placement("jar", "a1 a2 a3", "b1 c3", first_jare=W)
    action, score = best(position)
    assert action == "c2" and score > 29_000
    for other in ("b2", "b3", "c1"):
        assert best(position.apply(other))[1] > 29_000  # white, to move, wins


def test_jar_forms_a_line_by_a_move_to_win() -> None:
    action, score = best(movement("jar", "a1 c1 b2", "a2 b3 c3", W))
    assert action == "b2-b1" and score > 29_000


def test_jar_steps_into_the_point_where_the_opponent_would_form_a_line() -> None:
    # Black's c3-b3 would complete b1 b2 b3: only white's a3-b3 stops it.
    position = movement("jar", "a1 a3 c2", "b1 b2 c3", W)
    assert best(position) == ("a3-b3", 0)
    for other in ("a1-a2", "a3-a2", "c2-c1"):
        assert best(position.apply(other))[1] > 29_000


# -- repetition and the 100-move rule ------------------------------------------

WHITE_STONES, BLACK_STONES = "a7 d7 g7 b2 f4", "a4 b4 b6"  # white wins by force


def test_losing_side_takes_the_threefold_repetition() -> None:
    position = movement("shax", WHITE_STONES, "a4 b4 d6", W)  # after b6-d6
    for action in ["f4-f2", "d6-b6", "f2-f4", "b6-d6", "f4-f2", "d6-b6", "f2-f4"]:
        position = position.apply(action)
    assert position.play(position.parse("b6-d6")).outcome is not None  # the third time
    assert best(position) == ("b6-d6", 0)


def test_winning_side_avoids_the_threefold_repetition() -> None:
    position = movement("shax", WHITE_STONES, BLACK_STONES, B)
    for action in ["b6-d6", "f4-f2", "d6-b6", "f2-f4", "b6-d6", "f4-f2", "d6-b6"]:
        position = position.apply(action)
    assert position.play(position.parse("f2-f4")).outcome is not None
    action, score = best(position)
    assert action != "f2-f4" and score > 29_000


def test_losing_side_sees_the_hundred_move_draw() -> None:
    fresh = movement("shax", WHITE_STONES, BLACK_STONES, B)
    assert best(fresh)[1] < -29_000
    at_limit = movement("shax", WHITE_STONES, BLACK_STONES, B, clock=99)
    assert best(at_limit)[1] == 0
