"""Ten of anything at once give exactly what ten one after another would, on both engines
and from two connections (two bot processes): every read-modify-write is one transaction
holding the right lock, or rests on a unique index. Sent with ``asyncio.gather``, through
the storage and through the service as ``/shax`` commands and clicks reach it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service.facade import ShaxService
from bot.service.replies import ChannelBusy, Place, User, UserError
from bot.service.server_settings import SettingsChange
from bot.storage import ChallengeTaken, ChannelTaken, GameRow, NewChallenge, Storage
from tests.bot.storage.conftest import new_game
from tests.services import FakeClock, open_service

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
TEN = range(10)
AMINA, BASHIR = User(11, "Amina"), User(12, "Bashir")
BOT = User(999, "Shax", is_bot=True)


def challenge(channel: int = 7, rematch_of: int | None = None, by: int = 11) -> NewChallenge:
    them = 12 if by == 11 else 11
    expires = NOW + timedelta(minutes=10)
    return NewChallenge(
        1, channel, None, by, f"p{by}", them, f"p{them}", "jar", expires, rematch_of
    )


async def test_ten_settings_changes_at_once_all_count(two: tuple[Storage, Storage]) -> None:
    def allow(channel: int) -> object:
        def change(stored: dict[str, str]) -> dict[str, str | None]:
            listed = {c for c in stored.get("channels", "").split(",") if c}
            return {"channels": ",".join(sorted(listed | {str(channel)}))}

        return change

    await asyncio.gather(
        *(two[n % 2].settings.change_guild_settings(1, allow(100 + n)) for n in TEN)  # type: ignore[arg-type]
    )
    stored = await two[0].settings.guild_settings(1)
    assert sorted(stored["channels"].split(",")) == [str(100 + n) for n in TEN]


async def test_a_refused_settings_change_changes_nothing(storage: Storage) -> None:
    await storage.settings.set_guild_setting(1, "theme", "light")

    def refuse(stored: dict[str, str]) -> dict[str, str | None]:
        raise ValueError("no")

    with pytest.raises(ValueError):
        await storage.settings.change_guild_settings(1, refuse)
    assert await storage.settings.guild_settings(1) == {"theme": "light"}


async def test_ten_preference_changes_at_once_leave_one_of_them(
    two: tuple[Storage, Storage],
) -> None:
    chosen = ["en", "so"] * 5
    await asyncio.gather(
        *(two[n % 2].settings.set_player_pref(9, "language", chosen[n]) for n in TEN)
    )
    prefs = await two[1].settings.player_prefs(9)
    assert list(prefs) == ["language"] and prefs["language"] in ("en", "so")


async def test_ten_hints_at_once_take_exactly_the_limit(two: tuple[Storage, Storage]) -> None:
    game = await two[0].games.create_game(new_game(), NOW)
    used = await asyncio.gather(*(two[n % 2].games.use_hint(game.id, 3) for n in TEN))
    assert sorted(u for u in used if u is not None) == [1, 2, 3]
    assert used.count(None) == 7
    assert await two[1].games.hints_used(game.id) == 3


async def test_the_same_challenge_ten_times_at_once_opens_one(
    two: tuple[Storage, Storage],
) -> None:
    results = await asyncio.gather(
        *(two[n % 2].challenges.create_challenge(challenge(), NOW) for n in TEN),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert sum(isinstance(r, ChallengeTaken) for r in results) == 9
    assert len(await two[0].challenges.open_challenges(7)) == 1


async def test_ten_rematch_challenges_at_once_open_one(two: tuple[Storage, Storage]) -> None:
    game = await two[0].games.create_game(new_game(8), NOW)  # its rematch is asked in channel 7
    results = await asyncio.gather(
        *(
            two[n % 2].challenges.create_challenge(
                challenge(rematch_of=game.id, by=(11, 12)[n % 2]), NOW
            )
            for n in TEN
        ),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert sum(isinstance(r, ChallengeTaken) for r in results) == 9
    # A challenge between the same players that is not a rematch is a different one.
    await two[1].challenges.create_challenge(challenge(), NOW)
    assert len(await two[0].challenges.open_challenges(7)) == 2


async def test_no_challenge_opens_in_a_channel_whose_game_began(storage: Storage) -> None:
    await storage.games.create_game(new_game(7), NOW)
    with pytest.raises(ChannelTaken):
        await storage.challenges.create_challenge(challenge(), NOW)
    assert await storage.challenges.open_challenges(7) == []


async def test_ten_accepts_at_once_start_one_game(two: tuple[Storage, Storage]) -> None:
    c = await two[0].challenges.create_challenge(challenge(), NOW)
    games = await asyncio.gather(
        *(two[n % 2].challenges.accept_challenge(c.id, new_game(7), NOW) for n in TEN),
        return_exceptions=True,
    )
    started = [g for g in games if isinstance(g, GameRow)]
    assert len(started) == 1 and games.count(None) == 9
    assert [g.id for g in await two[1].games.active_games()] == [started[0].id]


async def test_ten_games_at_once_in_one_channel_start_one(two: tuple[Storage, Storage]) -> None:
    results = await asyncio.gather(
        *(two[n % 2].games.create_game(new_game(7), NOW) for n in TEN), return_exceptions=True
    )
    assert sum(isinstance(r, GameRow) for r in results) == 1
    assert sum(isinstance(r, ChannelTaken) for r in results) == 9


# -- through the service, as the commands and clicks arrive ------------------------------


@pytest.fixture
async def service(database: str | Path) -> AsyncIterator[ShaxService]:
    async with open_service(database, bot_user=BOT, clock=FakeClock(NOW)) as opened:  # type: ignore[arg-type]
        yield opened


async def answers(*calls: object) -> list[object]:
    """Each call's reply, or the refusal it got (a sentence, never a crash)."""
    results = await asyncio.gather(*calls, return_exceptions=True)  # type: ignore[arg-type]
    for result in results:
        assert not isinstance(result, BaseException) or isinstance(result, UserError), result
    return results


async def test_ten_allow_channel_settings_at_once_are_all_saved(service: ShaxService) -> None:
    here = Place(1, 50)
    await answers(
        *(
            service.settings(here, SettingsChange(allow_channel=100 + n), may_change=True)
            for n in TEN
        )
    )
    settings = await service.servers.of(1)
    assert settings.channels == frozenset(100 + n for n in TEN)


async def test_the_same_challenge_sent_twice_at_once_opens_one(service: ShaxService) -> None:
    here = Place(1, 7)
    results = await answers(
        service.challenges.challenge(AMINA, BASHIR, here, "jar"),
        service.challenges.challenge(AMINA, BASHIR, here, "jar"),
    )
    assert sum(isinstance(r, UserError) for r in results) == 1
    assert len(await service.storage.challenges.open_challenges(7)) == 1


async def test_rematch_clicked_by_both_players_at_once_starts_one_game(
    service: ShaxService,
) -> None:
    here = Place(1, 7)
    sent = await service.challenges.challenge(AMINA, BASHIR, here, "jar")
    await service.challenges.accept(BASHIR, here, sent.challenge_id)
    finished = await service.storage.games.active_game_in_channel(7)
    assert finished is not None
    await service.turns.resign(BASHIR, here)
    await answers(*(service.challenges.rematch((AMINA, BASHIR)[n % 2], finished.id) for n in TEN))
    rematches = [g for g in await service.storage.games.active_games() if g.id != finished.id]
    assert len(rematches) == 1  # one new game, in the finished game's channel
    assert await service.storage.challenges.open_challenges(7) == []


@pytest.fixture
async def two_services(database: str | Path) -> AsyncIterator[tuple[ShaxService, ShaxService]]:
    """Two services on one database (two bot processes)."""
    clock = FakeClock(NOW)
    async with (
        open_service(database, bot_user=BOT, clock=clock) as first,  # type: ignore[arg-type]
        open_service(database, bot_user=BOT, clock=clock) as second,  # type: ignore[arg-type]
    ):
        yield first, second


async def test_play_bot_sent_ten_times_at_once_in_one_channel_starts_one_game(
    two_services: tuple[ShaxService, ShaxService],
) -> None:
    here = Place(1, 7)
    results = await answers(
        *(two_services[n % 2].challenges.play_bot(AMINA, here, "easy", "jar", "me") for n in TEN)
    )
    started = [r for r in results if not isinstance(r, UserError)]
    refused = [r for r in results if isinstance(r, UserError)]
    assert len(started) == 1 and len(refused) == 9
    assert all(isinstance(r, ChannelBusy) for r in refused)
    storage = two_services[0].storage
    (game,) = await storage.export_rows("games")  # the refused ones wrote nothing
    assert (game["channel_id"], game["status"], game["record"]) == (7, "active", "")


async def test_play_bot_at_once_in_two_threads_of_one_channel_starts_a_game_in_each(
    two_services: tuple[ShaxService, ShaxService],
) -> None:
    # A busy channel sends each request to a thread of its own: each is judged there.
    threads = [Place(1, 70 + n, 7) for n in range(2)]
    await answers(
        *(
            s.challenges.play_bot(AMINA, t, "easy", "jar", "me")
            for s, t in zip(two_services, threads, strict=True)
        )
    )
    games = await two_services[0].storage.games.active_games()
    assert sorted((g.channel_id, g.parent_channel_id) for g in games) == [(70, 7), (71, 7)]
