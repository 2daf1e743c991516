"""Pytest fixtures for the fake Discord server (registered for all tests by tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from .server import FakeDiscord


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
