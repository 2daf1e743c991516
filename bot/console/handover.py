"""Small decisions of the console: whether a bare word is a move, who answers a draw
offer, whether a notice belongs to another channel (and the line that says it there),
and the name the console remembers for the person at this computer."""

from __future__ import annotations

import contextlib
import getpass
import os
import re
from pathlib import Path

from bot.service.replies import BoardControls, Notice, Place, Reply
from shax_i18n import N_, Translator

BARE_ACTION = re.compile(r"x?[a-z][1-9][0-9]?(?:-[a-z][1-9][0-9]?)?")
"""An action in the game's notation (``d7``, ``a1-a4``, ``xg1``) typed without /shax move."""


def is_bare_action(words: list[str]) -> bool:
    """Whether a line is one action in notation, to be played as ``/shax move``."""
    return len(words) == 1 and BARE_ACTION.fullmatch(words[0].lower()) is not None


def draw_answerer(reply: Reply, typing: int) -> int | None:
    """The player who must answer the draw offer ``typing`` just made (the reply asks
    them by name), else ``None``."""
    controls = reply.controls
    if not isinstance(controls, BoardControls) or controls.draw_offered_by != typing:
        return None
    return next((user_id for user_id in reply.mentions if user_id != typing), None)


def elsewhere(notice: Notice, place: Place) -> bool:
    """Whether a notice is about another channel than the console's own (a thread's own
    channel is not another: a tournament's news reach its games)."""
    return notice.channel_id not in (place.channel_id, place.parent_channel_id)


def system_name() -> str:
    """The name of the person at this computer (their login), or ``player``."""
    try:
        return getpass.getuser() or "player"
    except Exception:  # no login name: no USER variable and no password entry
        return "player"


def remembered_name() -> str | None:
    """The name the console remembers for this computer's user, if any."""
    try:
        name = name_file().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return name or None


def remember_name(name: str) -> None:
    """Remember ``name`` for the next starts (a nicety: a folder that cannot be written
    only means the name is asked again)."""
    path = name_file()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name + "\n", encoding="utf-8")


def name_file() -> Path:
    """In the user's configuration folder (``$XDG_CONFIG_HOME/shax``, else
    ``~/.config/shax``), never in a checkout: the name is the person's, not the project's."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "shax" / NAME_FILE


NAME_FILE = "console-name"
ELSEWHERE = N_("In channel #{channel}: {text}")


def elsewhere_line(channel_id: int, text: str, t: Translator) -> str:
    """A notice about another channel's game, said here with the channel it is about."""
    return t.gettext(ELSEWHERE, channel=channel_id, text=text)
