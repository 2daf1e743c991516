"""The player on turn is notified by every new board, and nobody else is pinged by it."""

from __future__ import annotations

from tests.bot.discord.helpers import act_select, live_boards, option_values, shown
from tests.e2e.conftest import Live, on_turn, start_game


async def test_each_new_board_pings_exactly_the_player_on_turn(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live, "jar")
    assert scene.amina.id in board.pinged  # the challenger places first
    for n in range(6):  # the placements a1 a2 a3 b1 b2 b3: white makes the first line
        mover = on_turn(scene, board)
        select = act_select(board)
        result = await fake.select(mover, board, select["custom_id"], option_values(select)[:1])
        await shown(live.bot, result)
        boards = live_boards(fake, scene.channel)
        assert len(boards) == 1
        board = boards[0]
        waiting = on_turn(scene, board)
        # Each passes the turn but the last: black's b1 b2 b3 walls in white, who moves
        # first, so black must open a way at once.
        assert (waiting == mover) == (n == 5)
        assert board.pinged == (waiting.id,), "only the player now on turn is notified"
