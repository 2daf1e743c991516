"""The rows' vocabularies: the values the database accepts and the rows carry."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

import engine
from bot.storage import (
    AiColor,
    GameResult,
    GameStatus,
    NewChallenge,
    Storage,
    Termination,
)
from tests.bot.storage.conftest import new_game, scored

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


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
