"""The clock is fair, on SQLite and on PostgreSQL: time counts only while the bot runs (a
restart, a database of an older bot, one shard process down while another runs, two
processes of one clock), a forfeit always comes after its warning, and a side that never
made its first move aborts the game, which then counts for nobody."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.service.clock import clock_name
from bot.service.facade import ShaxService
from bot.service.rating_replies import recompute
from bot.service.replies import Notice, Place
from bot.storage import GameRow, StorageError
from tests.bot.conftest import AMINA, BASHIR, BOT, GUILD, HERE, FakeClock, start_game
from tests.bot.service.test_clock_shards import GUILD_ON_0, GUILD_ON_1, SHARDS, owner
from tests.bot.storage.conftest import database, postgres_server  # noqa: F401 - fixtures
from tests.services import open_service, run_for, words

Opener = Callable[..., Awaitable[ShaxService]]
THERE = Place(GUILD, 600)


@pytest.fixture
async def bot_process(
    database: str | Path,  # noqa: F811 - the storage tests' fixture
    clock: FakeClock,
) -> AsyncIterator[Opener]:
    """Starts a bot process's service over the test's database (SQLite or PostgreSQL);
    each is stopped with ``close()`` or at the end."""
    async with contextlib.AsyncExitStack() as stack:

        async def start(**options: Any) -> ShaxService:
            return await stack.enter_async_context(
                open_service(database, bot_user=BOT, clock=clock, **options)  # type: ignore[arg-type]
            )

        yield start


async def game(service: ShaxService, game_id: int | None) -> GameRow:
    assert game_id is not None
    row = await service.storage.games.get_game(game_id)
    assert row is not None
    return row


def said(notices: list[Notice]) -> list[str]:
    return [words(n.reply.text) for n in notices]


async def test_a_restart_gives_the_waiting_turns_the_time_the_bot_was_away(
    bot_process: Opener, clock: FakeClock
) -> None:
    first = await bot_process()
    reply = await start_game(first, "shax")
    await first.play(AMINA, HERE, "d7")
    await first.play(BASHIR, HERE, "a7")
    assert await run_for(first, clock, hours=2) == []
    await first.close()
    clock.advance(days=2)  # the bot is stopped

    second = await bot_process()
    [back] = await second.tick()
    assert back.channel_id == HERE.channel_id and back.reply.mentions == (AMINA.id,)
    text = words(back.reply.text)
    assert text.startswith(f"⏳ <@{AMINA.id}>, the bot was away for 2 days")
    assert "starts again now. Play within 22 hours." in text
    assert await second.tick() == []  # said once
    row = await game(second, reply.game_id)
    assert row.status == "active" and row.turn_started_at == clock() - timedelta(hours=2)
    # Her turn goes on as if the bot had never stopped: the warning, then the forfeit.
    assert await run_for(second, clock, hours=20, minutes=59) == []
    [warning] = await run_for(second, clock, minutes=1)
    assert "Play within 1 hour, or you forfeit" in words(warning.reply.text)
    [forfeit] = await run_for(second, clock, hours=1)
    assert "**Bashir wins: Amina ran out of time.**" in words(forfeit.reply.text)


async def test_a_turn_stopped_a_minute_before_its_end_gets_its_warning_again(
    bot_process: Opener, clock: FakeClock
) -> None:
    """Never a forfeit straight after a start: the message saying the bot is back gives the
    warning's hour again (and is the warning), then the turn runs out."""
    first = await bot_process()
    await start_game(first, "shax")
    await first.play(AMINA, HERE, "d7")
    await first.play(BASHIR, HERE, "a7")
    [warning] = await run_for(first, clock, hours=23, minutes=59)
    assert "Play within 1 hour, or you forfeit" in words(warning.reply.text)
    await first.close()
    clock.advance(days=2)

    second = await bot_process()
    [back] = await second.tick()
    assert "the bot was away for 2 days" in words(back.reply.text)
    assert words(back.reply.text).endswith("Play within 1 hour.")
    assert back.reply.mentions == (AMINA.id,)
    assert await run_for(second, clock, minutes=59) == []  # warned already: said once
    [forfeit] = await run_for(second, clock, minutes=1)
    assert "**Bashir wins: Amina ran out of time.**" in words(forfeit.reply.text)


async def test_a_database_written_two_days_ago_by_an_older_bot_ends_no_game(
    bot_process: Opener, clock: FakeClock
) -> None:
    """As measured: a game against the easy bot waiting for Amina's fifth stone, and a
    shax-small game accepted with no move yet, opened two days later with the default
    24-hour turn by a bot whose clock never ran there (the older bot kept no runs)."""
    older = await bot_process()
    await older.challenges.play_bot(AMINA, HERE, "easy", "shax", "me")
    for _ in range(4):
        row = await older.storage.games.active_game_in_channel(HERE.channel_id)
        assert row is not None
        legal = await older.legal_choices(AMINA, HERE)
        await older.play(AMINA, HERE, legal[0].value)
    await older.challenges.challenge(AMINA, BASHIR, THERE, "shax-small")
    small = await older.challenges.accept(BASHIR, THERE)
    await older.close()
    clock.advance(days=2)

    bot = await bot_process()
    notices = await bot.tick()
    assert sorted(n.channel_id for n in notices) == [HERE.channel_id, THERE.channel_id]
    assert all("the bot was away for 2 days" in text for text in said(notices))
    assert not any(n.reply.result for n in notices)
    assert (await game(bot, small.game_id)).status == "active"
    assert await bot.storage.standings.tallies(GUILD, AMINA.id) == {}
    assert await bot.storage.ratings.of(GUILD, "shax", [AMINA.id]) == {}


async def test_the_time_the_database_was_down_is_given_back(
    bot_process: Opener, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot runs on, but its database does not answer (no move can be stored): each
    run of the clock fails, and the first that works gives the time back."""
    service = await bot_process()
    await start_game(service, "jar")
    for player, action in ((AMINA, "b2"), (BASHIR, "a1")):
        await service.play(player, HERE, action)
    await service.tick()

    async def down() -> None:
        raise StorageError("The database did not answer.")

    monkeypatch.setattr(service.servers, "turn_timeouts", down)
    for _ in range(30):
        clock.advance(hours=1)
        with pytest.raises(StorageError):
            await service.tick()
    monkeypatch.undo()
    clock.advance(hours=1)
    [back] = await service.tick()
    assert "the bot was away for 31 hours" in words(back.reply.text)
    assert back.reply.mentions == (AMINA.id,)


async def test_a_turn_past_its_time_unwarned_gets_the_warning_first(
    bot_process: Opener, clock: FakeClock
) -> None:
    """The clock ran too seldom to see the warning's moment (here a 2-hour turn, and 2.5
    hours between two runs, the bot running): the warning comes, with its hour."""
    service = await bot_process(turn_timeout=timedelta(hours=2))
    await start_game(service, "jar")
    for player, action in ((AMINA, "b2"), (BASHIR, "a1"), (AMINA, "c3")):
        await service.play(player, HERE, action)
    await service.tick()
    clock.advance(hours=2, minutes=30)
    [warning] = await service.tick()
    assert "Play within 1 hour, or you forfeit" in words(warning.reply.text)
    assert warning.reply.result is None
    assert await run_for(service, clock, minutes=59) == []
    [forfeit] = await run_for(service, clock, minutes=1)
    assert "**Amina wins: Bashir ran out of time.**" in words(forfeit.reply.text)


async def test_a_side_that_never_moved_aborts_the_game_and_it_counts_for_nobody(
    bot_process: Opener, clock: FakeClock
) -> None:
    service = await bot_process()
    reply = await start_game(service, "shax-small")  # accepted; Amina never moves
    [warning] = await run_for(service, clock, hours=23)
    assert warning.reply.mentions == (AMINA.id,)
    assert "Make your first move within 1 hour, or the game is aborted." in words(
        warning.reply.text
    )
    [aborted] = await run_for(service, clock, hours=1)
    text = words(aborted.reply.text)
    assert "**Game aborted: a first move did not come in time; it counts for nobody.**" in text
    assert "wins" not in text and "in a row" not in text and "Ratings:" not in text
    assert aborted.reply.result is not None  # the game is over
    row = await game(service, reply.game_id)
    assert (row.status, row.result, row.termination) == ("over", None, "ABORTED")
    for player in (AMINA, BASHIR):
        assert await service.storage.standings.tallies(GUILD, player.id) == {}
    series = await service.storage.standings.series(GUILD, "u:101", "u:102")
    assert (series.holder, series.stones, series.games) == (None, 0, 0)
    # Black never moved either: Amina's first stone, then Bashir runs out before his.
    second = await start_game(service, "shax-small")
    await service.play(AMINA, HERE, "a1")
    await run_for(service, clock, hours=24)
    row = await game(service, second.game_id)
    assert (row.result, row.termination) == (None, "ABORTED")
    assert await service.storage.ratings.of(GUILD, "shax", [AMINA.id, BASHIR.id]) == {}
    # Rated again from the games, an aborted game stays unrated.
    assert await recompute(service.storage) == []
    # Its review and its rematch work as after any game.
    review = await service.teacher.review(AMINA, HERE, second.game_id)
    assert review.text is not None and words(review.text)
    rematch = await service.challenges.rematch(BASHIR, second.game_id)  # type: ignore[arg-type]
    assert rematch.challenge_id is not None


async def test_a_resignation_before_the_first_move_stays_a_resignation(
    bot_process: Opener,
) -> None:
    service = await bot_process()
    await start_game(service, "shax-small")
    reply = await service.turns.resign(AMINA, HERE)
    assert "**Bashir wins: Amina resigned.**" in words(reply.text)
    assert (await service.storage.standings.tallies(GUILD, BASHIR.id))["human"].wins == 1


async def test_a_shard_process_that_was_down_gives_its_own_games_the_time_back(
    bot_process: Opener, clock: FakeClock
) -> None:
    """Each process's clock keeps its own runs: while the process of shard 1 is down,
    shard 0's games go on counting, and shard 1's get the time back when it returns."""
    names = [clock_name(SHARDS, (shard,)) for shard in range(SHARDS)]
    zero = await bot_process(owns=owner(0).owns, clock_named=names[0])
    one = await bot_process(owns=owner(1).owns, clock_named=names[1])
    await start_game(zero, "jar", Place(GUILD_ON_0, 10))
    await start_game(one, "jar", Place(GUILD_ON_1, 20))
    assert await zero.tick() == [] and await one.tick() == []
    await one.close()
    notices = await run_for(zero, clock, hours=30)  # shard 1's process is down meanwhile
    assert [n.channel_id for n in notices] == [10, 10]  # warned, then forfeited
    assert notices[1].reply.result is not None
    one = await bot_process(owns=owner(1).owns, clock_named=names[1])
    [back] = await one.tick()
    assert back.channel_id == 20 and "the bot was away for 30 hours" in words(back.reply.text)


async def test_two_processes_of_one_clock_give_the_time_back_once(
    bot_process: Opener, clock: FakeClock
) -> None:
    first = await bot_process()
    reply = await start_game(first, "jar")
    await first.tick()
    await first.close()
    clock.advance(hours=10)
    again = [await bot_process(), await bot_process()]
    ticks = await asyncio.gather(*(service.tick() for service in again))
    assert sorted(len(notices) for notices in ticks) == [0, 1]
    row = await game(again[0], reply.game_id)
    assert row.turn_started_at == clock()  # the ten hours given back once, not twice
