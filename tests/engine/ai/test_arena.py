"""The arena: paired games with colours swapped, and the Elo arithmetic."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import arena
from engine.ai import core
from engine.ai.levels import weights_for
from engine.arena import (
    BALANCE,
    GameResult,
    Player,
    balanced_opening,
    baselines,
    elo,
    elo_interval,
    engine_for,
    main,
    opening,
    pair_interval,
    pair_scores,
    parse_player,
    resolve_revision,
    run_match,
    summarize,
    tables_folder,
)
from engine.position import Position
from engine.record import replay
from engine.tables import TABLES_ENV, tables_dir
from engine.variants import Color


def test_elo_of_even_and_lopsided_scores() -> None:
    assert elo(0.5) == 0
    assert round(elo(0.75)) == 191
    mid, lo, hi = elo_interval([1.0] * 40)
    assert lo > 350 and mid > hi - 1  # a clean sweep still has a finite lower bound
    mid, lo, hi = elo_interval([1.0, 0.0] * 20)
    assert lo < 0 < hi and mid == 0


def test_pairs_are_scored_as_units() -> None:
    """Pairs that split 1-1 (the colour decided) carry no noise; a pair-based interval is
    then narrower than one that counts the games as independent."""
    mid, lo, hi = pair_interval([0.5] * 40 + [1.0] * 10)
    g_mid, g_lo, g_hi = elo_interval([1.0, 0.0] * 40 + [1.0, 1.0] * 10)
    assert round(mid) == round(g_mid) == round(elo(0.6))
    assert g_lo < lo < mid < hi < g_hi
    assert pair_interval([0.5, 0.5]) == (0.0, 0.0, 0.0)
    mid, lo, hi = pair_interval([1.0])  # one pair: no spread to estimate
    assert lo < 0 < hi


def result(index: int, a_color: Color, winner: Color | None) -> GameResult:
    return GameResult(index, a_color, winner, "two pieces left", 60, "", 1.0, 30, 1.0, 30)


def test_pair_scores_average_each_complete_pair() -> None:
    w, b = Color.WHITE, Color.BLACK
    games = [result(0, w, w), result(1, b, w), result(2, w, w), result(3, b, b), result(4, w, None)]
    assert pair_scores(games) == [0.5, 1.0]  # the unpaired fifth game is left out
    report = summarize(Player("hard"), Player("medium"), games)
    assert "by pairs: 2 pairs (0, 1/2, 1, 3/2, 2 points: 0 0 1 0 1)" in report


def test_openings_are_legal_and_seeded() -> None:
    first = opening("shax", 5, random.Random(3))
    assert first == opening("shax", 5, random.Random(3))
    position = Position.initial("shax")
    for action in first:
        position = position.apply(action)
    assert len(first) == 5 and position.outcome is None


def test_match_pairs_openings_and_swaps_colours() -> None:
    easy, rand = Player("easy", depth=1), Player("random")
    results = run_match(
        "shax-small", easy, rand, 4, seed=1, workers=1, min_open=2, max_open=4, verbose=False
    )
    assert [r.index for r in results] == [0, 1, 2, 3]
    assert [r.a_color for r in results] == [Color.WHITE, Color.BLACK] * 2
    for r in results:
        assert r.record.split()[:2] == results[r.index - r.index % 2].record.split()[:2]
    assert "4 games" in summarize(easy, rand, results)


def test_records_are_written_and_the_colours_score_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    argv = ["--a", "easy", "--b", "random", "--variant", "shax-small", "--games", "4"]
    assert main([*argv, "--depth-a", "1", "--workers", "1", "--quiet", "--records", str(path)]) == 0
    games = [json.loads(line) for line in path.read_text().splitlines()]
    assert [g["game"] for g in games] == [1, 2, 3, 4]
    assert [g["white"] for g in games] == ["easy@d1", "random"] * 2
    white = 0.0
    for g in games:
        position = replay("shax-small", g["record"])
        assert position.outcome is not None and g["variant"] == "shax-small"
        winner = position.outcome.winner
        assert g["winner"] == (None if winner is None else winner.label)
        assert g["termination"] == position.outcome.termination.value
        white += 0.5 if winner is None else float(winner is Color.WHITE)
    assert f"white scored {100 * white / 4:.0f}%" in capsys.readouterr().out


def test_a_records_file_that_cannot_be_written_is_named_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "no-such-folder" / "games.jsonl"
    with pytest.raises(SystemExit) as stop:
        main(["--a", "easy", "--b", "random", "--variant", "jar", "--records", str(path)])
    assert stop.value.code == 2
    out = capsys.readouterr()
    assert f"--records: cannot write {path}" in out.err and "game" not in out.out


def test_a_tables_folder_is_set_inside_and_restored_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHAX_TABLES_DIR", str(tmp_path / "shared"))
    with tables_folder(str(tmp_path / "mine")):
        assert tables_dir() == tmp_path / "mine"
    assert tables_dir() == tmp_path / "shared"
    with tables_folder(None):
        assert tables_dir() == tmp_path / "shared"
    monkeypatch.delenv("SHAX_TABLES_DIR")
    with tables_folder(str(tmp_path / "mine")):
        assert tables_dir() == tmp_path / "mine"
    assert tables_dir() != tmp_path / "mine"


def test_each_side_chooses_its_moves_with_its_own_tables_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TABLES_ENV, str(tmp_path / "shared"))
    seen: dict[str, set[Path]] = {"a": set(), "b": set()}
    real = arena.choose_action

    def choose(variant: str, record: list[str], level: str, **kw: Any) -> Any:
        seen["a" if level == "easy" else "b"].add(tables_dir())
        return real(variant, record, level, **kw)

    monkeypatch.setattr(arena, "choose_action", choose)
    a = Player("easy", depth=1, tables=str(tmp_path / "a"))
    b = Player("hard", depth=1)
    arena.play_game("jar", a, b, Color.WHITE, [], seed=3, index=0)
    assert seen == {"a": {tmp_path / "a"}, "b": {tmp_path / "shared"}}


def test_a_tables_folder_that_is_not_there_is_named_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-tables"
    with pytest.raises(SystemExit) as stop:
        main(["--a", "easy", "--b", "random", "--variant", "jar", "--tables-b", str(missing)])
    assert stop.value.code == 2
    out = capsys.readouterr()
    assert f"--tables-b: {missing} is not a folder" in out.err and "game" not in out.out


def test_baseline_names_are_parsed_and_bad_ones_named() -> None:
    assert parse_player("baseline@abc123") == Player("master", revision="abc123")
    assert parse_player("baseline@main:hard") == Player("hard", revision="main")
    assert parse_player("easy") == Player("easy")
    for bad in ("grandmaster", "baseline@", "baseline@main:expert"):
        with pytest.raises(argparse.ArgumentTypeError, match="baseline@REV"):
            parse_player(bad)


def test_unknown_revision_is_named() -> None:
    with pytest.raises(RuntimeError, match="no-such-revision"):
        resolve_revision("no-such-revision")


def test_balanced_openings_are_balanced() -> None:
    rng = random.Random(5)
    for _ in range(3):
        start = balanced_opening("shax-small", 4, rng)
        position = Position.initial("shax-small")
        for action in start:
            position = position.apply(action)
        params = core.make_params(weights_for("shax-small"), max_depth=4, tt_log2=16)
        assert abs(core.search(position, params).score) <= BALANCE


@pytest.mark.process
def test_match_against_the_baseline_at_head_runs_in_its_own_process(tmp_path: Path) -> None:
    """The plumbing: HEAD extracted, built and played as another process, colours swapped,
    with the tables folder it is given."""
    us = Player("master", depth=2)
    theirs = Player("master", depth=2, revision="HEAD", tables=str(tmp_path))
    with baselines(us, theirs) as (a, b):
        assert b.tree is not None and Path(b.tree, "engine", "ai", "_core.c").exists()
        assert b.revision == resolve_revision("HEAD")[:10] and b.tables == str(tmp_path)
        environ = Path(f"/proc/{engine_for(b.tree, b.tables).proc.pid}/environ").read_bytes()
        assert f"SHAX_TABLES_DIR={tmp_path}".encode() in environ.split(b"\0")
        results = run_match(
            "shax-small", a, b, 2, seed=2, workers=1, min_open=2, max_open=4, verbose=False
        )
        tree = b.tree
    assert not Path(tree).exists()  # the temporary tree is removed afterwards
    assert [r.a_color for r in results] == [Color.WHITE, Color.BLACK]
    for r in results:
        assert r.b_moves > 0 and r.plies == len(r.record.split())
    report = summarize(a, b, results)
    assert f"baseline@{b.revision}:master@d2" in report and "2 games" in report
