"""Databases that are not the bot's, and secrets: another application's SQLite file or
PostgreSQL database holding a table named like one of ours is refused in one sentence
naming the table, and left exactly as it was (at start, and in ``migrate``); a
PostgreSQL password never appears in a message, wherever the URL holds it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.storage import Storage, StorageError
from bot.storage.base import redacted, scrubbed
from tests.bot.storage.conftest import fresh_postgres
from tests.bot.storage.pgserver import PostgresServer

ROOT = Path(__file__).resolve().parents[3]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
THEIR_TABLE = "CREATE TABLE games (title TEXT, rating INTEGER)"


async def their_database(database: str | Path) -> None:
    """Another application's data in ``database``: its own table named ``games``."""
    if isinstance(database, Path):
        with sqlite3.connect(database) as raw:
            raw.execute(THEIR_TABLE)
            raw.execute("INSERT INTO games VALUES ('Go', 5)")
        return
    conn = await asyncpg.connect(database)
    try:
        await conn.execute(THEIR_TABLE)
        await conn.execute("INSERT INTO games VALUES ('Go', 5)")
    finally:
        await conn.close()


async def tables_and_rows(database: str | Path) -> tuple[list[str], list[tuple[str, int]]]:
    if isinstance(database, Path):
        with sqlite3.connect(database) as raw:
            names = [r[0] for r in raw.execute("SELECT name FROM sqlite_master ORDER BY name")]
            return names, [tuple(r) for r in raw.execute("SELECT * FROM games")]
    conn = await asyncpg.connect(database)
    try:
        names = [
            r[0]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                "ORDER BY tablename"
            )
        ]
        return names, [tuple(r) for r in await conn.fetch("SELECT * FROM games")]
    finally:
        await conn.close()


async def test_another_applications_games_table_is_refused_and_untouched(
    database: str | Path,
) -> None:
    await their_database(database)
    before = await tables_and_rows(database)
    with pytest.raises(StorageError) as refused:
        await Storage.open(database)
    message = str(refused.value)
    assert "already holds a table named games that this bot did not make" in message
    assert "nothing in this one was changed" in message and "\n" not in message
    assert await tables_and_rows(database) == before == (["games"], [("Go", 5)])


def made(db: Path) -> Path:
    """The bot's own database, new."""

    async def create() -> None:
        await (await Storage.open(db)).close()

    asyncio.run(create())
    return db


def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "no.env"), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "DISCORD_TOKEN": TOKEN,
            "SHAX_BUILD_TABLES": "off",
            **env,
        },
        input="/quit\n",
        timeout=120,
    )


def assert_one_sentence(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("shax-bot: "), result.stderr
    for word in words:
        assert word in last, last
    return last


@pytest.mark.parametrize("command", [[], ["local", "--name", "Amina"]])
def test_the_bot_and_the_console_refuse_another_applications_file(
    tmp_path: Path, command: list[str]
) -> None:
    db = tmp_path / "their.db"
    asyncio.run(their_database(db))
    result = run_bot(tmp_path, *command, SHAX_DB_PATH=str(db))
    assert_one_sentence(result, str(db), "table named games")
    assert asyncio.run(tables_and_rows(db)) == (["games"], [("Go", 5)])


def test_migrate_refuses_another_applications_file_and_database(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    theirs = tmp_path / "their.db"
    asyncio.run(their_database(theirs))
    url = asyncio.run(fresh_postgres(postgres_server))
    result = run_bot(tmp_path, "migrate", "--from", str(theirs), "--to", url)
    assert_one_sentence(result, str(theirs), "table named games")
    ours = made(tmp_path / "shax.db")
    asyncio.run(their_database(url))
    result = run_bot(tmp_path, "migrate", "--from", str(ours), "--to", url)
    assert_one_sentence(result, "table named games")
    assert asyncio.run(tables_and_rows(url)) == (["games"], [("Go", 5)])


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://shax:hunter2@db.example/shax", "postgresql://shax@db.example/shax"),
        (
            "postgresql://shax@db.example/shax?password=hunter2",
            "postgresql://shax@db.example/shax?password=***",
        ),
        (
            "postgres://shax@db.example:5433/shax?sslmode=require&sslpassword=hunter2&PASSWORD=x9",
            "postgres://shax@db.example:5433/shax?sslmode=require&sslpassword=***&PASSWORD=***",
        ),
        ("postgresql://shax:p%40ss@db.example/shax", "postgresql://shax@db.example/shax"),
    ],
)
def test_every_form_of_password_is_left_out_of_a_printed_url(url: str, shown: str) -> None:
    assert redacted(url) == shown
    held = [secret for secret in ("hunter2", "x9", "p%40ss") if secret in url]
    held += ["p@ss"] if "p%40ss" in url else []
    said = scrubbed(f"a driver's error naming {url}: {' '.join(held)}", url)
    assert held and not any(secret in said for secret in held), said


async def test_an_unreachable_server_is_named_without_its_password() -> None:
    url = "postgresql://shax@127.0.0.1:9/shax?password=hunter2&connect_timeout=5"
    with pytest.raises(StorageError) as refused:
        await Storage.open(url)
    message = str(refused.value)
    assert "cannot be reached" in message and "password=***" in message
    assert "hunter2" not in message


def test_the_migrate_command_prints_no_password(tmp_path: Path) -> None:
    source = made(tmp_path / "shax.db")
    url = "postgresql://shax@127.0.0.1:9/shax?password=hunter2&connect_timeout=5"
    result = run_bot(tmp_path, "migrate", "--from", str(source), "--to", url)
    last = assert_one_sentence(result, "cannot be reached")
    assert "hunter2" not in result.stderr + result.stdout and "password=***" in last
