"""``/shax theme``: dark on Discord by default, light in the console, each player's choice
remembered and followed by the boards they ask for or click."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from PIL import Image

import renderer
from bot.service.replies import BOARD_FILENAME, BadOption, DailyControls, Place, Reply
from bot.service.server_settings import SettingsChange
from tests.bot.conftest import AMINA, BASHIR, HERE, ServiceFactory
from tests.services import Drawn, FakeClock, files, words


async def ground(reply: Reply) -> tuple[int, int, int]:
    """A pixel of the board's ground (inside its rim, away from lines and names)."""
    png = next(a.data for a in await files(reply) if a.filename == BOARD_FILENAME)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    pixel = img.getpixel((24, 24))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


DARK = renderer.get_theme("dark").ground
LIGHT = renderer.get_theme("light").ground


async def test_boards_on_discord_are_dark_by_default(make_service: ServiceFactory) -> None:
    drawn = Drawn()
    s = await make_service(render_board=drawn)
    reply = await s.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    assert drawn.themes == []  # drawn for its reader only
    assert await ground(reply) == DARK
    assert drawn.themes == ["dark"]


async def test_boards_in_the_console_are_light_by_default(make_service: ServiceFactory) -> None:
    drawn = Drawn()
    s = await make_service(render_board=drawn, default_theme="light")
    reply = await s.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    assert await ground(reply) == LIGHT
    assert drawn.themes == ["light"]


async def test_a_chosen_theme_is_remembered_and_followed_by_that_players_boards(
    make_service: ServiceFactory,
) -> None:
    drawn = Drawn()
    s = await make_service(render_board=drawn)
    chosen = await s.theme(AMINA, "Light")
    assert chosen.ephemeral and "light" in words(chosen.text)
    assert await s.storage.settings.player_prefs(AMINA.id) == {"theme": "light"}
    mine = await s.challenges.play_bot(AMINA, HERE, "easy", "jar", "me")
    assert await ground(mine) == LIGHT
    # Someone else asking for the same board sees it in their own (default) theme.
    theirs = await s.board(BASHIR, HERE)
    assert await ground(theirs) == DARK
    mine_again = await s.board(AMINA, HERE)
    assert await ground(mine_again) == LIGHT
    assert drawn.themes == ["light", "dark", "light"]
    # Remembered across a restart: a new service over the same database.
    again = await make_service(render_board=drawn)
    shown = await again.theme(AMINA)
    assert (
        shown.ephemeral
        and "light theme" in words(shown.text)
        and "dark, light" in words(shown.text)
    )


async def test_an_unknown_theme_names_the_choices_and_changes_nothing(
    make_service: ServiceFactory,
) -> None:
    s = await make_service()
    await s.theme(AMINA, "dark")
    with pytest.raises(BadOption) as refused:
        await s.theme(AMINA, "purple")
    assert "purple" in words(refused.value.message)
    assert "dark, light" in words(refused.value.message)
    assert await s.storage.settings.player_prefs(AMINA.id) == {"theme": "dark"}


async def test_without_a_choice_the_player_hears_their_theme(make_service: ServiceFactory) -> None:
    s = await make_service()
    reply = await s.theme(BASHIR)
    assert reply.ephemeral and "dark theme" in words(reply.text)
    assert await s.storage.settings.player_prefs(BASHIR.id) == {}


async def test_the_series_stones_are_explained_beside_the_board(
    make_service: ServiceFactory,
) -> None:
    s = await make_service()
    # Amina beats Bashir once: the next game's board shows her series stone.
    await s.challenges.challenge(AMINA, BASHIR, HERE, "jar")
    await s.challenges.accept(BASHIR, HERE)
    game_id = (await s.kernel.find_game(HERE)).id
    await s.turns.resign(BASHIR, HERE, game_id)
    await s.challenges.rematch(AMINA, game_id)
    reply = await s.challenges.accept(BASHIR, HERE)
    assert "Series stones: Amina, 1 win in a row; 3 more for a gal." in words(reply.text)


async def test_the_settings_theme_is_the_one_of_players_who_chose_none(
    make_service: ServiceFactory,
) -> None:
    drawn = Drawn()
    s = await make_service(render_board=drawn, default_theme="light")
    outside = Place(None, 1)
    # The settings say the theme the boards are drawn in: light, as the service's default.
    said = words((await s.settings(outside, SettingsChange(), may_change=True, operator=True)).text)
    assert "Board theme: light *(default)*" in said
    assert await ground(await s.challenges.play_bot(AMINA, outside, "easy", "jar", "me")) == LIGHT
    # Changed, it is the theme of the boards of whoever chose none...
    await s.settings(outside, SettingsChange(theme="dark"), may_change=True, operator=True)
    assert await ground(await s.board(AMINA, outside)) == DARK
    assert "dark theme" in words((await s.theme(AMINA, place=outside)).text)
    # ...while a player's own choice comes first.
    await s.theme(AMINA, "light")
    assert await ground(await s.board(AMINA, outside)) == LIGHT
    assert await ground(await s.board(BASHIR, outside)) == DARK
    # A server's setting is its own: its games follow it, not the one outside servers.
    await s.settings(HERE, SettingsChange(theme="light"), may_change=True)
    assert await ground(await s.challenges.play_bot(BASHIR, HERE, "easy", "jar", "me")) == LIGHT


async def test_puzzle_boards_follow_the_servers_theme_too(
    make_service: ServiceFactory, clock: FakeClock
) -> None:
    drawn = Drawn()
    s = await make_service(render_board=drawn, default_theme="light")
    clock.moment = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)
    change = SettingsChange(theme="dark", puzzle_channel=700, puzzle_hour=9)
    await s.settings(HERE, change, may_change=True)
    # A player who chose no theme sees their puzzle in the server's...
    await files(await s.puzzles.puzzle(AMINA, HERE))
    assert drawn.themes == ["dark"]
    # ...and the server's puzzle of the day is posted in it.
    [daily] = [n for n in await s.tick() if isinstance(n.reply.controls, DailyControls)]
    await files(daily.reply)
    assert drawn.themes == ["dark", "dark"]
