"""The bot on PostgreSQL while PostgreSQL fails: nothing saved is left unshown.

``python -m bot`` runs against the fake Discord on a throwaway PostgreSQL server
(tests/bot/storage/pgserver.py), which the test kills (``pg_ctl -m immediate``, as a
crash) and brings back on the same data:

* a move saved just before PostgreSQL dies, whose board Discord would not take at that
  moment, is shown once PostgreSQL is back (the board is looked for again while the
  database does not answer, not only at the next reconnect);
* a bot move that PostgreSQL could not save (it died while the bot thought) is made and
  shown once PostgreSQL is back, not only at the clock's next tick;
* a board shown as PostgreSQL dies, before its message was recorded, is recorded once
  PostgreSQL is back, so that later edits find the board the players see;
* with two shard processes on one database, the process of one shard killed and started
  again posts what its servers were waiting for: a board Discord would not take before,
  and the bot's move it was thinking about, and a move it had saved while Discord was
  still receiving its answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from tests import services
from tests.bot.discord.helpers import (
    PROCESS_TOKEN,
    Scene,
    act_select,
    bot_running,
    live_boards,
    make_scene,
    option_values,
)
from tests.bot.storage.conftest import fresh_postgres, postgres_server
from tests.bot.storage.pgserver import PostgresServer
from tests.e2e.conftest import game_version, on_turn
from tests.e2e.processes import (
    BotProcess,
    next_board,
    process_scene,
    start_two_player_game,
)
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.faults import CALLBACKS, CHANNEL_MESSAGES

__all__ = ["postgres_server", "process_scene"]  # fixtures of this module's tests

SHARDS = 2
SHOWN_SECONDS = 30.0
"""The bound on showing a saved board once PostgreSQL is back (not a speed target)."""
THOUGHT_SECONDS = 120.0
"""The bound on a bot move made and shown once PostgreSQL is back (not a speed target)."""
TICK_APART = 3600
"""Seconds between the clock's ticks where a test must not be saved by a tick."""


@pytest_asyncio.fixture
async def database(postgres_server: PostgresServer) -> str:
    """A new, empty database on the server, for one test, whose commits survive a crash
    of the server. The session's server runs with ``synchronous_commit=off`` for speed:
    a commit is then acknowledged before it is written, and the server killed within
    0.6 s of it (three ``wal_writer_delay``) forgets it. Here the test kills the server
    just after a player's move was acknowledged, so the database's connections ask for
    PostgreSQL's default, as a deployment has it (``fsync=off`` stays: the machine does
    not crash, only the server)."""
    return await fresh_postgres(postgres_server) + "&synchronous_commit=on"


async def move_nobody_sees(scene: Scene, board: FakeMessage) -> None:
    """The player on turn picks the first action while Discord takes no answer at all:
    the move is saved, its board is shown nowhere."""
    fake = scene.fake
    fake.faults.add(CALLBACKS, status=503)
    fake.faults.add(CHANNEL_MESSAGES, status=503, method="POST")
    select = act_select(board)
    action = option_values(select)[0]
    await fake.select(on_turn(scene, board), board, select["custom_id"], [action], expect_ack=False)


async def test_a_move_saved_just_before_postgres_dies_is_shown_when_it_is_back(
    process_scene: Scene, postgres_server: PostgresServer, database: str
) -> None:
    scene, fake = process_scene, process_scene.fake
    bot = await BotProcess(scene, "chaos", SHAX_DATABASE_URL=database).start()
    try:
        board = await start_two_player_game(scene)
        game_id, version = game_version(board)

        await move_nobody_sees(scene, board)
        await fake.wait_for(
            lambda: "Could not post a reply in channel" in bot.log(),
            timeout=SHOWN_SECONDS,
            what="the answer given up",
        )
        postgres_server.kill()  # the move is saved; PostgreSQL dies before its board is shown
        fake.faults.clear()  # Discord takes answers again
        await fake.wait_for(
            lambda: "Could not look for boards the players have not seen" in bot.log(),
            timeout=SHOWN_SECONDS,
            what="a look for the board while PostgreSQL is down",
        )
        postgres_server.run()

        shown = await next_board(
            scene, game_id, version + 1, may_linger=board.id, timeout=SHOWN_SECONDS
        )
        assert game_version(shown) == (game_id, version + 1)
    finally:
        if not (postgres_server.data / "postmaster.pid").exists():
            postgres_server.run()  # the session's other tests use the server too
        assert await bot.stop() == 0, bot.log()
    assert "Traceback" not in bot.log().split("Could not look for boards")[0], bot.log()


@pytest_asyncio.fixture
async def sharded_scene(tmp_path: Path) -> AsyncIterator[Scene]:
    """The scene on a fake Discord of two shards."""
    async with FakeDiscord(token=PROCESS_TOKEN, shard_count=SHARDS) as fake:
        yield make_scene(fake, tmp_path / "shax.db")


def shard_process(scene: Scene, database: str, shard: int, name: str) -> BotProcess:
    """``python -m bot`` for one shard of two, on the shared database."""
    return BotProcess(
        scene,
        name,
        SHAX_DATABASE_URL=database,
        SHAX_SHARDS=str(SHARDS),
        SHAX_SHARD_IDS=str(shard),
        # The process of shard 0 registers the commands; the other leaves them be.
        SHAX_SYNC_COMMANDS="auto" if shard == 0 else "never",
    )


async def restart_and_see(
    scene: Scene, database: str, processes: dict[int, BotProcess], ours: int, board: FakeMessage
) -> None:
    """Kill the process of shard ``ours`` (a move saved, its board not yet shown), start
    it again, and see the board of the move after ``board`` posted."""
    fake = scene.fake
    game_id, version = game_version(board)
    owner = processes[ours]
    assert owner.process is not None
    owner.process.kill()
    await owner.process.wait()
    await fake.wait_for(
        lambda: len(fake.gateway.identified_connections()) == SHARDS - 1,
        what="its connection closed",
    )
    fake.faults.clear()
    processes[ours] = await shard_process(scene, database, ours, "restarted").start()
    shown = await next_board(
        scene, game_id, version + 1, may_linger=board.id, timeout=SHOWN_SECONDS
    )
    assert game_version(shown) == (game_id, version + 1)


async def stop_all(processes: dict[int, BotProcess]) -> None:
    """Stop every shard process still running; none logged a traceback."""
    for process in processes.values():
        if process.process is not None and process.process.returncode is None:
            await process.stop()
    for process in processes.values():
        assert "Traceback" not in process.log(), process.log()


async def test_a_restarted_shard_process_posts_the_board_awaiting_display(
    sharded_scene: Scene, database: str
) -> None:
    scene, fake = sharded_scene, sharded_scene.fake
    ours = fake.shard_of(scene.channel.guild_id)  # the shard of the game's server
    processes = {
        shard: await shard_process(scene, database, shard, f"shard{shard}").start()
        for shard in range(SHARDS)
    }
    try:
        board = await start_two_player_game(scene)
        await move_nobody_sees(scene, board)
        owner = processes[ours]
        await fake.wait_for(
            lambda: "Could not post a reply in channel" in owner.log(),
            timeout=SHOWN_SECONDS,
            what="the answer given up",
        )
        # The process of the game's shard dies with the board unshown.
        await restart_and_see(scene, database, processes, ours, board)
    finally:
        await stop_all(processes)


async def test_a_restarted_shard_process_makes_and_posts_the_bot_move_it_was_thinking(
    sharded_scene: Scene, database: str
) -> None:
    scene, fake = sharded_scene, sharded_scene.fake
    ours = fake.shard_of(scene.channel.guild_id)
    processes = {
        shard: await shard_process(scene, database, shard, f"shard{shard}").start()
        for shard in range(SHARDS)
    }
    try:
        await fake.wait_for(lambda: fake.commands(fake.guild_id), what="the commands synced")
        started = await fake.slash(
            scene.amina, scene.channel, "shax", "play-bot", {"level": "master", "first": "bot"}
        )
        await started.wait_until(lambda r: r.acknowledged, timeout=SHOWN_SECONDS)
        owner = processes[ours]
        assert owner.process is not None
        owner.process.kill()  # while the bot thinks about its first move
        await owner.process.wait()
        await fake.wait_for(
            lambda: len(fake.gateway.identified_connections()) == SHARDS - 1,
            what="its connection closed",
        )
        processes[ours] = await shard_process(scene, database, ours, "restarted").start()
        shown = await next_board(scene, 1, 1, timeout=SHOWN_SECONDS)
        assert game_version(shown) == (1, 1)
    finally:
        for process in processes.values():
            if process.process is not None and process.process.returncode is None:
                await process.stop()


async def test_the_bot_move_postgres_could_not_save_is_made_when_it_is_back(
    process_scene: Scene, postgres_server: PostgresServer, database: str
) -> None:
    scene, fake = process_scene, process_scene.fake
    # The clock's own ticks far apart: the move must come from the bot seeing the
    # database back, not from the next tick.
    bot = await BotProcess(
        scene, "thinking", SHAX_DATABASE_URL=database, SHAX_TICK_SECONDS=str(TICK_APART)
    ).start()
    try:
        await fake.wait_for(lambda: fake.commands(fake.guild_id), what="the commands synced")
        started = await fake.slash(
            scene.amina, scene.channel, "shax", "play-bot", {"level": "master", "first": "me"}
        )
        board = await next_board(scene, 1, 0, timeout=SHOWN_SECONDS)
        select = act_select(board)
        moved = await fake.select(
            scene.amina, board, select["custom_id"], [option_values(select)[0]]
        )
        assert moved.acknowledged  # Amina's move is saved; the bot starts to think
        postgres_server.kill()  # while the bot thinks: its move cannot be saved
        await asyncio.sleep(8)
        postgres_server.run()
        # (the master thinks again, on a machine other tests keep busy)
        shown = await next_board(scene, 1, 2, may_linger=board.id, timeout=THOUGHT_SECONDS)
        assert game_version(shown) == (1, 2)
        assert started.acknowledged
    finally:
        if not (postgres_server.data / "postmaster.pid").exists():
            postgres_server.run()
        assert await bot.stop() == 0, bot.log()


async def test_a_restarted_shard_process_posts_a_move_saved_while_its_answer_was_on_the_way(
    sharded_scene: Scene, database: str
) -> None:
    scene, fake = sharded_scene, sharded_scene.fake
    ours = fake.shard_of(scene.channel.guild_id)
    processes = {
        shard: await shard_process(scene, database, shard, f"shard{shard}").start()
        for shard in range(SHARDS)
    }
    try:
        board = await start_two_player_game(scene)
        game_id, version = game_version(board)
        # Discord holds every answer for a while: the move is saved, its board not yet shown.
        fake.faults.add(CALLBACKS, status=None, delay=SHOWN_SECONDS)
        fake.faults.add(CHANNEL_MESSAGES, status=None, delay=SHOWN_SECONDS)
        select = act_select(board)
        await fake.select(
            on_turn(scene, board),
            board,
            select["custom_id"],
            [option_values(select)[0]],
            expect_ack=False,
        )
        stored = await asyncpg.connect(database)

        async def saved() -> None:
            query = "SELECT version FROM games WHERE id = $1"
            while await stored.fetchval(query, game_id) == version:
                await asyncio.sleep(0.05)

        try:
            await asyncio.wait_for(saved(), SHOWN_SECONDS)  # a bound, not a measurement
        finally:
            await stored.close()
        await restart_and_see(scene, database, processes, ours, board)
    finally:
        await stop_all(processes)


async def test_a_board_shown_as_postgres_dies_is_recorded_when_it_is_back(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    postgres_server: PostgresServer,
    database: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A move is saved, then PostgreSQL dies as its new board is posted: the board shows,
    the old one is gone, and once PostgreSQL is back the game records the new board's
    message (later edits and notices find the board the players see), shown once."""
    scene = make_scene(fake_discord, tmp_path / "unused.db")
    fake = scene.fake
    async with (
        services.open_service(database, bot_user=scene.bot_user) as service,  # type: ignore[arg-type]
        bot_running(scene, service) as bot,
    ):
        board = await start_two_player_game(scene)
        game_id, version = game_version(board)
        assert await bot.responder.wait_idle(SHOWN_SECONDS)  # the first board is recorded
        storage = service.boards.kernel.storage
        record = storage.games.set_board_message

        async def dies_first(*args: Any) -> None:
            monkeypatch.undo()  # once
            await asyncio.to_thread(postgres_server.kill)
            await record(*args)

        monkeypatch.setattr(storage.games, "set_board_message", dies_first)
        try:
            select = act_select(board)
            await fake.select(
                on_turn(scene, board), board, select["custom_id"], [option_values(select)[0]]
            )
            shown = await next_board(scene, game_id, version + 1, timeout=SHOWN_SECONDS)
        finally:
            await asyncio.to_thread(postgres_server.run)
        for _ in range(int(SHOWN_SECONDS / 0.1)):  # a bound, not a measurement
            row = await storage.games.get_game(game_id)
            if row is not None and row.board_message_id == shown.id:
                break
            await asyncio.sleep(0.1)
        assert row is not None and row.board_message_id == shown.id
        assert (row.version, row.shown_version) == (version + 1, version + 1)
        await service.boards.reconcile()
        assert live_boards(fake, scene.channel) == [shown]  # shown once
