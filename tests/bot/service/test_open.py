"""``ShaxService.open``: the worker pools it starts follow the settings."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.service.parts as parts
from bot.config import Settings
from bot.service.facade import ShaxService
from bot.service.replies import User
from bot.workers.ai import random_chooser
from bot.workers.pictures import PicturePool
from tests.services import files


async def test_the_picture_pools_have_the_configured_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[PicturePool] = []

    class Recorded(PicturePool):
        def __init__(self, workers: int = 1) -> None:
            super().__init__(workers)
            made.append(self)

    monkeypatch.setattr(parts, "PicturePool", Recorded)
    settings = Settings(db_path=tmp_path / "shax.db", picture_workers=3, replay_workers=2)
    service = await ShaxService.open(
        settings, bot_user=User(1, "Shax Bot", is_bot=True), ai=random_chooser
    )
    try:
        assert [pool.processes.workers for pool in made] == [3, 2]  # boards, then replays
        # The rules' picture is drawn by the board pool's workers.
        (picture,) = await files(await service.rules("jar"))
        assert picture.data.startswith(b"\x89PNG")
    finally:
        await service.close()
