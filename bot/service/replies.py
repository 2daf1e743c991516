"""What the game service answers, as plain data: no Discord types anywhere.

The Discord adapter and the local console both turn these values into output:

* :class:`Reply` — text (mentions written ``<@id>``), attachments, controls, and
  whether it is the game's live board message.
* Controls as data — :class:`BoardControls`, :class:`DestinationControls`,
  :class:`ChallengeControls`: what a player can do next, with every legal choice.
  How they are drawn (and how many fit) is the adapter's business.
* :class:`Notice` — what the service says on its own (challenge expired, timeout
  warning, forfeit, the bot's move after a restart), from ``ShaxService.tick``.
* :class:`UserError` and its subclasses — refusals whose message is the complete,
  friendly sentence to show ephemerally (what is wrong and what to do instead).
* :data:`Thinking` — the callback a caller may pass to calls that can make the bot
  think, so it learns at once that the answer will take a while.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

Thinking = Callable[[], None]
"""Called by the service when it starts work that takes a while (the bot thinking), so
that an adapter can acknowledge now instead of waiting for the answer."""


def not_thinking() -> None:
    """The :data:`Thinking` callback of a caller that does not need to know."""


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


@dataclass(frozen=True)
class Choice:
    """One option of a select or of autocomplete: shown ``label``, sent ``value``."""

    label: str
    value: str
    description: str = ""


@dataclass(frozen=True)
class Menu:
    """The choices that fit one select: the legal actions, or the movable stones when the
    actions are more than fit (picking a stone then asks for its destination)."""

    choices: tuple[Choice, ...]
    placeholder: str
    two_step: bool = False


@dataclass(frozen=True)
class BoardControls:
    """What can be done under a live board.

    ``actions`` are every legal action; in the movement phase ``stones`` are the
    movable stones (value: the point; description: where each can go), for the
    two-step move a caller with a small select uses (:meth:`menu`): picking a stone
    asks for its destination (``ShaxService.choose_stone`` answers with
    :class:`DestinationControls`). The buttons: Resign, Offer draw / Accept draw
    (while ``draw_offered_by`` is set), Decline draw (only while an offer stands),
    and Rematch once ``rematch`` is true (the game is over; then there are no
    actions and no Resign/draw buttons).
    """

    game_id: int
    version: int
    actions: tuple[Choice, ...] = ()
    stones: tuple[Choice, ...] = ()
    can_offer_draw: bool = False
    draw_offered_by: int | None = None
    rematch: bool = False
    placeholder: str = ""
    stones_placeholder: str = ""

    @property
    def over(self) -> bool:
        return self.rematch

    def menu(self, limit: int) -> Menu:
        """The choices for a select of at most ``limit`` options."""
        if len(self.actions) > limit and self.stones:
            return Menu(self.stones[:limit], self.stones_placeholder, two_step=True)
        return Menu(self.actions[:limit], self.placeholder)


@dataclass(frozen=True)
class DestinationControls:
    """The second step of a move: where the stone on ``src`` goes."""

    game_id: int
    version: int
    src: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class ChallengeControls:
    """Accept / Decline buttons under a challenge.

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
    or challenge with ``ShaxService.posted``. ``ephemeral`` replies are shown only to
    the user who acted. ``result`` is set on the final board of a game: the result in
    one line, and the channel the game's channel belongs to (a thread's parent), so a
    game played in a thread can be announced where the thread was opened.
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
    result: Result | None = None


@dataclass(frozen=True)
class Result:
    """How a game ended, in one line (see :attr:`Reply.result`)."""

    line: str
    parent_channel_id: int | None = None


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
    language: str | None = None
    """The language the reply was written in (its server's), for its buttons too."""


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
