"""The tournament repository on SQLite and PostgreSQL: one tournament open or playing a
channel (two made at once: one is), a step refused changes nothing, and a pairing's game
is made in the transaction that records it or not at all."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage import ChannelTaken, NewGame, Storage
from bot.storage.copy import migrate
from bot.tournaments.rows import (
    Changes,
    Event,
    Format,
    NewPairing,
    NewTournament,
    PairingRow,
    PlayerRow,
    Status,
    TournamentRow,
)
from bot.tournaments.store import TournamentStore
from tests.bot.storage.conftest import (  # noqa: F401 - fixtures
    database,
    fresh_postgres,
    postgres_server,
)
from tests.bot.storage.pgserver import PostgresServer

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def swiss(channel: int = 700) -> NewTournament:
    return NewTournament(
        guild_id=10,
        channel_id=channel,
        format=Format.SWISS,
        variant="shax",
        rounds=3,
        minutes=0,
        turn=timedelta(minutes=5),
        pause=timedelta(0),
        creator_id=1,
        creator_name="Amina",
        starts_at=None,
    )


@pytest.fixture
async def two(
    database: str | Path,  # noqa: F811 - the storage tests' fixture
) -> AsyncIterator[tuple[TournamentStore, TournamentStore]]:
    first, second = await Storage.open(database), await Storage.open(database)
    yield TournamentStore(first.runner), TournamentStore(second.runner)
    await first.close()
    await second.close()


async def test_one_tournament_a_channel_even_when_two_are_made_at_once(
    two: tuple[TournamentStore, TournamentStore],
) -> None:
    a, b = two
    made = await asyncio.gather(a.create(swiss(), NOW), b.create(swiss(), NOW))
    assert sum(m is not None for m in made) == 1
    assert await a.create(swiss(701), NOW) is not None, "another channel has its own"
    assert len(await b.running()) == 2


async def test_a_step_that_fails_half_way_changes_nothing(
    two: tuple[TournamentStore, TournamentStore],
) -> None:
    """Its writes are one transaction: a player written, then a second pairing of one
    player in one round (refused by the unique index) — the player is not kept either."""
    a, _ = two
    t = await a.create(swiss(), NOW)
    assert t is not None

    def broken(event: Event) -> tuple[Changes, None]:
        joined = PlayerRow(t.id, 2, "Bashir", 1500.0, NOW)
        twice = (NewPairing(1, 2, 3), NewPairing(1, 2, 4))
        return Changes(replace(event.tournament, round=1), players=(joined,), pairings=twice), None

    seen = await a.event(t.id)
    assert seen is not None
    changes, _ = broken(seen)
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        await a.apply(seen, changes, NOW)
    event = await a.event(t.id)
    assert event is not None
    assert (event.players, event.pairings, event.tournament.round) == ((), (), 0)


async def test_changes_decided_from_a_tournament_that_changed_meanwhile_are_not_written(
    two: tuple[TournamentStore, TournamentStore],
) -> None:
    a, b = two
    t = await a.create(swiss(), NOW)
    assert t is not None
    seen = await a.event(t.id)
    assert seen is not None
    bashir = Changes(seen.tournament, players=(PlayerRow(t.id, 2, "Bashir", 0.0, NOW),))
    cawo = Changes(seen.tournament, players=(PlayerRow(t.id, 3, "Cawo", 0.0, NOW),))
    assert await b.apply(seen, bashir, NOW)
    assert not await a.apply(seen, cawo, NOW), "decided from a tournament that is gone"
    event = await a.event(t.id)
    assert event is not None and [p.name for p in event.players] == ["Bashir"]


async def test_a_pairing_whose_place_is_taken_gets_no_game(
    two: tuple[TournamentStore, TournamentStore],
    database: str | Path,  # noqa: F811
) -> None:
    a, _ = two
    t = await a.create(swiss(), NOW)
    assert t is not None

    def paired(event: Event) -> tuple[Changes, None]:
        players = tuple(PlayerRow(t.id, u, n, 0.0, NOW) for u, n in ((1, "Amina"), (2, "Bashir")))
        started = replace(event.tournament, status=Status.PLAYING, round=1)
        return Changes(started, players=players, pairings=(NewPairing(1, 1, 2),)), None

    seen = await a.event(t.id)
    assert seen is not None
    assert await a.apply(seen, paired(seen)[0], NOW)
    storage = await Storage.open(database)
    try:
        taken = NewGame(10, 900, None, "shax", 3, "Cawo", 4, "Dahir")
        await storage.games.create_game(taken, NOW)

        def there(p: PairingRow, tr: TournamentRow, names: dict[int, str]) -> NewGame:
            return NewGame(10, 900, 700, tr.variant, p.white_id, names[p.white_id], 2, "B")

        event = await a.event(t.id)
        assert event is not None
        with pytest.raises(ChannelTaken):
            await a.open_game(event.pairings[0].id, there, NOW)
        again = await a.event(t.id)
        assert again is not None and again.pairings[0].game_id is None
        assert len(await storage.games.active_games()) == 1
    finally:
        await storage.close()


async def test_a_tournament_is_copied_to_postgresql_with_the_rest(
    tmp_path: Path,
    postgres_server: PostgresServer,  # noqa: F811 - the storage tests' fixture
) -> None:
    """``python -m bot migrate`` copies the tournament tables too (they are in ``TABLES``)."""
    source = tmp_path / "shax.db"
    old = await Storage.open(source)
    store = TournamentStore(old.runner)
    t = await store.create(swiss(), NOW)
    assert t is not None
    seen = await store.event(t.id)
    assert seen is not None
    players = tuple(PlayerRow(t.id, u, n, 0.0, NOW) for u, n in ((1, "Amina"), (2, "Bashir")))
    started = replace(seen.tournament, status=Status.PLAYING, round=1)
    assert await store.apply(seen, Changes(started, players, pairings=(NewPairing(1, 1, 2),)), NOW)
    await old.close()
    url = await fresh_postgres(postgres_server)
    counts = await migrate(source, url)
    assert (counts["tournaments"], counts["tournament_players"], counts["tournament_pairings"]) == (
        1,
        2,
        1,
    )
    old, new = await Storage.open(source), await Storage.open(url)
    try:
        copied = await TournamentStore(new.runner).event(t.id)
        assert copied == await TournamentStore(old.runner).event(t.id)
    finally:
        await old.close()
        await new.close()
