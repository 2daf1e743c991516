"""The one way tests build a real :class:`ShaxService`: on a SQLite file, with a clock the
test moves by hand and the bot's moves chosen in a thread (fast) unless a real AI is given.

Used by ``tests/bot/conftest.py`` (the service's own tests), ``tests/bot/discord/helpers.py``
and ``tests/e2e`` (a real bot over a real service)."""

from __future__ import annotations

import contextlib
import re
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

import renderer
from bot.service.bot_turns import ActionChooser
from bot.service.facade import ShaxService
from bot.service.replies import (
    Attachment,
    Channel,
    Notice,
    Reply,
    Said,
    User,
    UserError,
    drawn,
)
from bot.storage import Storage
from bot.words import Surface, Voice
from bot.workers.ai import AIPool, Chooser, random_chooser
from shax_i18n import translator
from shax_i18n.catalogue import catalogue_path

CHALLENGE_EXPIRY = timedelta(minutes=10)
TURN_TIMEOUT = timedelta(hours=24)
TICK = timedelta(hours=1)
"""How often the tests' services say their clock runs (``tick_every``): a test moves the
clock on by a few of these at most between two ticks (:func:`run_for`), or the bot counts
as having been away meanwhile, and the turns get that time back."""


class Drawn:
    """The real board renderer, remembering the view of each board it drew (its theme,
    its language)."""

    def __init__(self) -> None:
        self.views: list[renderer.BoardView] = []

    def __call__(self, variant: str, record: list[str], view: renderer.BoardView) -> bytes:
        self.views.append(view)
        return renderer.render_board(variant, record, view)

    @property
    def themes(self) -> list[str]:
        return [view.theme for view in self.views]

    @property
    def languages(self) -> list[str]:
        return [view.language for view in self.views]


class FakeClock:
    """The service's clock, moved by the test (``clock.advance(minutes=11)``). Starts at
    ``start``, or now (for tests where Discord and the fake keep real time)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.moment = start or datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **kwargs: float) -> None:
        self.moment += timedelta(**kwargs)


_migrated: Path | None = None


async def migrated_database(path: Path) -> None:
    """Put an empty database of today's schema at ``path``: a copy of one this process
    migrated once (migrating takes tens of milliseconds of processor time, a copy almost
    none; the storage suite tests migrating itself)."""
    global _migrated
    if _migrated is None:
        template = Path(tempfile.mkdtemp(prefix="shax-migrated-")) / "empty.db"
        await (await Storage.open(template)).close()
        assert not template.with_name("empty.db-wal").exists()  # all of it in the one file
        _migrated = template
    shutil.copyfile(_migrated, path)


def forget_migrated_database() -> None:
    """Remove the migrated database :func:`migrated_database` copies (at the session's end)."""
    global _migrated
    if _migrated is not None:
        shutil.rmtree(_migrated.parent, ignore_errors=True)
        _migrated = None


@contextlib.asynccontextmanager
async def open_service(
    db_path: Path,
    *,
    bot_user: User,
    clock: FakeClock | None = None,
    chooser: Chooser = random_chooser,
    ai: ActionChooser | None = None,
    challenge_expiry: timedelta = CHALLENGE_EXPIRY,
    turn_timeout: timedelta = TURN_TIMEOUT,
    **options: Any,
) -> AsyncIterator[ShaxService]:
    """A real service on ``db_path``; closed (and its AI thread stopped) on exit. Without
    ``clock`` the service keeps real time. Without
    ``ai`` the bot plays ``chooser``'s actions in a thread; pass an ``AIPool`` for the
    real engine. A SQLite file that does not exist yet starts as a copy of an empty,
    migrated one (:func:`migrated_database`)."""
    executor = ThreadPoolExecutor(max_workers=1) if ai is None else None
    options.setdefault("tick_every", TICK)
    if clock is not None:
        options["clock"] = clock
    if isinstance(db_path, Path) and not db_path.exists():
        await migrated_database(db_path)
    storage = await Storage.open(db_path)
    service = ShaxService(
        storage,
        bot_user=bot_user,
        ai=ai or AIPool(1, chooser=chooser, executor=executor),
        challenge_expiry=challenge_expiry,
        turn_timeout=turn_timeout,
        **options,
    )
    try:
        yield service
    finally:
        await service.close()
        if executor is not None:
            executor.shutdown(wait=True)


async def run_for(service: ShaxService, clock: FakeClock, **duration: float) -> list[Notice]:
    """The bot runs for ``duration``: the clock moves on in steps of at most :data:`TICK`,
    the service ticking after each (as the adapter's loop does). Every notice, in order."""
    left = timedelta(**duration)
    notices: list[Notice] = []
    while left > timedelta(0):
        step = min(left, TICK)
        clock.moment += step
        left -= step
        notices += await service.tick()
    return notices


def voice(language: str = "en", surface: Surface = Surface.DISCORD) -> Voice:
    """A reader of ``language``: players written as Discord mentions (the bot by its name)
    on Discord, as ``@name`` in the console."""

    def player(user: User) -> str:
        if user.is_bot:
            return user.name
        return f"<@{user.id}>" if surface is Surface.DISCORD else f"@{user.name}"

    def channel(c: Channel) -> str:
        return f"<#{c.id}>" if surface is Surface.DISCORD else f"#{c.id}"

    return Voice(translator(language), player, channel, surface)


def words(said: Said | None, language: str = "en", surface: Surface = Surface.DISCORD) -> str:
    """What a reader of ``language`` reads (:func:`voice`)."""
    if said is None:
        return ""
    return voice(language, surface).say(said)


async def files(reply: Reply, language: str = "en") -> list[Attachment]:
    """A reply's attachments, its pictures drawn for a reader of ``language``."""
    return [
        a for a in (await drawn(reply, voice(language))).attachments if isinstance(a, Attachment)
    ]


@contextlib.contextmanager
def refused(
    kind: type[UserError], pattern: str, language: str = "en"
) -> Iterator[pytest.ExceptionInfo[UserError]]:
    """Like ``pytest.raises(kind, match=pattern)``, matching the refusal's words in
    ``language``."""
    with pytest.raises(kind) as info:
        yield info
    said = words(info.value.message, language)
    assert re.search(pattern, said), f"{pattern!r} not in {said!r}"


@cache
def english_only_phrases() -> set[str]:
    """Every run of three or more words of an English message that its Somali does not
    share: none of them may show in a Somali session."""
    with catalogue_path("so").open("rb") as po:
        catalog = read_po(po, locale="so")
    phrases: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        somali = " ".join(
            [message.string] if isinstance(message.string, str) else list(message.string)
        )
        for english in ids:
            for part in re.split(r"\{[^}]*\}|[\n`*]", english):
                part = part.strip(" .,:;()—–-·!?")
                if len(re.findall(r"[A-Za-z']+", part)) >= 3 and part not in somali:
                    phrases.add(part)
    return phrases


def assert_no_english(text: str) -> None:
    """``text`` (what a Somali reader read) holds no sentence left in English."""
    for phrase in english_only_phrases():
        assert phrase not in text, f"English {phrase!r} in {text!r}"
