"""Discord refuses the answer, the move still shows: callbacks failing with 5xx and 429.

The service commits an action before the bot answers. When Discord will not take the
interaction's answer (a 500 that discord.py retries past Discord's 3 seconds, its own
429 that does not clear, Cloudflare's 429), the committed move's board must still reach
the channel, posted by id, pinging the player on turn; the clicker is never told that
something went wrong, and the game goes on from the new board.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.respond import SORRY
from tests.bot.discord.helpers import act_select, live_boards, mentioned_ids, option_values
from tests.e2e.conftest import (
    Live,
    assert_board_png,
    game_row,
    game_state,
    game_version,
    on_turn,
    start_game,
)
from tests.fakediscord import FakeMessage
from tests.fakediscord.faults import CALLBACKS

CALLBACK_WINDOW = 1.5
"""The bot's callback window in these tests: a 500 is retried once (after 1 s), then
given up (the default, 2.5 s, only makes the test slower)."""


async def play_refused(live: Live, board: FakeMessage) -> FakeMessage:
    """The player on turn picks the board's first action while Discord refuses every
    callback; the board the bot then shows in the channel (the only one left)."""
    scene, fake = live.scene, live.fake
    game_id, version = game_version(board)
    record, _, _ = game_state(scene.db_path, game_id)
    select = act_select(board)
    action = option_values(select)[0]
    player = on_turn(scene, board)
    result = await fake.select(player, board, select["custom_id"], [action], expect_ack=False)

    def one_new_board() -> FakeMessage | None:
        boards = live_boards(fake, scene.channel)
        if len(boards) == 1 and game_version(boards[0]) == (game_id, version + 1):
            return boards[0]
        return None

    shown = await fake.wait_for(one_new_board, timeout=10, what="the move's board")
    assert await live.bot.responder.wait_idle(10)
    # Committed once, shown, and recorded as shown (nothing left to reconcile).
    assert game_state(scene.db_path, game_id) == ((*record, action), version + 1, "active")
    assert game_row(scene.db_path, game_id)["shown_version"] == version + 1
    assert game_row(scene.db_path, game_id)["board_message_id"] == shown.id
    # The player now on turn is pinged by the new message.
    opponent = on_turn(scene, shown)
    assert opponent != player and opponent.id in mentioned_ids(shown)
    assert_board_png(shown, "shax")
    # Nobody was told anything went wrong: the click got no answer at all.
    assert not result.acknowledged and result.content is None and not result.followup_ids
    assert all("went wrong" not in m.content for m in fake.messages(scene.channel))
    # The only thing Discord saw amiss is the answer that never came.
    assert {v.code for v in fake.violations} == {10062}, fake.violations
    fake.violations.clear()
    return shown


@pytest.mark.slow  # discord.py retries each 500 for seconds
async def test_callbacks_failing_with_500_and_429_still_show_every_move(live: Live) -> None:
    scene, fake = live.scene, live.fake
    live.bot.responder.callback_window = CALLBACK_WINDOW
    board = await start_game(live)

    fake.faults.add(CALLBACKS, status=500)
    board = await play_refused(live, board)
    fake.faults.clear()

    fake.faults.add(CALLBACKS, status=429, retry_after=0.05)  # Discord's, never clearing
    board = await play_refused(live, board)
    fake.faults.clear()

    fake.faults.add(CALLBACKS, status=429, via=False)  # Cloudflare's: not retried
    board = await play_refused(live, board)
    fake.faults.clear()
    assert fake.faults.injected > 5

    # Discord answers again: the opponent's click on the posted board just works.
    game_id, version = game_version(board)
    select = act_select(board)
    action = option_values(select)[0]
    clicked = await fake.select(on_turn(scene, board), board, select["custom_id"], [action])
    assert clicked.acknowledged and not clicked.ephemeral, clicked.content
    assert await live.bot.responder.wait_idle(10)
    (newest,) = live_boards(fake, scene.channel)
    assert game_version(newest) == (game_id, version + 1)
    assert game_state(scene.db_path, game_id)[0][-1] == action
    assert game_row(scene.db_path, game_id)["shown_version"] == version + 1


async def test_a_command_whose_answer_fails_posts_its_board(live: Live) -> None:
    scene, fake = live.scene, live.fake
    live.bot.responder.callback_window = CALLBACK_WINDOW
    board = await start_game(live)
    game_id, version = game_version(board)
    action = option_values(act_select(board))[0]

    fake.faults.add(CALLBACKS, status=500)
    result = await fake.slash(
        on_turn(scene, board), scene.channel, "shax", "move", {"action": action}, expect_ack=False
    )

    def posted() -> FakeMessage | None:
        boards = live_boards(fake, scene.channel)
        ok = len(boards) == 1 and game_version(boards[0]) == (game_id, version + 1)
        return boards[0] if ok else None

    shown = await fake.wait_for(posted, timeout=10, what="the command's board")
    assert await live.bot.responder.wait_idle(10)
    assert not result.acknowledged and result.content is None
    assert game_row(scene.db_path, game_id)["shown_version"] == version + 1
    assert on_turn(scene, shown).id in mentioned_ids(shown)
    assert {v.code for v in fake.violations} == {10062}, fake.violations
    fake.violations.clear()
    fake.faults.clear()


async def test_a_board_that_failed_after_its_move_was_stored_comes_in_a_moment(
    live: Live, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live)
    game_id, version = game_version(board)
    select = act_select(board)
    real = live.service.composer.board_reply

    async def broken_once(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(live.service.composer, "board_reply", real)
        raise OSError("the picture worker died")

    monkeypatch.setattr(live.service.composer, "board_reply", broken_once)
    player = on_turn(scene, board)
    result = await fake.select(player, board, select["custom_id"], option_values(select)[:1])
    await result.wait_until(lambda r: r.ephemeral)
    assert result.content == SORRY  # nothing to show yet: the move is stored, though
    assert game_state(scene.db_path, game_id)[1] == version + 1
    assert live.bot.responder.undelivered.is_set()

    # No tick needed: the undelivered board is looked for a few seconds later.
    def moved() -> FakeMessage | None:
        boards = live_boards(fake, scene.channel)
        return boards[0] if len(boards) == 1 and boards[0].id != board.id else None

    shown = await fake.wait_for(moved, timeout=15, what="the stored move's board")
    assert game_version(shown) == (game_id, version + 1) and shown.id != board.id
    assert on_turn(scene, shown) != player and on_turn(scene, shown).id in mentioned_ids(shown)
    assert game_row(scene.db_path, game_id)["shown_version"] == version + 1
    assert not live.bot.responder.undelivered.is_set()
