"""Pytest fixtures for the fake Discord server (registered for all tests by tests/conftest.py),
and :func:`running`, which logs a discord.py bot in to it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TypeVar

import discord
import pytest_asyncio

from .server import FakeDiscord

BotT = TypeVar("BotT", bound=discord.Client)


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord` with discord.py pointed at it; stopped and restored after.

    The test configures it further (``fake_discord.add_user(...)``, ``fake_discord.ack_deadline``)
    and should end with ``fake_discord.assert_clean()`` when no violation is expected.
    """
    fake = FakeDiscord()
    await fake.start()
    try:
        with fake.patch_client():
            yield fake
    finally:
        await fake.stop()


@contextlib.asynccontextmanager
async def running(bot: BotT, fake: FakeDiscord) -> AsyncIterator[BotT]:
    """Log ``bot`` in to ``fake``, wait for on_ready, and close it afterwards."""
    await bot.login(fake.token)
    connection = asyncio.create_task(bot.connect())
    ready = asyncio.create_task(bot.wait_until_ready())
    try:
        done, _ = await asyncio.wait({connection, ready}, timeout=10, return_when="FIRST_COMPLETED")
        if connection in done:
            connection.result()
        assert ready in done, "the bot did not become ready"
        yield bot
    finally:
        ready.cancel()
        await bot.close()
        await asyncio.wait_for(connection, 10)
