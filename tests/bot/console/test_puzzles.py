"""Puzzles in the console, in English and in Somali: /shax puzzle shows the board in the
terminal and saves its picture, /shax move answers it (Tab offers its legal actions), the
defence answers, and the end says how the ratings moved; a player who is playing the
console's game answers with /shax puzzle answer: instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.session import Console
from bot.service.facade import ShaxService
from tests.bot.conftest import ServiceFactory
from tests.bot.console.test_flows import make_console, typed
from tests.services import assert_no_english


@pytest.fixture
async def console_service(make_service: ServiceFactory) -> ShaxService:
    return await make_service(default_theme="light")


async def solve(console: Console, service: ShaxService, command: str = "/shax move") -> None:
    while (found := await service.puzzles.desk.open_try(console.user.id)) is not None:
        await typed(console, f"{command} {found.puzzle.solution[len(found.attempt.played)]}")


async def test_a_puzzle_solved_at_the_console(console_service: ShaxService, tmp_path: Path) -> None:
    console, screen = make_console(console_service, tmp_path)
    await typed(console, "/shax puzzle variant:shax-small")
    out = screen.take()
    found = await console_service.puzzles.desk.open_try(console.user.id)
    assert found is not None
    assert f"(only you see this) Puzzle {found.puzzle.id} · Shax (small board) · rated" in out
    assert "Answer with /shax move" in out and "Legal: " in out
    assert list(tmp_path.glob(f"puzzle{found.attempt.id}-v0-board.png"))
    await console.refresh()
    assert set(console.legal) == set(found.position.legal_notations())
    await solve(console, console_service)
    out = screen.take()
    assert "Solved!" in out and "Puzzle rating: 1500? →" in out
    assert "/shax puzzle gives you the next puzzle." in out


async def test_a_player_in_the_consoles_game_answers_with_puzzle_answer(
    console_service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(console_service, tmp_path)
    await typed(console, "/shax play-bot variant:shax first:me", "/shax puzzle")
    assert "/shax move plays there: answer the puzzle with /shax puzzle answer:" in screen.take()
    await typed(console, "/shax puzzle give-up:true")
    out = screen.take()
    assert "The win was" in out and "Puzzle rating: 1500? →" in out


async def test_a_somali_player_reads_no_english_in_a_puzzle(
    console_service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(console_service, tmp_path)
    await typed(console, "/shax language language:so")
    screen.take()
    await typed(console, "/shax puzzle variant:shax")
    found = await console_service.puzzles.desk.open_try(console.user.id)
    assert found is not None
    wrong = next(a for a in found.position.legal_notations() if a != found.puzzle.solution[0])
    await typed(console, f"/shax move {wrong}", "/shax puzzle", "/shax puzzle give-up:true")
    out = screen.take()
    assert "Xujo" in out and "Guushu waxay ahayd" in out
    assert_no_english(out)
