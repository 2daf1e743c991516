"""An interaction answered after Discord's 3 seconds: the move it made is still shown.

The service commits an action before the bot replies. If the bot's event loop stalls
so long that even the deferral comes too late (Discord answers 10062 Unknown
interaction), the committed move must still reach the channel as the live board;
otherwise the game would look stuck on a board whose clicks are out of date.
"""

from __future__ import annotations

import time
from typing import Any

from tests.bot.discord.helpers import act_select, live_boards, option_values
from tests.e2e.conftest import Live, game_state, game_version, on_turn, start_game


async def test_a_move_answered_too_late_still_reaches_the_channel(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live, "jar")
    game_id, version = game_version(board)
    record, _, _ = game_state(scene.db_path, game_id)
    select = act_select(board)
    action = option_values(select)[0]
    real_play = live.service.turns.play

    async def stalled_play(*args: Any, **kwargs: Any) -> Any:
        time.sleep(3.3)  # the whole event loop stalls past Discord's deadline
        return await real_play(*args, **kwargs)

    live.service.turns.play = stalled_play  # type: ignore[method-assign]
    await fake.select(on_turn(scene, board), board, select["custom_id"], [action], expect_ack=False)

    def one_new_board() -> Any:
        # The late move's board stands alone: the board that was clicked is retired.
        boards = live_boards(fake, scene.channel)
        return len(boards) == 1 and game_version(boards[0]) == (game_id, version + 1) and boards[0]

    shown = await fake.wait_for(one_new_board, timeout=10, what="the late move's board")
    after, after_version, _ = game_state(scene.db_path, game_id)
    assert after == (*record, action) and after_version == version + 1
    assert shown.attachment("board.png").data.startswith(b"\x89PNG")
    # Discord refused the late acknowledgement (and saw the stalled heartbeat); the
    # bot's answer to that is what this test is about, so those are expected here.
    assert 10062 in {v.code for v in fake.violations}
    fake.violations.clear()
