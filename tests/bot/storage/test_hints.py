"""Storage of the hints taken per game (migration 3) and the newest game of a channel,
on both engines (the ``storage`` fixture)."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from bot.storage import NewGame, Storage

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
RELEASE_3 = Path(__file__).parent / "data" / "release-3.db"


def bot_game(channel: int = 7) -> NewGame:
    return NewGame(
        guild_id=1,
        channel_id=channel,
        parent_channel_id=None,
        variant="jar",
        white_id=11,
        white_name="Amina",
        black_id=99,
        black_name="Shax bot (easy)",
        ai_level="easy",
        ai_color="black",
    )


async def test_hints_count_up_to_the_limit_and_no_further(storage: Storage) -> None:
    game = await storage.games.create_game(bot_game(), NOW)
    assert await storage.games.hints_used(game.id) == 0
    assert [await storage.games.use_hint(game.id, 2) for _ in range(3)] == [1, 2, None]
    assert await storage.games.hints_used(game.id) == 2


async def test_a_limit_of_zero_allows_no_hint_and_stores_nothing(storage: Storage) -> None:
    game = await storage.games.create_game(bot_game(), NOW)
    assert await storage.games.use_hint(game.id, 0) is None
    assert await storage.games.hints_used(game.id) == 0


async def test_hints_taken_at_once_never_pass_the_limit(storage: Storage) -> None:
    game = await storage.games.create_game(bot_game(), NOW)
    counts = await asyncio.gather(*(storage.games.use_hint(game.id, 3) for _ in range(8)))
    assert sorted(c for c in counts if c is not None) == [1, 2, 3]
    assert await storage.games.hints_used(game.id) == 3


async def test_each_game_counts_its_own_hints(storage: Storage) -> None:
    one = await storage.games.create_game(bot_game(7), NOW)
    two = await storage.games.create_game(bot_game(8), NOW)
    await storage.games.use_hint(one.id, 3)
    assert (await storage.games.hints_used(one.id), await storage.games.hints_used(two.id)) == (
        1,
        0,
    )


async def test_the_newest_game_of_a_channel_is_found_over_or_not(storage: Storage) -> None:
    assert await storage.games.last_game_in_channel(7) is None
    first = await storage.games.create_game(bot_game(7), NOW)
    await storage.games.create_game(bot_game(8), NOW)
    found = await storage.games.last_game_in_channel(7)
    assert found is not None and found.id == first.id


async def test_a_sqlite_database_of_schema_2_gains_the_hints_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copy(RELEASE_3, path)
    with sqlite3.connect(path) as raw:  # schema 2 was schema 3 without the hints
        raw.execute("DROP TABLE hints")
        raw.execute("PRAGMA user_version = 2")
    storage = await Storage.open(path)
    try:
        game = await storage.games.create_game(bot_game(), NOW)
        assert await storage.games.use_hint(game.id, 3) == 1
    finally:
        await storage.close()
