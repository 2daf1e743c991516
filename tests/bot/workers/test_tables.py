"""The background build at the first start: a fresh install reaches full strength with
no command, logs what it does, and can be turned off."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.workers import tables as background
from engine.ai.levels import LEVEL_TABLE
from engine.ai.player import choose_for_position
from engine.position import Position
from engine.tables import forget_open_tables, missing, open_tables
from engine.tables.fullboard import read_full_board_info
from engine.tables.missing import SMALL_BOARDS, build_missing, missing_work
from engine.tables.shipping import full_board_values
from tests.bot.processes import bot_program

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
    console = bot_program(
        tmp_path,
        "local",
        HOME=str(tmp_path),
        LOGNAME="amina",
        SHAX_DB_PATH=str(tmp_path / "local.db"),
        SHAX_TABLES_DIR=str(folder),
        SHAX_BUILD_TABLES="small",  # jar and shax-small: seconds, not half an hour
    )
    try:
        assert missing_work(folder, ("jar", "shax-small"))  # nothing there at the start
        wait_until_built(folder, console)
    finally:
        _, err = console.communicate("/quit\n", timeout=60)
    assert console.returncode == 0, err
    assert "Traceback" not in err
    assert (
        "shax-bot: Building endgame tables in the background: master plays better as they "
        "land, a minute or less on"
    ) in err  # the console says it once at its start
    assert missing_work(folder, ("jar", "shax-small")) == []
    assert not list(folder.rglob("*.part")) and not list(folder.rglob("*.progress"))
    log = (folder / background.LOG_FILE).read_text()
    assert "Building the shax-small endgame tables" in log
    assert "full-board values" not in log  # the package ships shax-small's

    monkeypatch.setenv("SHAX_TABLES_DIR", str(folder))
    forget_open_tables()
    master = LEVEL_TABLE["master"]
    ending = Position.setup("shax-small", "a1 a3 c4 d4", "e5 e3 c1", "white")
    assert choose_for_position(ending, master).source == "table"
    assert read_full_board_info(folder, "shax-small") is None
    assert full_board_values("shax-small") is not None  # the shipped ones master's search ends on
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


def test_while_another_process_builds_in_the_folder_this_one_leaves_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from engine.tables.lock import "
            "build_lock\nwith build_lock(Path(sys.argv[1])):\n print('held', flush=True); "
            "time.sleep(600)",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        background.build_logged(tmp_path, SMALL_BOARDS, background._Log(tmp_path))
    finally:
        holder.kill()
        holder.wait()
    said = capsys.readouterr().out
    assert said == (
        f"INFO\tAnother process is building the endgame tables in {tmp_path}; not this one.\n"
    )
    assert not list(tmp_path.rglob("*.tbl"))


def test_without_room_on_the_disk_the_log_says_only_that(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(missing, "_free_bytes", lambda directory: 10_000_000)
    background.build_logged(tmp_path, SMALL_BOARDS, background._Log(tmp_path))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("INFO\tBuilding endgame tables in the background")
    assert len(lines) == 2, lines
    assert lines[1].startswith("WARNING\tNot enough free disk for the jar endgame tables")
    assert "Master has every" not in (tmp_path / background.LOG_FILE).read_text()


def make_read_only(folder: Path) -> None:
    """Make ``folder`` a folder nobody can write to, the superuser included (who ignores
    its mode: the immutable attribute stops it, where the file system has one)."""
    folder.chmod(0o555)
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    try:
        (folder / "probe").touch()
    except OSError:
        return
    (folder / "probe").unlink()
    pytest.skip("no folder can be made read-only for this user here")


def test_a_read_only_tables_folder_is_one_sentence_and_the_bot_goes_on(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    make_read_only(folder)
    try:
        build = subprocess.run(
            [sys.executable, "-m", background.__name__, "--parent", str(os.getpid()), "--small"],
            capture_output=True,
            text=True,
            timeout=WAIT_SECONDS,
            env={**os.environ, "PYTHONPATH": str(ROOT), "SHAX_TABLES_DIR": str(folder)},
        )
    finally:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True, check=False)
        folder.chmod(0o755)
    assert build.returncode == 0
    assert build.stderr == ""
    said = build.stdout.splitlines()
    assert len(said) == 1, build.stdout
    reason = r"\((permission denied|operation not permitted|read-only file system)\)"
    assert re.fullmatch(
        f"WARNING\tThe endgame tables cannot be built in {re.escape(str(folder))} {reason}: "
        "make it writable, or set SHAX_TABLES_DIR to a folder the bot can write to. Master "
        "plays on without the tables it lacks.",
        said[0],
    ), said[0]


def test_the_start_line_says_what_is_built_and_how_long_it_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHAX_TABLES_DIR", str(tmp_path))
    line = background.building_line("on")
    assert line is not None
    assert line.startswith(
        "Building endgame tables in the background: master plays better as they land, about "
    )
    assert "minutes of processor time" in line
    assert background.building_line("off") is None
    build_missing(tmp_path, SMALL_BOARDS, lambda text: None, threads=2)
    assert background.building_line("small") is None  # nothing left to build


LAST_WORDS = """\
import signal, subprocess, sys, time
WORKER = "sleep 0.3; printf 'INFO\\tA worker of the build stopped.\\n'"
def stop(*_):
    # The build ends at once; a worker of its own, on the same output, says a last word.
    subprocess.Popen(["sh", "-c", WORKER])
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
print("INFO\\tBuilding the shax endgame tables.", flush=True)
time.sleep(120)
"""


def test_stopping_the_build_logs_its_last_lines_before_it_returns(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot says "Stopped" last: what the build and its workers say as they stop is in
    the log first."""
    build = subprocess.Popen([sys.executable, "-c", LAST_WORDS], stdout=subprocess.PIPE, text=True)
    assert build.stdout is not None
    relay = background.threading.Thread(target=background._relay, args=(build.stdout,))
    monkeypatch.setattr(background, "_started", build)
    monkeypatch.setattr(background, "_relaying", relay)
    with caplog.at_level(logging.INFO, logger=background.__name__):
        relay.start()
        deadline = time.monotonic() + WAIT_SECONDS
        while "Building the shax endgame tables." not in caplog.text:
            assert time.monotonic() < deadline, "the build said nothing"
            time.sleep(0.05)
        background.stop_building()
        said = [r.getMessage() for r in caplog.records]
    assert said[-1] == "A worker of the build stopped.", said
    assert not relay.is_alive()
