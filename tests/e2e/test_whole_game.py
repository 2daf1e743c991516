"""Challenge → Accept → a whole game of Shax to a win, played only through what the bot offers.

Two people play a seeded random game: each action is picked from the move select under
the live board or from ``/shax move``'s autocomplete, never from the engine, so the test
proves the UI offers exactly the legal actions. The engine only checks the offers.
"""

from __future__ import annotations

import io
import random

from PIL import Image

import renderer
from bot.discord.custom_ids import rematch_id, review_id
from engine import replay
from tests.bot.discord.helpers import act_select, button_ids, live_boards, option_values, shown
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

VARIANT = "shax"
SEED = 7
"""A seed whose random game ends in a win (a drawn game has no streak to show)."""
COMMAND_EVERY = 3
"""Every third action is typed with /shax move (and its autocomplete); the rest are clicks."""
MAX_ACTIONS = 600


async def play_one_action(
    live: Live, board: FakeMessage, rng: random.Random, by_command: bool
) -> str:
    """The player on turn picks a random action among those the bot offers (typed with
    ``/shax move`` or clicked in the select); returns it."""
    scene, fake = live.scene, live.fake
    player = on_turn(scene, board)
    other = scene.bashir if player == scene.amina else scene.amina
    game_id, version = game_version(board)
    record, stored_version, _ = game_state(scene.db_path, game_id)
    assert stored_version == version
    legal = replay(VARIANT, record).legal_notations()

    if by_command:
        typed = await fake.autocomplete(
            player, scene.channel, "shax", "move", {"action": ""}, focused="action"
        )
        offered = [choice["value"] for choice in typed]
        assert set(offered) <= set(legal) and len(offered) == min(len(legal), 25)
        action = rng.choice(offered)
        narrowed = await fake.autocomplete(
            player, scene.channel, "shax", "move", {"action": action[0]}, focused="action"
        )
        values = [choice["value"] for choice in narrowed]
        assert action in values and all(value.startswith(action[0]) for value in values)
        # The player not on turn is offered nothing.
        assert (
            await fake.autocomplete(
                other, scene.channel, "shax", "move", {"action": ""}, focused="action"
            )
            == []
        )
        result = await fake.slash(player, scene.channel, "shax", "move", {"action": action})
    else:
        select = act_select(board)
        options = option_values(select)
        # (Shax never has more than 24 legal actions, so no two-step move is needed.)
        assert sorted(options) == sorted(legal), "the select must offer every legal action"
        action = rng.choice(options)
        result = await fake.select(player, board, select["custom_id"], [action])
    shown_after = await shown(live.bot, result)
    assert not shown_after.ephemeral, shown_after.content
    after, after_version, _ = game_state(scene.db_path, game_id)
    assert after == (*record, action) and after_version == version + 1
    return action


async def test_a_whole_game_by_select_and_command_to_a_win_and_the_streak(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live, VARIANT)
    game_id, _ = game_version(board)
    rng = random.Random(SEED)
    for ply in range(MAX_ACTIONS):
        player = on_turn(scene, board)
        by_command = ply % COMMAND_EVERY == COMMAND_EVERY - 1
        await play_one_action(live, board, rng, by_command)
        record, _, status = game_state(scene.db_path, game_id)
        boards = live_boards(fake, scene.channel)
        if status == "over":
            assert boards == []
            break
        # One board per game, at the bottom when it pinged the next player (an edit notifies
        # nobody) or answered a command; a click that keeps the turn (a capture) edits it.
        assert len(boards) == 1
        moved = by_command or on_turn(scene, boards[0]) != player
        assert (boards[0].id != board.id) == moved
        board = boards[0]
        assert_board_png(board, VARIANT)
        assert f"<@{on_turn(scene, board).id}>" in board.content
    else:
        raise AssertionError(f"no result after {MAX_ACTIONS} actions")

    # The final board: the picture, the replay, a Rematch button, both players pinged.
    final = fake.messages(scene.channel)[-1]
    assert_board_png(final, VARIANT)
    assert button_ids(final) == [rematch_id(game_id), review_id(game_id)] and not final.selects()
    replay_gif = final.attachment(renderer.REPLAY_FILENAME)
    with Image.open(io.BytesIO(replay_gif.data)) as gif:
        assert gif.format == "GIF" and getattr(gif, "n_frames", 1) > 1
    assert scene.amina.mention in final.content and scene.bashir.mention in final.content
    assert "wins" in final.content, final.content

    game = game_row(scene.db_path, game_id)
    assert game["termination"] and game["result"] in ("white", "black"), game
    winner = scene.amina if game["result"] == "white" else scene.bashir
    loser = scene.bashir if winner == scene.amina else scene.amina
    assert len(record) > 60, "a whole game of Shax is longer than its placement"

    streak = await fake.slash(winner, scene.channel, "shax", "streak")
    shown_streak = await shown(live.bot, streak)
    assert not streak.ephemeral
    assert winner.display_name in shown_streak.content
    assert "Against people: 1 won, 0 lost, 0 drawn" in shown_streak.content
    theirs = await fake.slash(winner, scene.channel, "shax", "streak", {"user": loser})
    assert "Against people: 0 won, 1 lost, 0 drawn" in (await shown(live.bot, theirs)).content
