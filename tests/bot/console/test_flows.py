"""The console's flows, line by line, over a service that speaks the console's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.console.markup import BOLD, ITALIC, RESET, terminal_text
from bot.console.session import Console, local_user
from bot.console.typed import help_text
from bot.service.facade import ShaxService
from bot.service.replies import Place
from engine import VARIANTS
from tests.bot.conftest import ServiceFactory

HERE = Place(None, 1)


class Screen:
    """What the console printed."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, text: str) -> None:
        self.lines.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def take(self) -> str:
        """Everything printed since the last take."""
        out, self.lines = self.text, []
        return out


@pytest.fixture
async def console_service(make_service: ServiceFactory) -> ShaxService:
    return await make_service(default_theme="light")


def make_console(
    service: ShaxService, tmp_path: Path, name: str = "amina"
) -> tuple[Console, Screen]:
    screen = Screen()
    console = Console(service, tmp_path, HERE, local_user(name), screen)
    return console, screen


async def typed(console: Console, *lines: str) -> None:
    for line in lines:
        assert await console.handle(line)


async def test_the_keyboard_follows_the_game_and_names_read_right(
    console_service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(console_service, tmp_path)
    await typed(console, "/shax challenge opponent:@Bashir variant:shax-small")
    out = screen.take()
    assert "@Bashir, amina challenges you to a game of Shax (small board)!" in out
    assert "Answer with /shax accept or /shax decline within 10 minutes." in out
    assert console.user.name == "Bashir"  # the challenged player answers
    await typed(console, "/shax accept")
    assert "Bashir accepted amina's challenge. @amina — your turn (white ○)" in screen.take()
    assert console.user.name == "amina"
    # Sixteen placements fill the small board; nobody types /as: the keyboard follows.
    typists = []
    for point in VARIANTS["shax-small"].points:
        typists.append(console.user.name)
        await typed(console, f"/shax move {point}")
    assert typists == ["amina", "Bashir"] * 8
    placed = screen.take()
    assert "✗" not in placed and "you's" not in placed
    # The opening removals, one each, whoever the engine asks first.
    for _ in range(2):
        await typed(console, f"/shax move {console.legal[0]}")
    removals = screen.take()
    assert re.search(r"amina removed Bashir's stone on \w+ \(opening removal\)", removals)
    assert re.search(r"Bashir removed amina's stone on \w+ \(opening removal\)", removals)


async def test_advice_names_the_consoles_commands(
    console_service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(console_service, tmp_path)
    await typed(console, "/shax challenge opponent:@Bashir variant:jar", "/as amina")
    await typed(console, "/shax challenge opponent:@Bashir variant:jar")
    assert "withdraw it with /shax cancel." in screen.take()
    await typed(console, "/shax cancel")
    assert "amina withdrew the challenge to Bashir." in screen.take()
    await typed(console, "/shax challenge opponent:@Bashir variant:jar", "/shax accept")
    await typed(console, "/as cawo", "/shax play-bot level:easy variant:jar")
    busy = screen.take()
    assert "Finish it (or /shax resign) first, or start another console with --channel N" in busy
    assert "thread" not in busy
    await typed(console, "/as amina", "/shax draw")
    offer = screen.take()
    assert "accept it with /shax draw, decline it with /shax decline-draw" in offer
    assert "Accept draw" not in offer
    await typed(console, "/as bashir", "/shax draw")
    over = screen.take()
    assert "Draw: both players agreed." in over
    assert "Game over — /shax rematch to play again." in over


async def test_the_bot_thinking_is_said_and_option_values_ignore_case(
    console_service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(console_service, tmp_path)
    await typed(console, "/shax play-bot level:Easy variant:JAR first:Bot")
    lines = screen.lines
    assert lines[0] == "Shax bot is thinking…"
    assert lines[1].startswith("amina vs Shax bot (easy), Jar (children's game).")
    assert "Shax bot (easy) placed a stone on" in lines[1]
    assert console.user.name == "amina"  # never handed to the bot


async def test_help_errors_and_rules_fit_the_board_in_play(
    console_service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(console_service, tmp_path)
    await typed(console, "/shax")
    assert "/shax move action:d5" in screen.take()  # no game yet: the Shax board
    await typed(console, "/shax challenge opponent:@Bashir variant:jar", "/shax accept")
    screen.take()
    await typed(console, "/shax", "/shax move", "/shax move zz", "/shax move d7", "/shax rules")
    out = screen.take()
    assert "/shax move action:b2 — Play a move: b2 places, a1-a2 moves\n" in out
    assert "/shax move b2 is /shax move action:b2." in out
    assert "✗ Say which action: /shax move action:b2." in out
    assert "write a point (b2) or a move from-to (a1-a2). Legal now:" in out
    assert "'d7' is not a point on the jar board; its points are a1 a2 a3 b1" in out
    assert "Notation: place b2, move a1-a2." in out  # the jar's rules, shown as plain text
    assert "remov" not in out.lower() and "xg1" not in out and "a7" not in out
    assert (tmp_path / "rules-jar-board-points.png").is_file()


def test_help_on_each_board_uses_its_own_points() -> None:
    for variant in VARIANTS.values():
        text = help_text(variant)
        example = re.search(r"/shax move action:(\S+)", text)
        assert example and example.group(1) in variant.points
        named = re.search(r"Play a move: (\S+) places, (\S+) moves(?:, x(\S+) removes)?\n", text)
        assert named is not None and named.group(1) in variant.points
        src, dst = named.group(2).split("-")
        assert {src, dst} <= set(variant.points)
        assert (named.group(3) is not None) == (variant.family == "shax")


async def test_completion_offers_commands_options_names_and_legal_actions(
    console_service: ShaxService, tmp_path: Path
) -> None:
    console, _ = make_console(console_service, tmp_path)
    assert console.completions("/s") == ["/shax"]
    assert console.completions("/shax mo") == ["move"]
    assert console.completions("/shax play-bot ") == ["level:", "variant:", "first:"]
    assert console.completions("/shax play-bot level:h") == ["level:hard"]
    assert console.completions("/shax rules variant:shax") == ["variant:shax-small"]
    await typed(console, "/shax challenge opponent:@Bashir variant:jar")
    assert console.completions("/as B") == ["Bashir"]
    assert console.completions("/shax streak user:@b") == ["user:@Bashir"]
    await typed(console, "/shax accept")
    assert console.user.name == "amina"
    assert console.completions("/shax move a") == ["action:", "a1", "a2", "a3"]
    assert console.completions("/shax move action:c") == ["action:c1", "action:c2", "action:c3"]
    await typed(console, "/shax move b2")
    assert "b2" not in console.completions("/shax move ")  # Bashir's turn: b2 is taken


def test_discord_markdown_becomes_terminal_text() -> None:
    text = "**Amina wins: three in a row.** A *jare* (`a1-a2`); my_name * 2"
    plain = terminal_text(text, ansi=False)
    assert plain == "Amina wins: three in a row. A jare (a1-a2); my_name * 2"
    styled = terminal_text(text, ansi=True)
    assert f"{BOLD}Amina wins: three in a row.{RESET}" in styled
    assert f"{ITALIC}jare{RESET}" in styled and "*" not in styled.replace("* 2", "")
