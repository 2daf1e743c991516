"""The AI pool: a move's time budget is spent thinking, never waiting for a worker."""

from __future__ import annotations

import asyncio
import ctypes
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.workers.ai import GRACE_SECONDS, AIPool
from engine.ai import core

THINK = 0.2


def slow_chooser(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    time.sleep(THINK)
    return f"thought-{seed}"


async def test_games_queued_behind_one_worker_all_get_their_full_budget() -> None:
    # Six games share one worker: the last waits 5 × THINK, longer than its budget
    # of 1 s (budget + grace), yet it still gets its own searched move.
    with ThreadPoolExecutor(max_workers=1) as executor:
        pool = AIPool(
            1, chooser=slow_chooser, executor=executor, budget=lambda level: 1.0 - GRACE_SECONDS
        )
        moves = await asyncio.gather(*(pool.choose("jar", (), "hard", seed) for seed in range(6)))
    assert moves == [f"thought-{seed}" for seed in range(6)]


async def test_a_search_that_overruns_falls_back_to_a_legal_action() -> None:
    with ThreadPoolExecutor(max_workers=1) as executor:
        pool = AIPool(
            1, chooser=slow_chooser, executor=executor, budget=lambda level: 0.05 - GRACE_SECONDS
        )
        move = await pool.choose("jar", ("a1",), "hard", 3)
    assert move in {"a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"}


async def test_a_move_stopped_as_its_answer_arrives_stays_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C (the console) or a shutdown cancels the move being thought; an answer that
    arrives in the same instant must not swallow that, or the console never ends."""
    pool = AIPool(1, chooser=slow_chooser)
    answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    monkeypatch.setattr(pool.processes, "run", lambda fn, *args: answer)
    thinking = asyncio.create_task(pool.choose("jar", (), "hard", 1))
    await asyncio.sleep(0)  # the move is being thought
    answer.set_result("b2")
    thinking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await thinking


async def test_the_bot_says_once_how_to_get_the_fast_search(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Without a C compiler the AI thinks in Python; the pool says so once, however many."""

    def no_compiler() -> ctypes.CDLL:
        raise core.CoreUnavailableError("it is not built and no C compiler was found")

    monkeypatch.setattr(core, "library", no_compiler)
    monkeypatch.delenv(core.BACKEND_ENV, raising=False)
    core.backend_choice.cache_clear()
    core.announce_backend.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="engine.ai"):
            AIPool(1, chooser=slow_chooser)
            AIPool(2, chooser=slow_chooser)
    finally:
        core.backend_choice.cache_clear()
        core.announce_backend.cache_clear()
    [record] = caplog.records
    assert "pure-Python search" in record.getMessage()
    assert "install a C compiler" in record.getMessage()


class Served:
    """The jobs a pool gives its workers, in the order it gives them; each holds its
    worker until :attr:`go` is set."""

    def __init__(self, pool: AIPool) -> None:
        self.order: list[str] = []
        self.go = asyncio.Event()
        pool.processes.run = self.run  # type: ignore[method-assign]

    async def run(self, fn: Any, *args: Any) -> Any:
        if fn is slow_chooser:
            self.order.append(f"move {args[3]}")
        else:
            self.order.append(f"{'review' if len(args[2]) > 1 else 'hint'} {args[2][0]}")
        await self.go.wait()
        return "b2" if fn is slow_chooser else []


async def settled() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_bot_move_is_served_before_the_waiting_hints_and_reviews() -> None:
    pool = AIPool(1, chooser=slow_chooser)
    served = Served(pool)
    jobs = [asyncio.create_task(pool.assess("jar", [], [0, 9], 2, None, review=True))]
    await settled()  # a review's part holds the one worker
    jobs += [
        asyncio.create_task(pool.assess("jar", [], [n, 9], 2, None, review=True)) for n in (1, 2, 3)
    ]
    jobs.append(asyncio.create_task(pool.assess("jar", [], [5], 2, None)))
    jobs.append(asyncio.create_task(pool.choose("jar", (), "hard", 7)))
    await settled()
    assert served.order == ["review 0"]
    served.go.set()
    await asyncio.gather(*jobs)
    assert served.order == ["review 0", "move 7", "hint 5", "review 1", "review 2", "review 3"]


async def test_reviews_leave_a_worker_free_for_the_bots_moves() -> None:
    pool = AIPool(2, chooser=slow_chooser)
    served = Served(pool)
    jobs = [
        asyncio.create_task(pool.assess("jar", [], [n, 9], 2, None, review=True)) for n in range(4)
    ]
    await settled()
    jobs.append(asyncio.create_task(pool.choose("jar", (), "hard", 7)))
    await settled()
    assert served.order == ["review 0", "move 7"]  # at once, beside the review
    served.go.set()
    await asyncio.gather(*jobs)


async def test_a_move_given_up_while_it_waits_gives_its_turn_on() -> None:
    pool = AIPool(1, chooser=slow_chooser)
    served = Served(pool)
    first = asyncio.create_task(pool.choose("jar", (), "hard", 1))
    await settled()
    given_up = asyncio.create_task(pool.choose("jar", (), "hard", 2))
    review = asyncio.create_task(pool.assess("jar", [], [0, 9], 2, None, review=True))
    await settled()
    given_up.cancel()
    served.go.set()
    await asyncio.gather(first, review)
    assert served.order == ["move 1", "review 0"]
    assert pool._slots.free == 1
