"""Games on both engines: stored and read back, changed only at their version, one active
game a channel, finished with their tallies and series in one transaction, the boards
shown."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage import (
    ChannelTaken,
    Storage,
)
from tests.bot.storage.conftest import black_resigns, new_game, scored

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


async def test_game_round_trip(storage: Storage) -> None:
    game = await storage.games.create_game(new_game(), NOW)
    assert (game.variant, game.record, game.version, game.status) == ("jar", (), 0, "active")
    assert game.turn_started_at == NOW and game.white_name == "Amina"
    assert await storage.games.active_game_in_channel(7) == game
    assert await storage.games.active_games() == [game]


async def test_optimistic_version_update_applies_once(storage: Storage) -> None:
    game = await storage.games.create_game(new_game(), NOW)
    later = NOW + timedelta(minutes=1)
    first = await storage.games.update_game(
        game.id, 0, record=["b2"], draw_offered_by=None, now=later, new_turn=True
    )
    assert first is not None and first.version == 1 and first.record == ("b2",)
    assert first.turn_started_at == later
    again = await storage.games.update_game(
        game.id, 0, record=["a1"], draw_offered_by=None, now=later, new_turn=True
    )
    assert again is None
    assert (await storage.games.get_game(game.id)) == first


async def test_single_statement_writes_are_committed_and_checked(
    storage: Storage, database: str | Path
) -> None:
    """The frequent writes are one statement each (no explicit transaction): each
    applies only where its condition holds, and is on disk when it returns."""
    game = await storage.games.create_game(new_game(), NOW)
    assert await storage.clock.warn_late(game.id, 0, NOW)
    assert not await storage.clock.warn_late(game.id, 1, NOW)  # not that version
    moved = await storage.games.update_game(
        game.id, 0, record=["b2"], draw_offered_by=None, now=NOW, new_turn=True
    )
    assert moved is not None and not moved.warned  # a new turn clears the warning
    await storage.games.set_board_message(game.id, 99)
    # Another connection (a restarted bot) sees every write.
    other = await Storage.open(database)
    try:
        seen = await other.games.get_game(game.id)
    finally:
        await other.close()
    assert seen == replace(moved, board_message_id=99)


async def test_the_clock_reads_only_bot_games_and_turns_old_enough(storage: Storage) -> None:
    old = await storage.games.create_game(new_game(1), NOW - timedelta(hours=20))
    await storage.games.create_game(new_game(2), NOW)  # a fresh turn: nothing to do yet
    bot = await storage.games.create_game(replace(new_game(3), ai_level="hard"), NOW)
    due = await storage.games.active_games(turn_started_by=NOW - timedelta(hours=1))
    assert [g.id for g in due] == [old.id, bot.id]
    assert len(await storage.games.active_games()) == 3


async def test_one_active_game_per_channel(storage: Storage) -> None:
    await storage.games.create_game(new_game(7), NOW)
    with pytest.raises(ChannelTaken):
        await storage.games.create_game(new_game(7), NOW)
    await storage.games.create_game(new_game(8), NOW)  # another channel is fine
    assert len(await storage.games.active_games()) == 2


async def test_finish_game_counts_tallies_and_series_in_one_transaction(storage: Storage) -> None:
    game = await storage.games.create_game(new_game(), NOW)
    scoring = scored(
        [(11, "Amina", "human", "win"), (12, "Bashir", "human", "loss")], ("u:11", "u:12", "u:11")
    )
    done = await black_resigns(storage, game.id, NOW, scoring)
    assert done is not None and done.game.status == "over" and done.game.version == 1
    assert done.tallies[11][1].streak == 1 and done.tallies[12][1].losses == 1
    assert (done.series.holder, done.series.stones) == ("u:11", 1)
    # A stale finish changes nothing: no second win is counted.
    stale = await black_resigns(storage, game.id, NOW, scoring)
    assert stale is None
    assert (await storage.standings.tallies(1, 11))["human"].wins == 1
    assert (await storage.standings.series(1, "u:12", "u:11")).stones == 1
    assert await storage.games.active_game_in_channel(7) is None


async def test_a_committed_move_is_unshown_until_its_board_is_posted(storage: Storage) -> None:
    game = await storage.games.create_game(new_game(), NOW)
    # A new game's first board is still to be shown, like any committed move's.
    assert [g.id for g in await storage.games.unshown_games()] == [game.id]
    await storage.games.set_board_message(game.id, 554, game.version)
    assert await storage.games.unshown_games() == []
    moved = await storage.games.update_game(
        game.id, 0, record=["a1"], draw_offered_by=None, now=NOW, new_turn=True
    )
    assert moved is not None
    assert [g.id for g in await storage.games.unshown_games()] == [game.id]
    await storage.games.set_board_message(game.id, 555, moved.version)
    assert await storage.games.unshown_games() == []
    await storage.games.mark_shown(game.id, 0)
    again = await storage.games.get_game(game.id)
    assert again is not None and again.shown_version == moved.version
