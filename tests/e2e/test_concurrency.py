"""Clicks at the same moment, and clicks on a board that has moved on: at most one applies.

Both interactions are dispatched before the bot reads either (``asyncio.gather``), so
the bot handles them concurrently; the service's per-game lock and the stored version
must let exactly one through and refuse the other politely.
"""

from __future__ import annotations

import asyncio

from tests.bot.discord.helpers import act_select, live_boards, option_values, shown
from tests.e2e.conftest import (
    Live,
    assert_refused,
    game_state,
    game_version,
    on_turn,
    stale_click,
    start_game,
)
from tests.fakediscord import FakeMessage, FakeUser, InteractionResult


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
