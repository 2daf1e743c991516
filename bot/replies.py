"""What the game service answers, as plain data: no Discord types anywhere.

The Discord adapter and the local console both turn these values into output:

* :class:`Reply` — text (mentions written ``<@id>``), attachments, controls, and
  whether it is the game's live board message.
* Controls as data — :class:`BoardControls`, :class:`DestinationControls`,
  :class:`ChallengeControls` — with custom ids built and parsed here, so a click
  on an old message routes to the right game after a restart.
* :class:`Notice` — what the service says on its own (challenge expired, timeout
  warning, forfeit, the bot's move after a restart), from ``ShaxService.tick``.
* :class:`UserError` and its subclasses — refusals whose message is the complete,
  friendly sentence to show ephemerally (what is wrong and what to do instead).
* :data:`slow_answer` — how the service tells the adapter, mid-call, that its answer
  will take a while (the bot is about to think), so the interaction is acknowledged
  at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import NamedTuple

# -- slow answers ---------------------------------------------------------------

slow_answer: ContextVar[Callable[[], None] | None] = ContextVar("shax_slow_answer", default=None)
"""Set by an adapter around a service call. The service calls it (through
:func:`announce_slow_answer`) when it starts work that takes a while, such as the
bot thinking, so that the adapter can acknowledge now instead of waiting out its
budget for a quick answer."""


def announce_slow_answer() -> None:
    """Tell the adapter serving this call, if any, that the answer will be slow."""
    hook = slow_answer.get()
    if hook is not None:
        hook()


# -- who and where -------------------------------------------------------------


@dataclass(frozen=True)
class User:
    """A player as the service sees one: an id, a display name, and whether it is a bot."""

    id: int
    name: str
    is_bot: bool = False

    @property
    def mention(self) -> str:
        return mention(self.id)


@dataclass(frozen=True)
class Place:
    """Where a command was used: the server (``None`` in DMs), the channel or thread,
    and a thread's parent channel."""

    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None = None

    @property
    def is_thread(self) -> bool:
        return self.parent_channel_id is not None


def mention(user_id: int) -> str:
    """A user mention as Discord writes it; the console turns it back into ``@name``."""
    return f"<@{user_id}>"


MENTION_RE = re.compile(r"<@!?(\d+)>")
"""Matches a mention written by :func:`mention` (group 1 is the user id)."""


# -- controls --------------------------------------------------------------------

MAX_CHOICES = 25
"""Discord's limit for select options and autocomplete choices."""


@dataclass(frozen=True)
class Choice:
    """One option of a select or of autocomplete: shown ``label``, sent ``value``."""

    label: str
    value: str
    description: str = ""


@dataclass(frozen=True)
class BoardControls:
    """The components under a live board.

    ``choices`` (at most 25) are the legal actions; when ``two_step`` is true there
    were more than 25 moves, so the choices are the movable stones and picking one
    asks for its destination (``ShaxService.choose_stone`` answers with
    :class:`DestinationControls`). The select's custom id is
    :func:`act_id` ``(game_id, version)``; the buttons are Resign
    (:func:`resign_id`), Offer draw / Accept draw (:func:`draw_id`; the label is
    "Accept draw" when ``draw_offered_by`` is set), Decline draw
    (:func:`nodraw_id`, only while an offer stands), and Rematch
    (:func:`rematch_id`) once ``rematch`` is true (the game is over; then there
    are no choices and no Resign/draw buttons).
    """

    game_id: int
    version: int
    choices: tuple[Choice, ...] = ()
    two_step: bool = False
    can_offer_draw: bool = False
    draw_offered_by: int | None = None
    rematch: bool = False
    placeholder: str = ""

    @property
    def over(self) -> bool:
        return self.rematch


@dataclass(frozen=True)
class DestinationControls:
    """The second step of a move: where the stone on ``src`` goes (custom id :func:`to_id`)."""

    game_id: int
    version: int
    src: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class ChallengeControls:
    """Accept / Decline buttons under a challenge (:func:`accept_id`, :func:`decline_id`).

    Decline pressed by the challenger withdraws the challenge.
    """

    challenge_id: int


Controls = BoardControls | DestinationControls | ChallengeControls


class Attachment(NamedTuple):
    """A file to attach: ``(filename, bytes)``, e.g. ``("board.png", png)``."""

    filename: str
    data: bytes


BOARD_FILENAME = "board.png"
RULES_FILENAME = "board-points.png"


@dataclass(frozen=True)
class Reply:
    """One message for the adapter to send.

    ``text`` writes mentions as ``<@id>``; ``mentions`` lists the user ids that the
    message should actually ping (everyone else is written but not pinged).
    ``live_board`` means this message is the game's live board: the adapter updates
    the board message (the clicked message, or ``board_message_id`` when it is
    known) rather than posting a new one, and reports the id of a newly posted board
    with ``ShaxService.set_board_message``. ``ephemeral`` replies are shown only to
    the user who acted.
    """

    text: str
    ephemeral: bool = False
    attachments: tuple[Attachment, ...] = ()
    controls: Controls | None = None
    game_id: int | None = None
    version: int | None = None
    live_board: bool = False
    board_message_id: int | None = None
    challenge_id: int | None = None
    mentions: tuple[int, ...] = ()


@dataclass(frozen=True)
class Notice:
    """Something the service says on its own, in ``channel_id``.

    With ``edit_message_id`` the adapter edits that message (the live board, or
    the challenge that expired) instead of posting a new one; it may still post a
    short new message to ping the ``reply.mentions``.
    """

    channel_id: int
    reply: Reply
    edit_message_id: int | None = None


# -- custom ids ------------------------------------------------------------------
#
# Every id starts with "shax:", fits in 100 characters, and carries the game and
# its version (or the challenge), so any old message still routes after a restart
# and a click on a superseded board is refused with StaleBoard.

CUSTOM_ID_MAX = 100

TEMPLATES: dict[str, str] = {
    "act": r"shax:act:(?P<game_id>[0-9]+):(?P<version>[0-9]+)",
    "to": r"shax:to:(?P<game_id>[0-9]+):(?P<version>[0-9]+):(?P<src>[a-z][0-9]+)",
    "resign": r"shax:resign:(?P<game_id>[0-9]+):(?P<version>[0-9]+)",
    "draw": r"shax:draw:(?P<game_id>[0-9]+):(?P<version>[0-9]+)",
    "nodraw": r"shax:nodraw:(?P<game_id>[0-9]+):(?P<version>[0-9]+)",
    "rematch": r"shax:rematch:(?P<game_id>[0-9]+)",
    "accept": r"shax:accept:(?P<challenge_id>[0-9]+)",
    "decline": r"shax:decline:(?P<challenge_id>[0-9]+)",
}
"""Regexes for ``discord.ui.DynamicItem(template=...)``, one per kind of control."""

_COMPILED = {kind: re.compile(pattern) for kind, pattern in TEMPLATES.items()}


def act_id(game_id: int, version: int) -> str:
    """The select of legal actions (or of stones, in a two-step move)."""
    return f"shax:act:{game_id}:{version}"


def to_id(game_id: int, version: int, src: str) -> str:
    """The select of destinations for the stone on ``src``."""
    return f"shax:to:{game_id}:{version}:{src}"


def resign_id(game_id: int, version: int) -> str:
    return f"shax:resign:{game_id}:{version}"


def draw_id(game_id: int, version: int) -> str:
    """Offer a draw, or accept the one on the table."""
    return f"shax:draw:{game_id}:{version}"


def nodraw_id(game_id: int, version: int) -> str:
    """Decline the draw on the table."""
    return f"shax:nodraw:{game_id}:{version}"


def rematch_id(game_id: int) -> str:
    return f"shax:rematch:{game_id}"


def accept_id(challenge_id: int) -> str:
    return f"shax:accept:{challenge_id}"


def decline_id(challenge_id: int) -> str:
    return f"shax:decline:{challenge_id}"


@dataclass(frozen=True)
class CustomId:
    """A parsed custom id: ``kind`` is a key of :data:`TEMPLATES`."""

    kind: str
    game_id: int | None = None
    version: int | None = None
    src: str | None = None
    challenge_id: int | None = None


def parse_custom_id(custom_id: str) -> CustomId | None:
    """Read a custom id built by the functions above; ``None`` if it is not one of ours."""
    for kind, pattern in _COMPILED.items():
        m = pattern.fullmatch(custom_id)
        if m is None:
            continue
        groups = m.groupdict()
        return CustomId(
            kind=kind,
            game_id=int(groups["game_id"]) if "game_id" in groups else None,
            version=int(groups["version"]) if "version" in groups else None,
            src=groups.get("src"),
            challenge_id=int(groups["challenge_id"]) if "challenge_id" in groups else None,
        )
    return None


# -- refusals --------------------------------------------------------------------


class UserError(Exception):
    """A refusal; ``str(error)`` is the friendly sentence to show ephemerally."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def reply(self) -> Reply:
        """The ephemeral reply that shows this refusal."""
        return Reply(text=self.message, ephemeral=True)


class NoGameHere(UserError):
    """There is no game in this channel (or not with this id)."""


class NotYourGame(UserError):
    """Someone who is not one of the two players tried to act in a game."""


class NotYourTurn(UserError):
    """A player acted while the other is on turn."""


class IllegalAction(UserError):
    """A well-formed action the rules do not allow now; carries the engine's reason and
    the legal actions."""

    def __init__(self, message: str, action: str, reason: str, legal: list[str]) -> None:
        super().__init__(message)
        self.action = action
        self.reason = reason
        self.legal = legal


class MalformedAction(IllegalAction):
    """Text that is not an action on this board (bad notation or an unknown point)."""


class GameOver(UserError):
    """An action in a game that has ended."""


class StaleBoard(UserError):
    """A click on a board that has since changed (a superseded version)."""


class ChannelBusy(UserError):
    """A game is already being played in this channel; the message points to a thread."""


class ChallengeError(UserError):
    """A challenge that cannot be made, accepted, declined or cancelled."""


class DrawError(UserError):
    """A draw offer that cannot be made, accepted or declined now."""


class BadOption(UserError):
    """An option value that is not one of the allowed ones (variant, level, first)."""
