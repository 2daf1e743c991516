"""Backups of the SQLite file: ``python -m bot backup PATH`` while the bot runs, restoring
one, and the bot's daily backups with their retention (on a fake clock)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.storage import Storage, StorageError
from bot.storage.backup import DailyBackups, backup
from tests.bot.storage.conftest import new_game

ROOT = Path(__file__).resolve().parents[3]
NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def run_backup(db: Path, path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(db.parent / "no.env"), "backup", str(path)],
        capture_output=True,
        text=True,
        cwd=db.parent,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "SHAX_DB_PATH": str(db),
            **extra,
        },
        timeout=60,
    )


async def test_a_backup_taken_while_the_bot_runs_restores_everything(tmp_path: Path) -> None:
    db = tmp_path / "shax.db"
    running = await Storage.open(db)  # the bot, with its connection open (WAL mode)
    try:
        game = await running.create_game(new_game(), NOW)
        moved = await running.update_game(
            game.id, 0, record=["a1"], draw_offered_by=None, now=NOW, new_turn=True
        )
        await running.set_meta("commands", "hash")
        result = run_backup(db, tmp_path / "copy.db")
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == f"Backed up {db} to {tmp_path / 'copy.db'}."
        # The bot goes on writing after the backup.
        await running.create_game(new_game(8), NOW)
    finally:
        await running.close()
    # Restoring: with the bot stopped, the backup takes the database's place.
    for leftover in tmp_path.glob("shax.db*"):
        leftover.unlink()
    shutil.copy(tmp_path / "copy.db", db)
    restored = await Storage.open(db)
    try:
        assert await restored.get_game(game.id) == moved
        assert await restored.get_meta("commands") == "hash"
        assert len(await restored.active_games()) == 1  # the later game is not in it
    finally:
        await restored.close()


async def test_a_folder_gets_a_named_backup_and_a_file_is_never_overwritten(
    tmp_path: Path,
) -> None:
    db = tmp_path / "shax.db"
    await (await Storage.open(db)).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    written = backup(db, folder)
    assert written.parent == folder and written.name.startswith("shax-")
    (tmp_path / "taken.db").write_text("mine")
    with pytest.raises(StorageError, match="already exists"):
        backup(db, tmp_path / "taken.db")
    assert (tmp_path / "taken.db").read_text() == "mine"


def test_the_backup_command_refuses_in_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "shax.db"
    db.write_text("not a database at all, just text\n")
    result = run_backup(db, tmp_path / "copy.db")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert (
        result.stderr.strip()
        == f"shax-bot: {db} is not a SQLite database, so it cannot be backed up."
    )
    on_postgres = run_backup(
        db, tmp_path / "copy.db", SHAX_DATABASE_URL="postgresql://shax:pw@db.example/shax"
    )
    assert on_postgres.returncode == 1 and "pg_dump" in on_postgres.stderr
    assert "pw@" not in on_postgres.stderr
    assert not (tmp_path / "copy.db").exists()


class Clock:
    def __init__(self) -> None:
        self.moment = NOW

    def __call__(self) -> datetime:
        return self.moment


async def test_daily_backups_once_a_day_keeping_the_newest(tmp_path: Path) -> None:
    db = tmp_path / "shax.db"
    storage = await Storage.open(db)
    clock = Clock()
    daily = DailyBackups(db, tmp_path / "daily", keep=2, clock=clock)
    try:
        await daily.tick()
        clock.moment += timedelta(hours=23)
        await daily.tick()  # not a day yet
        assert [p.name for _, p in daily.existing()] == ["shax-20240501-120000.db"]
        for day in range(3):
            await storage.set_meta("day", str(day))
            clock.moment = NOW + timedelta(days=day + 1)
            await daily.tick()
        names = [p.name for _, p in daily.existing()]
        assert names == ["shax-20240503-120000.db", "shax-20240504-120000.db"]
        # A restart does not repeat the day's backup: it reads the moments from the names.
        again = DailyBackups(db, tmp_path / "daily", keep=2, clock=clock)
        assert not again.due()
    finally:
        await storage.close()
    newest = await Storage.open(tmp_path / "daily" / "shax-20240504-120000.db")
    try:
        assert await newest.get_meta("day") == "2"
    finally:
        await newest.close()


async def test_a_failing_daily_backup_is_logged_and_the_tick_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    daily = DailyBackups(tmp_path / "missing.db", tmp_path / "daily", keep=3, clock=Clock())
    await daily.tick()
    assert "daily backup failed: There is no database at" in caplog.text
    assert daily.existing() == []


def test_backup_settings(tmp_path: Path) -> None:
    s = load_settings({"SHAX_BACKUP_DIR": str(tmp_path / "b"), "SHAX_BACKUP_KEEP": "3"}, None)
    assert (s.backup_dir, s.backup_keep) == (tmp_path / "b", 3)
    assert load_settings({}, None).backup_dir is None
