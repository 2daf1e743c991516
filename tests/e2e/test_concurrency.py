"""Clicks at the same moment, and clicks on a board that has moved on: at most one applies.
``/shax play-bot`` sent twice at once: one game in a channel or thread, wherever each
request lands (on SQLite and PostgreSQL).

Both interactions are dispatched before the bot reads either (``asyncio.gather``), so
the bot handles them concurrently; the service's per-game lock and the stored version
must let exactly one through and refuse the other politely.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord.app import ShaxBotBase
from bot.service.facade import ShaxService
from tests import services
from tests.bot.discord import helpers
from tests.bot.discord.helpers import Scene, act_select, live_boards, option_values, shown
from tests.bot.storage.conftest import ENGINES, fresh_postgres, postgres_server
from tests.e2e.conftest import (
    Live,
    assert_refused,
    game_state,
    game_version,
    on_turn,
    stale_click,
    start_game,
)
from tests.fakediscord import FakeChannel, FakeMessage, FakeUser, InteractionResult

__all__ = ["postgres_server"]  # a fixture of this module's tests


async def race(
    live: Live, board: FakeMessage, picks: list[tuple[FakeUser, str]]
) -> tuple[FakeMessage, str]:
    """Everyone in ``picks`` chooses in the board's select at the same moment. Exactly one
    action applies (the new board and that action are returned); the others are refused."""
    fake, scene = live.fake, live.scene
    game_id, version = game_version(board)
    record, _, _ = game_state(scene.db_path, game_id)
    custom_id = act_select(board)["custom_id"]
    results: list[InteractionResult] = await asyncio.gather(
        *(fake.select(user, board, custom_id, [value]) for user, value in picks)
    )
    for result in results:
        await shown(live.bot, result)
    applied = [pick for result, pick in zip(results, picks, strict=True) if not result.ephemeral]
    refused = [r for r in results if r.ephemeral]
    assert len(applied) == 1, [r.content for r in results]
    for result in refused:
        text = assert_refused(result)
        assert "out of date" in text or "turn" in text, text
    _, action = applied[0]
    after, after_version, _ = game_state(scene.db_path, game_id)
    assert after == (*record, action) and after_version == version + 1
    boards = live_boards(fake, scene.channel)
    assert len(boards) == 1, "one board per game, whatever the order"
    assert game_version(boards[0]) == (game_id, version + 1)
    return boards[0], action


async def test_two_clicks_at_once_apply_at_most_one_action(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live)
    # The player on turn picks twice at once (two devices, a double click)...
    for _ in range(3):
        player = on_turn(scene, board)
        first, second = option_values(act_select(board))[:2]
        board, _ = await race(live, board, [(player, first), (player, second)])
    # ...the same option twice...
    player = on_turn(scene, board)
    same = option_values(act_select(board))[-1]
    board, action = await race(live, board, [(player, same), (player, same)])
    assert action == same
    # ...and both players at once: only the one on turn can play.
    for _ in range(3):
        player = on_turn(scene, board)
        other = scene.bashir if player == scene.amina else scene.amina
        first, second = option_values(act_select(board))[:2]
        board, action = await race(live, board, [(other, second), (player, first)])
        assert action == first
    fake.assert_clean()


async def test_a_click_on_a_superseded_board_is_refused(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live)
    game_id, version = game_version(board)
    played = await fake.select(scene.amina, board, act_select(board)["custom_id"], ["a1"])
    await shown(live.bot, played)
    newer = live_boards(fake, scene.channel)[0]
    # A client still showing the old board: Amina again (no longer her turn) and Bashir
    # (whose turn it is, but on a board one version behind).
    for user, value in ((scene.amina, "a4"), (scene.bashir, "a7")):
        stale = await stale_click(fake, user, board, act_select(board)["custom_id"], [value])
        await shown(live.bot, stale)
        assert "out of date" in assert_refused(stale), stale.content
    assert game_state(scene.db_path, game_id)[:2] == (("a1",), version + 1)
    assert [m.id for m in live_boards(fake, scene.channel)] == [newer.id]
    assert fake.message(newer.id).data == newer.data
    # A command and a click at the same moment by the player on turn: one applies.
    bashir_turn = act_select(newer)["custom_id"]
    by_click, by_command = await asyncio.gather(
        fake.select(scene.bashir, newer, bashir_turn, ["g1"]),
        fake.slash(scene.bashir, scene.channel, "shax", "move", {"action": "g7"}),
    )
    for result in (by_click, by_command):
        await shown(live.bot, result)
    assert sorted([by_click.ephemeral, by_command.ephemeral]) == [False, True]
    record, now_version, _ = game_state(scene.db_path, game_id)
    assert now_version == version + 2 and record[:1] == ("a1",) and record[1] in ("g1", "g7")
    assert len(live_boards(fake, scene.channel)) == 1


# -- /shax play-bot twice at once ------------------------------------------------------


@pytest.fixture(params=ENGINES)
async def database(request: pytest.FixtureRequest, scene: Scene) -> Path | str:
    """The bot's database: the scene's SQLite file, or a fresh PostgreSQL one."""
    if request.param == "sqlite":
        return scene.db_path
    return await fresh_postgres(request.getfixturevalue("postgres_server"))


@contextlib.asynccontextmanager
async def bot_on(
    scene: Scene, database: Path | str, threads: str
) -> AsyncIterator[tuple[ShaxService, ShaxBotBase]]:
    """A ready bot on ``database`` whose server sends games to threads as ``threads`` says."""
    async with (
        services.open_service(database, bot_user=scene.bot_user) as service,  # type: ignore[arg-type]
        helpers.bot_running(scene, service, settings=scene.settings(game_threads=threads)) as bot,
    ):
        yield service, bot
    scene.fake.assert_clean()


async def play_bot_at_once(
    bot: ShaxBotBase, scene: Scene, user: FakeUser, times: int = 2
) -> list[InteractionResult]:
    """``user`` sends ``/shax play-bot`` in the scene's channel ``times`` at once."""
    results = await asyncio.gather(
        *(
            scene.fake.slash(user, scene.channel, "shax", "play-bot", {"variant": "jar"})
            for _ in range(times)
        )
    )
    for result in results:
        await shown(bot, result)
    return list(results)


async def games_by_channel(service: ShaxService) -> dict[int, list[int]]:
    """The unfinished games' players, by the channel or thread they are played in."""
    found: dict[int, list[int]] = {}
    for game in await service.storage.games.active_games():
        human = game.black_id if game.white_id == service.bot_user.id else game.white_id
        found.setdefault(game.channel_id, []).append(human)
    return found


def threads_of(scene: Scene, channel: FakeChannel) -> list[FakeChannel]:
    return [c for c in scene.fake.world.threads() if c.parent_id == channel.id]


async def test_play_bot_twice_at_once_where_no_thread_may_open_starts_one_game(
    scene: Scene, database: Path | str
) -> None:
    async with bot_on(scene, database, "never") as (service, bot):
        results = await play_bot_at_once(bot, scene, scene.amina)
        refused = [r for r in results if r.ephemeral]
        assert len(refused) == 1
        assert "already being played in this channel" in assert_refused(refused[0])
        assert await games_by_channel(service) == {scene.channel.id: [scene.amina.id]}
        assert len(live_boards(scene.fake, scene.channel)) == 1
        assert not threads_of(scene, scene.channel)


async def test_play_bot_twice_at_once_in_a_free_channel_plays_here_and_in_a_thread(
    scene: Scene, database: Path | str
) -> None:
    async with bot_on(scene, database, "busy") as (service, bot):
        results = await play_bot_at_once(bot, scene, scene.amina)
        assert not any(r.ephemeral for r in results)
        # The first to land takes the channel; the other finds it busy and gets a thread.
        (thread,) = threads_of(scene, scene.channel)
        assert await games_by_channel(service) == {
            scene.channel.id: [scene.amina.id],
            thread.id: [scene.amina.id],
        }
        assert len(live_boards(scene.fake, scene.channel)) == 1
        assert len(live_boards(scene.fake, thread)) == 1


async def test_play_bot_twice_at_once_in_a_busy_channel_starts_one_game_a_thread(
    scene: Scene, database: Path | str
) -> None:
    async with bot_on(scene, database, "busy") as (service, bot):
        first = await scene.fake.slash(
            scene.bashir, scene.channel, "shax", "play-bot", {"variant": "jar"}
        )
        await shown(bot, first)
        await play_bot_at_once(bot, scene, scene.amina)
        threads = threads_of(scene, scene.channel)
        assert len(threads) == 2
        assert await games_by_channel(service) == {
            scene.channel.id: [scene.bashir.id],
            **{thread.id: [scene.amina.id] for thread in threads},
        }
        for thread in threads:
            assert len(live_boards(scene.fake, thread)) == 1
