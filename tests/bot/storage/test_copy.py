"""``python -m bot migrate --to postgresql://…``: everything in the SQLite file reaches the
PostgreSQL server (games, challenges, tallies, series, ratings, meta, settings, preferences) and
is read back to verify it; a server already holding data is refused, changing nothing."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage import NewChallenge, Storage, StorageError
from bot.storage.copy import copy_database, migrate
from bot.storage.tables import TABLES
from tests.bot.storage.conftest import fresh_postgres, new_game, rated, scored
from tests.bot.storage.pgserver import PostgresServer
from tests.bot.storage.test_puzzle_store import START, counting, new_puzzle

ROOT = Path(__file__).resolve().parents[3]
NOW = datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=UTC)


async def fill(storage: Storage) -> None:
    """Some of everything: a finished game and its rematch in play, a bot game, challenges
    open, accepted and expired, tallies, a series, ratings, the bot's facts and preferences, a
    hint, puzzles with a puzzle of the day, a try solved and one open."""
    first = await storage.games.create_game(new_game(1), NOW)
    await storage.games.finish_game(
        first.id, 0, record=["a1", "b1"], result="white", termination="RESIGNATION",
        now=NOW + timedelta(minutes=5),
        **scored([(11, "Amina", "human", "win"), (12, "Bashir", "human", "loss")],
                 ("u:11", "u:12", "u:11")),
        rated=rated({11: 1.0, 12: 0.0}),
    )  # fmt: skip
    rematch = await storage.games.create_game(replace(new_game(1), rematch_of=first.id), NOW)
    moved = await storage.games.update_game(
        rematch.id, 0, record=["b2"], draw_offered_by=12, now=NOW, new_turn=True
    )
    assert moved is not None
    await storage.games.set_board_message(rematch.id, 4444, moved.version)
    await storage.clock.warn_late(rematch.id, moved.version, NOW)
    bot_game = await storage.games.create_game(
        replace(new_game(2), ai_level="hard", ai_color="black"), NOW
    )
    await storage.games.use_hint(bot_game.id, 3)
    for channel in (3, 4, 5):
        c = await storage.challenges.create_challenge(
            NewChallenge(1, channel, 99, 11, "Amina", 13, "Cawo", "shax", NOW + timedelta(hours=1)),
            NOW,
        )
        if channel == 4:
            await storage.challenges.accept_challenge(c.id, new_game(4), NOW)
        if channel == 5:
            await storage.challenges.resolve_challenge(c.id, "expired", NOW)
            await storage.challenges.set_challenge_message(c.id, 5555)
    await storage.settings.set_meta("commands", "hash")
    await storage.clock.ran("0,1 of 4", NOW)
    await storage.settings.set_guild_setting(1, "threads", "always")
    await storage.settings.set_player_pref(11, "language", "so")
    await storage.puzzles.seed_puzzles([new_puzzle(1, 1200), new_puzzle(2, 1300)])
    daily = await storage.puzzles.claim_daily(1, "2024-05-01", 3, 2, NOW)
    assert daily is not None
    solved = await storage.puzzles.start_attempt(
        11, "Amina", 1, NOW, start=START, daily_id=daily.id
    )
    assert solved is not None
    await storage.puzzles.end_attempt(
        solved.id, 0, solved=True, played=["c2-c1"], now=NOW, rate=counting
    )
    await storage.puzzles.start_attempt(11, "Amina", 2, NOW, start=START)


@pytest.fixture
def server(postgres_server: PostgresServer) -> PostgresServer:
    return postgres_server


async def test_everything_is_copied_and_reads_back_the_same(
    tmp_path: Path, server: PostgresServer
) -> None:
    source = tmp_path / "shax.db"
    old = await Storage.open(source)
    await fill(old)
    await old.close()
    url = await fresh_postgres(server)

    counts = await migrate(source, url)

    assert counts == {
        "games": 4,
        "challenges": 3,
        "tallies": 2,
        "series": 1,
        "meta": 1,
        "guild_settings": 1,
        "player_prefs": 1,
        "hints": 1,
        "puzzles": 2,
        "puzzle_solvers": 1,
        "daily_puzzles": 1,
        "puzzle_attempts": 2,
        "ratings": 2,
        "game_ratings": 2,
        "clock_runs": 1,
        "tournaments": 0,
        "tournament_players": 0,
        "tournament_pairings": 0,
    }
    old, new = await Storage.open(source), await Storage.open(url)
    try:
        for table in TABLES:
            assert await new.export_rows(table) == await old.export_rows(table), table
        for game_id in range(1, 5):
            assert await new.games.get_game(game_id) == await old.games.get_game(game_id)
        assert (
            await new.challenges.open_challenges_all() == await old.challenges.open_challenges_all()
        )
        assert await new.standings.tallies(1, 11) == await old.standings.tallies(1, 11)
        assert await new.standings.series(1, "u:11", "u:12") == await old.standings.series(
            1, "u:11", "u:12"
        )
        assert await new.settings.player_prefs(11) == {"language": "so"}
        # New rows continue after the copied ids, and the copy is a working database.
        fresh = await new.games.create_game(new_game(9), NOW)
        assert fresh.id == 5
        assert await new.puzzles.seed_puzzles([new_puzzle(3, 1400)]) == 1
        assert await new.puzzles.puzzle_ids("shax-small") == [1, 2, 3]
    finally:
        await old.close()
        await new.close()


async def test_a_database_holding_data_is_refused_and_kept(
    tmp_path: Path, server: PostgresServer
) -> None:
    source = tmp_path / "shax.db"
    old = await Storage.open(source)
    await fill(old)
    url = await fresh_postgres(server)
    target = await Storage.open(url)
    try:
        await target.settings.set_meta("mine", "keep")
        with pytest.raises(StorageError, match="already holds meta"):
            await copy_database(old, target)
        assert await target.export_rows("games") == []
        assert await target.settings.get_meta("mine") == "keep"
    finally:
        await old.close()
        await target.close()


async def test_no_source_file_or_a_bad_target_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="There is no SQLite database at"):
        await migrate(tmp_path / "none.db", "postgresql://shax@/x")
    with pytest.raises(StorageError, match="--to must be a PostgreSQL URL"):
        await migrate(tmp_path / "none.db", "mysql://root@host/db")
    assert not (tmp_path / "none.db").exists()


def test_the_migrate_command_copies_and_reports(tmp_path: Path, server: PostgresServer) -> None:
    source = tmp_path / "shax.db"

    async def prepare() -> str:
        old = await Storage.open(source)
        await fill(old)
        await old.close()
        return await fresh_postgres(server)

    url = asyncio.run(prepare())
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    command = [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "no.env"), "migrate"]
    result = subprocess.run(
        [*command, "--from", str(source), "--to", url],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "4 games, 3 challenges, 2 tallies, 1 series" in result.stdout
    assert "every row verified" in result.stdout
    again = subprocess.run(
        [*command, "--from", str(source), "--to", url],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert again.returncode == 1 and "Traceback" not in again.stderr
    assert again.stderr.startswith("shax-bot: The database") and "already holds" in again.stderr
