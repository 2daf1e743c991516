"""Nothing lost, nothing twice, on SQLite and PostgreSQL: a bot stopped in the middle of a
round goes on after its restart (the pairings it had not opened are asked for again, the
game that ended meanwhile counts once, no round is paired twice); with several bot
processes only the one that owns the tournament's server runs it."""

from __future__ import annotations

from bot.tournaments.notices import PairingToOpen
from bot.tournaments.rows import Status
from tests.bot.tournaments.conftest import (
    DAHIR,
    GUILD,
    Open,
    by_id,
    event_in,
    started,
    thread,
    tick,
)
from tests.services import words


async def test_a_restart_in_the_middle_of_a_round_goes_on(events: Open) -> None:
    before = await events()
    t = before.tournaments
    await started(before, DAHIR, rounds="2")
    wanted = [n for n in await t.tick() if isinstance(n, PairingToOpen)]
    assert len(wanted) == 2
    # The bot opens one game, which is played to its end; then it stops, before opening
    # the other pairing's game and before its tick saw the end.
    opened = await t.open_game(wanted[0].pairing_id, thread(wanted[0].pairing_id))
    row = await before.kernel.game(opened.reply.game_id or 0)
    await before.turns.resign(by_id(row.black_id), opened.place)

    after = await events()  # the restarted bot, over the same database
    said, games = await tick(after)
    assert [g.place for g in games] == [thread(wanted[1].pairing_id)], "asked for again"
    assert not any("Round 2" in words(n.reply.text) for n in said), "the round is not over"
    event = await event_in(after)
    assert sum(p.done for p in event.pairings) == 1, "the game that ended counts, once"
    await after.turns.resign(
        by_id((await after.kernel.game(games[0].reply.game_id or 0)).black_id), games[0].place
    )
    said, games = await tick(after)
    assert sum("Round 2 of 2:" in words(n.reply.text) for n in said) == 1
    assert len(games) == 2
    # The old process comes back to life for a moment: its tick pairs nothing again.
    stale, _ = await tick(before)
    assert stale == []
    event = await event_in(after)
    assert [p.round for p in event.pairings] == [1, 1, 2, 2]
    assert event.tournament.status is Status.PLAYING


async def test_only_the_process_that_owns_the_server_runs_the_tournament(events: Open) -> None:
    mine = await events(owns=lambda guild: guild == GUILD)
    other = await events(owns=lambda guild: guild != GUILD)
    await started(mine)
    assert await other.tournaments.tick() == []
    _, games = await tick(mine)
    assert len(games) == 1
