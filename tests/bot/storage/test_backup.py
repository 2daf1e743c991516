"""Backups of the SQLite file: ``python -m bot backup PATH`` while the bot runs, restoring
one, and the bot's daily backups with their retention (on a fake clock). A daily backup
leaves the bot's hold on its database as it was, and one that cannot be written stops
nothing else and is said once a day."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.storage import Storage, StorageError
from bot.storage.backup import DailyBackups, backup
from tests.bot.conftest import AMINA, BASHIR, HERE, ServiceFactory
from tests.bot.storage.conftest import new_game
from tests.services import FakeClock

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
        game = await running.games.create_game(new_game(), NOW)
        moved = await running.games.update_game(
            game.id, 0, record=["a1"], draw_offered_by=None, now=NOW, new_turn=True
        )
        await running.settings.set_meta("commands", "hash")
        result = run_backup(db, tmp_path / "copy.db")
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == f"Backed up {db} to {tmp_path / 'copy.db'}."
        # The bot goes on writing after the backup.
        await running.games.create_game(new_game(8), NOW)
    finally:
        await running.close()
    # Restoring: with the bot stopped, the backup takes the database's place.
    for leftover in tmp_path.glob("shax.db*"):
        leftover.unlink()
    shutil.copy(tmp_path / "copy.db", db)
    restored = await Storage.open(db)
    try:
        assert await restored.games.get_game(game.id) == moved
        assert await restored.settings.get_meta("commands") == "hash"
        assert len(await restored.games.active_games()) == 1  # the later game is not in it
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
            await storage.settings.set_meta("day", str(day))
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
        assert await newest.settings.get_meta("day") == "2"
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


def count_games_from_another_process(db: Path) -> int:
    """What a new process (a restart, the ``sqlite3`` tool) finds in the database."""
    read = (
        "import sqlite3, sys; from contextlib import closing\n"
        "with closing(sqlite3.connect(sys.argv[1])) as db:\n"
        "    print(db.execute('SELECT count(*) FROM games').fetchone()[0])"
    )
    done = subprocess.run(
        [sys.executable, "-c", read, str(db)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


async def test_the_daily_backup_keeps_the_bots_hold_on_its_database(tmp_path: Path) -> None:
    # The daily backup runs in the bot's process. Had it opened the database as a plain
    # file, closing that would drop the bot's locks, and the next process to open and
    # close the file (a backup, migrate, the sqlite3 tool) would delete the bot's
    # write-ahead log: every later move would be lost at the next crash.
    db = tmp_path / "shax.db"
    running = await Storage.open(db)
    try:
        await running.games.create_game(new_game(), NOW)
        await DailyBackups(db, tmp_path / "daily", keep=3, clock=Clock()).tick()
        assert run_backup(db, tmp_path / "copy.db").returncode == 0
        assert (tmp_path / "shax.db-wal").exists()
        await running.games.create_game(new_game(8), NOW)
        assert count_games_from_another_process(db) == 2
    finally:
        await running.close()


@contextlib.contextmanager
def unwritable_folder(folder: Path, why: str) -> Iterator[Path]:
    """A folder that refuses writes: a read-only or a full file system (mounted for the
    test as root; for another user a folder without write permission stands in)."""
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    options = "ro,size=1m" if why == "read-only" else "size=64k"
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], check=True)
    try:
        if why == "full":  # fill it
            with contextlib.suppress(OSError), (folder / "filler").open("wb") as filler:
                while True:
                    filler.write(b"\0" * 4096)
                    filler.flush()
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.mark.parametrize("why", ["read-only", "full"])
async def test_a_backup_that_cannot_be_written_is_said_once_a_day(
    why: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "shax.db"
    storage = await Storage.open(db)
    clock = Clock()
    try:
        with unwritable_folder(tmp_path / "daily", why) as folder:
            daily = DailyBackups(db, folder, keep=3, clock=clock)
            caplog.set_level(logging.WARNING, logger="bot.storage.backup")
            for _ in range(5):  # ticks every half minute: no exception, one warning
                await daily.tick()
                clock.moment += timedelta(seconds=30)
            failures = [r for r in caplog.records if "daily backup failed" in r.message]
            assert len(failures) == 1 and "could not be written" in failures[0].message
            assert "Traceback" not in caplog.text and not list(folder.glob("*.partial"))
            clock.moment += timedelta(days=1)  # a day later it is said again
            await daily.tick()
            assert len([r for r in caplog.records if "daily backup failed" in r.message]) == 2
            assert daily.existing() == []
    finally:
        await storage.close()


async def test_a_backup_that_cannot_be_written_stops_no_clock(
    make_service: ServiceFactory, clock: FakeClock, tmp_path: Path
) -> None:
    with unwritable_folder(tmp_path / "daily", "read-only") as folder:
        service = await make_service(
            backups=DailyBackups(tmp_path / "shax.db", folder, keep=3, clock=clock)
        )
        await service.challenges.challenge(AMINA, BASHIR, HERE)
        clock.advance(minutes=11)
        # The challenge expires all the same: its one notice.
        assert len(await service.tick()) == 1


def test_the_backup_command_onto_a_read_only_place_says_so_in_one_sentence(
    tmp_path: Path,
) -> None:
    db = tmp_path / "shax.db"
    with contextlib.closing(sqlite3.connect(db)) as made:
        made.execute("CREATE TABLE t (x)")
    with unwritable_folder(tmp_path / "ro", "read-only") as folder:
        result = run_backup(db, folder / "copy.db")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip() == (
        f"shax-bot: The backup could not be written to {folder / 'copy.db'} (read-only): "
        "choose a writable place with room."
    )
