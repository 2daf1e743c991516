"""Game analysis (engine/analysis.py) and ``python -m engine analyse`` on known positions."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest

from engine import Color, Position, RecordError, replay
from engine.analysis import (
    MATE_BOUND,
    PLOT_LIMIT,
    MoveReview,
    analyse_record,
    assess,
    assess_record,
    evaluation_curve,
    plot_value,
    review_moves,
    turning_points,
)
from engine.analysis_cli import run_analyse

# Jar: nobody made a line while placing, so black moves first; black's c3-c2 misses
# a2-a3 (forming a3 b3 c3 wins at once), and white's c1-b1 misses b2-b1 (forming
# a1 b1 c1) and lets black win.
JAR_PLACED = "a1 a2 c1 b3 b2 c3"
JAR_BLUNDER = JAR_PLACED + " c3-c2 c1-b1"


def test_the_winning_move_is_best_and_the_other_loses() -> None:
    reviews = analyse_record("jar", JAR_BLUNDER, depth=4)
    assert [r.played for r in reviews] == JAR_BLUNDER.split()
    last = reviews[-1]
    assert (last.ply, last.mover, last.best) == (7, Color.WHITE, "b2-b1")
    assert last.best_score > MATE_BOUND
    assert last.score < -MATE_BOUND  # black wins by force
    assert last.loss == last.best_score - last.score
    assert reviews[6].best == "a2-a3" and reviews[6].best_score > MATE_BOUND
    assert reviews[6].loss > 0
    assert turning_points(reviews) == [2, 6, 7]


def test_every_legal_action_is_scored_best_first() -> None:
    position = replay("jar", JAR_PLACED + " c3-c2")
    found = assess(position, 7, depth=3)
    assert sorted(a for a, _ in found.scores) == position.legal_notations()
    scores = [s for _, s in found.scores]
    assert scores == sorted(scores, reverse=True)
    assert found.best == "b2-b1" and found.score_of("b2-b1") == found.best_score
    with pytest.raises(KeyError):
        found.score_of("a1")


def test_the_played_action_is_scored_by_the_same_search_as_the_best() -> None:
    # Black has three stones: g4-g7 closes the top line and its capture wins.
    position = Position.setup("shax", "a7 d7 g4 b2", "c3 e3 d1")
    found = assess(position, depth=3)
    assert found.best == "g4-g7" and found.best_score > MATE_BOUND
    for action, score in found.scores[1:]:
        assert score < found.best_score, action


def test_a_review_can_be_split_between_workers_and_put_back_together() -> None:
    record = ["d7", "a7", "g7", "d6", "b6", "f6", "a4", "g4", "d5", "c5"]
    whole = analyse_record("shax", record, depth=3)
    halves = assess_record("shax", record, range(0, 10, 2), depth=3) + assess_record(
        "shax", record, range(1, 10, 2), depth=3
    )
    assert review_moves("shax", record, halves) == whole


def test_a_bad_record_is_refused_with_its_place() -> None:
    with pytest.raises(RecordError) as caught:
        analyse_record("jar", "a1 a1", depth=2)
    assert caught.value.index == 1


def test_the_finished_position_is_not_assessed_and_an_unknown_ply_is_refused() -> None:
    record = JAR_PLACED + " a2-a3"  # black forms a3 b3 c3 and wins
    assert [a.ply for a in assess_record("jar", record, depth=2)] == [0, 1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="ply 9"):
        assess_record("jar", record, [9], depth=2)
    with pytest.raises(ValueError, match="over"):
        assess(replay("jar", record))


def review(ply: int, mover: Color, score: int, best: int) -> MoveReview:
    return MoveReview(ply, mover, "a1", score, "b1", best, 4)


def test_turning_points_are_the_largest_losses_in_game_order() -> None:
    reviews = [
        review(0, Color.WHITE, 0, 10),
        review(1, Color.BLACK, -300, 0),
        review(2, Color.WHITE, 50, 60),
        review(3, Color.BLACK, -80, 20),
        review(4, Color.WHITE, 0, 500),
    ]
    assert turning_points(reviews) == [1, 3, 4]
    assert turning_points(reviews, count=2) == [1, 4]
    assert turning_points(reviews, minimum=200) == [1, 4]


def test_the_curve_is_whites_value_with_forced_results_at_the_edge() -> None:
    reviews = [review(0, Color.WHITE, 30, 40), review(1, Color.BLACK, 29990, 29990)]
    assert evaluation_curve(reviews) == [40, -PLOT_LIMIT, -PLOT_LIMIT]
    assert plot_value(5000) == PLOT_LIMIT and plot_value(-120) == -120
    assert evaluation_curve([]) == []


def args(**kw: object) -> Namespace:
    base: dict[str, object] = {
        "variant": "jar",
        "depth": 4,
        "movetime": None,
        "text": False,
        "file": None,
    }
    return Namespace(**(base | kw))


def test_analyse_prints_each_action_with_the_best_and_why() -> None:
    out = io.StringIO()
    assert run_analyse(args(), io.StringIO(JAR_BLUNDER + "\n"), out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["ply"] for line in lines[:-1]] == list(range(8))
    last = lines[-2]
    assert last["action"] == "c1-b1" and last["best"] == "b2-b1" and last["side"] == "white"
    assert last["why"] == {"reason": "wins", "points": ["b1", "b2"]}
    assert last["loss"] == last["best_score"] - last["score"]
    assert lines[-1] == {"record": 0, "end": True, "turning_points": [2, 6, 7]}


def test_analyse_reports_a_bad_record_and_goes_on() -> None:
    out = io.StringIO()
    run_analyse(args(), io.StringIO("a1 a1\na1\n"), out)
    bad, first, end = (json.loads(line) for line in out.getvalue().splitlines())
    assert bad["record"] == 0 and bad["index"] == 1 and "already taken" in bad["error"]
    assert first["record"] == 1 and first["action"] == "a1"
    assert end["end"] is True


def test_analyse_reads_a_file_and_prints_text(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_text(JAR_BLUNDER + "\n")
    out = io.StringIO()
    assert run_analyse(args(file=str(games), text=True), None, out) == 0
    text = out.getvalue().splitlines()
    assert text[7].split()[:3] == ["8", "white", "c1-b1"] and "best b2-b1" in text[7]
    assert text[-1] == "record 0: turning points at actions 3 7 8"
    assert run_analyse(args(file=str(tmp_path / "missing.txt")), None, io.StringIO()) == 2


def test_analyse_refuses_a_depth_below_one() -> None:
    assert run_analyse(args(depth=0), io.StringIO(""), io.StringIO()) == 2


def test_python_m_engine_analyse_runs_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "analyse", "--variant", "jar", "--depth", "3"],
        input="a1 b1\n",
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line.get("action") for line in lines] == ["a1", "b1", None]


# -- a turning point claims only what the numbers show ---------------------------------


def curve_drop(reviews: list[MoveReview], i: int) -> int:
    """What the mover of ``reviews[i]`` lost on the curve, before it to after it."""
    sign = 1 if reviews[i].mover is Color.WHITE else -1
    return sign * (reviews[i].white_before - reviews[i].white_after)


def test_a_loss_the_next_position_does_not_show_is_no_turning_point() -> None:
    # The game of the issue: the best removal was searched deeper and proved a win, but
    # the position after the removal played is still won: nothing was let go.
    still_won = MoveReview(44, Color.WHITE, "xe4", 0, "xg7", 29985, 6, after=29981)
    assert still_won.search_loss == 29985
    assert still_won.loss == 4 and not still_won.gave_away_win
    assert turning_points([still_won]) == []
    thrown = MoveReview(44, Color.WHITE, "xe4", 0, "xg7", 29985, 6, after=-20)
    assert thrown.loss == 29985 and thrown.gave_away_win
    assert turning_points([thrown]) == [44]


def test_every_turning_point_of_a_game_is_a_drop_on_its_curve_of_the_size_it_claims() -> None:
    reviews = analyse_record("jar", JAR_BLUNDER, depth=4)
    turning = turning_points(reviews)
    assert turning == [2, 6, 7]
    for ply in turning:
        i = [r.ply for r in reviews].index(ply)
        r = reviews[i]
        assert r.loss <= r.search_loss
        if r.after is not None:
            assert curve_drop(reviews, i) >= min(r.loss, 2 * PLOT_LIMIT) > 0


def test_a_game_played_by_the_search_itself_has_no_turning_point() -> None:
    record: list[str] = []
    position = replay("shax-small", record)
    while len(record) < 24 and position.outcome is None:
        record.append(assess(position, len(record), depth=3).best)
        position = replay("shax-small", record)
    reviews = analyse_record("shax-small", record, depth=3)
    assert [r.played for r in reviews] == [r.best for r in reviews]
    assert all(r.loss == 0 for r in reviews)
    assert turning_points(reviews) == []


def test_a_move_into_a_finished_game_is_valued_by_its_end() -> None:
    reviews = analyse_record("jar", JAR_PLACED + " a2-a3", depth=4)
    last = reviews[-1]
    assert replay("jar", JAR_PLACED + " a2-a3").outcome is not None
    assert last.after is not None and last.after > MATE_BOUND and last.loss == 0


def test_positions_in_the_endgame_tables_are_scored_by_them(shax_small_tables: Path) -> None:
    from engine.tables import table_action

    position = Position.setup("shax-small", "a1 a3 c4 d4", "e5 e3 c1", "white")
    found = assess(position, depth=3)
    answer = table_action(position)
    assert answer is not None
    assert (found.source, found.depth) == ("table", 0)
    assert found.best_score == answer.value.score
    assert found.score_of(answer.action.notation(position.variant)) == found.best_score
