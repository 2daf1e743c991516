"""A stop at any moment of a start: the background work ends before the database closes.

``python -m bot`` runs against the fake Discord, on SQLite and on PostgreSQL, and gets
SIGTERM at a chosen moment of its start, each reached by waiting for something the test
can see, never by a pause:

* before READY — the fake holds READY back, and sends it once the log says "Stopping…";
* just after READY — the log says the gateway connected (READY arrived) and a game
  against the bot is being answered, slowly: discord.py's "ready", after its wait for
  more servers, comes while the bot is stopping;
* during the first tick — the tick shows an expired challenge, and the fake is slow to
  take the post;
* during the first check for the puzzle of the day — the tick finds it due and posts
  it, and the fake is slow to take the post.

Each time the bot exits 0, its log has no traceback and no error, "Stopped" is its last
line, a READY that came after "Stopping…" started nothing, and the database was closed:
SQLite folded its write-ahead log back in; PostgreSQL, told to log the bot's sessions at
``debug1``, logged no "unexpected EOF" (a connection that went away without closing).

To prove the stop holds under load, run this file (with
``tests/e2e/test_restart.py::test_sigterm_finishes_the_answer_in_flight_and_closes_the_database``)
again and again by hand; the suite runs it once.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest
import pytest_asyncio

from bot.service.facade import ShaxService
from bot.service.replies import Place, User
from bot.service.server_settings import SettingsChange
from tests.bot.discord.helpers import Scene
from tests.bot.storage.conftest import fresh_postgres, postgres_server
from tests.bot.storage.pgserver import PostgresServer
from tests.e2e.processes import BotProcess, process_scene
from tests.fakediscord import FakeChannel
from tests.fakediscord.faults import CALLBACKS, WEBHOOKS, Fault
from tests.services import FakeClock, open_service

__all__ = ["postgres_server", "process_scene"]  # fixtures of this module's tests

EXIT_SECONDS = 60.0
"""The bound on an exit after SIGTERM (a loaded machine; the stop itself takes seconds)."""
SEEN_SECONDS = 60.0
"""The bound on waiting for what marks a moment (a log line, a request)."""
SLOW_POST = 3.0
"""How long the fake holds the post a tick is showing: less than the stop lets a step
finish, so the notice is shown and then the bot stops."""
SLOW_ANSWER = 3.0
"""How long the fake holds an answer's edit back: longer than discord.py waits after READY
for more servers (2 s), so that its "ready" comes while the bot is stopping."""
LONG_AGO = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@dataclass
class Database:
    """Where the bot keeps its data for one test: the settings that name it, and how to
    see whether the bot closed it."""

    settings: dict[str, str]
    target: str | Path
    server: PostgresServer | None = None
    logged_before = 0

    @property
    def server_log(self) -> str:
        assert self.server is not None
        return (self.server.folder / "server.log").read_text(errors="replace")

    async def see_the_bot_connected(self) -> None:
        """PostgreSQL: the bot holds connections (tests of a worker run one at a time,
        so every other client is the bot), and the server's log so far."""
        if self.server is None:
            return
        self.logged_before = len(self.server_log)
        admin = await asyncpg.connect(self.server.url())
        try:
            others = await admin.fetchval(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        assert others > 0, "the bot holds no connection to PostgreSQL"

    def assert_closed(self, log: str) -> None:
        if self.server is None:
            # Closing the last connection folds the write-ahead log back in and removes it.
            assert not Path(f"{self.target}-wal").exists(), log
            return
        since = self.server_log[self.logged_before :]
        assert "unexpected EOF" not in since, (since, log)


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, process_scene: Scene) -> Database:
    if request.param == "sqlite":
        return Database({}, process_scene.db_path)
    server: PostgresServer = request.getfixturevalue("postgres_server")
    # A session that ends without closing is then logged ("unexpected EOF").
    url = await fresh_postgres(server) + "&log_min_messages=debug1"
    return Database({"SHAX_DATABASE_URL": url}, url, server)


class Moment:
    """A moment of the start: what is set up before the bot starts, how the test sees
    the bot has reached it, and what it does once the bot is stopping."""

    name = ""

    async def prepare(self, scene: Scene, database: Database) -> None:
        """Before the bot starts."""

    async def reach(self, scene: Scene, bot: BotProcess) -> None:
        """The bot has started (Discord saw its IDENTIFY): wait for the moment."""

    async def meanwhile(self, scene: Scene, bot: BotProcess) -> None:
        """The bot got SIGTERM and is stopping."""

    async def check(self, scene: Scene, log: str) -> None:
        """After the bot has stopped."""


class BeforeReady(Moment):
    """READY held back until the bot says "Stopping…": it then starts nothing."""

    name = "before READY"

    async def prepare(self, scene: Scene, database: Database) -> None:
        scene.fake.gateway.holding_ready = True

    async def meanwhile(self, scene: Scene, bot: BotProcess) -> None:
        await logged(bot, "Stopping…")
        scene.fake.gateway.release_ready()  # (sent only if the connection is still open)

    async def check(self, scene: Scene, log: str) -> None:
        assert "Ready as" not in log and "Boards the players have not seen" not in log, log


class JustAfterReady(Moment):
    """READY has arrived (discord.py logs the connection) and an answer is under way: a
    game against the bot, which moves first (it says it is thinking, then edits its
    board in, which Discord is slow to take). discord.py's "ready", which comes after its
    wait for more servers (2 s), falls in the stop, and starts nothing: no "Ready as", no
    look for unseen boards, no tick (the puzzle of the day, due, is not posted)."""

    name = "just after READY"

    async def prepare(self, scene: Scene, database: Database) -> None:
        scene.fake.gateway.holding_ready = True
        self.puzzles = await puzzles_due(scene, database)

    async def reach(self, scene: Scene, bot: BotProcess) -> None:
        fake = scene.fake
        [deferred] = fake.faults.add(CALLBACKS, status=None)  # (counts them)
        fake.faults.add(WEBHOOKS, status=None, delay=SLOW_ANSWER)
        assert fake.gateway.release_ready() == 1
        await logged(bot, "has connected to Gateway")
        options = {"first": "bot"}
        self.asked = asyncio.create_task(
            fake.slash(scene.amina, scene.channel, "shax", "play-bot", options)
        )
        await fake.wait_for(lambda: deferred.hits > 0, timeout=SEEN_SECONDS, what="thinking")

    async def check(self, scene: Scene, log: str) -> None:
        asked = await self.asked
        board = await asked.wait_for_response(timeout=SEEN_SECONDS)
        assert board.attachments and not board.ephemeral, board.content
        before, _, after = log.partition("Stopping…")
        assert "Ready as" not in after and "Boards the players have not seen" not in after, log
        if "Ready as" not in before:  # (a machine slower than discord.py's wait)
            assert not scene.fake.messages(self.puzzles), log


class DuringASlowPost(Moment):
    """The bot posts in :attr:`channel` and Discord is slow to take the post: the moment
    is the post on its way. The bot finishes the post, then stops: the one message in the
    channel says :attr:`said`."""

    said = ""
    channel: FakeChannel
    slow: Fault

    def post_slowly(self, scene: Scene, channel: FakeChannel) -> None:
        """Discord takes the posts in ``channel`` only after :data:`SLOW_POST` seconds."""
        self.channel = channel
        [self.slow] = scene.fake.faults.add(
            rf"^/channels/{channel.id}/messages$", status=None, method="POST", delay=SLOW_POST
        )

    async def reach(self, scene: Scene, bot: BotProcess) -> None:
        await scene.fake.wait_for(lambda: self.slow.hits > 0, timeout=SEEN_SECONDS, what="a post")

    async def check(self, scene: Scene, log: str) -> None:
        [post] = scene.fake.messages(self.channel)
        assert self.said in post.content, post.content


class DuringTheFirstTick(DuringASlowPost):
    """A challenge made long ago has expired: the first tick says so in its channel."""

    name = "during the first tick"
    said = "expired"

    async def prepare(self, scene: Scene, database: Database) -> None:
        async def challenge(service: ShaxService) -> None:
            amina, bashir = (User(u.id, u.username) for u in (scene.amina, scene.bashir))
            await service.challenges.challenge(amina, bashir, place(scene, scene.channel))

        await prepared(scene, database, challenge)
        self.post_slowly(scene, scene.channel)


class DuringTheFirstDailyCheck(DuringASlowPost):
    """The server's puzzle of the day is due at any hour: the first tick finds it due
    and posts it."""

    name = "during the first daily-puzzle check"
    said = "Puzzle of the day"

    async def prepare(self, scene: Scene, database: Database) -> None:
        self.post_slowly(scene, await puzzles_due(scene, database))


MOMENTS = [BeforeReady, JustAfterReady, DuringTheFirstTick, DuringTheFirstDailyCheck]


async def puzzles_due(scene: Scene, database: Database) -> FakeChannel:
    """A #puzzles channel where the server's puzzle of the day is due (at hour 0: due
    whenever the bot starts)."""
    channel = scene.fake.add_channel("puzzles")

    async def choose(service: ShaxService) -> None:
        change = SettingsChange(puzzle_channel=channel.id, puzzle_hour=0)
        await service.settings(place(scene, scene.channel), change, may_change=True)

    await prepared(scene, database, choose)
    return channel


async def logged(process: BotProcess, text: str) -> None:
    await process.scene.fake.wait_for(
        lambda: text in process.log(), timeout=SEEN_SECONDS, what=f"{text!r} in the log"
    )


async def prepared(
    scene: Scene, database: Database, step: Callable[[ShaxService], Awaitable[None]]
) -> None:
    """Change the database before the bot starts, through the service, as players did
    long ago (its clock is then)."""
    async with open_service(
        database.target,  # type: ignore[arg-type]  # a SQLite file or a PostgreSQL URL
        bot_user=scene.bot_user,
        clock=FakeClock(LONG_AGO),
    ) as service:
        await step(service)


def place(scene: Scene, channel: FakeChannel) -> Place:
    return Place(scene.fake.guild_id, channel.id)


@pytest.mark.parametrize("moment", MOMENTS, ids=[m.name.replace(" ", "-") for m in MOMENTS])
async def test_sigterm_at_any_moment_of_the_start_ends_the_background_work_first(
    process_scene: Scene, database: Database, moment: type[Moment]
) -> None:
    scene, at = process_scene, moment()
    await at.prepare(scene, database)
    bot = await BotProcess(scene, "stopped", **database.settings).start()
    try:
        await database.see_the_bot_connected()
        await at.reach(scene, bot)
        assert bot.process is not None
        bot.process.send_signal(signal.SIGTERM)
        await at.meanwhile(scene, bot)
        status = await asyncio.wait_for(bot.process.wait(), EXIT_SECONDS)
    finally:
        if bot.process is not None and bot.process.returncode is None:
            bot.process.kill()
            await bot.process.wait()
    log = bot.log()
    assert status == 0, log
    assert "Traceback" not in log and "ERROR" not in log, log
    assert "never retrieved" not in log, log
    assert log.strip().splitlines()[-1].endswith("Stopped"), log
    database.assert_closed(log)
    await at.check(scene, log)
    scene.fake.assert_clean()
