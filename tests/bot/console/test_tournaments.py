"""Tournaments at the console, through the real console session: a Swiss of four and an
arena of three played from one keyboard (``/as NAME`` goes to NAME's game), in English and
in Somali, with the standings one line a player."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.console.session import Console, local_user
from bot.service.facade import ShaxService
from bot.service.replies import Place
from tests.bot.conftest import ServiceFactory
from tests.bot.console.test_flows import Screen
from tests.services import FakeClock, assert_no_english

HALL = Place(None, 1)
NAMES = ("Amina", "Bashir", "Cawo", "Dahir")


async def typed(console: Console, *lines: str) -> None:
    for line in lines:
        assert await console.handle(line)


def at_the_keyboard(service: ShaxService, tmp_path: Path) -> tuple[Console, Screen]:
    screen = Screen()
    return Console(service, tmp_path, HALL, local_user("Amina"), screen), screen


async def resign_every_game(console: Console, screen: Screen, opened: str, word: str = "or") -> str:
    """Each game opened (the lines that say so, ``word`` the reader's "or") is resigned by
    black, who goes there with ``/as``: white wins every game. Everything printed."""
    said = []
    for _white, black in re.findall(rf"/as (\w+) {word} /as (\w+)", opened):
        await typed(console, f"/as {black}")
        assert console.place.parent_channel_id == HALL.channel_id, "the game's own channel"
        await typed(console, "/shax resign")
        said.append(screen.take())
    return "\n".join(said)


async def test_a_swiss_of_four_at_the_console(make_service: ServiceFactory, tmp_path: Path) -> None:
    console, screen = at_the_keyboard(await make_service(), tmp_path)
    await typed(console, "/shax tournament create format:swiss rounds:3 turn:3m")
    assert (
        "Amina made a Swiss tournament of Shax here: 3 rounds, 3 minutes a move." in screen.take()
    )
    for name in NAMES[1:]:
        await typed(console, f"/as {name}", "/tournament join")
    assert "4 players now" in screen.take()
    await typed(console, "/as Amina", "/shax tournament start")
    opened = screen.take()
    assert "Round 1 of 3:" in opened and "/as NAME plays it" in opened
    assert opened.count("its game is in #") == 2
    for number in (1, 2, 3):
        said = await resign_every_game(console, screen, opened)
        assert f"Standings after round {number} of 3:" in said
        opened = said
    assert "The tournament is over!" in said
    await typed(console, "/shax tournament standings")
    table = screen.take()
    lines = re.findall(r"^(\d)\. (\w+) — (\d) points? · Buchholz (\d)$", table, re.M)
    assert [rank for rank, *_ in lines] == ["1", "2", "3", "4"], table
    assert sorted(name for _, name, *_ in lines) == sorted(NAMES)
    assert sum(int(points) for _, _, points, _ in lines) == 6, "two games a round, 1 point each"
    assert "standings.png" in table, "the picture is saved beside"


ARENA_WORDS = {
    "en": {
        "made": "Amina made an arena of Shax here: 10 minutes",
        "begun": "The arena has begun: 10 minutes.",
        "opened": "its game is in #",
        "or": "or",
        "over": "The tournament is over! 🥇",
        "line": r"^\d\. (\w+) — (\d+) points? · (\d) games?",
    },
    "so": {
        "made": "Amina wuxuu halkan ka sameeyay tartan arena ah oo Shax ah: 10 daqiiqo",
        "begun": "Tartanka arena-da ah wuu bilaabmay: 10 daqiiqo.",
        "opened": "ciyaartiisu waxay ku jirtaa #",
        "or": "ama",
        "over": "Tartanku wuu dhammaaday! 🥇",
        "line": r"^\d\. (\w+) — (\d+) dhibc?(?:ood|ic) · (\d) ciyaar",
    },
}


@pytest.mark.parametrize("language", sorted(ARENA_WORDS))
async def test_an_arena_of_three_at_the_console(
    language: str, make_service: ServiceFactory, clock: FakeClock, tmp_path: Path
) -> None:
    said_as = ARENA_WORDS[language]
    console, screen = at_the_keyboard(await make_service(language=language), tmp_path)
    await typed(console, "/tournament create format:arena minutes:10 turn:2m")
    assert said_as["made"] in screen.take()
    for name in NAMES[1:3]:
        await typed(console, f"/as {name}", "/shax tournament join")
    await typed(console, "/as Amina", "/shax tournament start")
    opened = screen.take()
    assert said_as["begun"] in opened
    assert opened.count(said_as["opened"]) == 1, "three players: one game, one waits"
    said = [opened]
    for _ in range(3):  # each finished game pairs its players again at once
        done = await resign_every_game(console, screen, said[-1], word=said_as["or"])
        said.append(done)
        assert said_as["opened"] in done
    clock.advance(minutes=11)
    said.append(await resign_every_game(console, screen, said[-1], word=said_as["or"]))
    text = "\n".join(said)
    assert said_as["over"] in text
    await typed(console, "/tournament standings")
    table = screen.take()
    lines = re.findall(said_as["line"], table, re.M)
    assert sorted(name for name, *_ in lines) == sorted(NAMES[:3]), table
    assert sum(int(games) for *_, games in lines) == 2 * 4, "four games, two players each"
    if language == "so":
        assert_no_english(text + table)


async def test_a_swiss_of_three_at_the_console_in_somali(
    make_service: ServiceFactory, tmp_path: Path
) -> None:
    console, screen = at_the_keyboard(await make_service(language="so"), tmp_path)
    await typed(console, "/shax tournament create rounds:2")
    for name in NAMES[1:3]:
        await typed(console, f"/as {name}", "/tournament join")
    await typed(console, "/as Amina", "/tournament start")
    opened = screen.take()
    assert "Wareegga 1 ee 2:" in opened and "wuxuu helay fasax (hal dhibic)" in opened
    said = [opened]
    for _ in range(2):
        said.append(await resign_every_game(console, screen, said[-1], word="ama"))
    text = "\n".join(said)
    assert "Kala horreynta kadib wareegga 2 ee 2:" in text
    assert "Tartanku wuu dhammaaday! 🥇" in text
    lines = re.findall(r"^(\d)\. (\w+) — (\d) dhibc?(?:ood|ic) · Buchholz (\d)$", text, re.M)
    assert len(lines) == 3 + 3, "three lines after each round"
    assert_no_english(text)


async def test_help_names_the_group_and_each_of_its_commands(
    make_service: ServiceFactory, tmp_path: Path
) -> None:
    console, screen = at_the_keyboard(await make_service(), tmp_path)
    await typed(console, "/help tournament")
    group = screen.take()
    for name in ("create", "join", "leave", "start", "standings", "cancel"):
        assert f"/shax tournament {name}" in group
    await typed(console, "/help tournament create")
    assert "format:swiss|arena" in screen.take()
    await typed(console, "/shax tournament castle")
    refused = screen.take()
    assert refused.startswith("✗ Unknown command /shax tournament castle")
    assert refused.endswith("create, join, leave, start, standings, cancel.")
