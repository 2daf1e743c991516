"""Chaos: a real game played through random faults, then checked move by move.

Before each click a seeded choice of fault is switched on in the fake Discord: none,
callbacks answering 500, Discord's 429 that never clears, Cloudflare's 429, slow
callbacks, every answer failing (callbacks and channel posts), a dropped gateway
connection or Discord's RECONNECT while the answer is on its way. When nothing could be
shown, the bot shows the board after its connection resumes. Then, game by game: every
move the players made is stored once, every stored move was shown, and every record
replays in the engine. The figures are printed (``pytest -s -k chaos``).

The game is played on SQLite with every storage setting off and on, and on PostgreSQL.
With ``SHAX_BACKUP_DIR`` the bot takes its daily backup first and ``python -m bot backup``
copies the database from another process between the clicks. What is stored is read
through a connection of the test's own, never the bot's; on SQLite the record is read
back at the end by yet another process too (what a restart would find).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.storage import Storage
from bot.storage.backup import DailyBackups
from bot.storage.rows import GameRow
from engine import replay
from tests import services
from tests.bot.discord.helpers import (
    Scene,
    act_select,
    bot_running,
    live_boards,
    option_values,
)
from tests.bot.storage.conftest import fresh_postgres, postgres_server
from tests.e2e.conftest import Live, game_version, on_turn, start_game
from tests.fakediscord import FakeMessage
from tests.fakediscord.faults import ANSWERS, CALLBACKS
from tests.services import FakeClock

CLICKS = 10
SEED = 11
ROOT = Path(__file__).resolve().parents[2]
__all__ = ["postgres_server"]  # a fixture of this module's tests
FAULTS = ("none", "500", "429", "cloudflare", "slow", "nothing shown", "drop", "reconnect")


@dataclass
class Chaos:
    """The bot, and the test's own connection to the bot's database."""

    live: Live
    reader: Storage
    on_sqlite: bool


@pytest_asyncio.fixture(params=["SQLite, backups off", "SQLite, backups on", "PostgreSQL"])
async def chaos(request: pytest.FixtureRequest, scene: Scene) -> AsyncIterator[Chaos]:
    """A ready in-process bot on SQLite (with or without its daily backups) or on a
    throwaway PostgreSQL server."""
    clock = FakeClock()
    options: dict[str, Any] = {}
    target: str | Path = scene.db_path
    if request.param == "PostgreSQL":
        target = await fresh_postgres(request.getfixturevalue("postgres_server"))
    if request.param == "SQLite, backups on":
        folder = scene.db_path.parent / "daily"
        options["backups"] = DailyBackups(scene.db_path, folder, keep=3, clock=clock)
    async with (
        services.open_service(target, bot_user=scene.bot_user, clock=clock, **options) as service,
        bot_running(scene, service) as bot,
    ):
        live = Live(scene, service, bot, clock)
        if service.backups is not None:
            await service.tick()  # the day's backup, taken in the bot's own process
            assert len(service.backups.existing()) == 1
        reader = await Storage.open(target)
        try:
            yield Chaos(live, reader, on_sqlite=isinstance(target, Path))
        finally:
            await reader.close()
    scene.fake.assert_clean()


def backup_from_another_process(db_path: Path, number: int) -> None:
    """``python -m bot backup`` while the bot runs: another process opens and closes the
    database, as the ``sqlite3`` tool or any reader would."""
    no_env = str(db_path.parent / "no.env")
    target = str(db_path.parent / f"copy-{number}.db")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--env-file", no_env, "backup", target],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "SHAX_DB_PATH": str(db_path), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def record_seen_by_another_process(db_path: Path, game_id: int) -> tuple[str, ...]:
    """The game's record as a new process finds it, as after a crash and restart."""
    read = (
        "import sqlite3, sys; from contextlib import closing\n"
        "with closing(sqlite3.connect(sys.argv[1])) as db:\n"
        "    print(db.execute('SELECT record FROM games WHERE id = ?', (int(sys.argv[2]),))"
        ".fetchone()[0])"
    )
    found = subprocess.run(
        [sys.executable, "-c", read, str(db_path), str(game_id)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return tuple(found.stdout.split())


def inject(live: Live, fault: str) -> None:
    faults = live.fake.faults
    if fault == "500":
        faults.add(CALLBACKS, status=500)
    elif fault == "429":
        faults.add(CALLBACKS, status=429, retry_after=0.05)
    elif fault == "cloudflare":
        faults.add(CALLBACKS, status=429, via=False)
    elif fault == "slow":
        faults.add(CALLBACKS, status=None, delay=0.5)
    elif fault == "nothing shown":
        faults.add(*ANSWERS, status=503)  # discord.py does not retry a 503


async def the_board(live: Live, game_id: int, version: int) -> FakeMessage:
    """The one live board of the game, once it shows ``version``."""

    def shown() -> FakeMessage | None:
        boards = live_boards(live.fake, live.scene.channel)
        if len(boards) == 1 and game_version(boards[0]) == (game_id, version):
            return boards[0]
        return None

    return await live.fake.wait_for(shown, timeout=15, what=f"board v{version}")


async def stored(reader: Storage, game_id: int, version: int) -> GameRow:
    """The game as stored, once it is stored at ``version``."""
    for _ in range(300):
        game = await reader.games.get_game(game_id)
        if game is not None and game.version == version:
            return game
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} was not stored at version {version}")


async def test_a_game_played_through_random_faults_loses_nothing(chaos: Chaos) -> None:
    live, reader = chaos.live, chaos.reader
    scene, fake = live.scene, live.fake
    backups = live.service.backups
    live.bot.responder.callback_window = 1.5  # a failing callback is given up sooner
    rng = random.Random(SEED)
    board = await start_game(live)
    game_id, version = game_version(board)
    played: list[str] = []
    used: Counter[str] = Counter()
    # Every fault once, in a shuffled order, then a few more at random.
    plan = rng.sample(FAULTS, len(FAULTS))
    plan += [rng.choice(FAULTS) for _ in range(CLICKS - len(plan))]
    for fault in plan:
        used[fault] += 1
        inject(live, fault)
        select = act_select(board)
        action = rng.choice(option_values(select))
        player = on_turn(scene, board)
        clicking = asyncio.create_task(
            fake.select(player, board, select["custom_id"], [action], expect_ack=False)
        )
        await asyncio.sleep(0)  # the click is sent; the gateway faults come after it
        if fault == "drop":
            fake.drop_connections()
        elif fault == "reconnect":
            fake.request_reconnect()
        await clicking
        await stored(reader, game_id, version + 1)
        assert await live.bot.responder.wait_answered(15)
        fake.faults.clear()
        if fault == "nothing shown":
            assert (await stored(reader, game_id, version + 1)).shown_version == version
            fake.drop_connections()  # the bot shows the board once it has resumed
        played.append(action)
        version += 1
        if backups is not None:
            await asyncio.to_thread(backup_from_another_process, scene.db_path, version)
        board = await the_board(live, game_id, version)
        # Only the answers that never came, never anything else Discord would refuse.
        assert {v.code for v in fake.violations} <= {10062}, fake.violations
        fake.violations.clear()

    # Every move made is stored once, in order; every stored move was shown.
    game = await stored(reader, game_id, CLICKS)
    record, stored_version, status = game.record, game.version, game.status.value
    lost = sum(1 for i, action in enumerate(played) if record[i : i + 1] != (action,))
    unshown = stored_version - game.shown_version
    print(
        f"\nchaos: {len(played)} moves made through {dict(sorted(used.items()))}; "
        f"{fake.faults.injected} REST faults injected; {len(record)} moves stored, "
        f"{lost} lost, {unshown} unshown"
    )
    assert record == tuple(played) and stored_version == CLICKS and status == "active"
    assert lost == 0 and unshown == 0
    assert replay("shax", record).to_move is not None  # the record replays in the engine
    if chaos.on_sqlite:  # what a restart would find: the record, read by a process of its own
        assert record_seen_by_another_process(scene.db_path, game_id) == tuple(played)
    if backups is not None:  # and each copy holds every move made before it was taken
        for number in range(1, CLICKS + 1):
            copy = scene.db_path.parent / f"copy-{number}.db"
            with closing(sqlite3.connect(copy)) as db:
                (kept,) = db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
            assert tuple(kept.split()) == tuple(played[:number])
    # Once more after a last resume: nothing is shown twice.
    messages = [m.id for m in fake.messages(scene.channel)]
    fake.drop_connections()
    await fake.wait_for(lambda: fake.gateway.identified_connections(), what="resumed")
    assert await live.bot.responder.wait_answered(15)
    assert [m.id for m in fake.messages(scene.channel)] == messages
