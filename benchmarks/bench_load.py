"""Load on the bot: ``python benchmarks/bench_load.py --games N [--ai-games K]
[--database sqlite|postgresql] [--processes P]``.

Two configurations in one run, under the same load: SQLite with one bot process, then
``--database`` with P bot processes (``SHAX_SHARDS=P``, one shard each, one database);
each is reported, then the ratios of the second to the first. With ``--database sqlite
--processes 1`` only the first runs. ``--baseline DIR`` (a checkout of another revision,
``git worktree add /tmp/base REV``) runs the bot of that revision before this one's in
each configuration, under the same load on the same machine, and reports this
revision's figures against it. ``--rounds R`` runs them all R times, interleaved (a
busy spell of a shared machine falls on every configuration alike), and compares the
medians.

For each, starts the Discord-compatible fake server (``tests/fakediscord``) in this
process, with ``--guilds`` servers spread over the shards, and the real bot as
subprocesses (``bot.discord.runner.serve``, what ``python -m bot`` runs) on a fresh
database; creates N channels and 2N users, starts N games of Shax (challenge,
accept) and drives them concurrently: each game is a task in which the player on turn
thinks (``--think`` seconds on average, uniformly 0.5–1.5× that), picks an action in
the board's select and waits for the bot's answer. Two phases of ``--seconds`` each:

1. ``people``: the N games between people only;
2. ``people+AI``: the same while K games against the bot (``--level``, default hard)
   keep the AI pool busy (each clicks again as soon as the bot has answered).

Printed per phase: interactions per second; p50/p99/max acknowledgement latency
(INTERACTION_CREATE sent → its callback received by the fake server) of the games
between people, and how many of them the bot deferred; the same for clicks in bot games
(deferred by design once the AI starts thinking, unless it answers within 0.1 s); p99
over all acknowledgements (the target: under 250 ms at N = 500 with bot games); the
bot process's worst event-loop lag (a probe task in the bot process: how late a 50 ms
sleep wakes up); the worst gateway heartbeat gap the server saw; the fake server's own
worst lag (its latencies are only as good as that); CPU used by the bot process, its
workers (AI and pictures), this driver, everything else on the machine, and the time
the hypervisor stole. Then where the time goes inside the bot (timers around the
service call, the pictures, each database call and the acknowledgement), and how often
the AI overran its time and a random action was played instead.

Afterwards every game between people is read back from the database: its stored version
must be the one of the last board its players were shown (lower: an acknowledged action
was lost; higher: an action was applied that nobody saw answered, such as a doubled one).

``--profile`` profiles this revision's first bot process (cProfile, so it runs slower
than measured without) and prints where its processor time went.

``--ai-nice`` and ``--ack-budget`` are experiments: they change the bot process (AI
workers at a lower priority; defer sooner) to show what a fix would buy.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import functools
import gc
import inspect
import itertools
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:  # the bot process (--serve-bot) never imports the fake server
    from bot.storage import Storage
    from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
    from tests.fakediscord.world import World

T = TypeVar("T")
TOKEN = "MTIzNDU2Nzg5.bench-load.token_for_the_fake"  # shaped like a bot token
PROBE_SECONDS = 0.05
TIMEOUT = 60.0
"""Seconds to wait for the bot's answer after an acknowledgement."""
_YOUR_TURN = re.compile(r"<@(\d+)> — your turn")


# -- the bot process ------------------------------------------------------------------------


async def _probe_lag(samples: list[tuple[float, float]]) -> None:
    """Record ``(when, lateness)`` of a short sleep, forever: the event loop's lag."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(PROBE_SECONDS)
        samples.append((started, loop.time() - started - PROBE_SECONDS))


Spans = dict[str, list[tuple[float, float]]]
"""Named ``(when, seconds)`` samples measured inside the bot process."""
_ai_involved: contextvars.ContextVar[bool] = contextvars.ContextVar("ai_involved", default=False)


def _time_calls(spans: Spans) -> None:
    """Time the steps of an answer inside the bot: the service call (apart for bot games,
    where the AI thinks inside it), the pictures (drawn in worker processes: the time
    the bot waits for them), the database, the acknowledgement."""
    import discord

    from bot.service.facade import ShaxService
    from bot.workers.ai import AIPool
    from bot.workers.pictures import PicturePool

    def record(name: str, started: float) -> None:
        spans.setdefault(name, []).append((started, time.monotonic() - started))

    def timed_async(owner: Any, attr: str, name: str) -> None:
        original = getattr(owner, attr)

        @functools.wraps(original)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.monotonic()
            try:
                return await original(*args, **kwargs)
            finally:
                record(name, started)

        setattr(owner, attr, timed)

    original_play = ShaxService.play

    @functools.wraps(original_play)
    async def play(*args: Any, **kwargs: Any) -> Any:
        started = time.monotonic()
        token = _ai_involved.set(False)
        try:
            return await original_play(*args, **kwargs)
        finally:
            record("service.play (bot game)" if _ai_involved.get() else "service.play", started)
            _ai_involved.reset(token)

    original_choose = AIPool.choose

    @functools.wraps(original_choose)
    async def choose(*args: Any, **kwargs: Any) -> Any:
        _ai_involved.set(True)
        return await original_choose(*args, **kwargs)

    original_run = PicturePool.run

    @functools.wraps(original_run)
    async def run_picture(self: PicturePool, fn: Callable[..., T], *args: Any) -> T:
        # Timed here, in the bot: the worker process draws ``fn`` itself.
        started = time.monotonic()
        try:
            return await original_run(self, fn, *args)
        finally:
            record(f"{getattr(fn, '__name__', 'picture')} (worker process)", started)

    collecting: dict[str, float] = {}

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting["since"] = time.monotonic()
        elif "since" in collecting:
            record(f"gc pause (generation {info['generation']})", collecting.pop("since"))

    gc.callbacks.append(on_gc)
    ShaxService.play = play  # type: ignore[method-assign]
    AIPool.choose = choose  # type: ignore[method-assign]
    PicturePool.run = run_picture  # type: ignore[method-assign, assignment]

    def time_database(storage: Storage) -> None:
        engine = type(storage)
        if getattr(engine, "_timed", False):
            return
        engine._timed = True  # type: ignore[attr-defined]
        for attr, _ in inspect.getmembers(engine, inspect.iscoroutinefunction):
            if not attr.startswith("_") and attr not in ("open", "close"):
                timed_async(engine, attr, f"db.{attr}")

    after_open(time_database)
    timed_async(ShaxService, "tick", "service.tick (every 30 s)")
    timed_async(discord.InteractionResponse, "send_message", "ack: send_message")
    timed_async(discord.InteractionResponse, "edit_message", "ack: edit_message")
    timed_async(discord.InteractionResponse, "defer", "ack: defer")


async def _serve_with_probe(stats_path: Path, options: dict[str, Any]) -> None:
    from bot.config import load_settings
    from bot.discord.runner import serve

    lag: list[tuple[float, float]] = []
    spans: Spans = {}
    _time_calls(spans)
    probe = asyncio.create_task(_probe_lag(lag))
    try:
        await serve(load_settings(dotenv_path=None), **options)
    finally:
        probe.cancel()
        stats_path.write_text(json.dumps({"lag": lag, "spans": spans}))


pending: list[Any] = []
"""Awaitables the hooks of :func:`after_open` leave for the opening to await."""


def after_open(hook: Callable[[Storage], None]) -> None:
    """Call ``hook`` with every database the bot opens (``Storage.open``), whichever engine."""
    from bot.storage import Storage

    opening = Storage.open.__func__  # type: ignore[attr-defined]

    async def open_and_hook(cls: type[Storage], target: Any) -> Storage:
        storage: Storage = await opening(cls, target)
        hook(storage)
        while pending:
            await pending.pop()
        return storage

    Storage.open = classmethod(open_and_hook)  # type: ignore[method-assign,assignment]


def serve_bot(
    stats_path: Path, *, ack_budget: float | None, ai_nice: int, db_sync: str | None
) -> None:
    """The bot as ``python -m bot`` runs it (``bot.discord.run``), plus a lag probe and
    timers around its steps; SIGTERM stops it cleanly and the measurements go to
    ``stats_path``.

    Experiments change the bot: ``ack_budget`` (seconds before a slow answer is
    deferred; the bot's default is 1 s), ``ai_nice`` (the AI worker processes run at
    this niceness, so that the event loop wins the CPU when both want it) and
    ``db_sync`` (SQLite's ``synchronous`` pragma; the bot leaves SQLite's FULL)."""
    from bot.config import load_settings
    from bot.discord.runner import setup_logging, use_endpoints
    from bot.workers import ai as ai_pool

    if db_sync:

        def set_sync(storage: Storage) -> None:
            if storage.engine != "sqlite":
                return

            def pragma(conn: Any) -> None:  # in SQLite's connection thread
                conn.exec_driver_sql(f"PRAGMA synchronous = {db_sync}")

            pending.append(storage.runner.run(pragma))

        after_open(set_sync)

    if ai_nice:
        ai_pool.WORKER_NICENESS = ai_nice  # passed to each worker as it starts
    settings = load_settings(dotenv_path=None)
    setup_logging(settings)
    use_endpoints(settings)
    options = {} if ack_budget is None else {"ack_budget": ack_budget}
    asyncio.run(_serve_with_probe(stats_path, options))


# -- waiting on the fake, cheaply ------------------------------------------------------------


class LeanWaits:
    """Replaces ``World.wait_for`` of one fake with a version that scales to many waiters.

    The fake's own ``wait_for`` gives every waiter a future that every change wakes (and
    a 50 ms poll): fine for tests, but with a thousand waiters the fake server would spend
    its time waking them and the latencies measured would be the fake's own. Here each
    change re-checks the waiting predicates in place and wakes only those now true.
    """

    def __init__(self, world: World) -> None:
        self._changed = world.changed
        self._waiting: dict[asyncio.Future[Any], Callable[[], Any]] = {}
        world.changed = self.changed  # type: ignore[method-assign]
        world.wait_for = self.wait_for  # type: ignore[method-assign]

    def changed(self) -> None:
        self._changed()
        for future, predicate in list(self._waiting.items()):
            if not future.done():
                value = predicate()
                if value:
                    future.set_result(value)

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "condition"
    ) -> T:
        value = predicate()
        if value:
            return value
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting[future] = predicate
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise TimeoutError(f"timed out after {timeout:g}s waiting for {what}") from None
        finally:
            self._waiting.pop(future, None)


# -- measuring ----------------------------------------------------------------------------


@dataclass
class Phase:
    """What happened between ``start`` and ``end`` (monotonic seconds, as loop.time())."""

    name: str
    start: float = 0.0
    end: float = 0.0
    people: list[float] = field(default_factory=list)
    bot_games: list[float] = field(default_factory=list)
    deferred: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds used during the phase: the bot process, its AI workers, this driver."""

    @property
    def seconds(self) -> float:
        return max(self.end - self.start, 1e-9)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc; 0 if unknown)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (the AI pool's forkserver and workers)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


def _machine_seconds() -> tuple[float, float]:
    """CPU seconds the whole machine has been busy, and those stolen by the hypervisor
    (Linux /proc/stat; zeros if unknown)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq) / tick, steal / tick


def cpu_snapshot(bot_pids: list[int]) -> dict[str, float]:
    busy, stolen = _machine_seconds()
    ours = {
        "bot": sum(_cpu_seconds(pid) for pid in bot_pids),
        "bot's workers (AI, pictures)": sum(
            _cpu_seconds(child) for pid in bot_pids for child in _descendants(pid)
        ),
        "driver": _cpu_seconds(os.getpid()),
    }
    return {**ours, "everything else": busy - sum(ours.values()), "stolen": stolen}


@dataclass
class Recorder:
    """Routes each acknowledgement to the phase running when it was dispatched."""

    phases: list[Phase] = field(default_factory=list)

    @property
    def current(self) -> Phase | None:
        phase = self.phases[-1] if self.phases else None
        return phase if phase is not None and phase.end == 0.0 else None

    def record(self, result: InteractionResult, *, bot_game: bool) -> None:
        phase = self.current
        if phase is None or result.acknowledged_at is None or result.dispatched_at < phase.start:
            return
        latency = result.acknowledged_at - result.dispatched_at
        (phase.bot_games if bot_game else phase.people).append(latency)
        if result.response_type in (5, 6) and not bot_game:
            phase.deferred += 1

    def error(self, text: str) -> None:
        if self.current is not None:
            self.current.errors.append(text)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# -- players --------------------------------------------------------------------------------


@dataclass
class Table:
    """One channel with its two players, and what they saw the bot accept."""

    fake: FakeDiscord
    channel_id: int
    white: FakeUser
    black: FakeUser
    expected: dict[int, int] = field(default_factory=dict)
    """Game id → the version its last accepted action made (games between people)."""
    unsure: set[int] = field(default_factory=set)
    """Games with an action whose acknowledgement never came: it may or may not count."""
    pending: int | None = None

    def on_turn(self, board: FakeMessage) -> FakeUser | None:
        found = _YOUR_TURN.search(board.content)
        if found is None:
            return None
        return self.white if int(found.group(1)) == self.white.id else self.black


def act_select(board: FakeMessage) -> dict[str, Any] | None:
    return next((s for s in board.selects() if s["custom_id"].startswith("shax:act:")), None)


async def answered(result: InteractionResult, timeout: float) -> FakeMessage:
    """The board the bot left after a click or command: the response, or — after a
    deferral — the follow-up or the edited message."""
    if result.response_type in (5, 6):
        await result.wait_until(lambda r: r.followup_ids or r.edit_count, timeout=timeout)
    if result.followup_ids:
        return result.followups[-1]
    message = result.message
    assert message is not None, result.label
    return message


async def new_game(table: Table, level: str | None) -> FakeMessage | None:
    """A new game at the table: white challenges black and black accepts, or (with a
    ``level``) white plays the bot. Its first board, or None if the bot refused."""
    fake = table.fake
    if level is not None:
        options = {"level": level, "variant": "shax", "first": "me"}
        started = await fake.slash(table.white, table.channel_id, "shax", "play-bot", options)
        return None if started.ephemeral else await answered(started, TIMEOUT)
    challenge = await fake.slash(
        table.white, table.channel_id, "shax", "challenge", {"opponent": table.black}
    )
    if challenge.ephemeral:
        return None
    posted = await answered(challenge, TIMEOUT)
    accept = next(b["custom_id"] for b in posted.buttons() if b["custom_id"].startswith("shax:acc"))
    accepted = await fake.click(table.black, posted, accept)
    return None if accepted.ephemeral else await answered(accepted, TIMEOUT)


async def current_board(table: Table) -> FakeMessage | None:
    """What a player does when the board seems stuck: ``/shax board`` (None: no game)."""
    shown = await table.fake.slash(table.white, table.channel_id, "shax", "board")
    return None if shown.ephemeral else await answered(shown, TIMEOUT)


async def play_turn(
    table: Table,
    board: FakeMessage | None,
    recorder: Recorder,
    rng: random.Random,
    level: str | None,
) -> FakeMessage | None:
    """One action at the table (or what it takes to get a playable board); the board after."""
    if board is None:
        board = await current_board(table)
    select = None if board is None else act_select(board)
    if select is None:  # no game, or it is over: another one
        if board is not None and recorder.current is not None:
            recorder.current.games_finished += 1
        return await new_game(table, level)
    assert board is not None
    player = table.on_turn(board)
    if player is None:  # the bot is still thinking in the game shown
        return None
    value = rng.choice([option["value"] for option in select["options"]])
    game_id, version = (int(part) for part in select["custom_id"].split(":")[2:4])
    table.pending = game_id
    result = await table.fake.select(player, board, select["custom_id"], [value])
    table.pending = None
    recorder.record(result, bot_game=level is not None)
    if result.ephemeral:  # refused (a board that changed meanwhile): look again
        if recorder.current is not None:
            recorder.current.refused += 1
        return None
    if level is None:
        table.expected[game_id] = version + 1
    return await answered(result, TIMEOUT)


async def play_table(
    table: Table,
    board: FakeMessage | None,
    recorder: Recorder,
    rng: random.Random,
    stop: asyncio.Event,
    *,
    think: float,
    level: str | None = None,
) -> None:
    """Play at one table until ``stop``. People think before each action; a person
    playing the bot clicks again as soon as it has answered."""
    while not stop.is_set():
        if level is None and await stopped(stop, rng.uniform(0.5 * think, 1.5 * think)):
            return
        try:
            board = await play_turn(table, board, recorder, rng, level)
        except Exception as error:  # a missed deadline is a result: note it, play on
            recorder.error(f"{type(error).__name__}: {error}")
            if table.pending is not None:
                table.unsure.add(table.pending)
                table.pending = None
            board = None
        if board is None and await stopped(stop, 0.5):
            return


async def stopped(stop: asyncio.Event, seconds: float) -> bool:
    """Wait ``seconds`` unless ``stop`` comes first; whether it came."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()


# -- the run --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Configuration:
    """One way of running the bot: a database engine and a number of processes."""

    database: str
    processes: int
    tree: Path = ROOT
    """The checkout whose bot runs: this one, or ``--baseline``'s."""

    @property
    def label(self) -> str:
        plural = "es" if self.processes != 1 else ""
        revision = "" if self.tree == ROOT else " (baseline)"
        return f"{self.database}, {self.processes} process{plural}{revision}"


@dataclass
class Measured:
    """What one configuration gave, for the comparison at the end."""

    configuration: Configuration
    phases: list[Phase]
    violations: int
    lost: int
    doubled: int
    unsure: int
    failed: bool


def bot_environment(
    fake: FakeDiscord, database: str, workers: int, shard: int | None, shards: int, tree: Path
) -> dict[str, str]:
    env = {
        **os.environ,
        **fake.env(),
        "DISCORD_TOKEN": TOKEN,
        "SHAX_AI_WORKERS": str(workers),
        "SHAX_LOG_LEVEL": "WARNING",
        # The endgame tables' background build at first start is not this load: off.
        "SHAX_BUILD_TABLES": "off",
        # The first process registers the commands (globally: the tables are in several
        # servers); the others leave them be.
        "SHAX_SYNC_COMMANDS": "always" if not shard else "never",
        "PYTHONPATH": str(tree),
    }
    env["SHAX_DATABASE_URL" if "://" in database else "SHAX_DB_PATH"] = database
    if shard is not None:
        env.update(SHAX_SHARDS=str(shards), SHAX_SHARD_IDS=str(shard))
    return env


async def gather_limited(coros: list[Any], limit: int) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def one(coro: Any) -> Any:
        async with gate:
            return await coro

    return list(await asyncio.gather(*(one(c) for c in coros)))


@contextlib.asynccontextmanager
async def database_for(kind: str, workdir: Path, url: str | None) -> AsyncIterator[str]:
    """Where the bot processes keep their games: a fresh SQLite file, or a PostgreSQL
    database (``--database-url``, or a throwaway server started here)."""
    if kind == "sqlite":
        yield str(workdir / "shax.db")
        return
    if url is not None:
        yield url
        return
    from tests.bot.storage.pgserver import find_binaries, start_server

    binaries = find_binaries()
    if binaries is None:
        raise SystemExit(
            "No PostgreSQL server binaries (initdb, pg_ctl) found: install PostgreSQL, "
            "or give a database with --database-url postgresql://…"
        )
    server = await asyncio.to_thread(start_server, binaries)
    try:
        yield server.url()
    finally:
        await asyncio.to_thread(server.stop)


async def make_schema(tree: Path, database: str) -> None:
    """Open the database once with the bot of ``tree``, which creates its schema."""
    opening = "import asyncio, sys; from bot.storage import Storage\n"
    opening += "async def main():\n    await (await Storage.open(sys.argv[1])).close()\n"
    opening += "asyncio.run(main())"
    made = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        opening,
        database,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    if await made.wait() != 0:
        raise SystemExit(f"the bot of {tree} could not create its database {database}")


async def read_back(database: str, tables: list[Table]) -> tuple[int, int, int, int]:
    """Games checked, lost and doubled actions: each people's game's stored version against
    the one its last accepted action made (games with an unanswered action are counted
    apart, as the last number)."""
    from bot.storage import Storage

    checked = lost = doubled = unsure = 0
    storage = await Storage.open(database)
    try:
        for table in tables:
            for game_id, version in table.expected.items():
                if game_id in table.unsure:
                    unsure += 1
                    continue
                row = await storage.games.get_game(game_id)
                stored = -1 if row is None else row.version
                checked += 1
                lost += stored < version
                doubled += stored > version
    finally:
        await storage.close()
    return checked, lost, doubled, unsure


async def run_configuration(args: argparse.Namespace, configuration: Configuration) -> Measured:
    from tests.fakediscord import FakeDiscord

    processes_count = configuration.processes
    sharded = processes_count > 1
    workdir = Path(tempfile.mkdtemp(prefix="bench-load-"))
    fake = FakeDiscord(token=TOKEN, heartbeat_interval=args.heartbeat, shard_count=processes_count)
    await fake.start()
    LeanWaits(fake.world)
    guilds = [
        fake.add_guild(f"server-{n}", shard=n % processes_count if sharded else None)
        for n in range(args.guilds)
    ]
    tables: list[Table] = []
    for number in range(args.games + args.ai_games):
        guild = guilds[number % len(guilds)]
        channel = fake.add_channel(f"game-{number}", guild=guild)
        white = fake.add_user(f"white{number}", guild=guild)
        black = fake.add_user(f"black{number}", guild=guild)
        tables.append(Table(fake, channel.id, white, black))
    people, bots = tables[: args.games], tables[args.games :]

    print(f"\n=== {configuration.label} ===")
    async with database_for(configuration.database, workdir, args.database_url) as database:
        if configuration.database == "sqlite":  # the schema, before P processes
            await make_schema(configuration.tree, database)
        experiments = ["--ai-nice", str(args.ai_nice)]
        if args.ack_budget is not None:
            experiments += ["--ack-budget", str(args.ack_budget)]
        if args.db_sync is not None:
            experiments += ["--db-sync", args.db_sync]
        if args.profile and configuration.tree == ROOT:
            experiments += ["--profile"]
        processes: list[asyncio.subprocess.Process] = []
        logs = []
        for number in range(processes_count):
            log_path = workdir / f"bot-{number}.log"
            logs.append(log_path)
            with log_path.open("wb") as log:
                shard = number if sharded else None
                processes.append(
                    await asyncio.create_subprocess_exec(
                        sys.executable,
                        str(configuration.tree / "benchmarks" / Path(__file__).name),
                        "--serve-bot",
                        str(workdir / f"stats-{number}.json"),
                        *experiments,
                        cwd=configuration.tree,
                        env=bot_environment(
                            fake,
                            database,
                            args.ai_workers,
                            shard,
                            processes_count,
                            configuration.tree,
                        ),
                        stdin=asyncio.subprocess.DEVNULL,
                        stdout=log,
                        stderr=log,
                    )
                )
        pids = [process.pid for process in processes]
        players: list[asyncio.Task[None]] = []
        probes: list[asyncio.Task[None]] = []
        stop = asyncio.Event()
        recorder = Recorder()
        # The fake server's own lag: a busy driver would delay the acknowledgements it records.
        driver_samples: list[tuple[float, float]] = []
        probes.append(asyncio.create_task(_probe_lag(driver_samples)))
        load_before = os.getloadavg()[0]
        rng = random.Random(args.seed)
        try:
            await fake.wait_for_sessions(processes_count, timeout=60)
            await fake.wait_for(lambda: fake.commands(None), timeout=30, what="commands")
            began = time.perf_counter()
            boards = await gather_limited([new_game(table, None) for table in people], 25)
            # The fake server is the measuring instrument: keep its garbage collector from
            # pausing it (a full collection over the set-up's objects takes ~0.2 s).
            gc.freeze()
            print(
                f"{args.games} games started in {time.perf_counter() - began:.1f}s "
                f"(bot: python -m bot's serve() in pids {pids}, AI workers {args.ai_workers} "
                f"each; {len(guilds)} servers)"
            )
            for table, board in zip(people, boards, strict=True):
                seed = rng.randrange(2**32)
                players.append(
                    asyncio.create_task(
                        play_table(
                            table, board, recorder, random.Random(seed), stop, think=args.think
                        )
                    )
                )
            loop = asyncio.get_running_loop()
            for name, ai_games in (("people", []), ("people+AI", bots)):
                phase = Phase(name)
                phase.start = loop.time() + args.warmup
                recorder.phases.append(phase)
                for table in ai_games:
                    seed = rng.randrange(2**32)
                    players.append(
                        asyncio.create_task(
                            play_table(
                                table,
                                None,
                                recorder,
                                random.Random(seed),
                                stop,
                                think=0.0,
                                level=args.level,
                            )
                        )
                    )
                await asyncio.sleep(args.warmup)
                gc.freeze()
                before = cpu_snapshot(pids)
                await asyncio.sleep(args.seconds)
                phase.end = loop.time()
                after = cpu_snapshot(pids)
                # max(0, …): per-process and whole-machine clocks differ by a tick or so.
                phase.cpu = {key: max(0.0, after[key] - before.get(key, 0.0)) for key in after}
        finally:
            # Each player finishes the action in hand (so that every acknowledged action
            # can be checked against the database), then stops.
            stop.set()
            if players:
                _, late = await asyncio.wait(players, timeout=TIMEOUT)
                for task in late:
                    task.cancel()
            for task in probes:
                task.cancel()
            for process in processes:
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
            for process in processes:
                try:
                    await asyncio.wait_for(process.wait(), 30)
                except TimeoutError:
                    process.kill()
            await fake.stop()
        checked, lost, doubled, unsure = await read_back(database, people)

    samples: list[tuple[float, float]] = []
    spans: Spans = {}
    for number in range(processes_count):
        stats_path = workdir / f"stats-{number}.json"
        stats = json.loads(stats_path.read_text()) if stats_path.exists() else {}
        samples += stats.get("lag", [])
        for name, values in stats.get("spans", {}).items():
            spans.setdefault(name, []).extend(values)
    beats = [c.heartbeats for c in fake.gateway.connections]
    print(
        f"load average (1 min) before {load_before:.2f}, after {os.getloadavg()[0]:.2f} "
        f"on {os.cpu_count()} CPUs (includes this benchmark; other jobs show as the rest)"
    )
    report(args, recorder.phases, samples, driver_samples, beats, fake)
    print(
        f"read back from the database: {checked} games, {lost} lost and {doubled} doubled "
        f"actions ({unsure} games with an unanswered action not checked)"
    )
    report_spans(recorder.phases, spans)
    if args.profile and configuration.tree == ROOT:
        report_profile(workdir / "stats-0.pstats")
    failed = False
    for process, log_path in zip(processes, logs, strict=True):
        bot_log = log_path.read_text(errors="replace")
        print(
            f"\nbot log: {bot_log.count('playing a random legal action')} AI fallbacks "
            f"(the AI overran its time, a random legal action was played), "
            f"{bot_log.count(' ERROR ')} errors, {bot_log.count('Traceback')} tracebacks "
            f"({log_path})"
        )
        if process.returncode not in (0, None):
            print(f"the bot exited with {process.returncode}; its log: {log_path}")
            failed = True
    return Measured(
        configuration, recorder.phases, len(fake.violations), lost, doubled, unsure, failed
    )


def compare(results: list[Measured]) -> None:
    """One line per configuration, phase and round, then the medians over the rounds, and
    the ratios of the medians: the last configuration to the first, and this revision to
    the baseline."""
    print("\n=== comparison (all acknowledgements) ===")
    header = (
        f"{'configuration':<36} {'phase':<10} {'inter/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'violations':>10} {'lost':>5} {'doubled':>7}"
    )
    print(header)
    print("-" * len(header))
    rounds: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for measured in results:
        for phase in measured.phases:
            every = [1000 * x for x in phase.people + phase.bot_games]
            rate = len(every) / phase.seconds
            p50, p99 = percentile(every, 0.5), percentile(every, 0.99)
            label = measured.configuration.label
            rounds.setdefault((label, phase.name), []).append((rate, p50, p99))
            print(
                f"{label:<36} {phase.name:<10} {rate:>8.1f} {p50:>7.1f} {p99:>7.1f} "
                f"{measured.violations:>10} {measured.lost:>5} {measured.doubled:>7}"
            )
    figures = {
        key: tuple(statistics.median(column) for column in zip(*values, strict=True))
        for key, values in rounds.items()
    }
    if any(len(values) > 1 for values in rounds.values()):
        print(f"\nmedians over {max(len(v) for v in rounds.values())} rounds")
        for (label, phase_name), (rate, p50, p99) in figures.items():
            print(f"{label:<36} {phase_name:<10} {rate:>8.1f} {p50:>7.1f} {p99:>7.1f}")
    configurations = list(dict.fromkeys(m.configuration for m in results))
    ours = [c for c in configurations if c.tree == ROOT]
    pairs = [(ours[0], ours[-1])] if len(ours) > 1 else []
    for configuration in ours:  # this revision against the baseline, where it ran
        for other in configurations:
            if other.tree != ROOT and (other.database, other.processes) == (
                configuration.database,
                configuration.processes,
            ):
                pairs.append((other, configuration))
    for before, after in pairs:
        for phase in results[0].phases:
            rate_a, p50_a, p99_a = figures[(before.label, phase.name)]
            rate_b, p50_b, p99_b = figures.get((after.label, phase.name), (float("nan"),) * 3)
            print(
                f"ratio ({after.label}) / ({before.label}), {phase.name}: throughput "
                f"{rate_b / rate_a:.2f}, p50 {p50_b / p50_a:.2f}, p99 {p99_b / p99_a:.2f}"
            )


async def run(args: argparse.Namespace) -> int:
    configurations = [Configuration("sqlite", 1)]
    if (args.database, args.processes) != ("sqlite", 1):
        configurations.append(Configuration(args.database, args.processes))
    if args.baseline is not None:  # each configuration: the baseline's bot, then this one's
        baseline = args.baseline.resolve()
        configurations = [
            run
            for c in configurations
            for run in (Configuration(c.database, c.processes, baseline), c)
        ]
    # Rounds interleave the configurations, so that a busy spell of a shared machine
    # falls on all of them alike; the medians over the rounds are compared.
    results = [await run_configuration(args, c) for _ in range(args.rounds) for c in configurations]
    compare(results)
    return 1 if any(r.failed for r in results) else 0


def heartbeat_gap(beats: list[list[float]], start: float, end: float) -> float:
    gaps = [
        later - earlier
        for series in beats
        for earlier, later in itertools.pairwise(series)
        if start <= later <= end
    ]
    return max(gaps, default=float("nan"))


def report(
    args: argparse.Namespace,
    phases: list[Phase],
    samples: list[tuple[float, float]],
    driver_samples: list[tuple[float, float]],
    beats: list[list[float]],
    fake: FakeDiscord,
) -> None:
    experiments = []
    if args.ack_budget is not None:
        experiments.append(f"ack budget {args.ack_budget:g}s")
    if args.ai_nice:
        experiments.append(f"AI workers at nice {args.ai_nice}")
    if args.db_sync:
        experiments.append(f"SQLite synchronous={args.db_sync}")
    print(
        f"\nN={args.games} games between people (think {args.think:g}s mean), "
        f"K={args.ai_games} bot games at {args.level}, {args.seconds:g}s per phase, "
        f"heartbeat every {args.heartbeat:g}s"
        + (f"; experiment: {', '.join(experiments)}" if experiments else "")
    )
    header = (
        f"{'phase':<10} {'inter/s':>8} {'acks':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
        f"{'deferred':>8} {'bot-game acks':>13} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'bot lag ms':>10} {'hb gap s':>8} {'fake lag ms':>11}"
    )
    print(header)
    print("-" * len(header))
    for phase in phases:
        lags = [lag for when, lag in samples if phase.start <= when <= phase.end]
        fake_lags = [lag for when, lag in driver_samples if phase.start <= when <= phase.end]
        total = len(phase.people) + len(phase.bot_games)
        people_ms = [x * 1000 for x in phase.people]
        bots_ms = [x * 1000 for x in phase.bot_games]
        print(
            f"{phase.name:<10} {total / phase.seconds:>8.1f} {len(people_ms):>6} "
            f"{percentile(people_ms, 0.5):>7.1f} {percentile(people_ms, 0.99):>7.1f} "
            f"{max(people_ms, default=float('nan')):>7.1f} {phase.deferred:>8} "
            f"{len(bots_ms):>13} {percentile(bots_ms, 0.5):>7.1f} "
            f"{percentile(bots_ms, 0.99):>7.1f} "
            f"{max(lags, default=float('nan')) * 1000:>10.1f} "
            f"{heartbeat_gap(beats, phase.start, phase.end):>8.2f} "
            f"{max(fake_lags, default=float('nan')) * 1000:>11.1f}"
        )
    for phase in phases:
        every = [1000 * x for x in phase.people + phase.bot_games]
        print(
            f"{phase.name}: all {len(every)} acknowledgements p50 {percentile(every, 0.5):.1f} ms, "
            f"p99 {percentile(every, 0.99):.1f} ms, max {max(every, default=float('nan')):.1f} ms"
        )
    for phase in phases:
        shares = ", ".join(
            f"{key} {100 * value / phase.seconds:.0f}%" for key, value in phase.cpu.items()
        )
        print(f"{phase.name}: CPU (100% = one core): {shares}")
    for phase in phases:
        if phase.errors or phase.refused or phase.games_finished:
            print(
                f"{phase.name}: {len(phase.errors)} errors, {phase.refused} refused, "
                f"{phase.games_finished} games finished"
            )
            for error in sorted(set(phase.errors))[:5]:
                print(f"  {error[:200]}")
    kinds = sorted({v.kind for v in fake.violations})
    print(f"Discord violations: {len(fake.violations)} {kinds if kinds else ''}".rstrip())


def report_spans(phases: list[Phase], spans: Spans) -> None:
    """Where the time goes inside the bot: p50 / p99 of each step, per phase."""
    if not spans:
        return
    columns = "".join(f" {phase.name + ' p50/p99 ms (n)':>34}" for phase in phases)
    print(f"\n{'inside the bot':<26}{columns}")
    for name in sorted(spans):
        cells = []
        for phase in phases:
            ms = [1000 * took for when, took in spans[name] if phase.start <= when <= phase.end]
            cell = f"{percentile(ms, 0.5):.1f} / {percentile(ms, 0.99):.1f} ({len(ms)})"
            cells.append(f" {cell:>34}")
        print(f"{name:<26}{''.join(cells)}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=50, help="games between people (N)")
    parser.add_argument("--ai-games", type=int, default=4, help="games against the bot (K)")
    parser.add_argument("--level", default="hard", help="the bot's level in those games")
    parser.add_argument("--ai-workers", type=int, default=2, help="SHAX_AI_WORKERS of the bot")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured seconds first")
    parser.add_argument(
        "--think", type=float, default=10.0, help="mean seconds a person thinks per action"
    )
    parser.add_argument("--heartbeat", type=float, default=1.0, help="heartbeat interval (s)")
    parser.add_argument(
        "--ack-budget",
        type=float,
        default=None,
        help="experiment: seconds before the bot defers a slow answer (bot default: 1)",
    )
    parser.add_argument(
        "--ai-nice",
        type=int,
        default=0,
        help="experiment: niceness of the bot's AI worker processes (0: the bot's own, nice 19)",
    )
    parser.add_argument(
        "--db-sync",
        choices=("NORMAL", "FULL", "OFF"),
        default=None,
        help="experiment: SQLite's synchronous pragma in the bot (bot default: FULL)",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="the database of the second configuration (the first is always SQLite)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=2,
        help="bot processes of the second configuration, one shard each (the first: 1)",
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="an empty PostgreSQL database for --database postgresql (default: a throwaway "
        "server from the machine's PostgreSQL binaries, as the tests start)",
    )
    parser.add_argument("--guilds", type=int, default=4, help="servers the games are spread over")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a checkout of another revision (git worktree add DIR REV): its bot runs first "
        "in each configuration, and this revision is compared with it",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run every configuration this many times, interleaved, and compare the medians",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile this revision's first bot process (cProfile: it runs slower) and print "
        "where its processor time went",
    )
    parser.add_argument("--serve-bot", type=Path, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def report_profile(path: Path, lines: int = 30) -> None:
    """Where the first bot process spent its processor time (``--profile``), both phases."""
    import pstats

    if not path.exists():
        print(f"no profile at {path}")
        return
    print(f"\nthe first bot process's own time, by function ({path}):")
    pstats.Stats(str(path)).sort_stats("tottime").print_stats(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.serve_bot is not None:
        profile = None
        if args.profile:
            import cProfile

            profile = cProfile.Profile()
            profile.enable()
        serve_bot(
            args.serve_bot, ack_budget=args.ack_budget, ai_nice=args.ai_nice, db_sync=args.db_sync
        )
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.serve_bot.with_suffix(".pstats"))
        return 0
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
