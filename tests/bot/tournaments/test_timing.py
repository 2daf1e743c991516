"""A tournament that starts by itself: the opening names the time, a reminder comes five
minutes before, and at its time it begins, or, with fewer than three players, is called
off in one sentence; a cancel by its creator ends it, its games going on as ordinary ones."""

from __future__ import annotations

from bot.tournaments import notices
from bot.tournaments.rows import Status
from tests.bot.tournaments.conftest import AMINA, BASHIR, CAWO, HALL, Open, event_in, started, tick
from tests.services import FakeClock, words


async def test_a_timed_start_reminds_then_begins(events: Open, clock: FakeClock) -> None:
    service = await events()
    t = service.tournaments
    made = await t.create(AMINA, HALL, start="30m")
    assert "it begins in 30 minutes" in words(made.text)
    await t.join(BASHIR, HALL)
    nothing = await t.standings(HALL)
    assert "Nothing has been played yet: 2 players are in." in words(nothing.text)
    clock.advance(minutes=20)
    assert await tick(service) == ([], [])
    clock.advance(minutes=6)
    said, _ = await tick(service)
    assert [words(n.reply.text) for n in said] == [
        "The tournament here begins in 4 minutes, with 2 players so far: "
        "`/shax tournament join` to play."
    ]
    assert await tick(service) == ([], []), "reminded once"
    await t.join(CAWO, HALL)
    clock.advance(minutes=4)
    said, games = await tick(service)
    assert [n.reply.text.id for n in said] == [notices.ROUND_PAIRED.id]
    assert len(games) == 1, "three players: one game and a bye"
    assert (await event_in(service)).tournament.status is Status.PLAYING


async def test_a_timed_start_with_too_few_players_is_called_off(
    events: Open, clock: FakeClock
) -> None:
    service = await events()
    await service.tournaments.create(AMINA, HALL, start="10m")
    clock.advance(minutes=11)
    said, games = await tick(service)
    assert games == []
    assert [words(n.reply.text) for n in said] == [
        "The tournament did not begin: it had 1 player, and 3 are needed. Make a new one with "
        "`/shax tournament create`."
    ]
    assert (await event_in(service)).tournament.status is Status.CANCELLED
    again = await service.tournaments.create(BASHIR, HALL)
    assert again.text.id == notices.CREATED.id, "the channel is free for the next one"


async def test_the_creator_cancels_and_the_games_go_on(events: Open) -> None:
    service = await events()
    t = service.tournaments
    await started(service)
    _, games = await tick(service)
    cancelled = await t.cancel(BASHIR, HALL, may_manage=True)
    assert "cancelled the tournament here" in words(cancelled.text)
    assert await tick(service) == ([], [])
    row = await service.kernel.game(games[0].reply.game_id or 0)
    assert row.active, "its game goes on as an ordinary game"
