"""Ratings in the database, on both engines: written with a game's finish, in the same
transaction; two games of one player ending at once both count, one after the other;
recomputing every rating from the games gives exactly the stored figures."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection

from bot.service.kernel import row_outcome
from bot.service.rating_replies import recompute
from bot.service.ratings import rerate
from bot.service.replies import Place, User
from bot.storage import Finished, GameRow, Storage
from bot.storage.rating_store import HISTORY, RANKED
from tests.bot.storage.conftest import new_game, rated, scored, spoil_ratings
from tests.services import FakeClock, open_service

ROOT = Path(__file__).resolve().parents[3]
NOW = datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=UTC)
AMINA, BASHIR, CAWO = 11, 12, 13
NAMES = {AMINA: "Amina", BASHIR: "Bashir", CAWO: "Cawo"}


async def start(storage: Storage, channel: int, white: int, black: int) -> GameRow:
    game = replace(
        new_game(channel),
        variant="shax",
        white_id=white,
        white_name=NAMES[white],
        black_id=black,
        black_name=NAMES[black],
    )
    return await storage.games.create_game(game, NOW)


async def finish(
    storage: Storage, game: GameRow, winner: int, at: datetime = NOW, *, rate: bool = True
) -> Finished | None:
    loser = game.black_id if winner == game.white_id else game.white_id
    color = "white" if winner == game.white_id else "black"
    return await storage.games.finish_game(
        game.id, game.version, record=["a1", "a7"], result=color, termination="RESIGNATION",
        now=at,
        **scored([(winner, NAMES[winner], "human", "win"), (loser, NAMES[loser], "human", "loss")],
                 (f"u:{game.white_id}", f"u:{game.black_id}", f"u:{winner}")),
        rated=rated({winner: 1.0, loser: 0.0}) if rate else None,
    )  # fmt: skip


async def test_a_rated_finish_writes_both_ratings_and_the_games_before_and_after(
    storage: Storage,
) -> None:
    game = await start(storage, 7, AMINA, BASHIR)
    finished = await finish(storage, game, AMINA, NOW + timedelta(minutes=3))
    assert finished is not None
    (a_before, a_after), (b_before, b_after) = finished.ratings[AMINA], finished.ratings[BASHIR]
    assert a_before is None and b_before is None
    assert a_after.rating > 1500 > b_after.rating
    assert a_after.games == b_after.games == 1
    assert a_after.rated_at == finished.game.ended_at
    stored = await storage.ratings.of(1, "shax", [AMINA, BASHIR, CAWO])
    assert stored == {AMINA: a_after, BASHIR: b_after}
    history = await storage.ratings.history(1, "shax", AMINA)
    assert history == [(finished.game.ended_at, a_after.rating)]


async def test_a_stale_finish_rates_nobody(storage: Storage) -> None:
    game = await start(storage, 7, AMINA, BASHIR)
    assert await finish(storage, game, AMINA) is not None
    assert await finish(storage, game, BASHIR) is None
    stored = await storage.ratings.of(1, "shax", [AMINA, BASHIR])
    assert stored[AMINA].games == 1 and stored[AMINA].rating > 1500


async def test_two_games_of_one_player_ending_at_once_both_count(
    two: tuple[Storage, Storage],
) -> None:
    first = await start(two[0], 7, AMINA, BASHIR)
    second = await start(two[0], 8, CAWO, AMINA)
    # Cawo's game is finished with the earlier moment, and may still be rated second.
    done = await asyncio.gather(
        finish(two[0], first, AMINA, NOW + timedelta(seconds=2)),
        finish(two[1], second, AMINA, NOW + timedelta(seconds=1)),
    )
    assert all(f is not None for f in done)
    stored = (await two[0].ratings.of(1, "shax", [AMINA]))[AMINA]
    assert stored.games == 2
    changes = sorted(
        (f.ratings[AMINA] for f in done if f is not None),
        key=lambda change: change[1].rated_at,
    )
    (before_1, after_1), (before_2, after_2) = changes
    assert before_1 is None and before_2 == after_1 and after_2 == stored
    assert after_2.rating > after_1.rating > 1500
    history = await two[0].ratings.history(1, "shax", AMINA)
    assert [rating for _, rating in history] == [after_1.rating, after_2.rating]


async def test_recomputing_gives_the_stored_figures_again(storage: Storage) -> None:
    channel = iter(range(100, 200))
    moment = iter(NOW + timedelta(hours=h, seconds=s) for h in range(0, 900, 30) for s in (0,))
    for white, black, winner in [
        (AMINA, BASHIR, AMINA), (BASHIR, CAWO, CAWO), (CAWO, AMINA, AMINA),
        (AMINA, BASHIR, BASHIR), (BASHIR, AMINA, AMINA), (CAWO, BASHIR, CAWO),
    ]:  # fmt: skip
        game = await start(storage, next(channel), white, black)
        assert await finish(storage, game, winner, next(moment)) is not None
    ratings_before = await storage.export_rows("ratings")
    games_before = await storage.export_rows("game_ratings")
    assert len(games_before) == 12
    await spoil_ratings(storage)

    changes = await storage.ratings.recompute(
        lambda finished: rerate([(g, outcome) for g in finished if (outcome := row_outcome(g))])
    )

    assert len(changes) == 12
    assert await storage.export_rows("ratings") == ratings_before
    assert await storage.export_rows("game_ratings") == games_before


async def test_the_recompute_command_rates_games_finished_before_ratings_existed(
    database: str | Path, tmp_path: Path
) -> None:
    storage = await Storage.open(database)
    try:
        for channel, (white, black, winner) in enumerate(
            [(AMINA, BASHIR, AMINA), (CAWO, AMINA, CAWO), (BASHIR, CAWO, BASHIR)], start=20
        ):
            game = await start(storage, channel, white, black)
            at = NOW + timedelta(days=channel)
            assert await finish(storage, game, winner, at, rate=False) is not None
        assert await storage.ratings.of(1, "shax", list(NAMES)) == {}
    finally:
        await storage.close()

    done = subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", str(tmp_path / "no.env"),
         "ratings", "recompute", "--database", str(database)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert "Rated 3 finished games again" in done.stdout and "3 ratings" in done.stdout
    storage = await Storage.open(database)
    try:
        stored = await storage.ratings.of(1, "shax", list(NAMES))
        assert sorted(stored) == sorted(NAMES) and all(r.games == 2 for r in stored.values())
        assert len(await storage.export_rows("game_ratings")) == 6
    finally:
        await storage.close()


async def test_two_games_of_one_player_resigned_at_once_in_two_bot_processes_both_count(
    database: str | Path,
) -> None:
    clock = FakeClock(NOW)
    bot = User(999, "Shax", is_bot=True)
    people = {user: User(user, name) for user, name in NAMES.items()}
    amina = people[AMINA]
    places = {BASHIR: Place(1, 31), CAWO: Place(1, 32)}
    async with (
        open_service(database, bot_user=bot, clock=clock) as first,  # type: ignore[arg-type]
        open_service(database, bot_user=bot, clock=clock) as second,  # type: ignore[arg-type]
    ):
        for opponent, place in places.items():
            await first.challenges.challenge(amina, people[opponent], place, "shax")
            await first.challenges.accept(people[opponent], place)
            await first.play(amina, place, "d7")
            await first.play(people[opponent], place, "a7")
        await asyncio.gather(
            first.turns.resign(people[BASHIR], places[BASHIR]),
            second.turns.resign(people[CAWO], places[CAWO]),
        )
        stored = (await first.storage.ratings.of(1, "shax", [AMINA]))[AMINA]
        assert stored.games == 2
        history = await first.storage.ratings.history(1, "shax", AMINA)
        assert len(history) == 2 and history[-1][1] == stored.rating
        before = await first.storage.export_rows("ratings")
        await spoil_ratings(first.storage)
        await recompute(first.storage)
        assert await first.storage.export_rows("ratings") == before


async def test_what_a_board_shows_beside_it_is_read_in_one_trip_as_each_read_alone(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start(storage, 7, AMINA, BASHIR)
    await finish(storage, game, AMINA)
    await storage.settings.set_player_pref(AMINA, "language", "so")
    await storage.settings.set_player_pref(AMINA, "theme", "light")
    pair = (f"u:{AMINA}", f"u:{BASHIR}")
    trips = 0
    run = storage._d.run

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal trips
        trips += 1
        return await run(*args, **kwargs)

    monkeypatch.setattr(storage._d, "run", counted)
    beside = await storage.games.beside_board(
        1, pair, [AMINA, CAWO], ("shax", [AMINA, BASHIR, CAWO])
    )
    assert trips == 1
    assert beside.series == await storage.standings.series(1, *pair) and beside.series.games == 1
    assert beside.prefs == {AMINA: {"language": "so", "theme": "light"}, CAWO: {}}
    assert beside.prefs == {AMINA: await storage.settings.player_prefs(AMINA), CAWO: {}}
    assert set(beside.ratings) == {AMINA, BASHIR}
    assert beside.ratings == await storage.ratings.of(1, "shax", [AMINA, BASHIR, CAWO])
    # Nothing rated to read, nobody to ask: the series alone.
    alone = await storage.games.beside_board(2, pair, [], None)
    assert alone.series.games == 0 and alone.prefs == {} and alone.ratings == {}


@pytest.mark.parametrize(
    ("read", "index"), [(RANKED, "ratings_ranked"), (HISTORY, "game_ratings_by_player")]
)
async def test_the_leaderboard_and_a_rating_history_are_read_through_their_indexes(
    tmp_path: Path, read: Any, index: str
) -> None:
    """A server's leaderboard and a player's rating history search their index (SQLite's
    plan for them), not every rating the bot ever stored."""
    storage = await Storage.open(tmp_path / "s.db")

    def plan(conn: Connection) -> list[str]:
        compiled = read.compile(conn)
        values = tuple(0 for _ in compiled.positiontup or ())
        found = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}", values)
        return [str(step[-1]) for step in found]

    try:
        steps = await storage.runner.run(plan)
    finally:
        await storage.close()
    assert any(step.startswith("SEARCH") and f"USING INDEX {index} " in step for step in steps)
