"""``/shax settings``: a server's own turn timeout, challenge expiry, game channels, thread
mode, theme and language; validated, stored, shown, and used by the clock and challenges."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.service.facade import ShaxService
from bot.service.replies import Place, UserError
from bot.service.server_settings import Setting, SettingsChange, parse_duration
from tests.bot.conftest import (
    AMINA,
    BASHIR,
    GUILD,
    HERE,
    THREAD,
    ServiceFactory,
    start_game,
)
from tests.bot.service.test_service import dump
from tests.services import FakeClock, refused, run_for, words

OTHER_GUILD = 20
THERE = Place(OTHER_GUILD, 900)


async def change(service: ShaxService, place: Place = HERE, **options: object) -> str:
    reply = await service.settings(place, SettingsChange(**options), may_change=True)  # type: ignore[arg-type]
    assert reply.ephemeral
    return words(reply.text)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("30m", 1_800), ("24h", 86_400), ("2d", 172_800), ("1h30m", 5_400), ("90 minutes", 5_400)],
)
def test_durations_read_as_people_write_them(text: str, seconds: int) -> None:
    assert parse_duration(text) == timedelta(seconds=seconds)


@pytest.mark.parametrize("text", ["soon", "12", "3 weeks", "1h and a bit"])
def test_what_is_not_a_duration_says_how_to_write_one(text: str) -> None:
    with refused(UserError, "30m"):
        parse_duration(text)


async def test_a_duration_of_thousands_of_digits_names_the_range_and_changes_nothing(
    service: ShaxService, db_path: Path
) -> None:
    before = dump(db_path)
    for digits in ("9" * 5_000, "0" * 5_000 + "9" * 13):
        with refused(UserError, "between 10 minutes and 14 days"):
            await change(service, turn_timeout=f"{digits}m")
    assert dump(db_path) == before


def test_a_million_digits_without_a_unit_are_read_once_and_said_back_shortened() -> None:
    # Read from each of its digits again, the text would take hours (the timeout fails it).
    with refused(UserError, "30m") as refusal:
        parse_duration("1" * 1_000_000)
    assert len(words(refusal.value.message)) < 200


async def test_everyone_sees_the_settings_with_the_defaults_marked(service: ShaxService) -> None:
    reply = await service.settings(HERE, SettingsChange(), may_change=False)
    assert reply.ephemeral
    assert "Turn timeout: 24 hours" in words(reply.text) and "(default)" in words(reply.text)
    assert "Game channels: every channel" in words(reply.text)
    assert "/shax settings" in words(reply.text)


async def test_only_managers_change_them_and_a_refusal_changes_nothing(
    service: ShaxService, db_path: Path
) -> None:
    before = dump(db_path)
    with refused(UserError, "Manage Server"):
        await service.settings(HERE, SettingsChange(turn_timeout="1h"), may_change=False)
    with refused(UserError, "between"):
        await service.settings(HERE, SettingsChange(turn_timeout="20d"), may_change=True)
    assert dump(db_path) == before


async def test_a_bad_value_among_good_ones_changes_nothing(service: ShaxService) -> None:
    with refused(UserError, "between 10 minutes and 14 days"):
        await change(service, turn_timeout="1m", theme="light")
    with refused(UserError, "busy, always, never"):
        await change(service, threads="sometimes", theme="light")
    settings = await service.servers.of(GUILD)
    assert settings.theme == "dark" and settings.changed == frozenset()


async def test_settings_are_per_server_and_reset_to_the_default(service: ShaxService) -> None:
    text = await change(service, turn_timeout="12h", theme="light", language="so")
    assert text.startswith("**Settings saved.**")
    assert "Turn timeout: 12 hours" in text and "Soomaali" in text
    mine, theirs = await service.servers.of(GUILD), await service.servers.of(20)
    assert (mine.turn_timeout, mine.theme, mine.language) == (timedelta(hours=12), "light", "so")
    assert theirs.changed == frozenset() and theirs.turn_timeout == timedelta(hours=24)
    await change(service, reset=Setting.THEME)
    mine = await service.servers.of(GUILD)
    assert mine.theme == "dark" and mine.changed == {Setting.TURN_TIMEOUT, Setting.LANGUAGE}


async def test_settings_survive_a_restart(make_service: ServiceFactory) -> None:
    first = await make_service()
    await change(first, challenge_expiry="1h", threads="always")
    again = await (await make_service()).servers.of(GUILD)
    assert (again.challenge_expiry, again.threads) == (timedelta(hours=1), "always")


async def test_games_start_only_in_the_servers_game_channels(service: ShaxService) -> None:
    elsewhere = Place(GUILD, 777)
    text = await change(service, allow_channel=elsewhere.channel_id)
    assert "<#777>" in text
    with refused(UserError, "<#777>") as info:
        await service.challenges.challenge(AMINA, BASHIR, HERE, "jar")
    assert "Start yours there" in words(info.value.message)
    with refused(UserError, "<#777>"):
        await service.challenges.play_bot(AMINA, HERE, "easy", "jar")
    await service.challenges.challenge(AMINA, BASHIR, elsewhere, "jar")
    # A thread of a game channel is part of it.
    await change(service, allow_channel=THREAD.parent_channel_id)
    await service.challenges.play_bot(AMINA, THREAD, "easy", "jar", "me")
    with refused(UserError, "not one of the game channels"):
        await change(service, disallow_channel=12345)
    await change(service, every_channel=True)
    await start_game(service, "jar")


async def test_a_challenge_lasts_as_long_as_the_server_says(
    service: ShaxService, clock: FakeClock
) -> None:
    await change(service, challenge_expiry="2m")
    sent = await service.challenges.challenge(AMINA, BASHIR, HERE, "jar")
    assert "2 minutes" in words(sent.text)
    await service.challenges.challenge(AMINA, BASHIR, THERE, "jar")  # the default: 10 minutes
    clock.advance(minutes=3)
    [expired] = await service.tick()
    assert expired.channel_id == HERE.channel_id
    clock.advance(minutes=8)
    [expired] = await service.tick()
    assert expired.channel_id == THERE.channel_id


async def test_the_clock_keeps_each_servers_turn_timeout(
    service: ShaxService, clock: FakeClock
) -> None:
    await change(service, turn_timeout="2h")
    await start_game(service, "jar")  # here: 2 hours, a warning after 1
    await service.play(AMINA, HERE, "b2")
    await service.play(BASHIR, HERE, "a1")
    await service.challenges.challenge(AMINA, BASHIR, THERE, "jar")
    await service.challenges.accept(BASHIR, THERE)  # there: the default 24 hours
    clock.advance(minutes=61)
    [warning] = await service.tick()
    assert warning.channel_id == HERE.channel_id and "within 1 hour" in words(warning.reply.text)
    clock.advance(hours=1)
    [forfeit] = await service.tick()
    assert forfeit.channel_id == HERE.channel_id and "ran out of time" in words(forfeit.reply.text)
    [warning] = await run_for(service, clock, hours=21)
    assert warning.channel_id == THERE.channel_id
