"""What a tables folder lacks for full strength, and building it: whole files, a build
that resumes where it stopped, and no build on a disk without room for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.tables import fullboard, missing, shipping
from engine.tables.__main__ import main
from engine.tables.fullboard import (
    build_full_board,
    full_board_path,
    progress_path,
    read_full_board_info,
)
from engine.tables.missing import SMALL_BOARDS, build_missing, missing_work
from engine.tables.solved import open_solved
from engine.variants import get_variant

DEPTH = 3
SMALL = get_variant("shax-small")


class Stop(Exception):
    """Stands for the bot stopping in the middle of a build."""


@pytest.fixture
def nothing_shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The package ships no full-board values: every one is built."""
    monkeypatch.setattr(shipping, "SHIPPED_DIR", tmp_path / "nothing shipped")


@pytest.mark.usefixtures("nothing_shipped")
def test_an_empty_folder_lacks_every_table_and_value_smallest_first(tmp_path: Path) -> None:
    work = missing_work(tmp_path)
    assert [(w.variant, w.kind) for w in work] == [
        ("jar", "tables"),
        ("jar", "solved"),
        ("shax-small", "tables"),
        ("shax-small", "solved"),
        ("shax-small", "full-board"),
        ("shax", "tables"),
        ("shax", "full-board"),
    ]
    sizes = {(w.variant, w.kind): w.bytes_needed for w in work}
    assert 200e6 < sizes["shax", "tables"] < 300e6  # six against at most five
    assert sizes["jar", "tables"] < sizes["shax-small", "tables"] < sizes["shax", "tables"]


def test_a_stopped_full_board_search_resumes_where_it_stopped(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    build_full_board("shax-small", DEPTH, fresh, workers=1)
    stopped = tmp_path / "stopped"

    def stop_after_two_jobs(searched: int, total: int) -> None:
        if searched >= 2 * fullboard.CHUNK:
            raise Stop

    with pytest.raises(Stop):
        build_full_board(
            "shax-small", DEPTH, stopped, workers=1, progress=stop_after_two_jobs, save_seconds=0
        )
    assert not full_board_path(stopped, SMALL).exists()
    assert progress_path(stopped, SMALL).exists()
    starts: list[int] = []

    def first_call(searched: int, total: int) -> None:
        if not starts:
            starts.append(searched)

    build_full_board("shax-small", DEPTH, stopped, workers=1, progress=first_call)
    assert starts[0] >= fullboard.CHUNK  # not from the first board again
    assert not progress_path(stopped, SMALL).exists()
    again = full_board_path(stopped, SMALL).read_bytes()
    first = full_board_path(fresh, SMALL).read_bytes()
    header = fullboard.HEADER.size
    assert again[header:] == first[header:]


def test_a_progress_file_of_another_depth_is_not_resumed(tmp_path: Path) -> None:
    def stop(searched: int, total: int) -> None:
        if searched >= fullboard.CHUNK:
            raise Stop

    with pytest.raises(Stop):
        build_full_board("shax-small", 2, tmp_path, workers=1, progress=stop, save_seconds=0)
    starts: list[int] = []
    build_full_board(
        "shax-small", DEPTH, tmp_path, workers=1, progress=lambda s, t: starts.append(s)
    )
    assert starts[0] == 0
    info = read_full_board_info(tmp_path, "shax-small")
    assert info is not None and info.depth == DEPTH


@pytest.mark.usefixtures("nothing_shipped")
def test_the_small_boards_are_built_whole_and_then_nothing_is_missing(tmp_path: Path) -> None:
    said: list[str] = []
    built = build_missing(tmp_path, SMALL_BOARDS, said.append, threads=2)
    assert [(w.variant, w.kind) for w in built] == [
        ("jar", "tables"),
        ("jar", "solved"),
        ("shax-small", "tables"),
        ("shax-small", "solved"),
        ("shax-small", "full-board"),
    ]
    assert missing_work(tmp_path, SMALL_BOARDS) == []
    assert not list(tmp_path.rglob("*.part"))
    assert any(s.startswith("Built the shax-small full-board values") for s in said)
    assert "shax-small placement solved" in "\n".join(said)
    assert open_solved("shax-small", tmp_path) is not None
    assert build_missing(tmp_path, SMALL_BOARDS, said.append) == []


def test_without_room_on_the_disk_nothing_is_built_and_one_sentence_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(missing, "_free_bytes", lambda directory: 10_000_000)
    said: list[str] = []
    warned: list[str] = []
    assert build_missing(tmp_path, SMALL_BOARDS, said.append, warn=warned.append) == []
    assert said == []
    assert len(warned) == 1
    assert warned[0].startswith("Not enough free disk for the jar endgame tables")
    assert "10 MB are free" in warned[0] and str(tmp_path) in warned[0]
    assert not list(tmp_path.rglob("*.tbl"))


@pytest.mark.usefixtures("nothing_shipped")
def test_the_missing_command_lists_and_builds_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["missing", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "the shax endgame tables up to 6 stones a side and 11 in all: about" in out
    assert "about 80 minutes of processor time" in out  # the full-board values, measured
    assert "python -m engine.tables build builds it" in out
    assert not list(tmp_path.rglob("*")), "listing wrote into the folder"


def test_build_without_max_builds_what_missing_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", "--small", "--dir", str(tmp_path), "--threads", "2"]) == 0
    assert missing_work(tmp_path, SMALL_BOARDS) == []
    assert main(["build", "--small", "--dir", str(tmp_path)]) == 0
    assert "nothing to build" in capsys.readouterr().err
    assert main(["missing", "--small", "--dir", str(tmp_path)]) == 0
    assert "nothing is missing" in capsys.readouterr().out


@pytest.mark.usefixtures("nothing_shipped")
def test_the_start_line_says_how_long_the_build_takes() -> None:
    work = missing_work(Path("/nonexistent"))
    line = missing.announcement(work, cores=2)
    assert line.startswith(
        "Building endgame tables in the background: master plays better as they land, "
        "about 43 minutes on 2 idle cores (about 85 minutes of processor time"
    )


def test_a_long_table_says_how_far_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(missing, "PROGRESS_SECONDS", 0.0)  # every step, not once a minute
    said: list[str] = []
    build_missing(tmp_path, ("jar",), said.append, threads=1)
    steps = [s for s in said if s.startswith("jar endgame tables: 3v3, ")]
    assert any("reading its moves" in s for s in steps), said
    assert any("positions decided so far" in s for s in steps), said
    assert all(s.endswith("(0 of 1 done).") for s in steps), steps
