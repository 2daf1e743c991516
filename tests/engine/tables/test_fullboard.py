"""The full-board values: every board the placement can end on, searched ahead of time,
read by master's search as leaves at the end of the placement."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb
from pathlib import Path

import pytest

from engine.ai import core
from engine.ai.levels import LEVEL_TABLE, weights_for
from engine.ai.player import choose_for_position
from engine.position import Phase, Position
from engine.tables.__main__ import main
from engine.tables.fullboard import (
    HEADER,
    FullBoardError,
    build_full_board,
    colex_rank,
    full_board_path,
    full_board_position,
    orbits,
    read_full_board_info,
)
from engine.tables.native import symmetries
from engine.tables.shipping import full_board_values
from engine.variants import get_variant

SMALL = get_variant("shax-small")
DEPTH = 4


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("full")
    build_full_board(SMALL, DEPTH, root, workers=2)
    return root


def at_ply(value: int, ply: int) -> int:
    """A stored value seen ``ply`` plies from the root (a win found there is further on)."""
    if value > 29000:
        return value - ply
    if value < -29000:
        return value + ply
    return value


def values_of(root: Path) -> list[int]:
    raw = full_board_path(root, SMALL).read_bytes()
    return [
        int.from_bytes(raw[i : i + 2], "little", signed=True)
        for i in range(HEADER.size, len(raw), 2)
    ]


def test_colex_rank_counts_the_sets_in_the_order_of_their_masks() -> None:
    masks = sorted(sum(1 << p for p in c) for c in combinations(range(16), 8))
    assert [colex_rank(m) for m in masks] == list(range(comb(16, 8)))


def test_the_classes_cover_every_full_board_once_and_are_closed_under_symmetry() -> None:
    classes = list(orbits(SMALL))
    assert len(classes) == 874
    ranks = [r for _, rs in classes for r in rs]
    assert sorted(ranks) == list(range(comb(16, 8)))
    for mask, rs in random.Random(3).sample(classes, 50):
        images = {sum(1 << s[p] for p in range(16) if mask >> p & 1) for s in symmetries(SMALL)}
        assert sorted(colex_rank(m) for m in images) == rs


def test_each_value_is_the_search_of_its_board_and_its_symmetric_boards_share_it(
    built: Path,
) -> None:
    values = values_of(built)
    params = core.make_params(weights_for(SMALL.id), max_depth=DEPTH, tt_log2=18)
    for mask, ranks in orbits(SMALL):
        expected = core.c_search(full_board_position(SMALL, mask), params).score
        assert {values[r] for r in ranks} == {expected}


def placement_with_two_left(rng: random.Random) -> Position:
    position = Position.initial(SMALL)
    while position.in_hand(0) + position.in_hand(1) > 2:
        position = position.play(rng.choice(position.legal_actions()))
    return position


def test_the_search_reads_the_value_the_builder_wrote_for_either_remover(built: Path) -> None:
    """Two placements left: the search to their end must give the minimax of the values
    the builder stored, whoever formed the first jare (or nobody: black removes first)."""
    values = values_of(built)
    table = full_board_values(SMALL, built)
    assert table is not None
    rng = random.Random(11)
    removers = set()
    for _ in range(60):
        root = placement_with_two_left(rng)
        outcomes = []
        for mine in root.legal_actions():
            after = root.play(mine)
            (last,) = after.legal_actions()
            full = after.play(last)
            assert full.phase is Phase.REMOVAL
            removers.add(full.turn)
            stones = full.white if full.turn == 0 else full.black
            value = at_ply(values[colex_rank(stones)], 2)
            outcomes.append(value if full.turn == root.turn else -value)
        params = core.make_params(weights_for(SMALL.id), max_depth=2, tt_log2=16, full_board=table)
        assert core.c_search(root, params).score == max(outcomes)
    assert removers == {0, 1}


def test_master_plays_the_placement_by_the_values(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHAX_TABLES_DIR", str(built))
    values = values_of(built)
    rng = random.Random(5)
    for _ in range(20):
        root = placement_with_two_left(rng)
        best = {}
        for mine in root.legal_actions():
            after = root.play(mine)
            full = after.play(after.legal_actions()[0])
            stones = full.white if full.turn == 0 else full.black
            value = at_ply(values[colex_rank(stones)], 2)
            best[mine.notation(SMALL)] = value if full.turn == root.turn else -value
        answer = choose_for_position(root, LEVEL_TABLE["master"], movetime=1.0)
        assert answer.score == max(best.values())
        assert best[answer.action] == answer.score


def test_values_searched_with_another_evaluation_or_damaged_give_way_to_the_shipped_ones(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = full_board_path(built, SMALL).read_bytes()
    stale = tmp_path / "stale"
    path = full_board_path(stale, SMALL)
    path.parent.mkdir(parents=True)
    digest_at = HEADER.size - 16
    path.write_bytes(raw[:digest_at] + bytes(16) + raw[HEADER.size :])
    shipped = full_board_values(SMALL, tmp_path / "none")  # what the package ships
    assert shipped is not None and list(shipped) != values_of(built)
    assert full_board_values(SMALL, stale) is shipped
    info = read_full_board_info(stale, SMALL)
    assert info is not None and info.stale
    assert main(["info", "--dir", str(stale)]) == 0
    assert "stale" in capsys.readouterr().out

    damaged = tmp_path / "damaged"
    path = full_board_path(damaged, SMALL)
    path.parent.mkdir(parents=True)
    path.write_bytes(raw[:-2])
    assert full_board_values(SMALL, damaged) is shipped
    assert read_full_board_info(damaged, SMALL) is None


def test_the_command_searches_with_progress_and_info_describes_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["full", "--variant", "shax-small", "--depth", "3", "--dir", str(tmp_path)]
    assert main([*args, "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert "searching every full shax-small board to 3 plies" in err
    assert "874/874 searched (100%)" in err
    assert "shax-small full boards: 874 up to symmetry (12,870 entries" in err
    info = read_full_board_info(tmp_path, SMALL)
    assert info is not None and not info.stale
    assert (info.depth, info.boards, info.entries) == (3, 874, 12870)
    assert info.ahead + info.even + info.behind == 12870
    assert info.size == HEADER.size + 2 * 12870
    assert main(["info", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "shax-small full boards: 874 up to symmetry" in out
    assert "no endgame tables yet" in out


def test_bad_requests_are_refused_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["full", "--variant", "shax-small", "--depth", "0", "--dir", str(tmp_path)]) == 1
    assert "between 1 and 40 plies" in capsys.readouterr().err
    assert not (tmp_path / "shax-small").exists()
    with pytest.raises(FullBoardError, match="choose shax or shax-small"):
        build_full_board("jar", 3, tmp_path)
    with pytest.raises(SystemExit):
        main(["full", "--variant", "jar"])
    assert "invalid choice: 'jar'" in capsys.readouterr().err
