"""``/shax theme`` through the real discord.py client and the fake Discord: boards are dark
by default, and each player's choice is remembered for the boards they ask for."""

from __future__ import annotations

import renderer
from tests.bot.discord.helpers import board_image, shown
from tests.e2e.conftest import Live, start_game

DARK = renderer.get_theme("dark").ground
LIGHT = renderer.get_theme("light").ground


def ground(message: object) -> tuple[int, ...]:
    pixel = board_image(message).convert("RGB").getpixel((24, 24))  # type: ignore[arg-type]
    assert isinstance(pixel, tuple)
    return pixel


async def test_boards_are_dark_until_a_player_chooses_light(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live, "jar")
    assert ground(board) == DARK  # Bashir accepted: his (default) theme

    chosen = await fake.slash(scene.amina, scene.channel, "shax", "theme", {"theme": "light"})
    answer = await shown(live.bot, chosen)
    assert answer.ephemeral and "light" in answer.content

    asked = await fake.slash(scene.amina, scene.channel, "shax", "board", {})
    assert ground(await shown(live.bot, asked)) == LIGHT
    asked = await fake.slash(scene.bashir, scene.channel, "shax", "board", {})
    assert ground(await shown(live.bot, asked)) == DARK

    shown_theme = await fake.slash(scene.amina, scene.channel, "shax", "theme", {})
    assert "light theme" in (await shown(live.bot, shown_theme)).content
