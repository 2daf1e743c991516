"""Why an action is good (engine/explain.py), as values, on hand-built positions."""

from __future__ import annotations

from pathlib import Path

from engine import Color, Position, replay
from engine.ai.core import MATE, MATE_BOUND
from engine.analysis import MoveReview
from engine.explain import (
    Explanation,
    Reason,
    explain,
    explain_assessed,
    explain_turning_point,
    explanations,
    threats,
)

FAR_BLACK = "c3 e3 d1"


def reasons(position: Position, text: str) -> list[Reason]:
    return [e.reason for e in explanations(position, position.parse(text))]


def why(position: Position, text: str) -> Explanation:
    return explain(position, position.parse(text))


def test_a_move_that_completes_a_line_closes_a_jare() -> None:
    p = Position.setup("shax", "a7 d7 g4 b2", "c3 e3 d1 f2")
    assert why(p, "g4-g7") == Explanation(Reason.CLOSES_JARE, ("a7", "d7", "g7"))
    assert why(p, "b2-b4").reason is Reason.KEEPS_BALANCE


def test_the_capture_that_leaves_two_stones_wins() -> None:
    p = Position.setup("shax", "a7 d7 g4 b2", "c3 e3 d1").apply("g4-g7")
    assert why(p, "xd1") == Explanation(Reason.WINS, ("d1",))


def test_three_in_a_row_formed_by_a_move_wins_jar() -> None:
    p = replay("jar", "a1 a2 c1 b3 b2 c3 c3-c2")
    assert why(p, "b2-b1") == Explanation(Reason.WINS, ("b1", "b2"))
    # Elsewhere white must stop black's line b1 b2 b3 by stepping into b3.
    p = Position.setup("jar", "a1 a3 c2", "b1 b2 c3")
    assert why(p, "a3-b3") == Explanation(Reason.STOPS_JARE, ("b1", "b2", "b3"))


def test_a_line_while_placing_wins_nothing_in_jar_but_stopping_the_first_one_counts() -> None:
    p = replay("jar", "a1 b1 a2 b2")
    assert Reason.WINS not in {e.reason for e in explanations(p, p.parse("a3"))}
    assert why(p, "b3") == Explanation(Reason.STOPS_JARE, ("b1", "b2", "b3"))
    # Once a first line stands, a line of two while placing threatens nothing.
    p = replay("jar", "a1 b1 a2 b2 a3")
    assert threats(p, Color.BLACK, as_if_to_move=True) == []


def test_a_move_into_the_point_they_would_close_stops_their_jare() -> None:
    # Black's b6 f6 wait for d7-d6; white's d5 gets there first.
    p = Position.setup("shax", "d5 a1 g1 c3", "b6 f6 d7 e3")
    assert why(p, "d5-d6") == Explanation(Reason.STOPS_JARE, ("b6", "d6", "f6"))
    [(line, point)] = threats(p, Color.BLACK, as_if_to_move=True)
    assert p.variant.names(line) == ["b6", "d6", "f6"] and p.variant.points[point] == "d6"


def test_a_line_they_cannot_reach_is_no_threat() -> None:
    # Black's a1 d1 need a stone next to g1; none is there.
    p = Position.setup("shax", "g4 b2 c3", "a1 d1 e3")
    assert threats(p, Color.BLACK, as_if_to_move=True) == []
    assert Reason.STOPS_JARE not in reasons(p, "g4-g1")


def test_placing_on_their_open_line_stops_their_first_jare() -> None:
    p = replay("shax", "a7 a1 d7 d1")
    assert why(p, "g7") == Explanation(Reason.FIRST_JARE, ("a7", "d7", "g7"))
    assert why(p, "g1") == Explanation(Reason.STOPS_JARE, ("a1", "d1", "g1"))


def test_after_the_first_jare_a_placement_line_is_no_threat() -> None:
    p = replay("shax", "a7 a1 d7 d1 g7 b2")  # white made the first jare
    assert threats(p, Color.BLACK, as_if_to_move=True) == []
    assert why(p, "g1").reason is Reason.KEEPS_BALANCE


def test_a_placement_completing_two_lines_is_laba_qaad() -> None:
    p = replay("shax", "d7 b2 g7 f2 a4 c3 a1 e3")
    assert reasons(p, "a7")[:2] == [Reason.LABA_QAAD, Reason.FIRST_JARE]
    assert why(p, "a7").points == ("a1", "a4", "a7", "d7", "g7")


def test_leaving_them_no_move_is_haarig() -> None:
    p = Position.setup("jar", "a3 b2 c2", "a1 a2 b1")
    assert why(p, "c2-c1") == Explanation(Reason.HAARIG, ("c1", "c2"))
    assert p.apply("c2-c1").blocked is Color.BLACK


def test_a_freeing_move_that_gives_them_no_jare_frees_safely() -> None:
    # Black cannot move; d3-c3 would let e3-d3 close d1 d2 d3.
    p = Position.setup("shax", "a4 b4 c5 d3 e5 f4 g1", "a1 b2 d1 d2 e3 e4 f2", to_move=Color.BLACK)
    assert p.blocked is Color.BLACK
    assert why(p, "a4-a7") == Explanation(Reason.FREES_SAFELY, ("a4", "a7"))
    assert Reason.FREES_SAFELY not in reasons(p, "d3-c3")


def test_a_move_that_builds_a_running_jare_makes_an_irmaan() -> None:
    p = Position.setup("shax", "a7 d7 g7 b6 f4", FAR_BLACK)
    assert Explanation(Reason.MAKES_IRMAAN, ("d6", "d7")) in explanations(p, p.parse("f4-f6"))


def test_removing_a_stone_of_their_irmaan_takes_it() -> None:
    p = Position.setup("shax", "a7 d7 g7 b6 f6", FAR_BLACK, to_move=Color.BLACK, removal_due=True)
    assert why(p, "xd7") == Explanation(Reason.TAKES_IRMAAN, ("d6", "d7"))
    assert why(p, "xb6").reason is Reason.TAKES_IRMAAN
    assert why(p, "xa7").reason is Reason.TAKES_IRMAAN  # the standing jare is the irmaan's


def test_removing_a_stone_of_a_line_they_could_close_takes_the_threat() -> None:
    p = Position.setup("shax", "a1 d1 g4 b6", "c3 e3 d5", to_move=Color.BLACK, removal_due=True)
    assert why(p, "xa1") == Explanation(Reason.TAKES_THREAT, ("a1", "d1", "g1"))
    assert why(p, "xb6").reason is Reason.KEEPS_BALANCE


def test_two_on_a_line_with_the_third_in_reach_threatens_a_jare() -> None:
    p = Position.setup("shax", "d6 g7 a4 b2 f2", FAR_BLACK)
    assert why(p, "d6-d7") == Explanation(Reason.THREATENS_JARE, ("a7", "d7", "g7"))


def test_the_only_legal_action_says_so() -> None:
    p = Position.setup("jar", "a1 a3 c1", "a2 b1 b3")
    assert p.legal_notations() == ["c1-c2"]
    assert why(p, "c1-c2") == Explanation(Reason.ONLY_ACTION, ("c1", "c2"))


def test_every_list_ends_with_keeping_the_balance() -> None:
    p = replay("shax", "d7 b2 g7 f2 a4 c3 a1 e3")
    for action in p.legal_actions():
        assert explanations(p, action)[-1] == Explanation(Reason.KEEPS_BALANCE)


# -- what the scores prove -------------------------------------------------------------


def test_a_win_the_search_proves_is_said_with_its_moves() -> None:
    from engine.analysis import assess

    p = Position.setup("shax", "a7 d7 g4 b2", FAR_BLACK + " f2")
    found = assess(p, depth=7)
    assert found.best_score > MATE_BOUND
    said = explain_assessed(p, found)
    assert said.reason is Reason.FORCED_WIN
    assert said.moves == (MATE - found.best_score + 1) // 2 > 1
    assert explanations(p, p.parse(found.best))[0].reason is not Reason.FORCED_WIN


def test_a_win_in_one_move_is_said_by_what_the_move_does() -> None:
    from engine.analysis import assess

    p = Position.setup("shax", "a7 d7 g4 b2", FAR_BLACK)
    found = assess(p, depth=3)
    assert found.best == "g4-g7" and found.best_score > MATE_BOUND
    assert explain_assessed(p, found).reason is Reason.CLOSES_JARE


def test_the_end_of_the_game_comes_before_what_the_scores_prove() -> None:
    from engine.analysis import assess

    p = Position.setup("shax", "a7 d7 g4 b2", "c3 e3 d1").apply("g4-g7")
    assert explain_assessed(p, assess(p, depth=3)).reason is Reason.WINS


def test_without_a_proof_the_reason_is_the_first_that_holds() -> None:
    from engine.analysis import assess

    p = replay("shax", "d7 a7 g7 d6")
    found = assess(p, depth=3)
    assert abs(found.best_score) < MATE_BOUND
    assert explain_assessed(p, found) == explain(p, p.parse(found.best))


def test_the_tables_say_how_many_moves_a_win_takes_and_which_move_holds_a_draw(
    shax_small_tables: Path,
) -> None:
    from engine.analysis import assess
    from engine.tables import table_action
    from tests.engine.tables.positions import random_positions

    seen = {Reason.TABLE_WIN: 0, Reason.TABLE_DRAW: 0}
    for p in random_positions("shax-small", 300, seed=5):
        found = assess(p)
        answer = table_action(p)
        assert found.source == "table" and answer is not None
        said = explain_assessed(p, found)
        if answer.value.result == "win" and answer.value.moves > 1:
            assert said.reason is Reason.TABLE_WIN
            assert said.moves == answer.value.moves
            seen[Reason.TABLE_WIN] += 1
        scores = [s for _, s in found.scores]
        if answer.value.result == "draw" and min(scores) < -MATE_BOUND:
            assert said.reason is Reason.TABLE_DRAW
            seen[Reason.TABLE_DRAW] += 1
    assert seen[Reason.TABLE_WIN] > 10 and seen[Reason.TABLE_DRAW] > 0, seen


# -- a turning point: the answer the action played allowed -------------------------------

QUIET = Position.setup("shax", "a7 a1 g1 b6", "c3 e3 d2 f6", "white")
"""White's moves all keep the balance; black's d2-d3 closes c3 d3 e3 whatever white does."""


def turning(reply: str | None, after: int | None = -120) -> MoveReview:
    return MoveReview(0, Color.WHITE, "a7-d7", -120, "g1-d1", -100, 4, after=after, reply=reply)


def test_a_turning_point_without_a_reason_of_its_own_says_what_the_answer_does() -> None:
    best, answer = explain_turning_point(QUIET, turning("d2-d3"))
    assert best.reason is Reason.KEEPS_BALANCE
    assert answer == Explanation(Reason.CLOSES_JARE, ("c3", "d3", "e3"))


def test_an_answer_that_only_keeps_the_balance_is_not_named() -> None:
    assert explain_turning_point(QUIET, turning("f6-f4"))[1] is None
    assert explain_turning_point(QUIET, turning(None))[1] is None


def test_an_answer_that_wins_by_force_says_in_how_many_moves() -> None:
    _, answer = explain_turning_point(QUIET, turning("f6-f4", after=-(MATE - 7)))
    assert answer is not None and answer.reason is Reason.FORCED_WIN and answer.moves == 4


def test_a_turning_point_with_a_reason_of_its_own_keeps_it() -> None:
    p = Position.setup("shax", "a7 d7 g4 b2", FAR_BLACK, "white")
    r = MoveReview(0, Color.WHITE, "b2-b4", -100, "g4-g7", MATE - 1, 3, reply="d1-d2")
    best, answer = explain_turning_point(p, r)
    assert best.reason is Reason.CLOSES_JARE and answer is None
