"""One test per rule of RULES.md, on hand-built positions."""

from __future__ import annotations

import pytest

from engine import (
    Color,
    GameOverError,
    IllegalActionError,
    Outcome,
    Phase,
    Position,
    Step,
    Termination,
    replay,
)

W, B = Color.WHITE, Color.BLACK

# shax-small, 16 placements, alternating colours around both squares: no jare at all.
SMALL_NO_JARE = "a1 a3 a5 c5 e5 e3 e1 c1 b2 b3 b4 c4 d4 d3 d2 c2"
# shax-small: white completes a1 a3 a5 at the 5th placement, before any black jare.
SMALL_WHITE_FIRST = "a1 b2 a3 d4 a5 b4 e1 c4 e3 c5 c1 b3 d3 e5 d2 c2"
# shax-small: black completes a1 a3 a5 at the 6th placement; white's jare comes later.
SMALL_BLACK_FIRST = "b2 a1 d4 a3 c5 a5 b4 e1 c4 e3 e5 c1 b3 d3 d2 c2"


def play(position: Position, *actions: str) -> Position:
    for action in actions:
        position = position.apply(action)
    return position


# -- players and placement ---------------------------------------------------


def test_white_places_first_and_players_alternate() -> None:
    p = Position.initial("shax")
    assert p.to_move is W and p.step is Step.PLACE
    p = p.apply("d7")
    assert p.to_move is B
    p = p.apply("a7")
    assert p.to_move is W
    assert p.at("d7") is W and p.at("a7") is B


@pytest.mark.parametrize(("variant", "points"), [("shax", 24), ("shax-small", 16)])
def test_placement_fills_the_whole_board(variant: str, points: int) -> None:
    p = Position.initial(variant)
    placed = 0
    while p.phase is Phase.PLACEMENT:
        p = p.apply(p.legal_notations()[0])
        placed += 1
    assert placed == points
    assert p.empty == 0
    assert p.in_hand(W) == p.in_hand(B) == 0


def test_forming_a_jare_while_placing_captures_nothing() -> None:
    p = play(Position.initial("shax"), "a7", "b6", "d7", "d6", "g7")
    assert p.first_jare is W
    assert p.step is Step.PLACE and p.to_move is B
    assert p.count(B) == 2 and p.count(W) == 3


def test_only_the_first_jare_is_remembered() -> None:
    p = replay("shax-small", SMALL_BLACK_FIRST)
    assert p.first_jare is B  # white's later jare b4 c4 d4 changes nothing


# -- opening removals ---------------------------------------------------------


def test_first_jare_player_removes_first_then_the_other() -> None:
    p = replay("shax-small", SMALL_WHITE_FIRST)
    assert p.phase is Phase.REMOVAL and p.step is Step.REMOVE and p.to_move is W
    assert p.legal_notations() == sorted(
        "x" + s for s in ["b2", "d4", "b4", "c4", "c5", "b3", "e5", "c2"]
    )
    p = p.apply("xb2")
    assert p.phase is Phase.REMOVAL and p.to_move is B
    p = p.apply("xa1")
    assert p.phase is Phase.MOVEMENT
    assert p.count(W) == p.count(B) == 7


def test_black_removes_first_when_nobody_formed_a_jare() -> None:
    p = replay("shax-small", SMALL_NO_JARE)
    assert p.first_jare is None
    assert p.step is Step.REMOVE and p.to_move is B


def test_opening_removal_may_take_a_stone_from_a_jare() -> None:
    p = replay("shax-small", SMALL_WHITE_FIRST)
    p = p.apply("xb3")  # b3 stands in black's jare b2 b3 b4
    assert p.at("b3") is None


def test_player_who_removed_first_moves_first() -> None:
    p = play(replay("shax-small", SMALL_BLACK_FIRST), "xb2", "xa3")
    assert p.phase is Phase.MOVEMENT and p.step is Step.MOVE
    assert p.to_move is B  # black formed the first jare and removed first
    p = play(replay("shax-small", SMALL_NO_JARE), "xa1", "xa3")
    assert p.to_move is B  # nobody formed a jare: black removed first, so black moves first


# -- movement -----------------------------------------------------------------


def test_a_move_goes_along_a_line_to_an_adjacent_empty_point() -> None:
    p = Position.setup("shax", white="a7 b2 c3", black="g1 f2 e3")
    assert sorted(n for n in p.legal_notations() if n.startswith("a7")) == ["a7-a4", "a7-d7"]
    with pytest.raises(IllegalActionError, match="not adjacent"):
        p.apply("a7-g7")


def test_shax_small_joins_connect_the_squares() -> None:
    p = Position.setup("shax-small", white="a3 e5 e1", black="d2 d4 c2")
    assert "a3-b3" in p.legal_notations()
    p = p.apply("a3-b3")
    assert p.step is Step.MOVE  # a3 b3 is a join, not a line: nothing formed


def test_no_flying_even_with_three_stones() -> None:
    p = Position.setup("shax", white="a7 d1 g4", black="b6 d6 f2")
    destinations = {n.split("-")[1] for n in p.legal_notations()}
    assert destinations == {"d7", "a4", "a1", "g1", "d2", "g7", "f4"}


# -- captures -----------------------------------------------------------------


def test_a_move_that_forms_a_jare_removes_one_stone_from_anywhere() -> None:
    p = Position.setup("shax", white="a7 g7 d6 b2", black="a1 d1 g1 f2 c3")
    p = p.apply("d6-d7")
    assert p.step is Step.REMOVE and p.to_move is W
    assert p.legal_notations() == ["xa1", "xc3", "xd1", "xf2", "xg1"]


def test_stones_in_a_jare_are_not_protected() -> None:
    p = Position.setup("shax", white="a7 g7 d6 b2", black="a1 d1 g1 f2 c3")
    p = p.apply("d6-d7").apply("xd1")  # d1 stands in black's jare a1 d1 g1
    assert p.at("d1") is None and p.to_move is B


def test_the_capture_is_its_own_action_by_the_same_player() -> None:
    p = Position.setup("shax", white="a7 g7 d6 b2", black="a1 d1 g1 f2 c3")
    p = p.apply("d6-d7")
    with pytest.raises(IllegalActionError, match="must first remove"):
        p.apply("b2-b4")
    p = p.apply("xc3")
    assert p.to_move is B and p.step is Step.MOVE


def test_a_jare_reformed_by_moving_out_and_back_captures_again() -> None:
    p = Position.setup("shax", white="a7 g7 d6 b2", black="a1 d1 g1 f2 c3 e4")
    p = play(p, "d6-d7", "xc3", "e4-e5", "d7-d6", "e5-e4", "d6-d7")
    assert p.step is Step.REMOVE and p.to_move is W


def test_a_player_reduced_to_two_stones_loses() -> None:
    p = Position.setup("shax", white="a7 g7 d6 b2", black="a1 g1 f2")
    p = p.apply("d6-d7").apply("xa1")
    assert p.outcome is not None
    assert p.outcome.winner is W and p.outcome.termination is Termination.TWO_PIECES
    assert p.to_move is None and p.legal_actions() == []
    with pytest.raises(GameOverError):
        p.apply("d7-d6")


# -- blockade -----------------------------------------------------------------

# Black's a7, g7 and a1 are walled in by white's d7, a4, g4 and d1.
BLOCKED_BLACK = {"black": "a7 g7 a1", "white": "d7 a4 g4 d1 c3"}


def test_a_blocked_player_is_freed_by_the_opponent() -> None:
    p = Position.setup("shax", **BLOCKED_BLACK, to_move=B)
    assert p.step is Step.FREE and p.to_move is W and p.blocked is B
    # Only moves that open a way for black; c3's moves would leave black walled in.
    assert p.legal_notations() == ["a4-b4", "d1-d2", "d1-g1", "d7-d6", "g4-f4", "g4-g1"]
    with pytest.raises(IllegalActionError, match="jid i sii aan jar aheyn"):
        p.apply("c3-d3")
    p = p.apply("d7-d6")
    assert p.to_move is B and p.step is Step.MOVE
    assert sorted(p.legal_notations()) == ["a7-d7", "g7-d7"]


def test_a_last_placement_that_walls_in_the_first_mover_is_followed_by_a_freeing_move() -> None:
    # Jar: white's line a1 a2 a3 came first, so white moves first, but black's last
    # stone (b3) completes the wall b1 b2 b3: black must open a way.
    p = replay("jar", ["a1", "b1", "a2", "b2", "a3", "b3"])
    assert p.first_jare is W
    assert p.step is Step.FREE and p.to_move is B and p.blocked is W
    assert p.legal_notations() == ["b1-c1", "b2-c2", "b3-c3"]
    assert p.apply("b2-c2").to_move is W


def test_a_freeing_move_never_captures_oodan() -> None:
    p = Position.setup("shax", black="a7 g7 a1", white="d7 a4 g4 d1 b6 f6", to_move=B)
    p = p.apply("d7-d6")  # forms b6 d6 f6, but it is a freeing move
    assert p.step is Step.MOVE and p.to_move is B
    assert p.count(B) == 3


def test_the_opponent_keeps_moving_while_no_freeing_move_exists() -> None:
    walls = "d7 a4 g4 d1 d6 b4 f4 d2 g1"
    p = Position.setup("shax", black="a7 g7 a1", white=walls, to_move=B)
    assert p.step is Step.FREE and p.to_move is W
    legal = p.legal_notations()
    assert legal == sorted(a.notation(p.variant) for a in p.legal_actions())
    assert "d6-d5" in legal  # no move frees black, so any move is allowed
    p = p.apply("d6-d5")
    assert p.step is Step.FREE and p.to_move is W  # black is still walled in
    assert p.legal_notations() == ["d7-d6"]  # now a way can be opened, and must be


def test_a_blockade_right_after_the_opening_removals() -> None:
    # White formed the first jare (e3 e4 e5), removed first and so moves first,
    # but has no stone next to the two empty points: black must open a way.
    record = "d5 d7 a4 d1 f6 f4 e4 d3 g7 c3 e3 b4 e5 b2 c5 b6 a7 f2 d2 g4 c4 d6 a1 g1 xg1 xd2"
    p = replay("shax", record)
    assert p.first_jare is W
    assert p.step is Step.FREE and p.to_move is B and p.blocked is W
    assert p.legal_notations() == ["d1-d2", "d1-g1", "d3-d2", "g4-g1"]


def test_neither_player_able_to_move_is_a_draw() -> None:
    p = Position.setup(
        "shax-small",
        white="a1 a5 e5 e1 b2 b4 d4 d2",
        black="a3 c5 e3 c1 b3 c4 d3 c2",
        to_move=W,
    )
    assert p.outcome is not None
    assert p.outcome.winner is None
    assert p.outcome.termination is Termination.MUTUAL_BLOCKADE


# -- draws ----------------------------------------------------------------------


def test_the_third_repetition_of_a_position_is_a_draw() -> None:
    p = Position.setup("shax", white="a7 b6 c5", black="g1 f2 e3")
    shuttle = ("a7-d7", "g1-g4", "d7-a7", "g4-g1")
    p = play(p, *shuttle)
    assert p.outcome is None  # second occurrence
    p = play(p, *shuttle[:3])
    assert p.outcome is None
    p = p.apply(shuttle[3])
    assert p.outcome is not None
    assert p.outcome.termination is Termination.THREEFOLD_REPETITION


def test_a_capture_clears_the_repetition_record() -> None:
    p = Position.setup("shax", white="a7 g7 d6 b2", black="a1 d1 g1 f2 c3")
    p = play(p, "d6-d7", "xc3")
    assert len(p.history) == 1


def test_one_hundred_moves_without_a_capture_is_a_draw() -> None:
    p = Position.setup("shax", white="a7 b6 c5", black="g1 f2 e3", clock=98)
    p = p.apply("a7-d7")
    assert p.outcome is None and p.moves_without_capture == 99
    p = p.apply("g1-g4")
    assert p.outcome is not None
    assert p.outcome.termination is Termination.MOVE_LIMIT


def test_a_capture_on_the_hundredth_move_comes_before_the_draw() -> None:
    p = Position.setup("shax", white="a7 g7 d6 b2", black="a1 d1 g1 f2 c3", clock=99)
    p = p.apply("d6-d7")
    assert p.outcome is None and p.step is Step.REMOVE
    p = p.apply("xc3")
    assert p.outcome is None and p.moves_without_capture == 0


# -- jar, the children's game -------------------------------------------------------


def test_jar_a_line_made_while_placing_wins_nothing() -> None:
    p = replay("jar", "a1 b1 a2 b3 a3")
    assert p.outcome is None and p.first_jare is W
    assert p.phase is Phase.PLACEMENT and p.to_move is B


def test_jar_the_first_line_while_placing_decides_who_moves_first() -> None:
    # White's a1 a2 a3 is the first line; black's b1 b2 b3 comes later and changes nothing.
    p = replay("jar", "a1 b1 a2 b2 a3 c3")
    assert p.first_jare is W
    assert p.phase is Phase.MOVEMENT and p.step is Step.MOVE and p.to_move is W
    p = replay("jar", "b1 a1 c3 a2 b2 a3")  # black's line comes first: black moves first
    assert p.first_jare is B and p.to_move is B


def test_jar_black_who_placed_last_moves_first_when_nobody_made_a_line() -> None:
    p = replay("jar", "a1 b1 c2 a2 b3 c3")
    assert p.first_jare is None
    assert p.phase is Phase.MOVEMENT and p.step is Step.MOVE and p.to_move is B
    assert all("-" in n for n in p.legal_notations())  # nothing is ever removed


def test_jar_a_line_standing_from_the_placement_wins_only_when_formed_again() -> None:
    p = replay("jar", "a1 b1 a2 b3 a3 c3")
    assert p.to_move is W
    p = play(p, "a2-b2", "c3-c2")  # white leaves the line: nothing is won
    assert p.outcome is None and p.to_move is W
    p = p.apply("b2-a2")  # and forms it again by a move: that wins
    assert p.outcome == Outcome(W, Termination.THREE_IN_A_ROW)


def test_jar_three_in_a_row_while_moving_wins() -> None:
    p = Position.setup("jar", white="a1 c1 b2", black="a2 b3 c3")
    p = p.apply("b2-b1")
    assert p.outcome is not None and p.outcome.winner is W
    assert p.outcome.termination is Termination.THREE_IN_A_ROW


def test_jar_diagonals_are_not_lines() -> None:
    p = replay("jar", "a1 b1 b2 a2 c2 a3")
    p = play(p, "a3-b3", "c2-c3")  # a1 b2 c3 is a diagonal
    assert p.outcome is None


def test_jar_a_freeing_move_that_forms_a_line_does_not_win() -> None:
    # Black (a2 a3) is walled in; white's a1-b1 frees a2 and forms b1 b2 b3: oodan.
    p = Position.setup("jar", white="a1 b2 b3", black="a2 a3", to_move=B)
    assert p.step is Step.FREE and p.to_move is W
    p = p.apply("a1-b1")
    assert p.outcome is None and p.to_move is B and p.step is Step.MOVE


def test_jar_blockade_is_freed_by_the_opponent() -> None:
    p = Position.setup("jar", white="a1 a2 b1", black="a3 b2 c1", to_move=W)
    assert p.step is Step.FREE and p.to_move is B
    assert p.legal_notations() == ["a3-b3", "b2-b3", "b2-c2", "c1-c2"]
