"""Two bot processes at the same moment, on SQLite and PostgreSQL: two joins, two starts,
two results and two openings of one pairing each apply once, and the next round is paired
once."""

from __future__ import annotations

import asyncio

from bot.service.facade import ShaxService
from bot.service.replies import UserError
from bot.tournaments import notices
from bot.tournaments.notices import PairingToOpen
from tests.bot.tournaments.conftest import (
    AMINA,
    BASHIR,
    CAWO,
    DAHIR,
    HALL,
    Open,
    by_id,
    event_in,
    started,
    thread,
    tick,
)
from tests.services import words


async def refused_or_said(call: asyncio.Future[object] | object) -> str:
    """The id of what a call said: its reply's sentence, or its refusal's."""
    try:
        reply = await call  # type: ignore[misc]
    except UserError as refusal:
        return refusal.message.id
    return reply.text.id  # type: ignore[no-any-return, attr-defined]


async def two(events: Open) -> tuple[ShaxService, ShaxService]:
    return await events(), await events()


async def test_two_joins_and_two_starts_at_once_apply_once(events: Open) -> None:
    a, b = await two(events)
    await a.tournaments.create(AMINA, HALL)
    joins = await asyncio.gather(
        refused_or_said(a.tournaments.join(BASHIR, HALL)),
        refused_or_said(b.tournaments.join(BASHIR, HALL)),
    )
    assert sorted(joins) == sorted([notices.JOINED.id, notices.ALREADY_IN.id])
    await a.tournaments.join(CAWO, HALL)
    starts = await asyncio.gather(
        refused_or_said(a.tournaments.start(AMINA, HALL, may_manage=False)),
        refused_or_said(b.tournaments.start(AMINA, HALL, may_manage=False)),
    )
    assert sorted(starts) == sorted([notices.ROUND_PAIRED.id, notices.ALREADY_STARTED.id])
    event = await event_in(a)
    assert len(event.players) == 3
    assert [p.round for p in event.pairings] == [1, 1], "one game and one bye"


async def test_two_results_at_once_pair_the_next_round_once(events: Open) -> None:
    a, b = await two(events)
    await started(a, DAHIR)
    _, games = await tick(a)
    rows = [await a.kernel.game(g.reply.game_id or 0) for g in games]
    await asyncio.gather(
        a.turns.resign(by_id(rows[0].black_id), games[0].place),
        b.turns.resign(by_id(rows[1].black_id), games[1].place),
    )
    (said_a, opened_a), (said_b, opened_b) = await asyncio.gather(tick(a), tick(b))
    texts = [words(n.reply.text) for n in (*said_a, *said_b)]
    assert sum("Round 2 of 3:" in x for x in texts) == 1, texts
    assert sum("Standings after round 1" in x for x in texts) == 1, texts
    assert len({g.reply.game_id for g in (*opened_a, *opened_b)}) == 2, "two games, no more"
    assert sum(g.new for g in (*opened_a, *opened_b)) == 2
    event = await event_in(a)
    assert [p.round for p in event.pairings] == [1, 1, 2, 2]


async def test_one_pairing_opened_by_two_processes_at_once_has_one_game(events: Open) -> None:
    a, b = await two(events)
    await started(a)
    (pairing,) = [n for n in await a.tournaments.tick() if isinstance(n, PairingToOpen)]
    first, second = await asyncio.gather(
        a.tournaments.open_game(pairing.pairing_id, thread(pairing.pairing_id)),
        b.tournaments.open_game(pairing.pairing_id, thread(pairing.pairing_id + 100)),
    )
    assert first.new != second.new
    assert first.reply.game_id == second.reply.game_id
    assert first.place == second.place
    games = [g for g in await a.kernel.storage.games.active_games()]
    assert len(games) == 1
