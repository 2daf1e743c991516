"""Two connections (two bot processes) racing on one database, on both engines: a change
to one game applies exactly once, and games ending together both count."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.storage import (
    ChannelTaken,
    GameRow,
    NewChallenge,
    Storage,
)
from tests.bot.storage.conftest import new_game, scored

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def win(game: GameRow, winner: int, loser: int) -> dict[str, object]:
    return {
        "record": ["a1"],
        "result": "white" if winner == game.white_id else "black",
        "termination": "RESIGNATION",
        "now": NOW,
        **scored(
            [(winner, f"p{winner}", "human", "win"), (loser, f"p{loser}", "human", "loss")],
            (f"u:{game.white_id}", f"u:{game.black_id}", f"u:{winner}"),
        ),
    }


async def test_two_connections_moving_in_one_game_exactly_one_wins(
    two: tuple[Storage, Storage],
) -> None:
    a, b = two
    game = await a.games.create_game(new_game(), NOW)
    for version in range(5):
        results = await asyncio.gather(
            a.games.update_game(
                game.id, version, record=["a1"] * (version + 1), draw_offered_by=None,
                now=NOW, new_turn=True,
            ),
            b.games.update_game(
                game.id, version, record=["b2"] * (version + 1), draw_offered_by=None,
                now=NOW, new_turn=True,
            ),
        )  # fmt: skip
        winners = [r for r in results if r is not None]
        assert len(winners) == 1 and winners[0].version == version + 1
        assert await b.games.get_game(game.id) == winners[0]


async def test_a_move_racing_the_end_of_the_game_applies_only_one(
    two: tuple[Storage, Storage],
) -> None:
    a, b = two
    game = await a.games.create_game(new_game(), NOW)
    moved, finished = await asyncio.gather(
        a.games.update_game(
            game.id, 0, record=["a1"], draw_offered_by=None, now=NOW, new_turn=True
        ),
        b.games.finish_game(game.id, 0, **win(game, 11, 12)),  # type: ignore[arg-type]
    )
    assert (moved is None) != (finished is None)
    counted = await a.standings.tallies(1, 11)
    if finished is None:
        assert counted == {}  # the move won: the game goes on, nothing was counted
    else:
        assert counted["human"].wins == 1
    stored = await a.games.get_game(game.id)
    assert stored is not None and stored.version == 1


async def test_the_same_finish_from_two_connections_counts_once(
    two: tuple[Storage, Storage],
) -> None:
    a, b = two
    game = await a.games.create_game(new_game(), NOW)
    results = await asyncio.gather(
        a.games.finish_game(game.id, 0, **win(game, 11, 12)),  # type: ignore[arg-type]
        b.games.finish_game(game.id, 0, **win(game, 11, 12)),  # type: ignore[arg-type]
    )
    assert sum(r is not None for r in results) == 1
    assert (await b.standings.tallies(1, 11))["human"].wins == 1
    assert (await b.standings.series(1, "u:11", "u:12")).stones == 1


async def test_games_of_the_same_players_ending_together_both_count(
    two: tuple[Storage, Storage],
) -> None:
    """Two games between the same pair, in opposite colours, ending at once on two
    connections: both results reach the tallies and the series (none is lost)."""
    a, b = two
    one = await a.games.create_game(new_game(1), NOW)
    other = await a.games.create_game(replace(new_game(2), white_id=12, black_id=11), NOW)
    await asyncio.gather(
        a.games.finish_game(one.id, 0, **win(one, 11, 12)),  # type: ignore[arg-type]
        b.games.finish_game(other.id, 0, **win(other, 12, 11)),  # type: ignore[arg-type]
    )
    t11, t12 = (
        (await a.standings.tallies(1, 11))["human"],
        (await a.standings.tallies(1, 12))["human"],
    )
    assert (t11.wins, t11.losses, t12.wins, t12.losses) == (1, 1, 1, 1)
    assert (await a.standings.series(1, "u:11", "u:12")).games == 2


async def test_accepting_one_challenge_twice_starts_one_game(
    two: tuple[Storage, Storage],
) -> None:
    a, b = two
    c = await a.challenges.create_challenge(
        NewChallenge(1, 7, None, 11, "Amina", 12, "Bashir", "jar", NOW + timedelta(minutes=10)),
        NOW,
    )
    games = await asyncio.gather(
        a.challenges.accept_challenge(c.id, new_game(7), NOW),
        b.challenges.accept_challenge(c.id, new_game(7), NOW),
        return_exceptions=True,
    )
    started = [g for g in games if isinstance(g, GameRow)]
    assert len(started) == 1
    assert all(g is None or isinstance(g, GameRow | ChannelTaken) for g in games)
    assert [g.id for g in await b.games.active_games()] == [started[0].id]


async def test_two_games_racing_for_one_channel_one_is_refused(
    two: tuple[Storage, Storage],
) -> None:
    a, b = two
    results = await asyncio.gather(
        a.games.create_game(new_game(7), NOW),
        b.games.create_game(new_game(7), NOW),
        return_exceptions=True,
    )
    assert sum(isinstance(r, GameRow) for r in results) == 1
    assert sum(isinstance(r, ChannelTaken) for r in results) == 1
