"""The background build at the first start: a fresh install reaches full strength with
no command, logs what it does, and can be turned off."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.workers import tables as background
from engine.ai.levels import LEVEL_TABLE
from engine.ai.player import choose_for_position
from engine.position import Position
from engine.tables import forget_open_tables, open_tables
from engine.tables.fullboard import full_board_values, read_full_board_info
from engine.tables.missing import missing_work

ROOT = Path(__file__).resolve().parents[3]
WAIT_SECONDS = 240.0


def wait_until_built(folder: Path, console: subprocess.Popen[str]) -> None:
    """Wait for the background build of the small boards to finish (or the console to end)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline and console.poll() is None:
        if (folder / background.LOG_FILE).is_file() and "every endgame table" in (
            folder / background.LOG_FILE
        ).read_text():
            return
        time.sleep(0.5)


def test_a_fresh_install_reaches_full_strength_without_a_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "tables"
    console = subprocess.Popen(
        [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "none.env"), "local"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(tmp_path),
            "LOGNAME": "amina",
            "SHAX_DB_PATH": str(tmp_path / "local.db"),
            "SHAX_TABLES_DIR": str(folder),
            "SHAX_BUILD_TABLES": "small",  # jar and shax-small: seconds, not half an hour
        },
    )
    try:
        assert missing_work(folder, ("jar", "shax-small"))  # nothing there at the start
        wait_until_built(folder, console)
    finally:
        _, err = console.communicate("/quit\n", timeout=60)
    assert console.returncode == 0, err
    assert "Traceback" not in err
    assert missing_work(folder, ("jar", "shax-small")) == []
    assert not list(folder.rglob("*.part")) and not list(folder.rglob("*.progress"))
    log = (folder / background.LOG_FILE).read_text()
    assert "Building the shax-small full-board values" in log

    monkeypatch.setenv("SHAX_TABLES_DIR", str(folder))
    forget_open_tables()
    master = LEVEL_TABLE["master"]
    ending = Position.setup("shax-small", "a1 a3 c4 d4", "e5 e3 c1", "white")
    assert choose_for_position(ending, master).source == "table"
    info = read_full_board_info(folder, "shax-small")
    assert info is not None and not info.stale
    assert full_board_values("shax-small") is not None  # what master's search ends on
    forget_open_tables()


def test_tables_written_while_a_process_runs_are_used_from_its_next_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.tables import build

    monkeypatch.setenv("SHAX_TABLES_DIR", str(tmp_path))
    forget_open_tables()
    master = LEVEL_TABLE["master"]
    ending = Position.setup("shax-small", "a1 a3 c4 d4", "e5 e3 c1", "white")
    assert open_tables("shax-small") is None
    assert choose_for_position(ending, master, depth=2).source == "search"
    build("shax-small", 4, tmp_path, threads=1)
    assert choose_for_position(ending, master).source == "table"
    forget_open_tables()


def test_the_setting_off_builds_nothing() -> None:
    assert background.start_building("off") is None


def test_the_build_says_what_it_does_in_the_bots_log(caplog: pytest.LogCaptureFixture) -> None:
    lines = io.StringIO(
        "INFO\tBuilding the shax endgame tables.\n"
        "WARNING\tNot enough free disk for the shax full-board values.\n"
        "Segmentation fault\n"
    )
    with caplog.at_level(logging.INFO, logger=background.__name__):
        background._relay(lines)
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert said == [
        (logging.INFO, "Building the shax endgame tables."),
        (logging.WARNING, "Not enough free disk for the shax full-board values."),
        (logging.WARNING, "Segmentation fault"),
    ]


def test_one_process_builds_a_folder_at_a_time(tmp_path: Path) -> None:
    with background._only_builder(tmp_path) as first:
        assert first
        other = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path; from bot.workers.tables import "
                "_only_builder\nwith _only_builder(Path(sys.argv[1])) as alone: print(alone)",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert other.stdout.strip() == "False"
