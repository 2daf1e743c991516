"""Stopping a table builder and two builders at once: Ctrl-C and SIGTERM end a build at
once with every whole file kept and none part way, and two builders of one folder build
each file once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.tables import read_header, read_info
from engine.tables.lock import LOCK_FILE, build_lock, remove_partial

ROOT = Path(__file__).resolve().parents[3]
LIMIT = 120.0
"""How long a test waits for a builder before it gives up (not a speed figure)."""


def builder(*args: str) -> subprocess.Popen[str]:
    """``python -m engine.tables ARGS`` in a process of its own, its messages readable."""
    return subprocess.Popen(
        [sys.executable, "-m", "engine.tables", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def read_until(process: subprocess.Popen[str], text: str) -> list[str]:
    """The builder's messages up to the first line holding ``text``."""
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        lines.append(line)
        if text in line:
            return lines
    pytest.fail(f"the builder ended without saying {text!r}: {''.join(lines)}")


@pytest.mark.parametrize(("sent", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_build_stops_at_once_keeping_whole_tables_and_no_part(
    tmp_path: Path, sent: signal.Signals, status: int
) -> None:
    # shax up to 4 a side, on one thread: 3v3, then 4v3+3v4 and 4v4 take a few seconds.
    process = builder(
        "build", "--max", "4", "--variant", "shax", "--dir", str(tmp_path), "--threads", "1"
    )
    read_until(process, "4v3+3v4: reading moves")
    process.send_signal(sent)
    _, err = process.communicate(timeout=LIMIT)
    assert process.returncode == status, err
    assert "stopped; every file finished is kept" in err
    assert "Traceback" not in err and "Exception ignored" not in err
    folder = tmp_path / "shax"
    assert not list(tmp_path.rglob("*.part"))
    assert {p.name for p in folder.glob("*.tbl")} == {"3v3.tbl"}  # 4v3 and 4v4 not built
    assert read_header(folder / "3v3.tbl", "shax") is not None

    again = builder(
        "build", "--max", "4", "--variant", "shax", "--dir", str(tmp_path), "--threads", "2"
    )
    _, err = again.communicate(timeout=LIMIT)
    assert again.returncode == 0, err
    assert "3v3: built" not in err and "4v4: built" in err


def test_a_stopped_full_board_search_ends_its_workers(tmp_path: Path) -> None:
    process = builder(
        "full", "--variant", "shax-small", "--depth", "16", "--dir", str(tmp_path), "--workers", "1"
    )
    read_until(process, "searching every full shax-small board")
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + LIMIT
    workers: list[int] = []
    while not workers and time.monotonic() < deadline:
        workers = [int(pid) for pid in children.read_text().split()]
        time.sleep(0.05)
    assert workers, "the search started no worker"
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=LIMIT)
    assert process.returncode == 143, err
    assert "Traceback" not in err
    for pid in workers:
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not Path(f"/proc/{pid}").exists(), "a worker of the stopped search runs on"
    assert not (tmp_path / "shax-small" / "full-board.val").exists()
    assert not list(tmp_path.rglob("*.part"))


def test_two_builders_at_once_build_each_table_once(tmp_path: Path) -> None:
    args = ("build", "--max", "4", "--variant", "shax", "--dir", str(tmp_path), "--threads", "1")
    first = builder(*args)
    read_until(first, "3v3: reading moves")  # the first holds the folder
    second = builder(*args)
    errs = [p.communicate(timeout=LIMIT)[1] for p in (first, second)]
    assert [first.returncode, second.returncode] == [0, 0], errs
    said = "".join(errs)
    for system in ("3v3", "4v3+3v4", "4v4"):
        assert said.count(f"{system}: built") == 1, said
    assert "waiting for it to finish" in errs[1]
    assert "nothing to build" in errs[1]
    assert {i.material for i in read_info(tmp_path)} == {"3v3", "3v4", "4v3", "4v4"}


def test_the_lock_is_one_process_at_a_time_and_reentrant(tmp_path: Path) -> None:
    with build_lock(tmp_path) as held, build_lock(tmp_path, wait=False) as again:
        assert held and again  # this process holds it: a build inside a build goes on
        other = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path; from engine.tables.lock import "
                "build_lock\nwith build_lock(Path(sys.argv[1]), wait=False) as held: "
                "print(held)",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert other.stdout.strip() == "False"
    assert (tmp_path / LOCK_FILE).exists()


def test_what_a_killed_builder_left_part_way_is_removed_by_the_next(tmp_path: Path) -> None:
    (tmp_path / "jar").mkdir()
    left = tmp_path / "jar" / "3v3.tbl.part"
    left.write_bytes(b"half a table")
    with build_lock(tmp_path):
        assert not left.exists()
    assert remove_partial(tmp_path) == []
