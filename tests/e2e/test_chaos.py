"""Chaos: a real game played through random faults, then checked move by move.

Before each click a seeded choice of fault is switched on in the fake Discord: none,
callbacks answering 500, Discord's 429 that never clears, Cloudflare's 429, slow
callbacks, every answer failing (callbacks and channel posts), a dropped gateway
connection or Discord's RECONNECT while the answer is on its way. When nothing could be
shown, the bot shows the board after its connection resumes. Then, game by game: every
move the players made is stored once, every stored move was shown, and every record
replays in the engine. The figures are printed (``pytest -s -k chaos``).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter

from engine import replay
from tests.bot.discord.helpers import act_select, live_boards, option_values
from tests.e2e.conftest import Live, game_row, game_state, game_version, on_turn, start_game
from tests.fakediscord import FakeMessage
from tests.fakediscord.faults import ANSWERS, CALLBACKS

CLICKS = 10
SEED = 11
FAULTS = ("none", "500", "429", "cloudflare", "slow", "nothing shown", "drop", "reconnect")


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


async def stored(live: Live, game_id: int, version: int) -> None:
    """Wait until the game is stored at ``version``."""
    db_path = live.scene.db_path
    await live.fake.wait_for(
        lambda: game_state(db_path, game_id)[1] == version, timeout=15, what="the move stored"
    )


async def test_a_game_played_through_random_faults_loses_nothing(live: Live) -> None:
    scene, fake = live.scene, live.fake
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
        await stored(live, game_id, version + 1)
        assert await live.bot.responder.wait_answered(15)
        fake.faults.clear()
        if fault == "nothing shown":
            assert game_row(scene.db_path, game_id)["shown_version"] == version
            fake.drop_connections()  # the bot shows the board once it has resumed
        played.append(action)
        version += 1
        board = await the_board(live, game_id, version)
        # Only the answers that never came, never anything else Discord would refuse.
        assert {v.code for v in fake.violations} <= {10062}, fake.violations
        fake.violations.clear()

    # Every move made is stored once, in order; every stored move was shown.
    record, stored_version, status = game_state(scene.db_path, game_id)
    lost = sum(1 for i, action in enumerate(played) if record[i : i + 1] != (action,))
    unshown = stored_version - game_row(scene.db_path, game_id)["shown_version"]
    print(
        f"\nchaos: {len(played)} moves made through {dict(sorted(used.items()))}; "
        f"{fake.faults.injected} REST faults injected; {len(record)} moves stored, "
        f"{lost} lost, {unshown} unshown"
    )
    assert record == tuple(played) and stored_version == CLICKS and status == "active"
    assert lost == 0 and unshown == 0
    assert replay("shax", record).to_move is not None  # the record replays in the engine
    # Once more after a last resume: nothing is shown twice.
    messages = [m.id for m in fake.messages(scene.channel)]
    fake.drop_connections()
    await fake.wait_for(lambda: fake.gateway.identified_connections(), what="resumed")
    assert await live.bot.responder.wait_answered(15)
    assert [m.id for m in fake.messages(scene.channel)] == messages
