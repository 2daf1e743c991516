"""The standings on both engines: the leaderboard's order and the bot's record."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage import (
    Storage,
)
from tests.bot.storage.conftest import black_resigns, new_game, scored

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


async def test_leaderboard_orders_by_streak(storage: Storage) -> None:
    for channel, (winner, loser) in enumerate([(11, 12), (11, 13), (12, 13)], start=1):
        game = await storage.games.create_game(new_game(channel), NOW)
        scoring = scored(
            [(winner, f"p{winner}", "human", "win"), (loser, f"p{loser}", "human", "loss")],
            (f"u:{winner}", f"u:{loser}", f"u:{winner}"),
        )
        await black_resigns(storage, game.id, NOW, scoring, record=())
    rows = await storage.standings.leaderboard(1, "human", "streak")
    assert [(uid, t.streak) for uid, _, t in rows] == [(11, 2), (12, 1)]
    assert await storage.standings.leaderboard(2, "human", "best") == []


async def test_the_bots_record_is_its_opponents_tallies_turned_round(storage: Storage) -> None:
    assert await storage.standings.bot_record(1) == {}
    for channel, (kind, outcome) in enumerate(
        [("bot:easy", "loss"), ("bot:easy", "win"), ("bot:hard", "draw"), ("human", "win")]
    ):
        game = await storage.games.create_game(new_game(channel=100 + channel), NOW)
        scoring = scored([(11, "Amina", kind, outcome)], ("u:11", "bot:x", None))
        done = await black_resigns(storage, game.id, NOW, scoring)
        assert done is not None
    assert await storage.standings.bot_record(1) == {"bot:easy": (1, 1, 0), "bot:hard": (0, 0, 1)}
    assert await storage.standings.bot_record(2) == {}
