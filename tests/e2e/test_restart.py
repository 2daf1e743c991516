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
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from tests.bot.discord.helpers import (
    Scene,
    act_select,
    live_boards,
    make_scene,
    mentioned_ids,
    option_values,
)
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
from tests.fakediscord import FakeDiscord, FakeMessage, InteractionResult
from tests.fakediscord.faults import ANSWERS, CALLBACKS

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5.fake-bot.token_for_e2e_tests"  # shaped like a bot token (three parts)
START_SECONDS = 30.0
ANSWER_SECONDS = 30.0  # a bound, not a speed target: generous for a loaded 2-core machine


@pytest_asyncio.fixture
async def process_scene(tmp_path: Path) -> AsyncIterator[Scene]:
    """A fake server that accepts the bot token a real process presents. Heartbeats far
    apart, as Discord's (41 s): a loaded test machine may hold a process back for a second
    or two, which is no concern of these tests (tests/e2e/test_master_bot.py is the one
    about heartbeats)."""
    async with FakeDiscord(token=TOKEN, heartbeat_interval=5.0) as fake:
        yield make_scene(fake, tmp_path / "shax.db")


class BotProcess:
    """``python -m bot`` against the scene's fake server, its output in a log file."""

    def __init__(self, scene: Scene, name: str, **settings: str) -> None:
        self.scene = scene
        self.log_path = scene.db_path.parent / f"{name}.log"
        self.process: asyncio.subprocess.Process | None = None
        self.settings = settings

    async def start(self) -> BotProcess:
        fake = self.scene.fake
        env = {
            **os.environ,
            **fake.env(),
            "DISCORD_TOKEN": TOKEN,
            "SHAX_DB_PATH": str(self.scene.db_path),
            "SHAX_DEV_GUILD_ID": str(fake.guild_id),
            "SHAX_AI_WORKERS": "1",
            "SHAX_LOG_LEVEL": "INFO",
            **self.settings,
        }
        identified = len(fake.gateway.identify_payloads)
        with self.log_path.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "--env-file",
                str(self.scene.db_path.parent / "no.env"),
                cwd=ROOT,
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        await fake.wait_for(
            lambda: (
                len(fake.gateway.identify_payloads) > identified
                and fake.gateway.identified_connections()
            ),
            timeout=START_SECONDS,
            what=f"IDENTIFY from the bot process ({self.log()})",
        )
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, nothing is flushed or closed."""
        os.kill(self.pid, signal.SIGKILL)
        assert self.process is not None
        assert await asyncio.wait_for(self.process.wait(), 10) == -signal.SIGKILL
        fake = self.scene.fake
        await fake.wait_for(
            lambda: not fake.gateway.identified_connections(), what="the dead connection closed"
        )

    async def stop(self) -> int:
        """SIGTERM and wait for a clean exit."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), 30)


async def next_board(
    scene: Scene,
    game_id: int,
    version: int,
    *,
    may_linger: int | None = None,
    timeout: float = ANSWER_SECONDS,
) -> FakeMessage:
    """The game's live board once it shows ``version`` and the bot deleted the old one.

    ``may_linger`` is a board the killed process may not have got round to deleting
    (it reports the new board's id before deleting the old one)."""
    fake = scene.fake

    def ready() -> FakeMessage | None:
        boards = [b for b in live_boards(fake, scene.channel) if b.id != may_linger]
        newest = boards[-1] if boards else None
        if newest is None or game_version(newest) != (game_id, version):
            return None
        return newest if len(boards) == 1 else None

    return await fake.wait_for(ready, timeout=timeout, what=f"board v{version}")


async def click_first_option(scene: Scene, board: FakeMessage) -> tuple[InteractionResult, str]:
    """The player on turn picks the first action the board offers."""
    select = act_select(board)
    action = option_values(select)[0]
    result = await scene.fake.select(on_turn(scene, board), board, select["custom_id"], [action])
    return result, action


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
        for process in (first, second):
            if process and process.process and process.process.returncode is None:
                await process.stop()
    assert second is not None and second.process is not None
    log = second.log()
    assert second.process.returncode == 0, log
    assert "Traceback" not in log, log
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
        if bot.process is not None and bot.process.returncode is None:
            await bot.stop()
    record, stored_version, _ = game_state(scene.db_path, game_id)
    assert record == tuple(played) and stored_version == version, bot.log()
    assert "Traceback" not in bot.log()


async def start_two_player_game(scene: Scene) -> FakeMessage:
    """Amina challenges Bashir and he accepts; the first board (version 0)."""
    fake = scene.fake
    await fake.wait_for(lambda: fake.commands(fake.guild_id), what="the commands synced")
    challenge = await fake.slash(
        scene.amina, scene.channel, "shax", "challenge", {"opponent": scene.bashir}
    )
    posted = await challenge.wait_for_response(timeout=ANSWER_SECONDS)
    accept = next(b["custom_id"] for b in posted.buttons() if "accept" in b["custom_id"])
    await fake.click(scene.bashir, posted, accept)
    # (The first board of a process waits for its picture workers to start.)
    return await next_board(scene, 1, 0, timeout=START_SECONDS)


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
        for process in (first, second):
            if process and process.process and process.process.returncode is None:
                await process.stop()
    assert second is not None and second.process is not None
    log = second.log()
    assert second.process.returncode == 0, log
    assert "Traceback" not in log, log
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
        for process in (first, second):
            if process and process.process and process.process.returncode is None:
                await process.stop()
    assert second is not None and second.process is not None
    log = second.log()
    assert second.process.returncode == 0, log
    assert "Traceback" not in log, log
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
