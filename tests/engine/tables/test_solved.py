"""The small boards solved whole: placement and opening removals checked against minimax
over the engine's own positions, and master, bestmove and the review playing by them."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest

from engine.ai.levels import LEVEL_TABLE
from engine.ai.player import choose_for_position
from engine.analysis import analyse_record
from engine.position import Phase, Position, Step
from engine.tables import Probe, Tables
from engine.tables.__main__ import main
from engine.tables.solved import (
    Solved,
    open_solved,
    read_solved_info,
    solve,
    solved_action,
    solved_scores,
)
from engine.variants import get_variant, iter_bits

MASTER = LEVEL_TABLE["master"]

Key = tuple[int, int, int, Step]


def key(position: Position) -> Key:
    return (position.white, position.black, position.turn, position.step)


def worth(position: Position, child: Position, value: Probe) -> Probe:
    """``value``, of ``child`` for the player who acts there, for the one who acts in
    ``position``."""
    return value if child.turn == position.turn else value.flipped()


def best(values: list[Probe]) -> Probe:
    return max(values, key=lambda p: p.rank())


def one_more(value: Probe) -> Probe:
    return value if value.result == "draw" else Probe(value.result, value.moves + 1)


def end_value(position: Position, child: Position) -> Probe | None:
    """The finished game's value for the player who acts in ``position``."""
    if child.outcome is None:
        return None
    winner = child.outcome.winner
    if winner is None:
        return Probe("draw", 0)
    return Probe("win" if winner.value == position.turn else "loss", 0)


def jar_movement_values() -> dict[Key, Probe]:
    """Every jar movement position valued by retrograde analysis over Position.play: a
    win in d has a move to a loss in d - 1 (or a winning move, d = 1), a loss in d has
    every move to a win in at most d - 1, one of them in d - 1; the rest are draws."""
    v = get_variant("jar")
    states: dict[Key, Position] = {}
    for stones in combinations(v.points, 6):
        for white in combinations(stones, 3):
            black = [p for p in stones if p not in white]
            for to_move in ("white", "black"):
                position = Position.setup(v, white, black, to_move)
                if position.outcome is None:
                    states[key(position)] = position
    children = {k: [(p, p.play(a)) for a in p.legal_actions()] for k, p in states.items()}
    values: dict[Key, Probe] = {}
    level = 0
    while True:
        level += 1
        decided: dict[Key, Probe] = {}
        for k, pairs in children.items():
            if k in values:
                continue
            seen: list[Probe | None] = []
            for parent, child in pairs:
                end = end_value(parent, child)
                if end is not None:
                    seen.append(end)
                    continue
                found = values.get(key(child))
                seen.append(None if found is None else worth(parent, child, found))
            wins = [s.moves + 1 for s in seen if s is not None and s.result == "win"]
            if wins and min(wins) == level:
                decided[k] = Probe("win", level)
            elif all(s is not None and s.result == "loss" for s in seen):
                longest = max(s.moves + 1 for s in seen if s is not None)
                if longest == level:
                    decided[k] = Probe("loss", level)
        if not decided:
            break
        values.update(decided)
    for k in children:
        values.setdefault(k, Probe("draw", 0))
    return values


@cache
def jar_values() -> tuple[dict[Key, Probe], dict[Position, Probe]]:
    """The movement values and every placement position's, by minimax from the start."""
    movement = jar_movement_values()
    placement: dict[Position, Probe] = {}

    def value(position: Position) -> Probe:
        if position.phase is Phase.MOVEMENT:
            return movement[key(position)]
        if position in placement:
            return placement[position]
        found = best(
            [
                one_more(worth(position, child, value(child)))
                for child in (position.play(a) for a in position.legal_actions())
            ]
        )
        placement[position] = found
        return found

    value(Position.initial("jar"))
    return movement, placement


def brute_force(tables: Tables, position: Position) -> Probe:
    """A shax-small placement or opening removal valued by minimax over Position to the
    movement start, and the movement tables there."""
    if position.phase is Phase.MOVEMENT:
        found = tables.probe(position)
        assert found is not None
        return found
    values = []
    for action in position.legal_actions():
        child = position.play(action)
        after = worth(position, child, brute_force(tables, child))
        values.append(after if position.phase is Phase.REMOVAL else one_more(after))
    return best(values)


def random_placement(variant: str, stones: int, rng: random.Random) -> Position:
    position = Position.initial(variant)
    for _ in range(stones):
        position = position.play(rng.choice(position.legal_actions()))
    return position


@pytest.fixture
def solved_boards(small_tables: dict[str, Tables], tables_root: Path) -> dict[str, Solved]:
    out = {}
    for variant in ("jar", "shax-small"):
        found = open_solved(variant, tables_root)
        assert found is not None
        out[variant] = found
    return out


def test_jar_every_movement_position_has_the_value_of_a_retrograde_analysis_of_the_rules(
    small_tables: dict[str, Tables],
) -> None:
    movement, _ = jar_values()
    tables = small_tables["jar"]
    assert len(movement) > 3000
    for (white, black, turn, step), expected in movement.items():
        assert tables.probe_board(white, black, turn, step) == expected


def test_jar_every_placement_position_has_the_value_of_a_full_minimax(
    solved_boards: dict[str, Solved], tables_root: Path
) -> None:
    _, placement = jar_values()
    solved = solved_boards["jar"]
    assert len(placement) > 1000
    for position, expected in placement.items():
        assert solved.probe(position) == expected, position
    info = read_solved_info(tables_root, "jar")
    assert info is not None
    assert info.start == placement[Position.initial("jar")]


@pytest.mark.parametrize("stones", [15, 14, 13, 12])
def test_shax_small_placement_near_the_end_agrees_with_brute_force(
    solved_boards: dict[str, Solved], small_tables: dict[str, Tables], stones: int
) -> None:
    rng = random.Random(stones)
    solved, tables = solved_boards["shax-small"], small_tables["shax-small"]
    for _ in range(6 if stones < 14 else 12):
        position = random_placement("shax-small", stones, rng)
        assert solved.probe(position) == brute_force(tables, position), position


def test_shax_small_opening_removals_agree_with_brute_force(
    solved_boards: dict[str, Solved], small_tables: dict[str, Tables]
) -> None:
    rng = random.Random(5)
    solved, tables = solved_boards["shax-small"], small_tables["shax-small"]
    kinds = set()
    for _ in range(12):
        position = random_placement("shax-small", 16, rng)
        if rng.random() < 0.5:
            position = position.play(rng.choice(position.legal_actions()))
        assert position.phase is Phase.REMOVAL
        kinds.add((position.white | position.black).bit_count())
        assert solved.probe(position) == brute_force(tables, position), position
    assert kinds == {15, 16}


def test_each_placement_value_is_the_best_of_its_actions_one_move_on(
    solved_boards: dict[str, Solved],
) -> None:
    rng = random.Random(7)
    solved = solved_boards["shax-small"]
    for stones in range(0, 16, 3):
        position = random_placement("shax-small", stones, rng)
        scored = solved_scores(position, solved)
        assert scored is not None and len(scored) == 16 - stones
        assert solved.probe(position) == best([one_more(v) for _, v in scored])


def test_symmetric_placements_have_the_same_value(solved_boards: dict[str, Solved]) -> None:
    from engine.tables.native import symmetries

    v = get_variant("shax-small")
    rng = random.Random(11)
    solved = solved_boards["shax-small"]
    for stones in (4, 9, 13):
        position = random_placement("shax-small", stones, rng)
        for image in symmetries(v):

            def moved(mask: int, image: tuple[int, ...] = image) -> int:
                return sum(1 << image[p] for p in iter_bits(mask))

            twin = Position(
                v,
                moved(position.white),
                moved(position.black),
                position.hand,
                position.turn,
                position.phase,
                position.step,
                position.first_jare_index,
            )
            assert solved.probe(twin) == solved.probe(position)


def test_the_first_jare_decides_who_removes_first(solved_boards: dict[str, Solved]) -> None:
    # The same stones, with and without a first jare, are different positions.
    rng = random.Random(3)
    solved = solved_boards["shax-small"]
    differs = 0
    for _ in range(40):
        position = random_placement("shax-small", 16, rng)
        if position.first_jare_index < 0:
            continue
        other = 1 - position.first_jare_index
        swapped = Position(
            position.variant,
            position.white,
            position.black,
            position.hand,
            other,
            Phase.REMOVAL,
            Step.REMOVE,
            other,
        )
        a, b = solved.probe(position), solved.probe(swapped)
        if b is not None and a is not None and a.flipped() != b:
            differs += 1
    assert differs > 0


def test_movement_positions_and_other_boards_are_not_in_the_solved_file(
    solved_boards: dict[str, Solved], tables_root: Path
) -> None:
    solved = solved_boards["jar"]
    moving = Position.setup("jar", "a1 b2 c1", "a3 b3 c3", "white")
    assert solved.probe(moving) is None
    assert solved_action(moving, solved) is None
    assert open_solved("shax", tables_root) is None
    with pytest.raises(ValueError, match="shax-small"):
        solve("shax", tables_root)


@pytest.mark.parametrize("variant", ["jar", "shax-small"])
def test_master_plays_the_solved_best_action_from_the_first_stone(
    use_tables: Path, solved_boards: dict[str, Solved], variant: str
) -> None:
    solved = solved_boards[variant]
    position = Position.initial(variant)
    while position.phase is not Phase.MOVEMENT:
        found = choose_for_position(position, MASTER, movetime=1.0)
        assert found.source == "table" and found.depth == 0
        value = solved.probe(position)
        assert value is not None and found.score == value.score
        child = position.play(position.parse(found.action))
        after = solved.value(child)
        assert after is not None
        # The action keeps the position's value: it is one of the best.
        kept = worth(position, child, after)
        assert (kept if position.phase is Phase.REMOVAL else one_more(kept)) == value
        position = child


def test_bestmove_reports_the_solved_value_on_the_empty_board(
    use_tables: Path, tables_root: Path
) -> None:
    info = read_solved_info(tables_root, "shax-small")
    assert info is not None
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "bestmove",
            "--variant",
            "shax-small",
            "--level",
            "master",
        ],
        input="\n",
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(proc.stdout)
    assert answer["source"] == "table" and answer["depth"] == 0
    assert answer["score"] == info.start.score
    assert answer["action"] in get_variant("shax-small").points


def test_a_review_scores_placement_exactly_and_names_the_reply_that_loses(
    use_tables: Path, solved_boards: dict[str, Solved]
) -> None:
    solved = solved_boards["shax-small"]
    start = Position.initial("shax-small")
    opening = start.play(start.parse("a1"))
    replies = solved_scores(opening, solved)
    assert replies is not None
    losing = next(a for a, v in replies if v.result == "loss")
    record = ["a1", losing.notation(opening.variant)]
    reviews = analyse_record("shax-small", record)
    assert [r.source for r in reviews] == ["table", "table"]
    first, second = reviews
    assert first.loss == 0 and first.best_score == 0  # every first stone draws
    assert second.walked_into_loss and second.loss > 0
    after = solved.probe(opening.play(losing))
    assert after is not None and after.result == "win"
    assert second.score == -one_more(after).score


def test_the_solve_command_solves_a_board_and_info_shows_its_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "--variant", "jar", "--dir", str(tmp_path), "--threads", "1"]) == 0
    said = capsys.readouterr().err
    assert "jar placement solved: 567 positions" in said
    assert said.rstrip().endswith("with perfect play, a draw")
    assert open_solved("jar", tmp_path) is not None
    assert main(["info", "--dir", str(tmp_path)]) == 0
    assert "jar placement solved" in capsys.readouterr().out


@pytest.mark.parametrize("variant", ["jar", "shax-small"])
def test_the_rules_pages_publish_the_solved_value_of_the_start(
    tables_root: Path, variant: str
) -> None:
    info = read_solved_info(tables_root, variant)
    assert info is not None
    docs = Path(__file__).resolve().parents[3] / "docs"
    english, somali = (
        " ".join((docs / name).read_text(encoding="utf-8").split())
        for name in ("RULES.md", "RULES.so.md")
    )
    assert f"With perfect play, {variant} is {info.verdict}." in english
    words = {"a draw": "barbaro"}
    assert f"loo ciyaaro, {variant} waa {words[info.verdict]}." in somali
    for text in (english, somali):
        assert f"{info.header.positions:,} placement" in text or (
            f"{info.header.positions:,} xaaladood" in text
        )
        assert f"takes {info.header.longest_win} moves" in text or (
            f"qaadataa {info.header.longest_win} dhaqaaq" in text
        )


def drawing(solved: Solved, position: Position) -> set[str]:
    scored = solved_scores(position, solved)
    assert scored is not None
    return {a.notation(position.variant) for a, v in scored if v.result == "draw"}


def test_the_first_stones_play_as_the_rules_pages_say(solved_boards: dict[str, Solved]) -> None:
    small = solved_boards["shax-small"]
    start = Position.initial("shax-small")
    assert drawing(small, start) == set(start.variant.points)
    replies = {
        "a1": {"a5", "e1", "e5"},
        "a3": {"a1", "a5", "e1", "e5", "e3", "b3"},
        "b2": {"b4", "d2", "d4"},
        "b3": {"b2", "b4", "d2", "d4", "d3", "a3"},
    }
    for first, holding in replies.items():
        assert drawing(small, start.apply(first)) == holding
    jar = solved_boards["jar"]
    start = Position.initial("jar")
    assert drawing(jar, start) == set(start.variant.points)
    for stone in start.legal_actions():
        assert len(drawing(jar, start.play(stone))) == 8  # every reply draws
    # From white's second stone on, a placement can lose.
    seconds = [
        p.play(a) for p in (start.play(b) for b in start.legal_actions()) for a in p.legal_actions()
    ]
    assert any(len(drawing(jar, p)) < 7 for p in seconds)


def test_a_start_that_is_won_or_lost_is_said_with_its_moves(tables_root: Path) -> None:
    info = read_solved_info(tables_root, "jar")
    assert info is not None
    said = [replace(info, start=Probe(result, 41)).verdict for result in ("win", "loss")]
    assert said == ["white wins in 41", "white loses in 41"]
    assert replace(info, start=Probe("draw", 0)).verdict == "a draw"
