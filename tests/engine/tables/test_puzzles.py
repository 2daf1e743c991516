"""Puzzles from the tables: the only winning step, the distance, the tables' best defence,
the grading, the shipped sets re-checked, and ``python -m engine puzzles``.

The values a test relies on are taken from the tables through :func:`engine.tables.
table_action` and :class:`~engine.tables.Tables.probe`, not through the puzzle module's
own step values, so that the two ways of reading the tables check each other.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import ShaxError
from engine.position import Phase, Position, Step
from engine.tables import Tables, table_action
from engine.tables.puzzle_set import (
    from_games,
    from_placements,
    from_walks,
    grade,
    starting_rating,
)
from engine.tables.puzzle_shapes import canonical
from engine.tables.puzzles import (
    MAX_MOVES,
    Puzzle,
    PuzzleTheme,
    after,
    answer,
    check,
    solve,
    steps,
)
from engine.tables.solved import open_solved

ROOT = Path(__file__).resolve().parents[3]
GAMES = 30
"""The games the suite's own puzzles come from (a few movement puzzles)."""


@pytest.fixture(scope="module")
def puzzles(small_tables: dict[str, Tables]) -> list[Puzzle]:
    """Movement puzzles of shax-small, from games and the positions one step off them."""
    return list(from_games(small_tables["shax-small"], None, 4, set(), games=GAMES))


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
    assert len(puzzles) >= 4
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
        if PuzzleTheme.XADHIG not in puzzle.themes:  # no freeing move of the solver's
            assert (value.moves + 1) // 2 == puzzle.moves  # plies to the end, their half
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
        assert puzzle.choices == len(puzzle.position().legal_actions()) >= 3
        assert puzzle.rating == starting_rating(
            puzzle.moves, puzzle.depth, puzzle.tempting, puzzle.choices
        )
        assert Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle
    # Harder to find, longer, more tempting, more to choose among: a higher rating.
    assert starting_rating(1, 1, 0, 5) < starting_rating(1, 4, 0, 5) < starting_rating(3, 4, 0, 5)
    assert starting_rating(2, 2, 0, 5) < starting_rating(2, 2, 3, 5) < starting_rating(2, 2, 3, 9)


def test_walks_from_puzzles_and_random_placements_give_more_reproducibly(
    puzzles: list[Puzzle], small_tables: dict[str, Tables], tables_root: Path
) -> None:
    """Walks on from the games' puzzles find others, each a real record the tables prove,
    none twice up to symmetry nor one of the starts; random placements find placement
    puzzles by the solved board; the same seed finds the same."""
    tables = small_tables["shax-small"]
    solved = open_solved("shax-small", tables_root)
    assert solved is not None
    starts = {canonical(p.position()) for p in puzzles}

    def walked(seed: int) -> list[Puzzle]:
        return list(from_walks(tables, None, seed, set(starts), puzzles, walks=60))

    found = walked(4)
    assert len(found) >= 10 and found == walked(4) and found != walked(5)
    keys = [canonical(p.position()) for p in found]
    assert len(set(keys)) == len(keys) and not set(keys) & starts
    for puzzle in found:
        assert check(tables, puzzle) == [], puzzle
        assert puzzle.position().step is Step.MOVE
    placed = list(from_placements(tables, solved, 4, set(), games=40))
    assert placed and placed == list(from_placements(tables, solved, 4, set(), games=40))
    for puzzle in placed:
        assert puzzle.position().phase is not Phase.MOVEMENT
        assert check(tables, puzzle, solved) == [], puzzle


def test_the_depth_is_what_a_search_counting_stones_needs() -> None:
    """A win in one by a capture is seen at once; a quiet move whose capture comes a move
    later needs a deeper look, and the moves that look as good until then tempt."""
    position = Position.setup("shax-small", ["a1", "a3", "c5", "e1"], ["b3", "d4", "c1"], "white")
    assert grade(position, position.parse("c5-a5")) == (1, 0)
    quiet = Position.setup(
        "shax-small", ["e5", "a5", "b4", "d3", "d4"], ["a3", "e3", "a1", "b3"], "white"
    )
    depth, tempting = grade(quiet, quiet.parse("d4-c4"))
    assert depth >= 2 and tempting >= 1


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


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "puzzles", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_the_puzzles_command_prints_json_lines(tables_root: Path, tmp_path: Path) -> None:
    command = ("--variant", "shax-small", "--count", "5", "--games", "6", "--seed", "2")
    command += ("--walks", "40", "--placements", "60")
    done = run(*command, "--tables", str(tables_root))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert 3 <= len(lines) <= 5
    puzzles = [Puzzle.from_json(json.loads(line)) for line in lines]
    fields = {"record", "solution", "moves", "depth", "tempting", "rating", "themes", "proof"}
    assert fields <= set(json.loads(lines[0]))
    n = len(lines)
    assert f"shax-small: {n} puzzles, {n} distinct up to symmetry" in done.stderr
    # The same seed, the same puzzles; and a file of them checks.
    again = run(*command, "--tables", str(tables_root))
    assert again.stdout == done.stdout
    path = tmp_path / "p.jsonl"
    path.write_text(done.stdout + json.dumps({**puzzles[0].to_json(), "moves": 9}) + "\n")
    checked = run("--variant", "shax-small", "--tables", str(tables_root), "--check", str(path))
    assert checked.returncode == 1
    assert f"{path}:{n + 1}: the win takes" in checked.stdout
    assert f"{n} of {n + 1} puzzles are right." in checked.stdout


def test_the_puzzles_command_says_what_to_build(tmp_path: Path) -> None:
    done = run("--variant", "shax", "--tables", str(tmp_path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"build them with python -m engine.tables build --dir {tmp_path}." in done.stderr


@pytest.mark.parametrize(
    ("white", "black", "to_move"),
    [
        ("b3 b4 c1 c4 c5 e1", "a1 a3 d4", "white"),
        ("a1 a5 c4", "b2 b4 c5 d3 e3 e5", "black"),
    ],
)
def test_no_puzzle_leans_on_the_100_move_count(
    white: str, black: str, to_move: str, small_tables: dict[str, Tables]
) -> None:
    """Every move wins these boards, the quickest in 3: at 97 moves without a capture
    only the quickest wins before the count draws, which once made them puzzles."""
    tables = small_tables["shax-small"]
    fresh = Position.setup("shax-small", white.split(), black.split(), to_move)
    late = Position.setup("shax-small", white.split(), black.split(), to_move, clock=97)
    for step in steps(fresh):
        value = tables.probe(after(fresh, step))
        assert value is not None and value.result == "loss"  # for the defence: a win
    quick = []
    for step in steps(late):
        value = tables.probe(after(late, step))
        assert value is not None
        quick += [step] if value.in_time(late.clock + 1) else []
    assert len(quick) == 1
    assert solve(tables, fresh) is None
    assert solve(tables, late) is None
