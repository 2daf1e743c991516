"""Nothing is lost when the bot dies: SIGKILL mid-game, start again on the same database.

The real entry point (``python -m bot``) runs as a subprocess against the fake server.
It is killed right after Discord received its acknowledgement of an action; the new
process picks up the old board message's components (persistent custom ids) and the
game goes on from the last accepted action.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
from pathlib import Path

from tests.bot.discord.helpers import Scene, act_select, live_boards, mentioned_ids, option_values
from tests.e2e.conftest import (
    assert_board_png,
    assert_refused,
    db_rows,
    game_row,
    game_state,
    game_version,
    on_turn,
    stale_click,
)
from tests.e2e.processes import (
    ANSWER_SECONDS,
    ROOT,
    START_SECONDS,
    BotProcess,
    assert_stopped_cleanly,
    click_first_option,
    next_board,
    process_scene,
    start_two_player_game,
    stop_running,
)
from tests.fakediscord.faults import ANSWERS, CALLBACKS

__all__ = ["process_scene"]  # the fixture of this module's tests


async def test_sigkill_mid_game_then_restart_loses_nothing(process_scene: Scene) -> None:
    scene, fake = process_scene, process_scene.fake
    first = await BotProcess(scene, "first").start()
    second: BotProcess | None = None
    try:
        board = await start_two_player_game(scene)
        game_id, version = game_version(board)
        for _ in range(4):
            await click_first_option(scene, board)
            version += 1
            board = await next_board(scene, game_id, version)

        # The action Discord saw acknowledged is the last thing the first process does.
        stale_board = board
        before, _, _ = game_state(scene.db_path, game_id)
        acknowledged, action = await click_first_option(scene, board)
        assert acknowledged.acknowledged
        await first.kill()
        killed_at, killed_version, status = game_state(scene.db_path, game_id)
        assert killed_at == (*before, action) and killed_version == version + 1, first.log()
        assert status == "active"
        # The board the first process posted in its last answer, with the new version.
        last_board = acknowledged.message
        assert last_board is not None and game_version(last_board) == (game_id, version + 1)
        assert_board_png(last_board, "shax")

        second = await BotProcess(scene, "second").start()
        # A client still showing the board from before the kill: refused, nothing changes.
        # (That board may even still be there: the first process reports a new board's id
        # before it deletes the old one, and may have died in between.)
        player = on_turn(scene, last_board)
        unchanged = db_rows(scene.db_path)
        old_select = act_select(stale_board)
        stale = await stale_click(
            fake, player, stale_board, old_select["custom_id"], option_values(old_select)[-1:]
        )
        await stale.wait_until(lambda r: r.message is not None, timeout=ANSWER_SECONDS)
        assert "out of date" in assert_refused(stale), stale.content
        assert db_rows(scene.db_path) == unchanged

        # The old board message's select works in the new process: the game goes on.
        resumed, next_action = await click_first_option(scene, last_board)
        assert not resumed.ephemeral, resumed.content
        board = await next_board(scene, game_id, version + 2, may_linger=stale_board.id)
        record, now_version, _ = game_state(scene.db_path, game_id)
        assert record == (*killed_at, next_action) and now_version == version + 2
        assert_board_png(board, "shax")
        # And on: the other player answers on the new board.
        await click_first_option(scene, board)
        board = await next_board(scene, game_id, version + 3, may_linger=stale_board.id)
        assert len(game_state(scene.db_path, game_id)[0]) == len(record) + 1
    finally:
        await stop_running(first, second)
    assert_stopped_cleanly(second)
    fake.assert_clean()


async def test_sigkill_with_daily_backups_loses_no_acknowledged_move(
    process_scene: Scene,
) -> None:
    # The bot's daily backup runs first; then, between the moves, `python -m bot backup`
    # opens and closes the database from another process, as any reader may.
    scene, fake = process_scene, process_scene.fake
    daily = scene.db_path.parent / "daily"
    bot = await BotProcess(
        scene, "backed-up", SHAX_BACKUP_DIR=str(daily), SHAX_TICK_SECONDS="1"
    ).start()
    try:
        await fake.wait_for(lambda: list(daily.glob("shax-*.db")), what="the daily backup")
        board = await start_two_player_game(scene)
        game_id, version = game_version(board)
        played: list[str] = []
        for number in range(1, 9):
            acknowledged, action = await click_first_option(scene, board)
            assert acknowledged.acknowledged
            played.append(action)
            version += 1
            board = await next_board(scene, game_id, version)
            if number % 4 == 0:
                copy = scene.db_path.parent / f"copy-{number}.db"
                done = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bot",
                    "--env-file",
                    str(scene.db_path.parent / "no.env"),
                    "backup",
                    str(copy),
                    cwd=ROOT,
                    env={**os.environ, "SHAX_DB_PATH": str(scene.db_path)},
                )
                assert await asyncio.wait_for(done.wait(), 60) == 0
                with contextlib.closing(sqlite3.connect(copy)) as db:
                    (kept,) = db.execute("SELECT record FROM games WHERE id = ?", (game_id,))
                assert tuple(kept[0].split()) == tuple(played)
        await bot.kill()
    finally:
        await stop_running(bot)
    record, stored_version, _ = game_state(scene.db_path, game_id)
    assert record == tuple(played) and stored_version == version, bot.log()
    assert "Traceback" not in bot.log()


def unshown_checks(process: BotProcess) -> int:
    """How many times the process looked for boards the players have not seen."""
    return process.log().count("Boards the players have not seen:")


async def test_a_move_nobody_saw_is_shown_once_after_sigkill_and_restart(
    process_scene: Scene,
) -> None:
    scene, fake = process_scene, process_scene.fake
    first = await BotProcess(scene, "first").start()
    second: BotProcess | None = None
    try:
        board = await start_two_player_game(scene)
        game_id, version = game_version(board)
        await click_first_option(scene, board)
        version += 1
        board = await next_board(scene, game_id, version)

        # Discord refuses every answer: the move is committed, and nobody sees it.
        fake.faults.add(*ANSWERS, status=500)
        select = act_select(board)
        action = option_values(select)[0]
        player = on_turn(scene, board)
        before, _, _ = game_state(scene.db_path, game_id)
        clicked = asyncio.create_task(
            fake.select(player, board, select["custom_id"], [action], expect_ack=False)
        )
        await fake.wait_for(
            lambda: game_state(scene.db_path, game_id)[1] == version + 1,
            timeout=ANSWER_SECONDS,
            what="the move committed",
        )
        await first.kill()
        assert not (await clicked).acknowledged
        assert game_state(scene.db_path, game_id) == ((*before, action), version + 1, "active")
        assert game_row(scene.db_path, game_id)["shown_version"] == version
        (unchanged,) = live_boards(fake, scene.channel)
        assert game_version(unchanged) == (game_id, version), "the move was shown after all"
        assert {v.code for v in fake.violations} == {10062}, fake.violations
        fake.violations.clear()

        # Discord answers again; the new process shows the move once it is connected.
        fake.faults.clear()
        second = await BotProcess(scene, "second").start()
        # (The first board of a process waits for its picture workers to start.)
        shown = await next_board(scene, game_id, version + 1, timeout=START_SECONDS)
        opponent = on_turn(scene, shown)
        assert opponent != player and opponent.id in mentioned_ids(shown), shown.content
        assert_board_png(shown, "shax")
        await fake.wait_for(
            lambda: game_row(scene.db_path, game_id)["shown_version"] == version + 1,
            what="the board recorded as shown",
        )

        # Exactly once: after a dropped connection is resumed, nothing is shown again.
        messages = [m.id for m in fake.messages(scene.channel)]
        checks = unshown_checks(second)
        fake.drop_connections()
        await fake.wait_for(lambda: unshown_checks(second) > checks, what="a check on resume")
        assert [m.id for m in fake.messages(scene.channel)] == messages

        # The opponent plays on from the board that was shown.
        resumed, _ = await click_first_option(scene, shown)
        assert resumed.acknowledged and not resumed.ephemeral, resumed.content
        await next_board(scene, game_id, version + 2)
    finally:
        await stop_running(first, second)
    assert_stopped_cleanly(second)
    fake.assert_clean()


async def test_a_new_game_nobody_saw_is_shown_after_sigkill_and_restart(
    process_scene: Scene,
) -> None:
    scene, fake = process_scene, process_scene.fake
    first = await BotProcess(scene, "first").start()
    second: BotProcess | None = None
    try:
        await fake.wait_for(lambda: fake.commands(fake.guild_id), what="the commands synced")
        challenge = await fake.slash(
            scene.amina, scene.channel, "shax", "challenge", {"opponent": scene.bashir}
        )
        posted = await challenge.wait_for_response(timeout=ANSWER_SECONDS)
        accept = next(b["custom_id"] for b in posted.buttons() if "accept" in b["custom_id"])

        # Discord refuses every answer: the game is stored, and nobody sees its board.
        fake.faults.add(*ANSWERS, status=500)
        clicked = asyncio.create_task(fake.click(scene.bashir, posted, accept, expect_ack=False))
        await fake.wait_for(
            lambda: bool(db_rows(scene.db_path)["games"]),
            timeout=ANSWER_SECONDS,
            what="the game stored",
        )
        await first.kill()
        assert not (await clicked).acknowledged
        assert game_state(scene.db_path, 1) == ((), 0, "active")
        assert game_row(scene.db_path, 1)["shown_version"] == -1
        assert live_boards(fake, scene.channel) == [], "the board was shown after all"
        fake.violations.clear()

        # Discord answers again; the new process shows the first board once connected.
        fake.faults.clear()
        second = await BotProcess(scene, "second").start()
        shown = await next_board(scene, 1, 0, timeout=START_SECONDS)
        assert on_turn(scene, shown) == scene.amina and scene.amina.id in mentioned_ids(shown)
        assert_board_png(shown, "shax")
        await fake.wait_for(
            lambda: game_row(scene.db_path, 1)["shown_version"] == 0,
            what="the board recorded as shown",
        )

        # The challenger plays from the board that was shown.
        played, _ = await click_first_option(scene, shown)
        assert played.acknowledged and not played.ephemeral, played.content
        await next_board(scene, 1, 1)
    finally:
        await stop_running(first, second)
    assert_stopped_cleanly(second)
    fake.assert_clean()


async def test_sigterm_finishes_the_answer_in_flight_and_closes_the_database(
    process_scene: Scene,
) -> None:
    scene, fake = process_scene, process_scene.fake
    process = await BotProcess(scene, "stopped").start()
    board = await start_two_player_game(scene)
    game_id, version = game_version(board)

    # Discord is slow to take the answer: SIGTERM comes while it is on its way.
    (slow,) = fake.faults.add(CALLBACKS, status=None, delay=1.0)
    clicked = asyncio.create_task(click_first_option(scene, board))
    await fake.wait_for(lambda: slow.hits > 0, timeout=ANSWER_SECONDS, what="the answer sent")
    assert process.process is not None
    process.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(process.process.wait(), 30) == 0, process.log()
    # The database was closed: SQLite folds the write-ahead log back in and removes it.
    assert not Path(f"{scene.db_path}-wal").exists(), process.log()

    result, action = await clicked
    assert result.acknowledged and not result.ephemeral, result.content
    assert game_state(scene.db_path, game_id)[0][-1] == action
    assert game_row(scene.db_path, game_id)["shown_version"] == version + 1
    log = process.log()
    assert "Traceback" not in log and "Stopped" in log, log
    fake.assert_clean()
