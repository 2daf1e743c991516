"""Challenges on both engines: closed once, expired, and accepted only into a free channel."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import (
    ChannelTaken,
    NewChallenge,
    Storage,
)
from tests.bot.storage.conftest import new_game

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


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
