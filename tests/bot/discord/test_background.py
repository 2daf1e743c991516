"""The bot's background work: nothing starts once the stop has begun, work waiting between
its steps ends at once, a step under way finishes (for a while), and the stop returns
only when every task has ended."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord.background import Background


async def turns() -> None:
    """Let every task ready to run take its turns (a cancelled one ends)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_nothing_starts_once_the_stop_has_begun() -> None:
    background = Background()
    ran: list[str] = []

    async def work() -> None:
        ran.append("ran")

    background.refuse()
    assert not background.start("late work", work())
    await asyncio.sleep(0)
    assert ran == [] and background.running == []


async def test_a_stop_ends_waiting_work_at_once_and_lets_a_step_finish() -> None:
    background = Background()
    in_step, finish_step = asyncio.Event(), asyncio.Event()
    steps: list[str] = []

    async def waiting() -> None:
        await asyncio.Event().wait()  # between its steps, for ever

    async def stepping() -> None:
        while True:
            async with background.step():
                in_step.set()
                await finish_step.wait()
                steps.append("finished")
            await asyncio.Event().wait()

    assert background.start("a loop between its steps", waiting())
    assert background.start("a loop in a step", stepping())
    await in_step.wait()
    stopping = asyncio.create_task(background.stop(grace=60))
    await turns()
    assert background.running == ["a loop in a step"]  # the other was cancelled at once
    assert not stopping.done()
    finish_step.set()
    await stopping  # the step finished, then its loop ended
    assert steps == ["finished"] and background.running == []


async def test_a_step_past_the_grace_is_cut_short(caplog: pytest.LogCaptureFixture) -> None:
    background = Background()
    in_step = asyncio.Event()
    ended: list[str] = []

    async def stuck() -> None:
        try:
            async with background.step():
                in_step.set()
                await asyncio.Event().wait()
        except asyncio.CancelledError:
            ended.append("cancelled")
            raise

    background.start("a stuck step", stuck())
    await in_step.wait()
    await background.stop(grace=0)
    assert ended == ["cancelled"] and background.running == []
    assert "Cutting short background work still under way: a stuck step" in caplog.text


async def test_a_failure_is_logged_and_ends_only_its_own_work(
    caplog: pytest.LogCaptureFixture,
) -> None:
    background = Background()

    async def failing() -> None:
        raise RuntimeError("the database went away")

    async def going_on() -> None:
        await asyncio.Event().wait()

    background.start("a failing look", failing())
    background.start("the clock", going_on())
    await turns()
    assert background.running == ["the clock"]
    assert "The background work 'a failing look' failed" in caplog.text
    await background.stop()
