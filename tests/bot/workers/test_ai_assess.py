"""The AI pool scores positions for hints and reviews in its workers, one slot each."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.workers import ai
from bot.workers.ai import AIPool, random_chooser
from engine.analysis import Assessment, assess_record


async def test_the_pool_assesses_the_asked_plies_as_the_engine_does() -> None:
    record = ["a1", "a2", "c1", "b3", "b2", "c3", "c3-c2"]
    with ThreadPoolExecutor(max_workers=1) as executor:
        pool = AIPool(1, chooser=random_chooser, executor=executor)
        found = await pool.assess("jar", record, [7, 1], 3, None)
    assert found == assess_record("jar", record, [1, 7], depth=3)
    assert [a.ply for a in found] == [1, 7] and found[1].best == "b2-b1"


async def test_assessments_wait_for_a_free_worker_like_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    running: list[int] = []
    most = 0
    lock = threading.Lock()

    def slow(*args: object) -> list[Assessment]:
        nonlocal most
        with lock:
            running.append(1)
            most = max(most, len(running))
        time.sleep(0.05)
        with lock:
            running.pop()
        return []

    monkeypatch.setattr(ai, "assess_plies", slow)
    with ThreadPoolExecutor(max_workers=4) as executor:
        pool = AIPool(1, chooser=random_chooser, executor=executor)
        await asyncio.gather(*(pool.assess("jar", [], [0], 2, None) for _ in range(4)))
    assert most == 1  # one worker: one search at a time, however many are asked for
