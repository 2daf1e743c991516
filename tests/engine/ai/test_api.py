"""The AI's interface: levels, errors, determinism, every step, process pools, bestmove."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest

from engine.ai import DEFAULT_MOVETIME, LEVELS, SearchResult, choose_action
from engine.errors import GameOverError, RecordError
from engine.position import Step
from engine.record import replay, split_record

BESTMOVE = [sys.executable, "-m", "engine", "bestmove"]

# A shax game through placement, the opening removals, captures and a freeing move.
SHAX_GAME = split_record(
    "b4 e4 c5 f6 b6 f2 b2 d2 g4 f4 a4 d6 g7 a7 c4 c3 a1 e3 d7 d3 d5 g1 e5 d1 xa7 xg7 d7-g7 "
    "d6-d7 a4-a7 f6-d6 b4-a4 xd6 f4-f6"
)
JAR_WON = split_record("a1 b1 a2 b3 a3 c3 a2-b2 c3-c2 b2-a2")  # white forms a1 a2 a3 by a move


def test_levels_and_default_movetimes() -> None:
    assert LEVELS == ("easy", "medium", "hard", "master")
    assert set(DEFAULT_MOVETIME) == set(LEVELS)
    assert DEFAULT_MOVETIME["hard"] < 2.0
    assert DEFAULT_MOVETIME["master"] < 5.0


def test_unknown_level_lists_the_levels() -> None:
    with pytest.raises(ValueError, match="easy, medium, hard, master"):
        choose_action("shax", "", level="grandmaster")


def test_bad_record_raises_record_error() -> None:
    with pytest.raises(RecordError):
        choose_action("shax", "d7 d7", depth=2)


def test_finished_game_raises_game_over() -> None:
    with pytest.raises(GameOverError):
        choose_action("jar", JAR_WON, depth=2)


@pytest.mark.parametrize("level", LEVELS)
def test_fixed_seed_and_depth_is_deterministic(level: str) -> None:
    record = SHAX_GAME[:12]
    first = choose_action("shax", record, level, seed=7, depth=5)
    again = choose_action("shax", " ".join(record), level, seed=7, depth=5)
    assert (first.action, first.score, first.depth, first.nodes) == (
        again.action,
        again.score,
        again.depth,
        again.nodes,
    )


def step_records() -> list[tuple[str, list[str], Step]]:
    """A record ending at each step of shax (and jar)."""
    out: list[tuple[str, list[str], Step]] = [
        ("shax", SHAX_GAME[:5], Step.PLACE),
        ("shax", SHAX_GAME[:24], Step.REMOVE),  # the opening removal
        ("shax", SHAX_GAME[:26], Step.MOVE),
        ("shax", SHAX_GAME[:31], Step.REMOVE),  # a capture
        ("jar", ["a1", "b2", "c3", "a3", "c1", "b1"], Step.MOVE),
    ]
    # A freeing move: white has just blocked black in this shax-small game.
    out.append(("shax-small", FREEING_RECORD, Step.FREE))
    for variant, record, step in out:
        assert replay(variant, record).step is step, (variant, record)
    return out


FREEING_RECORD = split_record(
    "c4 d3 c2 b3 e1 e3 c1 a5 d2 a3 b4 c5 d4 b2 e5 a1 xa1 xc2 c1-c2 a3-a1 e1-c1 a5-a3 c1-e1 a1-c1"
)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_acts_legally_at_every_step(level: str) -> None:
    for variant, record, _step in step_records():
        position = replay(variant, record)
        result = choose_action(variant, record, level, seed=3, depth=3)
        assert isinstance(result, SearchResult)
        assert result.action in position.legal_notations(), (variant, record, result)
        assert result.depth >= 1 and result.nodes >= 1


def test_time_budget_is_kept_without_depth() -> None:
    result = choose_action("shax", SHAX_GAME[:10], "hard", movetime=0.2)
    assert result.action in replay("shax", SHAX_GAME[:10]).legal_notations()
    assert result.depth >= 1


def test_search_result_pickles() -> None:
    result = choose_action("shax", SHAX_GAME[:8], "medium", seed=1, depth=2)
    assert pickle.loads(pickle.dumps(result)) == result


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_process_pool_round_trip(method: str) -> None:
    record = SHAX_GAME[:26]
    expected = choose_action("shax", record, "hard", seed=5, depth=4)
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context(method)) as pool:
        futures = [pool.submit(choose_action, "shax", record, "hard", None, 5, 4) for _ in range(3)]
        results = [f.result() for f in futures]
    for r in results:
        assert (r.action, r.score, r.nodes) == (expected.action, expected.score, expected.nodes)


def test_bestmove_converses_line_by_line() -> None:
    proc = subprocess.Popen(
        [*BESTMOVE, "--variant", "shax", "--level", "hard", "--depth", "3", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(" ".join(SHAX_GAME[:6]) + "\n")
        proc.stdin.flush()
        first = json.loads(proc.stdout.readline())
        assert set(first) == {"action", "score", "depth", "nodes", "source", "table_hits"}
        assert first["source"] == "search"
        assert first["action"] in replay("shax", SHAX_GAME[:6]).legal_notations()
        proc.stdin.write("d7 d7\n")  # a bad record: an error, and the command goes on
        proc.stdin.flush()
        bad = json.loads(proc.stdout.readline())
        assert "error" in bad
        proc.stdin.write(" ".join(SHAX_GAME[:24]) + "\n")
        proc.stdin.flush()
        third = json.loads(proc.stdout.readline())
        assert third["action"].startswith("x")
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert proc.returncode == 0


def test_bestmove_reports_a_finished_game_as_an_error() -> None:
    out = subprocess.run(
        [*BESTMOVE, "--variant", "jar", "--depth", "2"],
        input=" ".join(JAR_WON) + "\n\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert "error" in json.loads(out[0])
    assert "action" in json.loads(out[1])  # the empty record: the first placement


def test_bestmove_rejects_an_unknown_level() -> None:
    done = subprocess.run(
        [*BESTMOVE, "--level", "grandmaster"], input="", capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "easy, medium, hard, master" in done.stderr
