"""Puzzles from the tables: the only winning step, the distance, the tables' best defence,
the grading, the shipped sets re-checked, and ``python -m engine puzzles``.

The values a test relies on are taken from the tables through :func:`engine.tables.
table_action` and :class:`~engine.tables.Tables.probe`, not through the puzzle module's
own step values, so that the two ways of reading the tables check each other.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import ShaxError
from engine.position import Position, Step
from engine.tables import Tables, table_action
from engine.tables.puzzles import (
    MAX_MOVES,
    Puzzle,
    after,
    answer,
    check,
    generate,
    shipped,
    starting_rating,
    steps,
)

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = 40
"""How many puzzles of each shipped set the suite checks again."""
SHIPPED_AT_LEAST = {"shax-small": 350, "shax": 150}


@pytest.fixture(scope="module")
def puzzles(small_tables: dict[str, Tables]) -> list[Puzzle]:
    return list(generate(small_tables["shax-small"], 6, seed=3))


def winning_first_moves(tables: Tables, position: Position) -> set[str]:
    """Every first move that wins (with the removal it earns, if any), each step valued
    by a probe of the tables after it."""
    me, v = position.turn, position.variant
    winners = set()
    for step in steps(position):
        child = after(position, step)
        if child.outcome is not None:
            won = child.outcome.winner is not None and child.outcome.winner.value == me
        else:
            value = tables.probe(child)
            assert value is not None
            won = (value.result == "loss") == (child.turn != me) and value.result != "draw"
            won = won and value.in_time(child.clock)
        if won:
            winners.add(step[0].notation(v))
    return winners


def test_each_puzzle_has_exactly_one_winning_first_step(
    puzzles: list[Puzzle], small_tables: dict[str, Tables]
) -> None:
    tables = small_tables["shax-small"]
    assert len(puzzles) == 6
    for puzzle in puzzles:
        position = puzzle.position()
        assert position.step is Step.MOVE
        assert winning_first_moves(tables, position) == {puzzle.solution[0]}


def test_the_win_takes_the_puzzles_number_of_moves(
    puzzles: list[Puzzle], small_tables: dict[str, Tables]
) -> None:
    tables = small_tables["shax-small"]
    for puzzle in puzzles:
        position = puzzle.position()
        value = tables.probe(position)
        assert value is not None and value.result == "win"
        assert 1 <= puzzle.moves <= MAX_MOVES
        assert (value.moves + 1) // 2 == puzzle.moves  # plies to the end, the solver's half
        # Replayed in the engine, the line ends in the solver's win, and no sooner.
        end = position
        for index, action in enumerate(puzzle.solution):
            assert end.outcome is None, (puzzle, index)
            end = end.apply(action)
        assert end.outcome is not None and end.outcome.winner is not None
        assert end.outcome.winner.value == position.turn


def test_the_defence_is_the_tables_best(
    puzzles: list[Puzzle], small_tables: dict[str, Tables]
) -> None:
    tables = small_tables["shax-small"]
    defended = 0
    for puzzle in puzzles:
        position = puzzle.position()
        solver = position.turn
        best = None
        for action in puzzle.solution:
            if position.turn != solver and best is None:  # a defence step begins
                best = table_action(position, tables)
                assert best is not None
            position = position.apply(action)
            if position.turn == solver and best is not None and position.outcome is None:
                # The defence's whole step done: it loses as slowly as the tables allow.
                found = tables.probe(position)
                assert found is not None and found.result == "win"
                assert best.value.result == "loss" and best.value.moves == found.moves + 1
                best = None
                defended += 1
    assert defended >= 1


def test_every_other_first_move_is_wrong_and_any_finishing_last_removal_right(
    puzzles: list[Puzzle],
) -> None:
    for puzzle in puzzles:
        position = puzzle.position()
        v = position.variant
        first = position.parse(puzzle.solution[0])
        others = [a for a in position.legal_actions() if a != first]
        assert others
        for action in others:
            assert answer(puzzle, (), action.notation(v)).verdict == "wrong"
        moved = answer(puzzle, (), puzzle.solution[0])
        assert moved.verdict == ("solved" if len(puzzle.solution) == 1 else "right")
        child = position.play(first)
        if child.step is Step.REMOVE and child.turn == position.turn:  # the move earned one
            for removal in child.legal_actions():
                text = removal.notation(v)
                got = answer(puzzle, moved.played, text).verdict
                won = child.play(removal).outcome
                if text == puzzle.solution[1]:
                    assert got in {"right", "solved"}
                elif puzzle.moves == 1:  # the last step: any removal that wins is right
                    assert got == ("solved" if won is not None and won.winner else "wrong")
                else:
                    assert got == "wrong"


def test_answering_the_solution_step_by_step_solves_it(puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles:
        played: tuple[str, ...] = ()
        verdicts = []
        while len(played) < len(puzzle.solution):
            got = answer(puzzle, played, puzzle.solution[len(played)])
            verdicts.append(got.verdict)
            # The defence answers with the solution's own replies, and only between steps.
            assert got.played == puzzle.solution[: len(got.played)]
            assert got.defence == got.played[len(played) + 1 :]
            played = got.played
        assert verdicts[-1] == "solved" and set(verdicts[:-1]) <= {"right"}
        with pytest.raises(ValueError, match="not waiting"):
            answer(puzzle, played, puzzle.solution[0])


def test_a_wrong_answer_changes_nothing_and_an_illegal_one_is_refused(
    puzzles: list[Puzzle],
) -> None:
    for puzzle in puzzles:
        position = puzzle.position()
        v = position.variant
        wrong = next(a for a in position.legal_actions() if a.notation(v) != puzzle.solution[0])
        got = answer(puzzle, (), wrong.notation(v))
        assert got.verdict == "wrong" and got.played == () and got.defence == ()
        with pytest.raises(ShaxError):
            answer(puzzle, (), "zz9")
        legal = set(position.legal_notations())
        illegal = next(  # well written, and not legal here
            f"{v.points[a]}-{v.points[b]}"
            for a in range(len(v.points))
            for b in range(len(v.points))
            if v.adjacent[a] >> b & 1 and f"{v.points[a]}-{v.points[b]}" not in legal
        )
        with pytest.raises(ShaxError):
            answer(puzzle, (), illegal)


def test_puzzles_are_graded_and_checked(
    puzzles: list[Puzzle], small_tables: dict[str, Tables]
) -> None:
    tables = small_tables["shax-small"]
    for puzzle in puzzles:
        assert check(tables, puzzle) == []
        assert puzzle.depth >= 1 and puzzle.tempting >= 0
        assert puzzle.rating == starting_rating(puzzle.moves, puzzle.depth, puzzle.tempting)
        assert Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle
    # Harder to find, longer, more tempting: a higher starting rating.
    assert starting_rating(1, 1, 0) < starting_rating(1, 4, 0) < starting_rating(3, 4, 0)
    assert starting_rating(2, 2, 0) < starting_rating(2, 2, 3)


def test_a_changed_puzzle_is_caught(puzzles: list[Puzzle], small_tables: dict[str, Tables]) -> None:
    tables = small_tables["shax-small"]
    puzzle = puzzles[0]
    wrong_line = Puzzle(**{**puzzle.__dict__, "solution": puzzle.solution[:-1]})
    assert any("solution" in p for p in check(tables, wrong_line))
    wrong_moves = Puzzle(**{**puzzle.__dict__, "moves": puzzle.moves + 1})
    assert any("moves" in p for p in check(tables, wrong_moves))
    bad_record = Puzzle(**{**puzzle.__dict__, "record": ("a1", "a1")})
    assert any("does not replay" in p for p in check(tables, bad_record))
    # An earlier position of the same game, where the game was not yet decided so.
    early = Puzzle(**{**puzzle.__dict__, "record": puzzle.record[:18]})
    assert check(tables, early)


@pytest.mark.parametrize("variant", ["shax-small", "shax"])
def test_the_shipped_puzzles_are_right_by_the_tables(
    variant: str, small_tables: dict[str, Tables]
) -> None:
    found = shipped(variant)
    assert len(found) >= SHIPPED_AT_LEAST[variant]
    assert len({p.record for p in found}) == len(found)  # no position twice
    tables = small_tables[variant]
    for puzzle in random.Random(variant).sample(found, SAMPLE):
        assert check(tables, puzzle) == [], puzzle
    assert {p.moves for p in found} >= {1, 2}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "puzzles", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_the_puzzles_command_prints_json_lines(tables_root: Path, tmp_path: Path) -> None:
    done = run(
        "--variant", "shax-small", "--count", "3", "--seed", "5", "--tables", str(tables_root)
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3
    puzzles = [Puzzle.from_json(json.loads(line)) for line in lines]
    assert {"record", "solution", "moves", "depth"} <= set(json.loads(lines[0]))
    assert "3/3 puzzles" in done.stderr
    # The same seed, the same puzzles; and a file of them checks.
    again = run(
        "--variant", "shax-small", "--count", "3", "--seed", "5", "--tables", str(tables_root)
    )
    assert again.stdout == done.stdout
    path = tmp_path / "p.jsonl"
    path.write_text(done.stdout + json.dumps({**puzzles[0].to_json(), "moves": 9}) + "\n")
    checked = run("--variant", "shax-small", "--tables", str(tables_root), "--check", str(path))
    assert checked.returncode == 1
    assert f"{path}:4: the win takes" in checked.stdout
    assert "3 of 4 puzzles are right." in checked.stdout


def test_the_puzzles_command_says_what_to_build(tmp_path: Path) -> None:
    done = run("--variant", "shax", "--tables", str(tmp_path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"build them with python -m engine.tables build --dir {tmp_path}." in done.stderr
