"""A database written by release 3 of the bot (schema version 3, before Alembic) upgrades
in place with nothing lost, on both engines: every row of ``data/release-3.json`` is
still there, and the unfinished games play on from the same position.

``data/release-3.db`` (SQLite) and ``data/release-3.sql`` (a pg_dump of PostgreSQL)
were written by that release playing: finished and unfinished games, a game against
the bot with a hint taken, streaks, series, open and closed challenges, server
settings, player preferences and the command hash."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import create_engine

from bot.service.replies import Place, User
from bot.storage import SCHEMA_VERSION, Storage, migrations
from bot.storage.tables import TABLES
from engine import replay
from tests.bot.storage.conftest import fresh_postgres
from tests.bot.storage.pgserver import PostgresServer
from tests.services import FakeClock, open_service

DATA = Path(__file__).parent / "data"
BASHIR, CAWO, AMINA = User(12, "Bashir"), User(13, "Cawo"), User(11, "Amina")
BOT = User(999, "Shax", is_bot=True)


def as_json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


@pytest.fixture(params=["sqlite", "postgresql"])
async def release_3(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str | Path]:
    """A database as release 3 left it: the SQLite file, or the dump loaded."""
    if request.param == "sqlite":
        path = tmp_path / "shax.db"
        shutil.copy(DATA / "release-3.db", path)
        yield path
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = await fresh_postgres(server)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute((DATA / "release-3.sql").read_text())
    finally:
        await conn.close()
    yield url


async def test_every_row_written_by_release_3_is_kept(release_3: str | Path) -> None:
    expected = json.loads((DATA / "release-3.json").read_text())
    storage = await Storage.open(release_3)
    try:
        assert await storage.schema_version() == SCHEMA_VERSION
        for table in TABLES:
            rows = [{k: as_json(v) for k, v in r.items()} for r in await storage.export_rows(table)]
            # Tables added since start empty: old games are rated only by a recomputation.
            assert rows == expected.get(table, []), table
    finally:
        await storage.close()
    # Opened again: nothing to migrate, nothing changed.
    storage = await Storage.open(release_3)
    try:
        assert len(await storage.export_rows("games")) == len(expected["games"])
    finally:
        await storage.close()


async def test_games_of_release_3_play_on_from_the_same_position(release_3: str | Path) -> None:
    clock = FakeClock(datetime(2026, 11, 21, 9, 0, tzinfo=UTC))
    async with open_service(release_3, bot_user=BOT, clock=clock) as service:  # type: ignore[arg-type]
        storage = service.storage
        game = await storage.games.active_game_in_channel(102)
        assert game is not None and game.record == ("d7", "a7", "g7", "b6")
        position = replay(game.variant, game.record)
        mover = CAWO if game.white_id == CAWO.id else BASHIR
        action = position.legal_actions()[0].notation(position.variant)
        await service.play(mover, Place(1, 102), action)
        moved = await storage.games.get_game(game.id)
        assert moved is not None and moved.record == (*game.record, action)
        assert moved.version == game.version + 1
        # The game against the bot, its hint counted, goes on with the bot answering.
        bot_game = await storage.games.active_game_in_channel(201)
        assert bot_game is not None and await storage.games.hints_used(bot_game.id) == 1
        position = replay(bot_game.variant, bot_game.record)
        action = position.legal_actions()[0].notation(position.variant)
        await service.play(AMINA, Place(1, 201, 101), action)
        after = await storage.games.get_game(bot_game.id)
        assert after is not None and after.record[: len(bot_game.record) + 1] == (
            *bot_game.record,
            action,
        )
        assert len(after.record) == len(bot_game.record) + 2  # and the bot answered
        # The streak and the series go on from where they were: Amina's third win in a row.
        rematch = (await storage.challenges.open_challenges(100))[0]
        assert rematch.rematch_of == 2
        clock.moment = rematch.created_at  # accepted before it expires
        await service.challenges.accept(BASHIR, Place(1, 100), rematch.id)
        await service.turns.resign(BASHIR, Place(1, 100))
        assert (await storage.standings.tallies(1, AMINA.id))["human"].streak == 3
        series = await storage.standings.series(1, "u:11", "u:12")
        assert (series.holder, series.stones, series.games) == ("u:11", 3, 3)


async def test_a_release_3_file_is_refused_by_nothing_and_marked_as_upgraded(
    tmp_path: Path,
) -> None:
    """The number of the schema stays where release 3 reads it, so that it (or anything
    older) refuses the upgraded file rather than use it."""
    path = tmp_path / "shax.db"
    shutil.copy(DATA / "release-3.db", path)
    await (await Storage.open(path)).close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert raw.execute("SELECT version_num FROM shax_migrations").fetchall() == [
            (f"{SCHEMA_VERSION:04d}",)
        ]


async def test_duplicate_open_challenges_are_closed_by_the_upgrade(tmp_path: Path) -> None:
    """Release 3 could open the same challenge twice (two clicks at once); the upgrade
    keeps the oldest open and closes the others, then one open challenge per pair (and
    per rematch) is a rule of the database."""
    path = tmp_path / "shax.db"
    shutil.copy(DATA / "release-3.db", path)
    with sqlite3.connect(path) as raw:
        columns = "guild_id, channel_id, challenger_id, challenger_name, opponent_id, "
        columns += "opponent_name, variant, status, rematch_of, created_at, expires_at"
        twice = (1, 300, 11, "Amina", 13, "Cawo", "shax", "open", None, 1.0, 9e9)
        rematch = (1, 100, 12, "Bashir", 11, "Amina", "jar", "open", 2, 2.0, 9e9)
        for row in (twice, twice, rematch):
            raw.execute(f"INSERT INTO challenges ({columns}) VALUES ({', '.join('?' * 11)})", row)
    storage = await Storage.open(path)
    try:
        open_now = await storage.challenges.open_challenges_all()
        assert [(c.channel_id, c.challenger_id, c.rematch_of) for c in open_now] == [
            (100, 11, 2),  # release 3's own open rematch challenge, the oldest for game 2
            (300, 11, None),
        ]
        closed = [c for c in await storage.export_rows("challenges") if c["id"] > 6]
        assert [c["status"] for c in closed] == ["open", "cancelled", "cancelled"]
    finally:
        await storage.close()


async def test_the_tries_of_a_puzzle_of_the_day_are_its_servers_after_migration_8(
    tmp_path: Path,
) -> None:
    """Migration 8 gives each try the server it was asked on: a try of a puzzle of the day
    made before it is that day's server's; another is on no server."""
    path = tmp_path / "shax.db"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:  # the schema as migration 7 left it
        migrations.migrate(conn, "0007")
        conn.exec_driver_sql("PRAGMA user_version = 7")
        conn.exec_driver_sql(
            "INSERT INTO puzzles (variant, record, solution, moves, depth, tempting, rating, "
            "deviation, volatility) VALUES ('shax', 'd7', 'a7', 1, 1, 0, 1500, 200, 0.06)"
        )
        conn.exec_driver_sql(
            "INSERT INTO daily_puzzles (guild_id, day, puzzle_id, channel_id, claimed_at) "
            "VALUES (77, '2026-11-28', 1, 500, 0)"
        )
        for user, daily in ((11, "1"), (12, "NULL")):
            conn.exec_driver_sql(
                "INSERT INTO puzzle_attempts (user_id, puzzle_id, daily_id, status, rated, "
                f"started_at) VALUES ({user}, 1, {daily}, 'failed', 1, 0)"
            )
    engine.dispose()
    storage = await Storage.open(path)
    try:
        tries = await storage.export_rows("puzzle_attempts")
        assert [(t["user_id"], t["guild_id"]) for t in tries] == [(11, 77), (12, None)]
    finally:
        await storage.close()
