"""How a ``/shax`` command is declared: its options, what it asks of the service, its help.

Every surface (the Discord cog, the local console) is built from these declarations; the
table itself is :mod:`bot.commands.table`. Words held here are catalogue messages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from bot.service.replies import Choice, Place, Reply, Said, Thinking, User, UserError, not_thinking
from shax_i18n import N_

if TYPE_CHECKING:
    from bot.service.facade import ShaxService

TOO_LONG = N_("That is too long for `{option}`: at most {most} characters.")


class Kind(Enum):
    """What an option's value is."""

    TEXT = "text"
    CHOICE = "choice"
    """Text, one of the option's :attr:`Option.choices`."""
    USER = "user"
    CHANNEL = "channel"
    FLAG = "flag"
    """True or false."""


@dataclass(frozen=True)
class Pick:
    """One of a choice option's values, with the label a menu shows for it."""

    value: str
    label: str


Completer = Callable[["ShaxService", User, Place, str], Awaitable[list[Choice]]]
"""Suggestions for an option as it is typed: the service, who types, where, and what."""

Value = str | bool | int | User | None
"""An option's value as a surface hands it over: text, a flag, a channel's id, a user."""


@dataclass(frozen=True)
class Option:
    """One option of a command."""

    name: str
    kind: Kind
    help: str
    """What it is for: a catalogue message (Discord's description of the option)."""
    required: bool = False
    default: str | bool | None = None
    """The value when it is left out (``None``: the command decides)."""
    choices: tuple[Pick, ...] = ()
    max_length: int | None = None
    """The longest text accepted (Discord's client enforces it; the command checks it
    again for clients that do not)."""
    too_long: str | None = TOO_LONG
    """The refusal of a longer text: a catalogue message (``{option}``, ``{most}``); or
    ``None`` where the service judges every value itself and says what it takes (a
    length of time names its range, however long the text)."""
    complete: Completer | None = None
    """Suggestions as it is typed (Discord's autocomplete, the console's Tab)."""
    missing: str | None = None
    """The refusal when a required option is left out, where a surface can leave it out
    (the console): a catalogue message with ``{example}`` a value to write."""
    sample: str = ""
    """A value to show in a usage line (a text option's), when there are no choices."""
    notation: bool = False
    """Its value is an action in notation: its examples are points of the board in view."""

    def __post_init__(self) -> None:
        if self.required and self.missing is None:
            raise ValueError(f"the required option {self.name} must say what to write")

    @property
    def param(self) -> str:
        """The option's name as a Python identifier (``turn-timeout`` → ``turn_timeout``)."""
        return self.name.replace("-", "_")

    def left_out(self, example: str) -> UserError:
        """The refusal of a required option left out; ``example`` is a value to write."""
        assert self.missing is not None  # declared with every required option
        return UserError(Said.message(self.missing, example=example))

    def checked(self, value: Value) -> Value:
        """``value`` if it is acceptable here; a text that is too long is refused."""
        if (
            isinstance(value, str)
            and self.max_length is not None
            and self.too_long is not None
            and len(value.strip()) > self.max_length
        ):
            raise UserError(Said.message(self.too_long, option=self.name, most=self.max_length))
        return value


@dataclass(frozen=True)
class Asked:
    """One use of a command: who asked, where, with which options, and what the surface
    knows besides. Built by a surface, handed to :attr:`Command.run`."""

    service: ShaxService
    user: User
    place: Place
    options: Mapping[str, Value] = field(default_factory=dict)
    thinking: Thinking = not_thinking
    """Called when the bot starts to think (the surface says so)."""
    may_change_settings: bool = False
    """Manage Server on Discord; always at the local console."""
    operator: bool = False
    """Asked at the bot's own console: the settings outside servers are theirs too."""
    game_id: int | None = None
    """The game the surface has in view (the console's last), for rematch and review."""
    variant: str | None = None
    """The variant in view (the console's last), the default board for the rules."""

    def text(self, name: str) -> str | None:
        value = self.options.get(name)
        return value if isinstance(value, str) else None

    def person(self, name: str) -> User | None:
        value = self.options.get(name)
        return value if isinstance(value, User) else None

    def channel(self, name: str) -> int | None:
        value = self.options.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def flag(self, name: str) -> bool:
        return self.options.get(name) is True


@dataclass(frozen=True)
class Group:
    """Commands that belong together under one more word: ``/shax tournament create``.
    On Discord a subcommand group inside ``/shax``; at the console the word before the
    command's name."""

    name: str
    help: str
    """What the group is for: a catalogue message (Discord's description of the group)."""


@dataclass(frozen=True)
class Command:
    """One ``/shax`` command, declared once for every surface."""

    name: str
    help: str
    """Its help line: a catalogue message (Discord's description of the command)."""
    run: Callable[[Asked], Awaitable[Reply]]
    options: tuple[Option, ...] = ()
    button: str | None = None
    """On Discord it is this button (the kind of its custom id: under a challenge, a
    board or a final board), not a slash command; the console types it."""
    opponent: Callable[[Asked], User] | None = None
    """It starts a game against this player: a busy channel may give it a thread."""
    servers_only: bool = False
    """It works in a server's channels only (not in direct messages)."""
    waiting: str | None = None
    """Said at once while a slow answer is prepared (a catalogue message)."""
    board_help: str | None = None
    """Its help line where a board is in view (the console's), with ``{notation}`` the
    board's own examples; :attr:`help` elsewhere."""
    group: Group | None = None
    """The group it belongs to (``/shax tournament create``), if any."""

    @property
    def path(self) -> tuple[str, ...]:
        """The words after ``/shax`` that name it: ``("tournament", "create")``."""
        return (self.name,) if self.group is None else (self.group.name, self.name)

    @property
    def spelled(self) -> str:
        """How it is typed after ``/shax``: ``tournament create``."""
        return " ".join(self.path)

    @property
    def buttons_only(self) -> bool:
        return self.button is not None

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)
