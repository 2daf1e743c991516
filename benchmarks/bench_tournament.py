"""A Swiss round through the service: ``python benchmarks/bench_tournament.py [--players N]``.

N players (16, 32 and 64 by default) join a Swiss on a SQLite file; it is started (round
1 paired), its games are opened as an adapter opens them, every game is resigned, and one
tournaments' tick records the results and pairs round 2. Timed: the start, the opening of
the round's games, and that tick; with the event loop's worst stall meanwhile (a probe
task wakes every millisecond), since the pairing runs in a thread, off the loop.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.service.facade import ShaxService  # noqa: E402
from bot.service.replies import Place, User  # noqa: E402
from bot.storage import Storage  # noqa: E402
from bot.tournaments.notices import OpenedGame, PairingToOpen  # noqa: E402
from bot.workers.ai import AIPool, random_chooser  # noqa: E402

BOT = User(9, "ShaxBot", is_bot=True)
HALL = Place(1, 700)


class Stalls:
    """The longest the event loop kept a 1 ms sleeper waiting."""

    def __init__(self) -> None:
        self.worst = 0.0

    async def watch(self) -> None:
        while True:
            began = time.perf_counter()
            await asyncio.sleep(0.001)
            self.worst = max(self.worst, time.perf_counter() - began - 0.001)


async def opened(service: ShaxService) -> list[OpenedGame]:
    games = []
    for item in await service.tournaments.tick():
        if isinstance(item, PairingToOpen):
            where = Place(1, 10_000 + item.pairing_id, HALL.channel_id)
            games.append(await service.tournaments.open_game(item.pairing_id, where))
    return games


async def one(n: int) -> tuple[float, float, float, float]:
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "shax.db")
        service = ShaxService(storage, bot_user=BOT, ai=AIPool(1, chooser=random_chooser))
        players = [User(100 + i, f"P{i}") for i in range(n)]
        t = service.tournaments
        await t.create(players[0], HALL)
        for player in players[1:]:
            await t.join(player, HALL)
        stalls = Stalls()
        probe = asyncio.create_task(stalls.watch())
        began = time.perf_counter()
        await t.start(players[0], HALL, may_manage=False)
        start = time.perf_counter() - began
        began = time.perf_counter()
        games = await opened(service)
        opening = time.perf_counter() - began
        for game in games:
            row = await service.kernel.game(game.reply.game_id or 0)
            loser = next(p for p in players if p.id == row.black_id)
            await service.turns.resign(loser, game.place)
        began = time.perf_counter()
        await opened(service)
        tick = time.perf_counter() - began
        probe.cancel()
        await service.close()
        return start, opening, tick, stalls.worst


async def main(sizes: list[int]) -> None:
    print(" players   start  open round  tick (round 2)  worst loop stall")
    for n in sizes:
        start, opening, tick, stall = await one(n)
        print(f"{n:8d} {start:6.3f}s {opening:9.3f}s {tick:13.3f}s {stall:15.3f}s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, action="append")
    asyncio.run(main(parser.parse_args().players or [16, 32, 64]))
