"""The puzzle of the day: a server that chose a channel (and an hour) with ``/shax settings``
gets one puzzle a day there, the same on every server, posted once across processes and
after a restart; the next day's post says who solved it first and how many."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.service.daily import REPOST_AFTER
from bot.service.facade import ShaxService
from bot.service.replies import DailyControls, Notice, Place, PuzzleControls, UserError
from bot.service.server_settings import SettingsChange
from tests.bot.conftest import AMINA, BASHIR, CAWO, GUILD, HERE, ServiceFactory
from tests.services import FakeClock, refused, words

PUZZLES = 700
OTHER_GUILD = 20


async def choose(service: ShaxService, guild: int = GUILD, hour: int | None = 9) -> None:
    change = SettingsChange(puzzle_channel=PUZZLES, puzzle_hour=hour)
    await service.settings(Place(guild, 500), change, may_change=True)


def dailies(notices: list[Notice]) -> list[Notice]:
    return [n for n in notices if isinstance(n.reply.controls, DailyControls)]


def daily_id(notice: Notice) -> int:
    assert isinstance(notice.reply.controls, DailyControls)
    return notice.reply.controls.daily_id


async def test_posted_once_a_day_at_the_servers_hour_and_once_across_processes(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    clock.moment = datetime(2026, 11, 26, 8, 30, tzinfo=UTC)
    first, second = await make_service(), await make_service()
    await choose(first)
    assert dailies(await first.tick()) == []  # before the hour
    clock.advance(minutes=31)
    posts = dailies(await first.tick()) + dailies(await second.tick())
    assert len(posts) == 1
    post = posts[0]
    assert post.channel_id == PUZZLES and post.guild_id == GUILD and not post.reply.ephemeral
    assert "**Puzzle of the day**, 2026-11-26" in words(post.reply.text)
    await first.posted(post.reply, 9001)
    clock.advance(hours=3)
    assert dailies(await first.tick() + await second.tick()) == []


async def test_every_server_has_the_same_puzzle_and_settings_show_it(
    service: ShaxService, clock: FakeClock
) -> None:
    clock.moment = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    await choose(service, GUILD, hour=None)  # the bot's default hour, 9
    await choose(service, OTHER_GUILD, hour=11)
    posts = dailies(await service.tick())
    assert {p.guild_id for p in posts} == {GUILD, OTHER_GUILD}
    puzzles = set()
    for post in posts:
        daily = await service.storage.puzzles.get_daily(daily_id(post))
        assert daily is not None
        puzzles.add(daily.puzzle_id)
    assert len(puzzles) == 1
    shown = await service.settings(HERE, SettingsChange(), may_change=False)
    text = words(shown.text)
    assert f"Puzzle of the day: <#{PUZZLES}>" in text and "9:00 UTC" in text


async def test_a_claim_never_posted_is_posted_after_a_restart(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    clock.moment = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)
    before = await make_service()
    await choose(before)
    assert len(dailies(await before.tick())) == 1  # claimed; the process stops unposted
    after = await make_service()  # the restart
    assert dailies(await after.tick()) == []
    clock.advance(seconds=REPOST_AFTER.total_seconds())
    again = dailies(await after.tick())
    assert len(again) == 1
    await after.posted(again[0].reply, 9002)
    clock.advance(seconds=2 * REPOST_AFTER.total_seconds())
    assert dailies(await after.tick()) == []


async def test_the_next_day_says_who_solved_it_first_and_how_many(
    service: ShaxService, clock: FakeClock
) -> None:
    clock.moment = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
    await choose(service)
    [post] = dailies(await service.tick())
    await service.posted(post.reply, 9003)
    daily = daily_id(post)
    for user in (AMINA, BASHIR, CAWO):
        reply = await service.puzzles.daily_try(user, HERE, daily)
        assert reply.ephemeral and isinstance(reply.controls, PuzzleControls)
        clock.advance(minutes=5)
        found = await service.puzzles.desk.open_try(user.id)
        assert found is not None
        if user is CAWO:
            await service.puzzles.give_up(user, HERE)
            continue
        while (found := await service.puzzles.desk.open_try(user.id)) is not None:
            action = found.puzzle.solution[len(found.attempt.played)]
            await service.puzzles.answer(user, HERE, action)
    with refused(UserError, "solved this puzzle of the day already"):
        await service.puzzles.daily_try(AMINA, HERE, daily)
    clock.moment = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
    [tomorrow] = dailies(await service.tick())
    text = words(tomorrow.reply.text)
    assert f"Yesterday's puzzle: solved by 2 of 3, first by <@{AMINA.id}>." in text
    assert daily_id(tomorrow) != daily


async def test_a_channel_that_will_not_take_the_post_is_not_tried_all_day(
    service: ShaxService, clock: FakeClock
) -> None:
    clock.moment = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
    await choose(service)
    [post] = dailies(await service.tick())
    await service.shown(post.reply)  # the channel is gone, or closed to the bot
    clock.advance(hours=2)
    assert dailies(await service.tick()) == []
    clock.moment = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
    assert len(dailies(await service.tick())) == 1


async def test_the_puzzle_of_the_day_is_a_servers_and_not_set_outside_one(
    service: ShaxService,
) -> None:
    outside = Place(None, 1)
    with refused(UserError, "The puzzle of the day belongs to a server"):
        await service.settings(
            outside, SettingsChange(puzzle_channel=PUZZLES), may_change=True, operator=True
        )
    shown = await service.settings(outside, SettingsChange(), may_change=True, operator=True)
    assert "Puzzle of the day" not in words(shown.text)
    assert dailies(await service.tick()) == []


async def test_the_days_puzzle_is_looked_up_once_for_all_the_servers_due_at_a_tick(
    service: ShaxService, clock: FakeClock
) -> None:
    clock.moment = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    for guild in (GUILD, OTHER_GUILD, OTHER_GUILD + 1):
        await choose(service, guild)
    storage = service.storage
    lookups: list[str] = []
    puzzle_ids = storage.puzzles.puzzle_ids

    async def counted(variant: str) -> list[int]:
        lookups.append(variant)
        return await puzzle_ids(variant)

    storage.puzzles.puzzle_ids = counted  # type: ignore[method-assign]
    posts = dailies(await service.tick())
    assert {p.guild_id for p in posts} == {GUILD, OTHER_GUILD, OTHER_GUILD + 1}
    assert lookups == ["shax"]


async def test_a_try_of_the_puzzle_of_the_day_is_on_its_servers_puzzle_table(
    service: ShaxService, clock: FakeClock
) -> None:
    """Wherever its button is pressed from, a try of a server's puzzle of the day counts
    for that server's puzzle table."""
    clock.moment = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
    await choose(service)
    [post] = dailies(await service.tick())
    await service.puzzles.daily_try(BASHIR, Place(None, 9), daily_id(post))
    await service.puzzles.give_up(BASHIR, HERE)
    table = words((await service.statistics.leaderboard(HERE, "puzzles")).text)
    assert "1. Bashir — " in table and "(0 solved)" in table
    elsewhere = words(
        (await service.statistics.leaderboard(Place(OTHER_GUILD, 500), "puzzles")).text
    )
    assert "Bashir" not in elsewhere
