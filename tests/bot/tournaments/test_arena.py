"""An arena through the service: paired at once as players come free, never against the
last opponent when another is free, a late join paired at once, a pause, the streak that
doubles the points, and the end when its time is up and its last games are over."""

from __future__ import annotations

from bot.service.facade import ShaxService
from bot.tournaments import notices
from bot.tournaments.notices import OpenedGame
from bot.tournaments.rows import Status
from tests.bot.tournaments.conftest import (
    AMINA,
    BASHIR,
    CAWO,
    DAHIR,
    HALL,
    Open,
    by_id,
    event_in,
    tick,
)
from tests.services import FakeClock, words


async def players_of(service: ShaxService, game: OpenedGame) -> tuple[int, int]:
    row = await service.kernel.game(game.reply.game_id or 0)
    return row.white_id, row.black_id


async def win(service: ShaxService, game: OpenedGame, winner: int) -> None:
    white, black = await players_of(service, game)
    await service.turns.resign(by_id(black if winner == white else white), game.place)


async def test_an_arena_pairs_again_at_once_and_ends_on_time(
    events: Open, clock: FakeClock
) -> None:
    service = await events()
    t = service.tournaments
    made = await t.create(AMINA, HALL, format="arena", minutes="30", turn="2m")
    assert "made an arena of Shax here: 30 minutes" in words(made.text)
    await t.join(BASHIR, HALL)
    await t.join(CAWO, HALL)
    started = await t.start(AMINA, HALL, may_manage=False)
    assert started.text.id == notices.ARENA_STARTED.id
    assert "waits for the next free opponent" in words(started.text)
    _, games = await tick(service)
    assert len(games) == 1
    first = await players_of(service, games[0])
    (waiting,) = {AMINA.id, BASHIR.id, CAWO.id} - set(first)
    # The winner of the first game comes free with the one who waited: paired at once, and
    # not again against the last opponent (who is free too).
    await win(service, games[0], first[0])
    _, games = await tick(service)
    assert len(games) == 1
    second = await players_of(service, games[0])
    assert waiting in second and set(second) != set(first)
    # A late player is paired at once with whoever is free.
    await t.join(DAHIR, HALL)
    _, late = await tick(service)
    assert len(late) == 1 and DAHIR.id in await players_of(service, late[0])
    # Three wins in a row: 2 + 2 + 4 (on fire after two).
    streaker = waiting
    await win(service, games[0], streaker)
    await win(service, late[0], (await players_of(service, late[0]))[0])
    for _ in range(2):
        _, games = await tick(service)
        assert len(games) == 2, "four free players: two games"
        for game in games:
            pair = await players_of(service, game)
            await win(service, game, streaker if streaker in pair else pair[0])
    event = await event_in(service)
    assert event.tournament.status is Status.PLAYING
    standings = await t.standings(HALL)
    text = words(standings.text)
    name = by_id(streaker).name
    assert f"1. {name} — 8 points · 3 games 🔥" in text, text
    # A pause: not paired again until the player joins again.
    paused = await t.leave(CAWO, HALL)
    assert paused.text.id == notices.PAUSED.id
    _, games = await tick(service)
    for game in games:
        assert CAWO.id not in await players_of(service, game)
    # Time up: no new game; the last ones are played out, then the podium.
    clock.advance(minutes=31)
    for game in games:
        await win(service, game, (await players_of(service, game))[0])
    said, more = await tick(service)
    assert more == []
    texts = "\n".join(words(n.reply.text) for n in said)
    assert "Standings after" in texts and "The tournament is over! 🥇" in texts
    assert (await event_in(service)).tournament.status is Status.FINISHED
