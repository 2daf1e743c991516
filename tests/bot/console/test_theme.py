"""``/shax theme`` in the console: light by default, the choice remembered, bad names refused."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

import renderer
from tests.bot.console.test_session import run_console


def ground(path: str) -> tuple[int, ...]:
    with Image.open(path) as img:
        pixel = img.convert("RGB").getpixel((24, 24))
    assert isinstance(pixel, tuple)
    return pixel


def test_the_console_draws_light_boards_until_the_player_chooses_dark(tmp_path: Path) -> None:
    script = (
        "/shax play-bot level:easy variant:jar first:me\n"
        "/shax theme purple\n"
        "/shax theme\n"
        "/shax theme dark\n"
        "/shax move b2\n"
    )
    result = run_console(tmp_path, script)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Unknown theme 'purple' — choose one of: dark, light." in out
    assert "Your boards are drawn in the light theme" in out
    assert "Your boards are now drawn in the dark theme." in out
    paths = re.findall(r"Board image: (\S+)", out)
    assert [ground(p) for p in paths] == [
        renderer.get_theme("light").ground,
        renderer.get_theme("dark").ground,
    ]
    # Remembered: the next session starts dark (the game in progress, then the move).
    again = run_console(tmp_path, "/shax move a1\n")
    assert [ground(p) for p in re.findall(r"Board image: (\S+)", again.stdout)] == [
        renderer.get_theme("dark").ground
    ] * 2


def test_the_settings_say_the_consoles_theme_and_change_it(tmp_path: Path) -> None:
    dark, light = renderer.get_theme("dark").ground, renderer.get_theme("light").ground

    def pictures(out: str, kind: str) -> list[tuple[int, ...]]:
        return [ground(p) for p in re.findall(rf"{kind}: (\S+)", out)]

    first = run_console(
        tmp_path, "/shax settings\n/shax play-bot level:easy variant:jar first:me\n"
    )
    assert first.returncode == 0, first.stderr
    assert "• Board theme: light (default)" in first.stdout
    assert pictures(first.stdout, "Board image") == [light]
    # The operator sets it dark: the boards and hints of whoever chose none are dark.
    second = run_console(tmp_path, "/shax settings theme:dark\n/shax hint\n/shax move b2\n")
    assert "• Board theme: dark (for Discord's dark theme)\n" in second.stdout
    assert pictures(second.stdout, "Board image") == [light, dark]  # before, after the change
    assert pictures(second.stdout, "Picture") == [dark]  # the hint
    # A player's own choice comes first.
    third = run_console(tmp_path, "/shax theme light\n/shax hint\n/shax board\n")
    assert pictures(third.stdout, "Picture") == [light]
    assert pictures(third.stdout, "Board image")[-1] == light
