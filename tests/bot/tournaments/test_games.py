"""A tournament's games are ordinary games: opened once whatever asks twice, played with the
tournament's turn time, lost (not aborted) by a side that never moves, lost by a player
who leaves a Swiss, and rated as usual."""

from __future__ import annotations

from bot.service.replies import UserError
from bot.tournaments import notices
from bot.tournaments.rows import Outcome
from engine import Termination
from tests.bot.tournaments.conftest import (
    AMINA,
    DAHIR,
    HALL,
    Open,
    by_id,
    event_in,
    play_out,
    started,
    thread,
    tick,
)
from tests.services import FakeClock, words


async def test_a_pairing_gets_one_game_however_often_it_is_opened(events: Open) -> None:
    service = await events()
    await started(service, DAHIR)
    wanted = [n for n in await service.tournaments.tick() if not hasattr(n, "reply")]
    first, *_ = wanted
    opened = await service.tournaments.open_game(first.pairing_id, thread(first.pairing_id))
    again = await service.tournaments.open_game(first.pairing_id, thread(999))
    assert opened.new and not again.new
    assert again.reply.game_id == opened.reply.game_id
    assert again.place == opened.place == thread(first.pairing_id)
    assert "Round 1 of the tournament:" in words(opened.reply.text)
    _, games = await tick(service)
    assert len(games) == len(wanted) - 1, "the opened one is not asked for again"


async def test_a_game_has_the_tournaments_turn_time_and_is_lost_not_aborted(
    events: Open, clock: FakeClock
) -> None:
    service = await events()
    await service.tick()
    await started(service, DAHIR, turn="3m")
    _, games = await tick(service)
    clock.advance(minutes=2)  # past the warning of a three-minute turn (a day's is far off)
    warned = await service.tick()
    assert len(warned) == 2
    assert not any("abort" in words(n.reply.text) for n in warned), "no abort is threatened"
    clock.advance(minutes=2)
    ended = await service.tick()
    assert len(ended) == 2
    for game in games:
        row = await service.kernel.game(game.reply.game_id or 0)
        assert row.termination == Termination.TIMEOUT.name, "lost, not aborted"
        assert row.result == "black", "white never moved and lost"
    await tick(service)
    event = await event_in(service)
    assert [p.outcome for p in event.of_round(1) if not p.bye] == [Outcome.BLACK] * 2


async def test_a_tournament_game_is_rated_as_usual(events: Open) -> None:
    service = await events()
    await started(service, DAHIR, variant="shax-small")
    _, games = await tick(service)
    game = games[0]
    finished = await play_out(service, game, seed=3)
    assert finished.result is not None
    row = await service.kernel.game(game.reply.game_id or 0)
    rated = await service.kernel.storage.ratings.of(10, "shax", [row.white_id, row.black_id])
    assert set(rated) == {row.white_id, row.black_id}
    await tick(service)
    event = await event_in(service)
    done = next(p for p in event.pairings if p.game_id == row.id)
    assert done.outcome is not None and done.outcome.value == (row.result or "draw")


async def test_a_player_who_leaves_a_swiss_loses_the_game_under_way_and_gets_no_bye(
    events: Open,
) -> None:
    service = await events()
    await started(service, DAHIR)
    _, games = await tick(service)
    left = await service.tournaments.leave(AMINA, HALL)
    assert left.text.id == notices.WITHDRAWN.id
    assert "their game under way is lost" in words(left.text)
    said, _ = await tick(service)
    finals = [n for n in said if n.reply.game_id is not None]
    assert len(finals) == 1, "the game lost by leaving shows its final board"
    for game in games:  # the other game ends
        row = await service.kernel.game(game.reply.game_id or 0)
        if row.active:
            await service.turns.resign(by_id(row.black_id), game.place)
    said, games = await tick(service)
    event = await event_in(service)
    second = event.of_round(2)
    assert AMINA.id not in {p.white_id for p in second} | {p.black_id for p in second}
    assert len(second) == 2 and sum(p.bye for p in second) == 1, "three stay: one bye"
    for call in (service.tournaments.join(AMINA, HALL), service.tournaments.leave(AMINA, HALL)):
        try:
            await call
        except UserError as refusal:
            assert refusal.message.id in (notices.LEFT_FOR_GOOD.id, notices.NOT_IN_IT.id)
        else:
            raise AssertionError("a withdrawn player came back")


async def test_a_swiss_waits_its_pause_between_rounds(events: Open, clock: FakeClock) -> None:
    service = await events()
    await started(service, DAHIR, pause="2m")
    _, games = await tick(service)
    for game in games:
        row = await service.kernel.game(game.reply.game_id or 0)
        await service.turns.resign(by_id(row.black_id), game.place)
    said, games = await tick(service)
    assert games == []
    text = "\n".join(words(n.reply.text) for n in said)
    assert "Standings after round 1 of 3:" in text and "Round 2 begins in 2 minutes." in text
    clock.advance(minutes=1)
    assert await tick(service) == ([], [])
    clock.advance(minutes=1)
    said, games = await tick(service)
    assert len(games) == 2 and "Round 2 of 3:" in words(said[0].reply.text)


async def test_a_game_that_ends_wakes_the_tournaments(events: Open) -> None:
    service = await events()
    await started(service)
    _, games = await tick(service)
    assert not service.tournaments.due.is_set(), "the tick took the work"
    row = await service.kernel.game(games[0].reply.game_id or 0)
    await service.turns.resign(by_id(row.black_id), games[0].place)
    assert service.tournaments.due.is_set(), "the adapter's tick runs at once"
