"""The picture pool: replays are drawn in a worker process, and never fail for want of it."""

from __future__ import annotations

import asyncio
import io
import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

import renderer
from bot.workers.pictures import PicturePool
from engine import RecordError

RECORD = ["a3", "a2", "b2", "a1", "c2", "c3", "a1-b1"]


def worker_pid() -> int:
    return os.getpid()


def worker_niceness() -> int:
    return os.nice(0)


@pytest.mark.process  # the pool's worker processes
async def test_a_replay_is_drawn_in_another_process() -> None:
    pool = PicturePool()
    try:
        gif = await pool.run(renderer.render_replay, "jar", RECORD, renderer.BoardView())
        pid = await pool.run(worker_pid)
        niceness = await pool.run(worker_niceness)
    finally:
        pool.shutdown()
    assert pid != os.getpid()
    assert niceness > os.nice(0)  # the event loop's process wins the CPU
    assert gif == renderer.render_replay("jar", RECORD, renderer.BoardView())
    with Image.open(io.BytesIO(gif)) as image:
        assert image.format == "GIF" and image.n_frames == len(RECORD) + 1


@pytest.mark.process  # the pool's worker processes
async def test_a_call_that_cannot_reach_the_worker_is_drawn_in_a_thread() -> None:
    pool = PicturePool()
    try:
        # A closure does not pickle: the picture is drawn here instead of failing.
        gif = await pool.run(lambda: renderer.render_replay("jar", RECORD))
        pid = await pool.run(lambda: os.getpid())
    finally:
        pool.shutdown()
    assert gif.startswith(b"GIF8")
    assert pid == os.getpid()


@pytest.mark.process  # the pool's worker processes
async def test_a_dead_worker_is_replaced() -> None:
    pool = PicturePool()
    try:
        first = await pool.run(worker_pid)
        os.kill(first, 9)
        # The call that finds the worker dead is answered from a thread...
        assert await pool.run(worker_pid) == os.getpid()
        # ...and the next one has a new worker.
        second = await pool.run(worker_pid)
    finally:
        pool.shutdown()
    assert second not in (first, os.getpid())


async def test_an_error_of_the_picture_itself_is_raised() -> None:
    with ThreadPoolExecutor(max_workers=1) as executor:
        pool = PicturePool(executor=executor)
        with pytest.raises(RecordError):
            await pool.run(renderer.render_replay, "jar", ["a1", "a1"])


@pytest.mark.process  # the pool's worker processes
async def test_started_workers_are_up_before_the_first_picture() -> None:
    pool = PicturePool(2)
    try:
        pool.start()
        executor = pool.processes.executor()
        # The processes exist before any picture is asked for.
        assert len(executor._processes) == 2  # type: ignore[attr-defined]
        # Once warm, they draw (until then this process does: see test_warming_and_stopping).
        while pool.processes.warming:
            await asyncio.sleep(0.05)
        assert await pool.run(worker_pid) in executor._processes  # type: ignore[attr-defined]
    finally:
        pool.shutdown()
