"""The clock's tick with many games: ``python benchmarks/bench_tick.py [--games N]``.

``ShaxService.tick`` runs every 30 s: it warns and forfeits players who let their
turn run out and lets the bot move where it was waiting. It must never hold up the
event loop that answers Discord. This stores N active games of Shax (seeded random
records of up to 400 actions, cut a few actions before their end), opens a fresh
service on them, as after a restart, and times one tick while a probe task measures
how late the event loop wakes it (the worst stall the tick causes):

* ``fresh turns``: every turn started just now, nothing is due (the usual tick);
* ``all due``: every turn started 23.5 hours ago, past the warning time, the bot running
  all along, so the tick replays every record and stores a warning for each game;
* ``back``: the same turns, but the bot was stopped since they started (its clock last
  ran then), so the tick gives every turn its time back, in one transaction, and says
  so in each game.

Each case runs cold (the service's position cache empty) and then warm.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.service.clock import ALL_SERVERS  # noqa: E402
from bot.service.facade import ShaxService  # noqa: E402
from bot.service.replies import User  # noqa: E402
from bot.storage import NewGame, Storage  # noqa: E402
from tests.renderer.games import random_record  # noqa: E402

BOT = User(id=9, name="ShaxBot", is_bot=True)


class Unused:
    """The AI: no bot game here, so never asked."""

    async def choose(self, variant: str, record: object, level: str, seed: int) -> str:
        raise AssertionError("no bot game in this benchmark")


async def fill(storage: Storage, games: int, turn_started: datetime) -> None:
    for number in range(games):
        record = random_record("shax", number)
        record = record[: max(1, len(record) - 5)]
        new = NewGame(
            guild_id=1,
            channel_id=10_000 + number,
            parent_channel_id=None,
            variant="shax",
            white_id=2 * number + 1,
            white_name=f"white{number}",
            black_id=2 * number + 2,
            black_name=f"black{number}",
        )
        game = await storage.games.create_game(new, turn_started)
        await storage.games.update_game(
            game.id, 0, record=record, draw_offered_by=None, now=turn_started, new_turn=True
        )


async def timed_tick(service: ShaxService) -> tuple[float, float, int]:
    """Seconds the tick took, the worst lateness of a 1 ms sleeper meanwhile, notices."""
    stalls: list[float] = []
    done = asyncio.Event()
    loop = asyncio.get_running_loop()

    async def probe() -> None:
        while not done.is_set():
            started = loop.time()
            await asyncio.sleep(0.001)
            stalls.append(loop.time() - started - 0.001)

    prober = asyncio.create_task(probe())
    await asyncio.sleep(0.01)
    started = time.perf_counter()
    notices = await service.tick()
    took = time.perf_counter() - started
    done.set()
    await prober
    return took, max(stalls, default=0.0), len(notices)


async def run(games: int) -> None:
    now = datetime.now(UTC)
    print(f"{games} active games of Shax; one tick, cold (after a restart) then warm")
    print(f"{'case':<12} {'cache':<5} {'tick ms':>9} {'worst stall ms':>15} {'notices':>8}")
    due = now - timedelta(hours=23, minutes=30)
    for case, turn_started, clock_ran in (
        ("fresh turns", now, now),
        ("all due", due, now),
        ("back", due, due),
    ):
        with tempfile.TemporaryDirectory() as folder:
            storage = await Storage.open(Path(folder) / "tick.db")
            try:
                await fill(storage, games, turn_started)
                await storage.clock.ran(ALL_SERVERS, clock_ran)
                service = ShaxService(storage, bot_user=BOT, ai=Unused(), clock=lambda: now)
                for cache in ("cold", "warm"):
                    took, stall, notices = await timed_tick(service)
                    print(
                        f"{case:<12} {cache:<5} {took * 1000:>9.1f} {stall * 1000:>15.1f} "
                        f"{notices:>8}"
                    )
            finally:
                await storage.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2000, help="active games (N)")
    args = parser.parse_args(argv)
    asyncio.run(run(args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
