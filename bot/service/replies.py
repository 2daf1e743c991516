"""What the game service answers, as plain data: no Discord types, no language, no markup.

The Discord adapter and the local console both turn these values into output:

* :class:`Said` — what to say: a message id (a sentence of :mod:`bot.words` by its name,
  or a plain message's catalogue id) with its values, players among them as
  :class:`User` references. It becomes words only at the edge, where an adapter hands it
  to a voice of :mod:`bot.words`: the translator of whoever reads it, how that surface
  writes a player (a Discord mention, ``@name`` in the console), and its surface (buttons
  or typed commands).
* :class:`Reply` — a :class:`Said` text, attachments, controls, whether it is the game's
  live board message, and whose language it speaks (:attr:`Reply.players`).
* Controls as data — :class:`BoardControls`, :class:`DestinationControls`,
  :class:`ChallengeControls`: what a player can do next, with every legal choice.
  How they are drawn (and how many fit) is the adapter's business.
* :class:`Notice` — what the service says on its own (challenge expired, timeout
  warning, forfeit, the bot's move after a restart), from ``ShaxService.tick``.
* :class:`UserError` and its subclasses — refusals whose :class:`Said` message is the
  complete, friendly sentence to show ephemerally (what is wrong and what to do instead).
* :data:`Thinking` — the callback a caller may pass to calls that can make the bot
  think, so it learns at once that the answer will take a while.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, Protocol

from bot.service.buttons import Buttons
from bot.service.said import BOT_PLAYER as BOT_PLAYER
from bot.service.said import JOIN as JOIN
from bot.service.said import MESSAGE as MESSAGE
from bot.service.said import Said as Said
from bot.service.said import Saying as Saying

Thinking = Callable[[], None]
"""Called by the service when it starts work that takes a while (the bot thinking), so
that an adapter can acknowledge now instead of waiting for the answer."""


def not_thinking() -> None:
    """The :data:`Thinking` callback of a caller that does not need to know."""


# -- who and where -------------------------------------------------------------


@dataclass(frozen=True)
class User:
    """A player as the service sees one: an id, a display name, and whether it is a bot.
    In a :class:`Said` it is a reference the adapter writes its own way."""

    id: int
    name: str
    is_bot: bool = False


class BotName(str):
    """The bot's name in a game at one level: the text stored and logged is its own name
    with the level (``"Shax bot (easy)"``); where it is shown, a voice writes it in the
    reader's language (Somali ``Bot-ka (fudud)``), on a picture as in words."""

    bot: str
    level: str

    def __new__(cls, bot: str, level: str) -> BotName:
        name = super().__new__(cls, f"{bot} ({level})")
        name.bot, name.level = bot, level
        return name

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]
        return self.bot, self.level

    @classmethod
    def stored(cls, name: str, level: str) -> BotName:
        """The bot's name as a game stores it (``"Shax bot (easy)"``), read back."""
        return cls(name.removesuffix(f" ({level})"), level)


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


@dataclass(frozen=True)
class Channel:
    """A channel named in a :class:`Said`: the adapter writes it (a Discord link, ``#id``)."""

    id: int


# -- who reads a picture ----------------------------------------------------------


class Reader(Protocol):
    """Whoever a picture is drawn for: the code of their language, and their words for
    what the picture says (a voice of :mod:`bot.words`)."""

    @property
    def language(self) -> str: ...

    def say(self, said: Said) -> str: ...


# -- controls --------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One option of a select or of autocomplete: shown ``label``, sent ``value``."""

    label: str
    value: str
    description: Said | None = None


@dataclass(frozen=True)
class Menu:
    """The choices that fit one select: the legal actions, or the movable stones when the
    actions are more than fit (picking a stone then asks for its destination)."""

    choices: tuple[Choice, ...]
    placeholder: Said | None
    two_step: bool = False


@dataclass(frozen=True)
class BoardControls:
    """What can be done under a live board.

    ``actions`` are every legal action; in the movement phase ``stones`` are the
    movable stones (value: the point; description: where each can go), for the
    two-step move a caller with a small select uses (:meth:`menu`): picking a stone
    asks for its destination (``ShaxService.play`` with the bare point answers with
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
    placeholder: Said | None = None
    stones_placeholder: Said | None = None

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


@dataclass(frozen=True)
class PuzzleControls:
    """Under a player's puzzle: while it is open, its legal actions (the answer) and a
    button that gives it up for the solution; once it is over, a button for the next."""

    attempt_id: int
    version: int
    variant: str
    record: tuple[str, ...]
    """The actions that reach the position shown (a surface without pictures draws it)."""
    choices: tuple[Choice, ...] = ()
    placeholder: Said | None = None
    theme: str | None = None
    """The theme chosen for the try (an id), which its next puzzle keeps."""

    @property
    def over(self) -> bool:
        return not self.choices


@dataclass(frozen=True)
class DailyControls:
    """Under a puzzle of the day: the button that opens one's own try of it."""

    daily_id: int


GameControls = BoardControls | DestinationControls | ChallengeControls
Controls = GameControls | PuzzleControls | DailyControls | Buttons


class Attachment(NamedTuple):
    """A file to attach: ``(filename, bytes)``, e.g. ``("board.png", png)``."""

    filename: str
    data: bytes


@dataclass(frozen=True)
class Picture:
    """A picture still to draw: its words (names, captions) are those of the message it
    is attached to, so it is drawn (:func:`drawn`) once the adapter knows who reads it.
    ``draw(reader)`` returns the file's bytes, drawn away from the event loop."""

    filename: str
    draw: Callable[[Reader], Awaitable[bytes]]


Offload = Callable[..., Awaitable[Any]]
"""``run(fn, *args)`` draws a picture away from the event loop: ``asyncio.to_thread``
by default, worker processes (``bot.workers.pictures.PicturePool.run``) in the running bot."""


async def drawn(reply: Reply, reader: Reader) -> Reply:
    """``reply`` with its pictures drawn for ``reader``."""
    if not any(isinstance(a, Picture) for a in reply.attachments):
        return reply
    files = [
        Attachment(a.filename, await a.draw(reader)) if isinstance(a, Picture) else a
        for a in reply.attachments
    ]
    return replace(reply, attachments=tuple(files))


BOARD_FILENAME = "board.png"
RULES_FILENAME = "board-points.png"


@dataclass(frozen=True)
class Reply:
    """One message for the adapter to send.

    ``text`` is what to say; ``mentions`` lists the user ids that the message should
    actually ping (everyone else is named but not pinged). ``players`` are the two
    players of the game (or challenge) the message belongs to: a game's message speaks
    their language when both chose the same, else the server's; a reply without
    ``players`` answers whoever asked, in their language (docs/ARCHITECTURE.md, "Who
    reads what"). ``chosen`` are the languages the people it was composed for chose
    (user id, language code or ``None``), read with it, so that the adapter speaking it
    does not ask for them again.
    ``live_board`` means this message is the game's live board: the adapter updates
    the board message (the clicked message, or ``board_message_id`` when it is
    known) rather than posting a new one, and reports the id of a newly posted board
    or challenge with ``ShaxService.posted``. ``ephemeral`` replies are shown only to
    the user who acted. ``result`` is set on the final board of a game: the result in
    one line, and the channel the game's channel belongs to (a thread's parent), so a
    game played in a thread can be announced where the thread was opened.
    ``announcement``: it is said to everyone where it is posted (a tournament's opening,
    its rounds), so it speaks the server's language, whoever asked.
    """

    text: Said
    ephemeral: bool = False
    attachments: tuple[Attachment | Picture, ...] = ()
    controls: Controls | None = None
    game_id: int | None = None
    version: int | None = None
    live_board: bool = False
    board_message_id: int | None = None
    challenge_id: int | None = None
    mentions: tuple[int, ...] = ()
    result: Result | None = None
    players: tuple[int, ...] = ()
    chosen: tuple[tuple[int, str | None], ...] = ()
    announcement: bool = False


@dataclass(frozen=True)
class Result:
    """How a game ended, in one line (see :attr:`Reply.result`)."""

    line: Said
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
    guild_id: int | None = None
    """The server of the channel, whose language a game's notice may speak."""


# -- refusals --------------------------------------------------------------------


class UserError(Exception):
    """A refusal; ``message`` is the friendly sentence to show ephemerally, in the
    language of whoever it answers."""

    def __init__(self, message: Said) -> None:
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

    def __init__(self, message: Said, action: str, reason: str, legal: list[str]) -> None:
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
