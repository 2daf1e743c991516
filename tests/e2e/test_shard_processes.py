"""Two bot processes, one game world: ``python -m bot`` twice (``SHAX_SHARDS=2``, one with
``SHAX_SHARD_IDS=0``, the other with ``=1``) on one database — a PostgreSQL server, and a
SQLite file in WAL mode — against a fake Discord with servers on both shards.

Every interaction reaches the process of its server's shard; every challenge expiry,
turn-timeout warning and end of a game happens exactly once — none doubled by the other
process, none missed — with the clock running for real on short settings (a 4 s challenge
expiry, a 6 s turn: the warning at 3 s, the end at 6 s, a tick every 0.2 s). The games'
first player never moves, so each game is aborted.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from bot.discord.custom_ids import accept_id
from bot.storage import Storage
from tests.bot.processes import bot_subprocess
from tests.bot.storage.conftest import fresh_postgres, postgres_server  # noqa: F401 - fixture
from tests.bot.storage.pgserver import PostgresServer
from tests.e2e.conftest import challenge_of
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.models import FakeGuild
from tests.fakediscord.world import MessageEvent

TOKEN = "MTIzNDU2Nzg5.fake-bot.token_for_shard_tests"  # shaped like a bot token
SHARDS = 2
GUILDS_PER_SHARD = 2
CHALLENGE_EXPIRY_SECONDS = 4
TURN_TIMEOUT_SECONDS = 6
TICK_SECONDS = 0.2
START_SECONDS = 30.0
WARNING = "or the game is aborted"
FORFEIT = "Game aborted"
EXPIRED = "expired"


@dataclass
class Server:
    """One Discord server of the test: a challenge left to expire, a game left to time out."""

    guild: FakeGuild
    waiting: FakeChannel
    playing: FakeChannel
    challenge_id: int = 0
    """The challenge left to expire."""
    accepted_id: int = 0
    """The challenge accepted: its game is left to time out."""


@dataclass
class World:
    fake: FakeDiscord
    database: str | Path
    """What both processes share: a SQLite file, or a PostgreSQL URL."""
    folder: Path
    amina: FakeUser
    bashir: FakeUser
    cawo: FakeUser
    servers: list[Server]

    def env(self, shard: int) -> dict[str, str]:
        return {
            **os.environ,
            **self.fake.env(),
            "DISCORD_TOKEN": TOKEN,
            "SHAX_DATABASE_URL": f"sqlite:///{self.database}"
            if isinstance(self.database, Path)
            else self.database,
            "SHAX_SHARDS": str(SHARDS),
            "SHAX_SHARD_IDS": str(shard),
            # The process of shard 0 registers the commands; the others leave them be.
            "SHAX_SYNC_COMMANDS": "auto" if shard == 0 else "never",
            "SHAX_CHALLENGE_EXPIRY_SECONDS": str(CHALLENGE_EXPIRY_SECONDS),
            "SHAX_TURN_TIMEOUT_SECONDS": str(TURN_TIMEOUT_SECONDS),
            "SHAX_TICK_SECONDS": str(TICK_SECONDS),
            "SHAX_AI_WORKERS": "1",
            "SHAX_LOG_LEVEL": "INFO",
        }


@pytest.fixture(params=["postgresql", "sqlite"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """The shared database: a SQLite file, or a schema of its own on the test process's
    PostgreSQL server (skipped without the server binaries, except under ``CI=true``)."""
    if request.param == "sqlite":
        return tmp_path / "shax.db"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return await fresh_postgres(server)


@pytest_asyncio.fixture
async def world(database: str | Path, tmp_path: Path) -> AsyncIterator[World]:
    # Heartbeats far apart, as Discord's (41 s): a loaded test machine may hold a process
    # back for a second, which is no concern of this test.
    async with FakeDiscord(token=TOKEN, shard_count=SHARDS, heartbeat_interval=5.0) as fake:
        amina = fake.add_user("amina", global_name="Amina")
        bashir = fake.add_user("bashir", global_name="Bashir")
        cawo = fake.add_user("cawo", global_name="Cawo")
        servers = []
        for n in range(SHARDS * GUILDS_PER_SHARD):
            guild = fake.add_guild(f"Server {n}", shard=n % SHARDS)
            for user in (amina, bashir, cawo):
                fake.add_member(user, guild)
            waiting = fake.add_channel("challenges", guild=guild)
            playing = fake.add_channel("shax", guild=guild)
            servers.append(Server(guild, waiting, playing))
        yield World(fake, database, tmp_path, amina, bashir, cawo, servers)


class BotProcess:
    """``python -m bot`` for one shard, its output in a log file."""

    def __init__(self, world: World, shard: int) -> None:
        self.world = world
        self.shard = shard
        self.log_path = world.folder / f"shard-{shard}.log"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with self.log_path.open("wb") as log:
            self.process = await bot_subprocess(self.world.folder, self.world.env(self.shard), log)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def stop(self) -> int:
        """SIGTERM and wait for a clean exit."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), 30)


@pytest_asyncio.fixture
async def processes(world: World) -> AsyncIterator[list[BotProcess]]:
    """Both processes, started together on a database created beforehand, connected and
    with the commands registered."""
    await (await Storage.open(world.database)).close()
    started = [BotProcess(world, shard) for shard in range(SHARDS)]
    try:
        for process in started:
            await process.start()
        fake = world.fake
        try:
            await fake.wait_for(
                lambda: (
                    len(fake.gateway.identified_connections()) == SHARDS
                    and fake.commands(None)
                    and all("Ready as" in p.log() for p in started)
                ),
                timeout=START_SECONDS,
                what="both bot processes ready",
            )
        except TimeoutError as error:
            raise AssertionError("\n".join(p.log() for p in started)) from error
        yield started
    finally:
        for process in started:
            if process.process is not None:
                await process.stop()


async def answered(fake: FakeDiscord, result: InteractionResult) -> FakeMessage:
    """The message an interaction posted, once the bot has finished it."""
    return await fake.wait_for(
        lambda: result.message if result.message and result.message.content else None,
        timeout=10,
        what=f"the answer to {result.label}",
    )


def events(fake: FakeDiscord, channel: FakeChannel, words: str) -> list[MessageEvent]:
    """Each creation or edit of a message of ``channel`` that brought ``words`` into it."""
    seen: dict[int, str] = {}
    found = []
    for event in fake.world.message_log:
        if event.channel_id != channel.id:
            continue
        had = seen.get(event.message_id, "")
        seen[event.message_id] = event.content
        if event.kind != "delete" and words in event.content and words not in had:
            found.append(event)
    return found


def all_events(world: World) -> Iterator[tuple[Server, str, list[MessageEvent]]]:
    fake = world.fake
    for server in world.servers:
        yield server, "expiry", events(fake, server.waiting, EXPIRED)
        yield server, "warning", events(fake, server.playing, WARNING)
        yield server, "forfeit", events(fake, server.playing, FORFEIT)


async def test_two_processes_share_the_clock_without_doubling_or_missing_anything(
    world: World, processes: list[BotProcess]
) -> None:
    fake = world.fake

    async def start_game(server: Server) -> None:
        """A game whose first player never moves."""
        shard = fake.shard_of(server.guild)
        offered = await fake.slash(
            world.cawo, server.playing, "shax", "challenge", {"opponent": world.amina}
        )
        assert offered.shards == ((shard, SHARDS),)
        posted = await answered(fake, offered)
        server.accepted_id = challenge_of(posted)
        accepted = await fake.click(world.amina, posted, accept_id(server.accepted_id))
        assert accepted.shards == ((shard, SHARDS),)

    async def challenge(server: Server) -> None:
        """A challenge nobody answers."""
        waiting = await fake.slash(
            world.amina, server.waiting, "shax", "challenge", {"opponent": world.bashir}
        )
        assert waiting.shards == ((fake.shard_of(server.guild), SHARDS),)
        server.challenge_id = challenge_of(await answered(fake, waiting))

    # The games start together, so that every warning is due before the first forfeit.
    await asyncio.gather(*(start_game(server) for server in world.servers))
    await asyncio.gather(*(challenge(server) for server in world.servers))

    try:
        await fake.wait_for(
            lambda: all(found for _, _, found in all_events(world)),
            timeout=CHALLENGE_EXPIRY_SECONDS + TURN_TIMEOUT_SECONDS + 30,
            what="every expiry, warning and forfeit",
        )
    except TimeoutError:
        missing = [(s.guild.name, what) for s, what, found in all_events(world) if not found]
        logs = "\n".join(p.log()[-3000:] for p in processes)
        raise AssertionError(f"missing: {missing}\n{logs}") from None
    await asyncio.sleep(5 * TICK_SECONDS)  # room for a doubled notice to show up
    for server, what, found in all_events(world):
        assert len(found) == 1, (server.guild.name, what, found)
    for server in world.servers:
        (warning,) = events(fake, server.playing, WARNING)
        (forfeit,) = events(fake, server.playing, FORFEIT)
        log = fake.world.message_log
        assert log.index(warning) < log.index(forfeit), "the warning comes first"
        assert warning.content.startswith(f"⏳ {world.cawo.mention}")  # the challenger places first

    for process in processes:
        assert await process.stop() == 0, process.log()
        assert "Traceback" not in process.log(), process.log()
    storage = await Storage.open(world.database)
    try:
        for server in world.servers:
            expired = await storage.challenges.get_challenge(server.challenge_id)
            assert expired is not None and expired.status == "expired"
            accepted = await storage.challenges.get_challenge(server.accepted_id)
            assert accepted is not None and accepted.game_id is not None
            game = await storage.games.get_game(accepted.game_id)
            assert game is not None and game.termination == "ABORTED", game
    finally:
        await storage.close()
    fake.assert_clean()
