"""The end-to-end world: the fake Discord server, a real service on a SQLite file, a real bot.

Every flow runs the unmodified discord.py client against ``tests/fakediscord`` (which
enforces Discord's deadlines and limits) and ends with ``fake.assert_clean()``.

* ``live`` — a ready in-process bot over a real service whose clock the test moves
  (``live.clock.advance(minutes=11)``); the AI is a seeded random chooser in a thread.
* :func:`open_service` / ``bot_running`` (from ``tests.bot.discord.helpers``) build
  other set-ups, such as the real AI pool at the master level.
* :func:`db_rows` / :func:`game_state` read the database file read-only, to prove what an
  interaction changed (or that a refusal changed nothing).
* :func:`start_game`, :func:`assert_board_png`, :func:`on_turn`, :func:`assert_refused`
  read and play what users see.
* :func:`stale_click` is a click from a client that still shows an older state of a
  message (a second device, a slow client) or a tampered client: what the fake's own
  ``click``/``select`` cannot produce, since they click the live message as it is now.
"""

from __future__ import annotations

import contextlib
import copy
import io
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image

import renderer
from bot.discord import ShaxBotBase
from bot.discord.custom_ids import accept_id, decline_id, parse_custom_id
from bot.discord.respond import SORRY
from bot.service.facade import ShaxService
from bot.service.replies import BOARD_FILENAME
from tests.bot.discord.helpers import (
    Scene,
    act_select,
    bot_running,
    button_ids,
    make_scene,
    open_service,
    shown,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.payloads import MESSAGE_COMPONENT
from tests.fakediscord.world import StoredMessage
from tests.services import FakeClock

TABLES = ("games", "challenges", "tallies", "series")
_YOUR_TURN = re.compile(r"<@(\d+)> — your turn")


@dataclass
class Live:
    """A ready bot over a real service, in the scene's fake world."""

    scene: Scene
    service: ShaxService
    bot: ShaxBotBase
    clock: FakeClock

    @property
    def fake(self) -> FakeDiscord:
        return self.scene.fake


@pytest.fixture
def scene(fake_discord: FakeDiscord, tmp_path: Path) -> Scene:
    """Amina, Bashir, Cawo (a bystander), another bot, and the #shax channel."""
    return make_scene(fake_discord, tmp_path / "shax.db")


@contextlib.asynccontextmanager
async def running(scene: Scene, **options: Any) -> AsyncIterator[Live]:
    """A ready in-process bot over a service built with ``options`` (as
    :func:`tests.services.open_service`); the test fails if Discord would have refused
    anything."""
    clock = FakeClock()
    async with (
        open_service(scene, clock=clock, **options) as service,
        bot_running(scene, service) as bot,
    ):
        yield Live(scene, service, bot, clock)
    scene.fake.assert_clean()


@pytest_asyncio.fixture
async def live(scene: Scene) -> AsyncIterator[Live]:
    """A ready in-process bot; the test fails if Discord would have refused anything."""
    async with running(scene) as ready:
        yield ready


# -- the database, read-only -----------------------------------------------------------------


def db_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the bot's tables, read through a separate read-only connection."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return {
            table: db.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
            for table in TABLES
        }


def game_row(path: Path, game_id: int) -> dict[str, Any]:
    """A game's stored row, column by name."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        db.row_factory = sqlite3.Row
        row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    assert row is not None, f"no game {game_id} in {path}"
    return dict(row)


def game_state(path: Path, game_id: int) -> tuple[tuple[str, ...], int, str]:
    """A game's ``(record, version, status)`` as stored."""
    row = game_row(path, game_id)
    return tuple(row["record"].split()), int(row["version"]), str(row["status"])


def challenge_statuses(path: Path) -> list[str]:
    """The status of every challenge, oldest first."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return [row[0] for row in db.execute("SELECT status FROM challenges ORDER BY id")]


# -- what users see ----------------------------------------------------------------------------


@cache
def board_size(variant: str) -> tuple[int, int]:
    """The size of the board picture the renderer draws for ``variant``."""
    with Image.open(io.BytesIO(renderer.render_board(variant, []))) as image:
        return image.size


def assert_board_png(message: FakeMessage, variant: str) -> None:
    """The message shows a real PNG board of the right size as its embed's image."""
    attachment = message.attachment(BOARD_FILENAME)
    with Image.open(io.BytesIO(attachment.data)) as image:
        image.load()
        assert image.format == "PNG", image.format
        assert image.size == board_size(variant), (image.size, board_size(variant))
    assert (attachment.width, attachment.height) == board_size(variant)
    assert message.embeds and message.embeds[0]["image"]["url"] == attachment.url


def game_version(message: FakeMessage) -> tuple[int, int]:
    """``(game_id, version)`` from the move select under a live board."""
    parsed = parse_custom_id(act_select(message)["custom_id"])
    assert parsed is not None and parsed.game_id is not None and parsed.version is not None
    return parsed.game_id, parsed.version


def on_turn(scene: Scene, message: FakeMessage) -> FakeUser:
    """The player the board asks to act (its "<@id> — your turn")."""
    found = _YOUR_TURN.search(message.content)
    assert found, f"the board names nobody on turn: {message.content!r}"
    return scene.fake.world.user(int(found.group(1)))


def challenge_of(message: FakeMessage) -> int:
    """The challenge id of a posted challenge (its Accept and Decline buttons)."""
    parsed = parse_custom_id(button_ids(message)[0])
    assert parsed is not None and parsed.challenge_id is not None, message.custom_ids()
    assert button_ids(message) == [accept_id(parsed.challenge_id), decline_id(parsed.challenge_id)]
    return parsed.challenge_id


async def post_challenge(live: Live, variant: str = "shax") -> FakeMessage:
    """Amina challenges Bashir in #shax; returns the posted challenge."""
    scene = live.scene
    challenge = await live.fake.slash(
        scene.amina,
        scene.channel,
        "shax",
        "challenge",
        {"opponent": scene.bashir, "variant": variant},
    )
    posted = await shown(live.bot, challenge)
    assert not posted.ephemeral and scene.bashir.mention in posted.content
    return posted


async def start_game(live: Live, variant: str = "shax") -> FakeMessage:
    """Amina challenges Bashir, Bashir accepts; returns the first live board (Amina, the
    challenger, places first; the answered challenge is gone)."""
    scene, fake = live.scene, live.fake
    posted = await post_challenge(live, variant)
    accepted = await fake.click(scene.bashir, posted, accept_id(challenge_of(posted)))
    board = await shown(live.bot, accepted)
    assert fake.world.find_stored(posted.id) is None, "the answered challenge stays"
    assert on_turn(scene, board) == scene.amina
    assert_board_png(board, variant)
    return board


def assert_refused(result: InteractionResult, *words: str) -> str:
    """A polite, private refusal (never the generic failure), containing ``words``."""
    assert result.acknowledged and not result.expired, result
    assert result.ephemeral, f"{result.label} was answered publicly: {result.content!r}"
    text = result.content or ""
    assert text and text != SORRY, f"{result.label}: {text!r}"
    for word in words:
        assert word.lower() in text.lower(), f"{word!r} not in {text!r}"
    return text


async def stale_click(
    fake: FakeDiscord,
    user: FakeUser,
    seen: FakeMessage,
    custom_id: str,
    values: Sequence[str] | None = None,
) -> InteractionResult:
    """``user`` clicks the button ``custom_id`` (or, with ``values``, picks them in the select
    ``custom_id``) of ``seen``: an older state of a message that their client still shows
    (a second device, a slow client), or a tampered client (``values`` are not checked).

    ``FakeDiscord.click``/``select`` only use the live state of a message, as an up-to-date
    client does; this sends the INTERACTION_CREATE Discord would deliver for the old state,
    through the fake's own dispatch, so its deadlines and limits still apply.
    """
    stored = StoredMessage(seen.id, seen.channel_id, copy.deepcopy(seen.data))
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    if values is not None:
        data.update(component_type=3, values=list(values))
    return await fake._interact(
        MESSAGE_COMPONENT,
        user,
        seen.channel_id,
        data,
        message=stored,
        label=f"stale component {custom_id[:40]!r}",
        expect_ack=True,
        timeout=None,
    )
