"""master plays by the tables: it converts won endings, defends lost ones, and says so."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.ai import choose_action
from engine.ai.levels import LEVEL_TABLE
from engine.ai.player import choose_for_position
from engine.position import Kind, Position
from engine.tables import Tables, forget_open_tables, native, open_tables, table_action
from engine.variants import Color
from tests.engine.tables.positions import random_positions

MASTER = LEVEL_TABLE["master"]


def play_out(position: Position, table_side: int, rng: random.Random) -> tuple[Position, int]:
    """master plays one side, random legal actions the other; returns the end and the
    moves played (a removal rides with its move)."""
    moves = 0
    while position.outcome is None:
        if position.turn == table_side:
            answer = choose_for_position(position, MASTER, movetime=2.0)
            assert answer.source == "table"
            action = position.parse(answer.action)
        else:
            action = rng.choice(position.legal_actions())
        position = position.play(action)
        moves += action.kind is Kind.MOVE
    return position, moves


def test_master_converts_a_won_ending_within_its_distance(
    use_tables: Path, small_tables: dict[str, Tables]
) -> None:
    tables = small_tables["shax"]
    rng = random.Random(23)
    games = 0
    for start in random_positions("shax", 200, seed=29):
        value = tables.probe(start)
        assert value is not None
        if value.result != "win" or games >= 12:
            continue
        games += 1
        end, moves = play_out(start, start.turn, rng)
        assert end.outcome is not None and end.outcome.winner == Color(start.turn)
        assert moves <= value.moves
    assert games == 12


def test_master_defends_a_lost_ending_for_its_whole_distance(
    use_tables: Path, small_tables: dict[str, Tables]
) -> None:
    tables = small_tables["shax"]
    games = 0
    for start in random_positions("shax", 200, seed=31):
        value = tables.probe(start)
        assert value is not None
        if value.result != "loss" or games >= 8:
            continue
        games += 1
        # The winner plays by the tables too: the game lasts exactly the distance.
        position, moves = start, 0
        while position.outcome is None:
            answer = table_action(position, tables)
            assert answer is not None
            if position.turn == start.turn:
                chosen = choose_for_position(position, MASTER, movetime=2.0)
                assert chosen.action == answer.action.notation(position.variant)
            position = position.play(answer.action)
            moves += answer.action.kind is Kind.MOVE
        assert moves == value.moves
    assert games == 8


def test_master_says_its_answer_comes_from_the_tables(use_tables: Path) -> None:
    position = Position.setup("shax", "a7 d7 b6 f4", "g1 d1 c3", "white")
    found = choose_for_position(position, MASTER, movetime=1.0)
    value = open_tables("shax")
    assert value is not None
    probe = value.probe(position)
    assert probe is not None
    assert found.source == "table" and found.depth == 0
    assert found.score == probe.score


def test_other_levels_search_even_where_tables_exist(use_tables: Path) -> None:
    position = Position.setup("shax", "a7 d7 b6 f4", "g1 d1 c3", "white")
    for level in ("easy", "medium", "hard"):
        found = choose_for_position(position, LEVEL_TABLE[level], seed=1, depth=2)
        assert found.source == "search" and found.table_hits == 0


def test_master_probes_inside_its_search_outside_the_tables(use_tables: Path) -> None:
    position = Position.setup("shax", "b2 b6 a4 g7", "d1 g1 c3 f2 e5", "white")
    found = choose_for_position(position, MASTER, depth=3)
    assert found.source == "search"
    assert found.table_hits > 0
    assert found.action == "a4-b4"


def test_without_the_table_library_master_plays_by_search(
    use_tables: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing() -> bool:
        return False

    monkeypatch.setattr(native, "available", missing)
    forget_open_tables()
    assert open_tables("shax") is None
    position = Position.setup("shax", "a7 d7 b6 f4", "g1 d1 c3", "white")
    found = choose_for_position(position, MASTER, depth=3)
    assert found.source == "search" and found.table_hits == 0


def test_bestmove_reports_a_table_answer(use_tables: Path) -> None:
    # Jar: after the six placements the stones move, and every such position is tabled.
    record = "a1 b1 c2 a2 b3 c3"
    assert choose_action("jar", record, "master").source == "table"
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "bestmove", "--variant", "jar", "--level", "master"],
        input=record + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(proc.stdout)
    assert answer["source"] == "table" and answer["depth"] == 0
    assert answer["action"] in Position.initial("jar").variant.points or "-" in answer["action"]
