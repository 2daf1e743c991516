"""Puzzles in the console, in English and in Somali: /shax puzzle shows the board in the
terminal and saves its picture, /shax move answers it (Tab offers its legal actions), the
defence answers, and the end says how the ratings moved; a player who is playing the
console's game answers with /shax puzzle answer: instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.session import Console
from bot.service.facade import ShaxService
from engine.tables.puzzles import PuzzleTheme
from tests.bot.conftest import ServiceFactory
from tests.bot.console.test_flows import make_console, typed
from tests.bot.service.test_puzzle_themes import only_themes
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


async def test_a_puzzle_of_a_theme_the_puzzle_table_and_the_rating_at_the_console(
    console_service: ShaxService, tmp_path: Path
) -> None:
    """A theme chosen at the console, said once the puzzle is solved; none of it left; the
    server's puzzle table and the player's puzzles under /shax rating, then in Somali."""
    desk = console_service.puzzles.desk
    await desk.ready()
    rows = [
        await console_service.storage.puzzles.get_puzzle(i)
        for i in await desk.storage.puzzles.puzzle_ids("shax-small")
    ]
    row = min((r for r in rows if r is not None), key=lambda r: abs(r.glicko.rating - 1500))
    await only_themes(console_service, {row.id: [PuzzleTheme.IRMAAN]})
    console, screen = make_console(console_service, tmp_path)
    await typed(console, "/shax puzzle variant:shax-small theme:irmaan")
    found = await desk.open_try(console.user.id)
    assert found is not None and found.puzzle.id == row.id
    await solve(console, console_service)
    assert "Solved!" in (out := screen.take()) and "Theme: Irmaan (running jare)." in out
    hint = "/shax puzzle variant:shax-small theme:irmaan gives you the next puzzle of this theme."
    assert hint in out and "/shax puzzle gives you the next puzzle." not in out
    await typed(console, "/shax puzzle variant:shax-small theme:irmaan")
    assert "No Irmaan (running jare) puzzle of Shax (small board) is left for you" in screen.take()
    await typed(console, "/shax leaderboard table:puzzles", "/shax rating")
    out = screen.take()
    assert "Puzzles — the puzzle ratings of those who tried puzzles here" in out
    assert f"1. {console.user.name} — 1" in out and "(1 solved)" in out
    assert "Puzzles (every server): rating 1" in out and "1 solved of 1 rated try" in out
    await typed(
        console, "/shax language language:so", "/shax puzzle theme:irmaan variant:shax-small"
    )
    await typed(console, "/shax leaderboard table:puzzles", "/shax rating")
    out = screen.take()
    assert "Xujo Irmaan (jare socda) ah oo Shax" in out and "kuuma harin" in out
    assert "Xujooyin" in out and "Xujooyin (server kasta): darajo 1" in out
    assert_no_english(out)
    # The hint after a try of a theme, in Somali: one of another theme, given up.
    other = next(r for r in rows if r is not None and r.id != row.id)
    await only_themes(
        console_service, {row.id: [PuzzleTheme.IRMAAN], other.id: [PuzzleTheme.XADHIG]}
    )
    await typed(
        console, "/shax puzzle variant:shax-small theme:xadhig", "/shax puzzle give-up:true"
    )
    out = screen.take()
    assert "/shax puzzle variant:shax-small theme:xadhig ayaa ku siinaysa xujada xigta" in out
    assert_no_english(out)
