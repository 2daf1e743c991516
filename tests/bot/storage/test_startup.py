"""Start-up refuses a database it cannot use, through the real entry point: one sentence
naming the file and what to do, exit code 1, no traceback; for the bot and the console."""

from __future__ import annotations

import asyncio
import ctypes
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import bot.__main__
from bot.__main__ import LOCKED_PATIENCE_SECONDS
from bot.storage import SCHEMA_VERSION, Storage
from tests.bot.processes import bot_program

ROOT = Path(__file__).resolve().parents[3]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
COMMANDS = {"bot": [], "console": ["local", "--name", "Amina"]}


def honour_permissions() -> None:
    """In the child, before exec: root normally writes any file whatever its mode; without
    the capability to override permissions (dropped from the bounding set) it does not."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def start(
    db: Path, command: str, preexec: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(db.parent / "no.env"), *COMMANDS[command]],
        capture_output=True,
        text=True,
        cwd=db.parent,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "SHAX_DB_PATH": str(db),
            "DISCORD_TOKEN": TOKEN,
            "SHAX_BUILD_TABLES": "off",
        },
        input="/quit\n",
        timeout=60,
        preexec_fn=preexec,
    )


def assert_refused(result: subprocess.CompletedProcess[str], db: Path, *words: str) -> None:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("shax-bot: ") and str(db) in last, last
    for word in words:
        assert word in last, last


def made(db: Path) -> Path:
    async def create() -> None:
        await (await Storage.open(db)).close()

    asyncio.run(create())
    return db


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path, command: str) -> None:
    db = tmp_path / "shax.db"
    db.write_text("these are my notes, not a database\n" * 10)
    assert_refused(start(db, command), db, "is not a SQLite database", "backup")
    assert db.read_text().startswith("these are my notes")  # nothing was changed


@pytest.mark.parametrize("command", COMMANDS)
def test_damaged_pages_are_refused(tmp_path: Path, command: str) -> None:
    db = made(tmp_path / "shax.db")
    with sqlite3.connect(db) as raw:
        raw.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [(f"k{i}", "v" * 200) for i in range(400)],
        )
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = raw.execute("PRAGMA page_size").fetchone()[0]
    with db.open("r+b") as f:  # a page of the meta table, its header included
        f.seek(page * 5)
        f.write(b"\xff" * page)
    assert_refused(start(db, command), db, "is damaged", "restore it from a backup")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_schema_newer_than_the_code_is_refused(tmp_path: Path, command: str) -> None:
    db = made(tmp_path / "shax.db")
    with sqlite3.connect(db) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 3}")
    assert_refused(start(db, command), db, f"schema version {SCHEMA_VERSION + 3}", "upgrade")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_read_only_database_is_refused_at_start(tmp_path: Path, command: str) -> None:
    db = made(tmp_path / "shax.db")
    db.chmod(0o444)
    preexec = honour_permissions if os.geteuid() == 0 else None
    try:
        assert_refused(start(db, command, preexec), db, "is read-only", "chmod")
    finally:
        db.chmod(0o644)


def test_a_good_database_starts_the_console(tmp_path: Path) -> None:
    db = made(tmp_path / "shax.db")
    result = start(db, "console")
    assert result.returncode == 0, result.stderr
    assert f"database {db}" in result.stdout


@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_a_database_locked_by_another_program_is_waited_for_saying_so(
    tmp_path: Path, journal: str
) -> None:
    db = made(tmp_path / "shax.db")
    with sqlite3.connect(db) as raw:
        raw.execute(f"PRAGMA journal_mode = {journal}")
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # as `sqlite3 shax.db` would hold it
    console = bot_program(
        tmp_path, *COMMANDS["console"], SHAX_DB_PATH=str(db), SHAX_BUILD_TABLES="off"
    )
    try:
        assert console.stderr is not None
        said = console.stderr.readline()
        assert said == (
            f"shax-bot: The database {db} is locked by another program; waiting up to "
            f"{LOCKED_PATIENCE_SECONDS:.0f} s for it to let go…\n"
        )
        other.execute("ROLLBACK")  # the other program lets go: the console starts
        out, err = console.communicate("/quit\n", timeout=60)
    finally:
        other.close()
        if console.poll() is None:
            console.kill()
    assert console.returncode == 0, err
    assert f"database {db}" in out and "Traceback" not in err


@pytest.mark.slow  # SQLite waits out its 5-second busy timeout
@pytest.mark.parametrize("command", COMMANDS)
def test_a_database_locked_past_the_wait_is_refused_in_one_sentence(
    tmp_path: Path,
    command: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = made(tmp_path / "shax.db")
    monkeypatch.setattr(bot.__main__, "LOCKED_PATIENCE_SECONDS", 0.0)
    monkeypatch.setenv("SHAX_DB_PATH", str(db))
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("SHAX_BUILD_TABLES", "off")
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        status = bot.__main__.main(["--env-file", str(tmp_path / "no.env"), *COMMANDS[command]])
    finally:
        other.close()
    assert status == 1
    assert capsys.readouterr().err.splitlines() == [
        f"shax-bot: The database {db} is locked by another program: stop the other program "
        "using it (another bot on the same file, or a sqlite3 shell in a transaction), then "
        "start the bot again."
    ]
