"""Storage on both engines: migrations, optimistic versions, one active game per channel,
tallies and series in one transaction, challenges, the bot's facts and preferences."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.pool import AsyncAdaptedQueuePool

import engine
from bot.storage import (
    SCHEMA_VERSION,
    AiColor,
    ChannelTaken,
    GameResult,
    GameStatus,
    NewChallenge,
    Storage,
    StorageError,
    Termination,
)
from bot.storage.dialects import Postgres
from bot.storage.tables import TABLES
from tests.bot.storage.conftest import fresh_postgres, new_game, scored
from tests.bot.storage.pgserver import PostgresServer

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


async def test_migrations_from_empty_set_the_schema_version(storage: Storage) -> None:
    assert await storage.schema_version() == SCHEMA_VERSION
    assert await storage.export_rows("games") == []


async def test_sqlite_runs_in_wal_mode_with_every_table(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "s.db")
    assert storage.engine == "sqlite"
    await storage.close()
    with sqlite3.connect(tmp_path / "s.db") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # kept by the file
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert set(TABLES) <= tables


async def test_reopening_keeps_the_data_and_runs_no_migration_twice(
    database: str | Path,
) -> None:
    storage = await Storage.open(database)
    game = await storage.games.create_game(new_game(), NOW)
    await storage.close()
    storage = await Storage.open(database)
    try:
        assert await storage.games.get_game(game.id) == game
        assert await storage.schema_version() == SCHEMA_VERSION
    finally:
        await storage.close()


async def test_a_newer_schema_is_refused(database: str | Path) -> None:
    await (await Storage.open(database)).close()
    if isinstance(database, Path):
        with sqlite3.connect(database) as raw:
            raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    else:
        conn = await asyncpg.connect(database)
        await conn.execute("UPDATE shax_schema SET version = $1", SCHEMA_VERSION + 1)
        await conn.close()
    with pytest.raises(
        StorageError, match=f"newer than this bot's {SCHEMA_VERSION}: upgrade the bot"
    ):
        await Storage.open(database)


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
    done = await storage.games.finish_game(
        game.id,
        0,
        record=["a1"],
        result="white",
        termination="RESIGNATION",
        now=NOW,
        **scoring,
    )
    assert done is not None and done.game.status == "over" and done.game.version == 1
    assert done.tallies[11][1].streak == 1 and done.tallies[12][1].losses == 1
    assert (done.series.holder, done.series.stones) == ("u:11", 1)
    # A stale finish changes nothing: no second win is counted.
    stale = await storage.games.finish_game(
        game.id,
        0,
        record=["a1"],
        result="white",
        termination="RESIGNATION",
        now=NOW,
        **scoring,
    )
    assert stale is None
    assert (await storage.standings.tallies(1, 11))["human"].wins == 1
    assert (await storage.standings.series(1, "u:12", "u:11")).stones == 1
    assert await storage.games.active_game_in_channel(7) is None


async def test_challenges_resolve_once_and_expire(storage: Storage) -> None:
    c = await storage.challenges.create_challenge(
        NewChallenge(1, 7, None, 11, "Amina", 12, "Bashir", "shax", NOW + timedelta(minutes=10)),
        NOW,
    )
    assert await storage.challenges.open_challenges(7) == [c]
    assert await storage.challenges.due_challenges(NOW) == []
    assert await storage.challenges.due_challenges(NOW + timedelta(minutes=10)) == [c]
    assert await storage.challenges.resolve_challenge(c.id, "declined", NOW)
    assert not await storage.challenges.resolve_challenge(c.id, "expired", NOW)
    assert (await storage.challenges.get_challenge(c.id)).status == "declined"  # type: ignore[union-attr]
    assert await storage.challenges.accept_challenge(c.id, new_game(), NOW) is None
    assert await storage.games.active_games() == []


async def test_accepting_into_a_busy_channel_changes_nothing(storage: Storage) -> None:
    c = await storage.challenges.create_challenge(
        NewChallenge(1, 7, None, 13, "Cawo", 12, "Bashir", "jar", NOW + timedelta(minutes=10)),
        NOW,
    )
    await storage.games.create_game(new_game(7), NOW)  # another game began here meanwhile
    with pytest.raises(ChannelTaken):
        await storage.challenges.accept_challenge(c.id, new_game(7), NOW)
    assert (await storage.challenges.get_challenge(c.id)).status == "open"  # type: ignore[union-attr]


async def test_leaderboard_orders_by_streak(storage: Storage) -> None:
    for channel, (winner, loser) in enumerate([(11, 12), (11, 13), (12, 13)], start=1):
        game = await storage.games.create_game(new_game(channel), NOW)
        await storage.games.finish_game(
            game.id,
            0,
            record=[],
            result="white",
            termination="RESIGNATION",
            now=NOW,
            **scored(
                [
                    (winner, f"p{winner}", "human", "win"),
                    (loser, f"p{loser}", "human", "loss"),
                ],
                (f"u:{winner}", f"u:{loser}", f"u:{winner}"),
            ),
        )
    rows = await storage.standings.leaderboard(1, "human", "streak")
    assert [(uid, t.streak) for uid, _, t in rows] == [(11, 2), (12, 1)]
    assert await storage.standings.leaderboard(2, "human", "best") == []


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


async def test_meta_settings_and_preferences_are_kept_and_forgotten(storage: Storage) -> None:
    assert await storage.settings.get_meta("commands") is None
    await storage.settings.set_meta("commands", "abc")
    await storage.settings.set_meta("commands", "def")
    assert await storage.settings.get_meta("commands") == "def"
    await storage.settings.set_guild_setting(1, "theme", "light")
    await storage.settings.set_guild_setting(2, "theme", "dark")
    assert await storage.settings.guild_settings(1) == {"theme": "light"}
    assert await storage.settings.settings_named("theme") == {1: "light", 2: "dark"}
    await storage.settings.set_guild_setting(1, "theme", None)
    assert await storage.settings.guild_settings(1) == {}
    await storage.settings.set_player_pref(9, "language", "so")
    assert await storage.settings.player_prefs(9) == {"language": "so"}
    assert await storage.settings.player_prefs(8) == {}
    await storage.settings.set_player_pref(9, "language", None)
    assert await storage.settings.player_prefs(9) == {}


def test_the_terminations_are_the_engines() -> None:
    assert [t.value for t in Termination] == [t.name for t in engine.Termination]


async def test_values_outside_a_vocabulary_are_refused_and_change_nothing(
    storage: Storage,
) -> None:
    game = await storage.games.create_game(new_game(), NOW)
    c = await storage.challenges.create_challenge(
        NewChallenge(1, 8, None, 11, "Amina", 12, "Bashir", "jar", NOW + timedelta(minutes=10)),
        NOW,
    )
    with pytest.raises(ValueError, match="declined, expired"):
        await storage.challenges.resolve_challenge(c.id, "accepted", NOW)
    with pytest.raises(ValueError):
        await storage.standings.leaderboard(1, "human", "wins")
    with pytest.raises(ValueError):
        await storage.games.finish_game(
            game.id, 0, record=[], result="white", termination="BOREDOM", now=NOW,
            **scored([], ("u:11", "u:12", None)),
        )  # fmt: skip
    assert (await storage.challenges.get_challenge(c.id)).status == "open"  # type: ignore[union-attr]
    assert await storage.games.get_game(game.id) == game


async def test_rows_carry_their_vocabularies(storage: Storage) -> None:
    game = await storage.games.create_game(
        replace(new_game(), ai_level="easy", ai_color="black"), NOW
    )
    assert game.status is GameStatus.ACTIVE and game.ai_color is AiColor.BLACK
    done = await storage.games.finish_game(
        game.id, 0, record=[], result="draw", termination="AGREEMENT", now=NOW,
        **scored([], ("u:11", "bot:easy", None)),
    )  # fmt: skip
    assert done is not None
    assert (done.game.status, done.game.result, done.game.termination) == (
        GameStatus.OVER,
        GameResult.DRAW,
        Termination.AGREEMENT,
    )


async def test_the_bots_record_is_its_opponents_tallies_turned_round(storage: Storage) -> None:
    assert await storage.standings.bot_record(1) == {}
    for channel, (kind, outcome) in enumerate(
        [("bot:easy", "loss"), ("bot:easy", "win"), ("bot:hard", "draw"), ("human", "win")]
    ):
        game = await storage.games.create_game(new_game(channel=100 + channel), NOW)
        done = await storage.games.finish_game(
            game.id,
            0,
            record=["a1"],
            result="white",
            termination="RESIGNATION",
            now=NOW,
            **scored([(11, "Amina", kind, outcome)], ("u:11", "bot:x", None)),
        )
        assert done is not None
    assert await storage.standings.bot_record(1) == {"bot:easy": (1, 1, 0), "bot:hard": (0, 0, 1)}
    assert await storage.standings.bot_record(2) == {}


async def test_a_file_named_with_url_characters_is_that_file(tmp_path: Path) -> None:
    path = tmp_path / "shax ?#%20.db"
    storage = await Storage.open(path)
    try:
        game = await storage.games.create_game(new_game(), NOW)
    finally:
        await storage.close()
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT id FROM games").fetchall() == [(game.id,)]


async def test_each_sqlite_call_is_one_trip_to_its_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call runs whole in the connection's thread, a transaction included: one trip each."""
    storage = await Storage.open(tmp_path / "s.db")
    trips: list[object] = []
    queued = ThreadPoolExecutor.submit

    def counted(self: ThreadPoolExecutor, fn: Callable[[], object]) -> Future[object]:
        trips.append(fn)
        return queued(self, fn)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", counted)
    try:
        game = await storage.games.create_game(new_game(), NOW)
        moved = await storage.games.update_game(
            game.id, 0, record=["a1"], draw_offered_by=None, now=NOW, new_turn=True
        )
        assert moved is not None and await storage.games.get_game(game.id) == moved
        finished = await storage.games.finish_game(
            game.id,
            1,
            record=["a1", "a4"],
            result=GameResult.WHITE,
            termination=Termination.RESIGNATION,
            now=NOW,
            **scored(
                [(11, "p11", "human", "win"), (12, "p12", "human", "loss")],
                ("u:11", "u:12", "u:11"),
            ),
        )
        assert finished is not None and finished.tallies[11][1].wins == 1
        assert len(trips) == 4
    finally:
        await storage.close()


async def test_postgresql_calls_keep_one_connection_open_between_them(
    postgres_server: PostgresServer,
) -> None:
    """One call after another runs on the same open connection (taking one from the
    engine's pool and giving it back costs more than most calls), an error of the call's
    own included; two at once use two."""
    storage = await Storage.open(await fresh_postgres(postgres_server))
    assert isinstance(storage._d, Postgres)
    pool = storage._d.engine.pool
    assert isinstance(pool, AsyncAdaptedQueuePool)
    try:
        game = await storage.games.create_game(new_game(), NOW)
        for _ in range(5):
            assert await storage.games.get_game(game.id) == game
        with pytest.raises(ChannelTaken):
            await storage.games.create_game(new_game(), NOW)
        assert pool.checkedout() == 1
        await asyncio.gather(*(storage.games.get_game(game.id) for _ in range(2)))
        assert pool.checkedout() == 2
    finally:
        await storage.close()
    assert pool.checkedout() == 0
