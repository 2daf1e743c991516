"""With several bot processes, each runs the clock for the servers of its own shards: every
expiry, warning and forfeit happens once, in one process, and none is missed."""

from __future__ import annotations

from bot.config import Settings
from bot.service.clock import clock_name
from bot.service.replies import Place
from tests.bot.conftest import AMINA, BASHIR, FakeClock, ServiceFactory, start_game
from tests.services import words

SHARDS = 2
GUILD_ON_0 = 4 << 22  # (guild_id >> 22) % 2 == 0
GUILD_ON_1 = 5 << 22


def owner(shard: int) -> Settings:
    return Settings(shards=SHARDS, shard_ids=(shard,))


def test_each_server_belongs_to_exactly_one_shard_process() -> None:
    for guild in (GUILD_ON_0, GUILD_ON_1, None, 123456789012345678):
        assert [owner(s).owns(guild) for s in range(SHARDS)].count(True) == 1
    assert owner(0).owns(None)  # direct messages arrive on shard 0
    assert Settings().owns(GUILD_ON_1)  # a lone process owns everything


async def test_two_processes_expire_each_challenge_once(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    zero = await make_service(owns=owner(0).owns)
    one = await make_service(owns=owner(1).owns)
    here = Place(GUILD_ON_0, 10)
    there = Place(GUILD_ON_1, 20)
    await zero.challenges.challenge(AMINA, BASHIR, here)
    await one.challenges.challenge(BASHIR, AMINA, there)
    clock.advance(minutes=11)
    by_zero = await zero.tick()
    by_one = await one.tick()
    assert [n.channel_id for n in by_zero] == [here.channel_id]
    assert [n.channel_id for n in by_one] == [there.channel_id]
    assert await zero.tick() == [] and await one.tick() == []


async def test_two_processes_warn_and_forfeit_each_turn_once(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    zero = await make_service(owns=owner(0).owns, clock_named=clock_name(SHARDS, (0,)))
    one = await make_service(owns=owner(1).owns, clock_named=clock_name(SHARDS, (1,)))
    for service, place in ((zero, Place(GUILD_ON_0, 10)), (one, Place(GUILD_ON_1, 20))):
        await start_game(service, "jar", place)
        await service.play(AMINA, place, "b2")
        await service.play(BASHIR, place, "a1")
    for _ in range(22):  # both processes run
        clock.advance(hours=1)
        assert await zero.tick() == [] and await one.tick() == []
    clock.advance(hours=1, minutes=1)
    warned_by_one = await one.tick()
    warned_by_zero = await zero.tick()
    assert [n.channel_id for n in warned_by_zero] == [10]
    assert [n.channel_id for n in warned_by_one] == [20]
    assert all("forfeit" in words(n.reply.text) for n in warned_by_zero + warned_by_one)
    clock.advance(hours=1)
    lost_by_zero = await zero.tick()
    lost_by_one = await one.tick()
    assert [n.channel_id for n in lost_by_zero] == [10]
    assert [n.channel_id for n in lost_by_one] == [20]
    assert all(n.reply.result is not None for n in lost_by_zero + lost_by_one)
    assert await zero.tick() == [] and await one.tick() == []
