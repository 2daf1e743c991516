"""python -m engine.tables: build with progress, info, and the tables directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.tables import open_tables, read_info, tables_dir
from engine.tables.__main__ import main


def test_build_writes_the_tables_and_info_lists_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", "--max", "5", "--variant", "shax-small", "--dir", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "building shax-small tables up to 5 stones a side" in err
    assert "5v4+4v5: built in" in err
    materials = {i.material for i in read_info(tmp_path)}
    assert materials == {f"{a}v{b}" for a in range(3, 6) for b in range(3, 6)}
    assert main(["info", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "shax-small" in out and "4v5" in out and "9 tables" in out
    for info in read_info(tmp_path):
        assert info.positions == info.wins + info.draws + info.losses
        assert info.size == 128 + info.entries  # a byte a position: every distance fits


def test_a_second_build_only_adds_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", "--max", "3", "--variant", "shax-small", "--dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["build", "--max", "3", "--variant", "shax-small", "--dir", str(tmp_path)]) == 0
    assert "nothing to build" in capsys.readouterr().err
    assert main(["build", "--max", "4", "--variant", "shax-small", "--dir", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "4v3+3v4: built" in err and "3v3: built" not in err


def test_a_damaged_table_is_ignored_and_rebuilt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", "--max", "3", "--variant", "jar", "--dir", str(tmp_path)]) == 0
    path = tmp_path / "jar" / "3v3.tbl"
    path.write_bytes(path.read_bytes()[:200])
    assert open_tables("jar", tmp_path) is None
    assert main(["build", "--max", "3", "--variant", "jar", "--dir", str(tmp_path)]) == 0
    assert "3v3: built" in capsys.readouterr().err
    rebuilt = open_tables("jar", tmp_path)
    assert rebuilt is not None and (3, 3) in rebuilt.materials


def test_info_on_an_empty_directory_says_how_to_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["info", "--dir", str(tmp_path / "nothing")]) == 0
    assert "python -m engine.tables build\n" in capsys.readouterr().out


def test_too_few_stones_is_refused_with_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--max", "2"]) == 2
    assert "--max must be 3 or more" in capsys.readouterr().err


def test_the_directory_is_chosen_by_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SHAX_TABLES_DIR", str(tmp_path / "mine"))
    assert tables_dir() == tmp_path / "mine"
    monkeypatch.delenv("SHAX_TABLES_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert tables_dir() == tmp_path / "cache" / "shax" / "tables"


def test_the_suite_plays_without_tables_by_default() -> None:
    assert not any(tables_dir().iterdir())
    assert open_tables("shax") is None
